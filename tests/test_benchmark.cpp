// The reduction benchmark and its plots: quick mode writes a complete CSV, sizes that do not fit
// are refused with the figure, the plot script draws all four graphs and names a bad line.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "kit/paths.hpp"
#include "support.hpp"

TEST_CASE("the benchmark's quick mode measures every kernel and writes the CSV") {
  test::TempDir dir;
  const auto run = test::run_program("reduction-benchmark", "--quick --sizes 1Mi,2Mi -o " + (dir / "q.csv").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK(run.output.find("needs 0.02 GiB on the host") != std::string::npos);
  CHECK(run.output.find("Cascade / OpenMP, alternating at N = 2Mi: ") != std::string::npos);
  const std::string csv = test::read(dir / "q.csv");
  for (const char* kernel : {",ArrayMultReduce,", ",ArrayMultReduce + host sum,", ",CascadeDot,", ",SinglePassDot,", ",Latency floor,", ",StreamRead roof,", ",StreamRead roof + result read,",
                             ",OpenMP simd (host CPU),"})
    CHECK_MESSAGE(csv.find(kernel) != std::string::npos, kernel);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 2 * (2 * 2 + 6));  // header; per size 2 x 2 lab 03 rows + 6
  // The per-size summary: the single launch against the roof (best against best, and round by
  // round), the roof with a result read, and the slide kernel's whole reduction; ten figures a size.
  CHECK(run.output.find("Per size (GNum/s, best of 2 rounds): N, SinglePassDot, roof, single / roof, the same round by round "
                        "(median [middle half]), roof + result read, single / (roof + read)") != std::string::npos);
  for (const char* size : {"\n     1Mi  ", "\n     2Mi  "}) {
    const std::size_t at = run.output.find(size);
    REQUIRE_MESSAGE(at != std::string::npos, size);
    std::istringstream line(run.output.substr(at + 1, run.output.find('\n', at + 1) - at - 1));
    std::string n;
    double single, roof, ratio, per_round, low, high, roof_read, vs_read, slide, vs_slide;
    char open = 0, close = 0;
    line >> n >> single >> roof >> ratio >> per_round >> open >> low >> high >> close >> roof_read >> vs_read >> slide >> vs_slide;
    REQUIRE_MESSAGE(!line.fail(), run.output);
    CHECK(open == '[');
    CHECK(close == ']');
    CHECK(single > 0);
    // Every figure is printed to two decimals (within 0.005): a printed ratio a / b lies within
    // 0.005 of the printed a' / b', give or take (a' / b') (0.005 / a' + 0.005 / b') from a' and b'.
    const auto agrees = [](double printed, double a, double b) {
      return std::abs(printed - a / b) <= 0.005 + (a / b) * (0.005 / a + 0.005 / b) + 1e-9;
    };
    CHECK_MESSAGE(agrees(ratio, single, roof), run.output);
    CHECK(low <= per_round);
    CHECK(per_round <= high);
    CHECK_MESSAGE(agrees(vs_read, single, roof_read), run.output);
  }
  CHECK(csv.find("Portable Computing Language") != std::string::npos);

  // The plots, from the CSV just written.
  const std::string plot = "/usr/bin/python3 " + (kit::root() / "scripts/plot_benchmark.py").string() + " " +
                           (dir / "q.csv").string() + " --out " + (dir / "plots").string() + " > /dev/null 2>&1";
  REQUIRE(std::system(plot.c_str()) == 0);
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir / "plots")) files += e.is_regular_file();
  CHECK(files == 8);  // four graphs, PNG and SVG

  std::ofstream(dir / "q.csv", std::ios::app) << "\"broken row\",1,2\n";
  const auto bad = test::run_command(test::kit_path("scripts/plot_benchmark.py") + " " + (dir / "q.csv").string() + " --out " +
                                     (dir / "p2").string());
  CHECK(bad.exit_code != 0);
  CHECK(bad.output.find("q.csv:22: expected 14 fields, found 3") != std::string::npos);
}

TEST_CASE("sizes that do not fit are refused with the figures") {
  const auto run = test::run_program("reduction-benchmark", "--sizes 8Gi --quick --no-openmp");
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("does not fit") != std::string::npos);
  CHECK(run.output.find("64.00 GiB on the host") != std::string::npos);
}

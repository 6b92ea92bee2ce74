// The lecture deck (slides/lecture.tex) builds cleanly: scripts/build-slides.sh into a temp folder,
// at least 20 pages, every listing and graph the .tex sources name exists, and the LaTeX log has no
// undefined reference and no overfull line. Fails where latexmk is missing, unless KIT_SKIP_SLIDES=1.
#include <doctest/doctest.h>

#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>

#include "kit/paths.hpp"
#include "support.hpp"

namespace {

bool on_path(const std::string& tool) {
  return test::run_command("command -v " + tool + " >/dev/null 2>&1").exit_code == 0;
}

// \lstinputlisting[...]{T} and \includegraphics[...]{T} targets of every .tex file under slides/,
// with the deck's own macros (\pocl, \hgpu, \clcode, \cppcode) expanded.
std::set<std::string> targets(const std::filesystem::path& slides) {
  std::set<std::string> found;
  std::map<std::string, std::string> macros;
  std::string all;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(slides))
    if (entry.path().extension() == ".tex") all += test::read(entry.path()) + "\n";
  const std::regex define(R"(\\newcommand\{\\(\w+)\}\{([^{}]*)\})");
  for (std::sregex_iterator it(all.begin(), all.end(), define), end; it != end; ++it)
    macros[(*it)[1]] = (*it)[2];
  const auto expand = [&](std::string s) {
    for (const auto& [name, value] : macros)
      for (std::size_t at; (at = s.find("\\" + name)) != std::string::npos;) s.replace(at, name.size() + 1, value);
    return s;
  };
  std::istringstream lines(all);
  const std::regex include(R"(\\(lstinputlisting|includegraphics|clcode|cppcode|kitdrawing)(\[[^\]]*\])?\{([^{}#]+)\})");
  for (std::string line; std::getline(lines, line);) {
    line = line.substr(0, line.find('%'));
    for (std::sregex_iterator it(line.begin(), line.end(), include), end; it != end; ++it) {
      const std::string kind = (*it)[1], target = expand((*it)[3]);
      if (kind == "clcode") found.insert("listings/" + target + ".cl");
      else if (kind == "cppcode") found.insert("listings/" + target + ".cpp");
      else if (kind == "kitdrawing") found.insert("drawings/" + target + ".tex");
      else found.insert(target);
    }
  }
  return found;
}

int page_count(const std::filesystem::path& pdf) {
  if (on_path("pdfinfo")) {
    const auto info = test::run_command("pdfinfo '" + pdf.string() + "'");
    std::smatch m;
    if (std::regex_search(info.output, m, std::regex(R"(Pages:\s+(\d+))"))) return std::stoi(m[1]);
  }
  const std::string bytes = test::read(pdf);
  const std::regex page(R"(/Type\s*/Page[^s])");
  return int(std::distance(std::sregex_iterator(bytes.begin(), bytes.end(), page), std::sregex_iterator()));
}

}  // namespace

TEST_CASE("the lecture deck builds with at least 20 pages, every listing and graph present, no overfull line") {
  if (!on_path("latexmk") || !on_path("pdflatex")) {
    // `make test` installs TeX Live first, so a missing latexmk is a set-up fault unless the caller
    // said, with KIT_SKIP_SLIDES=1, that this machine is not meant to build the deck.
    const char* skip = std::getenv("KIT_SKIP_SLIDES");
    if (skip && std::string(skip) == "1") {
      MESSAGE("latexmk or pdflatex is not installed and KIT_SKIP_SLIDES=1: the deck is not built");
      return;
    }
    FAIL("latexmk or pdflatex is not installed: run scripts/setup.sh slides (as root), or set KIT_SKIP_SLIDES=1");
  }
  test::TempDir out;
  const auto build = test::run_command(test::kit_path("scripts/build-slides.sh") + " '" + out.path.string() + "'");
  INFO(build.output);
  REQUIRE(build.exit_code == 0);
  const auto pdf = out / "lecture.pdf";
  REQUIRE(std::filesystem::exists(pdf));
  CHECK(build.output.find(pdf.string()) != std::string::npos);
  CHECK(page_count(pdf) >= 20);

  const auto named = targets(kit::root() / "slides");
  CHECK(named.size() >= 10);
  for (const auto& target : named) CHECK_MESSAGE(std::filesystem::exists(out / target), target);

  std::istringstream log(test::read(out / "lecture.log"));
  int bad = 0;
  for (std::string line; std::getline(log, line);) {
    const bool wrong = line.find("LaTeX Warning: Reference") != std::string::npos ||
                       line.find("undefined") != std::string::npos ||
                       line.find("Overfull \\hbox") != std::string::npos;
    if (wrong) { ++bad; CHECK_MESSAGE(!wrong, line); }
  }
  CHECK(bad == 0);
}

TEST_CASE("the listing extractor names the file and the marker when a marker is missing") {
  test::TempDir dir;
  test::write(dir / "manifest.txt", "no-such-region  solutions/03-array-mult-reduce/ArrayMultReduce.cl\n");
  const auto run = test::run_command("/usr/bin/python3 " + test::kit_path("scripts/extract_slide_listings.py") +
                                     " --manifest '" + (dir / "manifest.txt").string() + "' --out '" +
                                     (dir / "out").string() + "'");
  CHECK(run.exit_code != 0);
  CHECK(run.output.find("ArrayMultReduce.cl") != std::string::npos);
  CHECK(run.output.find("no-such-region") != std::string::npos);
}

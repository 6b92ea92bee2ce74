// kit's timing helpers: quantiles of a list, the alternating speed ratio's median and quartiles, and runs timed in rounds.
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "kit/launch.hpp"
#include "kit/timing.hpp"
#include "support.hpp"

TEST_CASE("quantiles interpolate between sorted values, and the median is the middle one") {
  const std::vector<double> v{5, 1, 4, 2, 3};
  CHECK(kit::quantile(v, 0) == 1);
  CHECK(kit::quantile(v, 1) == 5);
  CHECK(kit::quantile(v, 0.25) == 2);
  CHECK(kit::quantile(v, 0.75) == 4);
  CHECK(kit::median(v) == 3);
  CHECK(kit::median({1, 2, 3, 10}) == 2.5);   // an even count: the mean of the middle two
  CHECK(kit::quantile({1, 2}, 0.25) == 1.25);
  CHECK_THROWS_AS(kit::quantile({}, 0.5), std::invalid_argument);
  CHECK_THROWS_AS(kit::quantile(v, 1.5), std::invalid_argument);
}

TEST_CASE("the alternating speed ratio says which of two runs is faster, with quartiles around the median") {
  // b sleeps 100 ms, a only counts its call. A sleep never ends early, so the median ratio falls to
  // 2 only if a's empty call takes 50 ms in more than half the pairs: no machine load does that.
  int calls_a = 0, calls_b = 0;
  const auto run = [](int ms, int& calls) {
    return [ms, &calls] {
      ++calls;
      if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    };
  };
  const kit::SpeedRatio r = kit::alternating_speed_ratio(run(0, calls_a), run(100, calls_b), 5);
  CHECK(r.pairs == 5);
  CHECK(calls_a == 6);  // one untimed run of each, then the 5 timed pairs
  CHECK(calls_b == 6);
  CHECK(r.median > 2);
  CHECK(r.lower_quartile <= r.median);
  CHECK(r.median <= r.upper_quartile);
  CHECK(kit::median_speed_ratio(run(100, calls_a), run(0, calls_b), 3) < 0.5);  // the other way round
  CHECK_THROWS_AS(kit::alternating_speed_ratio(run(0, calls_a), run(0, calls_b), 0), std::invalid_argument);
}

TEST_CASE("alternating_speed_ratio enters its timed section after the untimed runs and leaves it after the last timed one") {
  // Each call notes which run it was and whether the section was open then: the untimed runs
  // outside it, every timed run inside it.
  std::vector<std::string> calls;
  bool open = false;
  int entered = 0, left = 0;
  const auto note = [&](const char* name) { return [&, name] { calls.push_back(std::string(name) + (open ? " in" : " out")); }; };
  const kit::TimedSection section{[&] { open = true, ++entered; }, [&] { open = false, ++left; }};
  kit::alternating_speed_ratio(note("a"), note("b"), 2, section);
  CHECK(calls == std::vector<std::string>{"a out", "b out", "a in", "b in", "a in", "b in"});
  CHECK(entered == 1);
  CHECK(left == 1);
  CHECK_FALSE(open);
}

TEST_CASE("time_rounds calls every run once per round, in order, after the warm-up rounds, and times each apart") {
  std::string order;
  const auto a = [&] { order += 'a'; };
  const auto b = [&] {
    order += 'b';
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  };
  const std::vector<kit::Timing> t = kit::time_rounds(1, 3, {a, b});
  CHECK(order == "abababab");  // one warm-up round, then three timed ones: never a block of one run
  REQUIRE(t.size() == 2);
  CHECK(t[0].samples.size() == 3);
  CHECK(t[1].samples.size() == 3);
  CHECK(t[1].best >= 2e-3);  // b's own time, not a's
  CHECK(t[0].best < t[1].best);
  CHECK_THROWS(kit::time_rounds(0, 0, {[] {}}));
}

TEST_CASE("kit::LaunchWaits: a first launch at a new work-group size waits for its compile, and a kernel's own run is no wait") {
  // A program no earlier run left in PoCL's cache (its code names this process and the time: PoCL
  // keys the cache by the code after preprocessing, so a comment would not do), so that its first
  // launch at a work-group size compiles; the second launch at that size runs about half a second
  // and compiles nothing.
  const kit::Runtime& rt = test::runtime();
  const std::string unique = std::to_string(::getpid()) + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000007);
  const std::string source = "kernel void spin(global float *out, const int n)\n{\n    float a = 0.0f;\n"
                             "    for (int i = 0; i < n; ++i) a = a * 0.999f + (float)i;\n    out[get_global_id(0)] = a + (float)(" + unique +
                             "UL % 1UL);\n}\n";
  cl::Program program(rt.context, source);
  program.build("-cl-std=CL1.2");
  cl::Kernel spin(program, "spin");
  cl::Buffer out(rt.context, CL_MEM_WRITE_ONLY, 64 * sizeof(float));
  spin.setArg(0, out);
  test::TempDir dir;
  const std::filesystem::path file = dir / "waits";
  double compiled = 0, ran = 0, waited_running = 0;
  {
    const kit::LaunchWaits waits(file);
    spin.setArg(1, 1);
    kit::launch(rt.queue, spin, cl::NDRange(64), cl::NDRange(16));
    rt.queue.finish();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // its CL_COMPLETE call may come after finish()
    compiled = kit::launch_waits_in(file, kit::monotonic_seconds());
    spin.setArg(1, 20000000);
    const auto start = std::chrono::steady_clock::now();
    kit::launch(rt.queue, spin, cl::NDRange(64), cl::NDRange(16));
    rt.queue.finish();
    ran = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    waited_running = kit::launch_waits_in(file, kit::monotonic_seconds()) - compiled;
  }
  MESSAGE("compile wait ", compiled, " s; a run of ", ran, " s waited ", waited_running, " s");
  CHECK(compiled > 0.001);  // PoCL compiled the work-group function before it said CL_RUNNING
  CHECK(ran > 0.05);
  CHECK(waited_running < ran / 2);  // the run itself is not counted
  CHECK(kit::launch_waits_in(dir / "none", kit::monotonic_seconds()) == 0);
}

// kit's timing helpers: quantiles of a list, the alternating speed ratio's median and quartiles, and runs timed in rounds.
#include <doctest/doctest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "kit/timing.hpp"

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

#pragma once
// Wall-clock timing with omp_get_wtime around "enqueue + finish", as the lecture does it.
#include <functional>
#include <vector>

namespace kit {

struct Timing {
  double best = 0;    // seconds
  double median = 0;  // seconds
  std::vector<double> samples;
};

// Calls `run` `warmup` times untimed, then `repeats` times timed. `run` must enqueue and wait.
Timing time_runs(int warmup, int repeats, const std::function<void()>& run);

// Times `a` and `b` alternately, A B A B ..., `pairs` times after one untimed run of each, and
// returns the median of (seconds of b / seconds of a): above 1, a is the faster. Alternating
// keeps a machine's drifting speed (other load, clocks, caches) out of the comparison.
double median_speed_ratio(const std::function<void()>& a, const std::function<void()>& b, int pairs);

// Median of a list of seconds (the mean of the middle two for an even count).
double median(std::vector<double> values);

}  // namespace kit

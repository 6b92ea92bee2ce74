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

// Median of a list of seconds (the mean of the middle two for an even count).
double median(std::vector<double> values);

}  // namespace kit

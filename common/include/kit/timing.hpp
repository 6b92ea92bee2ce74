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
// The best and the median of timed runs' seconds (at least one).
Timing timing_of(std::vector<double> samples);

// Times several runs in rounds: `warmup` untimed rounds, then `repeats` rounds, each calling every
// run once in order. Runs that are compared with one another meet the machine's drift (other load,
// clocks, a neighbour's memory traffic) alike, which blocks of repeats one run after another do not.
std::vector<Timing> time_rounds(int warmup, int repeats, const std::vector<std::function<void()>>& runs);

// How much faster `a` is than `b`, pair by pair: the median of (seconds of b / seconds of a) and
// the quartiles of those ratios (the middle half of the pairs lies between them).
struct SpeedRatio {
  double median = 0, lower_quartile = 0, upper_quartile = 0;
  int pairs = 0;
};

// What a comparison calls around its timed runs and nothing else: `enter` after the untimed runs,
// before the first timed one, `leave` after the last (either may be empty). The grader's speed case
// asks there for the device to itself, so that building and warming up run beside other grading.
struct TimedSection {
  std::function<void()> enter, leave;
};

// Times `a` and `b` alternately, A B A B ..., `pairs` times after one untimed run of each: above 1,
// a is the faster. Alternating keeps a machine's drifting speed (other load, clocks, caches) out of
// the comparison; the quartiles say how far one pair can stray from the median.
SpeedRatio alternating_speed_ratio(const std::function<void()>& a, const std::function<void()>& b, int pairs,
                                   const TimedSection& section = {});
double median_speed_ratio(const std::function<void()>& a, const std::function<void()>& b, int pairs);  // its median

// Median of a list of seconds (the mean of the middle two for an even count).
double median(std::vector<double> values);
// The q-quantile (0 <= q <= 1) by linear interpolation between the sorted values; q = 0.5 is the median.
double quantile(std::vector<double> values, double q);

}  // namespace kit

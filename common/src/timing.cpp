#include "kit/timing.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kit {

double quantile(std::vector<double> values, double q) {
  if (values.empty()) throw std::invalid_argument("quantile of no values");
  if (!(q >= 0 && q <= 1)) throw std::invalid_argument("quantile " + std::to_string(q) + " is not within 0 .. 1");
  std::sort(values.begin(), values.end());
  const double at = q * double(values.size() - 1);
  const std::size_t below = std::size_t(at);
  if (below + 1 >= values.size()) return values.back();
  return values[below] + (at - double(below)) * (values[below + 1] - values[below]);
}

double median(std::vector<double> values) { return quantile(std::move(values), 0.5); }

Timing time_runs(int warmup, int repeats, const std::function<void()>& run) {
  if (repeats < 1) throw std::invalid_argument("time_runs needs at least one timed repeat");
  for (int i = 0; i < warmup; ++i) run();
  std::vector<double> samples;
  for (int i = 0; i < repeats; ++i) {
    const double t0 = omp_get_wtime();
    run();
    samples.push_back(omp_get_wtime() - t0);
  }
  return timing_of(std::move(samples));
}

std::vector<Timing> time_rounds(int warmup, int repeats, const std::vector<std::function<void()>>& runs) {
  if (repeats < 1) throw std::invalid_argument("time_rounds needs at least one timed round");
  for (int i = 0; i < warmup; ++i)
    for (const auto& run : runs) run();
  std::vector<std::vector<double>> samples(runs.size());
  for (int i = 0; i < repeats; ++i)
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const double t0 = omp_get_wtime();
      runs[k]();
      samples[k].push_back(omp_get_wtime() - t0);
    }
  std::vector<Timing> out;
  for (std::vector<double>& s : samples) out.push_back(timing_of(std::move(s)));
  return out;
}

Timing timing_of(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("timing_of needs at least one timed run");
  Timing t;
  t.best = *std::min_element(samples.begin(), samples.end());
  t.median = median(samples);
  t.samples = std::move(samples);
  return t;
}

SpeedRatio alternating_speed_ratio(const std::function<void()>& a, const std::function<void()>& b, int pairs,
                                   const TimedSection& section) {
  if (pairs < 1) throw std::invalid_argument("a speed ratio needs at least one pair of runs");
  a();
  b();
  if (section.enter) section.enter();
  std::vector<double> ratios;
  for (int i = 0; i < pairs; ++i) {
    double t0 = omp_get_wtime();
    a();
    const double ta = omp_get_wtime() - t0;
    t0 = omp_get_wtime();
    b();
    ratios.push_back((omp_get_wtime() - t0) / ta);
  }
  if (section.leave) section.leave();
  return {quantile(ratios, 0.5), quantile(ratios, 0.25), quantile(ratios, 0.75), pairs};
}

double median_speed_ratio(const std::function<void()>& a, const std::function<void()>& b, int pairs) {
  return alternating_speed_ratio(a, b, pairs).median;
}

}  // namespace kit

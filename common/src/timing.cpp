#include "kit/timing.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>

namespace kit {

double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

Timing time_runs(int warmup, int repeats, const std::function<void()>& run) {
  if (repeats < 1) throw std::invalid_argument("time_runs needs at least one timed repeat");
  for (int i = 0; i < warmup; ++i) run();
  Timing t;
  for (int i = 0; i < repeats; ++i) {
    const double t0 = omp_get_wtime();
    run();
    t.samples.push_back(omp_get_wtime() - t0);
  }
  t.best = *std::min_element(t.samples.begin(), t.samples.end());
  t.median = median(t.samples);
  return t;
}

double median_speed_ratio(const std::function<void()>& a, const std::function<void()>& b, int pairs) {
  a();
  b();
  std::vector<double> ratios;
  for (int i = 0; i < pairs; ++i) {
    double t0 = omp_get_wtime();
    a();
    const double ta = omp_get_wtime() - t0;
    t0 = omp_get_wtime();
    b();
    ratios.push_back((omp_get_wtime() - t0) / ta);
  }
  return median(ratios);
}

}  // namespace kit

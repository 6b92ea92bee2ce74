// The CUDA baseline for the kit's GPU measurements: thrust::inner_product on the same sizes as the
// benchmark, timed with a host clock around each call (it returns the sum, so it waits),
// best and median of the repeats, written as rows of the benchmark's CSV (no header).
// Build on the GPU machine: nvcc -O3 -arch=sm_90 bench/thrust_dot.cu -o thrust_dot
#include <thrust/device_vector.h>
#include <thrust/inner_product.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

struct SmallValue {  // whole numbers -8..8 as floats, like the kit's integer data
  __host__ __device__ float operator()(float i) const { return float(int(i) % 17 - 8); }
};

int main(int argc, char** argv) {
  int repeats = 5;
  std::vector<size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty()) {
    std::fprintf(stderr, "usage: thrust_dot N [N ...]\n");
    return 2;
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int driver = 0;
  cudaDriverGetVersion(&driver);
  char date[16];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  const size_t largest = *std::max_element(sizes.begin(), sizes.end());
  thrust::device_vector<float> a(largest), b(largest);
  thrust::sequence(a.begin(), a.end());
  thrust::transform(a.begin(), a.end(), a.begin(), SmallValue());
  thrust::copy(a.begin(), a.end(), b.begin());
  for (size_t n : sizes) {
    std::vector<double> seconds;
    float sum = thrust::inner_product(a.begin(), a.begin() + n, b.begin(), 0.0f);  // warm-up
    for (int r = 0; r < repeats; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      sum = thrust::inner_product(a.begin(), a.begin() + n, b.begin(), 0.0f);
      seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(seconds.begin(), seconds.end());
    const double best = seconds.front(), median = seconds[seconds.size() / 2];
    std::printf("\"%s\",\"CUDA\",\"CUDA driver %d\",%d,%s,thrust::inner_product,%zu,0,0,%.9f,%.9f,%.4f,%.4f,%.3f\n", prop.name,
                driver, prop.multiProcessorCount, date, n, best, median, n / best / 1e9, n / median / 1e9, 8.0 * n / best / 1e9);
    if (sum != sum) return 1;  // keeps the result alive
  }
  return 0;
}

#pragma once
// Lab 07 host logic, shared by the lab's program, the grader and the tests: the maximum (or the
// minimum) of a W x H float image by a pyramid of passes over OpenCL images. Each pass writes a
// ceil(w/B) x ceil(h/B) level whose texel is the maximum of a B x B block (B = 2 or 4); two
// images alternate until 1 x 1 remains. Every level is checked texel by texel against the host.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kit/device.hpp"
#include "kit/program.hpp"
#include "kit/timing.hpp"
#include "kit/verdict.hpp"
#include "kit/witness.hpp"

namespace lab07 {

inline const std::string kLab = "07-image-max-pyramid";
inline const std::string kKernelFile = "ImagePyramid.cl";
// The program's witness of a failed --check (kit/witness.hpp): the image's sides capped at 256
// under Oclgrind, and its uninitialized-value check left out, as the grader's spec allows it for
// lab 07 (grader/specs/07-image-max-pyramid.json, safety.allow).
inline const kit::WitnessPlan kWitness{
    {{"-W", "--width", 256}, {"-H", "--height", 256}},
    {{"--uninitialized", "Oclgrind 21.10 does not track what an image holds, and reports texels read from a correctly written "
                         "image as uninitialized, once per work-item"}}};
// Work-groups are kTile x kTile work-items; a pass's global size is its output's size rounded up
// to whole work-groups. One fixed shape means PoCL compiles each kernel for one work-group size
// only (it specialises a kernel per local size), and a GPU gets square 2D tiles.
inline constexpr std::size_t kTile = 16;

enum class Op { Max, Min };
Op parse_op(const std::string& text);  // "max" or "min"; kit::Error names anything else
std::string to_string(Op op);
std::string build_options(Op op);  // "" for max, "-D MIN_INSTEAD" for min

enum class Data {
  Reals,     // "real": kit's reals, multiples of 2^-23 in [-1, 1)
  Ties,      // "int": kit's whole numbers -8..8: ties in almost every block, half of them negative
  Negative,  // "negative": the reals minus 1, in [-2, 0): a stray 0 becomes the maximum
};
Data parse_data(const std::string& text);  // "real", "int" or "negative"
std::string to_string(Data data);

// The kernel of a block size, as written in OpenCL C.
std::string kernel_name(int block);  // max_pyramid_2x2, max_pyramid_4x4
std::string declaration(int block);  // "kernel void max_pyramid_2x2(read_only image2d_t src, ...)"
// The same for kit::make_kernel, which checks address spaces and types; run() also checks the
// images' access qualifiers (read_only, write_only), which kit::make_kernel does not.
kit::KernelSignature signature(int block);
std::vector<kit::KernelSignature> all_signatures();

struct Size {
  std::size_t width = 0, height = 0;
};

struct Case {
  std::size_t width = 2048, height = 2048;
  int block = 2;  // 2 or 4
  Op op = Op::Max;
  Data data = Data::Reals;
  std::uint64_t seed = 1;
};
// Throws kit::Error naming the value: a block other than 2 or 4, a side of 0 or above 2^24.
void validate(const Case& c);

// Level 0 is the input; level k + 1 is ceil(w_k / B) x ceil(h_k / B); the last level is 1 x 1.
std::vector<Size> level_sizes(const Case& c);
int expected_passes(const Case& c);  // level_sizes(c).size() - 1

std::vector<float> make_input(const Case& c);  // row-major, width * height texels

struct Level {
  std::size_t width = 0, height = 0;
  std::vector<float> texels;  // row-major
  float at(std::size_t x, std::size_t y) const { return texels[y * width + x]; }
};
// One pass on the host: texel (x, y) is the max (min) of the source texels (Bx + i, By + j),
// 0 <= i, j < B, each coordinate clamped to the source's last column and row.
Level host_pass(const Level& src, int block, Op op);
// Every level from the input (level 0) to the 1 x 1 top.
std::vector<Level> host_pyramid(const Case& c, const std::vector<float>& in);

// A level's fingerprint: FNV-1a (64 bits) over its width, height and every texel's bits.
std::string digest(const Level& level);

// Throws kit::Error when the device cannot run the lab: no image support, no CL_R / CL_FLOAT 2D
// images for reading and writing, or an image side above the device's maximum.
void check_image_support(bool image_support, const std::vector<cl::ImageFormat>& read_write_formats,
                         const std::string& device);
void check_device(const kit::Runtime& rt, const Case& c);

struct Outputs {
  std::vector<Level> levels;         // levels 1 .. K as the device wrote them
  float result = 0;                  // the 1 x 1 level (the input itself when it is 1 x 1)
  int passes = 0;
  std::vector<double> pass_seconds;  // per pass: the best device time (profiling events)
  kit::Timing timing;                // the whole pyramid, every pass enqueued, then finish
};
// Builds the file with build_options(c.op), uploads the input into a read-only image, then
// runs the passes (kTile x kTile work-groups): `warmup` + `repeats` timed pyramids, then one more
// that reads every level back.
Outputs run(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const Case& c,
            const std::vector<float>& in, int warmup, int repeats, const std::string& shown_as = "");

// What is graded, without the texels: each level's size and digest, the result, and (computed
// where the texels are) the first level that differs from the host's, with a few wrong texels.
struct LevelDigest {
  std::size_t width = 0, height = 0;
  std::string digest;
};
struct WrongTexel {
  std::size_t x = 0, y = 0;
  float got = 0;
};
struct Wrong {
  std::size_t level = 0;           // 1 .. K
  std::size_t count = 0;           // wrong texels in that level
  std::vector<WrongTexel> texels;  // the first few, in row-major order
};
inline constexpr std::size_t kWrongSamples = 16;

struct Summary {
  float result = 0;
  int passes = 0;
  std::vector<LevelDigest> levels;
  std::optional<Wrong> wrong;
};
// `host` is host_pyramid(c, in) for the same case.
Summary summarize(const Outputs& out, const std::vector<Level>& host);

struct Expected {
  double value = 0;  // the max (min) of the input, exact
  int passes = 0;
  std::vector<LevelDigest> levels;  // levels 1 .. K
};
Expected expected(const Case& c, const std::vector<Level>& host);

// The first difference in words ("level 2 of 11 (512 x 512, from 1024 x 1024): texel (511, 7):
// expected 0.99, got 0.5; 37 of 262144 texels wrong"), or nullopt when everything matches. The
// host pyramid is computed from the case when it is needed and `host` is null.
std::optional<std::string> difference(const Case& c, const Summary& s, const Expected& e,
                                      const std::vector<Level>* host = nullptr);
// The typical mistake the wrong texels match, or general advice.
std::string diagnose(const Case& c, const Summary& s, const std::vector<Level>* host = nullptr);
// The lab's verdict on one run (program --check, grader, tests): difference and diagnose; `host`,
// the host pyramid, is computed from the case when not given.
kit::Verdict check(const Case& c, const Summary& s, const Expected& e, const std::vector<Level>* host = nullptr);

// A binary PGM (P5, 8 bits): the level's own min maps to 0 and its max to 255 (all 128 when
// every texel is equal).
void write_pgm(const std::filesystem::path& file, const Level& level, const std::string& comment);

}  // namespace lab07

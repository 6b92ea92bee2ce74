#include "image_pyramid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <stdexcept>

#include "kit/launch.hpp"
#include "kit/data.hpp"
#include "kit/errors.hpp"

namespace lab07 {
namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

std::string number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

std::string size_text(std::size_t w, std::size_t h) { return std::to_string(w) + " x " + std::to_string(h); }

float pick(Op op, float a, float b) { return op == Op::Max ? std::max(a, b) : std::min(a, b); }

// The value a pass would write at (x, y) from `src` if its block were `width` x `height` texels
// starting at (x0, y0), each coordinate clamped to the source: the rule, and its typical mistakes.
float block_value(const Level& src, Op op, std::size_t x0, std::size_t y0, std::size_t width, std::size_t height) {
  float best = src.at(std::min(x0, src.width - 1), std::min(y0, src.height - 1));
  for (std::size_t j = 0; j < height; ++j)
    for (std::size_t i = 0; i < width; ++i)
      best = pick(op, best, src.at(std::min(x0 + i, src.width - 1), std::min(y0 + j, src.height - 1)));
  return best;
}

const char* access_name(cl_kernel_arg_access_qualifier q) {
  switch (q) {
    case CL_KERNEL_ARG_ACCESS_READ_ONLY: return "read_only";
    case CL_KERNEL_ARG_ACCESS_WRITE_ONLY: return "write_only";
    case CL_KERNEL_ARG_ACCESS_READ_WRITE: return "read_write";
    default: return "no access qualifier";
  }
}

// kit::make_kernel checks the images' type and address space; the access qualifiers are checked here.
void check_access(const cl::Kernel& kernel, int block, const std::string& file) {
  const cl_kernel_arg_access_qualifier want[2] = {CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_ACCESS_WRITE_ONLY};
  for (cl_uint i = 0; i < 2; ++i) {
    cl_kernel_arg_access_qualifier got;
    try {
      got = kernel.getArgInfo<CL_KERNEL_ARG_ACCESS_QUALIFIER>(i);
    } catch (const cl::Error&) {
      return;  // this driver keeps no argument information
    }
    if (got != want[i])
      throw kit::Error(file + ": parameter " + std::to_string(i + 1) + " of '" + kernel_name(block) + "' is " +
                       access_name(got) + ", expected " + access_name(want[i]) + ".\nThe lab expects:\n    " +
                       declaration(block));
  }
}

std::uint64_t fnv1a(std::uint64_t hash, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 0x100000001B3ull;
  return hash;
}

}  // namespace

Op parse_op(const std::string& text) {
  if (text == "max") return Op::Max;
  if (text == "min") return Op::Min;
  throw kit::Error("operator '" + text + "' is not one of: max, min");
}

std::string to_string(Op op) { return op == Op::Max ? "max" : "min"; }

std::string build_options(Op op) { return op == Op::Min ? "-D MIN_INSTEAD" : ""; }

Data parse_data(const std::string& text) {
  if (text == "real") return Data::Reals;
  if (text == "int") return Data::Ties;
  if (text == "negative") return Data::Negative;
  throw kit::Error("data kind '" + text + "' is not one of: real, int, negative");
}

std::string to_string(Data data) {
  return data == Data::Reals ? "real" : data == Data::Ties ? "int" : "negative";
}

std::string kernel_name(int block) { return block == 4 ? "max_pyramid_4x4" : "max_pyramid_2x2"; }

kit::KernelSignature signature(int block) {
  return {kernel_name(block), {"read_only image2d_t src", "write_only image2d_t dst", "const int2 src_size"}};
}

std::string declaration(int block) { return signature(block).text(); }

std::vector<kit::KernelSignature> all_signatures() { return {signature(2), signature(4)}; }

void validate(const Case& c) {
  if (c.block != 2 && c.block != 4)
    throw kit::Error("block size " + std::to_string(c.block) + " is not 2 or 4 (a pass reduces blocks of 2 x 2 or 4 x 4 texels)");
  for (const auto& [side, name] : {std::pair{c.width, "width"}, std::pair{c.height, "height"}}) {
    if (side == 0) throw kit::Error(std::string("image ") + name + " 0: there is nothing to reduce");
    if (side > (std::size_t(1) << 24))
      throw kit::Error(std::string("image ") + name + " " + std::to_string(side) + " is above 2^24 = 16777216 texels");
  }
}

std::vector<Size> level_sizes(const Case& c) {
  validate(c);
  std::vector<Size> sizes{{c.width, c.height}};
  while (sizes.back().width > 1 || sizes.back().height > 1)
    sizes.push_back({ceil_div(sizes.back().width, std::size_t(c.block)), ceil_div(sizes.back().height, std::size_t(c.block))});
  return sizes;
}

int expected_passes(const Case& c) { return int(level_sizes(c).size()) - 1; }

std::vector<float> make_input(const Case& c) {
  const kit::DataKind kind = c.data == Data::Ties ? kit::DataKind::Integers : kit::DataKind::Reals;
  std::vector<float> v = kit::make_data(kind, c.seed, 1, c.width * c.height);
  if (c.data == Data::Negative)
    for (float& x : v) x -= 1.0f;  // k 2^-23 - 1 = (k - 2^23) 2^-23 with |k - 2^23| <= 2^24: exact
  return v;
}

Level host_pass(const Level& src, int block, Op op) {
  Level dst;
  dst.width = ceil_div(src.width, std::size_t(block));
  dst.height = ceil_div(src.height, std::size_t(block));
  dst.texels.resize(dst.width * dst.height);
  const std::size_t b = std::size_t(block);
#pragma omp parallel for schedule(static)
  for (std::size_t y = 0; y < dst.height; ++y)
    for (std::size_t x = 0; x < dst.width; ++x) dst.texels[y * dst.width + x] = block_value(src, op, b * x, b * y, b, b);
  return dst;
}

std::vector<Level> host_pyramid(const Case& c, const std::vector<float>& in) {
  validate(c);
  if (in.size() != c.width * c.height) throw std::invalid_argument("host_pyramid: the input is not width x height texels");
  std::vector<Level> levels{{c.width, c.height, in}};
  while (levels.back().width > 1 || levels.back().height > 1) levels.push_back(host_pass(levels.back(), c.block, c.op));
  return levels;
}

std::string digest(const Level& level) {
  std::uint64_t hash = 0xCBF29CE484222325ull;
  const std::uint64_t sizes[2] = {level.width, level.height};
  hash = fnv1a(hash, sizes, sizeof sizes);
  hash = fnv1a(hash, level.texels.data(), level.texels.size() * sizeof(float));
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

void check_image_support(bool image_support, const std::vector<cl::ImageFormat>& read_write_formats,
                         const std::string& device) {
  if (!image_support)
    throw kit::Error(device + " has no image support (CL_DEVICE_IMAGE_SUPPORT is false); lab 07 works on images: "
                     "choose another device with -p and -d (--list shows them)");
  for (const cl::ImageFormat& f : read_write_formats)
    if (f.image_channel_order == CL_R && f.image_channel_data_type == CL_FLOAT) return;
  std::string single;
  for (const cl::ImageFormat& f : read_write_formats)
    if (f.image_channel_order == CL_R) single += (single.empty() ? "" : ", ") + std::to_string(f.image_channel_data_type);
  throw kit::Error(device + " does not support 2D images of format CL_R / CL_FLOAT (one float per texel) for reading "
                   "and writing, which lab 07 needs; its CL_R channel types are: " +
                   (single.empty() ? std::string("none") : single) + " (cl_channel_type codes)");
}

void check_device(const kit::Runtime& rt, const Case& c) {
  std::vector<cl::ImageFormat> formats;
  const bool images = rt.device.getInfo<CL_DEVICE_IMAGE_SUPPORT>();
  if (images) rt.context.getSupportedImageFormats(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, &formats);
  check_image_support(images, formats, rt.device_name());
  const std::size_t max_w = rt.device.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>();
  const std::size_t max_h = rt.device.getInfo<CL_DEVICE_IMAGE2D_MAX_HEIGHT>();
  if (c.width > max_w || c.height > max_h)
    throw kit::Error("a " + size_text(c.width, c.height) + " image is above this device's largest 2D image, " +
                     size_text(max_w, max_h) + " (" + rt.device_name() + ")");
}

Outputs run(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const Case& c,
            const std::vector<float>& in, int warmup, int repeats, const std::string& shown_as) {
  validate(c);
  if (in.size() != c.width * c.height) throw std::invalid_argument("lab07::run: the input is not width x height texels");
  check_device(rt, c);
  const std::string name = shown_as.empty() ? kernel_file.string() : shown_as;
  cl::Program program = kit::build_program(rt.context, rt.device, kernel_file, build_options(c.op), name);
  cl::Kernel kernel = kit::make_kernel(program, signature(c.block), name);
  check_access(kernel, c.block, name);
  kit::check_local_size(rt.device, kernel, kTile * kTile, 0);

  const std::vector<Size> sizes = level_sizes(c);
  const int passes = int(sizes.size()) - 1;
  const cl::ImageFormat format(CL_R, CL_FLOAT);
  cl::Image2D input(rt.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, format, c.width, c.height, 0,
                    const_cast<float*>(in.data()));
  // Two images the size of level 1: every later level fits in their top-left corner. They start
  // filled with a value no block can hold, +infinity for the max (-infinity for the min), so that
  // a pass reading past its source level's corner goes wrong at once, not by chance.
  const Size big = passes > 0 ? sizes[1] : Size{1, 1};
  cl::Image2D work[2] = {cl::Image2D(rt.context, CL_MEM_READ_WRITE, format, big.width, big.height),
                         cl::Image2D(rt.context, CL_MEM_READ_WRITE, format, big.width, big.height)};
  const cl_float4 poison = {{c.op == Op::Max ? INFINITY : -INFINITY, 0.0f, 0.0f, 0.0f}};
  for (const cl::Image2D& image : work) rt.queue.enqueueFillImage(image, poison, {0, 0, 0}, {big.width, big.height, 1});

  Outputs out;
  out.passes = passes;
  out.pass_seconds.assign(std::size_t(passes), INFINITY);
  std::vector<cl::Event> events(static_cast<std::size_t>(passes));
  // Enqueues every pass; `after_pass(p, image)` may enqueue more after pass p (reading it back).
  const auto pyramid = [&](const std::function<void(int, const cl::Image2D&)>& after_pass) {
    const cl::Image2D* from = &input;
    for (int p = 0; p < passes; ++p) {
      const Size src = sizes[std::size_t(p)], dst = sizes[std::size_t(p) + 1];
      const cl::Image2D& to = work[p % 2];
      kernel.setArg(0, *from);
      kernel.setArg(1, to);
      kernel.setArg(2, cl_int2{{cl_int(src.width), cl_int(src.height)}});
      kit::launch(rt.queue, kernel, cl::NDRange(ceil_div(dst.width, kTile) * kTile, ceil_div(dst.height, kTile) * kTile),
                                    cl::NDRange(kTile, kTile), nullptr, &events[std::size_t(p)]);
      if (after_pass) after_pass(p, to);
      from = &to;
    }
    rt.queue.finish();
  };
  out.timing = kit::time_runs(warmup, repeats, [&] {
    pyramid(nullptr);
    for (int p = 0; p < passes; ++p) {
      const cl::Event& e = events[std::size_t(p)];
      const double s = double(e.getProfilingInfo<CL_PROFILING_COMMAND_END>() - e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-9;
      out.pass_seconds[std::size_t(p)] = std::min(out.pass_seconds[std::size_t(p)], s);
    }
  });

  // Once more, reading every level back right after its pass (before a later pass overwrites it).
  out.levels.resize(std::size_t(passes));
  pyramid([&](int p, const cl::Image2D& image) {
    Level& level = out.levels[std::size_t(p)];
    level.width = sizes[std::size_t(p) + 1].width;
    level.height = sizes[std::size_t(p) + 1].height;
    level.texels.assign(level.width * level.height, NAN);
    rt.queue.enqueueReadImage(image, CL_FALSE, {0, 0, 0}, {level.width, level.height, 1}, 0, 0, level.texels.data());
  });
  if (passes > 0) {
    out.result = out.levels.back().texels[0];
  } else {
    rt.queue.enqueueReadImage(input, CL_TRUE, {0, 0, 0}, {1, 1, 1}, 0, 0, &out.result);
  }
  return out;
}

Summary summarize(const Outputs& out, const std::vector<Level>& host) {
  Summary s;
  s.result = out.result;
  s.passes = out.passes;
  for (std::size_t k = 0; k < out.levels.size(); ++k) {
    const Level& got = out.levels[k];
    s.levels.push_back({got.width, got.height, digest(got)});
    if (s.wrong || k + 1 >= host.size()) continue;
    const Level& want = host[k + 1];
    if (got.width != want.width || got.height != want.height) continue;
    Wrong w;
    w.level = k + 1;
    for (std::size_t i = 0; i < got.texels.size(); ++i)
      if (std::memcmp(&got.texels[i], &want.texels[i], sizeof(float)) != 0) {
        ++w.count;
        if (w.texels.size() < kWrongSamples) w.texels.push_back({i % got.width, i / got.width, got.texels[i]});
      }
    if (w.count) s.wrong = w;
  }
  return s;
}

Expected expected(const Case& c, const std::vector<Level>& host) {
  Expected e;
  const std::vector<float>& in = host.front().texels;
  e.value = c.op == Op::Max ? *std::max_element(in.begin(), in.end()) : *std::min_element(in.begin(), in.end());
  e.passes = int(host.size()) - 1;
  for (std::size_t k = 1; k < host.size(); ++k) e.levels.push_back({host[k].width, host[k].height, digest(host[k])});
  return e;
}

std::optional<std::string> difference(const Case& c, const Summary& s, const Expected& e, const std::vector<Level>* host) {
  const std::string op = to_string(c.op);
  const std::string result = "; the result: expected " + number(e.value) + ", got " + number(s.result);
  if (s.passes != e.passes || s.levels.size() != e.levels.size())
    return std::to_string(s.passes) + " passes with " + std::to_string(s.levels.size()) + " levels, expected " +
           std::to_string(e.passes) + " (" + size_text(c.width, c.height) + " in " + std::to_string(c.block) + " x " +
           std::to_string(c.block) + " blocks)";
  for (std::size_t k = 0; k < e.levels.size(); ++k) {
    const LevelDigest &want = e.levels[k], &got = s.levels[k];
    const std::string from = k == 0 ? size_text(c.width, c.height) : size_text(e.levels[k - 1].width, e.levels[k - 1].height);
    const std::string where = "level " + std::to_string(k + 1) + " of " + std::to_string(e.levels.size()) + " (" +
                              size_text(want.width, want.height) + ", the " + op + " of " + std::to_string(c.block) +
                              " x " + std::to_string(c.block) + " blocks of " + from + ")";
    if (got.width != want.width || got.height != want.height)
      return where + " came back as " + size_text(got.width, got.height);
    if (got.digest == want.digest) continue;
    if (!s.wrong || s.wrong->level != k + 1 || s.wrong->texels.empty())
      return where + " differs from the reference (digest " + got.digest + ", expected " + want.digest + ")" + result;
    std::vector<Level> computed;
    if (!host) {
      computed = host_pyramid(c, make_input(c));
      host = &computed;
    }
    const Level& right = (*host)[k + 1];
    const WrongTexel& t = s.wrong->texels.front();
    if (t.x >= right.width || t.y >= right.height)
      return where + ": the run named texel (" + std::to_string(t.x) + ", " + std::to_string(t.y) + "), outside the level";
    return where + ": texel (" + std::to_string(t.x) + ", " + std::to_string(t.y) + "): expected " +
           number(right.at(t.x, t.y)) + ", got " + number(t.got) + "; " + std::to_string(s.wrong->count) + " of " +
           std::to_string(right.width * right.height) + " texels wrong (exact)" + result;
  }
  if (double(s.result) != e.value)
    return "every level matches, but the result is " + number(s.result) + ", expected " + number(e.value) + " (exact)";
  return std::nullopt;
}

std::string diagnose(const Case& c, const Summary& s, const std::vector<Level>* host) {
  if (!s.wrong || s.wrong->texels.empty() || s.wrong->level == 0) return "";
  std::vector<Level> computed;
  if (!host) {
    computed = host_pyramid(c, make_input(c));
    host = &computed;
  }
  const std::size_t k = s.wrong->level;
  if (k >= host->size()) return "";
  const Level& src = (*host)[k - 1];
  const Level& right = (*host)[k];
  const std::size_t b = std::size_t(c.block);
  const Op other = c.op == Op::Max ? Op::Min : Op::Max;
  const auto all = [&](const std::function<bool(const WrongTexel&)>& explains) {
    for (const WrongTexel& t : s.wrong->texels)
      if (t.x >= right.width || t.y >= right.height || !explains(t)) return false;
    return true;
  };
  const auto same = [](float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  const std::string block = std::to_string(b) + " x " + std::to_string(b);

  if (all([&](const WrongTexel& t) { return std::isnan(t.got); }))
    return "the wrong texels are NaN: they were never written (every work-item must write_imagef its texel of dst)";
  // Blocks that cross the source's right or bottom edge: the last column and row of the output
  // when the source's width or height is not a multiple of the block size.
  const auto crosses_edge = [&](const WrongTexel& t) { return b * t.x + b > src.width || b * t.y + b > src.height; };
  const std::size_t column = src.width % b != 0, row = src.height % b != 0;
  const std::size_t edge_texels = column * right.height + row * right.width - column * row;
  // The host fills the images with infinity: a texel still holding it was never written, or (at
  // an edge) combined a texel read past src_size. Only the edge leaves both possible.
  const bool all_infinite = all([&](const WrongTexel& t) { return std::isinf(t.got); });
  if (all_infinite && !all(crosses_edge))
    return "the wrong texels still hold the infinity the host filled the image with: they were never written (every "
           "work-item whose texel lies inside the level must write_imagef it)";
  if (all_infinite)
    return "the wrong texels, at the right or bottom edge of the level, hold the infinity the host filled the images "
           "with: either they were never written, or each one's block reaches past the last column or row of the source "
           "level (" + size_text(src.width, src.height) + "; clamp each coordinate to src_size - 1 with min())";
  if (s.wrong->count <= edge_texels && all(crosses_edge)) {
    if (all([&](const WrongTexel& t) { return t.got == 0.0f; }))
      return "a 0 came from outside the source level at its right or bottom edge (CLK_ADDRESS_CLAMP's border): clamp "
             "each coordinate to src_size - 1 with min(), and keep the sampler's CLK_ADDRESS_CLAMP_TO_EDGE";
    return "every wrong texel's block reaches past the last column or row of the source level (" +
           size_text(src.width, src.height) +
           "): clamp each coordinate to src_size - 1 with min(). The sampler clamps only at the image's own edge, and "
           "the ping-pong images are larger than the later levels: past src_size lie texels of an earlier level, or "
           "the " + std::string(c.op == Op::Max ? "+" : "-") + "infinity the host filled them with";
  }
  if (all([&](const WrongTexel& t) { return same(t.got, src.at(b * t.x, b * t.y)); }))
    return "each wrong texel is its block's top-left texel: the rest of the " + block +
           " block was never combined (the starter's placeholder is still there)";
  if (all([&](const WrongTexel& t) { return same(t.got, block_value(src, other, b * t.x, b * t.y, b, b)); }))
    return "the level holds the " + to_string(other) + " of each block where the " + to_string(c.op) +
           " was asked for: combine texels only with PICK, which -D MIN_INSTEAD turns into fmin";
  if (all([&](const WrongTexel& t) { return same(t.got, block_value(src, c.op, t.x, t.y, b, b)); }))
    return "the blocks start at (x, y) instead of (" + std::to_string(b) + "x, " + std::to_string(b) +
           "y): scale the output coordinate by the block size";
  if (b == 4 && all([&](const WrongTexel& t) { return same(t.got, block_value(src, c.op, 4 * t.x, 4 * t.y, 2, 2)); }))
    return "max_pyramid_4x4 combined only the top-left 2 x 2 texels of each 4 x 4 block";
  if (b == 4 && all([&](const WrongTexel& t) { return same(t.got, block_value(src, c.op, 2 * t.x, 2 * t.y, 2, 2)); }))
    return "max_pyramid_4x4 does a 2 x 2 pass: its block starts at 4 * out and holds 16 texels";
  if (src.width != src.height && all([&](const WrongTexel& t) { return same(t.got, block_value(src, c.op, b * t.y, b * t.x, b, b)); }))
    return "x and y are swapped: get_global_id(0) is the column (x), get_global_id(1) the row (y)";
  return "compare the kernel with the rule in the lab README: output texel (x, y) is PICK over the source texels (" +
         std::to_string(b) + "x + i, " + std::to_string(b) + "y + j), 0 <= i, j < " + std::to_string(b) +
         ", each coordinate clamped to src_size - 1";
}

void write_pgm(const std::filesystem::path& file, const Level& level, const std::string& comment) {
  std::ofstream out(file, std::ios::binary);
  if (!out) throw kit::Error("cannot write " + file.string());
  double lo = INFINITY, hi = -INFINITY;  // over the finite texels; others (never written) show as 0
  for (float v : level.texels)
    if (std::isfinite(v)) lo = std::min(lo, double(v)), hi = std::max(hi, double(v));
  out << "P5\n# " << comment << "; values " << number(lo) << " .. " << number(hi) << " shown as 0 .. 255\n"
      << level.width << " " << level.height << "\n255\n";
  std::vector<unsigned char> pixels(level.texels.size());
  for (std::size_t i = 0; i < pixels.size(); ++i)
    pixels[i] = !std::isfinite(level.texels[i]) ? 0
                : hi > lo ? static_cast<unsigned char>(std::lround(255.0 * (double(level.texels[i]) - lo) / (hi - lo)))
                          : 128;
  out.write(reinterpret_cast<const char*>(pixels.data()), std::streamsize(pixels.size()));
  if (!out) throw kit::Error("cannot write " + file.string());
}

kit::Verdict check(const Case& c, const Summary& s, const Expected& e, const std::vector<Level>* host) {
  const auto diff = difference(c, s, e, host);
  if (!diff) return {};
  return {false, *diff, diagnose(c, s, host)};
}

}  // namespace lab07

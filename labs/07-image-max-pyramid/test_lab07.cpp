// Lab 07 on PoCL: the solution's pyramid matches the host's level by level and texel by texel on
// awkward shapes, with 2 x 2 and 4 x 4 blocks, max and min; the starter compiles and fails;
// typical mistakes get their hint; the grader's digests name the first wrong texel; bad options
// and devices without the image format give clear errors.
#include <doctest/doctest.h>

#include <cmath>

#include "image_pyramid.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "grader/lab/driver.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

namespace {

const auto kSolution = [] { return kit::lab_file(lab07::kLab, lab07::kKernelFile, true); };
const auto kLab07Starter = [] { return kit::lab_file(lab07::kLab, lab07::kKernelFile, false); };

// A typical mistake, made from the solution by replacing each `from` with its `to` (each found
// once), written under the folder of the test that asked for it.
using Edits = std::vector<std::pair<std::string, std::string>>;
const Edits kNoOwnClamp = {{"min(first + (int2)(1, 0), last)", "first + (int2)(1, 0)"},
                           {"min(first + (int2)(0, 1), last)", "first + (int2)(0, 1)"},
                           {"min(first + (int2)(1, 1), last)", "first + (int2)(1, 1)"},
                           {"min(first + (int2)(dx, dy), last)", "first + (int2)(dx, dy)"}};

std::filesystem::path mistake(const test::TempDir& dir, const std::string& name, const Edits& edits) {
  std::string text = test::read(kSolution());
  for (const auto& [from, to] : edits) text = test::replace_once(text, from, to);
  test::write(dir / (name + ".cl"), text);
  return dir / (name + ".cl");
}

lab07::Case make_case(std::size_t w, std::size_t h, int block, lab07::Op op = lab07::Op::Max,
                      lab07::Data data = lab07::Data::Reals, std::uint64_t seed = 7) {
  lab07::Case c;
  c.width = w;
  c.height = h;
  c.block = block;
  c.op = op;
  c.data = data;
  c.seed = seed;
  return c;
}

struct Checked {
  lab07::Outputs out;
  std::optional<std::string> diff;
  std::string hint;
};

Checked check(const std::filesystem::path& file, const lab07::Case& c) {
  const auto in = lab07::make_input(c);
  const auto host = lab07::host_pyramid(c, in);
  Checked r{lab07::run(test::runtime(), file, c, in, 0, 1), std::nullopt, ""};
  const lab07::Summary s = lab07::summarize(r.out, host);
  const kit::Verdict verdict = lab07::check(c, s, lab07::expected(c, host), &host);  // as the program and the grader
  if (!verdict.pass) r.diff = verdict.message, r.hint = verdict.hint;
  return r;
}

}  // namespace

TEST_CASE("lab 07: the solution's every level equals the host's pyramid on awkward shapes, max and min") {
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {{1, 1},   {2, 1},   {1, 2},     {1, 1000}, {999, 1},
                                                                   {7, 5},   {8, 8},   {3, 3},     {5, 17},   {17, 5},
                                                                   {33, 65}, {1023, 257}, {2048, 2048}};
  for (const int block : {2, 4})
    for (const auto& [w, h] : shapes)
      for (const lab07::Op op : {lab07::Op::Max, lab07::Op::Min}) {
        const lab07::Data data = (w * h) % 3 == 0 ? lab07::Data::Ties : (w + h) % 2 ? lab07::Data::Negative : lab07::Data::Reals;
        const lab07::Case c = make_case(w, h, block, op, data);
        CAPTURE(block);
        CAPTURE(w);
        CAPTURE(h);
        CAPTURE(lab07::to_string(op));
        const auto in = lab07::make_input(c);
        const auto host = lab07::host_pyramid(c, in);
        const lab07::Outputs out = lab07::run(test::runtime(), kSolution(), c, in, 0, 1);
        REQUIRE(out.levels.size() + 1 == host.size());
        for (std::size_t k = 0; k < out.levels.size(); ++k) {
          CAPTURE(k + 1);
          CHECK(out.levels[k].width == host[k + 1].width);
          CHECK(out.levels[k].height == host[k + 1].height);
          CHECK(out.levels[k].texels == host[k + 1].texels);  // exact: max and min do no rounding
        }
        const float want = op == lab07::Op::Max ? *std::max_element(in.begin(), in.end()) : *std::min_element(in.begin(), in.end());
        CHECK(out.result == want);
        const auto diff = lab07::difference(c, lab07::summarize(out, host), lab07::expected(c, host), &host);
        CHECK_MESSAGE(!diff, diff.value_or(""));
      }
}

TEST_CASE("lab 07: pass counts are ceil(log_B) of the longer side, 1 x 1 needs none") {
  CHECK(lab07::expected_passes(make_case(2048, 2048, 2)) == 11);
  CHECK(lab07::expected_passes(make_case(2048, 2048, 4)) == 6);   // 2048 -> 512 -> 128 -> 32 -> 8 -> 2 -> 1
  CHECK(lab07::expected_passes(make_case(1023, 257, 2)) == 10);
  CHECK(lab07::expected_passes(make_case(1023, 257, 4)) == 5);    // 1023 -> 256 -> 64 -> 16 -> 4 -> 1
  CHECK(lab07::expected_passes(make_case(1, 1000, 2)) == 10);
  CHECK(lab07::expected_passes(make_case(1, 1, 4)) == 0);
  const auto sizes = lab07::level_sizes(make_case(7, 5, 2));
  REQUIRE(sizes.size() == 4);
  CHECK(sizes[1].width == 4);
  CHECK(sizes[1].height == 3);
  CHECK(sizes[2].width == 2);
  CHECK(sizes[2].height == 2);
  const lab07::Outputs out = lab07::run(test::runtime(), kSolution(), make_case(1023, 257, 4), lab07::make_input(make_case(1023, 257, 4)), 0, 2);
  CHECK(out.passes == 5);
  CHECK(out.pass_seconds.size() == 5);
  for (double s : out.pass_seconds) CHECK((s >= 0 && std::isfinite(s)));
}

TEST_CASE("lab 07: the host pass takes the max of each block, clamped at odd edges") {
  lab07::Level src{3, 3, {1, 9, 2, 4, 5, 6, -7, 8, -3}};
  const lab07::Level max = lab07::host_pass(src, 2, lab07::Op::Max);
  REQUIRE(max.width == 2);
  REQUIRE(max.height == 2);
  CHECK(max.texels == std::vector<float>{9, 6, 8, -3});  // the edge blocks hold 2 and 1 texels
  const lab07::Level min = lab07::host_pass(src, 2, lab07::Op::Min);
  CHECK(min.texels == std::vector<float>{1, 2, -7, -3});
  const lab07::Level four = lab07::host_pass(src, 4, lab07::Op::Max);
  CHECK(four.texels == std::vector<float>{9});
  // Two 2 x 2 passes make one 4 x 4 pass, odd edges included (the README says so).
  const lab07::Case c2 = make_case(1023, 257, 2), c4 = make_case(1023, 257, 4);
  const auto p2 = lab07::host_pyramid(c2, lab07::make_input(c2)), p4 = lab07::host_pyramid(c4, lab07::make_input(c4));
  REQUIRE(p2.size() == 11);  // the input and ceil(log2 1023) = 10 levels of 2 x 2
  REQUIRE(p4.size() == 6);   // the input and ceil(log4 1023) = 5 levels of 4 x 4
  for (std::size_t k = 1; k < p4.size(); ++k) CHECK(lab07::digest(p2[2 * k]) == lab07::digest(p4[k]));
  // The negative data really are all negative, the whole-number data have ties.
  const auto negative = lab07::make_input(make_case(64, 64, 2, lab07::Op::Max, lab07::Data::Negative));
  CHECK(*std::max_element(negative.begin(), negative.end()) < 0);
  CHECK(*std::min_element(negative.begin(), negative.end()) >= -2);
  const auto ties = lab07::make_input(make_case(64, 64, 2, lab07::Op::Max, lab07::Data::Ties));
  CHECK(std::count(ties.begin(), ties.end(), 8.0f) > 1);
}

TEST_CASE("lab 07: a level's digest covers its size and every texel's bits") {
  const lab07::Level a{2, 2, {1, 2, 3, 4}};
  lab07::Level b = a;
  CHECK(lab07::digest(a) == lab07::digest(b));
  CHECK(lab07::digest(a).size() == 16);
  b.texels[3] = std::nextafter(4.0f, 5.0f);
  CHECK(lab07::digest(a) != lab07::digest(b));
  const lab07::Level wide{4, 1, {1, 2, 3, 4}}, tall{1, 4, {1, 2, 3, 4}};
  CHECK(lab07::digest(wide) != lab07::digest(tall));
  const lab07::Level zero{1, 1, {0.0f}}, minus_zero{1, 1, {-0.0f}};
  CHECK(lab07::digest(zero) != lab07::digest(minus_zero));
}

TEST_CASE("lab 07: the starter compiles, fails both kernels, and is told its placeholder is still there") {
  for (const int block : {2, 4}) {
    CAPTURE(block);
    const Checked r = check(kLab07Starter(), make_case(33, 17, block));
    REQUIRE(r.diff);
    CHECK(r.diff->find("level 1 of ") != std::string::npos);
    CHECK(r.diff->find("texel (0, 0)") != std::string::npos);
    CHECK(r.hint.find("top-left texel") != std::string::npos);
  }
  // A 1 x 1 image needs no pass: even the starter is right there.
  CHECK_FALSE(check(kLab07Starter(), make_case(1, 1, 2)).diff);
}

TEST_CASE("lab 07: typical mistakes get their hint") {
  SUBCASE("trusting the sampler's clamp: right while levels fill their images, wrong in a corner with odd sides") {
    // No clamping of its own: it trusts the sampler's CLK_ADDRESS_CLAMP_TO_EDGE, which is right
    // while the source image is exactly the source level (the input, and level 1).
    test::TempDir dir;
    const auto file = mistake(dir, "sampler_clamp_only", kNoOwnClamp);
    CHECK_FALSE(check(file, make_case(2048, 2048, 2)).diff);
    CHECK_FALSE(check(file, make_case(8, 8, 4)).diff);
    for (const int block : {2, 4}) {
      CAPTURE(block);
      for (const lab07::Op op : {lab07::Op::Max, lab07::Op::Min}) {
        const Checked r = check(file, make_case(1023, 257, block, op));
        REQUIRE(r.diff);
        CHECK(r.diff->find("level 1 of") == std::string::npos);  // the input and level 1 fill their images
        CHECK(r.hint.find("reaches past the last column or row of the source level") != std::string::npos);
      }
    }
  }
  SUBCASE("a texel never written is named as such, not as an edge problem") {
    // The 2x2 kernel of the solution skipping its write at output texel (1, 1), inside the level.
    test::TempDir dir;
    const std::string write = "    write_imagef(dst, out, (float4)(PICK(PICK(a, b), PICK(c, d)), 0.0f, 0.0f, 1.0f));";
    test::write(dir / "skip.cl", test::replace_once(test::read(kSolution()), write,
                                                    "    if (out.x != 1 || out.y != 1)\n" + write));
    const Checked r = check(dir / "skip.cl", make_case(33, 17, 2));
    REQUIRE(r.diff);
    CHECK(r.diff->find("texel (1, 1)") != std::string::npos);
    CHECK(r.hint.find("they were never written") != std::string::npos);
    CHECK(r.hint.find("reaches past") == std::string::npos);
  }
  SUBCASE("CLK_ADDRESS_CLAMP lets a 0 in at the input's odd edge") {
    // CLK_ADDRESS_CLAMP and no clamping of its own: past the input's odd edge the sampler returns
    // its border colour, whose red channel is 0.
    test::TempDir dir;
    Edits edits = kNoOwnClamp;
    edits.push_back({"CLK_ADDRESS_CLAMP_TO_EDGE", "CLK_ADDRESS_CLAMP"});
    const Checked r = check(mistake(dir, "border_zero", edits), make_case(7, 5, 2, lab07::Op::Max, lab07::Data::Negative));
    REQUIRE(r.diff);
    CHECK(r.diff->find("level 1 of 3") != std::string::npos);
    CHECK(r.diff->find("got 0;") != std::string::npos);
    CHECK(r.hint.find("a 0 came from outside the source level") != std::string::npos);
  }
  SUBCASE("blocks not scaled by the block size") {
    for (const int block : {2, 4}) {
      test::TempDir dir;  // the block of output texel out starts at out, not at 2 * out (4 * out)
      const auto file = mistake(dir, "no_scale", {{"const int2 first = 2 * out;", "const int2 first = out;"},
                                                  {"const int2 first = 4 * out;", "const int2 first = out;"}});
      const Checked r = check(file, make_case(64, 48, block));
      REQUIRE(r.diff);
      CHECK(r.hint.find("the blocks start at (x, y)") != std::string::npos);
    }
  }
  SUBCASE("fmax instead of PICK ignores -D MIN_INSTEAD") {
    test::TempDir dir;  // fmax written where PICK is fmin, so -D MIN_INSTEAD changes nothing
    const auto file = mistake(dir, "always_max", {{"#define PICK(a, b) fmin((a), (b))", "#define PICK(a, b) fmax((a), (b))"}});
    CHECK_FALSE(check(file, make_case(100, 60, 2, lab07::Op::Max)).diff);
    const Checked r = check(file, make_case(100, 60, 2, lab07::Op::Min));
    REQUIRE(r.diff);
    CHECK(r.diff->find("the min of 2 x 2 blocks") != std::string::npos);
    CHECK(r.hint.find("the level holds the max of each block where the min was asked for") != std::string::npos);
  }
  SUBCASE("a 4 x 4 pass that reads only 2 x 2") {
    test::TempDir dir;  // max_pyramid_4x4 starts its blocks at 4 * out but combines only 2 x 2 texels
    const auto file = mistake(dir, "reads_2x2", {{"dy < 4", "dy < 2"}, {"dx < 4", "dx < 2"}});
    CHECK_FALSE(check(file, make_case(100, 60, 2)).diff);
    const Checked r = check(file, make_case(100, 60, 4));
    REQUIRE(r.diff);
    CHECK(r.hint.find("combined only the top-left 2 x 2 texels") != std::string::npos);
  }
}

TEST_CASE("lab 07: kernel parameters are checked, access qualifiers included") {
  // The output image declared read_only (it compiles once the write is gone).
  test::TempDir dir;
  const std::string write = "    write_imagef(dst, out, (float4)(PICK(PICK(a, b), PICK(c, d)), 0.0f, 0.0f, 1.0f));";
  const auto read_only = mistake(dir, "dst_read_only", {{"max_pyramid_2x2(read_only image2d_t src, write_only image2d_t dst",
                                                         "max_pyramid_2x2(read_only image2d_t src, read_only image2d_t dst"},
                                                        {write, ""}});
  CHECK_THROWS_WITH_AS(lab07::run(test::runtime(), read_only, make_case(8, 8, 2),
                                  lab07::make_input(make_case(8, 8, 2)), 0, 1),
                       doctest::Contains("parameter 2 of 'max_pyramid_2x2' is read_only, expected write_only"), kit::Error);
  // OpenCL reports an image parameter as global "image2d_t"; kit::make_kernel accepts the solution.
  const cl::Program program = kit::build_program(test::runtime().context, test::runtime().device, kSolution());
  for (const kit::KernelSignature& s : lab07::all_signatures()) CHECK_NOTHROW(kit::make_kernel(program, s, "ImagePyramid.cl"));
  CHECK_THROWS_WITH_AS(kit::make_kernel(kit::build_program(test::runtime().context, test::runtime().device, test::data("misnamed.cl")),
                                        lab07::signature(4), "misnamed.cl"),
                       doctest::Contains("no kernel named 'max_pyramid_4x4'"), kit::Error);
}

TEST_CASE("lab 07: a device without images or without CL_R / CL_FLOAT is refused with the reason") {
  CHECK_THROWS_WITH_AS(lab07::check_image_support(false, {}, "toy device"), doctest::Contains("toy device has no image support"),
                       kit::Error);
  const std::vector<cl::ImageFormat> rgba{cl::ImageFormat(CL_RGBA, CL_FLOAT), cl::ImageFormat(CL_R, CL_UNORM_INT8)};
  CHECK_THROWS_WITH_AS(lab07::check_image_support(true, rgba, "toy device"),
                       doctest::Contains("does not support 2D images of format CL_R / CL_FLOAT"), kit::Error);
  std::vector<cl::ImageFormat> with_r = rgba;
  with_r.push_back(cl::ImageFormat(CL_R, CL_FLOAT));
  CHECK_NOTHROW(lab07::check_image_support(true, with_r, "toy device"));
  CHECK_NOTHROW(lab07::check_device(test::runtime(), make_case(2048, 2048, 2)));  // PoCL has them
  CHECK_THROWS_WITH_AS(lab07::check_device(test::runtime(), make_case(1, 1u << 20, 2)),
                       doctest::Contains("above this device's largest 2D image"), kit::Error);
}

TEST_CASE("lab 07: bad cases and options are refused with the value at fault") {
  CHECK_THROWS_WITH_AS(lab07::validate(make_case(8, 8, 3)), doctest::Contains("block size 3 is not 2 or 4"), kit::Error);
  CHECK_THROWS_WITH_AS(lab07::validate(make_case(0, 8, 2)), doctest::Contains("image width 0"), kit::Error);
  CHECK_THROWS_WITH_AS(lab07::parse_op("sum"), doctest::Contains("operator 'sum' is not one of: max, min"), kit::Error);
  CHECK_THROWS_WITH_AS(lab07::parse_data("ties"), doctest::Contains("data kind 'ties' is not one of: real, int, negative"),
                       kit::Error);
  const struct {
    const char* args;
    const char* message;
  } bad[] = {{"--block 3", "--block '3' is not one of: 2, 4, both"},
             {"--width 0", "'0' must be at least 1"},
             {"--height 7x", "'7x' is not a count"},
             {"--op sum", "operator 'sum' is not one of: max, min"},
             {"--solution --kernel x.cl", "give either --kernel or --solution, not both"},
             {"--width 100000 --height 1", "above this device's largest 2D image"}};
  for (const auto& b : bad) {
    CAPTURE(b.args);
    const auto run = test::run_program("07-image-max-pyramid", b.args);
    CHECK(run.exit_code == 1);
    CHECK(run.output.find(b.message) != std::string::npos);
  }
}

TEST_CASE("lab 07: the program checks, prints every pass, and dumps every level as a PGM") {
  test::TempDir dir;
  const auto run = test::run_program("07-image-max-pyramid", "--solution --check --width 1023 --height 257 --op min --repeats 1 --dump " +
                                                                 (dir / "levels").string());
  CHECK(run.exit_code == 0);
  CHECK(run.output.find("2x2 blocks (max_pyramid_2x2): 10 passes") != std::string::npos);
  CHECK(run.output.find("4x4 blocks (max_pyramid_4x4): 5 passes") != std::string::npos);
  CHECK(run.output.find("1023 x 257 -> 512 x 129") != std::string::npos);
  CHECK(run.output.find("FAIL") == std::string::npos);
  const std::string pgm = test::read(dir / "levels" / "min2x2_level01_512x129.pgm");
  REQUIRE(pgm.rfind("P5\n#", 0) == 0);
  const std::string header = "\n512 129\n255\n";
  const auto at = pgm.find(header);
  REQUIRE(at != std::string::npos);
  const std::string pixels = pgm.substr(at + header.size());
  CHECK(pixels.size() == 512 * 129);
  CHECK(pixels.find('\0') != std::string::npos);    // the level's min is black
  CHECK(pixels.find('\xff') != std::string::npos);  // and its max white
  CHECK(std::filesystem::exists(dir / "levels" / "input_1023x257.pgm"));
  CHECK(std::filesystem::exists(dir / "levels" / "min4x4_level05_1x1.pgm"));
  const std::string top = test::read(dir / "levels" / "min2x2_level10_1x1.pgm");
  CHECK(top.back() == char(128));  // one texel: nothing to scale, mid-grey
  // What it says it wrote is what the folder holds: the input once, then each pyramid's levels.
  const auto files = std::distance(std::filesystem::directory_iterator(dir / "levels"), std::filesystem::directory_iterator());
  CHECK(files == 16);
  CHECK(run.output.find("wrote 16 files to " + (dir / "levels").string() +
                        ": the input, 10 levels of the 2x2 pyramid and 5 levels of the 4x4 pyramid\n") != std::string::npos);
  CHECK(run.output.find("wrote the input and") == std::string::npos);

  const auto starter = test::run_program("07-image-max-pyramid", "--check --width 7 --height 5 --block 2 --repeats 1");
  CHECK(starter.exit_code == 1);
  CHECK(starter.output.find("CHECK FAILED 2x2: level 1 of 3") != std::string::npos);
  CHECK(starter.output.find("hint: each wrong texel is its block's top-left texel") != std::string::npos);
}

TEST_CASE("lab 07: the grader stores digests, passes the solution and names the starter's first wrong texel") {
  const grader::LabDriver& driver = grader::lab_driver(lab07::kLab);
  // Whole numbers as unsigned, as JSON parsing gives them.
  const grader::json params = {{"width", 33u}, {"height", 17u}, {"block", 4u}, {"op", "min"}, {"data", "real"}, {"seed", 5u}};
  driver.validate_case(params);
  const grader::json reference = driver.reference(params);
  CHECK(reference.at("passes") == 3);
  CHECK(reference.at("levels").size() == 3);
  CHECK(reference.at("levels")[0].at("digest").get<std::string>().size() == 16);
  CHECK(reference.dump().size() < 400);  // no texels stored
  const auto solution = driver.run_case(test::runtime(), kSolution(), "ImagePyramid.cl", params);
  CHECK(solution.at("wrong").is_null());
  CHECK(driver.compare(params, "exact", reference, solution).pass);
  // The policy that reaches the lab's check is the one it implements.
  CHECK_THROWS_WITH_AS(driver.compare(params, {{"real", "depth-bound"}}, reference, solution),
                       doctest::Contains("lab 07-image-max-pyramid's check applies \"exact\""), kit::Error);
  const auto starter = driver.run_case(test::runtime(), kLab07Starter(), "ImagePyramid.cl", params);
  const kit::Verdict cmp = driver.compare(params, "exact", reference, starter);
  CHECK_FALSE(cmp.pass);
  CHECK(cmp.message.find("level 1 of 3 (9 x 5, the min of 4 x 4 blocks of 33 x 17): texel (0, 0): expected ") != std::string::npos);
  CHECK(cmp.hint.find("top-left texel") != std::string::npos);
  CHECK_THROWS_WITH_AS(driver.validate_case({{"width", 8u}, {"height", 8u}, {"block", 3u}, {"op", "max"}, {"data", "real"}, {"seed", 1u}}),
                       doctest::Contains("block size 3"), kit::Error);
  const auto fields = grader::load_specs(kit::root() / "grader" / "specs", {"07"}).at(0).case_fields;
  CHECK_THROWS_WITH_AS(grader::check_case(fields, {{"width", 8u}, {"height", 8u}, {"block", 2u}, {"op", "max"}, {"data", "real"},
                                                   {"seed", 1u}, {"local", 4u}},
                                          "lab 07", false),
                       doctest::Contains("local: not a field of lab 07 cases"), kit::Error);
  // The tolerance is lab 07's check's, "exact": the spec takes it, and a spec stating one is refused.
  CHECK(grader::load_specs(kit::root() / "grader" / "specs", {"07"}).at(0).tolerance == "exact");
  test::TempDir specs;
  std::string text = test::read(kit::root() / "grader/specs/07-image-max-pyramid.json");
  text = test::replace_once(text, R"("points_policy": )", R"("tolerance": "digest", "points_policy": )");
  test::write(specs / "07-image-max-pyramid.json", text);
  CHECK_THROWS_WITH_AS(grader::load_specs(specs.path, {"07"}), doctest::Contains(".tolerance: a spec does not state the tolerance: lab 07's check applies \"exact\""), kit::Error);
}

TEST_CASE("lab 07: the spec grades both block sizes apart, min through the build option, and both kernels for safety") {
  const grader::LabSpec spec = grader::load_specs(kit::root() / "grader" / "specs", {"07"}).at(0);
  int blocks[5] = {0, 0, 0, 0, 0}, min = 0, visible = 0;
  bool square_large = false, cut_both_ways = false, row = false, column = false;
  for (const grader::CaseSpec& c : spec.cases) {
    const auto w = c.params.at("width").get<std::size_t>(), h = c.params.at("height").get<std::size_t>();
    ++blocks[c.params.at("block").get<int>()];
    min += c.params.at("op") == "min";
    visible += c.visible;
    square_large |= w == 2048 && h == 2048;
    cut_both_ways |= w == 3 && h == 3;  // no whole block either way: the edge handling decides
    row |= h == 1 && w > 1;
    column |= w == 1 && h > 1;
    CHECK(c.time_limit_s == 3);
  }
  CHECK(blocks[2] == blocks[4]);
  CHECK(blocks[2] > 0);
  CHECK(min > 0);
  CHECK((visible > 0 && visible < int(spec.cases.size())));
  CHECK((square_large && cut_both_ways && row && column));
  REQUIRE(spec.safety);
  CHECK(spec.safety->runs.at(0).at("block") == grader::json::array({2, 4}));  // both kernels, in turn
  CHECK(spec.safety->time_limit_s == 5);
  REQUIRE(spec.safety->allow.size() == 1);
  CHECK(spec.safety->allow[0].kind == "uninitialized");  // Oclgrind's image shadow, on PICK lines only
  const auto both = grader::expand_variants(spec.safety->runs.at(0));
  REQUIRE(both.size() == 2);
  for (const auto& one : both)
    CHECK(grader::lab_driver(lab07::kLab).run_case(test::runtime(), kSolution(), "ImagePyramid.cl", one).at("wrong").is_null());
}

// The program's witness of a failed --check runs lab 07's own size options, capped, and leaves out
// Oclgrind's uninitialized-value check, which reports every texel read from an image (the solution's
// too): a kernel right under Oclgrind and wrong on the device is the device's fault, not blamed on
// those reports.
TEST_CASE("lab 07: a failed --check is witnessed at 256 x 256 without Oclgrind's image-blind uninitialized check") {
  test::TempDir dir;
  const std::string solution = test::read(kit::lab_file(lab07::kLab, lab07::kKernelFile, true));
  const std::string write = "    write_imagef(dst, out, (float4)(PICK(PICK(a, b), PICK(c, d)), 0.0f, 0.0f, 1.0f));";
  // Wrong on PoCL (OpenCL 3.0) only: Oclgrind (OpenCL 1.2) builds the right line.
  test::write(dir / "ImagePyramid.cl",
              test::replace_once(solution, write,
                                 "#if __OPENCL_VERSION__ >= 200\n"
                                 "    write_imagef(dst, out, (float4)(PICK(PICK(a, b), PICK(c, d)) + 1.0f, 0.0f, 0.0f, 1.0f));\n#else\n" +
                                     write + "\n#endif"));
  const auto run = test::run_program("07-image-max-pyramid", "--check --width 300 --height 300 --block 2 --repeats 1 -k '" +
                                                                 (dir / "ImagePyramid.cl").string() + "'");
  CAPTURE(run.output);
  CHECK(run.output.find("CHECK FAILED 2x2: level 1 of 9") != std::string::npos);
  CHECK(run.output.find("(smaller, to take seconds: --width 256, --height 256)") != std::string::npos);
  CHECK(run.output.find("uninitialized value") == std::string::npos);  // no report of Oclgrind's image-blind check
  CHECK(run.output.find("DEVICE: the check fails on the device, but under Oclgrind the smaller check computed the right result "
                        "and Oclgrind found no invalid access, data race or barrier divergence") != std::string::npos);
  CHECK(run.output.find("(Oclgrind's --uninitialized is left out in this lab: Oclgrind 21.10 does not track what an image holds") !=
        std::string::npos);
  CHECK(run.exit_code == 0);

  // The starter with a helper of the student's own (the starter as handed out is not witnessed):
  // wrong under Oclgrind too, and the command shown to run it is lab 07's, without -n and without
  // the uninitialized check.
  test::write(dir / "Begun.cl", test::read(kit::lab_file(lab07::kLab, lab07::kKernelFile, false)) + "\nint my_helper(int x) { return x + 1; }\n");
  const auto starter = test::run_program("07-image-max-pyramid", "--check --width 300 --height 300 --block 2 --repeats 1 -k '" +
                                                                     (dir / "Begun.cl").string() + "'");
  CAPTURE(starter.output);
  CHECK(starter.exit_code == 1);
  CHECK(starter.output.find("under Oclgrind too, the check fails") != std::string::npos);
  CHECK(starter.output.find("\n  oclgrind --data-races --uniform-writes --build-options -O0 ") != std::string::npos);
  CHECK(starter.output.find("--width 256 --height 256\n") != std::string::npos);
  CHECK(starter.output.find(" -n ") == std::string::npos);
}

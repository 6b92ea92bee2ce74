// Screening a kernel file before it is built, and finding it in a submission.
#include <doctest/doctest.h>

#include "array_mult_reduce.hpp"
#include "intake/submission.hpp"
#include "support.hpp"

namespace {
const std::string kPlainKernel =
    "kernel void ArrayMultReduce(global const float *dA, global const float *dB, local float *prods, global float *dC)\n"
    "{ dC[0] = 0; }\n";
std::vector<std::string> screen(const std::string& text) {
  return grader::screen_kernel_source(text, "sub/ArrayMultReduce.cl", {lab03::kSignature});
}
}  // namespace

TEST_CASE("a plain kernel passes the screen") { CHECK(screen(kPlainKernel).empty()); }

TEST_CASE("#include and other file-reading directives are refused with their line") {
  const auto p = screen("// header\n  #  include \"secret.h\"\n" + kPlainKernel);
  REQUIRE(p.size() == 1);
  CHECK(p[0].find("sub/ArrayMultReduce.cl:2: #include is not allowed") != std::string::npos);
  CHECK(screen("#include_next <x>\n" + kPlainKernel).size() == 1);
  CHECK(screen("#embed \"data.bin\"\n" + kPlainKernel).size() == 1);
  // Mentioned in a comment or a string is not a directive.
  CHECK(screen("// do not #include anything\n/* #include \"x\" */\n" + kPlainKernel).empty());
}

TEST_CASE("binary, non-UTF-8 and oversized files are refused") {
  const auto nul = screen(kPlainKernel + std::string("\0junk", 5));
  REQUIRE(nul.size() == 1);
  CHECK(nul[0].find("NUL byte at line 3") != std::string::npos);
  const auto latin1 = screen("// caf\xe9\n" + kPlainKernel);
  REQUIRE(latin1.size() == 1);
  CHECK(latin1[0].find("sub/ArrayMultReduce.cl:1: byte 7 is not UTF-8") != std::string::npos);
  CHECK(screen("// caf\xc3\xa9 \xe2\x9c\x93\n" + kPlainKernel).empty());  // real UTF-8 is fine
  const auto big = screen(kPlainKernel + std::string(grader::kMaxKernelBytes, ' '));
  REQUIRE(big.size() == 1);
  CHECK(big[0].find("above the limit") != std::string::npos);
}

TEST_CASE("a byte-order mark and CRLF or CR line ends pass the screen, lines and bytes counted as in the file") {
  const std::string bom = "\xEF\xBB\xBF";
  CHECK(screen(bom + kPlainKernel).empty());
  CHECK(screen(bom + "// a\r\n" + kPlainKernel).empty());
  const auto mac = screen(bom + "// header\r#include \"secret.h\"\r" + kPlainKernel);
  REQUIRE(mac.size() == 1);
  CHECK(mac[0].find("sub/ArrayMultReduce.cl:2: #include is not allowed") != std::string::npos);
  const auto latin1 = screen(bom + "// caf\xe9\n" + kPlainKernel);
  REQUIRE(latin1.size() == 1);
  CHECK(latin1[0].find("sub/ArrayMultReduce.cl:1: byte 10 is not UTF-8") != std::string::npos);  // the mark's 3 bytes count
}

TEST_CASE("a UTF-16 file is refused with what to change") {
  std::string utf16 = "\xFF\xFE";
  for (char c : kPlainKernel) utf16 += std::string{c, '\0'};
  CHECK(screen(utf16) == std::vector<std::string>{"sub/ArrayMultReduce.cl: saved as UTF-16: save it as UTF-8"});
  CHECK(screen(utf16.substr(2)) == std::vector<std::string>{"sub/ArrayMultReduce.cl: saved as UTF-16: save it as UTF-8"});
}

TEST_CASE("a missing kernel is named with the expected signature") {
  const auto p = screen("kernel void Other(global float *x) { }\n// ArrayMultReduce(\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0].find("no kernel named ArrayMultReduce") != std::string::npos);
  CHECK(p[0].find(lab03::kSignature.text()) != std::string::npos);
  CHECK(screen("__kernel void ArrayMultReduce (global const float *a) {}").empty());  // signature: checked at build
  CHECK(screen("kernel __attribute__((reqd_work_group_size(64, 1, 1))) void\nArrayMultReduce(global float *a) {}").empty());
  CHECK(screen("void ArrayMultReduce(global float *a) {}").size() == 1);  // a plain function is no kernel
}

TEST_CASE("the kernel is found anywhere, the shallowest first, the others noted") {
  test::TempDir dir;
  test::write(dir / "z" / "deep" / "ArrayMultReduce.cl", "a");
  test::write(dir / "b" / "ArrayMultReduce.cl", "b");
  test::write(dir / "a" / "ArrayMultReduce.cl", "c");
  const auto found = grader::find_kernel(dir.path, "ArrayMultReduce.cl");
  REQUIRE(found);
  CHECK(found->relative == "a/ArrayMultReduce.cl");
  CHECK(found->others == std::vector<std::string>{"b/ArrayMultReduce.cl", "z/deep/ArrayMultReduce.cl"});
  CHECK_FALSE(grader::find_kernel(dir.path, "Missing.cl"));
}

TEST_CASE("spellings of #include that the preprocessor accepts are refused too") {
  // A line continuation, the %: digraph, a character literal holding a quote, a bare carriage return.
  for (const std::string& sneaky : {std::string("#\\\ninclude \"/etc/passwd\"\n"), std::string("%:include </etc/passwd>\n"),
                                    std::string("char q = '\"';\n#include \"/etc/passwd\"\n"),
                                    std::string("int x;\r#include \"/etc/passwd\"\n"), std::string("#line 1 \"other.cl\"\n")}) {
    CAPTURE(sneaky);
    const auto p = screen(sneaky + kPlainKernel);
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("is not allowed") != std::string::npos);
  }
  CHECK(screen("#define OP(a, b) ((a) + (b))\n#if 1\n#pragma unroll\n#endif\n" + kPlainKernel).empty());
}

TEST_CASE("a missing kernel names the kernels the file declares and the one that is a misspelling of it") {
  std::string renamed = kPlainKernel;
  renamed.replace(renamed.find("ArrayMultReduce("), 16, "ArrayMultReduction(");
  const auto near = screen("kernel void helper(global float *x) { x[0] = 0; }\n" + renamed);
  REQUIRE(near.size() == 1);
  CHECK(near[0].find("no kernel named ArrayMultReduce is declared; the file declares helper, ArrayMultReduction "
                     "(rename ArrayMultReduction to ArrayMultReduce: its parameters are the ones the lab passes); the lab expects:") !=
        std::string::npos);
  const auto other = screen("kernel void sum(global float *x) { x[0] = 0; }\n");
  REQUIRE(other.size() == 1);
  CHECK(other[0].find("; the file declares sum; the lab expects:") != std::string::npos);  // too far to be a misspelling
  const auto none = screen("void ArrayMultReduce(global float *x) { }\n");
  REQUIRE(none.size() == 1);
  CHECK(none[0].find("; the file declares no kernel; the lab expects:") != std::string::npos);
  CHECK(screen("__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void\nArrayMultReduce(global const float *dA, global const float *dB, "
               "local float *prods, global float *dC) { }\n").empty());
}

// Stored references: regenerating gives byte-identical files; edited or stale ones are refused.
#include <doctest/doctest.h>

#include "kit/paths.hpp"
#include "support.hpp"

namespace {
const std::filesystem::path kStored = kit::root() / "grader" / "reference";
}

TEST_CASE("regenerating the references reproduces the committed files byte for byte") {
  test::TempDir a, b;
  for (const test::TempDir* dir : {&a, &b}) {
    const auto run = test::run_program("grader", "--references " + dir->path.string() + " reference");
    REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  }
  CHECK(test::snapshot(a.path) == test::snapshot(b.path));
  CHECK(test::snapshot(a.path) == test::snapshot(kStored));
}

TEST_CASE("an edited reference file or a changed spec is refused with how to regenerate") {
  test::TempDir refs, specs;
  std::filesystem::copy(kStored, refs.path, std::filesystem::copy_options::recursive);
  std::string bytes = test::read(refs / "03-array-mult-reduce.json");
  const auto at = bytes.find("\"partials\":[");
  REQUIRE(at != std::string::npos);
  char& digit = bytes[at + 12];  // the first character of the first stored number
  digit = digit == '9' ? '8' : '9';  // change it, whatever it was
  test::write(refs / "03-array-mult-reduce.json", bytes);
  const auto edited = test::run_program("grader", "--references " + refs.path.string() + " check 03");
  CHECK(edited.exit_code == 1);
  CHECK(edited.output.find("does not match its checksum") != std::string::npos);
  CHECK(edited.output.find("grader reference") != std::string::npos);

  std::string spec = test::read(kit::root() / "grader" / "specs" / "03-array-mult-reduce.json");
  spec.replace(spec.find("\"ArrayMultReduce\""), 17, "\"ArrayMultReduce!\"");
  test::write(specs / "03-array-mult-reduce.json", spec);
  const auto stale = test::run_program("grader", "--specs " + specs.path.string() + " check 03");
  CHECK(stale.exit_code == 1);
  CHECK(stale.output.find("was made from another version of") != std::string::npos);
}

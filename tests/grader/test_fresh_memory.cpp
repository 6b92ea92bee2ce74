// Memory a kernel reads where nothing was written starts as zeros in every run (fresh_memory.hpp),
// so grading the same kernel twice gives the same grade.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "isolation/case_runs.hpp"
#include "kit/buffer.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

using json = nlohmann::json;

TEST_CASE("a kernel reading memory no work-item wrote gets the same grade in every run") {
  // Lab 05's pairwise pass one element too far: each pass also reads the slot past its data, in a
  // buffer the host never filled. `grader check` builds in the child itself, and the compiler's
  // freed memory is what such a buffer got: three checks without fixed fresh memory said the max
  // of 7 negative values was 7.03e+28, 3.05e-41 and 0. The first pass reads one element past the
  // end of the input, where the case child's buffers have guard bytes (kit/buffer.hpp): the max is
  // the guard's float every time, on any device.
  float guard = 0;
  const std::vector<unsigned char> guard_bytes(sizeof guard, kit::kGuardByte);
  std::memcpy(&guard, guard_bytes.data(), sizeof guard);
  char guard_text[32];
  std::snprintf(guard_text, sizeof guard_text, "%.9g", guard);
  REQUIRE(std::string(guard_text) == "13323083");
  test::TempDir labs;
  std::string source = test::read(kit::root() / "solutions/05-multipass-reductions/MultipassReductions.cl");
  const std::string bound = "if (i < active - s)";
  REQUIRE(source.find(bound) != std::string::npos);
  source.replace(source.find(bound), bound.size(), "if (i <= active - s)");
  test::write(labs / "05-multipass-reductions" / "MultipassReductions.cl", source);
  const auto verdicts = [](const std::string& out) {  // the lines that say what each case got
    std::string lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
      if (line.find("wrong:") != std::string::npos || line.find("PASS") != std::string::npos) lines += line + "\n";
    return lines;
  };
  std::vector<std::string> runs;
  for (int i = 0; i < 3; ++i) {
    const auto run = test::run_program("grader", "check 05 --dir " + labs.path.string());
    CHECK(run.exit_code == 1);
    CHECK(run.output.find("max of 7 elements by pairwise in 3 launches: expected -1.09713709, got " + std::string(guard_text) + " (exact)") != std::string::npos);
    runs.push_back(verdicts(run.output));
  }
  CHECK_FALSE(runs[0].empty());
  CHECK(runs[0] == runs[1]);
  CHECK(runs[0] == runs[2]);
}

TEST_CASE("every child that runs a kernel's cases, both ways, starts with zeroed fresh memory") {
  // A stand-in for `grader run-case` that writes down the environment it was given, then fails
  // its build: what a real child would see.
  test::TempDir dir;
  test::open_to_children(dir);  // the stand-in writes down here what it saw
  const std::filesystem::path fake = dir / "fake-grader";
  test::write(fake, "#!/bin/sh\necho \"$MALLOC_PERTURB_ $KIT_BUFFER_GUARD\" >> " + (dir / "seen").string() + "\n");
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  const auto spec = grader::load_specs(kit::root() / "grader" / "specs", {"03"}).at(0);
  for (const bool earlier_way : {false, true}) {
    grader::GradeSettings s{fake, dir / "work"};
    s.grading.child_per_case = earlier_way;
    std::filesystem::create_directories(s.workdir);
    grader::run_cases(spec, s, dir / "K.cl", "K.cl", {0, 1}, [](std::size_t, const json&) { return grader::AfterCase::GoOn; });
  }
  // One child each way, which stopped at its build; both with guard bytes past each buffer.
  CHECK(test::read(dir / "seen") == "255 1\n255 1\n");
}

TEST_CASE("the run under Oclgrind gets one worker thread and zeroed fresh memory, so its findings repeat") {
  // With a worker per core Oclgrind ran work-groups in a changing order, and a lab 08 kernel whose
  // scatter collides was "unsafe" in one run and clean in the next. A stand-in for Oclgrind
  // writes down what it was given.
  test::TempDir dir;
  test::open_to_children(dir);  // the stand-in writes down here what it saw
  const std::filesystem::path fake = dir / "fake-oclgrind";
  test::write(fake, "#!/bin/sh\necho \"$OCLGRIND_NUM_THREADS $MALLOC_PERTURB_ $KIT_BUFFER_GUARD\" >> " + (dir / "seen").string() + "\n");
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  setenv("KIT_OCLGRIND", fake.c_str(), 1);
  const auto run = test::run_program("grader", "check 03 --races --dir " + (kit::root() / "solutions").string());
  unsetenv("KIT_OCLGRIND");
  CHECK(run.exit_code == 1);  // the stand-in found nothing to report: the checks could not be made
  CHECK(test::read(dir / "seen") == "1 255 0\n");  // buffers of their exact sizes, so that Oclgrind sees an access past the end
}

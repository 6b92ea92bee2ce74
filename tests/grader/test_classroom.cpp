// GitHub Classroom: `grader check --classroom` writes the autograding reporter's result, and the
// workflow template runs it.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "export/classroom.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

using json = nlohmann::json;

namespace {

// The reporter's JSON from a `result=<base64>` line, decoded by the system's base64.
json decode(const test::TempDir& dir, const std::string& line) {
  REQUIRE(line.rfind("result=", 0) == 0);
  test::write(dir / "b64.txt", line.substr(7));
  const auto decoded = test::run_command("base64 -d " + (dir / "b64.txt").string());
  REQUIRE(decoded.exit_code == 0);
  return json::parse(decoded.output);
}

}  // namespace

TEST_CASE("grader check --classroom: the reporter's fields, and scores that add up to the check's points") {
  CHECK(grader::base64("ab") == "YWI=");
  CHECK(grader::base64("abc") == "YWJj");
  test::TempDir dir;
  const std::string output = (dir / "github_output").string();
  test::write(dir / "github_output", "earlier=line\n");
  const auto run = test::run_command("GITHUB_OUTPUT=" + output + " " + test::kit_path("build/bin/grader") +
                                     " check 01 03 --dir " + test::kit_path("solutions") + " --classroom 2>&1");
  CHECK(run.exit_code == 0);
  const std::string written = test::read(output);
  REQUIRE(written.rfind("earlier=line\n", 0) == 0);  // appended, not overwritten
  std::string line = written.substr(13);
  line.pop_back();
  const json r = decode(dir, line);
  CHECK(r["version"] == 1);
  CHECK(r["status"] == "pass");
  double score = 0, max = 0;
  for (const json& t : r["tests"]) {
    for (const char* field : {"name", "status", "score", "max_score", "message", "line_no", "execution_time", "test_code"})
      CHECK_MESSAGE(t.contains(field), field);
    CHECK(t["status"] == "pass");
    score += t["score"].get<double>();
    max += t["max_score"].get<double>();
  }
  CHECK(max == r["max_score"].get<double>());
  CHECK(score == max);
  CHECK(run.output.find("All visible cases pass") != std::string::npos);

  // The starters: every test fails, with the case's message, and the line is printed without $GITHUB_OUTPUT.
  const auto starter = test::run_command("env -u GITHUB_OUTPUT " + test::kit_path("build/bin/grader") + " check 01 --classroom 2>&1");
  CHECK(starter.exit_code == 1);
  const std::size_t at = starter.output.find("result=");
  REQUIRE(at != std::string::npos);
  const json s = decode(dir, starter.output.substr(at, starter.output.find('\n', at) - at));
  CHECK(s["status"] == "fail");
  for (const json& t : s["tests"]) {
    CHECK(t["status"] == "fail");
    CHECK(t["score"] == 0);
    CHECK_FALSE(t["message"].get<std::string>().empty());
  }
}

TEST_CASE("the GitHub Classroom workflow template builds the kit and hands grader check's result to the reporter") {
  const std::string yml = test::read(kit::root() / "grader/classroom/classroom.yml");
  for (const char* must : {"scripts/setup.sh", "cmake --build --preset default", "grader check --classroom",
                           "autograding-grading-reporter", "steps.labs.outputs.result", "runners: labs"})
    CHECK_MESSAGE(yml.find(must) != std::string::npos, must);
}

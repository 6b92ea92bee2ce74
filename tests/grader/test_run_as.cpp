// Grading never runs a student's code as root: a grader started as root runs every child (its
// cases, the build service, Oclgrind) as an unprivileged user, `nobody` or --run-as USER, who can
// write into the child's own folder and nowhere the grader keeps its results.
#include <doctest/doctest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isolation/sandbox.hpp"
#include "support.hpp"

namespace {

// A folder anyone may enter and read but only root may write (0755), as an output folder of the
// grader's often is: a write into it from the child fails for want of permission, not of a path.
struct OpenFolder {
  OpenFolder() {
    std::string pattern = "/tmp/kit-test-out-XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path = pattern;
    chmod(path.c_str(), 0755);
  }
  ~OpenFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::filesystem::path path;
};

}  // namespace

TEST_CASE("a child of a grader run as root runs as nobody and writes into its own folder only") {
  if (geteuid() != 0) {
    MESSAGE("skipped: the grader drops privileges only when run as root, and this test is not");
    return;
  }
  const passwd* nobody = getpwnam("nobody");
  REQUIRE_MESSAGE(nobody != nullptr, "this machine has no user nobody");
  test::TempDir dir;  // root's own (0700), as the grader's scratch and output folders often are
  OpenFolder open_out;
  const std::filesystem::path closed_out = dir / "out";
  std::filesystem::create_directories(closed_out);
  test::write(closed_out / "report.txt", "a finished result");
  test::write(open_out.path / "report.txt", "a finished result");
  // The child records who it is, writes into its own folder, and tries both output folders.
  const std::string script =
      "id -u > uid.txt; echo mine > own.txt\n"
      "for out in \"$1\" \"$2\"; do\n"
      "  if (echo x > \"$out/probe\"; echo x >> \"$out/report.txt\") 2>> denied.txt; then echo wrote; else echo refused; fi\n"
      "done > outs.txt\n";
  grader::SandboxLimits limits{10, 1024, 1, dir / "cache"};
  const auto outcome = grader::run_in_sandbox({"/bin/sh", "-c", script, "sh", open_out.path.string(), closed_out.string()},
                                              limits, dir / "work");
  INFO(outcome.output);
  CHECK(outcome.end == grader::ChildOutcome::End::Exited);
  CHECK(test::read(dir / "work" / "uid.txt") == std::to_string(nobody->pw_uid) + "\n");
  CHECK(test::read(dir / "work" / "own.txt") == "mine\n");  // its own folder, brought back to the grader
  CHECK(test::read(dir / "work" / "outs.txt") == "refused\nrefused\n");
  CHECK(test::read(dir / "work" / "denied.txt").find("Permission denied") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(open_out.path / "probe"));
  CHECK_FALSE(std::filesystem::exists(closed_out / "probe"));
  CHECK(test::read(open_out.path / "report.txt") == "a finished result");
  CHECK(test::read(closed_out / "report.txt") == "a finished result");
}

TEST_CASE("--run-as with a user this machine does not have is refused, naming the user") {
  if (geteuid() != 0) {
    MESSAGE("skipped: --run-as is for a grader run as root, and this test is not");
    return;
  }
  const auto run = test::run_program("grader", "check 03 --run-as kit-no-such-user");
  CHECK(run.exit_code != 0);
  CHECK(run.output.find("kit-no-such-user") != std::string::npos);
  CHECK(run.output.find("no such user") != std::string::npos);
  const auto root = test::run_program("grader", "check 03 --run-as root");
  CHECK(root.exit_code != 0);
  CHECK(root.output.find("--run-as root") != std::string::npos);
}

TEST_CASE("grader slurm hands --run-as to the grading tasks") {
  if (geteuid() != 0) {
    MESSAGE("skipped: --run-as is for a grader run as root, and this test is not");
    return;
  }
  test::TempDir out;
  const auto run = test::run_program("grader", "slurm --dry-run --labs 03 --run-as nobody --submissions " +
                                                   test::kit_path("grader/examples/class") + " --out " + out.path.string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const std::string script = test::read(out / "slurm" / "round-1" / "grade-array.sh");
  CHECK(script.find(" grade ") != std::string::npos);
  CHECK(script.find("'--run-as' 'nobody'") != std::string::npos);
}

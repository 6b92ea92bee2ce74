#pragma once
// Helpers the tests share: the one PoCL runtime, fixture paths, running a kit program.
#include <filesystem>
#include <string>

#include "kit/device.hpp"

namespace test {

// The default device (PoCL's CPU device), opened once for the whole test run.
const kit::Runtime& runtime();
// Builds `source` on PoCL (runtime()) with `options`; "" when it built, else the error.
std::string build_error(const std::string& source, const std::string& options);

std::filesystem::path data(const std::string& name);  // tests/data/<name>

struct Command {
  int exit_code;
  std::string output;  // stdout and stderr together
};
// Runs build/bin/<program> <args> through the shell.
Command run_program(const std::string& program, const std::string& args);
// Runs a shell command line; stdout and stderr together.
Command run_command(const std::string& command);
// kit::root() / relative, quoted for the shell.
std::string kit_path(const std::string& relative);

}  // namespace test

#include <map>

namespace test {

// A fresh folder under the system's temp folder, removed with everything in it at scope exit.
struct TempDir {
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path path;
  std::filesystem::path operator/(const std::string& name) const { return path / name; }
};

// Opens `dir` to every user (0777): a stand-in for a grading child writes down there what it saw.
// When the tests run as root, the grader runs its children as nobody, who may write into its own
// folder only, and this one.
void open_to_children(const TempDir& dir);

// Every file under `dir` with its bytes: equal maps mean an untouched tree.
std::map<std::string, std::string> snapshot(const std::filesystem::path& dir);

std::string read(const std::filesystem::path& file);
void write(const std::filesystem::path& file, const std::string& content);

// `text` with its one occurrence of `from` replaced by `to`; throws std::logic_error when `from`
// occurs never or twice, so that a kernel variant made from a solution cannot silently drift.
std::string replace_once(std::string text, const std::string& from, const std::string& to);
// `text` with the lines between "// slide: NAME" and the next "// slide-end" (both dropped)
// replaced by `body`; throws std::logic_error when the region is missing.
std::string replace_slide_region(const std::string& text, const std::string& name, const std::string& body);

// Writes DIR/specs/01-array-mult.json, lab 01's spec with `late_penalty_per_day` set, and returns
// the grader's global options for it: " --specs DIR/specs --references <the kit's references>". A
// late penalty is policy, not an output, so the stored references serve it as they are.
std::string lab01_with_late_penalty(const std::filesystem::path& dir, double per_day);

// Writes DIR/specs/LAB.json, the lab's spec with its build limit set to `seconds`, and returns the
// grader's global options for it, as above. For the tests of endless kernels: a case run again alone
// after a time-out gets the build limit on top of its own (grader/src/isolation/case_runs.cpp), so an
// endless kernel spins for the case's limit plus the build limit there; the build and the first
// launch's compile of a lab's kernel take seconds, not the spec's 60 s for the slowest machine.
std::string lab_with_build_limit(const std::filesystem::path& dir, const std::string& lab, double seconds);

// Writes DIR/specs/LAB.json, the lab's spec (or the copy already there) with its one number field
// `key` (a name that occurs once in it, such as the speed case's "pairs") set to `value`, and
// returns the global options, as above.
std::string lab_with_number(const std::filesystem::path& dir, const std::string& lab, const std::string& key, double value);

}  // namespace test

#include <vector>

namespace test {

// The kit's labs, counted from the tree: the folders labs/NN-name/ (sorted), so that no test states
// how many labs there are. `with_spec` keeps those that also have grader/specs/NN-name.json.
std::vector<std::string> kit_labs(bool with_spec = false);

}  // namespace test

namespace test {

// A copy of the kit in `dest`: the files git tracks, as they are in the working tree (changes not
// yet committed included), committed there as one commit of a fresh repository, so that a test may
// add a lab or an untracked file without touching the kit. No build folder.
void copy_kit(const std::filesystem::path& dest);

}  // namespace test

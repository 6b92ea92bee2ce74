#pragma once
// Records of steps looked at under Oclgrind, kept for reuse where $KIT_OCLGRIND_RECORDS names a
// folder (off otherwise). A step of the Oclgrind stage (oclgrind_stage.hpp) that finished on
// Oclgrind's device with its launches recorded leaves there its result, the plugin's log lines of
// its launches and its seconds, under a key that holds everything the step's run depends on: the
// kernel's bytes and the name it is shown as, the lab and its spec file's bytes, the step (its
// case, quick or not, measured or not, its time limit), whether every check ran, and the path,
// size and modification time of the grader, the `oclgrind` program, its runtime folder and the
// kit's plugin. The same step later (the same kernel checked again, or graded after `grader
// check`, which looks at the visible cases only) reads the record instead of running Oclgrind:
// the evidence is that of a run that really happened with the same inputs. Each step is run by a
// child that gives freed buffer numbers away between steps, so a step sees what a fresh process
// would, whichever steps ran before it. A step that timed out or ended its child is not recorded.
// A key being run holds a lock, so a second grader wanting it at the same time waits for the
// record instead of running it again.
//
// Used by the test suite (tests/main.cpp sets it for every test), where the same solutions,
// starters and example class are graded by many tests; a course may set it for students' repeated
// checks. Records are never pruned: delete the folder to reclaim the space.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/grade.hpp"
#include "spec/spec.hpp"

namespace grader {

inline constexpr const char* kOclgrindRecordsVariable = "KIT_OCLGRIND_RECORDS";

// The folder $KIT_OCLGRIND_RECORDS names, or nothing.
std::optional<std::filesystem::path> oclgrind_records_folder();

// "path size:mtime" of `file` ("path none" where it is missing); for a folder, every regular file in it.
std::string file_identity(const std::filesystem::path& file);

// What a finished step left: the device it ran on, its result, the plugin's log lines of its
// launches (and of the reports written as they came) and its seconds.
struct StepRecord {
  std::string device;
  nlohmann::json result;
  std::vector<std::string> lines;
  double seconds = 0;
};

// One key's record, locked from construction to destruction (flock on KEY.lock).
class OclgrindRecord {
 public:
  OclgrindRecord(const std::filesystem::path& folder, const std::string& key);
  ~OclgrindRecord();
  OclgrindRecord(const OclgrindRecord&) = delete;
  OclgrindRecord& operator=(const OclgrindRecord&) = delete;

  // The record, or nothing where there is none (or it cannot be read: the step is then run again).
  std::optional<StepRecord> read() const;
  // Writes `r` as the key's record (a folder that cannot take it leaves the grading as it is).
  void keep(const StepRecord& r) const;

 private:
  std::filesystem::path file_;
  int lock_ = -1;
};

struct LookStep;
struct StepLook;

// The key of `step`'s record: everything its run depends on (above). `kernel`: the file's sha256.
std::string step_record_key(const LabSpec& spec, const GradeSettings& s, const std::string& kernel, const std::string& shown_as,
                            const LookStep& step, const std::vector<std::string>& checks);

// `l` as record `r` has it (its result, launches, findings less those `allow` allows, seconds);
// false, leaving `l` as it was, where the record shows no launch of it.
bool restore_step(StepLook& l, const StepRecord& r, const std::vector<AllowedFinding>& allow);

// Keeps a record of each step of one child (`steps`, in the child's order: step k is tagged "k" in
// `plugin_log`) that `recording` asks for and that finished and was looked at, on `device`.
void keep_step_records(const std::filesystem::path& plugin_log, const std::vector<StepLook*>& steps,
                       const std::map<const StepLook*, const OclgrindRecord*>& recording, const std::string& device);

}  // namespace grader

#include "judge/oclgrind_records.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include <set>
#include <sstream>

#include "core/files.hpp"
#include "judge/oclgrind_stage.hpp"
#include "kit/errors.hpp"
#include "oclgrind/allowances.hpp"
#include "oclgrind/checks.hpp"

namespace grader {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::optional<fs::path> oclgrind_records_folder() {
  const char* set = std::getenv(kOclgrindRecordsVariable);
  if (!set || !*set) return std::nullopt;
  return fs::absolute(set);
}

std::string file_identity(const fs::path& file) {
  std::error_code ec;
  if (fs::is_directory(file, ec)) {
    std::vector<std::string> parts;
    for (const auto& e : fs::directory_iterator(file, ec))
      if (e.is_regular_file(ec)) parts.push_back(file_identity(e.path()));
    std::sort(parts.begin(), parts.end());
    std::string all = file.string() + " [";
    for (const std::string& p : parts) all += p + ";";
    return all + "]";
  }
  const auto size = fs::file_size(file, ec);
  if (ec) return file.string() + " none";
  const auto time = fs::last_write_time(file, ec);
  if (ec) return file.string() + " none";
  return file.string() + " " + std::to_string(size) + ":" + std::to_string(time.time_since_epoch().count());
}

OclgrindRecord::OclgrindRecord(const fs::path& folder, const std::string& key) : file_(folder / (key + ".json")) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  lock_ = ::open((folder / (key + ".lock")).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_ >= 0)
    while (::flock(lock_, LOCK_EX) != 0 && errno == EINTR) {
    }
}

OclgrindRecord::~OclgrindRecord() {
  if (lock_ >= 0) ::close(lock_);  // releases the lock
}

std::optional<StepRecord> OclgrindRecord::read() const {
  try {
    if (!fs::exists(file_)) return std::nullopt;
    const json j = json::parse(read_file(file_));
    StepRecord r;
    r.device = j.at("device");
    r.result = j.at("result");
    r.lines = j.at("lines").get<std::vector<std::string>>();
    r.seconds = j.at("seconds");
    if (r.device.find("Oclgrind") == std::string::npos || r.lines.empty() || !r.result.is_object()) return std::nullopt;
    return r;
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable: run it again, and record it anew
  }
}

void OclgrindRecord::keep(const StepRecord& r) const {
  try {
    write_file_atomically(file_, json{{"device", r.device}, {"result", r.result}, {"lines", r.lines}, {"seconds", r.seconds}}.dump());
  } catch (const std::exception&) {
    // A record is a saving, never a result.
  }
}

std::string step_record_key(const LabSpec& spec, const GradeSettings& s, const std::string& kernel, const std::string& shown_as,
                            const LookStep& step, const std::vector<std::string>& checks) {
  const fs::path oclgrind = find_oclgrind();
  const json local = step.params.value("local", json());
  const json key = {{"records", 1},
                    {"lab", spec.lab},
                    {"spec", spec.sha256},
                    // What the child's limits come from, should a spec be changed in memory after it was read.
                    {"build_seconds", spec.build_time_limit_s},
                    {"memory_mb", std::max(spec.memory_limit_mb, spec.safety ? spec.safety->memory_limit_mb : spec.memory_limit_mb)},
                    {"kernel", kernel},
                    {"shown_as", shown_as},
                    {"case", step.params},
                    {"quick", step.quick},
                    {"measured", step.measured},
                    {"seconds", step.seconds},
                    {"checks", checks},
                    // Oclgrind's work-group limit is raised for a child with a step that needs it.
                    {"wide", local.is_number_unsigned() && local.get<std::size_t>() > 1024},
                    {"grader", file_identity(s.grader_exe)},
                    {"oclgrind", file_identity(oclgrind)},
                    {"oclgrind_runtime", file_identity(oclgrind.parent_path().parent_path() / "lib" / "oclgrind")},
                    {"plugin", file_identity(find_work_span_plugin(s))}};
  return sha256_hex(key.dump());
}

bool restore_step(StepLook& l, const StepRecord& r, const std::vector<AllowedFinding>& allow) {
  std::string text;
  for (const std::string& line : r.lines) {
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return false;
    j["case"] = "0";  // the step's number in this reading
    text += j.dump() + "\n";
  }
  PluginLog log;
  try {
    log = parse_plugin_log(text);
  } catch (const kit::Error&) {
    return false;
  }
  std::map<std::string, std::vector<KernelWork>> launches;
  const std::set<std::string> quick = l.step.quick ? std::set<std::string>{"0"} : std::set<std::string>{};
  std::map<std::string, std::vector<OclgrindFinding>> found = findings_by_step(log, launches, quick);
  if (launches["0"].empty()) return false;
  l.launches = launches["0"];
  l.findings = not_allowed(allow, found["0"], l.launches, l.allowed);
  l.result = r.result;
  l.seconds = r.seconds;
  l.looked = true;
  return true;
}

void keep_step_records(const fs::path& plugin_log, const std::vector<StepLook*>& steps,
                       const std::map<const StepLook*, const OclgrindRecord*>& recording, const std::string& device) {
  std::map<std::string, const StepLook*> by_tag;
  for (std::size_t k = 0; k < steps.size(); ++k)
    if (recording.count(steps[k]) && steps[k]->looked && !steps[k]->timed_out && steps[k]->not_looked.empty())
      by_tag[std::to_string(k)] = steps[k];
  if (by_tag.empty() || !fs::exists(plugin_log)) return;
  std::map<std::string, StepRecord> records;
  std::istringstream lines(read_file(plugin_log));
  for (std::string line; std::getline(lines, line);) {
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("case") || !j.at("case").is_string()) continue;
    if (by_tag.count(j.at("case").get<std::string>())) records[j.at("case").get<std::string>()].lines.push_back(line);
  }
  for (const auto& [tag, l] : by_tag) {
    StepRecord& r = records[tag];
    r.device = device, r.result = l->result, r.seconds = l->seconds;
    if (!r.lines.empty()) recording.at(l)->keep(r);
  }
}

}  // namespace grader

#include "batch/graded_hash.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/files.hpp"
#include "intake/submission.hpp"
#include "kit/errors.hpp"
#include "term/late.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

// The lab's entry in the references' manifest, as text ("" when there is none: load_reference
// refuses that before anything is graded).
std::string reference_identity(const fs::path& references, const std::string& lab) {
  if (!fs::exists(references / "MANIFEST.json")) return "";
  const json manifest = json::parse(read_file(references / "MANIFEST.json"), nullptr, false);
  if (!manifest.is_object() || !manifest.contains("labs") || !manifest["labs"].contains(lab)) return "";
  return manifest["labs"][lab].dump();
}

// The deadline's part: none, also when handed in on time (the result is the one with no deadline);
// or late: the deadline, the days late the penalty counts and the hours its message quotes.
std::string deadline_identity(const std::optional<fs::file_time_type>& deadline, fs::file_time_type handed_in) {
  if (!deadline || handed_in <= *deadline) return "deadline none\n";
  const Lateness l = lateness(handed_in, *deadline);  // what the penalty and its message use
  char late[64];
  std::snprintf(late, sizeof late, "%.1f hours, %d day(s)", l.hours, l.days);
  return "deadline " + format_deadline(*deadline) + " late " + late + "\n";
}

// Every file's path under `root`, sorted (links are not followed).
std::string file_names(const fs::path& root) {
  std::vector<std::string> names;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (!it->is_symlink(ec) && it->is_regular_file(ec)) names.push_back(fs::relative(it->path(), root).string());
  std::sort(names.begin(), names.end());
  std::string all;
  for (const std::string& n : names) all += n + "\n";
  return all;
}

// The submission's part of the hash for one lab; sets inputs.root to what grade_lab reads.
std::string submission_identity(const LabSpec& spec, const fs::path& root, const fs::path& copy, LabInputs& inputs) {
  inputs.root = root;
  const auto found = find_kernel(root, spec.kernel_file);
  if (!found) return "missing\n" + file_names(root);
  std::string text = "kernel " + found->relative + "\n";
  for (const std::string& other : found->others) text += "also " + other + "\n";
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(found->path, ec);
  if (ec || size > 4 * kMaxKernelBytes)  // refused by its size, never read: graded where it is
    return text + "size " + std::to_string(size) + "\n";
  const std::string bytes = read_file(found->path);
  fs::remove_all(copy);
  fs::create_directories((copy / found->relative).parent_path());
  write_file_atomically(copy / found->relative, bytes);
  for (const std::string& other : found->others) {
    if (fs::exists(copy / other)) continue;
    fs::create_directories((copy / other).parent_path());
    write_file_atomically(copy / other, "");
  }
  inputs.root = copy;
  return text + "bytes " + std::to_string(bytes.size()) + "\n" + bytes;
}

}  // namespace

PreparedStudent prepare_student(const Student& s, const std::vector<LabSpec>& specs, const fs::path& references,
                                const std::optional<fs::file_time_type>& deadline, const fs::path& work) {
  PreparedStudent p;
  p.handed_in = handed_in_at(s);
  try {
    p.root = submission_root(s, work / "files");  // an archive extracted, a download's files gathered
  } catch (const kit::Error& e) {
    p.refused = e.what();
  }
  std::string student = "version " + s.entry.filename().string() + "\n";
  for (const std::string& n : s.notes) student += "note " + n + "\n";
  if (!p.refused.empty()) {
    std::error_code ec;  // an archive refused: its size and time tell a new one (it may be huge: not read)
    student += "refused " + p.refused + "\nsize " + std::to_string(fs::file_size(s.entry, ec)) + " time " +
               std::to_string(fs::last_write_time(s.entry, ec).time_since_epoch().count()) + "\n";
  }
  for (const LabSpec& spec : specs) {
    LabInputs& inputs = p.labs[spec.lab];
    std::string submission = student;
    try {
      if (p.refused.empty()) submission += submission_identity(spec, p.root, work / "graded" / spec.lab, inputs);
    } catch (const std::exception& e) {  // grade_lab meets the same trouble and says so in the result
      inputs.root = p.root;
      submission += std::string("unreadable ") + e.what() + "\n";
    }
    inputs.submission_hash = sha256_hex(submission);
    const auto hash = [&](const std::string& deadline_part) {
      return sha256_hex("kit graded_hash 1\nlab " + spec.lab + "\nspec " + spec.sha256 + "\nreferences " +
                        reference_identity(references, spec.lab) + "\n" + deadline_part + "submission " + inputs.submission_hash + "\n");
    };
    inputs.graded_hash = hash(deadline_identity(deadline, p.handed_in));
    if (!deadline || p.handed_in <= *deadline) inputs.on_time_hash = hash("deadline on time\n");
  }
  return p;
}

json hash_fields(const LabInputs& inputs) {
  return {{"graded_hash", inputs.graded_hash}, {"submission_hash", inputs.submission_hash}};
}

std::string change_reason(const json& record, const LabInputs& now) {
  if (!record.contains("graded_hash") || !record["graded_hash"].is_string()) return "";  // an older grader's record
  if (record["graded_hash"] == now.graded_hash) return "";
  if (!now.on_time_hash.empty() && record["graded_hash"] == now.on_time_hash) return "";
  if (record.value("submission_hash", "") != now.submission_hash) return "resubmitted";
  return "spec, references or deadline changed";
}

std::map<ResultKey, LabResult> take_out_changed(std::map<ResultKey, LabResult>& results, const std::map<ResultKey, json>& records,
                                                const std::map<std::string, PreparedStudent>& prepared,
                                                std::map<ResultKey, std::string>& reasons) {
  std::map<ResultKey, LabResult> changed;
  for (auto it = results.begin(); it != results.end();) {
    const auto student = prepared.find(it->first.first);
    const auto record = records.find(it->first);
    std::string why;
    if (student != prepared.end() && record != records.end())
      if (const auto lab = student->second.labs.find(it->first.second); lab != student->second.labs.end())
        why = change_reason(record->second, lab->second);
    if (why.empty()) {
      ++it;
      continue;
    }
    reasons[it->first] = why;
    changed.insert(*it);
    it = results.erase(it);
  }
  return changed;
}

}  // namespace grader

#include "judge/graded_kernels.hpp"

#include <system_error>

#include "core/files.hpp"
#include "kit/errors.hpp"
#include "kit/kernel_code.hpp"
#include "kit/program.hpp"

namespace grader {

std::string code_without_comments(const std::string& source) { return kit::code_without_comments(source); }

bool same_as_starter(const std::string& source, const std::filesystem::path& kernel, const std::filesystem::path& starter) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(starter, ec) || std::filesystem::equivalent(kernel, starter, ec)) return false;
  return code_without_comments(read_file(starter)) == code_without_comments(source);
}

std::string starter_hash(const std::string& source) { return sha256_hex(code_without_comments(source)); }

json starter_hashes(const std::filesystem::path& labs_dir, const std::vector<std::pair<std::string, std::string>>& labs) {
  json out = {{"about", "the SHA-256 of each lab's starter kernel outside comments and spacing (grader code_without_comments): "
                        "`grader grade` takes a submission equal to its lab's as an unchanged starter"},
              {"labs", json::object()}};
  for (const auto& [lab, file] : labs) {
    const std::filesystem::path starter = labs_dir / lab / file;
    if (!std::filesystem::is_regular_file(starter)) throw kit::Error("no starter " + starter.string() + " to hash");
    out["labs"][lab] = {{"file", file}, {"sha256", starter_hash(read_file(starter))}};
  }
  return out;
}

std::optional<std::string> stored_starter_hash(const std::filesystem::path& kit_root, const std::string& lab, const std::string& kernel_file) {
  for (const char* name : {kReleaseStartersFile, kKitStartersFile}) {
    const std::filesystem::path file = kit_root / "grader" / name;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) continue;
    json stored;
    try {
      stored = json::parse(read_file(file));
    } catch (const json::exception& e) {
      throw kit::Error(file.string() + ": not JSON: " + e.what());
    }
    if (!stored.is_object() || !stored.contains("labs") || !stored["labs"].is_object())
      throw kit::Error(file.string() + ": labs: must be an object of lab -> {\"file\", \"sha256\"}");
    if (!stored["labs"].contains(lab)) return std::nullopt;
    const json& entry = stored["labs"][lab];
    if (!entry.is_object() || !entry.contains("file") || !entry["file"].is_string() || !entry.contains("sha256") ||
        !entry["sha256"].is_string() || entry["sha256"].get<std::string>().size() != 64)
      throw kit::Error(file.string() + ": labs." + lab + ": must be {\"file\": name, \"sha256\": 64 hex digits}");
    if (entry["file"] != kernel_file)
      throw kit::Error(file.string() + ": labs." + lab + ".file: " + entry["file"].get<std::string>() + ", but the lab's kernel file is " +
                       kernel_file);
    return entry["sha256"].get<std::string>();
  }
  return std::nullopt;
}

bool quotes_the_file(const LabResult& r, const std::string& shown_as) {
  if (r.status == LabStatus::BuildError) return true;
  const std::string position = shown_as + ":";
  if (r.message.find(position) != std::string::npos) return true;
  for (const CaseResult& c : r.cases)
    if (c.message.find(position) != std::string::npos || c.hint.find(position) != std::string::npos) return true;
  return false;
}

std::optional<LabResult> GradedKernels::find_or_claim(const Key& key) {
  std::unique_lock<std::mutex> lock(mutex_);
  const std::string k = id(key);
  for (;;) {
    for (const Graded& g : done_[k])
      if (g.bytes == key.bytes || !quotes_the_file(g.result, key.shown_as)) {
        ++reused_;
        return g.result;
      }
    if (!grading_.count(k)) break;
    changed_.wait(lock);
  }
  grading_.insert(k);
  return std::nullopt;
}

void GradedKernels::publish(const Key& key, const LabResult& result) {
  std::lock_guard<std::mutex> lock(mutex_);
  done_[id(key)].push_back({key.bytes, result});
  abandon_locked(key);
}

void GradedKernels::abandon(const Key& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  abandon_locked(key);
}

void GradedKernels::abandon_locked(const Key& key) {
  grading_.erase(id(key));
  changed_.notify_all();
}

std::size_t GradedKernels::reused() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return reused_;
}

}  // namespace grader

#include "batch/journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <ctime>
#include <fstream>

#include "kit/errors.hpp"
#include "kit/paths.hpp"

namespace grader {

Journal::Journal(std::filesystem::path file) : file_(std::move(file)) {}

std::string Journal::Line::graded_at() const {
  return record.contains("graded_at") && record["graded_at"].is_string() ? record["graded_at"].get<std::string>() : "";
}

std::map<std::pair<std::string, std::string>, Journal::Line> Journal::load_lines() const {
  std::map<std::pair<std::string, std::string>, Line> done;
  damaged_ = 0;
  std::ifstream in(file_);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    try {
      json record = json::parse(line);
      LabResult r = lab_result_from_json(record);
      const std::pair<std::string, std::string> key{r.student, r.lab};
      done[key] = {std::move(r), std::move(record)};
    } catch (const std::exception&) {
      ++damaged_;  // a line the last run did not finish writing: that result is simply redone
    }
  }
  return done;
}

std::map<std::pair<std::string, std::string>, LabResult> Journal::load() const {
  std::map<std::pair<std::string, std::string>, LabResult> done;
  for (auto& [key, line] : load_lines()) done[key] = std::move(line.result);
  return done;
}

void Journal::append(const LabResult& result, const json& fields) {
  // Every result is kept with when and by which kit it was graded; a regrade appends, and the
  // newest line of a student x lab is the one that counts.
  json record = to_json(result);
  for (const auto& [name, value] : fields.items()) record[name] = value;
  const std::time_t now = std::time(nullptr);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  record["graded_at"] = when;
  record["kit_version"] = kit::version();
  append_record(record);
}

void Journal::append_record(const json& record) {
  const std::string line = dump_json(record) + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  const int fd = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) throw kit::Error("cannot write the journal " + file_.string());
  const bool whole = ::write(fd, line.data(), line.size()) == ssize_t(line.size());
  ::fsync(fd);
  ::close(fd);
  if (!whole) throw kit::Error("cannot write the journal " + file_.string() + " (disk full?)");
}

}  // namespace grader

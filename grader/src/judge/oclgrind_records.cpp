#include "judge/oclgrind_records.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "core/files.hpp"

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

}  // namespace grader

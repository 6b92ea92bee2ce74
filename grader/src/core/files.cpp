#include "core/files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "kit/errors.hpp"
#include "kit/program.hpp"
#include "kit/starters.hpp"

namespace grader {

std::string read_file(const std::filesystem::path& file) { return kit::read_text_file(file); }

void write_file_atomically(const std::filesystem::path& file, const std::string& content) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path tmp = file.string() + ".tmp" + std::to_string(getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw kit::Error("cannot write " + tmp.string());
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n <= 0) {
      ::close(fd);
      std::filesystem::remove(tmp);
      throw kit::Error("cannot write " + tmp.string() + " (disk full?)");
    }
    done += std::size_t(n);
  }
  ::fsync(fd);
  ::close(fd);
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw kit::Error("cannot replace " + file.string() + ": " + ec.message());
  }
}

std::string sha256_hex(const std::string& bytes) { return kit::sha256_hex(bytes); }

}  // namespace grader

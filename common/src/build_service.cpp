#include "kit/build_service.hpp"

#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kit/errors.hpp"

namespace kit {
namespace {

// A request is the options and the source, each as a 4-byte length and its bytes; the answer is
// one byte: 'B' built, 'F' failed.
bool write_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL);
    if (n <= 0) return false;
    p += n;
    size -= std::size_t(n);
  }
  return true;
}

bool read_all(int fd, void* data, std::size_t size) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= std::size_t(n);
  }
  return true;
}

bool write_text(int fd, const std::string& text) {
  const std::uint32_t size = std::uint32_t(text.size());
  return write_all(fd, &size, sizeof size) && write_all(fd, text.data(), text.size());
}

bool read_text(int fd, std::string& text) {
  std::uint32_t size = 0;
  if (!read_all(fd, &size, sizeof size) || size > (64u << 20)) return false;  // a kernel file is far smaller
  text.assign(size, '\0');
  return read_all(fd, text.data(), size);
}

// A name starting with '@' is in Linux's abstract namespace: no file, gone with its process.
struct Address {
  sockaddr_un a{};
  socklen_t size = 0;
};
Address address_of(const std::string& name) {
  Address out;
  out.a.sun_family = AF_UNIX;
  if (name.empty() || name.size() >= sizeof out.a.sun_path) throw Error("not a usable name for the build service's socket: '" + name + "'");
  std::memcpy(out.a.sun_path, name.data(), name.size());
  if (name[0] == '@') out.a.sun_path[0] = '\0';
  out.size = socklen_t(offsetof(sockaddr_un, sun_path) + name.size() + (name[0] == '@' ? 0 : 1));
  return out;
}

}  // namespace

bool build_in_service(const std::string& source, const std::string& options) {
  const char* name = std::getenv(kBuildServiceVariable);
  if (name == nullptr || *name == '\0' || std::strlen(name) >= sizeof(sockaddr_un::sun_path)) return false;
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const Address a = address_of(name);
  char answer = 0;
  const bool asked = ::connect(fd, reinterpret_cast<const sockaddr*>(&a.a), a.size) == 0 && write_text(fd, options) &&
                     write_text(fd, source);
  // No time limit of its own here: the process asking is under its build's time limit already.
  const bool built = asked && read_all(fd, &answer, 1) && answer == 'B';
  ::close(fd);
  return built;
}

void serve_builds(const std::string& socket_path, const cl::Context& context, const cl::Device& device,
                  unsigned build_limit_s) {
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) throw Error("the build service could not make a socket: " + std::string(std::strerror(errno)));
  const Address a = address_of(socket_path);
  if (socket_path[0] != '@') ::unlink(socket_path.c_str());
  if (::bind(listener, reinterpret_cast<const sockaddr*>(&a.a), a.size) != 0 || ::listen(listener, 4) != 0)
    throw Error("the build service could not listen on " + socket_path + ": " + std::strerror(errno));
  signal(SIGALRM, SIG_DFL);
  for (;;) {
    const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::string options, source;
    if (read_text(fd, options) && read_text(fd, source)) {
      char answer = 'F';
      alarm(build_limit_s);  // a build that never ends takes the service with it, not its client
      try {
        cl::Program program(context, source);
        program.build(std::vector<cl::Device>{device}, options.c_str());
        answer = 'B';
      } catch (const cl::Error&) {
      }
      alarm(0);
      write_all(fd, &answer, 1);
    }
    ::close(fd);
  }
}

}  // namespace kit

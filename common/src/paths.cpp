#include "kit/paths.hpp"

#include <cstdlib>
#include <system_error>

namespace kit {

std::string version() { return KIT_VERSION; }

std::filesystem::path root() {
  if (const char* env = std::getenv("KIT_ROOT"); env && *env) return env;
  return KIT_SOURCE_DIR;
}

std::filesystem::path lab_file(const std::string& lab, const std::string& file, bool solution) {
  return root() / (solution ? "solutions" : "labs") / lab / file;
}

void ensure_pocl_cache_dir() {
  if (const char* env = std::getenv("POCL_CACHE_DIR"); env && *env) return;
  std::filesystem::path dir = std::filesystem::path(KIT_BUILD_DIR) / "pocl-cache";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return;  // PoCL falls back to its own default; its error then names the directory
  setenv("POCL_CACHE_DIR", dir.c_str(), 0);
}

}  // namespace kit

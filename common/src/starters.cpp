#include "kit/starters.hpp"

#include <openssl/evp.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kit/errors.hpp"
#include "kit/kernel_code.hpp"
#include "kit/paths.hpp"

namespace kit {

std::string sha256_hex(const std::string& bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr)) throw Error("SHA-256 failed");
  std::string hex;
  char two[3];
  for (unsigned int i = 0; i < length; ++i) {
    std::snprintf(two, sizeof two, "%02x", digest[i]);
    hex += two;
  }
  return hex;
}

bool is_handed_out_starter(const std::string& source) {
  const std::string hash = sha256_hex(code_without_comments(source));
  for (const char* name : {kReleaseStartersFile, kKitStartersFile}) {
    std::ifstream in(root() / "grader" / name);
    if (!in) continue;
    std::ostringstream text;
    text << in.rdbuf();
    const nlohmann::json stored = nlohmann::json::parse(text.str(), nullptr, false);
    if (!stored.is_object() || !stored.contains("labs") || !stored["labs"].is_object()) continue;
    for (const auto& [lab, entry] : stored["labs"].items())
      if (entry.is_object() && entry.value("sha256", std::string()) == hash) return true;
  }
  return false;
}

}  // namespace kit

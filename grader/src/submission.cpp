#include "submission.hpp"

#include <algorithm>
#include <regex>

namespace grader {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not valid.
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((byte(i + k) >> 6) != 0x2) return 0;
  if (n == 2 && c < 0xC2) return 0;  // overlong
  return n;
}

// The source with comments and string literals blanked out (newlines kept, so lines still count).
std::string code_only(const std::string& s) {
  std::string out = s;
  enum { Code, Line, Block, String } state = Code;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i], next = i + 1 < s.size() ? s[i + 1] : '\0';
    switch (state) {
      case Code:
        if (c == '/' && next == '/') state = Line, out[i] = ' ';
        else if (c == '/' && next == '*') state = Block, out[i] = ' ', out[++i] = ' ';
        else if (c == '"') state = String;
        break;
      case Line:
        if (c == '\n') state = Code;
        else out[i] = ' ';
        break;
      case Block:
        if (c == '*' && next == '/') state = Code, out[i] = ' ', out[++i] = ' ';
        else if (c != '\n') out[i] = ' ';
        break;
      case String:
        if (c == '\\' && next) out[i] = ' ', out[++i] = ' ';
        else if (c == '"') state = Code;
        else if (c != '\n') out[i] = ' ';
        break;
    }
  }
  return out;
}

std::size_t line_of(const std::string& s, std::size_t offset) {
  return 1 + std::size_t(std::count(s.begin(), s.begin() + std::ptrdiff_t(offset), '\n'));
}

}  // namespace

std::optional<FoundKernel> find_kernel(const std::filesystem::path& root, const std::string& name) {
  std::vector<std::filesystem::path> matches;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file() && !it->is_symlink() && it->path().filename() == name) matches.push_back(it->path());
  if (matches.empty()) return std::nullopt;
  const auto depth = [&](const std::filesystem::path& p) {
    const std::filesystem::path relative = std::filesystem::relative(p, root);
    return std::distance(relative.begin(), relative.end());
  };
  std::sort(matches.begin(), matches.end(), [&](const auto& a, const auto& b) {
    return depth(a) != depth(b) ? depth(a) < depth(b) : a < b;
  });
  FoundKernel found{matches[0], std::filesystem::relative(matches[0], root).string(), {}};
  for (std::size_t i = 1; i < matches.size(); ++i) found.others.push_back(std::filesystem::relative(matches[i], root).string());
  return found;
}

std::vector<std::string> screen_kernel_source(const std::string& text, const std::string& shown_as,
                                              const std::vector<kit::KernelSignature>& kernels) {
  std::vector<std::string> problems;
  if (text.size() > kMaxKernelBytes) {
    problems.push_back(shown_as + ": " + std::to_string(text.size()) + " bytes, above the limit of " +
                       std::to_string(kMaxKernelBytes) + " bytes for a kernel file");
    return problems;
  }
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    problems.push_back(shown_as + ": a NUL byte at line " + std::to_string(line_of(text, nul)) +
                       ": this is a binary file, not OpenCL C source");
    return problems;
  }
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      problems.push_back(shown_as + ":" + std::to_string(line_of(text, i)) + ": byte " + std::to_string(i + 1) +
                         " is not UTF-8 text; save the file as UTF-8");
      return problems;
    }
    i += n;
  }
  const std::string code = code_only(text);
  static const std::regex reads_files(R"((^|\n)[ \t]*#[ \t]*(include_next|include|import|embed)\b)");
  for (auto it = std::sregex_iterator(code.begin(), code.end(), reads_files); it != std::sregex_iterator(); ++it) {
    const std::size_t at = std::size_t(it->position(0)) + it->str(1).size();
    problems.push_back(shown_as + ":" + std::to_string(line_of(text, at)) + ": #" + (*it)[2].str() +
                       " is not allowed: a submission is this one file, and it may not read others");
  }
  for (const kit::KernelSignature& k : kernels) {
    // Attributes may stand between the qualifier and the name: kernel __attribute__((...)) void f(
    const std::regex declared("\\b(__)?kernel\\b[^;{}]*\\bvoid\\s+" + k.name + "\\s*\\(");
    if (!std::regex_search(code, declared))
      problems.push_back(shown_as + ": no kernel named " + k.name + " is declared; the lab expects:\n    " + k.text());
  }
  return problems;
}

}  // namespace grader

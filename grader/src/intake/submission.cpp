#include "intake/submission.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

namespace grader {
namespace {

// A kernel `code` (comments removed) declares: its name and its parameters' declarations.
struct DeclaredKernel {
  std::string name;
  std::vector<std::string> params;
};

// The kernels `code` declares, in order. Attributes may stand between the qualifier and the name:
// kernel __attribute__((...)) void f(
std::vector<DeclaredKernel> declared_kernels(const std::string& code) {
  static const std::regex declared(R"(\b(__)?kernel\b[^;{}]*?\bvoid\s+([A-Za-z_][A-Za-z_0-9]*)\s*\()");
  std::vector<DeclaredKernel> kernels;
  for (auto it = std::sregex_iterator(code.begin(), code.end(), declared); it != std::sregex_iterator(); ++it) {
    DeclaredKernel k{(*it)[2].str(), {}};
    std::string param;
    int depth = 0;
    for (std::size_t i = std::size_t(it->position(0) + it->length(0)); i < code.size(); ++i) {
      const char c = code[i];
      if (depth == 0 && (c == ',' || c == ')')) {
        if (param.find_first_not_of(" \t\r\n") != std::string::npos) k.params.push_back(param);
        param.clear();
        if (c == ')') break;
        continue;
      }
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      param += c;
    }
    kernels.push_back(k);
  }
  return kernels;
}

bool same_shape(const std::string& a, const std::string& b) {
  const kit::ParamShape x = kit::param_shape(a), y = kit::param_shape(b);
  return x.space == y.space && x.type == y.type;
}

// How `declared` differs from the parameters `wanted`: "" when their address spaces and types
// agree one by one, "swapped i and j" (1-based) when exchanging two of them makes them agree, else
// "other".
std::string parameters_differ(const std::vector<std::string>& declared, const std::vector<std::string>& wanted) {
  if (declared.size() != wanted.size()) return "other";
  std::vector<std::size_t> differ;
  for (std::size_t i = 0; i < wanted.size(); ++i)
    if (!same_shape(declared[i], wanted[i])) differ.push_back(i);
  if (differ.empty()) return "";
  if (differ.size() == 2 && same_shape(declared[differ[0]], wanted[differ[1]]) && same_shape(declared[differ[1]], wanted[differ[0]]))
    return "swapped " + std::to_string(differ[0] + 1) + " and " + std::to_string(differ[1] + 1);
  return "other";
}



// The name of `names` nearest to `wanted` when it is a likely misspelling: at most a third of its
// letters away (case aside), "" otherwise.
std::string nearest_name(const std::string& wanted, const std::vector<std::string>& names) {
  const auto lower = [](std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  std::string best;
  std::size_t best_distance = wanted.size() / 3 + 1;
  for (const std::string& name : names) {
    const std::string a = lower(wanted), b = lower(name);
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diagonal = above;
      }
    }
    if (row[b.size()] < best_distance) best_distance = row[b.size()], best = name;
  }
  return best;
}

// What to tell of a file that declares `found` but not kernel `k`: the kernel to rename (one whose
// parameters are the lab's, or whose name is a likely misspelling of k's) and, where two of its
// parameters stand in each other's place, which; "" when no kernel of the file is near.
std::string rename_advice(const kit::KernelSignature& k, const std::vector<DeclaredKernel>& found,
                          const std::vector<kit::KernelSignature>& kernels) {
  const auto expected_elsewhere = [&](const std::string& name) {
    return std::any_of(kernels.begin(), kernels.end(), [&](const kit::KernelSignature& s) { return s.name == name; });
  };
  const DeclaredKernel* pick = nullptr;
  for (const DeclaredKernel& d : found)  // the lab's parameters, under another name
    if (!pick && !expected_elsewhere(d.name) && parameters_differ(d.params, k.params).empty()) pick = &d;
  for (const DeclaredKernel& d : found)  // two parameters swapped
    if (!pick && !expected_elsewhere(d.name) && parameters_differ(d.params, k.params).rfind("swapped", 0) == 0) pick = &d;
  if (!pick) {
    std::vector<std::string> names;
    for (const DeclaredKernel& d : found)
      if (!expected_elsewhere(d.name)) names.push_back(d.name);
    const std::string near = nearest_name(k.name, names);
    for (const DeclaredKernel& d : found)
      if (d.name == near) pick = &d;
  }
  if (!pick) return "";
  std::string advice = " (rename " + pick->name + " to " + k.name;
  const std::string differ = parameters_differ(pick->params, k.params);
  if (differ.empty()) return advice + ": its parameters are the ones the lab passes)";
  if (differ.rfind("swapped ", 0) == 0) {
    const std::size_t i = std::stoul(differ.substr(8)) - 1, j = std::stoul(differ.substr(differ.rfind(' ') + 1)) - 1;
    return advice + ", and swap its parameters " + std::to_string(i + 1) + " and " + std::to_string(j + 1) + ": the lab passes " +
           k.params[i] + " as parameter " + std::to_string(i + 1) + " and " + k.params[j] + " as parameter " +
           std::to_string(j + 1) + ", and " + pick->name + " declares " + trimmed(pick->params[i]) + " and " +
           trimmed(pick->params[j]) + " there)";
  }
  return advice + ", with the lab's parameters)";
}

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

// The source as the preprocessor sees its lines: a bare \r is a line break too, and a
// backslash-newline joins two lines. Offsets stay those of the original text (joined lines are
// blanked, not removed), so line numbers still count.
std::string logical_lines(const std::string& s) {
  std::string out = s;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '\r') out[i] = '\n';
    if (out[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
      out[i] = ' ';
      out[i + 1] = ' ';  // the next line continues this one
      if (s[i + 1] == '\r' && i + 2 < s.size() && s[i + 2] == '\n') out[i + 2] = ' ';
    }
  }
  return out;
}

// The source with comments, string literals and character literals blanked out (newlines kept).
std::string code_only(const std::string& s) {
  std::string out = s;
  enum { Code, Line, Block, Literal } state = Code;
  char quote = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i], next = i + 1 < s.size() ? s[i + 1] : '\0';
    switch (state) {
      case Code:
        if (c == '/' && next == '/') state = Line, out[i] = ' ';
        else if (c == '/' && next == '*') state = Block, out[i] = ' ', out[++i] = ' ';
        else if (c == '"' || c == '\'') state = Literal, quote = c;
        break;
      case Line:
        if (c == '\n') state = Code;
        else out[i] = ' ';
        break;
      case Block:
        if (c == '*' && next == '/') state = Code, out[i] = ' ', out[++i] = ' ';
        else if (c != '\n') out[i] = ' ';
        break;
      case Literal:
        if (c == '\\' && next) out[i] = ' ', out[++i] = ' ';
        else if (c == quote || c == '\n') state = Code;  // a literal never spans a line
        else out[i] = ' ';
        break;
    }
  }
  return out;
}

std::size_t line_of(const std::string& s, std::size_t offset) {
  return 1 + std::size_t(std::count(s.begin(), s.begin() + std::ptrdiff_t(offset), '\n'));
}

// The regular files under `root` (links not followed) whose names `wanted` accepts: the shallowest
// first, then in path order.
template <typename Wanted>
std::vector<std::filesystem::path> files_under(const std::filesystem::path& root, const Wanted& wanted) {
  std::vector<std::filesystem::path> matches;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file() && !it->is_symlink() && wanted(it->path().filename().string())) matches.push_back(it->path());
  const auto depth = [&](const std::filesystem::path& p) {
    const std::filesystem::path relative = std::filesystem::relative(p, root);
    return std::distance(relative.begin(), relative.end());
  };
  std::sort(matches.begin(), matches.end(), [&](const auto& a, const auto& b) {
    return depth(a) != depth(b) ? depth(a) < depth(b) : a < b;
  });
  return matches;
}

// A file name as near_kernel_names compares it: lower case, a ".txt" after the extension dropped, a
// copy suffix before the extension dropped, no spaces: "Array Mult Reduce (1).CL.txt" -> "arraymultreduce.cl".
std::string near_key(std::string file) {
  for (char& c : file) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (file.size() > 4 && file.compare(file.size() - 4, 4, ".txt") == 0 && file.find('.') < file.size() - 4) file.resize(file.size() - 4);
  const std::size_t dot = file.rfind('.');
  std::string stem = dot == std::string::npos ? file : file.substr(0, dot);
  const std::string extension = file.substr(stem.size());
  static const std::regex copy(R"((.*?)(\s*\(\s*[0-9]{1,4}\s*\)|-[0-9]{1,4}|\s+copy(\s*[0-9]{1,4})?))");
  std::smatch m;
  if (std::regex_match(stem, m, copy)) stem = m[1].str();
  stem.erase(std::remove_if(stem.begin(), stem.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }), stem.end());
  return stem + extension;
}

}  // namespace

std::optional<FoundKernel> find_kernel(const std::filesystem::path& root, const std::string& name) {
  const std::vector<std::filesystem::path> matches =
      files_under(root, [&](const std::string& file) { return file == name; });
  if (matches.empty()) return std::nullopt;
  FoundKernel found{matches[0], std::filesystem::relative(matches[0], root).string(), {}};
  for (std::size_t i = 1; i < matches.size(); ++i) found.others.push_back(std::filesystem::relative(matches[i], root).string());
  for (const std::string& near : near_kernel_names(root, name)) found.others.push_back(near);
  return found;
}

std::vector<std::string> near_kernel_names(const std::filesystem::path& root, const std::string& name) {
  const std::string key = near_key(name);
  std::vector<std::string> names;
  for (const auto& p : files_under(root, [&](const std::string& file) { return file != name && near_key(file) == key; }))
    names.push_back(std::filesystem::relative(p, root).string());
  return names;
}

std::string missing_kernel_message(const std::filesystem::path& root, const std::string& name) {
  std::string near;
  for (const std::string& n : near_kernel_names(root, name)) near += (near.empty() ? "" : ", ") + n;
  return near.empty() ? "no file named " + name + " in the submission" : "found " + near + "; expected " + name;
}

std::vector<std::string> screen_kernel_source(const std::string& bytes, const std::string& shown_as,
                                              const std::vector<kit::KernelSignature>& kernels) {
  std::vector<std::string> problems;
  if (bytes.find_first_not_of(" \t\r\n") == std::string::npos) return {"the file is empty"};  // nothing to build or grade
  if (bytes.size() > kMaxKernelBytes) {
    problems.push_back(shown_as + ": " + std::to_string(bytes.size()) + " bytes, above the limit of " +
                       std::to_string(kMaxKernelBytes) + " bytes for a kernel file");
    return problems;
  }
  if (const std::string problem = kit::encoding_problem(bytes, shown_as); !problem.empty()) return {problem};
  // The text the compiler is given: lines and columns count as in the student's editor.
  const std::string text = kit::editor_text(bytes);
  const std::size_t bom = bytes.size() - text.size();  // a byte-order mark's bytes, gone from `text`
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    problems.push_back(shown_as + ": a NUL byte at line " + std::to_string(line_of(text, nul)) +
                       ": this is a binary file, not OpenCL C source");
    return problems;
  }
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      problems.push_back(shown_as + ":" + std::to_string(line_of(text, i)) + ": byte " + std::to_string(bom + i + 1) +
                         " is not UTF-8 text; save the file as UTF-8");
      return problems;
    }
    i += n;
  }
  const std::string code = code_only(logical_lines(text));
  // Only these directives may appear: none of them can read another file. Anything else —
  // #include, #import, #embed, #line, and any spelling of them — is refused.
  static const std::regex directive(R"((^|\n)[ \t]*(#|%:)[ \t]*([A-Za-z_]*))");
  static const std::set<std::string> allowed = {"define", "undef", "if", "ifdef", "ifndef", "elif",
                                                "else", "endif", "pragma", "error", "warning", ""};
  for (auto it = std::sregex_iterator(code.begin(), code.end(), directive); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[3].str();
    if (allowed.count(name)) continue;
    const std::size_t at = std::size_t(it->position(0)) + it->str(1).size();
    const bool reads = name == "include" || name == "include_next" || name == "import" || name == "embed";
    problems.push_back(shown_as + ":" + std::to_string(line_of(text, at)) + ": #" + name + " is not allowed: " +
                       (reads ? "a submission is this one file, and it may not read others"
                              : "only #define, #undef, #if, #ifdef, #ifndef, #elif, #else, #endif, #pragma, #error and #warning are"));
  }
  const std::vector<DeclaredKernel> found = declared_kernels(code);
  for (const kit::KernelSignature& k : kernels) {
    if (std::any_of(found.begin(), found.end(), [&](const DeclaredKernel& d) { return d.name == k.name; })) continue;
    std::string also;
    if (found.empty()) also = "; the file declares no kernel";
    else {
      std::string names;
      for (const DeclaredKernel& f : found) names += (names.empty() ? "" : ", ") + f.name;
      also = "; the file declares " + names + rename_advice(k, found, kernels);
    }
    problems.push_back(shown_as + ": no kernel named " + k.name + " is declared" + also + "; the lab expects:\n    " + k.text());
  }
  return problems;
}

}  // namespace grader

#include "kit/kernel_code.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

#include "kit/program.hpp"

namespace kit {

std::string code_without_comments(const std::string& source) {
  const std::string text = editor_text(source);
  std::string out, line;
  const auto end_line = [&] {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
    line.clear();
  };
  const auto put_space = [&] {
    if (!line.empty() && line.back() != ' ') line += ' ';
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      end_line();
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      put_space();  // a comment separates tokens
      for (i += 2; i < text.size() && !(text[i] == '*' && i + 1 < text.size() && text[i + 1] == '/'); ++i)
        if (text[i] == '\n') end_line();
      ++i;
    } else if (c == '"' || c == '\'') {
      line += c;
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i) {
        line += text[i];
        if (text[i] == '\\' && i + 1 < text.size()) line += text[++i];
      }
      if (i < text.size() && text[i] == c) line += c;
      else if (i < text.size()) end_line();
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      if (!line.empty()) put_space();
    } else {
      line += c;
    }
  }
  if (!line.empty()) end_line();
  while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();  // blank lines at the end
  return out;
}

std::vector<std::string> student_warnings(const std::string& rewritten_log, const std::string& file) {
  std::vector<std::string> found;
  std::istringstream lines(rewritten_log);
  const std::string prefix = file + ":";
  static const std::regex warning(R"(^(\d+):\d+: warning: (.*)$)");
  std::smatch m;
  for (std::string line; std::getline(lines, line);) {
    if (line.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = line.substr(prefix.size());
    if (!std::regex_match(rest, m, warning)) continue;
    const std::string one = std::filesystem::path(file).filename().string() + ":" + m[1].str() + ": " + m[2].str();
    if (std::find(found.begin(), found.end(), one) == found.end()) found.push_back(one);
  }
  return found;
}

KernelCode kernel_code(const cl::Program& program, const cl::Device& device, const std::filesystem::path& file,
                       const std::string& shown_as) {
  KernelCode k;
  k.code = code_without_comments(read_text_file(file));
  std::string log;
  try {
    log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
  } catch (const cl::Error&) {
    return k;  // this driver keeps no log: no warnings to show
  }
  k.warnings = student_warnings(rewrite_build_log(log, shown_as.empty() ? file.string() : shown_as),
                                shown_as.empty() ? file.string() : shown_as);
  return k;
}

std::string warnings_sentence(const KernelCode& k) {
  if (k.warnings.empty()) return "";
  std::string s = " The compiler warned about your code: ";
  const std::size_t shown = std::min<std::size_t>(3, k.warnings.size());
  for (std::size_t i = 0; i < shown; ++i) s += (i ? "; " : "") + k.warnings[i];
  if (k.warnings.size() > shown) s += "; and " + std::to_string(k.warnings.size() - shown) + " more";
  return s + ".";
}

std::string with_warnings(const std::string& hint, const KernelCode& k) {
  const std::string w = warnings_sentence(k);
  if (hint.empty() || w.empty()) return hint.empty() && !w.empty() ? w.substr(1) : hint;
  return hint + (hint.back() == '.' ? "" : ".") + w;
}

std::string missing_loop_barrier(const KernelCode& k, const std::string& name, const std::string& what_goes_wrong,
                                 const std::string& where) {
  const CodeSpan loop = tree_loop_without_barrier(k.code, name);
  if (loop.line == 0) return "";
  const std::string which = calls_barrier(loop.text) ? "has its barrier only inside an if, where not every work-item reaches it"
                                                     : "has no barrier";
  return name + "'s tree loop (line " + std::to_string(loop.line) + ") " + which + ": " + what_goes_wrong +
         ", so the result depends on how the work-items were scheduled. Put barrier(CLK_LOCAL_MEM_FENCE) inside the "
         "loop, " + where + ", where every work-item reaches it";
}

namespace {

int line_of(const std::string& text, std::size_t offset, int first_line) {
  return first_line + int(std::count(text.begin(), text.begin() + std::min(offset, text.size()), '\n'));
}

// The offset just past the bracket that closes the one at `open` ('(' or '{'), or npos.
std::size_t past_closing(const std::string& text, std::size_t open) {
  const char o = text[open], c = o == '(' ? ')' : '}';
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    depth += text[i] == o ? 1 : text[i] == c ? -1 : 0;
    if (depth == 0) return i + 1;
  }
  return std::string::npos;
}

}  // namespace

CodeSpan kernel_body(const std::string& code, const std::string& name) {
  const std::regex header("\\b" + name + "\\s*\\(");
  std::smatch m;
  if (!std::regex_search(code, m, header)) return {};
  const std::size_t params_end = past_closing(code, std::size_t(m.position(0) + m.length(0) - 1));
  if (params_end == std::string::npos) return {};
  const std::size_t open = code.find('{', params_end);
  if (open == std::string::npos) return {};
  const std::size_t end = past_closing(code, open);
  if (end == std::string::npos) return {};
  return {code.substr(open + 1, end - open - 2), line_of(code, open, 1)};
}

std::vector<CodeSpan> loops(const CodeSpan& body, bool tree_only) {
  static const std::regex loop(R"(\b(for|while)\s*\()");
  // A step that multiplies, divides or shifts (offset *= 2, s >>= 1, s = s / 2): a tree's levels.
  static const std::regex geometric(R"((\*|/|<<|>>)=|=[^=;]*[^=;<>](\*|/|<<|>>)[^=])");
  std::vector<CodeSpan> found;
  const std::string& text = body.text;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), loop); it != std::sregex_iterator(); ++it) {
    const std::size_t open = std::size_t(it->position(0) + it->length(0) - 1);
    const std::size_t head_end = past_closing(text, open);
    if (head_end == std::string::npos) continue;
    const std::size_t start = text.find_first_not_of(" \t\n", head_end);
    if (start == std::string::npos) continue;
    std::size_t end = text[start] == '{' ? past_closing(text, start) : text.find(';', start);
    if (end == std::string::npos) end = text.size();
    const std::string head = text.substr(open, head_end - open), inside = text.substr(start, end - start);
    // A for loop's step is its header's third part; a while loop's is in its body.
    const std::size_t second_semicolon = head.find(';', head.find(';') + 1);
    const std::string step = it->str(1) == "for" ? (second_semicolon == std::string::npos ? "" : head.substr(second_semicolon + 1)) : inside;
    if (!tree_only || std::regex_search(step, geometric))
      found.push_back({inside, line_of(text, std::size_t(it->position(0)), body.line)});
  }
  return found;
}

std::vector<CodeSpan> tree_loops(const CodeSpan& body) { return loops(body, true); }

bool calls_barrier(const std::string& text) {
  static const std::regex call(R"(\b(work_group_barrier|barrier)\s*\()");
  return std::regex_search(text, call);
}

bool calls_barrier_everywhere(const std::string& text) {
  static const std::regex call(R"(^(work_group_barrier|barrier)\s*\()");
  static const std::regex conditional(R"(^\s*(if|else|while|for|switch)\b)");
  const bool braced = !text.empty() && text.front() == '{';
  const std::string body = braced ? text.substr(1, text.size() >= 2 ? text.size() - 2 : 0) : text;
  int depth = 0;
  std::size_t statement = 0;  // where the statement at depth 0 being read began
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c == '{') ++depth;
    else if (c == '}' && --depth == 0) statement = i + 1;
    else if (c == ';' && depth == 0) statement = i + 1;
    else if (depth == 0 && (i == 0 || !std::isalnum(static_cast<unsigned char>(body[i - 1]))) &&
             std::regex_search(body.substr(i, 24), call) && !std::regex_search(body.substr(statement, i - statement), conditional))
      return true;
  }
  return false;
}

CodeSpan tree_loop_without_barrier(const std::string& code, const std::string& name) {
  for (const CodeSpan& loop : tree_loops(kernel_body(code, name)))
    if (!calls_barrier_everywhere(loop.text)) return loop;
  return {};
}

bool has_tree_loop(const std::string& code, const std::string& name) { return !tree_loops(kernel_body(code, name)).empty(); }

bool stores_at_global_id(const std::string& code, const std::string& array) {
  static const std::regex named(R"(\b(\w+)\s*=\s*(\(\s*\w+\s*\)\s*)?get_global_id\s*\(\s*0\s*\))");
  std::string ids = R"(get_global_id\s*\(\s*0\s*\))";
  for (auto it = std::sregex_iterator(code.begin(), code.end(), named); it != std::sregex_iterator(); ++it)
    ids += "|" + (*it)[1].str();
  const std::regex store("\\b" + array + R"(\s*\[\s*()" + ids + R"()\s*\]\s*=[^=])");
  return std::regex_search(code, store);
}

}  // namespace kit

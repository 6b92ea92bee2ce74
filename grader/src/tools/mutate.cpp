#include "tools/mutate.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <tuple>
#include <set>

namespace grader {
namespace {

struct CodeToken {
  enum Kind { Ident, Number, Punct } kind;
  std::string text;
  std::size_t offset;
};

bool code_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The code tokens of `s`: comments, string and character literals and preprocessor lines (with
// their backslash continuations) are skipped, so no mutant can touch them.
std::vector<CodeToken> code_tokens(const std::string& s) {
  static const std::vector<std::string> puncts = {"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
                                                  "!=",  "&&",  "||",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##"};
  std::vector<CodeToken> tokens;
  bool line_start = true;  // only blanks so far on this line: a '#' here starts a directive
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '\n') { line_start = true, ++i; continue; }
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (s.compare(i, 2, "//") == 0) { i = s.find('\n', i); if (i == std::string::npos) break; continue; }
    if (s.compare(i, 2, "/*") == 0) { i = s.find("*/", i + 2); i = i == std::string::npos ? s.size() : i + 2; continue; }
    if (c == '#' && line_start) {
      while (i < s.size() && s[i] != '\n') i += (s[i] == '\\' && i + 1 < s.size()) ? 2 : 1;
      continue;
    }
    line_start = false;
    const std::size_t start = i;
    if (c == '"' || c == '\'') {
      for (++i; i < s.size() && s[i] != c && s[i] != '\n'; ++i)
        if (s[i] == '\\') ++i;
      ++i;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      for (++i; i < s.size() && (code_char(s[i]) || s[i] == '.' ||
                                 ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E')));)
        ++i;
      tokens.push_back({CodeToken::Number, s.substr(start, i - start), start});
    } else if (code_char(c)) {
      while (i < s.size() && code_char(s[i])) ++i;
      tokens.push_back({CodeToken::Ident, s.substr(start, i - start), start});
    } else {
      std::string p(1, c);
      for (const std::string& q : puncts)
        if (s.compare(i, q.size(), q) == 0) { p = q; break; }
      i += p.size();
      tokens.push_back({CodeToken::Punct, p, start});
    }
  }
  return tokens;
}

// A type name or qualifier: a `*` after one declares a pointer, it does not multiply.
bool type_word(const std::string& w) {
  static const std::regex type(
      "(u?(char|short|int|long)|float|double|half|bool|void|unsigned|signed)(2|3|4|8|16)?|\\w+_t|"
      "const|volatile|restrict|(__)?(global|local|constant|private)|struct|union|enum");
  return std::regex_match(w, type);
}

// Whether a token can end an operand, so that a `+ - * /` after it is a binary operator.
bool ends_operand(const CodeToken& t) {
  static const std::set<std::string> keywords = {"return", "case", "else", "do", "sizeof", "goto", "typedef"};
  if (t.kind == CodeToken::Number) return true;
  if (t.kind == CodeToken::Ident) return !keywords.count(t.text) && !type_word(t.text);
  return t.text == ")" || t.text == "]";
}

bool comparison(const CodeToken& t) {
  return t.kind == CodeToken::Punct && (t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">=" || t.text == "==" || t.text == "!=");
}

// The text of the line holding `offset`, without its leading and trailing blanks.
std::string line_at(const std::string& s, std::size_t offset) {
  const std::size_t begin = offset == 0 ? 0 : s.rfind('\n', offset - 1) + 1;  // npos + 1 == 0
  std::size_t end = s.find('\n', begin);
  std::string line = s.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  const std::size_t first = line.find_first_not_of(" \t\r"), last = line.find_last_not_of(" \t\r");
  return first == std::string::npos ? "" : line.substr(first, last - first + 1);
}

// Calls that become an empty statement (a deleted barrier or fence), and atomic updates with the
// plain operator that replaces each.
const std::set<std::string> barriers = {"barrier", "work_group_barrier"};
const std::set<std::string> fences = {"mem_fence", "read_mem_fence", "write_mem_fence"};
const std::map<std::string, std::string> plain = {
    {"atomic_inc", "++"}, {"atomic_dec", "--"}, {"atomic_add", "+="}, {"atomic_sub", "-="}, {"atomic_xchg", "="}};

// A grid-stride loop made a run per work-item: each work-item reads its own contiguous share of
// the range. Still correct, but neighbouring work-items read far apart (the uncoalesced pattern
// lab 06 teaches against), so only the access-pattern check can tell. (offset, length, text) each.
std::vector<std::tuple<std::size_t, std::size_t, std::string>> uncoalesced(const std::string& source, const std::vector<CodeToken>& t) {
  static const std::regex grid_stride(R"(for\s*\(\s*(\w+)\s+(\w+)\s*=\s*get_global_id\s*\(\s*0\s*\)\s*;\s*\2\s*<\s*([^;]+?)\s*;\s*\2\s*\+=\s*get_global_size\s*\(\s*0\s*\)\s*\))");
  std::vector<std::tuple<std::size_t, std::size_t, std::string>> out;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), grid_stride); it != std::sregex_iterator(); ++it) {
    const std::size_t at = std::size_t(it->position(0));
    const bool in_code = std::any_of(t.begin(), t.end(), [&](const CodeToken& k) { return k.offset == at && k.text == "for"; });
    if (!in_code || it->str().find('\n') != std::string::npos) continue;
    const std::string type = (*it)[1], v = (*it)[2], bound = (*it)[3];
    const std::string share = "((" + bound + ") + get_global_size(0) - 1) / get_global_size(0)";
    out.emplace_back(at, std::size_t(it->length(0)),
                     "for (" + type + " " + v + " = get_global_id(0) * (" + share + "), " + v + "_end = min((" + type + ")(" + v + " + " +
                         share + "), (" + type + ")(" + bound + ")); " + v + " < " + v + "_end; ++" + v + ")");
  }
  return out;
}

}  // namespace

std::vector<Mutant> make_mutants(const std::string& source) {
  const std::vector<CodeToken> t = code_tokens(source);
  std::vector<Mutant> mutants;
  std::set<std::string> seen = {source};
  // Records one mutant: the span [offset, offset + length) becomes `replacement`.
  const auto add = [&](const std::string& op, std::size_t offset, std::size_t length, const std::string& replacement) {
    Mutant m;
    m.op = op, m.offset = offset, m.length = length, m.replacement = replacement;
    m.source = source.substr(0, offset) + replacement + source.substr(offset + length);
    if (!seen.insert(m.source).second) return;  // the same text as an earlier mutant
    m.line = 1 + static_cast<int>(std::count(source.begin(), source.begin() + offset, '\n'));
    m.before = line_at(source, offset);
    m.after = line_at(m.source, offset);
    mutants.push_back(std::move(m));
  };
  const auto text = [&](std::size_t i) { return i < t.size() ? t[i].text : std::string(); };
  static const std::map<std::string, std::string> relational = {{"<", "<="}, {"<=", "<"}, {">", ">="}, {">=", ">"}, {"==", "!="}, {"!=", "=="}};
  static const std::map<std::string, std::string> binary = {{"+", "-"}, {"-", "+"}, {"*", "/"}, {"/", "*"}};
  static const std::map<std::string, std::string> compound = {{"+=", "-="}, {"-=", "+="}, {"*=", "/="}, {"/=", "*="}};
  static const std::set<std::string> compound_all = {"+=", "-=", "*=", "/=", "<<=", ">>="};
  static const std::set<std::string> operand_end = {")", ";", "&&", "||", "?", ",", ":"};
  static const std::map<std::string, std::vector<std::string>> ids = {
      {"get_local_id", {"get_global_id", "get_group_id"}}, {"get_global_id", {"get_local_id"}}, {"get_group_id", {"get_local_id"}}};
  for (std::size_t i = 0; i < t.size(); ++i) {
    const CodeToken& k = t[i];
    if (k.kind == CodeToken::Punct) {
      if (relational.count(k.text)) add("relational", k.offset, k.text.size(), relational.at(k.text));
      if (binary.count(k.text) && i > 0 && ends_operand(t[i - 1])) add("arithmetic", k.offset, k.text.size(), binary.at(k.text));
      if (compound.count(k.text)) add("arithmetic", k.offset, k.text.size(), compound.at(k.text));
      // x < n  ->  x < n - 1, where the bound is one name or one call.
      if ((k.text == "<" || k.text == "<=") && i + 1 < t.size() && t[i + 1].kind == CodeToken::Ident && !type_word(t[i + 1].text)) {
        std::size_t last = i + 1;
        if (text(last + 1) == "(")
          for (int depth = 0; ++last < t.size();) {
            depth += t[last].text == "(" ? 1 : t[last].text == ")" ? -1 : 0;
            if (depth == 0) break;
          }
        if (last < t.size() && (last + 1 == t.size() || operand_end.count(text(last + 1))))
          add("off-by-one", t[last].offset + t[last].text.size(), 0, " - 1");
      }
    } else if (k.kind == CodeToken::Number && std::regex_match(k.text, std::regex("(0|[1-9][0-9]*)[uUlL]*"))) {
      const std::size_t digits = k.text.find_first_not_of("0123456789");
      const long long value = std::stoll(k.text.substr(0, digits));
      const std::string suffix = digits == std::string::npos ? "" : k.text.substr(digits);
      const auto with = [&](long long v) { return std::to_string(v) + suffix; };
      if (i > 0 && compound_all.count(t[i - 1].text)) add("arithmetic", k.offset, k.text.size(), with(value + 1));  // *= 2 -> *= 3
      if ((i > 0 && comparison(t[i - 1])) || (i + 1 < t.size() && comparison(t[i + 1]))) {
        add("off-by-one", k.offset, k.text.size(), with(value + 1));
        add("off-by-one", k.offset, k.text.size(), with(value - 1));
      }
      if (value == 0 || value == 1 || value == 2) add("constant", k.offset, k.text.size(), with(value == 0 ? 1 : value == 1 ? 0 : 4));
    } else if (k.kind == CodeToken::Ident && text(i + 1) == "(") {
      std::size_t last = i + 1;  // the call's closing parenthesis
      std::vector<std::size_t> commas;  // its arguments' separators
      for (int depth = 0; last < t.size(); ++last) {
        depth += t[last].text == "(" ? 1 : t[last].text == ")" ? -1 : 0;
        if (depth == 1 && t[last].text == ",") commas.push_back(last);
        if (depth == 0) break;
      }
      if (last >= t.size()) continue;
      // A barrier or a fence: the statement becomes an empty one, `;`.
      if ((barriers.count(k.text) || fences.count(k.text)) && text(last + 1) == ";")
        add(fences.count(k.text) ? "fence" : "barrier", k.offset, t[last + 1].offset + 1 - k.offset, ";");
      // An atomic update made plain: atomic_inc(p) -> (*(p))++, atomic_add(p, v) -> (*(p) += (v)).
      const std::string op = plain.count(k.text) ? plain.at(k.text) : "";
      if (!op.empty() && commas.size() == (op == "++" || op == "--" ? 0u : 1u)) {
        const auto arg = [&](std::size_t from, std::size_t to) { return source.substr(t[from].offset, t[to].offset - t[from].offset); };
        const std::string replacement = commas.empty() ? "(*(" + arg(i + 2, last) + "))" + op
                                                       : "(*(" + arg(i + 2, commas[0]) + ") " + op + " (" + arg(commas[0] + 1, last) + "))";
        add("atomic", k.offset, t[last].offset + 1 - k.offset, replacement);
      }
      if (ids.count(k.text))
        for (const std::string& other : ids.at(k.text)) add("swap-id", k.offset, k.text.size(), other);
    }
  }
  for (const auto& [offset, length, replacement] : uncoalesced(source, t)) add("uncoalesced", offset, length, replacement);
  return mutants;
}

std::vector<std::size_t> pick_evenly(std::size_t count, std::size_t cap) {
  std::vector<std::size_t> picks;
  const std::size_t n = (cap == 0 || cap >= count) ? count : cap;
  for (std::size_t i = 0; i < n; ++i) picks.push_back(i * count / n);
  return picks;
}

}  // namespace grader

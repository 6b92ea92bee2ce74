#include "tools/cl_tokens.hpp"

#include <cctype>
#include <regex>

namespace grader::cl {
namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

// The end of the comment that starts at `i` ("//" or "/*"): past its last character.
std::size_t comment_end(const std::string& s, std::size_t i) {
  if (s.compare(i, 2, "//") == 0) {
    for (; i < s.size() && s[i] != '\n'; ++i)
      if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') ++i;  // a continued // comment
    return i;
  }
  const std::size_t end = s.find("*/", i + 2);
  return end == std::string::npos ? s.size() : end + 2;
}

// The end of the string or character literal that starts at `i`.
std::size_t literal_end(const std::string& s, std::size_t i) {
  const char quote = s[i];
  for (++i; i < s.size() && s[i] != quote && s[i] != '\n'; ++i)
    if (s[i] == '\\') ++i;
  return i < s.size() && s[i] == quote ? i + 1 : i;
}

// A directive from `i` (its `#`) to the line end no backslash continues, and its text without
// comments (a block comment becomes one space; one that spans lines continues the directive).
std::size_t directive_end(const std::string& s, std::size_t i, std::string& clean) {
  while (i < s.size() && s[i] != '\n') {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') { clean += "\\\n", i += 2; continue; }
    if (s.compare(i, 2, "//") == 0) return comment_end(s, i);
    if (s.compare(i, 2, "/*") == 0) { i = comment_end(s, i), clean += ' '; continue; }
    if (s[i] == '"' || s[i] == '\'') {
      const std::size_t end = literal_end(s, i);
      clean += s.substr(i, end - i), i = end;
      continue;
    }
    clean += s[i++];
  }
  return i;
}

}  // namespace

std::vector<Token> tokenize(const std::string& s) {
  static const std::vector<std::string> puncts = {"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
                                                  "&&",  "||",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##"};
  std::vector<Token> tokens;
  bool line_start = true;  // only blanks (or comments) so far on this line: a '#' here starts a directive
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    const std::size_t start = i;
    if (c == '\n') { line_start = true, ++i; continue; }
    if (std::isspace(static_cast<unsigned char>(c)) || (c == '\\' && i + 1 < s.size() && s[i + 1] == '\n')) { i += c == '\\' ? 2 : 1; continue; }
    if (s.compare(i, 2, "//") == 0 || s.compare(i, 2, "/*") == 0) {
      i = comment_end(s, i);
      tokens.push_back({Token::Comment, s.substr(start, i - start), start, ""});
      continue;
    }
    if (c == '#' && line_start) {
      std::string clean;
      i = directive_end(s, i, clean);
      const std::size_t last = clean.find_last_not_of(" \t\r");
      tokens.push_back({Token::Preproc, s.substr(start, i - start), start, clean.substr(0, last + 1)});
      continue;
    }
    line_start = false;
    Token::Kind kind = Token::Punct;
    if (c == '"' || c == '\'') {
      i = literal_end(s, i), kind = Token::String;
    } else if (digit(c) || (c == '.' && i + 1 < s.size() && digit(s[i + 1]))) {
      for (++i; i < s.size() && (ident_char(s[i]) || s[i] == '.' ||
                                 ((s[i] == '+' || s[i] == '-') && std::string("eEpP").find(s[i - 1]) != std::string::npos));)
        ++i;
      kind = Token::Number;
    } else if (ident_char(c)) {
      while (i < s.size() && ident_char(s[i])) ++i;
      kind = Token::Ident;
    } else {
      std::size_t length = 1;
      for (const std::string& q : puncts)
        if (s.compare(i, q.size(), q) == 0) { length = q.size(); break; }
      i += length;
    }
    tokens.push_back({kind, s.substr(start, i - start), start, ""});
  }
  return tokens;
}

bool type_word(const std::string& w, const std::set<std::string>& typedefs) {
  static const std::regex type(
      "(u?(char|short|int|long)|float|double|half|bool)(2|3|4|8|16)?|void|unsigned|signed|"
      "size_t|ptrdiff_t|intptr_t|uintptr_t|sampler_t|event_t|image(1d|2d|3d)(_array|_buffer)?_t|"
      "const|volatile|restrict|static|extern|inline|register|"
      "(__)?(global|local|constant|private|kernel|read_only|write_only|read_write)");
  return typedefs.count(w) || std::regex_match(w, type);
}

bool keyword(const std::string& w) {
  static const std::set<std::string> words = {"if",    "else",     "for",    "while", "do",      "switch", "case",
                                              "default", "break",  "continue", "return", "goto",  "sizeof", "typedef",
                                              "struct", "union",   "enum",   "__attribute__"};
  return words.count(w) > 0;
}

std::vector<Token> code_only(const std::vector<Token>& all) {
  std::vector<Token> code;
  for (const Token& t : all)
    if (t.kind != Token::Comment && t.kind != Token::Preproc) code.push_back(t);
  return code;
}

std::size_t matching(const std::vector<Token>& code, std::size_t open) {
  const std::string o = code[open].text, c = o == "(" ? ")" : o == "[" ? "]" : "}";
  int depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i].kind != Token::Punct) continue;
    depth += code[i].text == o ? 1 : code[i].text == c ? -1 : 0;
    if (depth == 0) return i;
  }
  return code.size();
}

std::set<std::string> typedef_names(const std::vector<Token>& code) {
  std::set<std::string> names;
  int depth = 0;
  bool in_typedef = false;
  std::string last;  // the last identifier of the typedef at depth 0: the name it declares
  for (const Token& t : code) {
    if (t.text == "{" || t.text == "(" || t.text == "[") ++depth;
    else if (t.text == "}" || t.text == ")" || t.text == "]") --depth;
    else if (depth == 0 && t.kind == Token::Ident && t.text == "typedef") in_typedef = true, last.clear();
    else if (depth == 0 && in_typedef && t.kind == Token::Ident) last = t.text;
    else if (depth == 0 && in_typedef && t.text == ";") {
      if (!last.empty()) names.insert(last);
      in_typedef = false;
    }
  }
  return names;
}

std::vector<Function> functions(const std::vector<Token>& code) {
  std::vector<Function> found;
  for (std::size_t i = 0; i + 1 < code.size(); ++i) {
    if (code[i].text == "{") {  // a file-scope brace that opens no function (a struct's): skip it whole
      i = matching(code, i);
      continue;
    }
    if (code[i].kind != Token::Ident || keyword(code[i].text) || code[i + 1].text != "(") continue;
    const std::size_t close = matching(code, i + 1);
    if (close + 1 >= code.size()) break;
    if (code[close + 1].text == "{") {
      found.push_back({i, i + 1, close, close + 1, matching(code, close + 1)});
      i = found.back().close_brace;
    } else {
      i = close;  // a prototype or an attribute's arguments
    }
  }
  return found;
}

}  // namespace grader::cl

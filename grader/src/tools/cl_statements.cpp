// Statements and control-statement bodies among code tokens (cl_statements.hpp).
#include "tools/cl_statements.hpp"

#include <algorithm>

namespace grader::cl {

std::size_t statement_end(const std::vector<Token>& t, std::size_t i, std::size_t end) {
  if (i >= end) return end;
  const std::string& w = t[i].text;
  const bool ident = t[i].kind == Token::Ident;
  if (w == "{" && t[i].kind == Token::Punct) return std::min(matching(t, i), end - 1) + 1;
  if (ident && (w == "if" || w == "for" || w == "while" || w == "switch") && i + 1 < end && t[i + 1].text == "(") {
    const std::size_t e = statement_end(t, matching(t, i + 1) + 1, end);
    if (w == "if" && e < end && t[e].text == "else") return statement_end(t, e + 1, end);
    return e;
  }
  if (ident && w == "do") {
    const std::size_t e = statement_end(t, i + 1, end);
    if (e + 1 < end && t[e].text == "while" && t[e + 1].text == "(") {
      const std::size_t close = matching(t, e + 1);
      if (close + 1 < end && t[close + 1].text == ";") return close + 2;
    }
    return e;
  }
  if (ident && (w == "case" || w == "default" || (i + 1 < end && t[i + 1].text == ":" && !keyword(w)))) {
    std::size_t k = i;
    while (k < end && t[k].text != ":") ++k;
    return std::min(k + 1, end);
  }
  for (int depth = 0; i < end; ++i) {  // a simple statement: up to its `;`
    if (t[i].kind != Token::Punct) continue;
    const std::string& x = t[i].text;
    if (x == "(" || x == "[" || x == "{") ++depth;
    else if (x == ")" || x == "]" || x == "}") {
      if (--depth < 0) return i;
    } else if (x == ";" && depth == 0) {
      return i + 1;
    }
  }
  return end;
}

namespace {

// The bodies inside the statements of code[i, end), appended to `found`.
void collect_bodies(const std::vector<Token>& t, std::size_t i, std::size_t end, std::vector<Body>& found) {
  while (i < end) {
    const std::size_t e = statement_end(t, i, end);
    const std::string& w = t[i].text;
    const bool ident = t[i].kind == Token::Ident;
    if (w == "{" && t[i].kind == Token::Punct) {
      collect_bodies(t, i + 1, e - 1, found);
    } else if (ident && (w == "if" || w == "for" || w == "while" || w == "switch") && i + 1 < end && t[i + 1].text == "(") {
      const std::size_t b = matching(t, i + 1) + 1, be = statement_end(t, b, end);
      if (w != "switch") found.push_back({i, b, be});
      collect_bodies(t, b, be, found);
      if (w == "if" && be < e && t[be].text == "else") {
        found.push_back({be, be + 1, e});
        collect_bodies(t, be + 1, e, found);
      }
    } else if (ident && w == "do") {
      const std::size_t be = statement_end(t, i + 1, end);
      found.push_back({i, i + 1, be});
      collect_bodies(t, i + 1, be, found);
    }
    i = std::max(e, i + 1);
  }
}

}  // namespace

std::vector<Body> bodies(const std::vector<Token>& code, std::size_t open, std::size_t close) {
  std::vector<Body> found;
  collect_bodies(code, open + 1, close, found);
  return found;
}

bool directive_between(const std::vector<Token>& all, const Token& first, const Token& last) {
  for (const Token& t : all)
    if (t.kind == Token::Preproc && t.offset > first.offset && t.offset < last.offset) return true;
  return false;
}

std::string apply_edits(const std::string& source, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.from < b.from; });
  std::string out;
  std::size_t copied = 0;
  for (const Edit& e : edits) {
    if (e.from < copied) continue;  // overlaps an earlier edit: callers never make such
    out += source.substr(copied, e.from - copied) + e.text;
    copied = e.to;
  }
  return out + source.substr(copied);
}

std::string line_of(const std::string& source, const Token& t) {
  return "line " + std::to_string(1 + std::count(source.begin(), source.begin() + std::min(t.offset, source.size()), '\n'));
}

}  // namespace grader::cl

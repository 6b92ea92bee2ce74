// for_as_while (rewrites.hpp): each for loop as the while loop it stands for.
#include "tools/cl_statements.hpp"
#include "tools/rewrites.hpp"

namespace grader {
namespace {

using cl::Token;

// The text of the tokens code[first, last) as the source writes them, or `empty` when there are none.
std::string text_of(const std::string& source, const std::vector<Token>& code, std::size_t first, std::size_t last, const std::string& empty) {
  if (first >= last) return empty;
  return source.substr(code[first].offset, code[last - 1].offset + code[last - 1].text.size() - code[first].offset);
}

// Whether a comment or directive of `all` lies between the offsets `from` and `to`.
bool comment_or_directive_between(const std::vector<Token>& all, std::size_t from, std::size_t to) {
  for (const Token& t : all)
    if ((t.kind == Token::Comment || t.kind == Token::Preproc) && t.offset > from && t.offset < to) return true;
  return false;
}

// The `continue` statements of the loop whose body is code[b, e): not those of a loop inside it.
std::vector<std::size_t> own_continues(const std::vector<Token>& code, std::size_t b, std::size_t e) {
  std::vector<std::size_t> found;
  for (std::size_t k = b; k < e; ++k) {
    const std::string& w = code[k].text;
    if (code[k].kind != Token::Ident) continue;
    if (((w == "for" || w == "while") && code[k + 1].text == "(") || w == "do") {
      k = cl::statement_end(code, k, e) - 1;  // a loop inside: its continues are its own
      continue;
    }
    if (w == "continue") found.push_back(k);
  }
  return found;
}

// The for loop at code[i] as a while loop: the edits, or a reason it stays as it is.
std::string loop_as_while(const std::string& source, const std::vector<Token>& all, const std::vector<Token>& code, std::size_t i,
                          std::vector<cl::Edit>& edits) {
  const std::size_t close = cl::matching(code, i + 1);
  if (close >= code.size()) return "its header does not close";
  std::size_t s1 = 0, s2 = 0;
  for (std::size_t k = i + 2, depth = 0; k < close; ++k) {
    if (code[k].text == "(" || code[k].text == "[" || code[k].text == "{") ++depth;
    else if (code[k].text == ")" || code[k].text == "]" || code[k].text == "}") --depth;
    else if (code[k].text == ";" && depth == 0) (s1 ? s2 : s1) = k;
  }
  if (!s1 || !s2) return "its header has no two `;`";
  const std::size_t b = close + 1, e = cl::statement_end(code, b, code.size());
  if (e > code.size() || e <= b) return "its body does not end";
  if (comment_or_directive_between(all, code[i].offset, code[e - 1].offset)) {
    if (comment_or_directive_between(all, code[i].offset, code[close].offset)) return "a comment or directive inside its header";
    for (const Token& t : all)
      if (t.kind == Token::Preproc && t.offset > code[i].offset && t.offset < code[e - 1].offset) return "a directive inside it";
  }
  const std::string init = text_of(source, code, i + 2, s1 + 1, ""), cond = text_of(source, code, s1 + 1, s2, "1"),
                    step = text_of(source, code, s2 + 1, close, "");
  const std::string step_statement = step.empty() ? "" : " " + step + ";";
  edits.push_back({code[i].offset, code[close].offset + 1, "{ " + (init == ";" ? "" : init + " ") + "while (" + cond + ")"});
  const Token& last = code[e - 1];
  if (code[b].text == "{") {
    edits.push_back({last.offset, last.offset, step_statement.empty() ? "" : step_statement.substr(1) + " "});
    edits.push_back({last.offset + 1, last.offset + 1, " }"});
  } else {
    edits.push_back({code[b].offset, code[b].offset, "{ "});
    edits.push_back({last.offset + last.text.size(), last.offset + last.text.size(), step_statement + " } }"});
  }
  if (!step.empty())
    for (const std::size_t k : own_continues(code, b, e))
      if (code[k + 1].text == ";") edits.push_back({code[k].offset, code[k + 1].offset + 1, "{" + step_statement + " continue; }"});
  return "";
}

}  // namespace

Rewritten for_as_while(const std::string& source) {
  Rewritten r;
  r.source = source;
  for (std::size_t kept = 0, rounds = 0; rounds < 1000; ++rounds) {  // one loop at a time, outer ones first
    const std::vector<Token> all = cl::tokenize(r.source), code = cl::code_only(all);
    std::size_t seen = 0, at = 0;
    for (std::size_t k = 0; k + 1 < code.size() && !at; ++k)
      if (code[k].kind == Token::Ident && code[k].text == "for" && code[k + 1].text == "(" && seen++ == kept) at = k;
    if (!at) break;
    std::vector<cl::Edit> edits;
    const std::string why = loop_as_while(r.source, all, code, at, edits);
    if (!why.empty()) {
      r.skipped.push_back(cl::line_of(r.source, code[at]) + ": for loop kept: " + why);
      ++kept;
      continue;
    }
    r.source = cl::apply_edits(r.source, edits);
    ++r.applied;
  }
  return r;
}

}  // namespace grader

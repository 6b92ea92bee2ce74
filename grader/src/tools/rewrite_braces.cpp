// braces_added and braces_removed (rewrites.hpp): single-statement bodies with and without braces,
// the layout otherwise kept.
#include "tools/cl_statements.hpp"
#include "tools/rewrites.hpp"

namespace grader {
namespace {

using cl::Token;

// The edit that removes the brace `t`: its whole line when nothing else is on it.
cl::Edit brace_removal(const std::string& source, const Token& t) {
  std::size_t from = t.offset, to = t.offset + 1;
  while (from > 0 && (source[from - 1] == ' ' || source[from - 1] == '\t')) --from;
  while (to < source.size() && (source[to] == ' ' || source[to] == '\t' || source[to] == '\r')) ++to;
  if ((from == 0 || source[from - 1] == '\n') && to < source.size() && source[to] == '\n') return {from, to + 1, ""};
  return {t.offset, t.offset + 1, ""};
}

}  // namespace

Rewritten braces_added(const std::string& source) {
  const std::vector<Token> all = cl::tokenize(source), code = cl::code_only(all);
  Rewritten r;
  std::vector<cl::Edit> edits;
  for (const cl::Function& f : cl::functions(code))
    for (const cl::Body& b : cl::bodies(code, f.open_brace, f.close_brace)) {
      if (b.begin >= b.end || code[b.begin].text == "{" || (code[b.keyword].text == "else" && code[b.begin].text == "if")) continue;
      if (cl::directive_between(all, code[b.keyword], code[b.end - 1])) {
        r.skipped.push_back(cl::line_of(source, code[b.keyword]) + ": " + code[b.keyword].text + " body kept: a directive inside it");
        continue;
      }
      const Token& last = code[b.end - 1];
      edits.push_back({code[b.begin].offset, code[b.begin].offset, "{ "});
      edits.push_back({last.offset + last.text.size(), last.offset + last.text.size(), " }"});
      ++r.applied;
    }
  r.source = cl::apply_edits(source, edits);
  return r;
}

Rewritten braces_removed(const std::string& source) {
  const std::vector<Token> all = cl::tokenize(source), code = cl::code_only(all);
  const std::set<std::string> typedefs = cl::typedef_names(code);
  Rewritten r;
  std::vector<cl::Edit> edits;
  for (const cl::Function& f : cl::functions(code))
    for (const cl::Body& b : cl::bodies(code, f.open_brace, f.close_brace)) {
      if (b.begin + 2 >= b.end || code[b.begin].text != "{" || code[b.end - 1].text != "}") continue;
      const std::size_t inner = b.begin + 1;
      if (cl::statement_end(code, inner, b.end - 1) != b.end - 1) continue;  // not one statement
      const std::string where = cl::line_of(source, code[b.keyword]) + ": " + code[b.keyword].text + " body kept braced: ";
      if (cl::type_word(code[inner].text, typedefs) || code[inner].text == "struct" || code[inner].text == "union") {
        r.skipped.push_back(where + "its one statement is a declaration");
        continue;
      }
      if (code[inner].text == "if" && b.end < code.size() && code[b.end].text == "else") {
        r.skipped.push_back(where + "the else after it would go to the if inside");
        continue;
      }
      if (cl::directive_between(all, code[b.begin], code[b.end - 1])) {
        r.skipped.push_back(where + "a directive inside it");
        continue;
      }
      edits.push_back(brace_removal(source, code[b.begin]));
      edits.push_back(brace_removal(source, code[b.end - 1]));
      ++r.applied;
    }
  r.source = cl::apply_edits(source, edits);
  return r;
}

}  // namespace grader

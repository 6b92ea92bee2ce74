// inline_builtins and hoist_builtins (rewrites.hpp): work-item built-ins read through a variable
// or called where they are used.
#include <map>
#include <regex>
#include <set>

#include "tools/cl_statements.hpp"
#include "tools/rewrites.hpp"

namespace grader {
namespace {

using cl::Token;

bool work_item_builtin(const std::string& w) {
  static const std::set<std::string> names = {"get_local_id",    "get_global_id",   "get_group_id",
                                              "get_local_size", "get_global_size", "get_num_groups"};
  return names.count(w) > 0;
}

// Whether code[i] starts a call of a work-item built-in with a constant argument: `get_local_id ( 0 )`.
bool builtin_call_at(const std::vector<Token>& code, std::size_t i) {
  return i + 3 < code.size() && code[i].kind == Token::Ident && work_item_builtin(code[i].text) && code[i + 1].text == "(" &&
         code[i + 2].kind == Token::Number && code[i + 3].text == ")";
}

std::string call_text(const std::vector<Token>& code, std::size_t i) { return code[i].text + "(" + code[i + 2].text + ")"; }

bool assignment_operator(const std::string& w) {
  static const std::set<std::string> ops = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"};
  return ops.count(w) > 0;
}

// Whether `name` appears as a word in a directive of `all` (a macro that uses it).
bool directive_uses(const std::vector<Token>& all, const std::string& name) {
  const std::regex word("\\b" + name + "\\b");
  for (const Token& t : all)
    if (t.kind == Token::Preproc && std::regex_search(t.clean, word)) return true;
  return false;
}

// A declaration `T name = get_...(N);` starting at code[i]: the index of its name, or 0.
std::size_t builtin_declaration(const std::vector<Token>& code, std::size_t i, std::size_t end, const std::set<std::string>& typedefs) {
  std::size_t j = i;
  while (j < end && code[j].kind == Token::Ident && cl::type_word(code[j].text, typedefs)) ++j;
  if (j == i || j + 6 >= end || code[j].kind != Token::Ident || cl::keyword(code[j].text) || code[j + 1].text != "=") return 0;
  return builtin_call_at(code, j + 2) && code[j + 6].text == ";" ? j : 0;
}

// The type a declaration's words name, without its qualifiers: "uint", "unsigned int".
std::string declared_type(const std::vector<Token>& code, std::size_t first, std::size_t name) {
  static const std::set<std::string> qualifiers = {"const", "volatile", "private", "__private", "restrict", "register", "static"};
  std::string type;
  for (std::size_t k = first; k < name; ++k)
    if (!qualifiers.count(code[k].text)) type += (type.empty() ? "" : " ") + code[k].text;
  return type;
}

// Whether code[i] is a use of a variable (an identifier that is not a field).
bool variable_use(const std::vector<Token>& code, std::size_t i, const std::string& name) {
  return code[i].kind == Token::Ident && code[i].text == name && (i == 0 || (code[i - 1].text != "." && code[i - 1].text != "->"));
}

// The index of the `}` that closes the block holding code[i].
std::size_t enclosing_close(const std::vector<Token>& code, std::size_t i) {
  int depth = 0;
  for (std::size_t k = i; k-- > 0;) {
    if (code[k].kind != Token::Punct) continue;
    if (code[k].text == "}") ++depth;
    else if (code[k].text == "{" && depth-- == 0) return cl::matching(code, k);
  }
  return code.size() - 1;
}

// Why the variable declared at code[name] cannot be inlined, or "".
std::string inline_refusal(const std::vector<Token>& all, const std::vector<Token>& code, const cl::Function& f, std::size_t name,
                           const std::set<std::string>& typedefs) {
  const std::string& n = code[name].text;
  if (directive_uses(all, n)) return "a directive uses its name";
  for (std::size_t k = f.open_paren + 1; k < f.close_brace; ++k) {
    if (k == name || !variable_use(code, k, n)) continue;
    if (cl::type_word(code[k - 1].text, typedefs)) return "its name is declared again in the function";
    if (k < name) continue;
    if (assignment_operator(code[k + 1].text) || code[k - 1].text == "++" || code[k - 1].text == "--")
      return "it is assigned again";
    if (code[k - 1].text == "&") return "its address (or a bitwise and) is taken";
  }
  return "";
}

}  // namespace

Rewritten inline_builtins(const std::string& source) {
  const std::vector<Token> all = cl::tokenize(source), code = cl::code_only(all);
  const std::set<std::string> typedefs = cl::typedef_names(code);
  Rewritten r;
  std::vector<cl::Edit> edits;
  for (const cl::Function& f : cl::functions(code)) {
    for (std::size_t i = f.open_brace + 1; i < f.close_brace; ++i) {
      const std::string& before = code[i - 1].text;
      if (before != "{" && before != "}" && before != ";") continue;
      const std::size_t name = builtin_declaration(code, i, f.close_brace, typedefs);
      if (name == 0) continue;
      const std::string why = inline_refusal(all, code, f, name, typedefs);
      if (!why.empty()) {
        r.skipped.push_back(cl::line_of(source, code[name]) + ": " + code[name].text + " kept: " + why);
        continue;
      }
      const std::string type = declared_type(code, i, name), call = call_text(code, name + 2);
      const std::string use = type == "size_t" ? call : "((" + type + ")" + call + ")";
      edits.push_back({code[i].offset, code[name + 6].offset + 1, ""});  // the declaration goes
      for (std::size_t k = name + 7, close = enclosing_close(code, name); k < close; ++k)
        if (variable_use(code, k, code[name].text)) edits.push_back({code[k].offset, code[k].offset + code[k].text.size(), use});
      ++r.applied;
      i = name + 6;
    }
  }
  r.source = cl::apply_edits(source, edits);
  return r;
}

Rewritten hoist_builtins(const std::string& source) {
  const std::vector<Token> all = cl::tokenize(source), code = cl::code_only(all);
  const std::set<std::string> typedefs = cl::typedef_names(code);
  std::set<std::string> words;
  for (const Token& t : all) words.insert(t.text);  // a fresh name is no token of the file
  Rewritten r;
  std::vector<cl::Edit> edits;
  for (const cl::Function& f : cl::functions(code)) {
    std::map<std::string, std::string> hoisted;  // a call -> its variable
    std::set<std::string> taken = words;
    std::string declarations;
    for (std::size_t i = f.open_brace + 1; i < f.close_brace; ++i) {
      if (code[i].kind != Token::Ident || !work_item_builtin(code[i].text) || code[i - 1].text == "." || code[i - 1].text == "->") continue;
      if (!builtin_call_at(code, i)) {
        r.skipped.push_back(cl::line_of(source, code[i]) + ": " + code[i].text + " kept: its argument is no constant");
        continue;
      }
      const bool initializer = code[i - 1].text == "=" && code[i + 4].text == ";" && i >= 3 && code[i - 2].kind == Token::Ident &&
                               cl::type_word(code[i - 3].text, typedefs);
      if (initializer) continue;  // already stored in a variable
      const std::string call = call_text(code, i);
      if (!hoisted.count(call)) {
        std::string name = "hoisted_" + code[i].text.substr(4) + "_" + code[i + 2].text;
        while (taken.count(name)) name += "_";
        taken.insert(name);
        hoisted[call] = name;
        declarations += "\n    size_t " + name + " = " + call + ";";
      }
      edits.push_back({code[i].offset, code[i + 3].offset + 1, hoisted[call]});
      ++r.applied;
      i += 3;
    }
    if (!declarations.empty()) edits.push_back({code[f.open_brace].offset + 1, code[f.open_brace].offset + 1, declarations});
  }
  r.source = cl::apply_edits(source, edits);
  return r;
}

}  // namespace grader

// rename_locals (metamorphic.hpp): the declarations of each function found among its tokens, and
// every use of a declared name after its first declaration renamed.
#include "tools/metamorphic.hpp"

#include <cctype>
#include <map>
#include <regex>
#include <set>

#include "tools/cl_tokens.hpp"

namespace grader {
namespace {

using cl::Token;
using Tokens = std::vector<Token>;

// Every identifier-like word of `source`, comments and strings included: a fresh name is none of them.
std::set<std::string> every_word(const std::string& source) {
  std::set<std::string> words;
  static const std::regex word("[A-Za-z_][A-Za-z0-9_]*");
  for (auto it = std::sregex_iterator(source.begin(), source.end(), word); it != std::sregex_iterator(); ++it)
    words.insert(it->str());
  return words;
}

// The names the bodies of the file's #define directives use, other than their own parameters: a
// local of such a name must keep it, or the macro would expand to a name no longer declared.
std::set<std::string> names_macros_use(const Tokens& all) {
  static const std::regex define(R"(^#\s*define\s+[A-Za-z_]\w*(\(([^)]*)\))?([\s\S]*)$)");
  static const std::regex word("[A-Za-z_][A-Za-z0-9_]*");
  std::set<std::string> used;
  for (const Token& t : all) {
    std::smatch m;
    if (t.kind != Token::Preproc || !std::regex_match(t.clean, m, define)) continue;
    std::set<std::string> params;
    const std::string p = m[2].str(), body = m[3].str();
    for (auto it = std::sregex_iterator(p.begin(), p.end(), word); it != std::sregex_iterator(); ++it) params.insert(it->str());
    for (auto it = std::sregex_iterator(body.begin(), body.end(), word); it != std::sregex_iterator(); ++it)
      if (!params.count(it->str())) used.insert(it->str());
  }
  return used;
}

// The names one function declares, each with its fresh name and the index of its first declaration.
class Declared {
 public:
  Declared(const std::set<std::string>& taken, const std::set<std::string>& kept, int& counter)
      : taken_(taken), kept_(kept), counter_(counter) {}
  void add(const std::string& name, std::size_t at) {
    if (kept_.count(name) || names_.count(name)) return;
    std::string fresh;
    do fresh = "v" + std::to_string(++counter_) + "_";
    while (taken_.count(fresh));
    names_[name] = {fresh, at};
  }
  // The fresh name of the identifier at `at`, or "" when it is not a renamed local there.
  std::string fresh(const std::string& name, std::size_t at) const {
    const auto it = names_.find(name);
    return it != names_.end() && at >= it->second.second ? it->second.first : "";
  }

 private:
  const std::set<std::string>& taken_;
  const std::set<std::string>& kept_;
  int& counter_;
  std::map<std::string, std::pair<std::string, std::size_t>> names_;
};

// Declares the name of each parameter between `open` and `close`: the last identifier of the
// parameter, outside brackets, that names no type or qualifier and follows something.
void declare_parameters(const Tokens& code, std::size_t open, std::size_t close, const std::set<std::string>& typedefs, Declared& d) {
  std::size_t first = open + 1, name = 0;
  int depth = 0;
  for (std::size_t i = open + 1; i <= close; ++i) {
    const std::string& t = code[i].text;
    if (depth == 0 && (t == "," || i == close)) {
      if (name > first) d.add(code[name].text, name);
      first = i + 1, name = 0;
      continue;
    }
    if (t == "(" || t == "[") ++depth;
    else if (t == ")" || t == "]") --depth;
    else if (depth == 0 && code[i].kind == Token::Ident && !cl::type_word(t, typedefs) && !cl::keyword(t)) name = i;
  }
}

// A declaration statement starting at `i` (type specifiers and qualifiers, then declarators with
// their stars, array bounds and initializers, up to `;`): declares its names and returns the index
// of its `;`, or returns `i` when the statement there is no declaration.
std::size_t declaration(const Tokens& code, std::size_t i, std::size_t end, const std::set<std::string>& typedefs, Declared& d) {
  std::size_t j = i;
  bool typed = false;
  while (j < end && code[j].kind == Token::Ident) {
    const std::string& w = code[j].text;
    if (w == "struct" || w == "union" || w == "enum") {
      if (++j < end && code[j].kind == Token::Ident) ++j;
      if (j < end && code[j].text == "{") j = cl::matching(code, j) + 1;
      typed = true;
    } else if (w == "__attribute__" && j + 1 < end && code[j + 1].text == "(") {
      j = cl::matching(code, j + 1) + 1;
    } else if (cl::type_word(w, typedefs)) {
      typed = true, ++j;
    } else {
      break;
    }
  }
  if (!typed) return i;
  std::vector<std::pair<std::string, std::size_t>> names;
  while (j < end) {
    while (j < end && (code[j].text == "*" || (code[j].kind == Token::Ident && cl::type_word(code[j].text, typedefs)))) ++j;
    if (j >= end || code[j].kind != Token::Ident || cl::keyword(code[j].text)) return i;
    names.push_back({code[j].text, j});
    ++j;
    while (j < end && code[j].text == "[") j = cl::matching(code, j) + 1;
    if (j < end && code[j].text == "=")
      for (int depth = 0; ++j < end;) {
        const std::string& t = code[j].text;
        if (depth == 0 && (t == "," || t == ";")) break;
        if (t == "(" || t == "[" || t == "{") ++depth;
        else if (t == ")" || t == "]" || t == "}") {
          if (--depth < 0) return i;
        }
      }
    if (j < end && code[j].text == ";") {
      for (const auto& [name, at] : names) d.add(name, at);
      return j;
    }
    if (j >= end || code[j].text != ",") return i;
    ++j;
  }
  return i;
}

}  // namespace

std::string rename_locals(const std::string& source) {
  const Tokens all = cl::tokenize(source);
  const Tokens code = cl::code_only(all);
  const std::set<std::string> typedefs = cl::typedef_names(code), taken = every_word(source), kept = names_macros_use(all);
  std::map<std::size_t, std::string> renamed;  // a code token's offset in the file -> its new name
  int counter = 0;
  for (const cl::Function& f : cl::functions(code)) {
    Declared d(taken, kept, counter);
    declare_parameters(code, f.open_paren, f.close_paren, typedefs, d);
    for (std::size_t i = f.open_brace + 1; i < f.close_brace; ++i) {
      const std::string& t = code[i].text;
      const std::string& before = code[i - 1].text;
      const bool starts = before == "{" || before == "}" || before == ";" || (before == "(" && code[i - 2].text == "for");
      if (const std::size_t end = starts ? declaration(code, i, f.close_brace, typedefs, d) : i; end != i) i = end;
      else if ((t == "struct" || t == "union" || t == "enum") && code[i + 1].text == "{") i = cl::matching(code, i + 1);  // no field is a local
    }
    for (std::size_t i = f.open_paren + 1; i < f.close_brace; ++i) {
      const std::string& before = code[i - 1].text;
      if (code[i].kind != Token::Ident || before == "." || before == "->" || before == "struct" || before == "union" || before == "enum")
        continue;
      const std::string fresh = d.fresh(code[i].text, i);
      if (!fresh.empty()) renamed[code[i].offset] = fresh;
    }
  }
  std::string out;
  std::size_t copied = 0;
  for (const Token& t : all)
    if (t.kind == Token::Ident && renamed.count(t.offset)) {
      out += source.substr(copied, t.offset - copied) + renamed.at(t.offset);
      copied = t.offset + t.text.size();
    }
  return out + source.substr(copied);
}

}  // namespace grader

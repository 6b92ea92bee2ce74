// index_type (rewrites.hpp): index variables declared as int, uint or size_t.
#include <map>
#include <set>

#include "tools/cl_statements.hpp"
#include "tools/rewrites.hpp"

namespace grader {
namespace {

using cl::Token;

// A local declared with one index type: the range of its type words and its name.
struct IndexDeclaration {
  std::size_t first, last, name;  // type words code[first, last), name at code[name]
  bool in_for;                    // declared in a for loop's header
};

bool index_type_word(const std::string& w) { return w == "int" || w == "uint" || w == "unsigned" || w == "size_t"; }

// The declaration of one index variable starting at code[i] (`const` allowed, one declarator), or none.
bool index_declaration(const std::vector<Token>& code, std::size_t i, IndexDeclaration& d) {
  std::size_t j = i;
  if (code[j].text == "const") ++j;
  const std::size_t first = j;
  if (code[j].text == "unsigned" && code[j + 1].text == "int") j += 2;
  else if (index_type_word(code[j].text)) ++j;
  else return false;
  if (code[j].kind != Token::Ident || cl::keyword(code[j].text) || cl::type_word(code[j].text, {})) return false;
  if (code[j + 1].text != "=" && code[j + 1].text != ";") return false;
  for (std::size_t k = j + 1, depth = 0; k < code.size(); ++k) {  // one declarator: no `,` before its `;`
    const std::string& t = code[k].text;
    if (t == "(" || t == "[" || t == "{") ++depth;
    else if (t == ")" || t == "]" || t == "}") --depth;
    else if (depth == 0 && t == ",") return false;
    else if (depth == 0 && t == ";") break;
  }
  d = {first, j, j, false};
  return true;
}

// The tokens around code[k] up to the nearest `;`, `{` or `}` on each side: the expression it is in.
std::pair<std::size_t, std::size_t> context(const std::vector<Token>& code, std::size_t k, std::size_t lo, std::size_t hi) {
  auto bound = [](const std::string& t) { return t == ";" || t == "{" || t == "}"; };
  std::size_t a = k, b = k;
  while (a > lo && !bound(code[a - 1].text)) --a;
  while (b < hi && !bound(code[b].text)) ++b;
  return {a, b};
}

// Whether the use code[k] is an argument of a call of a function the file does not define (a
// built-in: min, max, vload4 ... take their types from their arguments).
bool builtin_argument(const std::vector<Token>& code, std::size_t k, std::size_t lo, const std::set<std::string>& defined) {
  for (int depth = 0; k-- > lo;) {
    const std::string& t = code[k].text;
    if (t == ")" || t == "]") {
      ++depth;
    } else if ((t == "(" || t == "[") && depth > 0) {
      --depth;
    } else if (t == "[") {
      return false;  // an index: its value is used, not its type
    } else if (t == "(" && k > 0 && code[k - 1].kind == Token::Ident) {
      const std::string& f = code[k - 1].text;
      return !(f == "if" || f == "while" || f == "for" || f == "switch" || f == "return" || defined.count(f));
    }  // else a parenthesis that groups or casts: the enclosing one decides
  }
  return false;
}

// Why the variable of `d` must keep its type in function `f`, or "".
std::string type_refusal(const std::vector<Token>& code, const cl::Function& f, const IndexDeclaration& d,
                         const std::map<std::string, bool>& signed_locals, const std::set<std::string>& defined) {
  const std::string& n = code[d.name].text;
  bool index = d.in_for;
  for (std::size_t k = f.open_paren + 1; k < f.close_brace; ++k) {
    if (code[k].kind != Token::Ident || code[k].text != n || code[k - 1].text == "." || code[k - 1].text == "->") continue;
    if (k != d.name && (cl::type_word(code[k - 1].text, {}) || k < f.open_brace)) return "its name is declared again";
    const auto [a, b] = context(code, k, f.open_brace + 1, f.close_brace);
    bool relation = false, signed_other = false;
    for (std::size_t m = a; m < b; ++m) {
      const std::string& t = code[m].text;
      if (t == "-" || t == "--" || t == "-=" || t == "~") return "a subtraction, decrement or ~ uses it (could wrap)";
      if (t == "printf") return "a printf prints it";
      if (t == "<" || t == ">" || t == "<=" || t == ">=" || t == "==" || t == "!=" || t == "/" || t == "%" || t == ">>" || t == "/=" ||
          t == "%=" || t == ">>=")
        relation = true;
      if (code[m].kind == Token::Ident && t != n && signed_locals.count(t) && signed_locals.at(t)) signed_other = true;
      if (t == "[" ) for (std::size_t q = m + 1; q < code.size() && code[q].text != "]"; ++q) index |= code[q].text == n;
    }
    if (relation && signed_other) return "a comparison or division mixes it with a signed variable";
    if (code[k - 1].text == "&") return "its address (or a bitwise and) is taken";
    if (builtin_argument(code, k, a, defined)) return "a built-in function takes it as an argument";
    if (k == d.name && code[k + 1].text == "=" && code[k + 2].text.rfind("get_", 0) == 0) index = true;
  }
  return index ? "" : "-";  // "-": no index variable, nothing to say
}

// Which names of function `f` are declared with a signed integer type (true) or another (false).
std::map<std::string, bool> declared_signedness(const std::vector<Token>& code, const cl::Function& f) {
  std::map<std::string, bool> found;
  for (std::size_t k = f.open_paren + 1; k < f.close_brace; ++k) {
    if (code[k].kind != Token::Ident || cl::keyword(code[k].text) || cl::type_word(code[k].text, {})) continue;
    const std::string& t = code[k - 1].text;
    if (!cl::type_word(t, {})) continue;
    const bool integer = t == "int" || t == "long" || t == "short" || t == "char";
    found[code[k].text] = integer && code[k - 2].text != "unsigned";
  }
  return found;
}

}  // namespace

Rewritten index_type(const std::string& source, const std::string& type) {
  const std::vector<Token> all = cl::tokenize(source), code = cl::code_only(all);
  std::set<std::string> defined;
  for (const cl::Function& f : cl::functions(code)) defined.insert(code[f.name].text);
  Rewritten r;
  std::vector<cl::Edit> edits;
  for (const cl::Function& f : cl::functions(code)) {
    const std::map<std::string, bool> signedness = declared_signedness(code, f);
    for (std::size_t i = f.open_brace + 1; i < f.close_brace; ++i) {
      const std::string& before = code[i - 1].text;
      const bool in_for = before == "(" && code[i - 2].text == "for";
      if (before != "{" && before != "}" && before != ";" && !in_for) continue;
      IndexDeclaration d;
      if (!index_declaration(code, i, d)) continue;
      d.in_for = in_for;
      const std::string why = type_refusal(code, f, d, signedness, defined);
      if (why == "-") continue;
      if (!why.empty()) {
        r.skipped.push_back(cl::line_of(source, code[d.name]) + ": " + code[d.name].text + " kept: " + why);
        continue;
      }
      std::string was;
      for (std::size_t k = d.first; k < d.last; ++k) was += (was.empty() ? "" : " ") + code[k].text;
      if (was == type) continue;
      edits.push_back({code[d.first].offset, code[d.last - 1].offset + code[d.last - 1].text.size(), type});
      ++r.applied;
    }
  }
  r.source = cl::apply_edits(source, edits);
  return r;
}

Rewritten index_type_int(const std::string& source) { return index_type(source, "int"); }
Rewritten index_type_uint(const std::string& source) { return index_type(source, "uint"); }
Rewritten index_type_size_t(const std::string& source) { return index_type(source, "size_t"); }

}  // namespace grader

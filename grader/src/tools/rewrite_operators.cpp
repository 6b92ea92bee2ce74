// times_two_as_shift, shift_as_times_two and global_fence_added (rewrites.hpp): operators and
// fences written another way with the same meaning.
#include <map>
#include <set>

#include "tools/cl_statements.hpp"
#include "tools/rewrites.hpp"

namespace grader {
namespace {

using cl::Token;

enum class Integer { No, Signed, Unsigned };

// The scalar integer names function `f` declares (parameters and locals), signed or unsigned.
std::map<std::string, Integer> integer_names(const std::vector<Token>& code, const cl::Function& f) {
  static const std::set<std::string> signed_types = {"int", "long", "short", "char"},
                                     unsigned_types = {"uint", "ulong", "ushort", "uchar", "size_t", "unsigned"};
  std::map<std::string, Integer> found;
  for (std::size_t k = f.open_paren + 1; k < f.close_brace; ++k) {
    if (code[k].kind != Token::Ident || cl::keyword(code[k].text) || cl::type_word(code[k].text, {})) continue;
    const std::string& t = code[k - 1].text;
    if (!cl::type_word(t, {}) || code[k + 1].text == "[") continue;
    Integer i = unsigned_types.count(t) ? Integer::Unsigned : signed_types.count(t) ? Integer::Signed : Integer::No;
    if (i == Integer::Signed && code[k - 2].text == "unsigned") i = Integer::Unsigned;
    if (found.count(code[k].text) && found[code[k].text] != i) i = Integer::No;  // declared twice, differently
    found[code[k].text] = i;
  }
  return found;
}

// Tokens after which an operand starts a new expression at the level of a shift or looser.
bool loose_before(const std::string& t, bool shift) {
  static const std::set<std::string> loose = {"(", "=", ",", "[", ";", "{", "}", "return", "?", ":", "<", ">", "<=", ">=", "==", "!=",
                                              "&", "|", "^", "&&", "||", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="};
  return loose.count(t) || (!shift && (t == "+" || t == "-" || t == "<<" || t == ">>"));
}

// Tokens that may follow a shift's right operand without taking it into a tighter expression.
bool loose_after(const std::string& t) {
  static const std::set<std::string> loose = {")", ";", ",", "]", "<", ">", "<=", ">=", "==", "!=", "&", "|", "^", "&&", "||", "?", ":",
                                              "<<", ">>"};
  return loose.count(t) > 0;
}

bool postfix(const std::string& t) { return t == "[" || t == "(" || t == "." || t == "->" || t == "++" || t == "--"; }

// Either direction: `forward` makes * 2 and / 2 shifts, else shifts by 1 products and quotients.
Rewritten shifts(const std::string& source, bool forward) {
  const std::vector<Token> all = cl::tokenize(source), code = cl::code_only(all);
  Rewritten r;
  std::vector<cl::Edit> edits;
  for (const cl::Function& f : cl::functions(code)) {
    const std::map<std::string, Integer> names = integer_names(code, f);
    const auto kind = [&](std::size_t k) {
      const auto it = names.find(code[k].text);
      return code[k].kind == Token::Ident && it != names.end() ? it->second : Integer::No;
    };
    for (std::size_t k = f.open_brace + 2; k + 2 < f.close_brace; ++k) {
      const std::string& op = code[k].text;
      const std::string& right = code[k + 1].text;
      const std::size_t x = k - 1;
      const Integer xi = kind(x);
      const std::string& name = code[x].text;
      const std::size_t end = code[k + 1].offset + right.size();
      if (forward) {
        if ((op == "*" || op == "/") && right == "2" && xi != Integer::No && loose_before(code[x - 1].text, false) && !postfix(code[k + 2].text)) {
          if (op == "/" && xi != Integer::Unsigned) {
            r.skipped.push_back(cl::line_of(source, code[k]) + ": " + name + " / 2 kept: " + name + " is signed (>> 1 rounds down)");
            continue;
          }
          edits.push_back({code[x].offset, end, "(" + name + (op == "*" ? " << 1)" : " >> 1)")});
          ++r.applied;
        } else if (op == "*" && code[x].text == "2" && code[x].kind == Token::Number && kind(k + 1) != Integer::No &&
                   loose_before(code[x - 1].text, false) && !postfix(code[k + 2].text)) {
          edits.push_back({code[x].offset, end, "(" + right + " << 1)"});
          ++r.applied;
        } else if ((op == "*=" || op == "/=") && right == "2" && xi != Integer::No && code[x - 1].text != "." && code[x - 1].text != "->" &&
                   (code[k + 2].text == ";" || code[k + 2].text == ")")) {
          if (op == "/=" && xi != Integer::Unsigned) {
            r.skipped.push_back(cl::line_of(source, code[k]) + ": " + name + " /= 2 kept: " + name + " is signed (>>= 1 rounds down)");
            continue;
          }
          edits.push_back({code[k].offset, end, op == "*=" ? "<<= 1" : ">>= 1"});
          ++r.applied;
        }
        continue;
      }
      if ((op == "<<" || op == ">>") && right == "1" && xi != Integer::No && loose_before(code[x - 1].text, true) && loose_after(code[k + 2].text)) {
        if (op == ">>" && xi != Integer::Unsigned) {
          r.skipped.push_back(cl::line_of(source, code[k]) + ": " + name + " >> 1 kept: " + name + " is signed (/ 2 rounds toward 0)");
          continue;
        }
        edits.push_back({code[x].offset, end, "(" + name + (op == "<<" ? " * 2)" : " / 2)")});
        ++r.applied;
      } else if ((op == "<<=" || op == ">>=") && right == "1" && xi != Integer::No && code[x - 1].text != "." && code[x - 1].text != "->" &&
                 (code[k + 2].text == ";" || code[k + 2].text == ")")) {
        if (op == ">>=" && xi != Integer::Unsigned) {
          r.skipped.push_back(cl::line_of(source, code[k]) + ": " + name + " >>= 1 kept: " + name + " is signed (/= 2 rounds toward 0)");
          continue;
        }
        edits.push_back({code[k].offset, end, op == "<<=" ? "*= 2" : "/= 2"});
        ++r.applied;
      }
    }
  }
  r.source = cl::apply_edits(source, edits);
  return r;
}

}  // namespace

Rewritten times_two_as_shift(const std::string& source) { return shifts(source, true); }
Rewritten shift_as_times_two(const std::string& source) { return shifts(source, false); }

Rewritten global_fence_added(const std::string& source) {
  const std::vector<Token> all = cl::tokenize(source);
  Rewritten r;
  std::vector<cl::Edit> edits;
  for (const Token& t : all)
    if (t.kind == Token::Preproc && t.clean.find("barrier") != std::string::npos)
      r.skipped.push_back(cl::line_of(source, t) + ": a barrier inside a directive kept as it is");
  const std::vector<Token> code = cl::code_only(all);
  for (std::size_t k = 0; k + 3 < code.size(); ++k)
    if ((code[k].text == "barrier" || code[k].text == "work_group_barrier") && code[k + 1].text == "(" &&
        code[k + 2].text == "CLK_LOCAL_MEM_FENCE" && code[k + 3].text == ")") {
      edits.push_back({code[k + 2].offset, code[k + 2].offset + code[k + 2].text.size(), "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE"});
      ++r.applied;
    }
  r.source = cl::apply_edits(source, edits);
  return r;
}

}  // namespace grader

// relayout (metamorphic.hpp): braces added around single-statement bodies, found by following the
// statements of each function body, then the tokens written out line by line.
#include <cctype>
#include <set>

#include "tools/cl_tokens.hpp"
#include "tools/metamorphic.hpp"

namespace grader {
namespace {

using cl::Token;
using Tokens = std::vector<Token>;

// Follows the statements of function bodies and marks where braces go around a body.
class Bodies {
 public:
  explicit Bodies(const Tokens& t) : t_(t), open_before_(t.size(), 0), close_after_(t.size(), 0) {}

  // The end (one past) of the statement that starts at `i`, no further than `end`.
  std::size_t statement(std::size_t i, std::size_t end) {
    if (i >= end) return end;
    const std::string& w = t_[i].text;
    if (t_[i].kind == Token::Preproc) return i + 1;
    if (w == "{") {
      const std::size_t close = std::min(cl::matching(t_, i), end - 1);
      for (std::size_t k = i + 1; k < close;) k = statement(k, close);
      return close + 1;
    }
    if (t_[i].kind == Token::Ident && (w == "if" || w == "for" || w == "while" || w == "switch") && i + 1 < end && t_[i + 1].text == "(") {
      const std::size_t body = cl::matching(t_, i + 1) + 1, e = statement(body, end);
      if (w != "switch") wrap(body, e);
      if (w != "if" || e >= end || t_[e].text != "else") return e;
      const bool chain = e + 1 < end && t_[e + 1].text == "if";  // else if: the chain stays as written
      const std::size_t e2 = statement(e + 1, end);
      if (!chain) wrap(e + 1, e2);
      return e2;
    }
    if (w == "do" && t_[i].kind == Token::Ident) {
      const std::size_t e = statement(i + 1, end);
      wrap(i + 1, e);
      if (e + 1 < end && t_[e].text == "while" && t_[e + 1].text == "(") {
        const std::size_t close = cl::matching(t_, e + 1);
        if (close + 1 < end && t_[close + 1].text == ";") return close + 2;
      }
      return e;
    }
    if (w == "else" && t_[i].kind == Token::Ident) return statement(i + 1, end);  // an else after a directive: left as it is
    if (w == "case" || w == "default" || (t_[i].kind == Token::Ident && i + 1 < end && t_[i + 1].text == ":")) {
      std::size_t k = i;
      while (k < end && t_[k].text != ":") ++k;
      return std::min(k + 1, end);
    }
    for (int depth = 0; i < end; ++i) {  // a simple statement: up to its `;`
      const std::string& x = t_[i].text;
      if (t_[i].kind != Token::Punct) continue;
      if (x == "(" || x == "[" || x == "{") ++depth;
      else if (x == ")" || x == "]" || x == "}") {
        if (--depth < 0) return i;  // unbalanced: the enclosing block ends here
      } else if (x == ";" && depth == 0) {
        return i + 1;
      }
    }
    return end;
  }

  // The tokens with the braces added.
  Tokens braced() const {
    Tokens out;
    for (std::size_t i = 0; i < t_.size(); ++i) {
      for (int k = 0; k < open_before_[i]; ++k) out.push_back({Token::Punct, "{", 0, ""});
      out.push_back(t_[i]);
      for (int k = 0; k < close_after_[i]; ++k) out.push_back({Token::Punct, "}", 0, ""});
    }
    return out;
  }

 private:
  // Braces around the body [b, e) unless it has them, or a directive lies inside it.
  void wrap(std::size_t b, std::size_t e) {
    if (b >= e || e > t_.size() || t_[b].text == "{") return;
    for (std::size_t k = b; k < e; ++k)
      if (t_[k].kind == Token::Preproc) return;
    ++open_before_[b], ++close_after_[e - 1];
  }
  const Tokens& t_;
  std::vector<int> open_before_, close_after_;
};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether writing `a` and `b` with nothing between them would read as other tokens.
bool would_merge(const Token& a, const Token& b) {
  static const std::set<std::string> pairs = {"++", "--", "+=", "-=", "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=",
                                              "%=", "&=", "|=", "^=", "//", "/*", "*/", "##", "..", "<:", ":>", "<%", "%>", "%:"};
  if (a.text.empty() || b.text.empty()) return false;
  const char x = a.text.back(), y = b.text.front();
  if (ident_char(x) && ident_char(y)) return true;
  if (x == '.' && std::isdigit(static_cast<unsigned char>(y))) return true;
  if (a.kind == Token::Number && (y == '.' || ((y == '+' || y == '-') && std::string("eEpP").find(x) != std::string::npos))) return true;
  return pairs.count(std::string{x, y}) > 0;
}

// Writes the tokens out, line by line.
class Writer {
 public:
  explicit Writer(const std::set<std::string>& typedefs) : typedefs_(typedefs) {}

  std::string text(const Tokens& t) {
    for (std::size_t i = 0; i < t.size(); ++i) put(t, i);
    flush();
    while (!lines_.empty() && lines_.back().empty()) lines_.pop_back();
    std::string out;
    for (const std::string& l : lines_) out += l + "\n";
    return out;
  }

 private:
  enum class Brace { Block, Aggregate, Inline };

  void put(const Tokens& t, std::size_t i) {
    const Token& k = t[i];
    const std::string& w = k.text;
    if (k.kind == Token::Preproc) {
      flush();
      lines_.push_back(k.clean);
      return;
    }
    if (w == "{" && k.kind == Token::Punct) {
      const Brace kind = opening(t, i);
      braces_.push_back(kind);
      if (kind == Brace::Inline) return append(k);
      flush();
      line_ = "{";
      flush();
      ++indent_;
      return;
    }
    if (w == "}" && k.kind == Token::Punct && !braces_.empty()) {
      const Brace kind = braces_.back();
      braces_.pop_back();
      if (kind == Brace::Inline) return append(k);
      flush();
      indent_ = std::max(0, indent_ - 1);
      append(k);
      const bool next_semicolon = i + 1 < t.size() && t[i + 1].text == ";";
      if (kind != Brace::Aggregate && !next_semicolon) end_line();
      return;
    }
    append(k);
    if (k.kind == Token::Punct && (w == "(" || w == "[")) ++parens_;
    if (k.kind == Token::Punct && (w == ")" || w == "]")) parens_ = std::max(0, parens_ - 1);
    if (w == ";" && parens_ == 0 && (braces_.empty() || braces_.back() != Brace::Inline)) end_line();
  }

  // A block's brace, a struct's, or one inside an expression (an initializer's).
  Brace opening(const Tokens& t, std::size_t i) const {
    const std::string before = i > 0 ? t[i - 1].text : "", earlier = i > 1 ? t[i - 2].text : "";
    const auto aggregate = [](const std::string& w) { return w == "struct" || w == "union" || w == "enum"; };
    if (aggregate(before) || (i > 0 && t[i - 1].kind == Token::Ident && aggregate(earlier))) return Brace::Aggregate;
    const bool inside = !braces_.empty() && braces_.back() == Brace::Inline;
    if (before == "=" || before == "return" || (before == "(" && t[i - 1].kind == Token::Punct) || (inside && (before == "," || before == "{")))
      return Brace::Inline;
    return Brace::Block;
  }

  struct Last {
    Token::Kind kind = Token::Punct;
    std::string text;  // empty: nothing before on this line
  };

  bool ends_operand(const Last& t) const {
    if (t.kind == Token::Number || t.kind == Token::String) return true;
    if (t.kind == Token::Ident) return !cl::keyword(t.text) && !cl::type_word(t.text, typedefs_);
    return t.text == ")" || t.text == "]";
  }

  // Whether `k` follows the last token written on this line with a space: none inside brackets,
  // before , ; or a call's parenthesis, around . and ->, after a prefix and before a postfix operator.
  bool spaced(const Token& k) const {
    const std::string& a = last_.text;
    const std::string& b = k.text;
    static const std::set<std::string> unary = {"-", "+", "!", "~", "*", "&", "++", "--"};
    bool space = true;
    if (b == ";" || b == "," || b == ")" || b == "]" || a == "(" || a == "[") space = false;
    if (b == "." || b == "->" || a == "." || a == "->") space = false;
    if ((b == "(" || b == "[") && last_.kind == Token::Ident && (!cl::keyword(a) || a == "__attribute__" || a == "sizeof")) space = false;
    if (b == "[" && (a == "]" || a == ")")) space = false;
    if (b == "(" && a == ")" && before_last_.kind == Token::Ident && cl::type_word(before_last_.text, typedefs_)) space = false;  // (float4)(0.0f)
    if ((b == "++" || b == "--") && ends_operand(last_)) space = false;
    if (last_.kind == Token::Punct && unary.count(a) && (a == "!" || a == "~" || !ends_operand(before_last_))) space = false;
    return space || would_merge(Token{last_.kind, last_.text, 0, ""}, k);
  }

  void append(const Token& k) {
    if (!line_.empty() && spaced(k)) line_ += ' ';
    line_ += k.text;
    before_last_ = last_;
    last_ = {k.kind, k.text};
  }

  void flush() {
    if (!line_.empty()) lines_.push_back(std::string(4 * indent_, ' ') + line_);
    line_.clear();
    last_ = before_last_ = Last{};
  }

  // The line ends; at file scope a blank line follows (after a definition or a declaration).
  void end_line() {
    flush();
    if (indent_ == 0 && braces_.empty() && !lines_.empty() && !lines_.back().empty()) lines_.emplace_back();
  }

  const std::set<std::string>& typedefs_;
  std::vector<std::string> lines_;
  std::string line_;
  Last last_, before_last_;
  int indent_ = 0, parens_ = 0;
  std::vector<Brace> braces_;
};

}  // namespace

std::string relayout(const std::string& source) {
  Tokens tokens;
  for (const Token& t : cl::tokenize(source))
    if (t.kind != Token::Comment) tokens.push_back(t);
  Bodies bodies(tokens);
  for (const cl::Function& f : cl::functions(tokens)) bodies.statement(f.open_brace, f.close_brace + 1);
  return Writer(cl::typedef_names(cl::code_only(tokens))).text(bodies.braced());
}

}  // namespace grader

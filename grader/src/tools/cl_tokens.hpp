#pragma once
// The tokens of an OpenCL C file, for the metamorphic transforms (metamorphic.hpp): every byte of
// the file that is not blank belongs to exactly one token, so a transform can copy the file and
// replace chosen tokens, or lay the tokens out afresh.
#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace grader::cl {

struct Token {
  enum Kind { Ident, Number, Punct, String, Comment, Preproc } kind;
  std::string text;     // as written (a Preproc token: the whole directive, continuation lines included)
  std::size_t offset;   // where it starts in the file
  std::string clean;    // a Preproc token's directive with its comments removed, on one line per line
};

// Every token of `source`, in order: identifiers, numbers (pp-numbers: 1.0f, 0x1Fu, 1e-3),
// punctuators (longest first: `>>=`, `->`, `++`), string and character literals, comments, and
// preprocessor directives (a `#` first on its line, up to the line end that no backslash continues).
std::vector<Token> tokenize(const std::string& source);

// Whether `w` names a type or qualifies one in a declaration: OpenCL C's scalar and vector types,
// its image, sampler and event types, the address spaces and access qualifiers, const, volatile,
// restrict, signed/unsigned/long/short, static, or one of `typedefs` (names the file typedefs).
bool type_word(const std::string& w, const std::set<std::string>& typedefs);

// C's keywords that are not types (if, for, return, sizeof, ...).
bool keyword(const std::string& w);

// The names the file's own typedefs declare (file scope).
std::set<std::string> typedef_names(const std::vector<Token>& code);

// The code tokens: comments and preprocessor directives dropped.
std::vector<Token> code_only(const std::vector<Token>& all);

// A function definition among `code` tokens: its name's index, its parameter list's parentheses
// and its body's braces (indices into `code`).
struct Function {
  std::size_t name, open_paren, close_paren, open_brace, close_brace;
};
// Every function definition at file scope (kernels and helpers), in order.
std::vector<Function> functions(const std::vector<Token>& code);

// The index of the bracket that closes the one at `open` ( `(`, `[` or `{` ), or code.size().
std::size_t matching(const std::vector<Token>& code, std::size_t open);

}  // namespace grader::cl

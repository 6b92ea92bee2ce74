#pragma once
// Statements among the code tokens of an OpenCL C file (cl_tokens.hpp): where one ends, and the
// bodies of the control statements of a function, for the rewrites (rewrites.hpp).
#include <cstddef>
#include <string>
#include <vector>

#include "tools/cl_tokens.hpp"

namespace grader::cl {

// One past the end of the statement that starts at code[i], no further than `end`: a block, an
// if (with its else), for, while, switch or do statement, a label, or a simple statement up to its `;`.
std::size_t statement_end(const std::vector<Token>& code, std::size_t i, std::size_t end);

// The body of an if, else, for, while or do: its keyword's index and the body's tokens [begin, end).
struct Body {
  std::size_t keyword, begin, end;
};
// Every body of a control statement inside code[open .. close] (a function's braces), nested ones included.
std::vector<Body> bodies(const std::vector<Token>& code, std::size_t open, std::size_t close);

// Whether a preprocessor directive of `all` lies between the code tokens first and last (offsets).
bool directive_between(const std::vector<Token>& all, const Token& first, const Token& last);

// `source` with the text from the offset `from` up to `to` replaced by `text`, for several
// such edits at once (none overlapping; edits at one offset apply in the order given).
struct Edit {
  std::size_t from, to;
  std::string text;
};
std::string apply_edits(const std::string& source, std::vector<Edit> edits);

// "line N" of the token `t` in `source`, for the reasons a rewrite gives.
std::string line_of(const std::string& source, const Token& t);

}  // namespace grader::cl

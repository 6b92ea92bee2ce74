#pragma once
// Rewrites that keep a kernel's meaning, for `grader mutants --metamorphic` (beside rename_locals
// and relayout, metamorphic.hpp). Each works on the file's tokens (cl_tokens.hpp) and changes only
// the tokens it rewrites: comments, directives and the rest of the layout stay byte for byte. A
// place where a rewrite could change the meaning is left as it is and named in `skipped`, so that
// a rewrite that cannot apply safely is reported, never silently dropped.
#include <cstddef>
#include <string>
#include <vector>

namespace grader {

struct Rewritten {
  std::string source;                // the kernel rewritten (the input when nothing applied)
  std::size_t applied = 0;           // places rewritten
  std::vector<std::string> skipped;  // places left as they are, each with the reason
};

// Every local variable that only holds a work-item built-in (get_local_id, get_global_id,
// get_group_id, get_local_size, get_global_size, get_num_groups with a constant argument) and is
// never assigned again: its declaration removed and each use replaced by the call, cast to the
// variable's type (`(uint)get_local_size(0)`), loop conditions included.
Rewritten inline_builtins(const std::string& source);

// Each such built-in called inline (not as a whole initializer) read once into a size_t variable
// declared first in its function's body, and the call replaced by that variable.
Rewritten hoist_builtins(const std::string& source);

// Every `for (init; cond; step) body` as `{ init; while (cond) { body step; } }`, with each
// `continue` of that loop (not of a loop inside it) made `{ step; continue; }`.
Rewritten for_as_while(const std::string& source);

// Index variables (locals of type int, uint, unsigned int or size_t that a subscript, a loop or a
// work-item built-in uses) declared with `type` instead ("int", "uint" or "size_t"). Left as they
// are: kernel and function parameters, and any variable that a subtraction, a decrement, a `~`, a
// printf, an `&` or a built-in function's argument list touches, where the type could matter.
Rewritten index_type(const std::string& source, const std::string& type);
Rewritten index_type_int(const std::string& source);
Rewritten index_type_uint(const std::string& source);
Rewritten index_type_size_t(const std::string& source);

// `x * 2` and `2 * x` as `(x << 1)`, `x *= 2` as `x <<= 1`; `x / 2` as `(x >> 1)` and `x /= 2` as
// `x >>= 1` where x is one name declared with a scalar integer type (unsigned for the division).
Rewritten times_two_as_shift(const std::string& source);
// The other way: `x << 1` as `(x * 2)`, `x <<= 1` as `x *= 2`, `x >> 1` as `(x / 2)`, `x >>= 1`
// as `x /= 2`, on the same operands.
Rewritten shift_as_times_two(const std::string& source);

// barrier(CLK_LOCAL_MEM_FENCE) as barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE).
Rewritten global_fence_added(const std::string& source);

// Braces around every single-statement body of if, else, for, while and do (layout kept).
Rewritten braces_added(const std::string& source);
// Braces removed from every such body that is a block of one statement (not a declaration, and not
// an if whose removal would give an else to another if).
Rewritten braces_removed(const std::string& source);

}  // namespace grader

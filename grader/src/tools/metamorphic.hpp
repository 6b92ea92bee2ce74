#pragma once
// Metamorphic variants of a kernel file for `grader mutants --metamorphic`: the same program under
// other names or another layout. A grading that looks at what the kernel does gives every variant
// the points of the file it was made from; one that reads the text may not.
#include <string>

namespace grader {

// `source` with every parameter and local variable of every function (kernels and helpers)
// renamed to a fresh name (v1_, v2_, ...: numbered through the file, skipping any name the file
// already holds anywhere, comments included), in its declaration and every use in that function.
// Left as they are: function, type, typedef, struct/union/enum and field names (after `.` and
// `->`), builtins, keywords, file-scope variables, comments, string literals and preprocessor
// lines. Only names declared in the file as a parameter or local are touched, so a macro the host
// defines with -D keeps its name; a local whose name a #define's body uses (other than as the
// macro's own parameter) keeps its name too, so that the macro still expands to it.
// Scoping: each function maps each of its local names to one fresh name, from the name's first
// declaration in the function to the function's end (a name declared twice in one function, in
// two blocks, gets the same fresh name in both, which keeps the same meaning). Everything but the
// renamed identifiers is byte for byte the input.
std::string rename_locals(const std::string& source);

// `source` laid out afresh, with the same tokens in the same order apart from added braces:
// every comment removed (the "// student:" region markers too: the grader reads them only for
// the student release, never when grading), Allman braces, four spaces per block, one statement
// per line, a declaration or a call that spanned lines joined onto one, one blank line after each
// top-level definition and none elsewhere, and braces added around the single-statement body of
// an if, else, for, while or do where no preprocessor line falls inside that body. Preprocessor
// directives stay whole lines (their comments removed), at column 0.
std::string relayout(const std::string& source);

}  // namespace grader

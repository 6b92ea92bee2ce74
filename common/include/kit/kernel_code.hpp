#pragma once
// What a lab's diagnosis may know of the kernel besides its outputs: its code without comments and
// the compiler's warnings on the student's own lines. A lab's run() fills it from the file it built,
// so the program's --check and the grader (which gets the outputs from its case child as JSON)
// diagnose from the same facts, and a hint about the source is given only where the source bears it out.
#include <filesystem>
#include <string>
#include <vector>

#include "kit/json.hpp"
#include "kit/opencl.hpp"

namespace kit {

// The kernel's code with comments removed, runs of spaces and tabs made one space and each line
// trimmed, line breaks kept (so that line numbers agree): what the compiler sees, as text. String
// and character literals are kept as written.
std::string code_without_comments(const std::string& source);

// The warnings of a build log (rewritten by rewrite_build_log to "FILE:LINE:COL: warning: message")
// whose FILE is `file`, the student's file: the build's #line directive numbers the student's lines
// as the editor does, and a warning about the kit's own options (-D definitions, "<command line>")
// or a header names another file and is left out. Each as "NAME:LINE: message" (NAME: the file's
// name without its folder, the same in the lab program and the grader), in log order, no repeats.
std::vector<std::string> student_warnings(const std::string& rewritten_log, const std::string& file);

struct KernelCode {
  std::string code;                   // code_without_comments of the file as built
  std::vector<std::string> warnings;  // student_warnings of its build
};

// The facts of `file` as `program` was built from it (kit::build_program): its code and the
// warnings of the build log on `device`. `shown_as` names the file as in compiler messages.
KernelCode kernel_code(const cl::Program& program, const cl::Device& device, const std::filesystem::path& file,
                       const std::string& shown_as);

// " The compiler warned about your code: W1; W2." (at most three, then how many more), or "".
std::string warnings_sentence(const KernelCode& k);
// `hint` (ended with a full stop) followed by warnings_sentence; the sentence alone when `hint` is empty.
std::string with_warnings(const std::string& hint, const KernelCode& k);

// The hint for a tree loop without a barrier every work-item reaches, the same words in every lab:
// "KERNEL's tree loop (line N) has no barrier (or: has its barrier only inside an if, where not
// every work-item reaches it): <what then goes wrong>. Put barrier(CLK_LOCAL_MEM_FENCE) inside the
// loop, <where>, where every work-item reaches it"; "" when kernel `name`'s tree loops all have one.
std::string missing_loop_barrier(const KernelCode& k, const std::string& name, const std::string& what_goes_wrong,
                                 const std::string& where);

// The body of kernel `name` in `code` (between its braces), with the 1-based line its body starts
// on; an empty body (line 0) when the kernel is not found.
struct CodeSpan {
  std::string text;
  int line = 0;
};
CodeSpan kernel_body(const std::string& code, const std::string& name);

// The `for` and `while` loops of `body` (every one, or only the tree loops: those whose step
// multiplies, divides or shifts, as offset *= 2, s >>= 1, s = s / 2 do, not a grid-stride i += n),
// each as its body's text (a braced block or one statement) and the line of its keyword.
std::vector<CodeSpan> loops(const CodeSpan& body, bool tree_only = false);
std::vector<CodeSpan> tree_loops(const CodeSpan& body);

// Whether `text` calls barrier( or work_group_barrier(.
bool calls_barrier(const std::string& text);
// Whether the loop body `text` calls a barrier that every work-item running the body reaches: one
// outside every block and if of the body (a barrier inside an if is reached only by some).
bool calls_barrier_everywhere(const std::string& text);

// The first tree loop of kernel `name` whose body has no barrier every work-item reaches
// (calls_barrier_everywhere): the span of that loop. Line 0 when every tree loop has one or the
// kernel has no tree loop.
CodeSpan tree_loop_without_barrier(const std::string& code, const std::string& name);

// Whether kernel `name` has at least one tree loop.
bool has_tree_loop(const std::string& code, const std::string& name);

// Whether the kernel stores into `array` at the global id: array[get_global_id(0)] = ... or
// array[g] = ... where g was set from get_global_id(0).
bool stores_at_global_id(const std::string& code, const std::string& array);

inline void to_json(json& j, const KernelCode& k) { j = {{"code", k.code}, {"warnings", k.warnings}}; }
inline void from_json(const json& j, KernelCode& k) {
  k.code = j.value("code", std::string());
  k.warnings = j.value("warnings", std::vector<std::string>());
}

}  // namespace kit

#pragma once
// What the kit's Oclgrind plugin needs to know of one instruction (a load, a store, a combining
// operation on the data, a fence, a division by a value), parsed once from its IR text.
#include <cctype>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace {

// What the plugin needs to know of one instruction, parsed once from its IR text.
struct Shape {
  enum Kind { Load, Store, Combine, Other } kind = Other;
  std::string result;                 // "%add", or "" for none
  std::vector<std::string> operands;  // "%x" names, in order (for a store: the value first)
  char fence = 0;  // a fence on global memory: 'F' mem_fence, 'W' write_mem_fence, 'R' read_mem_fence
  bool divides = false;  // an integer division or remainder (udiv, sdiv, urem, srem) by a value, not a constant
  // Filled by the plugin: the names as its numbers, and whether it is a function's store of a
  // parameter on entry (`store %a, %a.addr`).
  std::uint32_t result_id = 0;
  std::vector<std::uint32_t> operand_ids;
  bool stores_parameter = false;
};

// "  %add = fadd float %5, %6, !dbg !20" -> result %add, opcode fadd, operands %5 %6.
Shape parse(const std::string& text) {
  Shape s;
  std::string body = text.substr(text.find_first_not_of(' '));
  if (const auto meta = body.find(", !"); meta != std::string::npos) body.resize(meta);
  if (const auto attrs = body.find(" #"); attrs != std::string::npos) body.resize(attrs);
  std::size_t at = 0;
  if (body.rfind("%", 0) == 0 && body.find(" = ") != std::string::npos) {
    s.result = body.substr(0, body.find(" = "));
    at = body.find(" = ") + 3;
  }
  const std::string opcode = body.substr(at, body.find(' ', at) - at);
  // OpenCL's min/max builtins, and the multiply-adds a compiler makes of a * b + c (they add too).
  bool combining_call = false;
  for (const char* callee : {"@_Z3max", "@_Z3min", "@_Z4fmax", "@_Z4fmin", "@_Z3fma", "@_Z3mad", "@llvm.fmuladd", "@llvm.fma."})
    combining_call |= opcode == "call" && body.find(callee) != std::string::npos;
  // A fence's flags are a constant at -O0 (CLK_GLOBAL_MEM_FENCE is 2): "(i32 noundef 2)".
  for (const auto& [callee, kind] : {std::pair<const char*, char>{"@_Z9mem_fencej(", 'F'}, {"@_Z15write_mem_fencej(", 'W'},
                                     {"@_Z14read_mem_fencej(", 'R'}})
    if (opcode == "call" && body.find(callee) != std::string::npos) {
      const std::string args = body.substr(body.find(callee) + std::string(callee).size());
      const auto digits = args.find_last_of("0123456789");
      if (digits == std::string::npos) continue;
      const auto start = args.find_last_not_of("0123456789", digits) + 1;
      if (std::stoul(args.substr(start, digits - start + 1)) & 2) s.fence = kind;
    }
  if (opcode == "udiv" || opcode == "sdiv" || opcode == "urem" || opcode == "srem") {
    const std::size_t comma = body.rfind(", ");
    s.divides = comma != std::string::npos && body.compare(comma + 2, 1, "%") == 0;
  }
  if (opcode == "load") s.kind = Shape::Load;
  else if (opcode == "store") s.kind = Shape::Store;
  else if (opcode == "fadd" || opcode == "fsub" || opcode == "add" || opcode == "sub" || opcode == "fcmp" || opcode == "icmp" ||
           combining_call)
    s.kind = Shape::Combine;
  for (std::size_t i = body.find('%', at); i != std::string::npos; i = body.find('%', i + 1)) {
    std::size_t end = i + 1;
    while (end < body.size() && (std::isalnum(static_cast<unsigned char>(body[end])) || body[end] == '.' || body[end] == '_')) ++end;
    const std::string name = body.substr(i, end - i);
    if (name.size() > 1 && name.rfind("%struct.", 0) != 0 && name.rfind("%opencl.", 0) != 0) s.operands.push_back(name);
    i = end - 1;
  }
  return s;
}

}  // namespace

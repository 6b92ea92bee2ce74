#pragma once
// The kit's Oclgrind plugin's shapes of the instructions it has seen (instruction_shape.hpp), each
// parsed once a launch, with the SSA names as numbers (1 and up; 0 is no name) so that following
// the data costs no string per instruction. The last instructions asked for are kept in a small
// table by address: Oclgrind asks for the same few instructions, work-item after work-item.
#include <oclgrind/common.h>

#include <array>
#include <cstdint>
#include <sstream>
#include <string>
#include <unordered_map>

#include "instruction_shape.hpp"

namespace {

class ShapeTable {
 public:
  const Shape& of(const llvm::Instruction* instruction) {
    Recent& slot = recent_[(reinterpret_cast<std::uintptr_t>(instruction) >> 4) % recent_.size()];
    if (slot.instruction == instruction) return *slot.shape;
    auto found = shapes_.find(instruction);
    if (found == shapes_.end()) {
      std::ostringstream text;
      oclgrind::dumpInstruction(text, instruction);
      Shape shape = parse(text.str());
      shape.result_id = name_id(shape.result);
      for (const std::string& o : shape.operands) shape.operand_ids.push_back(name_id(o));
      shape.stores_parameter = shape.kind == Shape::Store && shape.operands.size() == 2 && shape.operands[1] == shape.operands[0] + ".addr";
      found = shapes_.emplace(instruction, std::move(shape)).first;  // a node's element stays where it is as the map grows
    }
    slot = {instruction, &found->second};
    return found->second;
  }

  // At a launch: a freed program's instructions may share addresses with the next one's.
  void forget() {
    shapes_.clear();
    recent_.fill(Recent{});
  }

 private:
  std::uint32_t name_id(const std::string& name) {
    if (name.empty()) return 0;
    return names_.emplace(name, std::uint32_t(names_.size() + 1)).first->second;
  }

  struct Recent {
    const llvm::Instruction* instruction = nullptr;
    const Shape* shape = nullptr;
  };
  std::unordered_map<const llvm::Instruction*, Shape> shapes_;
  std::array<Recent, 1024> recent_{};
  std::unordered_map<std::string, std::uint32_t> names_;  // kept from launch to launch: only numbers
};

}  // namespace

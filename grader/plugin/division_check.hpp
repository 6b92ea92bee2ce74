#pragma once
// Oclgrind computes an integer division or remainder by zero as 0 and reports nothing, though
// OpenCL C leaves it undefined (a device may trap, or give anything). The kit's plugin reports it
// in Oclgrind's own format, so the grader reads it as any other finding (kind "other", counted
// with the invalid accesses). The divisor is the instruction's second operand, read from the
// operand list LLVM places just before a binary operator: its Use records, each naming the
// instruction as its user, which is checked before the divisor is read.
// Included by the plugin after Oclgrind's Context.h and WorkItem.h (they have no include guards
// that would let a second include by another path pass).
#include <ostream>
#include <unordered_set>

namespace kit_oclgrind {

class DivisionCheck {
 public:
  void launch_begin() { reported_.clear(); }  // one report per instruction and launch

  // `instruction` is a udiv, sdiv, urem or srem whose divisor is not a constant.
  void check(const oclgrind::Context* context, const oclgrind::WorkItem* item, const llvm::Instruction* instruction) {
    struct Use {
      const llvm::Value* value;
      const void* next;
      const void* previous;
      const void* user;
    };
    const Use* operands = reinterpret_cast<const Use*>(instruction) - 2;
    if (operands[0].user != static_cast<const void*>(instruction) || operands[1].user != static_cast<const void*>(instruction)) return;
    const oclgrind::TypedValue divisor = item->getOperand(operands[1].value);
    bool zero = false;
    for (unsigned i = 0; i < divisor.num && !zero; ++i) zero = divisor.getUInt(i) == 0;
    if (!zero || !reported_.insert(instruction).second) return;
    oclgrind::Context::Message message(oclgrind::ERROR, context);
    message << "Integer division by zero (undefined in OpenCL C; Oclgrind computes it as 0)" << std::endl
            << message.INDENT << "Kernel: " << message.CURRENT_KERNEL << std::endl
            << "Entity: " << message.CURRENT_ENTITY << std::endl
            << message.CURRENT_LOCATION << std::endl;
    message.send();
  }

 private:
  std::unordered_set<const llvm::Instruction*> reported_;
};

}  // namespace kit_oclgrind

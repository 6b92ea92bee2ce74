// Two facts the kit's plugin needs that Oclgrind's plugin API keeps in private members: a
// kernel's buffer arguments by position (their values are the buffers' addresses) and an
// instruction's source line (as Oclgrind's own reports print it). The members are reached
// through the standard's rule that an explicit instantiation may name a private member, so the
// plugin still builds without LLVM's development headers.
#pragma once

// Oclgrind's headers have no include guards: the includer brings Context.h, Kernel.h and
// Memory.h before this file.
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kit_oclgrind {

template <class Tag, typename Tag::type Member>
struct Reach {
  friend typename Tag::type reach(Tag) { return Member; }
};
struct KernelArgument {
  using type = const llvm::Argument* (oclgrind::Kernel::*)(unsigned int) const;
  friend type reach(KernelArgument);
};
struct MessageText {
  using type = std::stringstream oclgrind::Context::Message::*;
  friend type reach(MessageText);
};
template struct Reach<KernelArgument, &oclgrind::Kernel::getArgument>;
template struct Reach<MessageText, &oclgrind::Context::Message::m_stream>;

constexpr unsigned kArgGlobal = 0x119B, kArgConstant = 0x119D;  // CL_KERNEL_ARG_ADDRESS_GLOBAL, _CONSTANT

// (position, Oclgrind's buffer number) of each global or constant buffer argument; `address_bits`
// is set so that an address shifted right by it is its buffer's number (0 when no buffer was set).
inline std::vector<std::pair<unsigned, std::size_t>> buffer_arguments(const oclgrind::Kernel* kernel, const oclgrind::Memory* global,
                                                                      unsigned& address_bits) {
  std::vector<std::pair<unsigned, std::size_t>> args;
  address_bits = 0;
  for (unsigned i = 0; i < kernel->getNumArguments(); ++i) {
    const unsigned space = kernel->getArgumentAddressQualifier(i);
    if (space != kArgGlobal && space != kArgConstant) continue;
    // An llvm::Argument is an llvm::Value (its first base): the key of the kernel's value map.
    const auto* key = reinterpret_cast<const llvm::Value*>((kernel->*reach(KernelArgument()))(i));
    for (auto v = kernel->values_begin(); v != kernel->values_end(); ++v) {
      if (v->first != key) continue;
      const std::size_t address = v->second.getPointer(), buffer = global->extractBuffer(address);
      args.emplace_back(i, buffer);
      for (unsigned bits = 1; bits < 64 && !address_bits && buffer; ++bits)
        if ((address >> bits) == buffer) address_bits = bits;
    }
  }
  return args;
}

// The source line of `instruction` as Oclgrind's reports give it ("At line N"), 0 when unknown.
inline int source_line(const oclgrind::Context* context, const llvm::Instruction* instruction) {
  oclgrind::Context::Message message(oclgrind::DEBUG, context);
  message << instruction;
  static const std::regex at(R"(At line (\d+))");
  std::smatch m;
  const std::string text = (message.*reach(MessageText())).str();
  return std::regex_search(text, m, at) ? std::stoi(m[1]) : 0;
}

}  // namespace kit_oclgrind

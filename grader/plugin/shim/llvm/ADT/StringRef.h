#pragma once
// Oclgrind's Kernel.h only declares functions that return llvm::StringRef: a declaration is enough,
// so the plugin builds without LLVM's development headers.
namespace llvm {
class StringRef;
}

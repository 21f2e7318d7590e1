//===- LayoutPass.h - The alea layout-randomizing module pass -------------===//
//
// One module pass that applies every compile-time randomization factor of
// alea (DESIGN.md, "Randomization factors") to a module: function order,
// global variable order, local symbol names, code padding before functions
// and the initial stack offset of `main`, then records the seed and factor set
// in a `.note.alea` ELF note. Each factor draws from its own stream,
// mixSeed(mixSeed(seed, "<factor>"), hashName(module identifier)), so that
// switching one factor off leaves the others' draws unchanged and two modules
// (even with the same basename) draw different streams.
//
//===----------------------------------------------------------------------===//
#ifndef ALEA_PASSES_LAYOUTPASS_H
#define ALEA_PASSES_LAYOUTPASS_H

#include "LayoutConfig.h"

#include "llvm/IR/PassManager.h"

namespace alea::passes {

class LayoutPass : public llvm::PassInfoMixin<LayoutPass> {
public:
  explicit LayoutPass(LayoutConfig Config) : Config(std::move(Config)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  // Runs under -O0 and on optnone code too: layout is not an optimization.
  static bool isRequired() { return true; }

private:
  LayoutConfig Config;
};

} // namespace alea::passes

#endif

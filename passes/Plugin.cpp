//===- Plugin.cpp - Registration of the alea layout plugin ----------------===//
//
// Registration only (STYLE.md, "The LLVM plugin recipe"). The plugin is
// loaded by `clang -fpass-plugin=AleaPlugin.so` (the layout pass is appended
// to every optimization pipeline, -O0 to -O3, through the optimizer-last
// extension point, when ALEA_SEED is set; also at the end of a full-LTO link
// that loads the plugin) and by
// `opt -load-pass-plugin=AleaPlugin.so
// -passes='alea-layout<seed=N;factors=a+b>'`. The environment (ALEA_SEED,
// ALEA_FACTORS) is read once, here: a plugin's own cl::opts are not reachable
// through clang (llvm-project #56137).
//
//===----------------------------------------------------------------------===//
#include "LayoutConfig.h"
#include "LayoutPass.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;
using alea::passes::LayoutConfig;
using alea::passes::LayoutPass;

static const LayoutConfig &environmentConfig() {
  static const LayoutConfig Config = alea::passes::configFromEnvironment();
  return Config;
}

// `alea-layout` (configuration from the environment) or
// `alea-layout<seed=N;factors=a+b>` (parameters override the environment).
static bool parseLayoutPass(StringRef Name, ModulePassManager &MPM) {
  if (Name == "alea-layout") {
    MPM.addPass(LayoutPass(environmentConfig()));
    return true;
  }
  if (Name.consume_front("alea-layout<") && Name.consume_back(">")) {
    MPM.addPass(
        LayoutPass(alea::passes::configFromParams(Name, environmentConfig())));
    return true;
  }
  return false;
}

static void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        return parseLayoutPass(Name, MPM);
      });
  if (!environmentConfig().HasSeed)
    return; // no ALEA_SEED: clang's pipeline stays untouched
#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        MPM.addPass(LayoutPass(environmentConfig()));
      });
#else
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(LayoutPass(environmentConfig()));
      });
#endif
  // Full LTO (`ld.lld --load-pass-plugin=AleaPlugin.so`): the merged module
  // is laid out again, so the final function order is a draw too. The pass
  // is idempotent for what the pre-link compile already did (names, padding,
  // stack offset, note).
  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(LayoutPass(environmentConfig()));
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK
    LLVM_ATTRIBUTE_VISIBILITY_DEFAULT ::llvm::PassPluginLibraryInfo
    llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "AleaPlugin", LLVM_VERSION_STRING,
          registerCallbacks};
}

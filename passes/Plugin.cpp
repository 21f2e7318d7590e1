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

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using alea::passes::LayoutConfig;
using alea::passes::LayoutPass;

static const LayoutConfig &environmentConfig() {
  static const LayoutConfig Config = alea::passes::configFromEnvironment();
  return Config;
}

// The wrappers' build cache (docs/wrapper.md, "Build cache"): the module as
// the optimizer left it, just before the layout pass, in bitcode (use-list
// order kept, so that reading it back gives the same code), and its
// identifier in <file>.id. Nothing before this point depends on the seed. A
// file that cannot be written is left out: the wrapper then stores nothing.
struct SnapshotPass : PassInfoMixin<SnapshotPass> {
  std::string Path;
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    std::error_code EC;
    raw_fd_ostream Bitcode(Path, EC, sys::fs::OF_None);
    if (!EC) {
      WriteBitcodeToFile(M, Bitcode, /*ShouldPreserveUseListOrder=*/true);
      raw_fd_ostream Id(Path + ".id", EC, sys::fs::OF_None);
      if (!EC)
        Id << M.getModuleIdentifier();
    }
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

// Replaying a snapshot (ALEA_IR_REPLAY): clang compiles the stored module
// with the compile's own options and pipeline, but every optional pass before
// the layout pass is skipped (they already ran on it); the layout pass and
// what follows it (global DCE, constant merging, the relative lookup tables,
// code generation) run as in the compile, in the same process and with the
// same target machine. Required passes (the always-inliner, verifier...)
// still run; on an optimized module they find nothing to do.
static bool ReplaySkipping = false; // the skipping callback is registered
static bool ReplayReachedLayout = false;

struct ReplayEndPass : PassInfoMixin<ReplayEndPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    // Not skipping: the snapshot went through the optimizer again: refuse.
    if (!ReplaySkipping)
      M.getContext().emitError(
          "alea: cannot replay a build-cache snapshot here (no pass "
          "instrumentation to skip the passes it already had)");
    ReplayReachedLayout = true;
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

static void addLayoutPasses(ModulePassManager &MPM) {
  if (!environmentConfig().Snapshot.empty())
    MPM.addPass(SnapshotPass{{}, environmentConfig().Snapshot});
  if (environmentConfig().Replay)
    MPM.addPass(ReplayEndPass());
  MPM.addPass(LayoutPass(environmentConfig()));
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
  if (environmentConfig().Replay)
    if (PassInstrumentationCallbacks *PIC =
            PB.getPassInstrumentationCallbacks()) {
      PIC->registerShouldRunOptionalPassCallback(
          [](StringRef, Any) { return ReplayReachedLayout; });
      ReplaySkipping = true;
    }
#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        addLayoutPasses(MPM);
      });
#else
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) { addLayoutPasses(MPM); });
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

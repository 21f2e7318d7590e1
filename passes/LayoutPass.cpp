//===- LayoutPass.cpp - The alea layout-randomizing module pass -----------===//
//
// Applies alea's compile-time layout factors to one module. Each factor is a
// static worker drawing from its own alea::Rng stream (portable xoshiro256**,
// common/include/alea/random.hpp), seeded with
//   mixSeed(mixSeed(build seed, "<factor>"), hashName(module identifier)),
// the full module identifier (not LLVM's createRNG, which salts with the file
// name only). flang names every module "FIRModule": its modules are salted
// with the names they define as well (moduleSalt). Workers run in a fixed
// order -- names, globals, functions, padding, stack, sections, note -- and
// each one's draws depend only on the input module, never on what another
// factor did, so switching a factor off leaves the other factors' draws
// unchanged.
//
// What is never touched: declarations (and available_externally
// definitions, which are not emitted); the `llvm.*` special globals
// (global_ctors, used, compiler.used keep their contents and order; the note
// is appended to llvm.used, which rebuilds it at the end of the list); names
// of anything externally visible or in a comdat; anything with an explicit
// section keeps its relative place (section-order semantics such as `.init`
// fragments or linker sets may rely on it).
//
//===----------------------------------------------------------------------===//
#include "LayoutPass.h"

#include "alea/random.hpp"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace llvm;

namespace alea::passes {

namespace {

// symbol-names: `__alea_` followed by 8 to 40 characters of [A-Za-z0-9_].
constexpr StringLiteral RenamePrefix = "__alea_";
constexpr std::uint64_t MinNameChars = 8;
constexpr std::uint64_t MaxNameChars = 40;
constexpr StringLiteral NameAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";

// code-padding: 0, 1, 2 or 3 units of prefix data in front of each function,
// a unit being 16 bytes or the function's own larger alignment (up to
// MaxPaddingUnit). Whole units keep entries at the x86-64 function alignment,
// and at any stricter alignment the function asks for (aligned(32),
// -falign-functions=64), so the layout is one a real compiler could produce,
// while every following function shifts: start offsets are uniform modulo 64
// (within a cache line) and, accumulated, vary across cache lines. Functions
// aligned beyond MaxPaddingUnit (page-aligned code) are not padded.
constexpr std::uint64_t PaddingUnit = 16;
constexpr std::uint64_t PaddingUnits = 4;
constexpr std::uint64_t MaxPaddingUnit = 64;

// stack-offset: 0..4096 extra bytes in main's frame (0: nothing inserted),
// in an alloca tagged with this metadata kind.
constexpr std::uint64_t MaxStackOffset = 4096;
constexpr StringLiteral StackOffsetTag = "alea.stack.offset";

// The compile-time ELF note (alea/contract.hpp).
constexpr StringRef NoteSection(kNoteSection);
constexpr StringRef NoteOwner(kNoteOwner);

} // namespace

// flang-new-19 gives every module it compiles the identifier "FIRModule"
// (and the same source_filename): the file name is not in the IR.
static bool isFlangModule(const Module &M) {
  return M.getModuleIdentifier() == "FIRModule";
}

// The per-module salt of every factor's stream: the module identifier, which
// is the source path under clang. Under flang, whose identifiers are all the
// same, the identifier plus the sorted names of the module's definitions
// (taken before symbol-names renames any): Fortran's external names
// (_QQmain, _QP<procedure>, _QM<module>...) are unique in a program, so two
// files of one build draw different streams, and a file draws the same one in
// every build with the same seed. Comdat members are left out: flang names its
// character literals after their contents (_QQclX<hex>, or a hash of a long
// one), and one of them is the source file's absolute path, which would make
// the draw depend on the build directory.
static std::uint64_t moduleSalt(const Module &M) {
  if (!isFlangModule(M))
    return hashName(M.getModuleIdentifier());
  std::vector<std::string> Names;
  for (const GlobalValue &GV : M.global_values())
    if (!GV.isDeclaration() && GV.hasName() && !GV.hasComdat())
      Names.push_back(GV.getName().str());
  std::sort(Names.begin(), Names.end());
  std::string Text = M.getModuleIdentifier();
  for (const std::string &Name : Names) {
    Text += '\n';
    Text += Name;
  }
  return hashName(Text);
}

static Rng factorRng(const LayoutConfig &Config, Factor F,
                     std::uint64_t ModuleSalt) {
  const std::uint64_t FactorSeed = mixSeed(Config.Seed, factorName(F));
  return Rng(mixSeed(FactorSeed, ModuleSalt));
}

//===-- symbol-names --------------------------------------------------------//

// All inline assembly text of the module: a local symbol named in it may be
// referenced by name, so it keeps its name.
static std::string collectAsmText(const Module &M) {
  std::string Text = M.getModuleInlineAsm();
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const auto *Asm = dyn_cast<InlineAsm>(Call->getCalledOperand())) {
          Text += '\n';
          Text += Asm->getAsmString();
        }
  return Text;
}

static bool isRenamable(const GlobalObject &GO,
                        const SmallPtrSetImpl<const GlobalValue *> &Used,
                        StringRef AsmText) {
  if (GO.isDeclaration() || !GO.hasLocalLinkage() || !GO.hasName() ||
      GO.hasComdat() || Used.contains(&GO))
    return false;
  StringRef Name = GO.getName();
  if (Name.starts_with("llvm.") || Name.starts_with(RenamePrefix) ||
      Name.starts_with("__start_") || Name.starts_with("__stop_"))
    return false;
  if (const auto *F = dyn_cast<Function>(&GO); F && F->isIntrinsic())
    return false;
  return AsmText.find(Name) == StringRef::npos;
}

static std::string drawName(Rng &R) {
  std::string Name(RenamePrefix);
  const std::uint64_t Length = R.between(MinNameChars, MaxNameChars);
  for (std::uint64_t I = 0; I < Length; ++I)
    Name += NameAlphabet[R.below(NameAlphabet.size())];
  return Name;
}

// Renames local (internal/private) definitions: global variables first, then
// functions, each in module order, one name drawn per renamed symbol.
static bool renameLocalSymbols(Module &M, Rng &R) {
  SmallVector<GlobalValue *, 16> UsedVec;
  collectUsedGlobalVariables(M, UsedVec, /*CompilerUsed=*/false);
  collectUsedGlobalVariables(M, UsedVec, /*CompilerUsed=*/true);
  SmallPtrSet<const GlobalValue *, 16> Used(UsedVec.begin(), UsedVec.end());
  const std::string AsmText = collectAsmText(M);

  SmallVector<GlobalObject *, 64> Targets;
  for (GlobalVariable &GV : M.globals())
    if (isRenamable(GV, Used, AsmText))
      Targets.push_back(&GV);
  for (Function &F : M)
    if (isRenamable(F, Used, AsmText))
      Targets.push_back(&F);

  for (GlobalObject *GO : Targets) {
    std::string Name = drawName(R);
    while (M.getNamedValue(Name)) // astronomically rare; redraw
      Name = drawName(R);
    GO->setName(Name);
  }
  return !Targets.empty();
}

//===-- function-order, global-order -----------------------------------------//

// Shuffles the eligible elements of an IR symbol list among the slots they
// occupy; ineligible elements (declarations, special globals, explicit
// sections) stay where they are. Returns whether the list was reordered.
template <typename T, typename RangeT, typename PredT, typename MoveT>
static bool shuffleList(RangeT &&List, Rng &R, PredT Eligible,
                        MoveT MoveToEnd) {
  SmallVector<T *, 64> All, Movable;
  for (T &X : List) {
    All.push_back(&X);
    if (Eligible(X))
      Movable.push_back(&X);
  }
  if (Movable.size() < 2)
    return false;
  alea::shuffle(Movable.begin(), Movable.end(), R);
  std::size_t Next = 0;
  bool Moved = false;
  for (T *&X : All)
    if (Eligible(*X)) {
      Moved |= X != Movable[Next];
      X = Movable[Next++];
    }
  for (T *X : All)
    MoveToEnd(X);
  return Moved;
}

// A function this module emits and may place freely: not a declaration nor
// available_externally (never emitted), no explicit section.
static bool isPlaceableFunction(const Function &F) {
  return !F.isDeclarationForLinker() && !F.hasSection();
}

static bool shuffleFunctions(Module &M, Rng &R) {
  auto &List = M.getFunctionList();
  return shuffleList<Function>(
      List, R, isPlaceableFunction,
      // Splicing within one list keeps the symbol-table entry.
      [&List](Function *F) {
        List.splice(List.end(), List, F->getIterator());
      });
}

static bool shuffleGlobals(Module &M, Rng &R) {
  return shuffleList<GlobalVariable>(
      M.globals(), R,
      [](const GlobalVariable &GV) {
        return !GV.isDeclarationForLinker() && !GV.hasSection() &&
               !GV.hasAppendingLinkage() && !GV.getName().starts_with("llvm.");
      },
      // Module keeps its global list private: unlink and append. The name is
      // free while the variable is unlinked, so it comes back unchanged.
      [&M](GlobalVariable *GV) {
        M.removeGlobalVariable(GV);
        M.insertGlobalVariable(GV);
      });
}

//===-- code-padding --------------------------------------------------------//

// Whether F's entry may be preceded by our bytes: not if something else
// already lives there (prefix data, patchable-entry NOPs, KCFI or
// -fsanitize=function type hashes read at entry - 4/8).
static bool canPad(const Function &F) {
  return !F.hasPrefixData() && !F.hasFnAttribute("patchable-function-prefix") &&
         !F.hasMetadata(LLVMContext::MD_kcfi_type) &&
         !F.hasMetadata(LLVMContext::MD_func_sanitize);
}

// Gives each function (in the final order) prefix data: never-executed fill
// bytes (int3 on x86) that the backend emits after the alignment and before
// the entry label (LangRef, "Prefix Data"), so the entry is aligned only if
// the padding is a multiple of the function's alignment. The padding belongs to
// its function: it moves with it under -ffunction-sections and section
// shuffling, survives --gc-sections with it, adds no symbol and no function
// to compile. One draw per placeable function, padded or not.
static bool insertCodePadding(Module &M, Rng &R) {
  LLVMContext &Ctx = M.getContext();
  const std::uint8_t Fill = Triple(M.getTargetTriple()).isX86() ? 0xcc : 0;
  bool Changed = false;
  for (Function &F : M) {
    if (!isPlaceableFunction(F))
      continue;
    const std::uint64_t Units = R.below(PaddingUnits);
    const std::uint64_t Unit =
        std::max<std::uint64_t>(PaddingUnit, F.getAlign().valueOrOne().value());
    const std::uint64_t Bytes = Unit * Units;
    if (Bytes == 0 || Unit > MaxPaddingUnit || !canPad(F))
      continue;
    SmallVector<std::uint8_t, PaddingUnit * PaddingUnits> Data(Bytes, Fill);
    F.setPrefixData(ConstantDataArray::get(Ctx, ArrayRef(Data)));
    Changed = true;
  }
  return Changed;
}

//===-- stack-offset --------------------------------------------------------//

// An alloca of 0..4096 bytes at the top of main's entry block, kept alive by a
// volatile store so that codegen (also under optnone and -O3) keeps it: main's
// frame, and so every stack address below it, moves by that amount.
static bool offsetMainStack(Module &M, Rng &R) {
  Function *Main = M.getFunction("main");
  if (!Main || Main->isDeclaration() || Main->hasFnAttribute(Attribute::Naked))
    return false;
  const std::uint64_t Bytes = R.between(0, MaxStackOffset);
  BasicBlock &Entry = Main->getEntryBlock();
  // Already offset (the pass runs again on an LTO-merged module): keep it.
  for (const Instruction &I : Entry)
    if (I.getMetadata(StackOffsetTag))
      return false;
  if (Bytes == 0)
    return false;
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  AllocaInst *Offset = B.CreateAlloca(ArrayType::get(B.getInt8Ty(), Bytes),
                                      M.getDataLayout().getAllocaAddrSpace(),
                                      nullptr, "alea.stack.offset");
  Offset->setAlignment(Align(16));
  Offset->setMetadata(StackOffsetTag, MDNode::get(M.getContext(), {}));
  B.CreateStore(B.getInt8(0), Offset, /*isVolatile=*/true);
  return true;
}

//===-- section-order under flang
//---------------------------------------------//

// clang's -ffunction-sections gives each function a section of its own, which
// lld's --shuffle-sections then orders across the whole program; flang-new-19
// has no such option (nor -fdata-sections). For flang's modules the pass does
// what the option does, as the last change to the function list: a defined
// function without a section gets `.text.<its final name>` (the name
// -ffunction-sections would use; lld maps .text.* into .text). Its padding
// lives in that section with it. Data is left alone: one section per kind and
// object, ordered inside by global-order.
static bool giveFunctionsSections(Module &M) {
  bool Changed = false;
  for (Function &F : M) {
    if (!isPlaceableFunction(F) || !F.hasName())
      continue;
    F.setSection((".text." + F.getName()).str());
    Changed = true;
  }
  return Changed;
}

//===-- .note.alea ----------------------------------------------------------//

// An ELF note record (gABI "Note Section": namesz, descsz, type, name, desc,
// each padded to 4 bytes) in section .note.alea, kept by llvm.used. The
// descriptor is the NUL-terminated noteText().
static bool emitNote(Module &M, const LayoutConfig &Config) {
  const Triple TT(M.getTargetTriple());
  if (!TT.isOSBinFormatELF())
    return false;
  const bool Little = M.getDataLayout().isLittleEndian();
  const std::string Desc = noteText(Config);
  SmallVector<std::uint8_t, 128> Bytes;
  auto Word = [&](std::uint32_t V) {
    for (unsigned I = 0; I < 4; ++I)
      Bytes.push_back(Little ? (V >> (8 * I)) & 0xff
                             : (V >> (8 * (3 - I))) & 0xff);
  };
  auto Text = [&](StringRef S) {
    Bytes.append(S.begin(), S.end());
    Bytes.push_back(0);
    while (Bytes.size() % 4)
      Bytes.push_back(0);
  };
  Word(NoteOwner.size() + 1);
  Word(Desc.size() + 1);
  Word(kLayoutNoteType);
  Text(NoteOwner);
  Text(Desc);

  Constant *Init = ConstantDataArray::get(M.getContext(), ArrayRef(Bytes));
  for (const GlobalVariable &GV : M.globals())
    if (GV.getSection() == NoteSection && GV.hasInitializer() &&
        GV.getInitializer() == Init)
      return false; // this module already says the same (LTO re-run)
  auto *Note =
      new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                         GlobalValue::PrivateLinkage, Init, "__alea_note");
  Note->setSection(NoteSection);
  Note->setAlignment(Align(4));
  appendToUsed(M, {Note});
  return true;
}

//===-- the pass ------------------------------------------------------------//

// The factors that change the module, in the order they apply, each drawing
// from its own stream (factorRng).
struct ModuleFactor {
  Factor F;
  bool (*Apply)(Module &, Rng &);
};
static constexpr ModuleFactor ModuleFactors[] = {
    {Factor::SymbolNames, renameLocalSymbols},
    {Factor::GlobalOrder, shuffleGlobals},
    {Factor::FunctionOrder, shuffleFunctions},
    {Factor::CodePadding, insertCodePadding},
    {Factor::StackOffset, offsetMainStack},
};

PreservedAnalyses LayoutPass::run(Module &M, ModuleAnalysisManager &) {
  if (!Config.HasSeed)
    return PreservedAnalyses::all(); // no seed: exactly the plain compiler
  if (!Config.Error.empty()) {
    M.getContext().emitError("alea: " + Config.Error);
    return PreservedAnalyses::all();
  }
  bool Changed = false;
  // A snapshot compiled again (the build cache) takes the identifier the
  // compile gave it, so that it draws exactly what that compile would have.
  if (!Config.ModuleId.empty() && M.getModuleIdentifier() != Config.ModuleId) {
    M.setModuleIdentifier(Config.ModuleId);
    Changed = true;
  }
  const std::uint64_t Salt = moduleSalt(M);
  for (const ModuleFactor &MF : ModuleFactors) {
    if (!Config.has(MF.F))
      continue;
    Rng R = factorRng(Config, MF.F, Salt);
    Changed |= MF.Apply(M, R);
  }
  if (Config.has(Factor::SectionOrder) && isFlangModule(M))
    Changed |= giveFunctionsSections(M);
  Changed |= emitNote(M, Config);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace alea::passes

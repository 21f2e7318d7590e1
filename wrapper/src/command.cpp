// The wrapper's actions (command.hpp): the classification decides, this file builds
// the final argv. Our additions go right after argv[0], before the user's
// arguments, so that a user's own later option wins (e.g. -fno-function-sections)
// and nothing of ours lands after a `--` or under a user's `-x`.
#include "alea/wrapper/command.hpp"

#include "alea/random.hpp"

#include <algorithm>

namespace alea::wrapper {

namespace {

std::string_view baseName(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Why a link for which alea-cc would pick lld must keep the compiler's
// default linker (GNU ld) instead, "" if it need not (docs/wrapper.md, "When
// alea picks lld"). The program must come out as GNU ld makes it:
//  - the lld trial runs the command twice when lld rejects it, so a command
//    that reads standard input could not run again;
//  - GNU ld makes the stack executable for an object without a
//    non-executable .note.GNU-stack, lld ignores the note. For a named object
//    lld gets -z execstack (planCommand), but not for one GNU ld may or may
//    not take (Classification::stackUnknown), and a -r link cannot carry the
//    executable note GNU ld writes into its output. The user's own
//    -z execstack / -z noexecstack decides for both linkers.
std::string keepDefaultLinker(const Classification &c) {
  if (c.readsStdin)
    return "the command reads standard input, which a fallback from lld could not read again";
  if (c.userStack)
    return "";
  if (!c.stackUnknown.empty())
    return c.stackUnknown;
  if (c.relocatable && !c.execStackObject.empty())
    return c.execStackObject + " has no non-executable .note.GNU-stack, which GNU ld's -r output "
                               "keeps and lld's does not";
  return "";
}

} // namespace

bool lldLoadsPlugin(std::string_view given, std::string_view resolved) {
  auto fromLlvm19 = [](std::string_view path) {
    return path.find("/llvm-19/") != std::string_view::npos || baseName(path).ends_with("-19");
  };
  return fromLlvm19(given) || fromLlvm19(resolved);
}

std::uint32_t lldShuffleSeed(std::uint64_t buildSeed) {
  const std::uint64_t stream = alea::mixSeed(buildSeed, factorName(Factor::SectionOrder));
  return static_cast<std::uint32_t>(stream % 0x7ffffffeULL) + 1; // [1, 2^31 - 1]
}

void shuffleLinkOrder(std::vector<std::string> &args, const std::vector<std::size_t> &slots,
                      std::uint64_t seed, std::string_view output) {
  std::vector<std::string> moved;
  moved.reserve(slots.size());
  for (std::size_t slot : slots)
    moved.push_back(args.at(slot));
  const std::size_t slash = output.rfind('/');
  if (slash != std::string_view::npos)
    output.remove_prefix(slash + 1);
  alea::Rng rng(alea::mixSeed(alea::mixSeed(seed, factorName(Factor::LinkOrder)), output));
  alea::shuffle(moved.begin(), moved.end(), rng);
  for (std::size_t k = 0; k < slots.size(); ++k)
    args[slots[k]] = std::move(moved[k]);
}

namespace {

// The compile's additions: the plugin, the seed file as a prerequisite, and
// the sections that section-order needs.
void addCompileOptions(Tool tool, const Settings &settings, const std::string &plugin, Plan &plan,
                       std::vector<std::string> &added) {
  const FactorSet f = settings.factors;
  // The plugin is loaded even when only link-time factors are on: it writes the
  // .note.alea record of seed and factors into every object.
  added.push_back("-fpass-plugin=" + plugin);
  if (f.has(Factor::SectionOrder) && tool != Tool::Fc) {
    added.push_back("-ffunction-sections");
    added.push_back("-fdata-sections");
  } else if (f.has(Factor::SectionOrder)) {
    // flang-new-19 rejects both options; the plugin gives each function of
    // flang's IR a section of its own instead (passes/LayoutPass.cpp).
    plan.notes.push_back("section-order: flang-new-19 has no -ffunction-sections: the plugin "
                         "puts each function in a .text.<name> section of its own; flang has "
                         "no -fdata-sections either: data keeps one section per kind and "
                         "object (global-order orders the variables inside it)");
  }
  // The seed file becomes a prerequisite in the dependency file the compile
  // writes (-MD, -MMD, -Wp,-MD; whatever -MF/-MT/-MQ say): clang's own
  // -fdepfile-entry, as for its sanitizer ignore lists. Without a dependency
  // file it does nothing.
  if (!settings.seedFile.empty() && (tool == Tool::Cc || tool == Tool::Cxx)) {
    added.push_back("-Xclang");
    added.push_back("-fdepfile-entry=" + settings.seedFile);
  }
}

// Steps 1-4 of the link (planCommand), decided before anything is added.
struct LinkChoice {
  bool elf = false;             // 1. an ELF target
  bool shuffleWanted = false;   // 2. section-order on, and the command does not shuffle
  bool ltoPluginWanted = false; // 3. the LTO link should run the plugin
  bool aleaPicks = false;       // 4. alea-cc would pick lld itself...
  std::string keep;             //    ...but the link must stay the default linker's (why)
  bool lld = false;             // the link runs lld
  bool pluginLoadable = false;  // the linker can load a plugin built for LLVM 19
  bool ltoPlugin = false;       // lld --load-pass-plugin
};

LinkChoice chooseLinker(Tool tool, const Classification &c, FactorSet f, const std::string &plugin,
                        bool linkerLoadsPlugin) {
  LinkChoice l;
  l.elf = isElfTarget(c.target);
  l.shuffleWanted = f.has(Factor::SectionOrder) && !c.userShuffleSections;
  l.ltoPluginWanted = !plugin.empty() && (tool == Tool::Ld || !c.lto.empty());
  // Would alea-cc pick lld itself (step 4)? Not where the link must stay the
  // default linker's (keepDefaultLinker).
  l.aleaPicks = tool != Tool::Ld && c.userLinker.empty() && l.elf;
  l.keep = l.aleaPicks ? keepDefaultLinker(c) : std::string();
  l.lld = l.elf && !c.nonLldLinker && l.keep.empty();
  // alea-cc: no linker chosen (clang-19 runs its own ld.lld), "lld", or
  // alea-ld (which passes through to its ALEA_LD under alea-cc); a path or
  // versioned name must say LLVM 19 (lldLoadsPlugin).
  l.pluginLoadable = tool == Tool::Ld ? linkerLoadsPlugin
                                      : c.userLinker.empty() || c.userLinker == "lld" ||
                                            baseName(c.userLinker) == kLdWrapperName ||
                                            lldLoadsPlugin(c.userLinker, c.userLinker);
  l.ltoPlugin = l.lld && l.ltoPluginWanted && l.pluginLoadable;
  return l;
}

// The log's notes on what the link choice leaves out, and on -flto.
void noteLinkChoice(Tool tool, const Classification &c, FactorSet f, const LinkChoice &l,
                    const std::string &realTool, std::vector<std::string> &notes) {
  if (f.has(Factor::SectionOrder)) {
    if (!l.elf)
      notes.push_back("section-order skipped: target " + c.target + " is not ELF");
    else if (c.userShuffleSections)
      notes.push_back("section-order skipped: the command already shuffles sections");
    else if (!l.keep.empty())
      notes.push_back("section-order skipped: alea keeps the default linker: " + l.keep);
    else if (!l.lld)
      notes.push_back(tool == Tool::Ld
                          ? std::string("section-order skipped: the real linker is not lld")
                          : "section-order skipped: linker " + c.userLinker + " is not lld");
  }
  if (!c.lto.empty()) {
    std::string note = c.lto + ": plugin on the pre-link IR";
    if (l.ltoPlugin)
      note += " and in the LTO link (lld --load-pass-plugin)";
    else if (l.lld && l.ltoPluginWanted)
      note += "; the LTO link does not load the plugin (the linker " + c.userLinker +
              " is not LLVM 19's lld)";
    else
      note += "; the LTO link does not load the plugin (the linker is not lld)";
    if (l.lld && l.shuffleWanted)
      note += "; sections shuffled by lld --shuffle-sections";
    notes.push_back(note);
  }
  if (tool == Tool::Ld && l.lld && l.ltoPluginWanted && !l.pluginLoadable)
    notes.push_back("the LTO link does not load the plugin: the real linker " + realTool +
                    " is not LLVM 19's lld");
}

// The link's additions for steps 2-4: lld picked by alea-cc, the plugin in
// the LTO link, --shuffle-sections.
void addLinkOptions(Tool tool, const Classification &c, const LinkChoice &l, std::uint64_t seed,
                    const std::string &plugin, Plan &plan, std::vector<std::string> &added) {
  if (l.lld && l.aleaPicks && (l.shuffleWanted || l.ltoPluginWanted)) {
    // We replace the system's default linker (GNU ld on Debian) with lld, so
    // keep GNU ld's leniency where lld (>= 16) is stricter by default: a
    // version script may name symbols the link does not define (zlib's
    // configure probes its shared library with zlib.map and silently drops
    // the shared build when that link fails). A user's own
    // -Wl,--no-undefined-version comes later on the line and still wins.
    added.push_back("-fuse-ld=lld");
    added.push_back("-Wl,--undefined-version");
    // GNU ld does not go back to earlier archives, lld does: lld reports
    // such a reference, and the driver takes it as a rejection, so that
    // GNU ld's own result decides (runLinkTrial).
    added.push_back("-Wl,--warn-backrefs");
    // An object without the note gives GNU ld an executable stack; lld
    // does so only when told. A user's -z noexecstack comes later and wins.
    if (!c.userStack && !c.execStackObject.empty()) {
      added.push_back("-Wl,-z,execstack");
      plan.notes.push_back("-z execstack: " + c.execStackObject +
                           " has no non-executable .note.GNU-stack, so GNU ld would make the "
                           "stack executable");
    }
    plan.lldByAlea = true;
  }
  const std::string prefix = tool == Tool::Ld ? "" : "-Wl,";
  if (l.ltoPlugin)
    added.push_back(prefix + "--load-pass-plugin=" + plugin);
  if (l.lld && l.shuffleWanted)
    added.push_back(prefix + "--shuffle-sections=*=" + std::to_string(lldShuffleSeed(seed)));
}

// Step 5, the link record: what the link really applies, in an object matching
// the link's first ELF input; or the note why there is none.
void planLinkRecord(const Classification &c, FactorSet f, const LinkChoice &l, std::uint64_t seed,
                    Plan &plan, std::vector<std::string> &added) {
  // LTO runs when an input is bitcode, or when sources are compiled with
  // -flto in this same command.
  const bool ltoRuns = c.bitcodeInput || (c.mode == Mode::CompileAndLink && !c.lto.empty());
  LinkFactors lf;
  const bool linkOrderApplied = f.has(Factor::LinkOrder) && c.linkOrderSlots.size() >= 2;
  if (linkOrderApplied)
    lf.applied.emplace_back(factorName(Factor::LinkOrder));
  else if (f.has(Factor::LinkOrder))
    lf.skipped.emplace_back(factorName(Factor::LinkOrder));
  if (l.lld && l.shuffleWanted)
    lf.applied.emplace_back(factorName(Factor::SectionOrder));
  else if (f.has(Factor::SectionOrder))
    lf.skipped.emplace_back(factorName(Factor::SectionOrder));
  if (l.ltoPlugin && ltoRuns)
    lf.applied.emplace_back(kLtoLinkName);
  // Which object the record must be: only an ELF input of the link itself
  // says so for sure. Without one (sources, bitcode, -l only) the target is
  // whatever the compiler driver makes of the command, its --config files,
  // its default configuration files and CCC_OVERRIDE_OPTIONS: no record,
  // the compile-time notes of the sources still say seed and factors.
  std::string why;
  if (!c.layoutOption.empty())
    why = c.layoutOption +
          ": the link places the sections itself (linker script, output format or addresses)";
  else if (!l.elf)
    why = "target " + c.target + " is not ELF";
  else if (!c.elfTarget)
    why = "no ELF object among the inputs tells the target";
  if (!why.empty()) {
    plan.notes.push_back("link record skipped: " + why);
    return;
  }
  LinkRecordPlan record;
  record.descriptor = linkNoteText(seed, lf.applied, lf.skipped);
  record.target = *c.elfTarget;
  record.persistent = c.dependencyFile;
  record.argIndex = 1 + added.size();
  added.emplace_back(LinkRecordPlaceholder);
  if (record.persistent)
    plan.notes.push_back("link record in the user's cache: the link writes a dependency file");
  plan.record = std::move(record);
}

} // namespace

Plan planCommand(Tool tool, const std::vector<std::string> &args, const Classification &c,
                 const Settings &settings, const std::string &realTool, const std::string &plugin,
                 bool linkerLoadsPlugin) {
  Plan plan;
  plan.argv.push_back(realTool);
  std::vector<std::string> rest = args;
  if (!settings.seed || c.mode == Mode::PassThrough) {
    plan.argv.insert(plan.argv.end(), rest.begin(), rest.end());
    return plan;
  }
  const std::uint64_t seed = *settings.seed;
  const FactorSet f = settings.factors;
  const bool compiles = c.mode == Mode::Compile || c.mode == Mode::CompileAndLink;
  const bool links = c.mode == Mode::Link || c.mode == Mode::CompileAndLink;
  std::vector<std::string> added;

  if (!c.lto.empty() && !links)
    plan.notes.push_back(c.lto + ": plugin on the pre-link IR");
  if (compiles)
    addCompileOptions(tool, settings, plugin, plan, added);
  if (links) {
    // The link, as one sequence of decisions:
    //  1. can lld do it: an ELF target, and no other linker chosen (alea-ld:
    //     its real linker is lld);
    //  2. section-order: lld --shuffle-sections, unless the command already
    //     shuffles;
    //  3. -flto: lld runs the plugin again on the merged module (its
    //     full-LTO-last callback; the ThinLTO backends run the optimizer-last
    //     one), which draws the final function order across the whole
    //     program; the pass is idempotent for what the pre-link compile did.
    //     alea-ld sees no -flto (lld recognises bitcode inputs itself), so it
    //     offers the plugin to every link; lld loads it only when it runs LTO.
    //     Only LLVM 19's lld can load a plugin built for LLVM 19 (another
    //     one aborts the LTO link: "Could not load library");
    //  4. alea-cc picks lld itself when 2 or 3 needs it and the user chose no
    //     linker, unless the link must stay the default linker's
    //     (keepDefaultLinker); the driver then runs the link as a trial and
    //     falls back to the user's original command if lld rejects it
    //     (Plan::lldByAlea);
    //  5. the link record: what 1-4 (and link-order, below) really applied,
    //     in an object matching the link's first ELF input.
    const LinkChoice link = chooseLinker(tool, c, f, plugin, linkerLoadsPlugin);
    noteLinkChoice(tool, c, f, link, realTool, plan.notes);
    addLinkOptions(tool, c, link, seed, plugin, plan, added);
    planLinkRecord(c, f, link, seed, plan, added);
  }
  if (links && f.has(Factor::LinkOrder)) {
    shuffleLinkOrder(rest, c.linkOrderSlots, seed, c.output.empty() ? "a.out" : c.output);
    if (c.usedResponseFiles)
      plan.notes.push_back("link-order: entries inside response files keep their order");
  }
  plan.argv.insert(plan.argv.end(), added.begin(), added.end());
  plan.argv.insert(plan.argv.end(), rest.begin(), rest.end());
  return plan;
}

std::string oneLogLine(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (char ch : line)
    out += shell_detail::isControl(ch) ? shell_detail::controlEscape(ch) : std::string(1, ch);
  return out;
}

} // namespace alea::wrapper

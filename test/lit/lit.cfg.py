# lit configuration for alea's FileCheck tests (passes, wrapper, linker, CLI).
# Run through CTest (test/CMakeLists.txt), which passes --param alea_build=<dir>.
import os
import lit.formats
import lit.llvm
from lit.llvm.subst import ToolSubst

config.name = "alea"
config.suffixes = [".ll", ".c", ".cpp", ".test", ".s"]
config.excludes = ["Inputs", "lit.cfg.py", "CMakeLists.txt"]

build = lit_config.params.get("alea_build") or os.environ.get("ALEA_BUILD_DIR")
if not build:
    lit_config.fatal("pass --param alea_build=<cmake build dir>")
build = os.path.abspath(build)
llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-19/bin")

config.llvm_tools_dir = llvm_bin
lit.llvm.initialize(lit_config, config)
from lit.llvm import llvm_config  # noqa: E402 (exists only after initialize)

config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(build, "test", "lit")
config.alea_build = build
config.llvm_bin = llvm_bin

# Tools of ours first, then LLVM 19's (FileCheck, not, split-file, opt, llvm-*).
config.environment["PATH"] = os.pathsep.join(
    [os.path.join(build, "bin"), llvm_bin, config.environment.get("PATH", "")])
# A test must never inherit the developer's alea configuration.
for k in list(os.environ):
    if k.startswith("ALEA_"):
        config.environment.pop(k, None)
config.environment["ALEA_PLUGIN"] = os.path.join(build, "lib", "AleaPlugin.so")

llvm_config.use_default_substitutions()
tools = [
    ToolSubst("%clang", command=os.path.join(llvm_bin, "clang")),
    ToolSubst("%clangxx", command=os.path.join(llvm_bin, "clang++")),
    ToolSubst("%opt", command=os.path.join(llvm_bin, "opt")),
    ToolSubst("%lld", command=os.path.join(llvm_bin, "ld.lld")),
]
llvm_config.add_tool_substitutions(tools, [llvm_bin])
config.substitutions.append(("%alea_plugin", os.path.join(build, "lib", "AleaPlugin.so")))
config.substitutions.append(("%alea_bin", os.path.join(build, "bin")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))

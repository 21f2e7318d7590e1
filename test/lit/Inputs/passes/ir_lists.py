#!/usr/bin/env python3
"""Lists of symbols of a textual LLVM IR module, in module order, one a line,
in the argument format of layout_model.py ("@file" arguments).

The clang-level lit tests take these lists from clang's own output (of a
compile without the plugin, or of the laid-out module itself), so they do not
hard-code what clang emits (deferred statics, constructor functions,
comdats) and the reference model gets exactly the symbols the pass sees.

  ir_lists.py functions FILE [--renamed]
      Function definitions (the function-order list): "=name" for one that
      keeps its slot (explicit section, available_externally).
  ir_lists.py globals FILE [--renamed]
      Global variables (the global-order list), declarations included:
      "=name" for one that keeps its slot (declaration, llvm.*, appending,
      explicit section, available_externally). Aliases and ifuncs are not
      global variables and are left out.
    --renamed: a local symbol that symbol-names renames is listed as the
      FileCheck pattern __alea_{{[A-Za-z0-9_]+}} (for output laid out with
      symbol-names on as well).
  ir_lists.py locals FILE
      What symbol-names renames, in its visiting order (variables, then
      functions): "g=<definition>" per variable (its text after "= ", cut
      before the first "@"), "f" per function.
  ir_lists.py placed FILE [--text]
      Functions that draw a code-padding size, in module order (= the final
      order when FILE is the laid-out module): definitions without an
      explicit section, not available_externally. --text: a comdat function
      (emitted in its own section, not in .text) is listed as "=name".
"""
import re
import sys

NAME = r'@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._][-a-zA-Z$._0-9]*|[0-9]+)'
# @name = <linkage, visibility, ...> global|constant|alias|ifunc ...
GLOBAL_RE = re.compile(r"^" + NAME + r" = ((?:\S+ )*?)(global|constant|alias|ifunc) ")
DEFINE_RE = re.compile(r"^define ((?:\S+ )*?)\S+ " + NAME + r"\(")
LINKAGES = ("private", "internal", "available_externally", "linkonce",
            "weak", "common", "appending", "extern_weak", "linkonce_odr",
            "weak_odr", "external")
RENAMED = "__alea_{{[A-Za-z0-9_]+}}"


class Symbol:
    def __init__(self, name, line, keywords):
        self.name = name
        self.line = line
        linkages = [w for w in keywords.split() if w in LINKAGES]
        # No keyword: external linkage (a definition; a declaration always
        # says "external" or "extern_weak").
        self.linkage = linkages[0] if linkages else ""
        self.has_section = ' section "' in line
        self.has_comdat = re.search(r"\bcomdat\b", line) is not None

    @property
    def is_local(self):
        return self.linkage in ("internal", "private")


def parse(path):
    functions, globals_ = [], []
    asm_text = []
    used = set()
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("module asm "):
                asm_text.append(line)
            asm_text.extend(re.findall(r'\basm (?:[a-z]+ )*"([^"]*)"', line))
            m = DEFINE_RE.match(line)
            if m:
                functions.append(Symbol(m.group(2), line, m.group(1)))
                continue
            m = GLOBAL_RE.match(line)
            if not m or m.group(3) in ("alias", "ifunc"):
                continue
            name = m.group(1)
            if name in ("llvm.used", "llvm.compiler.used"):
                used.update(re.findall(NAME, line[len(name) + 1:]))
            globals_.append(Symbol(name, line, m.group(2)))
    return functions, globals_, "\n".join(asm_text), used


def renamable(sym, asm_text, used):
    name = sym.name
    return (sym.is_local and not sym.has_comdat and name not in used
            and not name.startswith(("llvm.", "__alea_", "__start_", "__stop_"))
            and name not in asm_text)


def is_declaration(sym):
    return sym.linkage in ("external", "extern_weak")


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cmd, path, opts = argv[1], argv[2], argv[3:]
    functions, globals_, asm_text, used = parse(path)
    renamed = "--renamed" in opts

    def shown(sym):
        if renamed and renamable(sym, asm_text, used):
            return RENAMED
        return sym.name

    if cmd == "functions":
        for fn in functions:
            fixed = fn.has_section or fn.linkage == "available_externally"
            print(("=" if fixed else "") + shown(fn))
    elif cmd == "globals":
        for gv in globals_:
            fixed = (is_declaration(gv) or gv.name.startswith("llvm.")
                     or gv.linkage in ("appending", "available_externally")
                     or gv.has_section)
            print(("=" if fixed else "") + shown(gv))
    elif cmd == "locals":
        for gv in globals_:
            if renamable(gv, asm_text, used):
                # The definition after "= ", up to the first reference to a
                # symbol (which may be renamed too) or FileCheck syntax.
                rest = gv.line.split(" = ", 1)[1]
                rest = re.split(r"@|\[\[|\{\{", rest)[0].rstrip(" ,")
                print("g=" + rest)
        for fn in functions:
            if renamable(fn, asm_text, used):
                print("f")
    elif cmd == "placed":
        text = "--text" in opts
        for fn in functions:
            if fn.has_section or fn.linkage == "available_externally":
                continue
            print(("=" if text and fn.has_comdat else "") + fn.name)
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)

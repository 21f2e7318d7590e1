#!/usr/bin/python3
"""Lists the functions of alea's product code whose body is longer than N lines
(default 150), longest first, one `file:line name lines` a line, and exits 1 if
there is any (issue 22: no function over ~150 lines). A body's lines run from the
line of its opening brace to the line of its closing brace, both counted; a lambda
is part of the function it is written in, not a function of its own. Product code
is every file under the source tree except test/, bench/ and the build directory;
the functions are found by parsing each translation unit of BUILD_DIR's
compile_commands.json once with libclang (functions in headers are reported once).

    scripts/long_functions.py BUILD_DIR [--max N] [--jobs J]

Runs under Debian's /usr/bin/python3 because the libclang bindings come from
Debian's python3-clang-19 (scripts/setup.sh installs it), not from pip."""
import argparse
import json
import multiprocessing
import os
import shlex
import sys

import clang.cindex as ci

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXCLUDED = ("test", "bench")

K = ci.CursorKind
FUNCTIONS = {K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR,
             K.CONVERSION_FUNCTION, K.FUNCTION_TEMPLATE}
# Declarations that can hold function definitions: descended into. Function
# bodies are not (a local class's methods are not worth the time).
SCOPES = {K.NAMESPACE, K.CLASS_DECL, K.STRUCT_DECL, K.UNION_DECL,
          K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION, K.LINKAGE_SPEC,
          K.UNEXPOSED_DECL}
CLASSES = {K.CLASS_DECL, K.STRUCT_DECL, K.UNION_DECL, K.CLASS_TEMPLATE,
           K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION}


def is_product(path, build_dir):
    """True for a file of the product code: under the source tree, not under
    test/, bench/ or the build directory."""
    path = os.path.realpath(path)
    if not path.startswith(SOURCE_DIR + os.sep) or path.startswith(build_dir + os.sep):
        return False
    return os.path.relpath(path, SOURCE_DIR).split(os.sep)[0] not in EXCLUDED


def compile_args(entry):
    """The entry's compiler arguments for libclang: without the compiler, the
    output and the source file, which libclang takes separately."""
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out, skip = [], False
    for a in args[1:]:
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        elif a != "-c" and os.path.realpath(os.path.join(entry["directory"], a)) != \
                os.path.realpath(os.path.join(entry["directory"], entry["file"])):
            out.append(a)
    return out


def body_of(cursor):
    """The function's body (its last compound statement or function-try block)."""
    body = None
    for child in cursor.get_children():
        if child.kind in (K.COMPOUND_STMT, K.CXX_TRY_STMT):
            body = child
    return body


def qualified_name(cursor):
    """The name with its enclosing classes, without namespaces (`Run::runOnTargets`)."""
    parts = [cursor.spelling]
    parent = cursor.semantic_parent
    while parent is not None and parent.kind in CLASSES:
        parts.append(parent.spelling)
        parent = parent.semantic_parent
    return "::".join(reversed(parts))


def functions_of(entry, build_dir):
    """(file, line, name, body lines) of every function definition of the
    product code that the entry's translation unit holds, or an error string."""
    path = os.path.join(entry["directory"], entry["file"])
    try:
        tu = ci.Index.create().parse(path, args=compile_args(entry))
    except ci.TranslationUnitLoadError as e:
        return f"{path}: {e}"
    # An error (a header not found, flags libclang does not take) leaves holes in
    # the tree, so functions could go unseen: reported as a failure to parse.
    bad = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if bad:
        return f"{path}: {bad[0]}"
    found, seen_files = [], {}

    def product(cursor):
        f = cursor.location.file
        if f is None:
            return False
        name = f.name
        if name not in seen_files:
            seen_files[name] = is_product(name, build_dir)
        return seen_files[name]

    def visit(cursor):
        for c in cursor.get_children():
            if not product(c):
                continue
            if c.kind in FUNCTIONS and c.is_definition():
                body = body_of(c)
                if body is not None:
                    lines = body.extent.end.line - body.extent.start.line + 1
                    found.append((os.path.relpath(os.path.realpath(c.location.file.name),
                                                  SOURCE_DIR),
                                  c.location.line, qualified_name(c), lines))
            elif c.kind in SCOPES:
                visit(c)

    visit(tu.cursor)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_dir", help="build directory with compile_commands.json")
    parser.add_argument("--max", type=int, default=150, help="longest body allowed (lines)")
    parser.add_argument("--jobs", type=int, default=2, help="translation units parsed at once")
    opts = parser.parse_args()
    build_dir = os.path.realpath(opts.build_dir)
    with open(os.path.join(build_dir, "compile_commands.json")) as f:
        entries = {}  # one entry per file: a file built into two targets is parsed once
        for e in json.load(f):
            path = os.path.realpath(os.path.join(e["directory"], e["file"]))
            if is_product(path, build_dir):
                entries.setdefault(path, e)
        entries = list(entries.values())
    with multiprocessing.Pool(opts.jobs) as pool:
        results = pool.starmap(functions_of, [(e, build_dir) for e in entries])
    functions, errors = set(), []
    for r in results:
        if isinstance(r, str):
            errors.append(r)
        else:
            functions.update(r)
    for e in errors:
        print(f"long_functions: cannot parse {e}", file=sys.stderr)
    long = sorted((f for f in functions if f[3] > opts.max),
                  key=lambda f: (-f[3], f[0], f[1]))
    for file, line, name, lines in long:
        print(f"{file}:{line} {name} {lines}")
    return 1 if long or errors else 0


if __name__ == "__main__":
    sys.exit(main())

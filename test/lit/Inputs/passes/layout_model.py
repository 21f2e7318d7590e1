#!/usr/bin/env python3
"""Independent reference model of the draws of alea's layout pass.

A second implementation, written from the published algorithms rather than
from the C++ code, of what passes/LayoutPass.cpp draws: FNV-1a 64 names ->
numbers, the SplitMix64 finalizer (Steele, Lea & Flood 2014) for mixSeed,
xoshiro256** 1.0 (Blackman & Vigna 2018) seeded through SplitMix64, Lemire's
multiply-shift bounded draw (Lemire 2019, "Fast random integer generation in
an interval", Algorithm 5) and the Durstenfeld form of Fisher-Yates. The lit
tests compare the pass's output against the FileCheck lines this prints, so a
test failure means the pass and the documented stream definition disagree.

Stream of a factor: mixSeed(mixSeed(seed, fnv1a(factor)), fnv1a(module id)).

Usage (prints FileCheck directives with the given prefix):
  layout_model.py order   SEED FACTOR MODULE_ID PREFIX [=]name... shuffled order
  layout_model.py order-nm  (same, as `llvm-nm -n` lines of functions)
An argument "@file" stands for the lines of file.
  layout_model.py names   SEED MODULE_ID PREFIX g=<def>|f ...    renamed symbols
  layout_model.py padding SEED MODULE_ID PREFIX name[:align]...  prefix data of each
  layout_model.py padding-objdump (same, as `llvm-objdump -d` lines: the int3
                  bytes right before each entry; "=name" draws, not checked)
  layout_model.py stack   SEED MODULE_ID PREFIX                  main's offset
  layout_model.py stack-frame (same, as the object in main's frame that the
                  stack-frame-layout analysis remark lists)
"""
import sys

M64 = (1 << 64) - 1


def fnv1a(text):
    h = 0xcbf29ce484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001b3) & M64
    return h


def mix(z):
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return z ^ (z >> 31)


def mix_seed(parent, salt):
    return mix((parent + 0x9e3779b97f4a7c15 * (salt + 1)) & M64)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


class Xoshiro256ss:
    def __init__(self, seed):
        self.s = []
        x = seed
        for _ in range(4):
            x = (x + 0x9e3779b97f4a7c15) & M64
            self.s.append(mix(x))

    def next(self):
        s = self.s
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below(self, bound):
        m = self.next() * bound
        low = m & M64
        if low < bound:
            threshold = (-bound % (1 << 64)) % bound
            while low < threshold:
                m = self.next() * bound
                low = m & M64
        return m >> 64

    def between(self, lo, hi):
        return lo + self.below(hi - lo + 1)


def stream(seed, factor, module_id):
    return Xoshiro256ss(mix_seed(mix_seed(seed, fnv1a(factor)), fnv1a(module_id)))


def shuffled(items, rng):
    items = list(items)
    for i in range(len(items), 1, -1):
        j = rng.below(i)
        items[i - 1], items[j] = items[j], items[i - 1]
    return items


ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"


def draw_name(rng):
    length = rng.between(8, 40)
    return "__alea_" + "".join(ALPHABET[rng.below(len(ALPHABET))] for _ in range(length))


def expand(names):
    """Arguments "@file" stand for the names listed in file, one a line."""
    out = []
    for n in names:
        if n.startswith("@"):
            with open(n[1:]) as f:
                out.extend(line.strip() for line in f if line.strip())
        else:
            out.append(n)
    return out


def main(argv):
    argv = argv[:2] + expand(argv[2:])
    cmd = argv[1]
    seed = int(argv[2], 0)
    if cmd in ("order", "order-nm"):
        nm = cmd == "order-nm"
        factor, module_id, prefix, names = argv[3], argv[4], argv[5], argv[6:]
        # A name written "=name" holds a fixed slot (declaration, explicit
        # section, llvm.* global): the others are shuffled among their slots.
        rng = stream(seed, factor, module_id)
        movable = shuffled([n for n in names if not n.startswith("=")], rng)
        final = []
        for n in names:
            final.append(n[1:] if n.startswith("=") else movable.pop(0))
        for name in final:
            if nm:
                print(f"{prefix}: {{{{[TtWw]}}}} {name}{{{{$}}}}")
            elif factor == "function-order":
                print(f"{prefix}: define {{{{.*}}}} @{name}(")
            else:
                print(f"{prefix}: @{name} = ")
    elif cmd == "names":
        module_id, prefix, names = argv[3], argv[4], argv[5:]
        rng = stream(seed, "symbol-names", module_id)
        # One argument per renamed symbol, in the pass's visiting order
        # (global variables, then functions, each in module order):
        # "g=<rest of the definition>" or "f" (a function definition).
        for entry in names:
            drawn = draw_name(rng)
            if entry.startswith("g="):
                print(f"{prefix}-DAG: @{drawn} = {entry[2:]}")
            else:
                print(f"{prefix}-DAG: define {{{{.*}}}}@{drawn}(")
    elif cmd in ("padding", "padding-objdump"):
        # Prefix data of 16 * below(4) bytes of 0xcc, one draw per function
        # in the final order; "=name" draws but cannot be padded (padding) or
        # is not in the disassembled section (padding-objdump).
        module_id, prefix, names = argv[3], argv[4], argv[5:]
        rng = stream(seed, "code-padding", module_id)
        for name in names:
            # "name:A": the function is aligned to A bytes; a unit of padding
            # is max(16, A), and functions aligned beyond 64 are not padded.
            name, _, align = name.partition(":")
            unit = max(16, int(align or 1))
            size = unit * rng.below(4)
            if unit > 64:
                size = 0
            if name.startswith("="):
                continue
            if cmd == "padding-objdump":
                # Exactly `size` int3 between the previous entry and this
                # one's 16-aligned label (alignment fill is nops).
                if size:
                    print(f"{prefix}-COUNT-{size}: int3")
                    print(f"{prefix}-EMPTY:")
                    print(f"{prefix}-NEXT: {{{{^[0-9a-f]*0}}}} <{name}>:")
                else:
                    print(f"{prefix}-NOT: int3")
                    print(f"{prefix}: <{name}>:")
            elif size:
                fill = "\\CC" * size
                print(f'{prefix}: define {{{{.*}}}}@{name}({{{{.*}}}}) {{{{.*}}}}prefix [{size} x i8] c"{fill}" {{')
            else:
                print(f"{prefix}: define {{{{.*}}}}@{name}({{{{[^\\[]*}}}}{{{{$}}}}")
    elif cmd in ("stack", "stack-frame"):
        module_id, prefix = argv[3], argv[4]
        rng = stream(seed, "stack-offset", module_id)
        size = rng.between(0, 4096)
        if cmd == "stack":
            print(f"{prefix}: alloca [{size} x i8], align 16")
        else:
            print(f"{prefix}: Function: main")
            print(f"{prefix}-NOT: Function:")
            print(f"{prefix}: Type: Variable, Align: 16, Size: {size}{{{{$| }}}}")
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)

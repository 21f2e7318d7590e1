# Reads `llvm-nm` output of passes/code-padding-align.ll's object: every aligned
# function's entry is a multiple of the alignment its name says.
import sys
bad = []
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) == 3 and parts[2].startswith("a") and parts[2][1:].isdigit():
        align, addr = int(parts[2][1:]), int(parts[0], 16)
        if addr % align:
            bad.append(f"{parts[2]} at {addr:#x}")
if bad:
    print("misaligned:", ", ".join(bad))
    sys.exit(1)

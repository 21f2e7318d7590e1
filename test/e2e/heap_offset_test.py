#!/usr/bin/env python3
"""The heap start offset factor on real programs through `alea run` (ASLR off):
a C program records sbrk(0), its first small malloc, its first large
(mmap-backed) malloc and a checksum of a computation on them; one execution
writes one line. Five systems build it differently:

- c: dynamic C, factor on: status `applied`; between any two executions, the
  break and the small block move by exactly the difference of the recorded
  offsets, the large block down by the difference of their whole pages;
- c-off: the same program, factor off (`factors = "none"`): status `off`, no
  offset, identical addresses in every execution;
- cxx: C++ (libstdc++'s constructor mallocs before the runtime runs): status
  `applied-late`, the small block moves by the offsets' difference;
- static: `-static`, which LD_PRELOAD cannot reach: status `static`, identical
  addresses;
- own: the program defines malloc itself (an interposed allocator): status
  `own-allocator <the executable>`, and the break still moves by the offsets.

Every execution of every system computes the same checksum. The report's
facts list heap-offset among the factors.

Usage: heap_offset_test.py BUILD_DIR SOURCE_DIR"""
import os
import sqlite3
import sys
import tempfile

from e2e_common import FAILURES, alea, check, finish, run, write

HEAP_C = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef __cplusplus
#define ALLOC(n) (new unsigned char[n]) /* libstdc++ is linked and initialized */
#else
#define ALLOC(n) ((unsigned char *)malloc(n))
#endif
int main(int argc, char **argv) {
  void *brk0 = sbrk(0);
  unsigned char *small = ALLOC(24);
  unsigned char *large = ALLOC(1 << 20);
  uint64_t sum = 1469598103934665603ull;
  for (unsigned i = 0; i < 24; ++i)
    small[i] = (unsigned char)(i * 7 + 1);
  for (unsigned i = 0; i < (1u << 20); ++i)
    large[i] = (unsigned char)((i * 2654435761u) >> 13);
  for (unsigned i = 0; i < (1u << 20); ++i) {
    sum ^= (uint64_t)(large[i] ^ small[i % 24]);
    sum *= 1099511628211ull;
  }
  FILE *f = fopen(argv[1], "w");
  if (!f)
    return 2;
  fprintf(f, "%llu %llu %llu %016llx\n", (unsigned long long)(uintptr_t)brk0,
          (unsigned long long)(uintptr_t)small, (unsigned long long)(uintptr_t)large,
          (unsigned long long)sum);
  return fclose(f) != 0;
}
"""

# An allocator of the program's own: a bump allocator over a static array,
# interposing glibc's malloc family (free does nothing).
OWN_C = r"""
#include <stddef.h>
#include <string.h>
static _Alignas(16) unsigned char arena[16 << 20];
static size_t used;
void *malloc(size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (n > sizeof arena - used)
    return NULL;
  void *p = arena + used;
  used += n;
  return p;
}
void free(void *p) { (void)p; }
void *calloc(size_t a, size_t b) { return malloc(a * b); } /* the arena starts zeroed */
void *realloc(void *p, size_t n) {
  unsigned char *q = malloc(n);
  if (q && p) {
    size_t room = (size_t)(arena + sizeof arena - (unsigned char *)p);
    memcpy(q, p, n < room ? n : room);
  }
  return q;
}
#include "heap.c"
"""

CAMPAIGN = """
[campaign]
seed = 20251124
aslr = "off"
factors = ["heap-offset"]

[levels]
builds = 2
executions = {executions}

[[system]]
name = "c"
baseline = true
build = ["cc", "-O1", "-o", "prog", "{{source_dir}}/heap.c"]
artifacts = ["prog"]

[[system]]
name = "c-off"
factors = "none"
build = ["cc", "-O1", "-o", "prog", "{{source_dir}}/heap.c"]
artifacts = ["prog"]

[[system]]
name = "cxx"
build = ["c++", "-O1", "-x", "c++", "-o", "prog", "{{source_dir}}/heap.c"]
artifacts = ["prog"]

[[system]]
name = "static"
build = ["cc", "-O1", "-static", "-o", "prog", "{{source_dir}}/heap.c"]
artifacts = ["prog"]

[[system]]
name = "own"
build = ["cc", "-O1", "-o", "prog", "{{source_dir}}/own.c"]
artifacts = ["prog"]

[[benchmark]]
name = "addresses"
command = ["{{artifact:prog}}", "{{campaign_dir}}/out-{{system}}-{{build_index}}-{{execution_index}}.txt"]
"""

BUILDS, EXECUTIONS = 2, 4
PAGE = os.sysconf("SC_PAGE_SIZE")


def pairs(rows):
    """Every pair of executions of one system (rows: offset, brk, small, large)."""
    return [(a, b) for i, a in enumerate(rows) for b in rows[i + 1:]]


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-heap-") as tmp:
        write(os.path.join(tmp, "heap.c"), HEAP_C)
        write(os.path.join(tmp, "own.c"), OWN_C)
        toml = write(os.path.join(tmp, "c.toml"), CAMPAIGN.format(executions=EXECUTIONS))
        out = os.path.join(tmp, "out")
        r = run([exe, "run", toml, "--dir", out], timeout=600)
        check(r.returncode == 0, f"alea run exited {r.returncode}: {r.stderr}")
        con = sqlite3.connect(os.path.join(out, "campaign.db"))
        rows = con.execute(
            "SELECT s.name, bu.build_index, e.execution_index, e.heap_offset, e.heap_status, e.status, "
            "e.environment FROM execution e JOIN build bu ON bu.id = e.build_id "
            "JOIN system s ON s.id = bu.system_id ORDER BY s.name, bu.build_index, e.execution_index").fetchall()
        con.close()
        by = {}
        for system, build, index, offset, status, run_status, env in rows:
            check(run_status == "ok", f"{system} #{index}: execution status {run_status}")
            try:
                with open(os.path.join(out, f"out-{system}-{build}-{index}.txt")) as f:
                    brk, small, large, sum_ = f.read().split()
            except (OSError, ValueError) as e:
                check(False, f"{system} #{index}: no output line: {e}")
                continue
            by.setdefault(system, []).append(
                dict(offset=offset, status=status, env=env or "", brk=int(brk),
                     small=int(small), large=int(large), sum=sum_))
        check(sorted(by) == ["c", "c-off", "cxx", "own", "static"] and
              all(len(v) == BUILDS * EXECUTIONS for v in by.values()),
              f"every system ran {BUILDS * EXECUTIONS} times: {[(k, len(v)) for k, v in by.items()]}")
        if FAILURES:
            finish("")  # exits: the checks below need every execution's line

        sums = {e["sum"] for v in by.values() for e in v}
        check(len(sums) == 1, f"program output differs across executions and systems: {sums}")

        # Factor on: drawn offsets, multiples of 16 below 64 KiB, and not all equal.
        for system in ("c", "cxx", "static", "own"):
            offsets = [e["offset"] for e in by[system]]
            check(all(o is not None and 0 <= o < 65536 and o % 16 == 0 for o in offsets),
                  f"{system}: recorded offsets {offsets}")
            check(len(set(offsets)) > 1, f"{system}: the offset never varied: {offsets}")
            check(all(f"ALEA_HEAP_OFFSET=<{e['offset']} bytes>" in e["env"] for e in by[system]),
                  f"{system}: the environment record lacks ALEA_HEAP_OFFSET")

        c = by["c"]
        check(all(e["status"] == "applied" for e in c), f"c: statuses {[e['status'] for e in c]}")
        for a, b in pairs(c):
            d = a["offset"] - b["offset"]
            pages = a["offset"] // PAGE * PAGE - b["offset"] // PAGE * PAGE
            check(a["brk"] - b["brk"] == d,
                  f"c: break moved by {a['brk'] - b['brk']}, offsets differ by {d}")
            check(a["small"] - b["small"] == d,
                  f"c: small block moved by {a['small'] - b['small']}, offsets differ by {d}")
            check(b["large"] - a["large"] == pages,
                  f"c: large block moved by {b['large'] - a['large']}, whole pages differ "
                  f"by {pages}")

        for system in ("c-off", "static"):
            v = by[system]
            expected = "off" if system == "c-off" else "static"
            check(all(e["status"] == expected for e in v),
                  f"{system}: statuses {[e['status'] for e in v]}")
            check(len({(e["brk"], e["small"], e["large"]) for e in v}) == 1,
                  f"{system}: addresses differ across executions")
        check(all(e["offset"] is None for e in by["c-off"]), "c-off: an offset was recorded")

        cxx = by["cxx"]
        check(all(e["status"] == "applied-late" for e in cxx),
              f"cxx: statuses {[e['status'] for e in cxx]}")
        for a, b in pairs(cxx):
            d = a["offset"] - b["offset"]
            check(a["small"] - b["small"] == d,
                  f"cxx: small block moved by {a['small'] - b['small']}, offsets differ by {d}")

        own = by["own"]
        check(all(e["status"].startswith("own-allocator ") for e in own),
              f"own: statuses {[e['status'] for e in own]}")
        for a, b in pairs(own):
            d = a["offset"] - b["offset"]
            check(a["brk"] - b["brk"] == d,
                  f"own: break moved by {a['brk'] - b['brk']}, offsets differ by {d}")

        # The campaign's facts (the HTML report's table) list the factors.
        report = run([exe, "report", out, "--format", "html"])
        check(report.returncode == 0, f"alea report exited {report.returncode}: {report.stderr}")
        row = "<tr><th>factors</th><td>heap-offset</td></tr>"
        check(row in report.stdout, f"the report's facts lack {row}")
    finish("heap addresses moved by exactly the recorded offsets (applied, applied-late, "
           "own allocator), stayed put when off and for a static program; same output everywhere")


if __name__ == "__main__":
    main()

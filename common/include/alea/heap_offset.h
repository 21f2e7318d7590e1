/* The heap start offset factor's contract (docs/campaign.md "Heap start
 * offset"), shared by the runner, which draws the offset and reads the report,
 * and libalea_heap.so, the C runtime preloaded into each execution that
 * applies it. Plain C macros: the runtime is C without libstdc++, and
 * alea/contract.hpp includes this file so that every name has one definition. */
#ifndef ALEA_HEAP_OFFSET_H
#define ALEA_HEAP_OFFSET_H

/* The factor's name in the campaign file's `factors` lists and the salt of its
 * seed stream: mixSeed(build seed, "heap-offset/<execution index>"). */
#define ALEA_HEAP_OFFSET_FACTOR "heap-offset"

/* The offset in bytes, decimal (the runner writes 7 digits, zero-padded, so
 * that the environment's size does not depend on the offset). */
#define ALEA_HEAP_OFFSET_VARIABLE "ALEA_HEAP_OFFSET"
/* A file the runner created; each process that loads the runtime appends one
 * line to it: a status word, optionally a blank and a detail. */
#define ALEA_HEAP_REPORT_VARIABLE "ALEA_HEAP_REPORT"

/* Offsets are multiples of the step in [0, limit): malloc's alignment on
 * 64-bit glibc, and 4096 distinct offsets. */
#define ALEA_HEAP_OFFSET_STEP 16
#define ALEA_HEAP_OFFSET_LIMIT 65536

/* The status words of an execution's record (the store's heap_status). The
 * runtime reports the first four, the runner decides the others. */
#define ALEA_HEAP_APPLIED "applied"           /* break and first mapping moved before any malloc */
#define ALEA_HEAP_APPLIED_LATE "applied-late" /* a library's constructor had malloc'ed first */
#define ALEA_HEAP_OWN_ALLOCATOR "own-allocator" /* malloc is not glibc's; detail: its object */
#define ALEA_HEAP_FAILED "failed"               /* detail: why */
#define ALEA_HEAP_OFF "off"                     /* the factor is switched off */
#define ALEA_HEAP_STATIC "static"               /* a static executable: nothing is preloaded */
#define ALEA_HEAP_NOT_LOADED "not-loaded"       /* no process reported (set-user-ID, ...) */

#endif

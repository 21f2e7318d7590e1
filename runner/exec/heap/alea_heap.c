/* libalea_heap.so, the heap start offset factor (DESIGN.md's factor table;
 * docs/campaign.md "Heap start offset"). The runner preloads it into every
 * execution with ALEA_HEAP_OFFSET=<bytes>; its constructor, run once before
 * main, moves where glibc's malloc puts its first blocks by that many bytes and
 * appends what it did to the file named by ALEA_HEAP_REPORT. After start-up it
 * costs nothing: it interposes no function, and the blocks it leaves are
 * ordinary leaked memory. C, linked only against libc: it is loaded into every
 * program, C++ or not, and must not bring a C++ runtime along.
 *
 * What moves (glibc 2.36, checked by test/e2e/heap_offset_test.py):
 * - The main arena (every block below the mmap threshold, 128 KiB): when no
 *   malloc has run yet, sbrk(offset) moves the program break, and malloc's
 *   first block lands `offset` bytes later. When a library's constructor ran
 *   malloc first (libstdc++'s emergency exception pool), the arena already
 *   exists: a leaked block of offset + 32 bytes (32: the smallest block malloc
 *   hands out, so that offset 0 is possible too) moves every later block.
 * - mmap-backed blocks (128 KiB and more): PROT_NONE reservations of the
 *   offset's whole pages, at the top of every gap where the kernel could put
 *   such a mapping, move the next ones down by that many pages. Sub-page parts
 *   cannot move there (mmap is page-granular, and glibc's mmapped blocks start
 *   16 bytes into a page).
 * - Not moved: thread arenas (glibc aligns their 64 MiB heaps), the stack.
 */
#define _GNU_SOURCE
#include "alea/heap_offset.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The smallest mapping glibc's malloc makes for one block (its default mmap
 * threshold): the reservation goes where a mapping of this size would go. */
#define MMAP_BLOCK_MIN (128 * 1024)
/* The smallest chunk glibc's malloc hands out on 64-bit (MINSIZE), and the
 * chunk header a request is rounded up with (SIZE_SZ). */
#define CHUNK_MIN 32
#define CHUNK_HEADER 8

/* Appends "<status>[ <detail>]\n" to the report file with one write, so that
 * lines of concurrent processes (a shell and its children) do not mix. The
 * runner created the file: it is never created here. */
static void report(const char *status, const char *detail) {
  const char *path = getenv(ALEA_HEAP_REPORT_VARIABLE);
  if (!path || !*path)
    return;
  char line[512];
  size_t n = 0, len = strlen(status);
  memcpy(line, status, len);
  n = len;
  if (detail && *detail) {
    line[n++] = ' ';
    len = strlen(detail);
    if (len > sizeof line - n - 1)
      len = sizeof line - n - 1;
    memcpy(line + n, detail, len);
    n += len;
    for (size_t i = 0; i < n; ++i)
      if (line[i] == '\n')
        line[i] = ' ';
  }
  line[n++] = '\n';
  int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0)
    return;
  ssize_t written = write(fd, line, n);
  (void)written;
  close(fd);
}

/* Decimal digits only, below the limit: anything else is refused. */
static int parseOffset(const char *text, size_t *out) {
  size_t value = 0;
  if (!*text)
    return 0;
  for (; *text; ++text) {
    if (*text < '0' || *text > '9')
      return 0;
    value = value * 10 + (size_t)(*text - '0');
    if (value >= ALEA_HEAP_OFFSET_LIMIT)
      return 0;
  }
  *out = value;
  return 1;
}

/* The loaded object whose segments hold `address`. dl_iterate_phdr and not
 * dladdr: dladdr also looks for the nearest symbol, a linear scan of the
 * object's symbol table that costs libc's ~2,000 symbols some 30 us. */
struct Owner {
  uintptr_t address;
  uintptr_t base;
  const char *name;
};

static int findOwner(struct dl_phdr_info *info, size_t size, void *data) {
  struct Owner *owner = data;
  (void)size;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && owner->address - start < ph->p_memsz) {
      owner->base = info->dlpi_addr;
      owner->name = info->dlpi_name;
      return 1;
    }
  }
  return 0;
}

/* The object whose malloc the program calls when it is not glibc's (an
 * allocator linked in or preloaded, or an interposer), else NULL. */
static const char *foreignMalloc(void) {
  struct Owner mallocOwner = {(uintptr_t)dlsym(RTLD_DEFAULT, "malloc"), 0, NULL};
  struct Owner libcOwner = {(uintptr_t)&gnu_get_libc_version, 0, NULL};
  if (!mallocOwner.address || !dl_iterate_phdr(findOwner, &mallocOwner) ||
      !dl_iterate_phdr(findOwner, &libcOwner) || mallocOwner.base == libcOwner.base)
    return NULL;
  /* The main program's name is "" in the list of loaded objects. */
  return mallocOwner.name && *mallocOwner.name ? mallocOwner.name : program_invocation_name;
}

/* A mapping's address range, from /proc/self/maps. */
struct Range {
  unsigned long start, end;
};

/* Reads up to `max` ranges of /proc/self/maps (ascending); -1 if unreadable
 * or longer. Plain read() and a stack buffer: no malloc before the shift. */
static int readMaps(struct Range *ranges, int max) {
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  char buf[4096];
  int count = 0, atLineStart = 1, field = 0;
  unsigned long value = 0;
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) {
      close(fd);
      return n < 0 ? -1 : count;
    }
    for (ssize_t i = 0; i < n; ++i) {
      char c = buf[i];
      if (c == '\n') {
        atLineStart = 1;
        continue;
      }
      if (atLineStart) { /* "start-end perms ...": parse the two hex numbers */
        atLineStart = 0;
        field = 0;
        value = 0;
        if (count == max) {
          close(fd);
          return -1;
        }
      }
      if (field > 1)
        continue;
      int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (digit >= 0) {
        value = value * 16 + (unsigned long)digit;
      } else if (field == 0) { /* '-' */
        ranges[count].start = value;
        value = 0;
        field = 1;
      } else { /* ' ' */
        ranges[count++].end = value;
        field = 2;
      }
    }
  }
}

static int reserve(unsigned long top, size_t bytes) {
  char *at = (char *)(top - bytes);
  void *got = mmap(at, bytes, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (got == MAP_FAILED)
    return 0;
  if (got != at) { /* a kernel before 4.17 takes the address as a hint */
    munmap(got, bytes);
    return 0;
  }
  return 1;
}

/* Moves the next large mappings down by `bytes` (whole pages): a PROT_NONE
 * reservation at the top of every gap where the kernel could put a mapping
 * of an mmapped block (it allocates top-down, in the highest gap that takes
 * it). A probe of the smallest such mapping finds the highest usable gap;
 * every gap below it that can hold a block gets a reservation too, down to
 * the open area (a gap of 1 GiB or more) between the libraries and the heap.
 * A single mmap(NULL, bytes) would land in whatever small gap is highest and
 * move nothing; one reservation alone would move the blocks that fit above
 * it but not larger ones (libstdc++, 2 MiB-aligned, leaves a 576 KiB gap). */
static int reserveAboveLargeMappings(size_t bytes) {
  const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  char *probe = mmap(NULL, MMAP_BLOCK_MIN, PROT_NONE, flags, -1, 0);
  if (probe == MAP_FAILED)
    return bytes == 0;
  munmap(probe, MMAP_BLOCK_MIN);
  const unsigned long ceiling = (unsigned long)probe + MMAP_BLOCK_MIN;
  struct Range ranges[512];
  int count = readMaps(ranges, 512);
  if (count < 2) /* no /proc: the highest gap only */
    return bytes == 0 || reserve(ceiling, bytes);
  int reserved = 0;
  for (int i = count - 1; i > 0; --i) {
    unsigned long bottom = ranges[i - 1].end, top = ranges[i].start;
    if (top > ceiling || top <= bottom || top - bottom < MMAP_BLOCK_MIN + bytes)
      continue;
    if (bytes && !reserve(top, bytes))
      return 0;
    reserved = 1;
    if (top - bottom >= (1ul << 30))
      break;
  }
  return reserved || bytes == 0;
}

__attribute__((constructor)) static void aleaHeapShift(void) {
  const char *text = getenv(ALEA_HEAP_OFFSET_VARIABLE);
  if (!text)
    return; /* loaded without being asked (a user's own LD_PRELOAD) */
  size_t offset = 0;
  if (!parseOffset(text, &offset) || offset % ALEA_HEAP_OFFSET_STEP != 0) {
    report(ALEA_HEAP_FAILED, "ALEA_HEAP_OFFSET is not a multiple of 16 below 65536");
    return;
  }
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  const size_t pages = offset / page * page;
  /* Called for an offset below a page too, reserving nothing: the probe and
   * the read of /proc/self/maps then cost every execution the same, so that
   * a counted or simulated metric (docs/measure.md) does not see which
   * executions drew less than a page (about 59,000 instructions apart). */
  if (!reserveAboveLargeMappings(pages)) {
    report(ALEA_HEAP_FAILED, "cannot reserve the mmap offset");
    return;
  }
  const char *owner = foreignMalloc();
  if (owner) {
    /* Its layout is its own: the break still moves (allocators that use brk
     * start after it), and the record says whose malloc runs. */
    if (offset && sbrk((intptr_t)offset) == (void *)-1) {
      report(ALEA_HEAP_FAILED, "sbrk failed");
      return;
    }
    report(ALEA_HEAP_OWN_ALLOCATOR, owner);
    return;
  }
  struct mallinfo2 info = mallinfo2();
  if (info.arena == 0) {
    /* No block yet: the arena will start at the moved break. sbrk keeps the
     * byte offset (glibc aligns the first chunk to 16 from there). */
    if (offset && sbrk((intptr_t)offset) == (void *)-1) {
      report(ALEA_HEAP_FAILED, "sbrk failed");
      return;
    }
    report(ALEA_HEAP_APPLIED, NULL);
    return;
  }
  /* The arena exists: a leaked chunk of offset + CHUNK_MIN bytes, cut from
   * its top, moves every block cut after it. */
  if (!malloc(offset + CHUNK_MIN - CHUNK_HEADER)) {
    report(ALEA_HEAP_FAILED, "malloc failed");
    return;
  }
  report(ALEA_HEAP_APPLIED_LATE, NULL);
}

/* <alea/iter.h>: per-iteration timing for benchmarks run by alea (C99 and C++,
 * header only, POSIX). A benchmark brackets each timed repetition with
 * alea_iter_begin() / alea_iter_end(); each call takes the clock ALEA_ITER_CLOCK
 * (default CLOCK_MONOTONIC, i.e. wall time; compile with
 * -DALEA_ITER_CLOCK=CLOCK_PROCESS_CPUTIME_ID for the process's CPU time) and
 * writes one fixed-size binary record with a single write(2) to the file
 * descriptor named by the environment variable ALEA_ITER_FD, which `alea run`
 * sets to a pipe it reads (measure.source = "records"). When ALEA_ITER_FD is
 * unset or invalid every call is a no-op, so the program also runs standalone.
 * A program that times itself can call alea_iter_report(ns) instead.
 *
 * In a duet (design = "duet"), alea also sets ALEA_DUET_FD, the descriptor of
 * a barrier: in alea_iter_begin (before its clock is read) and in
 * alea_iter_report (before its record: the self-timed iteration is over, the
 * next starts after the barrier) the program writes a barrier record (kind 4)
 * and blocks until alea sends one byte on ALEA_DUET_FD, which alea does once
 * every partner still running has arrived at the same barrier. Iteration k of
 * each partner thus starts together, and the wait is outside the timed
 * interval. End of file or an error on the descriptor
 * (alea gone) ends the barrier: the program runs on unsynchronized.
 *
 * Record (24 bytes, little-endian; docs/measure.md):
 *   u32 magic 0x54494c41 ("ALIT")  u16 version 1  u16 kind (1 begin, 2 end,
 *   3 duration, 4 barrier)  u64 iteration index  u64 nanoseconds
 * A record is far below PIPE_BUF, so one write(2) is atomic on a pipe.
 */
#ifndef ALEA_ITER_H
#define ALEA_ITER_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One state per program, shared by every translation unit that includes this
 * header (weak definitions, merged by the linker), so an iteration may begin in
 * one file and end in another. fd: -2 = not looked up yet, -1 = disabled. */
#if defined(__GNUC__) || defined(__clang__)
#define ALEA_ITER_SHARED_ __attribute__((weak))
#else
#define ALEA_ITER_SHARED_ static /* then one state per translation unit */
#endif
ALEA_ITER_SHARED_ int alea_iter_fd_ = -2;
ALEA_ITER_SHARED_ uint64_t alea_iter_index_ = 0;
ALEA_ITER_SHARED_ int alea_iter_duet_fd_ = -2;

/* The descriptor named by environment variable `name`, or -1. */
static inline int alea_iter_env_fd_(const char *name) {
  const char *s = getenv(name);
  char *end = 0;
  long fd = s && *s ? strtol(s, &end, 10) : -1;
  return (s && *s && end && *end == '\0' && fd >= 0 && fd < 1 << 20) ? (int)fd : -1;
}

static inline int alea_iter_fd(void) {
  if (alea_iter_fd_ == -2)
    alea_iter_fd_ = alea_iter_env_fd_("ALEA_ITER_FD");
  return alea_iter_fd_;
}

/* The duet's barrier descriptor, or -1 (not a duet, or the barrier ended). */
static inline int alea_iter_duet_fd(void) {
  if (alea_iter_duet_fd_ == -2)
    alea_iter_duet_fd_ = alea_iter_env_fd_("ALEA_DUET_FD");
  return alea_iter_duet_fd_;
}

#ifndef ALEA_ITER_CLOCK
#define ALEA_ITER_CLOCK CLOCK_MONOTONIC
#endif

static inline uint64_t alea_iter_now_ns(void) {
  struct timespec ts;
  clock_gettime(ALEA_ITER_CLOCK, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void alea_iter_put_(unsigned char *p, uint64_t v, int width) {
  int i;
  for (i = 0; i < width; ++i)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* Writes one record; returns 0, or -1 when disabled or the write failed. */
static inline int alea_iter_write(unsigned kind, uint64_t index, uint64_t ns) {
  unsigned char rec[24];
  ssize_t n;
  int fd = alea_iter_fd();
  if (fd < 0)
    return -1;
  alea_iter_put_(rec, 0x54494c41u, 4);
  alea_iter_put_(rec + 4, 1, 2);
  alea_iter_put_(rec + 6, kind, 2);
  alea_iter_put_(rec + 8, index, 8);
  alea_iter_put_(rec + 16, ns, 8);
  do {
    n = write(fd, rec, sizeof rec);
  } while (n < 0 && errno == EINTR);
  return n == (ssize_t)sizeof rec ? 0 : -1;
}

/* A duet's barrier before the next iteration: says "ready" (a kind 4 record)
 * and waits for alea's one-byte release. Any failure ends the barrier for
 * good, never the program. */
static inline void alea_iter_barrier_(void) {
  unsigned char go;
  ssize_t n;
  int fd = alea_iter_duet_fd();
  if (fd < 0 || alea_iter_fd() < 0)
    return;
  if (alea_iter_write(4, alea_iter_index_, alea_iter_now_ns()) != 0) {
    alea_iter_duet_fd_ = -1;
    return;
  }
  do {
    n = read(fd, &go, 1);
  } while (n < 0 && errno == EINTR);
  if (n != 1)
    alea_iter_duet_fd_ = -1;
}

/* Marks the start of the next iteration. */
static inline void alea_iter_begin(void) {
  if (alea_iter_fd() >= 0) {
    alea_iter_barrier_();
    alea_iter_write(1, alea_iter_index_, alea_iter_now_ns());
  }
}

/* Marks the end of the iteration begun last. */
static inline void alea_iter_end(void) {
  if (alea_iter_fd() >= 0)
    alea_iter_write(2, alea_iter_index_, alea_iter_now_ns());
  ++alea_iter_index_;
}

/* Reports one iteration the program timed itself, in nanoseconds (> 0). */
static inline void alea_iter_report(uint64_t ns) {
  if (alea_iter_fd() >= 0) {
    alea_iter_barrier_();
    alea_iter_write(3, alea_iter_index_, ns);
  }
  ++alea_iter_index_;
}

#ifdef __cplusplus
}
#endif

#endif /* ALEA_ITER_H */

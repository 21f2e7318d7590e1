/* A partner of the lock-step duet (test/e2e/duet_sync_test.py): runs
 * ALEA_ITERATIONS iterations through <alea/iter.h> and appends one line per
 * event to the log named by argv[1] ("<role> <pid> <event> <k>", one
 * O_APPEND write each, so the file's order is the order of the events).
 * Built with -DROLE_B it is partner B, whose iteration 0 ends only once
 * partner A has either begun iteration 1 (it ran ahead: no barrier) or sits
 * blocked at the barrier before it (state S after its "arrive 1" line).
 * Without a barrier, A then always begins iteration 1 before B ends 0; with
 * one, never. */
#define _POSIX_C_SOURCE 200809L
#include <alea/iter.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef ROLE_B
#define ROLE "B"
#else
#define ROLE "A"
#endif

static int logfd = -1;

static void note(const char *event, int k) {
  char line[96];
  int n = snprintf(line, sizeof line, "%s %ld %s %d\n", ROLE, (long)getpid(), event, k);
  if (write(logfd, line, (size_t)n) != n)
    exit(70);
}

#ifdef ROLE_B
/* Whether the log has line "A <pid> <event> <k>". */
static int has(const char *log, long pid, const char *event, int k) {
  char line[96];
  snprintf(line, sizeof line, "A %ld %s %d\n", pid, event, k);
  return strstr(log, line) != NULL;
}

/* This block's partner A: the last "A <pid> start" line whose process had
 * not exited before B started (blocks run one after the other, so every
 * earlier block's A had). */
static long blockA(char *log) {
  char mine[48], *own, saved;
  long pid = 0;
  const char *p = log;
  snprintf(mine, sizeof mine, "B %ld start 0\n", (long)getpid());
  if (!(own = strstr(log, mine)))
    return 0;
  while ((p = strstr(p, "A ")) != NULL) {
    long q = 0;
    char event[16];
    int gone;
    if ((p == log || p[-1] == '\n') && sscanf(p, "A %ld %15s", &q, event) == 2 &&
        strcmp(event, "start") == 0) {
      saved = *own;
      *own = 0;
      gone = has(log, q, "exit", 0);
      *own = saved;
      if (!gone)
        pid = q;
    }
    p += 2;
  }
  return pid;
}

static char stateOf(long pid) {
  char path[64], buf[512];
  FILE *f;
  size_t n;
  char *close;
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  if (!(f = fopen(path, "r")))
    return '?';
  n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  close = strrchr(buf, ')');
  return close && close[1] == ' ' ? close[2] : '?';
}

static void waitForA(const char *path) {
  static char log[1 << 16];
  for (;;) {
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(log, 1, sizeof log - 1, f) : 0;
    long a;
    struct timespec pause = {0, 2000000};
    if (f)
      fclose(f);
    log[n] = 0;
    a = blockA(log);
    if (a && (has(log, a, "begin", 1) || (has(log, a, "arrive", 1) && stateOf(a) == 'S')))
      return;
    nanosleep(&pause, 0); /* polling a state, not a synchronisation */
  }
}
#endif

int main(int argc, char **argv) {
  const char *iterations = getenv("ALEA_ITERATIONS");
  int n = iterations ? atoi(iterations) : 3, k;
  volatile unsigned long sink = 0;
  unsigned long i;
  if (argc < 2 || (logfd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT, 0600)) < 0)
    return 64;
  note("start", 0);
  for (k = 0; k < n; ++k) {
    note("arrive", k);
    alea_iter_begin();
    note("begin", k);
    for (i = 0; i < 100000; ++i)
      sink += i;
#ifdef ROLE_B
    if (k == 0)
      waitForA(argv[1]);
#endif
    note("end", k);
    alea_iter_end();
  }
  note("exit", 0);
  return 0;
}

"""What the end-to-end tests of `alea compare` and `alea history` share: a
small C program with two kernels that prints its work (read by the regex
source, so that the outcome does not depend on the machine's speed or load:
the environment padding alea draws per execution moves the value by under
0.3%), and a git repository of it the test makes. Not a test itself."""
import os
import subprocess

from e2e_common import write

PROGRAM = r"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define K1 1000
int main(int argc, char **argv) {
  const char *pad = getenv("ALEA_ENV_PAD");
  double jitter = 1 + 0.0005 * (double)((pad ? strlen(pad) : 0) % 7);
  double work = strcmp(argc > 1 ? argv[1] : "", "k1") == 0 ? K1 : 1000;
  printf("work %.3f\n", work * jitter);
  return 0;
}
"""

MAKEFILE = "bench: bench.c\n\t$(CC) -O2 -o bench bench.c\n"

# The flags that build and run the two kernels and read their work.
COMMANDS = ["--build", "make", "--run", "k1=./bench k1", "--run", "k2=./bench k2",
            "--measure", "regex:work ([0-9.]+)"]


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True,
                          check=True).stdout


def make_repo(repo):
    """A repository at `repo` whose first commit is the program with k1 and
    k2 doing the same work."""
    os.makedirs(repo)
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "test@example.invalid")
    git(repo, "config", "user.name", "test")
    write(os.path.join(repo, "bench.c"), PROGRAM)
    write(os.path.join(repo, "Makefile"), MAKEFILE)
    git(repo, "add", "bench.c", "Makefile")
    git(repo, "commit", "-q", "-m", "two kernels")

/* A benchmark that crashes: one iteration, a message on stderr, then a store
 * through a null pointer (SIGSEGV). */
#include <alea/iter.h>

#include <stdio.h>

int main(void) {
  volatile int *volatile p = 0;
  alea_iter_begin();
  fprintf(stderr, "crash: about to dereference NULL\n");
  *p = 42;
  alea_iter_end();
  return 0;
}

/* A benchmark that prints garbage instead of its "iteration time: X ms"
 * lines (and exits 0), so the regex source finds no iteration. */
#include <stdio.h>

int main(void) {
  for (int i = 0; i < 5; ++i)
    printf("iteration tmie: \x01\x7f%c%c lorem ipsum\n", 'a' + i, 0x80 + i);
  printf("{\"not\": \"what you expected\"\n");
  return 0;
}

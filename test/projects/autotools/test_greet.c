/* make check: C test of libgreet (djb2 of "abc" = ((5381*33+97)*33+98)*33+99). */
#include "greet.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  char *g = greet("alea");
  int ok = g && strcmp(g, "hello, alea") == 0;
  ok = ok && checksum("abc") == ((5381UL * 33 + 97) * 33 + 98) * 33 + 99;
  ok = ok && hypotenuse(3.0, 4.0) == 5.0;
  printf("%s: %s\n", ok ? "PASS" : "FAIL", g ? g : "(null)");
  free(g);
  return ok ? 0 : 1;
}

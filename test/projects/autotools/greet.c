/* libgreet implementation, built as a libtool library through alea-cc. */
#include "config.h"
#include "greet.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prefix(void) { return "hello, "; }

char *greet(const char *name) {
  size_t n = strlen(prefix()) + strlen(name) + 1;
  char *out = malloc(n);
  if (out)
    snprintf(out, n, "%s%s", prefix(), name);
  return out;
}

unsigned long checksum(const char *s) {
  unsigned long h = 5381;
  for (; *s; ++s)
    h = h * 33 + (unsigned char)*s;
  return h;
}

double hypotenuse(double a, double b) { return sqrt(a * a + b * b); }

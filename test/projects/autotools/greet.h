/* libgreet: a few functions with checkable results. */
#ifndef GREET_H
#define GREET_H
#ifdef __cplusplus
extern "C" {
#endif
char *greet(const char *name);     /* "hello, NAME" (malloc'ed) */
unsigned long checksum(const char *s);  /* djb2 hash */
double hypotenuse(double a, double b);
#ifdef __cplusplus
}
#endif
#endif

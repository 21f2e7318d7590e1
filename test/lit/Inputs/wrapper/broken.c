/* Does not compile: the wrapper must return the compiler's status 1. */
int f(void) { return undeclared_name; }

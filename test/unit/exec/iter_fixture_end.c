/* The other translation unit of iter_fixture.c: ends the iteration begun there. */
#include <alea/iter.h>

void fixtureEndIteration(void);

void fixtureEndIteration(void) { alea_iter_end(); }

/* A benchmark that hangs past any timeout (sleeps forever). */
#include <unistd.h>

int main(void) {
  for (;;)
    pause();
}

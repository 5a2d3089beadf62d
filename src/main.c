/* sluice — CLI dispatch: serve | bench | size | explain | simulate | version. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "version") == 0) {
    puts("sluice 0.1.0");
    return 0;
  }
  fprintf(stderr, "usage: sluice serve|version\n");
  return 2;
}

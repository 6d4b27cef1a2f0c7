// A program that prints the file its argument names. wpp runs it sandboxed: without --dir
// it cannot open the file and fails (exit 2, with WASI's "Capabilities insufficient"),
// and wpp says after the run which argument names a file on this machine and which --dir
// would grant it; with --dir . it prints the file and wpp says nothing more.
// RUN: record -o %t.wpp %s sandbox.input
// RUN: record -o %t.wpp --dir . %s sandbox.input
#include <stdio.h>
#include <string.h>
#include <errno.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: sandbox FILE\n");
    return 1;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    fprintf(stderr, "Could not open file %s: %s\n", argv[1], strerror(errno));
    return 2;
  }
  char line[256];
  while (fgets(line, sizeof line, f)) {
    fputs(line, stdout);
  }
  fclose(f);
  return 0;
}

// A program that traps 26 calls deep: wpp prints the trap and the innermost 20 frames,
// each in the program's own byte offsets (not those of the instrumented module it ran)
// with its source line, says how many frames it left out, and exits 134.
// RUN: record -o %t.wpp %s
#include <stdio.h>

volatile int sink;

__attribute__((noinline)) static int check(int n) {
  if (n == 0)
    __builtin_trap();
  return n;
}

__attribute__((noinline)) static int depth(int n) {
  if (n == 0)
    return check(n);
  int r = depth(n - 1);
  sink = r;
  return r + n;
}

int main(int argc, char **argv) {
  (void)argv;
  printf("%d\n", depth(argc + 22));
  return 0;
}

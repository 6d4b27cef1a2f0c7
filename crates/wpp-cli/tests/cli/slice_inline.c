// Slicing by the name of a variable of inlined code, and at a line whose variable gets its
// location only after the line's code. DWARF names a variable of an inlined function only
// through its abstract origin (`s` and `j` of `sum_to`, inlined into `run`); a line's
// variable is looked for on the line's instructions, then right after each run of them,
// and the instruction chosen is named; where it is in a register nowhere there, the lines
// where it is are listed.
//
// RUN: record -o %t.wpp %s
// RUN: twpp build %t.wpp -o %t.twpp
// RUN: slice %t.twpp --module %s --at slice_inline.c:20 --var s --top 3
// RUN: slice %t.twpp --module %s --at slice_inline.c:20 --var j
// RUN: slice %t.twpp --module %s --at slice_inline.c:28 --var y
#include <stdio.h>

__attribute__((noinline)) static int keep(int v) { return v ^ 1; }

static inline __attribute__((always_inline)) int sum_to(int k) {
  int s = 0;
  for (int j = 0; j < k; j++)
    s += keep(j);
  return s;
}

__attribute__((noinline)) static int run(int n) {
  int y = 0;
  for (int i = 0; i < n; i++) {
    y = sum_to(i) % 1000;
    y = keep(y + n);
  }
  return y;
}

int main(int argc, char **argv) {
  printf("%d\n", run(20 + argc));
  return 0;
}

// Slicing by a source variable's name: DWARF says which local holds a variable over
// which code (optimised code keeps it in a register over part of its scope only). A
// parameter by name at its function's line; a variable at an instruction where it is in
// a local; a name that is not in scope, and one with no location there, each say what
// the variables in scope are and where they are.
//
// RUN: record -o %t.wpp %s
// RUN: twpp build %t.wpp -o %t.twpp
// RUN: slice %t.twpp --module %s --at slice_names.c:17 --var x --top 2
// RUN: slice %t.twpp --module %s --at main:0x21d --var total --top 3
// RUN: slice %t.twpp --module %s --at slice_names.c:28 --var nosuch
// RUN: slice %t.twpp --module %s --at slice_names.c:28 --var total
// RUN: slice %t.twpp --module %s --at main:0x21d --var total --algorithm 1 --html %t.html
#include <stdio.h>

__attribute__((noinline)) static int weigh(int x, int w) {
  int scaled = x * w;
  if (scaled > 100)
    scaled = 100;
  return scaled;
}

int main(int argc, char **argv) {
  int total = 0, unused = argc;
  for (int i = 0; i < 10; i++) {
    int item = i * 3 + argc;
    total += weigh(item, i);
  }
  printf("%d %d\n", total, unused);
  return 0;
}

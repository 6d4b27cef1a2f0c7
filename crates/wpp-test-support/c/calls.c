// A small program with the shapes a report draws: a loop calling a function with a
// switch (many blocks), recursion, and a call through a pointer.
#include <stdio.h>

__attribute__((noinline)) static int classify(int x) {
    switch (x % 9) {
    case 0: return 3;
    case 1: return x / 2;
    case 2: return x * 3 + 1;
    case 3: return x ^ 0x55;
    case 4: return x - 7;
    case 5: return x << 2;
    case 6: return (x & 1) ? x + 11 : x - 11;
    default: return x % 5;
    }
}

__attribute__((noinline)) static int fib(int n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static long sum_to(int n) {
    long s = 0;
    for (int i = 0; i < n; i++)
        s += classify(i);
    return s;
}

static long twice(long x) { return 2 * x; }
static long (*volatile scale)(long) = twice;

int main(void) {
    long t = 0;
    for (int r = 0; r < 40; r++)
        t += scale(sum_to(300)) + fib(10 + r % 4);
    printf("%ld\n", t);
    return 0;
}

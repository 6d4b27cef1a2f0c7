/* Agrawal and Horgan's example of dynamic slicing, as Zhang and Gupta give it (Fig. 10). */
static int input[] = {3, -4, 3, -2};
static int pos, out, seen;
__attribute__((noinline)) static int read(void) { return input[pos++]; }
__attribute__((noinline)) static int f1(int x) { return x * 2; }
__attribute__((noinline)) static int f2(int x) { return x + 7; }
__attribute__((noinline)) static int f3(int y) { return y - 1; }
__attribute__((noinline)) static void breakpoint(int z) { seen = z; }
int main(void) {
  int N, I, J, X, Y, Z;
  N = read();          /* 1 */
  I = 1;               /* 2 */
  J = 0;               /* 3 */
  while (I <= N) {     /* 4 */
    X = read();        /* 5 */
    if (X < 0)         /* 6 */
      Y = f1(X);       /* 7 */
    else
      Y = f2(X);       /* 8 */
    Z = f3(Y);         /* 9 */
    out = Z;           /* 10: write Z */
    J = 1;             /* 11 */
    I = I + 1;         /* 12 */
  }
  Z = Z + J;           /* 13 */
  breakpoint(Z);       /* 14 */
  return 0;
}

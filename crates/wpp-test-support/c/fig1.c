/* Scholz & Mehofer, Fig. 1: a branch inside a loop, with definition d1 of x on the left
 * branch (edge 2 -> 4) and d2 on the right (3 -> 4). The run takes the left branch 8 times
 * and then leaves through the right one: d1 reaches node 2 (the left branch) seven times
 * of eight, d2 never; the use after the loop is reached by d2 only. The calls keep the
 * compiler from merging the two stores into one. */
volatile int x;
volatile int trail;

__attribute__((noinline)) static void left(void) { trail = trail + 1; }
__attribute__((noinline)) static void right(void) { trail = trail + 2; }

int main(void) {
    for (int i = 0; i < 9; i++) {
        if (i < 8) {
            x = 1; /* d1 */
            left();
        } else {
            x = 2; /* d2 */
            right();
        }
    }
    return x - 2; /* the use, reached by d2: 0 */
}

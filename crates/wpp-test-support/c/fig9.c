/* Zhang & Gupta, Fig. 9: a load in every iteration (1_Load), a store in 40 of the 100
 * iterations (6_Store) and a second load of the same address in the other 60 (4_Load).
 * Counts of the nodes alone cannot tell whether the store ever comes between the two
 * loads; the run's path can: 4_Load is redundant in all 60 of its executions. */
#include <stdio.h>

volatile int x = 1;     /* the loaded and stored location */
int store_on[100];      /* which iterations store (filled at run time) */

int main(void) {
    int sum = 0;
    for (int i = 0; i < 100; i++)
        store_on[i] = i % 5 >= 3;
    for (int i = 0; i < 100; i++) {
        sum += x;                 /* 1_Load */
        if (store_on[i])
            x = i;                /* 6_Store */
        else
            sum += x;             /* 4_Load */
    }
    printf("%d\n", sum);
    return 0;
}

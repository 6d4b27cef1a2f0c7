/* A program whose hot loop is on a known line: the analyses must report it there. */
#include <stdio.h>

__attribute__((noinline)) static unsigned checksum(const unsigned char *p, unsigned n) {
    unsigned h = 2166136261u;
    for (unsigned i = 0; i < n; i++) {
        h = (h ^ p[i]) * 16777619u; /* HOT LINE */
    }
    return h;
}

int main(void) {
    static unsigned char buf[4096];
    unsigned h = 0;
    for (unsigned round = 0; round < 50; round++) {
        for (unsigned i = 0; i < sizeof buf; i++) {
            buf[i] = (unsigned char)(i * 7 + round);
        }
        h ^= checksum(buf, sizeof buf);
    }
    printf("%08x\n", h);
    return 0;
}

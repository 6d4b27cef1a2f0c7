/* Writes a deterministic test picture as a binary PPM (P6) to stdout.
 *
 *   genppm WIDTH HEIGHT > picture.ppm
 *
 * The picture mixes what JPEG encoders meet in photographs: smooth gradients,
 * hard-edged shapes, fine stripes and low-amplitude noise.  It is built with
 * integer arithmetic only, so every platform writes the same bytes.  Compiled
 * for the build machine by build.sh. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state = 0x9E3779B97F4A7C15ULL;

static unsigned rnd(void) { /* xorshift64* */
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (unsigned)((state * 0x2545F4914F6CDD1DULL) >> 40);
}

static int clamp(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: genppm WIDTH HEIGHT\n"); return 2; }
    int w = atoi(argv[1]), h = atoi(argv[2]);
    if (w <= 0 || h <= 0 || w > 16384 || h > 16384) { fprintf(stderr, "genppm: bad size\n"); return 2; }
    unsigned char *row = malloc((size_t)w * 3);
    if (!row) return 1;
    printf("P6\n%d %d\n255\n", w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            /* gradients */
            int r = x * 255 / w, g = y * 255 / h, b = ((x + y) * 255 / (w + h) + 64) & 255;
            /* a few discs */
            for (int k = 0; k < 6; k++) {
                int cx = (k * 7919 + 1000) % w, cy = (k * 104729 + 500) % h;
                int rad = (w < h ? w : h) / (5 + k);
                long dx = x - cx, dy = y - cy;
                if (dx * dx + dy * dy < (long)rad * rad) {
                    r = (r + 60 * k) & 255; g = 255 - g; b = (b * (k + 1)) & 255;
                }
            }
            /* stripes in one band */
            if (y > h / 2 && y < h / 2 + h / 8 && ((x / 3) & 1)) { r /= 2; g /= 2; b /= 2; }
            /* checkerboard in a corner */
            if (x < w / 6 && y < h / 6 && (((x / 16) ^ (y / 16)) & 1)) { r = 255 - r; b = 255 - b; }
            /* noise */
            int n = (int)(rnd() % 17) - 8;
            row[3 * x] = (unsigned char)clamp(r + n);
            row[3 * x + 1] = (unsigned char)clamp(g + n / 2);
            row[3 * x + 2] = (unsigned char)clamp(b - n);
        }
        fwrite(row, 3, (size_t)w, stdout);
    }
    free(row);
    return fflush(stdout) != 0;
}

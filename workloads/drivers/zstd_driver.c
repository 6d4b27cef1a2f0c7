/* zstd workload driver: stdin -> stdout.
 *
 *   zstd [-1..-22] -c   compress stdin to a zstd frame on stdout (streaming API)
 *   zstd -d             decompress zstd frames from stdin to stdout (streaming API)
 *   zstd [-1..-22] -r   round trip: compress stdin in memory (one-shot API), decompress
 *                       it again, check the result, print sizes and a checksum
 * The default level is 3.  Exit status 0 on success, 1 on any error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define ZSTD_STATIC_LINKING_ONLY
#include "zstd.h"

static void die(const char *msg) {
    fprintf(stderr, "zstd: %s\n", msg);
    exit(1);
}

static void check(size_t r, const char *what) {
    if (ZSTD_isError(r)) {
        fprintf(stderr, "zstd: %s: %s\n", what, ZSTD_getErrorName(r));
        exit(1);
    }
}

static unsigned char *read_all(FILE *f, size_t *len) {
    size_t cap = 1 << 20, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf) die("out of memory");
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) die("out of memory");
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    if (ferror(f)) die("read error");
    *len = n;
    return buf;
}

/* FNV-1a, 64-bit: a checksum that does not depend on zstd itself. */
static unsigned long long fnv1a(const unsigned char *p, size_t n) {
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 1099511628211ULL; }
    return h;
}

static void compress_stream(int level) {
    size_t in_cap = ZSTD_CStreamInSize(), out_cap = ZSTD_CStreamOutSize();
    unsigned char *in = malloc(in_cap), *out = malloc(out_cap);
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    if (!in || !out || !cctx) die("out of memory");
    check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level), "set level");
    check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1), "set checksum");
    for (;;) {
        size_t got = fread(in, 1, in_cap, stdin);
        if (ferror(stdin)) die("read error");
        int last = got < in_cap;
        ZSTD_EndDirective mode = last ? ZSTD_e_end : ZSTD_e_continue;
        ZSTD_inBuffer ib = { in, got, 0 };
        int finished;
        do {
            ZSTD_outBuffer ob = { out, out_cap, 0 };
            size_t remaining = ZSTD_compressStream2(cctx, &ob, &ib, mode);
            check(remaining, "compress");
            if (fwrite(out, 1, ob.pos, stdout) != ob.pos) die("write error");
            finished = last ? (remaining == 0) : (ib.pos == ib.size);
        } while (!finished);
        if (last) break;
    }
    ZSTD_freeCCtx(cctx);
    free(in); free(out);
}

static void decompress_stream(void) {
    size_t in_cap = ZSTD_DStreamInSize(), out_cap = ZSTD_DStreamOutSize();
    unsigned char *in = malloc(in_cap), *out = malloc(out_cap);
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    if (!in || !out || !dctx) die("out of memory");
    size_t last = 0;
    size_t got;
    while ((got = fread(in, 1, in_cap, stdin)) > 0) {
        ZSTD_inBuffer ib = { in, got, 0 };
        while (ib.pos < ib.size) {
            ZSTD_outBuffer ob = { out, out_cap, 0 };
            last = ZSTD_decompressStream(dctx, &ob, &ib);
            check(last, "decompress");
            if (fwrite(out, 1, ob.pos, stdout) != ob.pos) die("write error");
        }
    }
    if (ferror(stdin)) die("read error");
    if (last != 0) die("truncated input");
    ZSTD_freeDCtx(dctx);
    free(in); free(out);
}

static void round_trip(int level) {
    size_t n;
    unsigned char *in = read_all(stdin, &n);
    size_t cap = ZSTD_compressBound(n);
    unsigned char *comp = malloc(cap), *back = malloc(n ? n : 1);
    if (!comp || !back) die("out of memory");
    size_t clen = ZSTD_compress(comp, cap, in, n, level);
    check(clen, "compress");
    unsigned long long content = ZSTD_getFrameContentSize(comp, clen);
    if (content != n) die("bad frame content size");
    size_t blen = ZSTD_decompress(back, n, comp, clen);
    check(blen, "decompress");
    if (blen != n || memcmp(in, back, n) != 0) die("round trip mismatch");
    printf("zstd %s level %d: %zu -> %zu bytes, fnv1a(input) %016llx, fnv1a(compressed) %016llx, round trip ok\n",
           ZSTD_versionString(), level, n, clen, fnv1a(in, n), fnv1a(comp, clen));
    free(in); free(comp); free(back);
}

static void usage(void) {
    fprintf(stderr, "usage: zstd [-1..-22] -c|-d|-r < input\n");
    exit(2);
}

int main(int argc, char **argv) {
    int level = 3;
    char mode = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1] >= '0' && a[1] <= '9') {
            char *end;
            level = (int)strtol(a + 1, &end, 10);
            if (*end || level < 1 || level > ZSTD_maxCLevel()) usage();
        } else if (!strcmp(a, "-c")) mode = 'c';
        else if (!strcmp(a, "-d")) mode = 'd';
        else if (!strcmp(a, "-r")) mode = 'r';
        else usage();
    }
    switch (mode) {
    case 'c': compress_stream(level); break;
    case 'd': decompress_stream(); break;
    case 'r': round_trip(level); break;
    default: usage();
    }
    if (fflush(stdout) != 0) die("write error");
    return 0;
}

/* zlib workload driver: stdin -> stdout.
 *
 *   zlib [-0..-9] -c   compress stdin to a zlib stream on stdout (streaming deflate)
 *   zlib -d            decompress a zlib stream from stdin to stdout (streaming inflate)
 *   zlib [-0..-9] -r   round trip: deflate stdin in memory, inflate it again, check
 *                      that the result is identical, print sizes and checksums
 * The default level is 6.  Exit status 0 on success, 1 on any error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"

#define CHUNK (256 * 1024)

static void die(const char *msg) {
    fprintf(stderr, "zlib: %s\n", msg);
    exit(1);
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

static void compress_stream(int level) {
    static unsigned char in[CHUNK], out[CHUNK];
    z_stream s;
    memset(&s, 0, sizeof s);
    if (deflateInit(&s, level) != Z_OK) die("deflateInit failed");
    int flush;
    do {
        s.avail_in = (uInt)fread(in, 1, CHUNK, stdin);
        if (ferror(stdin)) die("read error");
        flush = feof(stdin) ? Z_FINISH : Z_NO_FLUSH;
        s.next_in = in;
        do {
            s.avail_out = CHUNK;
            s.next_out = out;
            if (deflate(&s, flush) == Z_STREAM_ERROR) die("deflate failed");
            size_t have = CHUNK - s.avail_out;
            if (fwrite(out, 1, have, stdout) != have) die("write error");
        } while (s.avail_out == 0);
    } while (flush != Z_FINISH);
    deflateEnd(&s);
}

static void decompress_stream(void) {
    static unsigned char in[CHUNK], out[CHUNK];
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit(&s) != Z_OK) die("inflateInit failed");
    int ret = Z_OK;
    do {
        s.avail_in = (uInt)fread(in, 1, CHUNK, stdin);
        if (ferror(stdin)) die("read error");
        if (s.avail_in == 0) break;
        s.next_in = in;
        do {
            s.avail_out = CHUNK;
            s.next_out = out;
            ret = inflate(&s, Z_NO_FLUSH);
            if (ret == Z_NEED_DICT || ret == Z_DATA_ERROR || ret == Z_MEM_ERROR || ret == Z_STREAM_ERROR)
                die("corrupt input");
            size_t have = CHUNK - s.avail_out;
            if (fwrite(out, 1, have, stdout) != have) die("write error");
        } while (s.avail_out == 0);
    } while (ret != Z_STREAM_END);
    inflateEnd(&s);
    if (ret != Z_STREAM_END) die("truncated input");
}

static void round_trip(int level) {
    size_t n;
    unsigned char *in = read_all(stdin, &n);
    uLongf clen = compressBound((uLong)n);
    unsigned char *comp = malloc(clen ? clen : 1);
    unsigned char *back = malloc(n ? n : 1);
    if (!comp || !back) die("out of memory");
    if (compress2(comp, &clen, in, (uLong)n, level) != Z_OK) die("compress2 failed");
    uLongf blen = (uLongf)n;
    if (uncompress(back, &blen, comp, clen) != Z_OK) die("uncompress failed");
    if (blen != n || memcmp(in, back, n) != 0) die("round trip mismatch");
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, in, (uInt)n);
    uLong ad = adler32(0L, Z_NULL, 0);
    ad = adler32(ad, comp, (uInt)clen);
    printf("zlib %s level %d: %lu -> %lu bytes, crc32(input) %08lx, adler32(compressed) %08lx, round trip ok\n",
           zlibVersion(), level, (unsigned long)n, (unsigned long)clen, (unsigned long)crc, (unsigned long)ad);
    free(in); free(comp); free(back);
}

int main(int argc, char **argv) {
    int level = 6;
    char mode = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1] >= '0' && a[1] <= '9' && a[2] == 0) level = a[1] - '0';
        else if (!strcmp(a, "-c")) mode = 'c';
        else if (!strcmp(a, "-d")) mode = 'd';
        else if (!strcmp(a, "-r")) mode = 'r';
        else { fprintf(stderr, "usage: zlib [-0..-9] -c|-d|-r < input\n"); return 2; }
    }
    switch (mode) {
    case 'c': compress_stream(level); break;
    case 'd': decompress_stream(); break;
    case 'r': round_trip(level); break;
    default: fprintf(stderr, "usage: zlib [-0..-9] -c|-d|-r < input\n"); return 2;
    }
    if (fflush(stdout) != 0) die("write error");
    return 0;
}

/* PCRE2 workload driver: counts the matches of a fixed set of regular
 * expressions over the text read from stdin (the interpreter, no JIT).
 *
 *   pcre2 [-q] < text
 *
 * For each pattern it prints the number of matches, the total length matched
 * and a checksum of the match offsets.  -q prints only the final totals.
 * Exit status 0 on success, 1 on any error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include "pcre2.h"

static void die(const char *msg) {
    fprintf(stderr, "pcre2: %s\n", msg);
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
    *len = n;
    return buf;
}

struct pattern { const char *re; uint32_t options; };

static const struct pattern patterns[] = {
    { "[A-Za-z_][A-Za-z0-9_]*", 0 },                                /* identifiers */
    { "\\b(?:0x[0-9a-fA-F]+|[0-9]+)[uUlL]*\\b", 0 },                /* integer literals */
    { "\\b(?:if|else|while|for|return|switch|case|break|goto)\\b", 0 }, /* keywords */
    { "sqlite3[A-Z][A-Za-z]+\\s*\\(", 0 },                          /* calls of sqlite3Xxx( */
    { "/\\*.*?\\*/", PCRE2_DOTALL },                                /* block comments */
    { "\"(?:[^\"\\\\\\n]|\\\\.)*\"", 0 },                           /* string literals */
    { "^#\\s*(?:define|ifdef|ifndef|endif|include)\\b.*$", PCRE2_MULTILINE }, /* preprocessor */
    { "\\b(\\w+)\\s*=\\s*\\1\\b", 0 },                              /* x = x (backreference) */
    { "\\b\\w+(?=\\s*\\[)", 0 },                                    /* identifier before [ (lookahead) */
    { "(?i)\\b(?:error|corrupt|malloc|free)\\w*", 0 },              /* case-insensitive words */
    { "\\p{Lu}\\p{Ll}+(?:\\p{Lu}\\p{Ll}+)+", PCRE2_UTF | PCRE2_UCP }, /* CamelCase, Unicode classes */
    { "(?:\\s*\\n){3,}", 0 },                                       /* runs of blank lines */
    { "\\b\\w+ing\\b", PCRE2_CASELESS },                            /* words ending in -ing */
};

int main(int argc, char **argv) {
    int quiet = argc == 2 && !strcmp(argv[1], "-q");
    if (argc > 1 && !quiet) { fprintf(stderr, "usage: pcre2 [-q] < text\n"); return 2; }
    size_t len;
    unsigned char *text = read_all(stdin, &len);
    unsigned long long all_matches = 0, all_bytes = 0, all_sum = 0;

    for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
        int errcode;
        PCRE2_SIZE erroff;
        pcre2_code *re = pcre2_compile((PCRE2_SPTR)patterns[p].re, PCRE2_ZERO_TERMINATED,
                                       patterns[p].options, &errcode, &erroff, NULL);
        if (!re) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(errcode, msg, sizeof msg);
            fprintf(stderr, "pcre2: pattern %zu at offset %zu: %s\n", p, (size_t)erroff, (char *)msg);
            return 1;
        }
        pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
        int utf = (patterns[p].options & PCRE2_UTF) != 0;
        unsigned long long matches = 0, bytes = 0, sum = 0;
        PCRE2_SIZE start = 0;
        /* The first match validates the UTF-8 subject; later calls skip the
         * check, which would otherwise rescan the whole subject each time. */
        uint32_t opts = 0;
        while (start <= len) {
            int rc = pcre2_match(re, text, len, start, opts, md, NULL);
            if (rc == PCRE2_ERROR_NOMATCH) break;
            if (rc < 0) {
                PCRE2_UCHAR msg[256];
                pcre2_get_error_message(rc, msg, sizeof msg);
                fprintf(stderr, "pcre2: match error for pattern %zu: %s\n", p, (char *)msg);
                return 1;
            }
            opts = PCRE2_NO_UTF_CHECK;
            PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
            matches++;
            bytes += ov[1] - ov[0];
            sum = (sum * 31 + ov[0]) % 1000000007ULL;
            if (ov[1] > ov[0]) {
                start = ov[1];
            } else { /* empty match: step over one character */
                start = ov[1] + 1;
                if (utf) while (start < len && (text[start] & 0xc0) == 0x80) start++;
            }
        }
        if (!quiet)
            printf("pattern %2zu: %8llu matches %9llu bytes checksum %10llu  %s\n",
                   p, matches, bytes, sum, patterns[p].re);
        all_matches += matches;
        all_bytes += bytes;
        all_sum = (all_sum * 1000003ULL + sum) % 1000000007ULL;
        pcre2_match_data_free(md);
        pcre2_code_free(re);
    }
    printf("total: %llu matches, %llu bytes, checksum %llu, subject %zu bytes\n",
           all_matches, all_bytes, all_sum, len);
    free(text);
    if (fflush(stdout) != 0) return 1;
    return 0;
}

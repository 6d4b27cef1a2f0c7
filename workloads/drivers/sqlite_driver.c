/* SQLite workload driver: runs the SQL script read from stdin against an
 * in-memory database and prints every result row.
 *
 *   sqlite [-cmd SQL]... < script.sql
 *
 * Each -cmd SQL runs first, in order (like the sqlite3 shell's -cmd); the
 * workload scripts use it to set their size, e.g.
 *   -cmd "CREATE TABLE scale AS SELECT 200000 AS n"
 * Rows are printed as the columns' text values joined by '|' (NULL prints as
 * "NULL"), like the sqlite3 shell's list mode.  Exit status 0 when every
 * statement succeeds; on the first error the message is printed and the
 * status is 1.  SQLite's random numbers come from a fixed seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sqlite3.h"

static char *read_all(FILE *f) {
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) { fprintf(stderr, "sqlite: out of memory\n"); exit(1); }
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
            if (!buf) { fprintf(stderr, "sqlite: out of memory\n"); exit(1); }
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    buf[n] = 0;
    return buf;
}

static long statements = 0, rows = 0;

static void run_sql(sqlite3 *db, const char *sql) {
    const char *tail = sql;
    while (*tail) {
        sqlite3_stmt *stmt = NULL;
        const char *next;
        if (sqlite3_prepare_v2(db, tail, -1, &stmt, &next) != SQLITE_OK) {
            fprintf(stderr, "sqlite: error in statement %ld: %s\n", statements + 1, sqlite3_errmsg(db));
            exit(1);
        }
        tail = next;
        if (!stmt) continue; /* whitespace or comment */
        statements++;
        int rc;
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            int ncol = sqlite3_column_count(stmt);
            for (int i = 0; i < ncol; i++) {
                if (i) putchar('|');
                const unsigned char *v = sqlite3_column_text(stmt, i);
                fputs(v ? (const char *)v : "NULL", stdout);
            }
            putchar('\n');
            rows++;
        }
        if (rc != SQLITE_DONE) {
            fprintf(stderr, "sqlite: error in statement %ld: %s\n", statements, sqlite3_errmsg(db));
            exit(1);
        }
        sqlite3_finalize(stmt);
    }
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i += 2) {
        if (strcmp(argv[i], "-cmd") != 0 || i + 1 >= argc) {
            fprintf(stderr, "usage: sqlite [-cmd SQL]... < script.sql\n");
            return 2;
        }
    }
    char *sql = read_all(stdin);
    /* SQLite seeds its PRNG from the VFS, which on WASI (no /dev/urandom)
     * falls back to the clock; FTS5 draws from it when a connection opens.
     * A fixed seed makes every run do exactly the same work. */
    if (sqlite3_initialize() != SQLITE_OK) { fprintf(stderr, "sqlite: initialize failed\n"); return 1; }
    sqlite3_test_control(SQLITE_TESTCTRL_PRNG_SEED, 42, (sqlite3 *)0);
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        fprintf(stderr, "sqlite: cannot open database: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    for (int i = 1; i + 1 < argc; i += 2) run_sql(db, argv[i + 1]);
    run_sql(db, sql);
    if (sqlite3_close(db) != SQLITE_OK) {
        fprintf(stderr, "sqlite: close failed: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    free(sql);
    if (fflush(stdout) != 0) return 1;
    return 0;
}

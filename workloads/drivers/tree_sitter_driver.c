/* tree-sitter workload driver: parses C source from stdin with the
 * tree-sitter-c grammar, walks the whole syntax tree with a cursor and
 * prints a summary.
 *
 *   tree-sitter-c [-s] < file.c
 *
 * Output: byte count, node counts (all / named / ERROR / MISSING), maximum
 * depth, the twenty most frequent named node types, and the number of
 * function definitions found with a query.  -s also prints the
 * S-expression of the first top-level node.  Exit status 0 on success. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tree_sitter/api.h"

const TSLanguage *tree_sitter_c(void);

static void die(const char *msg) {
    fprintf(stderr, "tree-sitter-c: %s\n", msg);
    exit(1);
}

static char *read_all(FILE *f, size_t *len) {
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
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

struct type_count { const char *name; unsigned long count; };

static int by_count(const void *a, const void *b) {
    const struct type_count *x = a, *y = b;
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    return strcmp(x->name, y->name);
}

int main(int argc, char **argv) {
    int sexp = argc == 2 && !strcmp(argv[1], "-s");
    if (argc > 1 && !sexp) { fprintf(stderr, "usage: tree-sitter-c [-s] < file.c\n"); return 2; }

    size_t len;
    char *src = read_all(stdin, &len);
    const TSLanguage *lang = tree_sitter_c();
    TSParser *parser = ts_parser_new();
    if (!ts_parser_set_language(parser, lang)) die("incompatible language version");
    TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)len);
    if (!tree) die("parse failed");
    TSNode root = ts_tree_root_node(tree);

    uint32_t nsym = ts_language_symbol_count(lang);
    unsigned long *counts = calloc(nsym, sizeof *counts);
    if (!counts) die("out of memory");
    unsigned long total = 0, named = 0, errors = 0, missing = 0;
    unsigned depth = 0, max_depth = 0;

    TSTreeCursor cur = ts_tree_cursor_new(root);
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        total++;
        if (ts_node_is_named(n)) {
            named++;
            TSSymbol sym = ts_node_symbol(n); /* ERROR nodes have symbol 0xffff */
            if (sym < nsym) counts[sym]++;
        }
        if (ts_node_is_error(n)) errors++;
        if (ts_node_is_missing(n)) missing++;
        if (depth > max_depth) max_depth = depth;
        if (ts_tree_cursor_goto_first_child(&cur)) { depth++; continue; }
        while (!ts_tree_cursor_goto_next_sibling(&cur)) {
            if (!ts_tree_cursor_goto_parent(&cur)) goto done;
            depth--;
        }
    }
done:
    ts_tree_cursor_delete(&cur);

    printf("bytes %zu\n", len);
    printf("nodes %lu named %lu errors %lu missing %lu max_depth %u\n", total, named, errors, missing, max_depth);
    printf("root %s with %u children, has_error %d\n", ts_node_type(root), ts_node_child_count(root),
           (int)ts_node_has_error(root));

    /* Several symbols can share a name (aliases): merge by name. */
    struct type_count *types = calloc(nsym, sizeof *types);
    size_t ntypes = 0;
    for (uint32_t s = 0; s < nsym; s++) {
        if (!counts[s]) continue;
        const char *name = ts_language_symbol_name(lang, (TSSymbol)s);
        size_t k;
        for (k = 0; k < ntypes && strcmp(types[k].name, name); k++) {}
        if (k == ntypes) { types[ntypes].name = name; types[ntypes].count = 0; ntypes++; }
        types[k].count += counts[s];
    }
    qsort(types, ntypes, sizeof *types, by_count);
    printf("named node types %zu\n", ntypes);
    for (size_t k = 0; k < ntypes && k < 20; k++) printf("  %-28s %lu\n", types[k].name, types[k].count);

    const char *qsrc = "(function_definition declarator: (function_declarator declarator: (identifier) @name))";
    uint32_t err_off;
    TSQueryError err_type;
    TSQuery *q = ts_query_new(lang, qsrc, (uint32_t)strlen(qsrc), &err_off, &err_type);
    if (!q) die("bad query");
    TSQueryCursor *qc = ts_query_cursor_new();
    ts_query_cursor_exec(qc, q, root);
    TSQueryMatch m;
    unsigned long functions = 0, name_bytes = 0;
    while (ts_query_cursor_next_match(qc, &m)) {
        for (uint16_t i = 0; i < m.capture_count; i++) {
            TSNode n = m.captures[i].node;
            name_bytes += ts_node_end_byte(n) - ts_node_start_byte(n);
        }
        functions++;
    }
    printf("function definitions %lu (name bytes %lu)\n", functions, name_bytes);
    ts_query_cursor_delete(qc);
    ts_query_delete(q);

    if (sexp && ts_node_named_child_count(root) > 0) {
        char *s = ts_node_string(ts_node_named_child(root, 0));
        printf("%s\n", s);
        free(s);
    }

    free(types);
    free(counts);
    ts_tree_delete(tree);
    ts_parser_delete(parser);
    free(src);
    if (fflush(stdout) != 0) return 1;
    return 0;
}

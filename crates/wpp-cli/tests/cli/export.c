// Exports for other tools' viewers: lcov coverage (lines, functions, branches) and the
// speedscope document of the calls, of a whole program path and of counts alone (which
// know no branch taken at a loop's back edge, and no calls); and the options' errors.
// The expected output is clang 14's with wasi-libc: another compiler lays the module out otherwise.
// RUN: record -o %t.wpp %s
// RUN: export %t.wpp --lcov %t.info --speedscope %t.json
// RUN: record --mode paths -o %t.counts.wpp %s
// RUN: export %t.counts.wpp --lcov %t.counts.info --speedscope %t.counts.json
// RUN: export %t.wpp --parquet %t.tables --tables paths,nosuch
// RUN: export %t.wpp --label field
// RUN: export %t.wpp --json --lcov %t.info

int table[64];

__attribute__((noinline)) static int weigh(int i) {
    int w = table[i] * 7;
    if (i % 3 == 0)
        w += table[i] / 3;
    return w;
}

__attribute__((noinline)) static void fill(int n) {
    for (int i = 0; i < n; i++)
        table[i] = i * i % 17;
}

__attribute__((noinline)) static int unused(int i) {
    return i > 5 ? i * 2 : i;
}

int main(int argc, char **argv) {
    int total = 0;
    fill(64);
    for (int i = 0; i < 60; i++)
        total += weigh(i);
    if (argc > 5)
        total += unused(argc);
    return total == 1234567;
}

// Source lines from DWARF (`clang -g`): reports show source lines, data flow commands take FILE:LINE.
// A loop over an array calling a function with a branch (a store for odd elements), and Zhang &
// Gupta's Fig. 9 on the global `x`: loaded every iteration (line 38), stored where the element is
// at least 3 (line 40), loaded again on the others (line 42), redundant every time (the first is
// not, after `step` stored to `odd[i]`, which may be `x`). Places that name no load are errors.
// The expected output is clang 14's with wasi-libc: another compiler lays the module out otherwise.
// RUN: record -o %t.wpp %s
// RUN: paths %t.wpp --top 6
// RUN: paths %t.wpp --func step
// RUN: hot %t.wpp --max-len 3 --min-cost 100 --top 3
// RUN: twpp build %t.wpp -o %t.twpp
// RUN: trace %t.twpp --func step --top 2
// RUN: dataflow redundancy %t.twpp --module %s --load source_lines.c:42
// RUN: dataflow redundancy %t.twpp --module %s --load source_lines.c:999
// RUN: dataflow redundancy %t.twpp --module %s --load nosuch.c:7
// RUN: dataflow redundancy %t.twpp --module %s --func step --load source_lines.c:42
// RUN: dataflow redundancy %t.twpp --module %s --func __original_main --top 2
// RUN: dataflow reaching %t.twpp --module %s --func __original_main --at source_lines.c:42 --local 2
// RUN: dff %t.wpp --module %s --func __original_main --at source_lines.c:38
// RUN: dff %t.wpp --module %s --func __original_main --problem available-loads
// RUN: report %t.wpp -o %t.html --dot %t.no-dot

volatile int x = 1;
int table[32];
int odd[32];

__attribute__((noinline)) static int step(int i) {
    if (table[i] & 1)
        odd[i] = i * 3;
    return i - 1;
}

int main(void) {
    int sum = 0;
    for (int i = 0; i < 32; i++)
        table[i] = i % 5;
    for (int i = 0; i < 32; i++) {
        sum += x;
        if (table[i] >= 3)
            x = i;
        else
            sum += x;
        sum += step(i);
    }
    return sum == 12345;
}

// Source lines with their counts (`wpp annotate`) and the function table (`wpp functions`):
// a loop calling a function whose branch is taken on a third of the calls, a function
// called once with a loop of its own, and a statement over two lines; the paths by
// instructions. The source is beside the module in the scratch directory, where its DWARF
// name finds it, so annotate shows its text. Names that name nothing are errors.
// The expected output is clang 14's with wasi-libc: another compiler lays the module out otherwise.
// RUN: record -o %t.wpp %s
// RUN: functions %t.wpp
// RUN: functions %t.wpp --sort name
// RUN: functions %t.wpp --sort paths --top 2
// RUN: paths %t.wpp --sort instructions --top 5
// RUN: paths %t.wpp --func weigh --sort instructions
// RUN: annotate %t.wpp
// RUN: annotate %t.wpp --func weigh
// RUN: annotate %t.wpp annotate.c
// RUN: annotate %t.wpp --func nosuch
// RUN: annotate %t.wpp nosuch.c
// RUN: annotate %t.wpp --func 0

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

int main(void) {
    int total = 0;
    fill(64);
    for (int i = 0; i < 60; i++) {
        total += weigh(i)
               + (i & 1);
    }
    return total == 1234567;
}

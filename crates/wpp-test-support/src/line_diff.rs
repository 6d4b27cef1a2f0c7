//! A line diff of an expected text and an actual one, for the tests that compare output
//! with files checked in beside them (`BLESS=1` rewrites those): the differing lines as
//! `-` (expected) and `+` (actual) lines, in hunks with a few unchanged lines around them.

use std::fmt::Write as _;

/// Lines of unchanged context around a difference.
const CONTEXT: usize = 3;

/// Lines of a difference shown at most.
const SHOWN: usize = 60;

/// The differing lines of `expected` and `actual` as `-` and `+` lines, in hunks with
/// [`CONTEXT`] unchanged lines around them, at most [`SHOWN`] lines in all.
pub fn line_diff(expected: &str, actual: &str) -> String {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = actual.lines().collect();
    let ops = diff(&old, &new);
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| !matches!(ops[k], Op::Same(..))).collect();
    let near = |k: usize| changed.iter().any(|&c| c.abs_diff(k) <= CONTEXT);
    let mut s = String::new();
    let mut shown = 0;
    let mut in_hunk = false;
    for (k, op) in ops.iter().enumerate() {
        if !near(k) {
            in_hunk = false;
            continue;
        }
        if shown == SHOWN {
            writeln!(s, "... (more differences follow)").unwrap();
            break;
        }
        if !in_hunk {
            let (i, j) = op.position();
            writeln!(s, "@@ expected line {}, actual line {} @@", i + 1, j + 1).unwrap();
            in_hunk = true;
        }
        match *op {
            Op::Same(i, _) => writeln!(s, "  {}", old[i]),
            Op::Delete(i, _) => writeln!(s, "- {}", old[i]),
            Op::Insert(_, j) => writeln!(s, "+ {}", new[j]),
        }
        .unwrap();
        shown += 1;
    }
    if changed.is_empty() {
        writeln!(s, "(the lines are equal; the files differ in line endings)").unwrap();
    }
    s
}

/// One step of a line diff, with the positions in both files it is at.
enum Op {
    Same(usize, usize),
    Delete(usize, usize),
    Insert(usize, usize),
}

impl Op {
    fn position(&self) -> (usize, usize) {
        match *self {
            Op::Same(i, j) | Op::Delete(i, j) | Op::Insert(i, j) => (i, j),
        }
    }
}

/// A shortest edit script from `old` to `new`: common prefix and suffix, and a longest
/// common subsequence of the lines between (or all of them replaced when that region is
/// too large for the quadratic table).
fn diff(old: &[&str], new: &[&str]) -> Vec<Op> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..].iter().rev().zip(new[prefix..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (a, b) = (&old[prefix..old.len() - suffix], &new[prefix..new.len() - suffix]);
    let mut ops: Vec<Op> = (0..prefix).map(|i| Op::Same(i, i)).collect();
    if a.len() * b.len() <= 4_000_000 {
        // lcs[i][j]: length of a longest common subsequence of a[i..] and b[j..].
        let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            if i < a.len() && j < b.len() && a[i] == b[j] {
                ops.push(Op::Same(prefix + i, prefix + j));
                (i, j) = (i + 1, j + 1);
            } else if j == b.len() || (i < a.len() && lcs[i + 1][j] >= lcs[i][j + 1]) {
                ops.push(Op::Delete(prefix + i, prefix + j));
                i += 1;
            } else {
                ops.push(Op::Insert(prefix + i, prefix + j));
                j += 1;
            }
        }
    } else {
        ops.extend((0..a.len()).map(|i| Op::Delete(prefix + i, prefix)));
        ops.extend((0..b.len()).map(|j| Op::Insert(prefix + a.len(), prefix + j)));
    }
    ops.extend((0..suffix).map(|k| Op::Same(old.len() - suffix + k, new.len() - suffix + k)));
    ops
}

#[cfg(test)]
mod tests {
    use super::line_diff;

    #[test]
    fn a_changed_line_is_shown_with_its_context() {
        let d = line_diff("a\nb\nc\n", "a\nx\nc\n");
        assert_eq!(d, "@@ expected line 1, actual line 1 @@\n  a\n- b\n+ x\n  c\n");
    }

    #[test]
    fn an_inserted_line_is_only_an_insertion() {
        let d = line_diff("a\nc\n", "a\nb\nc\n");
        assert_eq!(d, "@@ expected line 1, actual line 1 @@\n  a\n+ b\n  c\n");
    }
}

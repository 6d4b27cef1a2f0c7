//! Source lines with their executions and instructions (`wpp annotate`, and the counts
//! beside the HTML report's source lines), from the path counts alone.
//!
//! A block runs once per run of every path through it ([`crate::heat::block_counts`]),
//! and executes its instructions each time. The profile keeps each block's source lines
//! as a range, `FILE:FIRST-LAST` (the least and greatest line of its instructions in the
//! file of its first one), not the line of each instruction, so a block's counts go to
//! lines by one rule, [`block_lines`]: a block on one line counts there; a block on a few
//! lines, at most [`SPREAD`] apart, counts on each of them; a block whose lines lie
//! further apart (code inlined from elsewhere in the file, tails merged by the optimiser)
//! counts on its first and last line only, which certainly hold its code, rather than on
//! the many lines between that likely do not. Each line the block counts on gets all its
//! executions and an even share of its instructions (the first lines one more when they
//! do not divide), so the lines' instructions add up to the blocks'.
//!
//! A block whose instructions all have line 0 (code the compiler could not place on a
//! line: spills, merged tails, the dispatch of a switch) counts on the line before it, as
//! `perf annotate` and `llvm-cov` place such code: the last line of the nearest block
//! before it in the function that has one ([`block_line`]). The annotation says how many
//! instructions were placed that way.

use std::collections::BTreeMap;

use serde::Serialize;
use wpp_model::{BlockIdx, FuncIdx, LineRange};
use wpp_profile::Profile;

use crate::heat::program_block_counts;
use crate::Error;

/// The widest range of lines, last − first, on whose every line a block counts.
pub const SPREAD: u32 = 8;

/// The lines a block on `r` counts on, in order (see the module documentation).
pub fn block_lines(r: LineRange) -> Vec<u32> {
    if r.last - r.first <= SPREAD {
        (r.first..=r.last).collect()
    } else {
        vec![r.first, r.last]
    }
}

/// The source lines block `b` of `f` counts on: its own, or, for a block without a line
/// (line 0), the last line of the nearest block before it in the function that has one
/// (`true`: placed so). `None` when no block up to it has a line.
pub fn block_line(map: &wpp_model::SourceMap, f: FuncIdx, b: BlockIdx) -> Option<(LineRange, bool)> {
    if let Some(r) = map.block(f, b) {
        return Some((r, false));
    }
    (0..b.0).rev().find_map(|before| map.block(f, BlockIdx(before))).map(|r| (LineRange { file: r.file, first: r.last, last: r.last }, true))
}

/// What ran on one source line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LineCount {
    /// Executions of the blocks that count on the line.
    pub executions: u64,
    /// The line's share of those blocks' instructions, times their executions.
    pub instructions: u64,
}

/// Counts per (file, line) of blocks given as (line range, instructions per execution,
/// executions); every line a block counts on is present, also when it never ran.
pub fn line_counts(blocks: impl IntoIterator<Item = (LineRange, u32, u64)>) -> BTreeMap<(u32, u32), LineCount> {
    let mut out: BTreeMap<(u32, u32), LineCount> = BTreeMap::new();
    for (r, n_instrs, executions) in blocks {
        let lines = block_lines(r);
        let (k, n) = (lines.len() as u64, u64::from(n_instrs));
        for (i, line) in lines.into_iter().enumerate() {
            let share = n / k + u64::from((i as u64) < n % k);
            let c = out.entry((r.file, line)).or_default();
            c.executions = c.executions.saturating_add(executions);
            c.instructions = c.instructions.saturating_add(share.saturating_mul(executions));
        }
    }
    out
}

/// The counts of every source line of the program (empty without source lines).
pub fn program_lines(p: &Profile) -> BTreeMap<(u32, u32), LineCount> {
    let Some(map) = &p.source else { return BTreeMap::new() };
    let counts = program_block_counts(p);
    line_counts(blocks_of(p, &counts, |_, _| true).into_iter().filter_map(|(f, b, n, c)| Some((block_line(map, f, b)?.0, n, c))))
}

/// Every block of `p`'s program that `keep` keeps, as (function, block, instructions per
/// execution, executions), given the executions of every block (`counts`).
fn blocks_of(p: &Profile, counts: &[Vec<u64>], keep: impl Fn(FuncIdx, BlockIdx) -> bool) -> Vec<(FuncIdx, BlockIdx, u32, u64)> {
    let mut out = Vec::new();
    for (i, (f, counts)) in p.meta.functions.iter().zip(counts).enumerate() {
        let func = FuncIdx(i as u32);
        let blocks = f.cfg.as_ref().map_or(&[][..], |c| &c.blocks[..]);
        for (b, (bl, &c)) in blocks.iter().zip(counts).enumerate() {
            let b = BlockIdx(b as u32);
            if keep(func, b) {
                out.push((func, b, bl.n_instrs, c));
            }
        }
    }
    out
}

/// What to annotate.
#[derive(Clone, Copy, Debug)]
pub enum Selection<'a> {
    /// One function's lines (every file they are in).
    Function(FuncIdx),
    /// One source file's lines, named as the DWARF names it or by a suffix of that name
    /// that starts a path component (`lvm.c`, `lua-5.4.9/lvm.c`).
    File(&'a str),
    /// The function that executed the most instructions.
    Hottest,
}

/// One source line of an annotation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineRow {
    /// The file as the DWARF names it.
    pub file: String,
    pub line: u32,
    pub executions: u64,
    pub instructions: u64,
}

/// The counts columns of a line or block in `wpp annotate`'s text: its executions, its
/// instructions and their share of `total`; code that never ran shows its executions, 0,
/// alone, and `None` (a line without code) blank columns.
pub fn counts_columns(counts: Option<(u64, u64)>, total: u64) -> String {
    use crate::format::{group, percent};
    match counts {
        None => format!("{:>14} {:>16} {:>7}", "", "", ""),
        Some((0, _)) => format!("{:>14} {:>16} {:>7}", 0, "", ""),
        Some((executions, instructions)) => format!("{:>14} {:>16} {:>6.2}%", group(executions), group(instructions), percent(instructions, total)),
    }
}

/// One basic block of an annotation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BlockCount {
    pub function: String,
    pub function_index: u32,
    pub block: u32,
    /// Byte offsets of the block in the original module.
    pub start: u32,
    pub end: u32,
    /// Its source lines, `FILE:LINE` or `FILE:FIRST-LAST` (null where none is known).
    pub source: Option<String>,
    /// Whether `source` is the line before the block, the block having none of its own
    /// (line 0).
    pub line_before: bool,
    /// Instructions of one execution.
    pub size: u32,
    pub executions: u64,
    /// `size` × `executions`.
    pub instructions: u64,
}

/// Source lines (or, without them, blocks) of a function or a file with their counts.
///
/// JSON: `{"function", "function_index", "file", "instructions", "run_instructions",
/// "has_lines", "lines": [{"file", "line", "executions", "instructions"}], "blocks":
/// [{"function", "function_index", "block", "start", "end", "source", "line_before",
/// "size", "executions", "instructions"}]}`, every line and block, run or not.
#[derive(Clone, Debug, Serialize)]
pub struct Annotation {
    /// The function annotated (null for a file).
    pub function: Option<String>,
    pub function_index: Option<u32>,
    /// The file annotated, as the DWARF names it (null for a function).
    pub file: Option<String>,
    /// Instructions the annotated blocks executed.
    pub instructions: u64,
    /// Instructions of the whole run.
    pub run_instructions: u64,
    /// Whether the profile has source lines (the module had DWARF); without them `lines`
    /// is empty and `blocks` says where the code is.
    pub has_lines: bool,
    /// Every line the annotated blocks count on, grouped by file (the file with the most
    /// instructions first), in line order.
    pub lines: Vec<LineRow>,
    /// The annotated blocks, by function and block.
    pub blocks: Vec<BlockCount>,
}

impl Annotation {
    /// What is annotated, as the text's first line names it: `F (function N)` (`, the most
    /// instructions` when it was chosen so), or the file.
    pub fn subject(&self, hottest: bool) -> String {
        match (&self.function, self.function_index, &self.file) {
            (Some(f), Some(i), _) => format!("{f} (function {i}{})", if hottest { ", the most instructions" } else { "" }),
            (_, _, Some(file)) => file.clone(),
            _ => String::new(),
        }
    }

    /// The text's first line: the subject, its instructions and share of the run's.
    pub fn headline(&self, hottest: bool) -> String {
        format!(
            "{}: {} instructions, {:.1}% of the run's {}{}; % is of these",
            self.subject(hottest),
            crate::format::group(self.instructions),
            crate::format::percent(self.instructions, self.run_instructions),
            crate::format::group(self.run_instructions),
            if self.blocks.iter().all(|b| b.executions == 0) { " (its code did not run)" } else { "" }
        )
    }

    /// Instructions of the annotated blocks that have no source line (their lines unknown).
    pub fn without_lines(&self) -> u64 {
        self.blocks.iter().filter(|b| b.source.is_none()).map(|b| b.instructions).sum()
    }

    /// Instructions of the annotated blocks counted on the line before them, having no
    /// line of their own.
    pub fn on_line_before(&self) -> u64 {
        self.blocks.iter().filter(|b| b.line_before).map(|b| b.instructions).sum()
    }

    /// The lines by file, in the annotation's order.
    pub fn by_file(&self) -> Vec<(&str, Vec<&LineRow>)> {
        let mut files: Vec<(&str, Vec<&LineRow>)> = Vec::new();
        for l in &self.lines {
            match files.last_mut() {
                Some((f, rows)) if *f == l.file => rows.push(l),
                _ => files.push((&l.file, vec![l])),
            }
        }
        files
    }

    /// The lines that ran, most instructions first (ties by file, then line), each with
    /// its file's position in [`Annotation::by_file`].
    pub fn hottest_lines<'a>(files: &[(&'a str, Vec<&'a LineRow>)]) -> Vec<(usize, &'a LineRow)> {
        let mut hot: Vec<(usize, &LineRow)> =
            files.iter().enumerate().flat_map(|(i, (_, rows))| rows.iter().map(move |r| (i, *r))).filter(|(_, r)| r.instructions > 0).collect();
        hot.sort_by(|x, y| y.1.instructions.cmp(&x.1.instructions).then(x.0.cmp(&y.0)).then(x.1.line.cmp(&y.1.line)));
        hot
    }

    /// The blocks without a source line that ran, most instructions first.
    pub fn lineless_blocks(&self) -> Vec<&BlockCount> {
        let mut lineless: Vec<&BlockCount> = self.blocks.iter().filter(|b| b.source.is_none() && b.instructions > 0).collect();
        lineless.sort_by(|x, y| y.instructions.cmp(&x.instructions).then((x.function_index, x.block).cmp(&(y.function_index, y.block))));
        lineless
    }
}

/// The annotation of what `sel` selects in `p`.
pub fn annotate(p: &Profile, sel: Selection) -> Result<Annotation, Error> {
    let unsuitable = |what: String| Error::Unsuitable { profile: p.path.clone(), what };
    let counts = program_block_counts(p);
    let instrs_of = |f: &[u64], cfg: Option<&wpp_model::Cfg>| -> u64 {
        cfg.map_or(0, |cfg| cfg.blocks.iter().zip(f).map(|(b, &c)| u64::from(b.n_instrs).saturating_mul(c)).fold(0, u64::saturating_add))
    };
    let per_func: Vec<u64> = p.meta.functions.iter().zip(&counts).map(|(f, c)| instrs_of(c, f.cfg.as_ref())).collect();
    let run_instructions = per_func.iter().copied().fold(0, u64::saturating_add);
    let func = match sel {
        Selection::Function(f) => Some(f),
        Selection::Hottest => {
            let hottest = per_func.iter().enumerate().filter(|(_, &n)| n > 0).max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)));
            match hottest {
                Some((f, _)) => Some(FuncIdx(f as u32)),
                None => return Err(unsuitable("no instruction of the program ran: there is nothing to annotate".into())),
            }
        }
        Selection::File(_) => None,
    };
    let file = match sel {
        Selection::File(spec) => Some(select_file(p, spec)?),
        _ => None,
    };
    if let Some(f) = func {
        if p.meta.functions.get(f.idx()).is_none_or(|x| x.cfg.is_none()) {
            return Err(unsuitable(format!("function {} is imported: it has no code in the module to annotate", p.meta.func_name(f))));
        }
    }
    let line_of = |f: FuncIdx, b: BlockIdx| p.source.as_ref().and_then(|m| block_line(m, f, b));
    let keep = |f: FuncIdx, b: BlockIdx| match (func, file) {
        (Some(g), _) => f == g,
        (None, Some(file)) => line_of(f, b).is_some_and(|(r, _)| r.file == file),
        (None, None) => false,
    };
    let mut blocks = Vec::new();
    let mut ranges = Vec::new();
    for (f, b, size, executions) in blocks_of(p, &counts, keep) {
        let cfg_block = &p.meta.functions[f.idx()].cfg.as_ref().expect("a function with blocks").blocks[b.idx()];
        let (range, line_before) = line_of(f, b).map_or((None, false), |(r, before)| (Some(r), before));
        ranges.extend(range.map(|r| (r, size, executions)));
        blocks.push(BlockCount {
            function: p.meta.func_name(f),
            function_index: f.0,
            block: b.0,
            start: cfg_block.start,
            end: cfg_block.end,
            source: range.and_then(|r| p.source.as_ref()?.format(r)),
            line_before,
            size,
            executions,
            instructions: u64::from(size).saturating_mul(executions),
        });
    }
    let instructions = blocks.iter().map(|b| b.instructions).fold(0, u64::saturating_add);
    let counted = line_counts(ranges);
    // Files with the most instructions first.
    let mut by_file: BTreeMap<u32, u64> = BTreeMap::new();
    for (&(file, _), c) in &counted {
        *by_file.entry(file).or_default() += c.instructions;
    }
    let mut files: Vec<(u32, u64)> = by_file.into_iter().collect();
    files.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let name = |file: u32| p.source.as_ref().and_then(|m| m.files.get(file as usize)).cloned().unwrap_or_else(|| "?".into());
    let lines = files
        .iter()
        .flat_map(|&(file, _)| {
            counted.range((file, 0)..=(file, u32::MAX)).map(move |(&(_, line), c)| LineRow {
                file: name(file),
                line,
                executions: c.executions,
                instructions: c.instructions,
            })
        })
        .collect();
    Ok(Annotation {
        function: func.map(|f| p.meta.func_name(f)),
        function_index: func.map(|f| f.0),
        file: file.map(name),
        instructions,
        run_instructions,
        has_lines: p.source.is_some(),
        lines,
        blocks,
    })
}

/// The file of `p`'s source lines that `spec` names: the file of that name, or the one
/// file whose name ends in `/SPEC`, among those some block is on.
fn select_file(p: &Profile, spec: &str) -> Result<u32, Error> {
    let unsuitable = |what: String| Error::Unsuitable { profile: p.path.clone(), what };
    let Some(map) = &p.source else {
        return Err(unsuitable(
            "no source lines (the module was recorded without DWARF line information, e.g. not built with clang -g); annotate a function with --func F".into(),
        ));
    };
    let mut with_blocks: Vec<u32> = map.blocks.iter().flatten().flatten().map(|r| r.file).collect();
    with_blocks.sort_unstable();
    with_blocks.dedup();
    let named = |want: &dyn Fn(&str) -> bool| with_blocks.iter().copied().filter(|&f| map.files.get(f as usize).is_some_and(|n| want(n))).collect::<Vec<u32>>();
    let exact = named(&|n| n == spec);
    let matches = if exact.is_empty() { named(&|n| crate::point::file_matches(n, spec)) } else { exact };
    let list = |files: &[u32]| {
        let mut names: Vec<&str> = files.iter().filter_map(|&f| map.files.get(f as usize).map(String::as_str)).collect();
        names.sort_unstable();
        let more = if names.len() > 12 { format!(" and {} more", names.len() - 12) } else { String::new() };
        names.truncate(12);
        format!("{}{more}", names.join(", "))
    };
    match matches[..] {
        [one] => Ok(one),
        [] if with_blocks.is_empty() => Err(unsuitable(format!("no source file named {spec}: no block of the program has a source line"))),
        [] => Err(unsuitable(format!("no source file named {spec}; the files with code: {}", list(&with_blocks)))),
        _ => Err(unsuitable(format!("{spec} names {} source files: {}; give more of the path", matches.len(), list(&matches)))),
    }
}

/// Lines `lines` (sorted) as the inclusive spans a listing shows: lines closer than `gap`
/// are shown with all the lines between them.
pub fn spans(lines: &[u32], gap: u32) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &l in lines {
        match out.last_mut() {
            Some(last) if l <= last.1.saturating_add(gap) => last.1 = last.1.max(l),
            _ => out.push((l, l)),
        }
    }
    out
}

/// One row of a file's listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed<'a> {
    /// A line, with its counts when code counts on it.
    Line(u32, Option<&'a LineRow>),
    /// Lines left out between two spans.
    Gap,
}

/// The listing of a file's counted lines `rows` (sorted by line): each span of [`spans`]
/// line by line, a gap between spans.
pub fn listing<'a>(rows: &[&'a LineRow], gap: u32) -> Vec<Listed<'a>> {
    let lines: Vec<u32> = rows.iter().map(|r| r.line).collect();
    let mut next = rows.iter().copied().peekable();
    let mut out = Vec::new();
    for (k, (first, last)) in spans(&lines, gap).into_iter().enumerate() {
        if k > 0 {
            out.push(Listed::Gap);
        }
        out.extend((first..=last).map(|n| Listed::Line(n, next.next_if(|r| r.line == n))));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_count_on_their_lines() {
        let r = |first, last| LineRange { file: 0, first, last };
        assert_eq!(block_lines(r(5, 5)), vec![5]);
        assert_eq!(block_lines(r(5, 7)), vec![5, 6, 7]);
        assert_eq!(block_lines(r(5, 5 + SPREAD)).len(), SPREAD as usize + 1);
        assert_eq!(block_lines(r(5, 6 + SPREAD)), vec![5, 6 + SPREAD]);
        // 7 instructions on 3 lines: 3, 2, 2; run twice.
        let c = line_counts([(r(5, 7), 7, 2)]);
        let got: Vec<(u32, u64, u64)> = c.iter().map(|(&(_, l), c)| (l, c.executions, c.instructions)).collect();
        assert_eq!(got, vec![(5, 2, 6), (6, 2, 4), (7, 2, 4)]);
        // A block that never ran still marks its lines.
        assert_eq!(line_counts([(r(9, 9), 4, 0)])[&(0, 9)], LineCount { executions: 0, instructions: 0 });
    }

    #[test]
    fn spans_join_near_lines() {
        assert_eq!(spans(&[], 4), vec![]);
        assert_eq!(spans(&[3, 5, 9, 20, 21], 4), vec![(3, 9), (20, 21)]);
    }
}

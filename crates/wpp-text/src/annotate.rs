//! `wpp annotate`: source lines with their executions and instructions, as `perf
//! annotate` shows them.

use std::io::{self, Write};

use wpp_report::annotate::{counts_columns, listing, Annotation, BlockCount, Listed};
use wpp_report::format::{group, percent};
use wpp_report::SourceText;

/// Lines of code closer than this are listed with the lines between them; further apart,
/// a `⋮` stands for the lines between.
const GAP: u32 = 8;

/// Lines in the summary of the hottest.
const HOTTEST: usize = 10;

/// Blocks without a source line listed at the end.
const LINELESS: usize = 10;

/// The annotation `a` as `wpp annotate` prints it (`hottest`: of the function that executed
/// the most instructions, chosen for the user): the hottest lines, then each file's lines
/// with their counts beside the text `read` finds for the file (or by line number), then
/// the blocks without a source line.
pub fn render(out: &mut dyn Write, a: &Annotation, hottest: bool, read: &dyn Fn(&str) -> Option<SourceText>) -> io::Result<()> {
    writeln!(out, "{}", a.headline(hottest))?;
    let share = |instructions: u64| format!("{:>6.2}%", percent(instructions, a.instructions));
    let row = |executions: u64, instructions: u64| counts_columns(Some((executions, instructions)), a.instructions);
    let blank = counts_columns(None, 0);
    if !a.has_lines {
        writeln!(out, "no source lines in this profile (the module had no DWARF line information): its hottest blocks, then every block by byte offset")?;
        let mut hot: Vec<&BlockCount> = a.blocks.iter().filter(|b| b.instructions > 0).collect();
        hot.sort_by(|x, y| y.instructions.cmp(&x.instructions).then(x.start.cmp(&y.start)));
        writeln!(out, "hottest blocks:")?;
        block_table(out, hot.into_iter().take(HOTTEST), &row)?;
        writeln!(out)?;
        return block_table(out, a.blocks.iter(), &row);
    }
    // The lines of each file, in the annotation's order, with the file's text if it reads.
    let files = a.by_file();
    let sources: Vec<Option<SourceText>> = files.iter().map(|(file, _)| read(file)).collect();
    let text_of = |i: usize, line: u32| sources[i].as_ref()?.line(line);
    let without = a.without_lines();
    let hot = Annotation::hottest_lines(&files);
    if !hot.is_empty() {
        writeln!(out, "hottest lines:")?;
        for &(i, r) in hot.iter().take(HOTTEST) {
            let base = r.file.rsplit('/').next().unwrap_or(&r.file);
            let text = text_of(i, r.line).map(str::trim).unwrap_or("");
            writeln!(out, "{}", format!("{:>16} {}  {base}:{}  {text}", group(r.instructions), share(r.instructions), r.line).trim_end())?;
        }
    }
    let before = a.on_line_before();
    if before > 0 {
        writeln!(out, "{:>16} {}  in blocks with no line of their own (line 0), counted on the line before them", group(before), share(before))?;
    }
    if without > 0 {
        writeln!(out, "{:>16} {}  in blocks without a source line (at the end)", group(without), share(without))?;
    }
    for (i, (file, rows)) in files.iter().enumerate() {
        writeln!(out)?;
        match &sources[i] {
            Some(s) if s.path.as_os_str() != *file => writeln!(out, "{file} (read from {})", s.path.display())?,
            Some(_) => writeln!(out, "{file}")?,
            None => writeln!(out, "{file}: not readable here, so the counts by line number (--source-map FROM=TO reads names starting with FROM under TO)")?,
        }
        writeln!(out, "{:>14} {:>16} {:>7}  {:>6}", "executions", "instructions", "%", "line")?;
        if sources[i].is_none() {
            for r in rows {
                writeln!(out, "{}", format!("{}  {:>6}", row(r.executions, r.instructions), r.line).trim_end())?;
            }
            continue;
        }
        for item in listing(rows, GAP) {
            match item {
                Listed::Gap => writeln!(out, "{blank}  {:>6}", "⋮")?,
                Listed::Line(n, r) => {
                    let counts = r.map_or_else(|| blank.clone(), |r| row(r.executions, r.instructions));
                    writeln!(out, "{}", format!("{counts}  {n:>6}  {}", text_of(i, n).unwrap_or("")).trim_end())?;
                }
            }
        }
    }
    if without > 0 {
        let lineless = a.lineless_blocks();
        writeln!(out, "\nblocks without a source line")?;
        block_table(out, lineless.iter().copied().take(LINELESS), &row)?;
        if lineless.len() > LINELESS {
            writeln!(out, "and {} more that ran (--json lists every block)", lineless.len() - LINELESS)?;
        }
    }
    Ok(())
}

/// Blocks by byte offset, under their header, each with its counts as `row` shows them.
fn block_table<'a>(out: &mut dyn Write, blocks: impl Iterator<Item = &'a BlockCount>, row: &dyn Fn(u64, u64) -> String) -> io::Result<()> {
    writeln!(out, "{:>14} {:>16} {:>7}  {:>6}  bytes", "executions", "instructions", "%", "block")?;
    for b in blocks {
        writeln!(out, "{}  {:>6}  {:#x}-{:#x}", row(b.executions, b.instructions), b.block, b.start, b.end)?;
    }
    Ok(())
}

//! `wpp export`: what was written, file by file.

use std::io::{self, Write};
use std::path::Path;

use wpp_export::lcov::Lcov;
use wpp_export::parquet::Written;
use wpp_export::tables::RunInfo;
use wpp_report::format::{bytes, group};

/// One run's Parquet tables written.
pub fn parquet(out: &mut dyn Write, info: &RunInfo, written: &[Written]) -> io::Result<()> {
    writeln!(out, "run {}", info.id)?;
    for w in written {
        writeln!(out, "  {:<14} {:>9} rows  {:>10}  {}", w.table, w.rows, bytes(w.bytes), w.path.display())?;
    }
    Ok(())
}

/// A file of one format (`pprof`, `speedscope`, `lcov`) written, of `size` bytes.
pub fn file(out: &mut dyn Write, format: &str, path: &Path, size: u64) -> io::Result<()> {
    writeln!(out, "{format:<11} {}  {}", path.display(), bytes(size))
}

/// What a speedscope timeline cut to its size left out.
pub fn timeline_left_out(out: &mut dyn Write, calls: u64, shortest: u64) -> io::Result<()> {
    writeln!(
        out,
        "            its call timeline leaves out {} calls shorter than {} instructions (in their callers); --timeline-marks 0 keeps every call",
        group(calls),
        group(shortest)
    )
}

/// What an lcov tracefile covers, and what it leaves out.
pub fn lcov(out: &mut dyn Write, l: &Lcov) -> io::Result<()> {
    writeln!(
        out,
        "            lines {}/{}, functions {}/{}, branches {}/{} executed",
        l.lines_hit, l.lines, l.functions_hit, l.functions, l.branches_hit, l.branches
    )?;
    if l.unknown_branches > 0 {
        writeln!(out, "            {} branch blocks left out: an edge's count needs the whole program path (record with --mode grammar)", l.unknown_branches)?;
    }
    Ok(())
}

//! `wpp annotate`: source lines with their executions and instructions, as `perf
//! annotate` shows them.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use wpp_report::annotate::{counts_columns, listing, Annotation, BlockCount, Listed, Selection};
use wpp_report::format::{group, percent};
use wpp_report::SourceText;

/// Print source lines with how often they ran and the instructions they executed.
///
/// The lines of function F (--func), of a source file (FILE, as the DWARF names it or the
/// end of that name: `lvm.c`), or by default of the function that executed the most
/// instructions, each with the executions of its code and the instructions it executed,
/// and their share of the annotated code's instructions; the source text beside them when
/// the file can be read here (--source-map maps the names the DWARF gives to directories
/// of this machine), otherwise the counts by line number, saying so. The counts come from
/// the path counts: a block runs once per run of each path through it; it counts on each
/// line of its source lines when they are at most 8 apart, otherwise on its first and
/// last line only, its instructions shared evenly among them. A profile without source
/// lines (a module without DWARF) is annotated by block, with byte offsets. With --json:
/// {"function", "function_index", "file", "instructions", "run_instructions",
/// "has_lines", "lines": [{"file", "line", "executions", "instructions"}], "blocks":
/// [{"function", "function_index", "block", "start", "end", "source", "size",
/// "executions", "instructions"}]}, every line and block of the annotated code, also
/// those that did not run ("file" is null for a function, "function" for a file).
#[derive(Args)]
#[command(after_help = "Examples:\n  wpp annotate lua.wpp --func luaH_getshortstr --source-map /crates=DIR\n  wpp annotate lua.wpp lvm.c")]
pub struct Opts {
    /// A profile written by `wpp record`.
    profile: PathBuf,
    #[command(flatten)]
    run: crate::Run,
    /// A source file: its name as the DWARF gives it, or the end of that name (whole path
    /// components).
    #[arg(value_name = "FILE", conflicts_with = "func")]
    file: Option<String>,
    /// The function to annotate (name or index).
    #[arg(long, value_name = "F")]
    func: Option<String>,
    /// Read source files whose DWARF name starts with FROM under TO instead (repeatable;
    /// the first that reads wins, then the name itself).
    #[arg(long, value_name = "FROM=TO", value_parser = crate::parse_source_map)]
    source_map: Vec<(String, PathBuf)>,
    #[command(flatten)]
    json: crate::Json,
}

/// Lines of code closer than this are listed with the lines between them; further apart,
/// a `⋮` stands for the lines between.
const GAP: u32 = 8;

pub fn run(o: Opts) -> anyhow::Result<()> {
    let p = o.run.open(&o.profile)?;
    p.require_program("annotate")?;
    let selection = match (&o.func, &o.file) {
        (Some(f), _) => Selection::Function(wpp_report::select_func(&p, f)?),
        (None, Some(file)) => Selection::File(file),
        (None, None) => Selection::Hottest,
    };
    let a = wpp_report::annotate(&p, selection)?;
    if o.json.json {
        return crate::print_json(&a);
    }
    print_text(&a, matches!(selection, Selection::Hottest), &o.source_map)?;
    Ok(())
}

/// Lines in the summary of the hottest.
const HOTTEST: usize = 10;

/// Blocks without a source line listed at the end.
const LINELESS: usize = 10;

fn print_text(a: &Annotation, hottest: bool, source_map: &[(String, PathBuf)]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", a.headline(hottest))?;
    let share = |instructions: u64| format!("{:>6.2}%", percent(instructions, a.instructions));
    let row = |executions: u64, instructions: u64| counts_columns(Some((executions, instructions)), a.instructions);
    let blank = counts_columns(None, 0);
    if !a.has_lines {
        writeln!(out, "no source lines in this profile (the module had no DWARF line information): its blocks by byte offset")?;
        return block_table(&mut out, a.blocks.iter(), &row);
    }
    // The lines of each file, in the annotation's order, with the file's text if it reads.
    let files = a.by_file();
    let sources: Vec<Option<SourceText>> = files.iter().map(|(file, _)| SourceText::read(file, source_map)).collect();
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
        block_table(&mut out, lineless.iter().copied().take(LINELESS), &row)?;
        if lineless.len() > LINELESS {
            writeln!(out, "and {} more that ran (--json lists every block)", lineless.len() - LINELESS)?;
        }
    }
    Ok(())
}

/// Blocks by byte offset, under their header, each with its counts as `row` shows them.
fn block_table<'a>(out: &mut impl Write, blocks: impl Iterator<Item = &'a BlockCount>, row: &dyn Fn(u64, u64) -> String) -> std::io::Result<()> {
    writeln!(out, "{:>14} {:>16} {:>7}  {:>6}  bytes", "executions", "instructions", "%", "block")?;
    for b in blocks {
        writeln!(out, "{}  {:>6}  {:#x}-{:#x}", row(b.executions, b.instructions), b.block, b.start, b.end)?;
    }
    Ok(())
}

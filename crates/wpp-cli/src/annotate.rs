//! `wpp annotate`: source lines with their executions and instructions, as `perf
//! annotate` shows them.

use std::path::PathBuf;

use clap::Args;
use wpp_report::annotate::Selection;
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
/// lines (a module without DWARF) is annotated by block, with byte offsets. A block with no
/// line of its own (line 0) counts on the line before it (the last line of the nearest
/// block before it in the function), as perf annotate does; the summary says how much. With --json:
/// {"function", "function_index", "file", "instructions", "run_instructions",
/// "has_lines", "lines": [{"file", "line", "executions", "instructions"}], "blocks":
/// [{"function", "function_index", "block", "start", "end", "source", "line_before",
/// "size", "executions", "instructions"}]}, every line and block of the annotated code, also
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
    let read = |file: &str| SourceText::read(file, &o.source_map);
    wpp_text::annotate::render(&mut std::io::stdout().lock(), &a, matches!(selection, Selection::Hottest), &read)?;
    Ok(())
}

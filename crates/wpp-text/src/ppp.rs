//! `wpp ppp select` and `wpp ppp report`: a set of interesting paths chosen, and a
//! preferential path profile.

use std::io::{self, Write};
use std::path::Path;

use wpp_report::format::{group, rho_table, truncate};
use wpp_report::ppp::PppReport;
use wpp_report::PathRow;

/// What `wpp ppp select` says when it saved `paths` interesting paths chosen by
/// `selection` to `output`; `functions` holds each function's interesting paths and ρ.
pub fn selected(out: &mut dyn Write, paths: usize, selection: &str, functions: &[(usize, f64)], output: &Path) -> io::Result<()> {
    writeln!(
        out,
        "wpp: {} interesting paths in {} functions ({}) -> {}\nPPP compactness, rho = (max id - min id + 1) / interesting paths, by interesting paths per function:\n{}",
        group(paths as u64),
        functions.len(),
        selection,
        output.display(),
        rho_table(functions.iter().copied()),
    )
}

/// The PPP report `r` as `wpp ppp report` prints it, residual paths placed by source lines
/// when the profile has them (`lines`).
pub fn report(out: &mut dyn Write, r: &PppReport, lines: bool) -> io::Result<()> {
    let g = group;
    let arrays = r.functions.iter().filter(|f| f.counters == "array").count();
    let n_interesting = r.truncation.total("interesting");
    let n_residual = r.truncation.total("residual");
    writeln!(
        out,
        "interesting paths ({}: {}): {} in {} functions; {} executed, {} times",
        r.set,
        r.selection,
        g(n_interesting as u64),
        r.functions.len(),
        g(r.interesting_executed as u64),
        g(r.interesting_executions)
    )?;
    if arrays > 0 {
        writeln!(out, "  {arrays} of the functions fit Ball-Larus counter arrays and were counted there, without PPP slots")?;
    }
    if r.interesting_hashed > 0 {
        writeln!(out, "  {} of them have PPP ids past their function's slots and were counted in the hash table", g(r.interesting_hashed as u64))?;
    }
    writeln!(out, "residual paths (executed, not interesting): {}, {} times", g(n_residual as u64), g(r.residual_executions))?;
    if !r.residual.is_empty() {
        let where_ = PathRow::places_header(lines);
        writeln!(out, "\nresidual paths, most executed first:\n{:>14}  {:<32} {:>10} {:>7}  {where_}", "count", "function", "path", "instrs")?;
        for x in &r.residual {
            writeln!(out, "{:>14}  {:<32} {:>10} {:>7}  {}", g(x.count.unwrap_or(0)), truncate(&x.function, 32), x.path_id, x.instructions, x.places(lines))?;
        }
        if let Some(note) = r.truncation.note("residual", "residual paths") {
            writeln!(out, "{note}")?;
        }
    }
    writeln!(out, "\ninteresting paths, most executed first:\n{:>14}  {:<32} {:>10} {:>10} {:>7}", "count", "function", "path", "PPP id", "counted")?;
    for x in &r.interesting {
        writeln!(out, "{:>14}  {:<32} {:>10} {:>10} {:>7}", g(x.count), truncate(&x.function, 32), x.path_id, x.ppp_id, x.counted)?;
    }
    if let Some(note) = r.truncation.note("interesting", "interesting paths") {
        writeln!(out, "{note}")?;
    }
    writeln!(out, "\nPPP compactness, rho = (max id - min id + 1) / interesting paths, by interesting paths per function:")?;
    writeln!(out, "{}", rho_table(r.functions.iter().map(|f| (f.n_interesting, f.rho))))?;
    Ok(())
}

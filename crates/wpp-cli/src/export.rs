//! `wpp export`: a whole profile as JSON, or in the formats other tools read (Parquet
//! tables, pprof, speedscope, lcov).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;

/// Write a profile as one JSON document, or as files other tools read.
///
/// Without a file option: JSON on standard output, holding the run (module, arguments,
/// how it ended), every function with its CFG, the path counts, a trace profile's trace,
/// and a grammar profile's symbol table and rules. A symbol on a rule's right side is
/// `{"t": TERMINAL}` or `{"r": RULE}`; rule 0 is the start rule and terminal `i` is the
/// path `symbols[i]`. Tags are snake_case strings; integers past 2^53 - 1 (which JSON
/// readers round) are decimal strings; "no limit" is null. The schema: docs/export.md.
///
/// --parquet DIR writes tables for SQL engines (DuckDB, Spark, Dask, ...): one file per
/// table and run, `DIR/TABLE/RUN.parquet`, so that the exports of many runs share one
/// directory (schema: docs/parquet.md). A merged profile writes each of its runs. The
/// file options can be given together; the whole program path is read once.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  wpp export lua.wpp > lua.json\n  wpp export lua.wpp --parquet runs/ --label test\n  wpp export lua.wpp --pprof lua.pb.gz --speedscope lua.speedscope.json --lcov lua.info"
)]
pub struct Opts {
    /// A profile.
    profile: PathBuf,
    #[command(flatten)]
    run: crate::Run,
    /// Write JSON to standard output (the default without a file option).
    #[arg(long, conflicts_with_all = ["parquet", "pprof", "speedscope", "lcov"])]
    json: bool,
    /// Write the Parquet tables under DIR (created if missing; this run's files replaced).
    #[arg(long, value_name = "DIR")]
    parquet: Option<PathBuf>,
    /// With --parquet: what to call the run in the `runs` table (`test`, `field`, ...).
    #[arg(long, value_name = "TEXT", requires = "parquet")]
    label: Option<String>,
    /// With --parquet: only these tables (comma-separated; `runs` is always written).
    #[arg(long, value_name = "TABLES", value_delimiter = ',', requires = "parquet", value_parser = table_name)]
    tables: Vec<String>,
    /// Write the calling context tree as a gzipped pprof profile (`go tool pprof`).
    #[arg(long, value_name = "FILE")]
    pprof: Option<PathBuf>,
    /// Write the calling context tree and the call timeline for speedscope.
    #[arg(long, value_name = "FILE")]
    speedscope: Option<PathBuf>,
    /// With --speedscope: keep at most about N marks (two per call) in the call timeline,
    /// leaving out the shortest calls (their instructions stay in their callers'), so that
    /// the file opens in speedscope; 0 keeps every call. The calling context tree is
    /// always whole.
    #[arg(long, value_name = "N", default_value_t = 2_000_000, requires = "speedscope")]
    timeline_marks: usize,
    /// Write line, function and branch coverage as an lcov tracefile (`genhtml`).
    #[arg(long, value_name = "FILE")]
    lcov: Option<PathBuf>,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    if o.parquet.is_none() && o.pprof.is_none() && o.speedscope.is_none() && o.lcov.is_none() {
        let p = o.run.open(&o.profile)?;
        let e = wpp_report::export(&p)?;
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        serde_json::to_writer(&mut out, &e)?;
        out.write_all(b"\n")?;
        out.flush()?;
        return Ok(());
    }
    // Every output checked before the work, which on a big run takes minutes.
    let p = o.run.open(&o.profile)?;
    if o.lcov.is_some() && p.source.is_none() {
        anyhow::bail!(
            "{}: --lcov needs source lines, and the module had no DWARF debugging information when it was recorded (build it with -g); the other exports need none",
            o.profile.display()
        );
    }
    for path in [&o.pprof, &o.speedscope, &o.lcov].into_iter().flatten() {
        wpp_profile::check_writable(path)?;
    }
    if let Some(dir) = &o.parquet {
        wpp_profile::check_writable_dir(dir)?;
    }
    let mut out = std::io::stdout().lock();
    if let Some(dir) = &o.parquet {
        let want = |t: &str| o.tables.is_empty() || o.tables.iter().any(|x| x == t);
        for (info, written) in wpp_export::parquet::export_profile(&o.profile, o.run.run, dir, o.label.as_deref(), &want)? {
            wpp_text::export::parquet(&mut out, &info, &written)?;
        }
    }
    if o.pprof.is_none() && o.speedscope.is_none() && o.lcov.is_none() {
        return Ok(());
    }
    p.require_program("export")?;
    let timeline = match (o.speedscope.is_some(), o.timeline_marks) {
        (false, _) => wpp_export::Timeline::Off,
        (true, 0) => wpp_export::Timeline::All,
        (true, n) => wpp_export::Timeline::AtMost(n),
    };
    let walk = wpp_export::walk(&p, timeline)?;
    if let Some(path) = &o.pprof {
        let bytes = wpp_export::pprof::gzipped(&wpp_export::pprof::profile(&p, walk.as_ref()));
        write_file(path, &bytes)?;
        wpp_text::export::file(&mut out, "pprof", path, bytes.len() as u64)?;
    }
    if let Some(path) = &o.speedscope {
        wpp_profile::write_atomically(path, |w| wpp_export::speedscope::write(&p, walk.as_ref(), w))
            .map_err(|source| wpp_profile::Error::Write { path: path.clone(), source })?;
        wpp_text::export::file(&mut out, "speedscope", path, std::fs::metadata(path)?.len())?;
        if let Some(w) = walk.as_ref().filter(|w| w.shortest > 0) {
            wpp_text::export::timeline_left_out(&mut out, w.left_out, w.shortest)?;
        }
    }
    if let Some(path) = &o.lcov {
        let l = wpp_export::lcov::lcov(&p, &wpp_export::lcov::test_name(&o.profile), walk.as_ref());
        write_file(path, l.text.as_bytes())?;
        wpp_text::export::file(&mut out, "lcov", path, l.text.len() as u64)?;
        wpp_text::export::lcov(&mut out, &l)?;
    }
    Ok(())
}

fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    Ok(wpp_profile::write_atomically(path, |w| w.write_all(bytes)).map_err(|source| wpp_profile::Error::Write { path: path.to_owned(), source })?)
}

/// A table of the schema.
fn table_name(s: &str) -> Result<String, String> {
    match wpp_export::schema::table(s) {
        Some(t) => Ok(t.name.to_owned()),
        None => Err(format!("no table `{s}`; the tables: {}", wpp_export::schema::SCHEMA.iter().map(|t| t.name).collect::<Vec<_>>().join(", "))),
    }
}

//! `wpp-bench merge`: `wpp merge` of many grammar profiles, as a user types it.

use std::io::Write;
use std::path::Path;

use clap::Args;

use crate::command::{record, run_wpp, Cost};
use crate::workloads::{geomean, WorkloadArgs};

/// Each program's `train` and `test` runs are recorded as `wpp record` records by default
/// (the whole program path as a grammar; the test run's recording timed end to end).
/// Then --profiles inputs, the two recordings taken in turn (hard links, so that a
/// thousand inputs take the disk of two; every one is read in full), are merged as a user
/// types it, `wpp merge --from-list LIST -o OUT`: its time and peak resident memory, the
/// time against recording the one test run (the target is under 1), the merged profile's
/// size, and `wpp paths OUT --top 1`, the sum read back. The merged counts are checked:
/// each path's is half the profiles times the sum of the two recordings' counts.
///
/// Exports: `wpp export TEST --parquet DIR` of the test recording, every table (time and
/// size); then each of the --profiles inputs exported as `wpp export INPUT --parquet DIR
/// --tables paths --label field|test` (train recordings are `field`, test ones `test`;
/// the total time), and DuckDB's answer over that directory to "paths executed in the
/// field but never by the tests" (the query's time inside DuckDB, and the whole Python
/// process's), checked against the two recordings' path counts. DuckDB comes from the
/// Python of `WPP_PYTHON` (`python3` otherwise); without it those columns say `-`.
#[derive(Args)]
pub struct Opts {
    #[command(flatten)]
    workloads: WorkloadArgs,
    /// Profiles per merge (an even number).
    #[arg(long, default_value_t = 1000)]
    profiles: usize,
}

struct Row {
    name: String,
    record: Cost,
    merge: Cost,
    merged_bytes: u64,
    paths: Cost,
    export: Cost,
    export_bytes: u64,
    exports_seconds: f64,
    /// DuckDB's query seconds and the Python process's.
    duckdb: Option<(f64, f64)>,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    anyhow::ensure!(o.profiles >= 2 && o.profiles.is_multiple_of(2), "--profiles must be an even number of at least 2");
    let Some(sel) = o.workloads.select(Some("workloads"), "test")? else { return Ok(()) };
    let manifest = wpp_workloads::Manifest::load(&sel.dir)?;
    let tmp = std::env::temp_dir().join(format!("wpp-bench-merge-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let mut rows = Vec::new();
    for (p, test) in &sel.runs {
        eprint!("wpp-bench merge: {} ...", p.name);
        let (_, train) = manifest.run(&p.name, "train")?;
        rows.push(measure(&sel.dir, p, train, test, &tmp, o.profiles)?);
        std::fs::remove_dir_all(&tmp)?;
        std::fs::create_dir_all(&tmp)?;
    }
    eprintln!();
    std::fs::remove_dir_all(&tmp)?;
    print_table(&rows, o.profiles)?;
    Ok(())
}

fn measure(dir: &Path, p: &wpp_workloads::Program, train: &wpp_workloads::Run, test: &wpp_workloads::Run, tmp: &Path, n: usize) -> anyhow::Result<Row> {
    let (a, b) = (tmp.join("train.wpp"), tmp.join("test.wpp"));
    record(dir, p, train, &a, &[])?;
    let record_cost = record(dir, p, test, &b, &[])?;
    let inputs = tmp.join("inputs");
    std::fs::create_dir_all(&inputs)?;
    let mut list = String::new();
    for i in 0..n {
        let link = inputs.join(format!("{i:05}.wpp"));
        std::fs::hard_link(if i % 2 == 0 { &a } else { &b }, &link)?;
        list.push_str(&format!("{}\n", link.display()));
    }
    let list_file = tmp.join("list.txt");
    std::fs::write(&list_file, list)?;
    let out = tmp.join("merged.wpp");
    let merge = run_wpp(&[Path::new("merge").as_os_str(), "--from-list".as_ref(), list_file.as_os_str(), "-o".as_ref(), out.as_os_str()])?;
    let paths = run_wpp(&[Path::new("paths").as_os_str(), out.as_os_str(), "--top".as_ref(), "1".as_ref()])?;
    check_counts(&a, &b, &out, n)?;

    let full = tmp.join("full");
    let export = run_wpp(&[Path::new("export").as_os_str(), b.as_os_str(), "--parquet".as_ref(), full.as_os_str()])?;
    let export_bytes = dir_bytes(&full)?;
    let many = tmp.join("many");
    let mut exports_seconds = 0.0;
    for i in 0..n {
        let link = inputs.join(format!("{i:05}.wpp"));
        let label = if i % 2 == 0 { "field" } else { "test" };
        let c = run_wpp(&[
            Path::new("export").as_os_str(),
            link.as_os_str(),
            "--parquet".as_ref(),
            many.as_os_str(),
            "--tables".as_ref(),
            "paths".as_ref(),
            "--label".as_ref(),
            label.as_ref(),
        ])?;
        exports_seconds += c.seconds;
    }
    let (ca, cb) = (wpp_profile::Profile::open(&a)?.counts, wpp_profile::Profile::open(&b)?.counts);
    let tested: std::collections::HashSet<_> = cb.iter().filter(|c| c.count > 0).map(|c| (c.func, c.path)).collect();
    let expected = ca.iter().filter(|c| c.count > 0 && !tested.contains(&(c.func, c.path))).count();
    let duckdb = field_not_tested(&many, expected)?;
    Ok(Row {
        name: p.name.clone(),
        record: record_cost,
        merge,
        merged_bytes: std::fs::metadata(&out)?.len(),
        paths,
        export,
        export_bytes,
        exports_seconds,
        duckdb,
    })
}

/// Bytes of the files under `dir`.
fn dir_bytes(dir: &Path) -> anyhow::Result<u64> {
    let mut n = 0;
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        n += if e.file_type()?.is_dir() { dir_bytes(&e.path())? } else { e.metadata()?.len() };
    }
    Ok(n)
}

const QUERY: &str = r#"
import sys, time, duckdb
d = sys.argv[1]
con = duckdb.connect()
t = time.perf_counter()
rows = con.execute(f"""
    SELECT r.module_key, p.function, p.path FROM '{d}/paths/*.parquet' p JOIN '{d}/runs/*.parquet' r USING (run)
    GROUP BY ALL HAVING bool_or(r.label = 'field') AND NOT bool_or(r.label = 'test')
""").fetchall()
print(time.perf_counter() - t, len(rows))
"#;

/// DuckDB's "paths executed in the field but never by the tests" over the exports in
/// `dir`: (query seconds, process seconds), `None` without DuckDB; fails unless it finds
/// `expected` paths.
fn field_not_tested(dir: &Path, expected: usize) -> anyhow::Result<Option<(f64, f64)>> {
    let py = std::env::var("WPP_PYTHON").unwrap_or_else(|_| "python3".into());
    let has = std::process::Command::new(&py).args(["-c", "import duckdb"]).output().is_ok_and(|o| o.status.success());
    if !has {
        return Ok(None);
    }
    let start = std::time::Instant::now();
    let o = std::process::Command::new(&py).args(["-c", QUERY]).arg(dir).output()?;
    let process = start.elapsed().as_secs_f64();
    anyhow::ensure!(o.status.success(), "DuckDB's query: {}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout)?;
    let mut words = text.split_whitespace();
    let (Some(secs), Some(rows)) = (words.next(), words.next()) else { anyhow::bail!("DuckDB's query printed {text}") };
    let rows: usize = rows.parse()?;
    anyhow::ensure!(rows == expected, "DuckDB found {rows} paths the field ran and the tests did not; the recordings have {expected}");
    Ok(Some((secs.parse()?, process)))
}

/// Every path's merged count is `n / 2` times its count in `a` and in `b`.
fn check_counts(a: &Path, b: &Path, merged: &Path, n: usize) -> anyhow::Result<()> {
    let (a, b, m) = (wpp_profile::Profile::open(a)?, wpp_profile::Profile::open(b)?, wpp_profile::Profile::open(merged)?);
    let half = |c: &[wpp_profile::PathCount]| -> Vec<wpp_profile::PathCount> {
        c.iter().map(|c| wpp_profile::PathCount { count: c.count * (n / 2) as u64, ..*c }).collect()
    };
    let expected = wpp_profile::merge::add_counts(&half(&a.counts), &half(&b.counts)).expect("no overflow");
    anyhow::ensure!(m.counts == expected, "{}: the merged counts are not the sum of the inputs'", merged.display());
    Ok(())
}

fn print_table(rows: &[Row], n: usize) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{n} grammar profiles per merge (each program's train and test recordings in turn)")?;
    writeln!(out, "export: the test recording, every table; exports×N: the {n} profiles, `--tables paths`; duckdb/python: the field-not-tested question over those {n} exports")?;
    writeln!(
        out,
        "{:<14} {:>9} {:>9} {:>10} {:>9} {:>11} {:>9} {:>9} {:>10} {:>11} {:>9} {:>9}",
        "program", "record s", "merge s", "merge/rec", "peak MiB", "merged MiB", "paths s", "export s", "export KiB", "exports×N s", "duckdb s", "python s"
    )?;
    let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
    for r in rows {
        let (q, py) = r.duckdb.map_or(("-".to_owned(), "-".to_owned()), |(q, p)| (format!("{q:.3}"), format!("{p:.2}")));
        writeln!(
            out,
            "{:<14} {:>9.2} {:>9.2} {:>10.2} {:>9.0} {:>11.1} {:>9.2} {:>9.2} {:>10.0} {:>11.1} {:>9} {:>9}",
            r.name,
            r.record.seconds,
            r.merge.seconds,
            r.merge.seconds / r.record.seconds,
            mib(r.merge.peak_bytes),
            mib(r.merged_bytes),
            r.paths.seconds,
            r.export.seconds,
            r.export_bytes as f64 / 1024.0,
            r.exports_seconds,
            q,
            py
        )?;
    }
    writeln!(out, "{:<14} {:>9} {:>9} {:>10.2}", "geomean", "", "", geomean(rows.iter().map(|r| r.merge.seconds / r.record.seconds)))?;
    Ok(())
}

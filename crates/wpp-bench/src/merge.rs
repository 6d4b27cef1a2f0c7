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
    Ok(Row { name: p.name.clone(), record: record_cost, merge, merged_bytes: std::fs::metadata(&out)?.len(), paths })
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
    writeln!(out, "{:<14} {:>9} {:>9} {:>10} {:>9} {:>11} {:>9}", "program", "record s", "merge s", "merge/rec", "peak MiB", "merged MiB", "paths s")?;
    let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
    for r in rows {
        writeln!(
            out,
            "{:<14} {:>9.2} {:>9.2} {:>10.2} {:>9.0} {:>11.1} {:>9.2}",
            r.name,
            r.record.seconds,
            r.merge.seconds,
            r.merge.seconds / r.record.seconds,
            mib(r.merge.peak_bytes),
            mib(r.merged_bytes),
            r.paths.seconds
        )?;
    }
    writeln!(out, "{:<14} {:>9} {:>9} {:>10.2}", "geomean", "", "", geomean(rows.iter().map(|r| r.merge.seconds / r.record.seconds)))?;
    Ok(())
}

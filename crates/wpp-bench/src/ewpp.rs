//! `wpp-bench ewpp`: the extended whole program path against the control-flow trace plus
//! an address trace (Tallam & Gupta, Tables IV, V, VIII, IX, X and XI), on the real
//! programs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use wpp_profile::{Builder, Profile};

use crate::command::{record, run_wpp, Cost};
use crate::workloads::{geomean, load, WorkloadArgs};

/// Each workload run is recorded as a user types it (`wpp record`, end to end: process
/// start to exit, peak resident memory; the baseline is the module run plain, compile and
/// guest, in-process): the filtering run (`--mode ewpp-filter`), the extended WPP (`--mode ewpp --filter`) and the
/// control-flow trace with the address trace (`--mode addresses`), the last two with
/// SEQUITUR(1) and with Re-Pair. Then one table per measure:
///
/// * IV, uncompressed: the control-flow trace (CF) and the address trace (AT) against the
///   extended control-flow trace (eCF), as 4-byte numbers;
/// * V, compressed: the WPP plus the AT compressed (by the same builder, by `xz -9` and by
///   `zstd -19 --long=27`; the smallest counts) against the eWPP, per builder;
/// * VIII: the static classes of the dependences exercised (by pairs and by dependences);
/// * IX: checks per dependence to name the writer's instance: as the eWPP's check paths
///   record them (the comparison with the latest, then each base-256 digit of the
///   distance back, a 256-way branch), against the paper's binary search and a linear
///   search back, both computed from the address trace's dependences;
/// * X: recording time against the uninstrumented run, and peak memory;
/// * XI: recovering every dependence (`wpp deps stats`, end to end) from the eWPP against
///   from the CF and AT, with peak memory.
#[derive(Args)]
pub struct Opts {
    #[command(flatten)]
    workloads: WorkloadArgs,
    /// Skip Re-Pair.
    #[arg(long)]
    no_repair: bool,
}

/// What one workload gave.
struct Measured {
    name: String,
    plain_s: f64,
    filter: Cost,
    ewpp: Cost,
    addresses: Cost,
    /// Path events of the module, values of the address trace, events of the eWPP.
    cf_events: u64,
    at_values: u64,
    ecf_events: u64,
    /// Per builder: WPP bytes, AT grammar bytes, eWPP bytes.
    sizes: Vec<(Builder, u64, u64, u64)>,
    at_xz: u64,
    at_zstd: u64,
    classes: Vec<(String, u64, u64)>,
    pairs: u64,
    dependences: u64,
    checks_ewpp: f64,
    checks_linear: f64,
    checks_binary_predicted: f64,
    unforeseen: u64,
    recover_ewpp: Cost,
    recover_addresses: Cost,
}

fn section_len(p: &Profile, name: &str) -> u64 {
    p.toc.iter().find(|e| e.name == name).map_or(0, |e| e.len)
}

fn measure(dir: &Path, p: &wpp_workloads::Program, run: &wpp_workloads::Run, tmp: &Path, builders: &[Builder]) -> anyhow::Result<Measured> {
    let (wasm, cfg) = load(dir, p, run)?;
    let engine = wpp_runtime::engine()?;
    let t = Instant::now();
    wpp_runtime::run_plain(&engine, &wasm, &cfg)?;
    let plain_s = t.elapsed().as_secs_f64();
    let f = |n: &str| tmp.join(n);
    let filter = record(dir, p, run, &f("filter.wpp"), &["--mode".into(), "ewpp-filter".into()])?;
    let mut sizes = Vec::new();
    let (mut ewpp, mut addresses) = (None, None);
    for &b in builders {
        let g = vec!["--grammar".to_string(), b.name().to_string()];
        let e = record(
            dir,
            p,
            run,
            &f(&format!("ewpp-{}.wpp", b.name())),
            &[&["--mode".into(), "ewpp".into(), "--filter".into(), f("filter.wpp").display().to_string()][..], &g].concat(),
        )?;
        let a = record(dir, p, run, &f(&format!("addresses-{}.wpp", b.name())), &[&["--mode".into(), "addresses".into()][..], &g].concat())?;
        ewpp.get_or_insert(e);
        addresses.get_or_insert(a);
        let pe = Profile::open(&f(&format!("ewpp-{}.wpp", b.name())))?;
        let pa = Profile::open(&f(&format!("addresses-{}.wpp", b.name())))?;
        sizes.push((
            b,
            section_len(&pa, wpp_profile::section::GRAMMAR),
            section_len(&pa, wpp_profile::section::ADDRESS_GRAMMAR),
            section_len(&pe, wpp_profile::section::GRAMMAR),
        ));
    }
    let first = builders[0].name();
    let pa = Profile::open(&f(&format!("addresses-{first}.wpp")))?;
    let pe = Profile::open(&f(&format!("ewpp-{first}.wpp")))?;
    // The address trace as 4-byte numbers, for xz and zstd.
    let (g, values) = pa.address_trace()?.ok_or_else(|| anyhow::anyhow!("{}: no address trace", p.name))?;
    let at: Vec<u8> = g.expand().flat_map(|t| values[t as usize].to_le_bytes()).collect();
    let at_values = at.len() as u64 / 4;
    let at_xz = crate::grammar::external_size("xz", &["-9", "-c", "-T1"], &at)? as u64;
    let at_zstd = crate::grammar::external_size("zstd", &["-19", "--long=27", "-c", "-q"], &at)? as u64;
    drop(at);
    let (mut linear, mut binary, mut n) = (0u64, 0u64, 0u64);
    wpp_twpp::recover::from_addresses(&pa, |d| {
        let (b, l) = d.checks();
        binary += b;
        linear += l;
        n += 1;
    })?;
    let (_, checks) = wpp_twpp::recover::from_ewpp(&pe, |_| {})?;
    let (deps, sites, _) = wpp_report::deps::stats(&Profile::open(&f("filter.wpp"))?)?;
    let wasm_path: PathBuf = dir.join(&p.wasm);
    let filter_profile = Profile::open(&f("filter.wpp"))?;
    let module = wpp_dataflow::Module::open(&filter_profile, &wasm_path)?;
    let classes =
        wpp_dataflow::dep_stats::classes(&filter_profile, &module, &deps, &sites).into_iter().map(|r| (r.class, r.dependences, r.executions)).collect();
    let recover_ewpp = run_wpp(&["deps".to_string(), "stats".into(), f(&format!("ewpp-{first}.wpp")).display().to_string()])?;
    let recover_addresses = run_wpp(&["deps".to_string(), "stats".into(), f(&format!("addresses-{first}.wpp")).display().to_string()])?;
    let module_functions = pa.meta.functions.len();
    let ecf_events = pe.recorded_events();
    let cf_events = pa.meta.events;
    debug_assert!(pe.counts.iter().filter(|c| c.func.idx() < module_functions).map(|c| c.count).sum::<u64>() == cf_events);
    Ok(Measured {
        name: p.name.clone(),
        plain_s,
        filter,
        ewpp: ewpp.expect("a builder"),
        addresses: addresses.expect("a builder"),
        cf_events,
        at_values,
        ecf_events,
        sizes,
        at_xz,
        at_zstd,
        classes,
        pairs: deps.deps.len() as u64,
        dependences: deps.deps.values().map(|e| e.count).sum(),
        checks_ewpp: checks.instance_checks as f64 / checks.reports.max(1) as f64,
        checks_linear: linear as f64 / n.max(1) as f64,
        checks_binary_predicted: binary as f64 / n.max(1) as f64,
        unforeseen: checks.unforeseen,
        recover_ewpp,
        recover_addresses,
    })
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let Some(sel) = o.workloads.select(Some("workloads"), "test")? else { return Ok(()) };
    let tmp = std::env::temp_dir().join(format!("wpp-bench-ewpp-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let builders: Vec<Builder> = if o.no_repair { vec![Builder::Sequitur1] } else { vec![Builder::Sequitur1, Builder::RePair] };
    let mut rows = Vec::new();
    for (p, run) in &sel.runs {
        eprint!("wpp-bench ewpp: {} ...          \r", p.name);
        rows.push(measure(&sel.dir, p, run, &tmp, &builders)?);
    }
    std::fs::remove_dir_all(&tmp)?;
    let mut out = std::io::stdout().lock();
    let mb = |b: u64| b as f64 / 1e6;
    let kb = |b: u64| b as f64 / 1e3;

    writeln!(out, "Table IV: uncompressed, MB of 4-byte numbers (paper: eCF 0.53 of CF + AT on average)")?;
    writeln!(out, "{:<14} {:>10} {:>10} {:>10} {:>10} {:>8}", "program", "CF", "AT", "CF + AT", "eCF", "eCF/(CF+AT)")?;
    for r in &rows {
        let (cf, at, ecf) = (4 * r.cf_events, 4 * r.at_values, 4 * r.ecf_events);
        writeln!(out, "{:<14} {:>10.2} {:>10.2} {:>10.2} {:>10.2} {:>8.3}", r.name, mb(cf), mb(at), mb(cf + at), mb(ecf), ecf as f64 / (cf + at) as f64)?;
    }
    writeln!(out, "{:<14} {:>63.3}", "geomean", geomean(rows.iter().map(|r| r.ecf_events as f64 / (r.cf_events + r.at_values) as f64)))?;

    writeln!(out, "\nTable V: compressed, KB (paper: eWPP 0.24 of WPP + compressed AT on average); AT compressed by the builder, xz -9, zstd -19; the ratio takes the smallest")?;
    writeln!(out, "{:<14} {:<10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>8}", "program", "builder", "WPP", "AT gram", "AT xz", "AT zstd", "eWPP", "ratio")?;
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); builders.len()];
    for r in &rows {
        for (i, &(b, wpp, at, ewpp)) in r.sizes.iter().enumerate() {
            let best = at.min(r.at_xz).min(r.at_zstd);
            let ratio = ewpp as f64 / (wpp + best) as f64;
            ratios[i].push(ratio);
            writeln!(
                out,
                "{:<14} {:<10} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>8.3}",
                r.name,
                b.name(),
                kb(wpp),
                kb(at),
                kb(r.at_xz),
                kb(r.at_zstd),
                kb(ewpp),
                ratio
            )?;
        }
    }
    for (i, b) in builders.iter().enumerate() {
        writeln!(out, "{:<14} {:<10} {:>64.3}", "geomean", b.name(), geomean(ratios[i].iter().copied()))?;
    }

    writeln!(
        out,
        "\nTable VIII: static classes of the dependences exercised, % of (writer, load) pairs / % of dependences (paper: 30.4 free, 3.9 fixed, 65.7 variable)"
    )?;
    let names: Vec<String> = rows.first().map(|r| r.classes.iter().map(|c| c.0.clone()).collect()).unwrap_or_default();
    write!(out, "{:<14} {:>10} {:>12}", "program", "pairs", "dependences")?;
    for n in &names {
        write!(out, " {:>16}", n)?;
    }
    writeln!(out)?;
    for r in &rows {
        write!(out, "{:<14} {:>10} {:>12}", r.name, r.pairs, r.dependences)?;
        for c in &r.classes {
            write!(out, " {:>7.1} / {:>6.1}", 100.0 * c.1 as f64 / r.pairs.max(1) as f64, 100.0 * c.2 as f64 / r.dependences.max(1) as f64)?;
        }
        writeln!(out)?;
    }

    writeln!(out, "\nTable IX: checks per dependence to name the writer's instance (paper: 10 with binary search)")?;
    writeln!(out, "{:<14} {:>12} {:>12} {:>12} {:>11}", "program", "eWPP", "binary*", "linear", "unforeseen")?;
    for r in &rows {
        writeln!(out, "{:<14} {:>12.2} {:>12.2} {:>12.1} {:>11}", r.name, r.checks_ewpp, r.checks_binary_predicted, r.checks_linear, r.unforeseen)?;
    }
    writeln!(out, "(eWPP: the comparison with the latest, then one 256-way branch per base-256 digit of the distance back; *: the paper's binary search, computed from the address trace's dependences)")?;

    writeln!(
        out,
        "\nTable X: recording, `wpp record` end to end, × the uninstrumented run (compile + guest, in-process); peak MB (paper: eWPP about 5× CF + AT)"
    )?;
    writeln!(
        out,
        "{:<14} {:>8} {:>9} {:>9} {:>9} {:>11} {:>9} {:>9} {:>9}",
        "program", "plain s", "filter×", "eWPP×", "CF+AT×", "eWPP/CF+AT", "filt MB", "eWPP MB", "CF+AT MB"
    )?;
    for r in &rows {
        writeln!(
            out,
            "{:<14} {:>8.3} {:>9.1} {:>9.1} {:>9.1} {:>11.2} {:>9.0} {:>9.0} {:>9.0}",
            r.name,
            r.plain_s,
            r.filter.seconds / r.plain_s,
            r.ewpp.seconds / r.plain_s,
            r.addresses.seconds / r.plain_s,
            r.ewpp.seconds / r.addresses.seconds,
            mb(r.filter.peak_bytes),
            mb(r.ewpp.peak_bytes),
            mb(r.addresses.peak_bytes)
        )?;
    }
    writeln!(out, "{:<14} {:>58.2}", "geomean", geomean(rows.iter().map(|r| r.ewpp.seconds / r.addresses.seconds)))?;

    writeln!(out, "\nTable XI: recovering every dependence, `wpp deps stats` end to end, s and peak MB (paper: 18 s from the eWPP against 174 s from the AT)")?;
    writeln!(out, "{:<14} {:>10} {:>10} {:>10} {:>10} {:>9}", "program", "eWPP s", "eWPP MB", "CF+AT s", "CF+AT MB", "speedup")?;
    for r in &rows {
        writeln!(
            out,
            "{:<14} {:>10.2} {:>10.0} {:>10.2} {:>10.0} {:>9.2}",
            r.name,
            r.recover_ewpp.seconds,
            mb(r.recover_ewpp.peak_bytes),
            r.recover_addresses.seconds,
            mb(r.recover_addresses.peak_bytes),
            r.recover_addresses.seconds / r.recover_ewpp.seconds
        )?;
    }
    writeln!(out, "{:<14} {:>53.2}", "geomean", geomean(rows.iter().map(|r| r.recover_addresses.seconds / r.recover_ewpp.seconds)))?;
    Ok(())
}

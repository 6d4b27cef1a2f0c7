//! Golden tests of decoding and rewriting: for every `tests/golden/NAME.wat`, the CFG of
//! each function with its Ball-Larus numbering (`NAME.cfg`) and the instrumented module as
//! text in trace mode (`NAME.trace.wat`), trace mode with 4-byte events as `wpp record`
//! writes them (`NAME.trace4.wat`), count mode (`NAME.count.wat`), count mode with
//! every function in the hash table (`NAME.hash.wat`) and count mode with interesting paths
//! (`NAME.ppp.wat`) are compared with the expectation files beside the program.
//!
//! A program's header may set the numbering's limit with a line `;; max_paths: N`. The
//! interesting paths are the even-numbered paths (at most [`PPP_PATHS_PER_FUNC`] of them)
//! of every function with at least two paths, counted with the limits of [`ppp_options`],
//! small enough that one module mixes Ball-Larus arrays, PPP slots and residual paths.
//!
//! `BLESS=1 cargo test --release -p wpp-wasm --test it golden` rewrites the expectations.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use wpp_model::{BlockIdx, EdgeIdx, FuncIdx, PathId, Target};
use wpp_paths::{number, EdgeAction, Numbering};
use wpp_test_support::line_diff::line_diff;
use wpp_wasm::{decode, instrument, CounterKind, Instrumented, Interesting, Mode, Options, Program};

/// Interesting paths per function in the PPP variant.
const PPP_PATHS_PER_FUNC: u64 = 32;

#[test]
fn golden() {
    let bless = std::env::var_os("BLESS").is_some_and(|v| v == "1");
    let programs = programs();
    assert!(!programs.is_empty(), "no programs in {}", golden_dir().display());
    let mut failures = Vec::new();
    for wat in &programs {
        for (path, actual) in outputs(wat) {
            if bless {
                std::fs::write(&path, &actual).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
            } else if let Some(failure) = compare(&path, &actual) {
                failures.push(failure);
            }
        }
    }
    if !failures.is_empty() {
        panic!("{}\n{} golden file(s) differ; if the change is intended, re-run with BLESS=1 to rewrite them", failures.join("\n"), failures.len());
    }
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn programs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(golden_dir()).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "wat") && !is_output(p)).collect();
    v.sort();
    v
}

/// Whether `path` is an expectation (`NAME.MODE.wat`) rather than a program.
fn is_output(path: &Path) -> bool {
    let stem = path.file_stem().unwrap().to_string_lossy();
    ["trace", "trace4", "count", "hash", "ppp"].iter().any(|m| stem.ends_with(&format!(".{m}")))
}

/// Every expectation file of the program `wat` with its current content.
fn outputs(wat: &Path) -> Vec<(PathBuf, String)> {
    let source = std::fs::read_to_string(wat).unwrap();
    let wasm = wat::parse_str(&source).unwrap_or_else(|e| panic!("{}: {e}", wat.display()));
    let program = decode(&wasm).unwrap_or_else(|e| panic!("{}: {e}", wat.display()));
    let max_paths = max_paths(&source);
    let beside = |ext: &str| wat.with_extension(ext);
    let mut out = vec![(beside("cfg"), cfg_dump(&program, max_paths))];
    let base = Options { max_paths, ..Options::default() };
    let variants = [
        ("trace.wat", Options { mode: Mode::Trace, ..base.clone() }),
        ("trace4.wat", Options { mode: Mode::Trace, narrow_events: true, ..base.clone() }),
        ("count.wat", Options { mode: Mode::Count, ..base.clone() }),
        ("hash.wat", Options { mode: Mode::Count, force_hash: true, ..base.clone() }),
        ("ppp.wat", ppp_options(&program, max_paths)),
    ];
    for (ext, opts) in variants {
        let inst = instrument(&wasm, &program, &opts).unwrap_or_else(|e| panic!("{} ({ext}): {e}", wat.display()));
        if let Err(e) = wasmparser::Validator::new_with_features(wasmparser::WasmFeatures::all()).validate_all(&inst.wasm) {
            panic!("{} ({ext}): the instrumented module does not validate: {e}", wat.display());
        }
        let text = wasmprinter::print_bytes(&inst.wasm).unwrap_or_else(|e| panic!("{} ({ext}): {e}", wat.display()));
        out.push((beside(ext), format!("{}{text}\n", header(&program, &opts, &inst))));
    }
    out
}

/// The limit set by a `;; max_paths: N` line of the program's header, or no limit.
fn max_paths(source: &str) -> u64 {
    source
        .lines()
        .take_while(|l| l.starts_with(";;"))
        .find_map(|l| l.strip_prefix(";; max_paths:"))
        .map_or(u64::MAX, |n| n.trim().parse().expect("max_paths is a number"))
}

/// Count mode with the even-numbered paths of every function with at least two paths
/// interesting; functions with at most two paths fit a Ball-Larus array, slot arrays are
/// small, and the counter budget runs out.
fn ppp_options(program: &Program, max_paths: u64) -> Options {
    let mut interesting = Interesting::new();
    for f in &program.functions {
        let Some(cfg) = &f.cfg else { continue };
        let n = number(cfg, &wpp_paths::Options { max_paths }).unwrap().n_paths();
        if n >= 2 {
            interesting.insert(f.index, (0..n).step_by(2).take(PPP_PATHS_PER_FUNC as usize).map(PathId).collect());
        }
    }
    Options {
        mode: Mode::Count,
        max_paths,
        interesting: Some(interesting),
        max_array_paths: 2,
        array_budget_bytes: 256,
        ppp_slots_per_path: 2,
        ppp_min_slots: 1,
        ..Options::default()
    }
}

/// Every defined function's blocks, edges and numbering.
fn cfg_dump(program: &Program, max_paths: u64) -> String {
    let mut s = String::new();
    for f in &program.functions {
        let Some(cfg) = &f.cfg else {
            writeln!(s, "func {} {} (imported)\n", f.index.0, f.name).unwrap();
            continue;
        };
        let num = number(cfg, &wpp_paths::Options { max_paths }).unwrap();
        writeln!(s, "func {} {}: {} blocks, {} edges, {} paths", f.index.0, f.name, cfg.blocks.len(), cfg.edges.len(), num.n_paths()).unwrap();
        if !num.cut_points().is_empty() {
            writeln!(s, "  cut points: {}", list(num.cut_points().iter().map(|b| format!("b{}", b.0)))).unwrap();
        }
        writeln!(s, "  path starts: {}", list(path_starts(cfg.blocks.len(), &num))).unwrap();
        for (b, block) in cfg.blocks.iter().enumerate() {
            let unreachable = if num.is_reachable(BlockIdx(b as u32)) { "" } else { ", unreachable" };
            writeln!(s, "  b{b}: {:#x}..{:#x}, {} instrs{unreachable}", block.start, block.end, block.n_instrs).unwrap();
        }
        for (e, edge) in cfg.edges.iter().enumerate() {
            let to = match edge.to {
                Target::Block(b) => format!("b{}", b.0),
                Target::Exit => "exit".into(),
            };
            let kind = format!("{:?}", edge.kind).to_lowercase();
            writeln!(s, "  e{e}: b{} -> {to} {kind}: {}", edge.from.0, action(num.action(EdgeIdx(e as u32)))).unwrap();
        }
        s.push('\n');
    }
    s
}

fn path_starts(n_blocks: usize, num: &Numbering) -> impl Iterator<Item = String> + '_ {
    (0..n_blocks as u32).filter_map(|b| num.start_value(BlockIdx(b)).map(|v| format!("b{b} at {v}")))
}

fn action(a: EdgeAction) -> String {
    match a {
        EdgeAction::Add(k) => format!("add {k}"),
        EdgeAction::End { add, restart: Some(r) } => format!("end +{add}, restart at {r}"),
        EdgeAction::End { add, restart: None } => format!("end +{add}"),
        EdgeAction::Dead => "dead".into(),
    }
}

fn list(items: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = items.collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// The options and the host's view of an instrumented module, as comments.
fn header(program: &Program, opts: &Options, inst: &Instrumented) -> String {
    let mut s = String::new();
    let limit = if opts.max_paths == u64::MAX { "none".to_string() } else { opts.max_paths.to_string() };
    writeln!(s, ";; mode {:?}, max_paths {limit}, force_hash {}, interesting paths {}", inst.mode, opts.force_hash, opts.interesting.is_some()).unwrap();
    let l = &inst.layout;
    writeln!(s, ";; memory {} bytes, event buffer {} bytes, hash table {} entries at {:#x}", l.memory_bytes, l.buffer_bytes, l.hash_entries, l.hash_base)
        .unwrap();
    for &(func, kind, n_paths) in &l.counters {
        let kind = match kind {
            CounterKind::Array { base } => format!("array at {base:#x}"),
            CounterKind::Hash => "hash table".into(),
            CounterKind::Ppp { base, slots } => format!("{slots} PPP slots at {base:#x}"),
        };
        writeln!(s, ";; counters of {}: {kind} ({n_paths} paths)", name(program, func)).unwrap();
    }
    if let Some(ids) = &inst.narrow {
        let bases = program.functions.iter().filter_map(|f| ids.base(f.index).map(|b| format!("{}:{b}", f.index.0)));
        writeln!(s, ";; 4-byte event ids (function:base): {}", list(bases)).unwrap();
    }
    for (func, p) in inst.ppp.iter() {
        let ids = list(p.ids().iter().map(|(path, id)| format!("{}:{id}", path.0)));
        writeln!(s, ";; PPP ids of {} (path:id): {ids}", name(program, func)).unwrap();
    }
    s
}

fn name(program: &Program, func: FuncIdx) -> String {
    format!("{} {}", func.0, program.name(func))
}

/// `None` if `path` holds `actual`, otherwise what differs.
fn compare(path: &Path, actual: &str) -> Option<String> {
    let expected = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => return Some(format!("{}: cannot read the expectation ({e})", path.display())),
    };
    (expected != actual).then(|| format!("{} differs from the expectation (- expected, + actual):\n{}", path.display(), line_diff(&expected, actual)))
}

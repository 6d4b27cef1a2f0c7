//! `wpp annotate`, `wpp functions` and `wpp paths --sort instructions` against the slow
//! obvious computation: the profile's whole program path walked event by event, each
//! path's blocks counted as they run, each block's executions and instructions handed to
//! its source lines by the rule written out again, and each function's executions,
//! instructions and paths summed from the events. On C programs built with DWARF (source
//! lines, read or not, remapped or not) and on the real programs (blocks by byte offset).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde_json::Value;
use wpp_model::{BlockIdx, PathEvent};
use wpp_profile::Profile;

use crate::common;
use common::{compile_c, json, ok, run, scratch, wpp};

/// Executions and instructions by (file, line).
type Lines = BTreeMap<(String, u32), (u64, u64)>;

/// What the walk of a profile's events gives.
#[derive(Default)]
struct Walk {
    /// Executions of each (function, block).
    blocks: BTreeMap<(u32, u32), u64>,
    /// Per function, per (file, line): executions and instructions; the lines of blocks
    /// that never ran too, with zeros.
    lines: BTreeMap<u32, Lines>,
    /// Per function that ran: path executions, instructions, and each path's count.
    functions: BTreeMap<u32, (u64, u64, HashMap<u64, u64>)>,
    run_instructions: u64,
}

/// The lines a block on `first..=last` counts on.
fn counted_on(first: u32, last: u32) -> Vec<u32> {
    if last - first > 8 {
        vec![first, last]
    } else {
        (first..=last).collect()
    }
}

fn walk(profile: &Path) -> Walk {
    let p = Profile::open(profile).unwrap();
    let mut w = Walk::default();
    // A block without a line counts on the last line of the closest block before it that
    // has one.
    let line = |f: u32, b: u32| {
        let map = p.source.as_ref()?;
        let (r, before) = (0..=b).rev().find_map(|x| Some((map.block(wpp_model::FuncIdx(f), BlockIdx(x))?, x < b)))?;
        let on = if before { vec![r.last] } else { counted_on(r.first, r.last) };
        Some((map.files[r.file as usize].clone(), on))
    };
    for (f, func) in p.meta.functions.iter().enumerate() {
        let Some(cfg) = &func.cfg else { continue };
        for b in 0..cfg.n_blocks() as u32 {
            w.blocks.insert((f as u32, b), 0);
            if let Some((file, on)) = line(f as u32, b) {
                for l in on {
                    w.lines.entry(f as u32).or_default().insert((file.clone(), l), (0, 0));
                }
            }
        }
    }
    let mut memo: HashMap<PathEvent, Vec<BlockIdx>> = HashMap::new();
    p.for_each_event(|e| {
        let blocks = memo.entry(e).or_insert_with(|| p.path_blocks(e.func, e.path).unwrap());
        let cfg = p.meta.functions[e.func.idx()].cfg.as_ref().unwrap();
        let f = w.functions.entry(e.func.0).or_default();
        f.0 += 1;
        *f.2.entry(e.path.0).or_default() += 1;
        for b in blocks.iter() {
            let size = u64::from(cfg.blocks[b.idx()].n_instrs);
            *w.blocks.get_mut(&(e.func.0, b.0)).unwrap() += 1;
            f.1 += size;
            w.run_instructions += size;
            if let Some((file, on)) = line(e.func.0, b.0) {
                let lines = w.lines.get_mut(&e.func.0).unwrap();
                for &l in &on {
                    lines.get_mut(&(file.clone(), l)).unwrap().0 += 1;
                }
                for i in 0..size as usize {
                    lines.get_mut(&(file.clone(), on[i % on.len()])).unwrap().1 += 1;
                }
            }
        }
    })
    .unwrap();
    w
}

/// The fewest of `counts` that make 90% of their sum.
fn to_90(counts: impl Iterator<Item = u64>) -> u64 {
    let mut c: Vec<u64> = counts.collect();
    c.sort_unstable_by(|a, b| b.cmp(a));
    let total: u64 = c.iter().sum();
    if total == 0 {
        return 0;
    }
    (1..=c.len()).find(|&k| c[..k].iter().sum::<u64>() * 10 >= total * 9).unwrap() as u64
}

/// An annotation's lines as (file, line) → (executions, instructions), checking that its
/// files come most instructions first and its lines in order within each.
fn lines_of(a: &Value) -> Lines {
    let rows = a["lines"].as_array().unwrap();
    let mut files: Vec<(String, u64)> = Vec::new();
    let mut out = BTreeMap::new();
    let mut last: Option<(String, u64)> = None;
    for r in rows {
        let (file, line) = (r["file"].as_str().unwrap().to_string(), r["line"].as_u64().unwrap());
        if let Some((f, l)) = &last {
            assert!(*f != file || *l < line, "lines out of order: {f}:{l} before {file}:{line}");
        }
        match files.last_mut() {
            Some((f, n)) if *f == file => *n += r["instructions"].as_u64().unwrap(),
            _ => {
                assert!(!files.iter().any(|(f, _)| *f == file), "{file} in two groups");
                files.push((file.clone(), r["instructions"].as_u64().unwrap()));
            }
        }
        last = Some((file.clone(), line));
        out.insert((file, line as u32), (r["executions"].as_u64().unwrap(), r["instructions"].as_u64().unwrap()));
    }
    assert!(files.windows(2).all(|w| w[0].1 >= w[1].1), "files not most instructions first: {files:?}");
    out
}

/// Every report of `profile` against the walk; `files` of its source lines are checked
/// by name too.
fn check(profile: &Path, what: &str) {
    let w = walk(profile);
    let p = Profile::open(profile).unwrap();
    let wpp_json = |args: &[&str]| json(wpp().args(args).arg(profile).arg("--json"));

    // The function table.
    let table = wpp_json(&["functions"]);
    let rows = table["functions"].as_array().unwrap();
    assert_eq!(rows.len(), w.functions.len(), "{what}: functions that ran");
    assert_eq!(table["instructions"].as_u64().unwrap(), w.run_instructions, "{what}");
    assert_eq!(table["executions"].as_u64().unwrap(), w.functions.values().map(|f| f.0).sum::<u64>(), "{what}");
    assert_eq!((table["truncated"].as_bool(), table["total_functions"].as_u64()), (Some(false), Some(rows.len() as u64)), "{what}");
    let mut previous: Option<(u64, u64)> = None;
    for r in rows {
        let f = r["function_index"].as_u64().unwrap() as u32;
        let (executions, instructions, paths) = &w.functions[&f];
        assert_eq!(r["function"].as_str().unwrap(), p.meta.func_name(wpp_model::FuncIdx(f)), "{what}");
        assert_eq!(r["executions"].as_u64().unwrap(), *executions, "{what}: executions of {f}");
        assert_eq!(r["instructions"].as_u64().unwrap(), *instructions, "{what}: instructions of {f}");
        assert_eq!(r["paths"].as_u64().unwrap(), paths.len() as u64, "{what}: paths of {f}");
        assert_eq!(r["paths_to_90_executions"].as_u64().unwrap(), to_90(paths.values().copied()), "{what}: 90% of executions of {f}");
        let costs = paths.iter().map(|(&path, &n)| {
            n * p
                .path_blocks(wpp_model::FuncIdx(f), wpp_model::PathId(path))
                .unwrap()
                .iter()
                .map(|b| u64::from(p.meta.functions[f as usize].cfg.as_ref().unwrap().blocks[b.idx()].n_instrs))
                .sum::<u64>()
        });
        assert_eq!(r["paths_to_90_instructions"].as_u64().unwrap(), to_90(costs), "{what}: 90% of instructions of {f}");
        let share = r["share"].as_f64().unwrap();
        assert!((share - *instructions as f64 / w.run_instructions as f64).abs() < 1e-12, "{what}: share of {f}");
        // Most instructions first, ties by index.
        if let Some(prev) = previous {
            assert!(prev.0 > *instructions || (prev.0 == *instructions && prev.1 < u64::from(f)), "{what}: order at {f}");
        }
        previous = Some((*instructions, u64::from(f)));
    }
    for (sort, key) in [("executions", "executions"), ("paths", "paths")] {
        let sorted = json(wpp().args(["functions", "--sort", sort, "--json"]).arg(profile));
        let keys: Vec<(u64, u64)> =
            sorted["functions"].as_array().unwrap().iter().map(|r| (r[key].as_u64().unwrap(), r["function_index"].as_u64().unwrap())).collect();
        assert!(keys.windows(2).all(|k| k[0].0 > k[1].0 || (k[0].0 == k[1].0 && k[0].1 < k[1].1)), "{what}: --sort {sort}");
        assert_eq!(keys.len(), rows.len());
    }
    let by_name = json(wpp().args(["functions", "--sort", "name", "--json"]).arg(profile));
    let names: Vec<&str> = by_name["functions"].as_array().unwrap().iter().map(|r| r["function"].as_str().unwrap()).collect();
    assert!(names.windows(2).all(|n| n[0] <= n[1]), "{what}: --sort name");

    // The paths by instructions: the same paths, most instructions first.
    let by_count = wpp_json(&["paths"]);
    let by_instrs = json(wpp().args(["paths", "--sort", "instructions", "--json"]).arg(profile));
    let key = |r: &Value| (r["function_index"].as_u64().unwrap(), r["path_id"].as_u64().unwrap());
    let cost = |r: &Value| r["count"].as_u64().unwrap() * r["instructions"].as_u64().unwrap();
    let mut a: Vec<(u64, u64)> = by_count["paths"].as_array().unwrap().iter().map(key).collect();
    let b: Vec<&Value> = by_instrs["paths"].as_array().unwrap().iter().collect();
    assert!(b.windows(2).all(|w| cost(w[0]) > cost(w[1]) || (cost(w[0]) == cost(w[1]) && key(w[0]) < key(w[1]))), "{what}: paths by instructions");
    let mut bk: Vec<(u64, u64)> = b.iter().map(|r| key(r)).collect();
    a.sort_unstable();
    bk.sort_unstable();
    assert_eq!(a, bk, "{what}: the same paths");
    assert_eq!(by_instrs["instructions"].as_u64().unwrap(), w.run_instructions, "{what}");
    assert_eq!(by_count["instructions"], by_instrs["instructions"], "{what}");

    // Each function's annotation, the hottest first (it is the default).
    let hottest = rows[0]["function_index"].as_u64().unwrap();
    let default = json(wpp().arg("annotate").arg(profile).arg("--json"));
    assert_eq!(default["function_index"].as_u64(), Some(hottest), "{what}: the default is the hottest function");
    for r in rows.iter().take(8) {
        let f = r["function_index"].as_u64().unwrap() as u32;
        let a = json(wpp().arg("annotate").arg(profile).args(["--func", &f.to_string(), "--json"]));
        if f as u64 == hottest {
            assert_eq!(a, default, "{what}");
        }
        assert_eq!(a["instructions"], r["instructions"], "{what}: instructions of {f}");
        assert_eq!(a["run_instructions"].as_u64().unwrap(), w.run_instructions, "{what}");
        assert_eq!(a["has_lines"].as_bool().unwrap(), p.source.is_some(), "{what}");
        let blocks: BTreeMap<(u32, u32), u64> = a["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                let size = b["size"].as_u64().unwrap();
                assert_eq!(b["instructions"].as_u64().unwrap(), size * b["executions"].as_u64().unwrap());
                ((b["function_index"].as_u64().unwrap() as u32, b["block"].as_u64().unwrap() as u32), b["executions"].as_u64().unwrap())
            })
            .collect();
        let want: BTreeMap<(u32, u32), u64> = w.blocks.range((f, 0)..=(f, u32::MAX)).map(|(&k, &v)| (k, v)).collect();
        assert_eq!(blocks, want, "{what}: blocks of {f}");
        let want = w.lines.get(&f).cloned().unwrap_or_default();
        assert_eq!(lines_of(&a), want, "{what}: lines of {f}");
    }

    // Each file's annotation: the lines of every function in it.
    let mut by_file: BTreeMap<String, Lines> = BTreeMap::new();
    for lines in w.lines.values() {
        for ((file, l), c) in lines {
            let e = by_file.entry(file.clone()).or_default().entry((file.clone(), *l)).or_default();
            e.0 += c.0;
            e.1 += c.1;
        }
    }
    for (file, want) in by_file.iter().take(6) {
        let a = json(wpp().arg("annotate").arg(profile).arg(file).arg("--json"));
        assert_eq!(a["file"].as_str(), Some(file.as_str()), "{what}");
        assert_eq!(lines_of(&a), *want, "{what}: lines of {file}");
        let instructions: u64 = want.values().map(|c| c.1).sum();
        assert_eq!(a["instructions"].as_u64().unwrap(), instructions, "{what}: instructions in {file}");
    }
}

/// C programs with source lines, at two optimisation levels.
#[test]
fn c_programs_against_the_walk() {
    let d = scratch("annotate-c");
    for (name, opt) in [("calls", "-O1"), ("calls", "-O2"), ("fig9", "-O1"), ("fig1", "-O0")] {
        let Some(wasm) = compile_c(&d, name, opt) else { return };
        let profile = d.join(format!("{name}{opt}.wpp"));
        ok(wpp().arg("record").arg("-o").arg(&profile).arg(&wasm));
        check(&profile, &format!("{name} {opt}"));
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// The text: the source beside the counts when it reads (through --source-map first),
/// the counts by line number when it does not; a name that names nothing is an error
/// naming the profile.
#[test]
fn sources_read_remapped_or_not() {
    let d = scratch("annotate-text");
    let Some(wasm) = compile_c(&d, "calls", "-O1") else { return };
    let profile = d.join("calls.wpp");
    ok(wpp().arg("record").arg("-o").arg(&profile).arg(&wasm));
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../wpp-test-support/c/calls.c").canonicalize().unwrap();
    let text = |args: &[&str]| String::from_utf8(ok(wpp().arg("annotate").arg(&profile).args(args))).unwrap();
    let a = json(wpp().arg("annotate").arg(&profile).args(["--func", "classify", "--json"]));
    let file = a["lines"][0]["file"].as_str().unwrap().to_string();
    assert!(file.ends_with("calls.c"), "{file}");
    // Read where the DWARF says: each counted line shows its text.
    let shown = text(&["--func", "classify"]);
    assert!(shown.contains("case 6: return (x & 1) ? x + 11 : x - 11;"), "{shown}");
    assert!(!shown.contains("not readable"), "{shown}");
    // Remapped: a copy with the lines marked is read instead.
    let copy = d.join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    let marked: String = std::fs::read_to_string(&src).unwrap().lines().map(|l| format!("{l} //MARK\n")).collect();
    std::fs::write(copy.join("calls.c"), marked).unwrap();
    // The directory as the DWARF names it.
    let dir = Path::new(&file).parent().unwrap().to_str().unwrap().to_string();
    let shown = text(&["--func", "classify", "--source-map", &format!("{dir}={}", copy.display())]);
    assert!(shown.contains("case 6: return (x & 1) ? x + 11 : x - 11; //MARK"), "{shown}");
    assert!(shown.contains(&format!("(read from {})", copy.join("calls.c").display())), "{shown}");
    // A map that reads nothing: the name itself is read after it.
    let unreadable = text(&["--func", "classify", "--source-map", &format!("{dir}={}", d.join("nowhere").display())]);
    assert!(unreadable.contains("case 6"), "{unreadable}");
    // Not readable (a profile of a file since removed): the counts by line number, saying
    // so.
    let renamed = d.join("renamed");
    std::fs::create_dir_all(&renamed).unwrap();
    let r_src = renamed.join("calls.c");
    std::fs::copy(&src, &r_src).unwrap();
    let r_wasm = d.join("renamed.wasm");
    let st = std::process::Command::new("clang").args(["--target=wasm32-wasi", "-O1", "-g", "-o"]).arg(&r_wasm).arg(&r_src).status().unwrap();
    assert!(st.success());
    std::fs::remove_file(&r_src).unwrap();
    let r_profile = d.join("renamed.wpp");
    ok(wpp().arg("record").arg("-o").arg(&r_profile).arg(&r_wasm));
    let shown = String::from_utf8(ok(wpp().arg("annotate").arg(&r_profile).args(["--func", "classify"]))).unwrap();
    assert!(shown.contains("not readable here, so the counts by line number"), "{shown}");
    assert!(!shown.contains("case 6"), "{shown}");
    let listing = &shown[shown.find("    executions").unwrap()..];
    let numbers: Vec<&str> = listing.lines().filter(|l| l.trim_end().ends_with(char::is_numeric) && l.contains('%')).collect();
    let lines = json(wpp().arg("annotate").arg(&r_profile).args(["--func", "classify", "--json"]));
    assert_eq!(numbers.len(), lines["lines"].as_array().unwrap().len(), "one row per line with code: {shown}");

    // Names that name nothing.
    for (args, msg) in [
        (vec!["--func", "nosuch"], "no function named `nosuch`"),
        (vec!["nosuch.c"], "no source file named nosuch.c; the files with code: "),
        (vec!["alls.c"], "no source file named alls.c"),
        (vec!["--func", "0"], "is imported: it has no code in the module to annotate"),
    ] {
        let out = run(wpp().arg("annotate").arg(&profile).args(&args));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with(&format!("wpp: error: {}: ", profile.display())) && err.contains(msg) && err.lines().count() == 1, "{args:?}: {err}");
    }
    let out = run(wpp().arg("annotate").arg(&profile).args(["calls.c", "--func", "classify"]));
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&d).unwrap();
}

wpp_test_support::real_programs!(
    /// The real programs (without DWARF: their blocks by byte offset).
    real_programs_against_the_walk,
    |m, _, p| {
        let (p, run) = m.run(&p.name, "test").unwrap();
        let d = scratch(&format!("annotate-real-{}", p.name));
        let profile = d.join("run.wpp");
        common::record_run(m, p, run, &profile, &[]);
        check(&profile, &p.name);
        std::fs::remove_dir_all(&d).unwrap();
    }
);

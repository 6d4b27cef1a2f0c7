//! `wpp hot`, `wpp query` and source lines, end to end, against scans of `wpp expand`.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use wpp_grammar::{hot_subpaths_brute, HotParams};
use wpp_test_support::corpus::wat_program;
use wpp_test_support::operators::Operators;
use wpp_test_support::workloads;

use crate::common;
use common::{json, ok, run, scratch, wpp};

/// The paths (function, path id) before and after an execution.
type Context = (Vec<(u32, u64)>, Vec<(u32, u64)>);

fn record(wasm: &Path, profile: &Path, args: &[&str]) {
    ok(wpp().arg("record").args(args).arg("-o").arg(profile).arg(wasm));
}

/// The trace as (function index, path id) pairs.
fn trace(profile: &Path) -> Vec<(u32, u64)> {
    let out = ok(wpp().arg("expand").arg(profile));
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| {
            let (f, p) = l.split_once(' ').unwrap();
            (f.parse().unwrap(), p.parse().unwrap())
        })
        .collect()
}

/// Instructions per path, counted independently of wpp's CFG: the operators wasmparser
/// reads in the byte ranges of the path's blocks (from `wpp paths --json`) in `wasm`. The
/// `instructions` that `wpp paths` reports must be the same.
fn instructions(profile: &Path, wasm: &Path) -> HashMap<(u32, u64), u64> {
    let ops = Operators::of(&std::fs::read(wasm).unwrap()).unwrap();
    let v = json(wpp().args(["paths", "--json", "--top", "0"]).arg(profile));
    v["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let n: u64 =
                p["blocks"].as_array().unwrap().iter().map(|b| ops.count(b["start"].as_u64().unwrap() as u32, b["end"].as_u64().unwrap() as u32)).sum();
            assert_eq!(p["instructions"].as_u64().unwrap(), n, "instructions of {p}");
            (path_of(p), n)
        })
        .collect()
}

fn path_of(p: &Value) -> (u32, u64) {
    (p["function_index"].as_u64().unwrap() as u32, p["path_id"].as_u64().unwrap())
}

/// `wpp hot` reports every minimal hot subpath of the expanded trace, each with
/// the frequency and cost the brute force gives it; trace and grammar profiles of one
/// run give the same report. Returns how many were reported.
fn check_hot(wasm: &Path, profile: &Path, trace_profile: &Path, cost: &str, max_len: usize, min_len: usize, min_cost: u64) -> usize {
    let events = trace(profile);
    let mut symbol: HashMap<(u32, u64), u32> = HashMap::new();
    let mut paths = Vec::new();
    let seq: Vec<u32> = events
        .iter()
        .map(|&e| {
            *symbol.entry(e).or_insert_with(|| {
                paths.push(e);
                paths.len() as u32 - 1
            })
        })
        .collect();
    let costs: Vec<u64> = match cost {
        "paths" => vec![1; paths.len()],
        _ => {
            let instrs = instructions(profile, wasm);
            paths.iter().map(|e| instrs[e]).collect()
        }
    };
    let params = HotParams { max_len, min_len, min_cost };
    let brute: HashMap<Vec<(u32, u64)>, (u64, u64)> =
        hot_subpaths_brute(&seq, &costs, &params).into_iter().map(|h| (h.symbols.iter().map(|&s| paths[s.idx()]).collect(), (h.frequency, h.cost))).collect();
    let args = |p: &Path| {
        let mut c = wpp();
        c.arg("hot").arg(p).args(["--json", "--top", "0", "--cost", cost]);
        c.args(["--max-len", &max_len.to_string(), "--min-len", &min_len.to_string(), "--min-cost", &min_cost.to_string()]);
        c
    };
    let report = json(&mut args(profile));
    assert_eq!(report, json(&mut args(trace_profile)), "trace and grammar profiles disagree");
    let subpaths = report["subpaths"].as_array().unwrap();
    assert_eq!(subpaths.len(), brute.len(), "every minimal hot subpath is reported");
    for s in subpaths {
        let seq: Vec<(u32, u64)> = s["paths"].as_array().unwrap().iter().map(path_of).collect();
        assert_eq!(s["length"].as_u64().unwrap() as usize, seq.len());
        let expected = brute.get(&seq).unwrap_or_else(|| panic!("{seq:?} is not a minimal hot subpath"));
        assert_eq!((s["frequency"].as_u64().unwrap(), s["cost"].as_u64().unwrap()), *expected, "{seq:?}");
        for p in s["paths"].as_array().unwrap() {
            assert!(p["function"].is_string() && p["source"].is_array() && !p["blocks"].as_array().unwrap().is_empty(), "{p}");
        }
    }
    subpaths.len()
}

#[test]
fn hot_subpaths_match_the_brute_force() {
    let d = scratch("analyses-hot");
    for name in ["loops", "recursion", "br_table"] {
        let wasm = wat_program(&d, name);
        let g = d.join(format!("{name}.wpp"));
        let t = d.join(format!("{name}-trace.wpp"));
        record(&wasm, &g, &[]);
        record(&wasm, &t, &["--mode", "trace"]);
        let n = trace(&g).len() as u64;
        let mut found = 0;
        for (cost, max_len, min_len, min_cost) in
            [("paths", 4, 2, n / 20), ("paths", 8, 1, n / 5), ("instructions", 6, 2, 5 * n), ("instructions", 3, 1, n), ("paths", 1, 1, 1)]
        {
            found += check_hot(&wasm, &g, &t, cost, max_len, min_len, min_cost.max(1));
        }
        assert!(found > 0, "{name}: no hot subpath at all");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn queries_match_a_scan() {
    let d = scratch("analyses-query");
    let wasm = wat_program(&d, "loops");
    let g = d.join("loops.wpp");
    record(&wasm, &g, &[]);
    let events = trace(&g);
    let mut distinct: Vec<(u32, u64)> = events.clone();
    distinct.sort();
    distinct.dedup();
    let spec = |e: (u32, u64)| format!("{}:{}", e.0, e.1);
    // Frequencies of every sequence of 1..3 paths that occurs, and of a few that do not.
    let mut seqs: Vec<Vec<(u32, u64)>> = Vec::new();
    for len in 1..=3 {
        for w in events.windows(len).step_by(7) {
            if !seqs.contains(&w.to_vec()) {
                seqs.push(w.to_vec());
            }
        }
    }
    seqs.push(vec![distinct[0], distinct[0], distinct[0], distinct[0]]);
    for s in seqs.iter().take(60) {
        let expected = events.windows(s.len()).filter(|w| *w == s.as_slice()).count();
        let out = ok(wpp().arg("query").arg(&g).arg("freq").args(s.iter().map(|&e| spec(e))));
        assert_eq!(String::from_utf8(out).unwrap().trim(), expected.to_string(), "{s:?}");
    }
    for &p in &distinct {
        for &q in &distinct {
            let first_p = events.iter().position(|&e| e == p).unwrap();
            let last_q = events.iter().rposition(|&e| e == q).unwrap();
            let v = json(wpp().arg("query").arg(&g).args(["before", &spec(p), &spec(q), "--json"]));
            assert_eq!(v["before"].as_bool().unwrap(), first_p < last_q, "{p:?} before {q:?}");
            assert_eq!((v["first_p"].as_u64().unwrap(), v["last_q"].as_u64().unwrap()), (first_p as u64, last_q as u64));
        }
        for k in [1usize, 2] {
            let mut expected: HashMap<Context, u64> = HashMap::new();
            for (i, &e) in events.iter().enumerate() {
                if e == p {
                    let before = events[i.saturating_sub(k)..i].to_vec();
                    let after = events[i + 1..(i + 1 + k).min(events.len())].to_vec();
                    *expected.entry((before, after)).or_default() += 1;
                }
            }
            let v = json(wpp().arg("query").arg(&g).args(["context", &spec(p), "--k", &k.to_string(), "--top", "0", "--json"]));
            let got: HashMap<Context, u64> = v["contexts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let side = |s: &str| c[s].as_array().unwrap().iter().map(path_of).collect::<Vec<_>>();
                    ((side("before"), side("after")), c["count"].as_u64().unwrap())
                })
                .collect();
            assert_eq!(got, expected, "contexts of {p:?}, k = {k}");
            assert_eq!(v["executions"].as_u64().unwrap(), events.iter().filter(|&&e| e == p).count() as u64);
        }
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn bad_queries_are_clear_errors() {
    let d = scratch("analyses-badq");
    let wasm = wat_program(&d, "loops");
    let g = d.join("loops.wpp");
    record(&wasm, &g, &[]);
    for (args, msg) in [
        (vec!["query", "freq", "nosuch:1"], "no function named `nosuch`"),
        (vec!["query", "freq", "0:999999999"], "has no path 999999999"),
        (vec!["query", "freq", "0"], "a path is FUNCTION:PATH_ID"),
        (vec!["hot", "--max-len", "2", "--min-len", "5", "--min-cost", "1"], "--min-len 5 is above --max-len 2"),
    ] {
        let mut c = wpp();
        c.arg(args[0]).arg(&g).args(&args[1..]);
        let out = run(&mut c);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(msg), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// A C program built with `-g`: its hot loop is reported at the loop's line. Needs clang
/// and wasi-libc, as the workloads do.
#[test]
fn source_lines_of_a_c_program() {
    let clang = Command::new("clang").arg("--version").output().is_ok_and(|o| o.status.success());
    if !clang || !Path::new("/usr/include/wasm32-wasi").is_dir() {
        workloads::skip_or_fail("source_lines_of_a_c_program", "no clang with wasi-libc (/usr/include/wasm32-wasi)");
        return;
    }
    let d = scratch("analyses-source");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/hotloop.c");
    let hot_line = std::fs::read_to_string(&src).unwrap().lines().position(|l| l.contains("HOT LINE")).unwrap() as u32 + 1;
    let wasm = d.join("hotloop.wasm");
    let out = Command::new("clang")
        .args(["--target=wasm32-wasi", "-O1", "-g", "-nostdlibinc", "-isystem", "/usr/include/wasm32-wasi"])
        .arg(&src)
        .arg("-o")
        .arg(&wasm)
        .output()
        .expect("clang (with wasi-libc) runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let g = d.join("hotloop.wpp");
    record(&wasm, &g, &[]);
    // Whether `FILE:A-B` (or `FILE:A`) of hotloop.c covers the hot line.
    let covers = |s: &Value| {
        s.as_array().unwrap().iter().any(|x| {
            let x = x.as_str().unwrap();
            let Some((file, lines)) = x.rsplit_once(':') else { return false };
            let (a, b) = lines.split_once('-').unwrap_or((lines, lines));
            file.ends_with("hotloop.c") && a.parse::<u32>().unwrap() <= hot_line && hot_line <= b.parse::<u32>().unwrap()
        })
    };
    let paths = json(wpp().args(["paths", "--json", "--func", "checksum", "--top", "1"]).arg(&g));
    let top = &paths["paths"][0];
    assert!(covers(&top["source"]), "hottest path of checksum: {top}");
    let hot = json(wpp().args(["hot", "--json", "--max-len", "4", "--min-cost", "1000000"]).arg(&g));
    // The two loops cost about the same; the checksum loop's subpath is one of the top two.
    let in_checksum: Vec<&Value> =
        hot["subpaths"].as_array().unwrap()[..2].iter().flat_map(|s| s["paths"].as_array().unwrap()).filter(|p| p["function"] == "checksum").collect();
    assert!(!in_checksum.is_empty(), "no hot subpath through the checksum loop: {hot}");
    assert!(in_checksum.iter().all(|p| covers(&p["source"])), "{hot}");
    // Without DWARF: byte ranges of the module.
    let stripped = d.join("stripped.wasm");
    let bytes = std::fs::read(&wasm).unwrap();
    let mut module = wasm_encoder::Module::new();
    for payload in wasmparser::Parser::new(0).parse_all(&bytes) {
        let payload = payload.unwrap();
        if let wasmparser::Payload::CustomSection(c) = &payload {
            if c.name().starts_with(".debug") {
                continue;
            }
        }
        if let Some((id, range)) = payload.as_section() {
            module.section(&wasm_encoder::RawSection { id, data: &bytes[range] });
        }
    }
    std::fs::write(&stripped, module.finish()).unwrap();
    let g2 = d.join("stripped.wpp");
    record(&stripped, &g2, &[]);
    let paths = json(wpp().args(["paths", "--json", "--func", "checksum", "--top", "1"]).arg(&g2));
    let s = paths["paths"][0]["source"][0].as_str().unwrap().to_string();
    assert!(s.starts_with("stripped.wasm+0x"), "{s}");
    std::fs::remove_dir_all(&d).unwrap();
}

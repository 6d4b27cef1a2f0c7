//! The invariants of ARCHITECTURE.md that a machine can check: which crate may depend on
//! which (from `cargo metadata`), that only the front ends use `anyhow` and `clap`, that no
//! module of a crate imports one that imports it back, and that no `wpp` subcommand uses
//! another's module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace's crates and their normal (not dev, not build) dependencies.
fn workspace() -> BTreeMap<String, (PathBuf, BTreeSet<String>)> {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut crates = BTreeMap::new();
    for p in meta["packages"].as_array().unwrap() {
        let deps = p["dependencies"].as_array().unwrap().iter().filter(|d| d["kind"].is_null()).map(|d| d["name"].as_str().unwrap().to_string()).collect();
        let dir = Path::new(p["manifest_path"].as_str().unwrap()).parent().unwrap().to_owned();
        crates.insert(p["name"].as_str().unwrap().to_string(), (dir, deps));
    }
    crates
}

/// The crates only tests use: scaffolding shared by the tests (`wpp-test-support`) and the
/// fuzz targets' bodies (`wpp-fuzz`). They sit above every layer, may use any crate (they
/// run wasm-smith modules under wasmtime) and `anyhow`, and no library depends on them.
const TEST_CRATES: &[&str] = &["wpp-test-support", "wpp-fuzz"];

/// The layers, lowest first: a crate may depend only on crates of lower layers.
const LAYERS: &[&[&str]] = &[
    &["wpp-model", "wpp-grammar", "wpp-workloads"],
    &["wpp-paths"],
    &["wpp-wasm", "wpp-profile"],
    &["wpp-report", "wpp-runtime", "wpp-twpp"],
    &["wpp-record", "wpp-html"],
    &["wpp-cli", "wpp-bench"],
];

fn layer(name: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&name))
}

#[test]
fn dependencies_point_down_the_layers() {
    let crates = workspace();
    for (name, (_, deps)) in &crates {
        if !name.starts_with("wpp-") || TEST_CRATES.contains(&name.as_str()) {
            continue;
        }
        let own = layer(name).unwrap_or_else(|| panic!("{name} is in no layer of this test (and of ARCHITECTURE.md)"));
        for d in deps.iter().filter(|d| d.starts_with("wpp-")) {
            assert!(!TEST_CRATES.contains(&d.as_str()), "{name} depends on {d}, which only tests may use");
            let theirs = layer(d).unwrap_or_else(|| panic!("{name} depends on {d}, which is in no layer"));
            assert!(theirs < own, "{name} (layer {own}) depends on {d} (layer {theirs}): dependencies point down");
        }
    }
}

#[test]
fn crates_know_only_what_they_may() {
    let crates = workspace();
    let forbid = |name: &str, what: &[&str], why: &str| {
        let deps = &crates[name].1;
        for w in what {
            assert!(!deps.contains(*w), "{name} depends on {w}: {why}");
        }
    };
    let wasm = ["wasmparser", "wasm-encoder", "wasmtime", "wasmtime-wasi", "wpp-wasm", "wpp-runtime"];
    for c in ["wpp-model", "wpp-paths", "wpp-grammar", "wpp-report", "wpp-twpp", "wpp-html"] {
        forbid(c, &wasm, "it knows nothing of WebAssembly");
    }
    forbid("wpp-grammar", &["wpp-model", "wpp-paths"], "terminals are numbers, not paths");
    forbid("wpp-profile", &["wpp-wasm"], "a profile is decodable without the module");
    forbid("wpp-wasm", &["wasmtime", "wasmtime-wasi"], "it does not run code");
    for (name, (_, deps)) in &crates {
        if (deps.contains("wasmtime") || deps.contains("wasmtime-wasi")) && !TEST_CRATES.contains(&name.as_str()) {
            assert_eq!(name, "wpp-runtime", "{name} links wasmtime: only wpp-runtime (and the test crates) may");
        }
        // The binaries, and the crates that only tests use.
        let front_end = name == "wpp-cli" || name == "wpp-bench" || TEST_CRATES.contains(&name.as_str());
        for edge in ["anyhow", "clap"] {
            assert!(front_end || !deps.contains(edge), "{name} depends on {edge}: only the binaries (wpp-cli, wpp-bench) may");
        }
    }
}

/// Each crate's top-level modules and the `crate::MODULE` paths its files name.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(src).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") {
            files.push((p.file_stem().unwrap().to_string_lossy().into_owned(), p));
        } else if p.join("mod.rs").exists() {
            // A module directory: every file in it belongs to the module.
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            for f in std::fs::read_dir(&p).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|x| x == "rs") {
                    files.push((name.clone(), f));
                }
            }
        }
    }
    let modules: BTreeSet<String> = files.iter().map(|(m, _)| m.clone()).filter(|m| m != "lib" && m != "main").collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, path) in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let uses = graph.entry(m.clone()).or_default();
        for (i, _) in text.match_indices("crate::") {
            let rest = &text[i + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let braced = rest.strip_prefix('{').map(|r| &r[..r.find('}').unwrap_or(r.len())]);
            let names: Vec<String> = match braced {
                Some(list) => list.split(',').map(|s| s.trim().split("::").next().unwrap_or("").to_string()).collect(),
                None => vec![name],
            };
            for n in names {
                if modules.contains(&n) && n != *m {
                    uses.insert(n);
                }
            }
        }
    }
    graph
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    for (name, (dir, _)) in workspace() {
        let graph = module_graph(&dir.join("src"));
        // Depth-first search for a cycle.
        fn visit(m: &str, g: &BTreeMap<String, BTreeSet<String>>, stack: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
            if let Some(i) = stack.iter().position(|s| s == m) {
                return Some(stack[i..].to_vec());
            }
            if done.contains(m) {
                return None;
            }
            stack.push(m.to_string());
            for n in g.get(m).into_iter().flatten() {
                if let Some(c) = visit(n, g, stack, done) {
                    return Some(c);
                }
            }
            stack.pop();
            done.insert(m.to_string());
            None
        }
        let mut done = BTreeSet::new();
        for m in graph.keys() {
            if let Some(cycle) = visit(m, &graph, &mut Vec::new(), &mut done) {
                panic!("{name}: modules import each other in a cycle: {}", cycle.join(" -> "));
            }
        }
    }
}

#[test]
fn no_subcommand_uses_another() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = module_graph(&src);
    assert!(graph.len() > 5, "the subcommand modules of {} were found", src.display());
    for (m, uses) in &graph {
        assert!(uses.is_empty(), "wpp subcommand `{m}` uses {uses:?}: shared code belongs in a library crate");
    }
}

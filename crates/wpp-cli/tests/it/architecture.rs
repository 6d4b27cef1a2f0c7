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
    &["wpp-base"],
    &["wpp-model", "wpp-grammar", "wpp-workloads"],
    &["wpp-paths"],
    &["wpp-wasm", "wpp-profile"],
    &["wpp-runtime", "wpp-twpp"],
    &["wpp-report"],
    &["wpp-record", "wpp-dataflow", "wpp-html", "wpp-export"],
    &["wpp-text"],
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
    for c in ["wpp-model", "wpp-paths", "wpp-grammar", "wpp-report", "wpp-twpp", "wpp-html", "wpp-export"] {
        forbid(c, &wasm, "it knows nothing of WebAssembly");
        // Not through another crate of the workspace either.
        for d in workspace_closure(&crates, c) {
            assert!(!wasm.contains(&d.as_str()), "{c} depends on {d} through other crates: it knows nothing of WebAssembly");
        }
    }
    forbid(
        "wpp-record",
        &["wpp-twpp", "wpp-dataflow", "wpp-html", "wpp-report"],
        "it records; the analyses of a recorded run live in wpp-dataflow, wpp-report and wpp-html (names of paths are wpp-profile's)",
    );
    forbid("wpp-html", &["wpp-dataflow", "wpp-record"], "the page renders the rows of wpp-report; the caller computes data flow");
    forbid("wpp-grammar", &["wpp-model", "wpp-paths"], "terminals are numbers, not paths");
    forbid("wpp-profile", &["wpp-wasm"], "a profile is decodable without the module");
    forbid("wpp-wasm", &["wasmtime", "wasmtime-wasi"], "it does not run code");
    assert!(crates["wpp-base"].1.is_empty(), "wpp-base depends on {:?}: it is the base of every crate and needs nothing", crates["wpp-base"].1);
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

/// The workspace crates `name` depends on, directly or through others.
fn workspace_closure(crates: &BTreeMap<String, (PathBuf, BTreeSet<String>)>, name: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![name.to_string()];
    while let Some(c) = todo.pop() {
        for d in crates.get(&c).map(|x| &x.1).into_iter().flatten() {
            if crates.contains_key(d) && seen.insert(d.clone()) {
                todo.push(d.clone());
            }
        }
    }
    seen
}

/// Every file module of a crate (`src/a.rs` and `src/a/mod.rs` are `a`, `src/a/b.rs` is
/// `a::b`; `lib.rs` and `main.rs` are the root, ``) with its source.
fn file_modules(src: &Path) -> Vec<(Vec<String>, String)> {
    fn walk(dir: &Path, prefix: &[String], out: &mut Vec<(Vec<String>, String)>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                let mut inner = prefix.to_vec();
                inner.push(p.file_name().unwrap().to_string_lossy().into_owned());
                walk(&p, &inner, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let mut module = prefix.to_vec();
                let root = prefix.is_empty() && (name == "lib" || name == "main");
                if !root && name != "mod" {
                    module.push(name);
                }
                // Inline test modules speak of their own file's items with `super::`.
                let text = std::fs::read_to_string(&p).unwrap();
                let text = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
                out.push((module, text));
            }
        }
    }
    let mut out = Vec::new();
    walk(src, &[], &mut out);
    out
}

/// The module paths `text` names from `crate::`, `super::` (any number) and `self::`,
/// each as written: the segments after the prefix, resolved against `module`; a braced
/// list gives one path per entry.
fn named_paths(module: &[String], text: &str) -> Vec<Vec<String>> {
    let ident = |s: &str| -> String { s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in text.match_indices(start) {
            // A path starts here, not inside a longer one (`foo::super::` is not Rust).
            if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':') {
                continue;
            }
            let mut base: Vec<String> = match start {
                "crate::" => Vec::new(),
                "self::" => module.to_vec(),
                _ => module[..module.len().saturating_sub(1)].to_vec(),
            };
            let mut rest = &text[i + start.len()..];
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            // Segments up to a brace or the end of the path.
            loop {
                let name = ident(rest);
                if name.is_empty() {
                    break;
                }
                match rest[name.len()..].strip_prefix("::") {
                    Some(r) => {
                        base.push(name);
                        rest = r;
                    }
                    None => {
                        base.push(name);
                        rest = "";
                        break;
                    }
                }
            }
            match rest.strip_prefix('{') {
                Some(list) => {
                    let list = &list[..list.find('}').unwrap_or(list.len())];
                    for entry in list.split(',') {
                        let mut p = base.clone();
                        p.extend(entry.trim().split("::").map(ident).filter(|s| !s.is_empty()));
                        out.push(p);
                    }
                }
                None => out.push(base),
            }
        }
    }
    out
}

/// The module graph of a crate: each file module and the other file modules it names
/// (through `crate::`, `super::` or `self::` paths, in `use` or in code). A path is
/// resolved to the longest module it starts with; naming an item of an enclosing module
/// (`super::Env` in `a/b.rs`, defined in `a/mod.rs`) or of a module inside one's own is
/// containment, not an import, and is not an edge.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = file_modules(src);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(m, _)| m.clone()).collect();
    let key = |m: &[String]| m.join("::");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, text) in &files {
        let uses = graph.entry(key(m)).or_default();
        for path in named_paths(m, text) {
            let Some(target) = (0..=path.len()).rev().map(|n| &path[..n]).find(|p| modules.contains(*p)) else { continue };
            let contains = |outer: &[String], inner: &[String]| inner.starts_with(outer);
            if contains(target, m) || contains(m, target) {
                continue;
            }
            uses.insert(key(target));
        }
    }
    graph
}

#[test]
fn module_paths_resolve() {
    let m = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    let paths = named_paths(
        &m("instrument::hash_fn"),
        "use super::env::Env;\nuse super::{additions::CarryTypes, layout};\nuse crate::abi;\nx = super::super::decode::f();",
    );
    let paths: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert!(paths.contains(&"instrument::env::Env".to_string()), "{paths:?}");
    assert!(paths.contains(&"instrument::additions::CarryTypes".to_string()), "{paths:?}");
    assert!(paths.contains(&"instrument::layout".to_string()), "{paths:?}");
    assert!(paths.contains(&"abi".to_string()), "{paths:?}");
    assert!(paths.contains(&"decode::f".to_string()), "{paths:?}");
    // Two sibling files that name each other through `super::` form a circle this test sees.
    let dir = std::env::temp_dir().join(format!("wpp-architecture-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;").unwrap();
    std::fs::write(dir.join("a/mod.rs"), "mod b; mod c; pub struct T;").unwrap();
    std::fs::write(dir.join("a/b.rs"), "use super::c::f; use super::T;").unwrap();
    std::fs::write(dir.join("a/c.rs"), "pub fn f() { super::b::g() }").unwrap();
    let g = module_graph(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(g["a::b"], BTreeSet::from(["a::c".to_string()]));
    assert_eq!(g["a::c"], BTreeSet::from(["a::b".to_string()]));
    assert!(g["a"].is_empty() && g[""].is_empty(), "{g:?}");
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

/// Lines a subcommand file may have: its options (whose doc comments are the help), one
/// library call and one render call.
const SUBCOMMAND_LINES: usize = 150;

/// The binary's files lay no text out: what `wpp` prints for a person is `wpp-text`'s, so
/// no subcommand file holds a printing or writing macro (`main` prints the one error line;
/// `error` turns an error into that line).
#[test]
fn subcommand_files_are_options_a_call_and_a_render() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut todo = vec![src.clone()];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 10, "the subcommand files of {} were found", src.display());
    for p in files {
        let name = p.strip_prefix(&src).unwrap().display().to_string();
        let text = std::fs::read_to_string(&p).unwrap();
        let lines = text.lines().count();
        assert!(
            lines <= SUBCOMMAND_LINES,
            "{name} has {lines} lines, over its budget of {SUBCOMMAND_LINES}: move what is not options, a library call or a render call into a library"
        );
        if name == "main.rs" || name == "error.rs" {
            continue;
        }
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for m in ["println!(", "print!(", "eprintln!(", "eprint!(", "writeln!(", "write!("] {
            assert!(!code.contains(m), "{name} uses {m}..): text for a person is laid out by wpp-text");
        }
    }
}

/// ARCHITECTURE.md and the testing guide stay scannable: no line longer than 400
/// characters (a paragraph goes on over several lines).
#[test]
fn architecture_lines_are_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for doc in ["ARCHITECTURE.md", "docs/testing.md"] {
        let path = root.join(doc);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let long: Vec<String> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.chars().count() > 400)
            .map(|(i, l)| format!("{doc}:{}: {} characters", i + 1, l.chars().count()))
            .collect();
        assert!(long.is_empty(), "lines over 400 characters:\n{}", long.join("\n"));
    }
}

//! Whole program paths of the real programs of `workloads/` (built by
//! `workloads/build.sh`): for each test run, the grammar profile expands to exactly the
//! event sequence a trace-mode recording of the same run holds. Every program is recorded
//! with the default builder and one more (SEQUITUR with rule prediction or Re-Pair,
//! alternating), and each grammar must satisfy SEQUITUR's properties where the builder
//! guarantees them.

use std::path::Path;
use std::process::{Command, Stdio};

use wpp_profile::Profile;
use wpp_workloads::{Manifest, Program, Run};

fn record(m: &Manifest, p: &Program, run: &Run, out: &Path, mode_args: &[&str]) {
    let dir = &m.dir;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wpp"));
    cmd.arg("record").args(mode_args).arg("-o").arg(out);
    for d in &run.dirs {
        cmd.arg("--dir").arg(format!("{}::{d}", dir.join(d).display()));
    }
    cmd.arg(dir.join(&p.wasm)).arg("--").args(&run.args);
    let stdin = match &run.stdin {
        Some(s) => Stdio::from(std::fs::File::open(dir.join(s)).unwrap()),
        None => Stdio::null(),
    };
    let o = cmd.stdin(stdin).stdout(Stdio::null()).output().unwrap();
    assert!(o.status.success(), "{}: {mode_args:?}: {}", p.name, String::from_utf8_lossy(&o.stderr));
}

/// Event count and order hash of a profile's trace or grammar.
fn fingerprint(path: &Path) -> (u64, u64) {
    let p = Profile::open(path).unwrap();
    let (mut n, mut h) = (0u64, wpp_paths::split::HASH_START);
    p.for_each_event(|e| {
        n += 1;
        h = wpp_paths::split::hash_event(h, e);
    })
    .unwrap();
    (n, h)
}

fn check(name: &str, second: &str) {
    let m = Manifest::in_tree().unwrap();
    let (p, run) = m.run(name, "test").unwrap();
    let d = std::env::temp_dir().join(format!("wpp-real-grammar-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let trace = d.join("trace.wpp");
    record(&m, p, run, &trace, &["--mode", "trace"]);
    let expected = fingerprint(&trace);
    assert!(expected.0 > 10_000, "{name}: only {} events", expected.0);
    for builder in ["sequitur1", second] {
        let g = d.join(format!("{builder}.wpp"));
        let mut args = vec!["--grammar", builder.trim_end_matches("+p")];
        if builder.ends_with("+p") {
            args.push("--predict");
        }
        record(&m, p, run, &g, &args);
        assert_eq!(fingerprint(&g), expected, "{name}/{builder}: the grammar does not expand to the trace");
        let profile = Profile::open(&g).unwrap();
        let grammar = profile.grammar().unwrap();
        if builder != "repair" {
            grammar.check_sequitur_properties().unwrap_or_else(|e| panic!("{name}/{builder}: {e}"));
        }
        eprintln!("{name}/{builder}: {} events, {} rules, {} grammar symbols", expected.0, grammar.rules.len(), grammar.n_symbols());
    }
    std::fs::remove_dir_all(&d).unwrap();
}

macro_rules! programs {
    ($($test:ident => $name:literal, $second:literal),* $(,)?) => {
        $(#[test] fn $test() { check($name, $second) })*

        #[test]
        fn manifest_is_covered() {
            let m = Manifest::in_tree().unwrap();
            let tested = [$($name),*];
            for p in &m.programs {
                assert!(tested.contains(&p.name.as_str()), "{} has no test", p.name);
            }
        }
    };
}

programs! {
    bzip2 => "bzip2", "sequitur+p",
    bzip2_decompress => "bzip2-d", "repair",
    zlib => "zlib", "sequitur+p",
    zstd => "zstd", "repair",
    lz4 => "lz4", "sequitur+p",
    xz => "xz", "repair",
    lua => "lua", "sequitur+p",
    sqlite => "sqlite", "repair",
    tree_sitter_c => "tree-sitter-c", "sequitur+p",
    pcre2 => "pcre2", "repair",
    cjpeg => "cjpeg", "sequitur+p",
}

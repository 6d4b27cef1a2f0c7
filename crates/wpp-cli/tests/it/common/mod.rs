//! Running the `wpp` binary from the command-line tests.
#![allow(dead_code)] // each test file uses its own selection

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn wpp() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wpp"))
}

/// An empty directory of this test process's own, named after `name`. A test's directory
/// stays after it, to look into when it fails; the first call of a process removes those of
/// test processes that have ended, so runs do not pile up in the temporary directory.
pub fn scratch(name: &str) -> PathBuf {
    static SWEEP: std::sync::Once = std::sync::Once::new();
    SWEEP.call_once(|| {
        let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(pid) = name.strip_prefix("wpp-cli-").and_then(|r| r.split('-').next()).and_then(|p| p.parse::<u32>().ok()) else { continue };
            if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    });
    let d = std::env::temp_dir().join(format!("wpp-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs with no input.
pub fn run(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null()).output().unwrap()
}

/// Runs with no input, expecting success; its stdout.
pub fn ok(cmd: &mut Command) -> Vec<u8> {
    let out = run(cmd);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// (function index, path id) → count: the rows of a list of paths in a report's JSON
/// (`wpp paths`' `paths`, `wpp ppp report`'s `residual`).
pub fn path_rows(v: &serde_json::Value) -> std::collections::BTreeMap<(u64, u64), u64> {
    v.as_array().unwrap().iter().map(|x| ((x["function_index"].as_u64().unwrap(), x["path_id"].as_u64().unwrap()), x["count"].as_u64().unwrap())).collect()
}

/// Every path's count in `wpp paths --json --top 0 PROFILE ARGS`.
pub fn path_counts(profile: &Path, args: &[&str]) -> std::collections::BTreeMap<(u64, u64), u64> {
    path_rows(&json(wpp().args(["paths", "--json", "--top", "0"]).arg(profile).args(args))["paths"])
}

/// Runs with no input, expecting success and JSON on stdout.
pub fn json(cmd: &mut Command) -> serde_json::Value {
    serde_json::from_slice(&ok(cmd)).unwrap()
}

/// Records run `run` of workload program `p` (of manifest `m`) into `out` with
/// `wpp record ARGS`, its output discarded.
pub fn record_run(m: &wpp_workloads::Manifest, p: &wpp_workloads::Program, run: &wpp_workloads::Run, out: &std::path::Path, args: &[&str]) {
    let dir = &m.dir;
    let mut cmd = wpp();
    cmd.arg("record").args(args).arg("-o").arg(out);
    for d in &run.dirs {
        cmd.arg("--dir").arg(format!("{}::{d}", dir.join(d).display()));
    }
    cmd.arg(dir.join(&p.wasm)).arg("--").args(&run.args);
    let stdin = match &run.stdin {
        Some(s) => Stdio::from(std::fs::File::open(dir.join(s)).unwrap()),
        None => Stdio::null(),
    };
    let o = cmd.stdin(stdin).stdout(Stdio::null()).output().unwrap();
    assert!(o.status.success(), "{}: {args:?}: {}", p.name, String::from_utf8_lossy(&o.stderr));
}

/// `c/NAME.c` of the test support crate compiled for wasm32-wasi with DWARF at `opt`, or
/// `None` (after a skip note, or a failure under the full suite) without clang.
pub fn compile_c(dir: &Path, name: &str, opt: &str) -> Option<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../wpp-test-support/c/{name}.c"));
    let out = dir.join(format!("{name}.wasm"));
    let mut clang = Command::new("clang");
    clang.args(["--target=wasm32-wasi", opt, "-g", "-o"]).arg(&out).arg(&src).current_dir(src.parent().unwrap());
    clang_wasi(&mut clang, &src, out)
}

/// `src`, a C file anywhere, compiled like [`compile_c`] into `dir/STEM.wasm`, but
/// reproducibly: clang runs in the file's directory on its bare name, and the debugging
/// information calls that directory `.`, so neither the module's bytes nor the source file
/// names reports show (`STEM.c`) depend on where the checkout is. `None` (after a skip
/// note, or a failure under the full suite) without clang.
pub fn compile_c_reproducibly(dir: &Path, src: &Path, opt: &str) -> Option<PathBuf> {
    let (Some(src_dir), Some(file), Some(stem)) = (src.parent(), src.file_name(), src.file_stem()) else { panic!("{}: not a C file", src.display()) };
    let out = dir.join(stem).with_extension("wasm");
    let mut clang = Command::new("clang");
    clang
        .args(["--target=wasm32-wasi", opt, "-g"])
        .arg(format!("-fdebug-prefix-map={}=.", src_dir.display()))
        .arg("-o")
        .arg(&out)
        .arg(file)
        .current_dir(src_dir);
    clang_wasi(&mut clang, src, out)
}

/// Runs `clang` on `src`; `out` if it succeeded, otherwise `None` after a skip note (or a
/// failure under the full suite).
fn clang_wasi(clang: &mut Command, src: &Path, out: PathBuf) -> Option<PathBuf> {
    let name = src.file_name().unwrap_or_default().to_string_lossy();
    match clang.status() {
        Ok(s) if s.success() => Some(out),
        other => {
            wpp_test_support::workloads::skip_or_fail(&format!("compiling {name}"), &format!("clang for wasm32-wasi could not compile {name} ({other:?})"));
            None
        }
    }
}

/// Event count and order hash of a profile's whole program path (trace or grammar).
pub fn fingerprint(path: &Path) -> (u64, u64) {
    let p = wpp_profile::Profile::open(path).unwrap();
    let (mut n, mut h) = (0u64, wpp_paths::split::HASH_START);
    p.for_each_event(|e| {
        n += 1;
        h = wpp_paths::split::hash_event(h, e);
    })
    .unwrap();
    (n, h)
}

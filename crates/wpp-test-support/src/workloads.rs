//! The real programs of `workloads/workloads.json` (built by `workloads/build.sh`) for the
//! suites that run them, and what a test does when something it needs is not there.
//!
//! # One test per program and suite
//!
//! A suite is [`real_programs!`]`(suite, |manifest, index, program| CHECK)`: a module
//! `suite` with one `#[test]` per program, named after it (`dff::real_programs::lua`), so
//! that the harness lists, runs in parallel, times and reports each program of each suite
//! on its own, and `cargo test -- real_programs::lua` runs one. The programs are
//! [`with_program_names!`]'s list, held to `workloads/workloads.json` by a unit test (a
//! program added to the manifest is added there, and every suite tests it).
//! `WPP_PROGRAMS=lua,sqlite` runs only those programs.
//!
//! A check that needs every program at once (what the tests of all programs together
//! cover) is one `#[test]` calling [`for_each_program`], which runs the programs on a pool
//! of `RUST_TEST_THREADS` threads and fails at the end naming every program that failed.
//!
//! # Fast suite and full suite
//!
//! Which suite runs is chosen by intent, not by what happens to be built. Plain `cargo
//! test` is the fast suite: it runs no real program, built or not, and says so in a
//! one-line note on stderr (written past the harness's capture, so it shows).
//! `scripts/test.sh` builds the workloads and sets [`FULL_SUITE`]`=1`: then every real
//! program runs and anything missing fails the test, so the full suite never passes a
//! real-program test that did not run. `WPP_PROGRAMS=lua` runs the named programs
//! without the rest of the full suite (and skips what is not built). [`skip_or_fail`]
//! applies the same rule to other prerequisites (a C compiler for wasm32-wasi).

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

pub use wpp_workloads::{Manifest, Program};

/// The environment variable that makes this the full suite (`scripts/test.sh` sets it).
pub const FULL_SUITE: &str = "WPP_FULL_SUITE";

/// The environment variable that restricts the real programs to a comma-separated list.
pub const ONLY_PROGRAMS: &str = "WPP_PROGRAMS";

/// Whether real programs run: in the full suite, or when `WPP_PROGRAMS` names some. In
/// the fast suite they are skipped, with a note (once per test binary, naming `test`).
pub fn real_programs_wanted(test: &str) -> bool {
    if full_suite() || std::env::var(ONLY_PROGRAMS).is_ok_and(|s| !s.trim().is_empty()) {
        return true;
    }
    static NOTED: std::sync::Once = std::sync::Once::new();
    NOTED.call_once(|| {
        note(&format!(
            "{test} and the other real-program tests skipped: they run in the full suite (`scripts/test.sh`), or name the programs: {ONLY_PROGRAMS}=lua,sqlite"
        ))
    });
    false
}

/// Whether this is the full suite: `WPP_FULL_SUITE` set to anything but empty or `0`.
pub fn full_suite() -> bool {
    std::env::var_os(FULL_SUITE).is_some_and(|v| !v.is_empty() && v != "0")
}

/// The manifest of this source tree (its directory made canonical, for readable paths).
pub fn manifest() -> Manifest {
    let mut m = Manifest::in_tree().unwrap_or_else(|e| panic!("the workloads manifest: {e}"));
    m.dir = m.dir.canonicalize().unwrap_or(m.dir);
    m
}

/// Prints a one-line note on stderr even while the test harness captures output.
pub fn note(line: &str) {
    let _ = writeln!(std::io::stderr(), "note: {line}");
}

/// Something `test` needs is missing (`why`): under the full suite this panics; in the fast
/// suite it prints a note, and the caller returns without running it.
pub fn skip_or_fail(test: &str, why: &str) {
    if full_suite() {
        panic!("{test}: {why}, and {FULL_SUITE} is set: the full suite runs everything");
    }
    note(&format!("{test} skipped: {why}; `scripts/test.sh` builds everything and runs the full suite"));
}

/// The built module of workload program `name`, or `None` (after [`skip_or_fail`]) when it
/// is not built.
pub fn module(test: &str, name: &str) -> Option<PathBuf> {
    if !real_programs_wanted(test) {
        return None;
    }
    let m = manifest();
    let p = m.program(name).unwrap_or_else(|e| panic!("{test}: {e}"));
    let path = m.path(&p.wasm);
    if path.exists() {
        Some(path)
    } else {
        skip_or_fail(test, &format!("the workloads are not built ({} is missing)", path.display()));
        None
    }
}

/// Runs `check(manifest, index, program)` on every program of the manifest (or of
/// `WPP_PROGRAMS`), `index` being the program's position in the manifest, on a pool of
/// threads; panics at the end naming every program whose check panicked. Nothing runs in
/// the fast suite ([`real_programs_wanted`]). Programs not built are skipped, or fail the
/// suite under the full suite. `suite` names the suite in
/// notes and failures.
pub fn for_each_program(suite: &str, check: impl Fn(&Manifest, usize, &Program) + Sync) {
    if !real_programs_wanted(suite) {
        return;
    }
    let m = manifest();
    let selected = selection(&m);
    type Numbered<'a> = Vec<(usize, &'a Program)>;
    let (todo, unbuilt): (Numbered<'_>, Numbered<'_>) = selected.into_iter().partition(|(_, p)| missing_files(&m, p).is_empty());
    if let Some(&(_, first)) = unbuilt.first() {
        let missing = missing_files(&m, first)[0].display().to_string();
        if todo.is_empty() {
            skip_or_fail(suite, &format!("the workloads are not built ({missing} is missing)"));
        } else {
            let names: Vec<&str> = unbuilt.iter().map(|(_, p)| p.name.as_str()).collect();
            skip_or_fail(&format!("{suite} on {}", names.join(", ")), &format!("not built ({missing} is missing)"));
        }
    }
    let failures = run_pool(&m, &todo, &check);
    if !failures.is_empty() {
        let list: Vec<String> = failures.iter().map(|(name, msg)| format!("{name}: {msg}")).collect();
        let names: Vec<&str> = failures.iter().map(|(name, _)| name.as_str()).collect();
        panic!("{suite}: {} of {} programs failed (rerun with {ONLY_PROGRAMS}={}):\n{}", failures.len(), todo.len(), names.join(","), list.join("\n"));
    }
}

/// Calls macro `$m` with `$args`, then `;` and every program of the manifest as
/// `(test_name "program-name")`, in manifest order: the one list the per-program tests
/// ([`real_programs!`]) and [`PROGRAMS`] are made from. A unit test holds it to
/// `workloads/workloads.json`.
#[doc(hidden)]
#[macro_export]
macro_rules! with_program_names {
    ($m:ident!($($args:tt)*)) => {
        $crate::$m!($($args)*; (bzip2 "bzip2") (bzip2_d "bzip2-d") (zlib "zlib") (zstd "zstd") (lz4 "lz4") (xz "xz")
            (lua "lua") (sqlite "sqlite") (tree_sitter_c "tree-sitter-c") (pcre2 "pcre2") (cjpeg "cjpeg"));
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! program_list {
    (; $(($t:ident $p:literal))*) => {
        /// The manifest's programs, in its order ([`with_program_names!`]'s list).
        pub const PROGRAMS: &[&str] = &[$($p),*];
    };
}

with_program_names!(program_list!());

/// One `#[test]` per real program: `real_programs!(suite, |m, i, p| BODY)` declares a
/// module `suite` holding a test named after each program (`suite::lua`,
/// `suite::tree_sitter_c`), which runs `BODY` with the manifest, the program's position in
/// it and the program ([`run_program`] says when it is skipped). The module sees
/// everything its parent does.
#[macro_export]
macro_rules! real_programs {
    ($(#[$attr:meta])* $suite:ident, $check:expr) => {
        $(#[$attr])*
        mod $suite {
            #[allow(unused_imports)]
            use super::*;

            fn program_check() -> impl Fn(&$crate::workloads::Manifest, usize, &$crate::workloads::Program) {
                $check
            }

            $crate::with_program_names!(real_program_tests!($suite));
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! real_program_tests {
    ($suite:ident; $(($t:ident $p:literal))*) => {
        $(
            #[test]
            fn $t() {
                $crate::workloads::run_program(concat!(module_path!(), "::", stringify!($t)), $p, program_check());
            }
        )*
    };
}

/// Runs `check(manifest, index, program)` on program `name` for test `test`, unless this
/// is the fast suite ([`real_programs_wanted`]) or `WPP_PROGRAMS` leaves the program out.
/// A program not built is skipped, or fails the test under the full suite.
pub fn run_program(test: &str, name: &str, check: impl Fn(&Manifest, usize, &Program)) {
    if !real_programs_wanted(test) {
        return;
    }
    let m = manifest();
    let Some((index, p)) = selection(&m).into_iter().find(|(_, p)| p.name == name) else {
        m.program(name).unwrap_or_else(|e| panic!("{test}: {e}"));
        return; // left out by WPP_PROGRAMS
    };
    if let Some(missing) = missing_files(&m, p).first() {
        skip_or_fail(test, &format!("{name} is not built ({} is missing)", missing.display()));
        return;
    }
    check(&m, index, p);
}

/// The manifest's programs with their positions, restricted to `WPP_PROGRAMS` when set.
fn selection(m: &Manifest) -> Vec<(usize, &Program)> {
    let all = m.programs.iter().enumerate();
    let Some(only) = std::env::var(ONLY_PROGRAMS).ok().filter(|s| !s.is_empty()) else { return all.collect() };
    let names: Vec<&str> = only.split(',').map(str::trim).collect();
    for n in &names {
        m.program(n).unwrap_or_else(|e| panic!("{ONLY_PROGRAMS}: {e}"));
    }
    all.filter(|(_, p)| names.contains(&p.name.as_str())).collect()
}

/// The files of `p` that do not exist: its module and the inputs of its runs.
fn missing_files(m: &Manifest, p: &Program) -> Vec<PathBuf> {
    let runs = p.runs.values();
    let inputs = runs.flat_map(|r| r.stdin.iter().chain(&r.dirs));
    std::iter::once(&p.wasm).chain(inputs).map(|f| m.path(f)).filter(|f| !f.exists()).collect()
}

/// Runs the checks on `RUST_TEST_THREADS` threads (default: one per core), each program on
/// a thread of its own named after it; the programs whose check panicked, in manifest
/// order, with the panic's message.
fn run_pool(m: &Manifest, todo: &[(usize, &Program)], check: &(impl Fn(&Manifest, usize, &Program) + Sync)) -> Vec<(String, String)> {
    let n_threads = std::env::var("RUST_TEST_THREADS")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, todo.len().max(1));
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..n_threads {
            s.spawn(|| {
                while let Some(&(index, p)) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let run = std::thread::Builder::new().name(p.name.clone()).spawn_scoped(s, move || check(m, index, p)).unwrap();
                    if let Err(payload) = run.join() {
                        failures.lock().unwrap().push((index, p.name.clone(), panic_message(&*payload)));
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    failures.into_iter().map(|(_, name, msg)| (name, msg)).collect()
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(s), _) => s.to_string(),
        (_, Some(s)) => s.clone(),
        _ => "panicked".into(),
    }
}

/// The module of program `p` and the wasmtime configuration of its run `run` (arguments,
/// granted directories, stdin read from its file and captured output).
#[cfg(feature = "runtime")]
pub fn load_run(m: &Manifest, p: &Program, run: &wpp_workloads::Run) -> (Vec<u8>, wpp_runtime::RunConfig) {
    let wasm_path = m.dir.join(&p.wasm);
    let wasm = std::fs::read(&wasm_path).unwrap_or_else(|e| panic!("{}: {e}", wasm_path.display()));
    let stdin = run.stdin.as_ref().map(|s| std::fs::read(m.dir.join(s)).unwrap()).unwrap_or_default();
    let cfg = wpp_runtime::RunConfig {
        program_name: p.name.clone(),
        args: run.args.clone(),
        dirs: run.dirs.iter().map(|d| (m.dir.join(d), d.clone())).collect(),
        stdio: wpp_runtime::Stdio::Capture { stdin },
        ..Default::default()
    };
    (wasm, cfg)
}

#[cfg(test)]
mod tests {
    /// The per-program tests are the manifest's programs, in its order.
    #[test]
    fn the_program_list_is_the_manifests() {
        let m = super::manifest();
        let names: Vec<&str> = m.programs.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(super::PROGRAMS, names.as_slice(), "with_program_names! must list the programs of workloads/workloads.json");
    }
}

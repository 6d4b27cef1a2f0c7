//! Recordings shared by the tests of every crate: a program run recorded in one mode is
//! recorded once per build of the recording crates, and every test that asks for the same
//! recording reads the same file.
//!
//! The files live in `wpp-recordings/` beside the test binaries' `deps/` in the target
//! directory. A file's name holds a hash of everything the recording depends on: the
//! module's bytes, the run (program name, arguments, environment, the granted directories'
//! contents, stdin), the mode, the path limit, and the sources of the crates a recording
//! goes through (hashed by this crate's build script), so that a change to any of them
//! records again. A recording is written under a name of its own and renamed into place,
//! so tests that ask for it at the same time (threads, or test binaries) both get a whole
//! file. The files of one state of the recording crates are in a directory named by its
//! hash; the first test binary to use a new one removes the others. A run of the suite
//! after a change to anything a recording depends on records again; a run after a change
//! elsewhere (an analysis, a test) reads the recordings made before.
//! `WPP_FRESH_RECORDINGS=1 scripts/test.sh` empties the directory first.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use wpp_record::{Builder, RecordMode, Recorder};
use wpp_runtime::{RunConfig, Stdio};

/// The sources of the recording crates, hashed when this crate was built.
const SOURCES: &str = env!("WPP_RECORDING_SOURCES");

/// The directory of the shared recordings: `wpp-recordings/SOURCES` in the directory of
/// the running test binary's `deps/` (`target/release/`), where SOURCES is the hash of the
/// recording crates' sources. The first call in a process that finds it missing creates
/// it and removes the recordings of other sources.
pub fn dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test binary's path");
        let profile_dir = exe.parent().and_then(Path::parent).expect("the test binary is in TARGET/PROFILE/deps/");
        let all = profile_dir.join("wpp-recordings");
        let dir = all.join(SOURCES);
        if !dir.exists() {
            // Another test binary may be removing them too: what is gone is gone.
            for old in std::fs::read_dir(&all).into_iter().flatten().flatten() {
                if old.file_name() != SOURCES {
                    let _ = std::fs::remove_dir_all(old.path()).or_else(|_| std::fs::remove_file(old.path()));
                }
            }
            std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        dir
    })
    .clone()
}

/// The profile of `wasm` run with `cfg`, recorded in `mode` with at most `max_paths` paths
/// per function: the shared file, recorded now if no test recorded it before. A run with
/// limits is refused (where a stopped run ends depends on timing); the recording must
/// succeed, or the test panics saying why.
pub fn recorded(wasm: &[u8], cfg: &RunConfig, mode: RecordMode, max_paths: u64) -> PathBuf {
    shared(wasm, cfg, mode, max_paths, None)
}

/// The extended WPP of `wasm` run with `cfg` and the filtering run it was recorded with
/// (`(filter, ewpp)`), both shared as [`recorded`]'s are: the filtering run is recorded
/// first, then the extended WPP with its filter.
pub fn recorded_ewpp(wasm: &[u8], cfg: &RunConfig, builder: Builder) -> (PathBuf, PathBuf) {
    let filter = shared(wasm, cfg, RecordMode::EwppFilter, u64::MAX, None);
    let ewpp = shared(wasm, cfg, RecordMode::Ewpp(builder), u64::MAX, Some(&filter));
    (filter, ewpp)
}

/// A shared recording, with the filtering run `filter` when the mode needs one (its name
/// holds the hash of what it was recorded from, and so goes into this one's).
fn shared(wasm: &[u8], cfg: &RunConfig, mode: RecordMode, max_paths: u64, filter: Option<&Path>) -> PathBuf {
    let l = &cfg.limits;
    assert!(l.timeout.is_none() && l.fuel.is_none() && l.max_memory.is_none() && l.stop.is_none(), "{}: a shared recording has no limits", cfg.program_name);
    let mut key = key(wasm, cfg, mode, max_paths);
    if let Some(f) = filter {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (key, f.file_name()).hash(&mut h);
        key = h.finish();
    }
    let dir = dir();
    let name: String = cfg.program_name.chars().map(|c| if c.is_ascii_alphanumeric() || "-_".contains(c) { c } else { '_' }).collect();
    let path = dir.join(format!("{name}-{key:016x}.wpp"));
    if path.exists() {
        return path;
    }
    let unique = format!("{}-{:?}", std::process::id(), std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric(), "_");
    let partial = dir.join(format!("{name}-{key:016x}.{unique}.partial"));
    Recorder::from_bytes(&cfg.program_name, wasm.to_vec())
        .and_then(|r| match filter {
            Some(f) => r.mode(mode).filter(f),
            None => Ok(r.mode(mode)),
        })
        .and_then(|r| r.max_paths(max_paths).run_config(cfg.clone()).record(&partial))
        .unwrap_or_else(|e| panic!("{}: recording in {mode:?}: {e}", cfg.program_name));
    std::fs::rename(&partial, &path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path
}

/// The hash of what a recording depends on.
fn key(wasm: &[u8], cfg: &RunConfig, mode: RecordMode, max_paths: u64) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    SOURCES.hash(&mut h);
    wasm.hash(&mut h);
    (&cfg.program_name, &cfg.args, &cfg.env).hash(&mut h);
    for (host, guest) in &cfg.dirs {
        guest.hash(&mut h);
        crate::tree_hash::hash_tree(host, &mut h).unwrap_or_else(|e| panic!("{}: {e}", host.display()));
    }
    match &cfg.stdio {
        Stdio::Inherit => 0u8.hash(&mut h),
        Stdio::Capture { stdin } => (1u8, stdin).hash(&mut h),
    }
    format!("{mode:?}").hash(&mut h);
    max_paths.hash(&mut h);
    h.finish()
}

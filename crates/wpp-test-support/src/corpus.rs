//! The `.wat` test programs (`wat/` in this crate): small WASI programs, each written to
//! exercise one control-flow shape, which its header comment names. Every suite that runs
//! a hand-written program takes it from here by name (the file name without `.wat`).

use std::path::{Path, PathBuf};

/// The programs that use exception handling.
pub const EXCEPTIONS: &[&str] = &["exceptions", "setjmp", "uncaught"];

/// The programs whose exceptions unwind invocations and the run goes on (a `throw` caught
/// in a caller): analyses that follow calls on the grammar alone refuse them. (`uncaught`
/// catches its exceptions where they are thrown, but the last, which ends the run.)
pub const UNWINDING: &[&str] = &["exceptions", "setjmp"];

/// The directory holding the programs.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("wat")
}

/// The source file of program `name`.
pub fn path(name: &str) -> PathBuf {
    dir().join(format!("{name}.wat"))
}

/// Program `name` compiled to a module.
pub fn bytes(name: &str) -> Vec<u8> {
    let p = path(name);
    wat::parse_file(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The names of all the programs, sorted.
pub fn names() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "wat"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Compiles program `name` into `dir/NAME.wasm` (for tests of the command line); the
/// module's path.
pub fn wat_program(dir: &Path, name: &str) -> PathBuf {
    let out = dir.join(format!("{name}.wasm"));
    std::fs::write(&out, bytes(name)).unwrap();
    out
}

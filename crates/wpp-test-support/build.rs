//! Hashes the sources of the crates a recording goes through (and `Cargo.lock`) into
//! `WPP_RECORDING_SOURCES`, so that a recording the tests share (`recordings`) is made
//! again whenever any of them changes.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// `wpp-record` and the wpp crates it depends on.
const RECORDING_CRATES: &[&str] = &["wpp-base", "wpp-model", "wpp-paths", "wpp-grammar", "wpp-wasm", "wpp-profile", "wpp-runtime", "wpp-record"];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let crates = manifest.parent().expect("the crates directory");
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut inputs: Vec<PathBuf> = RECORDING_CRATES.iter().flat_map(|c| [crates.join(c).join("src"), crates.join(c).join("Cargo.toml")]).collect();
    inputs.push(crates.parent().expect("the workspace").join("Cargo.lock"));
    for p in &inputs {
        println!("cargo:rerun-if-changed={}", p.display());
        hash_tree(p, &mut h);
    }
    println!("cargo:rustc-env=WPP_RECORDING_SOURCES={:016x}", h.finish());
}

/// Hashes the names and contents of the files under `p`, in name order.
fn hash_tree(p: &Path, h: &mut impl Hasher) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p).into_iter().flatten().flatten().map(|e| e.path()).collect();
        entries.sort();
        for e in entries {
            hash_tree(&e, h);
        }
    } else if let Ok(bytes) = std::fs::read(p) {
        p.file_name().hash(h);
        bytes.hash(h);
    }
}

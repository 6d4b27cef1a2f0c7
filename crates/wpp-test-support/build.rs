//! Hashes the sources of the crates a recording goes through (and `Cargo.lock`) into
//! `WPP_RECORDING_SOURCES`, so that a recording the tests share (`recordings`) is made
//! again whenever any of them changes.

use std::hash::Hasher;
use std::path::PathBuf;

#[path = "src/tree_hash.rs"]
mod tree_hash;

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
        tree_hash::hash_tree(p, &mut h).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    }
    println!("cargo:rustc-env=WPP_RECORDING_SOURCES={:016x}", h.finish());
}

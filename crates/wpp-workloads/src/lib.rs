//! The real-program workloads listed in `workloads/workloads.json` (built by
//! `workloads/build.sh`): each program's module and its named runs (`test`, `bench`).
//!
//! Paths in the manifest are relative to the directory holding it.
//!
//! ## Code map
//!
//! The workloads manifest (`workloads/workloads.json`): programs, their runs, paths
//! relative to the manifest; shared by `wpp-bench` and the real-program tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The manifest: every program.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Manifest {
    /// The directory the manifest was read from; the programs' paths are relative to it.
    #[serde(skip)]
    pub dir: PathBuf,
    pub programs: Vec<Program>,
}

/// One program and its runs.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Program {
    pub name: String,
    /// The module, relative to the manifest's directory.
    pub wasm: String,
    pub runs: BTreeMap<String, Run>,
}

/// One run of a program.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Run {
    /// Arguments after the program name.
    pub args: Vec<String>,
    /// A file to feed on stdin, relative to the manifest's directory.
    pub stdin: Option<String>,
    /// Directories to grant, relative to the manifest's directory; the guest sees each under
    /// the same name.
    pub dirs: Vec<String>,
    /// The expected stdout, when known.
    pub stdout_sha256: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Json { path: PathBuf, source: serde_json::Error },
    #[error("{path}: no program named {name}")]
    NoProgram { path: PathBuf, name: String },
    #[error("{path}: program {name} has no run named {run}")]
    NoRun { path: PathBuf, name: String, run: String },
}

impl Manifest {
    /// Reads `dir/workloads.json`.
    pub fn load(dir: &Path) -> Result<Manifest, Error> {
        let path = dir.join("workloads.json");
        let bytes = std::fs::read(&path).map_err(|source| Error::Io { path: path.clone(), source })?;
        let mut m: Manifest = serde_json::from_slice(&bytes).map_err(|source| Error::Json { path: path.clone(), source })?;
        m.dir = dir.to_owned();
        Ok(m)
    }

    /// The workloads directory of this source tree (for tests).
    pub fn in_tree() -> Result<Manifest, Error> {
        Manifest::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../workloads"))
    }

    /// The program called `name`.
    pub fn program(&self, name: &str) -> Result<&Program, Error> {
        self.programs.iter().find(|p| p.name == name).ok_or_else(|| Error::NoProgram { path: self.dir.join("workloads.json"), name: name.into() })
    }

    /// The run called `run` of the program called `name`.
    pub fn run(&self, name: &str, run: &str) -> Result<(&Program, &Run), Error> {
        let p = self.program(name)?;
        let r = p.runs.get(run).ok_or_else(|| Error::NoRun { path: self.dir.join("workloads.json"), name: name.into(), run: run.into() })?;
        Ok((p, r))
    }

    /// The manifest's programs whose names are not in `tested` (for tests that must cover
    /// every program).
    pub fn untested(&self, tested: &[&str]) -> Vec<&str> {
        self.programs.iter().map(|p| p.name.as_str()).filter(|n| !tested.contains(n)).collect()
    }

    /// A path of the manifest (module, stdin file, directory) made usable from here.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.dir.join(relative)
    }
}

//! The store's host state and the WASI context built from a [`RunConfig`].

use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::{FsPerms, WasiCtxBuilder};

use crate::{Error, RunConfig, Stdio};

/// Captured output pipes, when stdio is captured.
pub(crate) struct Captured {
    pub stdout: MemoryOutputPipe,
    pub stderr: MemoryOutputPipe,
}

pub(crate) fn wasi_ctx(cfg: &RunConfig) -> Result<(WasiP1Ctx, Option<Captured>), Error> {
    let mut b = WasiCtxBuilder::new();
    let mut argv = vec![cfg.program_name.clone()];
    argv.extend(cfg.args.iter().cloned());
    b.args(&argv);
    for (k, v) in &cfg.env {
        b.env(k, v);
    }
    for (host, guest) in &cfg.dirs {
        b.preopened_dir(host, guest, FsPerms::ReadWrite).map_err(|e| Error::Dir(host.clone(), e.into()))?;
    }
    let captured = match &cfg.stdio {
        Stdio::Inherit => {
            b.inherit_stdio();
            None
        }
        Stdio::Capture { stdin } => {
            let c = Captured { stdout: MemoryOutputPipe::new(usize::MAX), stderr: MemoryOutputPipe::new(usize::MAX) };
            b.stdin(MemoryInputPipe::new(stdin.clone()));
            b.stdout(c.stdout.clone());
            b.stderr(c.stderr.clone());
            Some(c)
        }
    };
    Ok((b.build_p1(), captured))
}

//! `wpp merge`: what was merged.

use std::io::{self, Write};
use std::path::Path;

use wpp_profile::Merged;
use wpp_report::format::group;

/// What `wpp merge` says when it merged `inputs` profiles into `output`.
pub fn merged(out: &mut dyn Write, m: &Merged, inputs: usize, output: &Path) -> io::Result<()> {
    writeln!(
        out,
        "wpp: merged {} run{} from {} profile{}: {} path executions, {} distinct paths -> {}",
        m.runs,
        if m.runs == 1 { "" } else { "s" },
        inputs,
        if inputs == 1 { "" } else { "s" },
        group(m.executions),
        group(m.paths as u64),
        output.display()
    )
}

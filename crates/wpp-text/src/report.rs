//! `wpp report`: the page written.

use std::io::{self, Write};
use std::path::Path;

/// What `wpp report` says when it wrote a page of `bytes` bytes to `output`, with why the
/// paths are not drawn if they are not.
pub fn wrote(out: &mut dyn Write, output: &Path, bytes: usize, not_drawn: Option<&str>) -> io::Result<()> {
    if let Some(why) = not_drawn {
        writeln!(out, "wpp: warning: the paths are not drawn: {why}")?;
    }
    writeln!(out, "wpp: wrote {} ({} KiB)", output.display(), bytes.div_ceil(1024))
}

//! Where a path is in the program: its source lines, or its bytes in the module.

use std::path::PathBuf;

use wpp_model::{BlockIdx, FuncIdx, PathId};
use wpp_profile::Profile;

/// Source locations of a path's blocks, `FILE:LINE` or `FILE:FIRST-LAST`, in block
/// order, without repeats. Without source lines in the profile, the byte range of the
/// path's blocks in the module: `MODULE+0xSTART-0xEND`.
pub fn source_of(p: &Profile, func: FuncIdx, path: PathId) -> Vec<String> {
    let blocks = p.path_blocks(func, path).unwrap_or_default();
    let mut out: Vec<String> = Vec::new();
    if let Some(map) = &p.source {
        // Consecutive blocks in one file make one range.
        let mut run: Option<wpp_model::LineRange> = None;
        for r in blocks.iter().filter_map(|&b| map.block(func, b)) {
            match &mut run {
                Some(x) if x.file == r.file => {
                    x.first = x.first.min(r.first);
                    x.last = x.last.max(r.last);
                }
                _ => {
                    out.extend(run.and_then(|x| map.format(x)));
                    run = Some(r);
                }
            }
        }
        out.extend(run.and_then(|x| map.format(x)));
    }
    if out.is_empty() {
        let cfg = p.meta.functions.get(func.idx()).and_then(|f| f.cfg.as_ref());
        if let (Some(cfg), Some(first), Some(last)) = (cfg, blocks.first(), blocks.last()) {
            out.push(format!("{}+{:#x}-{:#x}", p.meta.module, cfg.blocks[first.idx()].start, cfg.blocks[last.idx()].end));
        }
    }
    out
}

/// Where one block is: its source lines (`FILE:LINE` or `FILE:FIRST-LAST`), or without
/// them its bytes in the module, `MODULE+0xSTART-0xEND`.
pub fn block_source(p: &Profile, func: FuncIdx, block: BlockIdx) -> String {
    let line = p.source.as_ref().and_then(|s| s.format(s.block(func, block)?));
    line.unwrap_or_else(|| {
        let b = p.meta.functions.get(func.idx()).and_then(|f| f.cfg.as_ref()).and_then(|c| c.blocks.get(block.idx()));
        match b {
            Some(b) => format!("{}+{:#x}-{:#x}", p.meta.module, b.start, b.end),
            None => format!("{}+?", p.meta.module),
        }
    })
}

/// A source file read on this machine ([`read_source`]), with where each line starts.
pub struct SourceText {
    /// The path read.
    pub path: PathBuf,
    text: String,
    starts: Vec<usize>,
}

impl SourceText {
    /// The file the DWARF names `name`, read as [`read_source`] reads it.
    pub fn read(name: &str, map: &[(String, PathBuf)]) -> Option<SourceText> {
        let (path, text) = read_source(name, map)?;
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).filter(|&i| i < text.len()).collect();
        Some(SourceText { path, text, starts })
    }

    /// Line `line` (from 1) without its line ending, if the file has it.
    pub fn line(&self, line: u32) -> Option<&str> {
        let i = line.checked_sub(1)? as usize;
        let start = *self.starts.get(i)?;
        let end = self.starts.get(i + 1).copied().unwrap_or(self.text.len());
        let l = &self.text[start..end];
        let l = l.strip_suffix('\n').unwrap_or(l);
        Some(l.strip_suffix('\r').unwrap_or(l))
    }
}

/// A source file as the DWARF names it (`name`), read on this machine: under TO for each
/// `(FROM, TO)` of `map` whose FROM starts the name (the rest of the name taken under TO),
/// in order, then at the name itself; the first that reads wins. The path read and its
/// text (bytes that are not UTF-8 replaced), or `None` when none reads.
pub fn read_source(name: &str, map: &[(String, PathBuf)]) -> Option<(PathBuf, String)> {
    let mapped = map.iter().filter_map(|(from, to)| Some(to.join(name.strip_prefix(from.as_str())?.trim_start_matches('/'))));
    mapped.chain(std::iter::once(PathBuf::from(name))).find_map(|f| {
        let bytes = std::fs::read(&f).ok()?;
        Some((f, String::from_utf8_lossy(&bytes).into_owned()))
    })
}

//! Where each basic block came from in the program's source, when the module says.

/// The source lines of one block: in file `file` (an index into [`SourceMap::files`]),
/// lines `first..=last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LineRange {
    pub file: u32,
    pub first: u32,
    pub last: u32,
}

/// Source lines per block of every function (imports have none), from the module's DWARF.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SourceMap {
    pub files: Vec<String>,
    /// Indexed by function index, then block index; `None` where no line is known.
    pub blocks: Vec<Vec<Option<LineRange>>>,
}

impl SourceMap {
    /// The source lines of block `block` of function `func`: the one lookup every report
    /// goes through.
    pub fn block(&self, func: crate::FuncIdx, block: crate::BlockIdx) -> Option<LineRange> {
        *self.blocks.get(func.idx())?.get(block.idx())?
    }

    /// `FILE:LINE`, or `FILE:FIRST-LAST` for a range of lines.
    pub fn format(&self, r: LineRange) -> Option<String> {
        let file = self.files.get(r.file as usize)?;
        Some(if r.first == r.last { format!("{file}:{}", r.first) } else { format!("{file}:{}-{}", r.first, r.last) })
    }

    /// Checks that every file index is in range and that there is one entry per block of
    /// each function's CFG (`n_blocks[f]`, 0 for imports).
    pub fn validate(&self, n_blocks: &[usize]) -> Result<(), String> {
        if self.blocks.len() != n_blocks.len() {
            return Err(format!("{} functions, but the program has {}", self.blocks.len(), n_blocks.len()));
        }
        for (f, (blocks, &n)) in self.blocks.iter().zip(n_blocks).enumerate() {
            if blocks.len() != n {
                return Err(format!("function {f} has {} blocks, but its CFG has {n}", blocks.len()));
            }
            for r in blocks.iter().flatten() {
                if r.file as usize >= self.files.len() || r.first > r.last {
                    return Err(format!("function {f}: bad line range {r:?}"));
                }
            }
        }
        Ok(())
    }
}

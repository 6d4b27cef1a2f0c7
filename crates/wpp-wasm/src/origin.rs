//! Where the rewritten module's code came from: the original module's function and byte
//! offset of every instruction a rewrite copied, so that what the engine reports about the
//! running module (a trap's backtrace) can be said about the module the user gave.

use wpp_model::FuncIdx;

/// Where a place in the rewritten module came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Function `func` of the original module, at the instruction at module byte offset
    /// `offset` (the one the code at the place was copied from, or was added after).
    Original { func: FuncIdx, offset: Option<u32> },
    /// Code the rewrite added (recording), not the program's.
    Added,
}

/// For each defined function of the original module, its instructions' byte offsets in the
/// rewritten module and in the original, by rewritten offset.
#[derive(Clone, Debug, Default)]
pub struct Origins {
    /// The original module's imported functions (their indices do not move).
    pub(crate) n_imported: u32,
    /// How far the rewrite moved every defined function's index (the imports it added).
    pub(crate) shift: u32,
    /// By defined function: (rewritten module offset, original module offset), both
    /// increasing.
    pub(crate) funcs: Vec<Vec<(u32, u32)>>,
}

impl Origins {
    /// Where the code of the rewritten module's function `func` at module byte offset
    /// `offset` came from. An offset between two copied instructions belongs to the
    /// earlier one (the rewrite adds code after the instruction whose edge it records);
    /// one before the first, to the first.
    pub fn origin(&self, func: u32, offset: Option<u32>) -> Origin {
        if func < self.n_imported {
            return Origin::Original { func: FuncIdx(func), offset };
        }
        let Some(defined) = func.checked_sub(self.n_imported + self.shift) else { return Origin::Added };
        let Some(marks) = self.funcs.get(defined as usize) else { return Origin::Added };
        let original = FuncIdx(self.n_imported + defined);
        let offset = offset.and_then(|at| {
            let i = marks.partition_point(|&(new, _)| new <= at).saturating_sub(1);
            marks.get(i).map(|&(_, old)| old)
        });
        Origin::Original { func: original, offset }
    }
}

/// The body start of every function in `module`'s code section (where its locals begin,
/// after the size), by defined function.
pub(crate) fn body_starts(module: &[u8]) -> Result<Vec<u32>, wasmparser::BinaryReaderError> {
    let mut starts = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(module) {
        if let wasmparser::Payload::CodeSectionEntry(body) = payload? {
            starts.push(body.range().start as u32);
        }
    }
    Ok(starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_to_the_copied_instruction_at_or_before() {
        let o = Origins { n_imported: 2, shift: 3, funcs: vec![vec![(100, 10), (110, 12), (130, 15)]] };
        assert_eq!(o.origin(1, Some(7)), Origin::Original { func: FuncIdx(1), offset: Some(7) });
        assert_eq!(o.origin(3, Some(100)), Origin::Added, "an added import");
        assert_eq!(o.origin(5, Some(110)), Origin::Original { func: FuncIdx(2), offset: Some(12) });
        assert_eq!(o.origin(5, Some(129)), Origin::Original { func: FuncIdx(2), offset: Some(12) });
        assert_eq!(o.origin(5, Some(99)), Origin::Original { func: FuncIdx(2), offset: Some(10) });
        assert_eq!(o.origin(5, None), Origin::Original { func: FuncIdx(2), offset: None });
        assert_eq!(o.origin(6, Some(130)), Origin::Added, "an added function");
    }
}

//! Function and block signatures, as decoding and the rewrite need them.

use wasmparser::ValType;

/// A function type, as the rewrite needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FuncType {
    pub params: Vec<ValType>,
    pub results: Vec<ValType>,
}

/// The parameters and results of a block of type `bt`; `types` is the module's types.
pub(crate) fn block_signature(bt: wasmparser::BlockType, types: &[Option<FuncType>]) -> (Vec<ValType>, Vec<ValType>) {
    match bt {
        wasmparser::BlockType::Empty => (vec![], vec![]),
        wasmparser::BlockType::Type(t) => (vec![], vec![t]),
        wasmparser::BlockType::FuncType(i) => match types.get(i as usize) {
            Some(Some(f)) => (f.params.clone(), f.results.clone()),
            _ => (vec![], vec![]),
        },
    }
}

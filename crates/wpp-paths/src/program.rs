//! Numbering a whole program: every function with code, once, shared by everything that
//! needs path numbers (the rewrite, the profile reader, preferential path profiling).

use wpp_model::{FuncIdx, FuncMap, Function};

use crate::{number, Numbering, NumberingError, Options};

/// The Ball-Larus numbering of every function with code, by function index.
pub type ProgramNumbering = FuncMap<Numbering>;

/// A function of the program that cannot be numbered.
#[derive(Debug)]
pub struct ProgramNumberingError {
    pub func: FuncIdx,
    pub name: String,
    pub source: NumberingError,
}

impl std::fmt::Display for ProgramNumberingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "function {} ({}): {}", self.func, self.name, self.source)
    }
}

impl std::error::Error for ProgramNumberingError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Numbers every function of `functions` (in index order) that has code; imports get none.
pub fn number_program(functions: &[Function], opts: &Options) -> Result<ProgramNumbering, ProgramNumberingError> {
    functions
        .iter()
        .map(|f| {
            f.cfg.as_ref().map(|cfg| number(cfg, opts).map_err(|source| ProgramNumberingError { func: f.index, name: f.name.clone(), source })).transpose()
        })
        .collect()
}

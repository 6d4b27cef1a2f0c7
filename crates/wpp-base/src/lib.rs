//! The base every wpp crate builds on, and nothing else: typed indices ([`index!`], the
//! [`Idx`] trait and the index-keyed [`IndexVec`]) and variable-length numbers
//! ([`leb128`], with zigzag for signed ones).
//!
//! It knows no program, path or grammar; a crate that needs one of these things takes it
//! from here rather than writing its own.

pub mod idx;
pub mod leb128;

pub use idx::{Idx, IndexVec};

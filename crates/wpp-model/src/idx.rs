//! Typed indices, so that a block index is never used where a function index is meant.

use std::fmt;

macro_rules! index {
    ($(#[$doc:meta])* $name:ident($ty:ty)) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        #[derive(serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub $ty);

        impl $name {
            /// The index as a `usize`, for indexing a slice.
            #[inline]
            pub fn idx(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

index!(
    /// A function in the module's function index space (imported functions first).
    FuncIdx(u32)
);
index!(
    /// A basic block of one function, numbered in code order from 0 (the entry block).
    BlockIdx(u32)
);
index!(
    /// An edge of one function's control flow graph.
    EdgeIdx(u32)
);
index!(
    /// A Ball-Larus path number, unique within its function.
    PathId(u64)
);

impl BlockIdx {
    /// The entry block of every function.
    pub const ENTRY: BlockIdx = BlockIdx(0);
}

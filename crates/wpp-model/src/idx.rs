//! Typed indices, so that a block index is never used where a function index is meant
//! (declared with [`wpp_base::index!`]).

use wpp_base::index;

index!(
    /// A function in the module's function index space (imported functions first).
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    #[serde(transparent)]
    pub struct FuncIdx(u32);
);
index!(
    /// A basic block of one function, numbered in code order from 0 (the entry block).
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    #[serde(transparent)]
    pub struct BlockIdx(u32);
);
index!(
    /// An edge of one function's control flow graph.
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    #[serde(transparent)]
    pub struct EdgeIdx(u32);
);
index!(
    /// A Ball-Larus path number, unique within its function.
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    #[serde(transparent)]
    pub struct PathId(u64);
);

index! {
    /// A memory access site: an index into a module's table of access sites
    /// ([`crate::access_event::AccessSite`], in the order `wpp_wasm::access_sites` lists
    /// them). Printed and serialized as the bare number.
    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(transparent)]
    pub struct SiteIdx(u32); bare_debug
}

impl BlockIdx {
    /// The entry block of every function.
    pub const ENTRY: BlockIdx = BlockIdx(0);
}

//! One path as every report shows it.

use serde::ser::{Serialize, SerializeStruct, Serializer};
use wpp_model::{BlockIdx, Cfg, PathEvent};
use wpp_profile::Profile;

use crate::source::source_of;

/// A path in a report: its function, Ball-Larus number, cost, blocks and source lines, and
/// how often it ran where the report counts runs.
///
/// Its JSON form is part of the reports' contract. Reports that list paths with their
/// counts (`paths`, the residual paths of a PPP report) serialize it whole:
/// `{"function", "function_index", "path_id", "count", "instructions", "blocks":
/// [{"index", "start", "end"}], "source"}`. Reports whose items are sequences of paths
/// (hot subpaths, queries) serialize each through [`PathRow::brief`]: `{"function",
/// "function_index", "path_id", "blocks": [INDEX, ...], "source"}`.
#[derive(Clone, Debug, PartialEq)]
pub struct PathRow {
    pub function: String,
    pub function_index: u32,
    pub path_id: u64,
    /// Executions, in reports that count them.
    pub count: Option<u64>,
    /// Instructions executed by one run of the path.
    pub instructions: u64,
    pub blocks: Vec<BlockRow>,
    /// `FILE:LINE` ranges of the blocks (from the module's DWARF), or the path's byte range.
    pub source: Vec<String>,
}

/// A basic block of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BlockRow {
    pub index: u32,
    /// Byte offsets of the block in the original module.
    pub start: u32,
    pub end: u32,
}

impl PathRow {
    /// The row of path `e` of `p`'s program (a path its functions have), with `count`.
    pub fn new(p: &Profile, e: PathEvent, count: Option<u64>) -> PathRow {
        let f = &p.meta.functions[e.func.idx()];
        let path = p.path_blocks(e.func, e.path).unwrap_or_default();
        let blocks: Vec<BlockRow> = match &f.cfg {
            Some(cfg) => path
                .iter()
                .map(|b| {
                    let bl = &cfg.blocks[b.idx()];
                    BlockRow { index: b.0, start: bl.start, end: bl.end }
                })
                .collect(),
            None => Vec::new(),
        };
        let instructions = f.cfg.as_ref().map_or(0, |cfg| instructions(cfg, &path));
        PathRow { function: f.name.clone(), function_index: e.func.0, path_id: e.path.0, count, instructions, blocks, source: source_of(p, e.func, e.path) }
    }

    /// The path as `FUNCTION:PATH_ID`.
    /// Where the path is, for a text column: its source lines when the profile has them
    /// (`with_source`), otherwise its blocks' start offsets.
    pub fn places(&self, with_source: bool) -> String {
        if with_source {
            self.source.join(" ")
        } else {
            self.blocks.iter().map(|b| format!("{:#x}", b.start)).collect::<Vec<_>>().join(" ")
        }
    }

    /// The header of [`PathRow::places`]' column.
    pub fn places_header(with_source: bool) -> &'static str {
        if with_source {
            "source lines"
        } else {
            "blocks (byte offsets)"
        }
    }

    pub fn name(&self) -> String {
        format!("{}:{}", self.function, self.path_id)
    }

    /// Whether two rows are the same path.
    pub fn same_path(&self, other: &PathRow) -> bool {
        self.function_index == other.function_index && self.path_id == other.path_id
    }

    /// The short serialization, for paths inside a sequence.
    pub fn brief(&self) -> Brief<'_> {
        Brief(self)
    }
}

/// Instructions executed by one run of path `e` of `p`'s program (0 for a path it has not).
pub fn path_instructions(p: &Profile, e: PathEvent) -> u64 {
    let cfg = p.meta.functions.get(e.func.idx()).and_then(|f| f.cfg.as_ref());
    cfg.map_or(0, |cfg| instructions(cfg, &p.path_blocks(e.func, e.path).unwrap_or_default()))
}

/// Instructions of the blocks `path` of `cfg`.
fn instructions(cfg: &Cfg, path: &[BlockIdx]) -> u64 {
    path.iter().map(|b| cfg.blocks[b.idx()].n_instrs as u64).sum()
}

/// `FUNCTION:PATH_ID  SOURCE...`.
impl std::fmt::Display for PathRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.function, self.path_id)?;
        if !self.source.is_empty() {
            write!(f, "  {}", self.source.join(" "))?;
        }
        Ok(())
    }
}

impl Serialize for PathRow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("PathRow", 7)?;
        st.serialize_field("function", &self.function)?;
        st.serialize_field("function_index", &self.function_index)?;
        st.serialize_field("path_id", &self.path_id)?;
        if let Some(c) = self.count {
            st.serialize_field("count", &c)?;
        }
        st.serialize_field("instructions", &self.instructions)?;
        st.serialize_field("blocks", &self.blocks)?;
        st.serialize_field("source", &self.source)?;
        st.end()
    }
}

/// A [`PathRow`] serialized briefly: blocks as indices, no count or cost.
pub struct Brief<'a>(&'a PathRow);

impl Serialize for Brief<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut st = s.serialize_struct("Path", 5)?;
        st.serialize_field("function", &r.function)?;
        st.serialize_field("function_index", &r.function_index)?;
        st.serialize_field("path_id", &r.path_id)?;
        st.serialize_field("blocks", &r.blocks.iter().map(|b| b.index).collect::<Vec<u32>>())?;
        st.serialize_field("source", &r.source)?;
        st.end()
    }
}

/// Serializes a sequence of rows briefly (`#[serde(serialize_with = "brief_paths")]`).
pub fn brief_paths<S: Serializer>(rows: &[PathRow], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(rows.iter().map(PathRow::brief))
}

//! Source lines of every block, from the module's DWARF (`clang -g`).
//!
//! DWARF in WebAssembly lives in custom sections named like the ELF ones (`.debug_info`,
//! `.debug_line`, ...), and its code addresses are offsets from the start of the code
//! section's contents, where blocks carry module offsets: the two differ by one constant.
//! Line rows of a sequence that starts at address 0 are code the linker dropped (its
//! addresses were never relocated) and are ignored.

use std::collections::HashMap;

use gimli::{EndianSlice, LittleEndian, SectionId};
use wasmparser::{Parser, Payload};
use wpp_model::{LineRange, SourceMap};

use crate::{Error, Program};

type Reader<'a> = EndianSlice<'a, LittleEndian>;

/// One row of the line table: from `addr` on, the code is `line` of `file` (`line` 0: no
/// line, e.g. the end of a sequence).
#[derive(Clone, Copy)]
struct Row {
    addr: u64,
    file: u32,
    line: u32,
}

/// The line table of a module: its files, and its rows by code address.
struct LineTable {
    files: Vec<String>,
    rows: Vec<Row>,
    /// Where the code section's contents start (DWARF addresses count from there).
    code_start: u64,
}

/// The source line of each instruction a module's line table names.
#[derive(Clone, Debug, Default)]
pub struct InstructionLines {
    pub files: Vec<String>,
    /// (module byte offset, file, line), by offset; from each row on, until the next.
    rows: Vec<(u64, u32, u32)>,
}

impl InstructionLines {
    /// The file and line of the instruction at module byte offset `at`.
    pub fn line_at(&self, at: u32) -> Option<(&str, u32)> {
        let i = self.rows.partition_point(|r| r.0 <= at as u64).checked_sub(1)?;
        let (_, file, line) = self.rows[i];
        (line != 0).then(|| (self.files[file as usize].as_str(), line))
    }
}

/// The source line of every instruction of a module (`clang -g`), or `None` if it has no
/// line table.
pub fn instruction_lines(bytes: &[u8]) -> Result<Option<InstructionLines>, Error> {
    let Some(t) = line_table(bytes)? else { return Ok(None) };
    let rows = t.rows.iter().map(|r| (r.addr + t.code_start, r.file, if r.file == u32::MAX { 0 } else { r.line })).collect();
    Ok(Some(InstructionLines { files: t.files, rows }))
}

/// The source lines of every block of `program` (decoded from `bytes`), or `None` if the
/// module has no line table.
pub fn source_map(bytes: &[u8], program: &Program) -> Result<Option<SourceMap>, Error> {
    let Some(LineTable { files, rows, code_start }) = line_table(bytes)? else { return Ok(None) };
    let blocks = program
        .functions
        .iter()
        .map(|f| {
            let Some(cfg) = &f.cfg else { return Vec::new() };
            cfg.blocks
                .iter()
                .map(|b| {
                    let start = (b.start as u64).checked_sub(code_start)?;
                    let end = (b.end as u64).checked_sub(code_start)?;
                    // The rows that start inside the block; if none does, the one in force
                    // at its start. (A block often begins with structural instructions,
                    // `block` or `loop`, that inherit the line before the loop.)
                    let inside = rows.partition_point(|r| r.addr < start);
                    let end_at = rows.partition_point(|r| r.addr < end);
                    let mut chosen = &rows[inside..end_at];
                    if chosen.iter().all(|r| r.line == 0) {
                        let before = rows.partition_point(|r| r.addr <= start);
                        chosen = &rows[before.saturating_sub(1)..before];
                    }
                    let mut range: Option<LineRange> = None;
                    for r in chosen {
                        if r.line == 0 {
                            continue;
                        }
                        match &mut range {
                            None => range = Some(LineRange { file: r.file, first: r.line, last: r.line }),
                            Some(x) if x.file == r.file => {
                                x.first = x.first.min(r.line);
                                x.last = x.last.max(r.line);
                            }
                            Some(_) => {}
                        }
                    }
                    range
                })
                .collect()
        })
        .collect();
    Ok(Some(SourceMap { files, blocks }))
}

/// A module's DWARF and where its code section's contents start (DWARF addresses count
/// from there), `None` without the section `needed` or without code.
pub(crate) fn dwarf<'a>(bytes: &'a [u8], needed: &str) -> Result<Option<(gimli::Dwarf<Reader<'a>>, u64)>, Error> {
    let mut sections: HashMap<&str, &[u8]> = HashMap::new();
    let mut code_start = None;
    for payload in Parser::new(0).parse_all(bytes) {
        match payload? {
            Payload::CustomSection(c) if c.name().starts_with(".debug_") => {
                sections.insert(c.name(), c.data());
            }
            Payload::CodeSectionStart { range, .. } => code_start = Some(range.start as u64),
            _ => {}
        }
    }
    let (Some(code_start), true) = (code_start, sections.contains_key(needed)) else { return Ok(None) };
    let dwarf = gimli::Dwarf::load(|id: SectionId| -> Result<Reader<'_>, gimli::Error> {
        Ok(EndianSlice::new(sections.get(id.name()).copied().unwrap_or(&[]), LittleEndian))
    })
    .map_err(|e| Error::Dwarf(e.to_string()))?;
    Ok(Some((dwarf, code_start)))
}

/// Reads the line table of a module's DWARF, `None` without one.
fn line_table(bytes: &[u8]) -> Result<Option<LineTable>, Error> {
    let Some((dwarf, code_start)) = dwarf(bytes, ".debug_line")? else { return Ok(None) };
    let dwarf_err = |e: gimli::Error| Error::Dwarf(e.to_string());

    let mut files: Vec<String> = Vec::new();
    let mut file_ids: HashMap<String, u32> = HashMap::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut units = dwarf.units();
    while let Some(header) = units.next().map_err(dwarf_err)? {
        let unit = dwarf.unit(header).map_err(dwarf_err)?;
        let Some(program) = unit.line_program.clone() else { continue };
        let mut unit_files: HashMap<u64, u32> = HashMap::new();
        let mut seq: Vec<Row> = Vec::new();
        let mut lines = program.rows();
        while let Some((header, row)) = lines.next_row().map_err(dwarf_err)? {
            if row.end_sequence() {
                if seq.first().is_some_and(|r| r.addr != 0) {
                    rows.append(&mut seq);
                    rows.push(Row { addr: row.address(), file: u32::MAX, line: 0 });
                }
                seq.clear();
                continue;
            }
            let line = row.line().map_or(0, |l| u32::try_from(l.get()).unwrap_or(u32::MAX));
            let file = match unit_files.get(&row.file_index()) {
                Some(&f) => f,
                None => {
                    let name = match row.file(header) {
                        Some(entry) => {
                            let path = dwarf.attr_string(&unit, entry.path_name()).map_err(dwarf_err)?.to_string_lossy().into_owned();
                            let dir = match entry.directory(header) {
                                Some(d) => dwarf.attr_string(&unit, d).map_err(dwarf_err)?.to_string_lossy().into_owned(),
                                None => String::new(),
                            };
                            let comp_dir = unit.comp_dir.map(|d| d.to_string_lossy().into_owned()).unwrap_or_default();
                            if path.starts_with('/') || dir.is_empty() || dir == comp_dir {
                                path
                            } else {
                                format!("{dir}/{path}")
                            }
                        }
                        None => "?".to_string(),
                    };
                    let next = files.len() as u32;
                    let id = *file_ids.entry(name.clone()).or_insert_with(|| {
                        files.push(name);
                        next
                    });
                    unit_files.insert(row.file_index(), id);
                    id
                }
            };
            seq.push(Row { addr: row.address(), file, line });
        }
    }
    rows.sort_by_key(|r| r.addr);
    Ok(Some(LineTable { files, rows, code_start }))
}

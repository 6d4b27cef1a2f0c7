//! Where the source's variables are, from the module's DWARF (`clang -g`): for each
//! variable and parameter, its name, the code its scope covers, and the WebAssembly local
//! or global that holds it over which code (`DW_OP_WASM_location`), or that it lives in
//! linear memory (a frame offset, or any other expression). Addresses are module byte
//! offsets (DWARF's count from the code section's start).

use gimli::{EndianSlice, LittleEndian};

use crate::Error;

type Reader<'a> = EndianSlice<'a, LittleEndian>;

/// A scope open in the walk: its depth, the code it covers, the local of its frame base.
type Scope = (isize, Vec<(u32, u32)>, Option<u32>);

/// Where a variable is over some code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarLocation {
    Local(u32),
    Global(u32),
    /// In the function's stack frame in linear memory, `offset` bytes from the frame base,
    /// which the local `base` holds (`DW_OP_fbreg` against a `DW_AT_frame_base` of
    /// `DW_OP_WASM_location 0 base`: how clang places a variable at -O0).
    Frame {
        base: u32,
        offset: i64,
    },
    /// In linear memory otherwise (or computed): not a register.
    Memory,
}

/// One variable or parameter of the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    /// The code its scope covers (module offsets, `[start, end)`).
    pub scope: Vec<(u32, u32)>,
    /// Where it is, over which code.
    pub locations: Vec<(u32, u32, VarLocation)>,
    /// Bytes of its type, when DWARF gives them.
    pub size: Option<u32>,
}

impl Variable {
    /// Whether its scope covers the instruction at `at`.
    pub fn in_scope(&self, at: u32) -> bool {
        self.scope.iter().any(|&(s, e)| s <= at && at < e)
    }

    /// Where it is at the instruction at `at`, if anywhere.
    pub fn at(&self, at: u32) -> Option<VarLocation> {
        self.locations.iter().find(|&&(s, e, _)| s <= at && at < e).map(|l| l.2)
    }
}

/// The variables a module's DWARF describes, `None` without `.debug_info`.
pub fn variables(bytes: &[u8]) -> Result<Option<Vec<Variable>>, Error> {
    let Some((dwarf, base)) = crate::source::dwarf(bytes, ".debug_info")? else { return Ok(None) };
    let err = |e: gimli::Error| Error::Dwarf(e.to_string());
    let module = |a: u64| u32::try_from(a + base).unwrap_or(u32::MAX);
    let mut out = Vec::new();
    let mut units = dwarf.units();
    while let Some(header) = units.next().map_err(err)? {
        let unit = dwarf.unit(header).map_err(err)?;
        let mut entries = unit.entries();
        // The scopes open (subprograms, lexical blocks, inlined code), by depth, each with
        // the local that holds its frame base (a subprogram's, or its enclosing one's).
        let mut scopes: Vec<Scope> = Vec::new();
        while let Some(entry) = entries.next_dfs().map_err(err)? {
            let depth = entry.depth();
            while scopes.last().is_some_and(|s| s.0 >= depth) {
                scopes.pop();
            }
            let tag = entry.tag();
            if matches!(tag, gimli::DW_TAG_subprogram | gimli::DW_TAG_lexical_block | gimli::DW_TAG_inlined_subroutine) {
                let mut ranges = Vec::new();
                let mut iter = dwarf.die_ranges(&unit, entry).map_err(err)?;
                while let Some(r) = iter.next().map_err(err)? {
                    // Code the linker dropped keeps address 0.
                    if r.begin != 0 && r.end > r.begin {
                        ranges.push((module(r.begin), module(r.end)));
                    }
                }
                if ranges.is_empty() {
                    ranges = scopes.last().map(|s| s.1.clone()).unwrap_or_default();
                }
                let frame_base = match entry.attr_value(gimli::DW_AT_frame_base) {
                    Some(gimli::AttributeValue::Exprloc(expr)) => match location(expr, unit.encoding(), None) {
                        VarLocation::Local(l) => Some(l),
                        _ => None,
                    },
                    _ => scopes.last().and_then(|s| s.2),
                };
                scopes.push((depth, ranges, frame_base));
                continue;
            }
            if !matches!(tag, gimli::DW_TAG_variable | gimli::DW_TAG_formal_parameter) {
                continue;
            }
            let Some(scope) = scopes.last() else { continue };
            let Some(name) = name_of(&dwarf, &unit, entry).map_err(err)? else { continue };
            let (scope, frame_base) = (scope.1.clone(), scope.2);
            let mut locations = Vec::new();
            match entry.attr_value(gimli::DW_AT_location) {
                Some(gimli::AttributeValue::Exprloc(expr)) => {
                    let loc = location(expr, unit.encoding(), frame_base);
                    locations.extend(scope.iter().map(|&(s, e)| (s, e, loc)));
                }
                Some(attr) => {
                    if let Some(mut iter) = dwarf.attr_locations(&unit, attr).map_err(err)? {
                        while let Some(l) = iter.next().map_err(err)? {
                            if l.range.begin != 0 && l.range.end > l.range.begin {
                                locations.push((module(l.range.begin), module(l.range.end), location(l.data, unit.encoding(), frame_base)));
                            }
                        }
                    }
                }
                None => {}
            }
            let size = type_size(&unit, entry).map_err(err)?;
            out.push(Variable { name, scope, locations, size });
        }
    }
    Ok(Some(out))
}

/// The name of a variable's entry: its own `DW_AT_name`, or, for a variable of inlined
/// code (`DW_TAG_inlined_subroutine`'s copy, which names only its `DW_AT_abstract_origin`),
/// the name of the entry it is a copy of, followed through a few such links.
fn name_of(
    dwarf: &gimli::Dwarf<Reader<'_>>,
    unit: &gimli::Unit<Reader<'_>>,
    entry: &gimli::DebuggingInformationEntry<Reader<'_>>,
) -> Result<Option<String>, gimli::Error> {
    let mut origin = match entry.attr_value(gimli::DW_AT_name) {
        Some(name) => return Ok(Some(dwarf.attr_string(unit, name)?.to_string_lossy().into_owned())),
        None => entry.attr_value(gimli::DW_AT_abstract_origin),
    };
    for _ in 0..4 {
        let offset = match origin {
            Some(gimli::AttributeValue::UnitRef(o)) => o,
            Some(gimli::AttributeValue::DebugInfoRef(o)) => match o.to_unit_offset(&unit.header) {
                Some(o) => o,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        let e = unit.entry(offset)?;
        if let Some(name) = e.attr_value(gimli::DW_AT_name) {
            return Ok(Some(dwarf.attr_string(unit, name)?.to_string_lossy().into_owned()));
        }
        origin = e.attr_value(gimli::DW_AT_abstract_origin);
    }
    Ok(None)
}

/// The byte size of a variable's type: its `DW_AT_type` followed through typedefs,
/// qualifiers and abstract origins to an entry with `DW_AT_byte_size`.
fn type_size(unit: &gimli::Unit<Reader<'_>>, entry: &gimli::DebuggingInformationEntry<Reader<'_>>) -> Result<Option<u32>, gimli::Error> {
    let mut next = entry.attr_value(gimli::DW_AT_type).or_else(|| entry.attr_value(gimli::DW_AT_abstract_origin));
    for _ in 0..8 {
        let offset = match next {
            Some(gimli::AttributeValue::UnitRef(o)) => o,
            _ => return Ok(None),
        };
        let e = unit.entry(offset)?;
        if let Some(size) = e.attr_value(gimli::DW_AT_byte_size).and_then(|v| v.udata_value()) {
            return Ok(u32::try_from(size).ok());
        }
        next = e.attr_value(gimli::DW_AT_type).or_else(|| e.attr_value(gimli::DW_AT_abstract_origin));
    }
    Ok(None)
}

/// What a location expression names: a local or global when it is that one operation
/// (then maybe `DW_OP_stack_value`), a place in the stack frame when it is `DW_OP_fbreg`
/// and the scope's frame base is a local (`frame_base`), memory otherwise.
fn location(expr: gimli::Expression<Reader<'_>>, encoding: gimli::Encoding, frame_base: Option<u32>) -> VarLocation {
    let mut ops = expr.operations(encoding);
    let first = match ops.next() {
        Ok(Some(op)) => op,
        _ => return VarLocation::Memory,
    };
    if let (gimli::Operation::FrameOffset { offset }, Some(base)) = (first, frame_base) {
        return match ops.next() {
            Ok(None) => VarLocation::Frame { base, offset },
            _ => VarLocation::Memory,
        };
    }
    let rest_ok = match ops.next() {
        Ok(None) => true,
        Ok(Some(gimli::Operation::StackValue)) => matches!(ops.next(), Ok(None)),
        _ => false,
    };
    match (first, rest_ok) {
        (gimli::Operation::WasmLocal { index }, true) => VarLocation::Local(index),
        (gimli::Operation::WasmGlobal { index }, true) => VarLocation::Global(index),
        _ => VarLocation::Memory,
    }
}

//! Reading a module: validation, refusal of unsupported features, names, and one
//! control flow graph per defined function.

use std::collections::{HashMap, HashSet};

use wasmparser::{Encoding, Parser, Payload, TypeRef, Validator, WasmFeatures};
use wpp_model::sniff::FileKind;
use wpp_model::{FuncIdx, Function};

use crate::cfg_build::{build_layout, FuncLayout};
use crate::func_type::FuncType;
use crate::Error;

/// Features whose instructions and types wpp understands.
pub(crate) fn supported_features() -> WasmFeatures {
    WasmFeatures::WASM2
        | WasmFeatures::TAIL_CALL
        | WasmFeatures::EXTENDED_CONST
        | WasmFeatures::MULTI_MEMORY
        | WasmFeatures::RELAXED_SIMD
        | WasmFeatures::MEMORY64
        | WasmFeatures::WIDE_ARITHMETIC
        | WasmFeatures::CUSTOM_PAGE_SIZES
        | WasmFeatures::EXCEPTIONS
}

/// What a module using the legacy exception-handling instructions is told.
pub const LEGACY_EXCEPTIONS: &str =
    "the legacy exception-handling instructions (try, catch, catch_all, delegate, rethrow), which the embedded engine does not run; \
     wpp supports the standardized form (try_table, throw, throw_ref, exnref), which LLVM emits with `-fwasm-exceptions -mllvm -wasm-use-legacy-eh=false` \
     and binaryen's `wasm-opt --translate-to-exnref` converts to";

/// A decoded module: its functions with their CFGs, and the facts the rewrite needs.
#[derive(Debug)]
pub struct Program {
    /// Every function, imports first, with names and (for defined functions) CFGs.
    pub functions: Vec<Function>,
    /// Number of imported functions (they come first in `functions`).
    pub n_imported_funcs: u32,
    pub(crate) layouts: Vec<FuncLayout>,
    pub(crate) types: Vec<Option<FuncType>>,
    pub(crate) func_type: Vec<u32>,
    pub(crate) n_globals: u32,
    pub(crate) n_memories: u32,
    /// Exception tags, imported and defined.
    pub(crate) n_tags: u32,
    /// Whether a memory has 64-bit addresses (the memory64 proposal).
    pub(crate) memory64: bool,
    pub(crate) export_names: HashSet<String>,
    pub(crate) has_section: HashSet<u8>,
}

impl Program {
    /// The CFG of a defined function (`None` for imports).
    pub fn cfg(&self, func: FuncIdx) -> Option<&wpp_model::Cfg> {
        self.functions.get(func.idx())?.cfg.as_ref()
    }

    /// Display name of a function.
    pub fn name(&self, func: FuncIdx) -> &str {
        &self.functions[func.idx()].name
    }

    /// How many globals the module has, imported ones included.
    pub fn n_globals(&self) -> u32 {
        self.n_globals
    }
}

/// Decodes and validates `bytes`, building a CFG for every defined function.
pub fn decode(bytes: &[u8]) -> Result<Program, Error> {
    check_features(bytes)?;
    let mut types = Vec::new();
    let mut func_type = Vec::new();
    let mut n_imported_funcs = 0u32;
    let mut n_globals = 0u32;
    let mut n_memories = 0u32;
    let mut n_tags = 0u32;
    let mut memory64 = false;
    let mut names: HashMap<u32, String> = HashMap::new();
    let mut export_names = HashSet::new();
    let mut has_section = HashSet::new();
    let mut bodies = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload?;
        if let Some((id, _)) = payload.as_section() {
            has_section.insert(id);
        }
        match payload {
            Payload::Version { encoding: Encoding::Component, .. } => return Err(Error::Component),
            Payload::TypeSection(r) => {
                for ty in r.into_iter_err_on_gc_types() {
                    let ty = ty?;
                    types.push(Some(FuncType { params: ty.params().to_vec(), results: ty.results().to_vec() }));
                }
            }
            Payload::ImportSection(r) => {
                for imp in r.into_imports() {
                    let imp = imp?;
                    match imp.ty {
                        TypeRef::Func(t) | TypeRef::FuncExact(t) => {
                            names.entry(func_type.len() as u32).or_insert_with(|| format!("{}::{}", imp.module, imp.name));
                            func_type.push(t);
                            n_imported_funcs += 1;
                        }
                        TypeRef::Global(_) => n_globals += 1,
                        TypeRef::Tag(_) => n_tags += 1,
                        TypeRef::Memory(m) => {
                            n_memories += 1;
                            memory64 |= m.memory64;
                        }
                        _ => {}
                    }
                }
            }
            Payload::FunctionSection(r) => {
                for t in r {
                    func_type.push(t?);
                }
            }
            Payload::GlobalSection(r) => n_globals += r.count(),
            Payload::TagSection(r) => n_tags += r.count(),
            Payload::MemorySection(r) => {
                n_memories += r.count();
                for m in r {
                    memory64 |= m?.memory64;
                }
            }
            Payload::ExportSection(r) => {
                for e in r {
                    export_names.insert(e?.name.to_string());
                }
            }
            Payload::CodeSectionEntry(body) => bodies.push(body),
            Payload::CustomSection(c) => add_function_names(&c, &mut names),
            _ => {}
        }
    }
    let name_of = |i: u32| names.get(&i).cloned().unwrap_or_else(|| format!("func[{i}]"));
    let mut functions: Vec<Function> = (0..n_imported_funcs).map(|i| Function { index: FuncIdx(i), name: name_of(i), cfg: None }).collect();
    let mut layouts = Vec::with_capacity(bodies.len());
    for (i, body) in bodies.iter().enumerate() {
        let index = n_imported_funcs + i as u32;
        let ty =
            func_type.get(index as usize).and_then(|&t| types.get(t as usize)).and_then(|t| t.clone()).unwrap_or(FuncType { params: vec![], results: vec![] });
        let (cfg, layout) = build_layout(body, &ty, &types).map_err(|e| match e {
            Error::Unsupported { feature, .. } => Error::Unsupported { feature, place: format!("function {}", name_of(index)) },
            other => other,
        })?;
        functions.push(Function { index: FuncIdx(index), name: name_of(index), cfg: Some(cfg) });
        layouts.push(layout);
    }
    Ok(Program { functions, n_imported_funcs, layouts, types, func_type, n_globals, n_memories, n_tags, memory64, export_names, has_section })
}

/// The binary of a module given either as a binary or in the WebAssembly text format
/// (`.wat`, as `wasmtime run` accepts it): text is translated, and anything else is left
/// for [`decode`] to judge. Text that does not look like a module (it does not open with
/// `(` after comments) is left alone too, so that a stray file is still called what it is.
pub fn module_binary(bytes: Vec<u8>) -> Result<Vec<u8>, Error> {
    if !matches!(FileKind::of(&bytes), FileKind::Text(_)) || !looks_like_wat(&bytes) {
        return Ok(bytes);
    }
    wat::parse_bytes(&bytes).map(|b| b.into_owned()).map_err(|e| Error::Text(e.to_string()))
}

/// Whether `text`, after white space and `;;` or `(; ;)` comments, opens with `(`.
fn looks_like_wat(text: &[u8]) -> bool {
    let mut rest = text;
    loop {
        rest = rest.trim_ascii_start();
        if let Some(r) = rest.strip_prefix(b";;") {
            rest = r.iter().position(|&b| b == b'\n').map_or(&[][..], |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix(b"(;") {
            rest = r.windows(2).position(|w| w == b";)").map_or(&[][..], |i| &r[i + 2..]);
        } else {
            return rest.first() == Some(&b'(');
        }
    }
}

/// Validates with the features wpp supports; when that fails but the module is valid
/// with every feature, the module uses one we do not handle: say which, and where.
fn check_features(bytes: &[u8]) -> Result<(), Error> {
    match FileKind::of(bytes) {
        FileKind::WasmModule => {}
        FileKind::WasmComponent => return Err(Error::Component),
        kind => return Err(Error::NotWasm { found: kind.to_string() }),
    }
    let Err(narrow) = Validator::new_with_features(supported_features()).validate_all(bytes) else {
        return Ok(());
    };
    if let Err(e) = Validator::new_with_features(WasmFeatures::all()).validate_all(bytes) {
        return Err(Error::Invalid(e));
    }
    let legacy = Validator::new_with_features(WasmFeatures::all() - WasmFeatures::LEGACY_EXCEPTIONS).validate_all(bytes).is_err();
    let off = narrow.offset();
    let place = match function_at(bytes, off) {
        Some((i, name)) => format!("function {name} (index {i}), at byte offset {off:#x}"),
        None => match section_at(bytes, off) {
            Some(section) => format!("the {section} section, at byte offset {off:#x}"),
            None => format!("byte offset {off:#x}"),
        },
    };
    let feature = if legacy { LEGACY_EXCEPTIONS.to_string() } else { narrow.message().to_string() };
    Err(Error::Unsupported { feature, place })
}

/// Adds the function names of a `name` section; a damaged one only costs us names.
fn add_function_names(c: &wasmparser::CustomSectionReader<'_>, names: &mut HashMap<u32, String>) {
    if let wasmparser::KnownCustom::Name(reader) = c.as_known() {
        for sub in reader.flatten() {
            if let wasmparser::Name::Function(map) = sub {
                for naming in map.into_iter().flatten() {
                    names.insert(naming.index, naming.name.to_string());
                }
            }
        }
    }
}

/// The name of the section containing `offset`.
fn section_at(bytes: &[u8], offset: usize) -> Option<&'static str> {
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.ok()?;
        if let Some((id, range)) = payload.as_section() {
            if range.contains(&offset) || range.end == offset {
                return Some(match id {
                    1 => "type",
                    2 => "import",
                    3 => "function",
                    4 => "table",
                    5 => "memory",
                    6 => "global",
                    7 => "export",
                    8 => "start",
                    9 => "element",
                    10 => "code",
                    11 => "data",
                    12 => "data count",
                    13 => "tag",
                    _ => "custom",
                });
            }
        }
    }
    None
}

/// The function whose body contains `offset`, with its name if the module has one.
fn function_at(bytes: &[u8], offset: usize) -> Option<(u32, String)> {
    let mut n_imported = 0u32;
    let mut index = None;
    let mut defined = 0u32;
    let mut names = HashMap::new();
    for payload in Parser::new(0).parse_all(bytes) {
        match payload.ok()? {
            Payload::ImportSection(r) => {
                n_imported += r.into_imports().flatten().filter(|i| matches!(i.ty, TypeRef::Func(_) | TypeRef::FuncExact(_))).count() as u32
            }
            Payload::CodeSectionEntry(body) => {
                if body.range().contains(&offset) {
                    index = Some(n_imported + defined);
                }
                defined += 1;
            }
            Payload::CustomSection(c) => add_function_names(&c, &mut names),
            _ => {}
        }
    }
    let i = index?;
    Some((i, names.get(&i).cloned().unwrap_or_else(|| format!("func[{i}]"))))
}

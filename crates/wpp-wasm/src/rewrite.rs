//! The module-level half of a rewrite: copy every section with `wasm-encoder`'s
//! `Reencode`, shift function indices past the imports we add, append our types, imports,
//! memory, globals, exports, functions and data segments (creating sections the module
//! lacks, and counting our segments in its data count), and hand each function body to a
//! body rewriter.

use wasm_encoder::reencode::{self, Reencode};
use wasm_encoder::{
    CodeSection, ConstExpr, DataSection, EntityType, ExportKind, ExportSection, Function, FunctionSection, GlobalSection, GlobalType, ImportSection,
    MemorySection, MemoryType, Module, SectionId, TypeSection, ValType,
};
use wasmparser::{FunctionBody, Parser};

use crate::decode::Program;
use crate::origin::{body_starts, Origins};
use crate::wasm_idx::MemIdx;
use crate::Error;

/// What a rewrite appends to the module.
#[derive(Default)]
pub(crate) struct Additions {
    /// Function types, appended to the type section.
    pub types: Vec<(Vec<ValType>, Vec<ValType>)>,
    /// Function imports `(module, name, type index)`, appended to the imports.
    pub imports: Vec<(String, String, u32)>,
    /// Memories, appended after the module's own.
    pub memories: Vec<MemoryType>,
    pub globals: Vec<(GlobalType, ConstExpr)>,
    pub exports: Vec<(String, ExportKind, u32)>,
    /// Defined functions `(type index, body)`, appended after the module's own.
    pub functions: Vec<(u32, Function)>,
    /// Active data segments `(memory, offset, bytes)`, appended to the data section.
    pub data: Vec<(MemIdx, u32, Vec<u8>)>,
}

/// Function index translation: imports we add come after the module's imports, so every
/// defined function moves up by their number.
pub(crate) struct Shift {
    pub n_imported: u32,
    pub by: u32,
    /// The function being rewritten: (its byte length, original module offset) at each
    /// original instruction copied.
    marks: Vec<(u32, u32)>,
}

impl Reencode for Shift {
    type Error = std::convert::Infallible;

    fn function_index(&mut self, func: u32) -> Result<u32, reencode::Error<Self::Error>> {
        Ok(if func >= self.n_imported { func + self.by } else { func })
    }
}

impl Shift {
    pub fn new(n_imported: u32, by: u32) -> Shift {
        Shift { n_imported, by, marks: Vec::new() }
    }

    /// Translates one instruction of the original module.
    pub fn translate<'a>(&mut self, op: wasmparser::Operator<'a>) -> Result<wasm_encoder::Instruction<'a>, Error> {
        self.instruction(op).map_err(|e| Error::Rewrite { place: "instruction".into(), message: e.to_string() })
    }

    /// Copies `op`, the original instruction at module byte offset `at`, to the end of `f`.
    pub fn copy(&mut self, f: &mut Function, op: wasmparser::Operator<'_>, at: usize) -> Result<(), Error> {
        self.mark(f, at);
        f.instruction(&self.translate(op)?);
        Ok(())
    }

    /// Notes that the code added to `f` from here on stands for the original instruction at
    /// module byte offset `at` (for one replaced rather than copied).
    pub fn mark(&mut self, f: &Function, at: usize) {
        self.marks.push((f.byte_len() as u32, at as u32));
    }
}

struct Rewriter<'p, F> {
    program: &'p Program,
    add: Additions,
    shift: Shift,
    body: F,
    defined: u32,
    /// By defined function: [`Shift::mark`]'s marks, offsets in the function's body.
    marks: Vec<Vec<(u32, u32)>>,
    emitted: Vec<SectionId>,
    error: Option<Error>,
}

const ORDER: [SectionId; 13] = [
    SectionId::Type,
    SectionId::Import,
    SectionId::Function,
    SectionId::Table,
    SectionId::Memory,
    SectionId::Tag,
    SectionId::Global,
    SectionId::Export,
    SectionId::Start,
    SectionId::Element,
    SectionId::DataCount,
    SectionId::Code,
    SectionId::Data,
];

fn rank(id: SectionId) -> usize {
    ORDER.iter().position(|&s| s == id).expect("known section")
}

/// Rewrites `bytes` (already decoded as `program`), appending `add` and rewriting every
/// defined function with `body`. Drops custom sections other than `name`: DWARF and the
/// like describe the original code, not ours.
///
/// `body(shift, i, body)` rewrites the `i`th defined function; `shift` translates the
/// original instructions ([`Shift::copy`] also notes where each lands, for the
/// [`Origins`] returned beside the module).
pub(crate) fn rewrite<F>(bytes: &[u8], program: &Program, add: Additions, body: F) -> Result<(Vec<u8>, Origins), Error>
where
    F: FnMut(&mut Shift, u32, FunctionBody<'_>) -> Result<Function, Error>,
{
    let shift = Shift::new(program.n_imported_funcs, add.imports.len() as u32);
    let mut rw = Rewriter { program, add, shift, body, defined: 0, marks: Vec::new(), emitted: Vec::new(), error: None };
    let mut module = Module::new();
    let res = rw.parse_core_module(&mut module, Parser::new(0), bytes);
    if let Some(e) = rw.error.take() {
        return Err(e);
    }
    res.map_err(|e| Error::Rewrite { place: "module".into(), message: e.to_string() })?;
    let out = module.finish();
    if let Err(e) = wasmparser::Validator::new_with_features(crate::decode::supported_features()).validate_all(&out) {
        // A debugging aid: keep the invalid module for inspection.
        if let Some(path) = std::env::var_os("WPP_DUMP_INVALID") {
            let _ = std::fs::write(path, &out);
        }
        return Err(Error::InvalidRewrite { message: e.to_string(), module: out });
    }
    let starts = body_starts(&out).map_err(|e| Error::Rewrite { place: "module".into(), message: e.to_string() })?;
    let funcs = rw.marks.into_iter().zip(starts).map(|(marks, start)| marks.into_iter().map(|(new, old)| (start + new, old)).collect()).collect();
    Ok((out, Origins { n_imported: rw.shift.n_imported, shift: rw.shift.by, funcs }))
}

impl<F> Rewriter<'_, F> {
    fn needs(&self, id: SectionId) -> bool {
        match id {
            SectionId::Type => !self.add.types.is_empty(),
            SectionId::Import => !self.add.imports.is_empty(),
            SectionId::Function | SectionId::Code => !self.add.functions.is_empty(),
            SectionId::Memory => !self.add.memories.is_empty(),
            SectionId::Global => !self.add.globals.is_empty(),
            SectionId::Export => !self.add.exports.is_empty(),
            SectionId::Data => !self.add.data.is_empty(),
            _ => false,
        }
    }

    fn type_base(&self) -> u32 {
        self.program.types.len() as u32
    }

    fn append_types(&self, s: &mut TypeSection) {
        for (p, r) in &self.add.types {
            s.ty().function(p.iter().copied(), r.iter().copied());
        }
    }
    fn append_imports(&self, s: &mut ImportSection) {
        for (m, n, t) in &self.add.imports {
            s.import(m, n, EntityType::Function(self.type_base() + t));
        }
    }
    fn append_functions(&self, s: &mut FunctionSection) {
        for (t, _) in &self.add.functions {
            s.function(self.type_base() + t);
        }
    }
    fn append_memory(&self, s: &mut MemorySection) {
        for m in &self.add.memories {
            s.memory(*m);
        }
    }
    fn append_globals(&self, s: &mut GlobalSection) {
        for (t, init) in &self.add.globals {
            s.global(*t, init);
        }
    }
    fn append_exports(&self, s: &mut ExportSection) {
        for (n, k, i) in &self.add.exports {
            s.export(n, *k, *i);
        }
    }
    fn append_code(&self, s: &mut CodeSection) {
        for (_, f) in &self.add.functions {
            s.function(f);
        }
    }
    fn append_data(&self, s: &mut DataSection) {
        for (mem, offset, bytes) in &self.add.data {
            s.active(mem.0, &ConstExpr::i32_const(*offset as i32), bytes.iter().copied());
        }
    }

    /// Emits section `id` holding only our additions (the module has none of its own).
    fn emit_fresh(&mut self, module: &mut Module, id: SectionId) {
        match id {
            SectionId::Type => {
                let mut s = TypeSection::new();
                self.append_types(&mut s);
                module.section(&s);
            }
            SectionId::Import => {
                let mut s = ImportSection::new();
                self.append_imports(&mut s);
                module.section(&s);
            }
            SectionId::Function => {
                let mut s = FunctionSection::new();
                self.append_functions(&mut s);
                module.section(&s);
            }
            SectionId::Memory => {
                let mut s = MemorySection::new();
                self.append_memory(&mut s);
                module.section(&s);
            }
            SectionId::Global => {
                let mut s = GlobalSection::new();
                self.append_globals(&mut s);
                module.section(&s);
            }
            SectionId::Export => {
                let mut s = ExportSection::new();
                self.append_exports(&mut s);
                module.section(&s);
            }
            SectionId::Code => {
                let mut s = CodeSection::new();
                self.append_code(&mut s);
                module.section(&s);
            }
            SectionId::Data => {
                let mut s = DataSection::new();
                self.append_data(&mut s);
                module.section(&s);
            }
            _ => {}
        }
        self.emitted.push(id);
    }

    fn fail<T>(&mut self, e: Error) -> Result<T, reencode::Error<std::convert::Infallible>> {
        self.error = Some(e);
        Err(reencode::Error::InvalidCodeSectionSize)
    }
}

type R<T = ()> = Result<T, reencode::Error<std::convert::Infallible>>;

impl<F> Reencode for Rewriter<'_, F>
where
    F: FnMut(&mut Shift, u32, FunctionBody<'_>) -> Result<Function, Error>,
{
    type Error = std::convert::Infallible;

    fn function_index(&mut self, func: u32) -> R<u32> {
        self.shift.function_index(func)
    }

    fn intersperse_section_hook(&mut self, module: &mut Module, after: Option<SectionId>, before: Option<SectionId>) -> R {
        let lo = after.map(|a| rank(a) + 1).unwrap_or(0);
        let hi = before.map(rank).unwrap_or(ORDER.len());
        for &id in &ORDER[lo.min(hi)..hi] {
            if self.needs(id) && !self.program.has_section.contains(&(id as u8)) && !self.emitted.contains(&id) {
                self.emit_fresh(module, id);
            }
        }
        Ok(())
    }

    fn parse_type_section(&mut self, types: &mut TypeSection, section: wasmparser::TypeSectionReader<'_>) -> R {
        reencode::utils::parse_type_section(self, types, section)?;
        self.append_types(types);
        Ok(())
    }

    fn parse_import_section(&mut self, imports: &mut ImportSection, section: wasmparser::ImportSectionReader<'_>) -> R {
        reencode::utils::parse_import_section(self, imports, section)?;
        self.append_imports(imports);
        Ok(())
    }

    fn parse_function_section(&mut self, funcs: &mut FunctionSection, section: wasmparser::FunctionSectionReader<'_>) -> R {
        reencode::utils::parse_function_section(self, funcs, section)?;
        self.append_functions(funcs);
        Ok(())
    }

    fn parse_memory_section(&mut self, mems: &mut MemorySection, section: wasmparser::MemorySectionReader<'_>) -> R {
        reencode::utils::parse_memory_section(self, mems, section)?;
        self.append_memory(mems);
        Ok(())
    }

    fn parse_global_section(&mut self, globals: &mut GlobalSection, section: wasmparser::GlobalSectionReader<'_>) -> R {
        reencode::utils::parse_global_section(self, globals, section)?;
        self.append_globals(globals);
        Ok(())
    }

    fn parse_export_section(&mut self, exports: &mut ExportSection, section: wasmparser::ExportSectionReader<'_>) -> R {
        reencode::utils::parse_export_section(self, exports, section)?;
        self.append_exports(exports);
        Ok(())
    }

    fn parse_code_section(&mut self, code: &mut CodeSection, section: wasmparser::CodeSectionReader<'_>) -> R {
        for body in section {
            let body = body?;
            let i = self.defined;
            self.defined += 1;
            match (self.body)(&mut self.shift, i, body) {
                Ok(f) => {
                    code.function(&f);
                    self.marks.push(std::mem::take(&mut self.shift.marks));
                }
                Err(e) => return self.fail(e),
            }
        }
        self.append_code(code);
        Ok(())
    }

    fn data_count(&mut self, count: u32) -> R<u32> {
        Ok(count + self.add.data.len() as u32)
    }

    fn parse_data_section(&mut self, data: &mut DataSection, section: wasmparser::DataSectionReader<'_>) -> R {
        reencode::utils::parse_data_section(self, data, section)?;
        self.append_data(data);
        Ok(())
    }

    fn parse_custom_section(&mut self, module: &mut Module, section: wasmparser::CustomSectionReader<'_>) -> R {
        if let wasmparser::KnownCustom::Name(names) = section.as_known() {
            // A name section we cannot re-encode is dropped rather than failing the run.
            if let Ok(s) = self.custom_name_section(names) {
                module.section(&s);
            }
        }
        Ok(())
    }
}

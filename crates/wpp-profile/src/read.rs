//! Reading a profile without trusting it.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use wpp_model::PathEvent;

use crate::section::{META, MODULE, SOURCE};
use crate::{section, Ending, Error, Meta, ModuleId, PathCount, RecordMode, TocEntry, HEADER_LEN, MAGIC, VERSION};

/// A profile read from a file. Small sections are loaded; the trace is streamed.
#[derive(Debug)]
pub struct Profile {
    pub path: PathBuf,
    pub toc: Vec<TocEntry>,
    pub meta: Meta,
    pub counts: Vec<PathCount>,
    pub numberings: wpp_paths::ProgramNumbering,
    /// The path of each symbol of the grammar or the `runs` trace (empty without either).
    pub symbols: Vec<PathEvent>,
    /// For a symbol trace compressed by `wpp compress`: the input value of each terminal.
    pub terminals: Vec<u32>,
    /// For a trace of `FUNCTION PATH` events compressed by `wpp compress --format events`:
    /// the event of each terminal (not checked against any program: there is none).
    pub terminal_events: Vec<(u32, u64)>,
    /// How the grammar was built, for a grammar profile that records it (an older wpp's
    /// does not).
    pub grammar_options: Option<crate::GrammarOptions>,
    /// Source lines of the blocks, when the module had DWARF.
    pub source: Option<wpp_model::SourceMap>,
    /// Preferential path profiling's record (a profile recorded with interesting paths).
    pub ppp: Option<crate::PppRecord>,
    /// The functions wpp added to the module (an extended WPP's check routine), kept out of
    /// `meta.functions`, `meta.events` and `counts`, so that every view of the profile shows
    /// the program alone; their paths stay in the whole program path for the analyses that
    /// read them ([`Profile::for_each_event_with_instrumentation`]).
    pub instrumentation: Option<Instrumentation>,
}

/// What the instrumentation cost a run: the functions wpp added, their path counts, and
/// how many of the recorded events were theirs.
#[derive(Debug, Clone)]
pub struct Instrumentation {
    /// The index of the first added function; every function from here on was added.
    pub first: wpp_model::FuncIdx,
    pub functions: Vec<wpp_model::Function>,
    pub counts: Vec<PathCount>,
    /// Path events of the added functions (the whole program path holds
    /// `meta.events + events`).
    pub events: u64,
}

impl Instrumentation {
    /// Whether `func` is one of the added functions.
    pub fn has(&self, func: wpp_model::FuncIdx) -> bool {
        func >= self.first
    }
}

/// The sections a run shares with the profile that holds it: they are not stored per run.
pub(crate) const COMMON: [&str; 3] = [META, MODULE, SOURCE];

/// The prefix of run `i`'s sections in a merged profile.
pub(crate) fn run_prefix(i: usize) -> String {
    format!("run.{i}/")
}

/// What a merged profile keeps of one run's `meta` (the rest is the module's, shared).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunRecord {
    /// The profile the run was read from, as it was named to the merge.
    pub file: String,
    pub mode: RecordMode,
    pub args: Vec<String>,
    pub ending: Ending,
    pub guest_nanos: u64,
    pub events: u64,
}

impl RunRecord {
    /// Makes the merged profile's `meta` that of this run.
    pub(crate) fn apply(&self, meta: &mut Meta) {
        meta.mode = self.mode;
        meta.args = self.args.clone();
        meta.ending = self.ending.clone();
        meta.guest_nanos = self.guest_nanos;
        meta.events = self.events;
    }
}

pub(crate) fn corrupt(path: &Path, what: impl Into<String>) -> Error {
    Error::Corrupt { path: path.to_owned(), what: what.into() }
}

/// The file, its header and table of contents checked.
pub(crate) fn read_toc(path: &Path) -> Result<(File, Vec<TocEntry>), Error> {
    let io = |source| Error::Io { path: path.to_owned(), source };
    let mut file = File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    let start = read_exact_at(&mut file, path, 0, size.min(HEADER_LEN))?;
    let not_a_profile = || Error::NotAProfile { path: path.to_owned(), found: wpp_model::sniff::FileKind::of(&start).to_string() };
    if start.len() >= 8 && start.iter().all(|&b| b == 0) {
        return Err(corrupt(path, "the header was never written (was recording interrupted?)"));
    }
    if !start.starts_with(&MAGIC) {
        return Err(not_a_profile());
    }
    if size < HEADER_LEN {
        return Err(corrupt(path, format!("{size} bytes is too short for a profile")));
    }
    let h = start;
    let u32_at = |i: usize| u32::from_le_bytes(h[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().expect("8 bytes"));
    let version = u32_at(8);
    if !(1..=VERSION).contains(&version) {
        return Err(Error::Version { path: path.to_owned(), found: version });
    }
    let (toc_offset, toc_len, toc_crc) = (u64_at(16), u64_at(24), u32_at(32));
    if toc_offset < HEADER_LEN || toc_offset.checked_add(toc_len).is_none_or(|end| end > size) {
        return Err(corrupt(path, "the table of contents lies outside the file (was recording interrupted?)"));
    }
    let toc_bytes = read_exact_at(&mut file, path, toc_offset, toc_len)?;
    if crc32fast::hash(&toc_bytes) != toc_crc {
        return Err(corrupt(path, "checksum mismatch in the table of contents"));
    }
    let toc: Vec<TocEntry> = postcard::from_bytes(&toc_bytes).map_err(|e| corrupt(path, format!("table of contents: {e}")))?;
    for e in &toc {
        if e.offset < HEADER_LEN || e.offset.checked_add(e.len).is_none_or(|end| end > toc_offset) {
            return Err(corrupt(path, format!("section `{}` lies outside the file", e.name)));
        }
    }
    Ok((file, toc))
}

fn read_exact_at(file: &mut File, path: &Path, offset: u64, len: u64) -> Result<Vec<u8>, Error> {
    let io = |source| Error::Io { path: path.to_owned(), source };
    file.seek(SeekFrom::Start(offset)).map_err(io)?;
    let mut buf = vec![0u8; len as usize];
    file.read_exact(&mut buf).map_err(io)?;
    Ok(buf)
}

/// The bytes of section `name`, checksum verified.
pub(crate) fn read_section(file: &mut File, path: &Path, toc: &[TocEntry], name: &str) -> Result<Vec<u8>, Error> {
    let e = toc.iter().find(|e| e.name == name).ok_or_else(|| Error::Missing { path: path.to_owned(), section: name.into() })?;
    let bytes = read_exact_at(file, path, e.offset, e.len)?;
    if crc32fast::hash(&bytes) != e.crc32 {
        return Err(corrupt(path, format!("checksum mismatch in section `{name}`")));
    }
    Ok(bytes)
}

/// Section `name`, checksum verified and postcard-decoded.
pub(crate) fn decode_section<T: serde::de::DeserializeOwned>(file: &mut File, path: &Path, toc: &[TocEntry], name: &str) -> Result<T, Error> {
    postcard::from_bytes(&read_section(file, path, toc, name)?).map_err(|e| corrupt(path, format!("section `{name}`: {e}")))
}

impl Profile {
    /// Reads and checks the header, table of contents, `meta` and `counts`. A merged
    /// profile (written by `wpp merge`) opens as the sum of its runs.
    pub fn open(path: &Path) -> Result<Profile, Error> {
        let (file, toc) = read_toc(path)?;
        Profile::load(path, file, toc, None)
    }

    /// Opens run `run` (from 1) of a merged profile as the profile of that run alone: its
    /// counts, its whole program path if it has one, its arguments and ending.
    pub fn open_run(path: &Path, run: usize) -> Result<Profile, Error> {
        let (mut file, toc) = read_toc(path)?;
        if !toc.iter().any(|e| e.name == section::MERGED_RUNS) {
            return Err(Error::NotMerged { path: path.to_owned(), run });
        }
        let runs: Vec<RunRecord> = decode_section(&mut file, path, &toc, section::MERGED_RUNS)?;
        let record = match run.checked_sub(1).and_then(|i| runs.get(i)) {
            Some(r) => r.clone(),
            None => return Err(Error::NoSuchRun { path: path.to_owned(), run, runs: runs.len() }),
        };
        let prefix = run_prefix(run - 1);
        let toc = toc
            .into_iter()
            .filter_map(|mut e| {
                if COMMON.contains(&e.name.as_str()) {
                    return Some(e);
                }
                let name = e.name.strip_prefix(&prefix)?.to_owned();
                e.name = name;
                Some(e)
            })
            .collect();
        Profile::load(path, file, toc, Some(&record))
    }

    /// Checks and loads the sections `toc` lists; with `run`, `meta` is that run's.
    fn load(path: &Path, mut file: File, toc: Vec<TocEntry>, run: Option<&RunRecord>) -> Result<Profile, Error> {
        let mut meta: Meta = decode_section(&mut file, path, &toc, section::META)?;
        if let Some(r) = run {
            r.apply(&mut meta);
        }
        for (i, f) in meta.functions.iter().enumerate() {
            if f.index.idx() != i {
                return Err(corrupt(path, format!("function {i} is listed as function {}", f.index)));
            }
            if let Some(cfg) = &f.cfg {
                cfg.validate().map_err(|e| corrupt(path, format!("function {} ({}): {e}", i, f.name)))?;
            }
        }
        let numberings =
            meta.numberings().map_err(|e| corrupt(path, format!("function {} ({}): paths cannot be numbered within {}", e.func, e.name, meta.max_paths)))?;
        let counts: Vec<PathCount> = decode_section(&mut file, path, &toc, section::COUNTS)?;
        for c in &counts {
            check_event(path, &meta, &numberings, PathEvent { func: c.func, path: c.path })?;
        }
        let has = |name: &str| toc.iter().any(|e| e.name == name);
        let symbols: Vec<PathEvent> = if has(section::SYMBOLS) { decode_section(&mut file, path, &toc, section::SYMBOLS)? } else { Vec::new() };
        let mut distinct = std::collections::HashSet::with_capacity(symbols.len());
        for &e in &symbols {
            check_event(path, &meta, &numberings, e)?;
            if !distinct.insert(e) {
                return Err(corrupt(path, format!("section `symbols`: path {} of function {} has two symbols", e.path, e.func)));
            }
        }
        let terminals: Vec<u32> = if has(section::TERMINALS) { decode_section(&mut file, path, &toc, section::TERMINALS)? } else { Vec::new() };
        let terminal_events: Vec<(u32, u64)> =
            if has(section::TERMINAL_EVENTS) { decode_section(&mut file, path, &toc, section::TERMINAL_EVENTS)? } else { Vec::new() };
        let named = [(section::SYMBOLS, symbols.len()), (section::TERMINALS, terminals.len()), (section::TERMINAL_EVENTS, terminal_events.len())];
        if let [(a, _), (b, _), ..] = named.iter().filter(|(_, n)| *n > 0).collect::<Vec<_>>()[..] {
            return Err(corrupt(path, format!("both `{a}` and `{b}` name the grammar's terminals")));
        }
        let grammar_options = if has(section::GRAMMAR_OPTIONS) { Some(decode_section(&mut file, path, &toc, section::GRAMMAR_OPTIONS)?) } else { None };
        let mut source: Option<wpp_model::SourceMap> = if has(section::SOURCE) { Some(decode_section(&mut file, path, &toc, section::SOURCE)?) } else { None };
        if let Some(s) = &source {
            let n_blocks: Vec<usize> = meta.functions.iter().map(|f| f.cfg.as_ref().map_or(0, |c| c.n_blocks())).collect();
            s.validate(&n_blocks).map_err(|e| corrupt(path, format!("section `source`: {e}")))?;
        }
        let ppp: Option<crate::PppRecord> = if has(section::PPP) { Some(decode_section(&mut file, path, &toc, section::PPP)?) } else { None };
        if let Some(r) = &ppp {
            check_ppp(path, &meta, &numberings, &counts, r)?;
        }
        // An extended WPP's check routine, after the module's functions, is instrumentation.
        let mut counts = counts;
        // A merged profile keeps it per run; the runs share the module and so the routine.
        let ewpp = toc
            .iter()
            .map(|e| e.name.as_str())
            .find(|n| *n == section::EWPP || n.strip_prefix("run.").and_then(|n| n.split_once('/')).is_some_and(|(_, n)| n == section::EWPP));
        let instrumentation = if let Some(name) = ewpp.map(str::to_owned) {
            let record: wpp_model::ewpp::EwppRecord = decode_section(&mut file, path, &toc, &name)?;
            let first = record.check;
            if first.idx() > meta.functions.len() {
                return Err(corrupt(
                    path,
                    format!("section `ewpp`: the check routine is function {first}, past the profile's {} functions", meta.functions.len()),
                ));
            }
            let functions = meta.functions.split_off(first.idx());
            if let Some(s) = &mut source {
                s.blocks.truncate(first.idx());
            }
            let (added, program): (Vec<PathCount>, Vec<PathCount>) = counts.into_iter().partition(|c| c.func >= first);
            counts = program;
            let events = added.iter().map(|c| c.count).sum::<u64>();
            meta.events = meta
                .events
                .checked_sub(events)
                .ok_or_else(|| corrupt(path, format!("the check routine ran {events} paths, more than the {} recorded events", meta.events)))?;
            Some(Instrumentation { first, functions, counts: added, events })
        } else {
            None
        };
        // A trace or grammar, if present, is verified when it is read.
        Ok(Profile { path: path.to_owned(), toc, meta, counts, numberings, symbols, terminals, terminal_events, grammar_options, source, ppp, instrumentation })
    }

    /// Whether this is a TWPP file (`wpp twpp build`): the run split by function, read
    /// with `wpp_twpp`, with no whole program path of its own.
    pub fn is_twpp(&self) -> bool {
        self.toc.iter().any(|e| e.name == section::TWPP_INDEX)
    }

    /// Whether the profile holds the full path trace.
    pub fn has_trace(&self) -> bool {
        self.toc.iter().any(|e| e.name == section::RUNS || e.name == section::TRACE)
    }

    /// Whether the profile holds the path trace as a grammar.
    pub fn has_grammar(&self) -> bool {
        self.toc.iter().any(|e| e.name == section::GRAMMAR)
    }

    /// Bytes of the named section, checksum verified.
    pub fn section_bytes(&self, name: &str) -> Result<Vec<u8>, Error> {
        let mut file = File::open(&self.path).map_err(|source| Error::Io { path: self.path.clone(), source })?;
        read_section(&mut file, &self.path, &self.toc, name)
    }

    /// The identity of the module the profile was recorded from: `None` for a profile
    /// without section `module` (written before it existed, or by `wpp compress`).
    pub fn module_id(&self) -> Result<Option<ModuleId>, Error> {
        if !self.toc.iter().any(|e| e.name == section::MODULE) {
            return Ok(None);
        }
        let bytes = self.section_bytes(section::MODULE)?;
        let id: ModuleId = postcard::from_bytes(&bytes).map_err(|e| corrupt(&self.path, format!("section `module`: {e}")))?;
        if id.bytes != self.meta.module_bytes {
            return Err(corrupt(&self.path, format!("section `module` describes a module of {} bytes; `meta` says {}", id.bytes, self.meta.module_bytes)));
        }
        Ok(Some(id))
    }

    /// Checks that `wasm`, read from `module_path`, is the module the profile was recorded
    /// from, by its SHA-256. A profile without section `module` cannot tell, and is refused
    /// ([`Error::NoModuleHash`]).
    pub fn check_module(&self, module_path: &Path, wasm: &[u8]) -> Result<(), Error> {
        let recorded = self.module_id()?.ok_or_else(|| Error::NoModuleHash { path: self.path.clone() })?;
        let found = ModuleId::of(wasm);
        if found != recorded {
            return Err(Error::WrongModule {
                module: module_path.to_owned(),
                profile: self.path.clone(),
                found: Box::new(found),
                recorded: Box::new(recorded),
            });
        }
        Ok(())
    }

    /// Whether this is a merged profile each of whose runs holds its whole program path (a
    /// grammar or a trace).
    pub fn every_run_whole(&self) -> Result<bool, Error> {
        let Some(runs) = self.merged_runs()? else { return Ok(false) };
        let has = |i: usize, s: &str| self.toc.iter().any(|e| e.name.strip_prefix(run_prefix(i).as_str()) == Some(s));
        Ok(!runs.is_empty() && (0..runs.len()).all(|i| has(i, section::GRAMMAR) || has(i, section::RUNS) || has(i, section::TRACE)))
    }

    /// A merged profile's runs, in the order merged; `None` for a profile of one run.
    pub fn merged_runs(&self) -> Result<Option<Vec<RunRecord>>, Error> {
        self.optional_value(section::MERGED_RUNS)
    }

    /// Section `name` postcard-decoded, `None` when the profile has no such section.
    pub fn optional_value<T: serde::de::DeserializeOwned>(&self, name: &str) -> Result<Option<T>, Error> {
        if !self.toc.iter().any(|e| e.name == name) {
            return Ok(None);
        }
        let bytes = self.section_bytes(name)?;
        postcard::from_bytes(&bytes).map(Some).map_err(|e| corrupt(&self.path, format!("section `{name}`: {e}")))
    }

    /// The module's access sites (addresses and filtering runs), checked: every site in a
    /// function the profile knows, in a block of its CFG.
    pub fn access_sites(&self) -> Result<Option<Vec<wpp_model::access_event::AccessSite>>, Error> {
        let Some(sites) = self.optional_value::<Vec<wpp_model::access_event::AccessSite>>(section::ACCESS_SITES)? else { return Ok(None) };
        for (i, s) in sites.iter().enumerate() {
            let f = self.meta.functions.get(s.func.idx());
            let ok = match s.kind {
                wpp_model::access_event::SiteKind::HostWrite => i + 1 == sites.len(),
                wpp_model::access_event::SiteKind::HostCall { import } => {
                    f.and_then(|f| f.cfg.as_ref()).is_some_and(|c| s.block.idx() < c.n_blocks())
                        && self.meta.functions.get(import.idx()).is_some_and(|f| f.cfg.is_none())
                }
                _ => f.and_then(|f| f.cfg.as_ref()).is_some_and(|c| s.block.idx() < c.n_blocks()),
            };
            if !ok {
                return Err(corrupt(&self.path, format!("section `{}`: site {i} ({s:?}) is not in the module", section::ACCESS_SITES)));
            }
        }
        if sites.last().is_some_and(|s| s.kind != wpp_model::access_event::SiteKind::HostWrite) {
            return Err(corrupt(&self.path, format!("section `{}` does not end with the host-write site", section::ACCESS_SITES)));
        }
        Ok(Some(sites))
    }

    /// The address trace of an addresses recording: its grammar and the value of each
    /// terminal, checked; `None` for a profile without one.
    pub fn address_trace(&self) -> Result<Option<(wpp_grammar::Grammar, Vec<u32>)>, Error> {
        let Some(values) = self.optional_value::<Vec<u32>>(section::ADDRESS_VALUES)? else { return Ok(None) };
        let bytes = self.section_bytes(section::ADDRESS_GRAMMAR)?;
        let what = |e: String| corrupt(&self.path, format!("section `{}`: {e}", section::ADDRESS_GRAMMAR));
        let g = wpp_grammar::decode_grammar(&bytes).map_err(|e| what(e.to_string()))?;
        g.validate(Some(values.len() as u32)).map_err(|e| what(e.to_string()))?;
        Ok(Some((g, values)))
    }

    /// Whether the profile holds a trace from elsewhere (`wpp compress`), with no program.
    pub fn is_foreign(&self) -> bool {
        self.meta.functions.is_empty()
    }

    /// Refuses a trace from elsewhere for `command`, which needs the recorded program.
    pub fn require_program(&self, command: &'static str) -> Result<(), Error> {
        match self.is_foreign() {
            true => Err(Error::Foreign { path: self.path.clone(), command }),
            false => Ok(()),
        }
    }

    /// Number of distinct terminal symbols of the grammar.
    pub fn n_terminals(&self) -> u32 {
        self.symbols.len().max(self.terminals.len()).max(self.terminal_events.len()) as u32
    }

    /// The path trace of the program as a grammar over [`Profile::symbols`], decoded and
    /// validated: the paths of the [instrumentation](Profile::instrumentation) left out.
    pub fn grammar(&self) -> Result<wpp_grammar::Grammar, Error> {
        let g = self.grammar_with_instrumentation()?;
        match &self.instrumentation {
            None => Ok(g),
            Some(i) => {
                let symbols = &self.symbols;
                g.without_terminals(|t| symbols.get(t.idx()).is_some_and(|e| i.has(e.func))).map_err(|e| corrupt(&self.path, format!("section `grammar`: {e}")))
            }
        }
    }

    /// The whole program path as recorded, as a grammar over [`Profile::symbols`],
    /// decoded and validated: with the paths of the instrumentation, if any.
    pub fn grammar_with_instrumentation(&self) -> Result<wpp_grammar::Grammar, Error> {
        let bytes = self.section_bytes(section::GRAMMAR)?;
        let g = wpp_grammar::decode_grammar(&bytes).map_err(|e| corrupt(&self.path, format!("section `grammar`: {e}")))?;
        let lengths = g.validated_lengths(Some(self.n_terminals())).map_err(|e| corrupt(&self.path, format!("section `grammar`: {e}")))?;
        let length = lengths.first().copied().unwrap_or(0);
        let recorded = self.recorded_events();
        if length != recorded {
            return Err(corrupt(&self.path, format!("section `grammar` derives {length} events; the profile recorded {recorded}")));
        }
        Ok(g)
    }

    /// `meta` as recorded: the instrumentation's functions after the program's, and the
    /// events of both (what a file holding this run's whole program path writes).
    pub fn recorded_meta(&self) -> Meta {
        let mut meta = self.meta.clone();
        if let Some(i) = &self.instrumentation {
            meta.functions.extend(i.functions.iter().cloned());
            meta.events += i.events;
        }
        meta
    }

    /// `counts` as recorded: the instrumentation's paths after the program's.
    pub fn recorded_counts(&self) -> Vec<PathCount> {
        let mut counts = self.counts.clone();
        if let Some(i) = &self.instrumentation {
            counts.extend(i.counts.iter().copied());
        }
        counts
    }

    /// Path events in the whole program path: the program's and the instrumentation's.
    pub fn recorded_events(&self) -> u64 {
        self.meta.events + self.instrumentation.as_ref().map_or(0, |i| i.events)
    }

    /// Calls `f` with every path event of the program in order, from the trace or the
    /// grammar, whichever the profile holds; the instrumentation's paths left out.
    pub fn for_each_event(&self, mut f: impl FnMut(PathEvent)) -> Result<(), Error> {
        match &self.instrumentation {
            None => self.for_each_event_with_instrumentation(f),
            Some(i) => self.for_each_event_with_instrumentation(|e| {
                if !i.has(e.func) {
                    f(e)
                }
            }),
        }
    }

    /// Calls `f` with every path event in order as recorded, the instrumentation's
    /// included.
    pub fn for_each_event_with_instrumentation(&self, mut f: impl FnMut(PathEvent)) -> Result<(), Error> {
        if self.has_trace() {
            let mut r = self.trace()?;
            loop {
                let batch = r.next_batch()?;
                if batch.is_empty() {
                    return Ok(());
                }
                batch.iter().for_each(|&e| f(e));
            }
        }
        if self.has_grammar() {
            if self.symbols.is_empty() && self.meta.events > 0 {
                return Err(corrupt(&self.path, "the grammar's terminals are not paths (a trace compressed by `wpp compress`)"));
            }
            let g = self.grammar_with_instrumentation()?;
            for t in g.expand() {
                f(self.symbols[t as usize]);
            }
            return Ok(());
        }
        Err(self.no_whole_path(&format!("{}` or `{}", section::RUNS, section::GRAMMAR)))
    }

    /// The error for a profile without `section`, where the path trace should be: a
    /// profile of counts only, or a damaged one.
    fn no_whole_path(&self, section: &str) -> Error {
        if self.toc.iter().any(|e| e.name == section::MERGED_RUNS) {
            return Error::MergedWholePath { path: self.path.clone() };
        }
        if self.is_twpp() {
            let stem = self.path.file_stem().map(|s| s.to_string_lossy().into_owned());
            return Error::TwppWholePath { path: self.path.clone(), stem };
        }
        match self.meta.mode {
            RecordMode::Paths => Error::NoWholePath { path: self.path.clone(), mode: "paths" },
            RecordMode::Ppp => Error::NoWholePath { path: self.path.clone(), mode: "ppp" },
            RecordMode::EwppFilter => Error::NoWholePath { path: self.path.clone(), mode: "ewpp-filter" },
            RecordMode::Trace | RecordMode::Grammar(_) | RecordMode::Addresses(_) | RecordMode::Ewpp(_) => {
                Error::Missing { path: self.path.clone(), section: section.to_owned() }
            }
        }
    }

    /// Streams the path trace, from section `runs` or (version 1) `trace`; its checksum and
    /// every event are checked as it is read.
    pub fn trace(&self) -> Result<TraceReader<'_>, Error> {
        let runs = self.toc.iter().find(|e| e.name == section::RUNS);
        let e = match runs {
            Some(e) => e,
            None => self.toc.iter().find(|e| e.name == section::TRACE).ok_or_else(|| self.no_whole_path(section::RUNS))?,
        };
        let form = match runs {
            Some(_) => Form::Runs { carry: Vec::new(), offset: 0, pending: None, events: 0 },
            None if e.len % 8 != 0 => return Err(corrupt(&self.path, "the trace is not a whole number of event words")),
            None => Form::Words(wpp_model::EventDecoder::default()),
        };
        let io = |source| Error::Io { path: self.path.clone(), source };
        let mut file = File::open(&self.path).map_err(io)?;
        file.seek(SeekFrom::Start(e.offset)).map_err(io)?;
        Ok(TraceReader {
            profile: self,
            section: e.name.clone(),
            input: BufReader::with_capacity(1 << 20, file).take(e.len),
            crc: crc32fast::Hasher::new(),
            expected_crc: e.crc32,
            form,
            buf: Vec::new(),
            eof: false,
            done: false,
        })
    }

    /// Decodes a path to its blocks.
    pub fn path_blocks(&self, func: wpp_model::FuncIdx, path: wpp_model::PathId) -> Option<Vec<wpp_model::BlockIdx>> {
        self.numberings.get(func)?.decode(path).ok()
    }
}

pub(crate) fn check_event(path: &Path, meta: &Meta, numberings: &wpp_paths::ProgramNumbering, e: PathEvent) -> Result<(), Error> {
    let n = numberings.get(e.func).ok_or_else(|| corrupt(path, format!("path event in function {}, which has no code", e.func)))?;
    if e.path.0 >= n.n_paths() {
        return Err(corrupt(path, format!("path {} of function {} ({}) does not exist", e.path, e.func, meta.func_name(e.func))));
    }
    Ok(())
}

/// Section `ppp`: functions and paths exist, in order, ids distinct; every hashed count
/// is part of the path's count, and no interesting path that had a slot was hashed.
pub(crate) fn check_ppp(path: &Path, meta: &Meta, numberings: &wpp_paths::ProgramNumbering, counts: &[PathCount], r: &crate::PppRecord) -> Result<(), Error> {
    let bad = |m: String| corrupt(path, format!("section `ppp`: {m}"));
    if !r.functions.windows(2).all(|w| w[0].func < w[1].func) {
        return Err(bad("functions are not sorted".into()));
    }
    for f in &r.functions {
        let mut ids = std::collections::HashSet::new();
        if f.paths.is_empty() {
            return Err(bad(format!("function {} has no interesting paths", f.func)));
        }
        if f.ball_larus_array && f.slots > 0 {
            return Err(bad(format!("function {} has both PPP slots and a Ball-Larus array", f.func)));
        }
        for (i, p) in f.paths.iter().enumerate() {
            check_event(path, meta, numberings, PathEvent { func: f.func, path: p.path })?;
            if i > 0 && f.paths[i - 1].path >= p.path {
                return Err(bad(format!("paths of function {} are not sorted", f.func)));
            }
            if !ids.insert(p.ppp_id) {
                return Err(bad(format!("two paths of function {} have PPP id {}", f.func, p.ppp_id)));
            }
        }
    }
    if !r.hashed.windows(2).all(|w| (w[0].func, w[0].path) < (w[1].func, w[1].path)) {
        return Err(bad("hashed counts are not sorted".into()));
    }
    for f in &r.functions {
        for p in f.paths.iter().filter(|p| p.ppp_id < f.slots) {
            if r.hashed.binary_search_by(|h| (h.func, h.path).cmp(&(f.func, p.path))).is_ok() {
                return Err(bad(format!("path {} of function {} has PPP slot {} but was counted in the hash table", p.path, f.func, p.ppp_id)));
            }
        }
    }
    for h in &r.hashed {
        check_event(path, meta, numberings, PathEvent { func: h.func, path: h.path })?;
        let total = counts.binary_search_by(|c| (c.func, c.path).cmp(&(h.func, h.path))).map(|i| counts[i].count).unwrap_or(0);
        if h.count > total {
            return Err(bad(format!("path {} of function {} hashed {} times but counted {total}", h.path, h.func, h.count)));
        }
    }
    Ok(())
}

/// Streams path events from a profile's `runs` or `trace` section.
pub struct TraceReader<'p> {
    profile: &'p Profile,
    section: String,
    input: std::io::Take<BufReader<File>>,
    crc: crc32fast::Hasher,
    expected_crc: u32,
    form: Form,
    buf: Vec<PathEvent>,
    /// The whole section was read and its checksum verified.
    eof: bool,
    /// No events are left.
    done: bool,
}

/// How the section holds the trace.
enum Form {
    /// Version 1: event words.
    Words(wpp_model::EventDecoder),
    /// Run-length tokens over the `symbols` section: bytes of a token cut by the end of
    /// the last read, the section offset of the first of them, the rest of a run longer
    /// than a batch, and the events so far.
    Runs { carry: Vec<u8>, offset: u64, pending: Option<(PathEvent, u64)>, events: u64 },
}

/// Bytes read from the section at a time.
const READ_BYTES: usize = 1 << 16;
/// At most this many events per batch (a run can be longer).
const BATCH_EVENTS: u64 = 1 << 16;
/// The longest token: two LEB128 numbers of at most 10 bytes.
const MAX_TOKEN_BYTES: usize = 20;

impl TraceReader<'_> {
    /// The next batch of events, or an empty slice at the end.
    pub fn next_batch(&mut self) -> Result<&[PathEvent], Error> {
        self.buf.clear();
        while self.buf.is_empty() && !self.done {
            if let Form::Runs { pending: pending @ Some(_), .. } = &mut self.form {
                let (e, left) = pending.as_mut().expect("a pending run");
                let n = (*left).min(BATCH_EVENTS);
                self.buf.extend(std::iter::repeat_n(*e, n as usize));
                *left -= n;
                if *left == 0 {
                    *pending = None;
                }
                break;
            }
            let bytes = self.read_chunk()?;
            let path = &self.profile.path;
            match &mut self.form {
                Form::Words(decoder) => {
                    if bytes.len() % 8 != 0 {
                        return Err(corrupt(path, "the trace is cut inside an event word"));
                    }
                    let words: Vec<u64> = bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
                    let buf = &mut self.buf;
                    decoder.feed(&words, |e| buf.push(e));
                    for &e in &self.buf {
                        check_event(path, &self.profile.meta, &self.profile.numberings, e)?;
                    }
                    if self.eof {
                        if decoder.is_mid_event() {
                            return Err(corrupt(path, "the trace ends inside an event"));
                        }
                        self.done = true;
                    }
                }
                Form::Runs { carry, offset, pending, events } => {
                    carry.extend_from_slice(&bytes);
                    let symbols = &self.profile.symbols;
                    let bad = |at: u64, what: &str| corrupt(path, format!("section `runs`, byte {at}: {what}"));
                    let mut tokens = wpp_grammar::Tokens::new(carry);
                    while self.eof || carry.len() - tokens.offset() >= MAX_TOKEN_BYTES {
                        let at = *offset + tokens.offset() as u64;
                        let Some(t) = tokens.next() else { break };
                        let t = t.map_err(|e| bad(*offset + e.offset as u64, e.what))?;
                        let e = *symbols.get(t.symbol as usize).ok_or_else(|| bad(at, &format!("symbol {} is not in section `symbols`", t.symbol)))?;
                        let recorded = self.profile.recorded_events();
                        *events = events
                            .checked_add(t.run)
                            .filter(|&n| n <= recorded)
                            .ok_or_else(|| bad(at, &format!("more events than the {recorded} the profile recorded")))?;
                        if t.run > BATCH_EVENTS {
                            *pending = Some((e, t.run));
                            break;
                        }
                        self.buf.extend(std::iter::repeat_n(e, t.run as usize));
                        if self.buf.len() as u64 >= BATCH_EVENTS {
                            break;
                        }
                    }
                    let used = tokens.offset();
                    *offset += used as u64;
                    carry.drain(..used);
                    if self.eof && carry.is_empty() && pending.is_none() {
                        if *events != self.profile.recorded_events() {
                            return Err(corrupt(
                                path,
                                format!("section `runs` holds {events} events; the profile recorded {}", self.profile.recorded_events()),
                            ));
                        }
                        self.done = true;
                    }
                }
            }
        }
        Ok(&self.buf)
    }

    /// Up to [`READ_BYTES`] more bytes of the section; at its end, the checksum is verified
    /// and `eof` set.
    fn read_chunk(&mut self) -> Result<Vec<u8>, Error> {
        if self.eof {
            return Ok(Vec::new());
        }
        let path = &self.profile.path;
        let mut bytes = vec![0u8; READ_BYTES];
        let mut n = 0;
        while n < bytes.len() {
            let k = self.input.read(&mut bytes[n..]).map_err(|source| Error::Io { path: path.clone(), source })?;
            if k == 0 {
                break;
            }
            n += k;
        }
        bytes.truncate(n);
        self.crc.update(&bytes);
        if n < READ_BYTES {
            self.eof = true;
            if std::mem::take(&mut self.crc).finalize() != self.expected_crc {
                return Err(corrupt(path, format!("checksum mismatch in section `{}`", self.section)));
            }
        }
        Ok(bytes)
    }
}

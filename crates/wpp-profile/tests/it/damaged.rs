//! Damaged and hostile profile files.
//!
//! The promise of `wpp_profile` (see the crate docs): any byte string gives a value or an
//! error, never a panic, a hang or an allocation beyond the file's size. This file checks
//! it with a seeded fuzz-style loop over mutations of a small but realistic profile (raw
//! byte damage, damage behind re-computed checksums so that the decoders and validators
//! see it, and semantic damage to the encoded values) and with targeted tests for each
//! kind of error.
//!
//! A counting global allocator measures, per thread, the largest single allocation and the
//! peak of live bytes while a case runs; each case runs on its own thread under
//! `catch_unwind` with a time limit, so a panic or a hang names the input that caused it
//! (the input is also saved under `CARGO_TARGET_TMPDIR`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use wpp_model::{BlockIdx, Cfg, Edge, EdgeKind, FuncIdx, Function, PathEvent, PathId, Target, ESCAPE_FUNC};
use wpp_profile::{section, Ending, Error, Meta, ModuleId, PathCount, Profile, RecordMode, Writer, MAGIC, VERSION};
use wpp_test_support::alloc::{measure, Counting};
use wpp_test_support::cfgs::{blk, diamond, diamonds, edge, looped, trapping};
use wpp_test_support::Rng;

// ---------------------------------------------------------------------------------------
// Counting allocator

#[global_allocator]
static ALLOC: Counting = Counting;

/// What reading a file of `size` bytes may allocate (the trace reader alone buffers 1 MiB).
fn alloc_budget(size: usize) -> usize {
    (size * 4).max(16 << 20)
}

// ---------------------------------------------------------------------------------------
// Deterministic randomness

/// Values shaped for damaging a profile, on top of the shared generator.
trait Damage {
    fn byte(&mut self) -> u8;
    fn interesting_u64(&mut self, size: u64) -> u64;
}

impl Damage for Rng {
    /// A byte, half the time one of the values that matter most in encodings.
    fn byte(&mut self) -> u8 {
        const SPECIAL: [u8; 8] = [0x00, 0xff, 0x7f, 0x80, 0x01, 0xfe, 0x81, 0x40];
        if self.chance(2) {
            SPECIAL[self.below(SPECIAL.len())]
        } else {
            self.next() as u8
        }
    }
    /// A value likely to hit an edge case of an offset or a length in a file of `size` bytes.
    fn interesting_u64(&mut self, size: u64) -> u64 {
        let choices = [
            0,
            1,
            7,
            8,
            39,
            40,
            41,
            size.wrapping_sub(1),
            size,
            size + 1,
            size / 2,
            u32::MAX as u64,
            1 << 32,
            1 << 63,
            u64::MAX,
            u64::MAX - 7,
            u64::MAX - 39,
            i64::MAX as u64,
        ];
        if self.chance(4) {
            self.next()
        } else {
            choices[self.below(choices.len())]
        }
    }
}

// ---------------------------------------------------------------------------------------
// A small but realistic profile

#[derive(Clone)]
struct Fixture {
    meta: Meta,
    counts: Vec<PathCount>,
    events: Vec<PathEvent>,
    /// The sections in file order, encoded.
    sections: Vec<(String, Vec<u8>)>,
    /// The whole file.
    bytes: Vec<u8>,
}

fn encode_events(events: &[PathEvent]) -> Vec<u8> {
    let mut words = Vec::new();
    for e in events {
        e.encode(&mut words);
    }
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The symbols (paths in order of first execution) and the `runs` section of `events`, as
/// trace mode writes them.
fn encode_runs(events: &[PathEvent]) -> (Vec<PathEvent>, Vec<u8>) {
    let mut symbols: Vec<PathEvent> = Vec::new();
    let mut ids: BTreeMap<PathEvent, u32> = BTreeMap::new();
    let mut runs = wpp_grammar::RunLength::default();
    let mut bytes = Vec::new();
    for &e in events {
        let next = symbols.len() as u32;
        let id = *ids.entry(e).or_insert_with(|| {
            symbols.push(e);
            next
        });
        if let Some(t) = runs.push(id) {
            wpp_grammar::encode_token(&mut bytes, t);
        }
    }
    if let Some(t) = runs.finish() {
        wpp_grammar::encode_token(&mut bytes, t);
    }
    (symbols, bytes)
}

fn counts_of(events: &[PathEvent]) -> Vec<PathCount> {
    let mut m: BTreeMap<(FuncIdx, PathId), u64> = BTreeMap::new();
    for e in events {
        *m.entry((e.func, e.path)).or_default() += 1;
    }
    m.into_iter().map(|((func, path), count)| PathCount { func, path, count }).collect()
}

fn fixture(dir: &Path) -> Fixture {
    let functions = vec![
        Function { index: FuncIdx(0), name: "wasi_snapshot_preview1::fd_write".into(), cfg: None },
        Function { index: FuncIdx(1), name: "main".into(), cfg: Some(looped(100)) },
        Function { index: FuncIdx(2), name: "abs".into(), cfg: Some(diamond(200)) },
        Function { index: FuncIdx(3), name: "check".into(), cfg: Some(trapping(300)) },
        Function { index: FuncIdx(4), name: "dispatch".into(), cfg: Some(diamonds(34, 400)) },
    ];
    for f in &functions {
        if let Some(cfg) = &f.cfg {
            cfg.validate().unwrap_or_else(|e| panic!("fixture function {} is invalid: {e}", f.name));
        }
    }
    let mut meta = Meta {
        module: "demo.wasm".into(),
        module_bytes: 4321,
        mode: RecordMode::Trace,
        max_paths: u64::MAX,
        functions,
        args: vec!["--rounds".into(), "3".into()],
        ending: Ending::Exited(0),
        guest_nanos: 1_234_567,
        events: 0,
    };
    let numberings = meta.numberings().unwrap();
    let n_paths: Vec<u64> = (0..numberings.n_functions() as u32).map(|f| numberings.get(FuncIdx(f)).map_or(0, |n| n.n_paths())).collect();
    assert_eq!(n_paths[0], 0);
    assert_eq!(n_paths[2], 2, "diamond");
    assert_eq!(n_paths[4], 1 << 34, "34 diamonds");
    // A plausible run: main loops, calling abs (in a loop) and check, and dispatch runs with both small
    // and large (escaped) path numbers.
    let mut rng = Rng::new(0x5eed);
    let mut events = Vec::new();
    for round in 0..60u64 {
        for f in 1..n_paths.len() {
            if n_paths[f] == 0 || (f == 3 && round % 3 != 0) {
                continue;
            }
            let p = match (f, round % 4) {
                (4, 0) => n_paths[4] - 1 - round,
                (4, 1) => u32::MAX as u64 + round,
                _ => rng.next() % n_paths[f],
            };
            // abs runs in a loop of its own now and then: runs of one path.
            let times = if f == 2 { 1 + round as usize % 3 } else { 1 };
            events.extend(std::iter::repeat_n(PathEvent { func: FuncIdx(f as u32), path: PathId(p) }, times));
        }
    }
    assert!(events.iter().any(|e| e.path.0 > u32::MAX as u64), "some events use the escape encoding");
    meta.events = events.len() as u64;
    let counts = counts_of(&events);
    // The same events as a grammar over a symbol table, as grammar mode writes them.
    let mut symbols: Vec<PathEvent> = Vec::new();
    let mut ids: BTreeMap<PathEvent, u32> = BTreeMap::new();
    let mut seq = wpp_grammar::Sequitur::with_lookahead();
    for &e in &events {
        let next = symbols.len() as u32;
        let id = *ids.entry(e).or_insert_with(|| {
            symbols.push(e);
            next
        });
        seq.push(id);
    }
    let grammar = wpp_grammar::encode_grammar(&seq.finish(), symbols.len() as u32);
    let (run_symbols, runs) = encode_runs(&events);
    assert_eq!(run_symbols, symbols, "one symbol table for the trace and the grammar");
    assert!(wpp_grammar::Tokens::new(&runs).any(|t| t.unwrap().run > 1), "the fixture has runs");
    // Source lines for most blocks, in two files.
    let source = wpp_model::SourceMap {
        files: vec!["main.c".into(), "lib/util.h".into()],
        blocks: meta
            .functions
            .iter()
            .map(|f| {
                let n = f.cfg.as_ref().map_or(0, |c| c.n_blocks()) as u32;
                (0..n).map(|b| (b % 5 != 4).then_some(wpp_model::LineRange { file: b % 2, first: 10 + b, last: 12 + 2 * b })).collect()
            })
            .collect(),
    };
    // As preferential path profiling records it: abs's paths and one of main's are
    // interesting, with slots; everything else was hashed.
    let main_paths: Vec<PathId> = counts.iter().filter(|c| c.func == FuncIdx(1)).map(|c| c.path).collect();
    let ppp = wpp_profile::PppRecord {
        set: "tested.json".into(),
        selection: "all executed".into(),
        functions: vec![
            wpp_profile::PppFunction {
                func: FuncIdx(1),
                slots: 1,
                ball_larus_array: false,
                paths: vec![wpp_profile::PppPath { path: main_paths[0], ppp_id: 0 }],
            },
            wpp_profile::PppFunction {
                func: FuncIdx(2),
                slots: 2,
                ball_larus_array: false,
                paths: vec![wpp_profile::PppPath { path: PathId(0), ppp_id: 1 }, wpp_profile::PppPath { path: PathId(1), ppp_id: 0 }],
            },
        ],
        hashed: counts.iter().filter(|c| c.func != FuncIdx(2) && !(c.func == FuncIdx(1) && c.path == main_paths[0])).copied().collect(),
    };
    let sections = vec![
        (section::RUNS.to_owned(), runs),
        (section::META.to_owned(), postcard::to_stdvec(&meta).unwrap()),
        (section::COUNTS.to_owned(), postcard::to_stdvec(&counts).unwrap()),
        (section::SYMBOLS.to_owned(), postcard::to_stdvec(&symbols).unwrap()),
        (section::GRAMMAR.to_owned(), grammar),
        (section::SOURCE.to_owned(), postcard::to_stdvec(&source).unwrap()),
        (section::PPP.to_owned(), postcard::to_stdvec(&ppp).unwrap()),
        (section::MODULE.to_owned(), postcard::to_stdvec(&fixture_module_id(&meta)).unwrap()),
        // Readers skip sections they do not know.
        ("notes".to_owned(), b"recorded by a later wpp".to_vec()),
    ];
    let bytes = assemble(dir, &sections);
    Fixture { meta, counts, events, sections, bytes }
}

/// The identity the fixture's module section holds.
fn fixture_module_id(meta: &Meta) -> ModuleId {
    ModuleId { sha256: std::array::from_fn(|i| i as u8 * 7), bytes: meta.module_bytes }
}

/// The fixture as version 1 wrote trace mode: event words in section `trace`, no `runs`.
fn fixture_v1(dir: &Path) -> Fixture {
    let mut fx = fixture(dir);
    fx.sections[0] = (section::TRACE.to_owned(), encode_events(&fx.events));
    fx.bytes = assemble(dir, &fx.sections);
    let version = 1u32;
    fx.bytes[8..12].copy_from_slice(&version.to_le_bytes());
    fx
}

/// Writes `sections` with [`Writer`] (so every checksum is right) and returns the file.
/// The trace section is streamed in pieces, as the recorder does.
fn assemble(dir: &Path, sections: &[(String, Vec<u8>)]) -> Vec<u8> {
    let path = dir.join("assembled.wpp");
    let mut w = Writer::create(&path).unwrap();
    for (name, bytes) in sections {
        if name == section::TRACE || name == section::RUNS {
            w.begin(name);
            for chunk in bytes.chunks(40) {
                w.write(chunk).unwrap();
            }
            w.end();
        } else {
            w.write_section(name, bytes).unwrap();
        }
    }
    w.finish().unwrap();
    std::fs::read(&path).unwrap()
}

/// A directory of its own for each test, emptied first.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wpp-profile-damaged").join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The events a profile's grammar derives, if it has one.
fn grammar_events(p: &Profile) -> Result<Option<Vec<PathEvent>>, Error> {
    if !p.has_grammar() {
        return Ok(None);
    }
    let g = p.grammar()?;
    Ok(Some(g.expand().map(|t| p.symbols[t as usize]).collect()))
}

/// Opens a profile and reads its whole trace, and its grammar if it has one.
fn read_all(path: &Path) -> Result<(Profile, Option<Vec<PathEvent>>), Error> {
    let p = Profile::open(path)?;
    p.module_id()?;
    grammar_events(&p)?;
    if !p.has_trace() {
        return Ok((p, None));
    }
    let mut events = Vec::new();
    {
        let mut r = p.trace()?;
        loop {
            let batch = r.next_batch()?;
            if batch.is_empty() {
                break;
            }
            events.extend_from_slice(batch);
        }
    }
    Ok((p, Some(events)))
}

fn header_u64(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

fn set_u64(bytes: &mut [u8], at: usize, v: u64) {
    bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

fn set_u32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

// ---------------------------------------------------------------------------------------
// 1. The valid profile reads back exactly

#[test]
fn valid_profile_round_trips() {
    let dir = scratch("round_trip");
    let fx = fixture(&dir);
    let path = write_file(&dir, "valid.wpp", &fx.bytes);
    let (p, events) = read_all(&path).unwrap_or_else(|e| panic!("the valid profile does not read: {e}"));
    assert_eq!(p.path, path);
    assert_eq!(p.meta, fx.meta);
    assert_eq!(p.counts, fx.counts);
    assert_eq!(events.as_deref(), Some(&fx.events[..]));
    assert_eq!(p.meta.events, fx.events.len() as u64);
    let names: Vec<&str> = p.toc.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["runs", "meta", "counts", "symbols", "grammar", "source", "ppp", "module", "notes"]);
    assert_eq!(p.module_id().unwrap(), Some(fixture_module_id(&fx.meta)));
    let ppp = p.ppp.as_ref().expect("the ppp section reads");
    assert_eq!(ppp.functions.len(), 2);
    assert_eq!(ppp.functions[1].rho(), 1.0);
    assert!(ppp.hashed.iter().all(|h| h.func != FuncIdx(2)));
    let source = p.source.as_ref().expect("the source section reads");
    assert_eq!(source.files, ["main.c", "lib/util.h"]);
    assert_eq!(source.blocks[2][1], Some(wpp_model::LineRange { file: 1, first: 11, last: 14 }));
    assert_eq!(source.blocks[2].len(), p.meta.functions[2].cfg.as_ref().unwrap().n_blocks());
    assert_eq!(grammar_events(&p).unwrap().as_deref(), Some(&fx.events[..]), "the grammar derives the trace");
    assert_eq!(p.numberings.n_functions(), 5);
    assert!(p.numberings.get(FuncIdx(0)).is_none(), "imports have no numbering");
    // Every recorded path decodes to blocks that start at a path start.
    for c in &p.counts {
        let blocks = p.path_blocks(c.func, c.path).expect("recorded paths decode");
        assert!(!blocks.is_empty());
    }
    assert_eq!(p.path_blocks(FuncIdx(2), PathId(1)).unwrap(), [BlockIdx(0), BlockIdx(2), BlockIdx(3)]);
    // The same profile without a trace section also reads, and says so.
    let no_trace: Vec<_> = fx.sections.iter().filter(|(n, _)| n != section::RUNS).cloned().collect();
    let path = write_file(&dir, "no-trace.wpp", &assemble(&dir, &no_trace));
    let (p, events) = read_all(&path).unwrap();
    assert!(!p.has_trace() && events.is_none());
    assert!(matches!(p.trace(), Err(Error::Missing { ref section, .. }) if section == "runs"));
    assert_eq!(p.counts, fx.counts);
    // A version-1 profile, with event words in place of runs, reads the same.
    let (p, events) = read_all(&write_file(&dir, "v1.wpp", &fixture_v1(&dir).bytes)).unwrap();
    assert_eq!(events.as_deref(), Some(&fx.events[..]));
    assert_eq!((p.meta, p.counts), (fx.meta.clone(), fx.counts.clone()));
    // A run longer than a batch comes in several batches.
    let long = vec![fx.events[0]; 200_000];
    let mut meta = fx.meta.clone();
    meta.events = long.len() as u64;
    let (symbols, runs) = encode_runs(&long);
    let sections = vec![
        (section::RUNS.to_owned(), runs),
        (section::META.to_owned(), postcard::to_stdvec(&meta).unwrap()),
        (section::COUNTS.to_owned(), postcard::to_stdvec(&counts_of(&long)).unwrap()),
        (section::SYMBOLS.to_owned(), postcard::to_stdvec(&symbols).unwrap()),
    ];
    let (_, events) = read_all(&write_file(&dir, "long.wpp", &assemble(&dir, &sections))).unwrap();
    assert_eq!(events, Some(long));
    // The trace can be streamed twice from one profile.
    let (p, _) = read_all(&write_file(&dir, "again.wpp", &fx.bytes)).unwrap();
    for _ in 0..2 {
        let mut r = p.trace().unwrap();
        let mut n = 0;
        loop {
            let b = r.next_batch().unwrap();
            if b.is_empty() {
                break;
            }
            n += b.len();
        }
        assert_eq!(n, fx.events.len());
        assert!(r.next_batch().unwrap().is_empty(), "the end is sticky");
    }
}

// ---------------------------------------------------------------------------------------
// 2. Fuzz: any byte string gives a value or an error

/// What reading one file gave.
#[derive(Debug)]
enum Outcome {
    /// Opened, and the whole trace (if any) read without error.
    Accepted,
    Rejected(String),
}

/// Opens `path`, reads all of its trace, and checks that whatever it accepted is usable:
/// every count and every event names a path that decodes.
fn examine(path: &Path) -> Outcome {
    let p = match Profile::open(path) {
        Ok(p) => p,
        Err(e) => return Outcome::Rejected(e.to_string()),
    };
    assert_eq!(p.numberings.n_functions(), p.meta.functions.len());
    if let Some(s) = &p.source {
        // An accepted source map covers every block with ranges that format.
        for (f, blocks) in s.blocks.iter().enumerate() {
            assert_eq!(blocks.len(), p.meta.functions[f].cfg.as_ref().map_or(0, |c| c.n_blocks()));
            for r in blocks.iter().flatten() {
                assert!(s.format(*r).is_some());
            }
        }
    }
    for c in &p.counts {
        assert!(p.path_blocks(c.func, c.path).is_some(), "accepted a count of a path that does not decode: {c:?}");
    }
    match p.module_id() {
        Ok(Some(id)) => assert_eq!(id.bytes, p.meta.module_bytes, "accepted a module identity of another length"),
        Ok(None) => {}
        Err(e) => return Outcome::Rejected(e.to_string()),
    }
    if p.has_grammar() {
        match p.grammar() {
            Ok(g) => {
                // A valid grammar derives exactly the recorded number of events, every one
                // a path of the symbol table.
                let mut n = 0u64;
                for t in g.expand() {
                    assert!(p.path_blocks(p.symbols[t as usize].func, p.symbols[t as usize].path).is_some());
                    n += 1;
                }
                assert_eq!(n, p.meta.events, "the grammar derives {n} events, not the recorded {}", p.meta.events);
            }
            Err(e) => return Outcome::Rejected(e.to_string()),
        }
    }
    if !p.has_trace() {
        return Outcome::Accepted;
    }
    let mut r = match p.trace() {
        Ok(r) => r,
        Err(e) => return Outcome::Rejected(e.to_string()),
    };
    let mut decoded = 0;
    loop {
        match r.next_batch() {
            Ok([]) => return Outcome::Accepted,
            Ok(batch) => {
                for e in batch {
                    if decoded < 2000 {
                        decoded += 1;
                        assert!(p.path_blocks(e.func, e.path).is_some(), "accepted an event of a path that does not decode: {e:?}");
                    }
                }
            }
            Err(e) => {
                // A reader that has failed may be called again: it must not panic either.
                for _ in 0..3 {
                    if let Ok([]) = r.next_batch() {
                        break;
                    }
                }
                return Outcome::Rejected(e.to_string());
            }
        }
    }
}

/// Longest any single case may take before it counts as a hang. Only a hang detector, not
/// a speed requirement (speed is for the benchmarks): the files are a few kilobytes and
/// reading one takes well under a millisecond, so this is generous enough for a debug
/// build on a loaded machine.
const CASE_LIMIT: Duration = Duration::from_secs(60);

#[derive(Default)]
struct Tally {
    accepted: usize,
    rejected: usize,
}

struct Runner {
    dir: PathBuf,
    file: PathBuf,
    tally: BTreeMap<&'static str, Tally>,
    cases: usize,
    slowest: (Duration, &'static str),
    largest_alloc: usize,
    peak_live: usize,
}

impl Runner {
    fn new(dir: PathBuf) -> Runner {
        let file = dir.join("case.wpp");
        Runner { dir, file, tally: BTreeMap::new(), cases: 0, slowest: (Duration::ZERO, ""), largest_alloc: 0, peak_live: 0 }
    }

    /// Saves a failing input and panics naming it.
    fn fail(&self, kind: &str, bytes: &[u8], why: &str) -> ! {
        let saved = self.dir.join(format!("failing-{kind}-{}.wpp", self.cases));
        std::fs::write(&saved, bytes).unwrap();
        let head: String = bytes.iter().take(96).map(|b| format!("{b:02x}")).collect();
        panic!("case {} ({kind}, {} bytes): {why}\n  input saved as {}\n  first bytes: {head}", self.cases, bytes.len(), saved.display());
    }

    fn run(&mut self, kind: &'static str, bytes: &[u8]) -> Outcome {
        self.cases += 1;
        std::fs::write(&self.file, bytes).unwrap();
        let path = self.file.clone();
        let (tx, rx) = mpsc::channel();
        let start = Instant::now();
        let worker = std::thread::spawn(move || {
            let r = std::panic::catch_unwind(|| measure(|| examine(&path)));
            let _ = tx.send(r.map_err(|payload| {
                payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "(non-string panic payload)".into())
            }));
        });
        let result = match rx.recv_timeout(CASE_LIMIT) {
            Ok(r) => r,
            Err(_) => self.fail(kind, bytes, &format!("did not finish within {CASE_LIMIT:?} (hang?)")),
        };
        let elapsed = start.elapsed();
        worker.join().expect("the worker catches panics");
        let (outcome, alloc) = match result {
            Ok(r) => r,
            Err(msg) => self.fail(kind, bytes, &format!("panicked: {msg}")),
        };
        if elapsed > self.slowest.0 {
            self.slowest = (elapsed, kind);
        }
        let budget = alloc_budget(bytes.len());
        if alloc.largest > budget || alloc.peak_live > budget {
            self.fail(kind, bytes, &format!("allocated too much: {alloc:?}, budget {budget} bytes"));
        }
        self.largest_alloc = self.largest_alloc.max(alloc.largest);
        self.peak_live = self.peak_live.max(alloc.peak_live);
        let t = self.tally.entry(kind).or_default();
        match &outcome {
            Outcome::Accepted => t.accepted += 1,
            Outcome::Rejected(msg) => {
                t.rejected += 1;
                if !msg.contains(&self.file.display().to_string()) {
                    self.fail(kind, bytes, &format!("the error does not name the file: {msg}"));
                }
            }
        }
        outcome
    }

    fn report(&self, started: Instant) {
        eprintln!("{} cases in {:.2?}; slowest {:.2?} ({})", self.cases, started.elapsed(), self.slowest.0, self.slowest.1);
        eprintln!("largest single allocation {} bytes, peak live {} bytes", self.largest_alloc, self.peak_live);
        for (kind, t) in &self.tally {
            eprintln!("  {kind:<24} {:>5} accepted {:>5} rejected", t.accepted, t.rejected);
        }
    }

    fn totals(&self, kinds: &[&str]) -> (usize, usize) {
        self.tally.iter().filter(|(k, _)| kinds.is_empty() || kinds.contains(k)).fold((0, 0), |(a, r), (_, t)| (a + t.accepted, r + t.rejected))
    }
}

/// One random edit of `b`: a bit flip, overwritten bytes, an insertion, a deletion, a
/// duplicated or extended region, a truncation, or a swapped region.
fn mutate_once(rng: &mut Rng, b: &mut Vec<u8>) {
    let len = b.len();
    match rng.below(9) {
        0 if len > 0 => {
            for _ in 0..rng.range(1, 4) {
                let i = rng.below(len);
                b[i] ^= 1 << rng.below(8);
            }
        }
        1 if len > 0 => {
            for _ in 0..rng.range(1, 8) {
                let i = rng.below(len);
                b[i] = rng.byte();
            }
        }
        2 => {
            let at = rng.below(len + 1);
            let n = rng.range(1, 16);
            let ins = if rng.chance(2) { rng.bytes(n) } else { vec![rng.byte(); n] };
            b.splice(at..at, ins);
        }
        3 if len > 0 => {
            let at = rng.below(len);
            let n = rng.range(1, 16).min(len - at);
            b.drain(at..at + n);
        }
        4 if len > 0 => {
            // Duplicate a region somewhere.
            let at = rng.below(len);
            let n = rng.range(1, 64).min(len - at);
            let region = b[at..at + n].to_vec();
            let to = rng.below(len + 1);
            b.splice(to..to, region);
        }
        5 => {
            // Extend: junk, a copy of itself, or zeros at the end.
            match rng.below(3) {
                0 => {
                    let n = rng.range(1, 256);
                    let junk = rng.bytes(n);
                    b.extend(junk);
                }
                1 => {
                    let copy = b.clone();
                    b.extend(copy);
                }
                _ => b.resize(len + rng.range(1, 4096), 0),
            }
        }
        6 if len > 0 => b.truncate(rng.below(len)),
        7 if len > 1 => {
            // Overwrite a region with another region of the same input.
            let n = rng.range(1, 32).min(len / 2);
            let from = rng.below(len - n + 1);
            let to = rng.below(len - n + 1);
            let region = b[from..from + n].to_vec();
            b[to..to + n].copy_from_slice(&region);
        }
        8 if len > 0 => {
            // Put a huge postcard varint (a length or count near 2^64) somewhere.
            let at = rng.below(len);
            let varint = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
            let n = rng.range(1, varint.len());
            let end = (at + n).min(len);
            b[at..end].copy_from_slice(&varint[varint.len() - (end - at)..]);
        }
        _ => b.push(rng.byte()),
    }
}

fn mutate(rng: &mut Rng, base: &[u8]) -> Vec<u8> {
    let mut b = base.to_vec();
    for _ in 0..rng.range(1, 3) {
        mutate_once(rng, &mut b);
    }
    b
}

/// Overwrites one header field with a value likely to break bounds checks.
fn damage_header(rng: &mut Rng, base: &[u8]) -> Vec<u8> {
    let mut b = base.to_vec();
    let size = b.len() as u64;
    for _ in 0..rng.range(1, 2) {
        match rng.below(5) {
            0 => {
                let v = rng.interesting_u64(size);
                set_u64(&mut b, 16, v) // table of contents offset
            }
            1 => {
                let v = rng.interesting_u64(size);
                set_u64(&mut b, 24, v) // table of contents length
            }
            2 => {
                // Both, as a pair that overflows or just fits.
                let off = rng.interesting_u64(size);
                let len = if rng.chance(2) { size.wrapping_sub(off) } else { (u64::MAX - off).wrapping_add(rng.below(3) as u64) };
                set_u64(&mut b, 16, off);
                set_u64(&mut b, 24, len);
            }
            3 => {
                let v = rng.next() as u32;
                set_u32(&mut b, 32, v) // checksum of the table of contents
            }
            _ => {
                let v = [0, 2, u32::MAX, rng.next() as u32][rng.below(4)];
                set_u32(&mut b, 8, v) // version
            }
        }
    }
    b
}

/// A random byte string, sometimes looking like the start of a profile.
fn random_file(rng: &mut Rng) -> Vec<u8> {
    let len = [rng.below(8), rng.below(64), rng.below(512), rng.below(4096)][rng.below(4)];
    let mut b = rng.bytes(len);
    match rng.below(3) {
        0 => {}
        1 => {
            // Magic and version 1, the rest random.
            let mut h = MAGIC.to_vec();
            h.extend(VERSION.to_le_bytes());
            b.splice(0..b.len().min(h.len()), h);
        }
        _ => {
            // A whole plausible header pointing at random bytes.
            let size = (len.max(40) + rng.below(200)) as u64;
            b.resize(size as usize, 0);
            b[..8].copy_from_slice(&MAGIC);
            set_u32(&mut b, 8, VERSION);
            set_u32(&mut b, 12, 0);
            let off = if rng.chance(2) { 40 + rng.below(size as usize - 39) as u64 } else { rng.interesting_u64(size) };
            let toc_len = if rng.chance(2) { size.saturating_sub(off) } else { rng.interesting_u64(size) };
            set_u64(&mut b, 16, off);
            set_u64(&mut b, 24, toc_len);
            // Sometimes with the right checksum, so the random bytes reach the decoder.
            let crc = match off.checked_add(toc_len) {
                Some(end) if off >= 40 && end <= size && rng.chance(2) => crc32fast::hash(&b[off as usize..end as usize]),
                _ => rng.next() as u32,
            };
            set_u32(&mut b, 32, crc);
        }
    }
    b
}

/// Damage behind correct checksums: one section's bytes are edited, then the file is
/// written again with the writer, so the decoders and validators see the damage.
fn damage_section(rng: &mut Rng, dir: &Path, fx: &Fixture) -> Vec<u8> {
    let mut sections = fx.sections.clone();
    let i = rng.below(sections.len());
    match rng.below(6) {
        0 if sections.len() > 1 => {
            // Drop a section.
            sections.remove(i);
        }
        1 => {
            // Give a section another (maybe duplicate) name.
            let names = ["meta", "counts", "trace", "runs", "symbols", "notes", "", "meta\0"];
            sections[i].0 = names[rng.below(names.len())].to_owned();
        }
        _ => {
            let edited = mutate(rng, &sections[i].1);
            sections[i].1 = edited;
        }
    }
    assemble(dir, &sections)
}

/// Damage to the table of contents behind a correct header checksum.
fn damage_toc(rng: &mut Rng, base: &[u8]) -> Vec<u8> {
    let off = header_u64(base, 16) as usize;
    let mut b = base.to_vec();
    let mut toc = b.split_off(off);
    match rng.below(3) {
        0 => toc = mutate(rng, &toc),
        1 => {
            // A well-formed table of contents with hostile entries.
            let size = base.len() as u64;
            let names = ["meta", "counts", "trace", "notes"];
            let entries: Vec<wpp_profile::TocEntry> = (0..rng.range(0, 6))
                .map(|_| {
                    let offset = rng.interesting_u64(size);
                    let len = if rng.chance(2) { rng.interesting_u64(size) } else { (size - 1).saturating_sub(offset) };
                    wpp_profile::TocEntry { name: names[rng.below(names.len())].into(), offset, len, crc32: rng.next() as u32 }
                })
                .collect();
            toc = postcard::to_stdvec(&entries).unwrap();
        }
        _ => {
            // The real entries with one field changed.
            let mut entries: Vec<wpp_profile::TocEntry> = postcard::from_bytes(&toc).unwrap();
            let size = base.len() as u64;
            let j = rng.below(entries.len());
            match rng.below(4) {
                0 => entries[j].offset = rng.interesting_u64(size),
                1 => entries[j].len = rng.interesting_u64(size),
                2 => entries[j].len = entries[j].len.wrapping_add(rng.range(1, 9) as u64).wrapping_sub(4),
                _ => {
                    let k = rng.below(entries.len());
                    entries[j].crc32 = entries[k].crc32;
                }
            }
            toc = postcard::to_stdvec(&entries).unwrap();
        }
    }
    set_u64(&mut b, 24, toc.len() as u64);
    set_u32(&mut b, 32, crc32fast::hash(&toc));
    b.extend(toc);
    b
}

fn random_cfg_edit(rng: &mut Rng, cfg: &mut Cfg) {
    let n = cfg.blocks.len() as u32;
    let ne = cfg.edges.len();
    let kinds = [EdgeKind::Forward, EdgeKind::Back, EdgeKind::Call, EdgeKind::Return, EdgeKind::Trap];
    let random_target = |rng: &mut Rng| {
        if rng.chance(4) {
            Target::Exit
        } else {
            Target::Block(BlockIdx([rng.below(n as usize + 2) as u32, u32::MAX, n][rng.below(3)]))
        }
    };
    match rng.below(10) {
        0 if ne > 0 => {
            cfg.edges.remove(rng.below(ne));
        }
        1 if ne > 0 => {
            let e = cfg.edges[rng.below(ne)];
            cfg.edges.insert(rng.below(ne + 1), e);
        }
        2 if ne > 0 => cfg.edges[rng.below(ne)].from = BlockIdx([rng.below(n as usize + 2) as u32, u32::MAX, n][rng.below(3)]),
        3 if ne > 0 => cfg.edges[rng.below(ne)].to = random_target(rng),
        4 if ne > 0 => cfg.edges[rng.below(ne)].kind = kinds[rng.below(kinds.len())],
        5 if ne > 1 => {
            let (i, j) = (rng.below(ne), rng.below(ne));
            cfg.edges.swap(i, j);
        }
        6 => {
            let keep = rng.below(cfg.blocks.len() + 1);
            cfg.blocks.truncate(keep);
        }
        7 => cfg.blocks.push(blk(0, 1, 1)),
        8 if n > 0 => {
            let b = &mut cfg.blocks[rng.below(n as usize)];
            std::mem::swap(&mut b.start, &mut b.end);
            b.start = b.start.wrapping_add(1);
        }
        _ => {
            let from = BlockIdx(rng.below(n as usize + 1) as u32);
            let to = random_target(rng);
            let kind = kinds[rng.below(kinds.len())];
            cfg.edges.push(Edge { from, to, kind });
        }
    }
}

/// Semantic damage: the values are changed and encoded again, so only the validation after
/// decoding stands between them and the reader's callers.
fn damage_values(rng: &mut Rng, dir: &Path, fx: &Fixture) -> Vec<u8> {
    let mut meta = fx.meta.clone();
    let mut counts = fx.counts.clone();
    let mut events = fx.events.clone();
    let mut trace_tail: Vec<u8> = Vec::new();
    let numberings = meta.numberings().unwrap();
    let n_paths: Vec<u64> = (0..numberings.n_functions() as u32).map(|f| numberings.get(FuncIdx(f)).map_or(0, |n| n.n_paths())).collect();
    let nf = meta.functions.len();
    let random_event = |rng: &mut Rng| {
        let f = [rng.below(nf + 2) as u32, u32::MAX - 1, ESCAPE_FUNC, 0][rng.below(4)];
        let np = n_paths.get(f as usize).copied().unwrap_or(3);
        let p = [np, np.wrapping_sub(1), np + 1, u64::MAX, u32::MAX as u64, 1 << 32, rng.next(), 0][rng.below(8)];
        (FuncIdx(f), PathId(p))
    };
    for _ in 0..rng.range(1, 3) {
        let nf = meta.functions.len();
        match rng.below(10) {
            1..=6 if nf < 2 => {}
            0 => meta.max_paths = [0, 1, 2, 3, 4, 5, 7, 8, 1 << 33, rng.next() % 64][rng.below(10)],
            1 => {
                let (i, j) = (rng.below(nf), rng.below(nf));
                meta.functions.swap(i, j);
            }
            2 => meta.functions[rng.below(nf)].index = FuncIdx([rng.below(nf + 1) as u32, u32::MAX][rng.below(2)]),
            3 => {
                // Code removed from, or given to, a function.
                let f = &mut meta.functions[rng.below(nf)];
                f.cfg = if f.cfg.is_some() { None } else { Some(diamond(0)) };
            }
            4 => {
                meta.functions.truncate(rng.below(nf + 1));
            }
            5 | 6 => {
                let f = 1 + rng.below(nf - 1);
                if let Some(cfg) = &mut meta.functions[f].cfg {
                    random_cfg_edit(rng, cfg);
                }
            }
            7 => {
                let (func, path) = random_event(rng);
                counts.insert(rng.below(counts.len() + 1), PathCount { func, path, count: rng.next() % 5 });
            }
            8 => {
                let (func, path) = random_event(rng);
                events.insert(rng.below(events.len() + 1), PathEvent { func, path });
            }
            _ => match rng.below(4) {
                // Raw words at the end of the trace: a lone escape word, random words, a
                // partial word.
                0 => trace_tail.extend((((ESCAPE_FUNC as u64) << 32) | 1).to_le_bytes()),
                1 => {
                    for _ in 0..rng.range(1, 4) {
                        trace_tail.extend(rng.next().to_le_bytes());
                    }
                }
                2 => {
                    let n = rng.range(1, 7);
                    trace_tail.extend(rng.bytes(n));
                }
                _ => events.clear(),
            },
        }
    }
    let mut sections = if rng.below(2) == 0 {
        let mut trace = encode_events(&events);
        trace.extend(trace_tail);
        vec![(section::TRACE.to_owned(), trace)]
    } else {
        // Runs over a symbol table: the raw tail is token bytes, and the symbol table may
        // lose or gain an entry.
        let (mut symbols, mut runs) = encode_runs(&events);
        runs.extend(trace_tail);
        match rng.below(4) {
            0 if !symbols.is_empty() => {
                symbols.pop();
            }
            1 => {
                let (func, path) = random_event(rng);
                symbols.push(PathEvent { func, path });
            }
            _ => {}
        }
        vec![(section::RUNS.to_owned(), runs), (section::SYMBOLS.to_owned(), postcard::to_stdvec(&symbols).unwrap())]
    };
    if rng.below(4) == 0 {
        meta.events = [0, 1, meta.events.wrapping_sub(1), meta.events + 1, u64::MAX][rng.below(5)];
    }
    sections.push((section::META.to_owned(), postcard::to_stdvec(&meta).unwrap()));
    sections.push((section::COUNTS.to_owned(), postcard::to_stdvec(&counts).unwrap()));
    assemble(dir, &sections)
}

#[test]
fn fuzz_any_bytes_give_a_value_or_an_error() {
    let dir = scratch("fuzz");
    fuzz(&dir, &fixture(&dir));
}

#[test]
fn fuzz_version_1_any_bytes_give_a_value_or_an_error() {
    let dir = scratch("fuzz_v1");
    fuzz(&dir, &fixture_v1(&dir));
}

fn fuzz(dir: &Path, fx: &Fixture) {
    let started = Instant::now();
    let dir = dir.to_owned();
    let base = fx.bytes.clone();
    let mut run = Runner::new(dir.clone());
    let mut rng = Rng::new(0x00dd_ba11_5eed);

    // The valid file itself is accepted.
    assert!(matches!(run.run("valid", &base), Outcome::Accepted));

    // Truncation at every length: never complete, always rejected.
    for len in 0..base.len() {
        if let Outcome::Accepted = run.run("truncated", &base[..len]) {
            run.fail("truncated", &base[..len], "a truncated profile was accepted");
        }
    }

    // One flipped bit at every byte. Each byte is covered by a checksum, a bounds check or
    // the magic number, except the reserved header words and sections the reader does not
    // know (those are accepted).
    let notes = Profile::open(&write_file(&dir, "valid.wpp", &base)).unwrap().toc.into_iter().find(|e| e.name == "notes").unwrap();
    for i in 0..base.len() {
        let mut b = base.clone();
        b[i] ^= 1 << rng.below(8);
        let ignored = (12..16).contains(&i) || (36..40).contains(&i) || (notes.offset..notes.offset + notes.len).contains(&(i as u64));
        match (run.run("bit flip at every byte", &b), ignored) {
            (Outcome::Accepted, false) => run.fail("bit flip", &b, &format!("a flipped bit at byte {i} went unnoticed")),
            (Outcome::Rejected(e), true) => run.fail("bit flip", &b, &format!("a flipped bit in an ignored byte {i} was rejected: {e}")),
            _ => {}
        }
    }

    for _ in 0..1500 {
        let b = mutate(&mut rng, &base);
        run.run("raw mutation", &b);
    }
    for _ in 0..300 {
        let b = damage_header(&mut rng, &base);
        run.run("header field", &b);
    }
    for _ in 0..500 {
        let b = random_file(&mut rng);
        run.run("random bytes", &b);
    }
    for _ in 0..700 {
        let b = damage_section(&mut rng, &dir, fx);
        run.run("re-signed section", &b);
    }
    for _ in 0..300 {
        let b = damage_toc(&mut rng, &base);
        run.run("re-signed toc", &b);
    }
    for _ in 0..1200 {
        let b = damage_values(&mut rng, &dir, fx);
        run.run("re-encoded values", &b);
    }
    run.report(started);

    // The checks can fail: most damage must be noticed.
    let (ok, bad) = run.totals(&["raw mutation", "header field", "random bytes"]);
    assert!(bad * 10 >= (ok + bad) * 9, "only {bad} of {} raw mutations were rejected", ok + bad);
    let (ok, bad) = run.totals(&["re-signed section", "re-signed toc", "re-encoded values"]);
    assert!(bad * 2 >= ok + bad, "only {bad} of {} re-signed mutations were rejected", ok + bad);
    assert!(ok > 0, "some re-signed mutations are harmless (unknown sections, reordered sections)");
    // Time is reported above, not asserted: a loaded machine must not fail the suite (how
    // fast decoding is belongs to benchmarks).
}

// ---------------------------------------------------------------------------------------
// 3. Specific errors

fn expect_err(path: &Path) -> Error {
    match read_all(path) {
        Ok(_) => panic!("{} was accepted", path.display()),
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.contains(&path.display().to_string()), "the error does not name the file: {msg}");
            e
        }
    }
}

#[test]
fn not_a_profile() {
    let dir = scratch("not_a_profile");
    let text = b"This is a text file, long enough to hold a whole profile header and more.\n";
    let e = expect_err(&write_file(&dir, "text.wpp", text));
    assert!(matches!(e, Error::NotAProfile { .. }), "{e:?}");
    assert!(e.to_string().contains("not a wpp profile"), "{e}");
    // A wasm module given where a profile is expected.
    let e = expect_err(&write_file(&dir, "module.wasm", b"\0asm\x01\0\0\0 and some more bytes"));
    assert!(matches!(e, Error::NotAProfile { .. }), "{e:?}");
    // Magic off by one byte.
    let fx = fixture(&dir);
    let mut b = fx.bytes.clone();
    b[6] = b'\n';
    let e = expect_err(&write_file(&dir, "unix-newline.wpp", &b));
    assert!(matches!(e, Error::NotAProfile { .. }), "{e:?}");
    // Files too short to hold the magic number are errors too (of some kind).
    for len in 0..8 {
        expect_err(&write_file(&dir, "short.wpp", &text[..len]));
    }
}

#[test]
fn wrong_version() {
    let dir = scratch("wrong_version");
    let fx = fixture(&dir);
    for v in [0, VERSION + 1, 0x0100_0000, u32::MAX] {
        let mut b = fx.bytes.clone();
        set_u32(&mut b, 8, v);
        let e = expect_err(&write_file(&dir, "version.wpp", &b));
        assert!(matches!(e, Error::Version { found, .. } if found == v), "{e:?}");
        assert!(e.to_string().contains(&format!("version {v}")), "{e}");
    }
    // The version is checked before anything else after the magic: a later version's file
    // with a layout this reader does not understand still says "version".
    let mut b = MAGIC.to_vec();
    b.extend((VERSION + 1).to_le_bytes());
    b.resize(40, 0xee);
    assert!(matches!(expect_err(&write_file(&dir, "later.wpp", &b)), Error::Version { found, .. } if found == VERSION + 1));
}

#[test]
fn flipped_byte_in_a_section_is_a_checksum_error_naming_it() {
    let dir = scratch("checksum");
    // The runs: the last byte is a run length or a symbol; one bit less there still decodes.
    let fx = fixture(&dir);
    let e = Profile::open(&write_file(&dir, "valid.wpp", &fx.bytes)).unwrap().toc.into_iter().find(|e| e.name == "runs").unwrap();
    let mut b = fx.bytes.clone();
    b[(e.offset + e.len - 1) as usize] ^= 0x01;
    let msg = expect_err(&write_file(&dir, "runs.wpp", &b)).to_string();
    assert!(msg.contains("checksum") && msg.contains("`runs`"), "{msg}");
    // Version 1's trace of event words.
    let fx = fixture_v1(&dir);
    let toc = Profile::open(&write_file(&dir, "valid.wpp", &fx.bytes)).unwrap().toc;
    // In the trace, flip a bit that keeps every event valid, so that only the checksum can
    // tell: the low bit of a (one-word) path number of `dispatch`, which has 2^34 paths.
    let trace_at = toc.iter().find(|e| e.name == "trace").unwrap().offset;
    let words: Vec<u64> = fx.sections[0].1.chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
    let dispatch_word = words.iter().position(|&w| w >> 32 == 4).expect("a one-word event of dispatch");
    let trace_flip = trace_at + 8 * dispatch_word as u64;
    for name in ["meta", "counts", "trace"] {
        let e = toc.iter().find(|e| e.name == name).unwrap();
        let at = if name == "trace" { vec![trace_flip] } else { vec![e.offset, e.offset + e.len / 2, e.offset + e.len - 1] };
        for at in at {
            let mut b = fx.bytes.clone();
            b[at as usize] ^= if name == "trace" { 0x01 } else { 0x10 };
            let err = expect_err(&write_file(&dir, &format!("{name}.wpp"), &b));
            let msg = err.to_string();
            assert!(matches!(err, Error::Corrupt { .. }), "{err:?}");
            assert!(msg.contains("checksum") && msg.contains(&format!("`{name}`")), "{name}: {msg}");
        }
    }
    // The trace is checked as it is streamed: the profile opens, reading the trace fails.
    let e = toc.iter().find(|e| e.name == "trace").unwrap();
    let mut b = fx.bytes.clone();
    b[e.offset as usize + 3] ^= 1;
    let path = write_file(&dir, "trace.wpp", &b);
    let p = Profile::open(&path).expect("the trace is not read when opening");
    assert_eq!(p.counts, fx.counts);
    // And in the table of contents.
    let mut b = fx.bytes.clone();
    let toc_at = header_u64(&b, 16) as usize;
    b[toc_at + 2] ^= 0x04;
    let msg = expect_err(&write_file(&dir, "toc.wpp", &b)).to_string();
    assert!(msg.contains("checksum") && msg.contains("table of contents"), "{msg}");
}

#[test]
fn truncated_file_is_an_error() {
    let dir = scratch("truncated");
    let fx = fixture(&dir);
    for len in [0, 7, 8, 12, 39, 40, 41, fx.bytes.len() / 2, fx.bytes.len() - 1] {
        let e = expect_err(&write_file(&dir, "cut.wpp", &fx.bytes[..len]));
        if len >= 40 {
            assert!(e.to_string().contains("outside the file"), "{len}: {e}");
        }
    }
    // A file whose header was never written (a writer that stopped early, elsewhere).
    let mut b = fx.bytes.clone();
    b[..40].fill(0);
    let msg = expect_err(&write_file(&dir, "no-header.wpp", &b)).to_string();
    assert!(msg.contains("header was never written"), "{msg}");
}

#[test]
fn an_unfinished_profile_never_replaces_an_earlier_one() {
    let dir = scratch("atomic");
    let fx = fixture(&dir);
    let dir = dir.join("out");
    std::fs::create_dir(&dir).unwrap();
    let path = write_file(&dir, "profile.wpp", &fx.bytes);
    // A recording that stops before the writer finishes leaves the earlier file as it
    // was, and nothing beside it.
    let mut w = Writer::create(&path).unwrap();
    w.write_section(section::RUNS, &fx.sections[0].1).unwrap();
    drop(w);
    assert_eq!(std::fs::read(&path).unwrap(), fx.bytes);
    let names = |dir: &Path| -> Vec<String> { std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect() };
    assert_eq!(names(&dir), ["profile.wpp"]);
    // A finished one replaces it whole.
    let mut w = Writer::create(&path).unwrap();
    for (name, bytes) in &fx.sections[..3] {
        w.write_section(name, bytes).unwrap();
    }
    w.finish().unwrap();
    let p = Profile::open(&path).unwrap();
    assert_eq!(p.toc.len(), 3);
    assert_eq!(names(&dir), ["profile.wpp"]);
    // A directory that does not exist is an error naming the profile.
    let missing = dir.join("no-such-dir").join("p.wpp");
    let msg = Writer::create(&missing).err().expect("no directory, no writer").to_string();
    assert!(msg.contains(&missing.display().to_string()), "{msg}");
}

/// Writes a profile with the given values (and no unknown section).
fn with_values(dir: &Path, name: &str, meta: &Meta, counts: &[PathCount], events: &[PathEvent]) -> PathBuf {
    let sections = vec![
        (section::TRACE.to_owned(), encode_events(events)),
        (section::META.to_owned(), postcard::to_stdvec(meta).unwrap()),
        (section::COUNTS.to_owned(), postcard::to_stdvec(counts).unwrap()),
    ];
    write_file(dir, name, &assemble(dir, &sections))
}

#[test]
fn counts_and_events_must_name_existing_paths() {
    let dir = scratch("bad_counts");
    let fx = fixture(&dir);
    let n_paths = |f: u32| fx.meta.numberings().unwrap()[FuncIdx(f)].n_paths();
    let bad = [
        (PathCount { func: FuncIdx(0), path: PathId(0), count: 1 }, "which has no code"),
        (PathCount { func: FuncIdx(5), path: PathId(0), count: 1 }, "which has no code"),
        (PathCount { func: FuncIdx(u32::MAX - 1), path: PathId(0), count: 1 }, "which has no code"),
        (PathCount { func: FuncIdx(2), path: PathId(n_paths(2)), count: 1 }, "does not exist"),
        (PathCount { func: FuncIdx(1), path: PathId(u64::MAX), count: 1 }, "does not exist"),
        (PathCount { func: FuncIdx(4), path: PathId(n_paths(4)), count: 1 }, "does not exist"),
    ];
    for (c, what) in bad {
        // In the counts: opening fails.
        let mut counts = fx.counts.clone();
        counts.push(c);
        let e = expect_err(&with_values(&dir, "count.wpp", &fx.meta, &counts, &fx.events));
        assert!(matches!(e, Error::Corrupt { .. }) && e.to_string().contains(what), "{c:?}: {e}");
        // In the trace: opening succeeds, reading the trace fails.
        let mut events = fx.events.clone();
        events.insert(events.len() / 2, PathEvent { func: c.func, path: c.path });
        let path = with_values(&dir, "event.wpp", &fx.meta, &fx.counts, &events);
        Profile::open(&path).expect("the trace is checked when read");
        let e = expect_err(&path);
        assert!(matches!(e, Error::Corrupt { .. }) && e.to_string().contains(what), "{c:?}: {e}");
    }
    // The largest path number is fine.
    let mut counts = fx.counts.clone();
    counts.push(PathCount { func: FuncIdx(4), path: PathId(n_paths(4) - 1), count: 1 });
    counts.sort();
    read_all(&with_values(&dir, "last-path.wpp", &fx.meta, &counts, &fx.events)).unwrap();
}

#[test]
fn damaged_meta_is_rejected() {
    let dir = scratch("bad_meta");
    let fx = fixture(&dir);
    // A function listed under the wrong index.
    let mut meta = fx.meta.clone();
    meta.functions.swap(1, 2);
    let msg = expect_err(&with_values(&dir, "index.wpp", &meta, &fx.counts, &fx.events)).to_string();
    assert!(msg.contains("function 1 is listed as function 2"), "{msg}");
    // An invalid control flow graph, named with its function.
    let mut meta = fx.meta.clone();
    meta.functions[2].cfg.as_mut().unwrap().edges[0].to = Target::Block(BlockIdx(99));
    let msg = expect_err(&with_values(&dir, "cfg.wpp", &meta, &fx.counts, &fx.events)).to_string();
    assert!(msg.contains("function 2 (abs)") && msg.contains("block 99"), "{msg}");
    // A path limit the functions cannot be numbered within.
    let mut meta = fx.meta.clone();
    meta.max_paths = 0;
    let msg = expect_err(&with_values(&dir, "limit.wpp", &meta, &fx.counts, &fx.events)).to_string();
    assert!(msg.contains("cannot be numbered"), "{msg}");
    // The counts refer to code the meta no longer has.
    let mut meta = fx.meta.clone();
    meta.functions[2].cfg = None;
    let msg = expect_err(&with_values(&dir, "no-code.wpp", &meta, &fx.counts, &fx.events)).to_string();
    assert!(msg.contains("function 2, which has no code"), "{msg}");
    // Missing sections.
    let sections: Vec<_> = fx.sections.iter().filter(|(n, _)| n != section::COUNTS).cloned().collect();
    let e = expect_err(&write_file(&dir, "no-counts.wpp", &assemble(&dir, &sections)));
    assert!(matches!(e, Error::Missing { ref section, .. } if section == "counts"), "{e:?}");
    // Not postcard at all.
    let mut sections = fx.sections.clone();
    sections[1].1 = vec![0xff; 16];
    let msg = expect_err(&write_file(&dir, "garbage-meta.wpp", &assemble(&dir, &sections))).to_string();
    assert!(msg.contains("section `meta`"), "{msg}");
}

#[test]
fn damaged_trace_words_are_rejected() {
    let dir = scratch("bad_trace");
    let fx = fixture_v1(&dir);
    let trace = encode_events(&fx.events);
    let escape = (((ESCAPE_FUNC as u64) << 32) | 4).to_le_bytes();
    let cases: [(&str, Vec<u8>); 3] = [
        ("ends inside an event", [&trace[..], &escape[..]].concat()),
        ("whole number of event words", [&trace[..], &[1, 2, 3][..]].concat()),
        ("whole number of event words", trace[..trace.len() - 1].to_vec()),
    ];
    for (what, bytes) in cases {
        let mut sections = fx.sections.clone();
        sections[0].1 = bytes;
        let path = write_file(&dir, "trace.wpp", &assemble(&dir, &sections));
        let msg = expect_err(&path).to_string();
        assert!(msg.contains(what), "{what}: {msg}");
    }
}

#[test]
fn damaged_runs_are_rejected() {
    let dir = scratch("bad_runs");
    let fx = fixture(&dir);
    let (symbols, runs) = encode_runs(&fx.events);
    let token = |symbol: u64, run: u64| {
        let mut b = Vec::new();
        wpp_grammar::encode_token(&mut b, wpp_grammar::Token { symbol: symbol as u32, run });
        b
    };
    let n = symbols.len() as u64;
    let cases: [(&str, Vec<u8>); 7] = [
        ("ends inside a number", [&runs[..], &[0x81][..]].concat()),
        ("ends inside a number", [&runs[..], &[0x03][..]].concat()),
        (&format!("symbol {n} is not in section `symbols`"), [&runs[..], &token(n, 1)[..]].concat()),
        ("overflows 64 bits", [&runs[..], &[0xff; 11][..]].concat()),
        (&format!("byte {}: more events than the {} the profile recorded", runs.len(), fx.events.len()), [&runs[..], &token(0, 1)[..]].concat()),
        (&format!("byte {}: more events than the {} the profile recorded", runs.len(), fx.events.len()), [&runs[..], &token(0, 1 << 40)[..]].concat()),
        (&format!("holds {} events; the profile recorded {}", fx.events.len() - 1, fx.events.len()), encode_runs(&fx.events[..fx.events.len() - 1]).1),
    ];
    for (what, bytes) in cases {
        let mut sections = fx.sections.clone();
        sections[0].1 = bytes;
        let path = write_file(&dir, "runs.wpp", &assemble(&dir, &sections));
        let msg = expect_err(&path).to_string();
        assert!(msg.contains(what) && msg.contains("`runs`"), "{what}: {msg}");
    }
    // The byte named is where the bad token starts.
    let mut sections = fx.sections.clone();
    sections[0].1 = [&runs[..], &token(n + 5, 3)[..]].concat();
    let msg = expect_err(&write_file(&dir, "at.wpp", &assemble(&dir, &sections))).to_string();
    assert!(msg.contains(&format!("section `runs`, byte {}: symbol {}", runs.len(), n + 5)), "{msg}");
}

/// Large files: the work and memory of reading grow with the file, not with numbers in it.
#[test]
fn huge_claimed_lengths_allocate_little() {
    let dir = scratch("huge_lengths");
    let fx = fixture(&dir);
    // A meta section claiming 2^63 functions, a counts section claiming 2^63 entries, a
    // module name of 2^63 bytes: all with correct checksums.
    let huge = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
    let mut meta_huge_name = huge.to_vec();
    meta_huge_name.extend([b'x'; 64]);
    let mut meta_huge_functions = postcard::to_stdvec(&(fx.meta.module.as_str(), fx.meta.module_bytes, 0u8, fx.meta.max_paths)).unwrap();
    meta_huge_functions.extend(huge);
    meta_huge_functions.extend([0u8; 256]);
    let mut counts_huge = huge.to_vec();
    counts_huge.extend([1u8; 300]);
    for (i, bytes) in [(1, meta_huge_name), (1, meta_huge_functions), (2, counts_huge)] {
        let mut sections = fx.sections.clone();
        sections[i].1 = bytes;
        let b = assemble(&dir, &sections);
        let path = write_file(&dir, "huge.wpp", &b);
        let (r, alloc) = measure(|| read_all(&path).map(|_| ()));
        let e = r.expect_err("accepted");
        assert!(e.to_string().contains(&format!("section `{}`", sections[i].0)), "{e}");
        assert!(alloc.largest <= alloc_budget(b.len()) && alloc.peak_live <= alloc_budget(b.len()), "{alloc:?}");
    }
}

/// Opening a hostile file whose functions need many cut points takes work linear in the
/// file: a chain of 16,000 blocks with `max_paths: 1` is rejected after allocating a small
/// multiple of the file's size in all. (A numbering that rebuilt its DAG for every cut
/// point took 13–20 s on this 200 KB file, allocating the DAG 16,000 times.)
#[test]
fn numbering_a_hostile_cfg_takes_work_linear_in_the_file() {
    let dir = scratch("quadratic");
    let n = 16_000u32;
    let mut edges = Vec::new();
    for i in 0..n {
        if i + 1 < n {
            edges.push(edge(i, Some(i + 1), EdgeKind::Forward));
        }
        edges.push(edge(i, None, EdgeKind::Return));
    }
    let meta = Meta {
        module: "hostile.wasm".into(),
        module_bytes: 0,
        mode: RecordMode::Paths,
        max_paths: 1,
        functions: vec![Function { index: FuncIdx(0), name: "chain".into(), cfg: Some(Cfg { blocks: vec![blk(0, 0, 1); n as usize], edges }) }],
        args: vec![],
        ending: Ending::Exited(0),
        guest_nanos: 0,
        events: 0,
    };
    let path = with_values(&dir, "chain.wpp", &meta, &[], &[]);
    let size = std::fs::metadata(&path).unwrap().len() as usize;
    let (e, alloc) = measure(|| expect_err(&path));
    assert!(e.to_string().contains("cannot be numbered"), "{e}");
    eprintln!("rejecting a {size}-byte file allocated {alloc:?}");
    assert!(alloc.total <= WORK_PER_BYTE * size, "rejecting a {size}-byte file allocated {} bytes in all (budget {WORK_PER_BYTE} per byte)", alloc.total);
}

/// Bytes a reader may allocate in all per byte of a hostile file.
const WORK_PER_BYTE: usize = 64;

// ---------------------------------------------------------------------------------------
// 4. Merging damaged profiles

/// A valid profile merged with a damaged one: an error naming the damaged file, with no
/// output left behind, or a merged profile whose run 2 reads back as the damaged file
/// does (an error, or the same counts, the merged counts being the sum); never a panic.
#[test]
fn merging_damaged_profiles_gives_a_merge_or_an_error() {
    let dir = scratch("merge");
    let fx = fixture(&dir);
    let valid = write_file(&dir, "valid.wpp", &fx.bytes);
    let mut rng = Rng::new(0x0000_e1ce_5eed);
    let (mut merged, mut refused) = (0, 0);
    for i in 0..600 {
        let b = match i % 3 {
            0 => mutate(&mut rng, &fx.bytes),
            1 => damage_section(&mut rng, &dir, &fx),
            _ => damage_values(&mut rng, &dir, &fx),
        };
        let damaged = write_file(&dir, "damaged.wpp", &b);
        let out = dir.join("merged.wpp");
        match wpp_profile::merge(&[valid.clone(), damaged.clone()], &out) {
            Ok(m) => {
                merged += 1;
                assert_eq!(m.runs, 2);
                // The run reads back as the damaged file does: its damage, if any, is in a
                // section the run keeps, checked when it is read.
                match (Profile::open(&damaged), Profile::open_run(&out, 2)) {
                    (Ok(alone), Ok(run)) => {
                        assert_eq!(run.counts, alone.counts, "case {i}");
                        let sum = wpp_profile::merge::add_counts(&fx.counts, &alone.counts).unwrap();
                        assert_eq!(Profile::open(&out).unwrap().counts, sum, "case {i}");
                    }
                    (Err(_), Err(_)) => {}
                    (alone, run) => panic!("case {i}: the damaged file reads as {:?}, its run in the merge as {:?}", alone.map(|_| ()), run.map(|_| ())),
                }
                std::fs::remove_file(&out).unwrap();
            }
            Err(e) => {
                refused += 1;
                assert!(e.to_string().contains(&damaged.display().to_string()), "case {i}: the error does not name the damaged file: {e}");
                assert!(!out.exists(), "case {i}: a failed merge left its output");
            }
        }
    }
    assert!(merged > 0 && refused > 0, "{merged} merged, {refused} refused: the cases should go both ways");
    std::fs::remove_dir_all(&dir).unwrap();
}

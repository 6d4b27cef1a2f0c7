//! The profile reader target: a file made of the fuzzer's bytes, opened with
//! [`Profile::open`] and read to the end ([`examine`]).
//!
//! Every section carries a CRC-32, and so does the table of contents, so random damage
//! to a valid profile mostly stops at a checksum. The first byte of the input therefore
//! chooses how the rest becomes a file:
//!
//! * 0: the bytes are the file;
//! * 1: the bytes are the file, with every checksum that can be found recomputed
//!   ([`repair_checksums`]), so that damage reaches the decoders behind them;
//! * 2: a valid profile ([`fixtures`]: trace profiles of both versions, grammar profiles in
//!   both grammar encodings, a compressed symbol trace, a PPP profile) with one section
//!   edited as the rest of the bytes say ([`edit`]), assembled with right checksums.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use wpp_grammar::{encode_grammar, encode_grammar_v1, encode_token};
use wpp_model::{FuncIdx, Function, PathEvent, PathId};
use wpp_profile::{
    section, Builder, Ending, GrammarBuilder, Meta, PathCount, PppFunction, PppPath, PppRecord, Prediction, Profile, RecordMode, TocEntry, MAGIC,
};
use wpp_test_support::alloc::measure;
use wpp_test_support::cfgs::{diamond, diamonds, looped_with_trap};
use wpp_test_support::grammar_checks::{DECODER_HEAP_BASE, DECODER_HEAP_PER_BYTE};

/// Bytes of the fixed header.
const HEADER_LEN: usize = 40;

/// What reading a file of `size` bytes may allocate (the trace reader alone buffers
/// 1 MiB), besides what the grammar decoder may (per byte of its section).
fn alloc_budget(size: usize) -> usize {
    (size * 4).max(16 << 20)
}

/// The target: see the module docs.
pub fn fuzz(data: &[u8]) {
    let Some((&how, rest)) = data.split_first() else { return };
    let file = match how % 3 {
        0 => rest.to_vec(),
        1 => {
            let mut b = rest.to_vec();
            repair_checksums(&mut b);
            b
        }
        _ => {
            let Some(b) = edit(rest) else { return };
            b
        }
    };
    let path = scratch_file();
    std::fs::write(&path, &file).expect("the scratch file is writable");
    if let Err(e) = examine(&path, file.len()) {
        let shown = path.display().to_string();
        assert!(e.contains(&shown), "the error does not name the file: {e}");
    }
}

/// The file this thread reads profiles from.
fn scratch_file() -> PathBuf {
    thread_local! {
        static FILE: PathBuf = {
            let dir = std::env::temp_dir().join(format!("wpp-fuzz-profile-{}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("a directory for profiles");
            dir.join(format!("{:?}.wpp", std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric() && c != '.', ""))
        };
    }
    FILE.with(Clone::clone)
}

/// Opens the profile at `path` (`size` bytes) and reads everything in it; panics if what
/// was accepted is inconsistent or if reading allocated beyond its budget. An error is
/// returned as its message.
pub fn examine(path: &Path, size: usize) -> Result<(), String> {
    let budget = alloc_budget(size);
    let check = |what: &str, stats: wpp_test_support::alloc::AllocStats, budget: usize| {
        assert!(stats.largest <= budget && stats.peak_live <= budget, "{what} of a {size}-byte file allocated too much: {stats:?}, budget {budget} bytes");
    };
    let (p, stats) = measure(|| Profile::open(path));
    check("opening", stats, budget);
    let p = p.map_err(|e| e.to_string())?;
    assert_eq!(p.numberings.n_functions(), p.meta.functions.len());
    if let Some(s) = &p.source {
        // An accepted source map covers every block with ranges that format.
        for (f, blocks) in s.blocks.iter().enumerate() {
            assert_eq!(blocks.len(), p.meta.functions[f].cfg.as_ref().map_or(0, |c| c.n_blocks()));
            for r in blocks.iter().flatten() {
                assert!(s.format(*r).is_some(), "an accepted line range does not format: {r:?}");
            }
        }
    }
    for c in &p.counts {
        assert!(p.path_blocks(c.func, c.path).is_some(), "accepted a count of a path that does not decode: {c:?}");
    }
    for e in &p.toc {
        let (bytes, stats) = measure(|| p.section_bytes(&e.name));
        check("reading a section", stats, budget);
        let bytes = bytes.map_err(|e| e.to_string())?;
        // A name given twice reads its first section.
        let first = p.toc.iter().find(|f| f.name == e.name).expect("itself");
        assert_eq!(bytes.len() as u64, first.len, "section `{}`", e.name);
    }
    let mut grammar_events = None;
    if p.has_grammar() {
        let section = p.toc.iter().find(|e| e.name == section::GRAMMAR).map_or(0, |e| e.len as usize);
        let (g, stats) = measure(|| p.grammar());
        check("decoding the grammar", stats, budget + DECODER_HEAP_BASE + DECODER_HEAP_PER_BYTE * section);
        let g = g.map_err(|e| e.to_string())?;
        // A valid grammar derives exactly the recorded number of events, every one a
        // terminal of the profile.
        let mut n = 0u64;
        for t in g.expand() {
            assert!(t < p.n_terminals(), "terminal {t} of {}", p.n_terminals());
            if let Some(e) = p.symbols.get(t as usize) {
                assert!(p.path_blocks(e.func, e.path).is_some(), "the grammar derives a path that does not decode: {e:?}");
            }
            n += 1;
        }
        assert_eq!(n, p.meta.events, "the grammar derives {n} events, not the recorded {}", p.meta.events);
        grammar_events = Some(n);
    }
    if p.has_trace() {
        let (r, stats) = measure(|| -> Result<u64, String> {
            let mut r = p.trace().map_err(|e| e.to_string())?;
            let mut n = 0u64;
            loop {
                match r.next_batch() {
                    Ok([]) => return Ok(n),
                    Ok(batch) => {
                        for e in batch {
                            assert!(p.path_blocks(e.func, e.path).is_some(), "accepted an event of a path that does not decode: {e:?}");
                        }
                        n += batch.len() as u64;
                    }
                    Err(e) => {
                        // A reader that has failed may be called again: it must not panic either.
                        for _ in 0..3 {
                            if let Ok([]) = r.next_batch() {
                                break;
                            }
                        }
                        return Err(e.to_string());
                    }
                }
            }
        });
        check("reading the trace", stats, budget);
        let n = r?;
        if p.toc.iter().any(|e| e.name == section::RUNS) {
            assert_eq!(n, p.meta.events, "section `runs` gives {n} events, not the recorded {}", p.meta.events);
        }
    }
    // Streaming gives the trace if there is one, else the grammar's derivation (if its
    // terminals are paths), else an error.
    let mut n = 0u64;
    let streamed = p.for_each_event(|e| {
        assert!(p.path_blocks(e.func, e.path).is_some(), "streamed an event of a path that does not decode: {e:?}");
        n += 1;
    });
    match (streamed, p.has_trace() || p.has_grammar()) {
        (Ok(()), true) => {
            if !p.has_trace() {
                assert_eq!(Some(n), grammar_events, "streaming the grammar gives {n} events");
            }
            Ok(())
        }
        (Ok(()), false) => panic!("streamed {n} events from a profile with neither a trace nor a grammar"),
        (Err(_), false) => Ok(()),
        // A compressed symbol trace: its terminals are values, not paths.
        (Err(_), true) if !p.has_trace() && p.symbols.is_empty() && (!p.terminals.is_empty() || !p.terminal_events.is_empty()) => Ok(()),
        (Err(e), true) => Err(e.to_string()),
    }
}

/// Recomputes every checksum of `file` that can be found: each section's that the table
/// of contents names and that lies inside the file, and the table's own. A table that
/// changes length is moved to the end of the file.
pub fn repair_checksums(file: &mut Vec<u8>) {
    if file.len() < HEADER_LEN || file[..8] != MAGIC {
        return;
    }
    let u64_at = |f: &[u8], i: usize| u64::from_le_bytes(f[i..i + 8].try_into().expect("8 bytes"));
    let (offset, len) = (u64_at(file, 16), u64_at(file, 24));
    let Some(end) = offset.checked_add(len).filter(|&e| e <= file.len() as u64) else { return };
    let (offset, end) = (offset as usize, end as usize);
    let mut toc_bytes = file[offset..end].to_vec();
    if let Ok(mut toc) = postcard::from_bytes::<Vec<TocEntry>>(&toc_bytes) {
        for e in &mut toc {
            if let Some(end) = e.offset.checked_add(e.len).filter(|&end| end <= file.len() as u64) {
                e.crc32 = crc32fast::hash(&file[e.offset as usize..end as usize]);
            }
        }
        let new = postcard::to_stdvec(&toc).expect("a table of contents encodes");
        if new.len() == toc_bytes.len() {
            file[offset..end].copy_from_slice(&new);
        } else {
            let at = file.len() as u64;
            file.extend_from_slice(&new);
            file[16..24].copy_from_slice(&at.to_le_bytes());
            file[24..32].copy_from_slice(&(new.len() as u64).to_le_bytes());
        }
        toc_bytes = new;
    }
    file[32..36].copy_from_slice(&crc32fast::hash(&toc_bytes).to_le_bytes());
}

/// A profile file of format `version` holding `sections` in order, every checksum right.
pub fn assemble(version: u32, sections: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut file = vec![0u8; HEADER_LEN];
    let mut toc = Vec::new();
    for (name, bytes) in sections {
        toc.push(TocEntry { name: name.clone(), offset: file.len() as u64, len: bytes.len() as u64, crc32: crc32fast::hash(bytes) });
        file.extend_from_slice(bytes);
    }
    let toc = postcard::to_stdvec(&toc).expect("a table of contents encodes");
    let at = file.len() as u64;
    file.extend_from_slice(&toc);
    file[..8].copy_from_slice(&MAGIC);
    file[8..12].copy_from_slice(&version.to_le_bytes());
    file[16..24].copy_from_slice(&at.to_le_bytes());
    file[24..32].copy_from_slice(&(toc.len() as u64).to_le_bytes());
    file[32..36].copy_from_slice(&crc32fast::hash(&toc).to_le_bytes());
    file
}

/// A valid profile: its format version and its sections in file order.
pub struct Fixture {
    pub name: &'static str,
    pub version: u32,
    pub sections: Vec<(String, Vec<u8>)>,
}

/// Section names an edit may rename a section to.
const NAMES: [&str; 10] = [
    section::META,
    section::COUNTS,
    section::RUNS,
    section::TRACE,
    section::SYMBOLS,
    section::GRAMMAR,
    section::TERMINALS,
    section::SOURCE,
    section::PPP,
    "grammar.1",
];

/// A fixture with one section edited, assembled. `data[0]` picks the fixture, `data[1]`
/// the section, `data[2]` the edit, on the rest of the bytes:
///
/// * 0: the section's bytes become the rest;
/// * 1: overwrite: each three bytes are a position (two bytes, modulo the length) and a value;
/// * 2: the rest is inserted at the position its first two bytes give;
/// * 3: the section is cut at the position the first two bytes give;
/// * 4: the rest is appended to the section;
/// * 5: the section is dropped;
/// * 6: the section is renamed (the first byte picks the name from `NAMES`);
/// * 7: the section is added a second time, with the rest as its bytes.
///
/// Bit 3 of `data[2]` writes the file as the other format version.
pub fn edit(data: &[u8]) -> Option<Vec<u8>> {
    let [f, s, op, rest @ ..] = data else { return None };
    let fixtures = fixtures();
    let fx = &fixtures[*f as usize % fixtures.len()];
    let mut sections = fx.sections.clone();
    let i = *s as usize % sections.len();
    let pos = |len: usize| if len == 0 { 0 } else { rest.get(..2).map_or(0, |p| u16::from_le_bytes([p[0], p[1]]) as usize % (len + 1)) };
    let bytes = &mut sections[i].1;
    match op % 8 {
        0 => *bytes = rest.to_vec(),
        1 => {
            for c in rest.chunks_exact(3) {
                if !bytes.is_empty() {
                    let at = u16::from_le_bytes([c[0], c[1]]) as usize % bytes.len();
                    bytes[at] = c[2];
                }
            }
        }
        2 => {
            let at = pos(bytes.len());
            bytes.splice(at..at, rest.iter().skip(2).copied());
        }
        3 => bytes.truncate(pos(bytes.len())),
        4 => bytes.extend_from_slice(rest),
        5 => {
            sections.remove(i);
        }
        6 => sections[i].0 = NAMES[rest.first().copied().unwrap_or(0) as usize % NAMES.len()].to_owned(),
        _ => {
            let name = sections[i].0.clone();
            sections.push((name, rest.to_vec()));
        }
    }
    let version = if op & 8 != 0 { 3 - fx.version } else { fx.version };
    Some(assemble(version, &sections))
}

/// The valid profiles [`edit`] starts from, made once.
pub fn fixtures() -> &'static [Fixture] {
    static FIXTURES: OnceLock<Vec<Fixture>> = OnceLock::new();
    FIXTURES.get_or_init(make_fixtures)
}

fn make_fixtures() -> Vec<Fixture> {
    let functions = vec![
        Function { index: FuncIdx(0), name: "env::print".into(), cfg: None },
        Function { index: FuncIdx(1), name: "main".into(), cfg: Some(looped_with_trap(100)) },
        Function { index: FuncIdx(2), name: "abs".into(), cfg: Some(diamond(200)) },
        Function { index: FuncIdx(3), name: "wide".into(), cfg: Some(diamonds(34, 300)) },
    ];
    let mut meta = Meta {
        module: "fixture.wasm".into(),
        module_bytes: 1000,
        mode: RecordMode::Trace,
        max_paths: u64::MAX,
        functions,
        args: vec!["-n".into(), "3".into()],
        ending: Ending::Exited(0),
        guest_nanos: 1000,
        events: 0,
    };
    let numberings = meta.numberings().expect("the fixture numbers");
    let n_paths = |f: u32| numberings.get(FuncIdx(f)).map_or(0, |n| n.n_paths());
    // A plausible run: main loops, abs in runs of one path, wide with small and escaped
    // path numbers.
    let mut events = Vec::new();
    for round in 0..24u64 {
        events.push(PathEvent { func: FuncIdx(1), path: PathId(round % n_paths(1)) });
        for _ in 0..1 + round % 3 {
            events.push(PathEvent { func: FuncIdx(2), path: PathId(round / 5 % 2) });
        }
        let wide = if round % 2 == 0 { n_paths(3) - 1 - round } else { u32::MAX as u64 + round };
        events.push(PathEvent { func: FuncIdx(3), path: PathId(wide) });
    }
    meta.events = events.len() as u64;
    let mut counts: Vec<PathCount> = Vec::new();
    for e in &events {
        match counts.iter_mut().find(|c| (c.func, c.path) == (e.func, e.path)) {
            Some(c) => c.count += 1,
            None => counts.push(PathCount { func: e.func, path: e.path, count: 1 }),
        }
    }
    counts.sort();
    // Symbols in order of first execution; the trace as run-length tokens over them.
    let mut symbols: Vec<PathEvent> = Vec::new();
    let ids: Vec<u32> = events
        .iter()
        .map(|e| match symbols.iter().position(|s| s == e) {
            Some(i) => i as u32,
            None => {
                symbols.push(*e);
                symbols.len() as u32 - 1
            }
        })
        .collect();
    let mut runs = Vec::new();
    for t in wpp_test_support::grammar_checks::tokens(&ids) {
        encode_token(&mut runs, t);
    }
    let mut words = Vec::new();
    for e in &events {
        e.encode(&mut words);
    }
    let words: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut gb = GrammarBuilder::for_paths(Builder::Sequitur1, Prediction::Off);
    ids.iter().try_for_each(|&s| gb.push(s)).expect("few symbols");
    let grammar = gb.finish().expect("a grammar");
    let source = wpp_model::SourceMap {
        files: vec!["main.c".into(), "util.h".into()],
        blocks: meta
            .functions
            .iter()
            .map(|f| {
                let n = f.cfg.as_ref().map_or(0, |c| c.n_blocks()) as u32;
                (0..n).map(|b| (b % 4 != 3).then_some(wpp_model::LineRange { file: b % 2, first: 10 + b, last: 11 + 2 * b })).collect()
            })
            .collect(),
    };
    let s = |name: &str, bytes: Vec<u8>| (name.to_owned(), bytes);
    let trace_meta = enc(&meta);
    let with_mode = |mode: RecordMode| {
        let mut m = meta.clone();
        m.mode = mode;
        enc(&m)
    };
    let ppp = PppRecord {
        set: "set.json".into(),
        selection: "all executed".into(),
        functions: vec![PppFunction {
            func: FuncIdx(2),
            slots: 2,
            ball_larus_array: false,
            paths: vec![PppPath { path: PathId(0), ppp_id: 1 }, PppPath { path: PathId(1), ppp_id: 0 }],
        }],
        hashed: counts.iter().filter(|c| c.func != FuncIdx(2)).copied().collect(),
    };
    // A symbol trace compressed by `wpp compress`: no functions, terminals for values.
    let values: Vec<u32> = vec![7, 7, 7, 3, 9, 3, 9, 3, 9, 7, 1000, 7, 7];
    let mut terminals: Vec<u32> = Vec::new();
    let mut gb = GrammarBuilder::for_paths(Builder::Sequitur1, Prediction::Off);
    for v in &values {
        let t = terminals.iter().position(|x| x == v).unwrap_or_else(|| {
            terminals.push(*v);
            terminals.len() - 1
        });
        gb.push(t as u32).expect("few symbols");
    }
    let compressed = gb.finish().expect("a grammar");
    let compress_meta = Meta { functions: Vec::new(), events: values.len() as u64, mode: RecordMode::Grammar(Builder::Sequitur1), ..meta.clone() };
    let n_symbols = symbols.len() as u32;
    vec![
        Fixture {
            name: "trace",
            version: 2,
            sections: vec![
                s(section::RUNS, runs),
                s(section::META, trace_meta.clone()),
                s(section::COUNTS, enc(&counts)),
                s(section::SYMBOLS, enc(&symbols)),
                s(section::SOURCE, enc(&source)),
                s("notes", b"a section this reader does not know".to_vec()),
            ],
        },
        Fixture {
            name: "trace-v1",
            version: 1,
            sections: vec![s(section::TRACE, words), s(section::META, trace_meta), s(section::COUNTS, enc(&counts)), s(section::SOURCE, enc(&source))],
        },
        Fixture {
            name: "grammar",
            version: 2,
            sections: vec![
                s(section::META, with_mode(RecordMode::Grammar(Builder::Sequitur1))),
                s(section::COUNTS, enc(&counts)),
                s(section::SYMBOLS, enc(&symbols)),
                s(section::GRAMMAR, encode_grammar(&grammar, n_symbols)),
            ],
        },
        Fixture {
            name: "grammar-v1-encoding",
            version: 2,
            sections: vec![
                s(section::META, with_mode(RecordMode::Grammar(Builder::RePair))),
                s(section::COUNTS, enc(&counts)),
                s(section::SYMBOLS, enc(&symbols)),
                s(section::GRAMMAR, encode_grammar_v1(&grammar, n_symbols)),
            ],
        },
        Fixture {
            name: "compressed",
            version: 2,
            sections: vec![
                s(section::META, enc(&compress_meta)),
                s(section::COUNTS, enc(&Vec::<PathCount>::new())),
                s(section::TERMINALS, enc(&terminals)),
                s(section::GRAMMAR, encode_grammar(&compressed, terminals.len() as u32)),
            ],
        },
        Fixture {
            name: "ppp",
            version: 2,
            sections: vec![s(section::META, with_mode(RecordMode::Ppp)), s(section::COUNTS, enc(&counts)), s(section::PPP, enc(&ppp))],
        },
    ]
}

/// A fixture value, postcard-encoded as the writer encodes it.
fn enc<T: serde::Serialize>(v: &T) -> Vec<u8> {
    postcard::to_stdvec(v).expect("a fixture value encodes")
}

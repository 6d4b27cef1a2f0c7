//! Merging profiles of one module into one file: path counts added, every run kept.
//!
//! A merged profile holds, besides the sections every profile of the module has (`module`,
//! and `source` when the module has DWARF):
//!
//! * `meta`: the module's functions, with the runs' events and guest time added; its mode is
//!   `ppp` when every run was recorded with the same interesting paths, otherwise `paths`;
//!   its arguments are empty, and its ending is the runs' common ending, or else the first
//!   that is not a clean exit;
//! * `counts`: the sum of the runs' counts;
//! * `ppp` (runs recorded with interesting paths): the interesting paths, with the hash
//!   table's counts added;
//! * `merged-runs`: postcard `Vec<`[`RunRecord`]`>`, one record per run in the order merged;
//! * every section of run `i` (from 0) but `meta`, `module` and `source`, renamed
//!   `run.i/NAME`: its own `counts`, `ppp`, `symbols`, `grammar` or `runs`, and so on.
//!
//! [`crate::Profile::open`] reads a merged profile as the sum of its runs, and
//! [`crate::Profile::open_run`] one run as the profile it came from (its whole program
//! path, if it had one, stays readable as it was). Merging a merged profile takes its
//! runs one by one, so merging is associative; the counts do not depend on the order of
//! the inputs, and the runs keep it.

use std::path::{Path, PathBuf};

use wpp_model::PathEvent;

use crate::read::{self, run_prefix, RunRecord, COMMON};
use crate::section::{COUNTS, MERGED_RUNS, META, MODULE, PPP, SOURCE};
use crate::{Ending, Error, Meta, ModuleId, PathCount, PppRecord, Profile, RecordMode, TocEntry, Writer};

/// What [`merge`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    pub runs: usize,
    /// Distinct paths executed, over all runs.
    pub paths: usize,
    /// Path executions, over all runs.
    pub executions: u64,
}

/// Two lists of path counts side by side, each sorted by function and path with no path
/// twice (as section `counts` holds them): every path of either with its count in `a` and
/// in `b` (0 where it is missing), in the same order.
pub fn side_by_side(a: &[PathCount], b: &[PathCount]) -> Vec<(PathEvent, u64, u64)> {
    let key = |c: &PathCount| (c.func, c.path);
    let event = |c: &PathCount| PathEvent { func: c.func, path: c.path };
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if key(x) == key(y) => {
                out.push((event(x), x.count, y.count));
                (i, j) = (i + 1, j + 1);
            }
            (Some(x), Some(y)) if key(x) < key(y) => {
                out.push((event(x), x.count, 0));
                i += 1;
            }
            (Some(x), None) => {
                out.push((event(x), x.count, 0));
                i += 1;
            }
            (_, Some(y)) => {
                out.push((event(y), 0, y.count));
                j += 1;
            }
            (None, None) => unreachable!("the loop runs while a list has counts left"),
        }
    }
    out
}

/// The sum of two lists of path counts, sorted as [`side_by_side`] takes them; `None` if
/// a count overflows.
pub fn add_counts(a: &[PathCount], b: &[PathCount]) -> Option<Vec<PathCount>> {
    side_by_side(a, b).into_iter().map(|(e, x, y)| Some(PathCount { func: e.func, path: e.path, count: x.checked_add(y)? })).collect()
}

/// The first input, which every input is checked against.
struct First {
    path: PathBuf,
    meta: Meta,
    numberings: wpp_paths::ProgramNumbering,
    /// `meta.functions` as postcard encodes them: an input whose `meta` holds these bytes
    /// has the same functions, which spares decoding and checking them again.
    functions: Vec<u8>,
    module: ModuleId,
    source: Option<Vec<u8>>,
}

/// What the merge reads of each input: its table of contents (its sections are copied
/// from the open file), what its `meta` says of the run, its counts, PPP record and runs.
struct Input {
    path: PathBuf,
    file: std::fs::File,
    toc: Vec<TocEntry>,
    run: RunRecord,
    counts: Vec<PathCount>,
    ppp: Option<PppRecord>,
    runs: Option<Vec<RunRecord>>,
}

/// Accumulated preferential path profiling records: `None` before the first input,
/// `Some(None)` when the inputs have none.
type PppSoFar = Option<Option<PppRecord>>;

/// The fields of `meta` before the functions, in the order [`Meta`] declares them.
type MetaHead = (String, u64, RecordMode, u64);
/// The fields of `meta` after the functions.
type MetaTail = (Vec<String>, Ending, u64, u64);

/// Reads input `path` as far as the merge needs, checked against the first input: the
/// module, the numbering and the functions must be the same; the counts and the PPP
/// record are checked as the reader checks them, with the first input's numbering.
fn read_input(path: &Path, f: &First) -> Result<Input, Error> {
    let (mut file, toc) = read::read_toc(path)?;
    let meta = read::read_section(&mut file, path, &toc, META)?;
    let bad_meta = |e: postcard::Error| read::corrupt(path, format!("section `{META}`: {e}"));
    let ((_, module_bytes, mode, max_paths), rest): (MetaHead, &[u8]) = postcard::take_from_bytes(&meta).map_err(bad_meta)?;
    let mismatch = |what: String| Error::Mismatch { first: f.path.clone(), other: path.to_owned(), what };
    if max_paths != f.meta.max_paths {
        return Err(mismatch(format!("its paths are numbered within {max_paths}, those of the first within {}", f.meta.max_paths)));
    }
    let module: ModuleId = match toc.iter().any(|e| e.name == MODULE) {
        true => read::decode_section(&mut file, path, &toc, MODULE)?,
        false => return Err(Error::NoModuleHash { path: path.to_owned() }),
    };
    if module.bytes != module_bytes {
        return Err(read::corrupt(path, format!("section `{MODULE}` describes a module of {} bytes; `{META}` says {module_bytes}", module.bytes)));
    }
    if module != f.module {
        return Err(mismatch(format!(
            "it was recorded from another module (SHA-256 {}…, against {}…)",
            &module.sha256_hex()[..8],
            &f.module.sha256_hex()[..8]
        )));
    }
    let Some(rest) = rest.strip_prefix(f.functions.as_slice()) else {
        return Err(mismatch("its functions' control flow graphs differ (recorded by another version of wpp?)".into()));
    };
    let ((args, ending, guest_nanos, events), end): (MetaTail, &[u8]) = postcard::take_from_bytes(rest).map_err(bad_meta)?;
    if !end.is_empty() {
        return Err(read::corrupt(path, format!("section `{META}` has {} bytes after its end", end.len())));
    }
    let counts: Vec<PathCount> = read::decode_section(&mut file, path, &toc, COUNTS)?;
    if !counts.windows(2).all(|w| (w[0].func, w[0].path) < (w[1].func, w[1].path)) {
        return Err(read::corrupt(path, format!("section `{COUNTS}` is not sorted by function and path")));
    }
    for c in &counts {
        read::check_event(path, &f.meta, &f.numberings, PathEvent { func: c.func, path: c.path })?;
    }
    let ppp: Option<PppRecord> = match toc.iter().any(|e| e.name == PPP) {
        true => Some(read::decode_section(&mut file, path, &toc, PPP)?),
        false => None,
    };
    if let Some(r) = &ppp {
        read::check_ppp(path, &f.meta, &f.numberings, &counts, r)?;
    }
    // The first input's source lines stand for every input's: the module is the same.
    let source = toc.iter().any(|e| e.name == SOURCE).then(|| read::read_section(&mut file, path, &toc, SOURCE)).transpose()?;
    if source != f.source {
        return Err(mismatch("its source lines differ from the first's (the module is the same: is one damaged?)".into()));
    }
    let runs: Option<Vec<RunRecord>> = match toc.iter().any(|e| e.name == MERGED_RUNS) {
        true => Some(read::decode_section(&mut file, path, &toc, MERGED_RUNS)?),
        false => None,
    };
    let run = RunRecord { file: path.display().to_string(), mode, args, ending, guest_nanos, events };
    Ok(Input { path: path.to_owned(), file, toc, run, counts, ppp, runs })
}

/// Reads the first input in full, as every command reads a profile.
fn read_first(path: &Path) -> Result<First, Error> {
    let p = Profile::open(path)?;
    p.require_program("merge")?;
    let module = p.module_id()?.ok_or_else(|| Error::NoModuleHash { path: path.to_owned() })?;
    let source = p.toc.iter().any(|e| e.name == SOURCE).then(|| p.section_bytes(SOURCE)).transpose()?;
    // The file's functions as recorded (an extended WPP's check routine included), as the
    // other inputs' `meta` holds them.
    let meta = p.recorded_meta();
    let functions = postcard::to_stdvec(&meta.functions).map_err(|e| read::corrupt(path, format!("section `{META}`: {e}")))?;
    Ok(First { path: path.to_owned(), meta, numberings: p.numberings, functions, module, source })
}

/// Merges the profiles `inputs` (recorded from one module, or merged before) into `out`,
/// written atomically: nothing appears there unless the whole merge succeeds. Holds the
/// sums, one input's counts and one section at a time.
///
/// What is merged is checked as the reader checks it (`meta`, `module`, `counts`, `ppp`,
/// `merged-runs`; `source` must be the first input's). The sections a run keeps (its
/// whole program path, ...) are copied as they are, their checksums verified; they are
/// checked in full when the run is read ([`Profile::open_run`]), as any profile's are.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<Merged, Error> {
    let Some(first) = inputs.first() else { return Err(Error::NothingToMerge { path: out.to_owned() }) };
    let f = read_first(first)?;
    let mut w = Writer::create(out)?;
    let mut counts: Vec<PathCount> = Vec::new();
    let mut ppp: PppSoFar = None;
    let mut runs: Vec<RunRecord> = Vec::new();
    for path in inputs {
        let mut input = read_input(path, &f)?;
        // A merged input gives its runs, each from its own sections; any other is one run.
        let input_runs: Vec<(RunRecord, Option<String>)> = match input.runs.take() {
            Some(rs) => rs.into_iter().enumerate().map(|(i, r)| (r, Some(run_prefix(i)))).collect(),
            None => vec![(input.run.clone(), None)],
        };
        for (record, prefix) in input_runs {
            let to = run_prefix(runs.len());
            for e in &input.toc {
                let name = match &prefix {
                    None if COMMON.contains(&e.name.as_str()) => continue,
                    None => e.name.as_str(),
                    Some(prefix) => match e.name.strip_prefix(prefix.as_str()) {
                        Some(name) => name,
                        None => continue,
                    },
                };
                let bytes = read::read_section(&mut input.file, &input.path, &input.toc, &e.name)?;
                w.write_section(&format!("{to}{name}"), &bytes)?;
            }
            runs.push(record);
        }
        counts = add_counts(&counts, &input.counts).ok_or_else(|| overflow(path, "a path's count"))?;
        ppp = Some(add_ppp(&f, path, ppp, input.ppp)?);
    }
    let ppp = ppp.flatten();
    let mut meta = f.meta.clone();
    meta.mode = if ppp.is_some() { RecordMode::Ppp } else { RecordMode::Paths };
    meta.args = Vec::new();
    meta.ending = common_ending(&runs);
    meta.guest_nanos = runs.iter().fold(0u64, |a, r| a.saturating_add(r.guest_nanos));
    meta.events = runs.iter().fold(0u64, |a, r| a.saturating_add(r.events));
    w.write_value(META, &meta)?;
    w.write_value(COUNTS, &counts)?;
    w.write_value(MODULE, &f.module)?;
    if let Some(source) = &f.source {
        w.write_section(SOURCE, source)?;
    }
    if let Some(r) = &ppp {
        w.write_value(PPP, r)?;
    }
    w.write_value(MERGED_RUNS, &runs)?;
    w.finish()?;
    Ok(Merged { runs: runs.len(), paths: counts.len(), executions: counts.iter().map(|c| c.count).fold(0u64, u64::saturating_add) })
}

fn overflow(input: &Path, what: &str) -> Error {
    Error::Corrupt { path: input.to_owned(), what: format!("{what} overflows 64 bits when added to the profiles before it") }
}

/// Adds `next`, the record of input `input`, to the records so far.
fn add_ppp(f: &First, input: &Path, so_far: PppSoFar, next: Option<PppRecord>) -> Result<Option<PppRecord>, Error> {
    let mismatch = |what: &str| Error::Mismatch { first: f.path.clone(), other: input.to_owned(), what: what.to_owned() };
    match (so_far, next) {
        (None, next) => Ok(next),
        (Some(None), None) => Ok(None),
        (Some(Some(_)), None) => Err(mismatch("it was recorded without interesting paths (--mode ppp), the first with them")),
        (Some(None), Some(_)) => Err(mismatch("it was recorded with interesting paths (--mode ppp), the first without")),
        (Some(Some(mut a)), Some(b)) => {
            if a.functions != b.functions {
                return Err(mismatch("it was recorded with other interesting paths (another set file, or another selection)"));
            }
            a.hashed = add_counts(&a.hashed, &b.hashed).ok_or_else(|| overflow(input, "a count of the PPP hash table"))?;
            Ok(Some(a))
        }
    }
}

/// The ending a merged profile shows: the runs' common ending, or else the first that is
/// not a clean exit.
fn common_ending(runs: &[RunRecord]) -> Ending {
    let first = runs[0].ending.clone();
    if runs.iter().all(|r| r.ending == first) {
        return first;
    }
    runs.iter().map(|r| r.ending.clone()).find(|e| *e != Ending::Exited(0)).unwrap_or(first)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use wpp_model::{FuncIdx, PathId};

    use super::*;

    /// Sorted counts with no path twice, from (function, path, count) triples.
    fn counts() -> impl Strategy<Value = Vec<PathCount>> {
        proptest::collection::btree_map((0u32..4, 0u64..6), 1u64..1000, 0..12)
            .prop_map(|m| m.into_iter().map(|((f, p), count)| PathCount { func: FuncIdx(f), path: PathId(p), count }).collect())
    }

    /// The oracle: every path's count summed over the lists, path by path.
    fn summed(lists: &[&[PathCount]]) -> Vec<PathCount> {
        let mut m = std::collections::BTreeMap::new();
        for l in lists {
            for c in *l {
                *m.entry((c.func, c.path)).or_insert(0u64) += c.count;
            }
        }
        m.into_iter().map(|((func, path), count)| PathCount { func, path, count }).collect()
    }

    proptest! {
        #[test]
        fn adding_counts_is_summing_them_and_any_order_gives_the_same(a in counts(), b in counts(), c in counts()) {
            let ab = add_counts(&a, &b).unwrap();
            prop_assert_eq!(&ab, &summed(&[&a, &b]));
            prop_assert_eq!(&ab, &add_counts(&b, &a).unwrap());
            let left = add_counts(&ab, &c).unwrap();
            let right = add_counts(&a, &add_counts(&b, &c).unwrap()).unwrap();
            prop_assert_eq!(&left, &right);
            prop_assert_eq!(&left, &summed(&[&a, &b, &c]));
        }
    }

    /// The merge reads `meta` as the fields before the functions, the functions' bytes, and
    /// the fields after them: that must stay the layout of [`Meta`].
    #[test]
    fn meta_is_its_head_its_functions_and_its_tail() {
        let functions = vec![wpp_model::Function { index: FuncIdx(0), name: "f".into(), cfg: None }];
        let meta = Meta {
            module: "m.wasm".into(),
            module_bytes: 77,
            mode: RecordMode::Grammar(crate::Builder::Sequitur1),
            max_paths: 1 << 40,
            functions: functions.clone(),
            args: vec!["-x".into(), "y".into()],
            ending: Ending::Trapped("unreachable".into()),
            guest_nanos: 123_456_789,
            events: 42,
        };
        let mut bytes = postcard::to_stdvec(&(meta.module.clone(), meta.module_bytes, meta.mode, meta.max_paths)).unwrap();
        bytes.extend(postcard::to_stdvec(&functions).unwrap());
        bytes.extend(postcard::to_stdvec(&(meta.args.clone(), meta.ending.clone(), meta.guest_nanos, meta.events)).unwrap());
        assert_eq!(postcard::to_stdvec(&meta).unwrap(), bytes);
    }

    #[test]
    fn side_by_side_keeps_every_path_of_either() {
        let c = |f, p, count| PathCount { func: FuncIdx(f), path: PathId(p), count };
        let a = [c(0, 1, 5), c(1, 0, 2), c(2, 3, 1)];
        let b = [c(0, 0, 7), c(1, 0, 4), c(3, 0, 9)];
        let e = |f, p| PathEvent { func: FuncIdx(f), path: PathId(p) };
        assert_eq!(side_by_side(&a, &b), vec![(e(0, 0), 0, 7), (e(0, 1), 5, 0), (e(1, 0), 2, 4), (e(2, 3), 1, 0), (e(3, 0), 0, 9)]);
    }

    #[test]
    fn an_overflowing_count_is_refused() {
        let c = |count| vec![PathCount { func: FuncIdx(0), path: PathId(0), count }];
        assert_eq!(add_counts(&c(u64::MAX), &c(1)), None);
        assert_eq!(add_counts(&c(u64::MAX - 1), &c(1)), Some(c(u64::MAX)));
    }
}

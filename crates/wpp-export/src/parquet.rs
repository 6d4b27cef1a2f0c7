//! Tables as Parquet files (Apache Arrow's writer): `DIR/TABLE/KEY.parquet`, one file per
//! table and run (or module), each written atomically, with the schema's version in the
//! file's key-value metadata (`wpp.schema`, and `wpp.table`); a run's tables computed and
//! written ([`export_run`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringBuilder, UInt32Builder};
use arrow_array::{ArrayRef, BooleanArray, Float64Array, Int64Array, RecordBatch, StringArray, UInt32Array, UInt64Array};
use arrow_schema::{Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

use sha2::{Digest as _, Sha256};
use wpp_grammar::HotParams;
use wpp_profile::Profile;
use wpp_report::{Cost, Dag, MinCost, Top};

use crate::schema::SCHEMA_VERSION;
use crate::tables::{RunInfo, Table, Values};
use crate::Error;

fn array(v: &Values) -> ArrayRef {
    match v {
        Values::U32(v) => Arc::new(UInt32Array::from(v.clone())),
        Values::U64(v) => Arc::new(UInt64Array::from(v.clone())),
        Values::I64(v) => Arc::new(Int64Array::from(v.clone())),
        Values::F64(v) => Arc::new(Float64Array::from(v.clone())),
        Values::Bool(v) => Arc::new(BooleanArray::from(v.clone())),
        Values::Str(v) => Arc::new(v.iter().map(Option::as_deref).collect::<StringArray>()),
        Values::ListU32(v) => {
            let mut b = ListBuilder::new(UInt32Builder::new());
            for list in v {
                b.values().append_slice(list);
                b.append(true);
            }
            Arc::new(b.finish())
        }
        Values::ListStr(v) => {
            let mut b = ListBuilder::new(StringBuilder::new());
            for list in v {
                for s in list {
                    b.values().append_value(s);
                }
                b.append(true);
            }
            Arc::new(b.finish())
        }
    }
}

/// The table as one Arrow record batch.
pub fn record_batch(t: &Table) -> RecordBatch {
    let arrays: Vec<ArrayRef> = t.columns.iter().map(array).collect();
    let fields: Vec<Field> = t.spec.columns.iter().zip(&arrays).map(|(c, a)| Field::new(c.name, a.data_type().clone(), c.nullable)).collect();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).expect("columns of one length, typed by the schema")
}

/// Where table `t` of key `key` (a run's id or a module's hash) goes under `dir`.
pub fn file_of(dir: &Path, t: &Table, key: &str) -> PathBuf {
    dir.join(t.spec.name).join(format!("{key}.parquet"))
}

/// Writes `t` to `DIR/TABLE/KEY.parquet` (replacing it atomically); returns the path and
/// the file's size.
pub fn write(dir: &Path, t: &Table, key: &str) -> Result<(PathBuf, u64), Error> {
    let path = file_of(dir, t, key);
    let io = |p: &PathBuf| {
        let path = p.clone();
        move |source| Error::Write { path, source }
    };
    let pq = |p: &PathBuf| {
        let path = p.clone();
        move |e: parquet::errors::ParquetError| Error::Parquet { path, message: e.to_string() }
    };
    std::fs::create_dir_all(path.parent().expect("a table's directory")).map_err(io(&path))?;
    let batch = record_batch(t);
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_key_value_metadata(Some(vec![
            KeyValue::new("wpp.schema".to_owned(), SCHEMA_VERSION.to_string()),
            KeyValue::new("wpp.table".to_owned(), t.spec.name.to_owned()),
        ]))
        .build();
    let mut file = wpp_profile::AtomicFile::create(&path).map_err(io(&path))?;
    let mut w = ArrowWriter::try_new(&mut file, batch.schema(), Some(props)).map_err(pq(&path))?;
    w.write(&batch).map_err(pq(&path))?;
    w.close().map_err(pq(&path))?;
    file.commit().map_err(io(&path))?;
    let size = std::fs::metadata(&path).map_err(io(&path))?.len();
    Ok((path, size))
}

/// A file written: its table, rows, path and size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub table: &'static str,
    pub rows: usize,
    pub path: PathBuf,
    pub bytes: u64,
}

/// The id of the runs of the profile file at `path`: its file name (letters, digits, `.`,
/// `_`, `-`) and the first 12 hex digits of its SHA-256, so that exports of different
/// profiles into one directory never collide and the same profile's replace its own.
pub fn run_id(path: &Path) -> Result<String, Error> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io { path: path.to_owned(), source })?;
    let hash = Sha256::digest(&bytes);
    let stem: String = path
        .file_stem()
        .map(|s| s.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect())
        .unwrap_or_default();
    let hex: String = hash.iter().take(6).map(|b| format!("{b:02x}")).collect();
    Ok(format!("{stem}-{hex}"))
}

/// Writes the tables of the profile at `path` under `dir`: of its run `run`, or of every
/// run of a merged profile, or of its one run (opened once); each run with its
/// [`RunInfo`] (`label` in the `runs` table) and what was written.
pub fn export_profile(
    path: &Path,
    run: Option<usize>,
    dir: &Path,
    label: Option<&str>,
    want: &dyn Fn(&str) -> bool,
) -> Result<Vec<(RunInfo, Vec<Written>)>, Error> {
    let id = run_id(path)?;
    let mut whole = match run {
        Some(_) => None,
        None => Some(Profile::open(path)?),
    };
    let merged = whole.as_ref().map(Profile::merged_runs).transpose()?.flatten();
    let runs: Vec<Option<usize>> = match (run, merged) {
        (Some(n), _) => vec![Some(n)],
        (None, Some(runs)) => (1..=runs.len()).map(Some).collect(),
        (None, None) => vec![None],
    };
    let mut out = Vec::with_capacity(runs.len());
    for n in runs {
        let p = match n {
            Some(n) => Profile::open_run(path, n)?,
            None => whole.take().expect("a profile of one run is exported once"),
        };
        let info = RunInfo {
            id: n.map_or_else(|| id.clone(), |n| format!("{id}-r{n}")),
            label: label.map(str::to_owned),
            profile: path.display().to_string(),
            index: n.map(|n| n as u32),
        };
        let written = export_run(p, dir, &info, want)?;
        out.push((info, written));
    }
    Ok(out)
}

/// Writes run `p`'s tables under `dir`, those `want` names (`runs` always, and last): the
/// module's first, unless a file of that module is there already, then the run's. Hot
/// subpaths are `wpp hot`'s by default (instructions, at least 1% of the run, 1 to 32
/// paths long).
pub fn export_run(p: Profile, dir: &Path, run: &RunInfo, want: &dyn Fn(&str) -> bool) -> Result<Vec<Written>, Error> {
    p.require_program("export --parquet")?;
    let Some(module) = p.module_id()?.map(|m| m.sha256_hex()) else { return Err(Error::NoModuleHash { profile: p.path.clone() }) };
    let mut written = Vec::new();
    let mut put = |t: &Table, key: &str| -> Result<(), Error> {
        let (path, bytes) = write(dir, t, key)?;
        written.push(Written { table: t.spec.name, rows: t.rows(), path, bytes });
        Ok(())
    };
    for t in crate::tables::module_tables(&p, &module) {
        if want(t.spec.name) && !file_of(dir, &t, &module).exists() {
            put(&t, &module)?;
        }
    }
    // Edges read the whole program path too, so that their counts do not depend on the
    // tables asked for.
    let walk = if want("call_tree") || want("edges") { crate::walk(&p, crate::Timeline::Off)? } else { None };
    let (p, hot) = if p.has_grammar() && want("hot_subpaths") {
        let dag = Dag::of(p)?;
        let min_cost = MinCost::Percent(1.0).resolve(wpp_report::run_cost(&dag, Cost::Instructions));
        let params = HotParams { max_len: 32, min_len: 1, min_cost };
        let hot = wpp_report::hot_subpaths(&dag, Cost::Instructions, &params, Top::All);
        (dag.profile, Some(hot))
    } else {
        (p, None)
    };
    for t in crate::tables::run_tables(&p, &module, run, walk.as_ref(), hot.as_ref(), want) {
        put(&t, &run.id)?;
    }
    Ok(written)
}

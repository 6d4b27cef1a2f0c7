//! The calling context tree as a pprof profile (`profile.proto` of
//! github.com/google/pprof), gzipped: what `go tool pprof`, and the viewers that read its
//! format, open.
//!
//! Each call stack that executed paths of its own is a sample; its locations are the
//! stack's functions, innermost first, each at its entry block's first source line (or
//! with no line where DWARF gives none), and its values are the instructions and the path
//! executions with that stack innermost. A profile of path counts only has no calls: each
//! function is then a sample of a stack of one.

use std::io::Write as _;

use prost::Message;
use rustc_hash::FxHashMap;
use wpp_model::{BlockIdx, FuncIdx};
use wpp_profile::Profile;

use crate::walk::{path_costs, Walk};

/// The messages of `profile.proto` that wpp writes, with their field numbers.
pub mod proto {
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Profile {
        #[prost(message, repeated, tag = "1")]
        pub sample_type: Vec<ValueType>,
        #[prost(message, repeated, tag = "2")]
        pub sample: Vec<Sample>,
        #[prost(message, repeated, tag = "3")]
        pub mapping: Vec<Mapping>,
        #[prost(message, repeated, tag = "4")]
        pub location: Vec<Location>,
        #[prost(message, repeated, tag = "5")]
        pub function: Vec<Function>,
        #[prost(string, repeated, tag = "6")]
        pub string_table: Vec<String>,
        #[prost(int64, tag = "9")]
        pub time_nanos: i64,
        #[prost(int64, tag = "10")]
        pub duration_nanos: i64,
        #[prost(message, optional, tag = "11")]
        pub period_type: Option<ValueType>,
        #[prost(int64, tag = "12")]
        pub period: i64,
        #[prost(int64, repeated, tag = "13")]
        pub comment: Vec<i64>,
        #[prost(int64, tag = "14")]
        pub default_sample_type: i64,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct ValueType {
        #[prost(int64, tag = "1")]
        pub r#type: i64,
        #[prost(int64, tag = "2")]
        pub unit: i64,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Sample {
        #[prost(uint64, repeated, tag = "1")]
        pub location_id: Vec<u64>,
        #[prost(int64, repeated, tag = "2")]
        pub value: Vec<i64>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Mapping {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(uint64, tag = "2")]
        pub memory_start: u64,
        #[prost(uint64, tag = "3")]
        pub memory_limit: u64,
        #[prost(int64, tag = "5")]
        pub filename: i64,
        #[prost(bool, tag = "7")]
        pub has_functions: bool,
        #[prost(bool, tag = "8")]
        pub has_filenames: bool,
        #[prost(bool, tag = "9")]
        pub has_line_numbers: bool,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Location {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(uint64, tag = "2")]
        pub mapping_id: u64,
        #[prost(uint64, tag = "3")]
        pub address: u64,
        #[prost(message, repeated, tag = "4")]
        pub line: Vec<Line>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Line {
        #[prost(uint64, tag = "1")]
        pub function_id: u64,
        #[prost(int64, tag = "2")]
        pub line: i64,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Function {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(int64, tag = "2")]
        pub name: i64,
        #[prost(int64, tag = "3")]
        pub system_name: i64,
        #[prost(int64, tag = "4")]
        pub filename: i64,
        #[prost(int64, tag = "5")]
        pub start_line: i64,
    }
}

struct Strings {
    table: Vec<String>,
    index: FxHashMap<String, i64>,
}

impl Strings {
    fn get(&mut self, s: &str) -> i64 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.table.len() as i64;
        self.table.push(s.to_owned());
        self.index.insert(s.to_owned(), i);
        i
    }
}

/// The pprof profile of `p` (with the calls of `walk`, when it has a whole program path).
pub fn profile(p: &Profile, walk: Option<&Walk>) -> proto::Profile {
    let mut s = Strings { table: vec![String::new()], index: FxHashMap::default() };
    s.index.insert(String::new(), 0);
    let instructions = s.get("instructions");
    let sample_type = vec![proto::ValueType { r#type: instructions, unit: s.get("count") }, proto::ValueType { r#type: s.get("paths"), unit: s.get("count") }];
    // One function and one location per wasm function, made when first used.
    let mut location_of: FxHashMap<FuncIdx, u64> = FxHashMap::default();
    let mut functions = Vec::new();
    let mut locations = Vec::new();
    let mut loc = |f: FuncIdx, s: &mut Strings| -> u64 {
        *location_of.entry(f).or_insert_with(|| {
            let id = functions.len() as u64 + 1;
            let fun = p.meta.functions.get(f.idx());
            let start = fun.and_then(|x| x.cfg.as_ref()).and_then(|c| c.blocks.first());
            let lines = p.source.as_ref().and_then(|src| Some((src, src.block(f, BlockIdx(0))?)));
            let file = lines.and_then(|(src, r)| src.files.get(r.file as usize)).map_or(0, |name| s.get(name));
            let line = lines.map_or(0, |(_, r)| i64::from(r.first));
            let name = s.get(&p.meta.func_name(f));
            functions.push(proto::Function { id, name, system_name: name, filename: file, start_line: line });
            locations.push(proto::Location {
                id,
                mapping_id: 1,
                address: start.map_or(0, |b| u64::from(b.start)),
                line: vec![proto::Line { function_id: id, line }],
            });
            id
        })
    };
    let mut samples = Vec::new();
    match walk {
        Some(w) => {
            for (i, n) in w.tree.nodes.iter().enumerate().skip(1) {
                if n.paths == 0 {
                    continue;
                }
                let stack = w.tree.stack(wpp_twpp::stacks::StackIdx(i as u32));
                let location_id = stack.iter().rev().map(|&f| loc(f, &mut s)).collect();
                samples.push(proto::Sample { location_id, value: vec![n.own as i64, n.paths as i64] });
            }
        }
        None => {
            let costs = path_costs(p);
            let mut by_func: std::collections::BTreeMap<FuncIdx, (u64, u64)> = std::collections::BTreeMap::new();
            for c in p.counts.iter().filter(|c| c.count > 0) {
                let x = by_func.entry(c.func).or_default();
                let e = wpp_model::PathEvent { func: c.func, path: c.path };
                x.0 = x.0.saturating_add(costs[&e].saturating_mul(c.count));
                x.1 = x.1.saturating_add(c.count);
            }
            for (f, (instrs, paths)) in by_func {
                samples.push(proto::Sample { location_id: vec![loc(f, &mut s)], value: vec![instrs as i64, paths as i64] });
            }
        }
    }
    let has_lines = p.source.is_some();
    let mapping = vec![proto::Mapping {
        id: 1,
        memory_start: 0,
        memory_limit: p.meta.module_bytes,
        filename: s.get(&p.meta.module),
        has_functions: true,
        has_filenames: has_lines,
        has_line_numbers: has_lines,
    }];
    let comment = vec![s.get(&format!("wpp: {} {}", p.meta.module, p.meta.args.join(" ")))];
    proto::Profile {
        period_type: sample_type.first().cloned(),
        sample_type,
        sample: samples,
        mapping,
        location: locations,
        function: functions,
        string_table: s.table,
        time_nanos: 0,
        duration_nanos: p.meta.guest_nanos as i64,
        period: 1,
        comment,
        default_sample_type: instructions,
    }
}

/// `profile` encoded and gzipped, as pprof files are.
pub fn gzipped(profile: &proto::Profile) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&profile.encode_to_vec()).expect("writing to memory");
    gz.finish().expect("writing to memory")
}

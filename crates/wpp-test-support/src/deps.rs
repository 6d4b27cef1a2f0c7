//! The direct record of memory dependences, the oracle every recovery is compared with:
//! the run of a module rewritten by `wpp_wasm::instrument_access_log`, its every write
//! (stores, bulk writes, WASI host writes) kept in a shadow memory
//! (`wpp_model::deps::Shadow`), and for every load, the write instance that last wrote
//! each byte it read. Independent of any check the extended WPP adds.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use wpp_model::deps::{Shadow, WriteId, INITIAL};
use wpp_runtime::BlockSink;
use wpp_wasm::abi::ACCESS_WRITE;

/// What wrote a byte.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Writer {
    /// The instruction at this byte offset (a store or a bulk write).
    Instruction(u32),
    /// A call of the imported function of this name.
    Host(String),
    /// Nothing during the run: the module's initial memory.
    Initial,
}

/// How often a (writer, load) dependence was exercised, and whether always by the
/// writer's latest instance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exercised {
    /// (load instance, write instance) pairs: one for each distinct instance of the
    /// writer a load instance read bytes of.
    pub count: u64,
    /// Of those, the ones whose writing instance was not the writer's latest.
    pub earlier_instance: u64,
}

/// A [`BlockSink`] that records every memory dependence of the run.
#[derive(Default)]
pub struct DirectDeps {
    shadows: Vec<Shadow>,
    /// By write instance (index `id - 1`): the writer and its instance number (1-based).
    writes: Vec<(Writer, u64)>,
    /// Instances so far of each writer.
    instances: BTreeMap<Writer, u64>,
    /// The dependences exercised, by (writer, load offset).
    pub deps: BTreeMap<(Writer, u32), Exercised>,
    /// Load instances by load offset.
    pub loads: BTreeMap<u32, u64>,
    /// Calls of imports whose writes the host-write table does not know.
    pub unknown_calls: BTreeMap<String, u64>,
    /// Each execution of some loads, for chains ([`DirectDeps::logging`]).
    pub log: Option<ChainLog>,
}

/// Per execution, what some loads read and which executions of loads some writes'
/// operands came from: the direct record chains of dependences are counted over.
#[derive(Default)]
pub struct ChainLog {
    /// The loads logged (by offset).
    pub loads: BTreeSet<u32>,
    /// The writes logged (by offset), each with the loads whose values it wrote from
    /// (its uses, by offset).
    pub writes: BTreeMap<u32, Vec<u32>>,
    /// (load, its execution) -> (writer, its instance) for each write instance it read.
    pub reads: HashMap<(u32, u64), Vec<(Writer, u64)>>,
    /// (write, its instance) -> (use, the use's latest execution when the write ran).
    pub at_write: HashMap<(u32, u64), Vec<(u32, u64)>>,
}

impl ChainLog {
    /// Chain frequencies from every execution of load `u0`, `depth` writers deep: each
    /// chain a list of (load, writer) links, counted once per execution of `u0` it was
    /// followed from. Walks the log, independent of any recovery.
    pub fn chains(&self, u0: u32, executions: u64, depth: usize) -> BTreeMap<Vec<(u32, Writer)>, u64> {
        let mut counts = BTreeMap::new();
        for t in 1..=executions {
            let mut found = BTreeSet::new();
            self.follow(&mut Vec::new(), (u0, t), depth, &mut found);
            for chain in found {
                *counts.entry(chain).or_insert(0) += 1;
            }
        }
        counts
    }

    fn follow(&self, prefix: &mut Vec<(u32, Writer)>, (load, t): (u32, u64), depth: usize, found: &mut BTreeSet<Vec<(u32, Writer)>>) {
        for (w, k) in self.reads.get(&(load, t)).into_iter().flatten() {
            prefix.push((load, w.clone()));
            found.insert(prefix.clone());
            if let (Writer::Instruction(at), true) = (w, depth > 1) {
                for &u in self.at_write.get(&(*at, *k)).into_iter().flatten() {
                    self.follow(prefix, u, depth - 1, found);
                }
            }
            prefix.pop();
        }
    }
}

impl DirectDeps {
    /// A record that also logs each execution of `log.loads` and `log.writes`.
    pub fn logging(log: ChainLog) -> Self {
        DirectDeps { log: Some(log), ..Default::default() }
    }

    fn shadow(&mut self, memory: usize) -> &mut Shadow {
        if self.shadows.len() <= memory {
            self.shadows.resize_with(memory + 1, Shadow::default);
        }
        &mut self.shadows[memory]
    }

    fn write(&mut self, writer: Writer, memory: usize, ranges: &[(u64, u64)]) {
        let k = self.instances.entry(writer.clone()).or_insert(0);
        *k += 1;
        let instance = *k;
        if let (Some(log), Writer::Instruction(at)) = (&mut self.log, &writer) {
            if let Some(uses) = log.writes.get(at) {
                let at_write = uses.iter().map(|u| (*u, self.loads.get(u).copied().unwrap_or(0))).collect();
                log.at_write.insert((*at, instance), at_write);
            }
        }
        self.writes.push((writer, instance));
        let id = self.writes.len() as WriteId;
        for &(addr, len) in ranges {
            self.shadow(memory).write(addr, len, id);
        }
    }

    fn read(&mut self, at: u32, memory: usize, addr: u64, len: u64) {
        let n = self.loads.entry(at).or_insert(0);
        *n += 1;
        let execution = *n;
        let ids = self.shadow(memory).writers(addr, len);
        for id in ids {
            let (writer, earlier, instance) = match id {
                INITIAL => (Writer::Initial, false, 0),
                id => {
                    let (w, instance) = &self.writes[id as usize - 1];
                    (w.clone(), *instance != self.instances[w], *instance)
                }
            };
            if let Some(log) = self.log.as_mut().filter(|l| l.loads.contains(&at)) {
                log.reads.entry((at, execution)).or_default().push((writer.clone(), instance));
            }
            let e = self.deps.entry((writer, at)).or_default();
            e.count += 1;
            e.earlier_instance += earlier as u64;
        }
    }
}

impl BlockSink for DirectDeps {
    fn enter(&mut self, _: u32) {}
    fn block(&mut self, _: u32, _: u32) {}
    fn exit(&mut self, _: u32) {}
    fn leave(&mut self, _: u32) {}
    fn unwind(&mut self, _: u32) {}
    fn access(&mut self, at: u32, addr: u64, len: u64, kind: u32) {
        let memory = (kind >> 4) as usize;
        if kind & 15 == ACCESS_WRITE {
            self.write(Writer::Instruction(at), memory, &[(addr, len)]);
        } else {
            self.read(at, memory, addr, len);
        }
    }
    fn host_call(&mut self, name: &str, writes: Option<&[(u64, u64)]>, _: &[u8]) {
        match writes {
            Some(w) if !w.is_empty() => self.write(Writer::Host(name.to_string()), 0, w),
            Some(_) => {}
            None => *self.unknown_calls.entry(name.to_string()).or_insert(0) += 1,
        }
    }
}

/// The imported functions' names as the host knows them (the import's field name), in
/// index order.
pub fn import_names(wasm: &[u8]) -> Vec<String> {
    let mut names = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        if let Ok(wasmparser::Payload::ImportSection(r)) = payload {
            for i in r.into_imports().flatten() {
                if matches!(i.ty, wasmparser::TypeRef::Func(_)) {
                    names.push(i.name.to_string());
                }
            }
        }
    }
    names
}

/// Dependences named by access site (`wpp_model::exercised`) compared with the direct
/// log's, named by offset and import: an error describing the first differences.
///
/// Host writers are named by import in the log and by call site in the sites' naming;
/// whether an instance is the latest is compared for instructions only (the log counts
/// instances of an import's calls that wrote something, a `Tracker` every call).
pub fn compare_with_direct(
    exercised: &wpp_model::exercised::ExercisedDeps,
    sites: &[wpp_model::access_event::AccessSite],
    imports: &[String],
    direct: &DirectDeps,
) -> Result<(), String> {
    use wpp_model::access_event::SiteKind;
    let mut mine: BTreeMap<(Writer, u32), Exercised> = BTreeMap::new();
    for (&(w, load), e) in &exercised.deps {
        let writer = match w {
            wpp_model::exercised::Writer::Initial => Writer::Initial,
            wpp_model::exercised::Writer::Site(s) => match sites[s.idx()].kind {
                SiteKind::HostCall { import } => Writer::Host(imports[import.idx()].clone()),
                _ => Writer::Instruction(sites[s.idx()].at),
            },
        };
        let m = mine.entry((writer, sites[load.idx()].at)).or_default();
        m.count += e.count;
        m.earlier_instance += e.earlier_instance;
    }
    let mut theirs = direct.deps.clone();
    for ((w, _), e) in mine.iter_mut().chain(theirs.iter_mut()) {
        if matches!(w, Writer::Host(_)) {
            e.earlier_instance = 0;
        }
    }
    if mine != theirs {
        let diff: Vec<_> = mine.iter().filter(|(k, v)| theirs.get(k) != Some(v)).take(5).collect();
        let missing: Vec<_> = theirs.iter().filter(|(k, _)| !mine.contains_key(k)).take(5).collect();
        return Err(format!("dependences differ: ours {diff:?}; the log's missing from ours {missing:?}"));
    }
    let mut loads: BTreeMap<u32, u64> = BTreeMap::new();
    for (&site, &n) in &exercised.loads {
        *loads.entry(sites[site.idx()].at).or_default() += n;
    }
    if loads != direct.loads {
        return Err(format!("load executions differ: {} load sites against the log's {}", loads.len(), direct.loads.len()));
    }
    Ok(())
}

//! The counter policy and the added memory's layout: which function counts its paths in
//! a Ball-Larus array, in PPP slots or in the hash table, where the event buffer, the
//! counters and the hash table sit, and the initial content of the PPP slots. A pure
//! function of the numberings and the options.

use wpp_model::FuncIdx;
use wpp_model::FuncMap;
use wpp_paths::{PppNumbering, ProgramNumbering};

use super::{Mode, Options};
use crate::{abi, Error};

/// Where a function's path counters live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterKind {
    /// `n_paths` little-endian u64 counters from byte `base` of the added memory.
    Array { base: u32 },
    /// Entries of the shared hash table.
    Hash,
    /// Preferential path profiling: from byte `base`, `slots` (a power of two) slots of
    /// two little-endian u64s, the Ball-Larus number of the slot's path ([`NO_PATH`] in
    /// an empty slot) and its counter.
    Ppp { base: u32, slots: u64 },
}

/// Where things are in the memory the rewrite adds.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Event buffer capacity in bytes (trace mode), starting at byte 0.
    pub buffer_bytes: u32,
    /// Counters of each defined function (count mode), with its number of paths.
    pub counters: Vec<(FuncIdx, CounterKind, u64)>,
    /// Byte offset and number of entries of the hash table (count mode).
    pub hash_base: u32,
    pub hash_entries: u32,
    /// Size of the added memory in bytes.
    pub memory_bytes: u64,
    /// The extended WPP's collection run: where its counters and candidate tables are.
    pub ewpp: Option<super::ewpp::EwppLayout>,
}

/// The content of an empty PPP slot's Ball-Larus field: no path has this number.
pub const NO_PATH: u64 = u64::MAX;

/// Size of a WebAssembly page in bytes.
pub(super) const PAGE: u64 = 65536;

/// The layout with what the rewrite must add for it.
pub(super) struct Placement {
    pub layout: Layout,
    /// Whether some path is counted in the hash table (always with interesting paths:
    /// residual paths go there), so the module needs the hash function.
    pub needs_hash: bool,
    /// The initial content of each PPP slot array: its byte offset and bytes.
    pub slot_data: Vec<(u32, Vec<u8>)>,
}

/// Lays out the added memory for functions numbered `numberings` (by function index,
/// `None` for imports) with PPP numberings `ppp` (by function index, for functions with
/// interesting paths), in a module of `n_sites` access sites.
pub(super) fn place(numberings: &ProgramNumbering, ppp: &FuncMap<PppNumbering>, opts: &Options, n_sites: usize) -> Result<Placement, Error> {
    let mut layout = Layout::default();
    let mut memory = Memory { top: 0, budget: opts.array_budget_bytes };
    let mut needs_hash = false;
    let mut slot_data = Vec::new();
    match opts.mode {
        Mode::Trace => {
            layout.buffer_bytes = opts.buffer_bytes & !7;
            // Room for a two-word event written at the last position before a flush.
            memory.top = layout.buffer_bytes as u64 + 16;
            if let Some(plan) = &opts.ewpp {
                let (l, data, end) = super::ewpp::place(memory.top.next_multiple_of(8), n_sites, plan);
                layout.ewpp = Some(l);
                slot_data.extend(data);
                memory.top = end;
            }
        }
        Mode::Count => {
            for (func, num) in numberings.iter() {
                let n = num.n_paths();
                let kind = match opts.interesting {
                    Some(_) => ppp_counters(n, ppp.get(func), opts, &mut memory, &mut slot_data),
                    None => array_counters(n, opts, &mut memory),
                };
                // Under PPP the hash table counts residual paths, which any function has.
                needs_hash |= opts.interesting.is_some() || kind == CounterKind::Hash;
                layout.counters.push((func, kind, n));
            }
            if needs_hash {
                memory.top = memory.top.next_multiple_of(abi::HASH_ENTRY_BYTES as u64);
                layout.hash_base = memory.top as u32;
                layout.hash_entries = opts.hash_entries.next_power_of_two().max(16);
                memory.top += layout.hash_entries as u64 * abi::HASH_ENTRY_BYTES as u64;
            }
        }
    }
    let top = memory.top;
    if top > u32::MAX as u64 - PAGE {
        return Err(Error::Rewrite { place: "counter memory".into(), message: format!("{top} bytes do not fit a 32-bit memory") });
    }
    layout.memory_bytes = top.div_ceil(PAGE).max(1) * PAGE;
    Ok(Placement { layout, needs_hash, slot_data })
}

/// The added memory as it is handed out, front to back.
struct Memory {
    /// The first free byte.
    top: u64,
    /// Bytes still available for counter arrays and PPP slots.
    budget: u64,
}

impl Memory {
    /// `bytes` of counters at the top, if the budget still has them; their offset.
    fn counters(&mut self, bytes: u64) -> Option<u32> {
        (bytes <= self.budget).then(|| {
            self.budget -= bytes;
            let base = self.top as u32;
            self.top += bytes;
            base
        })
    }
}

/// Ball-Larus counting: an array for a function whose `n` paths fit `max_array_paths` and
/// the budget (in function order), the hash table otherwise or with `force_hash`.
fn array_counters(n: u64, opts: &Options, memory: &mut Memory) -> CounterKind {
    match (!opts.force_hash && n <= opts.max_array_paths).then(|| memory.counters(n.saturating_mul(8))).flatten() {
        Some(base) => CounterKind::Array { base },
        None => CounterKind::Hash,
    }
}

/// Preferential path profiling: a Ball-Larus array where one fits (unless
/// `ppp_everywhere`), slots for a function with interesting paths (numbered `ppp`) while
/// they fit the budget, the hash table for the rest. The slots cover the PPP ids up to
/// `ppp_slots_per_path` per interesting path, or `ppp_min_slots` if more, rounded up to a
/// power of two; `slot_data` receives their initial content.
fn ppp_counters(n: u64, ppp: Option<&PppNumbering>, opts: &Options, memory: &mut Memory, slot_data: &mut Vec<(u32, Vec<u8>)>) -> CounterKind {
    if let Some(base) = (!opts.ppp_everywhere && n <= opts.max_array_paths).then(|| memory.counters(n * 8)).flatten() {
        return CounterKind::Array { base };
    }
    let Some(p) = ppp else { return CounterKind::Hash };
    let (_, max) = p.id_range().expect("numbered sets are not empty");
    let cap = (p.ids().len() as u64).saturating_mul(opts.ppp_slots_per_path).max(opts.ppp_min_slots);
    let slots = u64::try_from(max + 1).unwrap_or(u64::MAX).min(cap).next_power_of_two();
    match memory.counters(slots.saturating_mul(16)) {
        Some(base) => {
            slot_data.push((base, ppp_slot_data(p, slots)));
            CounterKind::Ppp { base, slots }
        }
        None => CounterKind::Hash,
    }
}

/// The initial content of a PPP slot array: each interesting path's Ball-Larus number in
/// the slot of its PPP id (ids past the array are left out), [`NO_PATH`] in the others;
/// counters 0.
fn ppp_slot_data(p: &PppNumbering, slots: u64) -> Vec<u8> {
    let mut words = vec![0u64; 2 * slots as usize];
    for slot in words.chunks_exact_mut(2) {
        slot[0] = NO_PATH;
    }
    for &(path, id) in p.ids() {
        if let Some(slot) = usize::try_from(id).ok().filter(|&i| i < slots as usize) {
            words[2 * slot] = path.0;
        }
    }
    words.iter().flat_map(|v| v.to_le_bytes()).collect()
}

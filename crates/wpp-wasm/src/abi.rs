//! The contract between an instrumented module and the host that runs it.
//!
//! The rewrite adds one import and a few exports; their names are fixed here.

/// Module name of the import the rewrite adds.
pub const IMPORT_MODULE: &str = "wpp";
/// `flush(kind: i32, bytes: i32)`: the guest's event buffer or hash table is full.
/// The host drains it; for [`FLUSH_EVENTS`] the guest then restarts the buffer at 0,
/// for [`FLUSH_HASH`] the host zeroes the table and the guest resets its fill count.
pub const IMPORT_FLUSH: &str = "flush";
/// `kind` of a flush of the event buffer; `bytes` is how many bytes it holds.
pub const FLUSH_EVENTS: i32 = 0;
/// `kind` of a flush of the hash table of path counters.
pub const FLUSH_HASH: i32 = 1;

/// `host_call(site: i32, a0: i64, ..., a8: i64, result: i64, bytes: i32)`, added when
/// memory accesses are recorded: the call of an imported function at access site `site`
/// (a `HostCall` site, which names the import) was just made with these arguments
/// (zero-extended, absent ones 0) and returned `result`. The host drains the event
/// buffer's `bytes` (the guest then restarts it at 0) and appends the call's event (how
/// many ranges of guest memory it wrote) and an event for each range.
pub const IMPORT_HOST_CALL: &str = "host_call";

/// The memory the rewrite adds (buffer, counters, hash table).
pub const EXPORT_MEMORY: &str = "__wpp_memory";
/// The extended WPP's shadow memory (64-bit): the write instance that last wrote each byte
/// of memory 0, eight bytes per byte.
pub const EXPORT_SHADOW: &str = "__wpp_shadow";
/// Count mode's stop word (a one-page memory of its own): 0 while the guest may run. The
/// address of every counter the guest updates is offset by it, so that the host stops a
/// count-mode guest, from any thread, by writing [`STOP_POISON`] there: the next counter
/// update is out of bounds and traps. It costs a load and an add per path, where checks
/// of an interrupt flag at every function entry and loop header cost 15–30%.
pub const EXPORT_STOP: &str = "__wpp_stop";
/// What the host writes to the stop word: every counter address plus it is past the end
/// of the added memory (which is smaller than 2 GiB).
pub const STOP_POISON: u32 = 0x8000_0000;
/// Mutable i32 global: bytes used in the event buffer.
pub const EXPORT_EVENT_PTR: &str = "__wpp_event_ptr";
/// Mutable i32 global: entries used in the hash table.
pub const EXPORT_HASH_USED: &str = "__wpp_hash_used";

/// Module name of the oracle's block-log imports: `enter(func)`, `block(func, block)`,
/// `exit(func)`, `leave(func)`, all `i32` parameters.
pub const ORACLE_MODULE: &str = "wpp_oracle";

/// The access log's import in [`ORACLE_MODULE`]: `access(at: i32, address: i64, length:
/// i64, kind: i32)`, called before an instruction reads or writes linear memory.
pub const ORACLE_ACCESS: &str = "access";

/// The oracle rewrite's import in [`ORACLE_MODULE`] that an exception is leaving a frame:
/// `unwind(func: i32)`.
pub const ORACLE_UNWIND: &str = "unwind";
/// The access log's imports around a call of an imported function: `host_begin(import:
/// i32)` before it, `host_end(import: i32, a0: i64, ..., a8: i64, result: i64)` after it
/// (the arguments and the result zero-extended, absent ones 0).
pub const ORACLE_HOST_BEGIN: &str = "host_begin";
pub const ORACLE_HOST_END: &str = "host_end";
/// An access's kind (low four bits; the memory index is `kind >> 4`): a read.
pub const ACCESS_READ: u32 = 0;
/// A write.
pub const ACCESS_WRITE: u32 = 1;

/// Size in bytes of one hash table entry: path (u64), function + 1 (u64, 0 = empty),
/// count (u64), padding.
pub const HASH_ENTRY_BYTES: u32 = 32;

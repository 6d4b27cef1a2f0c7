//! Reading format version 2, running the shared [`Model`] and [`Members`] as the writer did.
//!
//! The reader runs the control stream ahead of the class stream: the control pass decodes
//! the structure and the class of each reference into a batch of events, and the class pass
//! then finds each reference in its class. A class pass's random accesses into large member
//! lists do not hold up the control pass, and each batch's accesses overlap. Decoding is a
//! table look-up and a few list operations per symbol, with no division.
//!
//! The two passes share nothing but the batches, so on a large grammar they run at once:
//! the class pass on a thread of its own, a few batches behind. Every rule's length is
//! known when its definition begins, so the bodies are laid out flat from the start and
//! each event names the slot it fills. Errors come out as they would one pass after the
//! other: a batch's error before whatever the control pass met after handing it over.

use rustc_hash::FxHashSet;

use super::model::{alphabet, len_table, Members, Model, ESC, NEW, NEW_TERMINAL, N_TABLES, RULE_BIT};
use crate::codec::format::{bits_for, check_explicit_numbering, get_varint, renumber, renumber_canonical, GrammarDecodeError, Header, Numbering, Result, NONE};
use crate::codec::rans::{RansDecoder, Table};
use crate::{Grammar, RuleId, Rules, Sym, Terminal};

/// Events the control pass leaves for the class pass at most, before the class pass runs:
/// one after the other, few enough to stay in the cache; on two threads, enough that
/// handing a batch over costs little beside decoding it.
const BATCH: usize = 1 << 12;
const THREAD_BATCH: usize = 1 << 16;

/// What the control pass leaves for the class pass, in stream order.
#[derive(Clone, Copy)]
enum Event {
    /// The symbol at `slot` (of all rules' bodies, in definition order) is a reference to a
    /// symbol of class `class`.
    Ref { slot: u32, class: u32 },
    /// The symbol at `slot` is a reference to rule `child`, defined there.
    Child { slot: u32, child: u32 },
    /// Rule `rule` has ended and joins class `class`.
    End { rule: u32, class: u32 },
}

/// What the control pass hands the class pass at once.
#[derive(Default)]
struct Batch {
    events: Vec<Event>,
    /// Classes created since the last batch: new terminals' classes hold the terminal.
    new_classes: Vec<Option<u32>>,
    /// The values of the local terminals introduced since the last batch.
    values: Vec<u32>,
}

/// The control pass: the control stream, its tables, and the model but the members.
struct ControlPass<'a, 't> {
    rans: RansDecoder<'a>,
    tables: &'t [Table],
    n_terminals: u32,
    model: Model,
    /// The values seen.
    seen: FxHashSet<u32>,
    /// What the class pass has not been handed yet.
    batch: Batch,
}

/// The class pass: the class stream, the members of each class (as the symbols they
/// decode to, rules by definition index), and the bodies it fills in.
struct ClassPass<'a> {
    rans: RansDecoder<'a>,
    members: Members,
    /// The value of each local terminal.
    values: Vec<u32>,
    /// Every body, in definition order.
    syms: Vec<Sym>,
}

/// Grammars of at least this many symbols are decoded with the class pass on a thread of
/// its own, beside the control pass.
const THREAD_SYMBOLS: usize = 1 << 16;

/// Decodes the offset of a rank in a list of `n` entries after its bucket symbol `b`.
#[inline(always)]
fn rank(rans: &mut RansDecoder, b: usize, n: usize) -> Result<usize> {
    let base = (1usize << b) >> 1;
    if base >= n {
        return Err(GrammarDecodeError::Corrupt("a rank beyond the end of its list"));
    }
    if b < 2 {
        return Ok(base);
    }
    Ok(base + rans.below(base.min(n - base) as u64)? as usize)
}

impl ControlPass<'_, '_> {
    fn length(&mut self, depth: usize) -> Result<usize> {
        let b = self.rans.symbol(&self.tables[len_table(depth)])?;
        if b < 2 {
            return Ok(b);
        }
        Ok((1 << (b - 1)) + self.rans.raw(b as u32 - 1)? as usize)
    }

    /// Decodes a step at position `pos` in context `c`: `None` for a new rule, or the class
    /// of a reference.
    #[inline(always)]
    fn step(&mut self, pos: usize, c: usize) -> Result<Option<u32>> {
        let n = self.model.pairs(c).len();
        let b = self.rans.symbol(&self.tables[self.model.step_table(pos, c)])?;
        Ok(Some(match b {
            NEW => return Ok(None),
            ESC => {
                self.model.escape_pairs(c);
                let k = self.escaped_class(c)?;
                self.model.add_pair(c, k);
                k
            }
            b => {
                let r = rank(&mut self.rans, b, n)?;
                self.model.use_pair(c, r).0
            }
        }))
    }

    /// Decodes the class of a reference after an escape from `pairs[c]`.
    fn escaped_class(&mut self, c: usize) -> Result<u32> {
        let f = self.first(c)?;
        let r = match self.model.last_table(f) {
            Some(table) => {
                let b = self.rans.symbol(&self.tables[table])?;
                rank(&mut self.rans, b, self.model.n_lasts(f))?
            }
            None => 0,
        };
        Ok(self.model.use_last(f, r).0)
    }

    /// Decodes a first terminal in context `c`.
    fn first(&mut self, c: usize) -> Result<u32> {
        if let Some(table) = self.model.first_table(c) {
            let b = self.rans.symbol(&self.tables[table])?;
            if b != ESC {
                let r = rank(&mut self.rans, b, self.model.firsts(c).len())?;
                return Ok(self.model.use_first(c, r).0);
            }
        }
        self.model.escape_firsts(c);
        let b = match self.model.global_table() {
            Some(table) => self.rans.symbol(&self.tables[table])?,
            None => ESC,
        };
        let f = if b != ESC {
            let r = rank(&mut self.rans, b, self.model.n_global())?;
            self.model.use_global(r).0
        } else {
            self.new_terminal()?
        };
        self.model.add_first(c, f);
        Ok(f)
    }

    fn new_terminal(&mut self) -> Result<u32> {
        let value = match self.rans.symbol(&self.tables[NEW_TERMINAL])? {
            0 => self.model.next_terminal(),
            _ => self.rans.raw(bits_for(self.n_terminals.saturating_sub(1) as u64))? as u64,
        };
        if value >= self.n_terminals as u64 {
            return Err(GrammarDecodeError::Corrupt("terminal out of range"));
        }
        let value = value as u32;
        if !self.seen.insert(value) {
            return Err(GrammarDecodeError::Corrupt("a terminal is introduced twice"));
        }
        self.batch.values.push(value);
        let (t, _) = self.model.add_terminal(value);
        self.batch.new_classes.push(Some(t));
        Ok(t)
    }

    /// The class of a rule whose expansion begins with `f` and ends with `l`.
    fn class_of(&mut self, f: u32, l: u32) -> u32 {
        let (k, new) = self.model.class_for(f, l);
        if new {
            self.batch.new_classes.push(None);
        }
        k
    }
}

impl ClassPass<'_> {
    /// Runs the class pass over a batch, filling in the symbols its events are for.
    fn run(&mut self, tables: &[Table], batch: &Batch) -> Result<()> {
        for &first in &batch.new_classes {
            self.members.add_class(first);
        }
        self.values.extend_from_slice(&batch.values);
        let (values, syms) = (&self.values, &mut self.syms);
        for &e in &batch.events {
            match e {
                Event::Ref { slot, class } => {
                    let n = self.members.len(class as usize);
                    let r = match Members::table(n) {
                        Some(table) => {
                            let b = self.rans.symbol(&tables[table])?;
                            rank(&mut self.rans, b, n)?
                        }
                        None => 0,
                    };
                    let (e, _) = self.members.use_member(class as usize, r);
                    syms[slot as usize] = if e & RULE_BIT != 0 { Sym::N(RuleId(e & !RULE_BIT)) } else { Sym::T(Terminal(values[e as usize])) };
                }
                Event::Child { slot, child } => syms[slot as usize] = Sym::N(RuleId(child)),
                Event::End { rule, class } => self.members.push(class as usize, rule | RULE_BIT),
            }
        }
        Ok(())
    }
}

/// Decodes the coded grammar after `header` (see [`super`]).
pub(crate) fn decode(bytes: &[u8], header: &Header) -> Result<Grammar> {
    if header.n_symbols >= 1 << 31 {
        return Err(GrammarDecodeError::Corrupt("2^31 symbols or more"));
    }
    let mut pos = header.body;
    let control_len = get_length(bytes, &mut pos)?;
    let (control_bytes, class) = bytes[pos..].split_at(control_len);
    let mut control = RansDecoder::new(control_bytes)?;
    let k = ClassPass {
        rans: RansDecoder::new(class)?,
        members: Members::default(),
        values: Vec::new(),
        // At most 16 symbols per input byte: checked with the header.
        syms: vec![Sym::T(Terminal(0)); header.n_symbols],
    };
    let tables = match (0..N_TABLES).map(|t| control.table(alphabet(t))).collect::<Result<Vec<Table>>>() {
        Ok(tables) => tables,
        Err(_) if control.overran() => return Err(GrammarDecodeError::Truncated),
        Err(e) => return Err(e),
    };
    let mut c = ControlPass {
        rans: control,
        tables: &tables,
        n_terminals: header.n_terminals,
        model: Model::new(),
        seen: FxHashSet::default(),
        batch: Batch::default(),
    };
    let threaded = header.n_symbols >= THREAD_SYMBOLS && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    let (read, mut k) = if threaded {
        // The class pass follows the control pass a few batches behind, on another core.
        std::thread::scope(|s| {
            let (tx, rx) = std::sync::mpsc::sync_channel::<Batch>(4);
            let tables = &tables;
            let worker = s.spawn(move || {
                let mut k = k;
                let mut result = Ok(());
                for batch in rx {
                    result = k.run(tables, &batch);
                    if result.is_err() {
                        break;
                    }
                }
                (result, k)
            });
            let read =
                read_rules(&mut c, header, THREAD_BATCH, &mut |batch| tx.send(batch).map_err(|_| GrammarDecodeError::Corrupt("the class stream ends early")));
            drop(tx);
            let (class_result, k) = worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            // A batch's error comes before what the control pass met after handing it over.
            (class_result.and(read), k)
        })
    } else {
        let mut k = k;
        let read = read_rules(&mut c, header, BATCH, &mut |batch| k.run(&tables, &batch));
        (read, k)
    };
    let (start, num) = match read {
        Ok(decoded) => decoded,
        // Whatever went wrong, reading past the end of a stream says why.
        Err(_) if c.rans.overran() || k.rans.overran() => return Err(GrammarDecodeError::Truncated),
        Err(e) => return Err(e),
    };
    let rules = Rules::from_parts(std::mem::take(&mut k.syms), start).ok_or(GrammarDecodeError::Corrupt("fewer symbols than declared"))?;
    if c.rans.finish()? != control_bytes.len() {
        return Err(GrammarDecodeError::Corrupt("the control stream ends before its length"));
    }
    let end = k.rans.finish()?;
    if class[end..].iter().any(|&b| b != 0) {
        return Err(GrammarDecodeError::Corrupt("bytes after the grammar"));
    }
    Ok(match num {
        None => renumber_canonical(&rules),
        Some(num) => renumber(&rules, &num),
    })
}

/// Reads the length of the control stream, which must fit in the input.
fn get_length(bytes: &[u8], pos: &mut usize) -> Result<usize> {
    let len = get_varint(bytes, pos)?;
    if len > (bytes.len() - *pos) as u64 {
        return Err(GrammarDecodeError::Truncated);
    }
    Ok(len as usize)
}

/// Where each rule's body starts (in definition order) and the end of the last, and the
/// explicit numbering if there is one.
type RulesRead = (Vec<u32>, Option<Vec<u32>>);

/// The rules decoded so far, in definition order, and those being written.
struct Decoded {
    /// Where each body starts, and the end of the last.
    start: Vec<u32>,
    /// The local numbers of the first and last terminals of each rule's expansion.
    first: Vec<u32>,
    last: Vec<u32>,
    /// The rules being written, innermost last, with their lengths and the symbols each
    /// has left.
    stack: Vec<(usize, usize, usize)>,
    /// Symbols the lengths so far declare.
    symbols: usize,
}

impl Decoded {
    /// Rules begun.
    fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// Starts the definition of the next rule; returns its definition index.
    fn begin(&mut self, c: &mut ControlPass, header: &Header) -> Result<u32> {
        if self.len() == header.n_rules {
            return Err(GrammarDecodeError::Corrupt("more rules than declared"));
        }
        let x = self.len();
        let len = c.length(self.stack.len())? + (x != 0) as usize;
        if len > header.n_symbols - self.symbols {
            return Err(GrammarDecodeError::Corrupt("more symbols than declared"));
        }
        self.symbols += len;
        // Below 2^31: checked before decoding.
        self.start.push(self.symbols as u32);
        self.first.push(NONE);
        self.last.push(NONE);
        self.stack.push((x, len, len));
        Ok(x as u32)
    }
}

/// Reads the structure of the rules (in definition order, referring to each other by
/// definition index) and the numbering, if explicit, handing each batch of references to
/// `class_pass`.
fn read_rules(c: &mut ControlPass, header: &Header, batch: usize, class_pass: &mut dyn FnMut(Batch) -> Result<()>) -> Result<RulesRead> {
    let n_rules = header.n_rules;
    let mut d = Decoded {
        start: Vec::with_capacity(n_rules + 1),
        first: Vec::with_capacity(n_rules),
        last: Vec::with_capacity(n_rules),
        stack: Vec::new(),
        symbols: 0,
    };
    d.start.push(0);
    let mut ctx = 0usize;
    while d.len() < n_rules {
        d.begin(c, header)?;
        while let Some(&mut (r, len, ref mut left)) = d.stack.last_mut() {
            if *left == 0 {
                d.stack.pop();
                let (f, l) = (d.first[r], d.last[r]);
                if r != 0 {
                    let class = c.class_of(f, l);
                    c.batch.events.push(Event::End { rule: r as u32, class });
                }
                if let Some(&(parent, _, _)) = d.stack.last() {
                    if d.first[parent] == NONE {
                        d.first[parent] = f;
                    }
                    d.last[parent] = l;
                }
            } else {
                let pos = len - *left;
                *left -= 1;
                let slot = d.start[r] + pos as u32;
                match c.step(pos, ctx)? {
                    None => {
                        let child = d.begin(c, header)?;
                        c.batch.events.push(Event::Child { slot, child });
                    }
                    Some(class) => {
                        let (f, l) = c.model.class_ends(class);
                        c.batch.events.push(Event::Ref { slot, class });
                        if d.first[r] == NONE {
                            d.first[r] = f;
                        }
                        d.last[r] = l;
                        ctx = l as usize + 1;
                    }
                }
            }
            if c.batch.events.len() >= batch {
                class_pass(std::mem::take(&mut c.batch))?;
            }
        }
    }
    class_pass(std::mem::take(&mut c.batch))?;
    if d.symbols != header.n_symbols {
        return Err(GrammarDecodeError::Corrupt("fewer symbols than declared"));
    }
    let num = match header.numbering {
        Numbering::Canonical => None,
        Numbering::Explicit => {
            let width = bits_for(n_rules as u64 - 1);
            let num = (0..n_rules).map(|_| c.rans.raw(width)).collect::<Result<Vec<u32>>>()?;
            check_explicit_numbering(&num)?;
            Some(num)
        }
    };
    Ok((d.start, num))
}

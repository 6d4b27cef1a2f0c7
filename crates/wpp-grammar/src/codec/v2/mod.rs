//! Format version 2: rank lists that move used entries forward, coded by rANS with static
//! tables ([`super::rans`]) in two streams.
//!
//! The model is close to that of version 1 ([`super::v1`]) but cheap to decode.
//! Rules are written in definition order (see [`super::format`]), each with its length
//! first. Symbols fall into *classes* by the first and last terminals of their expansion. A
//! reference is coded as its class, found in a list of the classes that followed the
//! terminal before it (a path is followed by few distinct paths), and then as one of the
//! symbols of that class. A list keeps its entries newest first and moves an entry halfway
//! to the front when it is used, so recently defined and often used entries have small
//! ranks; a rank is coded as its number of binary digits, a symbol of a frequency table
//! chosen by a small context, and then its remaining digits raw. The encoder runs the model
//! once, counting the symbols of each table and keeping what it codes; the tables go first,
//! then what was kept, coded with them.
//!
//! Decoding is a table look-up and a few list operations per symbol, with no division and
//! no adaptive probability. The choice within a class goes to a stream of its own: the next
//! step depends only on the class (its last terminal is the next context), so a decoder
//! runs the control stream ahead and finds the symbols in their classes, random accesses
//! into large lists, apart.
//!
//! The model is written once ([`model`]) and run by both sides: [`write`] codes what it
//! finds, [`read`] decodes what was coded, each making the same calls on the model in the
//! same order.
//!
//! # Format, version 2
//!
//! The header and numbering are those of [`super::format`], with `n_symbols < 2^31`. The
//! coded grammar is
//!
//! ```text
//! varint  the length of the control stream in bytes
//! ...     the control stream
//! ...     the class stream
//! ```
//!
//! each a sequence of rANS items ([`super::rans`]). The control stream must end exactly at
//! its length; only zero bytes (the padding) may follow the class stream. The control
//! stream holds, in this order:
//!
//! 1. the 141 frequency tables, each as its codes (see [`super::rans`]), in the order
//!    `LEN[0..4]`, `STEP[0..64]`, `FIRST[0..32]`, `GLOBAL[0..8]`, `NEW_TERMINAL`,
//!    `LAST[0..8]`, `MEMBER[0..24]`; a table longer than its alphabet is an error;
//! 2. the rules, as below, less what goes to the class stream;
//! 3. with an explicit numbering, each rule's number as a raw `w`-bit number.
//!
//! The class stream holds the rank of each reference in its class (see "The rules").
//! `bits(v)` is the number of binary digits of `v` (0 for 0).
//!
//! ## Lists and ranks
//!
//! A *list* holds entries newest first; the entry at *rank* `r` is the `r`-th newest
//! (rank 0 the newest). Adding an entry makes it rank 0. *Using* the entry at rank `r`
//! swaps it with the entry at rank `r div 2`.
//!
//! A *bucketed number* `v` is coded as the symbol `b = bits(v)` of a table and, when
//! `b ≥ 2`, the offset `v - 2^(b-1)`. A rank `r` in a list of `n` entries is a bucketed
//! number whose offset is coded as a number below `min(2^(b-1), n - 2^(b-1))`; a symbol
//! `b ≥ 1` with `2^(b-1) ≥ n` is an error. A *length* is a bucketed number whose offset is a
//! raw `(b - 1)`-bit number. Bucket symbols are `0..=32`; some tables have more symbols
//! after them, `ESC = 33` and `NEW = 34`.
//!
//! ## Model
//!
//! Terminals get *local numbers* 0, 1, 2, ... in the order the stream first mentions them.
//! *Classes* get numbers 0, 1, 2, ... as they are created; class `(f, l)` holds the symbols
//! whose expansion begins with local terminal `f` and ends with `l`. The model keeps:
//!
//! * for each context `c`: `pairs[c]`, a list of classes, and `firsts[c]`, a list of local
//!   terminals, each with a state (initially 0); context 0 is "no terminal yet", context
//!   `t + 1` is "the last terminal written so far (in the expansion of the rules in the
//!   order they are written) has local number `t`";
//! * `global`, a list of all local terminals;
//! * `lasts[f]`, for each local terminal `f`, a list of the classes `(f, l)`: first
//!   `(f, f)`, then each other class `(f, l)` when it is created;
//! * `members[k]`, for each class `k`, a list of its symbols: for a class `(t, t)` first the
//!   terminal `t`; then each rule of the class when its definition ends;
//! * `next` = 0, the terminal value expected next among those not yet seen.
//!
//! A new terminal gets the next local number `t` and creates the class `(t, t)`; a rule
//! whose definition ends joins class `(f, l)` of its expansion, which is created (and added
//! to `lasts[f]`) if it does not exist yet.
//!
//! ## The rules
//!
//! A rule is written as its length and then its body, one *step* per symbol. The length is
//! coded in table `LEN[min(d, 3)]`, `d` the number of rules being written that contain this
//! one, as the length minus 1, or for rule 0 as the length itself (only rule 0 can be
//! empty). The total of the lengths must not exceed `n_symbols`.
//!
//! A step at position `pos` of a body, with `c` the context of the last terminal written so
//! far and `n` the length of `pairs[c]`, codes a symbol of table
//! `STEP[32 × min(pos, 1) + 4 × min(bits(n), 7) + state of pairs[c]]`: `NEW`, a rank in
//! `pairs[c]`, or `ESC`.
//!
//! * `NEW`: the body gets a reference to a new rule, which is written now.
//! * Otherwise the body gets a *reference* to a symbol (a terminal or a rule whose
//!   definition has ended); its class `k = (f, l)` is:
//!   * on a rank `r`, that entry of `pairs[c]`, which is used; the state of `pairs[c]`
//!     becomes `min(r, 2)`;
//!   * on `ESC`, the state of `pairs[c]` becomes 3; `f` is coded in context `c` (below);
//!     then, if `lasts[f]` has `m ≥ 2` entries, the rank of `k` in it in table
//!     `LAST[min(bits(m - 1), 8) - 1]` (with one entry, nothing is coded); that entry is
//!     used; `k` is added to `pairs[c]`.
//!
//!   Then the rank of the symbol in `members[k]`, if the list has `m ≥ 2` entries, goes to
//!   the class stream in table `MEMBER[min(bits(m - 1), 24) - 1]` (with one entry, nothing
//!   is coded); that entry is used. The last terminal written is now `l`.
//!
//! A terminal `f` is coded in context `c` as follows. With `n` the length of `firsts[c]`:
//! if `n ≥ 1`, its rank in `firsts[c]` or `ESC` in table
//! `FIRST[4 × (min(bits(n), 8) - 1) + state of firsts[c]]`; on a rank `r`, `f` is that entry,
//! which is used, and the state becomes `min(r, 2)`. Otherwise (`ESC`, or `n = 0`), the
//! state becomes 3, and, with `g` the length of `global`: if `g ≥ 1`, its rank in `global`
//! or `ESC` in table `GLOBAL[min(bits(g), 8) - 1]`; on a rank, `f` is that entry, which is
//! used. On `ESC`, or if `g = 0`, `f` is new: symbol 0 of table `NEW_TERMINAL` if its value
//! is `next`, else symbol 1 and its value as a raw `bits(n_terminals - 1)`-bit number. A new
//! terminal must be below `n_terminals` and not seen before; `next` becomes its value + 1;
//! it is added to `global`, and `pairs[t + 1]` and `firsts[t + 1]` start empty. After `ESC`
//! (or `n = 0`), `f` is added to `firsts[c]`.

mod model;
mod read;
mod write;

pub(super) use read::decode;
pub(super) use write::encode;

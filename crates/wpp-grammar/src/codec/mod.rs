//! The binary encoding of a grammar, and a decoder that accepts any byte string without
//! panicking.
//!
//! [`encode_grammar`] writes a [`Grammar`] and the number of terminals it is over, in format
//! version [`GRAMMAR_FORMAT_VERSION`]; [`decode_grammar`] reads every version this crate
//! has written and gives the same grammar back (same rules, same numbering) or a
//! [`GrammarDecodeError`]. Every grammar it returns is valid: rule references are in range
//! and never reach rule 0, no rule reaches itself, every rule but the start rule is
//! non-empty, and every terminal is below the declared number of terminals. Its size is
//! bounded by the input: at most [`MAX_SYMBOLS_PER_BYTE`] symbols per input byte, and the
//! decoder's time and memory are linear in the input's length whatever the input declares.
//!
//! Version 1 ([`v1`]) is an adaptive binary range coder, compact but slow to decode;
//! version 2 ([`v2`]), the one written, is a rANS coder with static tables ([`rans`]) that
//! decodes tens of millions of symbols a second. Both write the header and the rules as
//! [`format`] describes.

pub(crate) mod format;
mod rans;
mod v1;
mod v2;

use crate::Grammar;
use format::{GrammarDecodeError, Header, GRAMMAR_FORMAT_VERSION};

/// Encodes `g`, a grammar over terminals `0..n_terminals`, in format version
/// [`GRAMMAR_FORMAT_VERSION`].
///
/// # Panics
///
/// If `g` is not valid: a rule other than rule 0 is empty, a reference is out of range or
/// reaches the rule it is in (rule 0 included), or a terminal is not below `n_terminals`.
pub fn encode_grammar(g: &Grammar, n_terminals: u32) -> Vec<u8> {
    v2::encode(g, n_terminals)
}

/// Encodes `g` in format version 1, which [`decode_grammar`] still reads: for profiles and
/// tests that need an encoding of the old format.
///
/// # Panics
///
/// As [`encode_grammar`].
pub fn encode_grammar_v1(g: &Grammar, n_terminals: u32) -> Vec<u8> {
    v1::encode(g, n_terminals)
}

/// Decodes a grammar written by [`encode_grammar`] or [`encode_grammar_v1`]. Any input gives
/// a valid grammar or an error, in time and memory linear in the input's length.
pub fn decode_grammar(bytes: &[u8]) -> std::result::Result<Grammar, GrammarDecodeError> {
    let version = *bytes.first().ok_or(GrammarDecodeError::Truncated)?;
    if version == 0 || version > GRAMMAR_FORMAT_VERSION {
        return Err(GrammarDecodeError::UnsupportedVersion(version));
    }
    let Some(header) = Header::read(bytes)? else { return Ok(Grammar::default()) };
    match version {
        1 => v1::decode(bytes, &header),
        _ => v2::decode(bytes, &header),
    }
}

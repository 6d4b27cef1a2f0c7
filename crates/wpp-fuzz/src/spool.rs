//! The run-length tokens' byte form ([`wpp_grammar::Tokens`]), as the `runs` section and
//! the recording's spool hold it, and the spool ([`wpp_record::Spool`]) that keeps it
//! between the guest and the grammar builder.

use std::path::PathBuf;
use std::sync::OnceLock;

use wpp_grammar::{encode_token, Token, Tokens};
use wpp_record::Spool;

/// Decodes `data` as tokens up to the first error, then sends the tokens through a spool
/// whose memory bound and sealing points the first bytes choose.
pub fn fuzz(data: &[u8]) {
    let mut decoder = Tokens::new(data);
    let mut tokens = Vec::new();
    let mut ends = vec![0];
    while let Some(t) = decoder.next() {
        match t {
            Ok(t) => {
                assert!(t.run >= 1, "a token of {t:?}");
                tokens.push(t);
            }
            Err(e) => {
                assert!(e.offset <= data.len(), "an error at byte {} of {}", e.offset, data.len());
                break;
            }
        }
        ends.push(decoder.offset());
    }
    assert!(decoder.offset() <= data.len());
    // The valid tokens, encoded again, decode to themselves in no more bytes than they
    // took (the encoder writes the shortest form).
    let mut bytes = Vec::new();
    for &t in &tokens {
        encode_token(&mut bytes, t);
    }
    let consumed = ends.last().copied().unwrap_or(0);
    assert!(bytes.len() <= consumed, "{} tokens take {} bytes encoded, {consumed} as read", tokens.len(), bytes.len());
    let back: Vec<Token> = Tokens::new(&bytes).collect::<Result<_, _>>().unwrap_or_else(|e| panic!("re-encoded tokens do not decode: {e}"));
    assert_eq!(back, tokens, "re-encoded tokens decode to others");
    through_spool(data, &tokens);
}

/// A directory of this process's own for spool files (they have no name, so nothing is
/// left in it).
fn spool_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("wpp-fuzz-spool-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a directory for spool files");
        dir
    })
}

/// Pushes `tokens` into a spool (memory bound 0, one block, or unbounded, by `data[0]`),
/// sealing a block every `data[1]` tokens and taking one out every other seal; what comes
/// out decodes to exactly `tokens`, in order.
fn through_spool(data: &[u8], tokens: &[Token]) {
    let knob = |i: usize| data.get(i).copied().unwrap_or(0);
    let max_memory = [0, 16, usize::MAX][knob(0) as usize % 3];
    let seal_every = 1 + knob(1) as usize % 8;
    let mut spool = Spool::new(&spool_dir().join("out.wpp"), max_memory);
    let mut out = Vec::new();
    let mut buf = Vec::new();
    let mut take = |spool: &mut Spool, out: &mut Vec<Token>| -> bool {
        let more = spool.pop(&mut buf).unwrap_or_else(|e| panic!("{e}"));
        if more {
            out.extend(Tokens::new(&buf).map(|t| t.unwrap_or_else(|e| panic!("a spool block does not decode: {e}"))));
        }
        more
    };
    for (i, &t) in tokens.iter().enumerate() {
        spool.push(t).unwrap_or_else(|e| panic!("{e}"));
        if (i + 1).is_multiple_of(seal_every) {
            spool.seal().unwrap_or_else(|e| panic!("{e}"));
            if ((i + 1) / seal_every).is_multiple_of(2) {
                take(&mut spool, &mut out);
            }
        }
    }
    spool.seal().unwrap_or_else(|e| panic!("{e}"));
    while take(&mut spool, &mut out) {}
    assert!(!spool.has_blocks() && spool.current_len() == 0, "the spool holds something after it was emptied");
    assert_eq!(spool.tokens_in, tokens.len() as u64);
    assert!(out == tokens, "the spool gave back {} tokens for {}, or in another order", out.len(), tokens.len());
}

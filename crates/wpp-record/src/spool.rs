//! The spool: a recording's symbol stream, run-length coded ([`wpp_grammar::Token`]s in
//! their byte form), kept between the guest that produces it and the grammar builder that
//! consumes it, so that the guest never waits for the builder.
//!
//! Blocks are kept in memory up to a bound; beyond it they go to a temporary file in the
//! output's directory. The file has no name (`tempfile::tempfile_in`: unlinked at once, or
//! never linked), so it never outlives the process, however that ends; it is written and
//! read back at offsets through the open handle. Blocks come out in the order they went
//! in, wherever they were kept.

use std::collections::VecDeque;
use std::fs::File;
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};

use wpp_grammar::{encode_token, Token};

/// Bytes of token stream per block.
pub const BLOCK_BYTES: usize = 1 << 20;

/// Spool memory by default: beyond this, blocks go to the temporary file.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// A spool that cannot be written or read back.
#[derive(Debug, thiserror::Error)]
#[error("the spool file beside {}", .output.display())]
pub struct SpoolError {
    pub output: PathBuf,
    pub source: std::io::Error,
}

enum Block {
    Memory(Vec<u8>),
    /// `len` bytes at `offset` of the spool file.
    File {
        offset: u64,
        len: usize,
    },
}

/// A first-in first-out store of token blocks, in memory up to a bound, then on disk.
pub struct Spool {
    blocks: VecDeque<Block>,
    /// The block being written.
    current: Vec<u8>,
    /// A block's memory given back by [`Spool::pop`], for the next block: freshly
    /// allocated blocks cost a page fault every 4 KiB on the consumer thread.
    spare: Option<Vec<u8>>,
    /// Bytes of full blocks in memory.
    memory: usize,
    max_memory: usize,
    /// Where a file would go (the output's directory and name), for creating it and for
    /// messages.
    output: PathBuf,
    file: Option<File>,
    /// The end of what the file holds; reset to 0 when no block is left in it.
    file_end: u64,
    file_blocks: usize,
    /// Statistics.
    pub tokens_in: u64,
    pub peak_memory: usize,
    pub peak_file: u64,
}

impl Spool {
    /// A spool for the recording written to `output`, holding at most `max_memory` bytes
    /// of blocks in memory (besides the block being written and the one being read).
    pub fn new(output: &Path, max_memory: usize) -> Self {
        Spool {
            blocks: VecDeque::new(),
            current: Vec::with_capacity(BLOCK_BYTES + 32),
            spare: None,
            memory: 0,
            max_memory,
            output: output.to_owned(),
            file: None,
            file_end: 0,
            file_blocks: 0,
            tokens_in: 0,
            peak_memory: 0,
            peak_file: 0,
        }
    }

    fn error(&self, source: std::io::Error) -> SpoolError {
        SpoolError { output: self.output.clone(), source }
    }

    /// Appends a token.
    #[inline]
    pub fn push(&mut self, t: Token) -> Result<(), SpoolError> {
        encode_token(&mut self.current, t);
        self.tokens_in += 1;
        if self.current.len() >= BLOCK_BYTES {
            self.seal()?;
        }
        Ok(())
    }

    /// Ends the block being written, so that a reader can take it.
    pub fn seal(&mut self) -> Result<(), SpoolError> {
        if self.current.is_empty() {
            return Ok(());
        }
        let next = match self.spare.take() {
            Some(mut v) => {
                v.clear();
                v
            }
            None => Vec::with_capacity(BLOCK_BYTES + 32),
        };
        let block = std::mem::replace(&mut self.current, next);
        if self.memory + block.len() <= self.max_memory {
            self.memory += block.len();
            self.peak_memory = self.peak_memory.max(self.memory);
            self.blocks.push_back(Block::Memory(block));
        } else {
            let offset = self.file_end;
            self.file()?.write_all_at(&block, offset).map_err(|e| self.error(e))?;
            self.file_end += block.len() as u64;
            self.peak_file = self.peak_file.max(self.file_end);
            self.file_blocks += 1;
            self.blocks.push_back(Block::File { offset, len: block.len() });
        }
        Ok(())
    }

    /// The spool file, created on first use.
    fn file(&mut self) -> Result<&File, SpoolError> {
        if self.file.is_none() {
            let dir = match self.output.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            self.file = Some(tempfile::tempfile_in(dir).map_err(|e| self.error(e))?);
        }
        Ok(self.file.as_ref().expect("just created"))
    }

    /// Takes the oldest sealed block, into `buf` (whose old contents are dropped; its
    /// memory may serve a later block).
    /// Returns `false` when no sealed block is left.
    pub fn pop(&mut self, buf: &mut Vec<u8>) -> Result<bool, SpoolError> {
        let Some(block) = self.blocks.pop_front() else { return Ok(false) };
        match block {
            Block::Memory(b) => {
                self.memory -= b.len();
                let old = std::mem::replace(buf, b);
                if old.capacity() >= BLOCK_BYTES {
                    self.spare = Some(old);
                }
            }
            Block::File { offset, len } => {
                buf.clear();
                buf.resize(len, 0);
                let file = self.file.as_ref().expect("a file block has a file");
                file.read_exact_at(buf, offset).map_err(|e| self.error(e))?;
                self.file_blocks -= 1;
                if self.file_blocks == 0 {
                    // Nothing left in the file: start it again from the beginning.
                    self.file_end = 0;
                    file.set_len(0).map_err(|e| self.error(e))?;
                }
            }
        }
        Ok(true)
    }

    /// Bytes in the block being written.
    pub fn current_len(&self) -> usize {
        self.current.len()
    }

    /// Whether a sealed block is waiting.
    pub fn has_blocks(&self) -> bool {
        !self.blocks.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wpp_grammar::Tokens;

    fn drain(s: &mut Spool) -> Vec<Token> {
        let mut out = Vec::new();
        let mut buf = Vec::new();
        while s.pop(&mut buf).unwrap() {
            out.extend(Tokens::new(&buf).map(Result::unwrap));
        }
        out
    }

    /// Tokens come out in order whether they were kept in memory or in the file, also
    /// when reading and writing alternate; the file is gone from the directory.
    #[test]
    fn first_in_first_out_through_memory_and_file() {
        let dir = std::env::temp_dir().join(format!("wpp-spool-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for max_memory in [0, 3 * BLOCK_BYTES, usize::MAX] {
            let mut s = Spool::new(&dir.join("out.wpp"), max_memory);
            let mut expected = Vec::new();
            let mut got = Vec::new();
            let mut buf = Vec::new();
            let mut x = 1u64;
            for round in 0..6u32 {
                for i in 0..400_000u64 {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let t = Token { symbol: (x >> 40) as u32 % 100_000, run: 1 + (i % 7) * (x >> 60) };
                    expected.push(t);
                    s.push(t).unwrap();
                }
                // Take one block now and then, as the builder does between buffers.
                if round % 2 == 1 && s.pop(&mut buf).unwrap() {
                    got.extend(Tokens::new(&buf).map(Result::unwrap));
                }
            }
            s.seal().unwrap();
            got.extend(drain(&mut s));
            assert_eq!(got, expected, "max_memory {max_memory}");
            assert_eq!(s.tokens_in, expected.len() as u64);
            if max_memory == 0 {
                assert!(s.peak_file > 0 && s.peak_memory == 0);
            }
            assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "the spool file is unlinked");
        }
        std::fs::remove_dir(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_directory_is_named() {
        let mut s = Spool::new(Path::new("/nonexistent-wpp-dir/out.wpp"), 0);
        let e = (0..BLOCK_BYTES).try_for_each(|_| s.push(Token { symbol: 1 << 30, run: 1 << 40 })).and_then(|()| s.seal()).unwrap_err();
        assert_eq!(e.to_string(), "the spool file beside /nonexistent-wpp-dir/out.wpp");
        assert_eq!(e.source.kind(), std::io::ErrorKind::NotFound, "the cause is the error's source");
    }
}

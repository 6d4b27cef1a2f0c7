//! Writing a profile: sections streamed one after another, the table of contents last,
//! then the header patched to point at it.
//!
//! The profile is written to a temporary file beside the target and renamed onto it only
//! when complete, so a recording that fails or is interrupted never leaves a partial
//! profile, and an earlier file of that name stays as it was until then.

use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::atomic::AtomicFile;
use crate::{Error, TocEntry, HEADER_LEN, MAGIC, VERSION};

/// Writes a profile file. Sections are written one at a time: [`Writer::begin`],
/// [`Writer::write`] any number of times, [`Writer::end`].
pub struct Writer {
    path: PathBuf,
    /// The temporary file, deleted if the writer is dropped before [`Writer::finish`].
    out: BufWriter<AtomicFile>,
    pos: u64,
    toc: Vec<TocEntry>,
    open: Option<(String, u64, crc32fast::Hasher)>,
}

impl Writer {
    /// A writer whose profile will be `path`; nothing appears there before
    /// [`Writer::finish`].
    pub fn create(path: &Path) -> Result<Writer, Error> {
        let io = |source| Error::Write { path: path.to_owned(), source };
        let file = AtomicFile::create(path).map_err(io)?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        out.write_all(&[0u8; HEADER_LEN as usize]).map_err(io)?;
        Ok(Writer { path: path.to_owned(), out, pos: HEADER_LEN, toc: Vec::new(), open: None })
    }

    fn io(&self, source: std::io::Error) -> Error {
        Error::Write { path: self.path.clone(), source }
    }

    /// Starts a section (ending the one still open, if any).
    pub fn begin(&mut self, name: &str) {
        self.end();
        self.open = Some((name.to_owned(), self.pos, crc32fast::Hasher::new()));
    }

    /// Appends to the open section.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let (_, _, crc) = self.open.as_mut().expect("a section is open");
        crc.update(bytes);
        self.out.write_all(bytes).map_err(|source| Error::Write { path: self.path.clone(), source })?;
        self.pos += bytes.len() as u64;
        Ok(())
    }

    /// Ends the open section, recording it in the table of contents.
    pub fn end(&mut self) {
        if let Some((name, start, crc)) = self.open.take() {
            self.toc.push(TocEntry { name, offset: start, len: self.pos - start, crc32: crc.finalize() });
        }
    }

    /// Writes a whole section at once.
    pub fn write_section(&mut self, name: &str, bytes: &[u8]) -> Result<(), Error> {
        self.begin(name);
        self.write(bytes)?;
        self.end();
        Ok(())
    }

    /// Writes a section holding `value` encoded with postcard.
    pub fn write_value<T: serde::Serialize>(&mut self, name: &str, value: &T) -> Result<(), Error> {
        let bytes = postcard::to_stdvec(value).map_err(|e| Error::Corrupt { path: self.path.clone(), what: format!("cannot encode `{name}`: {e}") })?;
        self.write_section(name, &bytes)
    }

    /// Writes the table of contents and the header, and puts the complete file in place.
    pub fn finish(mut self) -> Result<(), Error> {
        self.end();
        let toc = postcard::to_stdvec(&self.toc).expect("a table of contents always encodes");
        let toc_offset = self.pos;
        self.out.write_all(&toc).map_err(|e| self.io(e))?;
        let mut header = Vec::with_capacity(HEADER_LEN as usize);
        header.extend_from_slice(&MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&0u32.to_le_bytes());
        header.extend_from_slice(&toc_offset.to_le_bytes());
        header.extend_from_slice(&(toc.len() as u64).to_le_bytes());
        header.extend_from_slice(&crc32fast::hash(&toc).to_le_bytes());
        header.extend_from_slice(&0u32.to_le_bytes());
        self.out.seek(SeekFrom::Start(0)).map_err(|e| self.io(e))?;
        self.out.write_all(&header).map_err(|e| self.io(e))?;
        let path = self.path;
        let file = self.out.into_inner().map_err(|e| Error::Write { path: path.clone(), source: e.into_error() })?;
        file.commit().map_err(|source| Error::Write { path, source })?;
        Ok(())
    }
}

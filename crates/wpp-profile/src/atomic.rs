//! Files that appear whole or not at all: written to a temporary file beside the target,
//! renamed onto it when complete.
//!
//! A write that fails (a full disk, an unwritable directory) or is interrupted leaves an
//! earlier file of that name exactly as it was. Every temporary file not yet committed is
//! known process-wide, so that a process that must exit at once (a second Ctrl-C) can
//! remove them with [`remove_unfinished`] instead of leaving them behind.

use std::io::{Seek, SeekFrom, Write};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tempfile::NamedTempFile;

/// The temporary files of every [`AtomicFile`] alive.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn unfinished() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    UNFINISHED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes the temporary file of every [`AtomicFile`] not yet committed: for a process
/// about to exit without unwinding. Targets are untouched.
pub fn remove_unfinished() {
    for p in unfinished().drain(..) {
        let _ = std::fs::remove_file(p);
    }
}

/// Checks, before any work, that `path` can be written as [`AtomicFile::create`] will
/// write it: not a directory, in a directory that exists and takes a new file. The trial
/// file is removed at once; `path` itself is not touched.
pub fn check_writable(path: &Path) -> Result<(), crate::Error> {
    AtomicFile::create(path).map(drop).map_err(|source| crate::Error::Write { path: path.to_owned(), source })
}

/// Checks, before any work, that files can be written under the directory `dir`, creating
/// it (and its parents) if missing, as an export into it would.
pub fn check_writable_dir(dir: &Path) -> Result<(), crate::Error> {
    let write = |source| crate::Error::Write { path: dir.to_owned(), source };
    if dir.exists() && !dir.is_dir() {
        return Err(write(std::io::Error::new(std::io::ErrorKind::NotADirectory, "it is not a directory")));
    }
    std::fs::create_dir_all(dir).map_err(write)?;
    tempfile::Builder::new().prefix(".wpp-check.").tempfile_in(dir).map(drop).map_err(write)
}

/// A file that becomes `path` only on [`AtomicFile::commit`]; dropped before that, it
/// disappears and leaves `path` as it was.
pub struct AtomicFile {
    path: PathBuf,
    /// `None` once committed.
    temp: Option<NamedTempFile>,
}

impl AtomicFile {
    /// A temporary file named `.NAME.XXXXXX.tmp` in `path`'s directory (so that the final
    /// rename never crosses file systems), with the permissions a file created the
    /// ordinary way gets (0666 before the umask). A directory at `path` is refused here,
    /// before anything is written, rather than when the rename fails at the end.
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        if path.is_dir() {
            return Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, "it is a directory"));
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let temp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .permissions(std::fs::Permissions::from_mode(0o666))
            .tempfile_in(dir)
            .map_err(without_temp_path)?;
        unfinished().push(temp.path().to_owned());
        Ok(AtomicFile { path: path.to_owned(), temp: Some(temp) })
    }

    /// The file it will become.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Renames the temporary file onto the target.
    pub fn commit(mut self) -> std::io::Result<()> {
        let temp = self.temp.take().expect("not yet committed");
        let temp_path = temp.path().to_owned();
        // On failure the temporary file is dropped, and removed, with the error.
        let res = temp.persist(&self.path).map(drop).map_err(|e| e.error);
        forget(&temp_path);
        res
    }

    fn temp(&mut self) -> &mut NamedTempFile {
        self.temp.as_mut().expect("not yet committed")
    }
}

fn forget(temp: &Path) {
    unfinished().retain(|p| p != temp);
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(t) = &self.temp {
            forget(t.path());
        }
    }
}

/// `tempfile` appends the temporary file's name to its errors; the target, which the
/// caller names, is what the user knows, so only the system's message is kept.
fn without_temp_path(e: std::io::Error) -> std::io::Error {
    match e.to_string().split_once(" at path ") {
        Some((message, _)) => std::io::Error::new(e.kind(), message.to_owned()),
        None => e,
    }
}

// I/O goes to the `File` itself: its errors are the system's, without the temporary name.
impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.temp().as_file_mut().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.temp().as_file_mut().flush()
    }
}

impl Seek for AtomicFile {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.temp().as_file_mut().seek(pos)
    }
}

/// Writes `path` atomically: `write` fills the temporary file, which then replaces `path`.
pub fn write_atomically(path: &Path, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    let mut out = std::io::BufWriter::new(&mut file);
    write(&mut out)?;
    out.flush()?;
    drop(out);
    file.commit()
}

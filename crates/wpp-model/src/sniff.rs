//! What a file looks like from its first bytes, for errors about a file of the wrong kind:
//! "not a WebAssembly module (a wpp profile)", "not a wpp profile (text starting ...)".

use std::fmt;

/// How many leading bytes [`FileKind::of`] looks at.
pub const SNIFF_LEN: usize = 16;

/// The kind of file its first bytes suggest. `Display` describes it in a few words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    Empty,
    WasmModule,
    WasmComponent,
    /// `\0asm` followed by a version wpp does not know.
    WasmOther,
    Profile,
    Json,
    /// Printable text; its first line (at most [`SNIFF_LEN`] bytes of it).
    Text(String),
    /// Anything else; its first bytes (at most 8).
    Binary(Vec<u8>),
}

impl FileKind {
    /// The kind of a file that starts with `start` (only the first [`SNIFF_LEN`] bytes
    /// matter).
    pub fn of(start: &[u8]) -> FileKind {
        let start = &start[..start.len().min(SNIFF_LEN)];
        if start.is_empty() {
            return FileKind::Empty;
        }
        if start.starts_with(b"\0asm") {
            return match start.get(4..8) {
                Some([1, 0, 0, 0]) => FileKind::WasmModule,
                Some([_, _, 1, 0]) => FileKind::WasmComponent,
                _ => FileKind::WasmOther,
            };
        }
        if start.starts_with(b"WPPROF") {
            return FileKind::Profile;
        }
        if matches!(start.iter().find(|b| !b.is_ascii_whitespace()), Some(b'{' | b'[')) {
            return FileKind::Json;
        }
        match printable(start) {
            Some(line) => FileKind::Text(line.to_owned()),
            None => FileKind::Binary(start[..start.len().min(8)].to_vec()),
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileKind::Empty => f.write_str("an empty file"),
            FileKind::WasmModule => f.write_str("a WebAssembly module"),
            FileKind::WasmComponent => f.write_str("a WebAssembly component"),
            FileKind::WasmOther => f.write_str("a WebAssembly binary of an unknown version"),
            FileKind::Profile => f.write_str("a wpp profile"),
            FileKind::Json => f.write_str("a JSON file"),
            FileKind::Text(line) => write!(f, "text starting {line:?}"),
            FileKind::Binary(bytes) => {
                f.write_str("it starts with")?;
                bytes.iter().try_for_each(|b| write!(f, " {b:02x}"))
            }
        }
    }
}

/// The first line of `start` when it is printable text (a UTF-8 character cut at the end
/// is dropped).
fn printable(start: &[u8]) -> Option<&str> {
    let text = match std::str::from_utf8(start) {
        Ok(t) => t,
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&start[..e.valid_up_to()]).expect("valid up to here"),
        Err(_) => return None,
    };
    let line = text.lines().next().unwrap_or("").trim_end();
    let printable = !line.is_empty() && text.chars().all(|c| !c.is_control() || c.is_ascii_whitespace());
    printable.then_some(line)
}

#[cfg(test)]
mod tests {
    use super::FileKind;

    fn looks_like(start: &[u8]) -> String {
        FileKind::of(start).to_string()
    }

    #[test]
    fn kinds() {
        assert_eq!(looks_like(b""), "an empty file");
        assert_eq!(looks_like(b"\0asm\x01\0\0\0\x01\x04"), "a WebAssembly module");
        assert_eq!(looks_like(b"\0asm\x0d\0\x01\0"), "a WebAssembly component");
        assert_eq!(looks_like(b"WPPROF\r\n\x03\0\0\0"), "a wpp profile");
        assert_eq!(looks_like(b"  {\"module\": 1}"), "a JSON file");
        assert_eq!(looks_like(b"not a module\nsecond line"), "text starting \"not a module\"");
        assert_eq!(looks_like("é".repeat(10).as_bytes()), format!("text starting \"{}\"", "é".repeat(8)));
        assert_eq!(looks_like(b"\x7fELF\x02\x01\x01\0\0\0"), "it starts with 7f 45 4c 46 02 01 01 00");
    }
}

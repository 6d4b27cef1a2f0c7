//! Hashing a file or a directory tree by its names and contents. Used by the crate's build
//! script (the recording crates' sources) and by `recordings` (a run's granted directories),
//! so that both notice the same changes.

use std::hash::{Hash, Hasher};
use std::path::Path;

/// Hashes the contents of the file `p`, or of every file under the directory `p` with its
/// name, in name order.
pub fn hash_tree(p: &Path, h: &mut impl Hasher) -> std::io::Result<()> {
    if p.is_dir() {
        let mut entries = std::fs::read_dir(p)?.map(|e| e.map(|e| e.path())).collect::<Result<Vec<_>, _>>()?;
        entries.sort();
        for e in entries {
            e.file_name().hash(h);
            hash_tree(&e, h)?;
        }
    } else {
        std::fs::read(p)?.hash(h);
    }
    Ok(())
}

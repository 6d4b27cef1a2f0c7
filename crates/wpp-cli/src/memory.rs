//! The machine's memory as Linux reports it, for commands that bound what they hold.

/// Bytes of memory available for new work (`MemAvailable` in `/proc/meminfo`).
pub fn available() -> Option<u64> {
    kib_of(&std::fs::read_to_string("/proc/meminfo").ok()?, "MemAvailable:")
}

/// Bytes this process holds in memory now (its resident set, `VmRSS` in
/// `/proc/self/status`).
pub fn resident() -> Option<u64> {
    kib_of(&std::fs::read_to_string("/proc/self/status").ok()?, "VmRSS:")
}

/// The bytes of the `NAME: N kB` line of a `/proc` file.
fn kib_of(text: &str, name: &str) -> Option<u64> {
    let kib: u64 = text.lines().find(|l| l.starts_with(name))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

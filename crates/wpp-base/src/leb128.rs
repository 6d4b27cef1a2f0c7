//! Unsigned LEB128 numbers (seven bits a byte, low bits first, the high bit set on every
//! byte but the last) and zigzag for signed ones: the variable-length number of every wpp
//! file format.

/// Why bytes are not a LEB128 number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The bytes end inside the number.
    Truncated,
    /// The number does not fit 64 bits.
    Overflow,
}

impl Error {
    /// The error as a phrase for a longer message.
    pub fn what(self) -> &'static str {
        match self {
            Error::Truncated => "it ends inside a number",
            Error::Overflow => "a number overflows 64 bits",
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.what())
    }
}

impl std::error::Error for Error {}

/// Appends `v`.
#[inline]
pub fn write(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads the number at `*pos` and moves `*pos` past it. On an error `*pos` is where it was
/// found: the end of the bytes, or the byte that overflows.
#[inline]
pub fn read(bytes: &[u8], pos: &mut usize) -> Result<u64, Error> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let Some(&b) = bytes.get(*pos) else { return Err(Error::Truncated) };
        if shift == 63 && b > 1 {
            return Err(Error::Overflow);
        }
        *pos += 1;
        v |= ((b & 0x7f) as u64) << shift;
        if b < 0x80 {
            return Ok(v);
        }
    }
    unreachable!("the tenth byte either ends the number or overflows")
}

/// The number at the start of `bytes` and its length in bytes.
#[inline]
pub fn read_at_start(bytes: &[u8]) -> Result<(u64, usize), Error> {
    let mut pos = 0;
    read(bytes, &mut pos).map(|v| (v, pos))
}

/// The number of bytes [`write`] takes for `v`.
#[inline]
pub fn len(v: u64) -> usize {
    (64 - (v | 1).leading_zeros() as usize).div_ceil(7)
}

/// A signed number as an unsigned one, small either side of zero.
#[inline]
pub fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// The signed number [`zigzag`] made.
#[inline]
pub fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every number reads back as written, in as many bytes as `len` says.
        #[test]
        fn round_trip(v: u64, w: i64) {
            let mut out = Vec::new();
            write(&mut out, v);
            prop_assert_eq!(out.len(), len(v));
            prop_assert_eq!(read_at_start(&out), Ok((v, out.len())));
            prop_assert_eq!(unzigzag(zigzag(w)), w);
            // Every proper prefix is truncated.
            for n in 0..out.len() {
                prop_assert_eq!(read_at_start(&out[..n]), Err(Error::Truncated));
            }
        }
    }

    #[test]
    fn known_bytes_and_limits() {
        let mut out = Vec::new();
        write(&mut out, 624_485);
        assert_eq!(out, [0xe5, 0x8e, 0x26]);
        assert_eq!(zigzag(-1), 1);
        assert_eq!(zigzag(1), 2);
        let max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        assert_eq!(read_at_start(&max), Ok((u64::MAX, 10)));
        let over = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        let mut pos = 0;
        assert_eq!(read(&over, &mut pos), Err(Error::Overflow));
        assert_eq!(pos, 9);
    }
}

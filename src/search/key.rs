//! Compact hashable encodings of boards for the closed set.

use std::hash::Hash;

/// A board packed into a hashable value; `pack` and `unpack` are inverses for boards of the
/// size the key type supports.
pub(crate) trait Key: Hash + Eq + Clone + Send {
    /// Extra heap bytes owned by one key (for memory accounting).
    fn heap_bytes(n: usize) -> usize;
    fn pack(tiles: &[u8]) -> Self;
    fn unpack(&self, out: &mut [u8]);
}

/// Up to 16 cells, 4 bits a tile.
impl Key for u64 {
    fn heap_bytes(_: usize) -> usize {
        0
    }

    #[inline]
    fn pack(tiles: &[u8]) -> Self {
        tiles
            .iter()
            .enumerate()
            .fold(0u64, |k, (i, &t)| k | (u64::from(t) << (4 * i)))
    }

    #[inline]
    fn unpack(&self, out: &mut [u8]) {
        for (i, t) in out.iter_mut().enumerate() {
            *t = ((self >> (4 * i)) & 0xF) as u8;
        }
    }
}

/// Up to 25 cells, 5 bits a tile.
impl Key for u128 {
    fn heap_bytes(_: usize) -> usize {
        0
    }

    #[inline]
    fn pack(tiles: &[u8]) -> Self {
        tiles
            .iter()
            .enumerate()
            .fold(0u128, |k, (i, &t)| k | (u128::from(t) << (5 * i)))
    }

    #[inline]
    fn unpack(&self, out: &mut [u8]) {
        for (i, t) in out.iter_mut().enumerate() {
            *t = ((self >> (5 * i)) & 0x1F) as u8;
        }
    }
}

/// Any size: the tiles themselves.
impl Key for Box<[u8]> {
    fn heap_bytes(n: usize) -> usize {
        n
    }

    fn pack(tiles: &[u8]) -> Self {
        tiles.into()
    }

    fn unpack(&self, out: &mut [u8]) {
        out.copy_from_slice(self);
    }
}

/// Calls `$body` with the key type `$K` fitting `$n` cells.
macro_rules! with_key {
    ($n:expr, $K:ident => $body:expr) => {{
        if $n <= 16 {
            type $K = u64;
            $body
        } else if $n <= 25 {
            type $K = u128;
            $body
        } else {
            type $K = Box<[u8]>;
            $body
        }
    }};
}
pub(crate) use with_key;

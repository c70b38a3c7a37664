//! Compact hashable encodings of boards for the closed set.

use std::hash::Hash;

/// The closed sets' hash map from packed boards. foldhash (a folded multiply) rather than
/// FxHash: FxHash's value is a product rotated by 26 bits, so once a table has 2²⁷ buckets or
/// more its bucket index takes the product's lowest bits, which are the key's lowest bits (the
/// tile on cell 0): half the boards crowded half the table, and A* with a 4 GiB cap slowed to
/// a crawl as the table filled.
pub(crate) type KeyMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// Every bit a table of up to 2³² buckets takes from the hash is balanced, even over
    /// boards that all have an even tile (or the blank) on cell 0, whose packed keys share
    /// their lowest bit. FxHash failed this at bit 26 (the 2²⁷-bucket table of A* at 4 GiB).
    #[test]
    fn bucket_bits_are_balanced_for_keys_alike_in_their_low_bits() {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let state = foldhash::fast::FixedState::default();
        let mut ones = [0u32; 32];
        let mut tiles: Vec<u8> = (0..16).collect();
        let mut n = 0;
        while n < 20_000 {
            tiles.shuffle(&mut rng);
            if tiles[0] % 2 == 1 {
                continue;
            }
            let h = state.hash_one(u64::pack(&tiles));
            for (b, c) in ones.iter_mut().enumerate() {
                *c += (h >> b) as u32 & 1;
            }
            n += 1;
        }
        for (b, &c) in ones.iter().enumerate() {
            let share = f64::from(c) / f64::from(n);
            assert!((0.46..0.54).contains(&share), "bit {b}: {share}");
        }
    }
}

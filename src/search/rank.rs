//! Perfect ranking of permutations (Lehmer code), for tables indexed by whole boards.
//!
//! `rank` maps a permutation of `0..n` to `0..n!` bijectively, in lexicographic order;
//! O(n²), `n ≤ 20`.

/// `n!` for `n ≤ 20`.
pub fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

/// Lexicographic rank of a permutation of `0..p.len()`.
pub fn rank(p: &[u8]) -> u64 {
    let n = p.len();
    let mut r = 0u64;
    for i in 0..n {
        let smaller_after = p[i + 1..].iter().filter(|&&x| x < p[i]).count() as u64;
        r = r * (n - i) as u64 + smaller_after;
    }
    r
}

/// The permutation of `0..out.len()` with lexicographic rank `r` (`r < n!`).
pub fn unrank(mut r: u64, out: &mut [u8]) {
    let n = out.len();
    let mut digits = [0u8; 20];
    for i in (0..n).rev() {
        let base = (n - i) as u64;
        digits[i] = (r % base) as u8;
        r /= base;
    }
    let mut avail: Vec<u8> = (0..n as u8).collect();
    for i in 0..n {
        out[i] = avail.remove(digits[i] as usize);
    }
}

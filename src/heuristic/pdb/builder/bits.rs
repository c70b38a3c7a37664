//! The bit operations of the inner loops (`Bits`): portable, or as BMI2 / POPCNT instructions
//! picked at run time (`Isa`), and the entry into a layer's work compiled for each form.

use super::Builder;
use super::Item;
use super::Scratch;

/// The positions of the set bits of `x`, lowest first.
#[inline(always)]
pub(super) fn bits(mut x: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let b = x.trailing_zeros();
            x &= x - 1;
            b
        })
    })
}

/// `0x0101…01`.
const ONES: u64 = u64::MAX / 255;

/// A bit set of the bytes of `w` equal to `b` (bit 7 of each matching byte).
#[inline(always)]
pub(super) fn bytes_equal(w: u64, b: u8) -> u64 {
    let x = w ^ (ONES * u64::from(b));
    // Exact zero-byte test (no false positives from borrows).
    !(((x & (ONES * 0x7f)) + ONES * 0x7f) | x | (ONES * 0x7f)) & (ONES * 0x80)
}

/// `SELECT8[b][j]`: the position of the `j`-th set bit of byte `b` (8 when there is none).
const SELECT8: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut j, mut bit) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b][j] = bit as u8;
                j += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The bit operations of the builder's inner loops, in a portable form and, on x86-64
/// processors where they are fast, as single BMI2 / POPCNT instructions. The inner loops are
/// generic over this and compiled once per form; [`Isa::detect`] picks one at run time.
pub(super) trait Bits: Copy + Send + Sync {
    /// The number of set bits of `x`.
    fn popcnt(self, x: u32) -> u32;
    /// The position of the `j`-th set bit of `f` (which has more than `j` set bits).
    fn select(self, f: u32, j: u32) -> u32;
    /// The bits of `x` at the set bits of `mask`, packed into the low bits (`pext`; `x` must
    /// lie within `mask`).
    fn pext(self, x: u32, mask: u32) -> u32;
    /// The low bits of `x` spread onto the set bits of `mask`, in order (`pdep`).
    fn pdep(self, x: u32, mask: u32) -> u32;
}

/// [`Bits`] in plain Rust (a byte table for `select`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Portable;

impl Bits for Portable {
    #[inline(always)]
    fn popcnt(self, x: u32) -> u32 {
        x.count_ones()
    }

    #[inline(always)]
    fn select(self, f: u32, mut j: u32) -> u32 {
        let mut shift = 0;
        loop {
            let b = (f >> shift) & 0xff;
            let c = b.count_ones();
            if j < c || shift == 24 {
                return shift + u32::from(SELECT8[b as usize][(j & 7) as usize]);
            }
            j -= c;
            shift += 8;
        }
    }

    #[inline(always)]
    fn pext(self, x: u32, mask: u32) -> u32 {
        bits(x).fold(0, |out, b| out | 1 << (mask & ((1 << b) - 1)).count_ones())
    }

    #[inline(always)]
    fn pdep(self, x: u32, mask: u32) -> u32 {
        bits(x).fold(0, |out, b| out | 1 << self.select(mask, b))
    }
}

/// [`Bits`] as BMI2 / POPCNT instructions. Only [`Bmi2::detect`] makes one, so holding one
/// proves the processor has them.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(super) struct Bmi2(());

#[cfg(target_arch = "x86_64")]
impl Bmi2 {
    /// `Some` where the processor has BMI1, BMI2, LZCNT and POPCNT and runs `pdep` / `pext` in
    /// hardware: AMD processors before Zen 3 (family 19h) microcode them, tens to hundreds of
    /// cycles each (AMD, "Software Optimization Guide for AMD Family 17h Processors",
    /// instruction latencies), slower than the portable form.
    pub(super) fn detect() -> Option<Self> {
        use std::arch::x86_64::__cpuid;
        // Every feature `Builder::work_bmi2` is compiled for.
        if !(is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt"))
        {
            return None;
        }
        let vendor = __cpuid(0);
        let amd_like = matches!(
            (vendor.ebx, vendor.edx, vendor.ecx),
            // "AuthenticAMD", "HygonGenuine"
            (0x6874_7541, 0x6974_6e65, 0x444d_4163) | (0x6f67_7948, 0x6e65_476e, 0x656e_6975)
        );
        let eax = __cpuid(1).eax;
        let family = match (eax >> 8) & 0xf {
            0xf => 0xf + ((eax >> 20) & 0xff),
            base => base,
        };
        (!amd_like || family >= 0x19).then_some(Bmi2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Bits for Bmi2 {
    #[inline(always)]
    fn popcnt(self, x: u32) -> u32 {
        // SAFETY: a `Bmi2` exists only where `detect` found POPCNT.
        unsafe { std::arch::x86_64::_popcnt32(x as i32) as u32 }
    }

    #[inline(always)]
    fn select(self, f: u32, j: u32) -> u32 {
        self.pdep(1 << j, f).trailing_zeros()
    }

    #[inline(always)]
    fn pext(self, x: u32, mask: u32) -> u32 {
        // SAFETY: a `Bmi2` exists only where `detect` found BMI2.
        unsafe { std::arch::x86_64::_pext_u32(x, mask) }
    }

    #[inline(always)]
    fn pdep(self, x: u32, mask: u32) -> u32 {
        // SAFETY: as for `pext`.
        unsafe { std::arch::x86_64::_pdep_u32(x, mask) }
    }
}

/// Which form of [`Bits`] a build runs with, chosen once per build.
#[derive(Clone, Copy, Debug)]
pub(super) enum Isa {
    /// Plain Rust for any processor.
    Portable,
    /// The portable form compiled for x86-64 processors with POPCNT.
    #[cfg(target_arch = "x86_64")]
    Popcnt,
    /// BMI2 `pdep` / `pext`.
    #[cfg(target_arch = "x86_64")]
    Bmi2(Bmi2),
}

impl Isa {
    /// The fastest form this processor runs.
    pub(super) fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(b) = Bmi2::detect() {
                return Isa::Bmi2(b);
            }
            if is_x86_feature_detected!("popcnt") {
                return Isa::Popcnt;
            }
        }
        Isa::Portable
    }

    /// Every form this processor runs (tests compare their tables).
    #[cfg(test)]
    pub(super) fn all() -> Vec<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            let mut v = vec![Isa::Portable];
            if is_x86_feature_detected!("popcnt") {
                v.push(Isa::Popcnt);
            }
            v.extend(Bmi2::detect().map(Isa::Bmi2));
            v
        }
        #[cfg(not(target_arch = "x86_64"))]
        vec![Isa::Portable]
    }
}

impl<const B: u32> Builder<B> {
    /// One work item of layer `d` ([`Builder::work_in`]) with the bit operations of
    /// `self.isa`.
    pub(super) fn work(&self, item: Item, d: u8, pull: bool, scratch: &mut Scratch) -> (u64, u64) {
        match self.isa {
            Isa::Portable => self.work_in(Portable, item, d, pull, scratch),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Isa::Popcnt` is chosen only where the processor has POPCNT.
            Isa::Popcnt => unsafe { self.work_popcnt(item, d, pull, scratch) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Bmi2` exists only where the processor has every feature enabled.
            Isa::Bmi2(b) => unsafe { self.work_bmi2(b, item, d, pull, scratch) },
        }
    }

    /// [`Builder::work_in`] compiled for POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn work_popcnt(&self, item: Item, d: u8, pull: bool, scratch: &mut Scratch) -> (u64, u64) {
        self.work_in(Portable, item, d, pull, scratch)
    }

    /// [`Builder::work_in`] compiled for BMI2 (and what comes with it on every processor that
    /// has it: BMI1, LZCNT, POPCNT).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
    fn work_bmi2(
        &self,
        isa: Bmi2,
        item: Item,
        d: u8,
        pull: bool,
        scratch: &mut Scratch,
    ) -> (u64, u64) {
        self.work_in(isa, item, d, pull, scratch)
    }
}

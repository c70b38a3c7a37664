//! Transparent huge pages for the large tables of the searches and the pattern-database
//! builder: the closed sets, open lists and lanes of hundreds of megabytes to gigabytes that
//! are read at random. With 4 KiB pages nearly every such read also misses the TLB, and on a
//! virtual machine each miss walks two sets of page tables; with 2 MiB pages the walks mostly
//! hit the cache. A* + Manhattan with a 4 GiB cap expanded 20 % more nodes in its first minute
//! with them.
//!
//! [`HugePageAlloc`] is the system allocator plus that advice for every allocation of
//! [`HUGE_FROM`] bytes or more; the binary installs it as its global allocator (the library
//! never does: that is a program's choice).

use std::alloc::{GlobalAlloc, Layout, System};

/// The memory this process can still have, in bytes: the smallest of the available RAM
/// (`MemAvailable` in `/proc/meminfo`), what its cgroup's limit leaves (cgroup v2
/// `memory.max` less `memory.current`, in its own group and every ancestor, or v1's `memory.limit_in_bytes` less its usage) and its
/// address-space limit (`ulimit -v`) less what it has mapped. `None` where none of these can be read (other systems).
pub fn available() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let read = |p: &str| std::fs::read_to_string(p).ok();
        let number = |p: &str| read(p).and_then(|t| t.trim().parse::<u64>().ok());
        let ram = read("/proc/meminfo").and_then(|t| {
            let line = t.lines().find(|l| l.starts_with("MemAvailable:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            kib.checked_mul(1024)
        });
        // cgroup v2: the process's own group and its ancestors (a limit may sit on any).
        let v2 = read("/proc/self/cgroup").and_then(|t| {
            let own = t
                .lines()
                .find_map(|l| l.strip_prefix("0::"))?
                .trim()
                .to_string();
            let mut dir =
                std::path::PathBuf::from("/sys/fs/cgroup").join(own.trim_start_matches('/'));
            let mut least: Option<u64> = None;
            loop {
                let at = |f: &str| number(&dir.join(f).to_string_lossy());
                if let Some(max) = at("memory.max") {
                    let left = max.saturating_sub(at("memory.current").unwrap_or(0));
                    least = Some(least.map_or(left, |l| l.min(left)));
                }
                if dir.as_os_str() == "/sys/fs/cgroup" || !dir.pop() {
                    break;
                }
            }
            least
        });
        // cgroup v1: the memory controller's group of the process.
        let v1 = read("/proc/self/cgroup").and_then(|t| {
            let own = t.lines().find_map(|l| {
                let (_, rest) = l.split_once(':')?;
                rest.strip_prefix("memory:")
            })?;
            let dir = std::path::PathBuf::from("/sys/fs/cgroup/memory")
                .join(own.trim().trim_start_matches('/'));
            let at = |f: &str| number(&dir.join(f).to_string_lossy());
            let limit = at("memory.limit_in_bytes").filter(|&l| l < 1 << 60)?;
            Some(limit.saturating_sub(at("memory.usage_in_bytes").unwrap_or(0)))
        });
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the limit into the struct it is given and reads nothing else.
        let address_space = (unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0
            && limit.rlim_cur != libc::RLIM_INFINITY)
            .then(|| {
                // Less what the process has mapped already.
                let mapped = read("/proc/self/status").and_then(|t| {
                    let line = t.lines().find(|l| l.starts_with("VmSize:"))?;
                    line.split_whitespace().nth(1)?.parse::<u64>().ok()
                });
                limit
                    .rlim_cur
                    .saturating_sub(mapped.unwrap_or(0).saturating_mul(1024))
            });
        [ram, v2, v1, address_space].into_iter().flatten().min()
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// Allocations from this size (bytes) on are advised to live in huge pages.
pub const HUGE_FROM: usize = 8 << 20;

/// Asks Linux to back the `bytes` bytes at `start` with transparent huge pages
/// (`MADV_HUGEPAGE`; the system setting `never` refuses). Only advice: nothing changes if
/// refused, and the contents never do.
pub(crate) fn advise_huge_pages(start: *const u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        // The whole 2 MiB blocks inside the range (the huge page size on x86-64; a multiple
        // of the page size everywhere).
        const BLOCK: usize = 2 << 20;
        let first = (start as usize).next_multiple_of(BLOCK);
        let end = (start as usize).saturating_add(bytes) / BLOCK * BLOCK;
        if end > first {
            // SAFETY: advice on whole pages inside an allocation this process owns;
            // MADV_HUGEPAGE changes no content and fails harmlessly where refused.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

/// The system allocator, with allocations of [`HUGE_FROM`] bytes or more advised into huge
/// pages (`advise_huge_pages`).
pub struct HugePageAlloc;

// SAFETY: every call is forwarded to `System` with the caller's arguments, which keep
// `GlobalAlloc`'s contract; the advice given afterwards neither moves nor changes memory.
unsafe impl GlobalAlloc for HugePageAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() && layout.size() >= HUGE_FROM {
            advise_huge_pages(p, layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() && layout.size() >= HUGE_FROM {
            advise_huge_pages(p, layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() && new_size >= HUGE_FROM {
            advise_huge_pages(p, new_size);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allocator_hands_out_usable_memory_of_every_size() {
        for size in [
            1usize,
            4096,
            HUGE_FROM - 1,
            HUGE_FROM,
            3 * HUGE_FROM + 12345,
        ] {
            let layout = Layout::from_size_align(size, 64).unwrap();
            // SAFETY: a non-zero size; the block is written within bounds and freed once.
            unsafe {
                let p = HugePageAlloc.alloc_zeroed(layout);
                assert!(!p.is_null());
                assert_eq!(*p.add(size - 1), 0);
                p.write_bytes(7, size);
                let q = HugePageAlloc.realloc(p, layout, size * 2);
                assert_eq!(*q.add(size - 1), 7);
                HugePageAlloc.dealloc(q, Layout::from_size_align(size * 2, 64).unwrap());
            }
        }
    }
}

//! A counting allocator for tests that bound what a call allocates: the system allocator,
//! counting per thread, so that one test's measurement is not disturbed by tests running
//! on other threads. A test binary installs it with
//! `#[global_allocator] static A: Counting = Counting;` and measures a closure with
//! [`measure`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting what each thread allocates and holds.
pub struct Counting;

thread_local! {
    /// Bytes allocated minus bytes freed on this thread.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The most `LIVE` has been since the current measurement began.
    static PEAK: Cell<isize> = const { Cell::new(0) };
    /// Bytes allocated (and grown by reallocation) since the current measurement began.
    static TOTAL: Cell<usize> = const { Cell::new(0) };
    /// The largest single allocation since the current measurement began.
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn count(delta: isize, size: usize) {
    let _ = LIVE.try_with(|live| {
        live.set(live.get() + delta);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(live.get())));
        let _ = TOTAL.try_with(|total| total.set(total.get().saturating_add(delta.max(0) as usize)));
        let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
    });
}

// SAFETY: every call goes to the system allocator unchanged; the counting touches only
// const-initialised thread-locals, which do not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as isize, layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            count(layout.size() as isize, layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        count(-(layout.size() as isize), 0);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize, new_size);
        }
        p
    }
}

/// What one measured closure allocated, on the current thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct AllocStats {
    /// The largest single allocation.
    pub largest: usize,
    /// The most heap bytes held at once beyond what was held before (the result included).
    pub peak_live: usize,
    /// Bytes allocated in all (a bound on work: an algorithm that rebuilds a structure
    /// over and over allocates it over and over).
    pub total: usize,
}

/// Runs `f` and reports what it allocated on this thread. Counts only under [`Counting`]
/// installed as the global allocator; otherwise every figure is 0.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, AllocStats) {
    let base = LIVE.get();
    PEAK.set(base);
    TOTAL.set(0);
    LARGEST.set(0);
    let r = f();
    let stats = AllocStats { largest: LARGEST.get(), peak_live: (PEAK.get() - base).max(0) as usize, total: TOTAL.get() };
    (r, stats)
}

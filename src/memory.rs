//! glibc's allocator raises its mmap threshold after a large block is freed (up to 32 MiB), so
//! the buffers of a decoded photo end up in the heap and stay there after the upload: RSS went
//! from 15 to over 100 MiB after four 12 MP uploads and did not come back. A fixed threshold
//! keeps large buffers in their own mappings, which go back to the system when freed, and
//! two heaps instead of sixteen keep less free memory idle.

/// Blocks this large or larger get their own mapping (and are returned when freed): glibc's
/// starting value, kept fixed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: i32 = 128 * 1024;

/// Heaps the allocator keeps (glibc's default: 8 per core). Each thread that meets a locked
/// heap takes another, and each heap keeps its own free memory: the server's threads (async
/// workers, SQLite's writer and readers' blocking threads, photo work) spread over 16 heaps
/// on two cores. With two, the soak levels off at 25 MiB instead of 33 (docs/benchmarks.md).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const ARENAS: i32 = 2;

/// Sets the allocator up for a long-running server. Call once, at start, before other threads.
#[allow(unsafe_code)]
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets parameters of glibc's allocator; it takes plain integers and
    // is called before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_ARENA_MAX, ARENAS);
    }
}

/// How often a running server gives free heap memory back ([`give_back_free_memory`]). glibc
/// keeps pages freed in the middle of its heaps for good (jemalloc, by default, returns them
/// after 10 s): after a busy spell RSS stayed 2.7 MiB above what was in use (a 2-minute soak,
/// docs/benchmarks.md).
pub const GIVE_BACK_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// Gives the heap's free memory back to the system, after a one-off job that used a lot (the
/// upgrade from the sled store held 58 MiB that glibc then kept for good).
#[allow(unsafe_code)]
pub fn give_back_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only hands free pages of glibc's allocator back to the system; it
    // takes the allocator's own locks and may be called from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

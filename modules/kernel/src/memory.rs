//! Giving freed memory back to the operating system after a rare, large allocation (an email
//! with documents attached is built whole in memory). glibc's allocator otherwise keeps the
//! pages for later, and the process would stay at its peak for good.

/// Returns the allocator's free pages to the system where the C library can (glibc on Linux);
/// does nothing elsewhere.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory the allocator holds as free; it touches no
    // memory in use and has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

//! The binary's allocator: mimalloc, returning freed memory to the system
//! at once.
//!
//! A large check makes and frees about four million small blocks (the
//! manifest's strings and links, the analysis' per-intent results, the
//! findings); with mimalloc the whole 20 MB check runs about 10% faster
//! than with glibc's malloc, and, purging at once instead of after its
//! default 10 ms (and committing arena memory as it is used rather than
//! up front), its resident peak is about 7% lower (docs/performance.md,
//! "The allocator").

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

unsafe extern "C" {
    /// mimalloc's `mi_option_set` (mimalloc.h, version 3 as built by
    /// libmimalloc-sys).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `mi_option_purge_delay` in mimalloc 3's `mi_option_t` (milliseconds).
const PURGE_DELAY: std::ffi::c_int = 15;

/// Sets the options above; called first thing in `main`, before the run
/// allocates anything large.
pub fn tune() {
    // SAFETY: mi_option_set takes two integers and only records them;
    // unknown options are ignored by mimalloc.
    unsafe {
        mi_option_set(PURGE_DELAY, 0);
    }
}

#[cfg(test)]
mod tests {
    unsafe extern "C" {
        fn mi_option_get(option: std::ffi::c_int) -> std::ffi::c_long;
    }

    #[test]
    fn purge_delay_is_zero_once_tuned() {
        // SAFETY: mi_option_get reads one integer option.
        let default = unsafe { mi_option_get(super::PURGE_DELAY) };
        assert_eq!(default, 1000, "mimalloc 3's default purge delay, in ms");
        super::tune();
        assert_eq!(unsafe { mi_option_get(super::PURGE_DELAY) }, 0);
    }
}

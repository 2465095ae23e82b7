//! The binary's allocator: mimalloc, with its default options.
//!
//! A large check makes and frees about four million small blocks (the
//! manifest's strings and links, the analysis' per-intent results, the
//! findings); mimalloc does that faster than glibc's malloc.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

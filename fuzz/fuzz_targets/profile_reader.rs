//! `wpp_fuzz::profile_reader` on the fuzzer's bytes (see its docs for what it checks).
#![no_main]

use wpp_test_support::alloc::Counting;

// Counted, so that the target can bound what the code under test allocates.
#[global_allocator]
static ALLOC: Counting = Counting;

libfuzzer_sys::fuzz_target!(|data: &[u8]| wpp_fuzz::profile_reader(data));

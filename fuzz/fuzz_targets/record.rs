//! Game records never panic when replayed.
#![no_main]
use chaupar_core::record::replay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = replay(s);
    }
});

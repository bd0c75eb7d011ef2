//! Compact rules and throws never panic.
#![no_main]
use chaupar_core::{Rules, Throw};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(r) = Rules::parse_compact(s) {
            assert_eq!(Rules::parse_compact(&r.compact()).unwrap(), r);
        }
        let _ = s.parse::<Throw>();
    }
});

//! Position text never panics, and what parses prints back to the same position.
#![no_main]
use chaupar_core::notation::{parse_position, position_text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(p) = parse_position(s) {
            assert_eq!(parse_position(&position_text(&p)).unwrap(), p);
        }
    }
});

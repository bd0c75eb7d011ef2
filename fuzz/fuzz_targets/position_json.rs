//! JSON positions never panic, and what parses round-trips.
#![no_main]
use chaupar_core::json::{parse_position, position_value};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(p) = parse_position(s) {
            assert_eq!(parse_position(&position_value(&p).to_string()).unwrap(), p);
        }
    }
});

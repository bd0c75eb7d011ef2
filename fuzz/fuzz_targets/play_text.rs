//! Play text against real positions never panics; what parses is a legal play.
#![no_main]
use chaupar_core::notation::parse_play;
use chaupar_core::{legal_plays, Position, Preset, Rules, Throw};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let preset = Preset::ALL[data[0] as usize % 3];
    let faces = Rules::preset(preset).faces;
    let v = faces.values();
    let t = Throw::new(
        [
            v[data[1] as usize % 4],
            v[data[2] as usize % 4],
            v[data[3] as usize % 4],
        ],
        faces,
    )
    .unwrap();
    let pos = Position::new(Rules::preset(preset), 4).unwrap();
    if let Ok(s) = std::str::from_utf8(&data[4..]) {
        if let Ok(play) = parse_play(&pos, t, s) {
            let all = legal_plays(&pos, t).unwrap();
            assert!(all.iter().any(|p| p.position == play.position));
        }
    }
});

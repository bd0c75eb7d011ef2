//! Drawing a position on the terminal.

use chaupar_core::board::{self, Square};
use chaupar_core::rules::Safe;
use chaupar_core::{Colour, Position};

/// The board as text: 19 × 19 cells of three characters, then one line per colour.
pub fn board(pos: &Position) -> String {
    let mut cells = vec![vec![String::new(); 19]; 19];
    for (r, row) in cells.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            let (r, c) = (r as u8, c as u8);
            *cell = if board::is_charkoni(r, c) {
                " # ".into()
            } else if let Some(sq) = Square::from_rc(r, c) {
                if pos.rules().safe == Safe::Castles && sq.is_castle() {
                    " + ".into()
                } else {
                    " . ".into()
                }
            } else {
                "   ".into()
            };
        }
    }
    for sq in Square::all() {
        let mut tokens = Vec::new();
        for colour in pos.colours().iter() {
            for p in board::progress_on(colour, sq) {
                let n = pos.count_at(colour, p);
                if n == 0 {
                    continue;
                }
                let letter = if pos.is_block(colour, p) {
                    colour.letter().to_ascii_lowercase()
                } else {
                    colour.letter()
                };
                tokens.push(if n > 1 {
                    format!("{letter}{n}")
                } else {
                    letter.to_string()
                });
            }
        }
        if !tokens.is_empty() {
            let (r, c) = sq.rc();
            let t = tokens.join("");
            cells[r as usize][c as usize] = format!("{t:^3}");
        }
    }
    let mut out = String::new();
    for row in cells {
        out.push_str(row.concat().trim_end());
        out.push('\n');
    }
    for colour in Colour::ALL {
        if !pos.colours().has(colour) {
            continue;
        }
        let pieces = pos.pieces(colour);
        let waiting = pieces.iter().filter(|p| **p == board::START).count();
        let home = pieces.iter().filter(|p| **p == board::HOME).count();
        let mut line = format!(
            "{:<6} {:?}  waiting {waiting}, home {home}, {}",
            colour.title(),
            pieces,
            if pos.has_captured(colour) {
                "has captured"
            } else {
                "no capture yet"
            }
        );
        for b in pos.blocks().filter(|b| b.colour == colour) {
            line.push_str(&format!(
                ", block at {} (stood {} turns)",
                b.progress, b.age
            ));
        }
        out.push_str(&line);
        out.push('\n');
    }
    match (pos.to_move(), pos.winner()) {
        (Some(c), _) => out.push_str(&format!(
            "{} to throw{}\n",
            c.title(),
            if pos.extra_throw() {
                " again (extra throw)"
            } else {
                ""
            }
        )),
        (None, Some(w)) => out.push_str(&format!("won by {w}\n")),
        (None, None) => out.push_str("dead: nobody can move again\n"),
    }
    out.push_str(
        "letters: Y R B G pieces (number = stack size), lower case = block; + castle; # Charkoni\n",
    );
    out
}

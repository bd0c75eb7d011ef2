//! A review drawn as a win-chance graph (SVG), as lichess draws its analysis:
//! pure string building from a [`Review`], no I/O.
//!
//! - **The line**: after every turn, the estimated chance that the first side
//!   (the first team, or the first colour in a solo game) wins. With two sides
//!   the area between the line and 50% is filled, in the first side's colour
//!   above the middle and the second's below. With more sides (solo games of
//!   three or four) each side has its own line; a side's value moves when it
//!   plays and is carried over the others' turns (the review values a play for
//!   the mover only), starting from an even share.
//! - **Points**: one `<circle class="point" data-turn="N">` per turn (N from 1),
//!   on the mover's line, with a `<title>` naming the turn; and a transparent
//!   column `<rect class="hit" data-turn="N">` over each turn, easier to click.
//! - **Blunders**: every unforced play whose loss is at least
//!   [`BAD`](crate::review::BAD): a ring `class="blunder bad"` or `"blunder
//!   very-bad"` (from [`VERY_BAD`](crate::review::VERY_BAD)) round its point.
//! - **Swings**: the [`SWINGS`] turns whose graphed value moved most from the
//!   turn before (by at least [`MIN_SWING`]), whether by the throw or by the
//!   play: a dashed vertical line `class="swing"` through the turn.
//! - **Legend**: each side's error rate (mean loss per unforced play, in
//!   percent of a game), bad and very bad plays, and luck (sum of its throws'
//!   luck, in percent).

use std::fmt::Write;

use chaupar_core::{Colour, Position};

use crate::eval::{sides, Side};
use crate::review::{Review, BAD, VERY_BAD};

/// How many of the biggest swings are marked.
pub const SWINGS: usize = 3;
/// The smallest change of win chance marked as a swing.
pub const MIN_SWING: f64 = 0.05;

/// The graph's width in SVG units.
const WIDTH: f64 = 720.0;
/// The plot's top, height and left and right margins.
const TOP: f64 = 10.0;
const PLOT: f64 = 180.0;
const LEFT: f64 = 36.0;
const RIGHT: f64 = 10.0;
/// Height of one legend line.
const LINE: f64 = 18.0;

/// The words of the graph, in English (`"en"`) or Russian (`"ru"`).
struct Words {
    error_rate: &'static str,
    bad: &'static str,
    very_bad: &'static str,
    luck: &'static str,
    turn: &'static str,
    title: &'static str,
}

const EN: Words = Words {
    error_rate: "error rate",
    bad: "bad plays:",
    very_bad: "very bad:",
    luck: "luck",
    turn: "turn",
    title: "Win chance after each turn",
};

// The counts follow their words ("плохих ходов: 1"), so that no Russian word
// has to agree with a number.
const RU: Words = Words {
    error_rate: "доля ошибок",
    bad: "плохих ходов:",
    very_bad: "очень плохих:",
    luck: "везение",
    turn: "ход",
    title: "Шансы на победу после каждого хода",
};

/// A side's name in the legend (`yellow+black` → "Yellow + Black", in Russian
/// "Жёлтые + Чёрные"); a name that is not colours is kept as it is.
fn side_name(side: &str, lang: &str) -> String {
    let names: Option<Vec<&str>> = side
        .split('+')
        .map(|c| {
            let c: Colour = c.trim().parse().ok()?;
            Some(match (lang, c) {
                ("ru", Colour::Yellow) => "Жёлтые",
                ("ru", Colour::Red) => "Красные",
                ("ru", Colour::Black) => "Чёрные",
                ("ru", Colour::Green) => "Зелёные",
                _ => c.title(),
            })
        })
        .collect();
    names.map_or_else(|| side.to_string(), |n| n.join(" + "))
}

/// The paint of a colour.
fn paint(c: Colour) -> &'static str {
    match c {
        Colour::Yellow => "#d9a400",
        Colour::Red => "#c8322b",
        Colour::Black => "#303030",
        Colour::Green => "#2e8b57",
    }
}

/// The paint of a side: its first colour's.
fn side_paint(s: Side) -> &'static str {
    Colour::ALL
        .into_iter()
        .find(|c| s.has(*c))
        .map_or("#888", paint)
}

/// Escapes text for XML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Each side's graphed win chance after every turn (`values[side][turn]`),
/// and the index of the side that moved in each turn.
pub fn values(review: &Review, start: &Position) -> (Vec<Vec<f64>>, Vec<usize>) {
    let all = sides(start);
    let n = all.len().max(1);
    let mut last = vec![1.0 / n as f64; n];
    let mut out = vec![Vec::with_capacity(review.turns.len()); n];
    let mut movers = Vec::with_capacity(review.turns.len());
    for t in &review.turns {
        let mover = t
            .colour
            .parse::<Colour>()
            .ok()
            .and_then(|c| all.iter().position(|s| s.has(c)))
            .unwrap_or(0);
        last[mover] = t.win.clamp(0.0, 1.0);
        if n == 2 {
            last[1 - mover] = 1.0 - last[mover];
        }
        for (i, v) in last.iter().enumerate() {
            out[i].push(*v);
        }
        movers.push(mover);
    }
    (out, movers)
}

/// The turns (from 1) marked as the biggest swings: the [`SWINGS`] largest
/// changes of the mover's graphed value from the turn before (at least
/// [`MIN_SWING`]), in turn order.
pub fn swings(values: &[Vec<f64>], movers: &[usize]) -> Vec<usize> {
    let n = values.len().max(1);
    let mut moves: Vec<(f64, usize)> = movers
        .iter()
        .enumerate()
        .map(|(k, &m)| {
            let before = if k == 0 {
                1.0 / n as f64
            } else {
                values[m][k - 1]
            };
            ((values[m][k] - before).abs(), k + 1)
        })
        .filter(|(d, _)| *d >= MIN_SWING)
        .collect();
    moves.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out: Vec<usize> = moves.into_iter().take(SWINGS).map(|m| m.1).collect();
    out.sort_unstable();
    out
}

/// The review of a game that began at `start` as an SVG graph, its words in
/// `lang` (`"ru"` for Russian, English otherwise). See the module documentation.
pub fn svg(review: &Review, start: &Position, lang: &str) -> String {
    let words = if lang == "ru" { &RU } else { &EN };
    let all = sides(start);
    let (vals, movers) = values(review, start);
    let turns = review.turns.len();
    let width = WIDTH - LEFT - RIGHT;
    let step = width / turns.max(1) as f64;
    let x = |k: usize| LEFT + (k as f64 + 0.5) * step;
    let y = |v: f64| TOP + (1.0 - v) * PLOT;
    let mid = y(0.5);
    let height = TOP + PLOT + 24.0 + LINE * review.sides.len() as f64 + 6.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="review-graph" viewBox="0 0 {WIDTH} {height:.0}" width="{WIDTH}" height="{height:.0}" font-family="sans-serif" font-size="12">"##
    );
    let _ = write!(s, "<title>{}</title>", esc(words.title));
    // The frame and the 25/50/75% lines.
    let _ = write!(
        s,
        r##"<rect x="{LEFT}" y="{TOP}" width="{width}" height="{PLOT}" fill="#f7f4ec" stroke="#bbb"/>"##
    );
    for p in [25, 50, 75] {
        let yy = y(p as f64 / 100.0);
        let _ = write!(
            s,
            r##"<line class="grid" x1="{LEFT}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#ccc" stroke-width="{}"/><text x="{:.1}" y="{:.1}" text-anchor="end" fill="#666">{p}%</text>"##,
            LEFT + width,
            if p == 50 { 1.5 } else { 0.5 },
            LEFT - 4.0,
            yy + 4.0
        );
    }
    if all.len() == 2 && turns > 0 {
        // The filled area around 50%: the first side's colour above, the second's below.
        let _ = write!(
            s,
            r##"<defs><linearGradient id="review-fill" gradientUnits="userSpaceOnUse" x1="0" y1="{TOP}" x2="0" y2="{:.1}"><stop offset="0.5" stop-color="{}" stop-opacity="0.35"/><stop offset="0.5" stop-color="{}" stop-opacity="0.35"/></linearGradient></defs>"##,
            TOP + PLOT,
            side_paint(all[0]),
            side_paint(all[1])
        );
        let mut pts = format!("{:.1},{mid:.1}", x(0));
        for (k, v) in vals[0].iter().enumerate() {
            let _ = write!(pts, " {:.1},{:.1}", x(k), y(*v));
        }
        let _ = write!(pts, " {:.1},{mid:.1}", x(turns - 1));
        let _ = write!(
            s,
            r##"<polygon class="area" points="{pts}" fill="url(#review-fill)"/>"##
        );
    }
    // The lines: one for two sides, one per side otherwise.
    let lines = if all.len() == 2 { 1 } else { all.len() };
    for (i, side) in all.iter().enumerate().take(lines) {
        let pts: Vec<String> = (vals[i].iter().enumerate())
            .map(|(k, v)| format!("{:.1},{:.1}", x(k), y(*v)))
            .collect();
        let _ = write!(
            s,
            r##"<polyline class="line" data-side="{}" points="{}" fill="none" stroke="{}" stroke-width="1.5"/>"##,
            esc(side.name()),
            pts.join(" "),
            side_paint(*side)
        );
    }
    // The swings.
    for k in swings(&vals, &movers) {
        let _ = write!(
            s,
            r##"<line class="swing" data-turn="{k}" x1="{xx:.1}" y1="{TOP}" x2="{xx:.1}" y2="{:.1}" stroke="#7a4fd0" stroke-width="1" stroke-dasharray="4 3"/>"##,
            TOP + PLOT,
            xx = x(k - 1)
        );
    }
    // A column per turn to click, then the points and the blunders' rings.
    for (k, t) in review.turns.iter().enumerate() {
        let _ = write!(
            s,
            r##"<rect class="hit" data-turn="{}" x="{:.1}" y="{TOP}" width="{step:.1}" height="{PLOT}" fill="transparent" style="cursor:pointer"/>"##,
            t.turn,
            x(k) - step / 2.0
        );
    }
    for (k, t) in review.turns.iter().enumerate() {
        let m = movers[k];
        let (cx, cy) = (x(k), y(if lines == 1 { vals[0][k] } else { vals[m][k] }));
        let tip = format!(
            "{} {}. {} {} {}: {:.0}%{}",
            words.turn,
            t.turn,
            t.colour,
            t.throw,
            t.played,
            100.0 * t.win,
            if t.verdict.is_empty() {
                String::new()
            } else {
                format!(" ({})", t.verdict)
            }
        );
        if t.choices > 1 && t.loss >= BAD {
            let class = if t.loss >= VERY_BAD {
                "very-bad"
            } else {
                "bad"
            };
            let colour = if t.loss >= VERY_BAD {
                "#d01c1c"
            } else {
                "#e08a00"
            };
            let _ = write!(
                s,
                r##"<circle class="blunder {class}" data-turn="{}" cx="{cx:.1}" cy="{cy:.1}" r="6" fill="none" stroke="{colour}" stroke-width="2"/>"##,
                t.turn
            );
        }
        let _ = write!(
            s,
            r##"<circle class="point" data-turn="{}" cx="{cx:.1}" cy="{cy:.1}" r="2.5" fill="{}" style="cursor:pointer"><title>{}</title></circle>"##,
            t.turn,
            paint(t.colour.parse().unwrap_or(Colour::Yellow)),
            esc(&tip)
        );
    }
    // The legend: each side's error rate, bad plays and luck.
    for (i, d) in review.sides.iter().enumerate() {
        let yy = TOP + PLOT + 24.0 + LINE * i as f64;
        let swatch = all.get(i).map_or("#888", |s| side_paint(*s));
        let _ = write!(
            s,
            r##"<g class="legend" data-side="{side}"><rect x="{LEFT}" y="{:.1}" width="12" height="12" fill="{swatch}"/><text x="{:.1}" y="{yy:.1}">{name}: {} {:.1}%, {} {}, {} {}, {} {:+.1}%</text></g>"##,
            yy - 10.0,
            LEFT + 18.0,
            words.error_rate,
            100.0 * d.error_rate,
            words.bad,
            d.bad,
            words.very_bad,
            d.very_bad,
            words.luck,
            100.0 * d.luck,
            side = esc(&d.side),
            name = esc(&side_name(&d.side, lang))
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::{review, SideReview, TurnReview};
    use crate::search::SearchConfig;
    use chaupar_core::{Game, Rules};

    fn turn(n: usize, colour: &str, win: f64, loss: f64, choices: usize) -> TurnReview {
        TurnReview {
            turn: n,
            colour: colour.into(),
            throw: "6-5-1".into(),
            played: "a<b & c".into(),
            best: String::new(),
            choices,
            win,
            best_win: win + loss,
            loss,
            verdict: crate::review::verdict(loss).into(),
            luck: 0.0,
            exact: false,
        }
    }

    fn side(name: &str) -> SideReview {
        SideReview {
            side: name.into(),
            unforced: 2,
            total_loss: 0.2,
            error_rate: 0.1,
            doubtful: 0,
            bad: 1,
            very_bad: 1,
            luck: -0.05,
        }
    }

    fn start(preset: &str) -> Position {
        Position::new(Rules::parse_compact(preset).unwrap(), 4).unwrap()
    }

    /// A made-up team game of four turns: a big swing at turn 3, a very bad
    /// play at turn 2 and a bad one at turn 4.
    fn made_up() -> Review {
        Review {
            turns: vec![
                turn(1, "yellow", 0.52, 0.0, 3),
                turn(2, "red", 0.45, 0.12, 5),
                turn(3, "black", 0.80, 0.0, 2),
                turn(4, "green", 0.22, 0.06, 4),
            ],
            sides: vec![side("yellow+black"), side("red+green")],
        }
    }

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).expect("well-formed XML")
    }

    fn with_class<'a>(
        doc: &'a roxmltree::Document<'a>,
        class: &'a str,
    ) -> Vec<roxmltree::Node<'a, 'a>> {
        doc.descendants()
            .filter(|n| {
                n.attribute("class")
                    .is_some_and(|c| c.split(' ').any(|w| w == class))
            })
            .collect()
    }

    #[test]
    fn one_point_per_turn_in_order_and_well_formed() {
        let svg = svg(&made_up(), &start("chaupar"), "en");
        let doc = parse(&svg);
        let turns: Vec<&str> = with_class(&doc, "point")
            .iter()
            .map(|n| n.attribute("data-turn").unwrap())
            .collect();
        assert_eq!(turns, ["1", "2", "3", "4"]);
        assert_eq!(with_class(&doc, "hit").len(), 4);
        // The notation's `<` and `&` are escaped, not broken markup.
        assert!(svg.contains("a&lt;b &amp; c"));
    }

    #[test]
    fn team_values_are_the_first_team_s_chance() {
        let (v, movers) = values(&made_up(), &start("chaupar"));
        assert_eq!(movers, [0, 1, 0, 1]);
        let want = [0.52, 0.55, 0.80, 0.78];
        for (a, b) in v[0].iter().zip(want) {
            assert!((a - b).abs() < 1e-9, "{a} vs {b}");
        }
        for (a, b) in v[0].iter().zip(&v[1]) {
            assert!((a + b - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn the_biggest_swing_and_the_blunders_are_marked() {
        let svg = svg(&made_up(), &start("chaupar"), "en");
        let doc = parse(&svg);
        let swings: Vec<&str> = with_class(&doc, "swing")
            .iter()
            .map(|n| n.attribute("data-turn").unwrap())
            .collect();
        // 0.55 -> 0.80 at turn 3 and 0.80 -> 0.78 (first team) at turn 4 is, for
        // its mover, 0.20 -> 0.22: turn 3 is the biggest; turns 1 and 4 move less
        // than MIN_SWING.
        assert!(swings.contains(&"3"), "{swings:?}");
        assert!(!swings.contains(&"1"));
        let blunders: Vec<(&str, bool)> = with_class(&doc, "blunder")
            .iter()
            .map(|n| {
                (
                    n.attribute("data-turn").unwrap(),
                    n.attribute("class").unwrap().contains("very-bad"),
                )
            })
            .collect();
        assert_eq!(blunders, [("2", true), ("4", false)]);
    }

    #[test]
    fn the_legend_gives_each_side_s_error_rate_and_luck() {
        let en = svg(&made_up(), &start("chaupar"), "en");
        let doc = parse(&en);
        let legend = with_class(&doc, "legend");
        assert_eq!(legend.len(), 2);
        let text: String = legend[0].descendants().filter_map(|n| n.text()).collect();
        assert!(text.contains("Yellow + Black: "), "{text}");
        assert!(text.contains("error rate 10.0%"), "{text}");
        assert!(text.contains("luck -5.0%"), "{text}");
        let ru = svg(&made_up(), &start("chaupar"), "ru");
        parse(&ru);
        assert!(ru.contains("доля ошибок 10.0%"));
        // Counts after their words: no "1 плохих".
        assert!(ru.contains("плохих ходов: 1, очень плохих: 1"), "{ru}");
        assert!(text.contains("bad plays: 1, very bad: 1"), "{text}");
        assert!(
            ru.contains("Жёлтые + Чёрные: "),
            "the sides named in Russian"
        );
        assert!(ru.contains(r#"data-side="yellow+black""#));
    }

    #[test]
    fn an_empty_review_is_still_a_graph() {
        let r = Review {
            turns: vec![],
            sides: vec![],
        };
        let svg = svg(&r, &start("chaupar"), "en");
        assert!(with_class(&parse(&svg), "point").is_empty());
    }

    #[test]
    fn a_real_game_graph_has_a_point_for_every_turn() {
        for preset in ["chaupar", "chausar", "classic"] {
            let rules = Rules::parse_compact(preset).unwrap();
            let mut game = Game::new(rules, 4, 7).unwrap();
            let mut bot = crate::GreedyBot::new(7);
            for _ in 0..40 {
                if game.position().to_move().is_none() {
                    break;
                }
                let throw = game.throw().unwrap();
                let pos = *game.position();
                let plays = game.legal_plays().unwrap();
                let i = crate::Bot::choose(&mut bot, &pos, throw, &plays);
                game.play(&plays[i].steps).unwrap();
            }
            let cfg = SearchConfig {
                candidates: 0,
                ..Default::default()
            };
            let r = review(&game, &cfg);
            let svg = svg(&r, game.start(), "en");
            let doc = parse(&svg);
            assert_eq!(with_class(&doc, "point").len(), game.turns().len());
            assert_eq!(with_class(&doc, "legend").len(), r.sides.len());
        }
    }
}

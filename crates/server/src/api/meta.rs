//! Static facts: presets and options (`/api/meta`), the board's geometry
//! (`/api/board`) and the rules text (`/api/rules`).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use axum::Json;
use chaupar_core::board::{self, Square};
use chaupar_core::rules::OPTIONS;
use chaupar_core::{Colour, Preset, Rules};
use pulldown_cmark::{CowStr, Event, Options as Markdown, Parser, Tag, TagEnd};
use serde::Serialize;

/// The numbers of players a game may have.
const PLAYERS: [u8; 3] = [2, 3, 4];

/// `/api/meta`: the presets, the options, the levels, and each colour's letter
/// and partner and which colours play for each seating, so that the page
/// derives none of them.
#[derive(Serialize)]
pub(crate) struct Meta {
    presets: Vec<PresetView>,
    options: Vec<OptionView>,
    levels: [u8; 5],
    colours: Vec<ColourView>,
    /// Seating value, then number of players.
    seating: BTreeMap<&'static str, BTreeMap<u8, Seating>>,
}

#[derive(Serialize)]
struct PresetView {
    name: &'static str,
    source: &'static str,
    values: BTreeMap<&'static str, String>,
    players: Vec<u8>,
}

#[derive(Serialize)]
struct OptionView {
    name: &'static str,
    values: &'static [&'static str],
    about: &'static str,
}

#[derive(Serialize)]
struct ColourView {
    name: Colour,
    letter: char,
    partner: Colour,
}

#[derive(Serialize)]
struct Seating {
    colours: Vec<Colour>,
    teams: bool,
}

pub(crate) async fn meta() -> Json<Meta> {
    let presets = Preset::ALL
        .iter()
        .map(|p| {
            let r = Rules::preset(*p);
            PresetView {
                name: p.name(),
                source: p.source(),
                values: OPTIONS
                    .iter()
                    .map(|o| (o.name, r.get(o.name).unwrap_or_default()))
                    .collect(),
                players: PLAYERS
                    .into_iter()
                    .filter(|n| r.seats(*n).is_ok())
                    .collect(),
            }
        })
        .collect();
    let options = OPTIONS
        .iter()
        .map(|o| OptionView {
            name: o.name,
            values: o.values,
            about: o.about,
        })
        .collect();
    let colours = Colour::ALL
        .iter()
        .map(|c| ColourView {
            name: *c,
            letter: c.letter(),
            partner: c.partner(),
        })
        .collect();
    let seating_values = OPTIONS
        .iter()
        .find(|o| o.name == "seating")
        .map(|o| o.values)
        .unwrap_or_default();
    let mut seating = BTreeMap::new();
    for value in seating_values {
        let mut rules = Rules::preset(Preset::Chaupar);
        if rules.set("seating", value).is_err() {
            continue;
        }
        let by_players = PLAYERS
            .into_iter()
            .filter_map(|n| {
                let (cs, teams) = rules.seats(n).ok()?;
                let colours = cs.iter().collect();
                Some((n, Seating { colours, teams }))
            })
            .collect();
        seating.insert(*value, by_players);
    }
    Json(Meta {
        presets,
        options,
        levels: [1, 2, 3, 4, 5],
        colours,
        seating,
    })
}

/// `/api/board`: the squares, castles, Charkoni and each colour's track as
/// `[row, column]`, so that the page draws the board from the engine's geometry.
#[derive(Serialize)]
pub(crate) struct Board {
    size: u8,
    home: u8,
    half: u8,
    squares: Vec<(u8, u8)>,
    castles: Vec<(u8, u8)>,
    charkoni: [u8; 2],
    /// Each colour's track: progress 0..=home to a square (none off the board).
    tracks: BTreeMap<Colour, Vec<Option<(u8, u8)>>>,
}

pub(crate) async fn board() -> Json<Board> {
    let track = |c: Colour| {
        (0..=board::HOME)
            .map(|p| board::square(c, p).map(Square::rc))
            .collect()
    };
    Json(Board {
        size: 19,
        home: board::HOME,
        half: board::HALF,
        squares: Square::all().map(Square::rc).collect(),
        castles: Square::all()
            .filter(|s| s.is_castle())
            .map(Square::rc)
            .collect(),
        charkoni: [8, 10],
        tracks: Colour::ALL.into_iter().map(|c| (c, track(c))).collect(),
    })
}

/// `/api/rules`: `docs/rules.md` as it was when the server was built, and as HTML.
#[derive(Clone, Serialize)]
pub(crate) struct RulesText {
    markdown: &'static str,
    html: String,
}

pub(crate) async fn rules() -> Json<RulesText> {
    static RULES: OnceLock<RulesText> = OnceLock::new();
    let md = include_str!(concat!(env!("OUT_DIR"), "/rules.md"));
    Json(
        RULES
            .get_or_init(|| RulesText {
                markdown: md,
                html: to_html(md),
            })
            .clone(),
    )
}

/// Renders Markdown (with tables) as HTML. Headings get GitHub's ids, so that
/// the text's links to its sections work; HTML in the text is shown as text.
pub(crate) fn to_html(md: &str) -> String {
    let mut events: Vec<Event> = Parser::new_ext(md, Markdown::ENABLE_TABLES)
        .map(|e| match e {
            Event::Html(h) | Event::InlineHtml(h) => Event::Text(h),
            e => e,
        })
        .collect();
    let mut i = 0;
    while i < events.len() {
        if let Event::Start(Tag::Heading { .. }) = events[i] {
            let mut text = String::new();
            for e in &events[i + 1..] {
                match e {
                    Event::End(TagEnd::Heading(_)) => break,
                    Event::Text(t) | Event::Code(t) => text.push_str(t),
                    _ => {}
                }
            }
            if let Event::Start(Tag::Heading { id, .. }) = &mut events[i] {
                *id = Some(CowStr::from(slug(&text)));
            }
        }
        i += 1;
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

/// A heading's id as GitHub makes it: lower case, spaces to `-`, other
/// punctuation dropped.
fn slug(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn renders_the_basics() {
        let h = super::to_html(
            "# Title\n\nSome *it* and **b** `c<`.\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n<b>raw</b>\n",
        );
        assert!(h.contains("<h1 id=\"title\">Title</h1>"), "{h}");
        assert!(h.contains("<em>it</em>"));
        assert!(h.contains("<strong>b</strong>"));
        assert!(h.contains("<code>c&lt;</code>"));
        assert!(h.contains("<li>a</li>"));
        assert!(h.contains("<td>1</td>"));
        assert!(h.contains("&lt;b&gt;raw"), "{h}");
    }

    #[test]
    fn headings_get_the_ids_the_text_links_to() {
        let h = super::to_html("### `unused` — points that cannot be used\n");
        assert!(
            h.contains("<h3 id=\"unused--points-that-cannot-be-used\">"),
            "{h}"
        );
        let rules = super::to_html(include_str!(concat!(env!("OUT_DIR"), "/rules.md")));
        assert!(rules.contains("<table>") && rules.contains("<h2 id=\"the-dice\">"));
    }
}

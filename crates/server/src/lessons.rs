//! Lessons: short texts, each with a real position, a throw and a task, judged by
//! the engine. The lessons are data (`data/lessons.json`, embedded); a task is a
//! [`Goal`], a condition on the position reached after the person's whole play.

use std::sync::OnceLock;

use chaupar_core::notation::parse_position;
use chaupar_core::{legal_plays, Colour, Play, Position, Throw};
use serde::{Deserialize, Serialize};

/// The lessons as shipped: `crates/server/data/lessons.json`.
const LESSONS_JSON: &str = include_str!("../data/lessons.json");

/// A text in English and Russian.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Words {
    /// In English.
    pub en: String,
    /// In Russian.
    pub ru: String,
}

/// What a lesson asks for: a condition on the position after the whole play,
/// for the colour that throws (the *mover*). In JSON one key: `{"captured":
/// "red"}`, `{"stack_of": 2}`, `{"home": 2}`, `{"pieces_at": {"progress": 30,
/// "count": 2}}`, `{"block": true}`, `{"passed_points": true}`,
/// `{"extra_throw": true}`, `{"won": true}`, `{"all": [...]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// A piece of this colour was sent back to the Charkoni.
    Captured(Colour),
    /// The mover has a super-piece or group of at least this many pieces (a
    /// block does not count).
    StackOf(u8),
    /// At least this many of the mover's pieces are home.
    Home(u8),
    /// At least `count` of the mover's pieces stand at `progress`.
    PiecesAt {
        /// The progress.
        progress: u8,
        /// How many pieces at least.
        count: u8,
    },
    /// The mover formed a new block (or, with `false`, did not).
    Block(bool),
    /// The partner moved with passed points (or, with `false`, did not).
    PassedPoints(bool),
    /// The mover throws again (or, with `false`, does not).
    ExtraThrow(bool),
    /// The mover's side won (or, with `false`, did not).
    Won(bool),
    /// Every one of these.
    All(Vec<Goal>),
}

impl Goal {
    /// Whether the play from `start` (the mover to throw) to `end` meets the goal.
    pub fn met(&self, start: &Position, end: &Position) -> bool {
        self.first_unmet(start, end).is_none()
    }

    /// The first part of the goal that the play from `start` to `end` does not
    /// meet, or `None` when it meets all.
    pub fn first_unmet(&self, start: &Position, end: &Position) -> Option<&Goal> {
        let Some(mover) = start.to_move() else {
            return Some(self);
        };
        let ok = match self {
            Goal::All(goals) => return goals.iter().find_map(|g| g.first_unmet(start, end)),
            Goal::Captured(c) => waiting(end, *c) > waiting(start, *c),
            Goal::StackOf(n) => end
                .stacks(mover)
                .any(|(p, k)| p != 0 && p != 84 && k >= *n && !end.is_block(mover, p)),
            Goal::Home(n) => end.count_at(mover, 84) >= *n as usize,
            Goal::PiecesAt { progress, count } => end.count_at(mover, *progress) >= *count as usize,
            Goal::Block(b) => {
                let new = end
                    .blocks()
                    .any(|k| k.colour == mover && !start.is_block(mover, k.progress));
                new == *b
            }
            Goal::PassedPoints(b) => {
                let partner = start.has_teams().then(|| mover.partner());
                let moved = partner.is_some_and(|p| start.pieces(p) != end.pieces(p));
                moved == *b
            }
            Goal::ExtraThrow(b) => (end.extra_throw() && end.to_move() == Some(mover)) == *b,
            Goal::Won(b) => end.winner().is_some_and(|w| w.includes(mover)) == *b,
        };
        (!ok).then_some(self)
    }

    /// Why a play does not meet this goal, in English and Russian.
    pub fn unmet(&self) -> Words {
        let (en, ru) = match self {
            Goal::All(_) => (
                "Not every part of the task is done.".into(),
                "Задание выполнено не полностью.".into(),
            ),
            Goal::Captured(c) => (
                format!("No {} piece was captured.", c.name()),
                format!("Ни одна {} фишка не срублена.", colour_ru(*c)),
            ),
            Goal::StackOf(n) => (
                format!("You made no super-piece of {n}."),
                format!("Суперфишка из {} не собрана.", crate::i18n::of_pieces(*n)),
            ),
            Goal::Home(n) => (
                format!("Fewer than {n} of your pieces are home."),
                format!("Домой пришло меньше фишек, чем нужно ({n})."),
            ),
            Goal::PiecesAt { progress, count } => (
                format!("Fewer than {count} of your pieces stand on {progress}."),
                format!("На поле {progress} должно стоять ваших фишек: {count}."),
            ),
            Goal::Block(true) => ("You built no block.".into(), "Блок не построен.".into()),
            Goal::Block(false) => ("You built a block.".into(), "Вы построили блок.".into()),
            Goal::PassedPoints(true) => (
                "Your partner did not move with the passed points.".into(),
                "Союзник не сыграл переданными очками.".into(),
            ),
            Goal::PassedPoints(false) => (
                "Points passed to your partner.".into(),
                "Очки перешли к союзнику.".into(),
            ),
            Goal::ExtraThrow(true) => (
                "You earned no extra throw.".into(),
                "Дополнительного броска нет.".into(),
            ),
            Goal::ExtraThrow(false) => (
                "You earned an extra throw.".into(),
                "Вы заработали дополнительный бросок.".into(),
            ),
            Goal::Won(true) => (
                "Your side has not won yet.".into(),
                "Ваша сторона ещё не победила.".into(),
            ),
            Goal::Won(false) => ("Your side won.".into(), "Ваша сторона победила.".into()),
        };
        Words { en, ru }
    }
}

/// How many of a colour's pieces wait in the Charkoni.
fn waiting(pos: &Position, colour: Colour) -> usize {
    pos.count_at(colour, 0)
}

/// A colour's adjective in Russian, feminine (agreeing with «фишка»).
fn colour_ru(c: Colour) -> &'static str {
    match c {
        Colour::Yellow => "жёлтая",
        Colour::Red => "красная",
        Colour::Black => "чёрная",
        Colour::Green => "зелёная",
    }
}

/// One lesson, as written in `data/lessons.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Its id, used in the URL (`#/learn/ID`, `/api/lessons/ID/...`).
    pub id: String,
    /// The preset it teaches (the position's).
    pub preset: String,
    /// Its title.
    pub title: Words,
    /// What it teaches, in a few sentences.
    pub text: Words,
    /// What to do.
    pub task: Words,
    /// A hint.
    pub hint: Words,
    /// The position, as position text (`docs/notation.md`).
    pub position: String,
    /// The throw, as the dice fell.
    pub throw: [u8; 3],
    /// The condition the play must meet.
    pub goal: Goal,
}

impl Lesson {
    /// The position to play from.
    pub fn start(&self) -> Result<Position, String> {
        parse_position(&self.position).map_err(|e| format!("lesson {}: {e}", self.id))
    }

    /// The throw, checked against the position's dice.
    pub fn throw_of(&self, pos: &Position) -> Result<Throw, String> {
        Throw::new(self.throw, pos.rules().faces).map_err(|e| format!("lesson {}: {e}", self.id))
    }

    /// A correct play: the first legal play, in the engine's order, that meets
    /// the goal (`None` if none does).
    pub fn answer(&self) -> Result<Option<Play>, String> {
        let pos = self.start()?;
        let throw = self.throw_of(&pos)?;
        let plays = legal_plays(&pos, throw).map_err(|e| format!("lesson {}: {e}", self.id))?;
        Ok(plays.into_iter().find(|p| self.goal.met(&pos, &p.position)))
    }

    /// Whether the play that ends in `end` solves the lesson, and if not, why.
    pub fn judge(&self, start: &Position, end: &Position) -> Result<(), Words> {
        match self.goal.first_unmet(start, end) {
            None => Ok(()),
            Some(g) => Err(g.unmet()),
        }
    }
}

/// Every lesson, read once from the embedded data (an error names what is
/// wrong in it; `tests/lessons.rs` checks that there is none).
pub fn all() -> Result<&'static [Lesson], &'static str> {
    static LESSONS: OnceLock<Result<Vec<Lesson>, String>> = OnceLock::new();
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        lessons: Vec<Lesson>,
    }
    LESSONS
        .get_or_init(|| {
            serde_json::from_str::<File>(LESSONS_JSON)
                .map(|f| f.lessons)
                .map_err(|e| format!("data/lessons.json: {e}"))
        })
        .as_ref()
        .map(|v| v.as_slice())
        .map_err(|e| e.as_str())
}

/// The lesson with this id.
pub fn find(id: &str) -> Option<&'static Lesson> {
    all().ok()?.iter().find(|l| l.id == id)
}

#[cfg(test)]
mod tests {
    use super::Goal;

    #[test]
    fn an_unmet_stack_is_counted_in_russian() {
        assert_eq!(
            Goal::StackOf(2).unmet().ru,
            "Суперфишка из 2 фишек не собрана."
        );
        assert_eq!(
            Goal::StackOf(4).unmet().ru,
            "Суперфишка из 4 фишек не собрана."
        );
        assert_eq!(Goal::StackOf(2).unmet().en, "You made no super-piece of 2.");
    }
}

//! Russian wording of why a step is not allowed (the engine gives English), and
//! the plural rule every Russian message with a count goes by.

use chaupar_core::{Colour, Illegal};

fn colour(c: Colour) -> &'static str {
    match c {
        Colour::Yellow => "жёлтых",
        Colour::Red => "красных",
        Colour::Black => "чёрных",
        Colour::Green => "зелёных",
    }
}

fn size(n: u8) -> &'static str {
    match n {
        1 => "одиночная фишка",
        2 => "двойная суперфишка",
        3 => "тройная суперфишка",
        _ => "четверная суперфишка",
    }
}

/// The form a Russian word takes after the count `n`, by the usual rule: `one`
/// after 1, 21, 31, 101 (not 11: «1 очко», «21 очко»), `few` after 2 to 4, 22
/// to 24 (not 12 to 14: «2 очка»), `many` after 0, 5 to 20, 25 to 30, 111
/// («5 очков», «11 очков»).
pub fn plural<'a>(n: u64, one: &'a str, few: &'a str, many: &'a str) -> &'a str {
    match (n % 10, n % 100) {
        (_, 11..=14) => many,
        (1, _) => one,
        (2..=4, _) => few,
        _ => many,
    }
}

/// The count `n` with the word in the form it takes after it («4 очка»): see [`plural`].
pub fn counted(n: impl Into<u64>, one: &str, few: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", plural(n, one, few, many))
}

/// «N фишка/фишки/фишек» (nominative: «2 фишки стоят»).
fn pieces(n: u8) -> String {
    counted(n, "фишка", "фишки", "фишек")
}

/// «из N фишки/фишек» (genitive: «заслон из 2 фишек», «из 21 фишки»).
pub(crate) fn of_pieces(n: u8) -> String {
    counted(n, "фишки", "фишек", "фишек")
}

/// «N очко/очка/очков».
fn points(n: u8) -> String {
    counted(n, "очко", "очка", "очков")
}

/// Why a step is not allowed, in Russian.
pub fn why_ru(why: &Illegal) -> String {
    use Illegal::*;
    match why {
        GameOver => "партия окончена".into(),
        TurnOver => "ход окончен: больше нечем ходить".into(),
        NotYourPart { colour: c, actor } => format!(
            "фишки {} сейчас не ходят; эта часть хода — {}",
            colour(*c),
            colour(*actor)
        ),
        NoPiece {
            colour: c,
            progress,
        } => {
            format!(
                "на {progress} нет фишки {}, которая может ходить",
                colour(*c)
            )
        }
        AtHome => "эта фишка уже дома".into(),
        BadSize { pieces: n, there } => format!(
            "{} не {} ходить отсюда: здесь {}",
            pieces(*n),
            plural(u64::from(*n), "может", "могут", "могут"),
            pieces(*there)
        ),
        StackMovesWhole { size: n } => format!(
            "{} ходит целиком; по этим правилам её нельзя разделить",
            size(*n)
        ),
        BlockMovesApart => "блок никогда не ходит целиком: ходите одной из его фишек".into(),
        GroupNeedsPair => {
            "фишки, стоящие вместе, ходят вместе только с парой, и тогда все сразу".into()
        }
        NoSuchDie { by } => format!("кости со значением {by} не осталось"),
        NoPair { by } => format!("пары, дающей {by}, не осталось"),
        PartTooBig { by, left } => format!("осталось только {}, а не {by}", points(*left)),
        AlreadyMoved => "эта фишка уже получила свою часть броска в этот ход".into(),
        Overshoot { need } => {
            format!(
                "фишка входит домой только точным числом: нужно {}",
                points(*need)
            )
        }
        NoCapture { .. } => "взятия ещё не было, поэтому ни одна фишка не может войти домой".into(),
        TeamOrder {
            first,
            column: true,
            ..
        } => format!(
            "все фишки {} должны быть дома, прежде чем эта фишка пойдёт по средней дорожке",
            colour(*first)
        ),
        TeamOrder { first, .. } => format!("сначала все фишки {} должны быть дома", colour(*first)),
        BlockOnPath { at } => format!("на пути стоит блок (на {at}); его нельзя пройти"),
        BlockadeOnPath { at, size: n } => {
            format!(
                "на пути заслон из {} (на {at}); пройти его может только группа не меньше",
                of_pieces(*n)
            )
        }
        BlockThere => "на этой клетке стоит блок".into(),
        OwnBlock => "там ваш блок; третья фишка к блоку не присоединяется".into(),
        BlockadeThere { size: n } => {
            format!(
                "там заслон из {}; взять его может только группа не меньше",
                of_pieces(*n)
            )
        }
        BiggerEnemy {
            colour: c, size: n, ..
        } => format!(
            "там стоит {} {}; взять её может только не меньшая",
            size(*n),
            colour(*c)
        ),
        BlockImmune { colour: c } => format!("там блок {}; блоки не берутся", colour(*c)),
        SafeSquare { colour: c } => format!("это безопасная клетка, её держат {}", colour(*c)),
        Declare { needed: true } => {
            "вы встаёте на свою одиночную фишку: объявите суперфишку или блок".into()
        }
        Declare { needed: false } => "в этом шаге нечего объявлять".into(),
        NotAhead => "эта клетка не впереди этой фишки на её пути".into(),
        WrongDestination { to } => format!("этот ход заканчивается на {to}"),
        MustUseMore => "так останется неиспользованной большая часть броска, чем необходимо".into(),
        MustBreakBlock { progress } => {
            format!("блок на {progress} простоял свой срок и должен быть разбит в этот ход")
        }
        #[allow(unreachable_patterns)]
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{plural, why_ru};
    use chaupar_core::Illegal;

    #[test]
    fn says_it_in_russian() {
        let s = why_ru(&Illegal::PartTooBig { by: 9, left: 4 });
        assert_eq!(s, "осталось только 4 очка, а не 9");
    }

    #[test]
    fn counts_take_the_russian_plural() {
        let form = |n| plural(n, "очко", "очка", "очков");
        for (n, want) in [
            (0, "очков"),
            (1, "очко"),
            (2, "очка"),
            (4, "очка"),
            (5, "очков"),
            (11, "очков"),
            (12, "очков"),
            (14, "очков"),
            (20, "очков"),
            (21, "очко"),
            (22, "очка"),
            (25, "очков"),
            (101, "очко"),
            (111, "очков"),
            (112, "очков"),
            (122, "очка"),
        ] {
            assert_eq!(form(n), want, "{n}");
        }
    }

    #[test]
    fn messages_with_counts_agree() {
        let left = |left| why_ru(&Illegal::PartTooBig { by: 30, left });
        assert_eq!(left(1), "осталось только 1 очко, а не 30");
        assert_eq!(left(2), "осталось только 2 очка, а не 30");
        assert_eq!(left(11), "осталось только 11 очков, а не 30");
        assert_eq!(left(21), "осталось только 21 очко, а не 30");
        assert_eq!(
            why_ru(&Illegal::BadSize {
                pieces: 2,
                there: 1
            }),
            "2 фишки не могут ходить отсюда: здесь 1 фишка"
        );
        assert_eq!(
            why_ru(&Illegal::BadSize {
                pieces: 1,
                there: 5
            }),
            "1 фишка не может ходить отсюда: здесь 5 фишек"
        );
        assert_eq!(
            why_ru(&Illegal::Overshoot { need: 3 }),
            "фишка входит домой только точным числом: нужно 3 очка"
        );
        assert_eq!(
            why_ru(&Illegal::BlockadeThere { size: 2 }),
            "там заслон из 2 фишек; взять его может только группа не меньше"
        );
    }
}

//! Russian wording of why a step is not allowed (the engine gives English).

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
        BadSize { pieces, there } => {
            format!("{pieces} фишек не могут ходить отсюда: здесь стоит {there}")
        }
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
        PartTooBig { by, left } => format!("осталось только {left} очков, а не {by}"),
        AlreadyMoved => "эта фишка уже получила свою часть броска в этот ход".into(),
        Overshoot { need } => {
            format!("фишка входит домой только точным числом: нужно {need}")
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
            format!("на пути заслон из {n} (на {at}); пройти его может только группа не меньше")
        }
        BlockThere => "на этой клетке стоит блок".into(),
        OwnBlock => "там ваш блок; третья фишка к блоку не присоединяется".into(),
        BlockadeThere { size: n } => {
            format!("там заслон из {n}; взять его может только группа не меньше")
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
    #[test]
    fn says_it_in_russian() {
        let s = super::why_ru(&chaupar_core::Illegal::PartTooBig { by: 9, left: 4 });
        assert_eq!(s, "осталось только 4 очков, а не 9");
    }
}

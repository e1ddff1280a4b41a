//! B's eight-round deal: a variation of ordinary Vingt-un in which every deal
//! lasts eight rounds, each played its own way (house rule `eight_round_deal`).
//!
//! The rounds, in the order of the seed text:
//! 1. Ordinary Vingt-un.
//! 2. Imaginary Tens: the players stake before the card; ten points are added
//!    to the one card dealt, so an ace is a natural and a tenth card twenty;
//!    then each draws or stands.
//! 3. Blind Vingt-un: the players stake, then get two cards they may not look
//!    at; they may draw, blind. Their hands are turned up and settled at the
//!    end: over pays, a natural is paid as one, the rest against the dealer.
//! 4. Sympathy and Antipathy: each player stakes and elects one; two cards of
//!    one colour, Sympathy wins; of two colours, Antipathy.
//! 5. Rouge et Noir: each player stakes and names red or black; one card (or
//!    three, two of three deciding: `rouge_et_noir_cards`) gives the colour.
//! 6. Self and Company: the players stake; the dealer turns up a card for
//!    himself and one for the company: alike, he wins; otherwise he turns on
//!    until a card pairs one of them: his own first, he wins, the company's
//!    first, he pays.
//! 7. Differences: two cards face up to each player and to the dealer (an ace
//!    counts one); the dealer pays the higher hands and receives from the
//!    lower at `differences_rate` a point; ties cancel.
//! 8. The Clock: with the full pack shuffled, the dealer turns up cards calling
//!    one, two, ... king: a card that answers its call wins him `clock_stake`
//!    from each player; thirteen with none pays each the same.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};

/// How a round is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundGame {
    /// Ordinary Vingt-un (every round outside the eight-round deal).
    Ordinary,
    /// The eight-round deal's second round.
    ImaginaryTens,
    /// The third.
    Blind,
    /// The fourth.
    SympathyAntipathy,
    /// The fifth.
    RougeEtNoir,
    /// The sixth.
    SelfAndCompany,
    /// The seventh.
    Differences,
    /// The eighth.
    Clock,
}

/// What a player elects before his cards in Sympathy and Antipathy or Rouge et Noir.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// Two cards of one colour.
    Sympathy,
    /// Two cards of two colours.
    Antipathy,
    /// A red card (the most of three).
    Red,
    /// A black card.
    Black,
}

/// The rounds of one eight-round deal, in order.
pub const EIGHT_ROUNDS: [RoundGame; 8] = [
    RoundGame::Ordinary,
    RoundGame::ImaginaryTens,
    RoundGame::Blind,
    RoundGame::SympathyAntipathy,
    RoundGame::RougeEtNoir,
    RoundGame::SelfAndCompany,
    RoundGame::Differences,
    RoundGame::Clock,
];

impl RoundGame {
    /// The game of the deal's `round`-th round (1-based) of an eight-round deal.
    pub fn of_round(round: u32) -> RoundGame {
        let i = (round.max(1) - 1) as usize % EIGHT_ROUNDS.len();
        EIGHT_ROUNDS[i]
    }

    /// Ordinary Vingt-un.
    pub fn is_ordinary(&self) -> bool {
        *self == RoundGame::Ordinary
    }

    /// Its name at the table.
    pub const fn name(self) -> &'static str {
        match self {
            RoundGame::Ordinary => "Vingt-un",
            RoundGame::ImaginaryTens => "Imaginary Tens",
            RoundGame::Blind => "Blind Vingt-un",
            RoundGame::SympathyAntipathy => "Sympathy and Antipathy",
            RoundGame::RougeEtNoir => "Rouge et Noir",
            RoundGame::SelfAndCompany => "Self and Company",
            RoundGame::Differences => "Differences",
            RoundGame::Clock => "the Clock",
        }
    }

    /// What the table does in it, in a line.
    pub const fn how(self) -> &'static str {
        match self {
            RoundGame::Ordinary => "ordinary Vingt-un",
            RoundGame::ImaginaryTens => {
                "stake first; one card, counted ten more (an ace is a natural); draw or stand"
            }
            RoundGame::Blind => {
                "stake first; two cards not looked at; draw blind; all shown at the end"
            }
            RoundGame::SympathyAntipathy => {
                "stake and elect sympathy or antipathy; two cards: one colour, sympathy wins"
            }
            RoundGame::RougeEtNoir => "stake and name red or black; the card's colour decides",
            RoundGame::SelfAndCompany => {
                "stake; the dealer turns up his card and the company's, then on until one is paired"
            }
            RoundGame::Differences => {
                "two cards face up to each and the dealer (ace one); the points between them are paid"
            }
            RoundGame::Clock => {
                "the dealer turns up cards calling one to king: a card on its call wins him the stake"
            }
        }
    }

    /// The Vingt-un rounds: hands drawn to, the dealer playing last.
    pub const fn is_vingt_un(self) -> bool {
        matches!(
            self,
            RoundGame::Ordinary | RoundGame::ImaginaryTens | RoundGame::Blind
        )
    }

    /// The players stake before any card of the round is dealt (in ordinary
    /// Vingt-un they stake on their first card; in Differences and the Clock
    /// the house rules set what is paid).
    pub const fn stakes_first(self) -> bool {
        matches!(
            self,
            RoundGame::ImaginaryTens
                | RoundGame::Blind
                | RoundGame::SympathyAntipathy
                | RoundGame::RougeEtNoir
                | RoundGame::SelfAndCompany
        )
    }

    /// Whether the players stake at all.
    pub const fn staked(self) -> bool {
        !matches!(self, RoundGame::Differences | RoundGame::Clock)
    }

    /// The two choices a player elects between before his cards, if any.
    pub const fn choices(self) -> Option<[Choice; 2]> {
        match self {
            RoundGame::SympathyAntipathy => Some([Choice::Sympathy, Choice::Antipathy]),
            RoundGame::RougeEtNoir => Some([Choice::Red, Choice::Black]),
            _ => None,
        }
    }
}

impl fmt::Display for RoundGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Choice {
    /// The word at the table.
    pub const fn word(self) -> &'static str {
        match self {
            Choice::Sympathy => "sympathy",
            Choice::Antipathy => "antipathy",
            Choice::Red => "red",
            Choice::Black => "black",
        }
    }

    /// Whether these cards bear the choice out: for Sympathy and Antipathy
    /// two cards, for red and black the colour of one card or of two of three.
    pub fn won_by(self, cards: &[Card]) -> bool {
        let red = cards.iter().filter(|c| is_red(c.suit)).count();
        match self {
            Choice::Sympathy => red == 0 || red == cards.len(),
            Choice::Antipathy => red != 0 && red != cards.len(),
            Choice::Red => 2 * red > cards.len(),
            Choice::Black => 2 * red < cards.len(),
        }
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Hearts and diamonds.
pub const fn is_red(suit: Suit) -> bool {
    matches!(suit, Suit::Hearts | Suit::Diamonds)
}

/// The Clock's call for the `n`-th card turned up (1-based): one (an ace) to
/// thirteen (a king).
pub fn clock_call(n: usize) -> Option<Rank> {
    Rank::ALL.get(n.checked_sub(1)?).copied()
}

/// A hand of Differences: two cards, an ace counting one.
pub fn differences_points(cards: &[Card]) -> u8 {
    cards.iter().map(|c| c.rank.points()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(codes: &[&str]) -> Vec<Card> {
        codes.iter().map(|c| c.parse().expect("a card")).collect()
    }

    #[test]
    fn the_deal_runs_the_eight_games_in_the_seed_order() {
        assert_eq!(RoundGame::of_round(1), RoundGame::Ordinary);
        assert_eq!(RoundGame::of_round(2), RoundGame::ImaginaryTens);
        assert_eq!(RoundGame::of_round(8), RoundGame::Clock);
        assert_eq!(RoundGame::of_round(9), RoundGame::Ordinary);
    }

    #[test]
    fn colours_decide_the_choices() {
        assert!(Choice::Sympathy.won_by(&cards(&["2H", "KD"])));
        assert!(Choice::Sympathy.won_by(&cards(&["2S", "KC"])));
        assert!(Choice::Antipathy.won_by(&cards(&["2S", "KD"])));
        assert!(Choice::Red.won_by(&cards(&["2D"])));
        assert!(Choice::Black.won_by(&cards(&["2D", "3S", "QC"])));
        assert!(!Choice::Red.won_by(&cards(&["2D", "3S", "QC"])));
    }

    #[test]
    fn the_clock_calls_ace_to_king_and_differences_count_an_ace_one() {
        assert_eq!(clock_call(1), Some(Rank::Ace));
        assert_eq!(clock_call(13), Some(Rank::King));
        assert_eq!(clock_call(14), None);
        assert_eq!(differences_points(&cards(&["AS", "KH"])), 11);
    }
}

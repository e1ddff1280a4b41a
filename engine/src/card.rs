//! Cards: rank, suit, and how they count at Vingt-un.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A card's rank. Suits never matter for counting; ranks do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// Counts 1 or 11 at the holder's option.
    Ace = 1,
    /// Two pips.
    Two,
    /// Three pips.
    Three,
    /// Four pips.
    Four,
    /// Five pips.
    Five,
    /// Six pips.
    Six,
    /// Seven pips.
    Seven,
    /// Eight pips.
    Eight,
    /// Nine pips.
    Nine,
    /// Ten pips: a tenth card.
    Ten,
    /// Knave: a tenth card.
    Jack,
    /// A tenth card.
    Queen,
    /// A tenth card.
    King,
}

impl Rank {
    /// Every rank, ace first.
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// The points the rank counts, an ace as 1.
    pub const fn points(self) -> u8 {
        match self {
            Rank::Ten | Rank::Jack | Rank::Queen | Rank::King => 10,
            other => other as u8,
        }
    }

    /// A ten, knave, queen or king.
    pub const fn is_tenth_card(self) -> bool {
        self.points() == 10 && !matches!(self, Rank::Ace)
    }

    /// The rank's letter in card codes: `A23456789TJQK`.
    pub const fn letter(self) -> char {
        match self {
            Rank::Ace => 'A',
            Rank::Two => '2',
            Rank::Three => '3',
            Rank::Four => '4',
            Rank::Five => '5',
            Rank::Six => '6',
            Rank::Seven => '7',
            Rank::Eight => '8',
            Rank::Nine => '9',
            Rank::Ten => 'T',
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
        }
    }

    fn from_code(code: &str) -> Option<Rank> {
        Some(match code.to_ascii_uppercase().as_str() {
            "A" | "1" => Rank::Ace,
            "2" => Rank::Two,
            "3" => Rank::Three,
            "4" => Rank::Four,
            "5" => Rank::Five,
            "6" => Rank::Six,
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "T" | "10" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            _ => return None,
        })
    }
}

/// A card's suit: it never matters for counting, only for telling cards apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// Spades.
    Spades,
    /// Hearts.
    Hearts,
    /// Diamonds.
    Diamonds,
    /// Clubs.
    Clubs,
}

impl Suit {
    /// Every suit, in code order `SHDC`.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit's letter in card codes: `SHDC`.
    pub const fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    /// Hearts and diamonds are red.
    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }
}

/// One card of a 52-card French-suited pack, written `QH`, `TS` (or `10S`), `AC`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    /// The rank, which decides the points.
    pub rank: Rank,
    /// The suit.
    pub suit: Suit,
}

impl Card {
    /// The card of that rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// A dense index 0..52, for per-card tables.
    pub const fn index(self) -> usize {
        (self.suit as usize) * 13 + (self.rank as usize - 1)
    }

    /// The card at a dense index from [`Card::index`].
    pub fn from_index(index: usize) -> Option<Card> {
        let suit = *Suit::ALL.get(index / 13)?;
        let rank = *Rank::ALL.get(index % 13)?;
        Some(Card { rank, suit })
    }

    /// The 52 cards of one pack.
    pub fn pack() -> impl Iterator<Item = Card> {
        (0..52).filter_map(Card::from_index)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.letter(), self.suit.letter())
    }
}

/// A card code that is not a card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a card: write the rank (A 2 3 4 5 6 7 8 9 T J Q K, or 10) then the suit (S H D C), e.g. \"QH\" or \"10S\""
)]
pub struct CardParseError(pub String);

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(code: &str) -> Result<Card, CardParseError> {
        let trimmed = code.trim();
        let bad = || CardParseError(code.to_owned());
        let split = trimmed.len().checked_sub(1).ok_or_else(bad)?;
        if !trimmed.is_char_boundary(split) {
            return Err(bad());
        }
        let (rank, suit) = trimmed.split_at(split);
        let rank = Rank::from_code(rank).ok_or_else(bad)?;
        let suit = match suit.to_ascii_uppercase().as_str() {
            "S" => Suit::Spades,
            "H" => Suit::Hearts,
            "D" => Suit::Diamonds,
            "C" => Suit::Clubs,
            _ => return Err(bad()),
        };
        Ok(Card { rank, suit })
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        let code = String::deserialize(deserializer)?;
        code.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_accept_ten_written_out() {
        for card in Card::pack() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
        assert_eq!(
            "10h".parse::<Card>().map(|c| c.to_string()),
            Ok("TH".into())
        );
        for bad in ["", "H", "1", "ZS", "AX", "11S", "é", "AéS"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn court_cards_count_ten_and_the_ace_one() {
        assert_eq!(Rank::King.points(), 10);
        assert_eq!(Rank::Ace.points(), 1);
        assert!(Rank::Ten.is_tenth_card() && !Rank::Ace.is_tenth_card());
        let indices: std::collections::BTreeSet<_> = Card::pack().map(Card::index).collect();
        assert_eq!(indices.len(), 52);
    }
}

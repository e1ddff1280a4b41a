//! A hand of cards, some of which may be unseen, and what it counts.

use smallvec::SmallVec;

use crate::card::{Card, Rank};

/// One card of a hand: known, or dealt face down and never seen by the table.
pub type Slot = Option<Card>;

/// What a hand's cards are worth, as far as they are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Points {
    /// Every card is known: the best total (an ace as 11 where that stays at or
    /// under 21) and whether it is more than 21 with every ace as 1.
    Known(u8),
    /// Some cards are unseen: the known cards count at least this, aces as 1.
    Partly {
        /// Points of the known cards, aces as 1.
        known_hard: u8,
        /// How many cards are unseen.
        unseen: u8,
    },
}

impl Points {
    /// The exact total when every card is known.
    pub const fn exact(self) -> Option<u8> {
        match self {
            Points::Known(total) => Some(total),
            Points::Partly { .. } => None,
        }
    }

    /// The least the hand can count (unseen cards as aces).
    pub const fn least(self) -> u8 {
        match self {
            Points::Known(total) => total,
            Points::Partly { known_hard, unseen } => known_hard.saturating_add(unseen),
        }
    }
}

/// The cards of one hand, in the order dealt.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cards(pub SmallVec<[Slot; 6]>);

impl Cards {
    /// Number of cards, seen or not.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No card yet.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The hard total (aces as 1) of the known cards, saturating.
    pub fn hard_known(&self) -> u8 {
        self.0
            .iter()
            .flatten()
            .fold(0u8, |sum, card| sum.saturating_add(card.rank.points()))
    }

    /// How many cards are unseen.
    pub fn unseen(&self) -> u8 {
        self.0.iter().filter(|slot| slot.is_none()).count() as u8
    }

    /// What the hand counts, as far as known.
    pub fn points(&self) -> Points {
        let hard = self.hard_known();
        let unseen = self.unseen();
        if unseen > 0 {
            return Points::Partly {
                known_hard: hard,
                unseen,
            };
        }
        let has_ace = self.0.iter().flatten().any(|c| c.rank == Rank::Ace);
        if has_ace && hard <= 11 {
            Points::Known(hard + 10)
        } else {
            Points::Known(hard)
        }
    }

    /// Known to be over 21 with every ace counted as 1.
    pub fn is_known_over(&self) -> bool {
        self.points().least() > 21
    }

    /// Two known cards, an ace and a tenth card.
    pub fn is_ace_and_tenth(&self) -> bool {
        match self.0.as_slice() {
            [Some(a), Some(b)] => {
                (a.rank == Rank::Ace && b.rank.is_tenth_card())
                    || (b.rank == Rank::Ace && a.rank.is_tenth_card())
            }
            _ => false,
        }
    }

    /// Could these cards still be an ace and a tenth card (two cards, the known
    /// ones fitting)?
    pub fn may_be_ace_and_tenth(&self) -> bool {
        match self.0.as_slice() {
            [None, None] => true,
            [Some(c), None] | [None, Some(c)] => c.rank == Rank::Ace || c.rank.is_tenth_card(),
            [Some(_), Some(_)] => self.is_ace_and_tenth(),
            _ => false,
        }
    }

    /// Two cards of the same denomination (a king and a queen are not a pair),
    /// or two cards not yet seen, which may be.
    pub fn may_be_pair(&self) -> bool {
        match self.0.as_slice() {
            [Some(a), Some(b)] => a.rank == b.rank,
            [_, _] => true,
            _ => false,
        }
    }

    /// Whether `card` is among the known cards.
    pub fn contains(&self, card: Card) -> bool {
        self.0.contains(&Some(card))
    }

    /// The known cards.
    pub fn known(&self) -> impl Iterator<Item = Card> + '_ {
        self.0.iter().flatten().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(codes: &[&str]) -> Cards {
        Cards(
            codes
                .iter()
                .map(|c| if *c == "?" { None } else { c.parse().ok() })
                .collect(),
        )
    }

    #[test]
    fn an_ace_counts_eleven_while_that_stays_in() {
        assert_eq!(cards(&["AS", "KH"]).points(), Points::Known(21));
        assert_eq!(cards(&["AS", "2H", "3C"]).points(), Points::Known(16));
        assert_eq!(cards(&["AS", "AH"]).points(), Points::Known(12));
        assert_eq!(cards(&["AS", "9H", "5C"]).points(), Points::Known(15));
        assert_eq!(cards(&["9S", "9H", "5C"]).points(), Points::Known(23));
        assert!(cards(&["9S", "9H", "5C"]).is_known_over());
    }

    #[test]
    fn unseen_cards_leave_the_points_open() {
        let hand = cards(&["?", "?", "KS", "QD"]);
        assert_eq!(hand.points().exact(), None);
        assert!(
            hand.is_known_over(),
            "20 + two cards of at least 1 each is over"
        );
        assert!(cards(&["?", "AS"]).may_be_ace_and_tenth());
        assert!(!cards(&["?", "5S"]).may_be_ace_and_tenth());
        assert!(!cards(&["KS", "QS"]).may_be_pair());
    }
}

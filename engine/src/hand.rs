//! A hand of cards, some of which may be unseen, and what it counts.

use arrayvec::ArrayVec;

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

/// The most cards one hand can hold: more than any real hand can reach
/// without going over, even from two packs.
pub const MAX_CARDS: usize = 16;

/// The cards of one hand, in the order dealt, with their totals kept as
/// cards come and go (the engine asks for them at every card).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cards {
    slots: ArrayVec<Slot, MAX_CARDS>,
    hard: u8,
    aces: u8,
    unseen: u8,
    /// Imaginary Tens (the eight-round deal's second round): ten points are
    /// added to the hand, which is dealt one card, not two.
    imaginary_ten: bool,
}

impl FromIterator<Slot> for Cards {
    /// # Panics
    /// With more than [`MAX_CARDS`] cards.
    fn from_iter<I: IntoIterator<Item = Slot>>(iter: I) -> Cards {
        let mut cards = Cards::default();
        for slot in iter {
            cards.push(slot);
        }
        cards
    }
}

#[expect(
    clippy::inline_always,
    reason = "push runs for every card dealt; measured, plain #[inline] leaves it a call"
)]
impl Cards {
    /// An empty hand of Imaginary Tens (the eight-round deal's second round):
    /// it is dealt one card and counts ten points more, so an ace is a natural
    /// and a tenth card twenty.
    pub fn imaginary_ten() -> Cards {
        Cards {
            hard: 10,
            imaginary_ten: true,
            ..Cards::default()
        }
    }

    /// Whether this is a hand of Imaginary Tens ([`Cards::imaginary_ten`]).
    pub fn is_imaginary_ten(&self) -> bool {
        self.imaginary_ten
    }

    /// How many cards the hand is dealt before drawing: two, or one in
    /// Imaginary Tens.
    pub fn dealt(&self) -> usize {
        if self.imaginary_ten { 1 } else { 2 }
    }

    /// The cards, `None` for an unseen one.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Number of cards, seen or not.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// No card yet.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Room for another card.
    pub fn is_full(&self) -> bool {
        self.slots.is_full()
    }

    // The totals cannot overflow: a hand holds at most `MAX_CARDS` cards of at
    // most 10 points each. Nor can they go below zero: a card is counted out
    // only after it was counted in.

    fn count_in(&mut self, slot: Slot) {
        match slot {
            None => self.unseen += 1,
            Some(card) => {
                self.hard += card.rank.points();
                self.aces += u8::from(card.rank == Rank::Ace);
            }
        }
    }

    fn count_out(&mut self, slot: Slot) {
        match slot {
            None => self.unseen -= 1,
            Some(card) => {
                self.hard -= card.rank.points();
                self.aces -= u8::from(card.rank == Rank::Ace);
            }
        }
    }

    /// Adds a card at the end.
    ///
    /// # Panics
    /// When the hand is full: callers check [`Cards::is_full`] first.
    #[inline(always)]
    pub fn push(&mut self, slot: Slot) {
        self.slots.push(slot);
        self.count_in(slot);
    }

    /// Takes the last card off.
    pub fn pop(&mut self) -> Option<Slot> {
        let slot = self.slots.pop()?;
        self.count_out(slot);
        Some(slot)
    }

    /// Takes the card at `index` out.
    ///
    /// # Panics
    /// When `index` is out of range.
    pub fn remove(&mut self, index: usize) -> Slot {
        let slot = self.slots.remove(index);
        self.count_out(slot);
        slot
    }

    /// Turns up an unseen card as `card`: the first unseen one, or the last
    /// when `last` is set. Returns false when no card is unseen.
    pub fn reveal(&mut self, card: Card, last: bool) -> bool {
        let position = if last {
            self.slots.iter().rposition(Option::is_none)
        } else {
            self.slots.iter().position(Option::is_none)
        };
        let Some(position) = position else {
            return false;
        };
        self.count_out(None);
        self.slots[position] = Some(card);
        self.count_in(Some(card));
        true
    }

    /// The hard total (aces as 1) of the known cards (with the ten of
    /// Imaginary Tens), saturating.
    pub fn hard_known(&self) -> u8 {
        self.hard
    }

    /// How many cards are unseen.
    pub fn unseen(&self) -> u8 {
        self.unseen
    }

    /// What the hand counts, as far as known.
    pub fn points(&self) -> Points {
        if self.unseen > 0 {
            return Points::Partly {
                known_hard: self.hard,
                unseen: self.unseen,
            };
        }
        if self.aces > 0 && self.hard <= 11 {
            Points::Known(self.hard + 10)
        } else {
            Points::Known(self.hard)
        }
    }

    /// Known to be over 21 with every ace counted as 1.
    pub fn is_known_over(&self) -> bool {
        self.points().least() > 21
    }

    /// A natural as dealt: two known cards, an ace and a tenth card (in
    /// Imaginary Tens, one known card, an ace).
    #[inline(always)]
    pub fn is_ace_and_tenth(&self) -> bool {
        match self.slots.as_slice() {
            [Some(a)] => self.imaginary_ten && a.rank == Rank::Ace,
            [Some(a), Some(b)] if !self.imaginary_ten => {
                (a.rank == Rank::Ace && b.rank.is_tenth_card())
                    || (b.rank == Rank::Ace && a.rank.is_tenth_card())
            }
            _ => false,
        }
    }

    /// Could these cards still be an ace and a tenth card (two cards, the known
    /// ones fitting)?
    pub fn may_be_ace_and_tenth(&self) -> bool {
        if self.imaginary_ten {
            return match self.slots.as_slice() {
                [None] => true,
                [Some(c)] => c.rank == Rank::Ace,
                _ => false,
            };
        }
        match self.slots.as_slice() {
            [None, None] => true,
            [Some(c), None] | [None, Some(c)] => c.rank == Rank::Ace || c.rank.is_tenth_card(),
            [Some(_), Some(_)] => self.is_ace_and_tenth(),
            _ => false,
        }
    }

    /// Two cards of the same denomination (a king and a queen are not a pair),
    /// or two cards not yet seen, which may be.
    pub fn may_be_pair(&self) -> bool {
        if self.imaginary_ten {
            return false;
        }
        match self.slots.as_slice() {
            [Some(a), Some(b)] => a.rank == b.rank,
            [_, _] => true,
            _ => false,
        }
    }

    /// Whether `card` is among the known cards.
    pub fn contains(&self, card: Card) -> bool {
        self.slots.contains(&Some(card))
    }

    /// The known cards.
    pub fn known(&self) -> impl Iterator<Item = Card> + '_ {
        self.slots.iter().flatten().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(codes: &[&str]) -> Cards {
        codes
            .iter()
            .map(|c| if *c == "?" { None } else { c.parse().ok() })
            .collect()
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

    #[test]
    fn imaginary_tens_add_ten_and_an_ace_is_a_natural() {
        let mut hand = Cards::imaginary_ten();
        hand.push(Some("AS".parse().expect("a card")));
        assert_eq!(hand.points(), Points::Known(21));
        assert!(hand.is_ace_and_tenth(), "an ace alone is the natural");
        let mut hand = Cards::imaginary_ten();
        hand.push(Some("KS".parse().expect("a card")));
        assert_eq!(hand.points(), Points::Known(20));
        assert!(!hand.is_ace_and_tenth());
        hand.push(Some("AH".parse().expect("a card")));
        assert_eq!(
            hand.points(),
            Points::Known(21),
            "ten, a king and an ace as one"
        );
        assert!(!hand.is_ace_and_tenth());
        let mut hand = Cards::imaginary_ten();
        hand.push(Some("5S".parse().expect("a card")));
        hand.push(Some("7D".parse().expect("a card")));
        assert!(hand.is_known_over(), "10 + 5 + 7");
        assert_eq!(Cards::imaginary_ten().dealt(), 1);
    }
}

//! What the table tells the engine: commands, by seat.
//!
//! The text form of these (names instead of seats, one JSON object per line) is
//! in [`crate::script`].

use smallvec::SmallVec;

use crate::card::Card;
use crate::eight::Choice;
use crate::event::Seat;

/// A command to the engine. Illegal ones are refused with no change of state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The first dealer, named by the table.
    Dealer {
        /// Who deals.
        player: Seat,
    },
    /// The next card, to a player (`hand` once he has divided; `card` `None`:
    /// dealt unseen).
    Card {
        /// To whom.
        to: Seat,
        /// Which hand, 1-based; `None`: the hand due a card.
        hand: Option<u8>,
        /// The card, if seen.
        card: Option<Card>,
    },
    /// A player's stake on his first card.
    Stake {
        /// Who.
        player: Seat,
        /// How much.
        amount: u32,
    },
    /// A player's election before his cards (Sympathy and Antipathy, Rouge et
    /// Noir in the eight-round deal).
    Choose {
        /// Who.
        player: Seat,
        /// Sympathy or antipathy, red or black.
        choice: Choice,
    },
    /// The dealer doubles every stake.
    Double,
    /// A player (or the dealer) divides a pair.
    Divide {
        /// Who.
        player: Seat,
        /// Which hand to split; `None`: his only pair.
        hand: Option<u8>,
        /// The stake on the new hand; `None`: the same as the split hand's.
        amount: Option<u32>,
    },
    /// A hand stands.
    Content {
        /// Whose.
        player: Seat,
        /// Which hand; `None`: the one in play.
        hand: Option<u8>,
    },
    /// Cards turned up.
    Show {
        /// Whose.
        player: Seat,
        /// Which hand; `None`: the one in play, or his first.
        hand: Option<u8>,
        /// The cards seen.
        cards: SmallVec<[Card; 4]>,
    },
    /// "Over": a declaration that the hand over-drew.
    Over {
        /// Who.
        player: Seat,
        /// Which hand.
        hand: Option<u8>,
    },
    /// "Natural": a declaration that the first two cards are an ace and a tenth card.
    Natural {
        /// Who.
        player: Seat,
        /// Which hand.
        hand: Option<u8>,
    },
    /// Irregularity: two cards were dealt to one player at once; this is the second.
    Surplus {
        /// Who got it.
        player: Seat,
        /// The card, if seen.
        card: Option<Card>,
    },
    /// Irregularity put right before another card was dealt: the surplus card
    /// goes to the next player in order, whose card it was.
    Rectify {
        /// Who holds the surplus.
        player: Seat,
    },
    /// Irregularity: a card dealt face down to the player was exposed.
    Exposed {
        /// Whose card.
        player: Seat,
        /// The card.
        card: Card,
    },
    /// Irregularity: the player rejects an exposed card (he gets the next card
    /// instead) or one of two cards dealt to him at once; the card goes to the pone.
    Reject {
        /// Who.
        player: Seat,
        /// The card, if seen.
        card: Option<Card>,
    },
    /// Irregularity: confusion in preparing the pack, or a card exposed then: the
    /// pack is reshuffled and cut again.
    Reshuffle,
    /// The brulet: the dealer looked at the bottom card (and the top card when the
    /// bottom one is an ace or a tenth card). Both go to the pone's pile.
    Brulet {
        /// The bottom card.
        bottom: Card,
        /// The top card, looked at only after an ace or tenth card at the bottom.
        top: Option<Card>,
    },
    /// The dealer sells the deal.
    Sell {
        /// The buyer.
        to: Seat,
        /// The price, paid to the dealer.
        price: u32,
    },
    /// The dealer declines the deal; it passes to his left.
    Decline,
    /// The first dealer found by dealing cards face up round the table, one to
    /// each from `from` leftwards, until the first ace (or knave, by house rule).
    DrawForDeal {
        /// Who gets the first card; `None`: the first player of the table.
        from: Option<Seat>,
        /// The cards turned up, in order; the last is the first ace (or knave).
        cards: Vec<Card>,
    },
    /// A player leaves the table after a hand.
    Retire {
        /// Who.
        player: Seat,
    },
}

impl Command {
    /// A command of one card (a card dealt, or one card shown) with `new` in
    /// that card's place: whose card it is, the card it was (`None`: dealt
    /// face down), and the command with the new card. `None` for any other
    /// command.
    #[must_use]
    pub fn with_card(&self, new: Card) -> Option<(Seat, Option<Card>, Command)> {
        match self {
            Command::Card { to, hand, card } => Some((
                *to,
                *card,
                Command::Card {
                    to: *to,
                    hand: *hand,
                    card: Some(new),
                },
            )),
            // A card turned up (the camera shows one card at a time).
            Command::Show { cards, .. } if cards.len() == 1 => self.with_shown_card(0, new),
            _ => None,
        }
    }

    /// Cards shown with `new` in place of the card at `at` (from the first):
    /// whose cards they are, the card it was, and the command with the new
    /// card. `None` for any other command, or a place past the cards shown.
    #[must_use]
    pub fn with_shown_card(&self, at: usize, new: Card) -> Option<(Seat, Option<Card>, Command)> {
        let Command::Show {
            player,
            hand,
            cards,
        } = self
        else {
            return None;
        };
        let old = *cards.get(at)?;
        let mut cards = cards.clone();
        cards[at] = new;
        Some((
            *player,
            Some(old),
            Command::Show {
                player: *player,
                hand: *hand,
                cards,
            },
        ))
    }

    /// A card said at the table rather than dealt (a surplus card, a card
    /// exposed in dealing, a card rejected) with `new` in its place: whose
    /// card it is, the card it was (`None`: not named), and the command with
    /// the new card. `None` for any other command; [`Command::with_card`]
    /// takes the cards dealt and shown.
    #[must_use]
    pub fn with_said_card(&self, new: Card) -> Option<(Seat, Option<Card>, Command)> {
        match self {
            Command::Surplus { player, card } => Some((
                *player,
                *card,
                Command::Surplus {
                    player: *player,
                    card: Some(new),
                },
            )),
            Command::Exposed { player, card } => Some((
                *player,
                Some(*card),
                Command::Exposed {
                    player: *player,
                    card: new,
                },
            )),
            Command::Reject { player, card } => Some((
                *player,
                *card,
                Command::Reject {
                    player: *player,
                    card: Some(new),
                },
            )),
            _ => None,
        }
    }
}

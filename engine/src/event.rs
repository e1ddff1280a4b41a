//! What the engine says happened: events, settlements and flags.

use std::fmt;

use serde::Serialize;

use crate::card::Card;
use crate::eight::{Choice, RoundGame};

/// A place at the table, in seating order (the next seat is on the left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index in the table's list of players.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// One side of a payment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Party {
    /// A player (the dealer included).
    Seat(Seat),
    /// The pool.
    Pool,
}

/// Why money changed hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The dealer's natural collects from the hand.
    DealerNatural,
    /// The player's natural ties the dealer's: neither pays.
    NaturalTiesNatural,
    /// The player's natural, face down when the dealer declared his and
    /// turned up (or declared) after it, ties it: the double it paid him is
    /// given back.
    NaturalShownTies,
    /// A player's natural, paid at once.
    Natural,
    /// A natural in the first round of a deal, paid as a drawn Vingt-un.
    Misericorde,
    /// The holder of a natural receives a stake from another player (house rule).
    NaturalBonus,
    /// The hand over-drew and paid at once.
    OverDrawn,
    /// The dealer over-drew and pays the standing hand.
    DealerOverDrawn,
    /// The hand's drawn Vingt-un is paid double.
    DrawnVingtUn,
    /// The dealer's drawn Vingt-un collects double.
    DealerDrawnVingtUn,
    /// The hand's drawn Vingt-un ties the dealer's and pays.
    TiedDrawnVingtUn,
    /// The hand is higher than the dealer's.
    Higher,
    /// The hand is not higher than the dealer's: ties go to the dealer.
    NotHigher,
    /// The player's ante into the pool at the start of a deal.
    PoolAnte,
    /// The pool goes to the holder of the natural that put the dealer out.
    PoolWon,
    /// The dealer's brulet (bottom and top card a natural).
    Brulet,
    /// The deal was sold.
    DealSold,
    /// Sympathy and Antipathy, Rouge et Noir: the cards' colours came as the player elected.
    ChoseRightly,
    /// Sympathy and Antipathy, Rouge et Noir: the cards' colours went against his election.
    ChoseWrongly,
    /// Self and Company: the dealer's two cards alike.
    SelfAndCompanyAlike,
    /// Self and Company: the dealer's own card paired first.
    SelfPaired,
    /// Self and Company: the company's card paired first.
    CompanyPaired,
    /// Differences: the points between the player's two cards and the dealer's, at the agreed rate.
    Difference,
    /// The Clock: a card answered its call.
    ClockStruck,
    /// The Clock: thirteen cards, none on its call.
    ClockSilent,
}

impl Reason {
    /// The reason in words a table can check.
    pub const fn words(self) -> &'static str {
        match self {
            Reason::DealerNatural => "the dealer's natural",
            Reason::NaturalTiesNatural => "a natural against the dealer's natural: no payment",
            Reason::NaturalShownTies => {
                "a natural turned up after the dealer's natural: what it paid him is given back"
            }
            Reason::Natural => "a natural",
            Reason::Misericorde => {
                "a natural in the deal's first round, paid as a drawn Vingt-un (misericorde)"
            }
            Reason::NaturalBonus => "a stake from each player to the holder of a natural",
            Reason::OverDrawn => "over-drawn",
            Reason::DealerOverDrawn => "the dealer over-drew",
            Reason::DrawnVingtUn => "a drawn Vingt-un, paid double",
            Reason::DealerDrawnVingtUn => "the dealer's drawn Vingt-un, paid double",
            Reason::TiedDrawnVingtUn => "a drawn Vingt-un against the dealer's drawn Vingt-un",
            Reason::Higher => "higher than the dealer",
            Reason::NotHigher => "not higher than the dealer (ties go to the dealer)",
            Reason::PoolAnte => "ante into the pool",
            Reason::PoolWon => "the pool, to the natural that put the dealer out",
            Reason::Brulet => "the dealer's brulet",
            Reason::DealSold => "the deal sold",
            Reason::ChoseRightly => "the colours came as he elected",
            Reason::ChoseWrongly => "the colours went against his election",
            Reason::SelfAndCompanyAlike => {
                "self and company: the dealer's card and the company's alike, the dealer wins"
            }
            Reason::SelfPaired => "self and company: the dealer's card paired first",
            Reason::CompanyPaired => "self and company: the company's card paired first",
            Reason::Difference => "differences: the points between the hands, at the agreed rate",
            Reason::ClockStruck => "the clock: a card answered its call",
            Reason::ClockSilent => "the clock: thirteen cards and none on its call",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// One payment. `amount` is signed from `player`'s side: negative when he pays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Settlement {
    /// Whose hand or account this is.
    pub player: Seat,
    /// Which of his hands (1 unless he divided).
    pub hand: u8,
    /// What the player receives (negative: pays), in counters.
    pub amount: i64,
    /// Who pays.
    pub from: Party,
    /// Who receives.
    pub to: Party,
    /// Why.
    pub reason: Reason,
}

/// What a player said of his hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Declaration {
    /// "Over": he over-drew.
    Over,
    /// "Natural": an ace and a tenth card.
    Natural,
}

/// Something the table should look at: the engine went on, but a person should check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "flag", rename_all = "snake_case")]
pub enum Flag {
    /// A declaration the cards seen contradict; the cards were used.
    DeclarationContradicted {
        /// Who declared.
        player: Seat,
        /// Which hand.
        hand: u8,
        /// What he declared.
        declared: Declaration,
    },
    /// A card was exposed in dealing.
    CardExposed {
        /// Whose card.
        player: Seat,
        /// The card.
        card: Card,
    },
    /// Two cards were dealt to one player at once.
    SurplusCard {
        /// Who got the extra card.
        player: Seat,
    },
}

/// Why the deal changed hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DealChange {
    /// The first dealer, named by the table.
    First,
    /// A player's natural put the dealer out.
    PutOut,
    /// The deal's fixed number of rounds is over.
    RoundsDone,
    /// The dealer sold the deal.
    Sold,
    /// The dealer declined the deal.
    Declined,
    /// The dealer retired.
    Retired,
}

/// What happened. The journal of commands is the truth; events are what each
/// command did, for the ledger and the screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "e", rename_all = "snake_case")]
pub enum Event {
    /// A new deal begins with a fresh pack.
    DealStarted {
        /// The dealer.
        dealer: Seat,
        /// Why he deals.
        why: DealChange,
    },
    /// A round begins.
    RoundStarted {
        /// 1-based round number over the sitting.
        round: u32,
        /// Who deals it.
        dealer: Seat,
        /// How it is played (not ordinary only in the eight-round deal).
        game: RoundGame,
    },
    /// A card went to a hand (`None`: dealt unseen).
    CardDealt {
        /// To whom.
        to: Seat,
        /// Which hand (1-based).
        hand: u8,
        /// The card, if seen.
        card: Option<Card>,
    },
    /// A player staked on his card.
    Staked {
        /// Who.
        player: Seat,
        /// How much.
        amount: u32,
    },
    /// A player elected (sympathy or antipathy, red or black) before his cards.
    Chose {
        /// Who.
        player: Seat,
        /// What.
        choice: Choice,
    },
    /// The dealer doubled every stake.
    Doubled,
    /// A pair was divided.
    Divided {
        /// Who.
        player: Seat,
        /// The hand split.
        hand: u8,
        /// The new hand's number.
        new_hand: u8,
        /// The stake on the new hand.
        stake: u32,
    },
    /// Cards were turned up.
    Shown {
        /// Whose.
        player: Seat,
        /// Which hand.
        hand: u8,
    },
    /// A hand is a natural.
    Natural {
        /// Whose.
        player: Seat,
        /// Which hand.
        hand: u8,
    },
    /// A hand stands.
    Content {
        /// Whose.
        player: Seat,
        /// Which hand.
        hand: u8,
    },
    /// A hand made exactly 21 by drawing.
    VingtUn {
        /// Whose.
        player: Seat,
        /// Which hand.
        hand: u8,
    },
    /// A hand over-drew.
    OverDrawn {
        /// Whose.
        player: Seat,
        /// Which hand.
        hand: u8,
    },
    /// It is the dealer's turn to play his own hand.
    DealersTurn,
    /// Money changed hands.
    Settled(Settlement),
    /// A natural puts the dealer out at the end of this round.
    DealerPutOut {
        /// The holder of the natural.
        by: Seat,
    },
    /// The last card went to the pone, who shuffled it with his pile into a new pack.
    PackReshuffled {
        /// Cards in the new pack.
        cards: u16,
    },
    /// A card went to the pone's pile outside the ordinary flow (rejected, brulet).
    CardToPone {
        /// The card, if seen.
        card: Option<Card>,
    },
    /// The table should look at something.
    Flagged(Flag),
    /// The round is over.
    RoundEnded {
        /// The round's number.
        round: u32,
        /// Who deals the next round.
        next_dealer: Seat,
    },
    /// A player left the table.
    Retired {
        /// Who.
        player: Seat,
    },
}

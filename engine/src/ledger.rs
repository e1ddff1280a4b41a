//! The ledger: a fold over events, round by round, of who paid whom and why.

use serde::Serialize;

use crate::eight::RoundGame;
use crate::event::{Event, Flag, Party, Reason, Seat, Settlement};

/// One round in the ledger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundRecord {
    /// 1-based round number over the sitting.
    pub round: u32,
    /// Who dealt it.
    pub dealer: Seat,
    /// How it was played: left out of the JSON for ordinary Vingt-un (the
    /// eight-round deal's games are named).
    #[serde(skip_serializing_if = "RoundGame::is_ordinary")]
    pub game: RoundGame,
    /// Whether the dealer doubled.
    pub doubled: bool,
    /// Every payment of the round, in the order made (payments made between
    /// rounds, such as antes, a brulet or a sale, go with the round after them).
    pub settlements: Vec<Settlement>,
    /// What the table should check.
    pub flags: Vec<Flag>,
    /// Who deals next; `None` while the round is in play.
    pub next_dealer: Option<Seat>,
}

/// Balances and the per-round record of a sitting.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Ledger {
    /// Each player's running balance, by seat.
    pub balances: Vec<i64>,
    /// Counters in the pool.
    pub pool: i64,
    /// The rounds, in order.
    pub rounds: Vec<RoundRecord>,
    /// Payments and flags since the last round ended, waiting for the next round.
    pending: Vec<Settlement>,
    pending_flags: Vec<Flag>,
}

impl Ledger {
    /// An empty ledger for this many players.
    pub fn new(players: usize) -> Ledger {
        Ledger {
            balances: vec![0; players],
            ..Ledger::default()
        }
    }

    /// Takes in one event.
    pub fn record(&mut self, event: &Event) {
        match event {
            Event::RoundStarted {
                round,
                dealer,
                game,
            } => {
                self.rounds.push(RoundRecord {
                    round: *round,
                    dealer: *dealer,
                    game: *game,
                    doubled: false,
                    settlements: std::mem::take(&mut self.pending),
                    flags: std::mem::take(&mut self.pending_flags),
                    next_dealer: None,
                });
            }
            Event::Doubled => {
                if let Some(r) = self.open_round() {
                    r.doubled = true;
                }
            }
            Event::Settled(s) => {
                let value = s.amount.abs();
                for (party, delta) in [(s.from, -value), (s.to, value)] {
                    match party {
                        Party::Seat(seat) => {
                            if let Some(b) = self.balances.get_mut(seat.index()) {
                                *b += delta;
                            }
                        }
                        Party::Pool => self.pool += delta,
                    }
                }
                // A natural turned up after the dealer's natural ended the
                // round belongs to that round.
                let round = match s.reason {
                    Reason::NaturalShownTies => self.rounds.last_mut(),
                    _ => self.open_round(),
                };
                match round {
                    Some(r) => r.settlements.push(*s),
                    None => self.pending.push(*s),
                }
            }
            Event::Flagged(flag) => {
                // A declaration the cards turned up after the round contradict
                // belongs to that round.
                let round = match flag {
                    Flag::DeclarationContradicted { .. } if self.open_round().is_none() => {
                        self.rounds.last_mut()
                    }
                    _ => self.open_round(),
                };
                match round {
                    Some(r) => r.flags.push(flag.clone()),
                    None => self.pending_flags.push(flag.clone()),
                }
            }
            Event::RoundEnded { next_dealer, .. } => {
                if let Some(r) = self.open_round() {
                    r.next_dealer = Some(*next_dealer);
                }
            }
            _ => {}
        }
    }

    fn open_round(&mut self) -> Option<&mut RoundRecord> {
        self.rounds.last_mut().filter(|r| r.next_dealer.is_none())
    }

    /// Payments made since the last round and not yet part of one.
    pub fn pending(&self) -> &[Settlement] {
        &self.pending
    }
}

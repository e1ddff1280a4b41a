//! The sitting: the table's state as a state machine over [`Command`]s.
//!
//! [`Sitting::apply`] checks a command against the rules and either refuses it
//! (a [`RuleError`], nothing changed) or changes the state and returns the
//! [`Event`]s it caused. Nothing here reads a clock, a file or a random source.

use arrayvec::ArrayVec;

use crate::card::{Card, Rank};
use crate::command::Command;
use crate::eight::{Choice, RoundGame, clock_call, differences_points};
use crate::error::{RuleError, RuleErrorKind};
use crate::event::{DealChange, Declaration, Event, Flag, Party, Reason, Seat, Settlement};
use crate::hand::{Cards, MAX_CARDS, Points};
use crate::rules::{
    Brulet, DealPasses, DealerDivided, DivideStake, DivideWhen, DividedNatural, HouseRules,
};

/// The most hands one player may hold after dividing.
pub const MAX_HANDS: usize = 4;
/// The most players at one table.
pub const MAX_PLAYERS: usize = 16;

/// Where a hand stands in the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandState {
    /// Still taking cards or waiting for its turn.
    Open,
    /// Content, or a drawn Vingt-un: waits for the dealer.
    Stood,
    /// Over-drawn (a player's hand has paid and gone to the pone).
    Over,
    /// A natural, settled at once.
    Natural,
    /// Settled with the dealer at the end of the round.
    Settled,
}

/// One hand of a player in the current round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    /// The cards, in the order dealt.
    pub cards: Cards,
    /// The stake on this hand, before any double.
    pub stake: u32,
    /// Where it stands.
    pub state: HandState,
    /// Its cards went to the pone's pile already (thrown up when over-drawn).
    pub in_pile: bool,
    /// What the player declared of it.
    pub declared: Option<Declaration>,
}

impl Hand {
    fn new() -> Hand {
        Hand {
            cards: Cards::default(),
            stake: 0,
            state: HandState::Open,
            in_pile: false,
            declared: None,
        }
    }
}

/// A player's place in the current round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRound {
    /// His stake on his first card, once made.
    pub stake: Option<u32>,
    /// His hands: one, or up to four after dividing.
    pub hands: ArrayVec<Hand, MAX_HANDS>,
    /// What he elected before his cards (Sympathy and Antipathy, Rouge et Noir).
    pub choice: Option<Choice>,
}

impl SeatRound {
    fn reset(&mut self, game: RoundGame) {
        self.stake = None;
        self.choice = None;
        self.hands.clear();
        let mut hand = Hand::new();
        if game == RoundGame::ImaginaryTens {
            hand.cards = Cards::imaginary_ten();
        }
        self.hands.push(hand);
    }

    fn open_hand(&self) -> Option<usize> {
        self.hands.iter().position(|h| h.state == HandState::Open)
    }

    fn incomplete_hand(&self) -> Option<usize> {
        self.hands
            .iter()
            .position(|h| h.state == HandState::Open && h.cards.len() < h.cards.dealt())
    }
}

/// The stage of the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Between rounds: the next card starts a round.
    Between,
    /// The first card to each; `next` indexes the dealing order. Stakes and the
    /// double come once every first card is out.
    FirstCards {
        /// How many players have their first card.
        next: u8,
    },
    /// The second card to each.
    SecondCards {
        /// How many players have their second card.
        next: u8,
    },
    /// Players draw in turn; `turn` indexes the dealing order.
    Drawing {
        /// Whose turn.
        turn: u8,
    },
    /// The dealer plays his own hand.
    Dealer,
    /// The dealer is done; cards must be shown before the round can be settled.
    Showdown,
    /// A round of the eight-round deal played by turning cards up (Sympathy
    /// and Antipathy to the Clock): the stakes and choices first where the
    /// game has them, then each card to whom it is due, settled by what they show.
    Turning,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Deal {
    /// Rounds started in this deal.
    rounds: u32,
    brulet_done: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Pack {
    /// Cards in the pack, the last card included.
    left: u16,
    /// Cards in the pone's pile.
    pile: u16,
    /// Known cards now on the table, per card index.
    on_table: [u8; 52],
    /// Known cards seen since the last shuffle, on the table or in the pone's
    /// pile, per card index: kept whole so that checking a dealt card reads one
    /// count, and a hand going to the pile changes only `on_table`.
    seen: [u8; 52],
    /// Cards taken from the pack since it was last shuffled.
    dealt_since_shuffle: u16,
}

impl Pack {
    fn fresh(rules: &HouseRules) -> Pack {
        Pack {
            left: rules.pack_size(),
            pile: 0,
            on_table: [0; 52],
            seen: [0; 52],
            dealt_since_shuffle: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Round {
    number: u32,
    /// How this round is played.
    game: RoundGame,
    /// Cards turned up in a round of the eight-round deal that turns them up.
    turned: u16,
    phase: Phase,
    /// The dealing order: the players from the dealer's left, the dealer last.
    order: ArrayVec<Seat, MAX_PLAYERS>,
    seats: Vec<SeatRound>,
    doubled: bool,
    /// Holders of full naturals this round (not misericorde), in the order declared.
    holders: ArrayVec<Seat, MAX_PLAYERS>,
    /// Whether any player's natural has been settled this round.
    player_natural_paid: bool,
    /// Drawing has begun: naturals can no longer be declared, pairs no longer
    /// divided before drawing.
    drawing_started: bool,
    /// A player who rejected an exposed card and is owed the next card.
    replacement_due: Option<Seat>,
    /// A player holding a surplus card, and whether no card was dealt since.
    surplus: Option<(Seat, bool)>,
    /// An exposed card a player may still reject.
    exposed: Option<(Seat, Card)>,
}

/// The state of a sitting: table, balances, pack, deal and the round in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    names: Vec<String>,
    rules: HouseRules,
    active: Vec<bool>,
    balances: Vec<i64>,
    pool: i64,
    dealer: Option<Seat>,
    deal: Deal,
    pack: Pack,
    round: Round,
    rounds_played: u32,
}

/// A sitting at the table: its [`State`] and the events of the last command.
#[derive(Clone, Debug)]
pub struct Sitting {
    state: State,
    events: Vec<Event>,
}

/// A table that cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// Too few or too many players.
    #[error("a table needs 2 to {MAX_PLAYERS} players (the dealer among them), not {0}")]
    PlayerCount(usize),
    /// A name is empty or repeated.
    #[error("player names must be distinct and not empty: {0:?}")]
    Names(String),
    /// A house rule is out of range.
    #[error(transparent)]
    Rules(#[from] crate::rules::RulesError),
}

/// The dealer's aid: the odds of over-drawing with the next card. Offered, never applied.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advice {
    /// The dealer's hand's points now.
    pub points: u8,
    /// The chance that the next card takes the hand over 21.
    pub over_chance: f64,
    /// Cards not seen since the last shuffle, which the next card is one of.
    pub unseen_cards: u16,
}

type Applied = Result<(), RuleError>;

impl Sitting {
    /// A new sitting of these players, in seating order (each next one on the left).
    pub fn new(names: Vec<String>, rules: HouseRules) -> Result<Sitting, TableError> {
        if !(2..=MAX_PLAYERS).contains(&names.len()) {
            return Err(TableError::PlayerCount(names.len()));
        }
        let mut sorted: Vec<&str> = names.iter().map(|n| n.trim()).collect();
        sorted.sort_unstable();
        if sorted.iter().any(|n| n.is_empty()) || sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(TableError::Names(names.join(", ")));
        }
        rules.validate()?;
        let count = names.len();
        let pack = Pack::fresh(&rules);
        Ok(Sitting {
            state: State {
                names,
                active: vec![true; count],
                balances: vec![0; count],
                pool: 0,
                dealer: None,
                deal: Deal {
                    rounds: 0,
                    brulet_done: false,
                },
                pack,
                round: Round {
                    number: 0,
                    game: RoundGame::Ordinary,
                    turned: 0,
                    phase: Phase::Between,
                    order: ArrayVec::new(),
                    seats: (0..count)
                        .map(|_| SeatRound {
                            stake: None,
                            hands: ArrayVec::new(),
                            choice: None,
                        })
                        .collect(),
                    doubled: false,
                    holders: ArrayVec::new(),
                    player_natural_paid: false,
                    drawing_started: false,
                    replacement_due: None,
                    surplus: None,
                    exposed: None,
                },
                rules,
                rounds_played: 0,
            },
            events: Vec::new(),
        })
    }

    /// Applies a command: the events it caused, or why it was refused (and then
    /// nothing changed).
    pub fn apply(&mut self, command: &Command) -> Result<&[Event], RuleError> {
        self.events.clear();
        self.state.apply(command, &mut self.events)?;
        Ok(&self.events)
    }

    /// The state, for display and comparison.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The events of the last command applied.
    pub fn last_events(&self) -> &[Event] {
        &self.events
    }
}

#[expect(
    clippy::inline_always,
    reason = "the per-card helpers are forced inline: measured with callgrind, each \
              call costs about as much as the work it does, and plain #[inline] is ignored"
)]
impl State {
    // ----- queries -------------------------------------------------------------

    /// The players' names in seating order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// A player's name.
    pub fn name(&self, seat: Seat) -> &str {
        self.names.get(seat.index()).map_or("?", String::as_str)
    }

    /// The seat of a player by name.
    pub fn seat(&self, name: &str) -> Option<Seat> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| Seat(i as u8))
    }

    /// The house rules.
    pub fn rules(&self) -> &HouseRules {
        &self.rules
    }

    /// Each player's balance over the sitting, by seat.
    pub fn balances(&self) -> &[i64] {
        &self.balances
    }

    /// Counters in the pool.
    pub fn pool(&self) -> i64 {
        self.pool
    }

    /// Who deals now (or next, between rounds).
    pub fn dealer(&self) -> Option<Seat> {
        self.dealer
    }

    /// The pone: the player on the dealer's right.
    pub fn pone(&self) -> Option<Seat> {
        self.dealer.map(|d| self.right_of(d))
    }

    /// Whether a player is still at the table.
    pub fn is_active(&self, seat: Seat) -> bool {
        self.active.get(seat.index()).copied().unwrap_or(false)
    }

    /// The stage of the round.
    pub fn phase(&self) -> Phase {
        self.round.phase
    }

    /// The current (or last) round's number, 1-based; 0 before the first.
    pub fn round_number(&self) -> u32 {
        self.round.number
    }

    /// Rounds dealt in the current deal.
    pub fn rounds_in_deal(&self) -> u32 {
        self.deal.rounds
    }

    /// How the round in play (or, between rounds, the last one) was played:
    /// what the hands on the table mean.
    pub fn round_game(&self) -> RoundGame {
        self.round.game
    }

    /// How the round in play is played; between rounds, how the next one is
    /// (ordinary Vingt-un unless the table plays the eight-round deal).
    pub fn game(&self) -> RoundGame {
        if self.round.phase != Phase::Between {
            self.round.game
        } else if self.rules.eight_round_deal {
            RoundGame::of_round(self.deal.rounds + 1)
        } else {
            RoundGame::Ordinary
        }
    }

    /// Whether the dealer doubled this round.
    pub fn doubled(&self) -> bool {
        self.round.doubled
    }

    /// A player's place in the current round.
    pub fn seat_round(&self, seat: Seat) -> Option<&SeatRound> {
        self.round.seats.get(seat.index())
    }

    /// A player's hand in the current round, numbered from 1 as
    /// [`State::due_card`] and [`State::to_show`] name it.
    pub fn hand(&self, seat: Seat, hand: u8) -> Option<&Hand> {
        self.seat_round(seat)?
            .hands
            .get(usize::from(hand).checked_sub(1)?)
    }

    /// The dealing order of the current round: from the dealer's left, dealer last.
    pub fn order(&self) -> &[Seat] {
        &self.round.order
    }

    /// Cards left in the pack before its last card (which is never dealt).
    pub fn cards_before_last(&self) -> u16 {
        self.pack.left.saturating_sub(1)
    }

    /// Cards in the pone's pile.
    pub fn pone_pile(&self) -> u16 {
        self.pack.pile
    }

    /// Whose turn it is to act with a card, content or divide, and which hand (1-based).
    pub fn turn(&self) -> Option<(Seat, u8)> {
        let seat = match self.round.phase {
            Phase::Drawing { turn } => *self.round.order.get(usize::from(turn))?,
            Phase::Dealer => self.dealer?,
            _ => return None,
        };
        let sr = self.round.seats.get(seat.index())?;
        let hand = sr.incomplete_hand().or_else(|| sr.open_hand())?;
        Some((seat, hand as u8 + 1))
    }

    /// At the showdown, the first hand whose face-down cards must be shown
    /// before the round can be settled, and which hand (1-based): the
    /// dealer's, then each standing hand in the dealing order. `None` at any
    /// other time.
    pub fn to_show(&self) -> Option<(Seat, u8)> {
        if self.round.phase != Phase::Showdown {
            return None;
        }
        let dealer = self.dealer_seat();
        let hidden = |seat: Seat, stood_only: bool| {
            self.round.seats[seat.index()]
                .hands
                .iter()
                .position(move |h| {
                    let counts = if stood_only {
                        h.state == HandState::Stood
                    } else {
                        h.state != HandState::Over
                    };
                    counts && h.cards.unseen() > 0
                })
                .map(move |i| (seat, i as u8 + 1))
        };
        hidden(dealer, false).or_else(|| self.punters().iter().find_map(|&seat| hidden(seat, true)))
    }

    /// Who the next card goes to, and which hand (1-based): `None` while the
    /// round waits for something else (stakes, a surplus to reject, cards shown).
    pub fn due_card(&self) -> Option<(Seat, u8)> {
        if let Some(owed) = self.round.replacement_due {
            return Some((owed, 1));
        }
        let len = self.round.order.len() as u8;
        match self.round.phase {
            Phase::Between => {
                let dealer = self.dealer?;
                match self.game() {
                    game if game.stakes_first() => None,
                    RoundGame::Clock => Some((dealer, 1)),
                    _ => Some((self.left_of(dealer), 1)),
                }
            }
            Phase::FirstCards { .. } if !self.all_staked() && self.round.game.stakes_first() => {
                None
            }
            Phase::FirstCards { next } if next < len => {
                Some((self.round.order[usize::from(next)], 1))
            }
            Phase::FirstCards { .. } => self.all_staked().then(|| (self.round.order[0], 1)),
            Phase::SecondCards { next } if next < len && self.round.surplus.is_none() => {
                Some((self.round.order[usize::from(next)], 1))
            }
            Phase::Drawing { .. } | Phase::Dealer => self.turn(),
            Phase::Turning => self.turning_due().map(|seat| (seat, 1)),
            Phase::SecondCards { .. } | Phase::Showdown => None,
        }
    }

    /// Who is to stake next, in dealing order, while the table waits for a
    /// stake: once every first card is out in ordinary Vingt-un; before any
    /// card in the eight-round deal's games that stake first (between rounds,
    /// the dealer's left, whose stake opens the round).
    pub fn stake_due(&self) -> Option<Seat> {
        let unstaked = || {
            self.punters()
                .iter()
                .copied()
                .find(|s| self.round.seats[s.index()].stake.is_none())
        };
        match self.round.phase {
            Phase::FirstCards { next } if usize::from(next) == self.round.order.len() => unstaked(),
            _ if !self.game().stakes_first() => None,
            Phase::Between => self.dealer.map(|d| self.left_of(d)),
            Phase::FirstCards { next: 0 } | Phase::Turning if self.before_any_card() => unstaked(),
            _ => None,
        }
    }

    /// Who is to elect next, in dealing order, and between what, once every
    /// stake is made (Sympathy and Antipathy, Rouge et Noir).
    pub fn election_due(&self) -> Option<(Seat, [Choice; 2])> {
        let choices = self.game().choices()?;
        if self.round.phase != Phase::Turning || self.stake_due().is_some() {
            return None;
        }
        self.punters()
            .iter()
            .copied()
            .find(|s| self.round.seats[s.index()].choice.is_none())
            .map(|s| (s, choices))
    }

    /// Whether `card` can be the next card from the pack: it is not known to be
    /// on the table or (unless the pack must be remade first) in the pone's pile.
    pub fn card_available(&self, card: Card) -> bool {
        (!self.must_reshuffle() || self.pack.pile > 0) && self.copies_left(card) > 0
    }

    /// How many copies of `card` the pack can still hold for the next card.
    pub fn copies_left(&self, card: Card) -> u32 {
        let i = card.index();
        let seen = if self.must_reshuffle() {
            self.pack.on_table[i]
        } else {
            self.pack.seen[i]
        };
        u32::from(self.rules.packs.saturating_sub(seen))
    }

    /// The odds of over-drawing for the dealer's hand in play, from the cards
    /// not seen since the last shuffle. `None` outside the dealer's turn or while
    /// his cards are unseen.
    pub fn advice(&self) -> Option<Advice> {
        let dealer = self.dealer?;
        if self.round.phase != Phase::Dealer {
            return None;
        }
        let sr = self.round.seats.get(dealer.index())?;
        let hand = &sr.hands[sr.open_hand()?];
        let points = hand.cards.points().exact()?;
        let hard_points = hand.cards.hard_known();
        let copies = 4 * u16::from(self.rules.packs);
        let mut unseen = 0u16;
        let mut over = 0u16;
        for rank in Rank::ALL {
            let seen: u16 = crate::card::Suit::ALL
                .iter()
                .map(|&suit| u16::from(self.pack.seen[Card::new(rank, suit).index()]))
                .sum();
            let left = copies.saturating_sub(seen);
            unseen += left;
            if hard_points + rank.points() > 21 {
                over += left;
            }
        }
        (unseen > 0).then(|| Advice {
            points,
            over_chance: f64::from(over) / f64::from(unseen),
            unseen_cards: unseen,
        })
    }

    /// The next seat still at the table, leftwards (`step` 1) or rightwards
    /// (`step` n - 1), without a division in the loop.
    fn next_active(&self, seat: Seat, step: usize) -> Seat {
        let n = self.names.len();
        let mut i = seat.index();
        for _ in 1..n {
            i += step;
            if i >= n {
                i -= n;
            }
            if self.active[i] {
                return Seat(i as u8);
            }
        }
        seat
    }

    /// The next seat still at the table on `seat`'s left: the one the deal
    /// goes to after his (`seat` itself when no other is left).
    #[must_use]
    pub fn left_of(&self, seat: Seat) -> Seat {
        self.next_active(seat, 1)
    }

    fn right_of(&self, seat: Seat) -> Seat {
        self.next_active(seat, self.names.len() - 1)
    }

    fn hand_label(&self, seat: Seat, hand: usize) -> String {
        let divided = self.round.seats[seat.index()].hands.len() > 1;
        if divided {
            format!("{}'s hand {}", self.name(seat), hand + 1)
        } else {
            format!("{}'s hand", self.name(seat))
        }
    }

    fn dealer_seat(&self) -> Seat {
        self.round.order.last().copied().unwrap_or(Seat(0))
    }

    fn punters(&self) -> &[Seat] {
        let order = &self.round.order;
        &order[..order.len().saturating_sub(1)]
    }

    fn factor(&self) -> i64 {
        if self.round.doubled { 2 } else { 1 }
    }

    fn hand_stake(&self, seat: Seat, hand: usize) -> i64 {
        i64::from(self.round.seats[seat.index()].hands[hand].stake) * self.factor()
    }

    fn copies_words(&self) -> &'static str {
        if self.rules.packs == 2 {
            "twice"
        } else {
            "once"
        }
    }

    // ----- the command dispatcher ----------------------------------------------

    fn apply(&mut self, command: &Command, out: &mut Vec<Event>) -> Applied {
        if let Some(seat) = command_seat(command) {
            self.check_seat(seat)?;
        }
        match *command {
            Command::Dealer { player } => self.first_dealer(player, out),
            Command::DrawForDeal { from, ref cards } => self.draw_for_deal(from, cards, out),
            Command::Card { to, hand, card } => self.card(to, hand, card, out),
            Command::Stake { player, amount } => self.stake(player, amount, out),
            Command::Choose { player, choice } => self.choose(player, choice, out),
            Command::Double => self.double(out),
            Command::Divide {
                player,
                hand,
                amount,
            } => self.divide(player, hand, amount, out),
            Command::Content { player, hand } => self.content(player, hand, out),
            Command::Show {
                player,
                hand,
                ref cards,
            } => self.show(player, hand, cards, out),
            Command::Over { player, hand } => self.declare_over(player, hand, out),
            Command::Natural { player, hand } => self.declare_natural(player, hand, out),
            Command::Surplus { player, card } => self.surplus(player, card, out),
            Command::Rectify { player } => self.rectify(player, out),
            Command::Exposed { player, card } => self.exposed(player, card, out),
            Command::Reject { player, card } => self.reject(player, card, out),
            Command::Reshuffle => self.reshuffle(out),
            Command::Brulet { bottom, top } => self.brulet(bottom, top, out),
            Command::Sell { to, price } => self.sell(to, price, out),
            Command::Decline => self.decline(out),
            Command::Retire { player } => self.retire(player, out),
        }
    }

    fn check_seat(&self, seat: Seat) -> Applied {
        if self.is_active(seat) {
            Ok(())
        } else {
            Err(RuleErrorKind::OutOfTurn(format!("{} has left the table", self.name(seat))).into())
        }
    }

    // ----- the deal ------------------------------------------------------------

    fn first_dealer(&mut self, player: Seat, out: &mut Vec<Event>) -> Applied {
        if let Some(dealer) = self.dealer {
            return Err(RuleErrorKind::Deal(format!(
                "the first dealer is already named ({}); after that the rules decide who deals \
                 (the dealer may sell or decline the deal at its start)",
                self.name(dealer)
            ))
            .into());
        }
        self.new_deal(player, DealChange::First, out);
        Ok(())
    }

    fn draw_for_deal(
        &mut self,
        from: Option<Seat>,
        cards: &[Card],
        out: &mut Vec<Event>,
    ) -> Applied {
        let (rank, word) = (
            self.rules.first_dealer.rank(),
            self.rules.first_dealer.word(),
        );
        let Some(position) = cards.iter().position(|c| c.rank == rank) else {
            return Err(RuleErrorKind::Deal(format!(
                "no {word} among the cards turned up: deal on until the first {word} (house rule first_dealer)"
            )).into());
        };
        if position + 1 != cards.len() {
            return Err(RuleErrorKind::Deal(format!(
                "the first {word} ({}) ends the draw for the deal: {} card(s) after it",
                cards[position],
                cards.len() - position - 1
            ))
            .into());
        }
        for (i, card) in cards.iter().enumerate() {
            if cards[..i].iter().filter(|c| *c == card).count() >= usize::from(self.rules.packs) {
                return Err(self.seen_error(*card, false));
            }
        }
        let mut seat = from.unwrap_or(Seat(0));
        if !self.is_active(seat) {
            seat = self.left_of(seat);
        }
        for _ in 0..position {
            seat = self.left_of(seat);
        }
        self.first_dealer(seat, out)
    }

    fn new_deal(&mut self, dealer: Seat, why: DealChange, out: &mut Vec<Event>) {
        self.dealer = Some(dealer);
        self.deal = Deal {
            rounds: 0,
            brulet_done: false,
        };
        self.pack = Pack::fresh(&self.rules);
        out.push(Event::DealStarted { dealer, why });
        // A new game feeds the pool; a deal sold or declined is the same game.
        let new_game = !matches!(why, DealChange::Sold | DealChange::Declined);
        if let (Some(ante), true) = (self.rules.pool, new_game) {
            for seat in self.active_seats().collect::<ArrayVec<Seat, MAX_PLAYERS>>() {
                self.settle(
                    Settlement {
                        player: seat,
                        hand: 1,
                        amount: -i64::from(ante),
                        from: Party::Seat(seat),
                        to: Party::Pool,
                        reason: Reason::PoolAnte,
                    },
                    out,
                );
            }
        }
    }

    fn between_rounds(&self, what: &str) -> Result<Seat, RuleError> {
        let dealer = self.dealer.ok_or(RuleErrorKind::NoDealer)?;
        if self.round.phase == Phase::Between {
            Ok(dealer)
        } else {
            Err(RuleErrorKind::Deal(format!(
                "{what} only between rounds: round {} is in play",
                self.round.number
            ))
            .into())
        }
    }

    fn at_deal_start(&self, what: &str) -> Result<Seat, RuleError> {
        let dealer = self.between_rounds(what)?;
        if self.deal.rounds == 0 {
            Ok(dealer)
        } else {
            Err(RuleErrorKind::Deal(format!(
                "{what} only at the start of a deal, before its first card: {} has dealt {} round(s)",
                self.name(dealer),
                self.deal.rounds
            )).into())
        }
    }

    fn sell(&mut self, buyer: Seat, price: u32, out: &mut Vec<Event>) -> Applied {
        let dealer = self.at_deal_start("the deal can be sold")?;
        if buyer == dealer {
            return Err(RuleErrorKind::Deal(format!(
                "{} cannot buy the deal from himself",
                self.name(buyer)
            ))
            .into());
        }
        self.settle(
            Settlement {
                player: buyer,
                hand: 1,
                amount: -i64::from(price),
                from: Party::Seat(buyer),
                to: Party::Seat(dealer),
                reason: Reason::DealSold,
            },
            out,
        );
        self.new_deal(buyer, DealChange::Sold, out);
        Ok(())
    }

    fn decline(&mut self, out: &mut Vec<Event>) -> Applied {
        let dealer = self.at_deal_start("the deal can be declined")?;
        let next = self.left_of(dealer);
        self.new_deal(next, DealChange::Declined, out);
        Ok(())
    }

    fn retire(&mut self, player: Seat, out: &mut Vec<Event>) -> Applied {
        if self.round.phase != Phase::Between {
            return Err(RuleErrorKind::Deal(format!(
                "a player retires only after a hand: round {} is in play",
                self.round.number
            ))
            .into());
        }
        if self.active.iter().filter(|a| **a).count() <= 2 {
            return Err(RuleErrorKind::Deal(
                "two players must stay at the table: end the sitting instead".into(),
            )
            .into());
        }
        self.active[player.index()] = false;
        out.push(Event::Retired { player });
        if self.dealer == Some(player) {
            let next = self.left_of(player);
            self.new_deal(next, DealChange::Retired, out);
        }
        Ok(())
    }

    fn reshuffle(&mut self, out: &mut Vec<Event>) -> Applied {
        self.between_rounds("the pack is reshuffled")?;
        if self.pack.dealt_since_shuffle > 0 {
            return Err(RuleErrorKind::Deal(
                "the pack is reshuffled for confusion only before any card is dealt from it".into(),
            )
            .into());
        }
        out.push(Event::PackReshuffled {
            cards: self.pack.left,
        });
        Ok(())
    }

    fn brulet(&mut self, bottom: Card, top: Option<Card>, out: &mut Vec<Event>) -> Applied {
        if self.rules.brulet == Brulet::Off {
            return Err(RuleErrorKind::Deal(
                "brulet is off at this table (house rule \"brulet\")".into(),
            )
            .into());
        }
        let dealer = self.at_deal_start("the brulet is looked at")?;
        if self.deal.brulet_done || self.pack.dealt_since_shuffle > 0 {
            return Err(RuleErrorKind::Deal(
                "the brulet is looked at once, right after the cut".into(),
            )
            .into());
        }
        let promising = |c: Card| c.rank == Rank::Ace || c.rank.is_tenth_card();
        match top {
            Some(_) if !promising(bottom) => {
                return Err(RuleErrorKind::Deal(format!(
                    "the top card is looked at only when the bottom card is an ace or a tenth card, not {bottom}"
                )).into());
            }
            None if promising(bottom) => {
                return Err(RuleErrorKind::Deal(format!(
                    "the bottom card {bottom} is an ace or a tenth card: the dealer looks at the top card too; name it (\"top\")"
                )).into());
            }
            _ => {}
        }
        self.check_unseen(bottom, false)?;
        if let Some(top) = top {
            if top == bottom && self.rules.packs == 1 {
                return Err(self.seen_error(top, false));
            }
            self.check_unseen(top, false)?;
        }
        self.deal.brulet_done = true;
        for card in std::iter::once(bottom).chain(top) {
            self.pack.left -= 1;
            self.pack.dealt_since_shuffle += 1;
            self.pack.pile += 1;
            self.pack.seen[card.index()] += 1;
            out.push(Event::CardToPone { card: Some(card) });
        }
        let natural = top.is_some_and(|top| {
            [Some(bottom), Some(top)]
                .into_iter()
                .collect::<Cards>()
                .is_ace_and_tenth()
        });
        if !natural {
            return Ok(());
        }
        let each = match self.rules.brulet {
            Brulet::DoubleMinimum => i64::from(self.rules.min_stake) * 2,
            Brulet::Limit => i64::from(self.rules.max_stake),
            Brulet::ClearsPool | Brulet::Off => 0,
        };
        if self.rules.brulet == Brulet::ClearsPool {
            let pool = self.pool;
            self.settle(
                Settlement {
                    player: dealer,
                    hand: 1,
                    amount: pool,
                    from: Party::Pool,
                    to: Party::Seat(dealer),
                    reason: Reason::Brulet,
                },
                out,
            );
        } else {
            for seat in self
                .active_seats()
                .filter(|&s| s != dealer)
                .collect::<ArrayVec<Seat, MAX_PLAYERS>>()
            {
                self.pay_dealer(seat, dealer, 0, -each, Reason::Brulet, out);
            }
        }
        Ok(())
    }

    fn active_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.names.len())
            .map(|i| Seat(i as u8))
            .filter(|s| self.active[s.index()])
    }

    // ----- money ---------------------------------------------------------------

    fn settle(&mut self, s: Settlement, out: &mut Vec<Event>) {
        let value = s.amount.abs();
        for (party, delta) in [(s.from, -value), (s.to, value)] {
            match party {
                Party::Seat(seat) => self.balances[seat.index()] += delta,
                Party::Pool => self.pool += delta,
            }
        }
        out.push(Event::Settled(s));
    }

    /// A payment between a player's hand and the dealer, signed from the player's side.
    fn pay_dealer(
        &mut self,
        player: Seat,
        dealer: Seat,
        hand: usize,
        amount: i64,
        reason: Reason,
        out: &mut Vec<Event>,
    ) {
        // What [`State::settle`] does, without matching the parties: signed
        // from the player's side, the amount goes to him and from the dealer.
        self.balances[player.index()] += amount;
        self.balances[dealer.index()] -= amount;
        let (from, to) = if amount < 0 {
            (Party::Seat(player), Party::Seat(dealer))
        } else {
            (Party::Seat(dealer), Party::Seat(player))
        };
        out.push(Event::Settled(Settlement {
            player,
            hand: hand as u8 + 1,
            amount,
            from,
            to,
            reason,
        }));
    }

    // ----- the pack ------------------------------------------------------------

    fn seen_error(&self, card: Card, reshuffling: bool) -> RuleError {
        let i = card.index();
        let detail = if self.pack.on_table[i] > 0 {
            " (it is on the table)".to_owned()
        } else if !reshuffling && self.pack.seen[i] > 0 {
            " (it is in the pone's pile)".to_owned()
        } else {
            String::new()
        };
        RuleErrorKind::CardAlreadySeen {
            card,
            copies: self.copies_words(),
            detail,
        }
        .into()
    }

    fn check_unseen(&self, card: Card, reshuffling: bool) -> Applied {
        let i = card.index();
        let seen = if reshuffling {
            self.pack.on_table[i]
        } else {
            self.pack.seen[i]
        };
        if seen >= self.rules.packs {
            return Err(self.seen_error(card, reshuffling));
        }
        Ok(())
    }

    /// Whether the next card needs the pone's pile first (the last card is never dealt).
    fn must_reshuffle(&self) -> bool {
        self.pack.left <= 1
    }

    #[inline(always)]
    fn check_deal(&self, card: Option<Card>) -> Applied {
        let reshuffling = self.must_reshuffle();
        if reshuffling && self.pack.pile == 0 {
            return Err(RuleErrorKind::PackExhausted.into());
        }
        match card {
            Some(card) => self.check_unseen(card, reshuffling),
            None => Ok(()),
        }
    }

    /// Takes a card from the pack into a hand (checked by [`State::check_deal`]).
    /// Inlined: it runs for every card, and a call costs about what it does.
    #[inline(always)]
    fn put_card(&mut self, seat: Seat, hand: usize, card: Option<Card>, out: &mut Vec<Event>) {
        self.reshuffle_if_last(out);
        self.pack.left -= 1;
        self.pack.dealt_since_shuffle += 1;
        if let Some(card) = card {
            self.pack.on_table[card.index()] += 1;
            self.pack.seen[card.index()] += 1;
        }
        self.round.seats[seat.index()].hands[hand].cards.push(card);
        if let Some((_, fresh)) = &mut self.round.surplus {
            *fresh = false;
        }
        out.push(Event::CardDealt {
            to: seat,
            hand: hand as u8 + 1,
            card,
        });
    }

    /// Before a card is taken from the pack: when only the last card is
    /// left, it goes unseen to the pone, who shuffles it with his pile.
    #[inline(always)]
    fn reshuffle_if_last(&mut self, out: &mut Vec<Event>) {
        if self.must_reshuffle() {
            let cards = self.pack.pile + self.pack.left;
            self.pack.left = cards;
            self.pack.pile = 0;
            self.pack.seen = self.pack.on_table;
            self.pack.dealt_since_shuffle = 0;
            out.push(Event::PackReshuffled { cards });
        }
    }

    /// The known cards in the round's hands not yet in the pile, per card
    /// index: what `on_table` counts.
    fn cards_in_hands(&self) -> [u8; 52] {
        let mut counts = [0; 52];
        for &seat in &self.round.order {
            for h in &self.round.seats[seat.index()].hands {
                if !h.in_pile {
                    for card in h.cards.known() {
                        counts[card.index()] += 1;
                    }
                }
            }
        }
        counts
    }

    /// Sends a hand's cards to the pone's pile.
    fn hand_to_pile(&mut self, seat: Seat, hand: usize) {
        let h = &mut self.round.seats[seat.index()].hands[hand];
        if h.in_pile {
            return;
        }
        h.in_pile = true;
        self.pack.pile += h.cards.len() as u16;
        for card in h.cards.known() {
            self.pack.on_table[card.index()] -= 1;
        }
    }

    // ----- dealing -------------------------------------------------------------

    fn card(
        &mut self,
        to: Seat,
        hand: Option<u8>,
        card: Option<Card>,
        out: &mut Vec<Event>,
    ) -> Applied {
        match self.round.phase {
            Phase::Between => self.start_round(to, hand, card, out),
            Phase::FirstCards { next } => self.deal_round_card(false, next, to, hand, card, out),
            Phase::SecondCards { next } => self.deal_round_card(true, next, to, hand, card, out),
            Phase::Drawing { turn } => self.drawing_card(turn, to, hand, card, out),
            Phase::Dealer => {
                let dealer = self.dealer_seat();
                if to != dealer {
                    return Err(RuleErrorKind::OutOfTurn(format!(
                        "it is the dealer's turn: cards go to {} now, not {}",
                        self.name(dealer),
                        self.name(to)
                    )).into());
                }
                let idx = self.hand_for_card(dealer, hand)?;
                self.check_deal(card)?;
                self.put_card(dealer, idx, card, out);
                self.after_hand_card(dealer, idx, out);
                Ok(())
            }
            Phase::Showdown => Err(RuleErrorKind::OutOfTurn(
                "the dealer is done: the round waits for the hands to be shown (show), not for cards".into(),
            ).into()),
            Phase::Turning => self.turning_card(to, hand, card, out),
        }
    }

    fn dealing_order(&self, dealer: Seat) -> ArrayVec<Seat, MAX_PLAYERS> {
        let mut order = ArrayVec::new();
        let mut seat = self.left_of(dealer);
        while seat != dealer {
            order.push(seat);
            seat = self.left_of(seat);
        }
        order.push(dealer);
        order
    }

    fn start_round(
        &mut self,
        to: Seat,
        hand: Option<u8>,
        card: Option<Card>,
        out: &mut Vec<Event>,
    ) -> Applied {
        let dealer = self.dealer.ok_or(RuleErrorKind::NoDealer)?;
        let game = self.game();
        if game.stakes_first() {
            let what = if game.choices().is_some() {
                "stakes and elects"
            } else {
                "stakes"
            };
            return Err(RuleErrorKind::OutOfTurn(format!(
                "{game}: every player {what} before the first card is dealt"
            ))
            .into());
        }
        if !game.is_vingt_un() {
            // Checked before the round opens, so that a refused card changes nothing.
            let first = if game == RoundGame::Clock {
                dealer
            } else {
                self.left_of(dealer)
            };
            if to != first {
                return Err(RuleErrorKind::OutOfTurn(format!(
                    "{game}: the first card goes to {}, not {}",
                    self.name(first),
                    self.name(to)
                ))
                .into());
            }
            check_first_hand(hand)?;
            let card = face_up(game, card)?;
            if game != RoundGame::Clock {
                self.check_deal(Some(card))?;
            }
            self.open_round(dealer, out);
            return self.turning_card(to, hand, Some(card), out);
        }
        let first = self.left_of(dealer);
        if to != first {
            return Err(RuleErrorKind::OutOfTurn(format!(
                "the first card of a round goes to {} (the dealer {}'s left), not {}",
                self.name(first),
                self.name(dealer),
                self.name(to)
            ))
            .into());
        }
        check_first_hand(hand)?;
        self.check_deal(card)?;
        self.open_round(dealer, out);
        self.put_card(to, 0, card, out);
        self.round.phase = Phase::FirstCards { next: 1 };
        Ok(())
    }

    /// Starts the next round: its number, game, dealing order and empty hands.
    fn open_round(&mut self, dealer: Seat, out: &mut Vec<Event>) {
        let game = self.game();
        self.rounds_played += 1;
        self.deal.rounds += 1;
        let order = self.dealing_order(dealer);
        let round = &mut self.round;
        round.number = self.rounds_played;
        round.game = game;
        round.turned = 0;
        round.phase = if game.is_vingt_un() {
            Phase::FirstCards { next: 0 }
        } else {
            Phase::Turning
        };
        round.order = order;
        for sr in &mut round.seats {
            sr.reset(game);
        }
        round.doubled = false;
        round.holders.clear();
        round.player_natural_paid = false;
        round.drawing_started = false;
        round.replacement_due = None;
        round.surplus = None;
        round.exposed = None;
        out.push(Event::RoundStarted {
            round: self.round.number,
            dealer,
            game,
        });
        if game == RoundGame::Clock {
            // "The full pack having been duly shuffled and cut".
            self.pack = Pack::fresh(&self.rules);
            out.push(Event::PackReshuffled {
                cards: self.pack.left,
            });
        }
    }

    /// Whether every player has staked this round (the dealer does not
    /// stake).
    #[must_use]
    pub fn all_staked(&self) -> bool {
        self.punters()
            .iter()
            .all(|s| self.round.seats[s.index()].stake.is_some())
    }

    fn missing_stakes(&self) -> Vec<&str> {
        self.punters()
            .iter()
            .filter(|s| self.round.seats[s.index()].stake.is_none())
            .map(|&s| self.name(s))
            .collect()
    }

    #[inline(always)]
    fn deal_round_card(
        &mut self,
        second: bool,
        next: u8,
        to: Seat,
        hand: Option<u8>,
        card: Option<Card>,
        out: &mut Vec<Event>,
    ) -> Applied {
        check_first_hand(hand)?;
        let len = self.round.order.len() as u8;
        if self.round.game.stakes_first() && !self.all_staked() {
            return Err(RuleErrorKind::OutOfTurn(format!(
                "{}: the cards wait for every stake: no stake yet from {}",
                self.round.game,
                self.missing_stakes().join(", ")
            ))
            .into());
        }
        if let Some(owed) = self.round.replacement_due {
            if to != owed {
                return Err(RuleErrorKind::OutOfTurn(format!(
                    "{} rejected an exposed card and is owed the next card, not {}",
                    self.name(owed),
                    self.name(to)
                ))
                .into());
            }
            self.check_deal(card)?;
            self.round.replacement_due = None;
            self.put_card(to, 0, card, out);
            if second && next == len && self.round.surplus.is_none() {
                self.after_second_cards(out);
            }
            return Ok(());
        }
        let (second, next) = if next == len {
            if second {
                // Waiting on a surplus card to be rejected.
                let holder = self.round.surplus.map_or(to, |(s, _)| s);
                return Err(RuleErrorKind::OutOfTurn(format!(
                    "{} holds two cards dealt at once: he must reject one (reject) before play goes on",
                    self.name(holder)
                )).into());
            }
            if !self.all_staked() {
                return Err(RuleErrorKind::OutOfTurn(format!(
                    "the second cards wait for every stake: no stake yet from {}",
                    self.missing_stakes().join(", ")
                ))
                .into());
            }
            (true, 0)
        } else {
            (second, next)
        };
        let expected = self.round.order[usize::from(next)];
        if to != expected {
            let hint = if next > 0 && self.round.order[usize::from(next) - 1] == to {
                " (if two cards were dealt to him at once, record the second with \"surplus\")"
            } else {
                ""
            };
            return Err(RuleErrorKind::OutOfTurn(format!(
                "card out of turn: the {} card goes to {}, not {}{hint}",
                if second { "second" } else { "first" },
                self.name(expected),
                self.name(to)
            ))
            .into());
        }
        self.check_deal(card)?;
        self.put_card(to, 0, card, out);
        let next = next + 1;
        self.round.phase = if second {
            Phase::SecondCards { next }
        } else {
            Phase::FirstCards { next }
        };
        // Imaginary Tens deals one card each, then play goes on as after the second.
        let dealt = second || self.round.game == RoundGame::ImaginaryTens;
        if dealt && next == len && self.round.surplus.is_none() {
            self.after_second_cards(out);
        }
        Ok(())
    }

    fn stake(&mut self, player: Seat, amount: u32, out: &mut Vec<Event>) -> Applied {
        let game = self.game();
        if !game.staked() {
            return Err(RuleErrorKind::Stake(format!(
                "{game}: nobody stakes; the house rules set what is paid ({})",
                if game == RoundGame::Clock {
                    "clock_stake"
                } else {
                    "differences_rate"
                }
            ))
            .into());
        }
        let opening = if game.stakes_first() {
            self.before_cards(game, player, "stakes")?
        } else {
            self.on_first_card(player)?;
            None
        };
        if opening.is_none()
            && let Some(stake) = self.round.seats[player.index()].stake
        {
            return Err(RuleErrorKind::Stake(format!(
                "{} has already staked {stake} (undo it to change it)",
                self.name(player)
            ))
            .into());
        }
        self.check_limits(player, amount)?;
        if let Some(dealer) = opening {
            self.open_round(dealer, out);
        }
        let sr = &mut self.round.seats[player.index()];
        sr.stake = Some(amount);
        sr.hands[0].stake = amount;
        out.push(Event::Staked { player, amount });
        Ok(())
    }

    /// Checks that `player` may stake on his first card now (ordinary Vingt-un).
    fn on_first_card(&self, player: Seat) -> Applied {
        let Phase::FirstCards { next } = self.round.phase else {
            return Err(RuleErrorKind::Stake(format!(
                "{} cannot stake now: stakes are made on the first card, before the second is dealt",
                self.name(player)
            )).into());
        };
        if player == self.dealer_seat() {
            return Err(RuleErrorKind::Stake(format!(
                "{} is the dealer: the dealer does not stake (he may double)",
                self.name(player)
            ))
            .into());
        }
        let position = self
            .round
            .order
            .iter()
            .position(|&s| s == player)
            .unwrap_or(usize::MAX);
        if position >= usize::from(next) {
            return Err(RuleErrorKind::Stake(format!(
                "{} stakes on his card: deal it first",
                self.name(player)
            ))
            .into());
        }
        Ok(())
    }

    fn check_limits(&self, player: Seat, amount: u32) -> Applied {
        let (min, max) = (self.rules.min_stake, self.rules.max_stake);
        if (min..=max).contains(&amount) {
            Ok(())
        } else {
            Err(RuleErrorKind::Stake(format!(
                "{}'s stake of {amount} is outside the limits {min} to {max}",
                self.name(player)
            ))
            .into())
        }
    }

    /// Whether the round in play has dealt no card yet (its stakes-first stage).
    fn before_any_card(&self) -> bool {
        self.round
            .seats
            .iter()
            .all(|sr| sr.hands.iter().all(|h| h.cards.is_empty() && !h.in_pile))
    }

    /// Checks that `player` may stake or elect now, in a game whose stakes
    /// come before the cards; between rounds, the dealer of the round his
    /// word opens.
    fn before_cards(
        &self,
        game: RoundGame,
        player: Seat,
        what: &str,
    ) -> Result<Option<Seat>, RuleError> {
        let dealer = self.dealer.ok_or(RuleErrorKind::NoDealer)?;
        let opening = self.round.phase == Phase::Between;
        if !opening && !self.before_any_card() {
            return Err(RuleErrorKind::Stake(format!(
                "{game}: {} {what} before the cards, and they are being dealt",
                self.name(player)
            ))
            .into());
        }
        if player == dealer {
            return Err(RuleErrorKind::Stake(format!(
                "{} is the dealer: the players {what}, not he",
                self.name(player)
            ))
            .into());
        }
        Ok(opening.then_some(dealer))
    }

    /// Sympathy or antipathy, red or black: what a player elects before his cards.
    fn choose(&mut self, player: Seat, choice: Choice, out: &mut Vec<Event>) -> Applied {
        let game = self.game();
        let Some(choices) = game.choices() else {
            return Err(RuleErrorKind::Stake(format!(
                "{game}: there is nothing to elect (sympathy or antipathy is the fourth round of \
                 the eight-round deal, red or black the fifth)"
            ))
            .into());
        };
        if !choices.contains(&choice) {
            return Err(RuleErrorKind::Stake(format!(
                "{game}: {} elects {} or {}, not {choice}",
                self.name(player),
                choices[0],
                choices[1]
            ))
            .into());
        }
        let opening = self.before_cards(game, player, "elects")?;
        if opening.is_none()
            && let Some(chosen) = self.round.seats[player.index()].choice
        {
            return Err(RuleErrorKind::Stake(format!(
                "{} has already elected {chosen} (undo it to change it)",
                self.name(player)
            ))
            .into());
        }
        if let Some(dealer) = opening {
            self.open_round(dealer, out);
        }
        self.round.seats[player.index()].choice = Some(choice);
        out.push(Event::Chose { player, choice });
        Ok(())
    }

    fn double(&mut self, out: &mut Vec<Event>) -> Applied {
        let game = self.game();
        if game != RoundGame::Ordinary {
            return Err(RuleErrorKind::OutOfTurn(format!(
                "{game}: the dealer doubles only in ordinary Vingt-un (the eight-round deal's first round)"
            ))
            .into());
        }
        let len = self.round.order.len() as u8;
        if self.round.phase != (Phase::FirstCards { next: len }) {
            return Err(RuleErrorKind::OutOfTurn(
                "the dealer doubles after every first card is dealt and staked, before the second cards".into(),
            ).into());
        }
        if self.round.doubled {
            return Err(RuleErrorKind::OutOfTurn(
                "the dealer has already doubled this round".into(),
            )
            .into());
        }
        if !self.all_staked() {
            return Err(RuleErrorKind::OutOfTurn(format!(
                "the dealer doubles once every stake is laid: no stake yet from {}",
                self.missing_stakes().join(", ")
            ))
            .into());
        }
        self.round.doubled = true;
        out.push(Event::Doubled);
        Ok(())
    }

    // ----- naturals ------------------------------------------------------------

    fn after_second_cards(&mut self, out: &mut Vec<Event>) {
        self.round.phase = Phase::Drawing { turn: 0 };
        self.round.exposed = None;
        let dealer = self.dealer_seat();
        if self.round.seats[dealer.index()].hands[0]
            .cards
            .is_ace_and_tenth()
        {
            self.dealer_natural(out);
            return;
        }
        if self.round.game == RoundGame::Blind {
            // The players do not look at their cards: their naturals are
            // found when the hands are turned up at the end.
            self.advance_turn(out);
            return;
        }
        let punters: ArrayVec<Seat, MAX_PLAYERS> = self.punters().iter().copied().collect();
        for seat in punters {
            if self.round.seats[seat.index()].hands[0]
                .cards
                .is_ace_and_tenth()
            {
                self.player_natural(seat, 0, out);
            }
        }
        self.advance_turn(out);
    }

    fn dealer_natural(&mut self, out: &mut Vec<Event>) {
        let dealer = self.dealer_seat();
        self.round.seats[dealer.index()].hands[0].state = HandState::Natural;
        out.push(Event::Natural {
            player: dealer,
            hand: 1,
        });
        if self.round.game == RoundGame::Blind {
            // The players' cards are turned up to find the naturals that tie his.
            for &seat in &self.round.order[..self.round.order.len() - 1] {
                self.round.seats[seat.index()].hands[0].state = HandState::Stood;
            }
            self.settle_round(out);
            return;
        }
        let pays = i64::from(self.rules.natural_pays);
        let punters: ArrayVec<Seat, MAX_PLAYERS> = self.punters().iter().copied().collect();
        for seat in punters {
            let hand = &self.round.seats[seat.index()].hands[0];
            let tie = hand.cards.is_ace_and_tenth() || hand.declared == Some(Declaration::Natural);
            let stake = self.hand_stake(seat, 0);
            if tie {
                self.pay_dealer(seat, dealer, 0, 0, Reason::NaturalTiesNatural, out);
            } else {
                self.pay_dealer(seat, dealer, 0, -pays * stake, Reason::DealerNatural, out);
            }
            self.round.seats[seat.index()].hands[0].state = HandState::Settled;
        }
        self.end_round(out);
    }

    fn player_natural(&mut self, seat: Seat, hand: usize, out: &mut Vec<Event>) {
        let dealer = self.dealer_seat();
        self.round.seats[seat.index()].hands[hand].state = HandState::Natural;
        self.round.player_natural_paid = true;
        out.push(Event::Natural {
            player: seat,
            hand: hand as u8 + 1,
        });
        let stake = self.hand_stake(seat, hand);
        // In the eight-round deal no natural puts the dealer out (the deal
        // lasts its eight rounds), so none is a misericorde either.
        let eight = self.rules.eight_round_deal;
        if !eight && self.deal.rounds == 1 {
            self.pay_dealer(seat, dealer, hand, 2 * stake, Reason::Misericorde, out);
        } else {
            let pays = i64::from(self.rules.natural_pays);
            self.pay_dealer(seat, dealer, hand, pays * stake, Reason::Natural, out);
        }
        if !eight && self.deal.rounds != 1 {
            if !self.round.holders.contains(&seat) {
                self.round.holders.push(seat);
            }
            if self.rules.deal_passes != DealPasses::Never && self.round.holders.len() == 1 {
                out.push(Event::DealerPutOut { by: seat });
            }
        }
        if self.rules.natural_bonus_from_players {
            let bonus = i64::from(self.round.seats[seat.index()].hands[hand].stake);
            let others: ArrayVec<Seat, MAX_PLAYERS> = self
                .punters()
                .iter()
                .copied()
                .filter(|&s| s != seat)
                .collect();
            for other in others {
                self.settle(
                    Settlement {
                        player: seat,
                        hand: hand as u8 + 1,
                        amount: bonus,
                        from: Party::Seat(other),
                        to: Party::Seat(seat),
                        reason: Reason::NaturalBonus,
                    },
                    out,
                );
            }
        }
    }

    // ----- drawing -------------------------------------------------------------

    fn needs_completion_anywhere(&self) -> Option<Seat> {
        self.punters()
            .iter()
            .copied()
            .find(|s| self.round.seats[s.index()].incomplete_hand().is_some())
    }

    /// Which hand of `seat` a card goes to, given the `hand` named (1-based),
    /// checked to have room for it.
    #[inline(always)]
    fn hand_for_card(&self, seat: Seat, hand: Option<u8>) -> Result<usize, RuleError> {
        let idx = self.hand_due_card(seat, hand)?;
        if self.round.seats[seat.index()].hands[idx].cards.len() >= MAX_CARDS {
            return Err(RuleErrorKind::Hand(format!(
                "{} holds {MAX_CARDS} cards, more than any hand can hold without going over: \
                 declare it over or show its cards",
                self.hand_label(seat, idx)
            ))
            .into());
        }
        Ok(idx)
    }

    #[inline(always)]
    fn hand_due_card(&self, seat: Seat, hand: Option<u8>) -> Result<usize, RuleError> {
        let sr = &self.round.seats[seat.index()];
        match hand {
            None => sr
                .incomplete_hand()
                .or_else(|| sr.open_hand())
                .ok_or_else(|| {
                    RuleErrorKind::Hand(format!("{} has no hand left in play", self.name(seat)))
                        .into()
                }),
            Some(n) => {
                let idx = self.named_hand(seat, n)?;
                let h = &sr.hands[idx];
                if h.state != HandState::Open {
                    return Err(RuleErrorKind::Hand(format!(
                        "{} is finished",
                        self.hand_label(seat, idx)
                    ))
                    .into());
                }
                if h.cards.len() >= h.cards.dealt() && sr.open_hand() != Some(idx) {
                    return Err(RuleErrorKind::Hand(format!(
                        "{} finishes one hand before the next: hand {} is in play",
                        self.name(seat),
                        sr.open_hand().map_or(0, |i| i + 1)
                    ))
                    .into());
                }
                Ok(idx)
            }
        }
    }

    #[inline(always)]
    /// The hand is the one in play: the player's first open hand.
    fn check_in_play(&self, player: Seat, idx: usize) -> Applied {
        if self.round.seats[player.index()].open_hand() == Some(idx) {
            Ok(())
        } else {
            Err(
                RuleErrorKind::Hand(format!("{} is not in play", self.hand_label(player, idx)))
                    .into(),
            )
        }
    }

    fn named_hand(&self, seat: Seat, n: u8) -> Result<usize, RuleError> {
        let count = self.round.seats[seat.index()].hands.len();
        if n == 0 || usize::from(n) > count {
            return Err(RuleErrorKind::Hand(format!(
                "{} has no hand {n}: he holds {count} hand(s)",
                self.name(seat)
            ))
            .into());
        }
        Ok(usize::from(n) - 1)
    }

    fn drawing_card(
        &mut self,
        turn: u8,
        to: Seat,
        hand: Option<u8>,
        card: Option<Card>,
        out: &mut Vec<Event>,
    ) -> Applied {
        let current = self.round.order[usize::from(turn)];
        let dealer = self.dealer_seat();
        if to == dealer {
            return Err(RuleErrorKind::OutOfTurn(format!(
                "the dealer draws after every player: it is {}'s turn",
                self.name(current)
            ))
            .into());
        }
        let completing_early = self.rules.divide_when == DivideWhen::BeforeDrawing
            && !self.round.drawing_started
            && self.round.seats[to.index()].incomplete_hand().is_some();
        if to != current && !completing_early {
            return Err(RuleErrorKind::OutOfTurn(format!(
                "card out of turn: it is {}'s turn to draw, not {}'s",
                self.name(current),
                self.name(to)
            ))
            .into());
        }
        let idx = self.hand_for_card(to, hand)?;
        let cards = &self.round.seats[to.index()].hands[idx].cards;
        let drawing = cards.len() >= cards.dealt();
        if drawing
            && self.rules.divide_when == DivideWhen::BeforeDrawing
            && let Some(waiting) = self.needs_completion_anywhere()
        {
            return Err(RuleErrorKind::OutOfTurn(format!(
                "every divided hand gets its second card before drawing starts: {} is owed one",
                self.name(waiting)
            ))
            .into());
        }
        self.check_deal(card)?;
        if drawing {
            self.round.drawing_started = true;
        }
        self.put_card(to, idx, card, out);
        self.after_hand_card(to, idx, out);
        Ok(())
    }

    /// What a new card means for its hand: over, a Vingt-un, a natural on a
    /// divided hand, or nothing yet.
    #[inline(always)]
    fn after_hand_card(&mut self, seat: Seat, idx: usize, out: &mut Vec<Event>) {
        let dealer = self.dealer_seat();
        if self.round.game == RoundGame::Blind && seat != dealer {
            // Drawn blind: the hand is known only when it is turned up at the end.
            return;
        }
        let sr = &self.round.seats[seat.index()];
        let divided = sr.hands.len() > 1;
        let cards = &sr.hands[idx].cards;
        if cards.is_known_over() {
            self.over_drawn(seat, idx, out);
        } else if cards.points() == Points::Known(21) {
            if cards.len() == 2
                && divided
                && seat != dealer
                && self.rules.divided_natural == DividedNatural::Natural
                && cards.is_ace_and_tenth()
            {
                self.player_natural(seat, idx, out);
            } else if cards.len() >= 2 {
                self.round.seats[seat.index()].hands[idx].state = HandState::Stood;
                out.push(Event::VingtUn {
                    player: seat,
                    hand: idx as u8 + 1,
                });
            }
        }
        self.after_hand_finished(seat, out);
    }

    #[inline(always)]
    fn over_drawn(&mut self, seat: Seat, idx: usize, out: &mut Vec<Event>) {
        let dealer = self.dealer_seat();
        self.round.seats[seat.index()].hands[idx].state = HandState::Over;
        out.push(Event::OverDrawn {
            player: seat,
            hand: idx as u8 + 1,
        });
        if seat != dealer {
            let stake = self.hand_stake(seat, idx);
            self.pay_dealer(seat, dealer, idx, -stake, Reason::OverDrawn, out);
            self.hand_to_pile(seat, idx);
        }
    }

    /// Moves play on once the seat in turn has no hand left open.
    #[inline(always)]
    fn after_hand_finished(&mut self, seat: Seat, out: &mut Vec<Event>) {
        if self.round.seats[seat.index()].open_hand().is_some() {
            return;
        }
        match self.round.phase {
            Phase::Drawing { turn } if self.round.order[usize::from(turn)] == seat => {
                self.advance_turn(out);
            }
            Phase::Dealer if seat == self.dealer_seat() => self.settle_round(out),
            _ => {}
        }
    }

    #[inline(always)]
    fn advance_turn(&mut self, out: &mut Vec<Event>) {
        let Phase::Drawing { mut turn } = self.round.phase else {
            return;
        };
        let punters = self.punters().len() as u8;
        while turn < punters
            && self.round.seats[self.round.order[usize::from(turn)].index()]
                .open_hand()
                .is_none()
        {
            turn += 1;
        }
        if turn < punters {
            self.round.phase = Phase::Drawing { turn };
            return;
        }
        let standing = self.punters().iter().any(|s| {
            self.round.seats[s.index()]
                .hands
                .iter()
                .any(|h| h.state == HandState::Stood)
        });
        if standing {
            self.round.phase = Phase::Dealer;
            self.round.drawing_started = true;
            out.push(Event::DealersTurn);
        } else {
            self.end_round(out);
        }
    }

    /// The seat whose turn it is to act on its hands, checked against `player`.
    #[inline(always)]
    fn acting(&self, player: Seat, what: &str) -> Applied {
        let whose = match self.round.phase {
            Phase::Drawing { turn } => self.round.order[usize::from(turn)],
            Phase::Dealer => self.dealer_seat(),
            _ => {
                return Err(RuleErrorKind::OutOfTurn(format!(
                    "{} cannot {what} now: players act in turn once the second cards are dealt",
                    self.name(player)
                ))
                .into());
            }
        };
        if whose == player {
            Ok(())
        } else {
            Err(RuleErrorKind::OutOfTurn(format!(
                "{} cannot {what} now: it is {}'s turn",
                self.name(player),
                self.name(whose)
            ))
            .into())
        }
    }

    fn content(&mut self, player: Seat, hand: Option<u8>, out: &mut Vec<Event>) -> Applied {
        // A content said again for a hand already standing changes nothing.
        let sr = &self.round.seats[player.index()];
        let stood = |h: &Hand| matches!(h.state, HandState::Stood | HandState::Settled);
        let already = match hand {
            Some(n) => self
                .named_hand(player, n)
                .is_ok_and(|i| stood(&sr.hands[i])),
            None => sr.open_hand().is_none() && sr.hands.iter().any(stood),
        };
        // Said again for a hand already standing (even the dealer's 21 that just
        // ended the round): nothing changes.
        if already && self.round.number > 0 {
            return Ok(());
        }
        self.acting(player, "say content")?;
        let idx = match hand {
            Some(n) => self.named_hand(player, n)?,
            None => self.round.seats[player.index()]
                .open_hand()
                .ok_or_else(|| {
                    RuleErrorKind::Hand(format!("{} has no hand in play", self.name(player)))
                })?,
        };
        self.check_in_play(player, idx)?;
        let sr = &self.round.seats[player.index()];
        if sr.hands[idx].cards.len() < sr.hands[idx].cards.dealt() {
            return Err(RuleErrorKind::Hand(format!(
                "{} has one card: a divided hand gets its second card first",
                self.hand_label(player, idx)
            ))
            .into());
        }
        if player != self.dealer_seat() {
            self.round.drawing_started = true;
        }
        self.round.seats[player.index()].hands[idx].state = HandState::Stood;
        out.push(Event::Content {
            player,
            hand: idx as u8 + 1,
        });
        self.after_hand_finished(player, out);
        Ok(())
    }

    fn divide(
        &mut self,
        player: Seat,
        hand: Option<u8>,
        amount: Option<u32>,
        out: &mut Vec<Event>,
    ) -> Applied {
        let dealer = self.dealer_seat();
        let early = self.rules.divide_when == DivideWhen::BeforeDrawing;
        let game = self.game();
        if game != RoundGame::Ordinary {
            return Err(RuleErrorKind::Divide(format!(
                "{game}: pairs are divided only in ordinary Vingt-un (the eight-round deal's first round)"
            ))
            .into());
        }
        match self.round.phase {
            Phase::Drawing { .. } if early && player != dealer => {
                if self.round.drawing_started {
                    return Err(RuleErrorKind::Divide(format!(
                        "{} divides too late: at this table pairs are divided before any drawing",
                        self.name(player)
                    ))
                    .into());
                }
            }
            Phase::Dealer if player == dealer => {
                if !self.rules.dealer_may_divide {
                    return Err(RuleErrorKind::Divide(
                        "the dealer may not divide at this table (house rule dealer_may_divide)"
                            .into(),
                    )
                    .into());
                }
            }
            _ => self.acting(player, "divide")?,
        }
        let sr = &self.round.seats[player.index()];
        let idx = match hand {
            Some(n) => self.named_hand(player, n)?,
            None => sr
                .hands
                .iter()
                .position(|h| {
                    h.state == HandState::Open && h.cards.len() == 2 && h.cards.may_be_pair()
                })
                .or_else(|| sr.open_hand())
                .ok_or_else(|| {
                    RuleErrorKind::Divide(format!("{} holds no pair to divide", self.name(player)))
                })?,
        };
        let h = &sr.hands[idx];
        if h.state != HandState::Open || h.cards.len() != 2 {
            return Err(RuleErrorKind::Divide(format!(
                "only the first two cards of a hand may be divided (and the cards that complete divided hands): {} has {} card(s)",
                self.hand_label(player, idx),
                h.cards.len()
            )).into());
        }
        if !h.cards.may_be_pair() {
            let cards: Vec<String> = h.cards.known().map(|c| c.to_string()).collect();
            return Err(RuleErrorKind::Divide(format!(
                "{} is {}: not a pair (a pair is two cards of one denomination; a king and a queen are not a pair)",
                self.hand_label(player, idx),
                cards.join(" ")
            )).into());
        }
        if sr.hands.len() >= MAX_HANDS {
            return Err(RuleErrorKind::Divide(format!(
                "{} already plays {MAX_HANDS} hands, the most there can be",
                self.name(player)
            ))
            .into());
        }
        let stake = if player == dealer {
            0
        } else {
            let first = h.stake;
            let stake = amount.unwrap_or(first);
            let (min, max) = (self.rules.min_stake, self.rules.max_stake);
            if self.rules.divide_stake == DivideStake::Same && stake != first {
                return Err(RuleErrorKind::Stake(format!(
                    "at this table the stake on a divided card is the same as the first ({first}), not {stake}"
                )).into());
            }
            if !(min..=max).contains(&stake) {
                return Err(RuleErrorKind::Stake(format!(
                    "{}'s stake of {stake} on the divided card is outside the limits {min} to {max}",
                    self.name(player)
                )).into());
            }
            stake
        };
        let sr = &mut self.round.seats[player.index()];
        let second = sr.hands[idx].cards.pop().flatten();
        let mut new_hand = Hand::new();
        new_hand.cards.push(second);
        new_hand.stake = stake;
        sr.hands.push(new_hand);
        out.push(Event::Divided {
            player,
            hand: idx as u8 + 1,
            new_hand: sr.hands.len() as u8,
            stake,
        });
        Ok(())
    }

    // ----- declarations and showing --------------------------------------------

    fn declare_over(&mut self, player: Seat, hand: Option<u8>, out: &mut Vec<Event>) -> Applied {
        let sr = &self.round.seats[player.index()];
        let idx = match hand {
            Some(n) => self.named_hand(player, n)?,
            None => sr
                .open_hand()
                .or_else(|| sr.hands.iter().rposition(|h| h.state == HandState::Over))
                .unwrap_or(0),
        };
        if sr
            .hands
            .get(idx)
            .is_some_and(|h| h.state == HandState::Over)
        {
            return Ok(()); // already over by the cards: the declaration confirms it
        }
        self.acting(player, "declare over")?;
        self.check_in_play(player, idx)?;
        self.looking(player)?;
        let sr = &self.round.seats[player.index()];
        let cards = &sr.hands[idx].cards;
        let most = cards
            .hard_known()
            .saturating_add(cards.unseen().saturating_mul(10));
        if most <= 21 {
            out.push(Event::Flagged(Flag::DeclarationContradicted {
                player,
                hand: idx as u8 + 1,
                declared: Declaration::Over,
            }));
            return Ok(());
        }
        self.round.seats[player.index()].hands[idx].declared = Some(Declaration::Over);
        if player != self.dealer_seat() {
            self.round.drawing_started = true;
        }
        self.over_drawn(player, idx, out);
        self.after_hand_finished(player, out);
        Ok(())
    }

    fn declare_natural(&mut self, player: Seat, hand: Option<u8>, out: &mut Vec<Event>) -> Applied {
        let dealer = self.dealer_seat();
        let in_round = !matches!(
            self.round.phase,
            Phase::Between | Phase::FirstCards { .. } | Phase::SecondCards { .. }
        );
        let idx = match hand {
            Some(n) if in_round || self.round.phase == Phase::Between => {
                self.named_hand(player, n)?
            }
            _ => 0,
        };
        let sr = &self.round.seats[player.index()];
        if let Some(h) = sr.hands.get(idx)
            && (h.state == HandState::Natural
                || (h.cards.is_ace_and_tenth() && h.state == HandState::Settled))
        {
            return Ok(()); // the cards showed it already
        }
        if self.may_tie_late(player, idx) {
            if !sr.hands[idx].cards.may_be_ace_and_tenth() {
                out.push(Event::Flagged(Flag::DeclarationContradicted {
                    player,
                    hand: idx as u8 + 1,
                    declared: Declaration::Natural,
                }));
                return Ok(());
            }
            if sr.hands[idx].declared != Some(Declaration::Natural) {
                self.natural_ties_late(player, idx, out);
            }
            return Ok(());
        }
        if !in_round {
            return Err(RuleErrorKind::Declaration(format!(
                "{} cannot declare a natural now: naturals are declared once the second cards are dealt",
                self.name(player)
            )).into());
        }
        self.looking(player)?;
        let divided = sr.hands.len() > 1;
        let h = &sr.hands[idx];
        if divided {
            if self.rules.divided_natural != DividedNatural::Natural || player == dealer {
                return Err(RuleErrorKind::Declaration(format!(
                    "an ace and a tenth card on a divided hand is a drawn Vingt-un at this table, not a natural (house rule divided_natural); {} plays on",
                    self.hand_label(player, idx)
                )).into());
            }
            if h.state != HandState::Open || h.cards.len() != 2 {
                return Err(RuleErrorKind::Declaration(format!(
                    "{} is not a two-card hand in play",
                    self.hand_label(player, idx)
                ))
                .into());
            }
        } else if self.round.drawing_started
            || h.state != HandState::Open
            || h.cards.len() != h.cards.dealt()
        {
            return Err(RuleErrorKind::Declaration(format!(
                "too late for {}'s natural: a natural is declared at once, before any drawing",
                self.name(player)
            ))
            .into());
        }
        if !h.cards.may_be_ace_and_tenth() {
            out.push(Event::Flagged(Flag::DeclarationContradicted {
                player,
                hand: idx as u8 + 1,
                declared: Declaration::Natural,
            }));
            return Ok(());
        }
        if player == dealer {
            if self.round.player_natural_paid {
                return Err(RuleErrorKind::Declaration(
                    "the dealer declares his natural at once, before the players': undo the players' naturals, then declare the dealer's first".into(),
                ).into());
            }
            self.round.seats[player.index()].hands[0].declared = Some(Declaration::Natural);
            self.dealer_natural(out);
            return Ok(());
        }
        self.round.seats[player.index()].hands[idx].declared = Some(Declaration::Natural);
        self.player_natural(player, idx, out);
        if divided {
            self.after_hand_finished(player, out);
        } else {
            self.advance_turn(out);
        }
        Ok(())
    }

    fn show(
        &mut self,
        player: Seat,
        hand: Option<u8>,
        cards: &[Card],
        out: &mut Vec<Event>,
    ) -> Applied {
        if matches!(self.round.phase, Phase::Between) && self.round.number == 0 {
            return Err(RuleErrorKind::Declaration("no round has been dealt yet".into()).into());
        }
        let sr = &self.round.seats[player.index()];
        let idx = match hand {
            Some(n) => self.named_hand(player, n)?,
            None => sr.open_hand().unwrap_or(0),
        };
        let h = sr.hands.get(idx).ok_or_else(|| {
            RuleErrorKind::Hand(format!("{} holds no cards this round", self.name(player)))
        })?;
        let late = self.may_tie_late(player, idx);
        if h.in_pile && !late {
            return Err(RuleErrorKind::Declaration(format!(
                "{} was thrown to the pone unseen: its cards are not shown",
                self.hand_label(player, idx)
            ))
            .into());
        }
        let mut unseen = h.cards.unseen();
        let mut new: ArrayVec<Card, MAX_CARDS> = ArrayVec::new();
        for &card in cards {
            if h.cards.contains(card) && !new.contains(&card) {
                continue;
            }
            if unseen == 0 {
                let known: Vec<String> = h.cards.known().map(|c| c.to_string()).collect();
                return Err(RuleErrorKind::Declaration(format!(
                    "{} holds {}: no card left face down for {card}",
                    self.hand_label(player, idx),
                    known.join(" ")
                ))
                .into());
            }
            if new.contains(&card) && self.rules.packs == 1 {
                return Err(self.seen_error(card, false));
            }
            self.check_unseen(card, false)?;
            unseen -= 1;
            new.push(card);
        }
        let h = &mut self.round.seats[player.index()].hands[idx];
        let in_pile = h.in_pile;
        for card in &new {
            h.cards.reveal(*card, false);
            if !in_pile {
                self.pack.on_table[card.index()] += 1;
            }
            self.pack.seen[card.index()] += 1;
        }
        out.push(Event::Shown {
            player,
            hand: idx as u8 + 1,
        });
        if late {
            self.tie_late(player, idx, out);
        }
        self.after_show(player, idx, out);
        Ok(())
    }

    /// Whether `player`'s hand `idx` still holds cards face down in the
    /// round just ended by the dealer's natural (the next not yet begun), so
    /// that it may be turned up: a player's, settled face down, that turned
    /// up or declared a natural now ties his ("a player who also holds a
    /// natural neither pays nor receives", A, B), or the dealer's own. The
    /// round ends at his declaration and pays at once; the cards are turned
    /// up after it.
    fn may_tie_late(&self, player: Seat, idx: usize) -> bool {
        let dealer = self.dealer_seat();
        let h = &self.round.seats[player.index()].hands;
        let settled = if player == dealer {
            HandState::Natural
        } else {
            HandState::Settled
        };
        self.round.phase == Phase::Between
            && self.round.number > 0
            && self.round.game != RoundGame::Blind
            && idx == 0
            && h.len() == 1
            && self.round.seats[dealer.index()].hands[0].state == HandState::Natural
            && h[0].state == settled
            && h[0].cards.unseen() > 0
    }

    /// A hand settled face down against the dealer's natural, turned up
    /// now, is a natural not declared yet: what it paid him is given back.
    /// (Shown not a natural after it was declared one, [`State::after_show`]
    /// flags the declaration.)
    fn tie_late(&mut self, player: Seat, idx: usize, out: &mut Vec<Event>) {
        let h = &self.round.seats[player.index()].hands[idx];
        if h.declared != Some(Declaration::Natural) && h.cards.is_ace_and_tenth() {
            self.natural_ties_late(player, idx, out);
        }
    }

    /// A natural tied the dealer's after he declared his: marked declared, it
    /// gets back what it paid him.
    fn natural_ties_late(&mut self, player: Seat, idx: usize, out: &mut Vec<Event>) {
        let dealer = self.dealer_seat();
        self.round.seats[player.index()].hands[idx].declared = Some(Declaration::Natural);
        let pays = i64::from(self.rules.natural_pays);
        let stake = self.hand_stake(player, idx);
        self.pay_dealer(
            player,
            dealer,
            idx,
            pays * stake,
            Reason::NaturalShownTies,
            out,
        );
    }

    fn after_show(&mut self, player: Seat, idx: usize, out: &mut Vec<Event>) {
        let dealer = self.dealer_seat();
        let h = &self.round.seats[player.index()].hands[idx];
        let known = h.cards.unseen() == 0;
        if known && h.declared == Some(Declaration::Natural) && !h.cards.is_ace_and_tenth() {
            out.push(Event::Flagged(Flag::DeclarationContradicted {
                player,
                hand: idx as u8 + 1,
                declared: Declaration::Natural,
            }));
        }
        let divided = self.round.seats[player.index()].hands.len() > 1;
        let blind = self.round.game == RoundGame::Blind && player != dealer;
        let naturals_open = matches!(self.round.phase, Phase::Drawing { .. })
            && !self.round.drawing_started
            && !blind;
        if h.state == HandState::Open && known {
            if naturals_open && !divided && h.cards.is_ace_and_tenth() {
                if player == dealer {
                    if !self.round.player_natural_paid {
                        self.dealer_natural(out);
                    }
                } else {
                    self.player_natural(player, idx, out);
                    self.advance_turn(out);
                }
                return;
            }
            if h.cards.len() >= h.cards.dealt() && !naturals_open {
                self.after_hand_card(player, idx, out);
                return;
            }
        }
        if self.round.phase == Phase::Showdown {
            self.settle_round(out);
        }
    }

    // ----- the rounds of cards turned up (the eight-round deal) -----------------

    /// Whom the next card goes to in a round of cards turned up: `None` while
    /// stakes or choices are missing, or once the round is decided.
    fn turning_due(&self) -> Option<Seat> {
        let game = self.round.game;
        let punters = self.punters();
        if punters.iter().any(|&s| self.owes_wager(s)) {
            return None;
        }
        let dealer = self.dealer_seat();
        let (seats, each) = match game {
            RoundGame::SympathyAntipathy => (punters, 2),
            RoundGame::RougeEtNoir => (punters, self.rules.rouge_et_noir_cards as usize),
            RoundGame::Differences => (&self.round.order[..], 2),
            // The dealer turns every card up before him.
            _ => return Some(dealer),
        };
        let held = |s: &Seat| self.round.seats[s.index()].hands[0].cards.len();
        let fewest = seats.iter().map(held).min()?;
        (fewest < each)
            .then(|| seats.iter().copied().find(|s| held(s) == fewest))
            .flatten()
    }

    /// Whether `seat` still owes the round of cards turned up his stake or
    /// his election.
    fn owes_wager(&self, seat: Seat) -> bool {
        let game = self.round.game;
        let sr = &self.round.seats[seat.index()];
        (game.staked() && sr.stake.is_none()) || (game.choices().is_some() && sr.choice.is_none())
    }

    fn turning_card(
        &mut self,
        to: Seat,
        hand: Option<u8>,
        card: Option<Card>,
        out: &mut Vec<Event>,
    ) -> Applied {
        let game = self.round.game;
        check_first_hand(hand)?;
        let Some(due) = self.turning_due() else {
            let missing: Vec<&str> = self
                .punters()
                .iter()
                .filter(|&&s| self.owes_wager(s))
                .map(|&s| self.name(s))
                .collect();
            let what = if game.choices().is_some() {
                "stake and elect"
            } else {
                "stake"
            };
            return Err(RuleErrorKind::OutOfTurn(format!(
                "{game}: the cards wait until every player has made his {what}: not yet {}",
                missing.join(", ")
            ))
            .into());
        };
        if to != due {
            return Err(RuleErrorKind::OutOfTurn(format!(
                "{game}: the next card goes to {}, not {}",
                self.name(due),
                self.name(to)
            ))
            .into());
        }
        let card = face_up(game, card)?;
        self.check_deal(Some(card))?;
        self.round.turned += 1;
        let h = &self.round.seats[to.index()].hands[0];
        if h.cards.is_full() {
            // Self and Company can turn up more cards than a hand holds: the
            // first two stay before the dealer, the rest go to the pile.
            self.put_to_pile(card, out);
        } else {
            self.put_card(to, 0, Some(card), out);
        }
        self.after_turned(game, card, out);
        Ok(())
    }

    /// A card turned up and laid straight on the pone's pile.
    fn put_to_pile(&mut self, card: Card, out: &mut Vec<Event>) {
        self.reshuffle_if_last(out);
        self.pack.left -= 1;
        self.pack.dealt_since_shuffle += 1;
        self.pack.seen[card.index()] += 1;
        self.pack.pile += 1;
        out.push(Event::CardToPone { card: Some(card) });
    }

    /// Settles the round of cards turned up once `card` decides it.
    fn after_turned(&mut self, game: RoundGame, card: Card, out: &mut Vec<Event>) {
        let dealer = self.dealer_seat();
        let punters: ArrayVec<Seat, MAX_PLAYERS> = self.punters().iter().copied().collect();
        let cards_of = |state: &State, seat: Seat| -> ArrayVec<Card, MAX_CARDS> {
            state.round.seats[seat.index()].hands[0]
                .cards
                .known()
                .collect()
        };
        let stake_of = |state: &State, seat: Seat| {
            i64::from(state.round.seats[seat.index()].stake.unwrap_or(0))
        };
        // What each player receives (negative: pays), and why.
        let payments: ArrayVec<(Seat, i64, Reason), MAX_PLAYERS> = match game {
            RoundGame::SelfAndCompany | RoundGame::Clock => {
                let Some((dealer_wins, reason)) = self.decided_for_all(game, card) else {
                    return;
                };
                let clock = i64::from(self.rules.clock_stake);
                punters
                    .iter()
                    .map(|&seat| {
                        let each = if game == RoundGame::Clock {
                            clock
                        } else {
                            stake_of(self, seat)
                        };
                        (seat, if dealer_wins { -each } else { each }, reason)
                    })
                    .collect()
            }
            _ => {
                if self.turning_due().is_some() {
                    return;
                }
                let rate = i64::from(self.rules.differences_rate);
                let his = i64::from(differences_points(&cards_of(self, dealer)));
                punters
                    .iter()
                    .filter_map(|&seat| {
                        let cards = cards_of(self, seat);
                        if game == RoundGame::Differences {
                            let own = i64::from(differences_points(&cards));
                            // Ties cancel.
                            (own != his).then_some((seat, rate * (own - his), Reason::Difference))
                        } else {
                            let stake = stake_of(self, seat);
                            let choice = self.round.seats[seat.index()].choice;
                            Some(if choice.is_some_and(|c| c.won_by(&cards)) {
                                (seat, stake, Reason::ChoseRightly)
                            } else {
                                (seat, -stake, Reason::ChoseWrongly)
                            })
                        }
                    })
                    .collect()
            }
        };
        for (seat, amount, reason) in payments {
            self.pay_dealer(seat, dealer, 0, amount, reason, out);
        }
        self.end_round(out);
    }

    /// Self and Company and the Clock, decided for every player at once by
    /// `card`, the latest turned up: whether the dealer wins, and why.
    fn decided_for_all(&self, game: RoundGame, card: Card) -> Option<(bool, Reason)> {
        let turned = self.round.turned;
        let dealer = self.dealer_seat();
        if game == RoundGame::Clock {
            return if clock_call(usize::from(turned)) == Some(card.rank) {
                Some((true, Reason::ClockStruck))
            } else {
                (turned >= 13).then_some((false, Reason::ClockSilent))
            };
        }
        let slots = self.round.seats[dealer.index()].hands[0].cards.slots();
        match slots {
            [Some(own), Some(company)] if turned == 2 && own.rank == company.rank => {
                Some((true, Reason::SelfAndCompanyAlike))
            }
            [Some(own), _, ..] if turned > 2 && card.rank == own.rank => {
                Some((true, Reason::SelfPaired))
            }
            [_, Some(company), ..] if turned > 2 && card.rank == company.rank => {
                Some((false, Reason::CompanyPaired))
            }
            _ => None,
        }
    }

    // ----- the end of the round ------------------------------------------------

    /// The dealer's hands' outcomes: `None` while one is unknown.
    fn dealer_totals(&self) -> Option<ArrayVec<u8, MAX_HANDS>> {
        let dealer = self.dealer_seat();
        let mut totals = ArrayVec::new();
        for h in &self.round.seats[dealer.index()].hands {
            totals.push(match h.state {
                HandState::Over => 22,
                _ => h.cards.points().exact()?,
            });
        }
        Some(totals)
    }

    fn settle_round(&mut self, out: &mut Vec<Event>) {
        let Some(mut dealer_totals) = self.dealer_totals() else {
            self.round.phase = Phase::Showdown;
            return;
        };
        let unknown = self.punters().iter().any(|s| {
            self.round.seats[s.index()]
                .hands
                .iter()
                .any(|h| h.state == HandState::Stood && h.cards.unseen() > 0)
        });
        if unknown {
            self.round.phase = Phase::Showdown;
            return;
        }
        if self.rules.dealer_divided == DealerDivided::Best && dealer_totals.len() > 1 {
            let best = dealer_totals
                .iter()
                .copied()
                .filter(|&t| t <= 21)
                .max()
                .unwrap_or(22);
            dealer_totals = std::iter::once(best).collect();
        }
        let dealer = self.dealer_seat();
        let tie_pays = i64::from(self.rules.drawn_21_tie_pays);
        let factor = self.factor();
        let blind = self.round.game == RoundGame::Blind;
        let dealer_natural = self.round.seats[dealer.index()].hands[0].state == HandState::Natural;
        let pays = i64::from(self.rules.natural_pays);
        for position in 0..self.punters().len() {
            let seat = self.round.order[position];
            for idx in 0..self.round.seats[seat.index()].hands.len() {
                let h = &mut self.round.seats[seat.index()].hands[idx];
                if h.state != HandState::Stood {
                    continue;
                }
                h.state = HandState::Settled;
                let total = h.cards.points().exact().unwrap_or(0);
                let stake = i64::from(h.stake) * factor;
                if blind {
                    // Blind hands are first seen now: what ordinary play
                    // settles as the cards come is settled here.
                    let natural = h.cards.is_ace_and_tenth();
                    let settled = if dealer_natural && natural {
                        Some((0, Reason::NaturalTiesNatural))
                    } else if dealer_natural {
                        Some((-pays * stake, Reason::DealerNatural))
                    } else if total > 21 {
                        Some((-stake, Reason::OverDrawn))
                    } else if natural {
                        Some((pays * stake, Reason::Natural))
                    } else {
                        None
                    };
                    if let Some((amount, reason)) = settled {
                        self.pay_dealer(seat, dealer, idx, amount, reason, out);
                        continue;
                    }
                }
                for &d in &dealer_totals {
                    let (amount, reason) = if d > 21 {
                        if total == 21 {
                            (2 * stake, Reason::DrawnVingtUn)
                        } else {
                            (stake, Reason::DealerOverDrawn)
                        }
                    } else if d == 21 {
                        if total == 21 {
                            (-tie_pays * stake, Reason::TiedDrawnVingtUn)
                        } else {
                            (-2 * stake, Reason::DealerDrawnVingtUn)
                        }
                    } else if total > d {
                        if total == 21 {
                            (2 * stake, Reason::DrawnVingtUn)
                        } else {
                            (stake, Reason::Higher)
                        }
                    } else {
                        (-stake, Reason::NotHigher)
                    };
                    self.pay_dealer(seat, dealer, idx, amount, reason, out);
                }
            }
        }
        self.end_round(out);
    }

    fn end_round(&mut self, out: &mut Vec<Event>) {
        let dealer = self.dealer_seat();
        // Every known card on the table lies in a hand of this round, so once
        // they all go to the pile none is left on the table: one clear instead
        // of a count per card.
        debug_assert_eq!(self.pack.on_table, self.cards_in_hands());
        for &seat in &self.round.order {
            for h in &mut self.round.seats[seat.index()].hands {
                if !h.in_pile {
                    h.in_pile = true;
                    self.pack.pile += h.cards.len() as u16;
                }
            }
        }
        self.pack.on_table = [0; 52];
        // The eldest holder: the first in dealing order.
        let eldest = self
            .round
            .order
            .iter()
            .copied()
            .find(|s| self.round.holders.contains(s));
        if let (Some(holder), true) = (eldest, self.pool > 0) {
            let pool = self.pool;
            self.settle(
                Settlement {
                    player: holder,
                    hand: 1,
                    amount: pool,
                    from: Party::Pool,
                    to: Party::Seat(holder),
                    reason: Reason::PoolWon,
                },
                out,
            );
        }
        let put_out = eldest.filter(|_| self.rules.deal_passes != DealPasses::Never);
        let rounds_done = if self.rules.eight_round_deal {
            self.deal.rounds >= 8
        } else {
            self.rules
                .rounds_per_deal
                .is_some_and(|n| self.deal.rounds >= n)
        };
        let change = match (put_out, self.rules.deal_passes) {
            (Some(holder), DealPasses::Holder) => Some((holder, DealChange::PutOut)),
            (Some(_), _) => Some((self.left_of(dealer), DealChange::PutOut)),
            (None, _) if rounds_done => Some((self.left_of(dealer), DealChange::RoundsDone)),
            (None, _) => None,
        };
        let next_dealer = change.map_or(dealer, |(next, _)| next);
        out.push(Event::RoundEnded {
            round: self.round.number,
            next_dealer,
        });
        self.round.phase = Phase::Between;
        if let Some((next, why)) = change {
            self.new_deal(next, why, out);
        }
    }

    /// In Blind Vingt-un the players do not look at their cards, so they
    /// declare nothing: their hands are turned up at the end.
    fn looking(&self, player: Seat) -> Applied {
        if self.round.game == RoundGame::Blind && player != self.dealer_seat() {
            return Err(RuleErrorKind::Declaration(format!(
                "Blind Vingt-un: {} does not look at his cards, so he declares nothing; \
                 he says content, and every hand is turned up at the end",
                self.name(player)
            ))
            .into());
        }
        Ok(())
    }

    // ----- irregularities ------------------------------------------------------

    /// The irregularities of the deal are kept in the rounds dealt two cards
    /// face down; elsewhere the table undoes the card and deals again.
    fn irregularity_kept(&self, what: &str) -> Applied {
        match self.round.game {
            RoundGame::Ordinary | RoundGame::Blind => Ok(()),
            game => Err(RuleErrorKind::OutOfTurn(format!(
                "{game}: {what} is not kept as an irregularity in this round; undo the card and deal it again"
            ))
            .into()),
        }
    }

    fn dealing_next(&self) -> Option<(bool, u8)> {
        match self.round.phase {
            Phase::FirstCards { next } => Some((false, next)),
            Phase::SecondCards { next } => Some((true, next)),
            _ => None,
        }
    }

    fn surplus(&mut self, player: Seat, card: Option<Card>, out: &mut Vec<Event>) -> Applied {
        self.irregularity_kept("two cards dealt at once")?;
        let Some((_, next)) = self.dealing_next() else {
            return Err(RuleErrorKind::OutOfTurn(
                "two cards dealt at once are an irregularity of the first or second round of cards"
                    .into(),
            )
            .into());
        };
        let last = next
            .checked_sub(1)
            .map(|i| self.round.order[usize::from(i)]);
        if last != Some(player) {
            return Err(RuleErrorKind::OutOfTurn(format!(
                "a surplus card goes with the card just dealt: that was {}'s, not {}'s",
                last.map_or("nobody", |s| self.name(s)),
                self.name(player)
            ))
            .into());
        }
        if self.round.surplus.is_some() {
            return Err(RuleErrorKind::OutOfTurn(
                "one surplus card is already waiting to be put right or rejected".into(),
            )
            .into());
        }
        self.check_deal(card)?;
        self.put_card(player, 0, card, out);
        self.round.surplus = Some((player, true));
        out.push(Event::Flagged(Flag::SurplusCard { player }));
        Ok(())
    }

    fn rectify(&mut self, player: Seat, out: &mut Vec<Event>) -> Applied {
        let Some((second, next)) = self.dealing_next() else {
            return Err(
                RuleErrorKind::OutOfTurn("there is no surplus card to put right".into()).into(),
            );
        };
        match self.round.surplus {
            Some((holder, true)) if holder == player => {}
            Some((holder, false)) if holder == player => {
                return Err(RuleErrorKind::OutOfTurn(format!(
                    "another card was dealt since: {} must look at his cards and reject one (reject)",
                    self.name(player)
                )).into());
            }
            _ => {
                return Err(RuleErrorKind::OutOfTurn(format!(
                    "{} holds no surplus card",
                    self.name(player)
                ))
                .into());
            }
        }
        if self.round.seats[player.index()].hands[0].in_pile {
            return Err(RuleErrorKind::OutOfTurn(format!(
                "{}'s hand went to the pone's pile with the surplus card in it: there is nothing to put right",
                self.name(player)
            ))
            .into());
        }
        let len = self.round.order.len() as u8;
        if next >= len {
            return Err(RuleErrorKind::OutOfTurn(format!(
                "no player is owed {}'s surplus card in this round of cards: reject it (reject)",
                self.name(player)
            ))
            .into());
        }
        let to = self.round.order[usize::from(next)];
        let card = self.round.seats[player.index()].hands[0]
            .cards
            .pop()
            .flatten();
        self.round.seats[to.index()].hands[0].cards.push(card);
        self.round.surplus = None;
        out.push(Event::CardDealt { to, hand: 1, card });
        let next = next + 1;
        self.round.phase = if second {
            Phase::SecondCards { next }
        } else {
            Phase::FirstCards { next }
        };
        if second && next == len {
            self.after_second_cards(out);
        }
        Ok(())
    }

    fn exposed(&mut self, player: Seat, card: Card, out: &mut Vec<Event>) -> Applied {
        self.irregularity_kept("a card exposed in dealing")?;
        if self.dealing_next().is_none() {
            return Err(RuleErrorKind::OutOfTurn(
                "a card exposed in dealing is recorded while the first two cards are dealt; later, turn cards up with show".into(),
            ).into());
        }
        let h = &self.round.seats[player.index()].hands[0];
        if !h.cards.contains(card) {
            if h.cards.unseen() == 0 {
                return Err(RuleErrorKind::Declaration(format!(
                    "{} holds no face-down card that could be {card}",
                    self.name(player)
                ))
                .into());
            }
            self.check_unseen(card, false)?;
            let h = &mut self.round.seats[player.index()].hands[0];
            h.cards.reveal(card, true);
            self.pack.on_table[card.index()] += 1;
            self.pack.seen[card.index()] += 1;
        }
        self.round.exposed = Some((player, card));
        out.push(Event::Flagged(Flag::CardExposed { player, card }));
        Ok(())
    }

    fn reject(&mut self, player: Seat, card: Option<Card>, out: &mut Vec<Event>) -> Applied {
        let dealing = self.dealing_next();
        if let Some((holder, _)) = self.round.surplus.filter(|(s, _)| *s == player) {
            let h = &self.round.seats[holder.index()].hands[0];
            let position = match card {
                Some(c) => h
                    .cards
                    .slots()
                    .iter()
                    .position(|s| *s == Some(c))
                    .ok_or_else(|| {
                        RuleErrorKind::Declaration(format!(
                            "{} does not hold {c}",
                            self.name(player)
                        ))
                    })?,
                None => h
                    .cards
                    .slots()
                    .iter()
                    .rposition(Option::is_none)
                    .ok_or_else(|| {
                        RuleErrorKind::Declaration(format!(
                            "{}'s cards are all known: name the card he rejects",
                            self.name(player)
                        ))
                    })?,
            };
            self.reject_card(holder, position, out);
            self.round.surplus = None;
            if let Some((true, next)) = dealing
                && usize::from(next) == self.round.order.len()
                && self.round.replacement_due.is_none()
            {
                self.after_second_cards(out);
            }
            return Ok(());
        }
        if let Some((holder, exposed)) = self.round.exposed.filter(|(s, _)| *s == player) {
            if holder == self.dealer_seat() {
                return Err(RuleErrorKind::Declaration(
                    "the dealer must keep a card of his own that he exposed".into(),
                )
                .into());
            }
            if card.is_some_and(|c| c != exposed) {
                return Err(RuleErrorKind::Declaration(format!(
                    "{} may reject only the exposed card, {exposed}",
                    self.name(player)
                ))
                .into());
            }
            let position = self.round.seats[holder.index()].hands[0]
                .cards
                .slots()
                .iter()
                .position(|s| *s == Some(exposed))
                .unwrap_or(0);
            self.reject_card(holder, position, out);
            self.round.exposed = None;
            self.round.replacement_due = Some(holder);
            return Ok(());
        }
        Err(RuleErrorKind::Declaration(format!(
            "{} has no surplus or exposed card to reject",
            self.name(player)
        ))
        .into())
    }

    fn reject_card(&mut self, seat: Seat, position: usize, out: &mut Vec<Event>) {
        let hand = &mut self.round.seats[seat.index()].hands[0];
        // A hand already gone to the pile (its holder declared himself over
        // with the surplus card still in it) took that card there with it.
        let counted = !hand.in_pile;
        let card = hand.cards.remove(position);
        if counted {
            if let Some(c) = card {
                self.pack.on_table[c.index()] -= 1;
            }
            self.pack.pile += 1;
        }
        out.push(Event::CardToPone { card });
    }
}

/// A card of a round of cards turned up: it must be named.
fn face_up(game: RoundGame, card: Option<Card>) -> Result<Card, RuleError> {
    card.ok_or_else(|| {
        RuleErrorKind::OutOfTurn(format!(
            "{game}: the cards are turned up and decide the round: name the card"
        ))
        .into()
    })
}

fn check_first_hand(hand: Option<u8>) -> Applied {
    match hand {
        None | Some(1) => Ok(()),
        Some(n) => Err(RuleErrorKind::Hand(format!(
            "no hand {n} yet: hands are divided only after the second cards"
        ))
        .into()),
    }
}

/// The player a command names, to check he is still at the table.
fn command_seat(command: &Command) -> Option<Seat> {
    match *command {
        Command::Dealer { player }
        | Command::Stake { player, .. }
        | Command::Choose { player, .. }
        | Command::Divide { player, .. }
        | Command::Content { player, .. }
        | Command::Show { player, .. }
        | Command::Over { player, .. }
        | Command::Natural { player, .. }
        | Command::Surplus { player, .. }
        | Command::Rectify { player }
        | Command::Exposed { player, .. }
        | Command::Reject { player, .. }
        | Command::Retire { player } => Some(player),
        Command::Card { to, .. } | Command::Sell { to, .. } => Some(to),
        Command::DrawForDeal { from, .. } => from,
        Command::Double | Command::Reshuffle | Command::Brulet { .. } | Command::Decline => None,
    }
}

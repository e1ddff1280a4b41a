//! A table that plays itself: the next legal command, chosen at random the way
//! ordinary players play, from a random source the caller seeds.
//!
//! It serves the property tests, the benchmark, and the rendered demo sitting
//! (the renderer draws the table after each card the autoplayer deals). Cards
//! come uniformly from what the pack can still hold, so a sitting played by
//! [`Autoplayer`] is a fair shuffle, reshuffles included.

use rand::Rng;

use crate::card::{Card, Rank};
use crate::command::Command;
use crate::eight::RoundGame;
use crate::event::Seat;
use crate::sitting::{Phase, State};

/// How the autoplayer's players and dealer decide. The defaults follow the
/// seeds' advice: players stand at about 16, the dealer at 17, doubles on a
/// good first card, divides aces, eights and nines.
#[derive(Clone, Debug)]
pub struct Style {
    /// A player draws below this (one more or less at random).
    pub player_stands_at: u8,
    /// The dealer draws below this.
    pub dealer_stands_at: u8,
    /// The chance of doubling on an ace, tenth card, nine or eight.
    pub double_chance: f64,
    /// The chance of dividing a pair of aces, eights or nines.
    pub divide_chance: f64,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            player_stands_at: 16,
            dealer_stands_at: 17,
            double_chance: 0.6,
            divide_chance: 0.7,
        }
    }
}

/// Plays a sitting at random.
#[derive(Clone, Debug, Default)]
pub struct Autoplayer {
    /// How it decides.
    pub style: Style,
}

impl Autoplayer {
    /// The next command for the table, or `None` when the table waits for
    /// something the autoplayer does not do (naming the first dealer, showing
    /// unseen cards).
    pub fn next(&self, state: &State, rng: &mut impl Rng) -> Option<Command> {
        let rules = state.rules();
        let game = state.game();
        if let Some(player) = state.stake_due() {
            // On a first card the limit often; before the cards (the
            // eight-round deal's games that stake first) any stake.
            let amount = if !game.stakes_first() && rng.random_bool(0.3) {
                rules.max_stake
            } else {
                rng.random_range(rules.min_stake..=rules.max_stake)
            };
            return Some(Command::Stake { player, amount });
        }
        if let Some((player, choices)) = state.election_due() {
            return Some(Command::Choose {
                player,
                choice: choices[usize::from(rng.random_bool(0.5))],
            });
        }
        match state.phase() {
            Phase::FirstCards { next } if usize::from(next) == state.order().len() => {
                let dealer = *state.order().last()?;
                let first = first_card(state, dealer)?;
                if !state.doubled()
                    && game == RoundGame::Ordinary
                    && matches!(first.rank.points(), 8..=10 | 1)
                    && rng.random_bool(self.style.double_chance)
                {
                    return Some(Command::Double);
                }
                Self::deal(state, rng)
            }
            Phase::Between
            | Phase::FirstCards { .. }
            | Phase::SecondCards { .. }
            | Phase::Turning => Self::deal(state, rng),
            Phase::Drawing { .. } | Phase::Dealer => self.play(state, rng),
            Phase::Showdown => None,
        }
    }

    fn deal(state: &State, rng: &mut impl Rng) -> Option<Command> {
        let (to, _) = state.due_card()?;
        let card = random_card(state, rng)?;
        Some(Command::Card {
            to,
            hand: None,
            card: Some(card),
        })
    }

    fn play(&self, state: &State, rng: &mut impl Rng) -> Option<Command> {
        let (seat, hand) = state.turn()?;
        let is_dealer = state.phase() == Phase::Dealer;
        let sr = state.seat_round(seat)?;
        let cards = &sr.hands[usize::from(hand) - 1].cards;
        if cards.len() < cards.dealt() {
            return Self::card_to(state, seat, hand, rng);
        }
        if cards.len() == 2
            && state.game() == RoundGame::Ordinary
            && sr.hands.len() < crate::sitting::MAX_HANDS
        {
            let pair = cards.known().map(|c| c.rank).collect::<Vec<_>>();
            let worth = matches!(pair.as_slice(), [a, b] if a == b && matches!(a, Rank::Ace | Rank::Eight | Rank::Nine));
            let may = !is_dealer || state.rules().dealer_may_divide;
            let in_turn = is_dealer || state.rules().divide_when == crate::rules::DivideWhen::Turn;
            if worth && may && in_turn && rng.random_bool(self.style.divide_chance) {
                let amount = (!is_dealer).then(|| sr.hands[usize::from(hand) - 1].stake);
                return Some(Command::Divide {
                    player: seat,
                    hand: Some(hand),
                    amount,
                });
            }
        }
        let points = cards.points().exact()?;
        let stands_at = if is_dealer {
            self.style.dealer_stands_at
        } else {
            self.style.player_stands_at + rng.random_range(0..=2) - 1
        };
        if points < stands_at {
            Self::card_to(state, seat, hand, rng)
        } else {
            Some(Command::Content {
                player: seat,
                hand: Some(hand),
            })
        }
    }

    fn card_to(state: &State, seat: Seat, hand: u8, rng: &mut impl Rng) -> Option<Command> {
        Some(Command::Card {
            to: seat,
            hand: Some(hand),
            card: Some(random_card(state, rng)?),
        })
    }
}

/// Plays `rounds` rounds on `sitting` (its dealer named), returning the
/// commands played, in order: a sitting's script for benchmarks and tests.
///
/// # Panics
/// When the autoplayer makes an illegal move or waits (a bug in it).
pub fn play_rounds(sitting: &mut crate::Sitting, rounds: u32, rng: &mut impl Rng) -> Vec<Command> {
    let auto = Autoplayer::default();
    let mut commands = Vec::new();
    let mut played = 0;
    while played < rounds {
        let command = auto
            .next(sitting.state(), rng)
            .expect("autoplay never waits on a table with every card known");
        let events = sitting.apply(&command).expect("autoplay plays legal moves");
        played += events
            .iter()
            .filter(|e| matches!(e, crate::Event::RoundEnded { .. }))
            .count() as u32;
        commands.push(command);
    }
    commands
}

/// A sitting of six players (Ann to Fay) with the default rules, Ann dealing.
///
/// # Panics
/// Never: the table is valid.
pub fn six_player_sitting() -> crate::Sitting {
    let names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
        .map(String::from)
        .to_vec();
    let mut sitting =
        crate::Sitting::new(names, crate::HouseRules::default()).expect("a valid table");
    sitting
        .apply(&Command::Dealer { player: Seat(0) })
        .expect("the first dealer");
    sitting
}

fn first_card(state: &State, seat: Seat) -> Option<Card> {
    state.seat_round(seat)?.hands.first()?.cards.known().next()
}

/// A card drawn uniformly from what the pack can hold now.
pub fn random_card(state: &State, rng: &mut impl Rng) -> Option<Card> {
    let copies = u32::from(state.rules().packs);
    let available: Vec<Card> = Card::pack().filter(|&c| state.card_available(c)).collect();
    if available.is_empty() {
        return None;
    }
    // With two packs a card may have one copy left or two; weigh by copies left.
    if copies == 1 {
        return Some(available[rng.random_range(0..available.len())]);
    }
    let weights: Vec<u32> = available.iter().map(|&c| state.copies_left(c)).collect();
    let total: u32 = weights.iter().sum();
    let mut pick = rng.random_range(0..total);
    for (card, weight) in available.iter().zip(weights) {
        if pick < weight {
            return Some(*card);
        }
        pick -= weight;
    }
    available.last().copied()
}

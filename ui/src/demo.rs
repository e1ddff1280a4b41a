//! A sitting that plays itself with the default house rules: `pone demo`
//! prints one, and the side screen shows one when no camera is there.

use anyhow::Context as _;
use pone_engine::autoplay::Autoplayer;
use pone_engine::{Command, Event, Game, HouseRules, Seat};
use rand::SeedableRng as _;
use rand::rngs::StdRng;

/// The players' names, in seating order.
pub const NAMES: [&str; 16] = [
    "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gil", "Hal", "Ivy", "Jon", "Kit", "Lou", "Max",
    "Ned", "Olive", "Pip",
];

/// A table whose players and dealer play at random from a seed.
pub struct DemoTable {
    game: Game,
    auto: Autoplayer,
    rng: StdRng,
    rounds: u32,
}

impl DemoTable {
    /// `players` at the table (2 to 16), the first of them dealing.
    pub fn new(players: usize, seed: u64) -> anyhow::Result<DemoTable> {
        anyhow::ensure!(
            (2..=NAMES.len()).contains(&players),
            "--players must be from 2 to {}, not {players}",
            NAMES.len(),
        );
        let names = NAMES[..players].iter().map(|n| (*n).to_owned()).collect();
        let mut game = Game::new(names, HouseRules::default())?;
        game.command(None, &Command::Dealer { player: Seat(0) })?;
        Ok(DemoTable {
            game,
            auto: Autoplayer::default(),
            rng: StdRng::seed_from_u64(seed),
            rounds: 0,
        })
    }

    /// The next thing the table does; the events it caused.
    pub fn step(&mut self) -> anyhow::Result<Vec<Event>> {
        let command = self
            .auto
            .next(self.game.sitting().state(), &mut self.rng)
            .context("the demo table stopped: it waits for something only a person can do")?;
        let events = self.game.command(None, &command)?.to_vec();
        self.rounds += events
            .iter()
            .filter(|e| matches!(e, Event::RoundEnded { .. }))
            .count() as u32;
        Ok(events)
    }

    /// Plays until `rounds` rounds have ended.
    pub fn play_rounds(&mut self, rounds: u32) -> anyhow::Result<()> {
        while self.rounds < rounds {
            self.step()?;
        }
        Ok(())
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Rounds ended so far.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }
}

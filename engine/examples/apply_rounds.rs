//! Applies the commands of 2,000 autoplayed 6-player rounds N times (the first
//! argument, default 20), for instruction counts: run it under
//! `valgrind --tool=callgrind` with N = 0 and N = 20 and divide the difference by
//! 40,000 for the engine's instructions per round, a figure that machine noise
//! does not move (criterion's rounds/s is the figure to report).

use pone_engine::autoplay::Autoplayer;
use pone_engine::{Command, Event, HouseRules, Seat, Sitting};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn table() -> Sitting {
    let names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
        .map(String::from)
        .to_vec();
    let mut sitting = Sitting::new(names, HouseRules::default()).expect("table");
    sitting
        .apply(&Command::Dealer { player: Seat(0) })
        .expect("dealer");
    sitting
}

fn main() {
    let mut sitting = table();
    let mut rng = StdRng::seed_from_u64(2026);
    let auto = Autoplayer::default();
    let mut commands = Vec::new();
    let mut rounds = 0;
    while rounds < 2000 {
        let command = auto
            .next(sitting.state(), &mut rng)
            .expect("autoplay never waits");
        let events = sitting.apply(&command).expect("legal");
        rounds += events
            .iter()
            .filter(|e| matches!(e, Event::RoundEnded { .. }))
            .count();
        commands.push(command);
    }
    let passes: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let mut settled = 0usize;
    for _ in 0..passes {
        let mut sitting = table();
        for command in &commands {
            if let Ok(events) = std::hint::black_box(sitting.apply(command)) {
                settled += events.len();
            }
        }
    }
    eprintln!(
        "{} commands ({} for each of 2000 rounds, rounded down), {settled} events",
        commands.len(),
        commands.len() / 2000
    );
}

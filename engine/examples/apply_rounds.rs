//! Applies the commands of 2,000 autoplayed 6-player rounds N times (the first
//! argument, default 20), for instruction counts: run it under
//! `valgrind --tool=callgrind` with N = 0 and N = 20 and divide the difference by
//! 40,000 for the engine's instructions per round, a figure that machine noise
//! does not move (criterion's rounds/s is the figure to report).

use pone_engine::autoplay::{play_rounds, six_player_sitting};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn main() {
    let commands = play_rounds(
        &mut six_player_sitting(),
        2000,
        &mut StdRng::seed_from_u64(2026),
    );
    let passes: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let mut settled = 0usize;
    for _ in 0..passes {
        let mut sitting = six_player_sitting();
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

//! Full 6-player rounds per second, single core: `cargo bench -p pone-engine`.
//!
//! The commands of a long autoplayed sitting are made first; the benchmark times
//! only `Sitting::apply` over them (the journal aside), and reports rounds/s.

#![allow(missing_docs)] // criterion's macros make undocumented items

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pone_engine::autoplay::Autoplayer;
use pone_engine::{Command, Event, HouseRules, Seat, Sitting};
use rand::SeedableRng;
use rand::rngs::StdRng;

const ROUNDS: u64 = 2_000;

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

/// The commands of `ROUNDS` autoplayed rounds.
fn sitting_commands() -> Vec<Command> {
    let mut sitting = table();
    let mut rng = StdRng::seed_from_u64(2026);
    let auto = Autoplayer::default();
    let mut commands = Vec::new();
    let mut rounds = 0;
    while rounds < ROUNDS {
        let command = auto
            .next(sitting.state(), &mut rng)
            .expect("autoplay never waits");
        let events = sitting.apply(&command).expect("autoplay is legal");
        rounds += events
            .iter()
            .filter(|e| matches!(e, Event::RoundEnded { .. }))
            .count() as u64;
        commands.push(command);
    }
    commands
}

fn rounds(c: &mut Criterion) {
    let commands = sitting_commands();
    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(ROUNDS));
    group.bench_function("six_player_rounds", |b| {
        b.iter_batched(
            table,
            |mut sitting| {
                for command in &commands {
                    let _ = std::hint::black_box(sitting.apply(command));
                }
                sitting
            },
            criterion::BatchSize::SmallInput,
        );
    });
    group.finish();
}

criterion_group!(benches, rounds);
criterion_main!(benches);

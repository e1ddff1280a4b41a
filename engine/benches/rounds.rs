//! Full 6-player rounds per second, single core: `cargo bench -p pone-engine`.
//!
//! The commands of a long autoplayed sitting are made first; the benchmark times
//! only `Sitting::apply` over them (the journal aside), and reports rounds/s.

#![allow(missing_docs)] // criterion's macros make undocumented items

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pone_engine::autoplay::{play_rounds, six_player_sitting};
use rand::SeedableRng;
use rand::rngs::StdRng;

const ROUNDS: u32 = 2_000;

fn rounds(c: &mut Criterion) {
    let commands = play_rounds(
        &mut six_player_sitting(),
        ROUNDS,
        &mut StdRng::seed_from_u64(2026),
    );
    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(u64::from(ROUNDS)));
    group.bench_function("six_player_rounds", |b| {
        b.iter_batched(
            six_player_sitting,
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

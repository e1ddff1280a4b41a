//! `cargo bench -p pone-vision`: one 1280x720 frame of a table with 12 cards,
//! some overlapping, found and read (the finder and the reader through ONNX
//! Runtime): as a picture on its own; as one of a camera's frames in which a
//! card came or went (the finder looks again at that part of the table); and
//! as one of a camera's frames in which nothing changed but the camera's
//! noise. Needs the models in `models/` and the runtime (`./scripts/setup`).

#![allow(missing_docs)] // criterion's macros make undocumented items

use criterion::{Criterion, criterion_group, criterion_main};
use pone_vision::art::{Design, Split, embedded};
use pone_vision::recognise::{Recogniser, models_dir};
use pone_vision::render::{render, scene_seed};
use pone_vision::scene::random_scene;
use rand::SeedableRng;

/// A rendered table frame with `cards` cards showing, the first such scene
/// of a fixed seed; the same table with its top card taken up; and the
/// first again with the camera's noise anew.
fn table_frames(cards: usize) -> [image::RgbImage; 3] {
    let designs: Vec<Design> = embedded()
        .expect("the built-in card art")
        .into_iter()
        .filter(|d| d.split == Split::HeldOut)
        .collect();
    let backs: Vec<usize> = designs.iter().map(Design::backs).collect();
    for n in 0.. {
        let seed = scene_seed(2026, n);
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let scene = random_scene(&mut rng, designs.len(), &backs, 1280, 720, seed);
        let frame = render(&scene, &designs);
        let showing = frame
            .labels
            .cards
            .iter()
            .filter(|c| c.visible > 0.3)
            .count();
        let overlapping = frame.labels.cards.iter().any(|c| c.visible < 0.9);
        if showing == cards && overlapping {
            let mut taken = scene.clone();
            taken.cards.pop();
            let mut noise = scene.clone();
            noise.seed += 1;
            return [
                frame.image,
                render(&taken, &designs).image,
                render(&noise, &designs).image,
            ];
        }
    }
    unreachable!("the scenes never end")
}

fn bench(c: &mut Criterion) {
    let mut recogniser = match Recogniser::open(&models_dir()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("skipping the recogniser benchmark: {e}");
            return;
        }
    };
    let [frame, taken, noise] = table_frames(12);
    let seen = recogniser.recognise(&frame).expect("recognise");
    eprintln!("the benchmark frame: {} cards found", seen.len());
    // A picture on its own: seen at 640 first, then again larger when its
    // cards are small (as `pone recognise` reads photos).
    c.bench_function("recognise a 1280x720 frame with 12 cards", |b| {
        b.iter(|| {
            recogniser
                .recognise(std::hint::black_box(&frame))
                .expect("recognise")
        });
    });
    // A camera's frames, as the live table reads them: each starts at the
    // size the last was seen at, and the finder looks again only where the
    // frame changed. Here the top card comes and goes from frame to frame.
    camera_frames(
        c,
        &mut recogniser,
        [&frame, &taken],
        "recognise a camera's 1280x720 frame, 12 cards, one come or gone",
    );
    // Nothing but the camera's noise changes from frame to frame.
    camera_frames(
        c,
        &mut recogniser,
        [&frame, &noise],
        "recognise a camera's 1280x720 frame, 12 cards, nothing changed",
    );
}

/// Benchmarks `recogniser` reading a camera's frames, `frames` in turn, from
/// a fresh start; the settling of the first frames has run out first (as it
/// has at a table between deals).
fn camera_frames(
    c: &mut Criterion,
    recogniser: &mut Recogniser,
    frames: [&image::RgbImage; 2],
    name: &str,
) {
    recogniser.camera_frames(true);
    let mut frames = frames.into_iter().cycle();
    for _ in 0..100 {
        recogniser
            .recognise(frames.next().expect("endless"))
            .expect("recognise");
    }
    c.bench_function(name, |b| {
        b.iter(|| {
            let next = frames.next().expect("endless");
            recogniser
                .recognise(std::hint::black_box(next))
                .expect("recognise")
        });
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);

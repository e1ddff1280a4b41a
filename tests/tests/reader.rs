//! The committed corner reader, through the real ONNX Runtime, on rendered
//! scenes of the held-out design (never trained on): a broken model cannot land.

use pone_vision::art::{Split, embedded};
use pone_vision::model::Classifier;
use pone_vision::reader::{index_corners, straighten};
use pone_vision::render::{render, scene_seed};
use pone_vision::scene::random_scene;
use rand::SeedableRng;

#[test]
fn the_reader_reads_held_out_cards_it_can_see() {
    let designs: Vec<_> = embedded()
        .expect("art")
        .into_iter()
        .filter(|d| d.split == Split::HeldOut)
        .collect();
    let backs: Vec<usize> = designs
        .iter()
        .map(pone_vision::art::Design::backs)
        .collect();
    let mut model = Classifier::open(&pone_tests::reader_model())
        .expect("the model and ONNX Runtime (run ./scripts/setup)");
    let (mut right, mut total) = (0u32, 0u32);
    for n in 0..16 {
        let seed = scene_seed(77, n);
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let scene = random_scene(&mut rng, designs.len(), &backs, 1280, 720, seed);
        let frame = render(&scene, &designs);
        for card in &frame.labels.cards {
            let c = card.corners;
            let height = (c[0][0] - c[3][0]).hypot(c[0][1] - c[3][1]);
            // Readable: the card drawn at least 90 px tall and its index showing.
            let shown: Vec<usize> = if card.card == "back" {
                if card.visible > 0.95 { vec![0] } else { vec![] }
            } else {
                (0..card.index.len())
                    .filter(|&i| card.index[i].visible >= 0.98)
                    .collect()
            };
            if height < 90.0 || shown.is_empty() {
                continue;
            }
            let Some(straight) = straighten(&frame.image, c) else {
                continue;
            };
            let crops = index_corners(&straight);
            let readings = model
                .read(&shown.iter().map(|&i| crops[i].clone()).collect::<Vec<_>>())
                .expect("read");
            for reading in readings {
                total += 1;
                right += u32::from(reading.class == card.card);
            }
        }
    }
    let accuracy = f64::from(right) / f64::from(total.max(1));
    assert!(total >= 40, "{total} readable corners");
    assert!(
        accuracy >= THRESHOLD,
        "{right} of {total} right ({accuracy:.3})"
    );
}

/// The least accuracy a model may land with (the measured figure is in
/// models/README.md; this leaves room for rendering noise, not for a broken model).
const THRESHOLD: f64 = 0.85;

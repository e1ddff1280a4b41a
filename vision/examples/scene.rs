//! Renders random scenes with their labels drawn on, to look at:
//! `cargo run --release -p pone-vision --example scene -- OUT_DIR [SEED] [COUNT]`.

// Pixel arithmetic, as in the library.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]

use image::Rgb;
use imageproc::drawing::{draw_hollow_rect_mut, draw_line_segment_mut};
use imageproc::rect::Rect;
use pone_vision::render::{render, scene_seed};
use pone_vision::scene::random_scene;
use rand::SeedableRng;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let out = std::path::PathBuf::from(args.next().unwrap_or_else(|| "scenes".into()));
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let count: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    std::fs::create_dir_all(&out)?;
    let designs = pone_vision::art::embedded()?;
    let backs: Vec<usize> = designs
        .iter()
        .map(pone_vision::art::Design::backs)
        .collect();
    for n in 0..count {
        let s = scene_seed(seed, n);
        let mut rng = rand::rngs::StdRng::seed_from_u64(s);
        let scene = random_scene(&mut rng, designs.len(), &backs, 1280, 720, s);
        let start = std::time::Instant::now();
        let rendered = render(&scene, &designs);
        let ms = start.elapsed().as_secs_f32() * 1000.0;
        let mut shown = rendered.image.clone();
        for card in &rendered.labels.cards {
            let c = card.corners;
            for k in 0..4 {
                let (a, b) = (c[k], c[(k + 1) % 4]);
                draw_line_segment_mut(&mut shown, (a[0], a[1]), (b[0], b[1]), Rgb([255, 255, 0]));
            }
            for index in &card.index {
                let b = index.bbox;
                if index.visible > 0.5 && b[2] > b[0] + 1.0 && b[3] > b[1] + 1.0 {
                    let rect = Rect::at(b[0] as i32, b[1] as i32)
                        .of_size((b[2] - b[0]) as u32, (b[3] - b[1]) as u32);
                    draw_hollow_rect_mut(&mut shown, rect, Rgb([0, 200, 255]));
                }
            }
        }
        rendered.image.save(out.join(format!("{n:04}.png")))?;
        shown.save(out.join(format!("{n:04}_labels.png")))?;
        eprintln!(
            "{n}: {} cards labelled, {ms:.1} ms",
            rendered.labels.cards.len()
        );
    }
    Ok(())
}

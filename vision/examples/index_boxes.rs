//! Draws each committed design's index box on a few faces, to check by eye:
//! `cargo run -p pone-vision --example index_boxes -- OUT.png`.

// Pixel arithmetic, as in the library.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]

use image::{Rgba, RgbaImage};
use imageproc::drawing::draw_hollow_rect_mut;
use imageproc::rect::Rect;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "index_boxes.png".into());
    let designs = pone_vision::art::embedded()?;
    let codes = ["AS", "TC", "7D", "QH", "KS", "2H"];
    let mut sheet = RgbaImage::from_pixel(250 * 6, 350 * 3, Rgba([30, 100, 50, 255]));
    for (row, design) in designs.iter().enumerate() {
        for (col, code) in codes.iter().enumerate() {
            let mut face = design.face(code.parse()?).clone();
            let (w, h) = face.dimensions();
            let Some(b) = design.index else { continue };
            for (u0, v0, u1, v1) in [
                (b.u0, b.v0, b.u1, b.v1),
                (1.0 - b.u1, 1.0 - b.v1, 1.0 - b.u0, 1.0 - b.v0),
            ] {
                let rect = Rect::at((u0 * w as f32) as i32, (v0 * h as f32) as i32)
                    .of_size(((u1 - u0) * w as f32) as u32, ((v1 - v0) * h as f32) as u32);
                draw_hollow_rect_mut(&mut face, rect, Rgba([0, 160, 255, 255]));
            }
            image::imageops::overlay(&mut sheet, &face, col as i64 * 250, row as i64 * 350);
        }
    }
    sheet.save(out)?;
    Ok(())
}

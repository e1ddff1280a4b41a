//! The card reader's geometry: a card found in a frame is straightened from
//! its four corners, and its two index corners are cut from it with one window
//! that fits every design (the reader cannot know the design). Training crops
//! and the reader at run time use these same functions.

use image::{Rgb, RgbImage};
use imageproc::geometric_transformations::{Interpolation, Projection, warp_into};

/// A straightened card's size, in pixels: card proportions, enough for the index.
pub const CARD_SIZE: (u32, u32) = (180, 252);

/// The index window, as fractions of the card from its top-left corner: wide
/// and tall enough for the standard and jumbo indices of every design in the
/// art manifest (see `models/art/manifest.toml`).
pub const INDEX_WINDOW: [f32; 4] = [0.0, 0.0, 0.27, 0.45];

/// A corner crop's size, in pixels (width, height).
pub const CROP_SIZE: (u32, u32) = (48, 80);

/// The card whose corners in the frame are `quad` (top-left, top-right,
/// bottom-right, bottom-left of the card as printed), upright at [`CARD_SIZE`].
/// `None` when the corners make no proper quadrilateral.
pub fn straighten(frame: &RgbImage, quad: [[f32; 2]; 4]) -> Option<RgbImage> {
    let (w, h) = (CARD_SIZE.0 as f32, CARD_SIZE.1 as f32);
    let upright = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
    let projection = Projection::from_control_points(quad.map(|p| (p[0], p[1])), upright)?;
    let mut card = RgbImage::new(CARD_SIZE.0, CARD_SIZE.1);
    warp_into(
        frame,
        &projection,
        Interpolation::Bilinear,
        Rgb([0, 0, 0]),
        &mut card,
    );
    Some(card)
}

/// The two index corners of a straightened card at [`CROP_SIZE`]: the top-left
/// one, and the bottom-right one turned the right way up.
pub fn index_corners(card: &RgbImage) -> [RgbImage; 2] {
    let (w, h) = card.dimensions();
    let [u0, v0, u1, v1] = INDEX_WINDOW;
    let crop = |card: &RgbImage| {
        let view = image::imageops::crop_imm(
            card,
            (u0 * w as f32) as u32,
            (v0 * h as f32) as u32,
            ((u1 - u0) * w as f32) as u32,
            ((v1 - v0) * h as f32) as u32,
        )
        .to_image();
        image::imageops::resize(
            &view,
            CROP_SIZE.0,
            CROP_SIZE.1,
            image::imageops::FilterType::Triangle,
        )
    };
    let turned = image::imageops::rotate180(card);
    [crop(card), crop(&turned)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straightened_card_shows_its_index_in_the_top_left_window() {
        // A frame holding a card drawn at an angle: straighten it back.
        let design = &crate::art::embedded().expect("art")[0];
        let face = design.face("QH".parse().expect("card"));
        let mut frame = RgbImage::from_pixel(400, 400, Rgb([20, 90, 40]));
        let quad = [[150.0, 60.0], [300.0, 110.0], [240.0, 320.0], [90.0, 270.0]];
        let (fw, fh) = (face.width() as f32, face.height() as f32);
        let to_frame = Projection::from_control_points(
            [(0.0, 0.0), (fw, 0.0), (fw, fh), (0.0, fh)],
            quad.map(|p| (p[0], p[1])),
        )
        .expect("a quad");
        let rgba = image::DynamicImage::ImageRgba8(face.clone()).to_rgb8();
        let mut drawn = RgbImage::new(400, 400);
        warp_into(
            &rgba,
            &to_frame,
            Interpolation::Bilinear,
            Rgb([20, 90, 40]),
            &mut drawn,
        );
        frame.clone_from(&drawn);
        let card = straighten(&frame, quad).expect("straightened");
        let [top, bottom] = index_corners(&card);
        assert_eq!(top.dimensions(), CROP_SIZE);
        // The index of a red queen: red ink in both corner crops, none of the felt.
        for crop in [&top, &bottom] {
            let red = crop
                .pixels()
                .filter(|p| p[0] > 150 && p[1] < 90 && p[2] < 90)
                .count();
            let felt = crop
                .pixels()
                .filter(|p| {
                    let [r, g, b] = p.0.map(i32::from);
                    g > r + 40 && g > b + 20
                })
                .count();
            assert!(red > 30, "red ink in the index: {red}");
            assert!(felt < 20, "the crop is inside the card: {felt}");
        }
    }
}

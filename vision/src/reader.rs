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

/// The reader's class for a window on no index corner: it learns to say that
/// a window the finder got wrong (on a pip, on clutter, half off a corner) is
/// no card, rather than guess one.
pub const NO_CARD: &str = "none";

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

/// The reader's two index windows of a card whose corners in the frame are
/// `quad` (top-left, top-right, bottom-right, bottom-left as printed): the
/// top-left one, then the bottom-right one, each as four points in the frame
/// (top-left, top-right, bottom-right, bottom-left as that index reads), as
/// the finder gives them. `None` when the corners make no proper quadrilateral.
#[must_use]
pub fn index_windows(quad: [[f32; 2]; 4]) -> Option<[[[f32; 2]; 4]; 2]> {
    let unit = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
    let to_frame = Projection::from_control_points(unit, quad.map(|p| (p[0], p[1])))?;
    let [u0, v0, u1, v1] = INDEX_WINDOW;
    let at = |(u, v): (f32, f32)| {
        let (x, y) = to_frame * (u, v);
        [x, y]
    };
    let top = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)];
    Some([top.map(at), top.map(|(u, v)| at((1.0 - u, 1.0 - v)))])
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

/// The reader's crop at [`CROP_SIZE`] cut straight from a frame: `window` is
/// the index window's four points in the frame (top-left, top-right,
/// bottom-right, bottom-left as the index reads, as the finder gives them).
/// Each crop pixel averages the frame pixels it covers, so a large index is
/// not aliased. `None` when the points make no proper quadrilateral.
#[must_use]
pub fn cut_window(frame: &RgbImage, window: [[f32; 2]; 4]) -> Option<RgbImage> {
    let (cw, ch) = (CROP_SIZE.0 as f32, CROP_SIZE.1 as f32);
    let crop_rect = [(0.0, 0.0), (cw, 0.0), (cw, ch), (0.0, ch)];
    let to_frame = Projection::from_control_points(crop_rect, window.map(|p| (p[0], p[1])))?;
    // Frame pixels per crop pixel, along the window's longer sides.
    let side = |a: [f32; 2], b: [f32; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
    let across = side(window[0], window[1]).max(side(window[3], window[2])) / cw;
    let down = side(window[0], window[3]).max(side(window[1], window[2])) / ch;
    let taps = (across.max(down).ceil() as u32).clamp(1, 6);
    let (fw, fh) = frame.dimensions();
    let mut crop = RgbImage::new(CROP_SIZE.0, CROP_SIZE.1);
    for (x, y, pixel) in crop.enumerate_pixels_mut() {
        let mut sum = [0.0f32; 3];
        for ty in 0..taps {
            for tx in 0..taps {
                let u = x as f32 + (tx as f32 + 0.5) / taps as f32;
                let v = y as f32 + (ty as f32 + 0.5) / taps as f32;
                let (fx, fy) = to_frame * (u, v);
                let rgb = bilinear(frame, fx - 0.5, fy - 0.5, (fw, fh));
                for c in 0..3 {
                    sum[c] += rgb[c];
                }
            }
        }
        let n = (taps * taps) as f32;
        *pixel = Rgb(sum.map(|s| (s / n).round().clamp(0.0, 255.0) as u8));
    }
    Some(crop)
}

/// The frame's colour at a point between pixel centres; black outside it.
fn bilinear(frame: &RgbImage, x: f32, y: f32, (w, h): (u32, u32)) -> [f32; 3] {
    if !(x > -1.0 && y > -1.0 && x < w as f32 && y < h as f32) {
        return [0.0; 3];
    }
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let at = |xx: f32, yy: f32| -> [f32; 3] {
        if xx < 0.0 || yy < 0.0 || xx >= w as f32 || yy >= h as f32 {
            return [0.0; 3];
        }
        frame.get_pixel(xx as u32, yy as u32).0.map(f32::from)
    };
    let (a, b, c, d) = (
        at(x0, y0),
        at(x0 + 1.0, y0),
        at(x0, y0 + 1.0),
        at(x0 + 1.0, y0 + 1.0),
    );
    std::array::from_fn(|k| {
        (a[k] * (1.0 - fx) + b[k] * fx) * (1.0 - fy) + (c[k] * (1.0 - fx) + d[k] * fx) * fy
    })
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

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
/// `None` when the points make no proper quadrilateral.
#[must_use]
pub fn cut_window(frame: &RgbImage, window: [[f32; 2]; 4]) -> Option<RgbImage> {
    cut_quad(frame, window, CROP_SIZE)
}

/// A face-down card's crop's side, in pixels (the back checker's input).
pub const BACK_SIZE: u32 = 64;

/// How much of the frame around a back's box its crop takes in, as a
/// fraction of the box's width and height on each side: a card's edge against
/// what it lies on is most of what tells a back from a patterned cloth.
pub const BACK_MARGIN: f32 = 0.2;

/// A face-down card's crop, [`BACK_SIZE`] square, cut from the frame around
/// its box (`[x0, y0, x1, y1]`) with [`BACK_MARGIN`] on each side. What the
/// back checker (`models/backs.onnx`) reads, at training and at run time.
#[must_use]
pub fn cut_back(frame: &RgbImage, bbox: [f32; 4]) -> Option<RgbImage> {
    cut_box(frame, back_region(bbox), (BACK_SIZE, BACK_SIZE))
}

/// The part of the frame a face-down card's crop is cut from: its box with
/// [`BACK_MARGIN`] on each side ([`cut_back`]).
#[must_use]
pub fn back_region(bbox: [f32; 4]) -> [f32; 4] {
    let (mx, my) = (
        (bbox[2] - bbox[0]) * BACK_MARGIN,
        (bbox[3] - bbox[1]) * BACK_MARGIN,
    );
    [bbox[0] - mx, bbox[1] - my, bbox[2] + mx, bbox[3] + my]
}

/// What [`cut_quad`] gives for an upright box `[x0, y0, x1, y1]`, computed
/// the fast way: the same samples, but a box's samples fall on a grid, so
/// each crop row's samples are blended down the frame's columns first and
/// along the row after (a frame has a few dozen backs to cut, each from up
/// to a hundred thousand samples). `None` for an empty box.
#[must_use]
pub fn cut_box(frame: &RgbImage, bbox: [f32; 4], size: (u32, u32)) -> Option<RgbImage> {
    let (cw, ch) = (size.0 as f32, size.1 as f32);
    let (bw, bh) = (bbox[2] - bbox[0], bbox[3] - bbox[1]);
    if !(bw > 0.0 && bh > 0.0) || size.0 == 0 || size.1 == 0 {
        return None;
    }
    let taps = ((bw / cw).max(bh / ch).ceil() as u32).clamp(1, 6);
    let n = taps as f32;
    let (fw, fh) = (i64::from(frame.width()), i64::from(frame.height()));
    let (sx, sy) = (bw / cw, bh / ch);
    // A sample's place between pixel centres, along one axis.
    let along = |start: f32, scale: f32, k: u32, t: u32| {
        start + (k as f32 + (t as f32 + 0.5) / n) * scale - 0.5
    };
    // The frame's columns the samples need.
    let first = (along(bbox[0], sx, 0, 0).floor() as i64).max(0);
    let last = (along(bbox[0], sx, size.0 - 1, taps - 1).floor() as i64 + 1).min(fw - 1);
    let mut crop = RgbImage::new(size.0, size.1);
    if last < first {
        return Some(crop);
    }
    // Each crop column's samples (two a tap: the frame column left of the
    // sample and right of it) as a place in `line` (none off the frame) and a
    // weight: the same for every row.
    let columns: Vec<(Option<usize>, f32)> = (0..size.0)
        .flat_map(|x| {
            (0..taps).flat_map(move |t| {
                let fx = along(bbox[0], sx, x, t);
                let left = floor(fx);
                let wx = fx - left as f32;
                [(left, 1.0 - wx), (left + 1, wx)].map(|(col, weight)| {
                    let at = (first..=last)
                        .contains(&col)
                        .then(|| (col - first) as usize * 3);
                    (at, weight)
                })
            })
        })
        .collect();
    // One row of the crop, at the frame's columns: red, green, blue in turn.
    let mut line = vec![0.0f32; (last - first + 1) as usize * 3];
    let raw = frame.as_raw();
    for (y, row_out) in (0..size.1).zip(crop.rows_mut()) {
        line.fill(0.0);
        for t in 0..taps {
            let fy = along(bbox[1], sy, y, t);
            let top = floor(fy);
            let wy = fy - top as f32;
            for (row, weight) in [(top, 1.0 - wy), (top + 1, wy)] {
                if row < 0 || row >= fh {
                    continue;
                }
                let start = ((row * fw + first) * 3) as usize;
                let pixels = &raw[start..start + line.len()];
                for (v, &p) in line.iter_mut().zip(pixels) {
                    *v += weight * f32::from(p);
                }
            }
        }
        let mut taken = columns.iter();
        for pixel in row_out {
            let mut sum = [0.0f32; 3];
            for &(at, weight) in taken.by_ref().take(2 * taps as usize) {
                let Some(at) = at else {
                    continue;
                };
                let v = &line[at..][..3];
                for k in 0..3 {
                    sum[k] += weight * v[k];
                }
            }
            *pixel = Rgb(sum.map(|s| to_level(s / (n * n))));
        }
    }
    Some(crop)
}

/// The quadrilateral `quad` of a frame (top-left, top-right, bottom-right,
/// bottom-left) cut straight to an image of `size` (width, height). Each
/// output pixel averages the frame pixels it covers, so a large quad is not
/// aliased; outside the frame is black. `None` when the points make no
/// proper quadrilateral.
#[must_use]
pub fn cut_quad(frame: &RgbImage, quad: [[f32; 2]; 4], size: (u32, u32)) -> Option<RgbImage> {
    let (cw, ch) = (size.0 as f32, size.1 as f32);
    let crop_rect = [(0.0, 0.0), (cw, 0.0), (cw, ch), (0.0, ch)];
    let to_frame = Projection::from_control_points(crop_rect, quad.map(|p| (p[0], p[1])))?;
    // Frame pixels per crop pixel, along the quad's longer sides.
    let length = |a: [f32; 2], b: [f32; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
    let across = length(quad[0], quad[1]).max(length(quad[3], quad[2])) / cw;
    let down = length(quad[0], quad[3]).max(length(quad[1], quad[2])) / ch;
    let taps = (across.max(down).ceil() as u32).clamp(1, 6);
    // Where each sample lies within its crop pixel, along either axis.
    let offsets: Vec<f32> = (0..taps).map(|t| (t as f32 + 0.5) / taps as f32).collect();
    let n = (taps * taps) as f32;
    let mut crop = RgbImage::new(size.0, size.1);
    for (x, y, pixel) in crop.enumerate_pixels_mut() {
        let mut sum = [0.0f32; 3];
        for &dy in &offsets {
            for &dx in &offsets {
                let (fx, fy) = to_frame * (x as f32 + dx, y as f32 + dy);
                let rgb = bilinear(frame, fx - 0.5, fy - 0.5);
                for c in 0..3 {
                    sum[c] += rgb[c];
                }
            }
        }
        *pixel = Rgb(sum.map(|s| to_level(s / n)));
    }
    Some(crop)
}

/// A colour level rounded to the nearest (halves away from zero, as
/// `f32::round`) and kept within 0..=255, without the library call
/// `f32::round` is on a plain x86-64 build.
fn to_level(v: f32) -> u8 {
    if v.is_nan() || v <= 0.0 {
        return 0;
    }
    if v >= 255.0 {
        return 255;
    }
    let whole = v as u32;
    // `v - whole` is exact below 2^23, so the half is judged as `round` does.
    let up = u32::from(v - whole as f32 >= 0.5);
    (whole + up) as u8
}

/// `x.floor()` as a whole number (the truncation, one less when that rounded
/// up; saturating as `as` does), without the library call.
fn floor(x: f32) -> i64 {
    let t = x as i64;
    t.saturating_sub(i64::from((t as f32) > x))
}

/// The frame's colour at a point between pixel centres; black outside it.
fn bilinear(frame: &RgbImage, x: f32, y: f32) -> [f32; 3] {
    let (w, h) = (i64::from(frame.width()), i64::from(frame.height()));
    if !(x > -1.0 && y > -1.0 && x < w as f32 && y < h as f32) {
        return [0.0; 3];
    }
    let (x0, y0) = (floor(x), floor(y));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let raw = frame.as_raw();
    let at = |xx: i64, yy: i64| -> [f32; 3] {
        if xx < 0 || yy < 0 || xx >= w || yy >= h {
            return [0.0; 3];
        }
        let i = (yy as usize * w as usize + xx as usize) * 3;
        [
            f32::from(raw[i]),
            f32::from(raw[i + 1]),
            f32::from(raw[i + 2]),
        ]
    };
    let (a, b, c, d) = (
        at(x0, y0),
        at(x0 + 1, y0),
        at(x0, y0 + 1),
        at(x0 + 1, y0 + 1),
    );
    std::array::from_fn(|k| {
        (a[k] * (1.0 - fx) + b[k] * fx) * (1.0 - fy) + (c[k] * (1.0 - fx) + d[k] * fx) * fy
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_upright_box_is_cut_as_its_quad_is() {
        let mut frame = RgbImage::new(300, 200);
        for (x, y, p) in frame.enumerate_pixels_mut() {
            *p = Rgb([
                (x * 7 % 256) as u8,
                (y * 13 % 256) as u8,
                ((x * y) % 251) as u8,
            ]);
        }
        // Small and large boxes, some half off the frame.
        for b in [
            [10.3, 20.7, 50.1, 70.9],
            [-30.0, -12.5, 180.0, 150.0],
            [120.0, 40.0, 420.0, 260.0],
            [0.0, 0.0, 300.0, 200.0],
        ] {
            let quad = [[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]]];
            let slow = cut_quad(&frame, quad, (64, 64)).expect("quad");
            let fast = cut_box(&frame, b, (64, 64)).expect("box");
            for (p, q) in slow.pixels().zip(fast.pixels()) {
                for k in 0..3 {
                    assert!(p.0[k].abs_diff(q.0[k]) <= 1, "{b:?}: {p:?} against {q:?}");
                }
            }
        }
    }

    #[test]
    fn a_backs_crop_takes_in_the_table_around_it() {
        // A white card on a black table: the crop's middle is the card, its
        // edge the table (the margin), whatever the box's proportions.
        let mut frame = RgbImage::new(400, 300);
        for y in 100..200 {
            for x in 150..220 {
                frame.put_pixel(x, y, Rgb([255, 255, 255]));
            }
        }
        let crop = cut_back(&frame, [150.0, 100.0, 220.0, 200.0]).expect("crop");
        assert_eq!(crop.dimensions(), (BACK_SIZE, BACK_SIZE));
        let mid = BACK_SIZE / 2;
        assert_eq!(crop.get_pixel(mid, mid).0, [255, 255, 255]);
        assert_eq!(crop.get_pixel(2, mid).0, [0, 0, 0]);
        assert_eq!(crop.get_pixel(mid, BACK_SIZE - 3).0, [0, 0, 0]);
        // The margin is BACK_MARGIN of the box on each side.
        let edge = (BACK_SIZE as f32 * BACK_MARGIN / (1.0 + 2.0 * BACK_MARGIN)) as u32;
        assert_eq!(crop.get_pixel(edge + 2, mid).0, [255, 255, 255]);
        assert_eq!(crop.get_pixel(edge - 2, mid).0, [0, 0, 0]);
    }

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

    #[test]
    fn levels_and_floors_are_the_librarys() {
        // `to_level` and `floor` stand in for `f32::round` and `f32::floor`
        // on the hot path: the crops must not change by a level.
        let mut v = -3.0f32;
        while v < 260.0 {
            for x in [v, v + 0.5, v - 0.5, v + 1e-4, v - 1e-4] {
                assert_eq!(to_level(x), x.round().clamp(0.0, 255.0) as u8, "{x}");
                assert_eq!(floor(x), x.floor() as i64, "{x}");
            }
            v += 0.37;
        }
        for x in [
            0.499_999_97_f32,
            0.5,
            254.5,
            255.49,
            f32::NAN,
            -0.0,
            1e12,
            -1e12,
        ] {
            assert_eq!(to_level(x), x.round().clamp(0.0, 255.0) as u8, "{x}");
        }
        assert_eq!(floor(-1e30), i64::MIN);
    }
}

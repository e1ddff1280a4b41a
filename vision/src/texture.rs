//! Textures in table coordinates (centimetres): the noise they are made of and
//! the table tops (felt, wood, cloth, carpet, bedspread, tiles). Cheap per
//! pixel: a few lookups in a tiled noise, integer hashes and parabolic waves,
//! no trigonometry, so a frame of table stays fast.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::scene::{Bedspread, Carpet, Material, Pattern, Tiles, Wood};

/// Side of the noise tile, texels (a power of two, so coordinates wrap by masking).
const TILE: usize = 128;

/// A tileable value-noise texture, 0..1, for the table's grain and fibres.
pub(crate) struct NoiseTile {
    /// Row-major; a fixed size, so masked lookups need no bounds checks.
    values: Box<[f32; TILE * TILE]>,
}

impl NoiseTile {
    pub(crate) fn new(seed: u64) -> NoiseTile {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut values: Box<[f32; TILE * TILE]> = vec![0.0f32; TILE * TILE]
            .into_boxed_slice()
            .try_into()
            .expect("a vector of the tile's size");
        // Octaves of smoothed lattice noise, tiled.
        let mut amplitude = 0.5;
        for cell in [16usize, 8, 4, 2] {
            let n = TILE / cell;
            let lattice: Vec<f32> = (0..n * n).map(|_| rng.random::<f32>()).collect();
            for y in 0..TILE {
                for x in 0..TILE {
                    let (gx, gy) = (x as f32 / cell as f32, y as f32 / cell as f32);
                    let (x0, y0) = (gx.floor() as usize % n, gy.floor() as usize % n);
                    let (x1, y1) = ((x0 + 1) % n, (y0 + 1) % n);
                    let (fx, fy) = (smooth(gx.fract()), smooth(gy.fract()));
                    let top = lerp(lattice[y0 * n + x0], lattice[y0 * n + x1], fx);
                    let bottom = lerp(lattice[y1 * n + x0], lattice[y1 * n + x1], fx);
                    values[y * TILE + x] += amplitude * lerp(top, bottom, fy);
                }
            }
            amplitude *= 0.55;
        }
        NoiseTile { values }
    }

    /// Bilinear sample at texel coordinates, wrapping.
    #[inline]
    pub(crate) fn at(&self, x: f32, y: f32) -> f32 {
        // Fixed point, 1/256 texel: one conversion per axis, and the shift
        // floors negatives too.
        let mask = TILE - 1;
        let (xi, yi) = ((x * 256.0) as i32, (y * 256.0) as i32);
        let (fx, fy) = (
            (xi & 255) as f32 * (1.0 / 256.0),
            (yi & 255) as f32 * (1.0 / 256.0),
        );
        let (x0, y0) = (((xi >> 8) as usize) & mask, ((yi >> 8) as usize) & mask);
        let (x1, y1) = ((x0 + 1) & mask, (y0 + 1) & mask);
        let v = |xx: usize, yy: usize| self.values[(yy * TILE + xx) & (TILE * TILE - 1)];
        lerp(
            lerp(v(x0, y0), v(x1, y0), fx),
            lerp(v(x0, y1), v(x1, y1), fx),
            fy,
        )
    }
}

/// `floor()` as an integer without the libm call: truncate, then step down for negatives.
#[inline]
pub(crate) fn floor_i(x: f32) -> i32 {
    let i = x as i32;
    i - i32::from(x < i as f32)
}

#[inline]
pub(crate) fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

#[inline]
pub(crate) fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

#[inline]
pub(crate) fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [
        lerp(a[0], b[0], t),
        lerp(a[1], b[1], t),
        lerp(a[2], b[2], t),
    ]
}

#[inline]
pub(crate) fn scale(c: [f32; 3], k: f32) -> [f32; 3] {
    c.map(|v| v * k)
}

/// The length of (x, y): plain, where `hypot` guards against overflow no
/// texture needs, at many times the cost.
#[inline]
pub(crate) fn length(x: f32, y: f32) -> f32 {
    (x * x + y * y).sqrt()
}

/// An integer hash of a lattice cell: unrelated values for neighbouring cells.
#[inline]
pub(crate) fn hash2(x: i32, y: i32, seed: u32) -> u32 {
    let mut h = (x as u32).wrapping_mul(0x8da6_b343)
        ^ (y as u32).wrapping_mul(0xd816_3841)
        ^ seed.wrapping_mul(0xcb1a_b31f);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297a_2d39);
    h ^ (h >> 15)
}

/// A hash as a fraction 0..1.
#[inline]
pub(crate) fn unit(h: u32) -> f32 {
    (h >> 8) as f32 / 16_777_216.0
}

/// A sine-like wave of period 1 (`x` in cycles), -1..1, made of parabolas.
#[inline]
pub(crate) fn wave(x: f32) -> f32 {
    // Branch-free (a random phase would mispredict half the time): a hump
    // 4r(1 - r) over each half period, the second half turned negative.
    let half = (x - floor_i(x) as f32) * 2.0;
    let second = half as i32 as f32;
    let r = half - second;
    4.0 * r * (1.0 - r) * (1.0 - 2.0 * second)
}

/// How much of a pattern of feature size `feature_cm` a pixel `pixel_cm`
/// across still resolves: 1 sharp, 0 averaged away (drawn as its mean instead
/// of aliasing into moiré).
#[inline]
pub(crate) fn detail(feature_cm: f32, pixel_cm: f32) -> f32 {
    (feature_cm / pixel_cm.max(1e-4) - 0.6).clamp(0.0, 1.0)
}

/// The table top's colour at table point (x, y) for a pixel `pixel_cm` across.
pub(crate) fn surface_colour(
    material: &Material,
    noise: &NoiseTile,
    x: f32,
    y: f32,
    pixel_cm: f32,
) -> [f32; 3] {
    match *material {
        Material::Felt { colour } => {
            let fibre = noise.at(x * 9.0, y * 9.0) - 0.5;
            let cloud = noise.at(x * 0.7 + 40.0, y * 0.7) - 0.5;
            colour.map(|c| c * (1.0 + 0.35 * fibre + 0.25 * cloud))
        }
        Material::Wood(ref w) => wood(w, noise, x, y, pixel_cm),
        Material::Cloth { a, b, check_cm } => {
            let weave = 0.5 + 0.25 * (wave(x * 3.2) * wave(y * 3.2));
            let base = if check_cm > 0.0
                && (floor_i(x / check_cm) + floor_i(y / check_cm)).rem_euclid(2) == 1
            {
                b
            } else {
                a
            };
            base.map(|c| c * (0.85 + 0.3 * weave) * (0.95 + 0.1 * noise.at(x * 3.0, y * 3.0)))
        }
        Material::Carpet(ref c) => carpet(c, noise, x, y, pixel_cm),
        Material::Bedspread(ref b) => bedspread(b, noise, x, y),
        Material::Tiles(ref t) => tiles(t, noise, x, y, pixel_cm),
        Material::Photo(ref p) => crate::clutter::photo_texture(p, x, y, pixel_cm),
    }
}

/// Carpet: tufts of pile, flecked, plain or in a rug's bands.
fn carpet(c: &Carpet, noise: &NoiseTile, x: f32, y: f32, pixel_cm: f32) -> [f32; 3] {
    let Carpet {
        a,
        b,
        stripe,
        fleck,
        pile_cm,
        stripe_cm,
    } = *c;
    // Tufts: round loops on two jittered lattices turned apart (so no
    // grid shows), each loop lit in the middle and dark where it
    // meets the next; a share of loops in the fleck colour.
    let n = noise.at(x * 1.7, y * 1.7) - 0.5;
    let (wx, wy) = (x + pile_cm * 1.2 * n, y - pile_cm * 1.2 * n);
    let (a1, h1) = tuft(wx / pile_cm, wy / pile_cm, 21);
    let (a2, h2) = tuft(
        (0.8 * wx - 0.6 * wy) / (pile_cm * 1.13) + 0.5,
        (0.6 * wx + 0.8 * wy) / (pile_cm * 1.13),
        22,
    );
    let (lift, h) = if a1 >= a2 { (a1, h1) } else { (a2, h2) };
    let base = if stripe_cm > 0.0 {
        // Bands of a rug, ragged where the tufts meet.
        let band = floor_i((y + pile_cm * 2.5 * n) / stripe_cm);
        match hash2(band, 0, 23) % 5 {
            0 | 1 => a,
            2 | 3 => stripe,
            _ => b,
        }
    } else {
        a
    };
    let loop_colour = if unit(h) < fleck { b } else { base };
    let shade = if lift > 0.0 {
        0.6 + 0.55 * lift.sqrt() * (0.8 + 0.4 * unit(h.rotate_left(13)))
    } else {
        0.45
    };
    let sharp = scale(loop_colour, shade);
    let mean = scale(mix(base, b, fleck), 0.8);
    // Fibres within the loops, where the pixels are fine enough to show them.
    let fibre = 1.0 + 0.35 * (noise.at(x * 14.0, y * 14.0) - 0.5) * detail(0.1, pixel_cm);
    let cloud = 0.88 + 0.24 * noise.at(x * 0.25 + 90.0, y * 0.25);
    scale(
        mix(mean, sharp, detail(pile_cm * 0.6, pixel_cm)),
        cloud * fibre,
    )
}

/// A bedspread: its pattern over soft folds.
fn bedspread(spread: &Bedspread, noise: &NoiseTile, x: f32, y: f32) -> [f32; 3] {
    let Bedspread {
        a,
        b,
        pattern,
        pattern_cm,
        folds,
        fold_cm,
        fold_dir,
    } = *spread;
    // Folds: two crossing waves wandering with the noise, lit from one side.
    let w1 = noise.at(x * 0.05, y * 0.05);
    let w2 = 0.7 - w1;
    let along = x * fold_dir[0] + y * fold_dir[1];
    let across = -x * fold_dir[1] + y * fold_dir[0];
    let p1 = along / fold_cm + 2.5 * w1;
    let p2 = across / (fold_cm * 1.7) + 2.0 * w2;
    let height = 0.6 * wave(p1) + 0.4 * wave(p2);
    let slope = 0.6 * wave(p1 + 0.25) + 0.4 * wave(p2 + 0.25);
    let crease = (-height - 0.6).max(0.0);
    let shade = 1.0 + folds * (0.45 * slope - 1.2 * crease);
    let (px, py) = (x + 0.7 * height, y + 0.7 * slope);
    let colour = match pattern {
        Pattern::Plain => a,
        Pattern::Stripes => {
            let s = wave((px * fold_dir[1] + py * fold_dir[0]) / pattern_cm);
            mix(a, b, ((s - 0.2) * 4.0).clamp(0.0, 1.0))
        }
        Pattern::Checks => {
            let cx = (wave(px / pattern_cm) * 3.0).clamp(-1.0, 1.0);
            let cy = (wave(py / pattern_cm) * 3.0).clamp(-1.0, 1.0);
            mix(a, b, 0.25 * (cx + 1.0) + 0.25 * (cy + 1.0))
        }
        Pattern::Flowers => flowers(a, b, px, py, pattern_cm),
    };
    let weave = 0.93 + 0.14 * noise.at(x * 11.0, y * 11.0);
    scale(colour, shade.max(0.2) * weave)
}

/// Tiles with grout lines between, each tile its own tone, mottled.
fn tiles(t: &Tiles, noise: &NoiseTile, x: f32, y: f32, pixel_cm: f32) -> [f32; 3] {
    let Tiles {
        tile,
        grout,
        tile_cm,
        grout_cm,
    } = *t;
    let (ix, iy) = (floor_i(x / tile_cm), floor_i(y / tile_cm));
    let (fx, fy) = (x - ix as f32 * tile_cm, y - iy as f32 * tile_cm);
    let edge = fx.min(tile_cm - fx).min(fy).min(tile_cm - fy);
    let mottle = 0.82 + 0.36 * noise.at(x * 0.9, y * 0.9);
    let speck = 0.92 + 0.16 * noise.at(x * 7.0, y * 7.0);
    let tone = 0.9 + 0.2 * unit(hash2(ix, iy, 31));
    let face = scale(tile, mottle * speck * tone);
    // The grout line, and a rounded tile edge darkening into it.
    let g = grout_cm / 2.0;
    let grout_part = ((g - edge) / pixel_cm.max(0.02) + 0.5).clamp(0.0, 1.0);
    let bevel = ((edge - g) / 0.4).clamp(0.0, 1.0);
    mix(
        scale(face, 0.8 + 0.2 * bevel),
        scale(grout, speck),
        grout_part,
    )
}

/// The loop of carpet pile nearest lattice point (x, y) (in loops): how far
/// up it the point is (1 at its top, below 0 between loops) and its hash.
#[inline]
fn tuft(x: f32, y: f32, seed: u32) -> (f32, u32) {
    let (ix, iy) = (floor_i(x), floor_i(y));
    let h = hash2(ix, iy, seed);
    let jx = 0.3 + 0.4 * unit(h.rotate_left(5));
    let jy = 0.3 + 0.4 * unit(h.rotate_left(19));
    let r = 0.38 + 0.2 * unit(h.rotate_left(27));
    let (dx, dy) = (x - ix as f32 - jx, y - iy as f32 - jy);
    (1.0 - (dx * dx + dy * dy) / (r * r), h)
}

/// Boards running along y, each its own tone, with wandering grain lines that
/// ring round knots (the grain's phase bulges near a knot, so its contours close).
fn wood(w: &Wood, noise: &NoiseTile, x: f32, y: f32, pixel_cm: f32) -> [f32; 3] {
    // Reciprocals once (the compiler lifts them out of the pixel loop):
    // divisions are the slow part of a texture.
    let (per_plank, per_grain) = (1.0 / w.plank_cm, 1.0 / w.grain_cm);
    let plank = floor_i(x * per_plank);
    let across = x - plank as f32 * w.plank_cm;
    let hp = hash2(plank, 0, 11);
    let board_cm = w.plank_cm * 9.0 + 60.0;
    let along = y + unit(hp) * board_cm;
    let board = floor_i(along / board_cm);
    let end = along - board as f32 * board_cm;
    let offset = (hp & 1023) as f32;
    // The board is a flat cut through a tree's rings: the ring at a point is
    // its distance from the pith, which lies `depth` below the cut (a depth
    // changing along the board draws the arches of flat-sawn wood).
    let hb = hash2(plank, board, 14);
    let tone = unit(hb.rotate_left(24));
    let pith = w.plank_cm * (1.6 * unit(hb) - 0.3);
    let depth = w.grain_cm * (3.0 + 30.0 * unit(hb.rotate_left(9)))
        + (end - board_cm / 2.0) * (unit(hb.rotate_left(18)) - 0.5) * 0.15;
    let wander = w.grain_cm * 7.0 * (noise.at(across * 0.2 + offset, y * 0.08) - 0.5);
    let ring = length(across - pith + wander, depth);
    let mut phase = ring * per_grain;
    let mut knot_core = 0.0f32;
    if w.knots > 0.0 {
        let spacing = 100.0 / w.knots;
        // Knots sit one to a cell along the board: look in this cell and the
        // nearer neighbour.
        let at = along * w.knots * 0.01;
        let cell = floor_i(at);
        let near = if at - cell as f32 > 0.5 {
            cell + 1
        } else {
            cell - 1
        };
        for c in [cell, near] {
            let h = hash2(plank, c, (board as u32).wrapping_add(13));
            if unit(h) > 0.45 {
                continue;
            }
            let r = 0.4 + 1.1 * unit(h.rotate_left(7));
            let kx = w.plank_cm * (0.15 + 0.7 * unit(h.rotate_left(14)));
            let ky = (c as f32 + unit(h.rotate_left(21))) * spacing;
            let (dx, dy) = (across - kx, (along - ky) * (1.0 / 2.6));
            let d2 = dx * dx + dy * dy;
            let reach = r * 4.0;
            if d2 < reach * reach * 4.0 {
                // exp(-q) near enough, without the libm call.
                let q = d2 / (reach * reach);
                phase += 3.0 / (1.0 + q * (1.0 + q * (0.5 + q * 0.17)));
                if d2 < r * r {
                    knot_core = knot_core.max(1.0 - d2.sqrt() / r);
                }
            }
        }
    }
    let band = 0.5 + 0.5 * wave(phase);
    let lines = (band * band) * (band * band);
    let sharpness = detail(w.grain_cm * 0.25, pixel_cm);
    let grain = lerp(0.3, lines, sharpness) * w.figure;
    let pores = 0.9 + 0.2 * noise.at(across * 9.0 + offset, y * 0.6);
    let base = mix(w.light, w.dark, (grain + 0.35 * tone).min(1.0));
    let mut colour = scale(base, pores * (0.9 + 0.2 * tone));
    colour = mix(colour, scale(w.dark, 0.45), knot_core.sqrt() * 0.85);
    let seam = across.min(w.plank_cm - across).min(end).min(board_cm - end);
    let seam_part = ((0.12 - seam) / pixel_cm.max(0.02) + 0.5).clamp(0.0, 1.0);
    scale(colour, 1.0 - 0.5 * seam_part)
}

/// A field of `a` with flowers of `b` (five round petals and a dark heart) in
/// some cells of a jittered grid `cell_cm` wide.
fn flowers(a: [f32; 3], b: [f32; 3], x: f32, y: f32, cell_cm: f32) -> [f32; 3] {
    let (ix, iy) = (floor_i(x / cell_cm), floor_i(y / cell_cm));
    let h = hash2(ix, iy, 41);
    if unit(h) < 0.3 {
        return a;
    }
    let size = cell_cm * (0.18 + 0.14 * unit(h.rotate_left(9)));
    let cx = (ix as f32 + 0.3 + 0.4 * unit(h.rotate_left(17))) * cell_cm;
    let cy = (iy as f32 + 0.3 + 0.4 * unit(h.rotate_left(25))) * cell_cm;
    let (dx, dy) = (x - cx, y - cy);
    let d = (dx * dx + dy * dy).sqrt();
    if d > size {
        return a;
    }
    if d < size * 0.25 {
        return scale(b, 0.45);
    }
    // cos(5θ) from cos θ (Chebyshev), so the petals need no atan.
    let c = dx / d.max(1e-6);
    let c5 = 16.0 * c.powi(5) - 20.0 * c.powi(3) + 5.0 * c;
    if d < size * (0.55 + 0.45 * c5.abs().sqrt()) {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wave_is_a_sine_near_enough() {
        for k in -40..40 {
            let x = k as f32 * 0.037;
            let sine = (x * std::f32::consts::TAU).sin();
            assert!((wave(x) - sine).abs() < 0.06, "{x}: {} vs {sine}", wave(x));
        }
    }

    #[test]
    fn floor_i_rounds_down() {
        assert_eq!(floor_i(1.5), 1);
        assert_eq!(floor_i(-0.5), -1);
        assert_eq!(floor_i(-2.0), -2);
        assert_eq!(floor_i(0.0), 0);
    }
}

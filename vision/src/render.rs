//! Draws a [`Scene`] into a camera-like frame, with exact labels for every card.
//!
//! Work is in linear floats per pixel; a per-pixel buffer records which card
//! (or hand) is on top and whether that pixel is in the card's index corner,
//! so the labels say exactly how much of each card and each index shows.

use image::{RgbImage, RgbaImage};
use imageproc::geometric_transformations::Projection;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::art::{Design, IndexBox};
use crate::scene::{CARD_HEIGHT_CM, Occluder, Placed, Role, Scene, Surface};

/// The id buffer's value for a hand or sleeve.
const OCCLUDER: u16 = u16::MAX;

/// One index corner of a card in the frame.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct IndexLabel {
    /// The corner's four points in the frame (clockwise from the card's top-left).
    pub quad: [[f32; 2]; 4],
    /// The box around them, `[x0, y0, x1, y1]`.
    #[serde(rename = "box")]
    pub bbox: [f32; 4],
    /// How much of it shows, 0..1.
    pub visible: f32,
}

/// One card in the frame.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CardLabel {
    /// `QH`, or `back` for a face-down card.
    pub card: String,
    /// The four corners in the frame: top-left, top-right, bottom-right, bottom-left of the card.
    pub corners: [[f32; 2]; 4],
    /// The box around what shows of the card, `[x0, y0, x1, y1]` (empty when nothing shows).
    #[serde(rename = "box")]
    pub bbox: [f32; 4],
    /// How much of the card shows, 0..1.
    pub visible: f32,
    /// Its two index corners (top-left, then bottom-right); none for a back.
    pub index: Vec<IndexLabel>,
    /// Where it belongs on the table.
    pub role: Role,
}

/// A rendered frame's labels.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FrameLabels {
    /// Frame width.
    pub width: u32,
    /// Frame height.
    pub height: u32,
    /// The design drawn.
    pub design: String,
    /// Every labelled card, in drawing order.
    pub cards: Vec<CardLabel>,
}

/// A frame and its labels.
pub struct Rendered {
    /// The picture (before JPEG compression: save it at `scene.jpeg_quality`).
    pub image: RgbImage,
    /// What is where.
    pub labels: FrameLabels,
}

struct Canvas {
    width: usize,
    height: usize,
    rgb: Vec<[f32; 3]>,
    id: Vec<u16>,
    corner: Vec<u8>,
}

/// A tileable value-noise texture, 0..1, for the table's grain and fibres.
struct NoiseTile {
    size: usize,
    values: Vec<f32>,
}

impl NoiseTile {
    fn new(seed: u64) -> NoiseTile {
        let size = 128;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut values = vec![0.0f32; size * size];
        // Octaves of smoothed lattice noise, tiled.
        let mut amplitude = 0.5;
        for cell in [16usize, 8, 4, 2] {
            let n = size / cell;
            let lattice: Vec<f32> = (0..n * n).map(|_| rng.random::<f32>()).collect();
            for y in 0..size {
                for x in 0..size {
                    let (gx, gy) = (x as f32 / cell as f32, y as f32 / cell as f32);
                    let (x0, y0) = (gx.floor() as usize % n, gy.floor() as usize % n);
                    let (x1, y1) = ((x0 + 1) % n, (y0 + 1) % n);
                    let (fx, fy) = (smooth(gx.fract()), smooth(gy.fract()));
                    let top = lerp(lattice[y0 * n + x0], lattice[y0 * n + x1], fx);
                    let bottom = lerp(lattice[y1 * n + x0], lattice[y1 * n + x1], fx);
                    values[y * size + x] += amplitude * lerp(top, bottom, fy);
                }
            }
            amplitude *= 0.55;
        }
        NoiseTile { size, values }
    }

    /// Bilinear sample at texel coordinates, wrapping (the size is a power of two).
    fn at(&self, x: f32, y: f32) -> f32 {
        let mask = self.size - 1;
        // floor() without the libm call: truncate, then step down for negatives.
        let (ix, iy) = (x as i64 - i64::from(x < 0.0), y as i64 - i64::from(y < 0.0));
        let (fx, fy) = (x - ix as f32, y - iy as f32);
        let (x0, y0) = ((ix as usize) & mask, (iy as usize) & mask);
        let (x1, y1) = ((x0 + 1) & mask, (y0 + 1) & mask);
        let v = |xx: usize, yy: usize| self.values[yy * self.size + xx];
        lerp(
            lerp(v(x0, y0), v(x1, y0), fx),
            lerp(v(x0, y1), v(x1, y1), fx),
            fy,
        )
    }
}

fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [
        lerp(a[0], b[0], t),
        lerp(a[1], b[1], t),
        lerp(a[2], b[2], t),
    ]
}

fn surface_colour(surface: &Surface, noise: &NoiseTile, x: f32, y: f32) -> [f32; 3] {
    match *surface {
        Surface::Felt { colour } => {
            let fibre = noise.at(x * 9.0, y * 9.0) - 0.5;
            let cloud = noise.at(x * 0.7 + 40.0, y * 0.7) - 0.5;
            colour.map(|c| c * (1.0 + 0.35 * fibre + 0.25 * cloud))
        }
        Surface::Wood {
            light,
            dark,
            plank_cm,
        } => {
            let plank = (x / plank_cm).floor();
            let shift = ((plank * 12.9898).sin() * 43_758.547).fract();
            let wobble = noise.at(x * 0.9, y * 0.15 + plank * 31.0) * 6.0;
            let grain = (((x + wobble) * 1.7 + shift * 10.0).sin() * 0.5 + 0.5).powf(2.0);
            let seam = ((x / plank_cm).fract() * plank_cm)
                .min(plank_cm - (x / plank_cm).fract() * plank_cm);
            let base = mix(light, dark, grain * 0.7 + 0.15 * shift);
            let seam_dark = if seam < 0.12 { 0.55 } else { 1.0 };
            base.map(|c| c * seam_dark * (0.92 + 0.16 * noise.at(x * 6.0, y * 0.8)))
        }
        Surface::Cloth { a, b, check_cm } => {
            let weave = 0.5 + 0.25 * ((x * 20.0).sin() * (y * 20.0).sin());
            let base = if check_cm > 0.0
                && ((x / check_cm).floor() + (y / check_cm).floor()).rem_euclid(2.0) >= 1.0
            {
                b
            } else {
                a
            };
            base.map(|c| c * (0.85 + 0.3 * weave) * (0.95 + 0.1 * noise.at(x * 3.0, y * 3.0)))
        }
    }
}

impl Canvas {
    fn new(width: u32, height: u32) -> Canvas {
        let n = (width * height) as usize;
        Canvas {
            width: width as usize,
            height: height as usize,
            rgb: vec![[0.0; 3]; n],
            id: vec![0; n],
            corner: vec![0; n],
        }
    }

    fn fill_table(&mut self, scene: &Scene, noise: &NoiseTile) {
        let wall = [0.12, 0.11, 0.1];
        // Pixels to table: the plane homography inverted, stepped along each row.
        let Some(m) = scene.camera.image_to_plane() else {
            self.rgb.fill(wall);
            return;
        };
        for y in 0..self.height {
            let yc = y as f32 + 0.5;
            let (mut a, mut b, mut w) = (
                m[0] * 0.5 + m[1] * yc + m[2],
                m[3] * 0.5 + m[4] * yc + m[5],
                m[6] * 0.5 + m[7] * yc + m[8],
            );
            for x in 0..self.width {
                let (tx, ty) = (a / w, b / w);
                let on_table = w.abs() > 1e-9
                    && scene.camera.sees_plane_at(x as f32 + 0.5, yc)
                    && tx.abs() < 200.0
                    && ty.abs() < 200.0;
                self.rgb[y * self.width + x] = if on_table {
                    surface_colour(&scene.surface, noise, tx, ty)
                } else {
                    wall
                };
                a += m[0];
                b += m[3];
                w += m[6];
            }
        }
    }

    /// The frame's box around a quad, clipped.
    fn bounds(&self, quad: &[(f32, f32); 4]) -> Option<(usize, usize, usize, usize)> {
        let xs = quad.iter().map(|p| p.0);
        let ys = quad.iter().map(|p| p.1);
        let x0 = xs.clone().fold(f32::MAX, f32::min).floor().max(0.0) as usize;
        let x1 = xs.fold(f32::MIN, f32::max).ceil().min(self.width as f32) as usize;
        let y0 = ys.clone().fold(f32::MAX, f32::min).floor().max(0.0) as usize;
        let y1 = ys.fold(f32::MIN, f32::max).ceil().min(self.height as f32) as usize;
        (x0 < x1 && y0 < y1).then_some((x0, y0, x1, y1))
    }
}

/// The card's four corners on the table (cm), top-left first, clockwise.
fn card_corners(card: &Placed, aspect: f32, offset: [f32; 2]) -> [[f32; 3]; 4] {
    let (h, w) = (CARD_HEIGHT_CM, CARD_HEIGHT_CM * aspect);
    // The card's "up" is the table direction at `angle` from +y.
    let (s, c) = card.angle.sin_cos();
    let up = [s, c];
    let right = [c, -s];
    let at = |u: f32, v: f32| {
        [
            card.center[0] + offset[0] + right[0] * (u - 0.5) * w + up[0] * (0.5 - v) * h,
            card.center[1] + offset[1] + right[1] * (u - 0.5) * w + up[1] * (0.5 - v) * h,
            card.lift,
        ]
    };
    [at(0.0, 0.0), at(1.0, 0.0), at(1.0, 1.0), at(0.0, 1.0)]
}

fn sample(image: &RgbaImage, u: f32, v: f32) -> [f32; 4] {
    let (w, h) = (image.width() as f32, image.height() as f32);
    let (x, y) = (
        (u * w - 0.5).clamp(0.0, w - 1.0),
        (v * h - 0.5).clamp(0.0, h - 1.0),
    );
    let (x0, y0) = (x as u32, y as u32);
    let (x1, y1) = (
        (x0 + 1).min(image.width() - 1),
        (y0 + 1).min(image.height() - 1),
    );
    let (fx, fy) = (x.fract(), y.fract());
    let p = |xx, yy| image.get_pixel(xx, yy).0.map(|c| f32::from(c) / 255.0);
    let (a, b, c, d) = (p(x0, y0), p(x1, y0), p(x0, y1), p(x1, y1));
    std::array::from_fn(|i| lerp(lerp(a[i], b[i], fx), lerp(c[i], d[i], fx), fy))
}

struct Counts {
    pixels: u32,
    corners: [u32; 2],
}

fn draw_card(
    canvas: &mut Canvas,
    scene: &Scene,
    design: &Design,
    card: &Placed,
    number: u16,
    aspect: f32,
) -> Option<([[f32; 2]; 4], Counts)> {
    let project = |corners: [[f32; 3]; 4]| -> Option<[(f32, f32); 4]> {
        let mut out = [(0.0, 0.0); 4];
        for (o, c) in out.iter_mut().zip(corners) {
            *o = scene.camera.project(c)?;
        }
        Some(out)
    };
    let quad = project(card_corners(card, aspect, [0.0, 0.0]))?;
    let unit = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
    let to_card = Projection::from_control_points(quad, unit)?;
    // The shadow: the card's outline moved along the light, soft-edged.
    let (shift, darkness) = scene.light.shadow;
    let lift = 1.0 + card.lift * 4.0;
    let shadow_quad = project(card_corners(
        card,
        aspect,
        [shift[0] * lift, shift[1] * lift],
    ))?;
    if let (Some(to_shadow), Some((x0, y0, x1, y1))) = (
        Projection::from_control_points(shadow_quad, unit),
        canvas
            .bounds(&shadow_quad)
            .map(|(a, b, c, d)| (a.saturating_sub(4), b.saturating_sub(4), c, d)),
    ) {
        let soft = 0.04;
        for y in y0..y1.min(canvas.height) {
            for x in x0..x1.min(canvas.width) {
                let (u, v) = to_shadow * (x as f32 + 0.5, y as f32 + 0.5);
                let outside = (-u).max(u - 1.0).max(-v * aspect).max((v - 1.0) * aspect);
                let cover = (1.0 - (outside + soft) / (2.0 * soft)).clamp(0.0, 1.0);
                if cover > 0.0 {
                    let px = &mut canvas.rgb[y * canvas.width + x];
                    *px = px.map(|c| c * (1.0 - darkness * cover));
                }
            }
        }
    }
    let (x0, y0, x1, y1) = canvas.bounds(&quad)?;
    let drawn_height = (quad[3].1 - quad[0].1).hypot(quad[3].0 - quad[0].0);
    let levels = match card.face {
        Some(face) => design.face_levels(face),
        None => design.back_levels(card.back),
    };
    let level = if drawn_height > levels[0].height() as f32 * 0.75 {
        0
    } else if drawn_height > levels[1].height() as f32 * 0.75 {
        1
    } else {
        2
    };
    let art = &levels[level];
    let index: Option<&IndexBox> = card.face.and(design.index.as_ref());
    let gloss = 1.0 + 0.04 * ((f32::from(number) * 7.31).sin());
    let mut counts = Counts {
        pixels: 0,
        corners: [0; 2],
    };
    for y in y0..y1 {
        for x in x0..x1 {
            let (u, v) = to_card * (x as f32 + 0.5, y as f32 + 0.5);
            if !(0.0..1.0).contains(&u) || !(0.0..1.0).contains(&v) {
                continue;
            }
            let texel = sample(art, u, v);
            let alpha = texel[3];
            if alpha <= 0.0 {
                continue;
            }
            let i = y * canvas.width + x;
            let px = &mut canvas.rgb[i];
            for c in 0..3 {
                // Card stock is a little brighter than the art's sRGB suggests under table light.
                px[c] = px[c] * (1.0 - alpha) + texel[c] * texel[c] * gloss * alpha;
            }
            if alpha > 0.5 {
                canvas.id[i] = number;
                canvas.corner[i] = index.and_then(|b| b.corner_at(u, v)).unwrap_or(0);
                counts.pixels += 1;
                if canvas.corner[i] > 0 {
                    counts.corners[usize::from(canvas.corner[i] - 1)] += 1;
                }
            }
        }
    }
    Some((quad.map(|(x, y)| [x, y]), counts))
}

fn draw_occluder(canvas: &mut Canvas, o: &Occluder) {
    let (w, h) = (canvas.width as f32, canvas.height as f32);
    let (fx, fy, tx, ty) = (o.from[0] * w, o.from[1] * h, o.to[0] * w, o.to[1] * h);
    let width = o.width * w;
    let (dx, dy) = (tx - fx, ty - fy);
    let length = dx.hypot(dy).max(1.0);
    let (ux, uy) = (dx / length, dy / length);
    let hand_r = width * 0.75;
    let x0 = (fx.min(tx) - width * 2.0).max(0.0) as usize;
    let x1 = (fx.max(tx) + width * 2.0).min(w) as usize;
    let y0 = (fy.min(ty) - width * 2.0).max(0.0) as usize;
    let y1 = (fy.max(ty) + width * 2.0).min(h) as usize;
    for y in y0..y1 {
        for x in x0..x1 {
            let (px, py) = (x as f32 + 0.5 - fx, y as f32 + 0.5 - fy);
            let along = px * ux + py * uy;
            let across = (px * -uy + py * ux).abs();
            // The sleeve, up to a hand's length from the end; then the hand, an ellipse.
            let sleeve = along >= 0.0 && along <= length - hand_r && across <= width / 2.0;
            let (hx, hy) = (along - (length - hand_r * 0.2), across);
            let hand = (hx / (hand_r * 1.3)).powi(2) + (hy / (hand_r * 0.75)).powi(2) <= 1.0;
            if sleeve || hand {
                let shade = 0.75 + 0.35 * (1.0 - (across / (width / 2.0)).min(1.0));
                let colour = if hand && !sleeve { o.skin } else { o.sleeve };
                let i = y * canvas.width + x;
                canvas.rgb[i] = colour.map(|c| c * shade);
                canvas.id[i] = OCCLUDER;
                canvas.corner[i] = 0;
            }
        }
    }
}

/// Light, colour and glare, in place on the canvas.
fn light(canvas: &mut Canvas, scene: &Scene) {
    let light = &scene.light;
    let (w, h) = (canvas.width as f32, canvas.height as f32);
    let (gs, gc) = light.gradient.0.sin_cos();
    for y in 0..canvas.height {
        let fy = y as f32 / h;
        for x in 0..canvas.width {
            let fx = x as f32 / w;
            let along = (fx - 0.5) * gc + (fy - 0.5) * gs;
            let r2 = (fx - 0.5).powi(2) + (fy - 0.5).powi(2);
            let gain =
                (light.gain * (1.0 + light.gradient.1 * along) * (1.0 - light.vignette * r2 * 2.0))
                    .max(0.05);
            let mut glare = 0.0;
            for &(centre, radius, strength) in &light.glare {
                let d2 = (fx - centre[0]).powi(2) + ((fy - centre[1]) * h / w).powi(2);
                glare += strength * (-d2 / (2.0 * radius * radius)).exp();
            }
            // Glare is a highlight on the glossy cards; cloth and wood scatter it.
            let i = y * canvas.width + x;
            let sheen = if canvas.id[i] == 0 || canvas.id[i] == OCCLUDER {
                0.15
            } else {
                1.0
            };
            let px = &mut canvas.rgb[i];
            *px = std::array::from_fn(|c| px[c] * gain * light.tint[c] + glare * sheen);
        }
    }
}

/// A separable blur along x then y with the given kernel (odd length).
fn convolve(canvas: &mut Canvas, kernel_x: &[f32], kernel_y: &[f32]) {
    let (w, h) = (canvas.width, canvas.height);
    let mut tmp = vec![[0.0f32; 3]; w * h];
    let pass = |src: &[[f32; 3]], dst: &mut [[f32; 3]], kernel: &[f32], horizontal: bool| {
        let r = (kernel.len() / 2) as isize;
        for y in 0..h {
            for x in 0..w {
                let mut acc = [0.0f32; 3];
                for (k, &weight) in kernel.iter().enumerate() {
                    let d = k as isize - r;
                    let (sx, sy) = if horizontal {
                        ((x as isize + d).clamp(0, w as isize - 1) as usize, y)
                    } else {
                        (x, (y as isize + d).clamp(0, h as isize - 1) as usize)
                    };
                    let p = src[sy * w + sx];
                    (0..3).for_each(|c| acc[c] += weight * p[c]);
                }
                dst[y * w + x] = acc;
            }
        }
    };
    pass(&canvas.rgb, &mut tmp, kernel_x, true);
    pass(&tmp, &mut canvas.rgb, kernel_y, false);
}

fn gaussian_kernel(sigma: f32) -> Vec<f32> {
    let r = (sigma * 2.5).ceil().max(1.0) as i32;
    let k: Vec<f32> = (-r..=r)
        .map(|d| (-(d * d) as f32 / (2.0 * sigma * sigma)).exp())
        .collect();
    let sum: f32 = k.iter().sum();
    k.into_iter().map(|v| v / sum).collect()
}

/// Blur along a line: a box kernel along `angle`, split into its x and y parts
/// (exact for horizontal and vertical motion, a fair stand-in between).
fn motion_kernels(angle: f32, length: f32) -> (Vec<f32>, Vec<f32>) {
    let box_of = |n: f32| {
        let taps = (n.abs().round() as usize / 2) * 2 + 1;
        vec![1.0 / taps as f32; taps]
    };
    (box_of(length * angle.cos()), box_of(length * angle.sin()))
}

/// To 8 bits on a gamma-2 curve, with sensor noise (Irwin–Hall: four uniforms).
fn quantise(canvas: &Canvas, noise: f32, seed: u64) -> RgbImage {
    let mut state = seed | 1;
    // xorshift64*, one draw giving four 16-bit uniforms: fast, and noise needs no more.
    let mut four_uniforms = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let r = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (0..4)
            .map(|k| ((r >> (16 * k)) & 0xFFFF) as f32)
            .sum::<f32>()
            / 65_536.0
    };
    let mut image = RgbImage::new(canvas.width as u32, canvas.height as u32);
    let scale = noise * 1.732;
    for (px, rgb) in image.pixels_mut().zip(&canvas.rgb) {
        px.0 = std::array::from_fn(|c| {
            let n = (four_uniforms() - 2.0) * scale;
            (rgb[c].max(0.0).sqrt() * 255.0 + n + 0.5).clamp(0.0, 255.0) as u8
        });
    }
    image
}

/// Draws the scene with the designs given (`scene.design` indexes them).
pub fn render(scene: &Scene, designs: &[Design]) -> Rendered {
    let design = &designs[scene.design.min(designs.len() - 1)];
    let aspect = design.aspect();
    let cam = &scene.camera;
    let mut canvas = Canvas::new(cam.width, cam.height);
    let noise = NoiseTile::new(scene.seed);
    canvas.fill_table(scene, &noise);
    let mut drawn = Vec::with_capacity(scene.cards.len());
    for (k, card) in scene.cards.iter().enumerate() {
        let number = (k + 1) as u16;
        drawn.push(draw_card(&mut canvas, scene, design, card, number, aspect));
    }
    for o in &scene.occluders {
        draw_occluder(&mut canvas, o);
    }
    let cards = labels(&canvas, scene, design, drawn);
    light(&mut canvas, scene);
    if scene.blur > 0.3 {
        let kernel = gaussian_kernel(scene.blur);
        convolve(&mut canvas, &kernel, &kernel);
    }
    if let Some((angle, length)) = scene.motion {
        let (kx, ky) = motion_kernels(angle, length);
        convolve(&mut canvas, &kx, &ky);
    }
    let image = quantise(&canvas, scene.noise, scene.seed ^ 0x5eed);
    Rendered {
        image,
        labels: FrameLabels {
            width: cam.width,
            height: cam.height,
            design: design.name.clone(),
            cards,
        },
    }
}

/// Each labelled card: its corners, what shows of it (pixels still its own on
/// top, and their box) and of its index corners.
fn labels(
    canvas: &Canvas,
    scene: &Scene,
    design: &Design,
    drawn: Vec<Option<([[f32; 2]; 4], Counts)>>,
) -> Vec<CardLabel> {
    // What shows of each card: pixels still its own, and their box.
    let mut shown = vec![(0u32, [0u32; 2], [u32::MAX, u32::MAX, 0, 0]); scene.cards.len() + 1];
    for (i, (&id, &corner)) in canvas.id.iter().zip(&canvas.corner).enumerate() {
        if id == 0 || id == OCCLUDER {
            continue;
        }
        let (x, y) = ((i % canvas.width) as u32, (i / canvas.width) as u32);
        let entry = &mut shown[usize::from(id)];
        entry.0 += 1;
        if corner > 0 {
            entry.1[usize::from(corner - 1)] += 1;
        }
        entry.2 = [
            entry.2[0].min(x),
            entry.2[1].min(y),
            entry.2[2].max(x + 1),
            entry.2[3].max(y + 1),
        ];
    }
    let mut cards = Vec::new();
    for (k, (card, drawn)) in scene.cards.iter().zip(drawn).enumerate() {
        let Some((corners, counts)) = drawn else {
            continue;
        };
        if !card.labelled || counts.pixels == 0 {
            continue;
        }
        let (visible, corner_visible, bbox) = shown[k + 1];
        let index = match (card.face, design.index) {
            (Some(_), Some(b)) => {
                let to_frame = Projection::from_control_points(
                    [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)],
                    corners.map(|p| (p[0], p[1])),
                );
                let boxes = [
                    (b.u0, b.v0, b.u1, b.v1),
                    (1.0 - b.u1, 1.0 - b.v1, 1.0 - b.u0, 1.0 - b.v0),
                ];
                to_frame
                    .map(|p| {
                        boxes
                            .iter()
                            .enumerate()
                            .map(|(c, &(u0, v0, u1, v1))| {
                                let quad = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)].map(|q| {
                                    let (x, y) = p * q;
                                    [x, y]
                                });
                                IndexLabel {
                                    bbox: quad_box(&quad),
                                    quad,
                                    visible: ratio(corner_visible[c], counts.corners[c]),
                                }
                            })
                            .collect()
                    })
                    .unwrap_or_default()
            }
            _ => Vec::new(),
        };
        cards.push(CardLabel {
            card: card
                .face
                .map_or_else(|| "back".to_owned(), |c| c.to_string()),
            corners,
            bbox: if visible > 0 {
                bbox.map(|v| v as f32)
            } else {
                [0.0; 4]
            },
            visible: ratio(visible, counts.pixels),
            index,
            role: card.role,
        });
    }
    cards
}

fn ratio(part: u32, whole: u32) -> f32 {
    if whole == 0 {
        0.0
    } else {
        (part as f32 / whole as f32).min(1.0)
    }
}

fn quad_box(quad: &[[f32; 2]; 4]) -> [f32; 4] {
    let xs = quad.iter().map(|p| p[0]);
    let ys = quad.iter().map(|p| p[1]);
    [
        xs.clone().fold(f32::MAX, f32::min),
        ys.clone().fold(f32::MAX, f32::min),
        xs.fold(f32::MIN, f32::max),
        ys.fold(f32::MIN, f32::max),
    ]
}

/// The frame as JPEG bytes at the scene's quality.
pub fn jpeg(image: &RgbImage, quality: u8) -> Result<Vec<u8>, image::ImageError> {
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality).encode_image(image)?;
    Ok(bytes)
}

/// A scene for seed `seed` and number `n`, deterministic whatever the thread.
pub fn scene_seed(seed: u64, n: u64) -> u64 {
    // SplitMix64 of the pair: neighbouring numbers get unrelated streams.
    let mut z = seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Layout, random_light};
    use rand::SeedableRng;

    fn designs() -> Vec<Design> {
        crate::art::embedded().expect("embedded art")
    }

    fn scene(seed: u64, designs: &[Design]) -> Scene {
        let backs: Vec<usize> = designs.iter().map(Design::backs).collect();
        let mut rng = StdRng::seed_from_u64(seed);
        crate::scene::random_scene(&mut rng, designs.len(), &backs, 320, 180, seed)
    }

    #[test]
    fn the_same_seed_renders_the_same_frame() {
        let designs = designs();
        let a = render(&scene(7, &designs), &designs);
        let b = render(&scene(7, &designs), &designs);
        assert_eq!(a.image, b.image);
        assert_eq!(a.labels, b.labels);
        let c = render(&scene(8, &designs), &designs);
        assert_ne!(a.image, c.image);
    }

    /// A card lying alone, face up, under a camera straight above: its label
    /// is the whole card, both index corners show, and the pixels there are the card's.
    #[test]
    fn a_lone_card_is_labelled_where_it_is_drawn() {
        let designs = designs();
        let mut rng = StdRng::seed_from_u64(1);
        let layout = Layout::new(2, 0, designs[0].aspect(), 1.0);
        let card: pone_engine::Card = "QH".parse().expect("card");
        let mut placed = layout.place_hand(1, 1, &[(card, true)], 0, &mut rng);
        placed[0].center = [0.0, 0.0];
        placed[0].angle = 0.3;
        let mut light = random_light(&mut rng);
        light.glare.clear();
        let scene = Scene {
            camera: crate::camera::Camera::look_at(
                640,
                480,
                [0.0, 0.0, 40.0],
                [0.0, 0.0, 0.0],
                0.0,
                1.0,
            ),
            surface: Surface::Felt {
                colour: [0.05, 0.3, 0.1],
            },
            light,
            cards: placed,
            occluders: Vec::new(),
            design: 0,
            blur: 0.0,
            motion: None,
            noise: 0.0,
            jpeg_quality: 90,
            seed: 3,
        };
        let rendered = render(&scene, &designs);
        let label = &rendered.labels.cards[0];
        assert_eq!(label.card, "QH");
        assert!(label.visible > 0.99, "{}", label.visible);
        assert_eq!(label.index.len(), 2);
        assert!(label.index.iter().all(|i| i.visible > 0.99));
        // The box holds the corners, and the centre of the box is bright card, not felt.
        let [x0, y0, x1, y1] = label.bbox;
        for c in label.corners {
            assert!(
                c[0] >= x0 - 1.5 && c[0] <= x1 + 1.5 && c[1] >= y0 - 1.5 && c[1] <= y1 + 1.5,
                "{c:?}"
            );
        }
        let (cx, cy) = (f32::midpoint(x0, x1) as u32, f32::midpoint(y0, y1) as u32);
        let felt = rendered.image.get_pixel(5, 5).0;
        let middle = rendered.image.get_pixel(cx, cy).0;
        assert!(
            middle.iter().map(|&v| u32::from(v)).sum::<u32>()
                > felt.iter().map(|&v| u32::from(v)).sum::<u32>() + 150
        );
    }

    #[test]
    fn covered_cards_report_what_shows() {
        let designs = designs();
        let mut partly = 0;
        for seed in 0..12 {
            let rendered = render(&scene(seed, &designs), &designs);
            for card in &rendered.labels.cards {
                assert!((0.0..=1.0).contains(&card.visible));
                assert!(
                    card.card == "back" || card.index.len() == 2,
                    "{}",
                    card.card
                );
                if card.visible > 0.0 {
                    assert!(card.bbox[2] > card.bbox[0] && card.bbox[3] > card.bbox[1]);
                }
                partly += usize::from(card.visible > 0.05 && card.visible < 0.9);
            }
        }
        assert!(partly > 10, "drawn cards overlap: {partly} partly covered");
    }
}

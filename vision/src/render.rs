//! Draws a [`Scene`] into a camera-like frame, with exact labels for every card.
//!
//! Work is in linear floats per pixel; a per-pixel buffer records which card
//! (or hand) is on top and whether that pixel is in the card's index corner,
//! so the labels say exactly how much of each card and each index shows.

use image::{RgbImage, RgbaImage};
use imageproc::geometric_transformations::Projection;

use crate::art::{Design, IndexBox};
use crate::clutter::{Part, Thing};
use crate::scene::{CARD_HEIGHT_CM, Occluder, Placed, Role, Scene};
use crate::texture::{NoiseTile, length, lerp, mix, surface_colour};

/// Side of the pixel blocks a shadow is settled in at once.
const BLOCK: usize = 8;

/// The id buffer's value for a hand or sleeve, or a thing lying over the cards.
const OCCLUDER: u16 = u16::MAX;

/// One index corner of a card in the frame.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
        let at = |x: f32, y: f32| {
            let w = m[6] * x + m[7] * y + m[8];
            (
                (m[0] * x + m[1] * y + m[2]) / w,
                (m[3] * x + m[4] * y + m[5]) / w,
            )
        };
        for y in 0..self.height {
            let yc = y as f32 + 0.5;
            // How much table one pixel spans, measured mid-row: fine texture
            // fades to its mean where it would alias.
            let xm = self.width as f32 / 2.0;
            let (p, px, py) = (at(xm, yc), at(xm + 1.0, yc), at(xm, yc + 1.0));
            let pixel_cm = (p.0 - px.0)
                .hypot(p.1 - px.1)
                .max((p.0 - py.0).hypot(p.1 - py.1))
                .min(50.0);
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
                    surface_colour(&scene.surface.material, noise, tx, ty, pixel_cm)
                } else {
                    wall
                };
                a += m[0];
                b += m[3];
                w += m[6];
            }
        }
    }

    /// The frame's box around any points, clipped.
    fn point_bounds(&self, points: &[(f32, f32)]) -> Option<(usize, usize, usize, usize)> {
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for p in points {
            (x0, y0, x1, y1) = (x0.min(p.0), y0.min(p.1), x1.max(p.0), y1.max(p.1));
        }
        let x0 = x0.floor().max(0.0) as usize;
        let x1 = x1.ceil().min(self.width as f32) as usize;
        let y0 = y0.floor().max(0.0) as usize;
        let y1 = y1.ceil().min(self.height as f32) as usize;
        (x0 < x1 && y0 < y1).then_some((x0, y0, x1, y1))
    }

    /// The frame's box around a quad, clipped.
    fn bounds(&self, quad: &[(f32, f32); 4]) -> Option<(usize, usize, usize, usize)> {
        let [x0, y0, x1, y1] = extent(quad);
        let x0 = x0.max(0.0) as usize;
        let x1 = x1.min(self.width as f32) as usize;
        let y0 = y0.max(0.0) as usize;
        let y1 = y1.min(self.height as f32) as usize;
        (x0 < x1 && y0 < y1).then_some((x0, y0, x1, y1))
    }
}

/// The whole pixels a quad reaches, `[x0, y0, x1, y1]` (ends excluded),
/// on the frame or beyond it.
fn extent(quad: &[(f32, f32); 4]) -> [f32; 4] {
    let xs = quad.iter().map(|p| p.0);
    let ys = quad.iter().map(|p| p.1);
    [
        xs.clone().fold(f32::MAX, f32::min).floor(),
        ys.clone().fold(f32::MAX, f32::min).floor(),
        xs.fold(f32::MIN, f32::max).ceil(),
        ys.fold(f32::MIN, f32::max).ceil(),
    ]
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
    count_off_frame(canvas, quad, to_card, art, index, &mut counts);
    Some((quad.map(|(x, y)| [x, y]), counts))
}

/// Counts the card's pixels beyond the frame's edges into `counts` (they
/// are drawn nowhere): `visible` is the share of the whole card that shows,
/// so a card mostly off the frame is not labelled wholly visible from its
/// sliver.
fn count_off_frame(
    canvas: &Canvas,
    quad: [(f32, f32); 4],
    to_card: Projection,
    art: &RgbaImage,
    index: Option<&IndexBox>,
    counts: &mut Counts,
) {
    let [ox0, oy0, ox1, oy1] = extent(&quad).map(|v| v as i64);
    let (w, h) = (canvas.width as i64, canvas.height as i64);
    // A card seen at a grazing angle can reach far off the frame; what lies
    // beyond a few frames' width of it is not counted.
    let (ox0, ox1) = (ox0.max(-4 * w), ox1.min(5 * w));
    let (oy0, oy1) = (oy0.max(-4 * h), oy1.min(5 * h));
    if ox0 < 0 || oy0 < 0 || ox1 > w || oy1 > h {
        for y in oy0..oy1 {
            for x in ox0..ox1 {
                if (0..w).contains(&x) && (0..h).contains(&y) {
                    continue;
                }
                let (u, v) = to_card * (x as f32 + 0.5, y as f32 + 0.5);
                if !(0.0..1.0).contains(&u)
                    || !(0.0..1.0).contains(&v)
                    || sample(art, u, v)[3] <= 0.5
                {
                    continue;
                }
                counts.pixels += 1;
                if let Some(corner) = index.and_then(|b| b.corner_at(u, v)) {
                    counts.corners[usize::from(corner - 1)] += 1;
                }
            }
        }
    }
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

/// The pixel a local point of a part at height `z` projects to.
fn project_local(scene: &Scene, part: &Part, u: f32, v: f32, z: f32) -> Option<(f32, f32)> {
    let [x, y] = part.to_table(u, v);
    scene.camera.project([x, y, z])
}

/// How the thing's light shadow falls: the offset of the shadow of a point
/// `z` above the table (a card's, lengthened with height), and its softness.
fn shadow_offset(scene: &Scene, z: f32) -> [f32; 2] {
    let (shift, _) = scene.light.shadow;
    let k = 1.0 + 2.5 * z;
    [shift[0] * k, shift[1] * k]
}

/// The soft shadow of a thing on what lies below it: each part's outline
/// swept from the shadow of its foot to that of its top.
fn draw_thing_shadow(canvas: &mut Canvas, scene: &Scene, parts: &[Part], height: f32) {
    let Some(m) = scene.camera.image_to_plane() else {
        return;
    };
    let (_, darkness) = scene.light.shadow;
    let soft = 0.12 + 0.1 * height;
    // Where the shadow can fall: every part's box, shifted, with room for the softness.
    let mut quad_points = Vec::with_capacity(parts.len() * 8);
    for part in parts {
        for z in part.z {
            let o = shadow_offset(scene, z);
            for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                let [x, y] = part.to_table(
                    su * (part.half[0] + soft * 2.0),
                    sv * (part.half[1] + soft * 2.0),
                );
                quad_points.push(scene.camera.project([x + o[0], y + o[1], 0.0]));
            }
        }
    }
    let Some(points) = quad_points.into_iter().collect::<Option<Vec<_>>>() else {
        return;
    };
    let Some((x0, y0, x1, y1)) = canvas.point_bounds(&points) else {
        return;
    };
    let sweeps: Vec<([f32; 2], [f32; 2], usize)> = parts
        .iter()
        .map(|p| {
            let (o0, o1) = (shadow_offset(scene, p.z[0]), shadow_offset(scene, p.z[1]));
            let length = (o1[0] - o0[0]).hypot(o1[1] - o0[1]);
            (o0, o1, ((length / soft).ceil() as usize).min(6))
        })
        .collect();
    let table_at = |xc: f32, yc: f32| {
        let w = m[6] * xc + m[7] * yc + m[8];
        (
            (m[0] * xc + m[1] * yc + m[2]) / w,
            (m[3] * xc + m[4] * yc + m[5]) / w,
        )
    };
    let distance_at = |(tx, ty): (f32, f32)| {
        let mut distance = f32::MAX;
        for (part, &(o0, o1, steps)) in parts.iter().zip(&sweeps) {
            for k in 0..=steps {
                let t = if steps == 0 {
                    1.0
                } else {
                    k as f32 / steps as f32
                };
                let (u, v) = part.to_local(tx - lerp(o0[0], o1[0], t), ty - lerp(o0[1], o1[1], t));
                distance = distance.min(part.distance(u, v, lerp(part.base, 1.0, t)));
            }
        }
        distance
    };
    let cover_of = |distance: f32| ((soft - distance) / (2.0 * soft)).clamp(0.0, 1.0);
    let sees = |x: usize, y: usize| scene.camera.sees_plane_at(x as f32, y as f32);
    // In blocks: the distance changes no faster than the table under the
    // block, so one look at its middle settles most blocks (all in the
    // shadow, or all out of it) without visiting their pixels.
    for by in (y0..y1).step_by(BLOCK) {
        let ey = (by + BLOCK).min(y1);
        for bx in (x0..x1).step_by(BLOCK) {
            let ex = (bx + BLOCK).min(x1);
            let mut uniform = None;
            if sees(bx, by) && sees(ex, by) && sees(bx, ey) && sees(ex, ey) {
                let centre = table_at((bx + ex) as f32 / 2.0, (by + ey) as f32 / 2.0);
                let span = [(bx, by), (ex, by), (bx, ey), (ex, ey)]
                    .iter()
                    .map(|&(x, y)| {
                        let p = table_at(x as f32, y as f32);
                        length(p.0 - centre.0, p.1 - centre.1)
                    })
                    .fold(0.0, f32::max);
                let distance = distance_at(centre);
                if distance - span >= soft {
                    uniform = Some(0.0);
                } else if distance + span <= -soft {
                    uniform = Some(1.0);
                }
            }
            if uniform.is_some_and(|cover: f32| cover <= 0.0) {
                continue;
            }
            for y in by..ey {
                let yc = y as f32 + 0.5;
                for x in bx..ex {
                    let xc = x as f32 + 0.5;
                    let cover = match uniform {
                        Some(cover) => cover,
                        None if scene.camera.sees_plane_at(xc, yc) => {
                            cover_of(distance_at(table_at(xc, yc)))
                        }
                        None => 0.0,
                    };
                    if cover > 0.0 {
                        let px = &mut canvas.rgb[y * canvas.width + x];
                        *px = px.map(|c| c * (1.0 - darkness * cover));
                    }
                }
            }
        }
    }
}

/// The convex hull of points (Andrew's monotone chain), counter-clockwise
/// in image coordinates (y down).
fn convex_hull(mut points: Vec<(f32, f32)>) -> Vec<(f32, f32)> {
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let cross = |o: (f32, f32), a: (f32, f32), b: (f32, f32)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(f32, f32)> = Vec::with_capacity(points.len() * 2);
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &(f32, f32)>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for &p in ordered {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Paints `colour` where the convex polygon `hull` covers a pixel, edges
/// antialiased; marks the pixels as covering cards when `over` is set.
fn fill_hull(canvas: &mut Canvas, hull: &[(f32, f32)], colour: [f32; 3], over: bool) {
    if hull.len() < 3 {
        return;
    }
    let Some((x0, y0, x1, y1)) = canvas.point_bounds(hull) else {
        return;
    };
    // Each edge as a line a x + b y + c, positive inside, in pixels.
    let edges: Vec<[f32; 3]> = hull
        .iter()
        .zip(hull.iter().cycle().skip(1))
        .map(|(&p, &q)| {
            let (dx, dy) = (q.0 - p.0, q.1 - p.1);
            let n = dx.hypot(dy).max(1e-6);
            let (a, b) = (dy / n, -dx / n);
            [a, b, -(a * p.0 + b * p.1)]
        })
        .collect();
    // The hull's winding decides which side is inside.
    let area: f32 = hull
        .iter()
        .zip(hull.iter().cycle().skip(1))
        .map(|(p, q)| p.0 * q.1 - q.0 * p.1)
        .sum();
    let sign = if area > 0.0 { -1.0 } else { 1.0 };
    for y in y0..y1 {
        let yc = y as f32 + 0.5;
        for x in x0..x1 {
            let xc = x as f32 + 0.5;
            let mut inside = f32::MAX;
            for e in &edges {
                inside = inside.min(sign * (e[0] * xc + e[1] * yc + e[2]));
                if inside < -0.5 {
                    break;
                }
            }
            let cover = (inside + 0.5).clamp(0.0, 1.0);
            if cover <= 0.0 {
                continue;
            }
            let i = y * canvas.width + x;
            canvas.rgb[i] = mix(canvas.rgb[i], colour, cover);
            if over && cover > 0.5 {
                canvas.id[i] = OCCLUDER;
                canvas.corner[i] = 0;
            }
        }
    }
}

/// Draws a thing lying on the table: its shadow, then each part's sides (the
/// hull of its foot and its top) and its top face, shaded by the thing. A
/// thing over the cards marks what it covers, so the cards' labels say what
/// still shows.
fn draw_thing(canvas: &mut Canvas, scene: &Scene, thing: &Thing, noise: &NoiseTile) {
    let parts = thing.parts();
    draw_thing_shadow(canvas, scene, &parts, thing.height);
    let over = thing.over_cards;
    for (k, part) in parts.iter().enumerate() {
        let [z0, z1] = part.z;
        if z1 - z0 > 0.12 {
            let outline: Option<Vec<(f32, f32)>> = part
                .outline(24, part.base)
                .map(|(u, v)| project_local(scene, part, u, v, z0))
                .chain(
                    part.outline(24, 1.0)
                        .map(|(u, v)| project_local(scene, part, u, v, z1)),
                )
                .collect();
            if let Some(points) = outline {
                fill_hull(canvas, &convex_hull(points), thing.side(k), over);
            }
        }
        let [hu, hv] = part.half;
        let local = [(-hu, hv), (hu, hv), (hu, -hv), (-hu, -hv)];
        let projected: Option<Vec<(f32, f32)>> = local
            .iter()
            .map(|&(u, v)| project_local(scene, part, u, v, z1))
            .collect();
        let Some(projected) = projected else {
            continue;
        };
        let quad = [projected[0], projected[1], projected[2], projected[3]];
        let (Some(to_local), Some((x0, y0, x1, y1))) = (
            Projection::from_control_points(quad, local),
            canvas.bounds(&quad),
        ) else {
            continue;
        };
        // How much of the thing one pixel spans, at its middle.
        let pixel_cm = match (
            project_local(scene, part, 0.0, 0.0, z1),
            project_local(scene, part, 1.0, 0.0, z1),
            project_local(scene, part, 0.0, 1.0, z1),
        ) {
            (Some(c), Some(a), Some(b)) => {
                1.0 / (c.0 - a.0)
                    .hypot(c.1 - a.1)
                    .min((c.0 - b.0).hypot(c.1 - b.1))
                    .max(1e-3)
            }
            _ => 1.0,
        };
        for y in y0..y1 {
            for x in x0..x1 {
                let (u, v) = to_local * (x as f32 + 0.5, y as f32 + 0.5);
                let cover = (0.5 - part.distance(u, v, 1.0) / pixel_cm).clamp(0.0, 1.0);
                if cover <= 0.0 {
                    continue;
                }
                let i = y * canvas.width + x;
                let colour = thing.top(k, u, v, pixel_cm, noise);
                canvas.rgb[i] = mix(canvas.rgb[i], colour, cover);
                if over && cover > 0.5 {
                    canvas.id[i] = OCCLUDER;
                    canvas.corner[i] = 0;
                }
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
            let pool = light.pool.map_or(1.0, |(centre, radius, strength)| {
                // A lamp's light falls off with distance from under it.
                let d2 = (fx - centre[0]).powi(2) + ((fy - centre[1]) * h / w).powi(2);
                let near = 1.0 / (1.0 + d2 / (radius * radius));
                1.0 - strength + strength * 1.5 * near * near
            });
            let gain = (light.gain
                * (1.0 + light.gradient.1 * along)
                * (1.0 - light.vignette * r2 * 2.0)
                * pool)
                .max(0.05);
            let mut glare = 0.0;
            for &(centre, radius, strength) in &light.glare {
                let d2 = (fx - centre[0]).powi(2) + ((fy - centre[1]) * h / w).powi(2);
                // Past five radii the spot adds nothing 8-bit output can show.
                if d2 < 25.0 * radius * radius {
                    glare += strength * (-d2 / (2.0 * radius * radius)).exp();
                }
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
    let noise = NoiseTile::new(scene.table_seed);
    canvas.fill_table(scene, &noise);
    let mut drawn = Vec::with_capacity(scene.cards.len());
    let (over, under): (Vec<&Thing>, Vec<&Thing>) =
        scene.surface.things.iter().partition(|t| t.over_cards);
    for thing in under {
        draw_thing(&mut canvas, scene, thing, &noise);
    }
    for (k, card) in scene.cards.iter().enumerate() {
        let number = (k + 1) as u16;
        drawn.push(draw_card(&mut canvas, scene, design, card, number, aspect));
    }
    for thing in over {
        draw_thing(&mut canvas, scene, thing, &noise);
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
    use crate::scene::{Layout, Material, Surface, random_light};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

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

    /// The queen of hearts alone, face up, turned `angle`, under a camera
    /// straight above, on plain felt.
    fn lone_card(designs: &[Design], angle: f32) -> Scene {
        let mut rng = StdRng::seed_from_u64(1);
        let layout = Layout::new(2, 0, designs[0].aspect(), 1.0);
        let card: pone_engine::Card = "QH".parse().expect("card");
        let mut placed = layout.place_hand(1, 1, &[(card, true)], 0, &mut rng);
        placed[0].center = [0.0, 0.0];
        placed[0].angle = angle;
        let mut light = random_light(&mut rng);
        light.glare.clear();
        light.pool = None;
        Scene {
            camera: crate::camera::Camera::look_at(
                640,
                480,
                [0.0, 0.0, 40.0],
                [0.0, 0.0, 0.0],
                0.0,
                1.0,
            ),
            surface: Surface {
                material: Material::Felt {
                    colour: [0.05, 0.3, 0.1],
                },
                things: Vec::new(),
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
            table_seed: 3,
        }
    }

    /// A card lying alone, face up, under a camera straight above: its label
    /// is the whole card, both index corners show, and the pixels there are the card's.
    #[test]
    fn a_lone_card_is_labelled_where_it_is_drawn() {
        let designs = designs();
        let scene = lone_card(&designs, 0.3);
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

    /// A sheet of paper over the left half of a card hides that half and
    /// its top-left index; one under the right half hides nothing.
    #[test]
    fn paper_over_a_card_hides_what_it_covers_and_paper_under_it_nothing() {
        let designs = designs();
        let mut scene = lone_card(&designs, 0.0);
        let mut rng = StdRng::seed_from_u64(2);
        let sheet = |rng: &mut StdRng, x: f32, over: bool| {
            let mut thing = crate::clutter::random_thing(rng, [x, 0.0], over);
            thing.kind = crate::clutter::Kind::Paper { handwritten: false };
            thing.size = [21.0, 29.7];
            thing.height = 0.01;
            thing.angle = 0.0;
            thing.colour = [0.9, 0.9, 0.88];
            thing
        };
        scene.surface.things = vec![sheet(&mut rng, 10.5, false), sheet(&mut rng, -10.5, true)];
        let rendered = render(&scene, &designs);
        let label = &rendered.labels.cards[0];
        assert!((label.visible - 0.5).abs() < 0.03, "{}", label.visible);
        assert!(label.index[0].visible < 0.01, "{:?}", label.index[0]);
        assert!(label.index[1].visible > 0.99, "{:?}", label.index[1]);
        // What shows starts at the paper's edge, the middle of the frame.
        assert!((label.bbox[0] - 320.0).abs() < 2.0, "{:?}", label.bbox);
        // The paper over the card is white: left of the middle is bright.
        let left = rendered.image.get_pixel(300, 240).0;
        assert!(left.iter().all(|&c| c > 150), "{left:?}");
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

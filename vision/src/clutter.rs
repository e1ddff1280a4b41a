//! Things lying on the table besides the cards: sheets of printed paper,
//! notebooks, books, business cards, sticky notes, printed pictures, coins,
//! bowls, mugs, pens, phones and cables, and (dressed with real photos,
//! [`crate::photos`]) boxes and stones. They teach a card finder what is not
//! a card: a white rectangle with lines of text, a book's corner, a phone.
//!
//! A [`Thing`] is plain data, made by [`random_things`]. What a thing looks
//! like is here too, in its own centimetres: its parts (rounded boxes the
//! renderer draws as solids) and the colour of its top at a point, so the
//! renderer needs to know nothing about paper or mugs.

use std::f32::consts::TAU;

use rand::Rng;

use crate::scene::{CARD_HEIGHT_CM, Placed};
use crate::texture::{NoiseTile, detail, floor_i, hash2, length, lerp, mix, scale, unit, wave};

/// What a thing is, and what only that kind needs.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "is", rename_all = "snake_case")]
pub enum Kind {
    /// A sheet of paper, printed or written on.
    Paper {
        /// Handwriting rather than print.
        handwritten: bool,
    },
    /// A notebook, closed (a cover with a label) or open (two ruled pages).
    Notebook {
        /// Lying open.
        open: bool,
    },
    /// A closed book: a coloured cover with a title.
    Book,
    /// A business card: card-sized, white, a few lines of text, no index.
    BusinessCard,
    /// A square sticky note with a scribble.
    StickyNote,
    /// A printed photograph: colourful blobs, a white border or none.
    Picture {
        /// Border width, centimetres (0: none).
        border: f32,
        /// What the picture shows.
        blobs: Vec<Blob>,
        /// A real photo it shows instead (`pone synth --photos`).
        #[serde(skip_serializing_if = "Option::is_none")]
        photo: Option<crate::scene::PhotoTop>,
    },
    /// A coin.
    Coin,
    /// A bowl seen from above: narrower at its foot.
    Bowl,
    /// A mug with a handle, coffee in it or not.
    Mug {
        /// Full of coffee.
        full: bool,
    },
    /// A pen or a pencil.
    Pen {
        /// A hexagonal yellow pencil rather than a pen.
        pencil: bool,
    },
    /// A phone, screen up (dark or lit) or face down.
    Phone {
        /// Lying on its screen.
        face_down: bool,
        /// The screen is on.
        lit: bool,
    },
    /// A cable lying in loose curves.
    Cable {
        /// The points it passes through, table centimetres.
        path: Vec<[f32; 2]>,
    },
    /// A box standing on the table (a game's, a tea tin, a shoe box), its
    /// lid printed with a real photo or covered in a real texture
    /// (`pone synth --photos` only).
    Carton {
        /// What its lid shows: a print filling it (`tile_cm` 0) or a
        /// texture repeated every `tile_cm`.
        photo: crate::scene::PhotoTop,
    },
    /// A stone, a pine cone, a ball of wool: a rounded lump whose surface
    /// is a real texture, lit from above (`pone synth --photos` only).
    Lump {
        /// Its surface, repeated every `tile_cm`.
        photo: crate::scene::PhotoTop,
    },
}

/// A soft round patch of colour in a picture.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Blob {
    /// Centre, fractions of the picture.
    pub at: [f32; 2],
    /// Radius, fraction of the picture's width.
    pub radius: f32,
    /// Linear RGB 0..1.
    pub colour: [f32; 3],
}

/// One thing on the table.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Thing {
    /// What it is.
    pub kind: Kind,
    /// Centre on the table, centimetres.
    pub center: [f32; 2],
    /// Turn of its own "up" from the table's y axis, radians (as a card's).
    pub angle: f32,
    /// Width and length of its top, centimetres.
    pub size: [f32; 2],
    /// Height above the table, centimetres.
    pub height: f32,
    /// Its main colour (paper, cover, body), linear RGB 0..1.
    pub colour: [f32; 3],
    /// A second colour (ink, title, cap), linear RGB 0..1.
    pub accent: [f32; 3],
    /// Lying over the cards (drawn after them, hiding them) rather than under.
    pub over_cards: bool,
    /// Seed of its print: the words, the scribbles.
    pub seed: u32,
}

/// A rounded box, the shape the renderer draws: a rounded rectangle at the
/// top, `base` times as large at the foot.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Part {
    /// Centre on the table, centimetres.
    pub center: [f32; 2],
    /// Sine and cosine of the turn of its "up" from the table's y axis.
    pub turn: [f32; 2],
    /// Half width and half length of its top.
    pub half: [f32; 2],
    /// Corner radius of its top.
    pub radius: f32,
    /// Size of its foot against its top.
    pub base: f32,
    /// Heights of its foot and its top above the table.
    pub z: [f32; 2],
}

impl Part {
    /// Signed distance from local point (u, v) to the outline scaled by `scale`
    /// (negative inside), centimetres.
    #[inline]
    pub fn distance(&self, u: f32, v: f32, scale: f32) -> f32 {
        let r = self.radius * scale;
        let qx = u.abs() - (self.half[0] * scale - r);
        let qy = v.abs() - (self.half[1] * scale - r);
        let (ox, oy) = (qx.max(0.0), qy.max(0.0));
        let outside = (ox * ox + oy * oy).sqrt();
        outside + qx.max(qy).min(0.0) - r
    }

    /// Table point of local (u, v), centimetres.
    #[inline]
    pub fn to_table(&self, u: f32, v: f32) -> [f32; 2] {
        let [s, c] = self.turn;
        [
            self.center[0] + c * u + s * v,
            self.center[1] - s * u + c * v,
        ]
    }

    /// Local (u, v) of a table point.
    #[inline]
    pub fn to_local(&self, x: f32, y: f32) -> (f32, f32) {
        let [s, c] = self.turn;
        let (dx, dy) = (x - self.center[0], y - self.center[1]);
        (c * dx - s * dy, s * dx + c * dy)
    }

    /// `n` points round the outline scaled by `scale`, local centimetres.
    pub fn outline(&self, n: usize, scale: f32) -> impl Iterator<Item = (f32, f32)> + '_ {
        let r = self.radius * scale;
        let (hx, hy) = (self.half[0] * scale - r, self.half[1] * scale - r);
        (0..n).map(move |k| {
            let (s, c) = (k as f32 * TAU / n as f32 + 0.01).sin_cos();
            (hx.copysign(c) + r * c, hy.copysign(s) + r * s)
        })
    }
}

impl Thing {
    /// The rounded boxes it is made of, drawn in order.
    pub(crate) fn parts(&self) -> Vec<Part> {
        let half = [self.size[0] / 2.0, self.size[1] / 2.0];
        let (s, c) = self.angle.sin_cos();
        let one = |radius: f32, base: f32| Part {
            center: self.center,
            turn: [s, c],
            half,
            radius: radius.min(half[0]).min(half[1]),
            base,
            z: [0.0, self.height],
        };
        match &self.kind {
            Kind::Paper { .. } | Kind::Picture { .. } | Kind::Notebook { .. } | Kind::Book => {
                vec![one(0.08, 1.0)]
            }
            Kind::BusinessCard | Kind::StickyNote => vec![one(0.12, 1.0)],
            Kind::Coin | Kind::Pen { .. } => vec![one(half[0], 1.0)],
            Kind::Bowl => vec![one(half[0], 0.6)],
            Kind::Phone { .. } => vec![one(0.9, 1.0)],
            Kind::Carton { .. } => vec![one(0.3, 1.0)],
            Kind::Lump { .. } => vec![one(half[0], 0.7)],
            Kind::Mug { .. } => {
                let body = one(half[0], 1.0);
                // The handle sticks out sideways, halfway up.
                let out = body.to_table(half[0] + 1.0, 0.0);
                let handle = Part {
                    center: out,
                    turn: [s, c],
                    half: [1.5, 0.55],
                    radius: 0.5,
                    base: 1.0,
                    z: [self.height * 0.3, self.height * 0.75],
                };
                vec![handle, body]
            }
            Kind::Cable { path } => {
                let r = self.size[0] / 2.0;
                path.windows(2)
                    .map(|pair| {
                        let (a, b) = (pair[0], pair[1]);
                        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
                        let length = dx.hypot(dy).max(1e-3);
                        Part {
                            center: [f32::midpoint(a[0], b[0]), f32::midpoint(a[1], b[1])],
                            turn: [dx / length, dy / length],
                            half: [r, length / 2.0 + r],
                            radius: r,
                            base: 1.0,
                            z: [0.0, self.height],
                        }
                    })
                    .collect()
            }
        }
    }

    /// The colour of the sides of part `part` (page edges, a mug's outside).
    pub(crate) fn side(&self, part: usize) -> [f32; 3] {
        match self.kind {
            Kind::Book | Kind::Notebook { .. } => [0.72, 0.68, 0.56],
            Kind::StickyNote => scale(self.colour, 0.85),
            Kind::Phone { .. } => scale(self.accent, 0.7),
            Kind::Mug { .. } if part == 0 => scale(self.colour, 0.6),
            Kind::Lump { .. } => scale(self.colour, 0.45),
            _ => scale(self.colour, 0.62),
        }
    }

    /// The colour of the top of part `part` at local (u, v) centimetres, for
    /// a pixel `pixel_cm` across.
    pub(crate) fn top(
        &self,
        part: usize,
        u: f32,
        v: f32,
        pixel_cm: f32,
        noise: &NoiseTile,
    ) -> [f32; 3] {
        let at = Spot {
            u,
            v,
            hw: self.size[0] / 2.0,
            hl: self.size[1] / 2.0,
            pixel_cm,
            grain: 0.96 + 0.08 * noise.at(u * 5.0 + 7.0, v * 5.0),
        };
        match &self.kind {
            Kind::Paper { handwritten } => self.paper(&at, *handwritten),
            Kind::Notebook { open: true } => self.open_notebook(&at),
            Kind::Notebook { open: false } => self.closed_notebook(&at),
            Kind::Book => self.book(&at),
            Kind::BusinessCard => self.business_card(&at),
            Kind::StickyNote => self.sticky_note(&at),
            Kind::Picture {
                border,
                blobs,
                photo,
            } => self.picture(&at, *border, blobs, photo.as_ref()),
            Kind::Coin => self.coin(&at, noise),
            Kind::Bowl => self.bowl(&at),
            Kind::Mug { full } => self.mug(&at, part, *full),
            Kind::Pen { pencil } => self.pen(&at, *pencil),
            Kind::Phone {
                face_down: true, ..
            } => self.phone_back(&at),
            Kind::Phone { lit, .. } => self.phone_screen(&at, *lit),
            Kind::Cable { .. } => self.cable(&at),
            Kind::Carton { photo } => carton(&at, photo),
            Kind::Lump { photo } => lump(&at, photo),
        }
    }

    /// A sheet: print or handwriting inside the margins.
    fn paper(&self, at: &Spot, handwritten: bool) -> [f32; 3] {
        let Spot {
            u,
            v,
            hw,
            hl,
            pixel_cm,
            grain,
        } = *at;
        let area = [-hw + 1.8, -hl + 2.0, hw - 1.8, hl - 2.0];
        let ink = if handwritten {
            scribble(u, v, area, 0.75, self.seed, pixel_cm)
        } else {
            print(u, v, area, 0.5, 0.19, self.seed, pixel_cm)
        };
        mix(scale(self.colour, grain), self.accent, ink * 0.9)
    }

    /// Two ruled pages with a margin line and a scribble, the spiral down the middle.
    fn open_notebook(&self, at: &Spot) -> [f32; 3] {
        let Spot {
            u,
            v,
            hw,
            hl,
            pixel_cm,
            grain,
        } = *at;
        // Two ruled pages, the spiral down the middle.
        let page_u = if u < 0.0 { u + hw / 2.0 } else { u - hw / 2.0 };
        let spiral = u.abs() < 0.45 && wave(v / 0.8) > 0.0;
        if spiral {
            return scale([0.5, 0.5, 0.52], 0.6 + 0.4 * (1.0 - u.abs() / 0.45));
        }
        let paper = scale(
            self.colour,
            grain * (0.85 + 0.15 * (u.abs() / 2.0).min(1.0)),
        );
        let rule = ruled(v, 0.7, pixel_cm);
        let mut c = mix(paper, [0.35, 0.5, 0.8], rule * 0.6);
        if (page_u + hw / 2.0 - 2.2).abs() < 0.04 + pixel_cm * 0.3 {
            c = mix(c, [0.8, 0.25, 0.25], 0.6);
        }
        let area = [-hw / 2.0 + 2.5, -hl + 1.5, hw / 2.0 - 1.0, hl - 2.0];
        let ink = scribble(page_u, v - 0.35, area, 0.7, self.seed, pixel_cm);
        mix(c, self.accent, ink * 0.85)
    }

    /// A cover with a white label, the spiral down its left edge.
    fn closed_notebook(&self, at: &Spot) -> [f32; 3] {
        let Spot {
            u,
            v,
            hw,
            hl,
            pixel_cm,
            grain,
        } = *at;
        if u < -hw + 1.0 {
            let ring = wave(v / 0.8) > 0.1;
            return if ring {
                scale([0.55, 0.55, 0.58], 0.85 + 0.15 * wave(u + hw))
            } else {
                scale(self.colour, 0.5)
            };
        }
        let label = u.abs() < hw * 0.55 && (v - hl * 0.35).abs() < hl * 0.15;
        if label {
            let area = [-hw * 0.5, hl * 0.22, hw * 0.5, hl * 0.48];
            let ink = print(u, v, area, 0.8, 0.3, self.seed, pixel_cm);
            mix([0.85, 0.84, 0.8], [0.03, 0.03, 0.05], ink)
        } else {
            scale(self.colour, grain)
        }
    }

    /// A cover with a title, an author and now and then a picture.
    fn book(&self, at: &Spot) -> [f32; 3] {
        let Spot {
            u,
            v,
            hw,
            hl,
            pixel_cm,
            grain,
        } = *at;
        let hinge = if (u + hw - 0.8).abs() < 0.12 {
            0.65
        } else {
            1.0
        };
        let mut c = scale(self.colour, grain * hinge);
        let title = [-hw + 1.8, hl * 0.25, hw - 1.2, hl * 0.75];
        let ink = print(u, v, title, 1.3, 0.7, self.seed, pixel_cm);
        c = mix(c, self.accent, ink);
        let author = [-hw + 2.5, -hl + 1.5, hw - 2.0, -hl + 2.8];
        let ink = print(u, v, author, 0.8, 0.4, self.seed ^ 0x4d, pixel_cm);
        c = mix(c, self.accent, ink * 0.8);
        if self.seed.is_multiple_of(3) {
            // A picture on the cover.
            let (du, dv) = (u / (hw * 0.6), (v + hl * 0.15) / (hl * 0.28));
            let d = du * du + dv * dv;
            if d < 1.0 {
                c = mix(c, scale(self.accent, 0.6), 0.8 * (1.0 - d).sqrt().min(1.0));
            }
        }
        c
    }

    /// White card stock with a logo, a name and a few small lines.
    fn business_card(&self, at: &Spot) -> [f32; 3] {
        let Spot {
            u,
            v,
            hw,
            hl,
            pixel_cm,
            grain,
        } = *at;
        let mut c = scale(self.colour, grain);
        let logo = length(u + hw * 0.62, v - hl * 0.35) < 0.7;
        if logo {
            return self.accent;
        }
        let name = [-hw * 0.2, hl * 0.05, hw - 0.8, hl * 0.5];
        let ink = print(u, v, name, 0.75, 0.28, self.seed, pixel_cm);
        c = mix(c, [0.05, 0.05, 0.07], ink);
        let lines = [-hw + 0.8, -hl + 0.6, hw - 1.2, -hl * 0.15];
        let ink = print(u, v, lines, 0.42, 0.16, self.seed ^ 5, pixel_cm);
        mix(c, [0.15, 0.15, 0.18], ink * 0.8)
    }

    /// A coloured square with a scribble, curling up a little at the top.
    fn sticky_note(&self, at: &Spot) -> [f32; 3] {
        let Spot {
            u,
            v,
            hw,
            hl,
            pixel_cm,
            grain,
        } = *at;
        let curl = 1.0 + 0.08 * (v / hl);
        let area = [-hw + 0.6, -hl + 0.8, hw - 0.6, hl - 1.4];
        let ink = scribble(u, v, area, 1.1, self.seed, pixel_cm);
        mix(scale(self.colour, grain * curl), self.accent, ink * 0.85)
    }

    /// A photograph: a real photo (`pone synth --photos`) or soft blobs of
    /// colour over a gradient, a white border or none.
    fn picture(
        &self,
        at: &Spot,
        border: f32,
        blobs: &[Blob],
        photo: Option<&crate::scene::PhotoTop>,
    ) -> [f32; 3] {
        let Spot {
            u,
            v,
            hw,
            hl,
            pixel_cm,
            grain,
        } = *at;
        let [w, l] = self.size;
        if u.abs() > hw - border || v.abs() > hl - border {
            return scale([0.86, 0.86, 0.84], grain);
        }
        if let Some(p) = photo {
            let colour = photo_print(p, u, v, hw - border, hl - border, pixel_cm);
            return scale(colour, 0.95 + 0.05 * grain);
        }
        let (fx, fy) = ((u + hw) / w, (v + hl) / l);
        let mut c = mix(self.colour, self.accent, fy);
        for blob in blobs {
            let (dx, dy) = (fx - blob.at[0], (fy - blob.at[1]) * l / w);
            let t = 1.0 - (dx * dx + dy * dy) / (blob.radius * blob.radius);
            if t > 0.0 {
                c = mix(c, blob.colour, (t * 2.0).min(1.0));
            }
        }
        scale(c, 0.95 + 0.05 * grain)
    }

    /// Metal with a raised rim and worn relief, lit from one side.
    fn coin(&self, at: &Spot, noise: &NoiseTile) -> [f32; 3] {
        let Spot { u, v, hw, .. } = *at;
        let r = length(u, v) / hw;
        let rim = if r > 0.86 { 1.15 } else { 1.0 };
        let relief = 0.85 + 0.3 * noise.at(u * 6.0 + 3.0, v * 6.0);
        let sheen = 0.8 + 0.35 * ((u - v) / hw).clamp(-1.0, 1.0);
        scale(self.colour, rim * relief * sheen)
    }

    /// The rim, then the inside falling away to the foot ring.
    fn bowl(&self, at: &Spot) -> [f32; 3] {
        let Spot {
            u, v, hw, grain, ..
        } = *at;
        let r = length(u, v) / hw;
        if r > 0.92 {
            return scale(self.colour, 1.1);
        }
        // The inside: a flat bottom, then the wall curving up to the rim,
        // lit where it faces the light and shadowed where it turns away.
        let wall = ((r - 0.4) / 0.52).clamp(0.0, 1.0);
        let facing = (u + v) / (hw * r.max(1e-3) * std::f32::consts::SQRT_2);
        let rim = if r > 0.86 { 1.1 } else { 1.0 };
        let shade = 0.8 + wall * (0.45 * facing - 0.05) + 0.05 * (1.0 - wall);
        scale(self.colour, shade * rim * grain)
    }

    /// The handle (part 0), or the rim round coffee or an empty inside.
    fn mug(&self, at: &Spot, part: usize, full: bool) -> [f32; 3] {
        let Spot { u, v, hw, .. } = *at;
        if part == 0 {
            return scale(self.colour, 0.85 + 0.15 * wave(v / 2.0));
        }
        let r = length(u, v) / hw;
        if r > 0.88 {
            scale(self.colour, 1.05)
        } else if full {
            let ring = if r > 0.8 { 0.7 } else { 1.0 };
            scale(
                [0.09, 0.045, 0.02],
                ring * (1.0 + 0.4 * ((u + v) / hw).max(0.0)),
            )
        } else {
            scale(self.colour, 0.45 + 0.3 * ((u + v) / hw).clamp(-1.0, 1.0))
        }
    }

    /// A round pen with its cap and tip, or a hexagonal pencil with its point.
    fn pen(&self, at: &Spot, pencil: bool) -> [f32; 3] {
        let Spot { u, v, hw, hl, .. } = *at;
        let across = (u / hw).clamp(-1.0, 1.0);
        let round = if pencil {
            // Hexagonal: three flat faces.
            [0.8, 1.0, 0.7][((across + 1.0) * 1.5).min(2.0) as usize]
        } else {
            0.55 + 0.45 * (1.0 - across * across).sqrt()
                + 0.3 * (-(across + 0.3).powi(2) * 30.0).exp()
        };
        let tip = hl - v;
        let colour = if tip < 0.6 {
            if pencil {
                [0.05, 0.05, 0.05]
            } else {
                [0.55, 0.55, 0.55]
            }
        } else if tip < 2.0 {
            if pencil {
                [0.75, 0.55, 0.35]
            } else {
                self.accent
            }
        } else if !pencil && v < -hl + 5.0 && v > -hl + 0.3 {
            self.accent
        } else {
            self.colour
        };
        scale(colour, round)
    }

    /// The back of a phone: its camera block in a corner.
    fn phone_back(&self, at: &Spot) -> [f32; 3] {
        let Spot { u, v, hw, hl, .. } = *at;
        let (du, dv) = (u + hw - 2.0, v - hl + 2.0);
        if du.abs() < 1.5 && dv.abs() < 1.5 {
            let lens = length(du - 0.6, dv - 0.6).min(length(du - 0.6, dv + 0.6));
            if lens < 0.45 {
                return [0.01, 0.01, 0.015];
            }
            return scale(self.colour, 0.7);
        }
        scale(self.colour, 0.9 + 0.15 * ((u + v) / (hw + hl)))
    }

    /// A phone screen up: a bezel round black glass, or a lit lock screen.
    fn phone_screen(&self, at: &Spot, lit: bool) -> [f32; 3] {
        let Spot {
            u,
            v,
            hw,
            hl,
            pixel_cm,
            ..
        } = *at;
        let [_, l] = self.size;
        let bezel = 0.25;
        if u.abs() > hw - bezel || v.abs() > hl - bezel {
            return scale(self.accent, 0.8);
        }
        if lit {
            let c = mix(self.colour, [0.2, 0.05, 0.3], (v + hl) / l);
            let area = [-hw + 1.5, hl * 0.45, hw - 1.5, hl * 0.75];
            let ink = print(u, v, area, 1.2, 0.55, self.seed, pixel_cm);
            mix(c, [0.9, 0.9, 0.9], ink)
        } else {
            // Black glass with the room's reflection sliding over it.
            let reflection = (0.5 + 0.5 * ((u * 0.8 + v * 0.3) / hw)).clamp(0.0, 1.0);
            [0.012, 0.013, 0.018].map(|c| c + 0.05 * reflection * reflection)
        }
    }

    /// A round cable, a highlight along it.
    fn cable(&self, at: &Spot) -> [f32; 3] {
        let Spot { u, hw, .. } = *at;
        let across = (u / hw).clamp(-1.0, 1.0);
        scale(
            self.colour,
            0.5 + 0.5 * (1.0 - across * across).sqrt()
                + 0.6 * (-(across + 0.35).powi(2) * 25.0).exp(),
        )
    }
}

/// Where on a thing's top a pixel looks, and what every shader needs.
#[derive(Clone, Copy)]
struct Spot {
    /// Local position, centimetres (u across, v along its up).
    u: f32,
    v: f32,
    /// Half width and half length of the thing.
    hw: f32,
    hl: f32,
    /// How much of it the pixel spans, centimetres.
    pixel_cm: f32,
    /// A little brightness noise of the material.
    grain: f32,
}

/// How much ink of printed text lies at local (u, v): lines `pitch_cm` apart
/// down `area` (`[u0, v0, u1, v1]`, the first line at the top, v1), letters
/// `letter_cm` wide in words. Far away the letters blur into grey lines, and
/// the lines into a grey page.
fn print(
    u: f32,
    v: f32,
    area: [f32; 4],
    pitch_cm: f32,
    letter_cm: f32,
    seed: u32,
    pixel_cm: f32,
) -> f32 {
    let [u0, v0, u1, v1] = area;
    if u < u0 || u > u1 || v < v0 || v > v1 {
        return 0.0;
    }
    let line_at = (v1 - v) / pitch_cm;
    let line = floor_i(line_at);
    let hl = hash2(line, 0, seed);
    // Blank lines between paragraphs, and a paragraph's short last line.
    if unit(hl) < 0.12 {
        return 0.0;
    }
    let fill = if unit(hl.rotate_left(8)) < 0.25 {
        0.3 + 0.6 * unit(hl.rotate_left(16))
    } else {
        1.0
    };
    if u > u0 + fill * (u1 - u0) {
        return 0.0;
    }
    let fy = line_at - line as f32;
    let letters = (u - u0) / letter_cm;
    let k = floor_i(letters);
    let hk = hash2(k, line, seed ^ 0x51);
    let space = hk.is_multiple_of(6);
    // The ink a letter averages to over its cell, and a line over its slot.
    let (letter_mean, line_mean) = (0.2, 0.16 * fill.sqrt());
    let (mean, glyph) = if space {
        (0.0, 0.0)
    } else {
        (letter_mean, glyph(letters - k as f32, fy, hk >> 3))
    };
    let near = lerp(mean, glyph, detail(letter_cm * 0.4, pixel_cm));
    lerp(line_mean, near, detail(pitch_cm * 0.5, pixel_cm))
}

/// Whether a letter's strokes cover (fx, fy) of its cell (fy 0 at the top of
/// the line): stems, bars and a diagonal picked by `bits`, some with an
/// ascender, like a sans-serif seen from a little way off.
fn glyph(fx: f32, fy: f32, bits: u32) -> f32 {
    let stroke = 0.17;
    let (top, bottom) = (0.38, 0.8);
    if !(0.08..0.92).contains(&fx) || fy > bottom || fy < 0.15 {
        return 0.0;
    }
    let y = (fy - top) / (bottom - top);
    let ascender = bits & 64 != 0;
    let left = fx < 0.08 + stroke && (y >= 0.0 || ascender);
    if y < 0.0 {
        return if left { 1.0 } else { 0.0 };
    }
    let right = fx > 0.92 - stroke;
    let bar = |at: f32| (y - at).abs() < stroke * 0.7;
    let diagonal = (fx - 0.08 - 0.84 * y).abs() < stroke * 0.6;
    let ink = (bits & 1 != 0 || bits & 6 == 0) && left
        || bits & 2 != 0 && right
        || bits & 4 != 0 && bar(0.08)
        || bits & 8 != 0 && bar(0.5)
        || bits & 16 != 0 && bar(0.92)
        || bits & 32 != 0 && diagonal;
    if ink { 1.0 } else { 0.0 }
}

/// How much ink of handwriting lies at local (u, v): wavy strokes along lines
/// `pitch_cm` apart in `area`, broken into words.
fn scribble(u: f32, v: f32, area: [f32; 4], pitch_cm: f32, seed: u32, pixel_cm: f32) -> f32 {
    let [u0, v0, u1, v1] = area;
    if u < u0 || u > u1 || v < v0 || v > v1 {
        return 0.0;
    }
    let line_at = (v1 - v) / pitch_cm;
    let line = floor_i(line_at);
    let hl = hash2(line, 0, seed);
    if unit(hl) < 0.15 || u > u0 + (0.4 + 0.6 * unit(hl.rotate_left(9))) * (u1 - u0) {
        return 0.0;
    }
    let word = floor_i((u - u0) / (pitch_cm * 1.6));
    let hw = hash2(word, line, seed ^ 0x77);
    let in_word = unit(hw) > 0.2;
    let fy = line_at - line as f32;
    let wobble = 0.18 * wave(u / (pitch_cm * 0.35) + unit(hl)) + 0.08 * wave(u / (pitch_cm * 0.13));
    let stroke = ((fy - 0.55 - wobble).abs() < 0.06 + pixel_cm * 0.2 / pitch_cm) && in_word;
    let near = if stroke { 1.0 } else { 0.0 };
    lerp(
        if in_word { 0.15 } else { 0.0 },
        near,
        detail(pitch_cm * 0.15, pixel_cm),
    )
}

/// Ruled lines `pitch_cm` apart, faded when too fine to see.
fn ruled(v: f32, pitch_cm: f32, pixel_cm: f32) -> f32 {
    let f = v / pitch_cm - floor_i(v / pitch_cm) as f32;
    let width = (0.03 / pitch_cm).max(pixel_cm * 0.5 / pitch_cm);
    let line = if f < width { 1.0 } else { 0.0 };
    lerp(0.06, line, detail(pitch_cm * 0.5, pixel_cm))
}

fn pick<T: Copy>(rng: &mut impl Rng, items: &[T]) -> T {
    items[rng.random_range(0..items.len())]
}

/// An sRGB-looking colour to linear, varied a little.
fn colour(rng: &mut impl Rng, palette: &[[f32; 3]], amount: f32) -> [f32; 3] {
    let c = pick(rng, palette);
    c.map(|v| {
        let v = (v * rng.random_range(1.0 - amount..1.0 + amount)).clamp(0.0, 1.0);
        v * v
    })
}

/// Any strong colour, linear.
fn bright_colour(rng: &mut impl Rng) -> [f32; 3] {
    colour(
        rng,
        &[
            [0.85, 0.15, 0.12],
            [0.1, 0.35, 0.75],
            [0.15, 0.55, 0.25],
            [0.95, 0.75, 0.1],
            [0.55, 0.2, 0.6],
            [0.05, 0.05, 0.06],
            [0.9, 0.45, 0.1],
            [0.2, 0.65, 0.7],
            [0.9, 0.88, 0.82],
            [0.4, 0.25, 0.15],
        ],
        0.15,
    )
}

const PAPER_WHITES: [[f32; 3]; 4] = [
    [0.95, 0.95, 0.94],
    [0.93, 0.93, 0.9],
    [0.96, 0.94, 0.88],
    [0.9, 0.92, 0.95],
];

/// What a random kind is made of: kind, size, height, main colour, accent.
type Made = (Kind, [f32; 2], f32, [f32; 3], [f32; 3]);

/// A lid: the print filling it, or the texture repeated, a little
/// lighter at its rim where the light catches the edge.
fn carton(at: &Spot, photo: &crate::scene::PhotoTop) -> [f32; 3] {
    let Spot {
        u,
        v,
        hw,
        hl,
        pixel_cm,
        grain,
    } = *at;
    let colour = if photo.tile_cm > 0.0 {
        photo_texture(photo, u, v, pixel_cm)
    } else {
        photo_print(photo, u, v, hw, hl, pixel_cm)
    };
    let rim = if hw - u.abs() < 0.25 || hl - v.abs() < 0.25 {
        1.12
    } else {
        1.0
    };
    scale(colour, rim * (0.97 + 0.03 * grain))
}

/// A lump's surface, lit from above: brightest at its crown, darker
/// where it rounds down to the table, darkest on the side away from
/// the light.
fn lump(at: &Spot, photo: &crate::scene::PhotoTop) -> [f32; 3] {
    let Spot {
        u,
        v,
        hw,
        hl,
        pixel_cm,
        ..
    } = *at;
    let (x, y) = (u / hw, v / hl);
    let r = (x * x + y * y).min(1.0);
    let facing = (x - y) * 0.5;
    let shade = (1.0 - 0.55 * r * r) * (1.0 + 0.25 * facing * r.sqrt());
    scale(photo_texture(photo, u, v, pixel_cm), shade)
}

/// A photo printed to fill a rectangle `2 hw` by `2 hl` centimetres,
/// cut to its shape (the middle of a photo wider or taller than the
/// rectangle), at local (u, v), tinted.
fn photo_print(
    p: &crate::scene::PhotoTop,
    u: f32,
    v: f32,
    hw: f32,
    hl: f32,
    pixel_cm: f32,
) -> [f32; 3] {
    let (iw, il) = (hw.max(0.01) * 2.0, hl.max(0.01) * 2.0);
    let (fx, fy) = ((u + iw / 2.0) / iw, (il / 2.0 - v) / il);
    let aspect = p.photo.aspect();
    let (sx, sy) = if aspect > iw / il {
        (iw / il / aspect, 1.0)
    } else {
        (1.0, aspect * il / iw)
    };
    let (pu, pv) = (0.5 + (fx - 0.5) * sx, (0.5 + (fy - 0.5) * sy) / aspect);
    let colour = p.photo.at(pu, pv, pixel_cm / iw * sx);
    std::array::from_fn(|i| colour[i] * p.tint[i])
}

/// A photo's texture repeated every `tile_cm`, turned by its angle, at
/// local (u, v), tinted.
pub(crate) fn photo_texture(p: &crate::scene::PhotoTop, u: f32, v: f32, pixel_cm: f32) -> [f32; 3] {
    let (s, c) = p.angle.sin_cos();
    let (x, y) = (c * u - s * v, s * u + c * v);
    let colour = p
        .photo
        .at(x / p.tile_cm, y / p.tile_cm, pixel_cm / p.tile_cm);
    std::array::from_fn(|i| colour[i] * p.tint[i])
}

/// A random thing of a random kind at `center`, turned any way.
pub fn random_thing(rng: &mut impl Rng, center: [f32; 2], over_cards: bool) -> Thing {
    let angle = rng.random_range(0.0..TAU);
    let seed = rng.random();
    let ink = colour(
        rng,
        &[[0.05, 0.05, 0.06], [0.1, 0.15, 0.45], [0.2, 0.2, 0.22]],
        0.1,
    );
    // Of a hundred: sheets of paper 22, notebooks 8, books 11, business cards
    // 12, sticky notes 5, pictures 8 (the white and printed rectangles that
    // are not cards come first), coins 7, bowls 5, mugs 6, pens 7, phones 6,
    // cables 3.
    let which = rng.random_range(0..100);
    let (kind, size, height, main, accent) = match which {
        0..=40 => random_print(rng, which, ink),
        41..=65 => random_small_print(rng, which, ink),
        _ => random_object(rng, which, center),
    };
    Thing {
        kind,
        center,
        angle,
        size,
        height,
        colour: main,
        accent,
        over_cards,
        seed,
    }
}

/// Papers, notebooks and books: big rectangles with print.
fn random_print(rng: &mut impl Rng, which: u32, ink: [f32; 3]) -> Made {
    match which {
        0..=21 => {
            let size = pick(
                rng,
                &[[21.0, 29.7], [21.6, 27.9], [14.8, 21.0], [10.5, 14.8]],
            );
            let handwritten = rng.random_bool(0.25);
            (
                Kind::Paper { handwritten },
                size,
                0.01,
                colour(rng, &PAPER_WHITES, 0.04),
                if handwritten { ink } else { [0.02, 0.02, 0.03] },
            )
        }
        22..=29 => {
            let open = rng.random_bool(0.5);
            let page = [rng.random_range(14.0..21.5), rng.random_range(20.0..29.0)];
            if open {
                (
                    Kind::Notebook { open },
                    [page[0] * 2.0, page[1]],
                    0.8,
                    colour(rng, &PAPER_WHITES, 0.04),
                    ink,
                )
            } else {
                (Kind::Notebook { open }, page, 1.0, bright_colour(rng), ink)
            }
        }
        _ => {
            let size = [rng.random_range(12.0..21.0), rng.random_range(18.0..28.0)];
            (
                Kind::Book,
                size,
                rng.random_range(1.2..4.5),
                bright_colour(rng),
                colour(
                    rng,
                    &[
                        [0.95, 0.93, 0.85],
                        [0.9, 0.75, 0.2],
                        [0.05, 0.05, 0.05],
                        [0.8, 0.1, 0.1],
                    ],
                    0.05,
                ),
            )
        }
    }
}

/// Business cards, sticky notes and pictures: small printed rectangles.
fn random_small_print(rng: &mut impl Rng, which: u32, ink: [f32; 3]) -> Made {
    match which {
        41..=52 => {
            let size = pick(rng, &[[8.5, 5.5], [9.0, 5.0], [8.5, 5.4]]);
            let main = if rng.random_bool(0.85) {
                colour(rng, &PAPER_WHITES, 0.03)
            } else {
                bright_colour(rng)
            };
            (Kind::BusinessCard, size, 0.04, main, bright_colour(rng))
        }
        53..=57 => {
            let side = rng.random_range(7.0..7.8);
            let main = colour(
                rng,
                &[
                    [0.98, 0.92, 0.45],
                    [0.98, 0.7, 0.78],
                    [0.7, 0.92, 0.6],
                    [0.6, 0.85, 0.95],
                    [0.98, 0.75, 0.4],
                ],
                0.04,
            );
            (
                Kind::StickyNote,
                [side, side],
                if rng.random_bool(0.3) { 0.8 } else { 0.05 },
                main,
                ink,
            )
        }
        _ => {
            let size = pick(
                rng,
                &[[10.0, 15.0], [9.0, 13.0], [13.0, 18.0], [15.0, 10.0]],
            );
            let border = if rng.random_bool(0.4) {
                rng.random_range(0.3..0.8)
            } else {
                0.0
            };
            let blobs = (0..rng.random_range(3..8))
                .map(|_| Blob {
                    at: [rng.random_range(0.0..1.0), rng.random_range(0.0..1.0)],
                    radius: rng.random_range(0.1..0.45),
                    colour: bright_colour(rng),
                })
                .collect();
            (
                Kind::Picture {
                    border,
                    blobs,
                    photo: None,
                },
                size,
                0.03,
                bright_colour(rng),
                bright_colour(rng),
            )
        }
    }
}

/// Coins, bowls, mugs, pens, phones and cables.
fn random_object(rng: &mut impl Rng, which: u32, center: [f32; 2]) -> Made {
    match which {
        66..=72 => {
            let d = rng.random_range(1.6..2.8);
            let main = colour(
                rng,
                &[[0.75, 0.45, 0.3], [0.75, 0.75, 0.72], [0.8, 0.68, 0.35]],
                0.08,
            );
            (Kind::Coin, [d, d], rng.random_range(0.15..0.28), main, main)
        }
        73..=77 => {
            let d = rng.random_range(11.0..20.0);
            let main = colour(
                rng,
                &[
                    [0.92, 0.9, 0.86],
                    [0.2, 0.35, 0.65],
                    [0.75, 0.3, 0.2],
                    [0.35, 0.5, 0.35],
                    [0.6, 0.42, 0.28],
                ],
                0.1,
            );
            (Kind::Bowl, [d, d], rng.random_range(4.0..8.0), main, main)
        }
        78..=83 => {
            let d = rng.random_range(7.5..9.0);
            let main = if rng.random_bool(0.4) {
                colour(rng, &PAPER_WHITES, 0.05)
            } else {
                bright_colour(rng)
            };
            (
                Kind::Mug {
                    full: rng.random_bool(0.5),
                },
                [d, d],
                rng.random_range(8.5..10.5),
                main,
                main,
            )
        }
        84..=90 => {
            let pencil = rng.random_bool(0.3);
            let size = [rng.random_range(0.75..1.0), rng.random_range(12.5..17.5)];
            let main = if pencil {
                colour(rng, &[[0.95, 0.75, 0.1]], 0.06)
            } else {
                bright_colour(rng)
            };
            (
                Kind::Pen { pencil },
                size,
                size[0],
                main,
                bright_colour(rng),
            )
        }
        91..=96 => {
            let size = [rng.random_range(6.8..7.8), rng.random_range(14.0..16.2)];
            let body = colour(
                rng,
                &[
                    [0.08, 0.08, 0.09],
                    [0.25, 0.26, 0.28],
                    [0.75, 0.76, 0.78],
                    [0.2, 0.28, 0.45],
                    [0.85, 0.7, 0.65],
                ],
                0.05,
            );
            let face_down = rng.random_bool(0.35);
            let lit = !face_down && rng.random_bool(0.3);
            let main = if face_down { body } else { bright_colour(rng) };
            (Kind::Phone { face_down, lit }, size, 0.8, main, body)
        }
        _ => {
            let mut at = center;
            let mut heading = rng.random_range(0.0..TAU);
            let mut path = vec![at];
            for _ in 0..rng.random_range(5..12) {
                heading += rng.random_range(-0.7..0.7);
                let step = rng.random_range(4.0..9.0);
                at = [at[0] + step * heading.cos(), at[1] + step * heading.sin()];
                path.push(at);
            }
            let width = rng.random_range(0.35..0.7);
            let main = colour(
                rng,
                &[[0.05, 0.05, 0.05], [0.9, 0.9, 0.88], [0.3, 0.3, 0.32]],
                0.1,
            );
            (Kind::Cable { path }, [width, width], width, main, main)
        }
    }
}

/// Between `count` things scattered about `area` (`[x0, y0, x1, y1]`, table
/// centimetres), some beside or under the `cards`, a few lying over their
/// edges. Tall things (books, bowls, mugs, phones) never lie under a card.
pub fn random_things(
    rng: &mut impl Rng,
    cards: &[Placed],
    area: [f32; 4],
    count: usize,
) -> Vec<Thing> {
    let mut things: Vec<Thing> = (0..count)
        .map(|_| {
            let near = cards.get(rng.random_range(0..cards.len().max(1)));
            let placeholder = random_thing(rng, [0.0, 0.0], false);
            let tall = placeholder.height > 0.9 && !matches!(placeholder.kind, Kind::Pen { .. });
            let over = tall || rng.random_bool(0.2);
            let [hu, hv] = placeholder.size.map(|v| v / 2.0);
            let center = match near {
                Some(card) if over && rng.random_bool(0.6) => {
                    // Over a card: its edge crosses the card near the card's
                    // middle, so part of the card (and often one index) shows.
                    let edge = CARD_HEIGHT_CM * rng.random_range(-0.15..0.4);
                    let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                    let (u, v) = if rng.random_bool(0.5) {
                        (sign * (hu + edge), rng.random_range(-0.8..0.8) * hv)
                    } else {
                        (rng.random_range(-0.8..0.8) * hu, sign * (hv + edge))
                    };
                    // The thing's centre, from the card's middle at (u, v) in its frame.
                    let (s, c) = placeholder.angle.sin_cos();
                    [
                        card.center[0] - (c * u + s * v),
                        card.center[1] - (-s * u + c * v),
                    ]
                }
                Some(card) if !over && rng.random_bool(0.6) => {
                    // Beside or under a card: anywhere around it.
                    let heading = rng.random_range(0.0..TAU);
                    let distance = rng.random_range(0.0..hu.max(hv) + CARD_HEIGHT_CM * 1.5);
                    [
                        card.center[0] + distance * heading.cos(),
                        card.center[1] + distance * heading.sin(),
                    ]
                }
                // Elsewhere in view; a thing over the cards keeps clear of
                // them there (it would hide whole cards), as far as a few
                // tries can tell.
                _ => spot_in_view(
                    rng,
                    area,
                    if over { cards } else { &[] },
                    hu.hypot(hv) + CARD_HEIGHT_CM * 0.62,
                ),
            };
            let mut thing = placeholder;
            thing.center = center;
            if let Kind::Cable { path } = &mut thing.kind {
                let start = path[0];
                for p in path.iter_mut() {
                    *p = [p[0] - start[0] + center[0], p[1] - start[1] + center[1]];
                }
            }
            thing.over_cards = over;
            thing
        })
        .collect();
    sort_for_drawing(&mut things);
    things
}

/// A random spot in `area`, at least `clear` centimetres from every card
/// of `cards`, as far as six tries can tell (the last try's spot if none is).
pub(crate) fn spot_in_view(
    rng: &mut impl Rng,
    area: [f32; 4],
    cards: &[Placed],
    clear: f32,
) -> [f32; 2] {
    let mut at = [0.0; 2];
    for _ in 0..6 {
        at = [
            rng.random_range(area[0]..area[2]),
            rng.random_range(area[1]..area[3]),
        ];
        if cards
            .iter()
            .all(|c| (c.center[0] - at[0]).hypot(c.center[1] - at[1]) > clear)
        {
            break;
        }
    }
    at
}

/// Things in the order they are drawn: under-things first (papers below
/// books), then the rest.
pub(crate) fn sort_for_drawing(things: &mut [Thing]) {
    things.sort_by_key(|t| (t.over_cards, (t.height * 100.0) as i32));
}

//! Card designs: the images of 52 faces and the backs, and where each design
//! prints its index (rank and suit) in the top-left corner.
//!
//! The CC0 designs committed under `vision/assets/cards/` are built into the
//! binary ([`embedded`]); the others come from the art cache that
//! `models/art/fetch_art.py` fills ([`from_dir`]).

use std::path::{Path, PathBuf};

use image::RgbaImage;
use pone_engine::Card;

/// Which side of the train / held-out split a design is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    /// May be trained on.
    Train,
    /// Never trained on: measures how the reader holds on designs it never saw.
    HeldOut,
}

/// A card's index corner, as fractions of the card's width and height, from
/// its top-left corner. The same box turned 180° is the bottom-right index.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct IndexBox {
    /// Left edge.
    pub u0: f32,
    /// Top edge.
    pub v0: f32,
    /// Right edge.
    pub u1: f32,
    /// Bottom edge.
    pub v1: f32,
}

impl IndexBox {
    /// Whether card coordinates `(u, v)` (fractions) fall in either index corner.
    pub fn corner_at(&self, u: f32, v: f32) -> Option<u8> {
        if u >= self.u0 && u <= self.u1 && v >= self.v0 && v <= self.v1 {
            Some(1)
        } else if 1.0 - u >= self.u0
            && 1.0 - u <= self.u1
            && 1.0 - v >= self.v0
            && 1.0 - v <= self.v1
        {
            Some(2)
        } else {
            None
        }
    }
}

/// One card design.
#[derive(Clone, Debug)]
pub struct Design {
    /// Its name, as in `models/art/manifest.toml`.
    pub name: String,
    /// Train or held out.
    pub split: Split,
    /// The 52 faces, indexed by [`Card::index`], each at full, half and
    /// quarter size (the renderer samples the level nearest the size drawn).
    faces: Vec<Levels>,
    /// One or more backs, the same way.
    backs: Vec<Levels>,
    /// Where the index is printed; `None` for a design with no index corner.
    pub index: Option<IndexBox>,
}

/// An image at full, half and quarter size.
pub type Levels = [RgbaImage; 3];

fn levels(full: RgbaImage) -> Levels {
    use image::imageops::{FilterType, resize};
    let (w, h) = full.dimensions();
    let half = resize(&full, (w / 2).max(1), (h / 2).max(1), FilterType::Triangle);
    let quarter = resize(&half, (w / 4).max(1), (h / 4).max(1), FilterType::Triangle);
    [full, half, quarter]
}

/// Art that cannot be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArtError {
    /// A card image is missing or unreadable.
    #[error(
        "card design {design}: cannot read {path}: {reason} (rebuild the art with `python3 models/art/fetch_art.py`)"
    )]
    Image {
        /// The design.
        design: String,
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The art manifest cannot be read.
    #[error("cannot read the art manifest {path}: {reason}")]
    Manifest {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The art cache has no such design.
    #[error(
        "no card design \"{0}\" in the art cache {1}: run `python3 models/art/fetch_art.py --cache {1}`"
    )]
    NoDesign(String, PathBuf),
}

impl Design {
    /// A design from its images; the index corner is found from the pip cards' ink.
    pub fn new(name: &str, split: Split, faces: Vec<RgbaImage>, backs: Vec<RgbaImage>) -> Design {
        let index = find_index_box(&faces);
        Design {
            name: name.to_owned(),
            split,
            faces: faces.into_iter().map(levels).collect(),
            backs: backs.into_iter().map(levels).collect(),
            index: Some(index),
        }
    }

    /// The design with `count` invented backs in place of its own
    /// ([`invented_back`], seeded from `seed`): for training what tells a
    /// back from a cloth on more back designs than the art holds.
    #[must_use]
    pub fn with_invented_backs(mut self, count: usize, seed: u64) -> Design {
        let like = self.back(0).clone();
        self.backs = (0..count as u64)
            .map(|k| levels(invented_back(&like, seed.wrapping_mul(7919) ^ k)))
            .collect();
        self
    }

    /// The face of a card, full size.
    pub fn face(&self, card: Card) -> &RgbaImage {
        &self.faces[card.index()][0]
    }

    /// The face of a card at every size.
    pub fn face_levels(&self, card: Card) -> &Levels {
        &self.faces[card.index()]
    }

    /// A back (`n` modulo the number of backs), full size.
    pub fn back(&self, n: usize) -> &RgbaImage {
        &self.backs[n % self.backs.len()][0]
    }

    /// A back at every size.
    pub fn back_levels(&self, n: usize) -> &Levels {
        &self.backs[n % self.backs.len()]
    }

    /// How many backs the design has.
    pub fn backs(&self) -> usize {
        self.backs.len()
    }

    /// Width over height of the cards.
    pub fn aspect(&self) -> f32 {
        let face = &self.faces[0][0];
        face.width() as f32 / face.height() as f32
    }
}

fn decode(design: &str, path: &Path, bytes: &[u8]) -> Result<RgbaImage, ArtError> {
    image::load_from_memory(bytes)
        .map(|i| i.to_rgba8())
        .map_err(|e| ArtError::Image {
            design: design.to_owned(),
            path: path.to_owned(),
            reason: e.to_string(),
        })
}

/// A design from a folder of `<RANK><SUIT>.png` and `back*.png` files.
pub fn from_dir(dir: &Path, split: Split) -> Result<Design, ArtError> {
    let name = dir
        .file_name()
        .map_or_else(|| "?".to_owned(), |n| n.to_string_lossy().into_owned());
    let read = |path: PathBuf| {
        let bytes = std::fs::read(&path).map_err(|e| ArtError::Image {
            design: name.clone(),
            path: path.clone(),
            reason: e.to_string(),
        })?;
        decode(&name, &path, &bytes)
    };
    let faces = Card::pack()
        .map(|card| read(dir.join(format!("{card}.png"))))
        .collect::<Result<Vec<_>, _>>()?;
    let mut backs = vec![read(dir.join("back.png"))?];
    for n in 2.. {
        let path = dir.join(format!("back{n}.png"));
        if !path.exists() {
            break;
        }
        backs.push(read(path)?);
    }
    Ok(Design::new(&name, split, faces, backs))
}

/// One design of `models/art/manifest.toml`: its name, split, and the index
/// corner where the ink search must not be trusted.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct ManifestEntry {
    /// The design's folder in the cache.
    pub name: String,
    /// Train or held out.
    pub split: Split,
    /// `[u0, v0, u1, v1]`, or `"none"` for no index corner; absent: found from the ink.
    #[serde(default)]
    pub index: Option<IndexOverride>,
}

/// A design's index corner given by hand.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(untagged)]
pub enum IndexOverride {
    /// The box, as fractions of the card from its top-left corner.
    Box([f32; 4]),
    /// The word "none": the design has no index corner.
    None(String),
}

/// The designs listed in `models/art/manifest.toml`: its `[[design]]` tables,
/// then the invented designs of its `[invented]` table (`invented_00`,
/// `invented_01`, ... as `models/art/invent_faces.py` names them).
pub fn manifest_splits(manifest: &Path) -> Result<Vec<ManifestEntry>, ArtError> {
    #[derive(serde::Deserialize)]
    struct Invented {
        designs: usize,
        split: Split,
    }
    #[derive(serde::Deserialize)]
    struct Manifest {
        design: Vec<ManifestEntry>,
        invented: Option<Invented>,
    }
    let bad = |reason: String| ArtError::Manifest {
        path: manifest.to_owned(),
        reason,
    };
    let text = std::fs::read_to_string(manifest).map_err(|e| bad(e.to_string()))?;
    let parsed: Manifest = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let mut entries = parsed.design;
    if let Some(invented) = parsed.invented {
        entries.extend((0..invented.designs).map(|k| ManifestEntry {
            name: format!("{INVENTED}{k:02}"),
            split: invented.split,
            index: None,
        }));
    }
    Ok(entries)
}

/// What an invented design's folder name starts with (`invented_07`).
const INVENTED: &str = "invented_";

/// Which invented design a design is (`invented_07`: 7); `None` for a real deck.
pub fn invented_number(name: &str) -> Option<usize> {
    name.strip_prefix(INVENTED)?.parse().ok()
}

/// The designs of the art cache that `models/art/fetch_art.py` filled, with
/// the splits given (see [`manifest_splits`]).
pub fn from_cache(cache: &Path, entries: &[ManifestEntry]) -> Result<Vec<Design>, ArtError> {
    entries
        .iter()
        .map(|entry| {
            let dir = cache.join(&entry.name);
            if !dir.is_dir() {
                return Err(ArtError::NoDesign(entry.name.clone(), cache.to_owned()));
            }
            let mut design = from_dir(&dir, entry.split)?;
            match &entry.index {
                Some(IndexOverride::Box([u0, v0, u1, v1])) => {
                    design.index = Some(IndexBox {
                        u0: *u0,
                        v0: *v0,
                        u1: *u1,
                        v1: *v1,
                    });
                }
                Some(IndexOverride::None(_)) => design.index = None,
                None => {}
            }
            Ok(design)
        })
        .collect()
}

macro_rules! embed_design {
    ($design:literal, [$($code:literal),*], [$($back:literal),*]) => {
        (
            $design,
            &[$(($code, include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/cards/", $design, "/", $code, ".png")) as &[u8])),*],
            &[$(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/cards/", $design, "/", $back, ".png")) as &[u8]),*],
        )
    };
}

macro_rules! embed_all {
    ($(($design:literal, [$($back:literal),*])),*) => {
        [$(embed_design!($design, [
            "AS","2S","3S","4S","5S","6S","7S","8S","9S","TS","JS","QS","KS",
            "AH","2H","3H","4H","5H","6H","7H","8H","9H","TH","JH","QH","KH",
            "AD","2D","3D","4D","5D","6D","7D","8D","9D","TD","JD","QD","KD",
            "AC","2C","3C","4C","5C","6C","7C","8C","9C","TC","JC","QC","KC"
        ], [$($back),*])),*]
    };
}

type Embedded = (
    &'static str,
    &'static [(&'static str, &'static [u8])],
    &'static [&'static [u8]],
);

static EMBEDDED: [Embedded; 3] = embed_all!(
    ("kennard", ["back"]),
    ("kennard_jumbo", ["back"]),
    ("kenney", ["back", "back2", "back3"])
);

/// The committed CC0 designs: `kennard` and `kennard_jumbo` (train) and
/// `kenney` (held out).
pub fn embedded() -> Result<Vec<Design>, ArtError> {
    EMBEDDED
        .iter()
        .map(|(name, faces, backs)| {
            let split = if *name == "kenney" {
                Split::HeldOut
            } else {
                Split::Train
            };
            let path = |code: &str| PathBuf::from(format!("vision/assets/cards/{name}/{code}.png"));
            let faces = faces
                .iter()
                .map(|(code, bytes)| decode(name, &path(code), bytes))
                .collect::<Result<Vec<_>, _>>()?;
            let backs = backs
                .iter()
                .map(|bytes| decode(name, &path("back"), bytes))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Design::new(name, split, faces, backs))
        })
        .collect()
}

/// The index corner of a design, from the ink in the top-left corner of its
/// ace-to-ten faces: the run of inked columns from the left edge, then the
/// rows of ink in those columns down to the first wide gap.
fn find_index_box(faces: &[RgbaImage]) -> IndexBox {
    let mut boxes: Vec<IndexBox> = faces
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 13 < 10)
        .filter_map(|(_, face)| ink_box(face))
        .collect();
    if boxes.is_empty() {
        return IndexBox {
            u0: 0.02,
            v0: 0.02,
            u1: 0.2,
            v1: 0.3,
        };
    }
    let median = |f: fn(&IndexBox) -> f32, boxes: &mut Vec<IndexBox>| {
        boxes.sort_by(|a, b| f(a).total_cmp(&f(b)));
        f(&boxes[boxes.len() / 2])
    };
    // A little margin: the box labels where the reader should look.
    IndexBox {
        u0: (median(|b| b.u0, &mut boxes) - 0.01).max(0.0),
        v0: (median(|b| b.v0, &mut boxes) - 0.01).max(0.0),
        u1: (median(|b| b.u1, &mut boxes) + 0.01).min(0.5),
        v1: (median(|b| b.v1, &mut boxes) + 0.01).min(0.5),
    }
}

fn ink_box(face: &RgbaImage) -> Option<IndexBox> {
    use imageproc::region_labelling::{Connectivity, connected_components};

    let (w, h) = face.dimensions();
    let (rw, rh) = ((w as f32 * 0.3) as u32, (h as f32 * 0.45) as u32);
    // The paper: the commonest colour of the corner region (to 4 bits a channel).
    let mut counts = std::collections::HashMap::<[u8; 3], (u32, [u32; 3])>::new();
    for y in 0..rh {
        for x in 0..rw {
            let p = face.get_pixel(x, y).0;
            if p[3] > 200 {
                let entry = counts.entry([p[0] >> 4, p[1] >> 4, p[2] >> 4]).or_default();
                entry.0 += 1;
                (0..3).for_each(|c| entry.1[c] += u32::from(p[c]));
            }
        }
    }
    let (n, sum) = counts.into_values().max_by_key(|(n, _)| *n)?;
    let paper = sum.map(|s| (s / n) as u8);
    let mask = image::GrayImage::from_fn(rw, rh, |x, y| {
        let p = face.get_pixel(x, y).0;
        let far = (0..3usize)
            .map(|c| (i32::from(p[c]) - i32::from(paper[c])).abs())
            .sum::<i32>()
            > 150;
        image::Luma([if p[3] > 200 && far { 255 } else { 0 }])
    });
    let labels = connected_components(&mask, Connectivity::Eight, image::Luma([0u8]));
    // Bounding boxes per component: [x0, y0, x1, y1, pixels].
    let mut boxes: std::collections::HashMap<u32, [u32; 5]> = std::collections::HashMap::new();
    for (x, y, label) in labels.enumerate_pixels() {
        if label.0[0] == 0 {
            continue;
        }
        let b = boxes.entry(label.0[0]).or_insert([x, y, x, y, 0]);
        b[0] = b[0].min(x);
        b[1] = b[1].min(y);
        b[2] = b[2].max(x);
        b[3] = b[3].max(y);
        b[4] += 1;
    }
    // Frames and borders run long; specks are noise.
    let parts: Vec<[u32; 5]> = boxes
        .into_values()
        .filter(|b| (b[2] - b[0]) * 5 < rw * 4 && (b[3] - b[1]) * 5 < rh * 4 && b[4] >= 6)
        .collect();
    let seed = parts.iter().min_by_key(|b| b[0] + b[1])?;
    let mut index = *seed;
    let (near_x, near_y) = (w / 80, h / 14);
    loop {
        let grown = parts.iter().fold(index, |acc, b| {
            let beside = b[0] <= acc[2] + near_x && b[2] + near_x >= acc[0];
            let below = b[1] <= acc[3] + near_y && b[3] + near_y >= acc[1];
            if beside && below {
                [
                    acc[0].min(b[0]),
                    acc[1].min(b[1]),
                    acc[2].max(b[2]),
                    acc[3].max(b[3]),
                    acc[4],
                ]
            } else {
                acc
            }
        });
        if grown == index {
            break;
        }
        index = grown;
    }
    Some(IndexBox {
        u0: index[0] as f32 / w as f32,
        v0: index[1] as f32 / h as f32,
        u1: (index[2] + 1) as f32 / w as f32,
        v1: (index[3] + 1) as f32 / h as f32,
    })
}

/// A shape of an invented back's picture: an ellipse of one colour.
struct Shape {
    centre: [f32; 2],
    half: [f32; 2],
    /// The sine and cosine of its turn.
    turn: (f32, f32),
    colour: [f32; 3],
}

impl Shape {
    fn covers(&self, px: f32, py: f32) -> bool {
        let (dx, dy) = (px - self.centre[0], py - self.centre[1]);
        let (s, c) = self.turn;
        ((dx * c + dy * s) / self.half[0]).hypot((-dx * s + dy * c) / self.half[1]) < 1.0
    }
}

/// The kinds of [`invented_back`] drawn over its whole ground (5: a
/// picture of a few shapes, 6: thin lines crossing on pale paper, 7:
/// scrolls on a shaded ground), and what they are drawn with.
struct Drawn {
    kind: u32,
    shapes: Vec<Shape>,
    ground: [f32; 3],
    ink: [f32; 3],
    third: [f32; 3],
    period: f32,
    waves: f32,
    height: f32,
}

impl Drawn {
    /// Draws the picture's shapes (their colours by `colour`) and the
    /// scrolls' waves from `rng`, for a back `size` (width, height).
    fn new(
        kind: u32,
        [ground, ink, third]: [[f32; 3]; 3],
        period: f32,
        (wf, hf): (f32, f32),
        rng: &mut rand::rngs::StdRng,
        colour: impl Fn(&mut rand::rngs::StdRng) -> [f32; 3],
    ) -> Drawn {
        use rand::Rng;
        let shapes = (0..rng.random_range(3..8))
            .map(|_| Shape {
                centre: [
                    rng.random_range(0.25..0.75) * wf,
                    rng.random_range(0.2..0.8) * hf,
                ],
                half: [
                    rng.random_range(0.06..0.3) * wf,
                    rng.random_range(0.04..0.25) * hf,
                ],
                turn: rng.random_range(0.0..std::f32::consts::PI).sin_cos(),
                colour: colour(rng),
            })
            .collect();
        Drawn {
            kind,
            shapes,
            ground,
            ink,
            third,
            period,
            waves: rng.random_range(1.5..5.0f32),
            height: hf,
        }
    }

    /// The colour at pixel (`px`, `py`), (`u`, `v`) along and across the
    /// design's angle, on a back `width` wide; `None` for the other kinds.
    fn colour(&self, px: f32, py: f32, u: f32, v: f32, width: f32) -> Option<[f32; 3]> {
        let period = self.period;
        match self.kind {
            5 => Some(
                self.shapes
                    .iter()
                    .rev()
                    .find(|shape| shape.covers(px, py))
                    .map_or(self.ground, |shape| shape.colour),
            ),
            6 => {
                let thin = |v: f32| (v / period).rem_euclid(1.0) < 0.12;
                Some(if thin(u) {
                    self.ink
                } else if thin(v + period / 2.0) {
                    self.third
                } else {
                    self.ground.map(|g| 200.0 + 0.2 * g)
                })
            }
            7 => {
                let t = py / self.height;
                let scroll = (u / width * self.waves * std::f32::consts::TAU).sin() * period;
                Some(if ((v - scroll) / period).rem_euclid(4.0) < 0.25 {
                    self.ink
                } else {
                    [0, 1, 2].map(|i| self.ground[i] * (1.0 - 0.5 * t) + 0.25 * t * self.third[i])
                })
            }
            _ => None,
        }
    }
}

/// A card back no printer made: `like`'s shape (its size and rounded
/// corners) filled with a random design of the kinds backs have: a white
/// margin or none, then stripes, a tartan, a lattice of diamonds, dots, a
/// plain ground with frames, a picture (a few shapes of their own colours
/// over a plain ground, as a figure or flowers), thin lines crossing on a
/// pale ground, or a shaded ground with scrolls, in one to three colours,
/// often with an emblem in the middle.
#[must_use]
pub fn invented_back(like: &RgbaImage, seed: u64) -> RgbaImage {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0xBAC4);
    let (w, h) = like.dimensions();
    let (wf, hf) = (w as f32, h as f32);
    let colour = |rng: &mut rand::rngs::StdRng| -> [f32; 3] {
        let hue: f32 = rng.random_range(0.0..6.0);
        let (sat, val): (f32, f32) = (rng.random_range(0.3..1.0), rng.random_range(0.15..0.95));
        let x = 1.0 - ((hue % 2.0) - 1.0).abs();
        let (r, g, b) = match hue as u32 {
            0 => (1.0, x, 0.0),
            1 => (x, 1.0, 0.0),
            2 => (0.0, 1.0, x),
            3 => (0.0, x, 1.0),
            4 => (x, 0.0, 1.0),
            _ => (1.0, 0.0, x),
        };
        [r, g, b].map(|c| 255.0 * val * (1.0 - sat + sat * c))
    };
    let ground = colour(&mut rng);
    let ink = if rng.random_bool(0.5) {
        [245.0, 240.0, 230.0]
    } else {
        colour(&mut rng)
    };
    let third = colour(&mut rng);
    let margin = if rng.random_bool(0.7) {
        rng.random_range(0.03..0.1) * wf
    } else {
        0.0
    };
    let kind = rng.random_range(0..8u32);
    let period = rng.random_range(0.03..0.14) * wf;
    let angle: f32 = rng.random_range(0.0..std::f32::consts::PI);
    let (ca, sa) = (angle.cos(), angle.sin());
    let thick: f32 = rng.random_range(0.15..0.5);
    let drawn = Drawn::new(
        kind,
        [ground, ink, third],
        period,
        (wf, hf),
        &mut rng,
        colour,
    );
    let emblem = rng.random_bool(0.4).then(|| {
        (
            rng.random_range(0.12..0.3) * wf,
            rng.random_range(0.12..0.3) * hf,
        )
    });
    let frames = rng.random_range(0..3u32);
    let mut out = RgbaImage::new(w, h);
    for (x, y, pixel) in out.enumerate_pixels_mut() {
        let alpha = like.get_pixel(x, y).0[3];
        let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
        let inside = px > margin && py > margin && px < wf - margin && py < hf - margin;
        let wave = |v: f32| (v / period).rem_euclid(1.0) < thick;
        let (u, v) = (px * ca + py * sa, -px * sa + py * ca);
        let mut rgb = if inside {
            let on = match kind {
                0 => wave(u),
                1 => wave(u) ^ wave(v),
                2 => wave(u + v) && wave(u - v) || !(wave(u + v) || wave(u - v)),
                3 => {
                    let (a, b) = (
                        (u / period).rem_euclid(1.0) - 0.5,
                        (v / period).rem_euclid(1.0) - 0.5,
                    );
                    a.hypot(b) < thick * 0.7
                }
                _ => false,
            };
            drawn
                .colour(px, py, u, v, wf)
                .unwrap_or(if on { ink } else { ground })
        } else {
            [248.0, 246.0, 240.0]
        };
        if inside && frames > 0 {
            let edge = (px - margin)
                .min(py - margin)
                .min(wf - margin - px)
                .min(hf - margin - py);
            for f in 1..=frames {
                let at = f as f32 * 0.06 * wf;
                if (edge - at).abs() < 0.012 * wf {
                    rgb = third;
                }
            }
        }
        if let Some((ex, ey)) = emblem {
            let (dx, dy) = ((px - wf / 2.0) / ex, (py - hf / 2.0) / ey);
            let r = dx.hypot(dy);
            if r < 1.0 {
                rgb = if r > 0.85 { ink } else { third };
            }
        }
        *pixel = image::Rgba([rgb[0] as u8, rgb[1] as u8, rgb[2] as u8, alpha]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_designs_load_with_their_index_corners() {
        let designs = embedded().expect("embedded art");
        assert_eq!(designs.len(), 3);
        for d in &designs {
            let b = d.index.expect("the committed designs have index corners");
            assert!(b.u0 < 0.1 && b.v0 < 0.1, "{}: {b:?}", d.name);
            assert!(
                (0.08..0.3).contains(&b.u1) && (0.12..0.46).contains(&b.v1),
                "{}: {b:?}",
                d.name
            );
            assert!(
                (d.aspect() - 0.714).abs() < 0.03,
                "{}: {}",
                d.name,
                d.aspect()
            );
        }
        let jumbo = &designs[1];
        let v1 = |d: &Design| d.index.map_or(0.0, |b| b.v1);
        assert!(v1(jumbo) > v1(&designs[0]), "the jumbo index is taller");
        assert_eq!(
            designs.iter().filter(|d| d.split == Split::HeldOut).count(),
            1
        );
    }

    #[test]
    fn invented_backs_keep_the_cards_shape_and_differ_by_seed() {
        let like = embedded().expect("art")[0].back(0).clone();
        // Enough seeds to draw every kind of design.
        for seed in 0..32 {
            let a = invented_back(&like, seed);
            assert_eq!(a.dimensions(), like.dimensions());
            for (p, q) in a.pixels().zip(like.pixels()) {
                assert_eq!(p.0[3], q.0[3], "the rounded corners stay");
            }
        }
        let a = invented_back(&like, 1);
        assert_eq!(a, invented_back(&like, 1), "one seed, one back");
        assert_ne!(a, invented_back(&like, 2));
    }

    #[test]
    fn the_manifest_lists_its_real_designs_then_the_invented_ones() {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/art/manifest.toml");
        let entries = manifest_splits(&manifest).expect("the committed manifest");
        let held_out: Vec<&str> = entries
            .iter()
            .filter(|e| e.split == Split::HeldOut)
            .map(|e| e.name.as_str())
            .collect();
        assert!(
            held_out.contains(&"atlasnye") && !held_out.iter().any(|n| n.starts_with("invented"))
        );
        let invented: Vec<&ManifestEntry> = entries
            .iter()
            .filter(|e| invented_number(&e.name).is_some())
            .collect();
        assert!(invented.len() >= 20, "{} invented designs", invented.len());
        assert_eq!(invented[0].name, "invented_00");
        assert!(
            invented
                .iter()
                .all(|e| e.split == Split::Train && e.index.is_none())
        );
    }
}

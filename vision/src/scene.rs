//! What a rendered frame shows: the camera, the table top (felt, wood,
//! cloth, carpet, a bedspread, tiles) and the things lying on it, the light,
//! every card where it lies, hands over the table, and the camera's faults.
//! A [`Scene`] is plain data; [`random_scene`] makes one from a seed: a
//! Vingt-un table from a webcam (the layout functions place cards the way it
//! is dealt), a few cards as a phone photographs them, one card filling the
//! frame, or no card at all.

use std::f32::consts::{PI, TAU};

use pone_engine::Card;
use rand::Rng;
use rand::seq::SliceRandom;

use crate::camera::Camera;
use crate::clutter::{Thing, random_things};
use crate::texture::length;

/// A card's height on the table, in centimetres (a poker-size card).
pub const CARD_HEIGHT_CM: f32 = 8.9;

/// What part of the table a card belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "at", rename_all = "snake_case")]
pub enum Role {
    /// A player's hand (the dealer's too): seat in seating order, hand 1-based,
    /// position in the hand 0-based.
    Hand {
        /// The seat, in the table's seating order.
        seat: u8,
        /// Which hand (1 unless divided).
        hand: u8,
        /// The card's place in the hand.
        position: u8,
    },
    /// The top of the pack.
    Pack,
    /// The pone's pile of used cards.
    Pile,
    /// A card on its way (sliding in, thrown to the pone).
    Moving,
}

/// One card on the table.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Placed {
    /// The card if face up; `None` for a back.
    pub face: Option<Card>,
    /// The card underneath, when face down (for the truth of a rendered sitting).
    #[serde(skip)]
    pub hidden: Option<Card>,
    /// Which back of the design.
    pub back: usize,
    /// Centre on the table, centimetres.
    pub center: [f32; 2],
    /// Turn of the card's vertical axis from the table's y axis, radians.
    pub angle: f32,
    /// Height above the table (stacked cards), centimetres.
    pub lift: f32,
    /// Where it belongs.
    pub role: Role,
    /// Labelled for the reader (stacked cards below the top are not).
    pub labelled: bool,
}

/// What the table top is made of.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Material {
    /// Baize: one colour with a fine fibre texture.
    Felt {
        /// Linear RGB 0..1.
        colour: [f32; 3],
    },
    /// Wood boards (or one wide slab) with wandering grain and knots.
    Wood(Wood),
    /// A woven cloth, plain or checked.
    Cloth {
        /// The main colour.
        a: [f32; 3],
        /// The check colour.
        b: [f32; 3],
        /// Check size, centimetres (0: plain).
        check_cm: f32,
    },
    /// Carpet or a rug: tufts of fibre, flecked, plain or in bands.
    Carpet(Carpet),
    /// A bedspread or throw: soft folds, plain or patterned.
    Bedspread(Bedspread),
    /// Floor or counter tiles with grout between.
    Tiles(Tiles),
    /// A real photo's texture, repeated mirrored (`pone synth --photos`:
    /// wood, stone, leather, cloth and paper from the art cache).
    Photo(PhotoTop),
}

/// A photo as the scene's JSON names it: by its name in the art cache.
fn photo_name<S: serde::Serializer>(
    photo: &std::sync::Arc<crate::photos::Photo>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&photo.name)
}

/// A real photo lying flat: a table top's texture, or the print on a picture
/// lying on the table ([`crate::photos`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PhotoTop {
    /// The photo (written as its name in the art cache).
    #[serde(rename = "name", serialize_with = "photo_name")]
    pub photo: std::sync::Arc<crate::photos::Photo>,
    /// A table top: the photo's width on the table, centimetres (a print
    /// fills its picture).
    pub tile_cm: f32,
    /// A table top: the photo's turn on the table, radians.
    pub angle: f32,
    /// Multipliers of its colours.
    pub tint: [f32; 3],
}

/// Wood boards (or one wide slab) with wandering grain and knots.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Wood {
    /// The light wood between the grain lines.
    pub light: [f32; 3],
    /// The dark grain.
    pub dark: [f32; 3],
    /// Board width, centimetres.
    pub plank_cm: f32,
    /// Distance between grain lines, centimetres.
    pub grain_cm: f32,
    /// Knots per metre of board.
    pub knots: f32,
    /// How dark the grain lines are, 0..1.
    pub figure: f32,
}

/// Carpet or a rug: tufts of fibre, flecked, plain or in bands.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Carpet {
    /// The main fibre colour.
    pub a: [f32; 3],
    /// The fleck colour.
    pub b: [f32; 3],
    /// The second band colour of a striped rug.
    pub stripe: [f32; 3],
    /// Share of tufts in the fleck colour, 0..1.
    pub fleck: f32,
    /// Tuft size, centimetres.
    pub pile_cm: f32,
    /// Band width of a striped rug, centimetres (0: no bands).
    pub stripe_cm: f32,
}

/// A bedspread or throw: soft folds, plain or patterned.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Bedspread {
    /// The ground colour.
    pub a: [f32; 3],
    /// The pattern colour.
    pub b: [f32; 3],
    /// The pattern.
    pub pattern: Pattern,
    /// Pattern size, centimetres.
    pub pattern_cm: f32,
    /// How deep the folds are, 0..1.
    pub folds: f32,
    /// Distance between folds, centimetres.
    pub fold_cm: f32,
    /// The direction across the folds (a unit vector on the table).
    pub fold_dir: [f32; 2],
}

/// Floor or counter tiles with grout between.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Tiles {
    /// The tile colour.
    pub tile: [f32; 3],
    /// The grout colour.
    pub grout: [f32; 3],
    /// Tile size, centimetres.
    pub tile_cm: f32,
    /// Grout width, centimetres.
    pub grout_cm: f32,
}

/// A bedspread's pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// One colour.
    Plain,
    /// Stripes across the folds.
    Stripes,
    /// Soft checks.
    Checks,
    /// Flowers scattered on the ground colour.
    Flowers,
}

/// The table top: what it is made of, and what lies on it besides the cards.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Surface {
    /// What it is made of.
    pub material: Material,
    /// Papers, books, mugs and the like, in drawing order.
    pub things: Vec<Thing>,
}

/// The light on the table.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Light {
    /// Overall brightness.
    pub gain: f32,
    /// Colour of the light (multipliers per channel).
    pub tint: [f32; 3],
    /// Brightness gradient across the image: direction (radians) and strength.
    pub gradient: (f32, f32),
    /// Darkening toward the image corners.
    pub vignette: f32,
    /// Glare spots: centre (image fractions), radius (fraction of width), strength.
    pub glare: Vec<([f32; 2], f32, f32)>,
    /// Shadow of a card: offset on the table (cm) and darkness 0..1.
    pub shadow: ([f32; 2], f32),
    /// A lamp's pool of light: centre (image fractions), radius (fraction of
    /// the width) and strength 0..1 (how much darker it is away from the pool).
    pub pool: Option<([f32; 2], f32, f32)>,
}

/// A hand or sleeve over the table, in image fractions.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Occluder {
    /// Where the arm enters the image.
    pub from: [f32; 2],
    /// Where the hand is.
    pub to: [f32; 2],
    /// Width of the sleeve and the hand, fraction of the image width.
    pub width: f32,
    /// Sleeve colour.
    pub sleeve: [f32; 3],
    /// Skin colour.
    pub skin: [f32; 3],
}

/// Everything a frame shows.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Scene {
    /// The camera.
    pub camera: Camera,
    /// The table top.
    pub surface: Surface,
    /// The light.
    pub light: Light,
    /// Cards in drawing order (later ones lie on top).
    pub cards: Vec<Placed>,
    /// Hands and sleeves over the table.
    pub occluders: Vec<Occluder>,
    /// Which design (index into the renderer's designs).
    pub design: usize,
    /// Defocus blur, gaussian sigma in pixels.
    pub blur: f32,
    /// Motion blur: direction (radians) and length in pixels.
    pub motion: Option<(f32, f32)>,
    /// Sensor noise, standard deviation in 8-bit levels.
    pub noise: f32,
    /// JPEG quality the frame is saved at.
    pub jpeg_quality: u8,
    /// Seed of the sensor noise: each frame's own.
    pub seed: u64,
    /// Seed of the table's noise texture (the grain, fibres and weave of the
    /// cloth and the things lying on it): one for every frame of a sitting,
    /// since a table does not change from frame to frame while the camera's
    /// noise does.
    pub table_seed: u64,
}

/// Where the seats are: the dealer at the near side (y < 0), the players round
/// the far side from the dealer's left to his right (the pone).
#[derive(Clone, Debug)]
pub struct Layout {
    /// Card positions per seat (seating order, dealer included): where the
    /// cards lie, and the direction from there toward the player.
    pub seats: Vec<([f32; 2], f32)>,
    /// Where the pack lies.
    pub pack: [f32; 2],
    /// Where the pone's pile lies.
    pub pile: [f32; 2],
    /// Card width over height.
    pub aspect: f32,
}

/// How far behind the pone's seat (away from the table's centre) his pile
/// lies: a card's height and a margin, so the pile (messy, 1.5 cm each way)
/// never meets the cards dealt to him.
const PILE_BEHIND_CM: f32 = CARD_HEIGHT_CM + 3.0;

impl Layout {
    /// A table of `players` seats, `dealer` among them; `spread` scales the table.
    pub fn new(players: usize, dealer: usize, aspect: f32, spread: f32) -> Layout {
        let (rx, ry) = (40.0 * spread, 26.0 * spread);
        let mut seats = vec![([0.0, 0.0], 0.0); players];
        for k in 0..players {
            // The dealer's k-th left-hand neighbour, round the ellipse.
            let seat = (dealer + k) % players;
            let a = -PI / 2.0 - (k as f32) * TAU / players as f32;
            let toward_player = a;
            seats[seat] = ([rx * a.cos(), ry * a.sin()], toward_player);
        }
        let pone = (dealer + players - 1) % players;
        let (dp, _) = seats[dealer];
        let (pp, pa) = seats[pone];
        Layout {
            seats,
            pack: [dp[0] + 15.0 * spread, dp[1] + 7.0],
            // Beside the pone, behind his own cards (away from the table's
            // centre), clear of every hand: a card dealt to him is never
            // dealt onto the pile.
            pile: [
                pp[0] + PILE_BEHIND_CM * pa.cos(),
                pp[1] + PILE_BEHIND_CM * pa.sin(),
            ],
            aspect,
        }
    }

    /// How far the cards reach from the table's centre, x and y (cm).
    pub fn reach(&self) -> [f32; 2] {
        let margin = CARD_HEIGHT_CM * 1.2;
        let points = self
            .seats
            .iter()
            .map(|(p, _)| *p)
            .chain([self.pack, self.pile]);
        points.fold([0.0f32, 0.0f32], |r, p| {
            [r[0].max(p[0].abs() + margin), r[1].max(p[1].abs() + margin)]
        })
    }

    /// Places a hand: `cards` in order (face up or not), `hand` 1-based (a
    /// divided hand lies in a second row toward the table's centre).
    pub fn place_hand(
        &self,
        seat: usize,
        hand: u8,
        cards: &[(Card, bool)],
        back: usize,
        rng: &mut impl Rng,
    ) -> Vec<Placed> {
        self.place_hand_laid(seat, hand, cards, back, false, rng)
    }

    /// [`Layout::place_hand`], with the drawn cards laid `beside` the
    /// others (a card's width apart, as the first two) instead of tucked so
    /// that each one's index shows: cards drawn face down, blind.
    pub fn place_hand_laid(
        &self,
        seat: usize,
        hand: u8,
        cards: &[(Card, bool)],
        back: usize,
        beside: bool,
        rng: &mut impl Rng,
    ) -> Vec<Placed> {
        let (spot, toward) = self.seats[seat];
        let w = CARD_HEIGHT_CM * self.aspect;
        // The player's right, looking at the centre from his seat.
        let facing = toward + PI;
        let right = [facing.sin(), -facing.cos()];
        let inward = [facing.cos(), facing.sin()];
        let row = f32::from(hand - 1) * (CARD_HEIGHT_CM + 1.2);
        // Drawn cards overlap the previous one so that its index corner shows.
        let step_drawn = w * 0.32;
        let step_pair = w * 0.62;
        let offsets: Vec<f32> = (0..cards.len())
            .scan(0.0, |x, i| {
                let here = *x;
                *x += if i == 0 || beside {
                    step_pair
                } else {
                    step_drawn
                };
                Some(here)
            })
            .collect();
        // The first two cards lie about the seat's spot; drawn cards go on to
        // the player's right, and cards already down never move.
        let first = step_pair / 2.0;
        cards
            .iter()
            .zip(&offsets)
            .enumerate()
            .map(|(i, (&(card, up), &along))| {
                let along = along - first + rng.random_range(-0.3..0.3);
                let depth = row + rng.random_range(-0.3..0.3);
                Placed {
                    face: up.then_some(card),
                    hidden: Some(card),
                    back,
                    center: [
                        spot[0] + right[0] * along + inward[0] * depth,
                        spot[1] + right[1] * along + inward[1] * depth,
                    ],
                    // The card's top points away from the player, toward the centre.
                    angle: facing - PI / 2.0 + rng.random_range(-0.12..0.12),
                    lift: 0.02 * i as f32,
                    role: Role::Hand {
                        seat: seat as u8,
                        hand,
                        position: i as u8,
                    },
                    labelled: true,
                }
            })
            .collect()
    }

    /// A stack of backs: the pack (neat) or the pone's pile (messy).
    pub fn place_stack(
        &self,
        role: Role,
        count: usize,
        back: usize,
        rng: &mut impl Rng,
    ) -> Vec<Placed> {
        let (at, messy) = match role {
            Role::Pile => (self.pile, true),
            _ => (self.pack, false),
        };
        let base = rng.random_range(-0.3..0.3);
        (0..count)
            .map(|i| {
                let (jitter, turn) = if messy { (1.5, 0.5) } else { (0.12, 0.03) };
                Placed {
                    face: None,
                    hidden: None,
                    back,
                    center: [
                        at[0] + rng.random_range(-jitter..jitter),
                        at[1] + rng.random_range(-jitter..jitter),
                    ],
                    angle: base + rng.random_range(-turn..turn),
                    lift: 0.03 * i as f32,
                    role,
                    labelled: i + 1 == count,
                }
            })
            .collect()
    }
}

fn pick<T: Copy>(rng: &mut impl Rng, items: &[T]) -> T {
    items[rng.random_range(0..items.len())]
}

fn jitter_colour(rng: &mut impl Rng, c: [f32; 3], amount: f32) -> [f32; 3] {
    c.map(|v| (v * rng.random_range(1.0 - amount..1.0 + amount)).clamp(0.0, 1.0))
}

/// A colour from a palette, varied a little.
fn pick_colour(rng: &mut impl Rng, palette: &[[f32; 3]], amount: f32) -> [f32; 3] {
    let c = pick(rng, palette);
    jitter_colour(rng, c, amount)
}

/// A random camera: a webcam on a stand or tripod beside the table, high
/// enough to see the half-extent `reach` (cm) of the cards, give or take a zoom.
pub fn random_camera(rng: &mut impl Rng, width: u32, height: u32, reach: [f32; 2]) -> Camera {
    random_camera_at(rng, width, height, reach, [0.0, 0.0], 1.0)
}

/// A random camera that sees the whole table, every seat, the pack and the
/// pile (as a dealer sets his camera up): a rendered sitting's.
pub fn random_table_camera(rng: &mut impl Rng, width: u32, height: u32, reach: [f32; 2]) -> Camera {
    camera_with(rng, width, height, reach, [0.0, 0.0], 1.0, true)
}

/// A random camera looking at `centre` (cm), `zoom` times as close as one
/// that fits `reach`.
pub fn random_camera_at(
    rng: &mut impl Rng,
    width: u32,
    height: u32,
    reach: [f32; 2],
    centre: [f32; 2],
    zoom_scale: f32,
) -> Camera {
    camera_with(rng, width, height, reach, centre, zoom_scale, false)
}

/// [`random_camera_at`]; with `whole_table`, never closer than one that fits `reach`.
fn camera_with(
    rng: &mut impl Rng,
    width: u32,
    height: u32,
    reach: [f32; 2],
    centre: [f32; 2],
    zoom_scale: f32,
    whole_table: bool,
) -> Camera {
    let hfov = rng.random_range(0.95f32..1.3);
    let tilt = rng.random_range(0.0f32..0.7);
    let vfov = 2.0 * ((hfov / 2.0).tan() * height as f32 / width as f32).atan();
    let fit = (reach[0] / (hfov / 2.0).tan()).max(reach[1] / (vfov / 2.0).tan());
    // Mostly the whole table, now and then closer (cards cut by the frame).
    let closer = rng.random_bool(0.45);
    let zoom = if whole_table {
        rng.random_range(1.0..1.2)
    } else if closer {
        rng.random_range(0.6..0.85)
    } else {
        rng.random_range(0.85..1.15)
    };
    let camera_height = fit * zoom * zoom_scale * tilt.cos();
    let azimuth = -PI / 2.0 + rng.random_range(-0.9..0.9);
    let back = camera_height * tilt.tan();
    let target = [
        centre[0] + rng.random_range(-4.0..4.0),
        centre[1] + rng.random_range(-4.0..4.0),
        0.0,
    ];
    let position = [
        target[0] + back * azimuth.cos(),
        target[1] + back * azimuth.sin(),
        camera_height,
    ];
    let roll = rng.random_range(-0.12..0.12) + if rng.random_bool(0.15) { PI } else { 0.0 };
    Camera::look_at(width, height, position, target, roll, hfov)
}

/// A palette written as it looks (sRGB-ish), picked, varied and made linear.
fn pick_seen(rng: &mut impl Rng, palette: &[[f32; 3]], amount: f32) -> [f32; 3] {
    pick_colour(rng, palette, amount).map(|v| v * v)
}

/// A random table top with nothing on it: felt, wood, cloth, carpet, a
/// bedspread or tiles.
pub fn random_surface(rng: &mut impl Rng) -> Surface {
    Surface {
        material: random_material(rng),
        things: Vec::new(),
    }
}

/// A random material for the table top.
pub fn random_material(rng: &mut impl Rng) -> Material {
    match rng.random_range(0..100) {
        0..=19 => random_felt(rng),
        20..=44 => random_wood(rng),
        45..=52 => random_cloth(rng),
        53..=74 => random_carpet(rng),
        75..=89 => random_bedspread(rng),
        _ => random_tiles(rng),
    }
}

/// Baize of a card-table colour.
fn random_felt(rng: &mut impl Rng) -> Material {
    let colour = pick(
        rng,
        &[
            [0.05, 0.32, 0.12],
            [0.04, 0.22, 0.10],
            [0.05, 0.18, 0.35],
            [0.35, 0.05, 0.07],
            [0.25, 0.25, 0.25],
            [0.10, 0.30, 0.28],
        ],
    );
    Material::Felt {
        colour: jitter_colour(rng, colour, 0.25),
    }
}

/// Wood: boards or a slab, light to dark, knotted or clean.
fn random_wood(rng: &mut impl Rng) -> Material {
    let light = pick_seen(
        rng,
        &[
            [0.8, 0.62, 0.42],
            [0.72, 0.5, 0.28],
            [0.5, 0.32, 0.2],
            [0.36, 0.22, 0.13],
            [0.62, 0.34, 0.22],
            [0.62, 0.57, 0.5],
            [0.86, 0.8, 0.7],
        ],
        0.1,
    );
    let slab = rng.random_bool(0.4);
    // Darker and a little redder: one factor for all channels, or the hue drifts.
    let darker = rng.random_range(0.3..0.6);
    Material::Wood(Wood {
        dark: [
            light[0] * darker,
            light[1] * darker * 0.9,
            light[2] * darker * 0.8,
        ],
        light,
        plank_cm: if slab {
            rng.random_range(60.0..140.0)
        } else {
            rng.random_range(8.0..25.0)
        },
        grain_cm: rng.random_range(0.3..1.3),
        knots: if rng.random_bool(0.55) {
            rng.random_range(0.5..4.0)
        } else {
            0.0
        },
        figure: rng.random_range(0.45..1.0),
    })
}

/// A woven cloth, plain or checked.
fn random_cloth(rng: &mut impl Rng) -> Material {
    let a = pick_colour(
        rng,
        &[
            [0.8, 0.78, 0.72],
            [0.6, 0.1, 0.1],
            [0.15, 0.2, 0.45],
            [0.5, 0.45, 0.3],
        ],
        0.2,
    );
    Material::Cloth {
        b: a.map(|v| (v * 0.55 + 0.35).min(1.0)),
        a,
        check_cm: if rng.random_bool(0.5) {
            rng.random_range(1.5..5.0)
        } else {
            0.0
        },
    }
}

/// Carpet: beige, grey or brown pile, flecked, now and then a striped rug.
fn random_carpet(rng: &mut impl Rng) -> Material {
    let a = pick_seen(
        rng,
        &[
            [0.75, 0.68, 0.57],
            [0.65, 0.64, 0.62],
            [0.58, 0.52, 0.45],
            [0.45, 0.36, 0.28],
            [0.35, 0.35, 0.37],
            [0.85, 0.8, 0.7],
            [0.4, 0.45, 0.55],
            [0.45, 0.15, 0.18],
        ],
        0.08,
    );
    let darker = rng.random_range(0.2..0.5);
    let b = if rng.random_bool(0.7) {
        a.map(|v| v * darker)
    } else {
        a.map(|v| (v * 1.6 + 0.15).min(0.9))
    };
    let striped = rng.random_bool(0.25);
    Material::Carpet(Carpet {
        a,
        b,
        stripe: if striped {
            pick_seen(
                rng,
                &[
                    [0.1, 0.1, 0.1],
                    [0.9, 0.88, 0.82],
                    [0.4, 0.3, 0.22],
                    [0.6, 0.2, 0.15],
                ],
                0.1,
            )
        } else {
            a
        },
        fleck: rng.random_range(0.08..0.45),
        pile_cm: rng.random_range(0.15..0.42),
        stripe_cm: if striped {
            rng.random_range(1.5..6.0)
        } else {
            0.0
        },
    })
}

/// A bedspread: plain, striped, checked or flowered, softly folded.
fn random_bedspread(rng: &mut impl Rng) -> Material {
    let palette = [
        [0.15, 0.18, 0.3],
        [0.2, 0.2, 0.22],
        [0.9, 0.9, 0.88],
        [0.8, 0.74, 0.62],
        [0.8, 0.6, 0.6],
        [0.55, 0.62, 0.5],
        [0.5, 0.12, 0.18],
        [0.8, 0.65, 0.25],
        [0.6, 0.72, 0.85],
    ];
    let a = pick_seen(rng, &palette, 0.1);
    let b = pick_seen(rng, &palette, 0.1);
    let pattern = pick(
        rng,
        &[
            Pattern::Plain,
            Pattern::Plain,
            Pattern::Stripes,
            Pattern::Flowers,
            Pattern::Flowers,
            Pattern::Checks,
        ],
    );
    let fold_angle = rng.random_range(0.0..TAU);
    Material::Bedspread(Bedspread {
        a,
        b,
        pattern,
        pattern_cm: match pattern {
            Pattern::Flowers => rng.random_range(4.0..12.0),
            Pattern::Checks => rng.random_range(2.0..8.0),
            _ => rng.random_range(1.0..6.0),
        },
        folds: rng.random_range(0.3..1.0),
        fold_cm: rng.random_range(8.0..30.0),
        fold_dir: [fold_angle.cos(), fold_angle.sin()],
    })
}

/// Floor or counter tiles.
fn random_tiles(rng: &mut impl Rng) -> Material {
    let tile = pick_seen(
        rng,
        &[
            [0.8, 0.75, 0.65],
            [0.9, 0.9, 0.88],
            [0.7, 0.4, 0.3],
            [0.55, 0.55, 0.55],
            [0.25, 0.25, 0.27],
        ],
        0.08,
    );
    Material::Tiles(Tiles {
        grout: tile.map(|v| (v * rng.random_range(0.5..1.3)).min(0.85)),
        tile,
        tile_cm: rng.random_range(10.0..45.0),
        grout_cm: rng.random_range(0.25..1.0),
    })
}

/// Random light: bright or dim, warm or cool, even or not, glare now and
/// then, a lamp's pool of light now and then.
pub fn random_light(rng: &mut impl Rng) -> Light {
    let warm = rng.random_range(-1.0f32..1.0);
    let glare = (0..rng
        .random_range(0..3)
        .min(if rng.random_bool(0.4) { 2 } else { 0 }))
        .map(|_| {
            (
                [rng.random_range(0.0..1.0), rng.random_range(0.0..1.0)],
                rng.random_range(0.015..0.06),
                rng.random_range(0.3..1.0),
            )
        })
        .collect();
    Light {
        gain: if rng.random_bool(0.2) {
            rng.random_range(0.35..0.6)
        } else {
            rng.random_range(0.6..1.25)
        },
        tint: [1.0 + 0.12 * warm, 1.0, 1.0 - 0.15 * warm],
        gradient: (rng.random_range(0.0..TAU), rng.random_range(0.0..0.45)),
        vignette: rng.random_range(0.0..0.35),
        glare,
        shadow: (
            [rng.random_range(-0.35..0.35), rng.random_range(-0.35..0.35)],
            rng.random_range(0.15..0.55),
        ),
        pool: rng.random_bool(0.3).then(|| {
            (
                [rng.random_range(-0.2..1.2), rng.random_range(-0.2..1.2)],
                rng.random_range(0.25..0.8),
                rng.random_range(0.25..0.75),
            )
        }),
    }
}

/// A hand and sleeve reaching into the frame from any edge.
fn random_hand(rng: &mut impl Rng) -> Occluder {
    let edge = rng.random_range(0..4);
    let t = rng.random_range(0.1..0.9);
    let from = match edge {
        0 => [t, -0.05],
        1 => [1.05, t],
        2 => [t, 1.05],
        _ => [-0.05, t],
    };
    Occluder {
        from,
        to: [rng.random_range(0.2..0.8), rng.random_range(0.2..0.8)],
        width: rng.random_range(0.03..0.055),
        sleeve: pick_colour(
            rng,
            &[
                [0.1, 0.1, 0.12],
                [0.5, 0.5, 0.55],
                [0.6, 0.15, 0.1],
                [0.15, 0.25, 0.5],
                [0.85, 0.85, 0.8],
            ],
            0.2,
        ),
        skin: pick_colour(
            rng,
            &[
                [0.87, 0.67, 0.55],
                [0.72, 0.5, 0.37],
                [0.45, 0.3, 0.22],
                [0.95, 0.78, 0.67],
            ],
            0.08,
        ),
    }
}

/// How tall a card is in the frame, pixels: the longest of the placed cards'
/// height axes as the camera sees them (0 when none is in front of it).
fn tallest_card(camera: &Camera, cards: &[Placed]) -> f32 {
    cards
        .iter()
        .filter_map(|card| {
            let (s, c) = card.angle.sin_cos();
            let half = CARD_HEIGHT_CM / 2.0;
            let top = camera.project([
                card.center[0] + s * half,
                card.center[1] + c * half,
                card.lift,
            ])?;
            let bottom = camera.project([
                card.center[0] - s * half,
                card.center[1] - c * half,
                card.lift,
            ])?;
            Some((top.0 - bottom.0).hypot(top.1 - bottom.1))
        })
        .fold(0.0, f32::max)
}

/// A handheld camera (a phone) over `target`, `tilt` radians off straight
/// down, from the side `azimuth`, at the distance where the tallest of `cards`
/// is `fill` of the frame's height.
fn framing_camera(
    width: u32,
    height: u32,
    target: [f32; 2],
    cards: &[Placed],
    fill: f32,
    (tilt, azimuth, roll): (f32, f32, f32),
    hfov: f32,
) -> Camera {
    let at = |distance: f32| {
        let position = [
            target[0] + distance * tilt.sin() * azimuth.cos(),
            target[1] + distance * tilt.sin() * azimuth.sin(),
            distance * tilt.cos(),
        ];
        Camera::look_at(
            width,
            height,
            position,
            [target[0], target[1], 0.0],
            roll,
            hfov,
        )
    };
    let wanted = fill * height as f32;
    let focal = width as f32 / 2.0 / (hfov / 2.0).tan();
    let mut distance = focal * CARD_HEIGHT_CM / wanted;
    // Perspective and the cards' turn make the first guess a little off: a
    // few rescalings settle it.
    for _ in 0..3 {
        let tallest = tallest_card(&at(distance), cards);
        if tallest <= 0.0 {
            break;
        }
        distance = (distance * tallest / wanted).max(CARD_HEIGHT_CM * 0.6);
    }
    at(distance)
}

/// A phone photo's framing: looking down at `target` from any side, cards
/// `fill` of the frame's height.
fn phone_camera(
    rng: &mut impl Rng,
    width: u32,
    height: u32,
    target: [f32; 2],
    cards: &[Placed],
    fill: f32,
    max_tilt: f32,
) -> Camera {
    let view = (
        rng.random_range(0.0..max_tilt),
        rng.random_range(0.0..TAU),
        rng.random_range(-0.2..0.2),
    );
    let hfov = rng.random_range(0.9..1.25);
    framing_camera(width, height, target, cards, fill, view, hfov)
}

/// What part of the table the camera sees, `[x0, y0, x1, y1]` centimetres
/// (the table points under a grid over the frame, bounded).
pub(crate) fn seen_area(camera: &Camera) -> [f32; 4] {
    let mut area = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    for i in 0..=4 {
        for j in 0..=4 {
            let x = camera.width as f32 * i as f32 / 4.0;
            let y = camera.height as f32 * j as f32 / 4.0;
            if let Some((tx, ty)) = camera.unproject(x, y) {
                let (tx, ty) = (tx.clamp(-150.0, 150.0), ty.clamp(-150.0, 150.0));
                area = [
                    area[0].min(tx),
                    area[1].min(ty),
                    area[2].max(tx),
                    area[3].max(ty),
                ];
            }
        }
    }
    if area[0] < area[2] && area[1] < area[3] {
        area
    } else {
        [-40.0, -40.0, 40.0, 40.0]
    }
}

/// How far a card leans from upright in the frame, radians.
fn card_lean(camera: &Camera, card: &Placed) -> f32 {
    let (s, c) = card.angle.sin_cos();
    let half = CARD_HEIGHT_CM / 2.0;
    let at = |k: f32| {
        camera.project([
            card.center[0] + k * s * half,
            card.center[1] + k * c * half,
            card.lift,
        ])
    };
    match (at(1.0), at(-1.0)) {
        (Some(top), Some(bottom)) => (top.0 - bottom.0).atan2(bottom.1 - top.1),
        _ => 0.0,
    }
}

/// No card, only where one would lie: what a camera frames when there is none.
fn phantom(center: [f32; 2], angle: f32) -> Placed {
    Placed {
        face: None,
        hidden: None,
        back: 0,
        center,
        angle,
        lift: 0.0,
        role: Role::Pack,
        labelled: false,
    }
}

/// A loose card at `center`, turned `angle`, `position` in its little group.
fn loose(
    face: Option<Card>,
    hidden: Card,
    back: usize,
    center: [f32; 2],
    angle: f32,
    position: usize,
) -> Placed {
    Placed {
        face,
        hidden: Some(hidden),
        back,
        center,
        angle,
        lift: 0.02 * position as f32,
        role: Role::Hand {
            seat: 0,
            hand: 1,
            position: position as u8,
        },
        labelled: true,
    }
}

/// One to five cards as someone lays them down for a photo: scattered apart,
/// spread in an overlapping row, or fanned.
fn loose_cards(rng: &mut impl Rng, pack: &mut Vec<Card>, back: usize, aspect: f32) -> Vec<Placed> {
    let n = pick(rng, &[1, 2, 2, 3, 3, 4, 4, 5, 5]);
    let up_share = if rng.random_bool(0.1) { 0.0 } else { 0.9 };
    let base = rng.random_range(0.0..TAU);
    let style = rng.random_range(0..3);
    let w = CARD_HEIGHT_CM * aspect;
    let step = w * rng.random_range(0.3..0.8);
    let spread = rng.random_range(0.2..0.35);
    let (s, c) = base.sin_cos();
    let right = [c, -s];
    let up = [s, c];
    (0..n)
        .filter_map(|i| {
            let card = pack.pop()?;
            let face = rng.random_bool(up_share).then_some(card);
            let k = i as f32 - (n - 1) as f32 / 2.0;
            let (center, angle) = match style {
                0 if i > 0 => {
                    let heading = rng.random_range(0.0..TAU);
                    let distance = rng.random_range(CARD_HEIGHT_CM * 0.8..CARD_HEIGHT_CM * 2.0);
                    (
                        [distance * heading.cos(), distance * heading.sin()],
                        base + rng.random_range(-0.8..0.8),
                    )
                }
                1 => (
                    [right[0] * step * k, right[1] * step * k],
                    base + rng.random_range(-0.08..0.08),
                ),
                2 => {
                    // Fanned about a point below the cards' middles.
                    let turn = k * spread;
                    let pivot = CARD_HEIGHT_CM * 0.45;
                    let (ts, tc) = (base + turn).sin_cos();
                    (
                        [-up[0] * pivot + ts * pivot, -up[1] * pivot + tc * pivot],
                        base + turn,
                    )
                }
                _ => ([0.0, 0.0], base),
            };
            Some(loose(face, card, back, center, angle, i))
        })
        .collect()
}

/// The whole Vingt-un table: 2 to 7 seats, the dealer's and players' hands
/// (first two cards down or turned up, drawn cards up, a divided pair now and
/// then), the pack and the pone's pile, seen from a webcam beside the table or
/// (three times in ten) close to one seat.
fn table_cards(
    rng: &mut impl Rng,
    pack: &mut Vec<Card>,
    back: usize,
    width: u32,
    height: u32,
) -> (Vec<Placed>, Camera) {
    let players = rng.random_range(2..=7);
    let dealer = rng.random_range(0..players);
    let spread = rng.random_range(0.75..1.15) * (0.8 + 0.05 * players as f32);
    let close_up = rng.random_bool(0.3);
    let layout = Layout::new(players, dealer, 0.714, spread);
    let mut cards = Vec::new();
    if rng.random_bool(0.6) {
        let n = rng.random_range(2..9);
        cards.extend(layout.place_stack(Role::Pile, n, back, rng));
    }
    if rng.random_bool(0.8) {
        let n = rng.random_range(3..8);
        cards.extend(layout.place_stack(Role::Pack, n, back, rng));
    }
    for k in 0..players {
        let seat = (dealer + 1 + k) % players;
        if rng.random_bool(0.12) {
            continue; // thrown up, or not dealt yet
        }
        let divided = rng.random_bool(0.08);
        for hand in 1..=if divided { 2 } else { 1 } {
            let turned = rng.random_bool(0.3);
            let drawn = pick(rng, &[0, 0, 1, 1, 2, 3]);
            let hand_cards: Vec<(Card, bool)> = (0..2 + drawn)
                .map_while(|i| pack.pop().map(|c| (c, i >= 2 || turned)))
                .collect();
            cards.extend(layout.place_hand(seat, hand, &hand_cards, back, rng));
        }
    }
    let camera = if close_up {
        // A close look at one seat, as a phone or a webcam near the cards sees it.
        let (spot, _) = layout.seats[rng.random_range(0..players)];
        let zoom = rng.random_range(0.2..0.45);
        random_camera_at(rng, width, height, layout.reach(), spot, zoom)
    } else {
        random_camera(rng, width, height, layout.reach())
    };
    (cards, camera)
}

/// One card filling most of the frame (a close phone photo of it), face up
/// mostly, turned upright in the frame or any way, with its neighbours now and
/// then showing at the edges.
fn macro_cards(
    rng: &mut impl Rng,
    pack: &mut Vec<Card>,
    back: usize,
    width: u32,
    height: u32,
) -> (Vec<Placed>, Camera) {
    let mut cards = Vec::new();
    if rng.random_bool(0.4) {
        for i in 0..rng.random_range(1..=3) {
            let Some(card) = pack.pop() else { break };
            let heading = rng.random_range(0.0..TAU);
            let distance = rng.random_range(CARD_HEIGHT_CM * 0.75..CARD_HEIGHT_CM * 1.4);
            let face = rng.random_bool(0.7).then_some(card);
            let center = [distance * heading.cos(), distance * heading.sin()];
            cards.push(loose(
                face,
                card,
                back,
                center,
                rng.random_range(0.0..TAU),
                i + 1,
            ));
        }
    }
    let main = match pack.pop() {
        Some(card) => {
            let face = rng.random_bool(0.82).then_some(card);
            loose(face, card, back, [0.0, 0.0], rng.random_range(0.0..TAU), 0)
        }
        None => phantom([0.0, 0.0], 0.0),
    };
    let upright = rng.random_bool(0.55);
    let fill = if upright {
        rng.random_range(0.5..0.95)
    } else {
        rng.random_range(0.5..0.75)
    };
    // Off-centre a little, less so when the card nearly fills the frame.
    let span = CARD_HEIGHT_CM / fill;
    let target = [
        rng.random_range(-0.15..0.15) * span,
        rng.random_range(-0.5..0.5) * span * (1.0 - fill),
    ];
    let (tilt, azimuth) = (rng.random_range(0.0f32..0.5), rng.random_range(0.0..TAU));
    let hfov = rng.random_range(0.9..1.25);
    let lone = std::slice::from_ref(&main);
    let frame = |roll: f32| {
        framing_camera(
            width,
            height,
            target,
            lone,
            fill,
            (tilt, azimuth, roll),
            hfov,
        )
    };
    let roll = if upright {
        // Turn the camera about its axis until the card stands up in the
        // frame (which way round the roll goes depends on the view: try both).
        let lean = |camera: &Camera| card_lean(camera, &main);
        let first = lean(&frame(0.0));
        let best = [first, -first]
            .into_iter()
            .min_by(|a, b| lean(&frame(*a)).abs().total_cmp(&lean(&frame(*b)).abs()))
            .unwrap_or(0.0);
        best + rng.random_range(-0.2..0.2) + if rng.random_bool(0.2) { PI } else { 0.0 }
    } else {
        rng.random_range(-0.2..0.2)
    };
    let camera = frame(roll);
    cards.push(main);
    (cards, camera)
}

/// A random scene for a card finder: mostly a Vingt-un table from a webcam;
/// a quarter of the time one to five cards as a phone photographs them on
/// carpet, a bed or a desk; now and then one card filling the frame, or no
/// card at all. Most tables have things lying about (papers, books, mugs).
pub fn random_scene(
    rng: &mut impl Rng,
    designs: usize,
    backs: &[usize],
    width: u32,
    height: u32,
    seed: u64,
) -> Scene {
    let design = rng.random_range(0..designs.max(1));
    let back = rng.random_range(0..backs.get(design).copied().unwrap_or(1).max(1));
    let aspect = 0.714;
    let mut pack: Vec<Card> = Card::pack().collect();
    pack.shuffle(rng);
    let framing = rng.random_range(0..100);
    // Per framing: the cards, the camera, how often a hand shows, and the most
    // things lying about (a close view has room for fewer).
    let (cards, camera, hand_share, most) = match framing {
        // No card at all: the finder must not see one.
        0..=2 => {
            let target = [rng.random_range(-20.0..20.0), rng.random_range(-20.0..20.0)];
            let spot = phantom(target, rng.random_range(0.0..TAU));
            let fill = rng.random_range(0.12..0.5);
            let camera = phone_camera(rng, width, height, target, &[spot], fill, 0.6);
            (Vec::new(), camera, 0.05, 6)
        }
        3..=10 => {
            let (cards, camera) = macro_cards(rng, &mut pack, back, width, height);
            (cards, camera, 0.05, 3)
        }
        11..=35 => {
            let cards = loose_cards(rng, &mut pack, back, aspect);
            let middle = cards.iter().fold([0.0, 0.0], |m, c| {
                [
                    m[0] + c.center[0] / cards.len() as f32,
                    m[1] + c.center[1] / cards.len() as f32,
                ]
            });
            let target = [
                middle[0] + rng.random_range(-3.0..3.0),
                middle[1] + rng.random_range(-3.0..3.0),
            ];
            // Mostly the whole group in the frame, as people take such photos:
            // the frame's half height (cm) must reach the farthest card's corner.
            let reach = cards.iter().fold(0.0f32, |r, c| {
                r.max(length(c.center[0] - target[0], c.center[1] - target[1]))
            }) + CARD_HEIGHT_CM * 0.62;
            let fits = 0.95 * CARD_HEIGHT_CM / (2.0 * reach);
            let fill = rng.random_range(0.15f32..0.58).min(fits.max(0.15));
            let camera = phone_camera(rng, width, height, target, &cards, fill, 0.6);
            (cards, camera, 0.08, 4)
        }
        _ => {
            let (cards, camera) = table_cards(rng, &mut pack, back, width, height);
            (cards, camera, 0.25, 6)
        }
    };
    let occluders = if rng.random_bool(hand_share) {
        vec![random_hand(rng)]
    } else {
        Vec::new()
    };
    let mut surface = random_surface(rng);
    // An empty table always has things on it: they are what the finder must
    // not take for cards.
    let count = if cards.is_empty() {
        rng.random_range(2..=most)
    } else if rng.random_bool(0.6) {
        rng.random_range(1..=most)
    } else {
        0
    };
    surface.things = random_things(rng, &cards, seen_area(&camera), count);
    Scene {
        camera,
        surface,
        light: random_light(rng),
        cards,
        occluders,
        design,
        blur: if rng.random_bool(0.5) {
            rng.random_range(0.0..1.4)
        } else {
            0.0
        },
        motion: rng
            .random_bool(0.1)
            .then(|| (rng.random_range(0.0..PI), rng.random_range(2.0..9.0))),
        noise: rng.random_range(1.0..7.0),
        jpeg_quality: rng.random_range(55..96),
        seed,
        table_seed: seed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    /// The pone's pile lies clear of every hand on the table, whatever the
    /// seats, the dealer and the table's size: a card dealt to a player is
    /// never dealt onto the pile.
    #[test]
    fn the_pile_lies_clear_of_every_hand() {
        let mut rng = StdRng::seed_from_u64(7);
        let cards: Vec<(Card, bool)> = Card::pack().take(5).map(|c| (c, false)).collect();
        for players in 2..=7 {
            for dealer in 0..players {
                for spread in [0.8, 1.0, 1.2] {
                    let layout = Layout::new(players, dealer, 0.714, spread);
                    for seat in 0..players {
                        for hand in 1..=2 {
                            for card in layout.place_hand(seat, hand, &cards, 0, &mut rng) {
                                let d = (card.center[0] - layout.pile[0])
                                    .hypot(card.center[1] - layout.pile[1]);
                                assert!(
                                    d >= CARD_HEIGHT_CM,
                                    "{players} players, dealer {dealer}, spread {spread}: \
                                     seat {seat}'s card {d:.1} cm from the pile"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// Over many seeds the framings come in their shares: a few empty
    /// tables, a fair share of big cards, some single cards filling the frame,
    /// and things lying about on most tables.
    #[test]
    fn random_scenes_mix_empty_tables_big_cards_and_clutter() {
        let n = 600;
        let (mut empty, mut big, mut filling, mut cluttered, mut covering) = (0, 0, 0, 0, 0);
        for seed in 0..n {
            let mut rng = StdRng::seed_from_u64(seed);
            let scene = random_scene(&mut rng, 3, &[2, 2, 2], 1280, 720, seed);
            // Only cards whose middle is in the frame: a close-up of one seat
            // has other seats' cards far out of view, and huge.
            let cam = &scene.camera;
            let in_frame: Vec<Placed> = scene
                .cards
                .iter()
                .filter(|c| {
                    cam.project([c.center[0], c.center[1], 0.0])
                        .is_some_and(|(x, y)| {
                            (0.0..1280.0).contains(&x) && (0.0..720.0).contains(&y)
                        })
                })
                .cloned()
                .collect();
            let tallest = tallest_card(cam, &in_frame) / 720.0;
            empty += usize::from(scene.cards.is_empty());
            big += usize::from(tallest >= 0.2);
            filling += usize::from(tallest >= 0.5);
            cluttered += usize::from(!scene.surface.things.is_empty());
            covering += usize::from(scene.surface.things.iter().any(|t| t.over_cards));
        }
        let share = |k: usize| k as f32 / n as f32;
        assert!((0.01..0.06).contains(&share(empty)), "empty {empty}");
        assert!(share(big) > 0.3, "big {big}");
        eprintln!(
            "empty {empty} big {big} filling {filling} cluttered {cluttered} covering {covering}"
        );
        assert!((0.08..0.22).contains(&share(filling)), "filling {filling}");
        assert!(
            (0.5..0.72).contains(&share(cluttered)),
            "cluttered {cluttered}"
        );
        assert!(share(covering) > 0.2, "covering {covering}");
    }

    /// A close-up of one card: the camera is moved until the card is as tall
    /// in the frame as asked, whatever its turn and the camera's tilt.
    #[test]
    fn a_framing_camera_makes_the_card_as_tall_as_asked() {
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..20 {
            let card = phantom([3.0, -2.0], rng.random_range(0.0..TAU));
            let fill = rng.random_range(0.2..0.95);
            let view = (
                rng.random_range(0.0..0.6),
                rng.random_range(0.0..TAU),
                rng.random_range(-0.2..0.2),
            );
            let camera = framing_camera(
                1280,
                720,
                card.center,
                std::slice::from_ref(&card),
                fill,
                view,
                1.1,
            );
            let tallest = tallest_card(&camera, &[card]) / 720.0;
            assert!((tallest - fill).abs() < 0.02, "{tallest} for {fill}");
        }
    }
}

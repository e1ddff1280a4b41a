//! What a rendered frame shows: the camera, the table top, the light, every
//! card where it lies, hands over the table, and the camera's faults. A
//! [`Scene`] is plain data; [`random_scene`] makes one from a seed, and the
//! layout functions place cards the way Vingt-un is dealt.

use std::f32::consts::{PI, TAU};

use pone_engine::Card;
use rand::Rng;
use rand::seq::SliceRandom;

use crate::camera::Camera;

/// A card's height on the table, in centimetres (a poker-size card).
pub const CARD_HEIGHT_CM: f32 = 8.9;

/// What part of the table a card belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
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

/// The table top.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Surface {
    /// Baize: one colour with a fine fibre texture.
    Felt {
        /// Linear RGB 0..1.
        colour: [f32; 3],
    },
    /// Wood planks with grain.
    Wood {
        /// Light and dark grain colours.
        light: [f32; 3],
        /// The dark grain.
        dark: [f32; 3],
        /// Plank width, centimetres.
        plank_cm: f32,
    },
    /// A woven cloth, plain or checked.
    Cloth {
        /// The main colour.
        a: [f32; 3],
        /// The check colour.
        b: [f32; 3],
        /// Check size, centimetres (0: plain).
        check_cm: f32,
    },
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
    /// Seed of the noise texture and the sensor noise.
    pub seed: u64,
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
            pile: [pp[0] + 9.0 * pa.cos() - 8.0, pp[1] + 9.0 * pa.sin() - 10.0],
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
                *x += if i == 0 { step_pair } else { step_drawn };
                Some(here)
            })
            .collect();
        let width = offsets.last().copied().unwrap_or(0.0);
        cards
            .iter()
            .zip(&offsets)
            .enumerate()
            .map(|(i, (&(card, up), &along))| {
                let along = along - width / 2.0 + rng.random_range(-0.3..0.3);
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
    let hfov = rng.random_range(0.95f32..1.3);
    let tilt = rng.random_range(0.0f32..0.7);
    let vfov = 2.0 * ((hfov / 2.0).tan() * height as f32 / width as f32).atan();
    let fit = (reach[0] / (hfov / 2.0).tan()).max(reach[1] / (vfov / 2.0).tan());
    // Mostly the whole table, now and then closer (cards cut by the frame).
    let zoom = if rng.random_bool(0.2) {
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

/// A random table top.
pub fn random_surface(rng: &mut impl Rng) -> Surface {
    match rng.random_range(0..10) {
        0..=4 => {
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
            Surface::Felt {
                colour: jitter_colour(rng, colour, 0.25),
            }
        }
        5..=7 => {
            let light = pick_colour(
                rng,
                &[[0.62, 0.42, 0.25], [0.45, 0.28, 0.15], [0.75, 0.60, 0.42]],
                0.15,
            );
            Surface::Wood {
                dark: light.map(|v| v * rng.random_range(0.45..0.7)),
                light,
                plank_cm: rng.random_range(8.0..20.0),
            }
        }
        _ => {
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
            Surface::Cloth {
                b: a.map(|v| (v * 0.55 + 0.35).min(1.0)),
                a,
                check_cm: if rng.random_bool(0.5) {
                    rng.random_range(1.5..5.0)
                } else {
                    0.0
                },
            }
        }
    }
}

/// Random light: bright or dim, warm or cool, even or not, glare now and then.
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
    }
}

/// A random table in play: 2 to 7 seats, the dealer's and players' hands
/// (first two cards down or turned up, drawn cards up, a divided pair now and
/// then), the pack and the pone's pile, with cards from one pack.
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
    let players = rng.random_range(2..=7);
    let dealer = rng.random_range(0..players);
    let spread = rng.random_range(0.75..1.15) * (0.8 + 0.05 * players as f32);
    let close_up = rng.random_bool(0.25);
    let layout = Layout::new(players, dealer, 0.714, spread);
    let mut pack: Vec<Card> = Card::pack().collect();
    pack.shuffle(rng);
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
    let occluders = if rng.random_bool(0.25) {
        let edge = rng.random_range(0..4);
        let t = rng.random_range(0.1..0.9);
        let from = match edge {
            0 => [t, -0.05],
            1 => [1.05, t],
            2 => [t, 1.05],
            _ => [-0.05, t],
        };
        vec![Occluder {
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
        }]
    } else {
        Vec::new()
    };
    Scene {
        camera: if close_up {
            // A close look at one seat, as a phone or a webcam near the cards sees it.
            let (spot, _) = layout.seats[rng.random_range(0..players)];
            let zoom = rng.random_range(0.2..0.45);
            random_camera_at(rng, width, height, layout.reach(), spot, zoom)
        } else {
            random_camera(rng, width, height, layout.reach())
        },
        surface: random_surface(rng),
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
    }
}

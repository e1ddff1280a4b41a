//! The card finder: a frame in, the index corners of face-up cards and the
//! face-down cards out, from one fully convolutional network
//! (`models/finder.onnx`, trained by `models/train_detector.py`).
//!
//! The network sees the frame scaled so its long side is [`NET_SIZE`] pixels
//! (padded to a multiple of 32) and answers on a grid of 4x4-pixel cells: how
//! likely the cell lies on what shows of an index corner, or of a back, and,
//! relative to the cell, that object's centre, the corner's reading window
//! (four points) and the box around what shows of the card. Each likely cell
//! votes; votes whose boxes overlap are put together into one find.
//!
//! The network finds and places cards best when they are about [`BEST_CARD`]
//! pixels tall as it sees them; far cards in a wide frame are much smaller at
//! [`NET_SIZE`]. So when the cards found at first are small, the frame is seen
//! again, larger ([`wanted_side`]), and that look's finds are the answer; a
//! card filling a close-up is seen again smaller.

use std::path::{Path, PathBuf};

use image::RgbImage;
use ort::session::Session;

use crate::boxes::{distance, iou};
use crate::changes::{Changes, TILE};
use crate::model::{ModelError, run, session};
use crate::reader::INDEX_WINDOW;

/// The long side of the frame as the network sees it first, in pixels.
pub const NET_SIZE: u32 = 640;

/// The card height, in the network's pixels, that it finds and places best.
/// Measured on rendered held-out scenes seen at several sizes: cards 75 to
/// 160 pixels tall to the network are found and read right far more often
/// than cards under 60.
pub const BEST_CARD: f32 = 100.0;

/// The most long side a frame is seen at: the finder's cost grows with its
/// square (about 30 ms at 1280x736 on 2 cores, against 8 ms at 640x384).
pub const MOST_SIDE: u32 = 1280;

/// The least long side a frame is seen at: for a card filling a close-up
/// ([`HUGE_CARD`]), so that it is at most 2.6 times [`BEST_CARD`] as the
/// network sees it.
pub const LEAST_SIDE: u32 = 256;

/// Cards this many times [`BEST_CARD`] tall at the first look are seen again
/// smaller (down to [`LEAST_SIDE`]); smaller cards are never seen smaller
/// than at [`NET_SIZE`]. A card filling a landscape picture is five times the
/// best size at [`NET_SIZE`], and its pips and far corner were read as other
/// cards: on 60 such close-ups of the five held-out designs (session 72,
/// models/README.md), 24 false cards at [`NET_SIZE`], 3 seen again at 256.
/// Seeing every large card smaller (session 5; or from 2 times here) lost
/// more cards than it saved false finds, on the photos and the renders alike.
pub const HUGE_CARD: f32 = 2.5;

/// The network's cell size, in its pixels.
const STRIDE: usize = 4;

/// The maps the network gives, per cell.
const CHANNELS: usize = 16;

/// A face-up card's index corner, found.
#[derive(Clone, Debug, PartialEq)]
pub struct Corner {
    /// How likely this is an index corner, 0..1.
    pub score: f32,
    /// The reader's window at this corner, in frame pixels: top-left, top-right,
    /// bottom-right, bottom-left as the index reads.
    pub window: [[f32; 2]; 4],
    /// The box around what shows of the card, `[x0, y0, x1, y1]` in frame pixels.
    pub bbox: [f32; 4],
}

/// A face-down card, found.
#[derive(Clone, Debug, PartialEq)]
pub struct Back {
    /// How likely this is a face-down card, 0..1.
    pub score: f32,
    /// The box around what shows of it, `[x0, y0, x1, y1]` in frame pixels.
    pub bbox: [f32; 4],
}

/// What the finder found in a frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Finds {
    /// Index corners of face-up cards (a card may show two).
    pub corners: Vec<Corner>,
    /// Face-down cards.
    pub backs: Vec<Back>,
    /// The long side the frame was seen at, in the network's pixels.
    pub side: u32,
}

/// The finder network.
pub struct Finder {
    session: Session,
    path: PathBuf,
    /// The least score of an index corner reported.
    pub corner_threshold: f32,
    /// The least score of a face-down card reported.
    pub back_threshold: f32,
    /// Whether to keep the size the last frame was seen at and start the next
    /// frame there: for a camera that does not move, this saves the first
    /// look. Off, each frame is first seen at [`NET_SIZE`], so a picture's
    /// finds never depend on the pictures before it.
    pub keep_size: bool,
    /// The long side the next frame is first seen at.
    side: u32,
    /// How much two face-down votes' boxes overlap when they are for one
    /// card: [`SAME_OBJECT`], or [`CAMERA_SAME_BACK`] for a table camera's frames.
    pub same_back: f32,
    /// Whether the frames are one still camera's, so that the network
    /// looks again only at the parts of a frame that changed since it last
    /// looked there ([`crate::changes`]), and the other cells keep its
    /// answer; a part that changed is looked at again for
    /// [`Finder::settle`] frames after, and a frame that changed
    /// [`Finder::whole_look_after`] frames or more after the last whole look
    /// is looked at whole.
    pub only_changes: bool,
    /// With [`Finder::only_changes`], how many frames a part that changed
    /// is looked at again after ([`SETTLE_SECS`], [`Finder::frames_a_second`]).
    pub settle: u32,
    /// With [`Finder::only_changes`], how often a part settling is looked
    /// at again: every this many frames ([`SETTLE_LOOKS`]).
    pub settle_every: u32,
    /// With [`Finder::only_changes`], how many frames may pass before a
    /// frame that changed is looked at whole ([`WHOLE_LOOK_SECS`]).
    pub whole_look_after: u32,
    /// The network's input, kept from frame to frame (its memory reused).
    input: ndarray::Array4<f32>,
    /// The last look's, for [`Finder::only_changes`].
    kept: Option<Kept>,
    /// Frames looked at in part or not at all, for [`Finder::settle_every`].
    clock: u32,
    /// How the last frame was looked at.
    last_look: Look,
}

/// How the finder looked at a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Look {
    /// At the whole frame.
    Whole,
    /// At the parts that changed since the frame before
    /// ([`Finder::only_changes`]), this share of the frame.
    InPart(f32),
    /// Not at all: nothing changed since the frame before.
    Unchanged,
}

/// How long a part of a still camera's frames that changed is looked at
/// again after, in seconds ([`Finder::only_changes`]). A card just dealt
/// onto another is where the finder's answer is least settled (one box for
/// the two, or two), and the camera's noise has it answer one way or the
/// other from frame to frame: the live table's rules count on seeing it
/// answer more than once (seed 54 of the rendered sittings, at 10 fps: a
/// back dealt onto Cat's first card was boxed with it in the frame it came
/// to rest, and apart four frames later; looked at once, it was never
/// dealt).
pub const SETTLE_SECS: f32 = 1.0;

/// How many times a second a part settling is looked at again
/// ([`SETTLE_SECS`]): every frame of a camera at 10 fps, every third at 30.
/// What settles is the finder's answer to the camera's noise, which a
/// faster camera's frames give no more of in a second; the changes
/// themselves are looked at in every frame. Measured on the rendered
/// sittings at 30 fps: seeds 8, 12 and 13 read at 84.5, 87.0 and 75.7
/// frames a second against 27.8, 40.7 and 43.3 looking at what settles in
/// every frame, and seeds 8, 11-14, 16 and 54 kept their ledgers alike.
pub const SETTLE_LOOKS: f32 = 10.0;

/// How often a still camera's frames are looked at whole, in seconds
/// ([`Finder::only_changes`]): the cells answered in part also hear,
/// faintly, what changed farther off than the network is asked about.
pub const WHOLE_LOOK_SECS: f32 = 2.0;

/// The frame rate [`Finder::settle`] and [`Finder::whole_look_after`] are
/// set for until [`Finder::frames_a_second`] says: a webcam's.
pub const USUAL_FPS: f32 = 30.0;

/// What the network last answered, for a camera's next frame.
struct Kept {
    /// The input its maps answer, tile by tile: what it saw there last.
    seen: ndarray::Array4<f32>,
    /// Its maps, channel-major.
    maps: Vec<f32>,
    /// The finds they decode to.
    finds: Finds,
    /// Frames looked at in part or not at all since the last whole look.
    partial: u32,
    /// Per tile, the frames it is still looked at again for since it last
    /// changed ([`Finder::settle`]).
    settling: Vec<u32>,
    /// Per tile ([`crate::changes::TILE`]), whether the last look answered
    /// its cells again.
    again: Vec<bool>,
    /// The grid's width in tiles.
    tiles_wide: usize,
    /// The network's pixels per frame pixel.
    scale: f32,
}

impl Finder {
    /// Loads the finder network, to run on every core (four at most).
    pub fn open(path: &Path) -> Result<Finder, ModelError> {
        Finder::open_on(path, cores())
    }

    /// Loads the finder network, to run on `threads` threads.
    pub fn open_on(path: &Path, threads: usize) -> Result<Finder, ModelError> {
        Ok(Finder {
            session: session(path, threads)?,
            path: path.to_owned(),
            corner_threshold: CORNER_THRESHOLD,
            back_threshold: 0.5,
            keep_size: false,
            side: NET_SIZE,
            same_back: SAME_OBJECT,
            only_changes: false,
            settle: (SETTLE_SECS * USUAL_FPS).round() as u32,
            settle_every: (USUAL_FPS / SETTLE_LOOKS).round() as u32,
            whole_look_after: (WHOLE_LOOK_SECS * USUAL_FPS).round() as u32,
            input: ndarray::Array4::zeros((1, 3, 0, 0)),
            kept: None,
            clock: 0,
            last_look: Look::Whole,
        })
    }

    /// The corners and backs in a frame: seen first at [`NET_SIZE`] (or, with
    /// [`Finder::keep_size`], at the size the last frame was seen at), then
    /// again at [`wanted_side`] when the cards found are far from the size the
    /// network reads best.
    pub fn find(&mut self, frame: &RgbImage) -> Result<Finds, ModelError> {
        self.find_kept(frame, |finds, _| Ok(finds))
            .map(|(finds, _)| finds)
    }

    /// [`Finder::find`], the first look's finds passed through `keep` (with
    /// the finder, to ask [`Finder::looked_again_at`])
    /// before they choose the size of the second look: a find that `keep`
    /// drops (a back the back checker doubts) is no card, and its size says
    /// nothing of the cards'. Gives the finds of the look that stands, and
    /// whether that was the second (whose finds `keep` has not seen).
    pub fn find_kept(
        &mut self,
        frame: &RgbImage,
        keep: impl FnOnce(Finds, &Finder) -> Result<Finds, ModelError>,
    ) -> Result<(Finds, bool), ModelError> {
        let start = if self.keep_size { self.side } else { NET_SIZE };
        let first = self.find_at(frame, start)?;
        if self.last_look == Look::Unchanged {
            return Ok((first, false));
        }
        let first = keep(first, self)?;
        let (finds, again) = match wanted_side(&first, frame.width().max(frame.height())) {
            Some(side) => (self.find_at(frame, side)?, true),
            None => (first, false),
        };
        self.side = finds.side;
        Ok((finds, again))
    }

    /// The corners and backs in a frame seen with its long side `side` pixels.
    pub fn find_at(&mut self, frame: &RgbImage, side: u32) -> Result<Finds, ModelError> {
        let scale = fill_network_input(frame, side, &mut self.input);
        let shape = self.input.shape().to_vec();
        let (gh, gw) = (shape[2] / STRIDE, shape[3] / STRIDE);
        let kept = self
            .kept
            .take()
            .filter(|k| self.only_changes && k.finds.side == side && k.seen.shape() == &shape[..]);
        let mut again = None;
        let mut settling = None;
        self.last_look = Look::Whole;
        if let Some(mut kept) = kept {
            // All that settles is looked at in the same frames, so that
            // their parts are cut together and the frames between cost
            // nothing.
            self.clock = self.clock.wrapping_add(1);
            let on = self.clock.is_multiple_of(self.settle_every.max(1));
            let looked = kept.settle(&self.input, self.settle, on);
            let changes = crate::changes::parts(&looked, shape[3] / TILE);
            kept.partial += 1;
            if changes.none() {
                self.last_look = Look::Unchanged;
                tracing::trace!(look = ?self.last_look, "the finder looked");
                let finds = kept.finds.clone();
                kept.again.fill(false);
                self.kept = Some(kept);
                return Ok(finds);
            }
            let part = changes.share();
            if part <= crate::changes::MOST_IN_PARTS && kept.partial < self.whole_look_after {
                self.look_again(&mut kept, &changes)?;
                kept.again = changes.again;
                self.last_look = Look::InPart(part);
                again = Some(kept);
            } else {
                settling = Some(kept.settling);
            }
        }
        let mut kept = match again {
            Some(kept) => kept,
            None => Kept {
                maps: look(&mut self.session, &self.path, &self.input)?,
                seen: if self.only_changes {
                    self.input.clone()
                } else {
                    ndarray::Array4::zeros((1, 3, 0, 0))
                },
                finds: Finds::default(),
                partial: 0,
                settling: settling
                    .unwrap_or_else(|| vec![0; (shape[2] / TILE) * (shape[3] / TILE)]),
                again: vec![true; (shape[2] / TILE) * (shape[3] / TILE)],
                tiles_wide: shape[3] / TILE,
                scale,
            },
        };
        // What settles is a card come to rest: a tile the network finds
        // nothing on (a card passed over it) is not looked at again.
        let holding = tiles_holding(&kept.maps, gw, gh);
        kept.settling
            .iter_mut()
            .zip(holding)
            .for_each(|(left, holds)| {
                *left *= u32::from(holds);
            });
        tracing::trace!(
            look = ?self.last_look,
            settling = kept.settling.iter().filter(|&&left| left > 0).count(),
            "the finder looked"
        );
        let finds = Finds {
            side,
            ..decode(
                &Maps {
                    values: &kept.maps,
                    width: gw,
                    height: gh,
                },
                1.0 / scale,
                (self.corner_threshold, self.back_threshold),
                self.same_back,
                frame.dimensions(),
            )
        };
        if self.only_changes {
            self.kept = Some(Kept {
                finds: finds.clone(),
                ..kept
            });
        }
        Ok(finds)
    }

    /// Sets [`Finder::settle`], [`Finder::settle_every`] and
    /// [`Finder::whole_look_after`] for a camera giving `fps` frames a second.
    pub fn frames_a_second(&mut self, fps: f32) {
        let frames = |secs: f32| (secs * fps).round().clamp(1.0, 10_000.0) as u32;
        self.settle = frames(SETTLE_SECS);
        self.settle_every = (fps / SETTLE_LOOKS).round().clamp(1.0, 10_000.0) as u32;
        self.whole_look_after = frames(WHOLE_LOOK_SECS);
    }

    /// How the last frame was looked at (its last look, when it was looked
    /// at twice).
    #[must_use]
    pub fn last_look(&self) -> Look {
        self.last_look
    }

    /// Whether the last look answered again the cells of any tile that
    /// `region` (frame pixels) meets: always, unless it looked at one still
    /// camera's frame in part or not at all ([`Finder::only_changes`]). What
    /// was read from a region of the frame before, where it did not look
    /// again, reads the same.
    #[must_use]
    pub fn looked_again_at(&self, region: [f32; 4]) -> bool {
        let Some(kept) = &self.kept else {
            return true;
        };
        let rows = kept.again.len() / kept.tiles_wide.max(1);
        let tile = |v: f32, limit: usize| {
            ((v * kept.scale / TILE as f32).floor().max(0.0) as usize).min(limit)
        };
        let (x0, x1) = (
            tile(region[0], kept.tiles_wide - 1),
            tile(region[2], kept.tiles_wide - 1),
        );
        let (y0, y1) = (
            tile(region[1], rows.saturating_sub(1)),
            tile(region[3], rows.saturating_sub(1)),
        );
        (y0..=y1).any(|y| (x0..=x1).any(|x| kept.again[y * kept.tiles_wide + x]))
    }

    /// The network run again on the parts of the input that `changes` names,
    /// its answers there put into `kept`'s maps, and what it saw there into
    /// `kept`'s input.
    fn look_again(&mut self, kept: &mut Kept, changes: &Changes) -> Result<(), ModelError> {
        let shape = self.input.shape();
        let (height, width) = (shape[2], shape[3]);
        let (gh, gw) = (height / STRIDE, width / STRIDE);
        let cells = TILE / STRIDE;
        let now = self.input.as_slice().unwrap_or_default();
        let Some(seen) = kept.seen.as_slice_mut() else {
            return Ok(());
        };
        for (part, answered) in changes.parts.iter().zip(&changes.answered) {
            let cut = self
                .input
                .slice(ndarray::s![
                    ..,
                    ..,
                    part.y0 * TILE..part.y1 * TILE,
                    part.x0 * TILE..part.x1 * TILE
                ])
                .as_standard_layout()
                .into_owned();
            let maps = look(&mut self.session, &self.path, &cut)?;
            let (ph, pw) = ((part.y1 - part.y0) * cells, (part.x1 - part.x0) * cells);
            for ty in answered.y0..answered.y1 {
                for tx in answered.x0..answered.x1 {
                    if !changes.again[ty * changes.width + tx] {
                        continue;
                    }
                    for c in 0..CHANNELS {
                        for r in 0..cells {
                            let to = (c * gh + ty * cells + r) * gw + tx * cells;
                            let from =
                                (c * ph + (ty - part.y0) * cells + r) * pw + (tx - part.x0) * cells;
                            kept.maps[to..to + cells].copy_from_slice(&maps[from..from + cells]);
                        }
                    }
                    for c in 0..3 {
                        for y in ty * TILE..(ty + 1) * TILE {
                            let at = (c * height + y) * width + tx * TILE;
                            seen[at..at + TILE].copy_from_slice(&now[at..at + TILE]);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl Kept {
    /// The tiles to look at again in the network's input `now`: those that
    /// changed since the network last looked at them, and, when `on`, those
    /// still settling, for `settle` frames after they last changed. Both are
    /// answered again with [`crate::changes::AROUND`] tiles about them: with
    /// none about a tile settling, seed 39 of the live table's sittings at
    /// 10 fps counted a card that was none; with one, seed 32 with bad
    /// frames (`the_real_recogniser_keeps_the_ledger_of_rendered_sittings`)
    /// lost its ledger (at 30 fps it read about a tenth faster).
    fn settle(&mut self, now: &ndarray::Array4<f32>, settle: u32, on: bool) -> Vec<bool> {
        let shape = now.shape();
        let changed = crate::changes::changed_tiles(
            self.seen.as_slice().unwrap_or_default(),
            now.as_slice().unwrap_or_default(),
            shape[3],
            shape[2],
        );
        let settle = settle.max(1);
        self.settling
            .iter_mut()
            .zip(changed)
            .map(|(left, changed)| {
                *left = if changed {
                    settle
                } else {
                    left.saturating_sub(1)
                };
                changed || (*left > 0 && on)
            })
            .collect()
    }
}

/// A cell whose masks are both under this holds nothing a look again could
/// settle ([`SETTLE_SECS`]).
const HOLDS: f32 = 0.3;

/// Per tile ([`TILE`]) of maps `gw` x `gh` cells, whether any of its cells
/// lies on an index corner or a back at [`HOLDS`] or more.
fn tiles_holding(maps: &[f32], gw: usize, gh: usize) -> Vec<bool> {
    let cells = TILE / STRIDE;
    let (tw, th) = (gw / cells, gh / cells);
    let mut holding = vec![false; tw * th];
    for channel in 0..2 {
        for y in 0..th * cells {
            let row = &maps[(channel * gh + y) * gw..][..tw * cells];
            for (x, &v) in row.iter().enumerate() {
                if v >= HOLDS {
                    holding[(y / cells) * tw + x / cells] = true;
                }
            }
        }
    }
    holding
}

/// The finder network's maps for `input`, checked for their shape.
fn look(
    session: &mut Session,
    path: &Path,
    input: &ndarray::Array4<f32>,
) -> Result<Vec<f32>, ModelError> {
    let shape = input.shape();
    let (gh, gw) = (shape[2] / STRIDE, shape[3] / STRIDE);
    let (out_shape, maps) = run(session, input)?;
    let expected = [1, CHANNELS as i64, gh as i64, gw as i64];
    if out_shape[..] != expected[..] {
        return Err(ModelError::Model {
            path: path.to_owned(),
            reason: format!("its output is {out_shape:?}, not {expected:?}"),
        });
    }
    Ok(maps)
}

/// The long side to see a frame at again, given what was found at the first
/// look at a frame whose long side is `long_side`: the size that makes the
/// typical card found (the median of the cards each corner's window implies
/// and of the backs' boxes) [`BEST_CARD`] pixels tall, between [`NET_SIZE`]
/// and [`MOST_SIDE`], or down to [`LEAST_SIDE`] for cards over [`HUGE_CARD`]
/// times that size. `None` when nothing was found or the first look was
/// within a quarter of that size.
#[must_use]
pub fn wanted_side(finds: &Finds, long_side: u32) -> Option<u32> {
    // The network's pixels per frame pixel.
    let unit = finds.side as f32 / long_side.max(1) as f32;
    let share = INDEX_WINDOW[3] - INDEX_WINDOW[1];
    let mut heights: Vec<f32> = finds
        .corners
        .iter()
        .map(|c| {
            f32::midpoint(
                distance(c.window[0], c.window[3]),
                distance(c.window[1], c.window[2]),
            ) / share
        })
        .chain(finds.backs.iter().map(|b| crate::boxes::long_side(b.bbox)))
        .map(|h| h * unit)
        .filter(|h| h.is_finite() && *h > 0.0)
        .collect();
    if heights.is_empty() {
        return None;
    }
    heights.sort_by(f32::total_cmp);
    let typical = heights[heights.len() / 2];
    let now = finds.side as f32;
    let least = if typical > HUGE_CARD * BEST_CARD {
        LEAST_SIDE
    } else {
        NET_SIZE
    };
    let wanted = (now * BEST_CARD / typical).clamp(least as f32, MOST_SIDE as f32);
    (wanted > 1.25 * now || wanted * 1.25 < now).then_some(wanted.round() as u32)
}

/// The frame as the network's input: scaled so its long side is `side`
/// (averaging the pixels each input pixel covers), padded with black to
/// multiples of 32, RGB in 0..1. Also gives the scale (input pixels per frame pixel).
#[must_use]
pub fn network_input(frame: &RgbImage, side: u32) -> (ndarray::Array4<f32>, f32) {
    let mut input = ndarray::Array4::<f32>::zeros((1, 3, 0, 0));
    let scale = fill_network_input(frame, side, &mut input);
    (input, scale)
}

/// [`network_input`] into `input`, reusing its memory when it already has
/// the shape (a camera's frames are all one size). Gives the scale.
pub fn fill_network_input(frame: &RgbImage, side: u32, input: &mut ndarray::Array4<f32>) -> f32 {
    let (w, h) = frame.dimensions();
    let scale = side as f32 / w.max(h).max(1) as f32;
    let (sw, sh) = (
        ((w as f32 * scale).round() as usize).max(1),
        ((h as f32 * scale).round() as usize).max(1),
    );
    let (pw, ph) = (sw.div_ceil(32) * 32, sh.div_ceil(32) * 32);
    if input.shape() != [1, 3, ph, pw] || !input.is_standard_layout() {
        *input = ndarray::Array4::<f32>::zeros((1, 3, ph, pw));
    }
    let raw = frame.as_raw();
    let (fw, fh) = (w as usize, h as usize);
    let step = 1.0 / scale;
    // How many source pixels each input pixel covers along one axis, and
    // which they are (the same for every row and every column).
    let taps = (step.ceil() as usize).max(1);
    let sources = |n: usize, limit: usize| -> Vec<usize> {
        (0..n)
            .flat_map(|i| {
                (0..taps).map(move |t| {
                    let s = ((i as f32 + (t as f32 + 0.5) / taps as f32) * step) as usize;
                    s.min(limit - 1)
                })
            })
            .collect()
    };
    let (xs, ys) = (sources(sw, fw), sources(sh, fh));
    let identity = taps == 1 && xs.iter().enumerate().all(|(i, &x)| i == x);
    let plane = ph * pw;
    let Some(data) = input.as_slice_mut() else {
        return scale;
    };
    let norm = 1.0 / ((taps * taps) as f32 * 255.0);
    let mut sums = vec![[0u32; 3]; sw];
    for y in 0..sh {
        if taps == 1 {
            // One source pixel each (the frame seen at its size or larger).
            let row = &raw[ys[y] * fw * 3..][..fw * 3];
            let (red, rest) = data[y * pw..].split_at_mut(plane);
            let (green, blue) = rest.split_at_mut(plane);
            let planes = red[..sw]
                .iter_mut()
                .zip(&mut green[..sw])
                .zip(&mut blue[..sw]);
            let put = |((r, g), b): ((&mut f32, &mut f32), &mut f32), p: &[u8]| {
                (*r, *g, *b) = (
                    f32::from(p[0]) * norm,
                    f32::from(p[1]) * norm,
                    f32::from(p[2]) * norm,
                );
            };
            if identity {
                // The frame at its own size: its pixels in order.
                for (out, p) in planes.zip(row.chunks_exact(3)) {
                    put(out, p);
                }
            } else {
                for (out, &sx) in planes.zip(&xs) {
                    put(out, &row[sx * 3..sx * 3 + 3]);
                }
            }
        } else {
            sums.fill([0; 3]);
            for &sy in &ys[y * taps..(y + 1) * taps] {
                let row = &raw[sy * fw * 3..][..fw * 3];
                for (sum, columns) in sums.iter_mut().zip(xs.chunks_exact(taps)) {
                    for &sx in columns {
                        let p = &row[sx * 3..sx * 3 + 3];
                        sum[0] += u32::from(p[0]);
                        sum[1] += u32::from(p[1]);
                        sum[2] += u32::from(p[2]);
                    }
                }
            }
            for c in 0..3 {
                let out = &mut data[c * plane + y * pw..][..sw];
                for (o, sum) in out.iter_mut().zip(&sums) {
                    *o = sum[c] as f32 * norm;
                }
            }
        }
        // The padding right of the frame.
        for c in 0..3 {
            data[c * plane + y * pw + sw..][..pw - sw].fill(0.0);
        }
    }
    // The padding below it.
    for c in 0..3 {
        data[c * plane + sh * pw..][..(ph - sh) * pw].fill(0.0);
    }
    scale
}

/// The network's output for one frame, channel-major.
struct Maps<'a> {
    values: &'a [f32],
    width: usize,
    height: usize,
}

impl Maps<'_> {
    fn at(&self, channel: usize, x: usize, y: usize) -> f32 {
        self.values[(channel * self.height + y) * self.width + x]
    }
}

/// One cell's vote for an object, in input pixels.
struct Vote {
    score: f32,
    window: [[f32; 2]; 4],
    bbox: [f32; 4],
    /// The box that says which object it votes for: the window's box for an
    /// index corner, the visible box for a back.
    key: [f32; 4],
}

/// An object found: its votes put together, in input pixels.
struct Found {
    score: f32,
    window: [[f32; 2]; 4],
    bbox: [f32; 4],
    /// The summed score of its votes.
    mass: f32,
}

/// The cells at or above `threshold` in mask `channel`, each voting for where
/// its object lies (channels 2, 3 its centre; 4..11 an index corner's window;
/// 12..15 the box around what shows, all relative to the cell, in units of 16
/// input pixels).
fn votes(maps: &Maps, channel: usize, threshold: f32) -> Vec<Vote> {
    let mut votes = Vec::new();
    for y in 0..maps.height {
        for x in 0..maps.width {
            let score = maps.at(channel, x, y);
            if score < threshold {
                continue;
            }
            let (cx, cy) = (
                (x as f32 + 0.5) * STRIDE as f32,
                (y as f32 + 0.5) * STRIDE as f32,
            );
            let point = |k: usize| {
                [
                    cx + maps.at(k, x, y) * 16.0,
                    cy + maps.at(k + 1, x, y) * 16.0,
                ]
            };
            let window = [point(4), point(6), point(8), point(10)];
            let bbox = [
                cx + maps.at(12, x, y) * 16.0,
                cy + maps.at(13, x, y) * 16.0,
                cx + maps.at(14, x, y) * 16.0,
                cy + maps.at(15, x, y) * 16.0,
            ];
            let key = if channel == 0 {
                crate::boxes::bounds(&window)
            } else {
                bbox
            };
            votes.push(Vote {
                score,
                window,
                bbox,
                key,
            });
        }
    }
    votes
}

/// Votes whose boxes overlap at least this much are for the same object.
pub const SAME_OBJECT: f32 = 0.5;

/// In a table camera's frames, face-down votes are for one card only when
/// their boxes overlap this much: the finder guesses the whole outline of a
/// hand's lower back, and two stacked backs' outlines overlap by 0.5 to
/// 0.6, so at [`SAME_OBJECT`] a second card dealt onto the first was found as
/// one card with it, and never dealt. A back then found twice is told apart
/// in time (cards are dealt one at a time, `play`); a back missed is a card
/// lost. Measured on 31 rendered sittings through the live table: 394 of
/// 538 cards dealt in order, 357 at 0.5 (0.55: 403, 0.65: 393, 0.7: 359).
/// Photos keep [`SAME_OBJECT`]: with no second look, the backs found twice
/// outweigh those found (held-out renders 19 more read right for 35 more
/// false cards; `scenes-edje-train` 24 more false cards, none more right).
pub const CAMERA_SAME_BACK: f32 = 0.6;

/// The least score of an index corner reported in a picture.
pub const CORNER_THRESHOLD: f32 = 0.4;

/// The least score of an index corner reported in a table camera's frames:
/// a corner missed in one frame is seen in the next, while a weak find (a
/// pip, a court figure, a half-hidden index read as another card) makes a
/// card the live table may deal or take a reading from. Measured on 31
/// rendered sittings through the live table (with [`CAMERA_SAME_BACK`]):
/// cards dealt in order of 538 and ledgers exact, 0.3: 387 and 3; 0.4: 400
/// and 6; 0.45: 425 and 8; 0.5: 411 and 9; 0.55: 420 and 11; 0.6: 435 and
/// 13; 0.7: 367 and 5; 0.8: 233 and 0. The middle of the plateau, clear of
/// the fall past 0.6.
pub const CAMERA_CORNER_THRESHOLD: f32 = 0.55;

/// The least summed score of an object's votes: one weak cell is noise.
const LEAST_MASS: f32 = 1.0;

/// Puts the votes together: the strongest vote left takes every vote left
/// whose key overlaps its own by [`SAME_OBJECT`], and the object is their
/// average, weighted by score. With `again` (the backs), that average then
/// takes every vote left whose key overlaps it by as much, and the object is
/// the average of those: the strongest cell may lie at a card's edge, its box
/// off the middle of the others, and the votes it left would make a second,
/// weaker object on the same card. Objects with less than [`LEAST_MASS`] of
/// votes are dropped (`models/train_detector.py` `decode` does the same).
fn gather(mut votes: Vec<Vote>, again: bool, same: f32) -> Vec<Found> {
    votes.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut taken = vec![false; votes.len()];
    let mut found = Vec::new();
    for j in 0..votes.len() {
        if taken[j] {
            continue;
        }
        let mut key = votes[j].key;
        let mut object = average(&votes, &taken, j, key, same);
        if again {
            key = object.bbox;
            object = average(&votes, &taken, j, key, same);
        }
        for (k, vote) in votes.iter().enumerate().skip(j) {
            if k == j || iou(vote.key, key) >= same {
                taken[k] = true;
            }
        }
        if object.mass >= LEAST_MASS {
            found.push(object);
        }
    }
    found
}

/// The average, weighted by score, of vote `seed` and of the votes after it
/// not taken whose keys overlap `key` by `same`.
fn average(votes: &[Vote], taken: &[bool], seed: usize, key: [f32; 4], same: f32) -> Found {
    let mut mass = 0.0;
    let mut window = [[0.0f32; 2]; 4];
    let mut bbox = [0.0f32; 4];
    for (k, vote) in votes.iter().enumerate().skip(seed) {
        if taken[k] || (k != seed && iou(vote.key, key) < same) {
            continue;
        }
        mass += vote.score;
        for (sum, point) in window.iter_mut().zip(&vote.window) {
            sum[0] += vote.score * point[0];
            sum[1] += vote.score * point[1];
        }
        for (sum, v) in bbox.iter_mut().zip(&vote.bbox) {
            *sum += vote.score * v;
        }
    }
    Found {
        score: votes[seed].score,
        window: window.map(|p| p.map(|v| v / mass)),
        bbox: bbox.map(|v| v / mass),
        mass,
    }
}

/// A face-down find overlapping a find of [`LEFTOVER_RATIO`] times its votes
/// by [`LEFTOVER_OVERLAP`] or more is leftover votes at that card's edges,
/// not a card. Measured on the rendered sittings' frames, where a hand's
/// overlapping backs were found 871 times twice for 1,843 backs: the second
/// finds carry a median 30 times fewer votes than the card's own, true
/// neighbours in a hand rarely a quarter as many.
const LEFTOVER_OVERLAP: f32 = 0.4;

/// See [`LEFTOVER_OVERLAP`].
const LEFTOVER_RATIO: f32 = 10.0;

/// The face-down finds without the leftovers ([`LEFTOVER_OVERLAP`]).
fn drop_leftovers(mut found: Vec<Found>) -> Vec<Found> {
    found.sort_by(|a, b| b.mass.total_cmp(&a.mass));
    let mut kept: Vec<Found> = Vec::with_capacity(found.len());
    for f in found {
        let leftover = kept
            .iter()
            .any(|k| k.mass >= LEFTOVER_RATIO * f.mass && iou(k.bbox, f.bbox) >= LEFTOVER_OVERLAP);
        if !leftover {
            kept.push(f);
        }
    }
    kept
}

/// The maps to finds, in frame pixels (`unscale`: frame pixels per input
/// pixel; `same_back`: how much face-down votes overlap to be one card).
fn decode(
    maps: &Maps,
    unscale: f32,
    thresholds: (f32, f32),
    same_back: f32,
    frame: (u32, u32),
) -> Finds {
    let (fw, fh) = (frame.0 as f32, frame.1 as f32);
    let clip = |b: [f32; 4]| {
        [
            (b[0] * unscale).clamp(0.0, fw),
            (b[1] * unscale).clamp(0.0, fh),
            (b[2] * unscale).clamp(0.0, fw),
            (b[3] * unscale).clamp(0.0, fh),
        ]
    };
    let corners = gather(votes(maps, 0, thresholds.0), false, SAME_OBJECT)
        .into_iter()
        .map(|f| Corner {
            score: f.score,
            window: f.window.map(|p| p.map(|v| v * unscale)),
            bbox: clip(f.bbox),
        })
        .collect();
    let backs = drop_leftovers(gather(votes(maps, 1, thresholds.1), true, same_back))
        .into_iter()
        .map(|f| Back {
            score: f.score,
            bbox: clip(f.bbox),
        })
        .collect();
    Finds {
        corners,
        backs,
        side: 0,
    }
}

/// The cores the networks run on: every one, four at most.
#[must_use]
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A corner whose window implies a card `height` frame pixels tall, upright at `x`.
    fn corner(x: f32, height: f32) -> Corner {
        let (w, h) = (
            height * 0.7 * (INDEX_WINDOW[2] - INDEX_WINDOW[0]),
            height * (INDEX_WINDOW[3] - INDEX_WINDOW[1]),
        );
        Corner {
            score: 0.9,
            window: [[x, 10.0], [x + w, 10.0], [x + w, 10.0 + h], [x, 10.0 + h]],
            bbox: [x, 10.0, x + height * 0.7, 10.0 + height],
        }
    }

    fn finds(heights: &[f32], side: u32) -> Finds {
        Finds {
            corners: heights
                .iter()
                .enumerate()
                .map(|(i, &h)| corner(i as f32 * 100.0, h))
                .collect(),
            backs: Vec::new(),
            side,
        }
    }

    /// A back's vote: a cell's guess of the card's visible box.
    fn back_vote(score: f32, bbox: [f32; 4]) -> Vote {
        Vote {
            score,
            window: [[0.0; 2]; 4],
            bbox,
            key: bbox,
        }
    }

    /// The votes of one face-down card whose cells' guesses drift with where
    /// the cell lies (as the finder's do on a pack or a hand's lower card):
    /// the bottom edge from 80 down to 118, the top from 0 to 25.
    fn drifting(scale: f32) -> Vec<Vote> {
        (0..30)
            .map(|k| {
                let t = k as f32 / 29.0;
                let score = if k == 0 { 0.61 } else { 0.6 - 0.001 * k as f32 };
                back_vote(
                    score,
                    [10.0 * t, 25.0 * t, 80.0 + 10.0 * t, 80.0 + 38.0 * t].map(|v| v * scale),
                )
            })
            .collect()
    }

    #[test]
    fn a_backs_drifting_votes_are_one_card() {
        // Gathered once round the strongest vote (at an end of the drift),
        // the votes it leaves make a second card.
        assert_eq!(gather(drifting(1.0), false, SAME_OBJECT).len(), 2);
        let found = gather(drifting(1.0), true, SAME_OBJECT);
        assert_eq!(found.len(), 1);
        assert!((found[0].mass - 17.6).abs() < 0.5, "{}", found[0].mass);
    }

    #[test]
    fn overlapping_backs_with_their_own_votes_stay_two_cards() {
        let mut votes: Vec<Vote> = (0..40)
            .map(|_| back_vote(0.8, [0.0, 0.0, 80.0, 110.0]))
            .collect();
        votes.extend((0..40).map(|_| back_vote(0.7, [30.0, 20.0, 110.0, 130.0])));
        let found = drop_leftovers(gather(votes, true, SAME_OBJECT));
        assert_eq!(found.len(), 2);
    }

    #[test]
    fn a_card_dealt_onto_another_is_two_cards_in_a_cameras_frames() {
        // The lower card's votes guess its whole outline, the upper's its
        // own, 13 pixels lower and left: the boxes overlap by about 0.55.
        let votes = || {
            (0..40)
                .map(|_| back_vote(0.8, [12.0, 0.0, 110.0, 99.0]))
                .chain((0..40).map(|_| back_vote(0.8, [0.0, 21.0, 102.0, 121.0])))
                .collect::<Vec<Vote>>()
        };
        assert_eq!(drop_leftovers(gather(votes(), true, SAME_OBJECT)).len(), 1);
        assert_eq!(
            drop_leftovers(gather(votes(), true, CAMERA_SAME_BACK)).len(),
            2
        );
    }

    #[test]
    fn a_few_votes_beside_a_heavy_card_are_leftovers() {
        let mut votes: Vec<Vote> = (0..40)
            .map(|_| back_vote(0.8, [0.0, 0.0, 80.0, 110.0]))
            .collect();
        // 2 votes (mass 1.6, a twentieth of the card's) overlapping it at 0.44.
        votes.extend((0..2).map(|_| back_vote(0.8, [25.0, 20.0, 95.0, 125.0])));
        assert_eq!(drop_leftovers(gather(votes, true, SAME_OBJECT)).len(), 1);
        // As many votes as the card's own: a second card.
        let mut votes: Vec<Vote> = (0..40)
            .map(|_| back_vote(0.8, [0.0, 0.0, 80.0, 110.0]))
            .collect();
        votes.extend((0..40).map(|_| back_vote(0.8, [25.0, 20.0, 95.0, 125.0])));
        assert_eq!(drop_leftovers(gather(votes, true, SAME_OBJECT)).len(), 2);
    }

    #[test]
    fn small_cards_are_seen_again_larger() {
        // A 1280-pixel frame seen at 640: cards 100 frame pixels tall are 50 to the network.
        let side = wanted_side(&finds(&[100.0, 96.0, 104.0], 640), 1280);
        assert_eq!(side, Some(1280));
        // Cards 150 frame pixels tall are 75 to the network: 853 makes them 100.
        let side = wanted_side(&finds(&[150.0, 150.0, 150.0], 640), 1280);
        assert_eq!(side, Some(853));
    }

    #[test]
    fn cards_near_the_best_size_or_larger_are_not_seen_again() {
        assert_eq!(wanted_side(&finds(&[190.0, 200.0, 210.0], 640), 1280), None);
        assert_eq!(wanted_side(&finds(&[480.0], 640), 1280), None);
        assert_eq!(wanted_side(&finds(&[], 640), 1280), None);
    }

    #[test]
    fn a_card_filling_the_picture_is_seen_again_smaller() {
        // 900 frame pixels tall is 450 to the network at 640: 142 would make
        // it 100, and the least side is 256.
        assert_eq!(wanted_side(&finds(&[900.0], 640), 1280), Some(LEAST_SIDE));
        // 600 is 300 to the network: 213 would make it 100.
        assert_eq!(wanted_side(&finds(&[600.0], 640), 1280), Some(LEAST_SIDE));
    }

    #[test]
    fn a_look_kept_from_the_last_frame_comes_back_down_for_large_cards() {
        // Seen at 1280 (kept from a frame of small cards), cards 200 frame
        // pixels tall are 200 to the network: back to the first size.
        assert_eq!(
            wanted_side(&finds(&[200.0, 200.0], 1280), 1280),
            Some(NET_SIZE)
        );
    }

    /// A frame of a colour ramp, `w` x `h`.
    fn ramp(w: u32, h: u32) -> RgbImage {
        RgbImage::from_fn(w, h, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, ((x + 3 * y) % 256) as u8])
        })
    }

    #[test]
    fn the_input_kept_from_frame_to_frame_is_the_input_made_afresh() {
        // A frame seen at its size, then smaller, then a narrower frame whose
        // input has the first one's shape: the buffer kept from the frame
        // before must leave nothing of it behind (the padding is black).
        let mut kept = ndarray::Array4::<f32>::zeros((1, 3, 0, 0));
        for (frame, side) in [
            (ramp(1280, 720), 1280),
            (ramp(1280, 720), 640),
            (ramp(1250, 700), 1250),
            (ramp(300, 500), 640),
        ] {
            let scale = fill_network_input(&frame, side, &mut kept);
            let (fresh, fresh_scale) = network_input(&frame, side);
            assert_eq!(scale.to_bits(), fresh_scale.to_bits());
            assert_eq!(
                kept,
                fresh,
                "{}x{} at {side}",
                frame.width(),
                frame.height()
            );
        }
        // The padding of the 1250-wide frame (to 1280) is black, and its own
        // pixels come through unchanged at its own size.
        let frame = ramp(1250, 700);
        let (input, _) = network_input(&frame, 1250);
        assert_eq!(input.shape(), [1, 3, 704, 1280]);
        let bits = |v: f32| v.to_bits();
        assert_eq!(bits(input[[0, 0, 10, 1260]]), bits(0.0));
        assert_eq!(bits(input[[0, 2, 702, 10]]), bits(0.0));
        let own = f32::from(frame.get_pixel(7, 5).0[2]) / 255.0;
        assert_eq!(bits(input[[0, 2, 5, 7]]), bits(own));
    }
}

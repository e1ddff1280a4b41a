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

use std::path::{Path, PathBuf};

use image::RgbImage;
use ort::session::Session;

use crate::boxes::iou;
use crate::model::{ModelError, run, session};

/// The long side of the frame as the network sees it, in pixels.
pub const NET_SIZE: u32 = 640;

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
}

/// The finder network.
pub struct Finder {
    session: Session,
    path: PathBuf,
    /// The least score of an index corner reported.
    pub corner_threshold: f32,
    /// The least score of a face-down card reported.
    pub back_threshold: f32,
}

impl Finder {
    /// Loads the finder network.
    pub fn open(path: &Path) -> Result<Finder, ModelError> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        Ok(Finder {
            session: session(path, threads)?,
            path: path.to_owned(),
            corner_threshold: 0.4,
            back_threshold: 0.5,
        })
    }

    /// The corners and backs in a frame.
    pub fn find(&mut self, frame: &RgbImage) -> Result<Finds, ModelError> {
        let (input, scale) = network_input(frame);
        let shape = input.shape().to_vec();
        let (out_shape, maps) = run(&mut self.session, &input)?;
        let (gh, gw) = (shape[2] / STRIDE, shape[3] / STRIDE);
        let expected = [1, CHANNELS as i64, gh as i64, gw as i64];
        if out_shape[..] != expected[..] {
            return Err(ModelError::Model {
                path: self.path.clone(),
                reason: format!("its output is {out_shape:?}, not {expected:?}"),
            });
        }
        Ok(decode(
            &Maps {
                values: &maps,
                width: gw,
                height: gh,
            },
            1.0 / scale,
            (self.corner_threshold, self.back_threshold),
            frame.dimensions(),
        ))
    }
}

/// The frame as the network's input: scaled so its long side is [`NET_SIZE`]
/// (averaging the pixels each input pixel covers), padded with black to
/// multiples of 32, RGB in 0..1. Also gives the scale (input pixels per frame pixel).
#[must_use]
pub fn network_input(frame: &RgbImage) -> (ndarray::Array4<f32>, f32) {
    let (w, h) = frame.dimensions();
    let scale = NET_SIZE as f32 / w.max(h).max(1) as f32;
    let (sw, sh) = (
        ((w as f32 * scale).round() as usize).max(1),
        ((h as f32 * scale).round() as usize).max(1),
    );
    let (pw, ph) = (sw.div_ceil(32) * 32, sh.div_ceil(32) * 32);
    let mut input = ndarray::Array4::<f32>::zeros((1, 3, ph, pw));
    let raw = frame.as_raw();
    let (fw, fh) = (w as usize, h as usize);
    let step = 1.0 / scale;
    // How many source pixels each input pixel covers along one axis.
    let taps = (step.ceil() as usize).max(1);
    let plane = ph * pw;
    let data = input.as_slice_mut().unwrap_or_default();
    let mut sums = vec![[0.0f32; 3]; sw];
    for y in 0..sh {
        sums.fill([0.0; 3]);
        let mut weight = 0.0f32;
        for ty in 0..taps {
            let sy = ((y as f32 + (ty as f32 + 0.5) / taps as f32) * step) as usize;
            let row = &raw[sy.min(fh - 1) * fw * 3..][..fw * 3];
            for (x, sum) in sums.iter_mut().enumerate() {
                for tx in 0..taps {
                    let sx = ((x as f32 + (tx as f32 + 0.5) / taps as f32) * step) as usize;
                    let p = &row[sx.min(fw - 1) * 3..][..3];
                    sum[0] += f32::from(p[0]);
                    sum[1] += f32::from(p[1]);
                    sum[2] += f32::from(p[2]);
                }
            }
            weight += taps as f32;
        }
        let norm = 1.0 / (weight * 255.0);
        for (x, sum) in sums.iter().enumerate() {
            for c in 0..3 {
                data[c * plane + y * pw + x] = sum[c] * norm;
            }
        }
    }
    (input, scale)
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
const SAME_OBJECT: f32 = 0.5;

/// The least summed score of an object's votes: one weak cell is noise.
const LEAST_MASS: f32 = 1.0;

/// Puts the votes together: the strongest vote left takes every vote left
/// whose box overlaps its own by [`SAME_OBJECT`], and the object is their
/// average, weighted by score; objects with less than [`LEAST_MASS`] of
/// votes are dropped (`models/train_detector.py` `decode` does the same).
fn gather(mut votes: Vec<Vote>) -> Vec<Found> {
    votes.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut taken = vec![false; votes.len()];
    let mut found = Vec::new();
    for j in 0..votes.len() {
        if taken[j] {
            continue;
        }
        let seed = &votes[j];
        let mut weight = 0.0;
        let mut window = [[0.0f32; 2]; 4];
        let mut bbox = [0.0f32; 4];
        for (k, vote) in votes.iter().enumerate().skip(j) {
            if taken[k] || iou(vote.key, seed.key) < SAME_OBJECT {
                continue;
            }
            taken[k] = true;
            weight += vote.score;
            for (sum, point) in window.iter_mut().zip(&vote.window) {
                sum[0] += vote.score * point[0];
                sum[1] += vote.score * point[1];
            }
            for (sum, v) in bbox.iter_mut().zip(&vote.bbox) {
                *sum += vote.score * v;
            }
        }
        if weight < LEAST_MASS {
            continue;
        }
        found.push(Found {
            score: seed.score,
            window: window.map(|p| p.map(|v| v / weight)),
            bbox: bbox.map(|v| v / weight),
        });
    }
    found
}

/// The maps to finds, in frame pixels (`unscale`: frame pixels per input pixel).
fn decode(maps: &Maps, unscale: f32, thresholds: (f32, f32), frame: (u32, u32)) -> Finds {
    let (fw, fh) = (frame.0 as f32, frame.1 as f32);
    let clip = |b: [f32; 4]| {
        [
            (b[0] * unscale).clamp(0.0, fw),
            (b[1] * unscale).clamp(0.0, fh),
            (b[2] * unscale).clamp(0.0, fw),
            (b[3] * unscale).clamp(0.0, fh),
        ]
    };
    let corners = gather(votes(maps, 0, thresholds.0))
        .into_iter()
        .map(|f| Corner {
            score: f.score,
            window: f.window.map(|p| p.map(|v| v * unscale)),
            bbox: clip(f.bbox),
        })
        .collect();
    let backs = gather(votes(maps, 1, thresholds.1))
        .into_iter()
        .map(|f| Back {
            score: f.score,
            bbox: clip(f.bbox),
        })
        .collect();
    Finds { corners, backs }
}

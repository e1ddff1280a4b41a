//! The card finder: a frame in, the index corners of face-up cards and the
//! face-down cards out, from one fully convolutional network
//! (`models/finder.onnx`, trained by `models/train_detector.py`).
//!
//! The network sees the frame scaled so its long side is [`NET_SIZE`] pixels
//! (padded to a multiple of 32) and answers on a grid of 4x4-pixel cells: how
//! likely an index corner or a back is centred in each cell, and, relative to
//! the cell, the corner's reading window (four points) and the box around what
//! shows of the card. Peaks in the likelihood are the finds.

use std::path::{Path, PathBuf};

use image::RgbImage;
use ort::session::Session;

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
            corner_threshold: 0.3,
            back_threshold: 0.6,
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

    /// Cells at or above `threshold` in `channel` that are the largest of their 3x3 neighbours.
    fn peaks(&self, channel: usize, threshold: f32) -> Vec<(usize, usize, f32)> {
        let mut found = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                let v = self.at(channel, x, y);
                if v < threshold {
                    continue;
                }
                let mut top = true;
                'around: for ny in y.saturating_sub(1)..(y + 2).min(self.height) {
                    for nx in x.saturating_sub(1)..(x + 2).min(self.width) {
                        let u = self.at(channel, nx, ny);
                        // Ties go to the first cell in reading order.
                        if u > v || (u >= v && (ny, nx) < (y, x)) {
                            top = false;
                            break 'around;
                        }
                    }
                }
                if top {
                    found.push((x, y, v));
                }
            }
        }
        found
    }
}

/// Peaks to finds, in frame pixels (`unscale`: frame pixels per input pixel).
fn decode(maps: &Maps, unscale: f32, thresholds: (f32, f32), frame: (u32, u32)) -> Finds {
    let (fw, fh) = (frame.0 as f32, frame.1 as f32);
    let clip = |b: [f32; 4]| {
        [
            b[0].clamp(0.0, fw),
            b[1].clamp(0.0, fh),
            b[2].clamp(0.0, fw),
            b[3].clamp(0.0, fh),
        ]
    };
    let cell = |x: usize, y: usize| {
        (
            (x as f32 + 0.5) * STRIDE as f32,
            (y as f32 + 0.5) * STRIDE as f32,
        )
    };
    let bbox = |x: usize, y: usize| {
        let (cx, cy) = cell(x, y);
        clip([
            (cx + maps.at(12, x, y) * 16.0) * unscale,
            (cy + maps.at(13, x, y) * 16.0) * unscale,
            (cx + maps.at(14, x, y) * 16.0) * unscale,
            (cy + maps.at(15, x, y) * 16.0) * unscale,
        ])
    };
    let corners = maps
        .peaks(0, thresholds.0)
        .into_iter()
        .map(|(x, y, score)| {
            let (cx, cy) = cell(x, y);
            let window = std::array::from_fn(|k| {
                [
                    (cx + maps.at(4 + 2 * k, x, y) * 16.0) * unscale,
                    (cy + maps.at(5 + 2 * k, x, y) * 16.0) * unscale,
                ]
            });
            Corner {
                score,
                window,
                bbox: bbox(x, y),
            }
        })
        .collect();
    let backs = maps
        .peaks(1, thresholds.1)
        .into_iter()
        .map(|(x, y, score)| Back {
            score,
            bbox: bbox(x, y),
        })
        .collect();
    Finds { corners, backs }
}

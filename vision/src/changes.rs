//! What changed between a still camera's frames, as the finder sees them:
//! the tiles whose pixels moved past the camera's noise since the network
//! last looked at them, and the parts of the frame to look at again, each
//! with the context around it that the network's answer there depends on.
//! So a frame in which one card lands costs a look at that card's part of
//! the table, not at the whole table ([`crate::finder::Finder::only_changes`]).

use image::{GrayImage, Luma};
use imageproc::distance_transform::Norm;
use imageproc::morphology::dilate;
use imageproc::region_labelling::{Connectivity, connected_components};

/// A tile's side, in the network's pixels: the network's coarsest stride,
/// so a part cut at tiles sees its cells on the whole frame's grid.
pub const TILE: usize = 32;

/// The side of the blocks compared, in the network's pixels: four to a
/// tile, so that a card's edge moved by a few pixels is a large share of one.
const BLOCK: usize = 16;

/// The side of the cells whose means are compared within a block, in the
/// network's pixels.
const CELL: usize = 4;

/// A block changed when one of its colours differs from what the network
/// last saw there by this much (in 0..1), its cells' means compared. A
/// webcam's noise, as the rendered sittings give it, differs by about 2
/// levels of 255 between two frames of a still table, pixel by pixel, and
/// much less cell by cell; a card landing, by tens.
pub const CHANGED: f32 = 6.0 / 255.0;

/// Around a changed tile, the tiles whose cells are answered again. Measured
/// on a rendered sitting at 30 fps (seed 8, 150 frames, every frame also
/// seen whole): at 2 tiles, the masks answered in part differ from the
/// whole look's by 0.115 at the median frame's worst cell (0.157 at 1 tile),
/// less than two whole looks at consecutive frames differ by the camera's
/// noise alone (0.159); at 2 tiles 5.6 cells a frame fall on the other side
/// of a half, at 1 tile 8.
pub const AROUND: u32 = 2;

/// The tiles of context cut around those answered again: the network's
/// answer at a cell 3 tiles (96 pixels) inside a part differs from the
/// whole frame's by at most 0.056 in the masks (4 tiles: 0.026; 6: none).
pub const CONTEXT: u32 = 3;

/// When the parts to look at again cover more than this share of the
/// frame, the whole frame is looked at (one run costs less than several).
pub const MOST_IN_PARTS: f32 = 0.5;

/// A part of the frame to look at again, in tiles (`x0..x1`, `y0..y1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// The first column of tiles.
    pub x0: usize,
    /// The first row.
    pub y0: usize,
    /// The column past the last.
    pub x1: usize,
    /// The row past the last.
    pub y1: usize,
}

impl Part {
    fn area(self) -> usize {
        (self.x1 - self.x0) * (self.y1 - self.y0)
    }

    fn meets(self, other: Part) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    fn union(self, other: Part) -> Part {
        Part {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
        }
    }
}

/// What to look at again in a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Changes {
    /// The grid's width in tiles.
    pub width: usize,
    /// Per tile, row by row: whether its cells are answered again.
    pub again: Vec<bool>,
    /// The parts cut and run; each tile answered again lies in one, with
    /// [`CONTEXT`] tiles around it (or the frame's edge).
    pub parts: Vec<Part>,
    /// Per part, the tiles within it whose cells it answers again (those
    /// of [`Changes::again`] that lie in this box; parts may overlap, each
    /// answering the tiles it holds with their context).
    pub answered: Vec<Part>,
}

impl Changes {
    /// Whether nothing changed.
    #[must_use]
    pub fn none(&self) -> bool {
        self.parts.is_empty()
    }

    /// The share of the frame the parts cover (where they overlap, as many
    /// times as they do: what the network looks at).
    #[must_use]
    pub fn share(&self) -> f32 {
        let tiles = self.again.len().max(1);
        self.parts.iter().map(|p| p.area()).sum::<usize>() as f32 / tiles as f32
    }
}

/// A block changed when it differs by this many times the camera's noise
/// (the median block's difference: most of a table lies still from one
/// frame to the next), if that is more than [`CHANGED`]. The rendered
/// sittings' noisier cameras (seed 41: 4 levels of 255 on average) differ
/// in every part of the frame by more than [`CHANGED`] somewhere.
pub const NOISE_TIMES: f32 = 3.0;

/// Per tile of a `width` x `height` pixel plane set (channel-major, as the
/// network's input), whether any of its blocks changed ([`CHANGED`],
/// [`NOISE_TIMES`]) from `seen` to `now`. Both must hold `3 * width *
/// height` values, and the sides be multiples of [`TILE`].
#[must_use]
pub fn changed_tiles(seen: &[f32], now: &[f32], width: usize, height: usize) -> Vec<bool> {
    let (tw, th) = (width / TILE, height / TILE);
    let (bw, bh) = (width / BLOCK, height / BLOCK);
    let plane = width * height;
    if seen.len() < 3 * plane || now.len() < 3 * plane {
        return vec![true; tw * th];
    }
    // Each block's most changed colour's difference: the mean over its
    // cells of how much the cell's mean changed. Averaged over a cell
    // first, the camera's noise (and the ringing a JPEG's blocks put about
    // a patterned cloth's edges) mostly cancels; a card's edge moved by a
    // pixel or two does not.
    let mut blocks = vec![0.0f32; bw * bh];
    let cells_wide = width / CELL;
    let mut sums = vec![0.0f32; cells_wide];
    let mut block_rows = vec![0.0f32; bw];
    for c in 0..3 {
        for by in 0..bh {
            block_rows.fill(0.0);
            for cy in 0..BLOCK / CELL {
                sums.fill(0.0);
                for y in 0..CELL {
                    let row = c * plane + (by * BLOCK + cy * CELL + y) * width;
                    let (a, b) = (&seen[row..row + width], &now[row..row + width]);
                    for ((sum, a), b) in sums
                        .iter_mut()
                        .zip(a.chunks_exact(CELL))
                        .zip(b.chunks_exact(CELL))
                    {
                        *sum += a.iter().zip(b).map(|(p, q)| q - p).sum::<f32>();
                    }
                }
                for (x, sum) in sums.iter().enumerate() {
                    block_rows[x * CELL / BLOCK] += sum.abs();
                }
            }
            let cells = (BLOCK / CELL) * (BLOCK / CELL) * CELL * CELL;
            for (block, sum) in blocks[by * bw..(by + 1) * bw].iter_mut().zip(&block_rows) {
                *block = block.max(sum / cells as f32);
            }
        }
    }
    let mut sorted = blocks.clone();
    sorted.sort_by(f32::total_cmp);
    let noise = sorted.get(sorted.len() / 2).copied().unwrap_or_default();
    let most = CHANGED.max(NOISE_TIMES * noise);
    let mut changed = vec![false; tw * th];
    for (i, &block) in blocks.iter().enumerate() {
        if block > most {
            changed[(i / bw / 2) * tw + (i % bw) / 2] = true;
        }
    }
    changed
}

/// The tiles to answer again around the `looked` ones (of a grid `width`
/// tiles wide: those that changed, and those settling looked at again for
/// the network's fresh answer to the camera's noise), and the parts to cut
/// for them: each group of tiles answered again that touch, within
/// [`CONTEXT`] tiles more; parts that meet are put together where one part
/// is no more to look at than the two.
#[must_use]
pub fn parts(looked: &[bool], width: usize) -> Changes {
    let height = looked.len() / width.max(1);
    let mut mask = GrayImage::new(width as u32, height as u32);
    for (i, &c) in looked.iter().enumerate() {
        if c {
            mask.put_pixel((i % width) as u32, (i / width) as u32, Luma([255]));
        }
    }
    let again_mask = dilate(&mask, Norm::LInf, AROUND as u8);
    let labels = connected_components(&again_mask, Connectivity::Eight, Luma([0u8]));
    let mut boxes: Vec<Option<Part>> = Vec::new();
    for (x, y, label) in labels.enumerate_pixels() {
        let label = label[0] as usize;
        if label == 0 {
            continue;
        }
        if boxes.len() < label {
            boxes.resize(label, None);
        }
        let (x, y) = (x as usize, y as usize);
        let tile = Part {
            x0: x,
            y0: y,
            x1: x + 1,
            y1: y + 1,
        };
        let slot = &mut boxes[label - 1];
        *slot = Some(slot.map_or(tile, |b| b.union(tile)));
    }
    let context = CONTEXT as usize;
    let with_context = |b: Part| Part {
        x0: b.x0.saturating_sub(context),
        y0: b.y0.saturating_sub(context),
        x1: (b.x1 + context).min(width),
        y1: (b.y1 + context).min(height),
    };
    // Each part: the tiles it answers again, and the tiles cut for them.
    let mut cut: Vec<(Part, Part)> = boxes
        .into_iter()
        .flatten()
        .map(|b| (b, with_context(b)))
        .collect();
    // Parts that meet, put together while that is no more to look at,
    // until none can be.
    let mut joined = true;
    while joined {
        joined = false;
        'outer: for a in 0..cut.len() {
            for b in a + 1..cut.len() {
                let (one, other) = (cut[a].1, cut[b].1);
                if one.meets(other) && one.union(other).area() <= one.area() + other.area() {
                    cut[a] = (cut[a].0.union(cut[b].0), one.union(other));
                    cut.swap_remove(b);
                    joined = true;
                    break 'outer;
                }
            }
        }
    }
    let (answered, parts) = cut.into_iter().unzip();
    Changes {
        width,
        again: again_mask.pixels().map(|p| p[0] > 0).collect(),
        answered,
        parts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Planes of `width` x `height` pixels, every value `v`.
    fn planes(width: usize, height: usize, v: f32) -> Vec<f32> {
        vec![v; 3 * width * height]
    }

    #[test]
    fn noise_is_no_change_and_a_card_is() {
        let (w, h) = (256, 128);
        let seen = planes(w, h, 0.5);
        // A camera's noise everywhere, up to 8 levels a pixel: nothing changed.
        let mut state = 12_345u32;
        let mut now: Vec<f32> = seen
            .iter()
            .map(|v| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                let noise = (state >> 24) as f32 / 255.0 * 16.0 - 8.0;
                v + noise / 255.0
            })
            .collect();
        assert!(changed_tiles(&seen, &now, w, h).iter().all(|c| !c));
        // A bright card's corner over a few pixels of one block, in green
        // only: the tile it lies in changed, no other.
        for y in 40..52 {
            for x in 70..80 {
                now[w * h + y * w + x] = 1.0;
            }
        }
        let changed = changed_tiles(&seen, &now, w, h);
        let tiles: Vec<usize> = (0..changed.len()).filter(|&i| changed[i]).collect();
        assert_eq!(tiles, vec![w / TILE + 2]);
    }

    #[test]
    fn a_change_is_answered_again_around_it_and_cut_with_its_context() {
        // A grid 20 tiles wide, 12 tall; one tile changed at (10, 6).
        let (w, h) = (20, 12);
        let mut tiles = vec![false; w * h];
        tiles[6 * w + 10] = true;
        let changes = parts(&tiles, w);
        let again: Vec<(usize, usize)> = (0..w * h)
            .filter(|&i| changes.again[i])
            .map(|i| (i % w, i / w))
            .collect();
        assert_eq!(again.len(), 25);
        assert!(
            again
                .iter()
                .all(|&(x, y)| x.abs_diff(10) <= 2 && y.abs_diff(6) <= 2)
        );
        assert_eq!(
            changes.parts,
            vec![Part {
                x0: 5,
                y0: 1,
                x1: 16,
                y1: 12
            }]
        );
        assert!(!changes.none());
        assert!((changes.share() - 121.0 / 240.0).abs() < 1e-6);
    }

    #[test]
    fn parts_that_meet_are_one_and_far_ones_two() {
        let (w, h) = (40, 20);
        let mut changed = vec![false; w * h];
        // Two changes 8 tiles apart: their parts (each 2 + 3 tiles around)
        // meet, so they are cut as one.
        changed[5 * w + 5] = true;
        changed[5 * w + 13] = true;
        assert_eq!(parts(&changed, w).parts.len(), 1);
        // A third far off is cut on its own.
        changed[15 * w + 35] = true;
        let far = parts(&changed, w);
        assert_eq!(far.parts.len(), 2);
        assert!(
            far.parts
                .iter()
                .all(|a| far.parts.iter().filter(|b| a.meets(**b)).count() == 1)
        );
        // Nothing changed: no part.
        assert!(parts(&vec![false; w * h], w).none());
    }

    #[test]
    fn parts_that_would_cost_more_as_one_stay_two_each_answering_its_own() {
        // Two changes on a diagonal: their parts (11 tiles square) overlap
        // by a corner, and cut as one they would be 19 tiles square.
        let (w, h) = (40, 30);
        let mut moved = vec![false; w * h];
        moved[5 * w + 5] = true;
        moved[13 * w + 13] = true;
        let changes = parts(&moved, w);
        assert_eq!(changes.parts.len(), 2);
        assert!(changes.parts[0].meets(changes.parts[1]));
        for (part, answered) in changes.parts.iter().zip(&changes.answered) {
            // Each answers the 5 tiles square about its change, within it.
            assert_eq!(
                (answered.x1 - answered.x0, answered.y1 - answered.y0),
                (5, 5)
            );
            assert_eq!((answered.x0 - part.x0, answered.y0 - part.y0), (3, 3));
        }
        assert!((changes.share() - 242.0 / 1200.0).abs() < 1e-6);
    }
}

//! Writes a labelled set of rendered scenes: `DIR/images/NNNNNN.jpg`,
//! `DIR/labels/NNNNNN.json` and `DIR/synth.json` (what was made, how).
//!
//! Scene `n` of seed `s` is the same whatever the number of threads: each
//! scene draws from its own random stream.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::art::{Design, Split};
use crate::render::{jpeg, render, scene_seed};
use crate::scene::random_scene;

/// What to make.
#[derive(Clone, Debug)]
pub struct SynthOptions {
    /// Where to write.
    pub out: PathBuf,
    /// How many scenes.
    pub scenes: u64,
    /// The seed.
    pub seed: u64,
    /// Frame size.
    pub width: u32,
    /// Frame height.
    pub height: u32,
    /// Worker threads.
    pub threads: usize,
    /// Also write straightened index-corner crops (training data for the reader).
    pub crops: bool,
    /// Take the cards away: the tables with the things on them, the hands and
    /// the light, and nothing the finder may take for a card (its negatives).
    pub empty: bool,
    /// Real photos to dress the tables with (table tops, printed pictures):
    /// `None` draws only the drawn materials, as before.
    pub photos: Option<std::sync::Arc<crate::photos::Photos>>,
}

/// A set that could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SynthError {
    /// A file or folder could not be written.
    #[error("cannot write {path}: {reason}")]
    Write {
        /// Where.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// No design to draw with.
    #[error("no card designs to draw with")]
    NoDesigns,
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), SynthError> {
    std::fs::write(path, bytes).map_err(|e| SynthError::Write {
        path: path.to_owned(),
        reason: e.to_string(),
    })
}

/// Makes folder `dir` and those above it.
fn make_dir(dir: &Path) -> Result<(), SynthError> {
    std::fs::create_dir_all(dir).map_err(|e| SynthError::Write {
        path: dir.to_owned(),
        reason: e.to_string(),
    })
}

#[derive(serde::Serialize)]
struct Manifest<'a> {
    scenes: u64,
    seed: u64,
    width: u32,
    height: u32,
    designs: Vec<(&'a str, Split)>,
    images: &'static str,
    labels: &'static str,
}

/// Renders and writes the set; `progress` is told each finished scene (from
/// any thread).
pub fn write_set(
    options: &SynthOptions,
    designs: &[Design],
    progress: &(dyn Fn() + Sync),
) -> Result<(), SynthError> {
    if designs.is_empty() {
        return Err(SynthError::NoDesigns);
    }
    let images = options.out.join("images");
    let labels = options.out.join("labels");
    for dir in [&images, &labels] {
        make_dir(dir)?;
    }
    let manifest = Manifest {
        scenes: options.scenes,
        seed: options.seed,
        width: options.width,
        height: options.height,
        designs: designs.iter().map(|d| (d.name.as_str(), d.split)).collect(),
        images: "images/NNNNNN.jpg",
        labels: "labels/NNNNNN.json: width, height, design, cards [{card, corners, box, visible, index [{quad, box, visible}], role}]",
    };
    let text = serde_json::to_string_pretty(&manifest).unwrap_or_default();
    write(&options.out.join("synth.json"), text.as_bytes())?;
    let backs: Vec<usize> = designs.iter().map(Design::backs).collect();
    parallel_for(options.scenes, options.threads, &|n| {
        let seed = scene_seed(options.seed, n);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut scene = random_scene(
            &mut rng,
            designs.len(),
            &backs,
            options.width,
            options.height,
            seed,
        );
        if options.empty {
            scene.cards.clear();
        }
        if let Some(photos) = &options.photos {
            photos.dress(&mut scene, seed);
        }
        let rendered = write_frame(&scene, designs, &images, &labels, n)?;
        if options.crops {
            write_crops(&rendered, &options.out.join("crops"), n, seed)?;
        }
        progress();
        Ok(())
    })
}

/// Renders a scene and writes `images/NNNNNN.jpg` and `labels/NNNNNN.json`;
/// returns the frame (before JPEG) and its labels.
pub fn write_frame(
    scene: &crate::scene::Scene,
    designs: &[Design],
    images: &Path,
    labels: &Path,
    n: u64,
) -> Result<crate::render::Rendered, SynthError> {
    let rendered = render(scene, designs);
    let image_path = images.join(format!("{n:06}.jpg"));
    let bytes = jpeg(&rendered.image, scene.jpeg_quality).map_err(|e| SynthError::Write {
        path: image_path.clone(),
        reason: e.to_string(),
    })?;
    write(&image_path, &bytes)?;
    let json = serde_json::to_vec(&rendered.labels).unwrap_or_default();
    write(&labels.join(format!("{n:06}.json")), &json)?;
    Ok(rendered)
}

/// How far from the picture's centre, as a share of its width and height,
/// the card a found corner's window extrapolates may lie for the corner to
/// be an index corner of the one card a photo shows ([`photo_crops`]).
pub const PHOTO_MIDDLE: f32 = 0.12;

/// How far from a corner of the photo, as a share of its height, an index
/// window's corner may lie ([`photo_crops`]).
pub const PHOTO_CORNER: f32 = 0.15;

/// The long side to find corners on a photo of one card at
/// ([`crate::finder::Finder::find_at`]): the card, about the photo's height,
/// as tall as the finder reads best ([`crate::finder::BEST_CARD`]), as a
/// table camera's card and not a close-up.
#[must_use]
pub fn photo_side(width: u32, height: u32) -> u32 {
    (crate::finder::BEST_CARD * width.max(height) as f32 / height.max(1) as f32).round() as u32
}

/// The reader's training crops from a photo of one card (a class folder's
/// picture, `crops-gpiosenka-train`, whose folder names the card): each
/// corner the finder found, cut as the recogniser cuts it
/// ([`crate::reader::cut_window`]), when the card its window extrapolates
/// lies about the picture's middle ([`PHOTO_MIDDLE`]), is about the
/// picture's size (its height 0.7 to 1.4 times the picture's), and has its
/// corner at a corner of the picture ([`PHOTO_CORNER`]): an index corner of
/// the card the photo shows. A window on a pip, a court figure or the table
/// fails one of these, and since nothing says what it shows, it is left out
/// (no `none` either).
#[must_use]
pub fn photo_crops(
    frame: &image::RgbImage,
    corners: &[crate::finder::Corner],
) -> Vec<image::RgbImage> {
    let (w, h) = (frame.width() as f32, frame.height() as f32);
    let mut out = Vec::new();
    for corner in corners {
        let Some(quad) = crate::recognise::card_quad(corner) else {
            continue;
        };
        let centre = [0, 1].map(|k| quad.iter().map(|p| p[k]).sum::<f32>() / 4.0);
        let height = crate::boxes::distance(quad[0], quad[3]);
        let middle = (centre[0] - w / 2.0).abs() <= PHOTO_MIDDLE * w
            && (centre[1] - h / 2.0).abs() <= PHOTO_MIDDLE * h;
        // The window's first point (its top-left as the index reads) is the
        // card's corner, about a corner of the photo the card fills.
        let near_corner = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]
            .iter()
            .any(|&c| crate::boxes::distance(c, corner.window[0]) <= PHOTO_CORNER * h);
        if !middle || !near_corner || !(0.7 * h..=1.4 * h).contains(&height) {
            continue;
        }
        if let Some(crop) = crate::reader::cut_window(frame, corner.window) {
            out.push(crop);
        }
    }
    out
}

/// The reader's training crops from what the finder found in a labelled frame:
/// each found index corner cut as the recogniser cuts it
/// ([`crate::reader::cut_window`]), with the class it must read: the card
/// whose index window the found window covers (box overlap at least
/// one half, that index showing at least 80%), or [`crate::reader::NO_CARD`] when it
/// covers no index window (overlap below one fifth). Corners between the
/// two (a found window half on an index, an index mostly hidden) and corners
/// on a design printed with no index teach nothing certain and are left out.
#[must_use]
pub fn finder_crops(
    frame: &image::RgbImage,
    labels: &crate::render::FrameLabels,
    corners: &[crate::finder::Corner],
) -> Vec<(String, image::RgbImage)> {
    // Every labelled face's index windows, with how much of each shows.
    let labelled: Vec<(&str, [f32; 4], f32)> = labels
        .cards
        .iter()
        .filter(|card| card.card != "back")
        .filter_map(|card| {
            let windows = crate::reader::index_windows(card.corners)?;
            Some(
                windows
                    .into_iter()
                    .zip(&card.index)
                    .map(move |(window, index)| {
                        (
                            card.card.as_str(),
                            crate::boxes::bounds(&window),
                            index.visible,
                        )
                    }),
            )
        })
        .flatten()
        .collect();
    let on_indexless = |[x, y]: [f32; 2]| {
        labels.cards.iter().any(|card| {
            card.card != "back"
                && card.index.is_empty()
                && (card.bbox[0]..=card.bbox[2]).contains(&x)
                && (card.bbox[1]..=card.bbox[3]).contains(&y)
        })
    };
    let mut out = Vec::new();
    for corner in corners {
        let window = crate::boxes::bounds(&corner.window);
        let best = labelled
            .iter()
            .map(|&(card, bbox, visible)| (crate::boxes::iou(window, bbox), card, visible))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let class = match best {
            Some((overlap, card, visible)) if overlap >= 0.5 => {
                if visible < 0.8 {
                    continue;
                }
                card.to_owned()
            }
            Some((overlap, _, _)) if overlap >= 0.2 => continue,
            // On a design with no index corner nothing is certain either.
            _ if on_indexless(crate::boxes::centre(window)) => continue,
            _ => crate::reader::NO_CARD.to_owned(),
        };
        if let Some(crop) = crate::reader::cut_window(frame, corner.window) {
            out.push((class, crop));
        }
    }
    out
}

/// The back checker's training crops from one rendered scene: each box
/// (the face-down cards the finder found there, and [`decoy_boxes`]), cut as
/// the recogniser cuts a back ([`crate::reader::cut_back`]) and filed as
/// `back` when it fits a labelled back that shows (intersection over union at
/// least 0.5), or as `none` when it fits no back at all (cloth, clutter, a
/// face, a card's piece); in between, or on a back mostly covered, it is left
/// out.
pub fn finder_backs(
    frame: &image::RgbImage,
    labels: &crate::render::FrameLabels,
    boxes: &[[f32; 4]],
) -> Vec<(String, image::RgbImage)> {
    let mut out = Vec::new();
    for &bbox in boxes {
        let best = labels
            .cards
            .iter()
            .filter(|card| card.card == "back")
            .map(|card| (crate::boxes::iou(bbox, card.bbox), card.visible))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let class = match best {
            Some((overlap, visible)) if overlap >= 0.5 => {
                if visible < 0.3 {
                    continue;
                }
                "back"
            }
            Some((overlap, _)) if overlap >= 0.25 => continue,
            _ => crate::reader::NO_CARD,
        };
        if let Some(crop) = crate::reader::cut_back(frame, bbox) {
            out.push((class.to_owned(), crop));
        }
    }
    out
}

/// The back checker's training crops of scene `n` ([`finder_backs`]): the
/// backs the finder found there and two [`decoy_boxes`] of each kind.
pub fn back_crops(
    frame: &image::RgbImage,
    labels: &crate::render::FrameLabels,
    found: &[crate::finder::Back],
    n: u64,
) -> Vec<(String, image::RgbImage)> {
    let boxes: Vec<[f32; 4]> = found
        .iter()
        .map(|b| b.bbox)
        .chain(decoy_boxes(labels, 2, n))
        .collect();
    finder_backs(frame, labels, &boxes)
}

/// `count` card-sized boxes anywhere on a scene (long side half to twice and
/// a half the scene's typical card, any proportions from squat to tall),
/// and as many on its face-up cards (a piece of a face to the whole of it):
/// what the finder may one day take for a back, for the back checker to
/// learn that cloth, clutter and faces are none.
pub fn decoy_boxes(labels: &crate::render::FrameLabels, count: usize, seed: u64) -> Vec<[f32; 4]> {
    use rand::Rng;
    let mut rng = StdRng::seed_from_u64(seed ^ 0x000D_EC01);
    let mut sizes: Vec<f32> = labels
        .cards
        .iter()
        .map(|c| crate::boxes::long_side(c.bbox))
        .collect();
    sizes.sort_by(f32::total_cmp);
    let typical = sizes
        .get(sizes.len() / 2)
        .copied()
        .unwrap_or(labels.height as f32 / 5.0);
    let (w, h) = (labels.width as f32, labels.height as f32);
    let mut out = Vec::new();
    for _ in 0..count {
        let long = typical * rng.random_range(0.5..2.5);
        let ratio: f32 = rng.random_range(0.55..1.8);
        let (bw, bh) = if ratio < 1.0 {
            (long * ratio, long)
        } else {
            (long, long / ratio)
        };
        let (bw, bh) = (bw.min(w), bh.min(h));
        let x = rng.random_range(0.0..=(w - bw).max(0.0));
        let y = rng.random_range(0.0..=(h - bh).max(0.0));
        out.push([x, y, x + bw, y + bh]);
    }
    let faces: Vec<[f32; 4]> = labels
        .cards
        .iter()
        .filter(|c| c.card != "back" && c.visible >= 0.5)
        .map(|c| c.bbox)
        .collect();
    for _ in 0..count {
        if faces.is_empty() {
            break;
        }
        let b = faces[rng.random_range(0..faces.len())];
        let (fw, fh) = (b[2] - b[0], b[3] - b[1]);
        let (bw, bh) = (
            fw * rng.random_range(0.35..1.05),
            fh * rng.random_range(0.35..1.05),
        );
        let x = b[0] + rng.random_range(0.0..(fw - bw).max(0.01));
        let y = b[1] + rng.random_range(0.0..(fh - bh).max(0.01));
        out.push([x, y, x + bw, y + bh]);
    }
    out
}

/// Writes the index corners of scene `n`'s cards as `crops/<CARD>/NNNNNN_K_C.png`
/// (`back` for face-down cards), for each corner that shows at least 95%, from
/// the labelled corners jittered by up to 2% of the card's size (a real finder
/// is not exact either). `crops/NNNNNN.csv` lists them: file, class, design,
/// visible. Returns how many crops it wrote.
pub fn write_crops(
    rendered: &crate::render::Rendered,
    dir: &Path,
    n: u64,
    seed: u64,
) -> Result<usize, SynthError> {
    use rand::Rng;
    use std::fmt::Write as _;
    // The list is written even for a scene with no corner to cut (only
    // backs, or every index hidden), so the folder is made first.
    make_dir(dir)?;
    let mut rng = StdRng::seed_from_u64(seed ^ 0xC0_4E45);
    let mut list = String::new();
    let mut written = 0;
    for (k, card) in rendered.labels.cards.iter().enumerate() {
        let c = card.corners;
        let size = ((c[0][0] - c[3][0]).hypot(c[0][1] - c[3][1])).max(1.0);
        let quad = c.map(|p| {
            [
                p[0] + rng.random_range(-0.02..0.02) * size,
                p[1] + rng.random_range(-0.02..0.02) * size,
            ]
        });
        let corners_shown: Vec<usize> = if card.card == "back" {
            if card.visible > 0.9 { vec![0] } else { vec![] }
        } else {
            (0..card.index.len())
                .filter(|&i| card.index[i].visible >= 0.95)
                .collect()
        };
        if corners_shown.is_empty() {
            continue;
        }
        let Some(straight) = crate::reader::straighten(&rendered.image, quad) else {
            continue;
        };
        let crops = crate::reader::index_corners(&straight);
        let class_dir = dir.join(&card.card);
        make_dir(&class_dir)?;
        for corner in corners_shown {
            let name = format!("{n:06}_{k:02}_{corner}.png");
            let path = class_dir.join(&name);
            crops[corner].save(&path).map_err(|e| SynthError::Write {
                path: path.clone(),
                reason: e.to_string(),
            })?;
            written += 1;
            let visible = card.index.get(corner).map_or(card.visible, |i| i.visible);
            let _ = writeln!(
                list,
                "{}/{name},{},{},{visible:.3}",
                card.card, card.card, rendered.labels.design
            );
        }
    }
    write(&dir.join(format!("{n:06}.csv")), list.as_bytes())?;
    Ok(written)
}

/// Runs `job(n)` for every `n` below `count` on `threads` threads; the first
/// failure stops the others and is returned.
pub fn parallel_for(
    count: u64,
    threads: usize,
    job: &(dyn Fn(u64) -> Result<(), SynthError> + Sync),
) -> Result<(), SynthError> {
    let next = AtomicU64::new(0);
    let failure = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= count {
                        break;
                    }
                    if let Err(e) = job(n) {
                        if let Ok(mut f) = failure.lock() {
                            f.get_or_insert(e);
                        }
                        next.store(count, Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
    });
    match failure.into_inner() {
        Ok(Some(e)) => Err(e),
        _ => Ok(()),
    }
}

/// The designs on one side of the split, or all.
pub fn choose(designs: Vec<Design>, which: Option<Split>) -> Vec<Design> {
    designs
        .into_iter()
        .filter(|d| which.is_none_or(|w| d.split == w))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_is_written_the_same_whatever_the_threads() {
        let designs = choose(crate::art::embedded().expect("art"), Some(Split::HeldOut));
        assert_eq!(designs.len(), 1, "kenney is the held-out design");
        let dir = std::env::temp_dir().join(format!("pone-synth-{}", std::process::id()));
        let mut sets = Vec::new();
        for threads in [1, 2] {
            let out = dir.join(format!("t{threads}"));
            let options = SynthOptions {
                out: out.clone(),
                scenes: 3,
                seed: 9,
                width: 320,
                height: 180,
                threads,
                crops: false,
                empty: false,
                photos: None,
            };
            let count = AtomicU64::new(0);
            write_set(&options, &designs, &|| {
                count.fetch_add(1, Ordering::Relaxed);
            })
            .expect("written");
            assert_eq!(count.load(Ordering::Relaxed), 3);
            let files: Vec<Vec<u8>> = (0..3)
                .flat_map(|n| {
                    [
                        out.join(format!("images/{n:06}.jpg")),
                        out.join(format!("labels/{n:06}.json")),
                    ]
                })
                .map(|p| std::fs::read(p).expect("file"))
                .collect();
            sets.push(files);
        }
        assert_eq!(sets[0], sets[1]);
        let labels: serde_json::Value = serde_json::from_slice(&sets[0][1]).expect("JSON");
        assert_eq!(labels["design"], "kenney");
        assert!(labels["cards"].as_array().is_some_and(|c| !c.is_empty()));
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[cfg(test)]
mod crop_tests {
    use super::*;

    #[test]
    fn back_checker_crops_are_backs_only_where_a_back_shows() {
        let labels: crate::render::FrameLabels = serde_json::from_str(
            r#"{"width":640,"height":360,"design":"d","cards":[
            {"card":"back","corners":[[100,100],[200,100],[200,250],[100,250]],"box":[100,100,200,250],"visible":1.0,"index":[],"role":{"at":"pack"}},
            {"card":"back","corners":[[400,100],[500,100],[500,250],[400,250]],"box":[400,100,500,250],"visible":0.1,"index":[],"role":{"at":"pack"}}]}"#,
        )
        .expect("labels");
        let frame = image::RgbImage::new(640, 360);
        let classes = |boxes: &[[f32; 4]]| -> Vec<String> {
            finder_backs(&frame, &labels, boxes)
                .into_iter()
                .map(|(class, _)| class)
                .collect()
        };
        assert_eq!(classes(&[[102.0, 98.0, 201.0, 252.0]]), ["back"]);
        // On the cloth, or a box seven times the card: none.
        assert_eq!(classes(&[[250.0, 50.0, 350.0, 200.0]]), ["none"]);
        assert_eq!(classes(&[[0.0, 0.0, 300.0, 360.0]]), ["none"]);
        // Half on the card (neither), or on a back mostly covered: left out.
        assert!(classes(&[[150.0, 100.0, 250.0, 250.0]]).is_empty());
        assert!(classes(&[[400.0, 100.0, 500.0, 250.0]]).is_empty());
        // Decoys: card-sized, inside the frame, seeded.
        let decoys = decoy_boxes(&labels, 5, 3);
        assert_eq!(decoys.len(), 5, "no face-up card, so no decoy on one");
        assert_eq!(decoys, decoy_boxes(&labels, 5, 3));
        for b in decoys {
            assert!(
                b[0] >= 0.0 && b[1] >= 0.0 && b[2] <= 640.0 && b[3] <= 360.0,
                "{b:?}"
            );
        }
    }

    #[test]
    fn crops_are_filed_by_class_and_listed() {
        let designs = crate::art::embedded().expect("art");
        let out = std::env::temp_dir().join(format!("pone-crops-{}", std::process::id()));
        let options = SynthOptions {
            out: out.clone(),
            scenes: 4,
            seed: 21,
            width: 640,
            height: 360,
            threads: 2,
            crops: true,
            empty: false,
            photos: None,
        };
        write_set(&options, &designs, &|| {}).expect("written");
        let mut listed = 0;
        for n in 0..4 {
            let csv = std::fs::read_to_string(out.join(format!("crops/{n:06}.csv"))).expect("list");
            for line in csv.lines() {
                let fields: Vec<&str> = line.split(',').collect();
                assert_eq!(fields.len(), 4, "{line}");
                let class = fields[1];
                assert!(
                    class == "back" || class.parse::<pone_engine::Card>().is_ok(),
                    "{class}"
                );
                let crop = image::open(out.join("crops").join(fields[0])).expect("crop");
                assert_eq!((crop.width(), crop.height()), crate::reader::CROP_SIZE);
                listed += 1;
            }
        }
        assert!(listed > 10, "{listed} crops");
        let _ = std::fs::remove_dir_all(out);
    }

    /// `pone crops` on a set whose first scene has no corner to cut (a pack
    /// half hidden, say) wrote its list into a folder not yet made.
    #[test]
    fn a_scene_with_no_corner_to_cut_is_listed_empty() {
        let labels: crate::render::FrameLabels = serde_json::from_str(
            r#"{"width":320,"height":180,"design":"d","cards":[
            {"card":"back","corners":[[100,40],[160,40],[160,130],[100,130]],"box":[100,40,160,130],"visible":0.5,"index":[],"role":{"at":"pack"}}]}"#,
        )
        .expect("labels");
        let rendered = crate::render::Rendered {
            image: image::RgbImage::new(320, 180),
            labels,
        };
        let out = std::env::temp_dir().join(format!("pone-no-corner-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        assert_eq!(write_crops(&rendered, &out, 0, 1).expect("written"), 0);
        let list = std::fs::read_to_string(out.join("000000.csv")).expect("list");
        assert!(list.is_empty(), "{list}");
        let _ = std::fs::remove_dir_all(out);
    }

    /// An empty set is the tables without their cards: no card labelled, and
    /// the same tables (seed for seed) as the set with its cards.
    #[test]
    fn an_empty_set_has_tables_and_no_cards() {
        let designs = crate::art::embedded().expect("art");
        let out = std::env::temp_dir().join(format!("pone-empty-{}", std::process::id()));
        let options = SynthOptions {
            out: out.clone(),
            scenes: 3,
            seed: 5,
            width: 320,
            height: 180,
            threads: 1,
            crops: false,
            empty: true,
            photos: None,
        };
        write_set(&options, &designs, &|| {}).expect("written");
        for n in 0..3 {
            let text =
                std::fs::read_to_string(out.join(format!("labels/{n:06}.json"))).expect("labels");
            let labels: serde_json::Value = serde_json::from_str(&text).expect("json");
            assert_eq!(labels["cards"].as_array().map(Vec::len), Some(0), "{text}");
            let frame = image::open(out.join(format!("images/{n:06}.jpg"))).expect("frame");
            assert_eq!((frame.width(), frame.height()), (320, 180));
        }
        let _ = std::fs::remove_dir_all(out);
    }

    #[test]
    fn a_photos_crops_are_its_cards_corners_only() {
        use crate::reader::INDEX_WINDOW;
        // A 200x280 photo of one card filling it, and three windows the
        // finder might give: the card's top-left index, its bottom-right
        // index turned half round, and a pip in the middle of the card.
        let frame = image::RgbImage::from_pixel(200, 280, image::Rgb([240, 240, 240]));
        let (iw, ih) = (INDEX_WINDOW[2] * 200.0, INDEX_WINDOW[3] * 280.0);
        let corner = |window: [[f32; 2]; 4]| crate::finder::Corner {
            score: 0.9,
            window,
            bbox: [0.0, 0.0, 200.0, 280.0],
        };
        let top_left = corner([[0.0, 0.0], [iw, 0.0], [iw, ih], [0.0, ih]]);
        let bottom_right = corner([
            [200.0, 280.0],
            [200.0 - iw, 280.0],
            [200.0 - iw, 280.0 - ih],
            [200.0, 280.0 - ih],
        ]);
        let pip = corner([
            [70.0, 90.0],
            [70.0 + iw, 90.0],
            [70.0 + iw, 90.0 + ih],
            [70.0, 90.0 + ih],
        ]);
        let crops = photo_crops(&frame, &[top_left, pip, bottom_right.clone()]);
        assert_eq!(crops.len(), 2, "both indices, not the pip");
        // A window the size of the whole photo makes a card far too large.
        let huge = corner([[0.0, 0.0], [200.0, 0.0], [200.0, 280.0], [0.0, 280.0]]);
        assert!(photo_crops(&frame, &[huge]).is_empty());
        assert_eq!(photo_crops(&frame, &[bottom_right]).len(), 1);
    }
}

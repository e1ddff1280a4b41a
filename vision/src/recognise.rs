//! Frame in, cards out: the finder's corners are cut and read, the two
//! corners of one card are read together, and face-down cards are counted.
//! A picture that is one card filling the frame is also read whole (the
//! whole-card reader), which helps where its index is cut off or unusual.

use std::path::{Path, PathBuf};

use image::RgbImage;
use imageproc::geometric_transformations::Projection;

use crate::finder::{Corner, Finder, Look};
use crate::model::{Classifier, ModelError};
use crate::reader::{INDEX_WINDOW, NO_CARD, cut_back, cut_window};

/// A card seen in a frame.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Seen {
    /// `QH` (ranks `A23456789TJQK`, suits `SHDC`), or `back` for a face-down card.
    pub card: String,
    /// How likely the reading is right, 0..1.
    pub confidence: f32,
    /// The box around what shows of the card, `[x0, y0, x1, y1]` in pixels.
    #[serde(rename = "box")]
    pub bbox: [f32; 4],
    /// The card's four corners (top-left, top-right, bottom-right, bottom-left
    /// as its index reads), when a face-up card's index was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corners: Option<[[f32; 2]; 4]>,
    /// The next most likely readings of a face-up card with their
    /// probabilities, most likely first (the tracker's deck sense asks them
    /// when the best reading repeats a card already seen).
    #[serde(skip)]
    pub others: Vec<(String, f32)>,
    /// Whether both the card's corners were read: it shows whole, so it lies
    /// on any card it overlaps.
    #[serde(skip)]
    pub both_corners: bool,
}

impl Seen {
    /// A reading with only its card, confidence and box (no corners, no
    /// runners-up): what a label or a test gives.
    #[must_use]
    pub fn new(card: &str, confidence: f32, bbox: [f32; 4]) -> Seen {
        Seen {
            card: card.into(),
            confidence,
            bbox,
            corners: None,
            others: Vec::new(),
            both_corners: false,
        }
    }
}

/// The finder and the reader together.
pub struct Recogniser {
    finder: Finder,
    reader: CornerReader,
    whole: Option<Classifier>,
    backs: Option<Classifier>,
    /// The least confidence a card must have to be reported.
    pub min_confidence: f32,
    /// Whether the pictures are a table camera's frames
    /// ([`Recogniser::camera_frames`]).
    camera: bool,
    /// A camera's last frame's cards, given again for a frame in which
    /// nothing changed ([`Finder::only_changes`]).
    last: Option<Vec<Seen>>,
    /// The reader's opinions of a camera's last frame's index corners.
    corners_read: Opinions,
    /// The back checker's of its backs.
    backs_read: Opinions,
}

/// The corner reader: `reader.onnx`, and `reader2.onnx` when it is there,
/// whose probabilities a picture's corners average with the first's
/// (session 77, models/README.md: on the held-out renders of seed 5151,
/// 1,686 cards right and 72 false cards against 1,668 and 94, and fewer
/// false cards on every photo set). A table camera's frames read with the
/// first alone: with both, two rendered sittings of the live table lost
/// their ledgers to a card read a second time, unsurely, on its own pips
/// (session 73).
struct CornerReader {
    first: Classifier,
    second: Option<Classifier>,
}

impl CornerReader {
    fn classes(&self) -> &[String] {
        self.first.classes()
    }

    /// Each crop's probabilities: the first reader's, or, for a picture
    /// (not a camera's frame), the mean of both.
    fn probabilities(
        &mut self,
        crops: &[RgbImage],
        camera: bool,
    ) -> Result<Vec<Vec<f32>>, ModelError> {
        let first = self.first.probabilities(crops)?;
        match self.second.as_mut().filter(|_| !camera) {
            Some(second) => Ok(first
                .into_iter()
                .zip(second.probabilities(crops)?)
                .map(|(a, b)| mean_opinion(&[a, b]))
                .collect()),
            None => Ok(first),
        }
    }
}

/// A network's opinions of the crops it read in a camera's last frame, each
/// by where it was cut (a back's box, an index corner's window): in the next
/// frame, a crop cut just there, where the finder did not look again, reads
/// the same ([`Finder::looked_again_at`]).
#[derive(Default)]
struct Opinions {
    known: Vec<(Vec<f32>, Vec<f32>)>,
}

/// `read`'s opinion of each crop `cut` makes at `places` (`None`
/// where none can be cut). With `finder` (a camera's frames), a place the
/// opinions `kept` hold, whose `region` the finder did not look at again,
/// keeps its opinion, and the others are cut and read; the opinions kept
/// become these.
fn opinions_of(
    read: impl FnOnce(&[RgbImage]) -> Result<Vec<Vec<f32>>, ModelError>,
    places: &[Vec<f32>],
    region: impl Fn(&[f32]) -> [f32; 4],
    cut: impl Fn(&[f32]) -> Option<RgbImage>,
    finder: Option<&Finder>,
    kept: &mut Opinions,
) -> Result<Vec<Option<Vec<f32>>>, ModelError> {
    let mut opinions: Vec<Option<Vec<f32>>> = vec![None; places.len()];
    let mut asked = Vec::new();
    let mut crops = Vec::new();
    for (i, place) in places.iter().enumerate() {
        let known = finder
            .filter(|f| !f.looked_again_at(region(place)))
            .and_then(|_| kept.known.iter().find(|(at, _)| at == place));
        if let Some((_, opinion)) = known {
            opinions[i] = Some(opinion.clone());
        } else if let Some(crop) = cut(place) {
            asked.push(i);
            crops.push(crop);
        }
    }
    for (i, opinion) in asked.into_iter().zip(read(&crops)?) {
        opinions[i] = Some(opinion);
    }
    if finder.is_some() {
        kept.known = places
            .iter()
            .zip(&opinions)
            .filter_map(|(place, o)| Some((place.clone(), o.clone()?)))
            .collect();
    }
    Ok(opinions)
}

/// What the finder found in a frame: the index corners, and the backs
/// checked.
type Found = (Vec<Corner>, Vec<Seen>);

/// The models' file names in the models folder.
pub const FINDER_FILE: &str = "finder.onnx";
/// The reader's file name in the models folder.
pub const READER_FILE: &str = "reader.onnx";
/// The second corner reader's file name in the models folder (optional;
/// with the same classes as [`READER_FILE`]'s).
pub const SECOND_READER_FILE: &str = "reader2.onnx";
/// The whole-card reader's file name in the models folder (optional).
pub const WHOLE_FILE: &str = "cardnet.onnx";
/// The back checker's file name in the models folder (optional).
pub const BACKS_FILE: &str = "backs.onnx";
/// The whole-card reader's input size when its model does not say: the
/// picture squeezed to a square.
const WHOLE_SIZE: u32 = 96;

/// A face-up card's evidence: its corners found, and what each reads.
struct Candidate {
    corners: Vec<usize>,
    quad: [[f32; 2]; 4],
    centre: [f32; 2],
    height: f32,
}

impl Candidate {
    /// The finder's score of its surest corner.
    fn score(&self, corners: &[Corner]) -> f32 {
        self.corners
            .iter()
            .map(|&i| corners[i].score)
            .fold(0.0f32, f32::max)
    }
}

/// Where the models are: `PONE_MODELS`, else the first `models/` folder
/// holding [`FINDER_FILE`] in the current folder, the program's folder, or
/// their parents (the repository's `models/` when run from a checkout).
#[must_use]
pub fn models_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PONE_MODELS") {
        return PathBuf::from(dir);
    }
    let starts = [std::env::current_dir().ok(), std::env::current_exe().ok()];
    starts
        .into_iter()
        .flatten()
        .flat_map(|start| {
            start
                .ancestors()
                .map(|dir| dir.join("models"))
                .collect::<Vec<_>>()
        })
        .find(|dir| dir.join(FINDER_FILE).is_file())
        .unwrap_or_else(|| PathBuf::from("models"))
}

impl Recogniser {
    /// Loads `finder.onnx` and `reader.onnx` (with `reader.classes.txt`) from
    /// `folder`, and `reader2.onnx` (a second corner reader), `cardnet.onnx`
    /// (the whole-card reader) and `backs.onnx` (the back checker) when they
    /// are there.
    pub fn open(folder: &Path) -> Result<Recogniser, ModelError> {
        Recogniser::open_on(folder, crate::finder::cores())
    }

    /// [`Recogniser::open`], its networks running on `threads` threads (a
    /// window drawing beside it keeps a core for itself).
    pub fn open_on(folder: &Path, threads: usize) -> Result<Recogniser, ModelError> {
        let optional = |file: &str| {
            let path = folder.join(file);
            path.is_file()
                .then(|| Classifier::open_on(&path, threads.max(1)))
                .transpose()
        };
        let backs = optional(BACKS_FILE)?;
        if let Some(checker) = &backs
            && !checker.classes().iter().any(|c| c == "back")
        {
            return Err(ModelError::Model {
                path: folder.join(BACKS_FILE).with_extension("classes.txt"),
                reason: "the back checker's classes must name `back` (and `none`): \
                         write them again with `python3 models/train_backs.py`"
                    .into(),
            });
        }
        let first = Classifier::open_on(&folder.join(READER_FILE), threads.max(1))?;
        let second = optional(SECOND_READER_FILE)?;
        if let Some(second) = &second
            && second.classes() != first.classes()
        {
            return Err(ModelError::Model {
                path: folder
                    .join(SECOND_READER_FILE)
                    .with_extension("classes.txt"),
                reason: format!(
                    "the second corner reader's classes must be the first's ({}), in \
                     their order: export it with `python3 models/train_reader.py`, or \
                     remove {SECOND_READER_FILE}",
                    folder
                        .join(READER_FILE)
                        .with_extension("classes.txt")
                        .display()
                ),
            });
        }
        Ok(Recogniser {
            finder: Finder::open_on(&folder.join(FINDER_FILE), threads.max(1))?,
            reader: CornerReader { first, second },
            whole: optional(WHOLE_FILE)?,
            backs,
            min_confidence: 0.25,
            camera: false,
            last: None,
            corners_read: Opinions::default(),
            backs_read: Opinions::default(),
        })
    }

    /// Sets whether the pictures are one table camera's frames: each frame
    /// starts at the size the last one was seen at ([`Finder::keep_size`]),
    /// which saves the finder a look per frame, and no frame is read as one
    /// card filling it (a table is never one card: a frame of the empty
    /// table or of the pack alone would be read as the card it looks most
    /// like), two face-down finds overlapping less than
    /// [`crate::finder::CAMERA_SAME_BACK`] are two cards (a card dealt onto
    /// another; the live table tells a back found twice in time), a back
    /// the checker gives [`CAMERA_CHECKED_BACK`] stays one, and only
    /// index corners found at [`crate::finder::CAMERA_CORNER_THRESHOLD`] or
    /// more count (one missed is seen in the next frame). The finder looks
    /// again only at what changed since the frame before
    /// ([`Finder::only_changes`]), and a frame in which nothing changed
    /// gives the last frame's cards again. The corners are read by the
    /// first corner reader alone ([`READER_FILE`], not with
    /// [`SECOND_READER_FILE`]). Off (the default) for
    /// pictures that have nothing to do with each other: photos, close-ups,
    /// scans.
    pub fn camera_frames(&mut self, camera: bool) {
        use crate::finder::{
            CAMERA_CORNER_THRESHOLD, CAMERA_SAME_BACK, CORNER_THRESHOLD, SAME_OBJECT,
        };
        self.camera = camera;
        self.last = None;
        self.corners_read = Opinions::default();
        self.backs_read = Opinions::default();
        self.finder.keep_size = camera;
        self.finder.only_changes = camera;
        (self.finder.same_back, self.finder.corner_threshold) = if camera {
            (CAMERA_SAME_BACK, CAMERA_CORNER_THRESHOLD)
        } else {
            (SAME_OBJECT, CORNER_THRESHOLD)
        };
    }

    /// Tells the finder a camera's frame rate ([`Finder::frames_a_second`]).
    pub fn frames_a_second(&mut self, fps: f32) {
        self.finder.frames_a_second(fps);
    }

    /// How the finder looked at the last frame ([`Finder::only_changes`]).
    #[must_use]
    pub fn last_look(&self) -> crate::finder::Look {
        self.finder.last_look()
    }

    /// Every card in `frame`, face-up ones read, in reading order (top to bottom, then left to right).
    pub fn recognise(&mut self, frame: &RgbImage) -> Result<Vec<Seen>, ModelError> {
        let Some((found, backs)) = self.find(frame)? else {
            return Ok(self.last.clone().unwrap_or_default());
        };
        let seen = self.read(frame, found, backs)?;
        if self.camera {
            self.last = Some(seen.clone());
        }
        Ok(seen)
    }

    /// The corners that could be cut from `frame`, and what the reader
    /// makes of each (in a camera's frames, its opinion kept where the
    /// finder did not look again).
    fn read_corners(
        &mut self,
        frame: &RgbImage,
        found: Vec<Corner>,
    ) -> Result<(Vec<Corner>, Vec<Vec<f32>>), ModelError> {
        let places: Vec<Vec<f32>> = found
            .iter()
            .map(|c| c.window.iter().flatten().copied().collect())
            .collect();
        let (reader, camera) = (&mut self.reader, self.camera);
        let opinions = opinions_of(
            |crops| reader.probabilities(crops, camera),
            &places,
            window_bounds,
            |p| cut_window(frame, as_window(p)),
            self.camera.then_some(&self.finder),
            &mut self.corners_read,
        )?;
        Ok(found
            .into_iter()
            .zip(opinions)
            .filter_map(|(corner, opinion)| Some((corner, opinion?)))
            .unzip())
    }

    /// The cards of `frame`, from the finder's corners and checked backs.
    fn read(
        &mut self,
        frame: &RgbImage,
        found: Vec<Corner>,
        backs: Vec<Seen>,
    ) -> Result<Vec<Seen>, ModelError> {
        let (corners, probabilities) = self.read_corners(frame, found)?;
        let classes = self.reader.classes().to_vec();
        let candidates = group(&corners);
        // The corners of one card read together: the product of their probabilities.
        let evidence: Vec<Vec<f64>> = candidates
            .iter()
            .map(|candidate| {
                let mut combined = vec![1.0f64; classes.len()];
                for &i in &candidate.corners {
                    for (c, p) in combined.iter_mut().zip(&probabilities[i]) {
                        *c *= f64::from(p.max(1e-6));
                    }
                }
                combined
            })
            .collect();
        let (fw, fh) = (frame.width() as f32, frame.height() as f32);
        // A picture that is one card filling it (a close-up, a scan, a
        // straightened card): read whole, it is that card and nothing else.
        // Asked of small pictures and card-shaped ones only; never of a
        // table's view (a wider picture: an empty table's cloth, carpet and
        // pen were read whole as an ace at up to 0.99, and a card filling
        // such a picture is found and read at its corners) nor of a table
        // camera's frames.
        let camera = self.camera;
        let close = may_be_one_card(fw, fh);
        let whole = if !camera && close {
            let read = candidates
                .iter()
                .zip(&evidence)
                .map(|(candidate, combined)| (candidate.score(&corners), combined.as_slice()));
            self.picture_as_card(frame, &classes)?
                .and_then(|picture| picture_card(picture, &classes, read, (fw, fh)))
        } else {
            None
        };
        let mut seen = Vec::new();
        for (candidate, combined) in candidates.iter().zip(evidence) {
            let Some((best, p)) = most_likely(&combined) else {
                continue;
            };
            if !names_a_card(&classes[best]) {
                continue;
            }
            let score = candidate.score(&corners);
            let confidence = p as f32 * (2.0 * score).min(1.0);
            let n = candidate.corners.len() as f32;
            let mut bbox = [0.0f32; 4];
            for &i in &candidate.corners {
                for (b, v) in bbox.iter_mut().zip(corners[i].bbox) {
                    *b += v / n;
                }
            }
            seen.push(Seen {
                card: classes[best].clone(),
                confidence,
                bbox,
                corners: Some(candidate.quad),
                others: runners_up(&combined, &classes, best),
                both_corners: candidate.corners.len() > 1,
            });
        }
        if !camera {
            seen.retain(|s| !larger_than_the_picture(s, fw * fh));
        }
        if let Some((card, alone)) = &whole
            && *alone >= WHOLE_SURE
            && !other_cards_read(card, &seen)
        {
            return Ok(vec![card.clone()]);
        }
        let mut seen = drop_repeats(drop_same_card(seen, camera));
        if !camera {
            let far = self.read_far_corners(frame, &seen)?;
            clip_covered(&mut seen, &far);
        }
        seen.extend(backs_off_faces(&seen, card_sized_backs(&seen, backs)));
        seen.retain(|s| s.confidence >= self.min_confidence);
        // Nothing else read in a picture that may be one card (a photo, not
        // a camera's frame of the table; card-shaped or small): the whole
        // picture's reading, unsure as it is, says more than nothing (a
        // close-up whose index is cut off).
        if seen.is_empty()
            && let Some((card, _)) = whole
            && card.confidence >= self.min_confidence
        {
            return Ok(vec![card]);
        }
        seen.sort_by(|a, b| {
            reading_order(a)
                .partial_cmp(&reading_order(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        Ok(seen)
    }

    /// The finder's corners, and its backs checked (each back's confidence
    /// the checker's). The first look's backs are checked before they say
    /// how large the cards are: a pen's tip the checker drops sent an empty
    /// table to be seen again larger, where its other end passed as a back.
    /// `None` for a camera's frame in which nothing changed since the last,
    /// whose cards are known.
    fn find(&mut self, frame: &RgbImage) -> Result<Option<Found>, ModelError> {
        let least = self.least_back();
        let checker = self.backs.as_mut();
        let kept = &mut self.backs_read;
        let camera = self.camera;
        let mut first_backs = Vec::new();
        let mut first_side = 0;
        let (mut finds, again) = self.finder.find_kept(frame, |mut first, finder| {
            let finder = camera.then_some(finder);
            first.backs = checked_backs(checker, least, frame, first.backs, finder, kept)?;
            if !camera {
                first_backs.clone_from(&first.backs);
                first_side = first.side;
            }
            Ok(first)
        })?;
        let unchanged = self.finder.last_look() == Look::Unchanged;
        if unchanged && self.last.is_some() {
            return Ok(None);
        }
        if again || unchanged {
            let finder = camera.then_some(&self.finder);
            finds.backs = checked_backs(
                self.backs.as_mut(),
                least,
                frame,
                finds.backs,
                finder,
                &mut self.backs_read,
            )?;
        }
        // A table's picture seen again larger, face-up cards found in it:
        // the first look's surest backs the second did not find stay.
        let table = !may_be_one_card(frame.width() as f32, frame.height() as f32);
        if again && !camera && table && finds.side > first_side && !finds.corners.is_empty() {
            let lost = lost_at_the_second_look(first_backs, &finds.backs);
            finds.backs.extend(lost);
        }
        let backs = finds
            .backs
            .iter()
            .map(|back| Seen::new("back", back.score, back.bbox))
            .collect();
        Ok(Some((finds.corners, backs)))
    }

    /// What the other corner of each card read at one corner, whose box
    /// meets another card's, reads as on its own (when it names a card at
    /// [`FAR_CORNER_SAME`] or more): the card itself when it shows whole,
    /// the card lying on it when that covers its far end (`clip_covered`).
    fn read_far_corners(
        &mut self,
        frame: &RgbImage,
        seen: &[Seen],
    ) -> Result<Vec<Option<String>>, ModelError> {
        let meets = |a: usize| {
            seen.iter()
                .enumerate()
                .any(|(b, s)| b != a && crate::boxes::share_of_smaller(s.bbox, seen[a].bbox) > 0.0)
        };
        let mut asked = Vec::new();
        let mut crops = Vec::new();
        for (a, reading) in seen.iter().enumerate() {
            if reading.both_corners || !meets(a) {
                continue;
            }
            let far = reading
                .corners
                .and_then(crate::reader::index_windows)
                .and_then(|[_, far]| cut_window(frame, far));
            if let Some(crop) = far {
                asked.push(a);
                crops.push(crop);
            }
        }
        let probabilities = self.reader.probabilities(&crops, self.camera)?;
        let classes = self.reader.classes();
        let mut far = vec![None; seen.len()];
        for (a, p) in asked.into_iter().zip(probabilities) {
            far[a] = most_likely(&p.iter().map(|&q| f64::from(q)).collect::<Vec<_>>())
                .filter(|&(best, q)| {
                    names_a_card(&classes[best]) && q >= f64::from(FAR_CORNER_SAME)
                })
                .map(|(best, _)| classes[best].clone());
        }
        Ok(far)
    }

    /// The least checked back kept: a table camera's frames keep more.
    fn least_back(&self) -> f32 {
        if self.camera {
            CAMERA_CHECKED_BACK
        } else {
            CHECKED_BACK
        }
    }

    /// The evidence (over the corner reader's classes, then one more for "no
    /// card fills the picture") that the whole picture is one card: the
    /// whole-card reader's opinion, and, when the picture has a card's
    /// proportions, the corner reader on its own two index windows (the
    /// picture taken as a straightened card). `None` when neither applies.
    fn picture_as_card(
        &mut self,
        frame: &RgbImage,
        classes: &[String],
    ) -> Result<Option<Vec<f64>>, ModelError> {
        let (w, h) = (frame.width() as f32, frame.height() as f32);
        let mut evidence = vec![1.0f64; classes.len() + 1];
        let mut any = false;
        if card_shaped(w, h) {
            let (ww, wh) = (
                w * (INDEX_WINDOW[2] - INDEX_WINDOW[0]),
                h * (INDEX_WINDOW[3] - INDEX_WINDOW[1]),
            );
            let windows = [
                [[0.0, 0.0], [ww, 0.0], [ww, wh], [0.0, wh]],
                [[w, h], [w - ww, h], [w - ww, h - wh], [w, h - wh]],
            ];
            let crops: Vec<RgbImage> = windows
                .into_iter()
                .filter_map(|window| cut_window(frame, window))
                .collect();
            for reading in self.reader.probabilities(&crops, self.camera)? {
                // The corner reader knows no "no card": it says nothing about it.
                let none = 1.0 / reading.len() as f64;
                for (e, p) in evidence.iter_mut().zip(reading) {
                    *e *= f64::from(p.max(1e-6));
                }
                if let Some(e) = evidence.last_mut() {
                    *e *= none;
                }
                any = true;
            }
        }
        if let Some(whole) = self.whole.as_mut() {
            let (side_w, side_h) = whole.input_size().unwrap_or((WHOLE_SIZE, WHOLE_SIZE));
            let picture = image::imageops::resize(
                frame,
                side_w,
                side_h,
                image::imageops::FilterType::Triangle,
            );
            // Read the right way up and turned half round (a card reads the
            // same both ways), and the two opinions averaged: on the kept-out
            // gpiosenka photos, through the recogniser, 1,382 of 1,480 read
            // right one way, 1,388 both (models/README.md, session 23).
            let turned = image::imageops::rotate180(&picture);
            let opinions = whole.probabilities(&[picture, turned])?;
            let named: Vec<(&String, f32)> = whole
                .classes()
                .iter()
                .zip(mean_opinion(&opinions))
                .collect();
            let none = "none".to_owned();
            for (e, class) in evidence.iter_mut().zip(classes.iter().chain([&none])) {
                let p = named
                    .iter()
                    .find(|(n, _)| *n == class)
                    .map_or(1e-6, |x| x.1);
                *e *= f64::from(p.max(1e-6));
            }
            any = true;
        }
        Ok(any.then_some(evidence))
    }
}

/// The card a picture that may be one card is, from `picture`, the evidence
/// that it is one card ([`Recogniser::picture_as_card`]), with what its index
/// corners `read` (each its finder's score and its reading's evidence,
/// [`with_corners_read`]); with how sure the whole picture alone is of the
/// card it likely is, which decides whether it is one card at all (a photo
/// of two cards, one read at its corner as the card the whole picture
/// likely is, is still two). `None` when the picture is likely no card.
fn picture_card<'a>(
    mut picture: Vec<f64>,
    classes: &[String],
    read: impl Iterator<Item = (f32, &'a [f64])>,
    (width, height): (f32, f32),
) -> Option<(Seen, f32)> {
    let names_a_class_card = |best: usize| best < classes.len() && names_a_card(&classes[best]);
    let alone = most_likely(&picture)
        .filter(|&(best, _)| names_a_class_card(best))
        .map_or(0.0, |(_, p)| p as f32);
    with_corners_read(&mut picture, classes, read);
    let (best, p) = most_likely(&picture)?;
    names_a_class_card(best).then(|| {
        let card = Seen {
            card: classes[best].clone(),
            confidence: p as f32,
            bbox: [0.0, 0.0, width, height],
            corners: None,
            others: runners_up(&picture, classes, best),
            both_corners: false,
        };
        (card, alone)
    })
}

/// How likely an index corner found in a picture that may be one card is
/// that card's index, for each unit of the finder's score
/// ([`with_corners_read`]). On the kept-out gpiosenka photos, cards read
/// right at 0.3, 0.5, 0.8 and 1.0: 1,417, 1,420, 1,418, 1,418 (1,412
/// without); on 2,000 rendered squares of the held-out designs
/// (`models/closeups.py --square`): 1,989, 1,989, 1,991 at 0.3, 0.5, 0.8
/// (1,978 without).
const CORNER_IS_INDEX: f64 = 0.5;

/// The least finder's score of a corner that says anything of the card a
/// picture is ([`with_corners_read`]).
const CORNER_COUNTED: f32 = 0.5;

/// The evidence that a picture is one card (over `classes`, then one more
/// for "no card fills the picture"), with what the index corners found in it
/// read: each corner found surely enough ([`CORNER_COUNTED`]) whose reading
/// names a card is that card's index, read, with a chance `w` (its finder's
/// score times [`CORNER_IS_INDEX`]), or else something that says nothing
/// of the card (a pip, a court figure, a neighbour's index). So card `c` is
/// `(1 - w) + n w p(c)` times as likely with it, `n` the number of cards
/// and `p(c)` the corner's probability of `c`; the rest `1 - w` times. The
/// whole-card reader read a plain nine of spades as 6S at 0.99, whose three
/// corners read 9S (session 81, models/README.md).
fn with_corners_read<'a>(
    picture: &mut [f64],
    classes: &[String],
    corners: impl Iterator<Item = (f32, &'a [f64])>,
) {
    let cards = classes.iter().filter(|c| names_a_card(c)).count() as f64;
    for (score, evidence) in corners {
        let Some((best, _)) = most_likely(evidence) else {
            continue;
        };
        if score < CORNER_COUNTED || !names_a_card(&classes[best]) {
            continue;
        }
        let total: f64 = evidence.iter().sum();
        let w = (f64::from(score) * CORNER_IS_INDEX).min(1.0);
        for (i, e) in picture.iter_mut().enumerate() {
            let p = match classes.get(i) {
                Some(class) if names_a_card(class) => evidence[i] / total,
                _ => 0.0,
            };
            *e *= (1.0 - w) + cards * w * p;
        }
    }
}

/// The mean of several opinions of one thing, class by class: the
/// whole-card reader's of a picture read both ways, the two corner readers'
/// of one corner.
fn mean_opinion(opinions: &[Vec<f32>]) -> Vec<f32> {
    let n = opinions.len().max(1) as f32;
    let width = opinions.first().map_or(0, Vec::len);
    (0..width)
        .map(|k| {
            opinions
                .iter()
                .map(|o| o.get(k).copied().unwrap_or(0.0))
                .sum::<f32>()
                / n
        })
        .collect()
}

/// How many times a picture's area the outline of a face-up card read in it
/// may cover ([`larger_than_the_picture`]).
const LARGEST_FACE: f32 = 1.5;

/// Whether a face-up reading's card covers more than [`LARGEST_FACE`] times
/// the picture's area: such a card's face would fill the picture, so the
/// index read is a pattern on the table's cloth, seen from close by, from
/// which a card twice the picture's size was guessed (a leopard print read
/// as TC at 0.99 on the empty tables of seed 94 with photos). Of the face-up
/// readings on the held-out renders, `scenes-edje-train` and the kept-out
/// gpiosenka photos, the largest covers 0.43, 0.43 and 1.09 times its
/// picture (session 81).
fn larger_than_the_picture(seen: &Seen, picture_area: f32) -> bool {
    seen.corners
        .is_some_and(|card| crate::boxes::quad_area(&card) > LARGEST_FACE * picture_area)
}

/// The face-up readings without repeats: a reading is dropped when a surer
/// one names the same card and one's box centre lies in the other's box, or
/// their cards overlap at all. One pack has one of each card, so the same
/// card read twice in one place is a large card the finder found in pieces
/// (several windows on its face, or one corner at two sizes, or both
/// corners), not two cards.
fn drop_repeats(mut seen: Vec<Seen>) -> Vec<Seen> {
    use crate::boxes::{centre, contains, share_inside};
    let overlap = |a: &Seen, b: &Seen| match (a.corners, b.corners) {
        (Some(p), Some(q)) => share_inside(&p, &q) > 0.0 || share_inside(&q, &p) > 0.0,
        _ => false,
    };
    seen.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
    let mut kept: Vec<Seen> = Vec::with_capacity(seen.len());
    for reading in seen {
        let repeat = kept.iter().any(|k| {
            k.card == reading.card
                && (contains(k.bbox, centre(reading.bbox))
                    || contains(reading.bbox, centre(k.bbox))
                    || overlap(k, &reading))
        });
        if !repeat {
            kept.push(reading);
        }
    }
    kept
}

/// A picture's face-up reading less sure than this, boxed as a surer one,
/// is that card read again ([`drop_same_card`]). Session 77
/// (models/README.md), with the two corner readers: on the held-out renders
/// of seed 5151, 59 false cards instead of 72 for one card fewer read right,
/// on seed 4242 30 instead of 34, on `scenes-edje-train` 19 instead of 21.
/// Not for a camera's frames: the live table tells a card read twice in
/// time, and session 73's rule there lost a rendered sitting (seed 309).
const UNSURE_READ_AGAIN: f32 = 0.5;

/// The overlap over the union of two face-up readings' boxes from which
/// they are boxed as one card ([`drop_same_card`]). At a share of the
/// smaller box instead, the held-out renders of seed 5151 read 1,674 cards
/// right (1,686 without the rule), with 38 false cards.
const SAME_BOX: f32 = 0.75;

/// The face-up readings with one reading per card: a reading is dropped when
/// a surer one's index lies on its card and its own index lies on the surer
/// one's card, or when its card lies almost wholly ([`SAME_CARD_INSIDE`]) on
/// the surer one's card and names the same suit. That is one card read twice
/// (at both corners, their cards extrapolated apart, or at a corner and a
/// pip or a court figure, read in the card's own suit). Cards in a fan or a
/// row of drawn cards are not: each shows its index beside the card on it,
/// so a lower card's index lies on no card above it, and no card shows its
/// index from under one lying almost exactly on it. In a picture (not a
/// camera's frame), a reading under [`UNSURE_READ_AGAIN`] whose box is a
/// surer reading's box ([`SAME_BOX`], their overlap over their union) is
/// that card read again on its pips, whatever it names.
fn drop_same_card(mut seen: Vec<Seen>, camera: bool) -> Vec<Seen> {
    use crate::boxes::{in_quad, share_inside};
    let suit = |card: &str| card.chars().last();
    // The middle of the index window, as a share of the card's width and height.
    let index = [
        f32::midpoint(INDEX_WINDOW[0], INDEX_WINDOW[2]),
        f32::midpoint(INDEX_WINDOW[1], INDEX_WINDOW[3]),
    ];
    let index_of = |q: &[[f32; 2]; 4]| {
        [0, 1].map(|k| q[0][k] + index[0] * (q[1][k] - q[0][k]) + index[1] * (q[3][k] - q[0][k]))
    };
    // The card's middle part, so that a card extrapolated a little too large
    // does not cover the index of a card beside or under it.
    let middle = |q: &[[f32; 2]; 4]| {
        let c = [0, 1].map(|k| q.iter().map(|p| p[k]).sum::<f32>() / 4.0);
        q.map(|p| [0, 1].map(|k| c[k] + SAME_CARD_MIDDLE * (p[k] - c[k])))
    };
    seen.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
    let mut kept: Vec<Seen> = Vec::with_capacity(seen.len());
    for reading in seen {
        let read_again = !camera
            && reading.confidence < UNSURE_READ_AGAIN
            && kept
                .iter()
                .any(|k| crate::boxes::iou(reading.bbox, k.bbox) >= SAME_BOX);
        let same = read_again
            || reading.corners.is_some_and(|q| {
                kept.iter().any(|k| {
                    k.corners.is_some_and(|kq| {
                        (in_quad(&middle(&kq), index_of(&q)) && in_quad(&middle(&q), index_of(&kq)))
                            || (suit(&k.card) == suit(&reading.card)
                                && share_inside(&q, &kq) >= SAME_CARD_INSIDE)
                    })
                })
            });
        if !same {
            kept.push(reading);
        }
    }
    kept
}

/// The least probability with which a card's other corner, read on its
/// own, names the card for the card to count as showing whole.
const FAR_CORNER_SAME: f32 = 0.5;

/// How far short of a lower card's edges a card lying across it may end and
/// still cover it from side to side, as a share of the lower card's box.
const COVER_SLACK: f32 = 0.25;

/// How much of a lower card's index (along the cut) must lie in what is
/// left of its box: a card's box guessed from its index overhangs it a
/// little.
const INDEX_UNCOVERED: f32 = 0.75;

/// The boxes of cards lying under others, cut to what shows of them. A card
/// read at both corners, or whose other corner reads as itself (`far`,
/// `Recogniser::read_far_corners`), shows whole, so it lies on any card it
/// overlaps; a card whose other corner reads as another card lies under
/// that one. A card under another that crosses its box from edge to edge
/// (within [`COVER_SLACK`]) shows only the strip on its index's side: the
/// finder, seeing a lone index, often guesses the whole card around it (real
/// photos of fanned cards, where only a corner shows beside the card on it).
/// A box is cut only where its own index lies in what is left
/// ([`INDEX_UNCOVERED`]).
fn clip_covered(seen: &mut [Seen], far: &[Option<String>]) {
    let whole: Vec<bool> = seen
        .iter()
        .zip(far)
        .map(|(s, f)| s.both_corners || f.as_deref() == Some(s.card.as_str()))
        .collect();
    for a in 0..seen.len() {
        let Some(quad) = seen[a].corners else {
            continue;
        };
        if whole[a] {
            continue;
        }
        let Some([[tl, tr, br, bl], _]) = crate::reader::index_windows(quad) else {
            continue;
        };
        // The half of the index window at the card's edge, where the rank
        // and suit are printed.
        let half =
            |p: [f32; 2], q: [f32; 2]| [f32::midpoint(p[0], q[0]), f32::midpoint(p[1], q[1])];
        let index = crate::boxes::bounds(&[tl, half(tl, tr), half(bl, br), bl]);
        for b in 0..seen.len() {
            let on_far_end = far[a].as_deref() == Some(seen[b].card.as_str());
            if b == a || !(whole[b] || on_far_end) {
                continue;
            }
            if let Some(cut) = uncovered(seen[a].bbox, seen[b].bbox, index) {
                seen[a].bbox = cut;
            }
        }
    }
}

/// What shows of box `mine` beside box `top` lying across it from edge to
/// edge ([`COVER_SLACK`]): the strip on one side of `top` that holds all of
/// `index`; `None` when `top` does not cross `mine` or no strip holds it.
fn uncovered(mine: [f32; 4], top: [f32; 4], index: [f32; 4]) -> Option<[f32; 4]> {
    // Along each axis in turn (0: the strips left and right, 1: above and
    // below), `top` must span `mine` along the other axis.
    for axis in 0..2 {
        let other = 1 - axis;
        let slack = COVER_SLACK * (mine[other + 2] - mine[other]);
        let spans = top[other] <= mine[other] + slack && top[other + 2] >= mine[other + 2] - slack;
        let crosses = top[axis] < mine[axis + 2] && top[axis + 2] > mine[axis];
        if !spans || !crosses {
            continue;
        }
        let before = (mine[axis], top[axis].min(mine[axis + 2]));
        let after = (top[axis + 2].max(mine[axis]), mine[axis + 2]);
        for (lo, hi) in [before, after] {
            let inside = index[axis + 2].min(hi) - index[axis].max(lo);
            if hi > lo && inside >= INDEX_UNCOVERED * (index[axis + 2] - index[axis]) {
                let mut cut = mine;
                cut[axis] = lo;
                cut[axis + 2] = hi;
                return Some(cut);
            }
        }
    }
    None
}

/// Whether a picture read whole as one card has corners read surely
/// ([`OTHER_CARD_SURE`]) as two or more other cards (one is not enough: a
/// pip of a close-up may read as a card).
fn other_cards_read(whole: &Seen, corners: &[Seen]) -> bool {
    let mut others: Vec<&str> = corners
        .iter()
        .filter(|s| s.confidence >= OTHER_CARD_SURE && s.card != whole.card)
        .map(|s| s.card.as_str())
        .collect();
    others.sort_unstable();
    others.dedup();
    others.len() >= 2
}

/// How sure the whole-card reader must be for the picture to be that one
/// card, whatever else was found in it. Below this its reading stands only
/// when nothing else was read.
const WHOLE_SURE: f32 = 0.5;

/// How sure a corner's reading must be to count against the whole-card
/// reader's: a picture whose corners read two other cards this surely is
/// no one card, however sure the whole-card reader is (a photo of four
/// cards on a table was read whole as an ace at 0.94).
const OTHER_CARD_SURE: f32 = 0.8;

/// The share of a card (about its centre) that another reading's index must
/// lie in for the two to be one card ([`drop_same_card`]).
const SAME_CARD_MIDDLE: f32 = 0.9;

/// The share of a reading's card that must lie on a surer reading's card of
/// the same suit for the two to be one card ([`drop_same_card`]).
const SAME_CARD_INSIDE: f32 = 0.9;

/// The least probability the back checker must give a find in a photo for
/// it to stay a face-down card. A false back in a photo is final, while a
/// table camera's back missed in one frame breaks the deal's order, so a
/// camera's frames take [`CAMERA_CHECKED_BACK`]. Measured again for the
/// checker of session 75 (models/README.md): it is surer of backs and of
/// clutter alike, and from 0.85 every set shows fewer false cards than the
/// checker before at 0.55 (the empty tables of seeds 92 and 93: 2 and 3,
/// against 3 and 4; at 0.55, 4 and 8) while the held-out renders read 13
/// more cards right (seed 5151; 35 more at 0.55).
pub const CHECKED_BACK: f32 = 0.85;

/// [`CHECKED_BACK`] for a table camera's frames ([`Recogniser::camera_frames`]).
/// The checker of session 75 doubts a back cut by the frame's edge more
/// than the one before: at 0.5, a 5-player sitting's (seed 225) first card
/// of round 2, lying half out of the frame, was kept only 13 frames late,
/// after the next two, and the deal went astray. At 0.4 seed 212 lost its
/// ledger instead (the pone's pile, half out of the frame's top edge,
/// taken for a hand turned down to be gathered), mended in the live
/// table's rules (session 76: a hand turned down is measured from the card
/// past the frame's edge).
pub const CAMERA_CHECKED_BACK: f32 = 0.4;

/// A back surer than this sets the frame's card size as a face-up card does.
const SURE_BACK: f32 = 0.7;

/// A back more than this many times the frame's typical card is no card.
const LARGEST_BACK: f32 = 2.0;

/// A back whose box's long side is less than this share of the frame's
/// typical face-up card is no card: what shows of a face-down card under
/// others still runs most of its length. Measured in session 74
/// (models/README.md): at 0.4, 0.45 and 0.5, the held-out renders (seeds
/// 4242, 5151) lose no card, none and one, `scenes-edje-train` shows 39, 33
/// and 30 false cards (55 measured by the typical card), and the live table
/// keeps its 173 sittings.
const SMALLEST_BACK: f32 = 0.45;

/// The face-down cards found, each looked at again by the back checker
/// when there is one: a find it doubts (under `least`) goes, and a kept
/// one's score is the checker's (calibrated; the finder's score is not).
/// Without the checker, every find stays with the finder's score.
fn checked_backs(
    checker: Option<&mut Classifier>,
    least: f32,
    frame: &RgbImage,
    found: Vec<crate::finder::Back>,
    finder: Option<&Finder>,
    kept: &mut Opinions,
) -> Result<Vec<crate::finder::Back>, ModelError> {
    let Some(checker) = checker else {
        return Ok(found);
    };
    let places: Vec<Vec<f32>> = found.iter().map(|b| b.bbox.to_vec()).collect();
    let opinions = opinions_of(
        |crops| checker.probabilities(crops),
        &places,
        |p| crate::reader::back_region(as_box(p)),
        |p| cut_back(frame, as_box(p)),
        finder,
        kept,
    )?;
    // `open` made sure the checker has the class.
    let is_back = checker.classes().iter().position(|c| c == "back");
    Ok(found
        .into_iter()
        .zip(opinions)
        .filter_map(|(back, opinion)| {
            let score = is_back.and_then(|k| opinion?.get(k).copied())?;
            tracing::debug!(bbox = ?back.bbox, score, kept = score >= least, "a back checked");
            (score >= least).then_some(crate::finder::Back {
                score,
                bbox: back.bbox,
            })
        })
        .collect())
}

/// The share of a first look's back that a back of the second look may
/// cover while the first stays a card of its own ([`lost_at_the_second_look`]).
const FOUND_AGAIN: f32 = 0.3;

/// The least checked score of a first look's back kept when the second
/// look did not find it ([`lost_at_the_second_look`]). At
/// [`CHECKED_BACK`] (0.85) the held-out renders of seed 5151 read two more
/// cards right than at 0.95, and the empty tables of seed 93 show one more
/// false back (session 77, models/README.md).
const SURE_AT_THE_FIRST_LOOK: f32 = 0.95;

/// The first look's backs, checked, that the second look lost: sure
/// ([`SURE_AT_THE_FIRST_LOOK`]) and covered by no checked back of the
/// second look (by [`FOUND_AGAIN`] of the smaller box). A picture of a
/// table's small cards is seen again larger and keeps the second look's
/// finds, and a back the checker was sure of at the first look, but that
/// the second did not find (or found as something the checker doubts), was
/// lost with the first look: in the held-out renders of seed 5151, 19 of
/// the 79 backs with no back reading on them (session 77). Asked only of a
/// table's picture seen again larger with face-up cards found in it: a
/// novelty card's picture (a photo of one card, seen again larger) showed
/// three sure "backs" at the first look, and an empty table's clutter is
/// looked at again for the clutter's size.
fn lost_at_the_second_look(
    first: Vec<crate::finder::Back>,
    second: &[crate::finder::Back],
) -> Vec<crate::finder::Back> {
    first
        .into_iter()
        .filter(|back| {
            back.score >= SURE_AT_THE_FIRST_LOOK
                && second.iter().all(|again| {
                    crate::boxes::share_of_smaller(back.bbox, again.bbox) <= FOUND_AGAIN
                })
        })
        .collect()
}

/// A box (`[x0, y0, x1, y1]`) from its four values.
fn as_box(place: &[f32]) -> [f32; 4] {
    std::array::from_fn(|i| place.get(i).copied().unwrap_or_default())
}

/// An index window's four points from their eight values.
fn as_window(place: &[f32]) -> [[f32; 2]; 4] {
    std::array::from_fn(|i| {
        [
            place.get(2 * i).copied().unwrap_or_default(),
            place.get(2 * i + 1).copied().unwrap_or_default(),
        ]
    })
}

/// The box around an index window's eight values, a pixel more each side
/// (what its crop's samples blend).
fn window_bounds(place: &[f32]) -> [f32; 4] {
    let b = crate::boxes::bounds(&as_window(place));
    [b[0] - 1.0, b[1] - 1.0, b[2] + 1.0, b[3] + 1.0]
}

/// The backs no larger than [`LARGEST_BACK`] times the frame's typical card
/// (the median long side of the face-up readings and of the backs surer than
/// [`SURE_BACK`]), and no smaller than [`SMALLEST_BACK`] times its typical
/// face-up card (the median long side of the face-up readings; the typical
/// card when none is read). Seen at the size a frame's small cards need, a
/// textured cloth can look like the back of a card three times their size,
/// and a carpet's or a wood's grain like many small ones; one table's cards
/// are alike in size, perspective or not. The small end is measured by the
/// faces alone: in photos of a card among clutter, a phone's buttons, a
/// sweet's wrapper and a book's print were found as several small backs the
/// checker was sure of, and they made the typical card their own size. The
/// large end keeps the backs: a face-up card under others shows a box far
/// smaller than the card.
fn card_sized_backs(faces: &[Seen], backs: Vec<Seen>) -> Vec<Seen> {
    use crate::boxes::long_side;
    let median = |mut sizes: Vec<f32>| {
        sizes.sort_by(f32::total_cmp);
        sizes.get(sizes.len() / 2).copied()
    };
    let Some(typical) = median(
        faces
            .iter()
            .chain(backs.iter().filter(|b| b.confidence >= SURE_BACK))
            .map(|s| long_side(s.bbox))
            .collect(),
    ) else {
        return backs;
    };
    let typical_face = median(faces.iter().map(|s| long_side(s.bbox)).collect()).unwrap_or(typical);
    backs
        .into_iter()
        .filter(|b| {
            let side = long_side(b.bbox);
            side >= SMALLEST_BACK * typical_face && side <= LARGEST_BACK * typical
        })
        .collect()
}

/// The share of a back's box that may lie on a face-up card read ([`backs_off_faces`]).
const BACK_ON_FACE: f32 = 0.75;

/// The backs that do not lie mostly ([`BACK_ON_FACE`]) on a face-up card
/// read. What shows of a face-down card lies beside the face-up cards on it,
/// not on them; a back found on a card's face is its picture or its pips
/// (or, on a photo, the table's grain around a card taken with it).
fn backs_off_faces(faces: &[Seen], backs: Vec<Seen>) -> Vec<Seen> {
    use crate::boxes::share_inside;
    backs
        .into_iter()
        .filter(|back| {
            let [x0, y0, x1, y1] = back.bbox;
            let quad = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
            !faces
                .iter()
                .filter_map(|face| face.corners)
                .any(|card| share_inside(&quad, &card) >= BACK_ON_FACE)
        })
        .collect()
}

/// The most likely class of some evidence (unnormalised probabilities), and its probability.
fn most_likely(evidence: &[f64]) -> Option<(usize, f64)> {
    let total: f64 = evidence.iter().sum();
    evidence
        .iter()
        .map(|e| e / total)
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// The three most likely cards after `best`, with their probabilities.
fn runners_up(evidence: &[f64], classes: &[String], best: usize) -> Vec<(String, f32)> {
    let total: f64 = evidence.iter().sum();
    let mut others: Vec<(usize, f64)> = evidence
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != best && i < classes.len() && names_a_card(&classes[i]))
        .map(|(i, e)| (i, e / total))
        .collect();
    others.sort_by(|a, b| b.1.total_cmp(&a.1));
    others
        .into_iter()
        .take(3)
        .map(|(i, p)| (classes[i].clone(), p as f32))
        .collect()
}

/// Whether a reader's class is a face-up card: not a back, nor a window on no
/// index at all ([`NO_CARD`]).
fn names_a_card(class: &str) -> bool {
    class != "back" && class != NO_CARD
}

/// Whether a picture has a card's proportions (upright).
fn card_shaped(width: f32, height: f32) -> bool {
    (0.55..=0.85).contains(&(width / height))
}

/// Whether a picture may be one card whatever was found in it: card-shaped,
/// or small (a close-up or a crop, not a camera's view of a table).
fn may_be_one_card(width: f32, height: f32) -> bool {
    card_shaped(width, height) || width.max(height) <= 640.0
}

/// A card's place in reading order: its centre's row, then column.
fn reading_order(s: &Seen) -> (f32, f32) {
    (
        f32::midpoint(s.bbox[1], s.bbox[3]),
        f32::midpoint(s.bbox[0], s.bbox[2]),
    )
}

/// The whole card a corner's reading window belongs to: its four corners,
/// as the index reads, extrapolated from the window.
pub(crate) fn card_quad(corner: &Corner) -> Option<[[f32; 2]; 4]> {
    let unit = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
    let to_frame = Projection::from_control_points(unit, corner.window.map(|p| (p[0], p[1])))?;
    let (w, h) = (
        1.0 / (INDEX_WINDOW[2] - INDEX_WINDOW[0]),
        1.0 / (INDEX_WINDOW[3] - INDEX_WINDOW[1]),
    );
    Some([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)].map(|p| {
        let (x, y) = to_frame * p;
        [x, y]
    }))
}

/// Corners grouped into cards: two corners whose windows put the card's centre
/// in the same place, turned half round from each other, are one card.
fn group(corners: &[Corner]) -> Vec<Candidate> {
    let mut candidates: Vec<Candidate> = corners
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let quad = card_quad(c)?;
            let centre = [
                quad.iter().map(|p| p[0]).sum::<f32>() / 4.0,
                quad.iter().map(|p| p[1]).sum::<f32>() / 4.0,
            ];
            let height = (quad[3][0] - quad[0][0]).hypot(quad[3][1] - quad[0][1]);
            (centre[0].is_finite() && centre[1].is_finite() && height > 0.0).then_some(Candidate {
                corners: vec![i],
                quad,
                centre,
                height,
            })
        })
        .collect();
    // Pairs, closest first.
    let mut pairs = Vec::new();
    for a in 0..candidates.len() {
        for b in a + 1..candidates.len() {
            let (p, q) = (&candidates[a], &candidates[b]);
            let distance = (p.centre[0] - q.centre[0]).hypot(p.centre[1] - q.centre[1]);
            let size = p.height.min(q.height);
            let ratio = p.height / q.height;
            // The reading directions: from the top-left to the bottom-left of each window.
            let down = |c: &Candidate| [c.quad[3][0] - c.quad[0][0], c.quad[3][1] - c.quad[0][1]];
            let (u, v) = (down(p), down(q));
            let opposite = u[0] * v[0] + u[1] * v[1] < 0.0;
            if distance < 0.2 * size && (0.7..1.43).contains(&ratio) && opposite {
                pairs.push((distance, a, b));
            }
        }
    }
    pairs.sort_by(|x, y| x.0.total_cmp(&y.0));
    // Each corner joins at most one pair; the second of a pair is absorbed by the first.
    let mut absorbed = vec![false; candidates.len()];
    let mut paired = vec![false; candidates.len()];
    for (_, a, b) in pairs {
        if paired[a] || paired[b] {
            continue;
        }
        paired[a] = true;
        paired[b] = true;
        absorbed[b] = true;
        let other = candidates[b].corners[0];
        candidates[a].corners.push(other);
    }
    candidates
        .into_iter()
        .zip(absorbed)
        .filter_map(|(c, gone)| (!gone).then_some(c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(card: &str, confidence: f32, bbox: [f32; 4]) -> Seen {
        Seen::new(card, confidence, bbox)
    }

    fn drop_same_card_in_a_picture(seen: Vec<Seen>) -> Vec<Seen> {
        drop_same_card(seen, false)
    }

    #[test]
    fn an_unsure_reading_boxed_as_a_surer_one_goes_in_a_picture_only() {
        let five = seen("5D", 0.99, [100.0, 100.0, 200.0, 240.0]);
        // The five's pips read as a three, unsurely, in a box of its own
        // almost the five's.
        let pips = seen("3D", 0.47, [104.0, 106.0, 200.0, 240.0]);
        let sure = seen("3D", 0.6, [104.0, 106.0, 200.0, 240.0]);
        assert_eq!(
            drop_same_card_in_a_picture(vec![pips.clone(), five.clone()]),
            vec![five.clone()]
        );
        assert_eq!(drop_same_card(vec![pips, five.clone()], true).len(), 2);
        assert_eq!(drop_same_card_in_a_picture(vec![sure, five]).len(), 2);
    }

    #[test]
    fn one_card_read_twice_in_one_place_is_one_card() {
        let kept = drop_repeats(vec![
            seen("2C", 0.8, [100.0, 100.0, 200.0, 240.0]),
            seen("2C", 0.99, [110.0, 90.0, 230.0, 250.0]),
        ]);
        assert_eq!(kept, vec![seen("2C", 0.99, [110.0, 90.0, 230.0, 250.0])]);
    }

    #[test]
    fn one_card_read_at_both_corners_is_one_card_but_a_fan_is_two() {
        let quad = |x: f32, turned: bool| {
            let q = [[x, 0.0], [x + 100.0, 0.0], [x + 100.0, 140.0], [x, 140.0]];
            if turned { [q[2], q[3], q[0], q[1]] } else { q }
        };
        let with = |card: &str, confidence: f32, q: [[f32; 2]; 4]| Seen {
            corners: Some(q),
            ..seen(card, confidence, crate::boxes::bounds(&q))
        };
        // Its top-left index read 9S, its bottom-right one 6S: one card, the surer reading.
        let kept = drop_same_card_in_a_picture(vec![
            with("6S", 0.4, quad(0.0, true)),
            with("9S", 0.9, quad(0.0, false)),
        ]);
        assert_eq!(kept, vec![with("9S", 0.9, quad(0.0, false))]);
        // A fan: the second card a quarter of a card to the right, on the first.
        let fan = vec![
            with("9S", 0.9, quad(0.0, false)),
            with("4H", 0.8, quad(25.0, false)),
        ];
        assert_eq!(drop_same_card_in_a_picture(fan.clone()), fan);
    }

    #[test]
    fn a_pip_read_as_a_card_of_its_cards_suit_is_that_card() {
        let card = |card: &str, confidence: f32, q: [[f32; 2]; 4]| Seen {
            corners: Some(q),
            ..seen(card, confidence, crate::boxes::bounds(&q))
        };
        let ten = card(
            "TC",
            0.9,
            [[0.0, 0.0], [100.0, 0.0], [100.0, 140.0], [0.0, 140.0]],
        );
        // A window on the ten's pips, read 8C: its card lies on the ten's.
        let pips = |name: &str| {
            card(
                name,
                0.7,
                [[30.0, 10.0], [95.0, 10.0], [95.0, 100.0], [30.0, 100.0]],
            )
        };
        assert_eq!(
            drop_same_card_in_a_picture(vec![pips("8C"), ten.clone()]),
            vec![ten.clone()]
        );
        // Read in another suit, it may be a card lying on the ten: it stays.
        assert_eq!(
            drop_same_card_in_a_picture(vec![pips("8H"), ten.clone()]).len(),
            2
        );
        // A club a fifth of a card aside, its index showing: two cards.
        let beside = card(
            "4C",
            0.8,
            [[20.0, 0.0], [120.0, 0.0], [120.0, 140.0], [20.0, 140.0]],
        );
        assert_eq!(drop_same_card_in_a_picture(vec![beside, ten]).len(), 2);
    }

    #[test]
    fn a_picture_whose_corners_read_other_cards_surely_is_not_one_card() {
        let whole = seen("AD", 0.94, [0.0, 0.0, 378.0, 504.0]);
        let at = |card: &str, confidence: f32| seen(card, confidence, [10.0, 10.0, 90.0, 130.0]);
        // A photo of four cards: each read surely, none the ace.
        let table = [at("9S", 1.0), at("KH", 1.0), at("QC", 0.99), at("AH", 1.0)];
        assert!(other_cards_read(&whole, &table));
        // One card: its own index, and a pip read as another card.
        let close_up = [at("AD", 0.99), at("8D", 0.93), at("8D", 0.9), at("3D", 0.4)];
        assert!(!other_cards_read(&whole, &close_up));
    }

    #[test]
    fn a_card_twice_the_pictures_size_is_no_card() {
        let mut card = seen("TC", 0.99, [139.0, 0.0, 1280.0, 720.0]);
        // The outline guessed around an index found on a leopard print.
        card.corners = Some([
            [1361.8, 22.0],
            [1434.0, 1165.4],
            [-166.4, 1232.7],
            [-238.0, 122.3],
        ]);
        assert!(larger_than_the_picture(&card, 1280.0 * 720.0));
        // A card lying sideways and filling a landscape close-up.
        card.corners = Some([
            [140.0, 10.0],
            [1140.0, 10.0],
            [1140.0, 710.0],
            [140.0, 710.0],
        ]);
        assert!(!larger_than_the_picture(&card, 1280.0 * 720.0));
    }

    #[test]
    fn a_picture_read_whole_hears_its_corners() {
        let mut classes: Vec<String> = "A23456789TJQK"
            .chars()
            .flat_map(|rank| "SHDC".chars().map(move |suit| format!("{rank}{suit}")))
            .collect();
        classes.extend(["back", NO_CARD].map(str::to_owned));
        // A reading: `sure` on one class, the rest spread evenly (one more
        // class for the picture's "no card fills it").
        let reading = |class: &str, sure: f64, width: usize| {
            let at = classes.iter().position(|c| c == class);
            let rest = (1.0 - sure) / (width - 1) as f64;
            (0..width)
                .map(|i| if Some(i) == at { sure } else { rest })
                .collect::<Vec<f64>>()
        };
        // The whole picture: a six of spades at 0.95, a nine next at 0.04.
        let picture = || {
            let nine = reading("9S", 1.0, classes.len() + 1);
            let six = reading("6S", 1.0, classes.len() + 1);
            nine.iter()
                .zip(six)
                .map(|(n, s)| 0.04 * n + 0.95 * s + 0.0002)
                .collect::<Vec<f64>>()
        };
        let best = |picture: &[f64]| most_likely(picture).map(|(best, _)| classes[best].as_str());
        // Its index corners read surely as the nine: the nine it is.
        let nine = reading("9S", 0.95, classes.len());
        let mut heard = picture();
        with_corners_read(
            &mut heard,
            &classes,
            [(0.7, &nine[..]), (0.6, &nine[..])].into_iter(),
        );
        assert_eq!(best(&heard), Some("9S"));
        // A corner found unsurely, or one that reads no card, says nothing.
        let blank = reading(NO_CARD, 0.95, classes.len());
        for corner in [(0.4, &nine[..]), (0.9, &blank[..])] {
            let mut heard = picture();
            with_corners_read(&mut heard, &classes, std::iter::once(corner));
            assert_eq!(heard, picture());
        }
        // One pip read as another card, unsurely, does not outweigh the
        // picture.
        let ace = reading("AS", 0.6, classes.len());
        let mut heard = picture();
        with_corners_read(&mut heard, &classes, std::iter::once((0.6, &ace[..])));
        assert_eq!(best(&heard), Some("6S"));
    }

    #[test]
    fn a_back_found_on_a_face_up_card_goes() {
        let q = [
            [100.0, 100.0],
            [200.0, 100.0],
            [200.0, 240.0],
            [100.0, 240.0],
        ];
        let faces = vec![Seen {
            corners: Some(q),
            ..seen("KH", 0.95, crate::boxes::bounds(&q))
        }];
        let on = seen("back", 0.8, [110.0, 120.0, 200.0, 230.0]);
        // A face-down card under the king, half of it showing beside it.
        let under = seen("back", 0.8, [150.0, 110.0, 250.0, 250.0]);
        assert_eq!(
            backs_off_faces(&faces, vec![on, under.clone()]),
            vec![under]
        );
    }

    #[test]
    fn a_sure_back_the_second_look_lost_stays_and_one_found_again_does_not() {
        let back = |score, bbox| crate::finder::Back { score, bbox };
        let found_again = back(0.99, [100.0, 100.0, 170.0, 200.0]);
        let lost = back(0.97, [400.0, 100.0, 470.0, 200.0]);
        let unsure = back(0.9, [600.0, 100.0, 670.0, 200.0]);
        // The second look sees the first back a little larger and shifted,
        // and nothing where the other two lay.
        let second = [back(0.98, [95.0, 110.0, 175.0, 215.0])];
        assert_eq!(
            lost_at_the_second_look(vec![found_again, lost.clone(), unsure], &second),
            vec![lost]
        );
    }

    #[test]
    fn backs_far_larger_or_smaller_than_the_tables_cards_go() {
        let faces = vec![seen("2C", 0.9, [100.0, 100.0, 170.0, 200.0])];
        let backs = vec![
            seen("back", 0.8, [300.0, 100.0, 370.0, 205.0]),
            seen("back", 0.6, [0.0, 300.0, 330.0, 640.0]),
            seen("back", 0.55, [500.0, 100.0, 650.0, 300.0]),
        ];
        // The 100-pixel cards make a 340-pixel back no card; one of 200 stays.
        let kept = card_sized_backs(&faces, backs.clone());
        assert_eq!(kept, vec![backs[0].clone(), backs[2].clone()]);
        // A 30-pixel back is the grain of the table; one of 50 stays.
        let small = vec![
            seen("back", 0.6, [10.0, 10.0, 40.0, 35.0]),
            seen("back", 0.6, [10.0, 100.0, 40.0, 150.0]),
        ];
        assert_eq!(card_sized_backs(&faces, small.clone()), small[1..].to_vec());
        // Clutter found as several sure small backs does not make the
        // table's cards small: the face-up card measures them.
        let clutter = vec![
            seen("back", 0.99, [300.0, 10.0, 330.0, 35.0]),
            seen("back", 0.95, [400.0, 10.0, 428.0, 38.0]),
            seen("back", 0.9, [500.0, 10.0, 532.0, 36.0]),
        ];
        assert_eq!(card_sized_backs(&faces, clutter.clone()), vec![]);
        // With no face-up card, the sure backs measure each other.
        assert_eq!(card_sized_backs(&[], clutter.clone()), clutter);
        // With nothing sure to measure by, every back stays.
        assert_eq!(
            card_sized_backs(&[], backs[1..].to_vec()),
            backs[1..].to_vec()
        );
    }

    #[test]
    fn one_card_read_twice_with_overlapping_cards_is_one_card() {
        let card = |confidence: f32, q: [[f32; 2]; 4]| Seen {
            corners: Some(q),
            ..seen(
                "QS",
                confidence,
                [q[0][0], q[0][1], q[0][0] + 30.0, q[0][1] + 40.0],
            )
        };
        // Read at its top-left corner and, turned, at its bottom-right: the
        // boxes around what shows of each index are far apart, the cards not.
        let top = card(
            0.9,
            [[0.0, 0.0], [100.0, 0.0], [100.0, 140.0], [0.0, 140.0]],
        );
        let bottom = card(
            0.6,
            [[110.0, 150.0], [10.0, 150.0], [10.0, 10.0], [110.0, 10.0]],
        );
        assert_eq!(drop_repeats(vec![bottom, top.clone()]), vec![top.clone()]);
        // The same card read a table's width away stays (a misreading the tracker sorts out).
        let far = card(
            0.6,
            [[500.0, 0.0], [600.0, 0.0], [600.0, 140.0], [500.0, 140.0]],
        );
        assert_eq!(drop_repeats(vec![far.clone(), top.clone()]), vec![top, far]);
    }

    #[test]
    fn different_cards_or_far_apart_readings_all_stay() {
        let readings = vec![
            seen("2C", 0.9, [100.0, 100.0, 200.0, 240.0]),
            seen("3C", 0.8, [110.0, 100.0, 210.0, 240.0]),
            seen("2C", 0.7, [400.0, 100.0, 500.0, 240.0]),
        ];
        assert_eq!(drop_repeats(readings.clone()), readings);
    }

    /// An upright card 100 wide and 140 tall at `(x, y)`, read at its
    /// top-left corner (and at both with `both`); its box the whole card.
    fn upright(card: &str, x: f32, y: f32, both: bool) -> Seen {
        let q = [
            [x, y],
            [x + 100.0, y],
            [x + 100.0, y + 140.0],
            [x, y + 140.0],
        ];
        Seen {
            corners: Some(q),
            both_corners: both,
            ..seen(card, 0.9, crate::boxes::bounds(&q))
        }
    }

    #[test]
    #[expect(clippy::float_cmp, reason = "a box is cut exactly at another's edge")]
    fn a_card_under_another_keeps_the_box_of_what_shows() {
        // A fan: the nine's left strip shows beside the ten lying on it.
        let mut fan = vec![
            upright("9S", 0.0, 0.0, false),
            upright("TD", 30.0, 5.0, true),
        ];
        clip_covered(&mut fan, &[None, None]);
        assert_eq!(fan[0].bbox, [0.0, 0.0, 30.0, 140.0]);
        assert_eq!(fan[1].bbox, [30.0, 5.0, 130.0, 145.0]);
        // The same, the ten read at one corner only, its other corner hidden
        // by the frame's edge; the nine's far corner reads as the ten.
        let mut fan = vec![
            upright("9S", 0.0, 0.0, false),
            upright("TD", 30.0, 5.0, false),
        ];
        clip_covered(&mut fan, &[Some("TD".into()), None]);
        assert_eq!(fan[0].bbox, [0.0, 0.0, 30.0, 140.0]);
    }

    #[test]
    #[expect(clippy::float_cmp, reason = "a box is cut exactly at another's edge")]
    fn a_card_on_top_or_half_under_keeps_its_box() {
        // The nine on the ten: its index lies on the ten's box.
        let mut on_top = vec![
            upright("9S", 30.0, 0.0, false),
            upright("TD", 0.0, 0.0, true),
        ];
        clip_covered(&mut on_top, &[None, None]);
        assert_eq!(on_top[0].bbox, [30.0, 0.0, 130.0, 140.0]);
        // The ten covers the nine's lower right corner only: what shows is
        // an L, and the box around it is the whole card's.
        let mut corner = vec![
            upright("9S", 0.0, 0.0, false),
            upright("TD", 40.0, 70.0, true),
        ];
        clip_covered(&mut corner, &[None, None]);
        assert_eq!(corner[0].bbox, [0.0, 0.0, 100.0, 140.0]);
        // Read at both corners, or its far corner read as itself: it shows whole.
        let mut whole = vec![
            upright("9S", 0.0, 0.0, true),
            upright("TD", 30.0, 0.0, true),
        ];
        clip_covered(&mut whole, &[None, None]);
        assert_eq!(whole[0].bbox, [0.0, 0.0, 100.0, 140.0]);
        let mut whole = vec![
            upright("9S", 0.0, 0.0, false),
            upright("TD", 30.0, 0.0, true),
        ];
        clip_covered(&mut whole, &[Some("9S".into()), None]);
        assert_eq!(whole[0].bbox, [0.0, 0.0, 100.0, 140.0]);
    }
}

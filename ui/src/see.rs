//! `pone recognise` and `pone eval`: the card recogniser on still images.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use pone_vision::recognise::{Recogniser, Seen};
use pone_vision::scoring::{Label, Outcome, match_readings};

/// One image's cards, as `pone recognise --json` prints them.
#[derive(Debug, serde::Serialize)]
pub struct ImageCards {
    /// The image's path, as given.
    pub image: String,
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
    /// The cards found.
    pub cards: Vec<CardOut>,
}

/// One card, rounded for printing.
#[derive(Debug, serde::Serialize)]
pub struct CardOut {
    /// `QH` or `back`.
    pub card: String,
    /// How likely the reading is right, 0..1.
    pub confidence: f64,
    /// `[x0, y0, x1, y1]` around what shows of the card, in pixels.
    #[serde(rename = "box")]
    pub bbox: [i64; 4],
    /// The card's corners, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corners: Option<[[f64; 2]; 4]>,
}

impl From<&Seen> for CardOut {
    fn from(seen: &Seen) -> CardOut {
        let round = |v: f32, places: f64| (f64::from(v) * places).round() / places;
        CardOut {
            card: seen.card.clone(),
            confidence: round(seen.confidence, 1000.0),
            bbox: seen.bbox.map(|v| f64::from(v).round() as i64),
            corners: seen.corners.map(|q| q.map(|p| p.map(|v| round(v, 10.0)))),
        }
    }
}

/// An image file as a viewer shows it: turned as its EXIF orientation says
/// (a phone keeps a photo taken upright as a landscape picture and a tag
/// saying to turn it), so that the boxes are where the user sees the cards.
fn open_image(path: &Path) -> anyhow::Result<image::RgbImage> {
    use image::ImageDecoder as _;
    let unreadable = || {
        format!(
            "cannot read the image {} (Pone reads JPEG and PNG files)",
            path.display()
        )
    };
    let mut decoder = image::ImageReader::open(path)
        .and_then(image::ImageReader::with_guessed_format)
        .with_context(unreadable)?
        .into_decoder()
        .with_context(unreadable)?;
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut image = image::DynamicImage::from_decoder(decoder).with_context(unreadable)?;
    image.apply_orientation(orientation);
    Ok(image.to_rgb8())
}

fn open_recogniser(models: Option<&Path>) -> anyhow::Result<Recogniser> {
    let dir = models.map_or_else(pone_vision::recognise::models_dir, Path::to_path_buf);
    Ok(Recogniser::open(&dir)?)
}

/// `pone recognise IMAGE... [--json]`: the cards in each image.
pub fn recognise(
    images: &[PathBuf],
    json: bool,
    models: Option<&Path>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let mut recogniser = open_recogniser(models)?;
    let mut all = Vec::new();
    for path in images {
        let frame = open_image(path)?;
        let seen = recogniser.recognise(&frame)?;
        let cards: Vec<CardOut> = seen.iter().map(CardOut::from).collect();
        let result = ImageCards {
            image: path.display().to_string(),
            width: frame.width(),
            height: frame.height(),
            cards,
        };
        if !json {
            writeln!(
                out,
                "{} ({}x{}): {} card{}",
                result.image,
                result.width,
                result.height,
                result.cards.len(),
                if result.cards.len() == 1 { "" } else { "s" }
            )?;
            for card in &result.cards {
                let [x0, y0, x1, y1] = card.bbox;
                writeln!(
                    out,
                    "  {:<4} {:>5.1}%  at [{x0}, {y0}, {x1}, {y1}]",
                    card.card,
                    card.confidence * 100.0
                )?;
            }
        }
        all.push(result);
    }
    if json {
        writeln!(out, "{}", serde_json::to_string(&all)?)?;
    }
    Ok(())
}

/// What an image of a dataset shows.
#[derive(Clone, Debug)]
enum Truth {
    /// One card fills the image.
    Single(String),
    /// Cards in a scene; readings must land in their boxes.
    Scene(Vec<Labelled>),
}

/// A labelled card of a scene.
#[derive(Clone, Debug)]
struct Labelled {
    /// `QH`, `back`, or a rank alone (`Q`) when the labels give no suit.
    card: String,
    bbox: [f32; 4],
    /// Whether it must be found (a card too hidden to read need not be, but a
    /// reading on it is no false card either).
    counted: bool,
}

/// A labelled dataset folder.
#[derive(Debug)]
struct Dataset {
    name: String,
    format: &'static str,
    samples: Vec<(PathBuf, Truth)>,
}

fn is_image(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["jpg", "jpeg", "png"].contains(&e.to_ascii_lowercase().as_str()))
}

fn sorted_entries(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the folder {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()?;
    entries.sort();
    Ok(entries)
}

/// A card named in words, as class folders name them (`queen of hearts`).
fn card_from_words(name: &str) -> Option<String> {
    let (rank, suit) = name.trim().split_once(" of ")?;
    let rank = match rank.trim() {
        "ace" => 'A',
        "two" => '2',
        "three" => '3',
        "four" => '4',
        "five" => '5',
        "six" => '6',
        "seven" => '7',
        "eight" => '8',
        "nine" => '9',
        "ten" => 'T',
        "jack" => 'J',
        "queen" => 'Q',
        "king" => 'K',
        _ => return None,
    };
    let suit = match suit.trim() {
        "spades" => 'S',
        "hearts" => 'H',
        "diamonds" => 'D',
        "clubs" => 'C',
        _ => return None,
    };
    Some(format!("{rank}{suit}"))
}

/// A rank named in words, as the VOC labels name them (`nine` .. `ace`).
fn rank_from_word(word: &str) -> Option<String> {
    card_from_words(&format!("{word} of spades")).map(|c| c[..1].to_owned())
}

/// Which files of a class folder are kept out of training, for measuring:
/// every fifth in name order (the 5th, 10th, ...). `models/train_cardnet.py`
/// trains only on the others.
pub fn kept_out(position: usize) -> bool {
    position % 5 == 4
}

/// The photos of a folder of class folders (`queen of hearts/`), each with
/// its folder's card, in name order; of each folder only the photos whose
/// place in it `keep` takes (see [`kept_out`]). Folders that name no card of
/// this game (`joker`) are passed over.
fn class_folder_photos(
    dir: &Path,
    keep: impl Fn(usize) -> bool,
) -> anyhow::Result<Vec<(PathBuf, String)>> {
    let mut photos = Vec::new();
    for folder in sorted_entries(dir)?.into_iter().filter(|p| p.is_dir()) {
        let word = folder.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let Some(card) = card_from_words(word) else {
            continue;
        };
        let files = sorted_entries(&folder)?.into_iter().filter(|p| is_image(p));
        for (k, file) in files.enumerate() {
            if keep(k) {
                photos.push((file, card.clone()));
            }
        }
    }
    Ok(photos)
}

fn load_dataset(dir: &Path, all: bool) -> anyhow::Result<Dataset> {
    let name = dir.display().to_string();
    if dir.join("labels").is_dir() && dir.join("images").is_dir() {
        return load_rendered(dir, name);
    }
    let entries = sorted_entries(dir)?;
    if entries
        .iter()
        .any(|p| p.extension().is_some_and(|e| e == "xml"))
    {
        return load_voc(&entries, name);
    }
    if entries.iter().any(|p| p.is_dir()) {
        let samples = class_folder_photos(dir, |k| all || kept_out(k))?
            .into_iter()
            .map(|(file, card)| (file, Truth::Single(card)))
            .collect();
        return Ok(Dataset {
            name,
            format: if all {
                "class folders, every image"
            } else {
                "class folders, the part kept out of training"
            },
            samples,
        });
    }
    let mut samples = Vec::new();
    for file in entries.into_iter().filter(|p| is_image(p)) {
        let card = crate::cli::card_from_file_name(&file).with_context(|| {
            format!(
                "{}: the file name is not a card (expected e.g. 10c.jpg or qh.png), and the \
                 folder has no labels/, no VOC .xml files and no class folders",
                file.display()
            )
        })?;
        samples.push((file, Truth::Single(card.to_string())));
    }
    Ok(Dataset {
        name,
        format: "single cards named by their card",
        samples,
    })
}

fn load_rendered(dir: &Path, name: String) -> anyhow::Result<Dataset> {
    let mut samples = Vec::new();
    for label in sorted_entries(&dir.join("labels"))? {
        if label.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&label)
            .with_context(|| format!("cannot read {}", label.display()))?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a label file of pone synth", label.display()))?;
        let stem = label.file_stem().unwrap_or_default();
        let image = dir.join("images").join(stem).with_extension("jpg");
        let cards = value["cards"].as_array().with_context(|| {
            format!(
                "{}: no \"cards\" list (a pone synth label file has one)",
                label.display()
            )
        })?;
        let mut labelled = Vec::new();
        for card in cards {
            let name = card["card"].as_str().unwrap_or_default().to_owned();
            let visible = card["visible"].as_f64().unwrap_or(0.0);
            let bbox: Vec<f32> = card["box"]
                .as_array()
                .map(|b| {
                    b.iter()
                        .filter_map(|v| v.as_f64().map(|v| v as f32))
                        .collect()
                })
                .unwrap_or_default();
            let [x0, y0, x1, y1] = bbox[..] else {
                anyhow::bail!("{}: a card without a 4-number \"box\"", label.display());
            };
            if visible <= 0.0 || x1 <= x0 {
                continue;
            }
            // A face-up card must show an index; a back, a good part of itself.
            let counted = if name == "back" {
                visible >= 0.3
            } else {
                card["index"].as_array().is_some_and(|index| {
                    index
                        .iter()
                        .any(|i| i["visible"].as_f64().unwrap_or(0.0) >= 0.9)
                })
            };
            labelled.push(Labelled {
                card: name,
                bbox: [x0, y0, x1, y1],
                counted,
            });
        }
        samples.push((image, Truth::Scene(labelled)));
    }
    Ok(Dataset {
        name,
        format: "rendered scenes (pone synth)",
        samples,
    })
}

fn load_voc(entries: &[PathBuf], name: String) -> anyhow::Result<Dataset> {
    let mut samples = Vec::new();
    for xml in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
    {
        let text = std::fs::read_to_string(xml)
            .with_context(|| format!("cannot read {}", xml.display()))?;
        let doc = roxmltree::Document::parse(&text)
            .with_context(|| format!("{}: not a VOC annotation (XML)", xml.display()))?;
        let root = doc.root_element();
        let child = |node: roxmltree::Node, tag: &str| {
            node.children()
                .find(|c| c.has_tag_name(tag))
                .and_then(|c| c.text())
                .map(str::trim)
                .map(str::to_owned)
        };
        let file =
            child(root, "filename").with_context(|| format!("{}: no <filename>", xml.display()))?;
        let image = xml.with_file_name(file);
        let mut labelled = Vec::new();
        for object in root.children().filter(|c| c.has_tag_name("object")) {
            let word = child(object, "name").unwrap_or_default();
            let rank = rank_from_word(&word.to_ascii_lowercase()).with_context(|| {
                format!("{}: \"{word}\" is not a rank (nine .. ace)", xml.display())
            })?;
            let bndbox = object
                .children()
                .find(|c| c.has_tag_name("bndbox"))
                .with_context(|| format!("{}: an object without <bndbox>", xml.display()))?;
            let mut bbox = [0.0f32; 4];
            for (value, tag) in bbox.iter_mut().zip(["xmin", "ymin", "xmax", "ymax"]) {
                *value = child(bndbox, tag)
                    .and_then(|t| t.parse().ok())
                    .with_context(|| format!("{}: no number in <{tag}>", xml.display()))?;
            }
            labelled.push(Labelled {
                card: rank,
                bbox,
                counted: true,
            });
        }
        samples.push((image, Truth::Scene(labelled)));
    }
    Ok(Dataset {
        name,
        format: "VOC boxes, rank only",
        samples,
    })
}

/// Tallies of one dataset.
#[derive(Debug, Default)]
struct Tally {
    images: usize,
    images_right: usize,
    cards: usize,
    located: usize,
    read_right: usize,
    false_cards: usize,
    /// False cards lying on a labelled card another reading took.
    twice: usize,
    confusions: BTreeMap<(String, String), usize>,
    /// Confidence of every matched reading, and whether it was right.
    confidences: Vec<(f32, bool)>,
}

fn score(tally: &mut Tally, truth: &Truth, seen: &[Seen]) {
    tally.images += 1;
    match truth {
        Truth::Single(card) => {
            tally.cards += 1;
            let best = seen
                .iter()
                .filter(|s| s.card != "back")
                .max_by(|a, b| a.confidence.total_cmp(&b.confidence));
            let read = best.map_or_else(|| "nothing".to_owned(), |s| s.card.clone());
            if best.is_some() {
                tally.located += 1;
            }
            let right = read == *card;
            if let Some(best) = best {
                tally.confidences.push((best.confidence, right));
            }
            // Every other reading (a pip or the far corner read as another
            // card, a back) is a false card on the one card there is.
            let others: Vec<&Seen> = seen
                .iter()
                .filter(|s| !best.is_some_and(|b| std::ptr::eq(*s, b)))
                .collect();
            for other in &others {
                tally.false_cards += 1;
                tally.twice += 1;
                tally.confidences.push((other.confidence, false));
                *tally
                    .confusions
                    .entry(("(again)".to_owned(), other.card.clone()))
                    .or_default() += 1;
            }
            if right {
                tally.read_right += 1;
                tally.images_right += usize::from(others.is_empty());
            } else {
                *tally.confusions.entry((card.clone(), read)).or_default() += 1;
            }
        }
        Truth::Scene(labels) => {
            let marked: Vec<Label> = labels
                .iter()
                .map(|l| Label {
                    card: &l.card,
                    bbox: l.bbox,
                    counted: l.counted,
                })
                .collect();
            let matching = match_readings(seen, &marked);
            let mut all_right = matching.false_readings.is_empty();
            for (label, outcome) in labels.iter().zip(&matching.outcomes) {
                if !label.counted {
                    continue;
                }
                tally.cards += 1;
                let read = match *outcome {
                    Outcome::Right(r) => {
                        tally.located += 1;
                        tally.read_right += 1;
                        tally.confidences.push((seen[r].confidence, true));
                        continue;
                    }
                    Outcome::Wrong(r) => {
                        tally.located += 1;
                        tally.confidences.push((seen[r].confidence, false));
                        seen[r].card.clone()
                    }
                    Outcome::Missed => "nothing".to_owned(),
                };
                all_right = false;
                *tally
                    .confusions
                    .entry((label.card.clone(), read))
                    .or_default() += 1;
            }
            for wrong in &matching.false_readings {
                let reading = &seen[wrong.reading];
                tally.false_cards += 1;
                tally.twice += usize::from(wrong.on_a_card);
                // A false reading is a wrong one: calibration counts it.
                tally.confidences.push((reading.confidence, false));
                let on = if wrong.on_a_card {
                    "(again)"
                } else {
                    "nothing"
                };
                *tally
                    .confusions
                    .entry((on.to_owned(), reading.card.clone()))
                    .or_default() += 1;
            }
            if all_right {
                tally.images_right += 1;
            }
        }
    }
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "-".to_owned()
    } else {
        let ratio = u32::try_from(part).map_or(0.0, f64::from)
            / u32::try_from(whole).map_or(f64::INFINITY, f64::from);
        format!("{:.2}%", 100.0 * ratio)
    }
}

/// `pone eval DATASET...`: the recogniser's accuracy on labelled folders:
/// rendered scenes (`labels/`, `images/`), VOC boxes with ranks (`*.xml`
/// beside the images), class folders (`queen of hearts/`: only the part kept
/// out of training unless `all`), or single cards named by their card (`10c.jpg`).
pub fn eval(
    dirs: &[PathBuf],
    models: Option<&Path>,
    all: bool,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let mut recogniser = open_recogniser(models)?;
    for dir in dirs {
        let dataset = load_dataset(dir, all)?;
        anyhow::ensure!(
            !dataset.samples.is_empty(),
            "{}: no labelled images found",
            dataset.name
        );
        let bar = crate::cli::progress_bar(dataset.samples.len() as u64, "images");
        let mut tally = Tally::default();
        for (path, truth) in &dataset.samples {
            let frame = open_image(path)?;
            let seen = recogniser.recognise(&frame)?;
            score(&mut tally, truth, &seen);
            bar.inc(1);
        }
        bar.finish_and_clear();
        report(&dataset, &tally, out)?;
    }
    Ok(())
}

fn report(dataset: &Dataset, tally: &Tally, out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} ({}): {} images",
        dataset.name, dataset.format, tally.images
    )?;
    let rank_only = dataset.format.starts_with("VOC");
    let what = if rank_only {
        "rank read right"
    } else {
        "read right"
    };
    writeln!(
        out,
        "  cards: {} of {} {what} ({}); located {} ({})",
        tally.read_right,
        tally.cards,
        percent(tally.read_right, tally.cards),
        tally.located,
        percent(tally.located, tally.cards),
    )?;
    writeln!(
        out,
        "  images with every card right and nothing else: {} of {} ({})",
        tally.images_right,
        tally.images,
        percent(tally.images_right, tally.images)
    )?;
    writeln!(
        out,
        "  false cards: {} ({} of them on a card another reading took: read twice, or read where another card lies)",
        tally.false_cards, tally.twice
    )?;
    // Calibration: how often readings are right at each confidence.
    let bins = [
        (0.0, 0.5),
        (0.5, 0.8),
        (0.8, 0.95),
        (0.95, 0.99),
        (0.99, 1.01),
    ];
    write!(
        out,
        "  right by confidence (every reading, false ones too):"
    )?;
    for (lo, hi) in bins {
        let inside: Vec<_> = tally
            .confidences
            .iter()
            .filter(|(c, _)| *c >= lo && *c < hi)
            .collect();
        if !inside.is_empty() {
            let right = inside.iter().filter(|(_, r)| *r).count();
            write!(
                out,
                " [{lo:.2}, {:.2}): {right}/{}",
                hi.min(1.0),
                inside.len()
            )?;
        }
    }
    writeln!(out)?;
    let mut pairs: Vec<_> = tally.confusions.iter().collect();
    pairs.sort_by_key(|pair| std::cmp::Reverse(*pair.1));
    if !pairs.is_empty() {
        writeln!(out, "  worst confusions (label -> reading):")?;
    }
    for ((truth, read), count) in pairs.iter().take(12) {
        writeln!(out, "    {truth:>7} -> {read:<7} {count}")?;
    }
    Ok(())
}

/// Writes the back checker's crops of one set: `backs.u8` (their RGB bytes
/// one after another) and `backs.tsv` (their classes and scenes) in `target`.
fn save_backs(target: &Path, bytes: &[u8], list: &str) -> anyhow::Result<()> {
    std::fs::create_dir_all(target).with_context(|| format!("cannot make {}", target.display()))?;
    for (file, bytes) in [("backs.u8", bytes), ("backs.tsv", list.as_bytes())] {
        let path = target.join(file);
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// A rendered scene's labels, its file's stem and its scene number.
fn scene_labels(path: &Path) -> anyhow::Result<(pone_vision::render::FrameLabels, &str, u64)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let labels = serde_json::from_str(&text)
        .with_context(|| format!("{}: not the labels of a rendered scene", path.display()))?;
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let n: u64 = stem.parse().with_context(|| {
        format!(
            "{}: a label file is named by its scene number (000042.json)",
            path.display()
        )
    })?;
    Ok((labels, stem, n))
}

/// Writes a crop as `target/<class>/<name>.png`.
fn save_crop(target: &Path, class: &str, name: &str, crop: &image::RgbImage) -> anyhow::Result<()> {
    let class_dir = target.join(class);
    std::fs::create_dir_all(&class_dir)
        .with_context(|| format!("cannot make {}", class_dir.display()))?;
    let path = class_dir.join(format!("{name}.png"));
    crop.save(&path)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The corner reader's crops from photos of one card each, with their
/// cards (the part of `crops-gpiosenka-train` not kept out for measuring):
/// the corners the finder finds on each photo's card, filed under its card
/// ([`pone_vision::synth::photo_crops`]). Returns the number of crops
/// written to `target/<CARD>/`.
fn photo_crops(
    photos: &[(PathBuf, String)],
    target: &Path,
    finder: &mut pone_vision::finder::Finder,
    out: &mut impl Write,
) -> anyhow::Result<usize> {
    let bar = crate::cli::progress_bar(photos.len() as u64, "photos");
    let (mut written, mut with_none) = (0, 0);
    for (n, (file, card)) in photos.iter().enumerate() {
        let image = open_image(file)?;
        let side = pone_vision::synth::photo_side(image.width(), image.height());
        let finds = finder.find_at(&image, side)?;
        let crops = pone_vision::synth::photo_crops(&image, &finds.corners);
        with_none += usize::from(crops.is_empty());
        for (k, crop) in crops.into_iter().enumerate() {
            save_crop(target, card, &format!("{n:06}_p{k:02}"), &crop)?;
            written += 1;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    writeln!(
        out,
        "{}: {written} index corners from {} photos ({with_none} with none found on their card)",
        target.display(),
        photos.len()
    )?;
    Ok(written)
}

/// `pone crops --out DIR SET...`: the corner reader's training crops from
/// rendered sets (`pone synth` folders): for each scene, its labelled index
/// corners (as `pone synth --crops` cuts them) and every corner the finder
/// finds there, cut as the recogniser cuts it and filed under the card it
/// shows or `none` ([`pone_vision::synth::finder_crops`]). Each set goes to
/// `DIR/<set name>/<CLASS>/`. With `backs`, the back checker's crops instead:
/// every face-down card the finder finds, filed `back` or `none`
/// ([`pone_vision::synth::finder_backs`]), all in `DIR/<set name>/backs.u8`
/// (the crops' RGB bytes one after another) and `backs.tsv` (a line per
/// crop: class, scene, the finder's score). A set of class folders of photos
/// (`queen of hearts/`) gives the corners found on its photos' cards instead
/// ([`pone_vision::synth::photo_crops`]). Returns the number of crops written.
pub fn crops(
    sets: &[PathBuf],
    dir: &Path,
    models: Option<&Path>,
    backs: bool,
    out: &mut impl Write,
) -> anyhow::Result<usize> {
    use pone_vision::render::Rendered;
    let models = models.map_or_else(pone_vision::recognise::models_dir, Path::to_path_buf);
    let mut finder =
        pone_vision::finder::Finder::open(&models.join(pone_vision::recognise::FINDER_FILE))?;
    if backs {
        // The checker sees the finder's doubtful backs too: the hard cases.
        finder.back_threshold = 0.3;
    }
    let mut written = 0;
    for set in sets {
        let name = set
            .file_name()
            .with_context(|| format!("{}: not a folder name", set.display()))?;
        let target = dir.join(name);
        let labels_dir = set.join("labels");
        if !labels_dir.is_dir() && !backs && set.is_dir() {
            let photos = class_folder_photos(set, |k| !kept_out(k))?;
            if !photos.is_empty() {
                written += photo_crops(&photos, &target, &mut finder, out)?;
                continue;
            }
        }
        let mut scenes = sorted_entries(&labels_dir).with_context(|| {
            format!(
                "{} is no rendered set (`pone synth --out {}` makes labels/ and images/) \
                 nor class folders of photos (`queen of hearts/`)",
                set.display(),
                set.display()
            )
        })?;
        scenes.retain(|p| p.extension().is_some_and(|e| e == "json"));
        let bar = crate::cli::progress_bar(scenes.len() as u64, "scenes");
        let (mut from_labels, mut from_finder, mut none) = (0, 0, 0);
        let (mut back_bytes, mut back_list) = (Vec::new(), Vec::new());
        for label_path in &scenes {
            let (labels, stem, n) = scene_labels(label_path)?;
            let image = open_image(&set.join("images").join(format!("{stem}.jpg")))?;
            let finds = finder.find(&image)?;
            if backs {
                for (class, crop) in
                    pone_vision::synth::back_crops(&image, &labels, &finds.backs, n)
                {
                    back_bytes.extend_from_slice(crop.as_raw());
                    back_list.push(format!("{class}\t{stem}\n"));
                    from_finder += 1;
                    none += usize::from(class == pone_vision::reader::NO_CARD);
                }
                bar.inc(1);
                continue;
            }
            for (k, (class, crop)) in
                pone_vision::synth::finder_crops(&image, &labels, &finds.corners)
                    .into_iter()
                    .enumerate()
            {
                save_crop(&target, &class, &format!("{stem}_f{k:02}"), &crop)?;
                from_finder += 1;
                none += usize::from(class == pone_vision::reader::NO_CARD);
            }
            from_labels += pone_vision::synth::write_crops(
                &Rendered { image, labels },
                &target,
                n,
                n ^ 0x5EED,
            )?;
            bar.inc(1);
        }
        bar.finish_and_clear();
        if backs {
            save_backs(&target, &back_bytes, &back_list.concat())?;
            writeln!(
                out,
                "{}: {from_finder} crops of the backs the finder found and of decoys ({none} of them on no back)",
                target.display()
            )?;
            written += from_finder;
            continue;
        }
        writeln!(
            out,
            "{}: {from_labels} labelled corners, {from_finder} found by the finder ({none} of them on no index)",
            target.display()
        )?;
        written += from_labels + from_finder;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_cards_other_readings_are_false_cards() {
        let card = Truth::Single("9D".to_owned());
        let whole = [0.0, 0.0, 400.0, 300.0];
        let mut tally = Tally::default();
        score(&mut tally, &card, &[Seen::new("9D", 0.99, whole)]);
        assert_eq!((tally.read_right, tally.images_right), (1, 1));
        assert_eq!(tally.false_cards, 0);
        // Its far corner read as another card: right, but not wholly.
        let pip = Seen::new("9H", 0.6, [200.0, 0.0, 400.0, 300.0]);
        score(&mut tally, &card, &[pip, Seen::new("9D", 0.99, whole)]);
        assert_eq!((tally.read_right, tally.images_right), (2, 1));
        assert_eq!((tally.false_cards, tally.twice), (1, 1));
        // Read wrong: the one reading is the card's, not a false card.
        score(&mut tally, &card, &[Seen::new("8D", 0.9, whole)]);
        assert_eq!((tally.read_right, tally.false_cards), (2, 1));
    }

    #[test]
    fn a_photo_is_read_turned_as_its_exif_says() -> anyhow::Result<()> {
        use image::ImageEncoder as _;
        // A landscape picture, its left half dark, tagged "turn it a
        // quarter clockwise" (EXIF orientation 6), as a phone stores a photo
        // taken upright.
        let stored = image::RgbImage::from_fn(40, 20, |x, _| {
            if x < 20 {
                image::Rgb([0, 0, 0])
            } else {
                image::Rgb([255, 255, 255])
            }
        });
        let exif: Vec<u8> = [
            &b"II*\0"[..],
            &[8, 0, 0, 0, 1, 0],
            &[0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0],
            &[0, 0, 0, 0],
        ]
        .concat();
        let mut jpeg = Vec::new();
        let mut encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 95);
        encoder.set_exif_metadata(exif)?;
        encoder.write_image(stored.as_raw(), 40, 20, image::ExtendedColorType::Rgb8)?;
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("upright.jpg");
        std::fs::write(&path, jpeg)?;
        let shown = open_image(&path)?;
        assert_eq!(shown.dimensions(), (20, 40));
        // Turned clockwise, the dark left half is the top.
        assert!(shown.get_pixel(10, 5)[0] < 60 && shown.get_pixel(10, 35)[0] > 200);
        Ok(())
    }
}

//! The card finder and the reader together, through the real ONNX Runtime, on
//! rendered scenes of the held-out design (never trained on): a broken model
//! cannot land. The measured figures are in models/README.md.

use pone_vision::art::{Design, Split, embedded};
use pone_vision::recognise::Recogniser;
use pone_vision::render::{CardLabel, render, scene_seed};
use pone_vision::scene::{Scene, random_scene};
use pone_vision::scoring::{Label, Outcome, match_readings};
use rand::SeedableRng;

fn held_out() -> Vec<Design> {
    embedded()
        .expect("the built-in art")
        .into_iter()
        .filter(|d| d.split == Split::HeldOut)
        .collect()
}

/// Scene `n` of a set rendered with `seed` (as `pone synth --seed` numbers
/// them), `width` x `height`, drawn from `designs`.
fn scene(designs: &[Design], seed: u64, n: u64, width: u32, height: u32) -> Scene {
    let backs: Vec<usize> = designs.iter().map(Design::backs).collect();
    let seed = scene_seed(seed, n);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    random_scene(&mut rng, designs.len(), &backs, width, height, seed)
}

fn recogniser() -> Recogniser {
    Recogniser::open(&pone_tests::models())
        .expect("the models in models/ and ONNX Runtime (run ./scripts/setup)")
}

/// A card the recogniser must find: a face-up card drawn at least 60 px tall
/// with an index corner showing whole, or a back mostly showing.
fn must_find(card: &CardLabel) -> bool {
    let c = card.corners;
    let height = (c[0][0] - c[3][0]).hypot(c[0][1] - c[3][1]);
    if card.card == "back" {
        card.visible >= 0.6 && height >= 60.0
    } else {
        height >= 60.0 && card.index.iter().any(|i| i.visible >= 0.98)
    }
}

#[test]
fn the_recogniser_finds_and_reads_held_out_cards() {
    let designs = held_out();
    let mut recogniser = recogniser();
    let (mut right, mut total, mut false_cards) = (0u32, 0u32, 0u32);
    for n in 0..16 {
        let frame = render(&scene(&designs, 91, n, 1280, 720), &designs);
        let found = recogniser.recognise(&frame.image).expect("recognise");
        let labels: Vec<Label> = frame
            .labels
            .cards
            .iter()
            .filter(|c| c.visible > 0.0)
            .map(|c| Label {
                card: &c.card,
                bbox: c.bbox,
                counted: must_find(c),
            })
            .collect();
        let matching = match_readings(&found, &labels);
        for (label, outcome) in labels.iter().zip(&matching.outcomes) {
            if label.counted {
                total += 1;
                right += u32::from(matches!(outcome, Outcome::Right(_)));
            }
        }
        false_cards += matching.false_readings.len() as u32;
    }
    let accuracy = f64::from(right) / f64::from(total.max(1));
    assert!(total >= 60, "{total} cards to find");
    assert!(
        accuracy >= THRESHOLD,
        "{right} of {total} found and read right ({accuracy:.3})"
    );
    eprintln!("{right} of {total} read right, {false_cards} false readings");
    // Readings match cards one to one, so a card read twice is a false card.
    // The finder of 2026-11-21 still calls paper and books backs now and
    // then, and sees a pile of backs as more or fewer backs than it holds:
    // 55 false readings in these 16 scenes since session 5 (a second, larger
    // look at frames of small cards; one card read twice in one place counted
    // once), 84 before, 107 with the reader before that.
    assert!(false_cards <= 70, "{false_cards} false readings");
}

/// Two hundred empty rendered tables (held-out designs' cloths, clutter,
/// hands and light), read as pictures, show no face-up card, and at most two
/// face-down ones. A table's view is never read whole as one card: the
/// whole-card reader took seven of these tables (a carpet, a pen) for an
/// ace or a four at 0.80 to 0.99. Two booklets of the clutter, card-sized
/// with a printed emblem, pass the back checker at 0.92 and 0.95 (scenes
/// 128 and 187: issue 4, models/README.md); session 75's checker gives
/// three more things 0.76 to 0.81 (a notebook at the frame's edge, a
/// booklet, a second box on scene 128's), under a photo's least back
/// (`CHECKED_BACK`, 0.85). (A table camera's frames keep a back from
/// `CAMERA_CHECKED_BACK`, 0.4: a false back there is told by the live
/// table, a back missed breaks the deal's order.)
#[test]
fn an_empty_table_shows_no_cards() {
    let designs = held_out();
    let mut recogniser = recogniser();
    let mut false_backs = Vec::new();
    for n in 0..200 {
        let mut scene = scene(&designs, 92, n, 1280, 720);
        scene.cards.clear();
        let frame = render(&scene, &designs);
        let found = recogniser.recognise(&frame.image).expect("recognise");
        assert!(
            found.iter().all(|s| s.card == "back"),
            "scene {n}: {found:?}"
        );
        false_backs.extend(found.into_iter().map(|s| (n, s)));
    }
    assert!(false_backs.len() <= 2, "{false_backs:?}");
}

/// The least share of cards found and read right that a model may land with:
/// the finder of 2026-11-21 (dense targets, session 3) with the reader of
/// session 4 finds and reads 62 of these 74 (0.84; counted one to one; 59
/// before session 5's second look at frames of small cards); a broken model
/// finds next to none. Raise it as the recogniser improves (issue 4 aims at
/// 0.999 on held-out designs).
const THRESHOLD: f64 = 0.7;

/// A picture that is one card filling it (a close-up, a scan) is read whole
/// as that card; a table camera's frame never is, however little it shows
/// (the pack alone, a hand over the table), or the live table would take the
/// frame for a card dealt.
#[test]
fn a_card_filling_the_picture_is_read_whole_but_never_a_camera_frame() {
    let designs = embedded().expect("the built-in art");
    let card: pone_engine::Card = "QH".parse().expect("a card");
    let picture = image::DynamicImage::ImageRgba8(designs[0].face(card).clone()).to_rgb8();
    let side = |n: u32| f32::from(u16::try_from(n).expect("a card picture's side"));
    let (w, h) = (side(picture.width()), side(picture.height()));
    // A reading of the whole picture: its box is the picture's.
    let whole = |seen: &[pone_vision::recognise::Seen]| {
        seen.iter().any(|s| {
            s.bbox[0] < 1.0 && s.bbox[1] < 1.0 && s.bbox[2] > w - 1.0 && s.bbox[3] > h - 1.0
        })
    };
    let mut recogniser = recogniser();
    let seen = recogniser.recognise(&picture).expect("recognise");
    assert!(whole(&seen) && seen[0].card == "QH", "{seen:?}");
    recogniser.camera_frames(true);
    let seen = recogniser.recognise(&picture).expect("recognise");
    assert!(!whole(&seen), "{seen:?}");
}

/// A landscape photo of one card lying sideways and filling the picture
/// (its short side 80% to 100% of the picture's height, on an empty table)
/// is read as that card and nothing else: seen at the finder's usual size
/// the card is five times the size it reads best, and its pips and far
/// corner were read as other cards (two false cards on these twelve, 24 on
/// sixty close-ups of the five held-out designs), so such a picture is seen
/// again smaller (`finder::wanted_side`).
#[test]
fn a_card_filling_a_landscape_picture_is_read_as_that_card_alone() {
    let designs = held_out();
    let mut recogniser = recogniser();
    let mut wrong = Vec::new();
    for (n, code) in (0u64..).zip([
        "AH", "7C", "QS", "TD", "3S", "KH", "9D", "JC", "5H", "2S", "8C", "6D",
    ]) {
        let mut scene = scene(&designs, 93, n, 1280, 960);
        scene.cards.clear();
        let mut picture = image::DynamicImage::ImageRgb8(render(&scene, &designs).image).to_rgba8();
        let card: pone_engine::Card = code.parse().expect("a card");
        let face = designs[0].face(card);
        // 768 to 944 pixels: 80% to 98% of the picture's height.
        let short = 768 + 16 * u32::try_from(n).expect("a few");
        let long = short * face.height() / face.width();
        let face =
            image::imageops::resize(face, short, long, image::imageops::FilterType::Triangle);
        let face = if n % 2 == 0 {
            image::imageops::rotate90(&face)
        } else {
            image::imageops::rotate270(&face)
        };
        let x = (1280 - i64::from(face.width())) / 2;
        let y = (960 - i64::from(face.height())) / 2;
        image::imageops::overlay(&mut picture, &face, x, y);
        let picture = image::DynamicImage::ImageRgba8(picture).to_rgb8();
        let found = recogniser.recognise(&picture).expect("recognise");
        if found.len() != 1 || found[0].card != code {
            wrong.push((code, found));
        }
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// A table's view of face-down cards is a table, not one face-up card
/// filling the picture: three held-out renders (two backs of a design never
/// trained on, found as one or two) were read whole as an ace or a ten at
/// 0.91 to 0.97, and that one card replaced the backs (a table's view is
/// never read whole since session 72).
#[test]
fn a_table_of_face_down_cards_is_not_read_whole_as_one_card() {
    let designs = held_out();
    let mut recogniser = recogniser();
    for n in [42, 50, 70] {
        let frame = render(&scene(&designs, 4242, n, 1280, 720), &designs);
        let found = recogniser.recognise(&frame.image).expect("recognise");
        assert!(
            found.iter().all(|s| s.card == "back"),
            "scene {n} (two backs): {found:?}"
        );
        assert!(!found.is_empty(), "scene {n}: no back found");
    }
}

/// A still camera's frames: where a card is taken up, the finder looks again
/// only at that part of the table, and finds what a look at the whole frame
/// finds; a frame in which nothing changed but the camera's noise is not
/// looked at, and gives the same cards.
#[test]
fn a_camera_frame_looked_at_where_it_changed_finds_what_a_whole_look_finds() {
    use pone_vision::finder::{Finder, Look};
    let designs = held_out();
    let mut before = scene(&designs, 2026, 7, 1280, 720);
    // No noise, so that the rest of the frame is as the first look saw it
    // (the finder's answer moves with the camera's noise), then the card on
    // top taken up, then the camera's noise.
    before.noise = 0.0;
    let mut after = before.clone();
    after.cards.pop();
    let mut still = after.clone();
    still.noise = 2.0;
    let frames = [&before, &after, &still].map(|scene| render(scene, &designs).image);

    let finder = || {
        Finder::open(&pone_tests::models().join("finder.onnx"))
            .expect("the finder in models/ and ONNX Runtime (run ./scripts/setup)")
    };
    let mut camera = finder();
    camera.only_changes = true;
    camera.find_at(&frames[0], 1280).expect("find");
    assert_eq!(camera.last_look(), Look::Whole);
    let in_part = camera.find_at(&frames[1], 1280).expect("find");
    let Look::InPart(share) = camera.last_look() else {
        panic!("a card taken up was looked at as {:?}", camera.last_look());
    };
    assert!(share < 0.5, "{share}");
    let whole = finder().find_at(&frames[1], 1280).expect("find");
    let boxes = |finds: &pone_vision::finder::Finds| -> Vec<[f32; 4]> {
        finds
            .corners
            .iter()
            .map(|c| c.bbox)
            .chain(finds.backs.iter().map(|b| b.bbox))
            .collect()
    };
    let (a, b) = (boxes(&in_part), boxes(&whole));
    assert_eq!(a.len(), b.len(), "{in_part:?}\n{whole:?}");
    for (a, b) in a.iter().zip(&b) {
        let off = a.iter().zip(b).map(|(p, q)| (p - q).abs());
        assert!(off.fold(0.0, f32::max) < 2.0, "{a:?} against {b:?}");
    }

    let mut recogniser = recogniser();
    recogniser.camera_frames(true);
    // A part that changed settles for a frame only (a camera of one frame a
    // second), so that the frame after it, with nothing changed, is not
    // looked at.
    recogniser.frames_a_second(1.0);
    recogniser.recognise(&frames[0]).expect("recognise");
    let in_frame = recogniser.recognise(&frames[1]).expect("recognise");
    assert!(matches!(recogniser.last_look(), Look::InPart(_)));
    let again = recogniser.recognise(&frames[2]).expect("recognise");
    assert_eq!(recogniser.last_look(), Look::Unchanged);
    assert_eq!(again, in_frame);
}

/// A models folder holding copies of the committed `files`.
fn models_with(files: &[&str]) -> pone_tests::Scratch {
    let models = pone_tests::temp_dir("models");
    for file in files {
        std::fs::copy(pone_tests::models().join(file), models.join(file)).expect("copy a model");
    }
    models
}

#[test]
fn a_picture_is_read_by_both_corner_readers_and_a_camera_frame_by_the_first() {
    let designs = held_out();
    // Twelve cards, five of them face up.
    let frame = render(&scene(&designs, 91, 1, 1280, 720), &designs).image;
    let first = ["finder.onnx", "reader.onnx", "reader.classes.txt"];
    let alone = models_with(&first);
    let both = models_with(&[&first[..], &["reader2.onnx", "reader2.classes.txt"]].concat());
    let read = |models: &pone_tests::Scratch, camera: bool| {
        let mut recogniser = Recogniser::open(models).expect("the models and ONNX Runtime");
        recogniser.camera_frames(camera);
        recogniser.recognise(&frame).expect("recognise")
    };
    let faces = read(&alone, false);
    assert!(faces.iter().any(|s| s.card != "back"), "{faces:?}");
    assert_ne!(read(&both, false), faces);
    assert_eq!(read(&both, true), read(&alone, true));
}

#[test]
fn a_second_corner_reader_with_other_classes_is_refused_by_name() {
    let models = models_with(&[
        "finder.onnx",
        "reader.onnx",
        "reader.classes.txt",
        "reader2.onnx",
    ]);
    let classes = std::fs::read_to_string(models.join("reader.classes.txt")).expect("classes");
    let turned: Vec<&str> = classes.lines().rev().collect();
    std::fs::write(models.join("reader2.classes.txt"), turned.join("\n")).expect("write");
    let Err(error) = Recogniser::open(&models) else {
        panic!("a second reader whose classes are in another order was opened");
    };
    let message = error.to_string();
    assert!(
        message.contains("reader2.classes.txt") && message.contains("reader.classes.txt"),
        "{message}"
    );
}

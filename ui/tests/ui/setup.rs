//! The sitting's setup in the window: the form checks what it is given, and
//! a sitting started from it keeps the players, the first dealer and the
//! house rules chosen.

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use pone_ui::preview::{CameraOpener, Preview};
use pone_ui::screen::{ScreenOptions, SideScreen, Table};
use pone_ui::setup::{Dealing, Setup, Start, show_setup};

#[test]
fn the_form_says_what_is_wrong_before_a_sitting_starts() {
    let mut setup = Setup::new(Vec::new());
    let start = setup.start().expect("the defaults hold together");
    assert_eq!(start.players.len(), 4);
    assert_eq!(start.dealing, Dealing::Desk, "no camera: the desk");
    assert_eq!(start.rules, pone_engine::HouseRules::default());
    setup.players[2] = setup.players[0].clone();
    assert!(
        setup
            .start()
            .is_err_and(|e| e.contains("two players are called"))
    );
    setup.players[2] = "  ".into();
    assert!(
        setup
            .start()
            .is_err_and(|e| e.contains("player 3 has no name"))
    );
    setup.players.truncate(1);
    setup.dealer = Some(0);
    assert!(setup.start().is_err_and(|e| e.contains("two players")));
    let mut setup = Setup::new(vec![(0, "USB camera".into())]);
    assert_eq!(
        setup.dealing,
        Dealing::Camera(0),
        "a camera found is chosen"
    );
    setup.rules.min_stake = 20;
    assert!(setup.start().is_err_and(|e| e.contains("min_stake")));
}

#[test]
fn the_form_takes_players_rules_and_start_by_tap() {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .build_ui_state(
            |ui, (setup, started): &mut (Setup, Option<Start>)| {
                if let Some(start) = show_setup(ui, setup) {
                    *started = Some(start);
                }
            },
            (
                Setup {
                    journal: "sitting.jsonl".into(),
                    ..Setup::new(Vec::new())
                },
                None,
            ),
        );
    harness.run();
    harness.snapshot("setup");
    harness.get_by_label("Add a player").click();
    harness.run();
    // Every rule is on the form: two of them changed by tap.
    for choice in [
        "yes (A, C)",
        "his stake from every other player (A)",
        "eight rounds, each its own game",
    ] {
        // Below the fold with a finger's sizes: scrolled to first.
        harness.get_by_label(choice).scroll_to_me();
        harness.run();
        harness.get_by_label(choice).click();
        harness.run();
    }
    // Each rule says whether it is at its default: those three are changed.
    assert_eq!(harness.query_all_by_label_contains("changed").count(), 3);
    // With the default written beside it (a finger cannot hover).
    harness.get_by_label("changed (default: yes)");
    assert_eq!(harness.query_all_by_label("default").count(), 17);
    harness.get_by_label("Start the sitting").click();
    harness.run();
    let (_, started) = harness.state();
    let start = started.as_ref().expect("started");
    assert_eq!(start.players.len(), 5);
    assert!(!start.rules.dealer_may_divide);
    assert!(start.rules.natural_bonus_from_players);
    assert!(start.rules.eight_round_deal, "B's eight-round deal chosen");
    assert_eq!(
        start.journal.as_deref(),
        Some(std::path::Path::new("sitting.jsonl"))
    );
}

/// Every control of the form is large enough for a finger on a tablet by
/// the table: the players' buttons, the rules' choices, checkboxes and
/// numbers, the first dealer's list, the names.
#[test]
fn the_forms_controls_are_large_enough_to_tap() {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 3000.0))
        .build_ui_state(
            |ui, setup: &mut Setup| {
                show_setup(ui, setup);
            },
            Setup::new(Vec::new()),
        );
    harness.run();
    let small = crate::small_targets(&harness);
    assert!(small.is_empty(), "too small to tap: {small:#?}");
}

/// The window's own flow: the demo's "New sitting..." opens the form, and
/// Start opens the desk on the sitting chosen, its journal written at once;
/// a journal that is there already is never written over.
#[test]
fn a_new_sitting_from_the_demo_opens_the_desk() {
    let dir = std::env::temp_dir().join(format!("pone-setup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let journal = dir.join("sitting.jsonl");
    let kept = dir.join("last-sitting.json");
    let options = ScreenOptions {
        journal: Some(journal.clone()),
        remember: Some(kept.clone()),
        ..ScreenOptions::default()
    };
    let demo = pone_ui::demo::DemoTable::new(4, 1).expect("a demo");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .build_eframe(|_| SideScreen::new(Table::Demo(Box::new(demo)), options));
    harness.run_steps(2);
    harness.get_by_label("New sitting...").click();
    harness.run_steps(2);
    harness.get_by_label("Start the sitting").click();
    harness.run_steps(2);
    // Ann deals; the first card goes to Bob.
    harness.get_by_label_contains("Card to Bob");
    let written = std::fs::read_to_string(&journal).expect("the journal");
    assert!(written.contains("\"dealer\""), "{written}");
    // The form started is kept for the next sitting's.
    let next = Setup::new(Vec::new()).remembering(&kept);
    assert_eq!(next.players.len(), 4);
    assert!(next.filled.is_some(), "{kept:?}");
    // The same journal again is refused, and the file is left as it was.
    let mut setup = Setup::new(Vec::new());
    setup.journal = journal.display().to_string();
    assert!(
        setup
            .start()
            .is_err_and(|e| e.contains("never written over"))
    );
    assert_eq!(
        std::fs::read_to_string(&journal).expect("the journal"),
        written
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A camera that sees the same table in every frame, 30 frames a second:
/// felt with two cards on it.
struct TableCamera {
    frames: u64,
}

impl pone_vision::source::Source for TableCamera {
    fn next_frame(
        &mut self,
    ) -> Result<Option<pone_vision::source::Frame>, pone_vision::source::SourceError> {
        use image::{Rgb, RgbImage};
        std::thread::sleep(std::time::Duration::from_millis(33));
        let mut image = RgbImage::from_pixel(1280, 720, Rgb([22, 82, 52]));
        // Patches of no card's shape: a plain blue card-sized one is a
        // plain back to session 75's back checker (as `kenney`'s is).
        for (x0, y0, w, h, colour) in [
            (420, 300, 128, 180, Rgb([245, 240, 230])),
            (760, 280, 300, 90, Rgb([40, 70, 150])),
        ] {
            for y in y0..y0 + h {
                for x in x0..x0 + w {
                    image.put_pixel(x, y, colour);
                }
            }
        }
        #[allow(clippy::cast_precision_loss)] // a frame's number
        let at = std::time::Duration::from_secs_f64(self.frames as f64 / 30.0);
        let index = self.frames;
        self.frames += 1;
        Ok(Some(pone_vision::source::Frame {
            index,
            at,
            image,
            jpeg: None,
        }))
    }

    fn fps(&self) -> f32 {
        30.0
    }

    fn describe(&self) -> String {
        "camera 0: table camera".into()
    }
}

/// The camera chosen shows what it sees on the form (one that cannot be
/// opened says why), the seats' places are tapped on its picture, and it is
/// let go when the sitting starts, which opens it, with those places.
#[test]
fn the_camera_chosen_shows_what_it_sees_until_the_sitting_starts() {
    let mut setup = Setup::new(vec![(0, "table camera".into()), (1, "unplugged".into())]);
    setup.journal = "sitting.jsonl".into();
    setup.opener = CameraOpener::new(|index| {
        if index == 0 {
            Ok(Box::new(TableCamera { frames: 0 }))
        } else {
            anyhow::bail!("no camera {index} (/dev/video{index} is not there)")
        }
    });
    let mut harness = form_until_started(setup);
    // Taps on the picture, each at a share of its width and height.
    let tap = |harness: &mut Harness<'_, (Setup, Option<Start>)>, shares: &[[f32; 2]]| {
        for &[x, y] in shares {
            let picture = harness.get_by_label("what camera 0 sees").rect();
            let at = picture.min + egui::vec2(x, y) * picture.size();
            harness.hover_at(at);
            harness.drag_at(at);
            harness.drop_at(at);
            harness.run();
        }
    };
    preview_until(&mut harness, &|p| p.camera() == 0 && p.frames_read() > 0);
    harness.get_by_label_contains("camera 0: table camera, 1280x720: what it sees now.");
    // Coloured patches, no cards.
    harness.get_by_label_contains("It reads no card on the table now.");
    harness.get_by_label_contains("First: Ann's cards.");
    // The four players' places, the pack's and the pile's.
    tap(
        &mut harness,
        &[
            [0.2, 0.8],
            [0.1, 0.4],
            [0.5, 0.15],
            [0.9, 0.4],
            [0.75, 0.85],
            [0.6, 0.85],
        ],
    );
    harness.get_by_label_contains("Every place is marked");
    harness.snapshot("setup_camera");

    harness.get_by_label("Read by camera 1: unplugged").click();
    preview_until(&mut harness, &|p| p.camera() == 1 && p.stopped());
    harness.get_by_label_contains("Camera 1 cannot be shown: no camera 1");
    assert!(harness.query_by_label("what camera 0 sees").is_none());

    // Back to camera 0: its places went with it; two tapped again.
    harness
        .get_by_label("Read by camera 0: table camera")
        .click();
    preview_until(&mut harness, &|p| p.camera() == 0 && p.frames() > 0);
    harness.get_by_label_contains("First: Ann's cards.");
    tap(&mut harness, &[[0.2, 0.8], [0.1, 0.4]]);
    harness.get_by_label_contains("Tap the picture where Cat's cards will lie");
    harness.get_by_label("Start the sitting").click();
    harness.run();
    let (setup, started) = harness.state();
    let start = started.as_ref().expect("started");
    assert_eq!(start.dealing, Dealing::Camera(0));
    assert!(
        setup.preview.is_none(),
        "the camera is let go for the sitting"
    );
    // In the camera's pixels: the picture shows its 1280x720.
    let zones = start.zones.as_ref().expect("the places tapped");
    let rounded = |at: Option<[f32; 2]>| at.map(|[x, y]| [x.round(), y.round()]);
    assert_eq!(
        zones
            .anchors
            .iter()
            .map(|a| rounded(*a))
            .collect::<Vec<_>>(),
        vec![Some([256.0, 576.0]), Some([128.0, 288.0]), None, None]
    );
    assert!(zones.stacks.is_empty());
}

/// The camera's picture on the form shows the cards the recogniser reads in
/// it, as the table will (box, card, confidence), and says them under it,
/// so that the dealer sees his deck read before the first card is dealt: a
/// rendered table of a design never trained on, through the real models.
#[test]
fn the_cameras_picture_on_the_form_shows_the_cards_it_reads() {
    let dir = std::env::temp_dir().join(format!("pone-preview-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pone"))
        .args([
            "synth",
            "--scenes",
            "1",
            "--seed",
            "1",
            "--designs",
            "held-out",
            "--out",
        ])
        .arg(&dir)
        .output()
        .expect("pone runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let frames = dir.join("images");
    let mut setup = Setup::new(vec![(0, "table camera".into())]);
    setup.journal = String::new();
    setup.opener = CameraOpener::new(move |_| {
        Ok(Box::new(pone_vision::source::FolderSource::open(
            &frames,
            Some(30.0),
            pone_vision::source::Pace::Fast,
        )?))
    });
    let mut harness = form_until_started(setup);
    preview_until(&mut harness, &|p| p.frames_read() > 0);
    let said = harness
        .get_by_label_contains("It reads ")
        .accesskit_node()
        .value()
        .unwrap_or_default();
    // The scene's face-up cards whose index shows: each read.
    let labels: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("labels/000000.json")).expect("the labels"))
            .expect("JSON");
    let mut faces = 0;
    for card in labels["cards"].as_array().expect("cards") {
        let shows = card["index"]
            .as_array()
            .is_some_and(|i| i.iter().any(|i| i["visible"].as_f64() >= Some(0.9)));
        let name = card["card"].as_str().expect("a card");
        if name != "back" && shows {
            faces += 1;
            assert!(
                said.contains(&format!(" {name} ")),
                "{name} not read: {said}"
            );
        }
    }
    assert!(faces >= 3, "the scene shows {faces} faces");
    assert!(said.contains(" back "), "{said}");
    // No snapshot: the confidences' last digit may differ on another processor.
    drop(harness);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The form started is kept for the next sitting, which opens filled in
/// as it was (players, first dealer, house rules, training, and the camera
/// with its places when that camera is here): most nights the same table
/// sits down, and Start is one tap. The journal is always a new one.
#[test]
fn the_next_sitting_opens_as_the_last_was_started() {
    let dir = std::env::temp_dir().join(format!("pone-last-sitting-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let kept = dir.join("config").join("last-sitting.json");
    let cameras = || vec![(0, "table camera".to_owned())];
    let mut setup = Setup::new(cameras()).remembering(&kept);
    assert_eq!(setup.filled, None, "nothing kept yet");
    setup.opener = CameraOpener::new(|_| Ok(Box::new(TableCamera { frames: 0 })));
    setup.journal = dir.join("first.jsonl").display().to_string();
    setup.players = vec!["Ann".into(), "Bob".into(), "Cat".into()];
    setup.dealer = Some(1);
    setup.rules.min_stake = 2;
    setup.training = true;
    setup.places = vec![[100.0, 600.0], [200.0, 300.0]];
    let mut harness = form_until_started(setup);
    harness.run();
    harness.get_by_label("Start the sitting").click();
    harness.run();
    assert!(harness.state().1.is_some(), "started");
    drop(harness);

    // The next sitting: the same table, another journal.
    let next = Setup::new(cameras()).remembering(&kept);
    assert_eq!(next.players, ["Ann", "Bob", "Cat"]);
    assert_eq!(next.dealer, Some(1));
    assert_eq!(next.rules.min_stake, 2);
    assert!(next.training);
    assert_eq!(next.dealing, Dealing::Camera(0));
    assert_eq!(next.places, [[100.0, 600.0], [200.0, 300.0]]);
    assert_ne!(next.journal, dir.join("first.jsonl").display().to_string());
    assert!(
        next.filled
            .as_deref()
            .is_some_and(|f| f.contains("Filled in as the last sitting")),
        "{:?}",
        next.filled
    );
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .build_ui_state(
            |ui, setup: &mut Setup| {
                show_setup(ui, setup);
            },
            Setup::new(Vec::new()).remembering(&kept),
        );
    harness.run();
    harness.get_by_label_contains("Filled in as the last sitting was started");
    drop(harness);

    // That camera is not here: the desk, and no places.
    let elsewhere = Setup::new(Vec::new()).remembering(&kept);
    assert_eq!(elsewhere.players, ["Ann", "Bob", "Cat"]);
    assert_eq!(elsewhere.dealing, Dealing::Desk);
    assert!(elsewhere.places.is_empty());

    // A file spoiled: the form starts afresh and says where and why.
    std::fs::write(&kept, "{\"players\": [\"Ann\",").expect("spoiled");
    let spoiled = Setup::new(cameras()).remembering(&kept);
    assert_eq!(spoiled.players.len(), 4, "the defaults");
    let said = spoiled.filled.unwrap_or_default();
    assert!(
        said.contains("last-sitting.json") && said.contains("line 1") && said.contains("anew"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs the form until its camera preview is `what`, then once more, so
/// that what lies below the picture is where it will be clicked (its
/// models load first: 10 s at most).
fn preview_until(
    harness: &mut Harness<'_, (Setup, Option<Start>)>,
    what: &dyn Fn(&Preview) -> bool,
) {
    for _ in 0..500 {
        harness.run();
        if harness.state().0.preview.as_ref().is_some_and(what) {
            harness.run();
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("the preview never got there");
}

/// The form in a harness, as in the window: it goes once the sitting
/// starts, with what it started.
fn form_until_started(setup: Setup) -> Harness<'static, (Setup, Option<Start>)> {
    Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .build_ui_state(
            |ui, (setup, started): &mut (Setup, Option<Start>)| {
                if started.is_none() {
                    *started = show_setup(ui, setup);
                }
            },
            (setup, None),
        )
}

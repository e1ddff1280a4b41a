//! The window on a table kept from a camera, drawn headless from a fixed
//! view (no clock in it: the pipeline's state is given, so the picture is
//! the same on every run): the camera's picture with its readings and the
//! seats' places, the questions, and the dealer's desk answering one.

use std::sync::{Arc, Mutex};

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use image::{Rgb, RgbImage};
use pone_engine::{Command, Game, Seat};
use pone_ui::live::LiveView;
use pone_ui::screen::LiveScreen;
use pone_vision::play::{Question, SeatZones, Slip};
use pone_vision::recognise::Seen;

/// Felt with two cards on it: a face and a back.
fn picture() -> RgbImage {
    let mut image = RgbImage::from_pixel(480, 270, Rgb([22, 82, 52]));
    for (x0, y0, colour) in [
        (100, 120, Rgb([245, 240, 230])),
        (300, 110, Rgb([40, 70, 150])),
    ] {
        for y in y0..y0 + 90 {
            for x in x0..x0 + 64 {
                image.put_pixel(x, y, colour);
            }
        }
    }
    image
}

fn view() -> LiveView {
    let mut game = crate::three_players();
    for (to, card) in [(1, Some("QH")), (2, None)] {
        game.command(
            None,
            &Command::Card {
                to: Seat(to),
                hand: None,
                card: card.map(|c| c.parse().expect("a card")),
            },
        )
        .expect("a card");
    }
    let seq = game.in_force()[1].0;
    LiveView {
        game: Some(game),
        frame: Some((12, picture())),
        scale: 1.0,
        readings: vec![
            Seen::new("QH", 0.62, [100.0, 120.0, 164.0, 210.0]),
            Seen::new("back", 0.93, [300.0, 110.0, 364.0, 200.0]),
        ],
        zones: SeatZones {
            anchors: vec![None, Some([132.0, 165.0]), Some([332.0, 155.0])],
            stacks: vec![[430.0, 60.0]],
            card_size: 90.0,
        },
        questions: vec![Question {
            frame: 11,
            text: "the card to Bob reads QH (62% sure)".into(),
            about: Some(seq),
            at: Some([100.0, 120.0, 164.0, 210.0]),
            slip: None,
            natural: None,
            answered: None,
            wants: None,
        }],
        source: "a recording (test)".into(),
        read_ms: 41.0,
        desk: true,
        ..LiveView::default()
    }
}

/// Drags the widget labelled `label` by `by` points, a frame at each step.
fn drag(harness: &mut Harness<'_, LiveScreen>, label: &str, by: egui::Vec2) {
    let from = harness.get_by_label(label).rect().center();
    harness.hover_at(from);
    harness.drag_at(from);
    harness.run();
    harness.hover_at(from + by);
    harness.run();
    harness.drop_at(from + by);
    harness.run();
}

#[test]
fn the_live_table_shows_the_camera_and_answers_its_question() {
    let view = Arc::new(Mutex::new(view()));
    let shared = Arc::clone(&view);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .build_eframe(move |_| LiveScreen::new(shared, None, None));
    harness.run_steps(3);
    // In the questions, and at the desk with its keys.
    assert_eq!(
        harness
            .query_all_by_label_contains("the card to Bob reads QH")
            .count(),
        2
    );
    harness.get_by_label("Bob's place");
    // Ann's place is not known yet: it waits at the picture's foot.
    harness.get_by_label("Ann's place (not known yet)");
    harness.snapshot("live_table");
    // The pack's place, dragged 40 points left on the picture, goes to the
    // pipeline (the picture is drawn at one point a pixel here).
    drag(
        &mut harness,
        "the pack or pile's place (1)",
        egui::vec2(-40.0, 0.0),
    );
    {
        let view = view.lock().expect("the view");
        let moved = view.moved_places.last().expect("the pack moved");
        assert_eq!(moved.0, pone_vision::play::Place::Stack(0));
        assert!(moved.1[0] < 430.0 - 20.0, "{moved:?}");
        assert!(
            view.moved_places
                .iter()
                .all(|(p, _)| *p == pone_vision::play::Place::Stack(0))
        );
    }
    // Ann's place, dragged from the foot onto the picture, is known.
    drag(
        &mut harness,
        "Ann's place (not known yet)",
        egui::vec2(30.0, -120.0),
    );
    harness.get_by_label("Ann's place");
    {
        let view = view.lock().expect("the view");
        assert!(
            view.moved_places
                .iter()
                .any(|(p, _)| *p == pone_vision::play::Place::Seat(0)),
            "{:?}",
            view.moved_places
        );
        assert!(view.zones.anchors[0].is_some());
    }
    // Y: the reading stands, and the question is settled.
    harness.get_by_label("Right (Y)").click();
    harness.run_steps(2);
    harness.get_by_label_contains("(settled)");
    // What goes to the pipeline's game is the note of it, which changes nothing.
    let inbox = view.lock().expect("the view").inbox.clone();
    assert!(
        matches!(inbox.as_slice(), [pone_engine::Line::Note { text }] if text.contains("reads QH")),
        "{inbox:?}"
    );
}

/// The first round of a sitting the dealer doubled, and in which a player's
/// settlement halved is a whole number: the game just before the command
/// that ends it, and just after.
fn doubled_round() -> (Game, Game) {
    (0..200)
        .map(|seed| crate::to_round_end(crate::three_players(), seed))
        .find(|(_, _, after)| {
            pone_ui::drill::round_questions(after)
                .iter()
                .any(|q| q.doubled && q.answer != 0 && q.answer % 2 == 0)
        })
        .map(|(before, _, after)| (before, after))
        .expect("a doubled first round in 200 sittings")
}

#[test]
fn in_training_at_the_cameras_table_slips_and_settlements_are_marked_and_reported() {
    let (before, after) = doubled_round();
    let dir = std::env::temp_dir().join(format!("pone-live-training-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let view = Arc::new(Mutex::new(LiveView {
        game: Some(before),
        frame: Some((3, picture())),
        scale: 1.0,
        source: "a recording (test)".into(),
        desk: true,
        journal: Some(dir.join("sitting.jsonl")),
        ..LiveView::default()
    }));
    let shared = Arc::clone(&view);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .build_eframe(move |_| LiveScreen::new(shared, None, None).training());
    harness.run_steps(2);
    // The camera sees a card dealt to the wrong place, and the round ends.
    {
        let mut view = view.lock().expect("the view");
        view.questions.push(Question {
            frame: 40,
            text: "a card came to rest at Cat's place, but the deal gives the next card to Bob"
                .into(),
            about: None,
            at: None,
            slip: Some(Slip::PlayerSkipped),
            natural: None,
            answered: None,
            wants: None,
        });
        view.game = Some(after.clone());
    }
    harness.run_steps(2);
    harness.get_by_label_contains("announce each settlement");
    // The camera's picture and its questions stay in sight meanwhile.
    harness.get_by_label_contains("came to rest at Cat's place");
    assert_eq!(
        harness.query_all_by_label("Undo (U)").count(),
        0,
        "the desk waits"
    );
    let asked = pone_ui::drill::round_questions(&after);
    // The doubled stake paid as single, where the answer shows it.
    let said: Vec<i64> = asked
        .iter()
        .map(|q| {
            if q.doubled && q.answer % 2 == 0 && q.answer != 0 {
                q.answer / 2
            } else {
                q.answer
            }
        })
        .collect();
    crate::announce(&mut harness, &said);
    harness.get_by_label_contains("a doubled stake paid as single");
    assert_eq!(
        harness.query_all_by_label("Undo (U)").count(),
        1,
        "the desk is back"
    );
    harness.get_by_label_contains("dealing slips the camera saw: 1");
    harness.get_by_label_contains("a player skipped in dealing round the table");
    // The window closes: the report is kept beside the journal.
    eframe::App::on_exit(harness.state_mut(), None);
    let kept = std::fs::read_to_string(dir.join("sitting.training.txt")).expect("the report");
    assert!(
        kept.contains("a doubled stake paid as single")
            && kept.contains("dealing slips the camera saw: 1"),
        "{kept}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_cameras_table_with_no_desk_exports_its_ledger_beside_its_journal() {
    let dir = std::env::temp_dir().join(format!("pone-live-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let journal = dir.join("sitting.jsonl");
    let (_, game) = doubled_round();
    let balances = game.ledger().balances.clone();
    // The dealer's words come from a script: no desk, so no E key.
    let view = Arc::new(Mutex::new(LiveView {
        game: Some(game),
        desk: false,
        journal: Some(journal.clone()),
        ..view()
    }));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .build_eframe(move |_| LiveScreen::new(view, None, None));
    harness.run_steps(3);
    assert_eq!(harness.query_all_by_label("Undo (U)").count(), 0, "no desk");
    harness.get_by_label("Export the ledger").click();
    harness.run_steps(2);
    harness.get_by_label_contains("The ledger written to");
    let json = std::fs::read_to_string(dir.join("sitting.ledger.json")).expect("the JSON");
    let csv = std::fs::read_to_string(dir.join("sitting.ledger.csv")).expect("the CSV");
    let ledger: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert!(csv.lines().count() > 1, "{csv}");
    assert!(
        balances.iter().any(|b| *b != 0),
        "a settled round moves money: {balances:?}"
    );
    for (name, balance) in ["Ann", "Bob", "Cat"].iter().zip(&balances) {
        assert_eq!(ledger["balances"][name], *balance, "{ledger}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Seven players beside the camera view and the desk, in a 1280x800
/// window: the seats draw compact (smaller cards, four across) so that every
/// seat shows at once, above the camera's panel, with no scrolling.
#[test]
fn seven_seats_beside_the_camera_and_the_desk_all_show_at_once() {
    let names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gil"];
    let mut game = Game::new(
        names.map(str::to_owned).to_vec(),
        pone_engine::HouseRules::default(),
    )
    .expect("a table of seven");
    game.command(None, &Command::Dealer { player: Seat(0) })
        .expect("Ann deals");
    // The first cards round the table from Bob, every other one face down.
    crate::deal_due(
        &mut game,
        &[
            Some("QH"),
            None,
            Some("2D"),
            None,
            Some("9H"),
            None,
            Some("AS"),
        ],
    );
    let view = LiveView {
        game: Some(game),
        zones: SeatZones {
            anchors: vec![None; names.len()],
            stacks: Vec::new(),
            card_size: 90.0,
        },
        questions: Vec::new(),
        ..view()
    };
    let shared = Arc::new(Mutex::new(view));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |_| LiveScreen::new(Arc::clone(&shared), None, None));
    harness.run_steps(3);
    let camera_top = harness
        .get_by_label_contains("a recording (test)")
        .rect()
        .top();
    for name in names {
        let shown = harness
            .query_all_by_label_contains(name)
            .any(|node| node.rect().left() < 900.0 && node.rect().bottom() <= camera_top);
        assert!(
            shown,
            "{name}'s seat is not in sight above the camera's panel"
        );
    }
    // The bottom line of each seat dealt face down (Cat, Eve and Gil, the
    // last row's among them), cards and all, above it too.
    let unseen: Vec<_> = harness
        .query_all_by_label_contains("with 1 unseen")
        .map(|node| node.rect())
        .collect();
    assert_eq!(unseen.len(), 3, "{unseen:?}");
    assert!(
        unseen.iter().all(|r| r.bottom() <= camera_top),
        "{unseen:?} below {camera_top}"
    );
    harness.snapshot("live_seven");
}

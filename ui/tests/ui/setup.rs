//! The sitting's setup in the window: the form checks what it is given, and
//! a sitting started from it keeps the players, the first dealer and the
//! house rules chosen.

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
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
    harness.get_by_label("yes (A, C)").click();
    harness
        .get_by_label("his stake from every other player (A)")
        .click();
    harness
        .get_by_label("eight rounds, each its own game")
        .click();
    harness.run();
    // Each rule says whether it is at its default: those three are changed.
    assert_eq!(harness.query_all_by_label("changed").count(), 3);
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

/// The window's own flow: the demo's "New sitting..." opens the form, and
/// Start opens the desk on the sitting chosen, its journal written at once;
/// a journal that is there already is never written over.
#[test]
fn a_new_sitting_from_the_demo_opens_the_desk() {
    let dir = std::env::temp_dir().join(format!("pone-setup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let journal = dir.join("sitting.jsonl");
    let options = ScreenOptions {
        journal: Some(journal.clone()),
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

//! Training at the desk: when a round ends, the dealer announces every
//! settlement and the screen marks each before it shows the table's own.

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pone_engine::{Command, Game};
use pone_ui::desk::Desk;
use pone_ui::screen::{ScreenOptions, SideScreen, Table};

/// The keys a dealer types for a command.
fn keys(command: &Command) -> String {
    match command {
        Command::Card { card: Some(c), .. } => c.to_string(),
        Command::Card { card: None, .. } => "x".into(),
        Command::Stake { amount, .. } => format!("{amount}\n"),
        Command::Double => "d".into(),
        Command::Content { .. } => "c".into(),
        Command::Divide { .. } => "v".into(),
        other => panic!("no key for {other:?}"),
    }
}

fn press(harness: &mut Harness<'_, SideScreen>, text: &str) {
    for c in text.chars() {
        let name = if c == '\n' {
            "Enter".to_owned()
        } else {
            c.to_ascii_uppercase().to_string()
        };
        harness.key_press(egui::Key::from_name(&name).expect("a key"));
        harness.run_steps(1);
    }
}

#[test]
fn in_training_the_dealer_announces_each_settlement_before_the_screen_shows_it() {
    // A sitting kept up to the command that ends its first round.
    let (before, last, game) = crate::to_round_end(crate::three_players(), 11);
    let questions = pone_ui::drill::round_questions(&game);
    assert!(!questions.is_empty());
    let (mut harness, dir) = training_desk("pone-training", &before);
    harness.run_steps(2);
    press(&mut harness, &keys(&last));
    harness.run_steps(2);
    let kept = harness.state().game().expect("the desk's game");
    assert_eq!(
        kept.ledger()
            .rounds
            .iter()
            .filter(|r| r.next_dealer.is_some())
            .count(),
        1,
        "{last:?} typed as {:?}",
        keys(&last)
    );
    // The round has ended: the dealer is asked, and the table waits.
    harness.get_by_label_contains("announce each settlement");
    assert!(harness.query_by_label_contains("Round 1 settled").is_none());
    harness.snapshot("training_announce");
    // The first announced wrong, the others right.
    let said: Vec<i64> = questions
        .iter()
        .enumerate()
        .map(|(k, q)| if k == 0 { q.answer + 1 } else { q.answer })
        .collect();
    crate::announce(&mut harness, &said);
    harness.get_by_label_contains("Round 1 settled");
    let right = format!(
        "settlements announced {} of {} right",
        questions.len() - 1,
        questions.len()
    );
    harness.get_by_label_contains(&right);
    // The window closes: the practice's report is kept beside the journal,
    // a paragraph a practice.
    for _ in 0..2 {
        eframe::App::on_exit(harness.state_mut(), None);
    }
    let kept = std::fs::read_to_string(dir.join("sitting.training.txt")).expect("the report");
    assert_eq!(
        kept.matches(&format!("training, after round 1: {right}"))
            .count(),
        2,
        "{kept}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn in_training_no_frame_shows_a_settlement_before_the_dealer_announces_it() {
    // A sitting one round on, kept up to the command that ends its second
    // round: the totals and their chart are on screen already.
    let (first, last, _) = crate::to_round_end(crate::three_players(), 11);
    let mut settled = first;
    settled.command(None, &last).expect("the first round ends");
    let (before, last, _) = crate::to_round_end(settled, 12);
    let (mut harness, dir) = training_desk("pone-training-frame", &before);
    harness.run_steps(2);
    harness.get_by_label_contains("Round 1 settled");
    // The keys that end the round; on the very frame the last is read in,
    // the dealer is asked, and the round's settlement is not drawn.
    let keys = keys(&last);
    let (most, end) = keys.split_at(keys.len() - 1);
    press(&mut harness, most);
    let end = if end == "\n" {
        egui::Key::Enter
    } else {
        egui::Key::from_name(&end.to_ascii_uppercase()).expect("a key")
    };
    // Only the key going down, in one frame (`key_press` queues it going
    // up too, and the harness draws a frame for each).
    harness.input_mut().events.push(egui::Event::Key {
        key: end,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.step();
    let rounds = harness.state().game().map(|g| {
        g.ledger()
            .rounds
            .iter()
            .filter(|r| r.next_dealer.is_some())
            .count()
    });
    assert_eq!(rounds, Some(2), "{last:?} typed as {keys:?}");
    harness.get_by_label_contains("announce each settlement");
    assert!(harness.query_by_label_contains("Round 2 settled").is_none());
    assert!(harness.query_by_label_contains("Round 1 settled").is_none());
    std::fs::remove_dir_all(&dir).ok();
}

/// The window training the dealer at a desk that goes on from `game`'s
/// journal (written in a fresh folder named `name`, given back).
fn training_desk(name: &str, game: &Game) -> (Harness<'static, SideScreen>, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let journal = dir.join("sitting.jsonl");
    std::fs::write(&journal, game.journal_text()).expect("the journal");
    let desk = Desk::resume(&journal).expect("the desk goes on");
    let options = ScreenOptions {
        training: true,
        ..ScreenOptions::default()
    };
    let harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .build_eframe(|_| SideScreen::new(Table::Desk(Box::new(desk)), options));
    (harness, dir)
}

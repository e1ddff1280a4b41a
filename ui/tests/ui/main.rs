//! The side screen's tests, in one test binary (each binary links the whole
//! window toolkit, and seven of them filled a CI machine's disk).

mod desk;
mod drill;
mod live_screen;
mod screen;
mod setup;
mod training;
mod window;

use pone_engine::autoplay::Autoplayer;
use pone_engine::{Command, Event, Game, HouseRules, Seat};
use rand::SeedableRng as _;

/// A sitting of Ann, Bob and Cat, Ann dealing.
fn three_players() -> Game {
    let mut game = Game::new(
        ["Ann", "Bob", "Cat"].map(str::to_owned).to_vec(),
        HouseRules::default(),
    )
    .expect("a game");
    game.command(None, &Command::Dealer { player: Seat(0) })
        .expect("the dealer");
    game
}

/// Cards dealt in `game`, each to the seat due one: face up (`Some`) or
/// face down.
fn deal_due(game: &mut Game, cards: &[Option<&str>]) {
    for card in cards {
        let to = game.sitting().state().due_card().expect("a card due").0;
        let card = card.map(|c| c.parse().expect("a card"));
        game.command(
            None,
            &Command::Card {
                to,
                hand: None,
                card,
            },
        )
        .expect("a card");
    }
}

/// A desk going on with the journal `text`, written as `sitting.jsonl` in a
/// folder of its own named after `name` (the desk writes there as it goes;
/// remove the folder at the end), and that folder.
fn resumed(name: &str, text: &str) -> (pone_ui::desk::Desk, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("pone-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let journal = dir.join("sitting.jsonl");
    std::fs::write(&journal, text).expect("the journal");
    let desk = pone_ui::desk::Desk::resume(&journal).expect("the desk goes on");
    (desk, dir)
}

/// `game` played on by the engine's autoplayer (seeded) to the end of its
/// round: the game just before the command that ends it, that command, and
/// the game after it.
fn to_round_end(mut game: Game, seed: u64) -> (Game, Command, Game) {
    let auto = Autoplayer::default();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    loop {
        let command = auto
            .next(game.sitting().state(), &mut rng)
            .expect("a command");
        let mut after = game.clone();
        let ends = after
            .command(None, &command)
            .expect("a legal command")
            .iter()
            .any(|e| matches!(e, Event::RoundEnded { .. }));
        if ends {
            return (game, command, after);
        }
        game = after;
    }
}

/// In training: each settlement announced as `said`, then the table shown.
fn announce<State>(harness: &mut egui_kittest::Harness<'_, State>, said: &[i64]) {
    use egui_kittest::kittest::Queryable as _;
    for said in said {
        harness
            .get_by_label_contains("What does")
            .type_text(&said.to_string());
        harness.run_steps(1);
        harness.get_by_label("Answer").click();
        harness.run_steps(2);
    }
    harness.get_by_label("Show the table (Enter)").click();
    harness.run_steps(2);
}

/// The controls a finger taps (buttons, checkboxes, radio buttons, drop-down
/// lists, number fields and text fields) on `harness`'s screen that are
/// smaller than a touch target ([`pone_ui::screen::TOUCH`] points high):
/// each as its role, label and size.
fn small_targets<S>(harness: &egui_kittest::Harness<'_, S>) -> Vec<String> {
    use eframe::egui::accesskit::Role;
    use egui_kittest::kittest::{NodeT as _, Queryable as _};
    let mut small = Vec::new();
    let mut seen = 0;
    for role in [
        Role::Button,
        Role::CheckBox,
        Role::RadioButton,
        Role::ComboBox,
        Role::SpinButton,
        Role::TextInput,
    ] {
        for node in harness.query_all_by_role(role) {
            seen += 1;
            let rect = node.rect();
            if rect.height() < pone_ui::screen::TOUCH - 0.5 {
                small.push(format!(
                    "{role:?} {:?}: {:.0}x{:.0}",
                    node.accesskit_node().label().unwrap_or_default(),
                    rect.width(),
                    rect.height()
                ));
            }
        }
    }
    assert!(seen >= 3, "only {seen} controls on the screen");
    small
}

/// Bob divides his pair of eights, draws a ten to the first and stands:
/// his second hand is in play.
pub(crate) const DIVIDED_ROUND: &str = r#"{"t":"table","players":["Ann","Bob","Cat"]}
{"t":"dealer","player":"Ann"}
{"t":"card","to":"Bob","card":"8H"}
{"t":"card","to":"Cat","card":"9S"}
{"t":"card","to":"Ann","card":"7D"}
{"t":"stake","player":"Bob","amount":3}
{"t":"stake","player":"Cat","amount":2}
{"t":"card","to":"Bob","card":"8C"}
{"t":"card","to":"Cat","card":"5D"}
{"t":"card","to":"Ann","card":"9C"}
{"t":"divide","player":"Bob"}
{"t":"card","to":"Bob","hand":1,"card":"TD"}
{"t":"content","player":"Bob","hand":1}
"#;

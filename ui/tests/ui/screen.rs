//! The side screen drawn headless (`egui_kittest` with wgpu): what a table sees
//! part way through a demo sitting, found by label and compared with the
//! committed snapshot (`UPDATE_SNAPSHOTS=1` to renew it after a deliberate change).

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pone_engine::autoplay::Autoplayer;
use pone_engine::{Command, Game, HouseRules, Seat};
use pone_ui::demo::DemoTable;
use pone_ui::desk::{Desk, Key};
use pone_ui::screen::{show_desk, show_table};
use rand::SeedableRng as _;

/// A 5-player demo sitting after two whole rounds and a few cards of the third.
fn table() -> DemoTable {
    let mut table = DemoTable::new(5, 1).expect("a demo table");
    table.play_rounds(2).expect("two rounds");
    for _ in 0..8 {
        table.step().expect("a step");
    }
    table
}

#[test]
fn the_table_shows_seats_totals_and_the_last_settlement() {
    let table = table();
    let game = table.game();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui(|ui| show_table(ui, game));
    harness.run();
    // Every player has his seat and his running total.
    for (name, balance) in game
        .sitting()
        .state()
        .names()
        .iter()
        .zip(&game.ledger().balances)
    {
        assert!(
            harness.query_all_by_label_contains(name).count() >= 2,
            "{name} has no seat or no line in the totals"
        );
        assert!(
            harness
                .query_all_by_label(&format!("{balance:+}"))
                .next()
                .is_some(),
            "{name}'s total {balance:+} is not shown"
        );
    }
    // The last round settled is spelled out.
    let round = game
        .ledger()
        .rounds
        .iter()
        .rev()
        .find(|r| r.next_dealer.is_some())
        .expect("a round settled");
    harness.get_by_label_contains(&format!("Round {} settled", round.round));
    harness.snapshot("table_round_3");
}

/// A desk's window: the desk's panel and the table it keeps.
fn desk_harness(players: usize) -> Harness<'static, Desk> {
    let names = pone_ui::demo::NAMES[..players]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let desk = Desk::new(names, HouseRules::default(), None).expect("a desk");
    harness_on(desk)
}

/// A window on `desk`: its panel and the table it keeps.
fn harness_on(desk: Desk) -> Harness<'static, Desk> {
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, desk: &mut Desk| {
                show_desk(ui, desk);
                show_table(ui, desk.game());
            },
            desk,
        )
}

/// Types `text` on the window's keyboard (`\n` is Enter).
fn type_keys(harness: &mut Harness<'_, Desk>, text: &str) {
    for c in text.chars() {
        let name = if c == '\n' {
            "Enter".to_owned()
        } else {
            c.to_ascii_uppercase().to_string()
        };
        let key = egui::Key::from_name(&name).expect("a key");
        harness.key_press(key);
        harness.run();
    }
}

#[test]
fn the_dealers_reason_typed_in_the_window_goes_with_his_undo() {
    let mut harness = desk_harness(3);
    harness.run();
    type_keys(&mut harness, "qh7s");
    // `W` opens the Why field: what is typed there is words, not keys.
    type_keys(&mut harness, "w");
    harness.event(egui::Event::Text("Cat asked again".into()));
    harness.key_press(egui::Key::C);
    harness.run();
    harness.run();
    assert!(
        harness.state().prompt().starts_with("Card to Ann"),
        "the letters went to the desk: {}",
        harness.state().prompt()
    );
    assert!(
        matches!(harness.state().said(), Some(pone_ui::desk::Said::Done(w)) if w.contains("7S to Cat")),
        "the letters went to the desk: {:?}",
        harness.state().said()
    );
    // `Enter` leaves the field; `U` undoes, with the dealer's reason.
    type_keys(&mut harness, "\nu");
    harness.get_by_label_contains(
        "Done: 7S to Cat taken back at the desk; the dealer's reason: Cat asked again",
    );
    let journal = harness.state().game().journal_text();
    assert!(
        journal.contains("the dealer's reason: Cat asked again"),
        "{journal}"
    );
}

#[test]
fn keys_on_the_window_keep_a_whole_round() {
    // The autoplayer's first round of a 3-player sitting, typed on the
    // window's keyboard, settles as it does in the engine.
    let mut game = Game::new(
        pone_ui::demo::NAMES[..3]
            .iter()
            .map(|s| (*s).to_owned())
            .collect(),
        HouseRules::default(),
    )
    .expect("a game");
    game.command(None, &Command::Dealer { player: Seat(0) })
        .expect("the dealer");
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    let auto = Autoplayer::default();
    let mut harness = desk_harness(3);
    harness.run();
    harness.get_by_label_contains("Card to Bob");
    loop {
        let command = auto
            .next(game.sitting().state(), &mut rng)
            .expect("the autoplayer knows every card");
        let ended = game
            .command(None, &command)
            .expect("a legal command")
            .iter()
            .any(|e| matches!(e, pone_engine::Event::RoundEnded { .. }));
        let keys = match &command {
            Command::Card { card: Some(c), .. } => c.to_string(),
            Command::Stake { amount, .. } => format!("{amount}\n"),
            Command::Double => "d".into(),
            Command::Content { .. } => "c".into(),
            Command::Divide { .. } => "v".into(),
            other => panic!("no key for {other:?}"),
        };
        if matches!(command, Command::Stake { .. }) && !keys.is_empty() {
            harness.get_by_label_contains("Stake for");
        }
        type_keys(&mut harness, &keys);
        // The screen after the step: the desk says what it took, in the
        // table's words, and asks for what is due next.
        let state = game.sitting().state();
        let done = match &command {
            Command::Card {
                to, card: Some(c), ..
            } => format!("{c} to {}", state.name(*to)),
            Command::Stake { player, amount } => {
                format!("{} stakes {amount}", state.name(*player))
            }
            Command::Double => format!("{} doubles", state.name(Seat(0))),
            Command::Content { player, .. } => format!("{} is content", state.name(*player)),
            Command::Divide { player, .. } => format!("{} divides his pair", state.name(*player)),
            other => panic!("no words for {other:?}"),
        };
        harness.get_by_label_contains(&format!("Done: {done}"));
        if let Some((seat, _)) = state.due_card().filter(|_| !ended) {
            // The card due, unless the stakes come first.
            let card_to = format!("Card to {}", state.name(seat));
            assert!(
                harness.query_by_label_contains(&card_to).is_some()
                    || harness.query_by_label_contains("Stake for").is_some(),
                "after {command:?}: neither \"{card_to}\" nor a stake asked"
            );
        }
        if ended {
            break;
        }
    }
    assert_eq!(
        harness.state().game().ledger().balances,
        game.ledger().balances
    );
    harness.get_by_label_contains("Round 1 settled");
    // A key that means nothing is refused in red, and changes nothing.
    let before = harness.state().game().journal().len();
    type_keys(&mut harness, "z");
    harness.get_by_label_contains("Z means nothing here");
    assert_eq!(harness.state().game().journal().len(), before);
}

#[test]
fn the_desk_takes_taps_and_shows_what_is_due() {
    let mut harness = desk_harness(4);
    harness.run();
    // Bob's first card by tapping: the queen, then hearts.
    harness.get_by_label("Q").click();
    harness.run();
    harness.get_by_label("Hearts").click();
    harness.run();
    harness.get_by_label_contains("Card to Cat");
    // The table says whose card is next, as the desk does.
    harness.get_by_label_contains("first cards, the next to Cat");
    type_keys(&mut harness, "7s2dkc");
    harness.get_by_label_contains("Stake for Bob");
    harness.get_by_label_contains("first cards, Bob's stake");
    type_keys(&mut harness, "4\n1");
    harness.snapshot("desk_stakes");
    // What the dealer taps at the table is a finger's size.
    let small = crate::small_targets(&harness);
    assert!(small.is_empty(), "too small to tap: {small:#?}");
    harness.get_by_label("Undo (U)").click();
    harness.run();
    harness.get_by_label_contains("Stake for Bob");
    // The menu of what the cards do not say: a card exposed (9), Cat's
    // (3), the card (7, then the spades button).
    harness.get_by_label("Say or mark (M)").click();
    harness.run();
    harness.get_by_label_contains("Say or mark: 1: a natural declared");
    type_keys(&mut harness, "9");
    harness.get_by_label_contains("A card exposed: whose? 1: Ann, 2: Bob, 3: Cat");
    type_keys(&mut harness, "3");
    harness.get_by_label_contains("A card exposed (Cat): the card");
    type_keys(&mut harness, "7");
    harness.get_by_label("Spades").click();
    harness.run();
    harness.get_by_label_contains("Done: 7S exposed, dealt to Cat");
    // The engine's flag is asked, answered in one tap: Cat rejects it.
    harness.get_by_label_contains("Check: Cat's card 7S was exposed in dealing. Y: he keeps it");
    harness.get_by_label("No (N)").click();
    harness.run();
    harness.get_by_label_contains("Done: Cat rejects 7S");
    assert_eq!(
        harness.query_all_by_label("No (N)").count(),
        0,
        "nothing asked"
    );
}

/// The first round of Ann, Bob and Cat, Ann dealing, up to the dealer's
/// turn: Cat's first card exposed in dealing, and Bob saying natural on a
/// nine and an eight.
const FLAGGED_ROUND: &str = r#"{"t":"table","players":["Ann","Bob","Cat"]}
{"t":"dealer","player":"Ann"}
{"t":"card","to":"Bob","card":"9H"}
{"t":"card","to":"Cat","card":"8S"}
{"t":"exposed","player":"Cat","card":"8S"}
{"t":"card","to":"Ann","card":"7D"}
{"t":"stake","player":"Bob","amount":2}
{"t":"stake","player":"Cat","amount":3}
{"t":"card","to":"Bob","card":"8C"}
{"t":"card","to":"Cat","card":"8D"}
{"t":"card","to":"Ann","card":"9C"}
{"t":"natural","player":"Bob"}
{"t":"content","player":"Bob"}
{"t":"content","player":"Cat"}
"#;

#[test]
fn the_engines_flags_are_shown_for_the_table_to_check() {
    let (desk, dir) = crate::resumed("flags", FLAGGED_ROUND);
    assert_eq!(desk.game().ledger().rounds[0].flags.len(), 2);
    let mut harness = harness_on(desk);
    harness.run();
    // While the round is open: who, what happened, and what follows.
    let flags = [
        "Check: Cat's card, the 8 of Spades, was exposed in dealing: he may keep it or reject it.",
        "Check: Bob said natural, but his cards are not an ace and a tenth card: the \
         cards decide, and he plays on.",
    ];
    harness.get_by_label_contains("Round 1 so far");
    for flag in flags {
        harness.get_by_label_contains(flag);
    }
    harness.snapshot("table_flags");
    // The dealer stands on his sixteen: the round settles, and its flags
    // stay with its settlement.
    harness.key_press(egui::Key::C);
    harness.run();
    harness.get_by_label_contains("Round 1 settled");
    for flag in flags {
        harness.get_by_label_contains(flag);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The demo table in its window for `steps` frames of the harness's clock
/// (a quarter second each, never the wall clock): how many things the
/// table did by each frame, and its game at the end (and, with `snapshot`,
/// the window compared with its snapshot).
fn demo_by_the_clock(steps: usize, snapshot: bool) -> (Vec<usize>, Game) {
    use pone_ui::screen::{ScreenOptions, SideScreen, Table};
    let options = ScreenOptions {
        players: 3,
        seed: 7,
        step: std::time::Duration::from_secs(1),
        ..ScreenOptions::default()
    };
    let demo = DemoTable::new(3, 7).expect("a demo");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_step_dt(0.25)
        .build_eframe(|_| SideScreen::new(Table::Demo(Box::new(demo)), options));
    let mut done = Vec::new();
    let mut reference = DemoTable::new(3, 7).expect("a demo");
    for _ in 0..steps {
        harness.step();
        let game = harness.state().game().expect("the demo's game");
        let acted = game.in_force().len();
        // Each thing the table does is the reference table's next step,
        // and the screen shows it: the round and every player's total.
        while reference.game().in_force().len() < acted {
            reference.step().expect("a step");
        }
        assert_eq!(reference.game().in_force(), game.in_force());
        let state = game.sitting().state();
        let dealer = state.dealer().map_or("", |d| state.name(d));
        harness.get_by_label_contains(&format!("Round {}: {dealer} deals", state.round_number()));
        for balance in &game.ledger().balances {
            assert!(
                harness
                    .query_all_by_label(&format!("{balance:+}"))
                    .next()
                    .is_some(),
                "the total {balance:+} is not shown"
            );
        }
        done.push(acted);
    }
    if snapshot {
        // The whole window as the demo leaves it, the same on every run.
        harness.snapshot("demo_window");
    }
    let game = harness.state().game().expect("the demo's game").clone();
    (done, game)
}

#[test]
fn the_demo_plays_by_the_harness_clock_and_the_screen_follows_each_step() {
    // 30 seconds of the window's time: a thing a second, four seconds
    // after a round ends (the settlement stays up to be read).
    let (done, game) = demo_by_the_clock(120, true);
    assert!(
        game.ledger().rounds.iter().any(|r| r.next_dealer.is_some()),
        "a round settled in 30 seconds"
    );
    // Nothing between the steps' times: at most one thing a second.
    assert!(done.windows(5).all(|w| w[4] - w[0] <= 1), "{done:?}");
    // The same frames, the same table, on every run: the clock is the
    // harness's, so the snapshots it takes are stable.
    let (again, game_again) = demo_by_the_clock(120, false);
    assert_eq!(done, again);
    assert_eq!(game.ledger().balances, game_again.ledger().balances);
}

#[test]
fn the_last_card_of_the_pack_is_called_for_the_pone() {
    // A demo sitting played until the pack reaches its last card.
    let mut table = DemoTable::new(5, 3).expect("a demo table");
    while table.game().sitting().state().cards_before_last() > 0 {
        table.step().expect("a step");
    }
    let game = table.game();
    let pone = game
        .sitting()
        .state()
        .pone()
        .map(|p| game.sitting().state().name(p).to_owned())
        .expect("a pone");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui(|ui| show_table(ui, game));
    harness.run();
    harness.get_by_label_contains(&format!(
        "Pack: 0 cards before the last card · the pone ({pone}) holds"
    ));
    harness.get_by_label_contains("LAST CARD: it is not dealt; the pone reshuffles");
    drop(harness);
    // Once the next card is due, the pone has reshuffled: the call is gone.
    for _ in 0..10 {
        table.step().expect("a step");
        if table.game().sitting().state().cards_before_last() > 0 {
            break;
        }
    }
    let game = table.game();
    assert!(
        game.sitting().state().cards_before_last() > 0,
        "no reshuffle"
    );
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui(|ui| show_table(ui, game));
    harness.run();
    assert!(
        harness.query_by_label_contains("LAST CARD").is_none(),
        "the call stays after the reshuffle"
    );
}

#[test]
fn a_divided_pair_shows_each_hand_with_its_stake_and_the_one_in_play() {
    let (desk, dir) = crate::resumed("divided", crate::DIVIDED_ROUND);
    assert_eq!(
        desk.game().sitting().state().turn(),
        Some((Seat(1), 2)),
        "Bob's second hand is in play"
    );
    let mut harness = harness_on(desk);
    harness.run();
    harness.get_by_label("Hand 1: stake 3");
    harness.get_by_label("Hand 2: stake 3 · in play");
    harness.get_by_label_contains("Card to Bob, hand 2");
    harness.snapshot("table_divided");
    std::fs::remove_dir_all(&dir).ok();
}

/// The eight-round deal on the table: the round's game named with what it
/// waits for, each player's election beside his stake, the dealer's cards
/// turned up for Self and Company.
#[test]
fn the_eight_round_deal_names_each_game_and_shows_the_elections() {
    let names = pone_ui::demo::NAMES[..3]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let rules = HouseRules {
        eight_round_deal: true,
        ..HouseRules::default()
    };
    let mut desk = Desk::new(names, rules, None).expect("a desk");
    let keys = "9h8s7d2\n3\n8c8d9cccc2\n1\nas5hkd4ccc1\n2\nxx9sxx7sxccckhtc9dahks2\n3\nsa2h3s";
    for c in keys.chars() {
        desk.press(if c == '\n' { Key::Enter } else { Key::Char(c) });
    }
    let mut harness = harness_on(desk);
    harness.run();
    harness.get_by_label_contains("Round 4: Ann deals Sympathy and Antipathy (4th of his eight)");
    harness.get_by_label("stake 2, sympathy");
    harness.get_by_label("stake 3, antipathy");
    harness.snapshot("table_sympathy");
    // Self and Company: Ann turns up her card and the company's, then on.
    type_keys(&mut harness, "4d5s1\n1\nrb6h6s2\n1\n7hjc2d");
    harness.get_by_label_contains("Round 6: Ann deals Self and Company");
    harness.get_by_label_contains("the next card to Ann");
    harness.get_by_label("self 7H · company JC · 1 turned");
    harness.snapshot("table_self_and_company");
}

//! The dealer's desk: whole sittings kept from keys alone, refusals that
//! change nothing, undo, and the journal that survives the program.

use pone_engine::autoplay::Autoplayer;
use pone_engine::{Command, Game, HouseRules, Seat};
use pone_ui::desk::{Desk, Key, Said};
use rand::SeedableRng as _;

fn names(n: usize) -> Vec<String> {
    pone_ui::demo::NAMES[..n]
        .iter()
        .map(|s| (*s).to_owned())
        .collect()
}

/// Types `keys` at the desk (`\n` is Enter).
fn type_keys(desk: &mut Desk, keys: &str) {
    for c in keys.chars() {
        desk.press(if c == '\n' { Key::Enter } else { Key::Char(c) });
    }
}

/// The pipeline's game at a camera's table: Ann deals, and the camera has
/// dealt the first cards, QH to Bob, 7S to Cat and 2D to Ann.
fn camera_game() -> Game {
    let mut game = Game::new(names(3), HouseRules::default()).expect("a game");
    game.command(None, &Command::Dealer { player: Seat(0) })
        .expect("the dealer");
    crate::deal_due(&mut game, &[Some("QH"), Some("7S"), Some("2D")]);
    game
}

/// Whether the desk's last word was a refusal.
fn refused(desk: &Desk) -> bool {
    matches!(desk.said(), Some(Said::Refused(_)))
}

/// The keys a dealer types for a command, as the desk's table of keys says.
fn keys(command: &Command) -> Vec<Key> {
    let chars = |s: String| s.chars().map(Key::Char).collect::<Vec<_>>();
    match command {
        Command::Card { card: Some(c), .. } => chars(c.to_string()),
        Command::Card { card: None, .. } => vec![Key::Char('x')],
        Command::Stake { amount, .. } => {
            let mut k = chars(amount.to_string());
            k.push(Key::Enter);
            k
        }
        Command::Double => vec![Key::Char('d')],
        Command::Content { .. } => vec![Key::Char('c')],
        Command::Divide { .. } => vec![Key::Char('v')],
        Command::Choose { choice, .. } => vec![Key::Char(pone_ui::desk::choice_key(*choice))],
        other => panic!("the autoplayer played {other:?}, which has no key yet"),
    }
}

/// The autoplayer's sitting, typed key by key into a desk, and the same
/// sitting played straight into the engine.
fn typed_sitting(players: usize, rounds: u32, seed: u64) -> (Desk, Game) {
    typed_sitting_with(HouseRules::default(), players, rounds, seed)
}

/// [`typed_sitting`] at a table of these house rules.
fn typed_sitting_with(rules: HouseRules, players: usize, rounds: u32, seed: u64) -> (Desk, Game) {
    let mut desk = Desk::new(names(players), rules.clone(), None).expect("a desk");
    let mut game = Game::new(names(players), rules).expect("a game");
    game.command(None, &Command::Dealer { player: Seat(0) })
        .expect("the dealer");
    let auto = Autoplayer::default();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut ended = 0;
    while ended < rounds {
        let command = auto
            .next(game.sitting().state(), &mut rng)
            .expect("the autoplayer knows every card");
        let events = game.command(None, &command).expect("a legal command");
        ended += events
            .iter()
            .filter(|e| matches!(e, pone_engine::Event::RoundEnded { .. }))
            .count() as u32;
        for key in keys(&command) {
            desk.press(key);
        }
        assert!(
            matches!(desk.said(), Some(Said::Done(_))),
            "{command:?} typed: {:?}",
            desk.said()
        );
    }
    (desk, game)
}

#[test]
fn a_sitting_typed_key_by_key_settles_as_the_engine_does() {
    for (players, seed) in [(3, 1), (5, 2), (7, 3)] {
        let (desk, game) = typed_sitting(players, 6, seed);
        assert_eq!(desk.game().ledger().balances, game.ledger().balances);
        assert_eq!(
            desk.game().sitting().state().round_number(),
            game.sitting().state().round_number()
        );
    }
}

/// The eight-round deal typed at the desk: the stakes before the cards,
/// sympathy or antipathy and red or black in one key each, the cards turned
/// up for Self and Company, Differences and the Clock.
#[test]
fn the_eight_round_deal_is_typed_key_by_key_and_settles_as_the_engine_does() {
    let rules = HouseRules {
        eight_round_deal: true,
        rouge_et_noir_cards: 3,
        ..HouseRules::default()
    };
    for (players, seed) in [(3, 4), (4, 5)] {
        let (desk, game) = typed_sitting_with(rules.clone(), players, 16, seed);
        assert_eq!(desk.game().ledger().balances, game.ledger().balances);
        assert_eq!(desk.game().sitting().state(), game.sitting().state());
    }
    // The prompts say what each game waits for (Ann deals; Bob, Cat play).
    let mut desk = Desk::new(names(3), rules, None).expect("a desk");
    type_keys(&mut desk, "9h8s7d2\n3\n8c8d9cccc");
    assert!(
        desk.prompt().starts_with("Stake for Bob"),
        "Imaginary Tens stakes before the card: {}",
        desk.prompt()
    );
    type_keys(&mut desk, "2\n1\nas5hkd4ccc");
    type_keys(&mut desk, "1\n2\nxx9sxx7sxccc");
    assert!(
        desk.prompt().starts_with("Showdown: Bob's hand"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "khtc9dahks");
    type_keys(&mut desk, "2\n3\n");
    assert_eq!(
        desk.prompt(),
        "Sympathy and Antipathy: Bob elects sympathy (S) or antipathy (A)"
    );
    // Bob elects antipathy, Cat sympathy; then F puts Bob's right (the
    // list's second, the latest first): an election fixed is its other side.
    type_keys(&mut desk, "as");
    type_keys(&mut desk, "f2");
    assert!(!refused(&desk), "{:?}", desk.said());
    type_keys(&mut desk, "f1");
    assert!(!refused(&desk), "{:?}", desk.said());
    let state = desk.game().sitting().state();
    assert_eq!(
        state.seat_round(Seat(1)).and_then(|r| r.choice),
        Some(pone_engine::eight::Choice::Sympathy)
    );
    assert_eq!(
        state.seat_round(Seat(2)).and_then(|r| r.choice),
        Some(pone_engine::eight::Choice::Antipathy)
    );
    assert!(
        desk.game()
            .journal_text()
            .contains("Bob elects sympathy, not antipathy: put right at the desk")
    );
    type_keys(&mut desk, "2h3s4d5s");
    assert!(!refused(&desk), "{:?}", desk.said());
    // Round 4: Bob's two reds win him 2 (sympathy); Cat's two blacks lose 3 (antipathy).
    let round = &desk.game().ledger().rounds[3];
    let paid: Vec<i64> = round.settlements.iter().map(|s| s.amount).collect();
    assert_eq!(paid, [2, -3]);
}

#[test]
fn a_refused_key_changes_nothing_and_says_why() {
    let mut desk = Desk::new(names(3), HouseRules::default(), None).expect("a desk");
    let before = desk.game().journal().len();
    desk.press(Key::Char('z'));
    assert!(matches!(desk.said(), Some(Said::Refused(why)) if why.contains("means nothing")));
    // A rank, then no suit.
    desk.press(Key::Char('q'));
    assert_eq!(desk.typed(), "Q");
    desk.press(Key::Char('q'));
    assert!(matches!(desk.said(), Some(Said::Refused(why)) if why.contains("no card")));
    assert_eq!(desk.typed(), "");
    // Content with no hand in play.
    desk.press(Key::Char('c'));
    assert!(refused(&desk));
    assert_eq!(desk.game().journal().len(), before);
    assert!(
        desk.prompt().starts_with("Card to Bob"),
        "{}",
        desk.prompt()
    );
}

#[test]
fn a_stake_beyond_the_limit_is_refused_and_undo_takes_back_a_card() {
    let mut desk = Desk::new(names(3), HouseRules::default(), None).expect("a desk");
    type_keys(&mut desk, "qh7s2d");
    assert!(
        desk.prompt().starts_with("Stake for Bob"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "99");
    desk.press(Key::Enter);
    assert!(refused(&desk), "{:?}", desk.said());
    assert!(desk.prompt().starts_with("Stake for Bob"));
    // Undo the dealer's own first card: the card is due to him again, and
    // the journal's undo says what it took back.
    desk.press(Key::Backspace);
    assert!(
        desk.prompt().starts_with("Card to Ann"),
        "{}",
        desk.prompt()
    );
    assert_eq!(last_word(&desk), "2D to Ann taken back at the desk");
    let text = desk.game().journal_text();
    assert!(
        text.contains(r#""t":"undo","reason":"2D to Ann taken back at the desk""#),
        "{text}"
    );
    desk.press(Key::Char('r'));
    assert!(desk.prompt().starts_with("Stake for Bob"));
    assert_eq!(last_word(&desk), "2D to Ann put back");
    // The journal, undo and redo with their reasons, replays to the same game.
    let replayed = pone_engine::journal::replay(&desk.game().journal_text()).expect("replays");
    assert_eq!(
        replayed.sitting().state().phase(),
        desk.game().sitting().state().phase()
    );
}

#[test]
fn the_dealers_own_reason_goes_in_the_journal_with_an_undo_or_a_fix() {
    let mut desk = Desk::new(names(3), HouseRules::default(), None).expect("a desk");
    type_keys(&mut desk, "qh7s2d");
    // His reason for the undo goes with the desk's words, then is gone.
    desk.why_mut().push_str("  Ann asked for her card again  ");
    desk.press(Key::Char('u'));
    let undone =
        "2D to Ann taken back at the desk; the dealer's reason: Ann asked for her card again";
    assert_eq!(last_word(&desk), undone);
    assert!(desk.why_mut().is_empty());
    // A refused fix keeps his words for the next one.
    type_keys(&mut desk, "2d");
    desk.why_mut().push_str("misread the pip");
    type_keys(&mut desk, "f2qh");
    assert!(refused(&desk), "{:?}", desk.said());
    assert_eq!(desk.why_mut(), "misread the pip");
    type_keys(&mut desk, "f27c");
    assert!(
        matches!(desk.said(), Some(Said::Done(why))
            if why.ends_with("not 7S as first typed (fixed at the desk); the dealer's reason: misread the pip")),
        "{:?}",
        desk.said()
    );
    // Blank words add nothing; the journal keeps each reason and replays.
    desk.why_mut().push_str("   ");
    desk.press(Key::Char('u'));
    assert!(
        !last_word(&desk).contains("the dealer's reason"),
        "{}",
        last_word(&desk)
    );
    let text = desk.game().journal_text();
    assert!(text.contains(&format!(r#""reason":"{undone}""#)), "{text}");
    assert!(
        text.contains("the dealer's reason: misread the pip"),
        "{text}"
    );
    pone_engine::journal::replay(&text).expect("the journal replays");
}

#[test]
fn the_journal_is_written_as_the_game_goes_and_a_desk_goes_on_from_it() {
    let dir = std::env::temp_dir().join(format!("pone-desk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("sitting.jsonl");
    let mut desk = Desk::new(names(4), HouseRules::default(), Some(path.clone())).expect("a desk");
    type_keys(&mut desk, "ahkc5d9s");
    type_keys(&mut desk, "4\n2\n3\n");
    // The ledger exported beside the journal.
    desk.press(Key::Char('e'));
    assert!(matches!(desk.said(), Some(Said::Done(what)) if what.contains("sitting.ledger.csv")));
    let csv = std::fs::read_to_string(dir.join("sitting.ledger.csv")).expect("the CSV");
    assert!(csv.starts_with("round,dealer,doubled,player,hand,amount,from,to,reason,why"));
    let json = std::fs::read_to_string(dir.join("sitting.ledger.json")).expect("the JSON");
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(value["players"][0], "Ann");
    let again = Desk::resume(&path).expect("the journal read back");
    assert_eq!(again.game().journal(), desk.game().journal());
    assert_eq!(again.prompt(), desk.prompt());
    // `pone replay` reads the same file.
    let replayed = pone_engine::replay(&std::fs::read_to_string(&path).expect("the file"))
        .expect("a journal pone replay reads");
    assert_eq!(replayed.ledger().balances, desk.game().ledger().balances);
    // A broken journal is refused with its name.
    std::fs::write(&path, "not a journal\n").expect("write");
    let error = Desk::resume(&path).err().expect("refused");
    assert!(format!("{error:#}").contains("sitting.jsonl"), "{error:#}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_sitting_at_the_desk_keeps_the_house_rules_given() {
    let dir = std::env::temp_dir().join(format!("pone-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("rules.toml");
    std::fs::write(&path, "max_stake = 6\n").expect("write");
    let rules = pone_ui::cli::read_rules(&path).expect("the rules");
    let mut desk = Desk::new(names(3), rules, None).expect("a desk");
    type_keys(&mut desk, "qh7s2d8");
    desk.press(Key::Enter);
    assert!(refused(&desk), "{:?}", desk.said());
    assert!(desk.prompt().contains("(1 to 6)"), "{}", desk.prompt());
    // A misspelt rule is refused, naming the file.
    std::fs::write(&path, "max_stakes = 6\n").expect("write");
    let error = pone_ui::cli::read_rules(&path).expect_err("a typo");
    let text = format!("{error:#}");
    assert!(
        text.contains("rules.toml") && text.contains("max_stakes"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_card_typed_wrong_is_fixed_with_its_reason_in_the_journal() {
    let dir = std::env::temp_dir().join(format!("pone-fix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("sitting.jsonl");
    let mut desk = Desk::new(names(3), HouseRules::default(), Some(path.clone())).expect("a desk");
    type_keys(&mut desk, "qh7s2d");
    // Cat's card was the seven of clubs: the second card back.
    desk.press(Key::Char('f'));
    assert!(
        desk.prompt()
            .contains("1: 2D to Ann, 2: 7S to Cat, 3: QH to Bob"),
        "{}",
        desk.prompt()
    );
    desk.press(Key::Char('2'));
    assert!(
        desk.prompt().starts_with("Fix 7S to Cat"),
        "{}",
        desk.prompt()
    );
    desk.press(Key::Char('7'));
    desk.press(Key::Char('c'));
    assert!(
        matches!(desk.said(), Some(Said::Done(why)) if why.contains("was 7C, not 7S")),
        "{:?}",
        desk.said()
    );
    let cat = desk
        .game()
        .sitting()
        .state()
        .seat_round(Seat(2))
        .expect("Cat");
    assert_eq!(
        cat.hands[0]
            .cards
            .known()
            .map(|c| c.to_string())
            .collect::<Vec<_>>(),
        ["7C"]
    );
    // The game goes on, and the journal keeps the correction and its reason.
    assert!(
        desk.prompt().starts_with("Stake for Bob"),
        "{}",
        desk.prompt()
    );
    let text = std::fs::read_to_string(&path).expect("the journal");
    assert!(
        text.contains("\"correct\"") && text.contains("not 7S as first typed"),
        "{text}"
    );
    let again = Desk::resume(&path).expect("the journal read back");
    assert_eq!(again.prompt(), desk.prompt());
    // A card already dealt cannot be fixed into one dealt elsewhere.
    desk.press(Key::Char('f'));
    desk.press(Key::Char('1'));
    type_keys(&mut desk, "qh");
    assert!(refused(&desk), "{:?}", desk.said());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn at_a_cameras_table_the_desk_gives_only_what_the_camera_cannot_see() {
    // The pipeline's game: three first cards dealt by the camera.
    let game = camera_game();
    let mut desk = Desk::at_camera(game.clone());
    let before = desk.game().in_force().len();
    // A card typed is refused: the camera deals.
    type_keys(&mut desk, "x");
    assert!(refused(&desk), "{:?}", desk.said());
    type_keys(&mut desk, "5\n");
    let lines = desk.said_commands(before);
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0]
            .to_json(&pone_engine::script::Meta::default())
            .contains("\"stake\""),
        "{lines:?}"
    );
    // The pipeline's game comes back without it until it takes the line;
    // then the desk asks for the next stake.
    desk.follow(game);
    assert!(
        desk.prompt().starts_with("Stake for Bob"),
        "{}",
        desk.prompt()
    );
}

/// At a camera's table the dealer answers the camera's questions with one
/// key: `Y` lets a reading stand, `N` and the right card corrects it (a
/// `correct` line, with its reason, for the pipeline's game too); a question
/// that doubts no card is settled with `Y` only.
#[test]
fn at_a_cameras_table_the_dealer_answers_the_cameras_questions_in_a_key() {
    use pone_vision::play::{Question, Slip};
    let mut game = camera_game();
    let seven = game
        .in_force()
        .iter()
        .find(|(_, c)| matches!(c, Command::Card { card: Some(c), .. } if c.to_string() == "7S"))
        .map(|(seq, _)| *seq)
        .expect("the 7S's line");
    let questions = [
        Question {
            frame: 40,
            text: "the card to Bob reads 7S (55% sure)".into(),
            about: Some(seven),
            at: None,
            slip: None,
            natural: None,
            answered: None,
            wants: None,
        },
        Question {
            frame: 52,
            text: "a card came to rest at Cat's place, but the deal gives the next card to Ann"
                .into(),
            about: None,
            at: None,
            slip: Some(Slip::PlayerSkipped),
            natural: None,
            answered: None,
            wants: None,
        },
    ];
    let mut desk = Desk::at_camera(game.clone());
    type_keys(&mut desk, "y");
    assert!(refused(&desk), "no question yet: {:?}", desk.said());
    desk.ask(&questions);
    assert!(
        desk.question_prompt()
            .is_some_and(|p| p.contains("reads 7S") && p.contains("N: it is another card")),
        "{:?}",
        desk.question_prompt()
    );
    // N, then the right card: the 7S was the 7H.
    type_keys(&mut desk, "n7");
    assert_eq!(desk.typed(), "7");
    type_keys(&mut desk, "h");
    assert!(!refused(&desk), "{:?}", desk.said());
    let corrections = desk.take_corrections();
    assert_eq!(corrections.len(), 1, "{corrections:?}");
    let text = corrections[0].to_json(&pone_engine::script::Meta::default());
    assert!(
        text.contains("\"correct\"") && text.contains("7H") && text.contains("camera read"),
        "{text}"
    );
    // The pipeline's game takes the same line and agrees with the desk.
    game.apply(pone_engine::script::Meta::default(), corrections[0].clone())
        .expect("the correction");
    let seven_hearts = "7H".parse().expect("a card");
    for kept in [&game, desk.game()] {
        let state = kept.sitting().state();
        assert!(!state.card_available(seven_hearts));
        assert!(state.card_available("7S".parse().expect("a card")));
    }
    assert_eq!(
        game.sitting().state().seat_round(Seat(1)),
        desk.game().sitting().state().seat_round(Seat(1))
    );
    assert!(desk.settled(0) && !desk.settled(1));
    // The same questions again (the next frame) stay settled.
    desk.ask(&questions);
    assert_eq!(desk.open_question().map(|(k, _)| k), Some(1));
    // A question that doubts no card takes no card: Y settles it.
    type_keys(&mut desk, "n");
    assert!(refused(&desk), "{:?}", desk.said());
    type_keys(&mut desk, "y");
    assert!(!refused(&desk), "{:?}", desk.said());
    assert!(desk.open_question().is_none());
    // The dealer's Y is kept in the journal, and goes to the pipeline's
    // game as a note that changes nothing.
    let notes = desk.take_corrections();
    assert!(
        matches!(notes.as_slice(), [pone_engine::Line::Note { text }]
            if text.contains("the dealer said Y") && text.contains("Cat's place")),
        "{notes:?}"
    );
    let before = game.sitting().state().clone();
    game.apply(pone_engine::script::Meta::default(), notes[0].clone())
        .expect("the note");
    assert_eq!(game.sitting().state(), &before, "a note changes nothing");
    assert!(desk.game().journal_text().contains("\"t\":\"note\""));
    let replayed =
        pone_engine::replay(&game.journal_text()).expect("a journal with a note replays");
    assert_eq!(replayed.sitting().state(), &before);
}

/// With no dealer named, the table draws for the deal at the desk: cards
/// turned up round the table from the first player until the first ace (or
/// knave, as the house rules say), whose holder deals; a card typed wrong in
/// the draw is taken back with `U`.
#[test]
fn the_table_draws_for_the_first_deal_at_the_desk() {
    let mut desk = Desk::with_dealer(names(3), HouseRules::default(), None, None).expect("a desk");
    assert!(desk.drawing());
    assert!(
        desk.prompt().contains("Draw for the deal") && desk.prompt().contains("Card to Ann"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "x");
    assert!(refused(&desk), "a draw is face up: {:?}", desk.said());
    type_keys(&mut desk, "7sks");
    assert_eq!(desk.drawn().len(), 2);
    type_keys(&mut desk, "u");
    assert_eq!(desk.drawn().len(), 1, "U takes back the last card drawn");
    type_keys(&mut desk, "7s");
    assert!(refused(&desk), "the same card twice: {:?}", desk.said());
    type_keys(&mut desk, "qd");
    assert!(desk.prompt().contains("Card to Cat"), "{}", desk.prompt());
    type_keys(&mut desk, "ah");
    assert!(!desk.drawing(), "{:?}", desk.said());
    let state = desk.game().sitting().state();
    assert_eq!(state.dealer(), Some(Seat(2)), "Cat turned up the ace");
    assert!(desk.game().journal_text().contains("\"draw_for_deal\""));
    // Under the knave rule an ace does not end the draw.
    let rules = HouseRules {
        first_dealer: pone_engine::rules::FirstDealer::Knave,
        ..HouseRules::default()
    };
    let mut desk = Desk::with_dealer(names(4), rules, None, None).expect("a desk");
    type_keys(&mut desk, "ah2c");
    assert!(desk.drawing());
    type_keys(&mut desk, "jd");
    assert_eq!(desk.game().sitting().state().dealer(), Some(Seat(2)));
}

/// A draw for the deal typed wrong is fixed with `F`: its cards again from
/// the first; the correction, with its reason, names the new first dealer.
/// Once cards are dealt, a draw that would change the dealer is refused
/// whole, and nothing changes.
#[test]
fn a_draw_for_the_deal_typed_wrong_is_fixed_by_turning_it_up_again() {
    let mut desk = Desk::with_dealer(names(3), HouseRules::default(), None, None).expect("a desk");
    type_keys(&mut desk, "7sksah");
    assert_eq!(desk.game().sitting().state().dealer(), Some(Seat(2)));
    // F, the draw's number (the latest line, 1), then the cards again: the
    // ace came to Bob, after the 7S to Ann.
    type_keys(&mut desk, "f1");
    assert!(
        desk.prompt().starts_with("Fix the draw for the deal")
            && desk.prompt().contains("Card to Ann"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "7sqd");
    assert!(desk.prompt().contains("Card to Cat"), "{}", desk.prompt());
    // Backspace: the QD was typed wrong.
    desk.press(Key::Backspace);
    assert!(desk.prompt().contains("Card to Bob"), "{}", desk.prompt());
    type_keys(&mut desk, "ad");
    assert!(!refused(&desk), "{:?}", desk.said());
    let state = desk.game().sitting().state();
    assert_eq!(state.dealer(), Some(Seat(1)), "Bob turned up the ace");
    let journal = desk.game().journal_text();
    assert!(
        journal.contains("the draw for the deal was 7S AD, not 7S KS AH as first typed"),
        "{journal}"
    );
    assert_eq!(
        pone_engine::replay(&journal)
            .expect("the journal replays")
            .sitting()
            .state()
            .dealer(),
        Some(Seat(1))
    );
    // Bob deals: Cat's first card. A draw giving Ann the deal breaks it.
    type_keys(&mut desk, "9c");
    let before = desk.game().sitting().state().clone();
    let draw = desk
        .game()
        .in_force()
        .iter()
        .position(|(_, c)| matches!(c, Command::DrawForDeal { .. }))
        .expect("the draw");
    let number = desk.game().in_force().len() - draw;
    type_keys(&mut desk, &format!("f{number}ac"));
    assert!(refused(&desk), "{:?}", desk.said());
    assert_eq!(desk.game().sitting().state(), &before);
}

/// A stake typed wrong is fixed like a card: `F`, its number, the right
/// digits and Enter; the correction and its reason go in the journal, and a
/// stake beyond the limits is refused.
#[test]
fn a_stake_typed_wrong_is_fixed_with_its_reason() {
    let mut desk = Desk::new(names(3), HouseRules::default(), None).expect("a desk");
    type_keys(&mut desk, "qh7s2d5\n");
    desk.press(Key::Char('f'));
    assert!(
        desk.prompt().contains("1: Bob stakes 5"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "1");
    assert!(
        desk.prompt().contains("the right stake"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "99\n");
    assert!(refused(&desk), "beyond the limit: {:?}", desk.said());
    type_keys(&mut desk, "f18\n");
    assert!(
        matches!(desk.said(), Some(Said::Done(why)) if why.contains("Bob staked 8, not 5")),
        "{:?}",
        desk.said()
    );
    let bob = desk
        .game()
        .sitting()
        .state()
        .seat_round(Seat(1))
        .expect("Bob");
    assert_eq!(bob.hands[0].stake, 8);
    assert!(desk.game().journal_text().contains("\"correct\""));
}

/// Anything fixed or taken back however long ago: `F` lists the cards,
/// stakes and the dealer's words nine at a time, the most recent first, and
/// `0` shows older ones; a double or content chosen is taken back.
#[test]
fn a_card_or_a_word_long_ago_is_fixed_or_taken_back_with_its_reason() {
    let mut desk = Desk::new(names(3), HouseRules::default(), None).expect("a desk");
    type_keys(&mut desk, "qh7s2d5\n6\nd");
    assert!(desk.game().sitting().state().doubled(), "{:?}", desk.said());
    type_keys(&mut desk, "ah3c9dc");
    assert!(!refused(&desk), "{:?}", desk.said());
    desk.press(Key::Char('f'));
    let first = desk.prompt();
    assert!(first.contains("0: older (page 1 of 2)"), "{first}");
    assert!(!first.contains("QH to Bob"), "{first}");
    desk.press(Key::Char('0'));
    let second = desk.prompt();
    assert!(second.contains("1: QH to Bob"), "{second}");
    type_keys(&mut desk, "1qs");
    assert!(
        matches!(desk.said(), Some(Said::Done(why)) if why.contains("was QS, not QH")),
        "{:?}",
        desk.said()
    );
    // The double, five back: taken back, with its reason in the journal.
    desk.press(Key::Char('f'));
    let choices = desk.prompt();
    let number = choices
        .trim_start_matches("Fix or take back which? ")
        .split(", ")
        .filter_map(|c| c.split_once(": "))
        .find(|(_, words)| words.contains("double"))
        .map(|(n, _)| n.to_owned())
        .expect("the double among the choices");
    assert_eq!(number, "5", "{choices}");
    type_keys(&mut desk, &number);
    assert!(!refused(&desk), "{:?}", desk.said());
    assert!(!desk.game().sitting().state().doubled());
    let text = desk.game().journal_text();
    assert!(text.contains("taken back at the desk"), "{text}");
}

/// At a camera's table `U` takes back the dealer's own last word, not the
/// camera's cards: a correction that removes it, for the pipeline too.
#[test]
fn at_a_cameras_table_undo_takes_back_the_dealers_last_word() {
    let mut game = camera_game();
    let mut desk = Desk::at_camera(game.clone());
    type_keys(&mut desk, "u");
    assert!(refused(&desk), "nothing said yet: {:?}", desk.said());
    let before = desk.game().in_force().len();
    type_keys(&mut desk, "5\n");
    assert!(
        desk.prompt().starts_with("Stake for Cat"),
        "{}",
        desk.prompt()
    );
    // Not before the pipeline's game has taken the stake (its lines might be
    // numbered otherwise there).
    type_keys(&mut desk, "u");
    assert!(refused(&desk), "{:?}", desk.said());
    for line in desk.said_commands(before) {
        game.apply(pone_engine::script::Meta::default(), line)
            .expect("the stake");
    }
    desk.follow(game.clone());
    type_keys(&mut desk, "u");
    assert!(!refused(&desk), "{:?}", desk.said());
    assert!(
        desk.prompt().starts_with("Stake for Bob"),
        "{}",
        desk.prompt()
    );
    let corrections = desk.take_corrections();
    assert_eq!(corrections.len(), 1);
    let text = corrections[0].to_json(&pone_engine::script::Meta::default());
    assert!(
        text.contains("\"correct\"") && text.contains("taken back"),
        "{text}"
    );
}

/// At a camera's table a card the camera dealt face down is fixed too: `F`,
/// its number, then `X` takes it back (no card was dealt: the pone's pile
/// taken for one), or its rank and suit name it (the dealer saw it).
#[test]
fn at_a_cameras_table_a_face_down_card_is_taken_back_or_named() {
    let mut game = Game::new(names(3), HouseRules::default()).expect("a game");
    game.command(None, &Command::Dealer { player: Seat(0) })
        .expect("the dealer");
    crate::deal_due(&mut game, &[None, None, None]);
    let mut desk = Desk::at_camera(game.clone());
    type_keys(&mut desk, "f");
    assert!(
        desk.prompt()
            .contains("1: a card face down to Ann, 2: a card face down to Cat"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "1");
    assert!(
        desk.prompt().contains("X: no card was dealt"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "x");
    assert!(!refused(&desk), "{:?}", desk.said());
    let mut corrections = desk.take_corrections();
    assert_eq!(corrections.len(), 1);
    let text = corrections[0].to_json(&pone_engine::script::Meta::default());
    assert!(text.contains("no card was dealt"), "{text}");
    game.apply(pone_engine::script::Meta::default(), corrections.remove(0))
        .expect("the card taken back");
    assert_eq!(game.sitting().state().due_card(), Some((Seat(0), 1)));
    desk.follow(game.clone());
    // Bob's card, face down: the dealer names it.
    type_keys(&mut desk, "f");
    assert!(
        desk.prompt().contains("2: a card face down to Bob"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "29c");
    let corrections = desk.take_corrections();
    assert_eq!(corrections.len(), 1, "{:?}", desk.said());
    for line in corrections {
        let text = line.to_json(&pone_engine::script::Meta::default());
        assert!(text.contains("was 9C, dealt face down"), "{text}");
        game.apply(pone_engine::script::Meta::default(), line)
            .expect("the card named");
    }
    let bob = game.sitting().state().seat_round(Seat(1)).expect("Bob");
    assert_eq!(
        bob.hands[0]
            .cards
            .known()
            .map(|c| c.to_string())
            .collect::<Vec<_>>(),
        ["9C"]
    );
}

#[test]
fn cards_dealt_face_down_are_typed_when_shown_and_the_round_settles() {
    let mut desk = Desk::new(names(3), HouseRules::default(), None).expect("a desk");
    // Ann deals every card face down; Bob stakes 3, Cat 4; all are content.
    type_keys(&mut desk, "xxx3\n4\nxxxccc");
    assert_eq!(
        desk.game().sitting().state().to_show(),
        Some((Seat(0), 1)),
        "the dealer's hand first: {}",
        desk.prompt()
    );
    assert!(
        desk.prompt().contains("Ann's hand has a card face down"),
        "{}",
        desk.prompt()
    );
    // Ann 19, Bob 19 (ties go to the dealer), Cat 15.
    type_keys(&mut desk, "TS9H");
    assert!(desk.prompt().contains("Bob's hand"), "{}", desk.prompt());
    type_keys(&mut desk, "TH9C7C8D");
    assert!(!refused(&desk), "{:?}", desk.said());
    assert_eq!(desk.game().sitting().state().to_show(), None);
    assert_eq!(desk.game().ledger().balances, vec![7, -3, -4]);
    // The next round is due its cards; a card typed now is dealt, not shown.
    assert!(
        desk.prompt().starts_with("Card to Bob"),
        "{}",
        desk.prompt()
    );
}

/// A card turned up that the camera read unsurely: `N` and the right card
/// correct the card shown.
#[test]
fn at_a_cameras_table_a_card_turned_up_and_doubted_is_corrected() {
    use pone_vision::play::Question;
    let mut game = Game::new(names(3), HouseRules::default()).expect("a game");
    for command in [
        Command::Dealer { player: Seat(0) },
        Command::Card {
            to: Seat(1),
            hand: None,
            card: None,
        },
    ] {
        game.command(None, &command).expect("a legal command");
    }
    // Bob turns his card up; the camera reads it 6H, unsurely.
    let show = Command::Show {
        player: Seat(1),
        hand: None,
        cards: std::iter::once("6H".parse().expect("a card")).collect(),
    };
    game.command(None, &show).expect("the card shown");
    let seq = game.in_force().last().map(|(seq, _)| *seq);
    let mut desk = Desk::at_camera(game.clone());
    desk.ask(&[Question {
        frame: 59,
        text: "Bob's card turned up reads 6H (36% sure)".into(),
        about: seq,
        at: None,
        slip: None,
        natural: None,
        answered: None,
        wants: None,
    }]);
    type_keys(&mut desk, "n8s");
    assert!(!refused(&desk), "{:?}", desk.said());
    let corrections = desk.take_corrections();
    assert_eq!(corrections.len(), 1, "{corrections:?}");
    game.apply(pone_engine::script::Meta::default(), corrections[0].clone())
        .expect("the correction");
    let eight = "8S".parse().expect("a card");
    for kept in [&game, desk.game()] {
        let cards = &kept
            .sitting()
            .state()
            .seat_round(Seat(1))
            .expect("Bob")
            .hands[0]
            .cards;
        assert!(cards.contains(eight), "{cards:?}");
    }
}

/// The pipeline's game at a camera's table where Ann deals: Bob (QH 9C)
/// and Cat (7S TH) staked 5 and 4 and are content, and Ann, holding the JD
/// and a card face down, is to draw.
fn dealers_draw() -> Game {
    let mut game = crate::three_players();
    crate::deal_due(&mut game, &[Some("QH"), Some("7S"), Some("JD")]);
    for (seat, amount) in [(1, 5), (2, 4)] {
        let stake = Command::Stake {
            player: Seat(seat),
            amount,
        };
        game.command(None, &stake).expect("a stake");
    }
    crate::deal_due(&mut game, &[Some("9C"), Some("TH"), None]);
    for seat in [1, 2] {
        let content = Command::Content {
            player: Seat(seat),
            hand: None,
        };
        game.command(None, &content).expect("content");
    }
    assert_eq!(game.sitting().state().due_card(), Some((Seat(0), 1)));
    game
}

/// A question from the camera asking the dealer for a card.
fn asking(text: &str, wants: pone_vision::play::Wanted) -> pone_vision::play::Question {
    pone_vision::play::Question {
        frame: 90,
        text: text.into(),
        wants: Some(wants),
        ..pone_vision::play::Question::default()
    }
}

/// The lines the desk said since the pipeline's game was `game`, put in
/// it; then the desk follows it.
fn said_into(desk: &mut Desk, game: &mut Game) {
    for line in desk.said_commands(game.in_force().len()) {
        game.apply(pone_engine::script::Meta::default(), line)
            .expect("the desk's line");
    }
    desk.follow(game.clone());
}

/// The camera asks for cards it never saw (the round's cards gathered
/// while it was out): at the desk the dealer types each, the card drawn to
/// the hand it was due to, the card face down turned up in its hand, and
/// the round settles; a card typed for no such question is still refused.
#[test]
fn at_a_cameras_table_a_card_the_camera_never_saw_is_typed_when_asked() {
    use pone_vision::play::Wanted;
    let mut game = dealers_draw();
    let mut desk = Desk::at_camera(game.clone());
    type_keys(&mut desk, "j");
    assert!(refused(&desk), "the camera deals: {:?}", desk.said());
    let drawn = asking(
        "Ann's card: the round's cards went from the table before the camera saw it; type it \
         at the desk (rank then suit)",
        Wanted::Card {
            seat: Seat(0),
            hand: 1,
            face_down: false,
        },
    );
    let shown = asking(
        "Ann's hand: a card face down turned up and gathered before the camera saw it; type \
         it at the desk (rank then suit)",
        Wanted::Shown {
            seat: Seat(0),
            hand: 1,
        },
    );
    desk.ask(std::slice::from_ref(&drawn));
    assert!(
        desk.question_prompt()
            .is_some_and(|p| p.contains("The card: rank then suit;")),
        "{:?}",
        desk.question_prompt()
    );
    // Not X: the card drawn was not dealt face down.
    type_keys(&mut desk, "x");
    assert!(refused(&desk), "{:?}", desk.said());
    type_keys(&mut desk, "jc");
    assert!(!refused(&desk), "{:?}", desk.said());
    assert!(desk.settled(0));
    said_into(&mut desk, &mut game);
    desk.ask(&[drawn, shown]);
    type_keys(&mut desk, "4c");
    assert!(!refused(&desk), "{:?}", desk.said());
    assert!(desk.settled(1));
    said_into(&mut desk, &mut game);
    // JD 4C JC: Ann is over, and pays each his stake.
    for kept in [&game, desk.game()] {
        assert_eq!(kept.ledger().balances, vec![-9, 5, 4]);
    }
}

/// The camera, out while the dealer turned up his card face down and drew,
/// asks for his whole hand: at the desk he types every card in the order
/// dealt, then `Enter`, and one show goes to the pipeline, whose game puts
/// in his card face down turned up and the card he drew. Too few cards are
/// refused, and `Backspace` takes back the last typed.
#[test]
fn at_a_cameras_table_the_dealers_whole_hand_is_typed_then_enter() {
    use pone_engine::script::{Line, Meta};
    use pone_vision::play::{Wanted, hand_shown_whole};
    let mut game = dealers_draw();
    let mut desk = Desk::at_camera(game.clone());
    desk.ask(&[asking(
        "Ann's hand: the camera was out while Ann, dealing, turned up a card and drew, and a \
         card may lie hidden under the next; type the whole hand at the desk in the order \
         dealt (rank then suit for each card, then Enter)",
        Wanted::Hand {
            seat: Seat(0),
            hand: 1,
        },
    )]);
    assert!(
        desk.question_prompt()
            .is_some_and(|p| p.contains("rank then suit for each, in the order dealt, then Enter")),
        "{:?}",
        desk.question_prompt()
    );
    // The card she held face up, and no other: too few.
    type_keys(&mut desk, "jd\n");
    assert!(
        matches!(desk.said(), Some(Said::Refused(why)) if why.contains("1 card(s) face down")),
        "{:?}",
        desk.said()
    );
    assert!(!desk.settled(0));
    // A card typed wrong is taken back; a key that is no suit keeps the rest.
    type_keys(&mut desk, "4c9s");
    desk.press(Key::Backspace);
    type_keys(&mut desk, "8z");
    assert!(refused(&desk), "{:?}", desk.said());
    assert_eq!(desk.typed(), "JD 4C");
    type_keys(&mut desk, "8d");
    assert_eq!(desk.typed(), "JD 4C 8D");
    assert!(
        desk.prompt().contains("typed so far JD 4C 8D"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "\n");
    assert!(!refused(&desk), "{:?}", desk.said());
    assert!(desk.settled(0));
    assert!(desk.said_commands(game.in_force().len()).is_empty());
    let said = desk.take_corrections();
    let [
        Line::Show {
            player,
            hand: Some(1),
            cards,
        },
    ] = said.as_slice()
    else {
        panic!("one show: {said:?}");
    };
    assert_eq!(player, "Ann");
    // The pipeline puts it in as the face-down card turned up and one drawn.
    let state = game.sitting().state();
    let lines = hand_shown_whole(state, Seat(0), 1, cards).expect("the hand whole");
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in lines {
        game.apply(Meta::default(), line).expect("the hand's line");
    }
    desk.follow(game.clone());
    // JD 4C 8D: Ann is over, and pays each his stake.
    assert_eq!(game.ledger().balances, vec![-9, 5, 4]);
}

/// A question asking for a card of the deal the camera never saw takes `X`
/// for one dealt face down.
#[test]
fn at_a_cameras_table_a_card_of_the_deal_asked_for_may_be_face_down() {
    let mut game = crate::three_players();
    crate::deal_due(&mut game, &[Some("QH")]);
    let mut desk = Desk::at_camera(game.clone());
    desk.ask(&[asking(
        "Cat's card: the dealer's content says the deal is past it, but the camera has not \
         seen it dealt; type it at the desk (rank then suit, or X face down)",
        pone_vision::play::Wanted::Card {
            seat: Seat(2),
            hand: 1,
            face_down: true,
        },
    )]);
    assert!(
        desk.question_prompt()
            .is_some_and(|p| p.contains("rank then suit, or X face down")),
        "{:?}",
        desk.question_prompt()
    );
    type_keys(&mut desk, "x");
    assert!(!refused(&desk), "{:?}", desk.said());
    assert!(desk.settled(0));
    said_into(&mut desk, &mut game);
    let cat = game.sitting().state().hand(Seat(2), 1).expect("Cat's hand");
    assert_eq!((cat.cards.len(), cat.cards.unseen()), (1, 1));
}

/// A doubt the camera settled itself (the card read surely since) is no
/// question for the dealer; the others stay as he left them.
#[test]
fn a_doubt_the_camera_settled_itself_is_not_asked() {
    use pone_vision::play::Question;
    let game = camera_game();
    let mut desk = Desk::at_camera(game);
    let doubt = |frame: u64, answered: Option<String>| Question {
        frame,
        text: format!("the card at frame {frame} reads 6H (36% sure)"),
        about: Some(1),
        at: None,
        slip: None,
        natural: None,
        answered,
        wants: None,
    };
    desk.ask(&[doubt(10, None), doubt(20, None)]);
    assert_eq!(desk.open_question().map(|(k, _)| k), Some(0));
    desk.ask(&[doubt(10, Some("read again: 6D".into())), doubt(20, None)]);
    assert!(desk.settled(0));
    assert_eq!(desk.open_question().map(|(k, _)| k), Some(1));
}

/// The desk's last word, accepted or refused.
fn last_word(desk: &Desk) -> String {
    match desk.said() {
        Some(Said::Done(w) | Said::Refused(w)) => w.clone(),
        None => String::new(),
    }
}

#[test]
fn the_deal_is_sold_declined_and_a_player_retires_from_the_menu() {
    let mut desk = Desk::new(names(4), HouseRules::default(), None).expect("a desk");
    let state = |desk: &Desk| desk.game().sitting().state().clone();
    // M, 2 (the deal sold), 2 (Bob), the price and Enter.
    type_keys(&mut desk, "m");
    assert!(
        desk.prompt().contains("2: the deal sold"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "22");
    assert!(desk.prompt().contains("price"), "{}", desk.prompt());
    type_keys(&mut desk, "5\n");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert_eq!(last_word(&desk), "the deal sold to Bob for 5");
    assert_eq!(state(&desk).dealer(), Some(Seat(1)));
    assert_eq!(desk.game().ledger().balances, vec![5, -5, 0, 0]);
    // Bob declines it: it passes to his left.
    type_keys(&mut desk, "m3");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert_eq!(state(&desk).dealer(), Some(Seat(2)));
    // Dan retires before a hand is dealt (M, 5, 4).
    type_keys(&mut desk, "m54");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert_eq!(last_word(&desk), "Dan retires");
    // The journal holds each, and replays to the same ledger.
    let text = desk.game().journal_text();
    for t in ["\"sell\"", "\"decline\"", "\"retire\""] {
        assert!(text.contains(t), "{t} in {text}");
    }
    let replayed = pone_engine::journal::replay(&text).expect("the journal replays");
    assert_eq!(replayed.ledger().balances, desk.game().ledger().balances);
    // Once a card is dealt the deal is no longer for sale: refused, and why.
    type_keys(&mut desk, "x");
    type_keys(&mut desk, "m21");
    type_keys(&mut desk, "3\n");
    assert!(refused(&desk), "{}", last_word(&desk));
    assert!(
        last_word(&desk).contains("between rounds"),
        "{}",
        last_word(&desk)
    );
}

#[test]
fn a_player_with_cards_face_down_says_he_is_over_or_has_a_natural() {
    let mut desk = Desk::new(names(3), HouseRules::default(), None).expect("a desk");
    // First cards face down, stakes of 2, second cards face down.
    type_keys(&mut desk, "xxx2\n2\nxxx");
    // Cat declares a natural from the menu (M, 1, 3): her cards are unseen,
    // so the engine takes her word until the showdown.
    type_keys(&mut desk, "m13");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert!(desk.game().journal_text().contains("\"natural\""));
    // Bob draws a card face down and says he is over (O).
    let before = desk.game().ledger().balances.clone();
    type_keys(&mut desk, "xo");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert_eq!(last_word(&desk), "Bob is over");
    assert_ne!(desk.game().ledger().balances, before, "Bob pays at once");
    // No hand in play between rounds: O is refused.
    let mut fresh = Desk::new(names(3), HouseRules::default(), None).expect("a desk");
    type_keys(&mut fresh, "o");
    assert!(refused(&fresh));
    // Over said on cards that cannot pass 21 (5 and 2): the cards decide,
    // the desk says so, and the player is still to play.
    type_keys(&mut fresh, "5h6d7c2\n2\n2s3d4c");
    let turn = fresh.game().sitting().state().turn();
    type_keys(&mut fresh, "o");
    assert!(refused(&fresh), "{}", last_word(&fresh));
    assert!(
        last_word(&fresh).contains("cannot pass 21"),
        "{}",
        last_word(&fresh)
    );
    assert_eq!(fresh.game().sitting().state().turn(), turn);
}

/// A desk for three whose house rules play the brulet (double the least
/// stake from each player).
fn desk_with_the_brulet() -> Desk {
    let rules = HouseRules {
        brulet: pone_engine::rules::Brulet::DoubleMinimum,
        ..HouseRules::default()
    };
    Desk::new(names(3), rules, None).expect("a desk")
}

#[test]
fn the_brulet_and_the_irregularities_are_marked_from_the_menu() {
    let mut desk = desk_with_the_brulet();
    // The brulet: an ace at the bottom, so the top card is asked for too.
    type_keys(&mut desk, "m4as");
    assert!(desk.prompt().contains("the top card"), "{}", desk.prompt());
    type_keys(&mut desk, "kh");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert!(desk.game().journal_text().contains("\"brulet\""));
    // A card exposed in dealing: Bob's first card, seen as 7D.
    type_keys(&mut desk, "7d");
    type_keys(&mut desk, "m92");
    assert!(desk.prompt().contains("the card"), "{}", desk.prompt());
    type_keys(&mut desk, "7d");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert!(desk.game().journal_text().contains("\"exposed\""));
    // Keys that mean nothing in the menu are refused, and the menu stays.
    type_keys(&mut desk, "m0z");
    assert!(refused(&desk));
    assert!(desk.prompt().contains("whose?"), "{}", desk.prompt());
    type_keys(&mut desk, "8");
    assert!(refused(&desk), "only 3 players: {}", last_word(&desk));
    desk.press(Key::Escape);
    assert!(desk.prompt().starts_with("Card to"), "{}", desk.prompt());
}

#[test]
fn the_first_dealer_and_a_word_from_the_menu_are_fixed_or_taken_back() {
    let mut desk = Desk::new(names(3), HouseRules::default(), None).expect("a desk");
    // Bob is over by mistake (his cards face down), said with O.
    type_keys(&mut desk, "xxx2\n2\nxxxxo");
    assert_eq!(last_word(&desk), "Bob is over");
    // F, then the over (the most recent): taken back with its reason.
    type_keys(&mut desk, "f");
    assert!(
        desk.prompt().contains("1: Bob is over"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "1");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert_eq!(
        desk.game().sitting().state().turn(),
        Some((Seat(1), 1)),
        "Bob plays on"
    );
    assert!(
        desk.game()
            .journal_text()
            .contains(r#""reason":"\"Bob is over\" taken back at the desk""#),
        "{}",
        desk.game().journal_text()
    );
    // Cat was the first dealer, not Ann: F, the dealer's line, then 3.
    let mut desk = Desk::new(names(3), HouseRules::default(), None).expect("a desk");
    type_keys(&mut desk, "f");
    assert!(
        desk.prompt().contains("1: Ann deals first"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "1");
    assert!(
        desk.prompt()
            .contains("who deals first? 1: Ann, 2: Bob, 3: Cat"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "3");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert_eq!(desk.game().sitting().state().dealer(), Some(Seat(2)));
    assert_eq!(
        last_word(&desk),
        "Cat deals first, not Ann as first said (fixed at the desk)"
    );
    assert!(
        desk.prompt().starts_with("Card to Ann"),
        "{}",
        desk.prompt()
    );
}

#[test]
fn the_brulet_typed_wrong_is_fixed_or_taken_back() {
    let mut desk = desk_with_the_brulet();
    // The brulet typed as a nine at the bottom: no natural, nothing paid.
    type_keys(&mut desk, "m49h");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert_eq!(desk.game().ledger().balances, vec![0, 0, 0]);
    // It was the AS at the bottom and the KH on top: F, the brulet, its cards again.
    type_keys(&mut desk, "f");
    assert!(
        desk.prompt().contains("1: the brulet: 9H at the bottom"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "1");
    assert!(desk.prompt().contains("fixing it"), "{}", desk.prompt());
    type_keys(&mut desk, "as");
    assert!(desk.prompt().contains("the top card"), "{}", desk.prompt());
    type_keys(&mut desk, "kh");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert_eq!(
        last_word(&desk),
        "\"the brulet: 9H at the bottom\": it was the brulet: AS at the bottom, KH on top \
         (fixed at the desk)"
    );
    // A natural: Ann, dealing, has double the least stake from each.
    assert_eq!(desk.game().ledger().balances, vec![4, -2, -2]);
    let replayed = pone_engine::replay(&desk.game().journal_text()).expect("the journal replays");
    assert_eq!(replayed.ledger().balances, vec![4, -2, -2]);
    // There was no brulet at all: F, the brulet, X.
    type_keys(&mut desk, "f1x");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert_eq!(desk.game().ledger().balances, vec![0, 0, 0]);
    assert!(desk.prompt().starts_with("Card to"), "{}", desk.prompt());
}

/// A flag answered at the desk is not asked again when the sitting is gone
/// on with from its journal: the answer is noted there.
#[test]
fn a_flag_answered_is_not_asked_again_after_a_resume() {
    let dir = std::env::temp_dir().join(format!("pone-flag-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("sitting.jsonl");
    let mut desk = Desk::new(names(3), HouseRules::default(), Some(path.clone())).expect("a desk");
    type_keys(&mut desk, "qhm92qh");
    assert!(
        desk.question_prompt().is_some(),
        "the exposed card is asked"
    );
    type_keys(&mut desk, "y");
    assert_eq!(last_word(&desk), "Bob keeps the QH");
    let resumed = Desk::resume(&path).expect("the journal goes on");
    assert!(
        resumed.question_prompt().is_none(),
        "{:?}",
        resumed.question_prompt()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_card_exposed_or_a_surplus_card_is_answered_in_one_key() {
    // Bob's first card, the QH, exposed in dealing: the desk asks.
    let mut desk = Desk::new(names(3), HouseRules::default(), None).expect("a desk");
    type_keys(&mut desk, "qhm92qh");
    let asked = desk.question_prompt().expect("the flag is asked");
    assert!(asked.contains("Bob's card QH was exposed"), "{asked}");
    // N: he rejects it; it goes to the pone's pile and the card is due to him again.
    type_keys(&mut desk, "n");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert_eq!(last_word(&desk), "Bob rejects QH");
    assert!(desk.game().journal_text().contains("\"reject\""));
    assert!(desk.question_prompt().is_none(), "answered");
    assert!(
        desk.prompt().starts_with("Card to Bob"),
        "{}",
        desk.prompt()
    );
    // Y keeps an exposed card: nothing changes but the question, and the
    // journal notes the answer.
    type_keys(&mut desk, "7sm927s");
    let journal = desk.game().journal().len();
    type_keys(&mut desk, "y");
    assert_eq!(last_word(&desk), "Bob keeps the 7S");
    assert_eq!(desk.game().journal().len(), journal + 1);
    assert!(desk.game().journal_text().contains("Bob keeps the 7S"));
    assert!(desk.question_prompt().is_none());
    // Cat is dealt two cards at once (a surplus, M7): Y puts it right, the
    // surplus going on to Ann, whose card it was.
    type_keys(&mut desk, "2dm733c");
    let asked = desk.question_prompt().expect("the surplus is asked");
    assert!(asked.contains("Cat was dealt two cards at once"), "{asked}");
    type_keys(&mut desk, "y");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert!(desk.game().journal_text().contains("\"rectify\""));
    assert!(desk.question_prompt().is_none());
    // With nothing flagged, Y and N are refused and say why.
    type_keys(&mut desk, "y");
    assert!(refused(&desk));
}

/// A deal's price and a surplus card typed wrong are fixed with `F` like a
/// stake or a card; a stake made in error is taken back with `X` and is due
/// again. Each correction goes in the journal with its reason.
#[test]
fn a_price_a_surplus_card_and_a_stake_made_in_error_are_put_right_at_the_desk() {
    let mut desk = Desk::new(names(4), HouseRules::default(), None).expect("a desk");
    // The deal sold to Bob for 5 (M, 2, Bob): it was 7.
    type_keys(&mut desk, "m225\n");
    type_keys(&mut desk, "f");
    assert!(
        desk.prompt().contains("1: the deal sold to Bob for 5"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "1");
    assert!(
        desk.prompt().contains("the right price"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "7\n");
    assert!(
        last_word(&desk).contains("sold to Bob for 7, not 5"),
        "{}",
        last_word(&desk)
    );
    assert_eq!(desk.game().ledger().balances, vec![7, -7, 0, 0]);
    // Bob deals; a stake of 3 is typed for Cat before she has said hers:
    // F, 1, X takes it back (another letter is refused).
    type_keys(&mut desk, "qh7s2d5c3\n");
    type_keys(&mut desk, "f1");
    assert!(
        desk.prompt().contains("X: no stake was made"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "z");
    assert!(refused(&desk), "{}", last_word(&desk));
    type_keys(&mut desk, "x");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert_eq!(last_word(&desk), "\"Cat stakes 3\" taken back at the desk");
    let cat = |desk: &Desk| {
        desk.game()
            .sitting()
            .state()
            .seat_round(Seat(2))
            .expect("Cat")
            .hands[0]
            .stake
    };
    assert_eq!(cat(&desk), 0, "her stake is due again");
    type_keys(&mut desk, "2\n2\n2\n");
    assert_eq!(cat(&desk), 2);
    // Cat's second card, then a surplus card to her named 4C (M, 7, Cat):
    // it was the 6C.
    type_keys(&mut desk, "9hm734c");
    assert!(!refused(&desk), "{}", last_word(&desk));
    type_keys(&mut desk, "f1");
    assert!(
        desk.prompt().contains("the right card"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "6c");
    assert!(!refused(&desk), "{}", last_word(&desk));
    assert!(
        last_word(&desk).contains("the card was 6C, not 4C"),
        "{}",
        last_word(&desk)
    );
    let text = desk.game().journal_text();
    assert_eq!(text.matches("\"correct\"").count(), 3, "{text}");
    let replayed = pone_engine::journal::replay(&text).expect("the journal replays");
    assert_eq!(replayed.ledger().balances, desk.game().ledger().balances);
    assert!(
        replayed.in_force().iter().any(|(_, c)| *c
            == Command::Surplus {
                player: Seat(2),
                card: Some("6C".parse().expect("a card")),
            }),
        "{text}"
    );
}

/// Ann deals Bob, Cat and herself two cards face down; Bob and Cat stake 2.
const TWO_CARDS_DEALT: &str = r#"{"t":"table","players":["Ann","Bob","Cat"]}
{"t":"dealer","player":"Ann"}
{"t":"card","to":"Bob"}
{"t":"card","to":"Cat"}
{"t":"card","to":"Ann"}
{"t":"stake","player":"Bob","amount":2}
{"t":"stake","player":"Cat","amount":2}
{"t":"card","to":"Bob"}
{"t":"card","to":"Cat"}
{"t":"card","to":"Ann"}
"#;

/// Bob said natural on cards face down and was paid on his word; then his
/// cards are shown: a nine and an eight.
fn natural_contradicted() -> String {
    format!(
        "{TWO_CARDS_DEALT}{}",
        r#"{"t":"natural","player":"Bob"}
{"t":"show","player":"Bob","cards":["9H","8C"]}
"#
    )
}

#[test]
fn a_natural_paid_that_the_cards_contradict_is_taken_back_in_one_key() {
    let (mut desk, dir) = crate::resumed("natural", &natural_contradicted());
    let paid = desk.game().ledger().balances.clone();
    assert_ne!(paid, vec![0, 0, 0], "Bob was paid on his word");
    let asked = desk.question_prompt().expect("the contradiction is asked");
    assert!(asked.contains("Bob said natural and was paid"), "{asked}");
    // Y: the natural is taken back, with its reason, and its payment with it.
    type_keys(&mut desk, "y");
    assert!(!refused(&desk), "{}", last_word(&desk));
    let text = desk.game().journal_text();
    assert!(
        text.contains("Bob's natural taken back: his cards are not an ace and a tenth card"),
        "{text}"
    );
    assert_eq!(desk.game().ledger().balances, vec![0, 0, 0]);
    assert!(desk.question_prompt().is_none(), "answered");
    std::fs::remove_dir_all(&dir).ok();
}

/// Bob's first cards shown, nine and four, and a two drawn: 15. Then the
/// dealer keys his "over".
fn over_contradicted() -> String {
    format!(
        "{TWO_CARDS_DEALT}{}",
        r#"{"t":"show","player":"Bob","cards":["9H","4C"]}
{"t":"card","to":"Bob","card":"2C"}
"#
    )
}

/// An "over" the cards contradict is asked, not only stated: Y keeps the
/// cards and the hand plays on (the answer noted in the journal); N opens
/// the fix menu to put the card taken wrong right.
#[test]
fn an_over_the_cards_contradict_is_asked_in_one_key() {
    for (answer, name) in [("y", "over-y"), ("n", "over-n")] {
        let (mut desk, dir) = crate::resumed(name, &over_contradicted());
        assert!(desk.question_prompt().is_none(), "nothing asked yet");
        type_keys(&mut desk, "o");
        let asked = desk.question_prompt().expect("the contradiction is asked");
        assert!(asked.contains("Bob said over"), "{asked}");
        type_keys(&mut desk, answer);
        assert!(!refused(&desk), "{}", last_word(&desk));
        assert!(desk.question_prompt().is_none(), "answered");
        assert_eq!(
            desk.game().sitting().state().turn(),
            Some((Seat(1), 1)),
            "Bob plays on"
        );
        if answer == "y" {
            assert!(
                last_word(&desk).contains("Bob's cards are right"),
                "{}",
                last_word(&desk)
            );
            let text = desk.game().journal_text();
            assert!(text.contains("not over, he plays on"), "{text}");
        } else {
            let prompt = desk.prompt();
            assert!(prompt.contains("2: 2C to Bob"), "the fix menu: {prompt}");
            // The card drawn was a ten: then his word stands, and he is over.
            type_keys(&mut desk, "2tc");
            assert!(!refused(&desk), "{}", last_word(&desk));
            assert_eq!(
                desk.game().sitting().state().turn(),
                Some((Seat(2), 1)),
                "Cat's turn"
            );
            assert_eq!(
                desk.game().ledger().balances,
                vec![2, -2, 0],
                "Bob paid Ann"
            );
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// The camera asks to see a natural paid on Bob's word, his cards never seen
/// turned up: N (they are no natural, as the dealer sees them) takes it back,
/// its payment with it; Y leaves it.
#[test]
fn a_natural_the_camera_never_saw_is_taken_back_or_kept_in_one_key() {
    use pone_vision::play::Question;
    let unshown = natural_contradicted()
        .lines()
        .filter(|l| !l.contains("\"show\""))
        .collect::<Vec<_>>()
        .join("\n");
    let question = Question {
        frame: 143,
        text: "Bob was paid a natural on a card the camera has not seen turned up".into(),
        about: None,
        at: None,
        slip: None,
        natural: Some(Seat(1)),
        answered: None,
        wants: None,
    };
    for (key, taken_back) in [("n", true), ("y", false)] {
        let (mut desk, dir) = crate::resumed("natural-unshown", &unshown);
        let paid = desk.game().ledger().balances.clone();
        assert_ne!(paid, vec![0, 0, 0], "Bob was paid on his word");
        desk.ask(std::slice::from_ref(&question));
        let asked = desk.question_prompt().expect("the camera's question");
        assert!(asked.contains("N: they are not"), "{asked}");
        type_keys(&mut desk, key);
        assert!(!refused(&desk), "{}", last_word(&desk));
        let text = desk.game().journal_text();
        let reason = "Bob's natural taken back: his cards, seen at the table, are not an ace";
        assert_eq!(text.contains(reason), taken_back, "{text}");
        let balances = if taken_back { vec![0, 0, 0] } else { paid };
        assert_eq!(desk.game().ledger().balances, balances);
        assert!(desk.question_prompt().is_none(), "answered");
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// A hand shown whole in one line (the dealer's word at a camera's table,
/// a journal gone on with): `F` fixes any one of its cards, chosen by its
/// number, and the correction goes in the journal with its reason.
#[test]
fn a_card_of_a_hand_shown_whole_is_fixed_with_its_reason() {
    let mut game = Game::new(names(3), HouseRules::default()).expect("a game");
    let dark = |to: u8| Command::Card {
        to: Seat(to),
        hand: None,
        card: None,
    };
    let mut commands = vec![
        Command::Dealer { player: Seat(0) },
        dark(1),
        dark(2),
        dark(0),
    ];
    commands.extend([(1, 3), (2, 4)].map(|(player, amount)| Command::Stake {
        player: Seat(player),
        amount,
    }));
    commands.extend([dark(1), dark(2), dark(0)]);
    commands.extend([1, 2, 0].map(|player| Command::Content {
        player: Seat(player),
        hand: None,
    }));
    commands.push(Command::Show {
        player: Seat(0),
        hand: None,
        cards: ["TS", "9H"]
            .map(|c| c.parse().expect("a card"))
            .into_iter()
            .collect(),
    });
    for command in &commands {
        game.command(None, command).expect("a legal command");
    }
    let mut desk = Desk::at_camera(game);
    type_keys(&mut desk, "f1");
    assert!(
        desk.prompt().contains("which card? 1: TS, 2: 9H"),
        "{}",
        desk.prompt()
    );
    type_keys(&mut desk, "3");
    assert!(refused(&desk), "{:?}", desk.said());
    type_keys(&mut desk, "2");
    assert!(desk.prompt().contains("Fix the 9H of"), "{}", desk.prompt());
    type_keys(&mut desk, "8h");
    assert!(!refused(&desk), "{:?}", desk.said());
    let cards = &desk
        .game()
        .sitting()
        .state()
        .seat_round(Seat(0))
        .expect("Ann")
        .hands[0]
        .cards;
    let has = |c: &str| cards.contains(c.parse().expect("a card"));
    assert!(has("TS") && has("8H") && !has("9H"), "{cards:?}");
    assert!(
        desk.game().journal_text().contains("was 8H, not 9H"),
        "{}",
        desk.game().journal_text()
    );
}

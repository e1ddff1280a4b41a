//! The settlement drill in the window: questions answered by typing and
//! Enter or the button, each marked at once with the engine's settlement,
//! and the report at the end.

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pone_engine::HouseRules;
use pone_ui::drill::{Drill, questions, show_drill};

fn answer(harness: &mut Harness<'_, Drill>, text: &str) {
    harness.get_by_label_contains("What does").type_text(text);
    harness.run();
    harness.get_by_label("Answer").click();
    harness.run();
}

#[test]
fn a_drill_in_the_window_marks_each_answer_and_reports() {
    let asked = questions(4, 7, 3, &HouseRules::default()).expect("questions");
    let answers: Vec<i64> = asked.iter().map(|q| q.answer).collect();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1000.0, 700.0))
        .build_ui_state(show_drill, Drill::new(asked));
    harness.run();
    harness.get_by_label("Question 1 of 3");
    harness.snapshot("drill");
    answer(&mut harness, &answers[0].to_string());
    harness.get_by_label_contains("Right:");
    answer(&mut harness, &(answers[1] + 1).to_string());
    harness.get_by_label_contains("Wrong:");
    // Not a number: said, and the question stays.
    answer(&mut harness, "six");
    harness.get_by_label_contains("is no number");
    harness.get_by_label("Question 3 of 3");
    answer(&mut harness, &format!("{:+}", answers[2]));
    harness.get_by_label_contains("2 of 3 right");
    assert_eq!(harness.state().practice().right, 2);
    assert_eq!(harness.state().practice().asked, 3);
}

#[test]
fn a_doubled_stake_paid_as_single_is_named_and_counted() {
    let asked = questions(4, 7, 80, &HouseRules::default()).expect("questions");
    let doubled = asked
        .iter()
        .find(|q| q.doubled && q.answer != 0 && q.answer % 2 == 0)
        .expect("a doubled round in 80 questions")
        .clone();
    let half = doubled.answer / 2;
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1000.0, 700.0))
        .build_ui_state(show_drill, Drill::new(vec![doubled.clone(), doubled]));
    harness.run();
    answer(&mut harness, &half.to_string());
    harness.get_by_label_contains("a doubled stake paid as single");
    // The right amount the wrong way round is named too.
    answer(&mut harness, &(-2 * half).to_string());
    harness.get_by_label_contains("That is the right amount, the wrong way");
    let mistakes = &harness.state().practice().mistakes;
    assert_eq!(
        mistakes.get(&pone_ui::drill::Mistake::DoubledPaidSingle),
        Some(&1)
    );
    harness.get_by_label_contains("1 x a doubled stake paid as single");
}

#[test]
fn a_drill_plays_its_rounds_under_the_house_rules_practised_for() {
    // Every stake 5: every settlement is a number of stakes of 5.
    let fives = HouseRules {
        min_stake: 5,
        max_stake: 5,
        ..HouseRules::default()
    };
    let asked = questions(4, 7, 40, &fives).expect("questions");
    assert!(asked.iter().all(|q| q.answer % 5 == 0), "{asked:?}");
    // The house's own limits (1 to 12) give other amounts.
    let house = questions(4, 7, 40, &HouseRules::default()).expect("questions");
    assert!(house.iter().any(|q| q.answer % 5 != 0));
}

/// The drill's answer field and buttons are large enough for a finger, and
/// its keypad answers with no keyboard (a tablet by the table).
#[test]
fn the_drills_controls_are_large_enough_to_tap_and_answer_with_no_keyboard() {
    let asked = questions(4, 7, 3, &HouseRules::default()).expect("questions");
    let answer = asked[0].answer;
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1000.0, 700.0))
        .build_ui_state(show_drill, Drill::new(asked));
    harness.run();
    let small = crate::small_targets(&harness);
    assert!(small.is_empty(), "too small to tap: {small:#?}");
    // A wrong digit rubbed out first.
    for key in std::iter::once("9".to_owned())
        .chain(std::iter::once("Rub out".to_owned()))
        .chain(answer.to_string().chars().map(String::from))
    {
        harness.get_by_label(&key).click();
        harness.run();
    }
    harness.get_by_label("Answer").click();
    harness.run();
    harness.get_by_label_contains("Right:");
}

/// Bob divides his eights (`DIVIDED_ROUND`) and settles each hand on its
/// own: 18 on the first pays his stake to the dealer's 19, 20 on the
/// second is paid it. He
/// gets nothing over the round, but the dealer announces each hand, and is
/// marked on each.
#[test]
fn a_divided_pair_is_announced_hand_by_hand() {
    let text = format!(
        "{}{}",
        crate::DIVIDED_ROUND,
        r#"{"t":"card","to":"Bob","hand":2,"card":"2S"}
{"t":"card","to":"Bob","hand":2,"card":"KH"}
{"t":"content","player":"Bob","hand":2}
{"t":"card","to":"Cat","card":"4C"}
{"t":"content","player":"Cat"}
{"t":"card","to":"Ann","card":"3H"}
{"t":"content","player":"Ann"}
"#
    );
    let game = pone_engine::replay(&text).expect("the round replays");
    let asked = pone_ui::drill::round_questions(&game);
    let said: Vec<(&str, i64)> = asked
        .iter()
        .map(|q| (q.player.as_str(), q.answer))
        .collect();
    assert_eq!(
        said,
        [("Bob (hand 1)", -3), ("Bob (hand 2)", 3), ("Cat", -2)]
    );
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1000.0, 700.0))
        .build_ui_state(show_drill, Drill::new(asked));
    harness.run();
    harness.get_by_label_contains("What does Bob (hand 1) get");
    // Bob's net over the round, said for his first hand, is wrong.
    answer(&mut harness, "0");
    harness.get_by_label_contains("Wrong: Bob (hand 1) gets -3, not +0.");
    harness.get_by_label_contains("What does Bob (hand 2) get");
}

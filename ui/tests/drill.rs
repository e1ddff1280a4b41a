//! Settlement drills: the questions come from the engine's own rounds, the
//! answers are marked, and the report counts them.

use std::fmt::Write as _;

use pone_ui::drill::{practise, questions};

#[test]
fn right_answers_are_marked_right_and_wrong_ones_shown_with_the_reason() {
    let asked = questions(5, 7, 8).expect("questions");
    assert_eq!(asked.len(), 8);
    // Half right, half off by one, with a line that is no number among them.
    let mut typed = String::from("twelve\n");
    for (k, q) in asked.iter().enumerate() {
        let answer = if k % 2 == 0 { q.answer } else { q.answer + 1 };
        writeln!(typed, "{answer:+}").expect("a line");
    }
    let mut out = Vec::new();
    let practice = practise(&asked, &mut typed.as_bytes(), &mut out).expect("a practice");
    assert_eq!((practice.asked, practice.right), (8, 4));
    assert_eq!(practice.seconds.len(), 8);
    let text = String::from_utf8(out).expect("text");
    assert!(text.contains("'twelve' is no number"), "{text}");
    assert!(text.contains("Right."));
    assert!(text.contains(&format!(
        "Wrong: {} gets {:+}.",
        asked[1].player, asked[1].answer
    )));
    assert!(text.contains("4 of 8 right (50%)"), "{text}");
}

#[test]
fn each_answer_is_what_the_ledger_moves_for_that_player() {
    // The same rounds played again: a round's answers are its players'
    // changes of balance.
    let asked = questions(4, 11, 12).expect("questions");
    for q in &asked {
        let paid: i64 = q
            .why
            .iter()
            .map(|line| {
                let amount: i64 = line
                    .split(':')
                    .next()
                    .and_then(|head| head.split_whitespace().last())
                    .and_then(|n| n.parse().ok())
                    .expect("a payment's amount");
                if line.starts_with(&format!("{} pays", q.player)) {
                    -amount
                } else {
                    amount
                }
            })
            .sum();
        assert_eq!(paid, q.answer, "{q:?}");
        assert!(q.situation.contains(&q.player));
    }
    // Stopping early with `q` reports what was answered.
    let mut out = Vec::new();
    let practice = practise(&asked, &mut "q\n".as_bytes(), &mut out).expect("a practice");
    assert_eq!(practice.asked, 0);
    assert!(questions(1, 1, 1).is_err());
}

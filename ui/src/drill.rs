//! Drills for dealers learning the game: settlement questions from rounds
//! the engine plays, answered against the clock (`pone drill`).
//!
//! Each question shows a round as it ended (the dealer, the double, every
//! hand with its stake, cards and points) and asks what one player gets
//! (or pays, a negative number) over the round. The answer is marked at once,
//! with the engine's own settlement in words; the report at the end gives
//! the share right and the time per decision.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::time::Instant;

use anyhow::Context as _;
use pone_engine::autoplay::Autoplayer;
use pone_engine::sitting::State;
use pone_engine::{Command, Event, Game, HouseRules, Seat, report};
use pone_vision::play::Slip;
use rand::SeedableRng as _;
use rand::rngs::StdRng;

/// One settlement question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The round as it ended, in words.
    pub situation: String,
    /// Whose settlement is asked: the player, and which hand when he
    /// divided (`Ann (hand 2)`).
    pub player: String,
    /// What he gets over the round, on that hand when he divided (negative:
    /// pays).
    pub answer: i64,
    /// The round's payments to or from him, in words.
    pub why: Vec<String>,
    /// Whether the dealer doubled the round's stakes.
    pub doubled: bool,
}

/// A wrong answer a dealer often gives, named so he learns what he did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mistake {
    /// Half the answer in a round the dealer doubled: the doubled stake paid as single.
    DoubledPaidSingle,
    /// Half the answer in a round not doubled: a natural or a drawn
    /// Vingt-un paid at the plain stake.
    DoublePaidSingle,
    /// Twice the answer: a single stake paid as doubled.
    SinglePaidDouble,
    /// The right amount, paid the wrong way.
    WrongWay,
}

impl Mistake {
    /// What a wrong `answer` to `q` shows, when it is one of the known mistakes.
    #[must_use]
    pub fn of(q: &Question, answer: i64) -> Option<Mistake> {
        if answer == q.answer || q.answer == 0 {
            None
        } else if answer == -q.answer {
            Some(Mistake::WrongWay)
        } else if 2 * answer == q.answer {
            Some(if q.doubled {
                Mistake::DoubledPaidSingle
            } else {
                Mistake::DoublePaidSingle
            })
        } else if answer == 2 * q.answer {
            Some(Mistake::SinglePaidDouble)
        } else {
            None
        }
    }
}

impl std::fmt::Display for Mistake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Mistake::DoubledPaidSingle => {
                "a doubled stake paid as single: the dealer doubled, so every stake counts twice"
            }
            Mistake::DoublePaidSingle => {
                "half of it: a natural or a drawn Vingt-un is paid double the stake"
            }
            Mistake::SinglePaidDouble => {
                "twice it: only the double, a natural or a drawn Vingt-un pays twice the stake"
            }
            Mistake::WrongWay => "the right amount, the wrong way: who pays whom is reversed",
        })
    }
}

/// Settlement questions from the rounds a table of `players` plays from
/// `seed` under `rules` (the house rules the dealer practises for): one per
/// player (not the dealer) with a payment in a round.
pub fn questions(
    players: usize,
    seed: u64,
    count: usize,
    rules: &HouseRules,
) -> anyhow::Result<Vec<Question>> {
    anyhow::ensure!(
        (2..=crate::demo::NAMES.len()).contains(&players),
        "--players must be from 2 to {}, not {players}",
        crate::demo::NAMES.len()
    );
    let names: Vec<String> = crate::demo::NAMES[..players]
        .iter()
        .map(|n| (*n).to_owned())
        .collect();
    let mut game = Game::new(names, rules.clone())?;
    game.command(None, &Command::Dealer { player: Seat(0) })?;
    let auto = Autoplayer::default();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let command = auto
            .next(game.sitting().state(), &mut rng)
            .context("the drill's table stopped")?;
        let ended = game
            .command(None, &command)?
            .iter()
            .any(|e| matches!(e, Event::RoundEnded { .. }));
        if ended {
            out.extend(round_questions(&game));
        }
    }
    out.truncate(count);
    Ok(out)
}

/// The questions of the round just ended: one for each player (not the
/// dealer) paid or paying, in dealing order, and one for each hand of a
/// player who divided (each hand is settled on its own).
pub fn round_questions(game: &Game) -> Vec<Question> {
    let state = game.sitting().state();
    let Some(round) = game.ledger().rounds.last() else {
        return Vec::new();
    };
    let situation = situation(state, round.round, round.dealer, round.doubled);
    // The players paid or paying, in dealing order, and their hands settled
    // (none: the player's one hand, or his account).
    let mut asked: Vec<(Seat, Option<u8>)> = Vec::new();
    for &seat in state.order() {
        if seat == round.dealer {
            continue;
        }
        let mut hands: Vec<u8> = round
            .settlements
            .iter()
            .filter(|s| s.player == seat)
            .map(|s| s.hand)
            .collect();
        hands.sort_unstable();
        hands.dedup();
        match hands.as_slice() {
            [] => {}
            [_] => asked.push((seat, None)),
            _ => asked.extend(hands.iter().map(|&hand| (seat, Some(hand)))),
        }
    }
    asked
        .into_iter()
        .map(|(seat, hand)| {
            let theirs: Vec<_> = round
                .settlements
                .iter()
                .filter(|s| s.player == seat && hand.is_none_or(|h| s.hand == h))
                .collect();
            let name = state.name(seat);
            Question {
                situation: situation.clone(),
                player: hand.map_or_else(|| name.to_owned(), |h| format!("{name} (hand {h})")),
                answer: theirs.iter().map(|s| s.amount).sum(),
                why: theirs
                    .iter()
                    .map(|s| report::settlement_text(state, round, s))
                    .collect(),
                doubled: round.doubled,
            }
        })
        .collect()
}

/// A round as it ended: the dealer and the double, then every hand.
fn situation(state: &State, round: u32, dealer: Seat, doubled: bool) -> String {
    use std::fmt::Write as _;
    let mut text = format!(
        "Round {round}: {} deals{}.\n",
        state.name(dealer),
        if doubled {
            ", and doubled every stake"
        } else {
            ""
        }
    );
    for &seat in state.order() {
        let Some(seat_round) = state.seat_round(seat) else {
            continue;
        };
        for (k, hand) in seat_round.hands.iter().enumerate() {
            let who = if seat == dealer {
                format!("{} (dealer)", state.name(seat))
            } else if seat_round.hands.len() > 1 {
                format!("{} hand {}", state.name(seat), k + 1)
            } else {
                state.name(seat).to_owned()
            };
            let cards: Vec<String> = hand.cards.known().map(|c| c.to_string()).collect();
            let points = hand.cards.points();
            let total = points.exact().unwrap_or_else(|| points.least());
            let note = if total > 21 {
                " (over)"
            } else if total == 21 && hand.cards.len() == 2 && seat_round.hands.len() == 1 {
                " (a natural)"
            } else {
                ""
            };
            let wager = if seat == dealer {
                String::new()
            } else {
                format!(", stake {}", hand.stake)
            };
            let _ = writeln!(text, "  {who}{wager}: {} = {total}{note}", cards.join(" "));
        }
    }
    text
}

/// How a practice went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Practice {
    /// Questions asked.
    pub asked: usize,
    /// Answered right.
    pub right: usize,
    /// Seconds each answer took.
    pub seconds: Vec<f64>,
    /// The known mistakes among the wrong answers, and how often each was made.
    pub mistakes: std::collections::BTreeMap<Mistake, usize>,
    /// The dealing slips the camera saw (at a camera's table), and how often each.
    pub slips: std::collections::BTreeMap<Slip, usize>,
}

impl Practice {
    /// Marks an answer to `q` given in `seconds`: whether it is right.
    pub fn mark(&mut self, q: &Question, answer: i64, seconds: f64) -> bool {
        self.asked += 1;
        self.seconds.push(seconds);
        let right = answer == q.answer;
        if right {
            self.right += 1;
        }
        if let Some(mistake) = Mistake::of(q, answer) {
            *self.mistakes.entry(mistake).or_default() += 1;
        }
        right
    }

    /// Whether nothing was asked and no slip seen yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.asked == 0 && self.slips.is_empty()
    }

    /// Counts a dealing slip the camera saw.
    pub fn slipped(&mut self, slip: Slip) {
        *self.slips.entry(slip).or_default() += 1;
    }

    /// The report after a practice.
    #[must_use]
    #[allow(clippy::cast_precision_loss)] // a few questions
    pub fn report(&self) -> String {
        let mut times = self.seconds.clone();
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
        let slowest = times.last().copied().unwrap_or(0.0);
        let mut text = format!(
            "{} of {} right ({:.0}%); {median:.1} s a decision (median), the slowest {slowest:.1} s",
            self.right,
            self.asked,
            100.0 * self.right as f64 / self.asked.max(1) as f64,
        );
        for (mistake, times) in &self.mistakes {
            let _ = write!(text, "\n  {times} x {mistake}");
        }
        if !self.slips.is_empty() {
            let total: usize = self.slips.values().sum();
            let _ = write!(text, "\ndealing slips the camera saw: {total}");
            for (slip, times) in &self.slips {
                let _ = write!(text, "\n  {times} x {slip}");
            }
        }
        text
    }
}

/// Asks `questions` on `out`, reads the answers from `input` (a line each:
/// a whole number, `+` or `-` optional), marks each, and reports. Ends
/// early at the end of the input or on `q`.
pub fn practise(
    questions: &[Question],
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<Practice> {
    let mut practice = Practice::default();
    let mut shown = "";
    for (n, q) in questions.iter().enumerate() {
        writeln!(out, "\nQuestion {} of {}", n + 1, questions.len())?;
        // A round's situation once, for all its questions.
        if q.situation != shown {
            write!(out, "{}", q.situation)?;
            shown = &q.situation;
        }
        let start = Instant::now();
        let answer = loop {
            write!(
                out,
                "What does {} get over the round (a negative number if he pays)? ",
                q.player
            )?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                return Ok(practice);
            }
            let line = line.trim();
            if line.eq_ignore_ascii_case("q") {
                return Ok(practice);
            }
            match parse_answer(line) {
                Ok(a) => break a,
                Err(why) => writeln!(out, "{why}")?,
            }
        };
        if practice.mark(q, answer, start.elapsed().as_secs_f64()) {
            writeln!(out, "Right.")?;
        } else {
            writeln!(out, "Wrong: {} gets {:+}.", q.player, q.answer)?;
            if let Some(mistake) = Mistake::of(q, answer) {
                writeln!(out, "  That is {mistake}.")?;
            }
        }
        for why in &q.why {
            writeln!(out, "  {why}")?;
        }
    }
    writeln!(out, "\n{}", practice.report())?;
    Ok(practice)
}

/// An answer as typed: a whole number, `+` or `-` optional.
pub fn parse_answer(text: &str) -> Result<i64, String> {
    let text = text.trim();
    text.trim_start_matches('+')
        .parse::<i64>()
        .map_err(|_| format!("'{text}' is no number: type it like 4, -6 or +12"))
}

/// A practice in the window: the questions, the one asked, what is typed,
/// the last answer marked, and the practice so far.
#[derive(Clone, Debug)]
pub struct Drill {
    questions: Vec<Question>,
    next: usize,
    typed: String,
    /// When the question shown was asked, in the window's seconds (the
    /// window's clock, so a test's clock is its own).
    asked_at: Option<f64>,
    /// The last answer: right or not, and the engine's settlement in words.
    verdict: Option<(bool, String)>,
    practice: Practice,
}

impl Drill {
    /// A practice of `questions`.
    #[must_use]
    pub fn new(questions: Vec<Question>) -> Drill {
        Drill {
            questions,
            next: 0,
            typed: String::new(),
            asked_at: None,
            verdict: None,
            practice: Practice::default(),
        }
    }

    /// The question shown, if any is left.
    #[must_use]
    pub fn question(&self) -> Option<&Question> {
        self.questions.get(self.next)
    }

    /// How the practice has gone so far.
    #[must_use]
    pub fn practice(&self) -> &Practice {
        &self.practice
    }

    /// Answers the question shown at `now` (the window's seconds); an
    /// answer that is no number is said and changes nothing.
    pub fn answer(&mut self, text: &str, now: f64) {
        let Some(q) = self.questions.get(self.next) else {
            return;
        };
        let answer = match parse_answer(text) {
            Ok(a) => a,
            Err(why) => {
                self.verdict = Some((false, why));
                self.typed.clear();
                return;
            }
        };
        let seconds = (now - self.asked_at.unwrap_or(now)).max(0.0);
        let right = self.practice.mark(q, answer, seconds);
        let mut words = if right {
            format!("Right: {} gets {:+}.", q.player, q.answer)
        } else {
            let mut words = format!("Wrong: {} gets {:+}, not {answer:+}.", q.player, q.answer);
            if let Some(mistake) = Mistake::of(q, answer) {
                let _ = write!(words, " That is {mistake}.");
            }
            words
        };
        for why in &q.why {
            words.push_str("\n  ");
            words.push_str(why);
        }
        self.verdict = Some((right, words));
        self.next += 1;
        self.asked_at = None;
        self.typed.clear();
    }
}

/// Draws a practice into `ui`: the round as it ended, the question, a field
/// for the answer (Enter or the button answers), the last answer marked with
/// the engine's settlement, and at the end the report.
pub fn show_drill(ui: &mut eframe::egui::Ui, drill: &mut Drill) {
    // Sized for a finger here only, not what the window draws after it.
    ui.scope(|ui| {
        crate::screen::touch_sized(ui);
        drill_ui(ui, drill);
    });
}

fn drill_ui(ui: &mut eframe::egui::Ui, drill: &mut Drill) {
    use eframe::egui::{self, Color32, RichText};
    let now = ui.input(|i| i.time);
    ui.heading("Settlement drill");
    if let Some((right, words)) = &drill.verdict {
        let colour = if *right {
            Color32::LIGHT_GREEN
        } else {
            Color32::LIGHT_RED
        };
        ui.label(RichText::new(words).color(colour).size(16.0));
        ui.separator();
    }
    let total = drill.questions.len();
    let Some(q) = drill.questions.get(drill.next).cloned() else {
        ui.label(RichText::new(drill.practice.report()).size(20.0).strong());
        return;
    };
    drill.asked_at.get_or_insert(now);
    ui.label(RichText::new(format!("Question {} of {total}", drill.next + 1)).strong());
    ui.label(RichText::new(&q.situation).monospace().size(16.0));
    let label = ui.label(
        RichText::new(format!(
            "What does {} get over the round (a negative number if he pays)?",
            q.player
        ))
        .size(18.0),
    );
    let mut answered = false;
    ui.horizontal(|ui| {
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut drill.typed)
                    .desired_width(120.0)
                    .align(egui::Align2::LEFT_CENTER),
            )
            .labelled_by(label.id);
        if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
            answered = true;
        }
        if !field.has_focus() && !answered {
            field.request_focus();
        }
        if ui.button(RichText::new("Answer").size(18.0)).clicked() {
            answered = true;
        }
    });
    // A keypad for a tablet with no keyboard.
    ui.horizontal_wrapped(|ui| {
        for key in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-"] {
            let button = egui::Button::new(RichText::new(key).size(20.0))
                .min_size(egui::vec2(48.0, crate::screen::TOUCH));
            if ui.add(button).clicked() {
                drill.typed.push_str(key);
            }
        }
        if ui.button(RichText::new("Rub out").size(18.0)).clicked() {
            drill.typed.pop();
        }
    });
    if answered {
        let typed = drill.typed.clone();
        drill.answer(&typed, now);
    }
}

//! The live table: a rendered sitting's frames through the tracker into the
//! engine keep the same ledger as the sitting's truth.

use std::path::Path;
use std::time::Duration;

use pone_engine::script::Line;
use pone_engine::{Command, replay, report};
use pone_tests::{Scratch, pone_ok, rendered_sitting, temp_dir};
use pone_vision::play::{DealerScript, Play, Question, SeatZones, Slip};
use pone_vision::recognise::Seen;
use pone_vision::sitting::LabelDealer;
use pone_vision::tracker::TrackerOptions;
use serde_json::Value;

/// Renders a sitting into a fresh folder.
fn sitting(name: &str, seed: u64, rounds: u32, players: u32, size: &str) -> Scratch {
    rendered_sitting(name, seed, rounds, players, size, &[])
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("the file is there")).expect("JSON")
}

/// What a perfect recogniser would read in a frame: every card that shows
/// enough of itself, a face-up one only when an index corner shows.
fn perfect_readings(label: &Value) -> Vec<Seen> {
    label["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .filter(|c| {
            let visible = c["visible"].as_f64().unwrap_or(0.0);
            if c["card"] == "back" {
                return visible >= 0.15;
            }
            let index = c["index"].as_array().map_or(&[][..], Vec::as_slice);
            index
                .iter()
                .any(|i| i["visible"].as_f64().unwrap_or(0.0) >= 0.5)
                || (index.is_empty() && visible >= 0.3)
        })
        .map(|c| Seen::new(c["card"].as_str().unwrap_or("back"), 0.99, label_box(c)))
        .collect()
}

/// The finder's second box on the labelled card `card`, moved by `shift`
/// (a share of its width and height), read surely as `read`.
fn second_box(label: &Value, card: &str, read: &str, shift: [f32; 2]) -> Vec<Seen> {
    label["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .filter(|c| c["card"] == card)
        .map(|c| {
            let [x0, y0, x1, y1] = label_box(c);
            let (dx, dy) = (shift[0] * (x1 - x0), shift[1] * (y1 - y0));
            Seen::new(read, 0.99, [x0 + dx, y0 + dy, x1 + dx, y1 + dy])
        })
        .collect()
}

/// A labelled card's box: what shows of it, `[x0, y0, x1, y1]`.
fn label_box(card: &Value) -> [f32; 4] {
    let b: Vec<f32> = card["box"]
        .as_array()
        .expect("box")
        .iter()
        .map(|v| v.as_f64().unwrap_or(0.0) as f32)
        .collect();
    [b[0], b[1], b[2], b[3]]
}

/// A bad frame now and then: every 23rd frame every face-up card is misread
/// (its rank one higher, less surely), and every 31st frame is lost whole
/// (the camera hiccups).
fn spoil(frame: u64, readings: &mut Vec<Seen>) {
    if frame % 31 == 30 {
        readings.clear();
    } else if frame % 23 == 22 {
        for r in readings.iter_mut().filter(|r| r.card != "back") {
            let ranks = "A23456789TJQK";
            let rank = r.card.chars().next().unwrap_or('A');
            let next = ranks
                .chars()
                .cycle()
                .skip_while(|&c| c != rank)
                .nth(1)
                .unwrap_or('A');
            r.card = format!("{next}{}", &r.card[1..]);
            r.confidence = 0.6;
        }
    }
}

/// Runs a sitting's labels through the tracker and the engine: its ledger.
fn play_labels(dir: &Path) -> (Value, Play) {
    play_labels_with(dir, None)
}

/// A rendered sitting's table, with its dealer's script, ready for its
/// frames: the play, how many frames, and their rate.
fn table(dir: &Path) -> (Play, u64, u64) {
    let info = json(&dir.join("sitting.json"));
    let frames = info["frames"].as_u64().expect("frames");
    let fps = info["fps"].as_u64().expect("fps");
    let rate = u16::try_from(fps).expect("a frame rate");
    let text = std::fs::read_to_string(dir.join("dealer.jsonl")).expect("dealer.jsonl");
    let script = DealerScript::parse(&text).expect("the dealer's script reads");
    let mut play = Play::new(script, f32::from(rate), TrackerOptions::default()).expect("a table");
    let side = |key: &str| {
        info[key]
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .expect("the frame's size")
    };
    play.frame_size(side("width"), side("height"));
    (play, frames, fps)
}

/// [`play_labels`], starting from seat zones known already.
fn play_labels_with(dir: &Path, zones: Option<SeatZones>) -> (Value, Play) {
    let (mut play, frames, fps) = table(dir);
    if let Some(zones) = zones {
        play = play.with_zones(zones).expect("zones that fit the table");
    }
    for f in 0..frames {
        let label = json(&dir.join(format!("labels/{f:06}.json")));
        let at = Duration::from_millis(f * 1000 / fps);
        let mut readings = perfect_readings(&label);
        spoil(f, &mut readings);
        play.frame(f, at, &readings);
    }
    play.finish();
    (report::to_json(play.game()), play)
}

/// The play's ledger is the sitting's truth (the questions say why not;
/// the lines the camera gave and the journal are written beside the
/// sitting, for reading when the ledgers differ).
fn assert_truth(play: &Play, dir: &Path) {
    let given: Vec<String> = play
        .delivered()
        .iter()
        .map(|d| format!("landed {} known {}: {}", d.landed, d.known, d.line))
        .collect();
    let _ = std::fs::write(dir.join("camera-lines.txt"), given.join("\n"));
    let _ = std::fs::write(dir.join("journal.jsonl"), play.game().journal_text());
    assert_eq!(
        report::to_json(play.game())["balances"],
        truth_ledger(dir)["balances"],
        "{}: questions {:?}",
        dir.display(),
        play.questions()
    );
}

/// The play asked no question whose text holds `text`.
fn assert_not_asked(play: &Play, text: &str) {
    let asked: Vec<_> = play
        .questions()
        .iter()
        .filter(|q| q.text.contains(text))
        .collect();
    assert!(asked.is_empty(), "{asked:?}");
}

fn truth_ledger(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("truth.jsonl")).expect("truth.jsonl");
    report::to_json(&replay(&text).expect("the truth replays"))
}

/// The whole pipeline as `pone play --headless` runs it: a rendered
/// sitting's frames (1280x720, 10 a second, the table camera's view) read
/// by the real recogniser (ONNX Runtime and the committed models), tracked,
/// and dealt into the engine with the dealer's words, keep the truth's
/// ledger to the penny. Seeds 32 and 40 (3 players, 2 rounds) were never
/// looked into one by one (session 16 chose its thresholds on the sum over
/// 31 sittings, these among them); they are two of those 31 whose ledgers
/// come out exact now (see models/README.md, the live table), so a
/// change to the models or the pipeline that loses them cannot land unseen.
/// Seed 21 at two players for three rounds is the window's demo sitting
/// for two (`pone --players 2`): the tracker loses Bob's first card to a
/// second box as his second card lands over it (the second box turns up as
/// that card; with session 20's back checker, the two boxes come to rest in
/// the same frame, the first card's new box named first: the one lying less
/// on the first card is the card dealt), and the pone's pile comes to rest
/// beside Bob's place before the next round's first card. At four players (the demo's for four): Dan's
/// king, half hidden under his drawn five, is first read 2C unsurely and
/// read again KC as the round is settled (the settled round is corrected),
/// then found again face up as the cards are gathered (no card of the next
/// round); in the next round Dan turns up two cards at once and the tracker
/// finds one face as a card of its own (his card turned up, not Ann's).
/// At six players the second round's showdown waits for Fay's hand, and the
/// dealer's show names her 2C, which the camera had given Ann as a second
/// box on Ann's drawn row: the 2C to Ann is struck, the show ends the round,
/// and the new deal's fresh pack frees every card for deck sense; in the
/// third round Dan's 3S, turned up from under his drawn card, reads 8S at
/// 0.008 with session 24's corner reader: a reading that is no reading, so
/// it is not shown and the dealer shows the hand. At seven,
/// the cards turned up at the second round's showdown, found as new boxes
/// while the showdown waited for the dealer, are not the third round's
/// first cards. Seed 14 became exact in session 27: a face-up box coming
/// to rest at another seat's place than the one due, read unsurely, lying
/// on a face-up card of that seat, is that card found again, not a card
/// dealt (`SURELY_A_CARD_ON_A_FACE`). Five players, the sitting the
/// window opens on, joined in session 28: with that session's finder its
/// hands' stacked backs were found again after the next seat's card, and
/// taken for it until a face-down box at another seat's place, on that
/// seat's back, was that back found again (`Play::found_again_on_a_card`).
///
/// Seed 40 is played from a recording of it (`pone record`, an MJPEG file
/// and its frame rate). Seed 32 is played as the issue writes the command (its frames folder),
/// with bad frames: every 23rd blurred (a camera's focus hunting: the
/// recogniser loses cards and misreads others surely, a JC read JS at 0.97)
/// and every 37th black (the camera's hiccup). The sittings' hands passing
/// over the table (`sitting.json`'s `hand_passes`) are counted: there must
/// be some.
#[test]
fn the_real_recogniser_keeps_the_ledger_of_rendered_sittings() {
    let mut passes = 0;
    for (seed, rounds, players) in [
        (32, 2, 3),
        (40, 2, 3),
        (14, 2, 3),
        (21, 3, 2),
        (21, 3, 4),
        (21, 3, 5),
        (21, 3, 6),
        (21, 3, 7),
    ] {
        let name = format!("play-real-{seed}-{players}");
        let dir = sitting(&name, seed, rounds, players, "1280x720");
        // The first as the issue writes it: its frames folder, the
        // sitting's dealer found beside it, with bad frames.
        // Seed 40 as a camera's recording of it (`pone record`: MJPEG).
        let source = if seed == 32 {
            spoil_frames(&dir.join("frames"));
            dir.join("frames")
        } else if seed == 40 {
            let recording = dir.join("recording");
            let said = pone_ok([
                "record".as_ref(),
                "--source".as_ref(),
                dir.as_os_str(),
                "--out".as_ref(),
                recording.as_os_str(),
            ]);
            let said = String::from_utf8_lossy(&said.stdout);
            assert!(said.contains("at 10 fps"), "{said}");
            recording
        } else {
            dir.to_path_buf()
        };
        passes += json(&dir.join("sitting.json"))["hand_passes"]
            .as_array()
            .map_or(0, Vec::len);
        let out = pone_ok([
            "play".as_ref(),
            "--source".as_ref(),
            source.as_os_str(),
            "--dealer".as_ref(),
            dir.join("dealer.jsonl").as_os_str(),
            "--headless".as_ref(),
            "--json".as_ref(),
        ]);
        let ledger: Value = serde_json::from_slice(&out.stdout).expect("the ledger as JSON");
        assert_eq!(
            ledger["balances"],
            truth_ledger(&dir)["balances"],
            "seed {seed}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(passes > 0, "no hand passed over the tables");
}

/// The slip sitting (seed 35, 5 players, 3 rounds, 480x270: its four
/// filmed slips as in `a_card_dealt_to_the_next_seat_and_moved_is_told_as_the_dealers_slip`)
/// through the real recogniser, as `pone play --headless` runs it: the
/// ledger is the truth's, Ann's cards put at Bob's place (cards 14 and 34)
/// are told as slips, and no card is told as one come to rest at Ann's
/// place while the deal gave it to Bob: neither Ann's first card of round 2,
/// moved to her place while round 1's hands were shown (the tracker lost it
/// as it moved, and it went in as Bob's), nor Bob's drawn card of round 3,
/// come to rest where Ann's drawn card had lain at his place before it was
/// moved (her card marked Ann's place there).
#[test]
fn the_real_recogniser_tells_the_slips_filmed_and_none_that_were_not() {
    let dir = slip_sitting();
    let (ledger, said) = played_headless(&dir, &[]);
    assert_eq!(ledger["balances"], truth_ledger(&dir)["balances"], "{said}");
    let told = |text: &str| said.lines().filter(|l| l.contains(text)).count();
    assert_eq!(
        told("a card came to rest at Bob's place, but the deal gives the next card to Ann"),
        2,
        "{said}"
    );
    assert_eq!(
        told("a card came to rest at Ann's place, but the deal gives the next card to Bob"),
        0,
        "{said}"
    );
}

/// Spoils a rendered sitting's frames as a cheap camera does: every 23rd
/// blurred (focus hunting), every 37th black (a hiccup).
fn spoil_frames(frames: &Path) {
    let mut names: Vec<_> = std::fs::read_dir(frames)
        .expect("the frames")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    names.sort();
    for (k, path) in names.iter().enumerate() {
        let spoiled = if k % 23 == 22 {
            let picture = image::open(path).expect("a frame").to_rgb8();
            image::imageops::fast_blur(&picture, 2.0)
        } else if k % 37 == 36 {
            let picture = image::open(path).expect("a frame").to_rgb8();
            image::RgbImage::new(picture.width(), picture.height())
        } else {
            continue;
        };
        spoiled.save(path).expect("the frame written");
    }
}

#[test]
fn good_readings_with_bad_frames_keep_a_rendered_sittings_ledger() {
    // Seed 4: a player makes 21 by drawing on face-down first cards, and
    // says he is content (the camera cannot know it).
    for seed in [3, 4, 8] {
        let dir = sitting(&format!("play-labels-{seed}"), seed, 4, 4, "480x270");
        let (ours, play) = play_labels(&dir);
        assert_truth(&play, &dir);
        assert_eq!(ours["rounds"], truth_ledger(&dir)["rounds"], "seed {seed}");
    }
}

#[test]
fn seat_zones_saved_from_one_sitting_keep_the_next_ledger() {
    let dir = sitting("play-zones", 5, 3, 4, "480x270");
    let (_, first) = play_labels(&dir);
    let zones = first.zones().clone();
    assert!(zones.anchors.iter().all(Option::is_some), "{zones:?}");
    // Through JSON, as `pone play --zones FILE` keeps them.
    let text = serde_json::to_string(&zones).expect("JSON");
    let zones: SeatZones = serde_json::from_str(&text).expect("zones read back");
    let (ours, second) = play_labels_with(&dir, Some(zones.clone()));
    assert_eq!(
        ours["balances"],
        truth_ledger(&dir)["balances"],
        "questions {:?}",
        second.questions()
    );
    // Zones for another table are refused, saying what is wrong.
    let mut wrong = zones;
    wrong.anchors.pop();
    let text = std::fs::read_to_string(dir.join("dealer.jsonl")).expect("dealer.jsonl");
    let script = DealerScript::parse(&text).expect("the dealer's script reads");
    let error = Play::new(script, 10.0, TrackerOptions::default())
        .expect("a table")
        .with_zones(wrong)
        .err()
        .expect("refused");
    assert!(
        error.to_string().contains("3 seats, but the table has 4"),
        "{error}"
    );
}

#[test]
fn the_dealers_words_said_as_the_frames_come_keep_the_same_ledger() {
    // The dealer's script said line by line at its frames (as the window's
    // desk says them) instead of given up front.
    let dir = sitting("play-say", 3, 4, 4, "480x270");
    let info = json(&dir.join("sitting.json"));
    let frames = info["frames"].as_u64().expect("frames");
    let fps = info["fps"].as_u64().expect("fps");
    let text = std::fs::read_to_string(dir.join("dealer.jsonl")).expect("dealer.jsonl");
    let mut script = DealerScript::parse(&text).expect("the dealer's script reads");
    let mut lines = std::mem::take(&mut script.lines).into_iter().peekable();
    let rate = f32::from(u16::try_from(fps).expect("a frame rate"));
    let mut play = Play::new(script, rate, TrackerOptions::default()).expect("a table");
    for f in 0..frames {
        while let Some((_, line)) = lines.next_if(|(at, _)| *at <= f) {
            play.say(line);
        }
        let label = json(&dir.join(format!("labels/{f:06}.json")));
        let mut readings = perfect_readings(&label);
        spoil(f, &mut readings);
        play.frame(f, Duration::from_millis(f * 1000 / fps), &readings);
    }
    play.finish();
    let (scripted, _) = play_labels(&dir);
    let said = report::to_json(play.game());
    assert_eq!(
        said["rounds"],
        scripted["rounds"],
        "questions {:?}",
        play.questions()
    );
    assert_eq!(said["balances"], truth_ledger(&dir)["balances"]);
}

/// A card the camera misreads in every frame, unsurely, becomes a question
/// about that card's journal line; the dealer's answer (the right card, a
/// `correct` line said into the play, as the window's desk says it) puts the
/// game right, and the sitting keeps its true ledger.
#[test]
fn a_doubtful_reading_answered_by_the_dealer_keeps_the_ledger() {
    let dir = sitting("play-answer", 3, 4, 4, "480x270");
    // The first card dealt face up, and a card the sitting never shows.
    let (_, clean) = play_labels(&dir);
    let dealt: Vec<String> = clean
        .delivered()
        .iter()
        .filter_map(|d| {
            let line: Value = serde_json::from_str(&d.line).ok()?;
            line["card"].as_str().map(str::to_owned)
        })
        .collect();
    let wrong = pone_engine::Card::pack()
        .map(|c| c.to_string())
        .find(|c| !dealt.contains(c))
        .expect("a card not dealt");
    let right = dealt.first().expect("a card dealt face up").clone();
    let (mut play, frames, fps) = table(&dir);
    let mut answered = 0;
    for f in 0..frames {
        let label = json(&dir.join(format!("labels/{f:06}.json")));
        let mut readings = perfect_readings(&label);
        for r in readings.iter_mut().filter(|r| r.card == right) {
            r.card.clone_from(&wrong);
            r.confidence = 0.4;
        }
        play.frame(f, Duration::from_millis(f * 1000 / fps), &readings);
        // The dealer answers each new question about a card at once.
        let questions: Vec<_> = play.questions()[answered..].to_vec();
        answered = play.questions().len();
        for q in questions {
            let Some(seq) = q.about else { continue };
            let state = play.game().sitting().state();
            let Some((_, Command::Card { to, hand, card })) =
                play.game().in_force().iter().find(|(s, _)| *s == seq)
            else {
                panic!("the question names no card line: {q:?}");
            };
            assert_eq!(card.map(|c| c.to_string()), Some(wrong.clone()), "{q:?}");
            let with = Line::from_command(
                &Command::Card {
                    to: *to,
                    hand: *hand,
                    card: Some(right.parse().expect("a card")),
                },
                state,
            );
            play.say(Line::Correct {
                line: seq,
                with: Some(Box::new(with)),
                reason: format!("the dealer: {right}, not {wrong}"),
            });
        }
    }
    play.finish();
    let asked: Vec<_> = play
        .questions()
        .iter()
        .filter(|q| q.about.is_some())
        .collect();
    assert_eq!(asked.len(), 1, "{:?}", play.questions());
    assert_truth(&play, &dir);
    assert!(
        play.game().journal_text().contains("\"correct\""),
        "the correction is in the journal"
    );
    // The game holds the right card where the camera read the wrong one.
    let kept: Vec<String> = play
        .game()
        .in_force()
        .iter()
        .filter_map(|(_, c)| match c {
            Command::Card { card: Some(c), .. } => Some(c.to_string()),
            _ => None,
        })
        .collect();
    assert!(kept.contains(&right) && !kept.contains(&wrong), "{kept:?}");
}

/// In the first round a hand passes over the first card dealt (every card
/// but the pack hidden for a few frames): the next seat's first card, whose
/// place is not learned yet, is still dealt to it, not taken for the pone's
/// pile, and the ledger is the truth's.
#[test]
fn a_hand_over_the_first_card_does_not_make_the_next_seats_card_the_pile() {
    let dir = sitting("play-first-hidden", 3, 2, 3, "480x270");
    let (mut play, frames, fps) = table(&dir);
    let truth = std::fs::read_to_string(dir.join("truth.jsonl")).expect("truth.jsonl");
    let first = truth
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|l| l["t"] == "card")
        .and_then(|l| l["frame"].as_u64())
        .expect("a card dealt");
    for f in 0..frames {
        let mut label = json(&dir.join(format!("labels/{f:06}.json")));
        if (first + 3..first + 6).contains(&f)
            && let Some(cards) = label["cards"].as_array_mut()
        {
            cards.retain(|c| c["role"]["at"] == "pack");
        }
        play.frame(
            f,
            Duration::from_millis(f * 1000 / fps),
            &perfect_readings(&label),
        );
    }
    play.finish();
    assert_truth(&play, &dir);
}

/// Two sittings the camera alone cannot keep. Seed 7: Cat turns her pair
/// of eights up and divides it, pulling one eight away where no card lay,
/// so it comes to rest like a new card. Seed 9: at the showdown Ann's first
/// card lies under her drawn card with its index hidden. The table takes the
/// pulled card for a card shown, and asks the dealer for the hidden one; the
/// dealer, looking at the table, types it.
#[test]
fn a_divided_pair_and_a_card_hidden_at_the_showdown_keep_the_ledger() {
    for seed in [7, 9] {
        let dir = sitting(&format!("play-hidden-{seed}"), seed, 2, 3, "480x270");
        let play = play_answering(&dir);
        let showdowns: Vec<_> = play
            .questions()
            .iter()
            .filter(|q| q.text.starts_with("the showdown waits"))
            .collect();
        assert_eq!(
            showdowns.len(),
            usize::from(seed == 9),
            "{:?}",
            play.questions()
        );
        // Once the dealer has shown the hand, its question is settled.
        assert!(
            showdowns.iter().all(|q| q.answered.is_some()),
            "{showdowns:?}"
        );
        assert_truth(&play, &dir);
    }
}

/// Seed 9, with the JD Ann draws in the first round read as another card
/// (surely, on every frame). At the showdown the table waits for her card
/// the camera cannot read, and the dealer shows her whole hand, JD among it:
/// his word puts the camera's card right (a correction with its reason) and
/// the show goes in. Read as JH, it is the one card she shows of its rank
/// that the camera did not give her; read as 9H, neither its rank nor its
/// suit is one of those (her hidden 4C, the JD), and it is the card at its
/// place in her hand, shown in the order dealt.
#[test]
fn the_dealers_show_puts_right_a_card_the_camera_read_as_another() {
    let dir = sitting("play-show-misread", 9, 2, 3, "480x270");
    for read in ["JH", "9H"] {
        let play = play_answering_altered(&dir, &[], &misreading("JD", read, None));
        assert_truth(&play, &dir);
        let journal = play.game().journal_text();
        assert!(
            journal.contains(&format!("shows Ann's JD where the camera read {read}")),
            "{journal}"
        );
    }
}

/// Seed 9: the first round's showdown waits for Ann's card the camera
/// cannot read, and the dealer is slow to show her hand: the next round's
/// first cards come to rest, and his stakes for it are said, while the
/// table still waits. His stakes wait for the hand he shows, which goes in
/// first, and the ledger is kept.
#[test]
fn the_dealers_words_for_the_next_round_wait_for_the_hand_he_shows() {
    let dir = sitting("play-show-first", 9, 2, 3, "480x270");
    let script = std::fs::read_to_string(dir.join("dealer.jsonl")).expect("dealer.jsonl");
    let script = DealerScript::parse(&script).expect("the dealer's script reads");
    let asked = play_answering(&dir)
        .questions()
        .iter()
        .find(|q| q.text.starts_with("the showdown waits"))
        .expect("the showdown asks for Ann's card")
        .frame;
    // The next round's last stake, said after the table asked.
    let staked = script
        .lines
        .iter()
        .filter(|(frame, line)| *frame > asked && matches!(line, Line::Stake { .. }))
        .map(|(frame, _)| *frame)
        .max()
        .expect("the next round's stakes");
    let play = play_answering_late(&dir, &[], &|_, _, _| {}, staked + 5, true, 0..0);
    assert_not_asked(&play, "was refused");
    assert_truth(&play, &dir);
}

/// Seed 9, with the camera finding a second box on Bob's 2D as he draws
/// in the first round (after his 7D, before his TS), read surely as 3S: a
/// card Ann holds face down. The table takes it for Bob's card. At the
/// showdown the dealer shows Ann's hand, 3S among it: his word strikes the
/// camera's 3S to Bob (a correction with its reason), and the show goes in.
#[test]
fn the_dealers_show_strikes_a_card_the_camera_gave_another_seat() {
    let dir = sitting("play-show-elsewhere", 9, 2, 3, "480x270");
    let phantom = |frame: u64, label: &Value| -> Vec<Seen> {
        if !(80..=82).contains(&frame) {
            return Vec::new();
        }
        second_box(label, "2D", "3S", [0.4, 0.0])
    };
    let play = play_answering_with(&dir, &[], &phantom);
    let journal = play.game().journal_text();
    assert!(
        journal.contains(r#""to":"Bob","card":"3S""#),
        "the second box was not taken for a card: {journal}"
    );
    assert!(
        journal.contains("was a card on the table found again"),
        "{journal}"
    );
    assert_truth(&play, &dir);
}

/// Seed 7, with the camera finding a new box on Cat's hand, read surely as
/// KD, after the first round is over and before its cards are gathered:
/// the next card is due to Bob, and a face-up card at another seat's place
/// while the round's cards still lie there is one of them found again, not
/// Bob's first card (which comes face down).
#[test]
fn a_new_box_on_a_settled_hand_is_not_the_next_rounds_first_card() {
    let dir = sitting("play-settled-box", 7, 2, 3, "480x270");
    let phantom = |frame: u64, label: &Value| -> Vec<Seen> {
        if !(100..=103).contains(&frame) {
            return Vec::new();
        }
        second_box(label, "8H", "KD", [0.0, 0.5])
    };
    let play = play_answering_with(&dir, &[], &phantom);
    let journal = play.game().journal_text();
    assert!(!journal.contains(r#""card":"KD""#), "{journal}");
    assert_truth(&play, &dir);
}

/// Seed 89: Bob divides his eights; the eight pulled away leaves its place
/// at once, and the next card dealt him lands just where it lay. With none
/// of his cards face down, that card is dealt, not the eight turned up.
#[test]
fn a_card_dealt_where_a_divided_pairs_card_lay_is_a_new_card() {
    let dir = sitting("play-divided-89", 89, 3, 5, "480x270");
    assert_truth(&play_answering(&dir), &dir);
}

/// Seed 46: Ann divides her nines, 9D and 9H, both dealt face down. The
/// 9H she pulls away is seen at its new place before the 9D left in place
/// is seen turned up (here it reads as a back until after the divide, as
/// the real recogniser with session 29's back checker saw it). The card
/// pulled away makes the second hand: taken for the first, her second
/// hand's 9H, shown at the showdown, was refused as a card seen twice.
#[test]
fn a_divided_pairs_card_pulled_away_is_the_second_hands() {
    let dir = sitting("play-divided-46", 46, 2, 3, "480x270");
    let late = |f: u64, _: &Value, readings: &mut Vec<Seen>| {
        if (120..=135).contains(&f) {
            for r in readings.iter_mut().filter(|r| r.card == "9D") {
                r.card = "back".into();
            }
        }
    };
    let play = play_answering_altered(&dir, &[], &late);
    assert_truth(&play, &dir);
}

/// Seed 22's second round: the dealer's second card (Ann's AH) comes to
/// rest face down on her first and is not seen (found as one box with it)
/// until she turns both up, after her players said "content": Bob's word,
/// refused while the second cards were not all dealt, says the deal is past
/// her card, so the table asks the dealer for it (he gives it face down),
/// the word goes in after it, and the ledger is kept.
#[test]
fn a_word_of_play_refused_while_the_deal_waits_for_a_card_unseen_asks_for_it() {
    let dir = sitting("play-refused-unseen", 22, 2, 3, "480x270");
    let play = play_answering_altered(&dir, &[], &seat_0s_second_back_unseen);
    assert_truth(&play, &dir);
    let answered = |text: &str| {
        play.questions()
            .iter()
            .find(|q| q.text.contains(text))
            .and_then(|q| q.answered.clone())
    };
    assert_eq!(
        answered("the camera has not seen it dealt").as_deref(),
        Some("the card went in"),
        "{:?}",
        play.questions()
    );
    assert_eq!(
        answered("was refused").as_deref(),
        Some("said again once the card the deal waited for went in"),
        "{:?}",
        play.questions()
    );
}

/// [`a_word_of_play_refused_while_the_deal_waits_for_a_card_unseen_asks_for_it`]
/// with a dealer who never answers: the cards landing after Bob's word wait
/// a while for the answer, then go in as the camera sees them; Bob's word
/// goes in once the camera sees the card the deal waited for, turned up,
/// and the ledger is kept.
#[test]
fn a_card_asked_for_and_never_answered_does_not_stop_the_table() {
    let dir = sitting("play-refused-unseen", 22, 2, 3, "480x270");
    let play = play_answering_late(&dir, &[], &seat_0s_second_back_unseen, u64::MAX, true, 0..0);
    assert_truth(&play, &dir);
    assert!(
        play.questions()
            .iter()
            .any(|q| q.text.contains("the camera has not seen it dealt")),
        "{:?}",
        play.questions()
    );
}

/// The one question the table asked whose text holds `text` (it must have
/// asked exactly one).
fn asked_once<'a>(play: &'a Play, text: &str) -> &'a Question {
    let asked: Vec<&Question> = play
        .questions()
        .iter()
        .filter(|q| q.text.contains(text))
        .collect();
    assert_eq!(asked.len(), 1, "{text}: {:?}", play.questions());
    asked[0]
}

/// Seed 22's recording as the recogniser saw it with Ann's second card,
/// face down on her first, not seen from frame 100 (found as one box with
/// it) until she turns it up.
fn seat_0s_second_back_unseen(f: u64, label: &Value, readings: &mut Vec<Seen>) {
    if f >= 100 {
        second_backs_unseen(&[0], label, readings);
    }
}

/// The readings without the second cards of `seats` while they lie face
/// down (each found as one box with the first card under it).
fn second_backs_unseen(seats: &[u64], label: &Value, readings: &mut Vec<Seen>) {
    backs_unseen(1, seats, label, readings);
}

/// The readings without the cards at `position` (0: the first) of the
/// hands of `seats` while they lie face down.
fn backs_unseen(position: u64, seats: &[u64], label: &Value, readings: &mut Vec<Seen>) {
    let unseen: Vec<[f32; 4]> = label["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .filter(|c| {
            let role = &c["role"];
            c["card"] == "back"
                && role["position"] == position
                && role["seat"].as_u64().is_some_and(|s| seats.contains(&s))
        })
        .map(label_box)
        .collect();
    readings.retain(|r| !unseen.contains(&r.bbox));
}

/// Blind seed 140's first round, on another sitting: eldest hand's first
/// card, face down, is not seen until his second card has been dealt onto
/// it (the finder missed a small far back on a pale floor). The first
/// cards seen would go in a seat astray, his second card taken for the
/// dealer's first, and the places learned from them astray for the whole
/// sitting. Every punter has staked with the first cards one short, and a
/// card comes to rest away from every place: the table asks the dealer to
/// show the places, puts the first cards in by where they lie, the unseen
/// one face down, and the ledger is kept.
#[test]
fn a_first_card_unseen_in_the_first_round_asks_for_the_places() {
    let dir = sitting("play-first-unseen", 22, 2, 3, "480x270");
    let dealt = dealt(&dir);
    let eldest = u64::try_from(dealt[0].1).expect("a seat");
    let second_pass = dealt[3].0;
    // A small far back on a pale floor, which the finder does not find.
    let unseen = move |f: u64, label: &Value, readings: &mut Vec<Seen>| {
        if f < second_pass + 5 {
            backs_unseen(0, &[eldest], label, readings);
        }
    };
    let play = play_answering_altered(&dir, &[], &unseen);
    assert_truth(&play, &dir);
    let asked = asked_once(&play, "every player has staked");
    assert!(
        asked
            .answered
            .as_deref()
            .is_some_and(|a| a.contains("first card went unseen")),
        "{asked:?}"
    );
}

/// Blind seeds 207 (5 players) and 305 (7 players) at 10 fps, on seed 22's
/// second round, the places known: the eldest's second card, face down on
/// his first, is not seen (one box with it) until he turns it up. The next
/// two cards come to rest at the next two seats' places, each as a card
/// dealt there: the eldest's card went unseen. It goes in face down, the
/// dealer is told once, and the deal goes on in step (before, each card
/// after it went one seat astray, or was dropped as a box found again, and
/// the dealer was asked for them all).
#[test]
fn a_card_unseen_at_the_places_known_goes_in_once_the_next_two_land_at_theirs() {
    let dir = sitting("play-unseen-at-places", 22, 2, 3, "480x270");
    let dealt = dealt(&dir);
    // Round 1: six cards of the deal and three drawn; round 2's first three.
    let (second_pass, eldest) = dealt[12];
    assert_eq!((eldest, dealt[13].1, dealt[14].1), (1, 2, 0), "{dealt:?}");
    let unseen = move |f: u64, label: &Value, readings: &mut Vec<Seen>| {
        if f + 2 >= second_pass {
            second_backs_unseen(&[1], label, readings);
        }
    };
    let play = play_answering_altered(&dir, &[], &unseen);
    assert_truth(&play, &dir);
    asked_once(&play, "did not see Bob's card dealt");
    assert!(
        play.questions().iter().all(|q| q.slip.is_none()),
        "{:?}",
        play.questions()
    );
}

/// [`a_card_unseen_at_the_places_known_goes_in_once_the_next_two_land_at_theirs`]
/// in the first round, where the dealer's place is not known yet: his first
/// card is not seen until he turns it up. The eldest's second card comes to
/// rest at the eldest's place, the next at the next seat's: the dealer's
/// first card went unseen (his place is learned from his second card, not
/// from the eldest's, as before, which sent every card after astray).
#[test]
fn the_dealers_first_card_unseen_in_the_first_round_goes_in_once_the_next_two_land() {
    let dir = sitting("play-dealers-first-unseen", 22, 2, 3, "480x270");
    let dealt = dealt(&dir);
    let dealer = dealt[2].1;
    assert_eq!(dealer, 0, "Ann deals the first round: {dealt:?}");
    let round_over = dealt[9].0;
    let unseen = move |f: u64, label: &Value, readings: &mut Vec<Seen>| {
        if f < round_over {
            backs_unseen(0, &[0], label, readings);
        }
    };
    let play = play_answering_altered(&dir, &[], &unseen);
    assert_truth(&play, &dir);
    asked_once(&play, "did not see Ann's card dealt");
}

/// [`a_card_unseen_at_the_places_known_goes_in_once_the_next_two_land_at_theirs`]
/// with the round's first card: seed 22's second round, the eldest's first
/// card not seen until his second comes to rest on it. The round starts
/// with the next two seats' first cards, at their places: the eldest's card
/// went in face down, one question told it, and no slip was seen (before,
/// each card went to the seat before its own, the dealer was told of two
/// slips he never made, and the ledger came right only because the cards
/// dealt face down are one like another).
#[test]
fn the_rounds_first_card_unseen_goes_in_once_the_next_two_land_at_their_places() {
    let dir = sitting("play-rounds-first-unseen", 22, 2, 3, "480x270");
    let dealt = dealt(&dir);
    let ((first, eldest), second_pass) = (dealt[9], dealt[12].0);
    assert_eq!(eldest, 1, "Bob is eldest in round 2: {dealt:?}");
    let unseen = move |f: u64, label: &Value, readings: &mut Vec<Seen>| {
        if f + 2 >= first && f < second_pass + 3 {
            backs_unseen(0, &[1], label, readings);
        }
    };
    let play = play_answering_altered(&dir, &[], &unseen);
    assert_truth(&play, &dir);
    asked_once(&play, "did not see Bob's card dealt");
    assert!(
        play.questions().iter().all(|q| q.slip.is_none()),
        "{:?}",
        play.questions()
    );
}

/// Blind seed 207 (5 players) at 10 fps, on seed 140's first round (3
/// players): Cat's, Ann's and Bob's second cards, face down on their
/// first, are not seen (each one box with it), Ann's and Bob's until they
/// turn them up. As the dealer draws the 9C to
/// Cat, the finder finds her second card at last, a frame before the 9C
/// comes to rest on it: the 9C, read surely, is no second box of that card
/// (a face-down card's second box shows its back) but the card she drew,
/// and the ledger is kept.
#[test]
fn a_face_drawn_onto_a_card_just_found_is_a_card_drawn() {
    let dir = sitting("play-found-late", 140, 2, 3, "480x270");
    let drawn = first_frame_showing(&dir, "9C");
    let found = drawn + 2;
    let late = move |f: u64, label: &Value, readings: &mut Vec<Seen>| {
        if (30..found).contains(&f) {
            second_backs_unseen(&[2], label, readings);
        }
        if (30..100).contains(&f) {
            second_backs_unseen(&[0, 1], label, readings);
        }
    };
    let play = play_answering_altered(&dir, &[], &late);
    assert_truth(&play, &dir);
}

/// Seed 39's first round: Ann's and Bob's second cards lie face down on
/// their first and are not seen (each found as one box with it) until they
/// turn them up. Cat, first to play, draws the 2S face up at her place
/// while the deal still waits for Ann's second card: the deal is past it,
/// so the table asks the dealer for it, then for Bob's, and the 2S is
/// Cat's; the ledger is kept.
#[test]
fn a_face_drawn_while_the_deal_waits_for_a_second_card_asks_for_it() {
    let dir = sitting("play-face-passed", 39, 2, 3, "480x270");
    let unseen = |f: u64, label: &Value, readings: &mut Vec<Seen>| {
        if f < 100 {
            second_backs_unseen(&[0, 1], label, readings);
        }
    };
    let play = play_answering_altered(&dir, &[], &unseen);
    assert_truth(&play, &dir);
    let asked = play
        .questions()
        .iter()
        .filter(|q| q.text.contains("came to rest at Cat's place, a card drawn"))
        .count();
    assert_eq!(asked, 2, "{:?}", play.questions());
}

/// Seed 70: at the showdown Ann turns up her face-down 2H, read on its box
/// as 2D, unsurely (0.65) or fairly surely (0.91, as seed 34's 5C at 30 fps
/// read 6C); a frame later a second box on it reads 2H surely (0.95, and
/// 0.99). The card shown is read again as 2H, not dealt to the dealer as a
/// card drawn, and the ledger is kept.
#[test]
fn a_card_turned_up_read_unsurely_then_surely_in_a_second_box_is_read_again() {
    let dir = sitting("play-shown-again", 70, 2, 3, "480x270");
    let turned = first_frame_showing(&dir, "2H");
    for (first, second) in [(0.65, 0.95), (0.91, 0.99)] {
        let misread = |f: u64, label: &Value, readings: &mut Vec<Seen>| {
            if f < turned {
                return;
            }
            for r in readings.iter_mut().filter(|r| r.card == "2H") {
                r.card = "2D".into();
                r.confidence = first;
            }
            if f > turned {
                readings.extend(
                    second_box(label, "2H", "2H", [0.1, 0.1])
                        .into_iter()
                        .map(|s| Seen::new(&s.card, second, s.bbox)),
                );
            }
        };
        let play = play_answering_altered(&dir, &[], &misread);
        assert_truth(&play, &dir);
    }
}

/// The first frame of a rendered sitting whose label shows `card`.
fn first_frame_showing(dir: &Path, card: &str) -> u64 {
    let frames = json(&dir.join("sitting.json"))["frames"]
        .as_u64()
        .expect("frames");
    (0..frames)
        .find(|&f| {
            json(&dir.join(format!("labels/{f:06}.json")))["cards"]
                .as_array()
                .expect("cards")
                .iter()
                .any(|c| c["card"] == card)
        })
        .unwrap_or_else(|| panic!("{card} is never seen"))
}

/// Readings altered so that `card` reads `read`, `confidence` sure (its
/// own sureness when `None`), in every frame.
fn misreading(
    card: &'static str,
    read: &'static str,
    confidence: Option<f32>,
) -> impl Fn(u64, &Value, &mut Vec<Seen>) {
    move |_, _, readings| {
        for r in readings.iter_mut().filter(|r| r.card == card) {
            r.card = read.into();
            if let Some(confidence) = confidence {
                r.confidence = confidence;
            }
        }
    }
}

/// Seed 83's second round (blind seed 83 of the live table): the dealer,
/// Cat, draws a 3D, an AD and a 2S, each fanned on the card before; 0.3 s
/// after the 2S comes to rest the finder finds the 3D again, as a box of
/// its own 0.86 the 3D's (intersection over union), read 3H at 0.96, while
/// the 3D is still read on its own box. That box is the 3D found again, no
/// card drawn.
#[test]
fn a_counted_face_found_again_as_its_rank_in_another_suit_is_no_card() {
    let dir = sitting("play-counted-face-again", 83, 2, 3, "480x270");
    let from = first_frame_showing(&dir, "2S") + 6;
    let again = |f: u64, label: &Value, readings: &mut Vec<Seen>| {
        if f >= from {
            readings.extend(
                second_box(label, "3D", "3H", [-0.04, 0.04])
                    .into_iter()
                    .map(|s| Seen::new(&s.card, 0.96, s.bbox)),
            );
        }
    };
    let play = play_answering_altered(&dir, &[], &again);
    assert_truth(&play, &dir);
}

/// Seed 42's second round: Cat turns up her natural, the KS and an AD, and
/// the AD reads 2D, 60% sure, from the frame it shows on. The dealer's
/// "natural" for her, which the cards as read cannot make, asks about the
/// face read least surely; his answer puts it right, the natural goes in
/// again, and the ledger is kept.
#[test]
fn a_natural_the_cards_as_read_cannot_make_asks_about_the_least_sure_face() {
    let dir = sitting("play-natural-misread", 42, 2, 3, "480x270");
    let play = play_answering_altered(&dir, &[], &misreading("AD", "2D", Some(0.6)));
    assert_truth(&play, &dir);
    assert!(
        play.questions().iter().any(|q| q
            .text
            .contains("Cat declared a natural, but the camera read Cat's 2D (60% sure)")
            && q.answered.is_some()),
        "{:?}",
        play.questions()
    );
}

/// Seed 71's first round: Cat's 6C, dealt face down, turns up at the
/// showdown read 8C at 0.65 in every frame, so the tracker counts it surely
/// (most of its votes). Read as it turns, that is unsure: it is asked
/// about, the dealer's answer puts it right, and her 16 loses to the
/// dealer's 17 (as 18 it would have won).
#[test]
fn a_card_turned_up_read_at_two_thirds_is_asked_about() {
    let dir = sitting("play-turned-up-unsure", 71, 2, 3, "480x270");
    let play = play_answering_altered(&dir, &[], &misreading("6C", "8C", Some(0.65)));
    assert!(
        play.questions()
            .iter()
            .any(|q| q.text.contains("Cat's card turned up reads 8C (65% sure)")),
        "{:?}",
        play.questions()
    );
    assert_truth(&play, &dir);
}

/// Seed 24 filmed at a webcam's 30 frames a second. Once Ann has drawn
/// her 4H, the finder's second box on it reads 4D, 0.78 of the votes with
/// 4H its second reading, for as long as it lies there; and a box passing
/// over her 4C once it has landed reads 8D for five frames (167 ms, as
/// long as a card must lie still to count and more). Neither is a card
/// (both seen in the live table's sittings at 30 fps): the ledger is kept.
#[test]
fn at_30_fps_boxes_read_unsurely_on_a_card_drawn_are_no_cards() {
    let dir = rendered_sitting("play-30-fps", 24, 2, 3, "480x270", &["--fps", "30"]);
    let (four_h, four_c) = (
        first_frame_showing(&dir, "4H"),
        first_frame_showing(&dir, "4C"),
    );
    let boxes =
        |f: u64, label: &Value, readings: &mut Vec<Seen>| {
            if f > four_h + 10 {
                readings.extend(second_box(label, "4H", "4D", [0.12, 0.08]).into_iter().map(
                    |mut s| {
                        s.confidence = 0.78;
                        s.others = vec![("4H".to_owned(), 0.04)];
                        s
                    },
                ));
            }
            if (four_c + 10..four_c + 15).contains(&f) {
                readings.extend(second_box(label, "4C", "8D", [0.1, 0.1]).into_iter().map(
                    |mut s| {
                        s.confidence = 0.6;
                        s
                    },
                ));
            }
        };
    let play = play_answering_altered(&dir, &[], &boxes);
    assert_truth(&play, &dir);
}

/// Seed 69 filmed at 30 frames a second. Ann, dealing, is dealt the AC
/// onto her JS and declares her natural; Bob, holding the KH and the AH,
/// and Cat turn their cards up in the frame she declares it, and the camera
/// sees them before her word goes in (her JS, its face not yet read, a
/// back for six frames more, as the real recogniser saw it). Bob's natural,
/// found first, was paid, and her natural was refused ("the dealer
/// declares his natural at once, before the players'"). The dealer's
/// natural goes in first, the cards turned up are shown after it, and
/// Bob's natural ties hers.
#[test]
fn the_dealers_natural_said_after_a_players_turned_up_goes_first_and_ties_it() {
    let dir = rendered_sitting(
        "play-30-fps-naturals",
        69,
        2,
        3,
        "480x270",
        &["--fps", "30"],
    );
    let turned = first_frame_showing(&dir, "JS");
    let unread = move |f: u64, _: &Value, readings: &mut Vec<Seen>| {
        if (turned..turned + 6).contains(&f) {
            for seen in readings.iter_mut().filter(|s| s.card == "JS") {
                *seen = Seen::new("back", 0.99, seen.bbox);
            }
        }
    };
    let play = play_answering_altered(&dir, &[], &unread);
    assert_truth(&play, &dir);
    assert_not_asked(&play, "natural");
}

/// A sitting's labels (with bad frames) through the table, its dealer
/// answering when the showdown waits for a card the camera cannot read.
fn play_answering(dir: &Path) -> Play {
    play_answering_without(dir, &[])
}

/// [`play_answering`] with the frames `cut` taken out of the recording, as
/// if what they show had not happened: the frames after them, and the
/// dealer's lines said then, come that much sooner.
fn play_answering_without(dir: &Path, cut: &[u64]) -> Play {
    play_answering_with(dir, cut, &|_, _| Vec::new())
}

/// [`play_answering_without`], the recogniser also reading what `also`
/// finds in each frame's label.
fn play_answering_with(dir: &Path, cut: &[u64], also: &dyn Fn(u64, &Value) -> Vec<Seen>) -> Play {
    play_answering_altered(dir, cut, &|f, label, readings| {
        readings.extend(also(f, label));
    })
}

/// [`play_answering_without`], each frame's readings (from its label)
/// altered by `alter` before the bad frames spoil them.
fn play_answering_altered(
    dir: &Path,
    cut: &[u64],
    alter: &dyn Fn(u64, &Value, &mut Vec<Seen>),
) -> Play {
    play_answering_late(dir, cut, alter, 0, true, 0..0)
}

/// [`play_answering_altered`], the dealer answering the table only from
/// frame `answers_from` on, and its doubts about a card only if `doubts`;
/// the camera giving no frame while `out` (unplugged: the table goes on).
fn play_answering_late(
    dir: &Path,
    cut: &[u64],
    alter: &dyn Fn(u64, &Value, &mut Vec<Seen>),
    answers_from: u64,
    doubts: bool,
    out: std::ops::Range<u64>,
) -> Play {
    // RUST_LOG=pone_vision::play=debug shows how the table saw it.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_test_writer()
        .try_init();
    let info = json(&dir.join("sitting.json"));
    let frames = info["frames"].as_u64().expect("frames");
    let fps = info["fps"].as_u64().expect("fps");
    let sooner = |frame: u64| frame - cut.iter().filter(|&&c| c < frame).count() as u64;
    let text = std::fs::read_to_string(dir.join("dealer.jsonl")).expect("dealer.jsonl");
    let mut script = DealerScript::parse(&text).expect("the dealer's script reads");
    for (frame, _) in &mut script.lines {
        *frame = sooner(*frame);
    }
    let rate = f32::from(u16::try_from(fps).expect("a frame rate"));
    let mut play = Play::new(script, rate, TrackerOptions::default()).expect("a table");
    let mut dealer = LabelDealer::new(dir);
    if !doubts {
        dealer = dealer.leaving_doubts();
    }
    for f in (0..frames).filter(|f| !cut.contains(f) && !out.contains(f)) {
        let label = json(&dir.join(format!("labels/{f:06}.json")));
        let mut readings = perfect_readings(&label);
        alter(f, &label, &mut readings);
        let at = sooner(f);
        spoil(at, &mut readings);
        play.frame(at, Duration::from_millis(at * 1000 / fps), &readings);
        if f >= answers_from {
            dealer.answer(&mut play, f);
        }
    }
    play.finish();
    // The recording ends at the showdown: the table asks at once, a hand
    // at a time.
    while dealer.answer(&mut play, frames - 1).is_some() {
        play.finish();
    }
    play
}

/// At two players the pone is eldest hand, and his pile lies beside his
/// place: after a round's cards are gathered, the pile coming to rest there
/// (seed 21, before the second round) is taken for his first card until
/// his card comes to rest nearer his place while the deal is due the
/// dealer; then the pile is the pile, and that card his.
#[test]
fn the_pile_coming_to_rest_beside_eldest_hand_is_not_his_card() {
    let dir = sitting("play-pile-beside", 21, 3, 2, "1280x720");
    assert_truth(&play_answering(&dir), &dir);
}

/// The camera out for `len` frames from each of `starts`, in turn, on
/// seed 12's sitting (2 rounds, 3 players): the table keeps its state
/// meanwhile, the dealer's words going in as he says them, and what was
/// dealt while it was out is found lying there on its return. The windows
/// that lose the ledger, with what it came to and the questions asked.
fn camera_out_losses(seed: u64, starts: impl Iterator<Item = u64>, len: u64) -> Vec<String> {
    let dir = sitting(&format!("play-camera-out-{seed}"), seed, 2, 3, "480x270");
    let truth = truth_ledger(&dir)["balances"].clone();
    let mut lost = Vec::new();
    for from in starts {
        let out = from..from + len;
        let play = play_answering_late(&dir, &[], &|_, _, _| {}, 0, true, out.clone());
        let balances = report::to_json(play.game())["balances"].clone();
        if balances != truth {
            lost.push(format!(
                "out for frames {out:?}: {balances}, not {truth} ({:?})",
                play.questions()
            ));
        }
    }
    lost
}

/// The camera out for 1.5 s, from every half second of seed 12 at 10 fps
/// (frames 11 to 175: while the first cards go round, the second, the
/// draw, the showdown, between the rounds), loses nothing. On its return
/// the cards it finds lying there go in as the deal asks for them, between
/// the dealer's words said meanwhile (`Play::due_seats_card_found`: before
/// session 38 the words went in first, and the cards went to the wrong
/// seats in 5 of these windows); a dealer's "over" for a hand the camera
/// saw at 21 or less asks him for the card drawn (`Play::over_contradicted`:
/// Ann drew the 3H and the TD and threw her cards to the pone while the
/// camera was out); and out while the first cards went round, it asks him
/// to show the seats' places (`Play::places_wanted`: the places are
/// learned from the first cards, in the deal's order, which it did not
/// see).
#[test]
fn the_camera_out_for_a_moment_while_the_cards_go_round_and_are_drawn_loses_nothing() {
    let lost = camera_out_losses(12, (11..=160).step_by(5), 15);
    assert!(lost.is_empty(), "{}", lost.join("\n"));
}

/// The camera unplugged for 3 s and plugged in again, at each of the
/// sitting's moments in turn (seed 12, every 4 s from its first card):
/// while the cards go round, while the players draw, at the showdown, and
/// between the rounds; the ledger is kept. Out from 5.1 s to 8.1 s the
/// players draw, say they are content, and the hands are turned up and
/// gathered; the camera sees them one frame, so it asks the dealer for the
/// cards each player drew meanwhile (`Play::drawn_unseen_wanted`: a card,
/// or Y for none), and for the hands at the showdown at once
/// (`Play::ask_for_hidden_cards`, the camera out this round).
#[test]
fn the_camera_out_for_three_seconds_loses_nothing() {
    let lost = camera_out_losses(12, (11..150).step_by(40), 30);
    assert!(lost.is_empty(), "{}", lost.join("\n"));
}

/// The camera out while a player draws two cards (seed 36: Ann's 2H and
/// 6H land at frames 67 and 73): on its return it finds both lying at her
/// place at once. Cards are dealt one at a time, so two coming to rest
/// together at one seat's place are one card found twice, except when both
/// were dealt while the camera was out: then each is a card (before, the
/// 6H was taken for the 2H found again, and the 2H was lost).
#[test]
fn two_cards_drawn_while_the_camera_was_out_are_two_cards() {
    let lost = camera_out_losses(36, (58..=68).step_by(2), 12);
    assert!(lost.is_empty(), "{}", lost.join("\n"));
}

/// Through the real recogniser, a camera's 30 frames a second, with the
/// camera unplugged from 7 s to 8 s (`pone play --camera-out`): Ann draws
/// the 2H onto her face-down 2S and the 6H onto the 2H meanwhile. On its
/// return the 2H lies where the 2S lay, the 2S unseen, and the 6H lies on
/// the 2H: before, the 2H was taken for the 2S turned up and the 6H for
/// the 2H's face found twice, and Ann's drawn Vingt-un was lost. A
/// player's first two cards are never shown while he draws, so the 2H is
/// a card drawn onto the 2S (`Play::drawn_onto_a_back`), and a second
/// face read surely on it is a card of its own (the tracker).
#[test]
fn cards_drawn_onto_a_face_down_card_while_the_camera_was_out_are_drawn_cards() {
    let dir = rendered_sitting("play-out-drawn-on", 36, 2, 3, "1280x720", &["--fps", "30"]);
    let (ledger, said) = played_with_the_camera_out(&dir, "7-8");
    assert!(said.contains("unplugged from 7.0 s to 8.0 s"), "{said}");
    assert_eq!(ledger["balances"], truth_ledger(&dir)["balances"], "{said}");
}

/// Through the real recogniser at a camera's 30 frames a second, two
/// sittings found blind, where a card shown was found again and taken for a
/// card the dealer drew:
/// - seed 58: at the second round's showdown Ann's hand (4D, TD, the 6D
///   drawn) is turned up. The 4D is shown first from the finder's second
///   box on her hand, found as the 6D landed; her first card's own box,
///   turning up a frame later, reads 4H at 0.32. It lies mostly on the 4D
///   shown, so it is that card found again (`Play::found_again_on_a_card`):
///   before, it went to Bob, drawing, and his "content" was refused.
/// - seed 61: a box reading 2S at 0.58 lies squarely on the dealer's AC
///   just turned up (their boxes 0.83 one another): that card misread
///   (`tracker::SQUARELY`), where before it made his 19 a 21.
#[test]
fn at_30_fps_a_card_shown_found_again_is_no_card_drawn() {
    for seed in [58, 61] {
        let name = format!("play-shown-again-{seed}");
        let dir = rendered_sitting(&name, seed, 2, 3, "1280x720", &["--fps", "30"]);
        let (ledger, said) = played_headless(&dir, &[]);
        assert_eq!(
            ledger["balances"],
            truth_ledger(&dir)["balances"],
            "seed {seed}: {said}"
        );
        if seed == 58 {
            assert!(!said.contains("was refused"), "{said}");
        }
    }
}

/// `pone play --headless --json` on a rendered sitting, with the camera
/// out for `window` (`--camera-out`): the ledger, and what it said.
fn played_with_the_camera_out(dir: &Path, window: &str) -> (Value, String) {
    played_headless(dir, &["--camera-out", window])
}

/// `pone play --headless --json` on a rendered sitting with its dealer's
/// script, and `more` arguments: the ledger, and what it said.
fn played_headless(dir: &Path, more: &[&str]) -> (Value, String) {
    let dealer = dir.join("dealer.jsonl");
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "play".as_ref(),
        "--source".as_ref(),
        dir.as_os_str(),
        "--dealer".as_ref(),
        dealer.as_os_str(),
        "--headless".as_ref(),
        "--json".as_ref(),
    ];
    args.extend(more.iter().map(std::ffi::OsStr::new));
    let out = pone_ok(args);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    let ledger = serde_json::from_slice(&out.stdout).expect("the ledger as JSON");
    (ledger, said)
}

/// The sitting in `dir`, played headless with its dealer's answers, ends
/// with the truth's ledger (`ledger_kept`).
fn played_headless_keeps_the_ledger(dir: &Path) {
    let (ledger, said) = played_headless(dir, &[]);
    assert_eq!(
        ledger_kept(&ledger),
        ledger_kept(&truth_ledger(dir)),
        "{said}"
    );
}

/// A ledger's balances, its rounds played and whether one is in play: what
/// a sitting played must end with, as its truth does (a card taken for the
/// next round's first opens a round the recording never dealt).
fn ledger_kept(ledger: &Value) -> (Value, usize, Value) {
    let rounds = ledger["rounds"].as_array().map_or(0, Vec::len);
    (
        ledger["balances"].clone(),
        rounds,
        ledger["round_in_play"].clone(),
    )
}

/// Seed `seed`'s rendered sitting (2 rounds, 3 players, 1280x720, 10 fps)
/// played with the camera out over each of `windows` keeps its ledger, and
/// opens no round the recording never dealt.
fn camera_out_keeps_the_ledger(kind: &str, seed: u64, windows: &[&str]) {
    let dir = rendered_sitting(
        &format!("play-out-{kind}-{seed}"),
        seed,
        2,
        3,
        "1280x720",
        &[],
    );
    let truth = truth_ledger(&dir);
    for window in windows {
        let (ledger, said) = played_with_the_camera_out(&dir, window);
        assert_eq!(
            ledger_kept(&ledger),
            ledger_kept(&truth),
            "seed {seed}, out {window} s: {said}"
        );
    }
}

/// The camera out for 1.5 s at 10 fps over the draw, the showdown and the
/// gathering of a round's cards, through the real recogniser.
///
/// Over the showdown and the gathering, from 7 s. Seed 22: the cards gone
/// unseen are dropped at once, so the next round's first card, landing
/// where Bob's last lay, is a card (it was taken for that one, and every
/// card after went one seat astray); and a card landing while the dealer
/// is yet to be asked for the card due waits for his answer. Seed 18: the
/// dealer's AC, drawn under his 8H while the camera was out, is asked for,
/// though a card of the round the tracker followed onto the pone's pile is
/// still seen there. Seed 21: the dealer's "content", said while the
/// camera was out, goes in before he is asked for a card. Seed 14: the
/// cards gone are dropped while the showdown waits too, though the tracker
/// followed one onto the new pile.
///
/// Over the draw. From 3 s, seed 14: Cat's "content", said after the
/// camera's return as her card drawn came to rest, goes in after it. From
/// 5 s, seed 16: Ann's JS, drawn onto her face-down 2H and found in a box
/// of its own, is a card drawn, not the 2H turned up, and goes in before
/// her "content" said meanwhile. From 15 s, seed 15: Bob's "content",
/// refused while the dealer is asked for Ann's card drawn unseen, is said
/// again once it goes in. From 17 s, seed 16: the recording ends as the
/// camera's return is caught up, and the card due is asked for. From 3 s
/// and from 7 s, seed 25: Bob, dealing, turned up his 4C, drew the JC and
/// was over, and the round's cards were gathered, all unseen: asked for
/// his hand, the dealer shows JD 4C JC, and the round settles (the table
/// waited for his next card for ever). From 5 s, seed 25: Ann divided her
/// AC and AH, dealt face down, and drew to each; the AH, found pulled
/// apart on the return, is her second hand's, and the divide goes in
/// before the cards drawn (the AH went in as a card drawn, and the divide
/// was refused). From 7 s, seed 20: Ann divided her
/// pair a second time meanwhile; the QS found by her hand 2 goes to it,
/// and the 6S by her hand 1 goes to it after the divide (it went to hand
/// 2, and the 6S before the divide would have made hand 1 over). From 7
/// s, seed 23: the round ends as the camera's return is caught up, and
/// Bob's first card of the next round, found where his face-down card had
/// lain though all of his cards lay face up, is a card come since. From
/// 13 s, seed 23: the dealer drew and was over and the cards were
/// gathered, all unseen, the tracker finding every card gone: his card is
/// asked for (nothing was, and the round never ended). From 15 s, seed
/// 25: Bob turned up his 8H and 8C together, divided them and drew to
/// each hand, the cards found on the return going to the hand they lie by
/// (his hands were each the other's). From 9 s, seed 25: the next round's
/// stakes, refused while the dealer was asked for his JC, are said again
/// once it goes in, though it ends the round. From 13 s, seed 20: the
/// round's cards came to rest a moment at Ann's place on their way to the
/// pone, and her next first card, found there on the return, is a new card
/// (it was taken for them, and the pone's pile, found with it a card's
/// length and more from her place, went in as her card). From 3 s, seed
/// 15: the second cards were dealt meanwhile, each onto the first, and Ann's
/// was boxed as one with her first; the dealer is asked for Ann's and Bob's,
/// and Cat's 7C, boxed on its own after the return, is no second box of her
/// 3D (it took the 3D's place, and her 4D drawn onto it went for its second
/// box). From 9 s, seed 109 (blind): the pone's pile, boxed on the return
/// a frame after Cat's and Ann's next first cards, is the pile still, and
/// goes first (it went in as Bob's first card, and his as Cat's second).
/// From 13 s, seed 116 (blind): Cat, dealing, drew and was over, and the
/// cards were gathered a frame after the return onto a pile a card's
/// length from Bob's place; at the recording's end her cards out of sight
/// are enough to ask for her card (Bob's, followed onto the pile, stayed in
/// sight, nothing was asked, and the round went unsettled). From 7 s to
/// 10 s, seed 119 (blind, the camera out for 3 s): Bob, dealing, drew and
/// was over, the cards were gathered, and Cat's and Ann's next first cards
/// were dealt where their first lay, all unseen; each, the only one of its
/// seat's cards found again, is gone with the round, and the next round's
/// card (the table kept the round on for ever, every balance 0). From 4 s
/// to 7 s, seed 114 (blind): Ann, dealing, was dealt the AC and declared
/// her natural, the cards were gathered, and Bob's next first card was
/// dealt where his first lay, all unseen; asked for her card, the dealer
/// gives the first round's AC, and Bob's and Cat's cards found again, each
/// the only one of its seat's found again, are the next round's (the deal
/// went a card out of step). From 7 s to 10 s, seed 118 (blind): the
/// showdown and the gathering, and Cat's and Ann's next first cards dealt
/// where second boxes on their cards lay, all unseen; once the dealer shows
/// the hands, those boxes are the next round's first cards. From 7 s, seed
/// 121 (blind): Ann, dealing, drew and was over, and the cards were
/// gathered, all unseen; Bob's next first card, come to rest as the return
/// was caught up and the round found gone, waits as the next round's (it
/// went in at once, as a card she drew face down, for nothing). From 13 s,
/// seed 51: Bob's 6H lies on his TS, covering two fifths of it, and only
/// the 6H is found again on the return; the TS, dealt before it and partly
/// under it, is hidden, not gathered, so the 6H is no next round's first
/// card (it opened a third round the recording never dealt). From 13 s,
/// seed 70: a box on Cat's 2C, come to rest a frame after the return while
/// the showdown waited, lies where the 2C lay, not yet gone: once the
/// dealer's shows settle the round it is no next round's first card (it
/// opened a third round the recording never dealt).
#[test]
fn the_camera_out_over_the_draw_the_showdown_and_the_gathering_loses_nothing() {
    for (seed, windows) in [
        (14, &["3-4.5", "7-8.5"][..]),
        (15, &["3-4.5", "15-16.5"]),
        (16, &["5-6.5", "17-18.5"]),
        (18, &["7-8.5"]),
        (20, &["7-8.5", "13-14.5"]),
        (21, &["7-8.5"]),
        (22, &["7-8.5"]),
        (23, &["7-8.5", "13-14.5"]),
        (25, &["3-4.5", "5-6.5", "7-8.5", "9-10.5", "15-16.5"]),
        (109, &["9-10.5"]),
        (114, &["4-7"]),
        (116, &["13-14.5"]),
        (118, &["7-10"]),
        (119, &["7-10"]),
        (121, &["7-8.5"]),
        (51, &["13-14.5"]),
        (70, &["13-14.5"]),
    ] {
        camera_out_keeps_the_ledger("gathered", seed, windows);
    }
}

/// The camera out for 3 s at 10 fps, through the real recogniser, over
/// cards partly hidden on its return (blind seeds, looked into once lost).
/// From 4 s, seed 127: Cat's second card, the QS, landed face down in the
/// camera's last frame and was never counted, and her 4H, drawn face up
/// onto it, went in as her second card; the dealer's show of her hand,
/// 4C QS 4H, puts the QS in as her second card and the 4H as drawn (it was
/// refused, and the round never settled). From 10 s, seed 127: on the
/// return the pone's pile, cut by the frame's top edge by Cat's place, is
/// the pile, lying where the rest of it is, off the frame (it went in as
/// Ann's first card); a strip of Bob's next first card, seen past the
/// dealer's arm, is his card, not the pile (it lay a card's length of its
/// own from his place); and Cat's second card, come to rest two frames
/// before Bob's, hidden under the arm, waits for it (each went to the
/// other). From 10 s, seed 121: Ann's second card lay under her first,
/// boxed as one with it, and Bob's 3D, drawn face up, is a card drawn past
/// her card, which is asked for (it went in as hers).
#[test]
fn the_camera_out_for_three_seconds_over_cards_partly_hidden_loses_nothing() {
    for (seed, windows) in [(127, &["4-7", "10-13"][..]), (121, &["10-13"])] {
        camera_out_keeps_the_ledger("hidden", seed, windows);
    }
}

/// Seed 67 (3 rounds), the camera out from 15 s to 16.5 s at 10 fps,
/// through the real recogniser: Bob, dealing, drew the 5C in the camera's
/// last frame, and said "content" then. The 5C, in flight in that frame,
/// had not lain still long enough to count, and the round's cards were
/// gathered before the camera's return. His word counts as said while the
/// camera was out, so the dealer is asked for his card drawn unseen (it
/// was settled without it, his 21 taken for 16). With 2 rounds the camera
/// comes back on the recording's last frame: the table still asks for the
/// card before his word goes in, and his answer goes in first
/// (`Play::finish_asking`; his word went in alone).
#[test]
fn a_word_said_in_the_cameras_last_frame_as_a_card_came_to_rest_asks_for_it() {
    for (rounds, name) in [(3, "play-out-last-frame-67"), (2, "play-out-gathered-67")] {
        let dir = rendered_sitting(name, 67, rounds, 3, "1280x720", &[]);
        let (ledger, said) = played_with_the_camera_out(&dir, "15-16.5");
        assert_eq!(
            ledger["balances"],
            truth_ledger(&dir)["balances"],
            "{rounds} rounds: {said}"
        );
        assert!(
            said.contains("Bob's card: the camera was out while Bob drew"),
            "{rounds} rounds: {said}"
        );
    }
}

/// The camera out for 1.5 s at 10 fps as cards are turned up, drawn one
/// under the next, or gathered, through the real recogniser (seeds first
/// played with the camera out blind, in session 44).
///
/// Seed 24, from 13 s: Ann's 4C, dealt onto her 4H two frames after the
/// camera's return, is a card of its own (it was taken for the 4H's second
/// box). Seed 26, from 13 s: Ann, dealing, turned up her 4C and drew the 8D
/// onto it, then the TS; the dealer is asked for her hand, whole (the 8D
/// was taken for the 4C turned up). Seed 28, from 15 s: Ann's 6H, turned
/// up and found where its back lay, is that card turned up, not a card
/// drawn. Seed 29, from 5 s: Bob's 2S, drawn under his 9H and never found,
/// is asked for once the cards found have gone in. Seed 31, from 5 s: Cat
/// drew none, the dealer says, so her 6C turned up and found at her place
/// is no card drawn; from 7 s: the next round's first cards, dealt where
/// the last round's faces lay, are new cards, and the pone's pile, found
/// with them, goes first. Seed 46, from 3 s: Cat turns up her KS and AH
/// for her natural two frames after the return; the KS is her first card
/// turned up, not a card drawn, though the finder had boxed a part of it
/// on the return (a face lying just where a counted back lies is that back
/// turned up, not a box not counted that has only shown a back where it
/// was found). Seed 59, from 11 s:
/// Cat drew the QS as the camera went and said "over" meanwhile; the
/// dealer types the QS at the desk as asked, and it goes in at once, before
/// Ann's 8S found on the return (which went to Cat when the wait for his
/// answer ended before his line's turn). Seed 69, from 3 s: the second
/// cards were dealt meanwhile, and Ann, dealing, declared her natural as
/// the camera came back; the cards found turned up on the return go in
/// after her natural ended the round, and Bob's KH turned up onto his AH
/// is a natural that ties hers. Seed 76, from 11 s: Bob's 3H, drawn face
/// up onto his 3C two frames after the return, is a card of its own (a
/// face-down card's second box shows its back), and Cat's 6S, turned up
/// in a box the camera never gave a seat after the dealer gave her a card
/// face down by his word, is that card turned up (the round never settled).
/// Seed 20, from 5 s: Ann divided her eights meanwhile; her 8S, pulled
/// away, is shown as her second hand, and her 8D, drawn where it had lain
/// and found turned up there on the return, is a card drawn, not a card a
/// show of hers named (only the dealer's own show names cards so). Seed
/// 102 (blind), from 3 s: Ann turned up her AS and TD for her natural as
/// the second cards went round; the AS, found on the return where her first
/// card lay as her second was due, is that card turned up, not her second
/// (her TD went to Bob as a card he drew). Seed 113 (blind), from 4 s to
/// 7 s: Cat's AD and Ann's JS were dealt, Cat declared her natural, and Bob
/// drew; on the return a box on Bob's first card, read 9D, is found at his
/// place as he is due to draw. Her natural, said meanwhile, goes in before
/// any card he drew (it was refused as too late, and his hand was lost).
#[test]
fn the_camera_out_over_cards_turned_up_or_drawn_under_the_next_loses_nothing() {
    for (seed, windows) in [
        (20, &["5-6.5"][..]),
        (24, &["13-14.5"]),
        (26, &["13-14.5"]),
        (28, &["15-16.5"]),
        (29, &["5-6.5"]),
        (31, &["5-6.5", "7-8.5"]),
        (46, &["3-4.5"]),
        (59, &["11-12.5"]),
        (69, &["3-4.5"]),
        (76, &["11-12.5"]),
        (102, &["3-4.5"]),
        (113, &["4-7"]),
    ] {
        camera_out_keeps_the_ledger("turned", seed, windows);
    }
}

/// The camera out for 1.5 s at 10 fps over the showdown, or over the
/// second cards dealt onto the first, through the real recogniser.
///
/// Seed 33, from 3 s: on the return the finder boxes the part of Bob's KH
/// left in sight beside his 7S, dealt onto it; that box is no card (it took
/// the KH's face when it was turned up, and the KH went in as a card Bob
/// drew). Seed 37, from 7 s: the dealer's "content" was said meanwhile, so
/// Ann's 7C, found turned up on the return, is her card turned up at the
/// showdown, not a card drawn; the dealer, asked for his whole hand, names
/// his 4H, found turned up after, which is no new card. Seed 38, from 15 s:
/// the showdown came meanwhile, and Cat's 6H and 8H, found turned up a
/// third of a card from where their backs lay (gathered since), are her
/// cards turned up, not cards drawn. Seed 44, from 9 s: the pone's pile,
/// found on the return with the next round's first cards a card's length
/// from Ann's, is the pile, not her card. Seed 45, from 7 s: the first pile
/// ever, found on the return just inside a card's length from Cat's place
/// while her first card is due, lies off the place of her first cards, and
/// is the pile (it went in as her card). Seed 43, from 11 s: Bob's two
/// cards, boxed as one on the return, drew none; the rendered sitting's
/// dealer, asked for a card he drew unseen, says none (he named the round
/// before's third card, refused as in the pile). Seed 50, from 15 s: Bob's
/// 6D, found turned up half under his TC on the return, first read QD at
/// 0.39, then as 6D surely in a box of its own once the catch-up had
/// settled the round: the card shown is read again (it stayed QD, and Bob's
/// 16, counted 20, beat the dealer's 18). Seed 32, from 7 s: Cat, holding
/// the 9H and the 2H face down and the 6C drawn, said "content", and Ann,
/// dealing, drew and was over; on the return Cat's 2H (read 7D) lies where
/// its back came to rest, 28 pixels from where it showed under the 6C
/// (`Play::turned_up_unseen` looks at both), and her 9H turns up on a box
/// whose back the tracker had followed onto Bob's cards thrown to the pile
/// (`Play::drawing_onto`: a back on the pile is none at her place). Both
/// went in as cards Cat drew, her "content" was refused, and the next
/// round was lost. Seed 73, from 5 s: Cat, dealing, turned up her cards
/// and drew over 21 meanwhile, no word said; her cards found turned up on
/// the return say the showdown came, so Bob's TD, found turned up there
/// too, is his card turned up, not a card he drew. Seed 74, from 17 s:
/// Ann's JD, turned up for the showdown meanwhile, read QD at 0.58, and JD
/// at 0.98 in a box of its own lying on it; the card turned up goes first,
/// and the JD reads it again (it went in as a card she drew, and her hand
/// was lost). Seed 49, from 15 s: Cat, dealing, turned up her aces to
/// divide as Bob's last card, the 9H, came to rest on his 8S; she drew
/// none meanwhile, so no showdown came, and the 9H, lying on the 8S read
/// fairly surely, is a card Bob drew (it read the 8S again). Seed 81,
/// from 13 s: Bob's cards, thrown to the pone at 6.5 s, lay at the frame's
/// edge by Cat's place; found there on the return, they are the pile still,
/// not a card (they went in as Ann's second card, hers was lost, and her 23
/// went unseen). Seed 90, from 13 s: Bob's 4C, turned up for the showdown
/// meanwhile, went in as a card he drew; the dealer, asked for his hand,
/// names it as his first card, and the card drawn is struck (his hand kept
/// a card face down, and the round never settled). Seed 85, from 15 s:
/// Cat's QS, drawn onto her 3H before the camera went, was taken for the
/// 3H turned up; the dealer names it as her third card, and the card turned
/// up becomes that card drawn (her hand was refused). Seed 89, from 13 s:
/// Cat's 2H, drawn while the camera was out, lay under the 4C she drew
/// next, never seen; the dealer names it in her hand, and it goes in
/// before the 4C, the lines after struck and put in again (her hand was
/// refused). Seed 92, from 13 s: Ann, dealing, shows her hand whole as the
/// table asks; her 8S, found turned up on the return and read 8C, is that
/// card, not a card she drew (it made her over). Seed 97, from 11 s: Ann's
/// 3S, her second card, was turned up as her first, and her 2H drawn was
/// never seen; her hand shown names it after the 3S (it was refused).
#[test]
fn the_camera_out_over_the_showdown_or_a_card_half_hidden_loses_nothing() {
    for (seed, windows) in [
        (32, &["7-8.5"][..]),
        (33, &["3-4.5"]),
        (37, &["7-8.5"]),
        (38, &["15-16.5"]),
        (43, &["11-12.5"]),
        (44, &["9-10.5"]),
        (45, &["7-8.5"]),
        (49, &["15-16.5"]),
        (50, &["15-16.5"]),
        (73, &["5-6.5"]),
        (74, &["17-18.5"]),
        (81, &["13-14.5"]),
        (85, &["15-16.5"]),
        (89, &["13-14.5"]),
        (90, &["13-14.5"]),
        (92, &["13-14.5"]),
        (97, &["11-12.5"]),
    ] {
        camera_out_keeps_the_ledger("showdown", seed, windows);
    }
}

/// The camera out for 1.5 s at 10 fps, through the real recogniser, seed
/// 74 from 5 s: Bob, dealing, turned up his AS and AC meanwhile and
/// divides them after the return. Asked for his hand whole, he names the
/// AS alone (his first hand once divided): his answer ends the wait, and
/// the 7C dealt onto the AS goes in as the camera sees it come (it waited
/// five seconds, until the round's cards were gathered, and was then asked
/// for).
#[test]
fn the_dealers_answer_ends_the_wait_though_he_divided_his_pair_after() {
    let dir = rendered_sitting("play-out-divided-74", 74, 2, 3, "1280x720", &[]);
    let (ledger, said) = played_with_the_camera_out(&dir, "5-6.5");
    assert_eq!(
        ledger_kept(&ledger),
        ledger_kept(&truth_ledger(&dir)),
        "{said}"
    );
    assert!(
        !said.contains("went from the table before the camera saw it"),
        "{said}"
    );
}

/// Seed 20: Bob over-draws and throws his cards to the pone, whose pile
/// first comes to rest a card's length from Bob's place while the engine still
/// waits for Bob (his "over" comes a moment later): a face-down card in the
/// draw is no drawn card. Seed 35: a drawn card lies almost square on the
/// card before it, hiding its index: a surely read new face on a counted face
/// is a new card. Both end on a showdown the recording cuts short.
#[test]
fn a_hand_thrown_to_the_pone_and_a_card_dealt_onto_another_keep_the_ledger() {
    for seed in [20, 35] {
        let dir = sitting(&format!("play-thrown-{seed}"), seed, 3, 5, "480x270");
        assert_truth(&play_answering(&dir), &dir);
    }
}

/// Through the real recogniser at 10 fps, seed 24: the showdown waits for
/// the dealer's hand (her 5S turned up unread), and as the recording ends
/// the hands are turned face down where they lay and gathered. The backs of
/// Ann's hand, come to rest a frame after her faces went from sight, are
/// her cards turned down (`Play::turned_down_to_gather`), not her first
/// card of a third round the recording never dealt.
#[test]
fn a_hand_turned_down_to_be_gathered_is_no_next_rounds_card() {
    let dir = rendered_sitting("play-turned-down", 24, 2, 3, "1280x720", &[]);
    played_headless_keeps_the_ledger(&dir);
}

/// Through the real recogniser at 10 fps, 5 players, seed 212: the pone's
/// pile lies half out of the frame's top edge, near Bob's place. The round's
/// cards gathered come to rest there, a card's length from where Bob's 9S
/// lay by their box in sight, but past the edge, where the card lies, they
/// are farther: the pile (`Play::turned_down_to_gather` measures from the
/// card past the edge), not his cards turned down where they lay. Taken
/// for those, the pile was never known, and a box found on it as the next
/// round's second cards went round went in as Bob's card, and another as
/// Cat's.
#[test]
fn a_pile_half_out_of_the_frame_near_a_seat_is_no_card_dealt() {
    let dir = rendered_sitting("play-pile-at-the-edge", 212, 2, 5, "1280x720", &[]);
    played_headless_keeps_the_ledger(&dir);
}

/// Perfect readings (with bad frames) over many sittings, 3 to 5 players:
/// minutes of rendering, so run by hand (`--include-ignored`). Every seed
/// here keeps its ledger.
#[test]
#[ignore = "minutes: run by hand with --include-ignored"]
fn perfect_readings_keep_the_ledger_of_many_sittings() {
    let mut wrong = Vec::new();
    for seed in 21..=100u64 {
        let players = 3 + (seed % 3) as u32;
        let dir = sitting(&format!("play-many-{seed}"), seed, 3, players, "480x270");
        let play = play_answering(&dir);
        if report::to_json(play.game())["balances"] != truth_ledger(&dir)["balances"] {
            // Held until the end: a failing test keeps their folders.
            wrong.push((seed, dir));
        }
    }
    let named: Vec<String> = wrong
        .iter()
        .map(|(seed, dir)| format!("seed {seed}: {}", dir.display()))
        .collect();
    assert!(wrong.is_empty(), "{named:?}");
}

/// The pack runs out in the fourth round (seed 3: 5 players, 6 rounds):
/// the dealer passes the last card to the pone, who shuffles it with his
/// pile off the table, and the ledger is kept with no question about it.
/// The same sitting with the shuffle cut out (the last card dealt straight
/// on, as a learning dealer might) is told as a likely mistake, once; so is
/// the last card dealt after a pause as long, the pack and the pile lying
/// in their places all along. A quick pone, the pile seen taken up, is no
/// mistake, however soon the card comes.
#[test]
fn the_last_card_goes_to_the_pone_and_dealing_it_is_told() {
    let dir = sitting("play-last-card", 3, 6, 5, "480x270");
    let told = |play: &Play| {
        play.questions()
            .iter()
            .filter(|q| q.slip == Some(Slip::LastCardDealt))
            .count()
    };
    let play = play_answering(&dir);
    assert_truth(&play, &dir);
    assert_eq!(told(&play), 0, "{:?}", play.questions());

    // The shuffle: the frames after the deal began that show neither the
    // pack nor the pile.
    let shows = |f: u64, at: &str| {
        let label = json(&dir.join(format!("labels/{f:06}.json")));
        label["cards"]
            .as_array()
            .is_some_and(|cards| cards.iter().any(|c| c["role"]["at"] == at))
    };
    let frames = json(&dir.join("sitting.json"))["frames"]
        .as_u64()
        .expect("frames");
    let began = (0..frames).find(|&f| shows(f, "pack")).expect("a pack");
    let cut: Vec<u64> = (began..frames)
        .filter(|&f| !shows(f, "pack") && !shows(f, "pile"))
        .collect();
    assert!(cut.len() >= 30, "a shuffle of 4 s at 10 fps: {cut:?}");
    let play = play_answering_without(&dir, &cut);
    assert_eq!(told(&play), 1, "{:?}", play.questions());
    // The count of the pack is the same either way: the ledger stands.
    assert_truth(&play, &dir);

    // The dealer waiting as long as the shuffle took, the pack and the
    // pile in their places all along, then dealing the last card: told,
    // though the card came as late as one from a shuffled pack.
    let before = json(&dir.join(format!("labels/{:06}.json", cut[0] - 1)));
    let still = |f: u64, _: &Value, readings: &mut Vec<Seen>| {
        if cut.contains(&f) {
            *readings = perfect_readings(&before);
        }
    };
    let play = play_answering_altered(&dir, &[], &still);
    assert_eq!(told(&play), 1, "{:?}", play.questions());
    assert_truth(&play, &dir);

    // A quick pone: the pile off the table for 1.5 s of the 4, the card
    // from the new pack landing sooner after the one before than a shuffle
    // was thought to take (2.5 s): the camera saw the pile taken up, and
    // tells nothing.
    let quick = &cut[15..];
    let play = play_answering_without(&dir, quick);
    assert_eq!(told(&play), 0, "{:?}", play.questions());
    assert_truth(&play, &dir);
}

/// A learning dealer's slips, filmed (seed 35: 5 players, 3 rounds): in
/// round 2's first cards, card 14 (Ann's) lands at Bob's place, the next
/// seat's, and is moved to Ann's a moment later; in its second cards, card
/// 20 (Bob's) lands on Dan's first card, two seats on, and is moved to
/// Bob's; in round 3's first cards, card 26 (Cat's) lands at Eve's place,
/// and is moved to Cat's; Ann's drawn card, card 34, lands at Bob's place
/// and is moved to hers. The camera tells each once, as a player skipped,
/// a card dealt out of order (twice) and a card put at the wrong seat, and
/// the ledger is the same as the sitting's without them.
#[test]
fn a_card_dealt_to_the_next_seat_and_moved_is_told_as_the_dealers_slip() {
    let dir = slip_sitting();
    let cards = dealt(&dir);
    // Ann sits first.
    assert_eq!(cards[13].1, 0, "card 14 is Ann's first card of round 2");
    assert_eq!(cards[19].1, 1, "card 20 is Bob's second card of round 2");
    assert_eq!(cards[25].1, 2, "card 26 is Cat's first card of round 3");
    assert_eq!(cards[33].1, 0, "card 34 is Ann's drawn card of round 3");
    let play = play_answering(&dir);
    assert_truth(&play, &dir);
    let told: Vec<Slip> = play.questions().iter().filter_map(|q| q.slip).collect();
    assert_eq!(
        told,
        [
            Slip::PlayerSkipped,
            Slip::OutOfOrder,
            Slip::OutOfOrder,
            Slip::WrongSeat
        ],
        "{:?}",
        play.questions()
    );
}

/// The slip sitting's card 34 (Ann's drawn card, landing on Bob's
/// face-down hand and moved to her place), as the real recogniser at
/// 480x270 saw it: while it lies on Bob's backs, the back it covers most is
/// not found, so the tracker takes that back's box turning face up for Bob's
/// card turned up. No player's first two cards are shown while another
/// draws: it is a card dealt at Bob's place, given to Ann, told as the
/// dealer's slip, and the ledger is the truth's (before, it went in as Bob's
/// card turned up, and the dealer's answer made it his).
#[test]
fn a_face_dealt_onto_another_players_backs_in_the_draw_is_a_card_dealt_there() {
    let dir = slip_sitting();
    let truth = std::fs::read_to_string(dir.join("truth.jsonl")).expect("truth.jsonl");
    let card_34 = truth
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["t"] == "card")
        .nth(33)
        .and_then(|l| l["card"].as_str().map(str::to_owned))
        .expect("card 34, drawn face up");
    let play = play_answering_altered(&dir, &[], &|_, _, readings| {
        let Some(face) = readings.iter().find(|r| r.card == card_34).map(|r| r.bbox) else {
            return;
        };
        readings.retain(|r| r.card != "back" || share_of_smaller(r.bbox, face) < 0.6);
    });
    assert_truth(&play, &dir);
    let told: Vec<Slip> = play.questions().iter().filter_map(|q| q.slip).collect();
    assert_eq!(
        told.last(),
        Some(&Slip::WrongSeat),
        "{:?}",
        play.questions()
    );
    assert_not_asked(&play, "Bob's card turned up");
}

/// How much of the smaller of two boxes lies within the other.
fn share_of_smaller(a: [f32; 4], b: [f32; 4]) -> f32 {
    let w = (a[2].min(b[2]) - a[0].max(b[0])).max(0.0);
    let h = (a[3].min(b[3]) - a[1].max(b[1])).max(0.0);
    let area = |r: [f32; 4]| (r[2] - r[0]) * (r[3] - r[1]);
    w * h / area(a).min(area(b)).max(1.0)
}

/// The slip sitting (seed 35: 5 players, 3 rounds, 480x270) with its four
/// filmed slips: cards 14, 20 (two seats on), 26 (two seats on) and 34.
fn slip_sitting() -> Scratch {
    rendered_sitting(
        "play-slips",
        35,
        3,
        5,
        "480x270",
        &[
            "--slip", "14", "--slip", "20+2", "--slip", "26+2", "--slip", "34",
        ],
    )
}

/// The finder's second box on overlapping backs: for a few frames after a
/// card is dealt face down, it is also found as a smaller box in its lower
/// right part. Cards are dealt one at a time, so a
/// second find coming to rest with the card it lies on is no card (and the
/// larger box is the card), and the ledger is the truth's.
#[test]
fn a_face_down_card_found_twice_as_it_lands_is_one_card() {
    let dir = sitting("play-found-twice", 12, 2, 3, "480x270");
    let second_finds = second_backs(&dir, 0, lower_right);
    assert_truth(&play_answering_with(&dir, &[], &second_finds), &dir);
}

/// The finder's second box on a hand's backs may lie off the card just
/// dealt (over the seat's card beneath it, a third of it on the new one): a
/// card coming to rest within a frame of the last card dealt, at that same
/// seat's place (here while the deal is due elsewhere), is that card found twice,
/// not the next player's card.
#[test]
fn a_second_box_at_the_seat_of_the_card_just_dealt_is_that_card() {
    let dir = sitting("play-found-beside", 12, 2, 3, "480x270");
    let second_finds = second_backs(&dir, 0, up_left);
    assert_truth(&play_answering_with(&dir, &[], &second_finds), &dir);
}

/// The finder's second box on a card just dealt may steady a frame or two
/// after the card itself (here it is found from the second frame after the
/// card lands): still that card found twice, in the first round too, where
/// the seats' places are not learned yet and a card anywhere may be the next
/// player's.
#[test]
fn a_second_box_steadying_two_frames_after_the_card_is_that_card() {
    second_box_after_each_card_is_that_card("play-found-later", 2, lower_right);
}

/// The finder's second box on a player's first card may steady later still
/// (0.4 s after it, seed 23), when the next card is on its way to the next
/// player: lying on the card just dealt while the card due goes to another
/// seat, it is that card, not the next player's (which would teach his
/// place wrong for the whole sitting).
#[test]
fn a_second_box_steadying_late_on_the_card_just_dealt_is_that_card() {
    second_box_after_each_card_is_that_card("play-found-late", 4, lower_right);
}

/// The finder's box on a hand's two stacked backs may lie only half on the
/// card just dealt (seed 39: half a card up from it, steady 0.3 s after
/// it): at that card's seat while the card due goes to another seat, it is
/// that card found again, not the next player's card.
#[test]
fn a_second_box_half_on_the_card_just_dealt_at_its_seat_is_that_card() {
    second_box_after_each_card_is_that_card("play-found-half", 3, up_half);
}

/// The finder's box on a hand's stacked backs may be lost and found again
/// after the next seat's card has come to rest (the demo sittings at 5 and
/// 7 players, with session 28's finder, 0.8 and 1.3 s after the card): a
/// face-down box coming to rest at another seat's place than the one due,
/// mostly on a face-down card of that seat, while the first or second
/// cards go round, is that card found again, not the card due
/// (`Play::found_again_on_a_card`).
#[test]
fn a_back_found_again_after_the_next_seats_card_is_that_card() {
    second_box_after_each_card_is_that_card("play-found-after-next", 8, lower_right);
}

/// Seed 31 with the third player's first card unseen until the next card
/// dealt (the first player's second, onto his first) comes to rest: both
/// come to rest together while the third player's place is not learned
/// yet. The card at the first player's place is not the third player's:
/// the one away from every place known goes first, and the ledger is kept.
#[test]
fn a_first_card_seen_late_with_the_next_card_is_its_seats() {
    let dir = sitting("play-first-late", 31, 2, 3, "480x270");
    let dealt = dealt(&dir);
    let ((third, seat), (fourth, _)) = (dealt[2], dealt[3]);
    let late = |frame: u64, label: &Value, readings: &mut Vec<Seen>| {
        if !(third..fourth + 2).contains(&frame) {
            return;
        }
        // The third card dealt: the first card of its seat's hand.
        let Some(cards) = label["cards"].as_array() else {
            return;
        };
        let hidden: Vec<[f32; 4]> = cards
            .iter()
            .filter(|c| c["role"]["at"] == "hand" && c["role"]["position"] == 0)
            .filter(|c| c["role"]["seat"].as_u64() == Some(seat as u64))
            .map(label_box)
            .collect();
        readings.retain(|r| !hidden.contains(&r.bbox));
    };
    let play = play_answering_altered(&dir, &[], &late);
    assert_truth(&play, &dir);
}

/// A rendered sitting (in folder `name`) with the finder's second box on
/// each card dealt face down from `delay` frames after it, the card's box
/// `moved`: the ledger is the truth's, and no card is said to have come to
/// rest at the wrong place.
fn second_box_after_each_card_is_that_card(
    name: &str,
    delay: u64,
    moved: fn([f32; 4]) -> [f32; 4],
) {
    let dir = sitting(name, 12, 2, 3, "480x270");
    let second_finds = second_backs(&dir, delay, moved);
    let play = play_answering_with(&dir, &[], &second_finds);
    assert_truth(&play, &dir);
    assert_not_asked(&play, "came to rest at");
}

/// A hand's first card, face down under a card drawn, found by the finder
/// as a second box of its own beside its own box (a card laid on a stack
/// moves the boxes found on it), and turned up at the end in that second
/// box only: its own box is not seen again. The card turned up is still
/// that seat's card (seed 12: every hand of three cards or more, both
/// rounds).
#[test]
fn a_card_turned_up_in_a_second_box_of_its_own_is_its_seats() {
    let dir = sitting("play-turned-in-second-box", 12, 2, 3, "480x270");
    let moved = std::cell::Cell::new(0);
    let play = play_answering_altered(&dir, &[], &|_, label, readings| {
        let cards = label["cards"].as_array().expect("cards");
        let drawn_on = |c: &Value| {
            cards.iter().any(|d| {
                d["role"]["seat"] == c["role"]["seat"]
                    && d["role"]["hand"] == c["role"]["hand"]
                    && d["role"]["position"].as_u64() >= Some(2)
            })
        };
        for c in cards {
            if c["role"]["at"] != "hand" || c["role"]["position"] != 0 || !drawn_on(c) {
                continue;
            }
            let b = label_box(c);
            let read = c["card"].as_str().unwrap_or("back");
            if read != "back" {
                readings.retain(|r| r.card != read);
                moved.set(moved.get() + 1);
            }
            // Down and right by 0.15 of its size: too far from its own box
            // for a face on it to be taken for it turned up (the tracker
            // asks much overlap of a face on a back), near enough to be its
            // place.
            let [x0, y0, x1, y1] = b;
            let (dx, dy) = (0.15 * (x1 - x0), 0.15 * (y1 - y0));
            readings.push(Seen::new(read, 0.99, [x0 + dx, y0 + dy, x1 + dx, y1 + dy]));
        }
    });
    assert!(
        moved.get() >= 10,
        "first cards turned up in their second box: {}",
        moved.get()
    );
    assert_truth(&play, &dir);
    // The camera read them: the dealer was not asked to show a hand.
    assert_not_asked(&play, "waits for");
}

/// The finder's second box on each card dealt face down, for 4 frames from
/// `delay` frames after it is dealt: a back whose box is the card's
/// `moved`.
fn second_backs(
    dir: &Path,
    delay: u64,
    moved: fn([f32; 4]) -> [f32; 4],
) -> impl Fn(u64, &Value) -> Vec<Seen> {
    let just_dealt = just_dealt(dir, delay);
    move |frame, label| {
        just_dealt(frame, label)
            .map(|b| Seen::new("back", 0.9, moved(b)))
            .into_iter()
            .collect()
    }
}

/// The lower right part of a box, three quarters of it each way.
fn lower_right([x0, y0, x1, y1]: [f32; 4]) -> [f32; 4] {
    let (w, h) = (x1 - x0, y1 - y0);
    [x0 + 0.25 * w, y0 + 0.25 * h, x1, y1]
}

/// A box moved up by half its height.
fn up_half([x0, y0, x1, y1]: [f32; 4]) -> [f32; 4] {
    let dy = 0.5 * (y1 - y0);
    [x0, y0 - dy, x1, y1 - dy]
}

/// A box moved up and left by 0.4 of its size.
fn up_left([x0, y0, x1, y1]: [f32; 4]) -> [f32; 4] {
    let (dx, dy) = (0.4 * (x1 - x0), 0.4 * (y1 - y0));
    [x0 - dx, y0 - dy, x1 - dx, y1 - dy]
}

/// A rendered sitting's cards dealt, in order: each one's frame and seat
/// (from `truth.jsonl`).
fn dealt(dir: &Path) -> Vec<(u64, usize)> {
    let players = json(&dir.join("sitting.json"))["players"].clone();
    let seat = |name: &Value| {
        players
            .as_array()
            .and_then(|p| p.iter().position(|n| n == name))
    };
    let truth = std::fs::read_to_string(dir.join("truth.jsonl")).expect("truth.jsonl");
    truth
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["t"] == "card")
        .filter_map(|l| Some((l["frame"].as_u64()?, seat(&l["to"])?)))
        .collect()
}

/// For a rendered sitting: in a frame, the box of the card dealt face down
/// in the 4 frames from `delay` frames after it was dealt (the top card of
/// its seat's hand, showing whole).
fn just_dealt(dir: &Path, delay: u64) -> impl Fn(u64, &Value) -> Option<[f32; 4]> {
    let dealt = dealt(dir);
    move |frame: u64, label: &Value| {
        let &(_, to) = dealt
            .iter()
            .find(|&&(d, _)| (d + delay..d + delay + 4).contains(&frame))?;
        let cards = label["cards"].as_array()?;
        let top = cards
            .iter()
            .filter(|c| c["role"]["at"] == "hand" && c["role"]["seat"].as_u64() == Some(to as u64))
            .max_by_key(|c| c["role"]["position"].as_u64())?;
        (top["card"] == "back" && top["visible"].as_f64() >= Some(0.9)).then(|| label_box(top))
    }
}

/// Each drawn card read for its first frames at rest fairly surely (0.85)
/// as another face on its box, and very surely as itself on a second,
/// smaller box lying on it: one card found twice, whose surer face is the
/// card's. The face read unsurely on the face counted waits
/// (`tracker::DOUBTFUL_STEADY`) until its readings tell it that face, so no
/// other face goes in to be read again (it did, and was, before).
#[test]
fn a_card_found_twice_as_two_faces_is_the_surer_face() {
    let dir = sitting("play-two-faces", 12, 2, 3, "480x270");
    let drawn = dealt_face_up(&dir);
    let two_faces = |f: u64, _: &Value, readings: &mut Vec<Seen>| {
        for (landed, card) in &drawn {
            if !(*landed..landed + 4).contains(&f) {
                continue;
            }
            let Some(r) = readings.iter_mut().find(|r| r.card == *card) else {
                continue;
            };
            let [x0, y0, x1, y1] = r.bbox;
            let (w, h) = (x1 - x0, y1 - y0);
            r.card = another_face(card);
            r.confidence = 0.85;
            let second = [x0 + 0.1 * w, y0 + 0.1 * h, x1 - 0.2 * w, y1 - 0.2 * h];
            readings.push(Seen::new(card, 0.99, second));
        }
    };
    let play = play_answering_altered(&dir, &[], &two_faces);
    let journal = play.game().journal_text();
    assert!(!journal.contains(r#""t":"correct""#), "{journal}");
    assert_truth(&play, &dir);
}

/// Each face-up card a rendered sitting deals (three at least), and its frame.
fn dealt_face_up(dir: &Path) -> Vec<(u64, String)> {
    let truth = std::fs::read_to_string(dir.join("truth.jsonl")).expect("truth.jsonl");
    let drawn: Vec<(u64, String)> = truth
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["t"] == "card" && l["card"].is_string())
        .filter_map(|l| Some((l["frame"].as_u64()?, l["card"].as_str()?.to_owned())))
        .collect();
    assert!(drawn.len() >= 3, "{drawn:?}");
    drawn
}

/// Another face of `card`'s suit: its rank five on.
fn another_face(card: &str) -> String {
    let ranks = "A23456789TJQK";
    let k = ranks.find(&card[..1]).unwrap_or(0);
    let other = ranks.chars().nth((k + 5) % 13).unwrap_or('A');
    format!("{other}{}", &card[1..])
}

/// A drawn card read unsurely as another card for its first frames at rest
/// (still settling, half in shadow), then surely as itself: the table
/// counts it as the first reading, asks, and corrects it once the sure
/// readings outweigh the first (`Fact::Reread`), so the ledger is the truth's.
#[test]
fn a_card_first_read_unsurely_as_another_is_corrected_when_read_surely() {
    let dir = sitting("play-reread", 12, 2, 3, "480x270");
    let drawn = dealt_face_up(&dir);
    let misread = |f: u64, _: &Value, readings: &mut Vec<Seen>| {
        for (landed, card) in &drawn {
            if (*landed..landed + 3).contains(&f) {
                for r in readings.iter_mut().filter(|r| r.card == *card) {
                    r.card = another_face(card);
                    r.confidence = 0.35;
                }
            }
        }
    };
    // The dealer leaves the doubts to the camera.
    let play = play_answering_late(&dir, &[], &misread, 0, false, 0..0);
    let journal = play.game().journal_text();
    assert!(journal.contains("read the card again"), "{journal}");
    // The doubts about those cards are settled by the camera itself.
    let doubts: Vec<_> = play
        .questions()
        .iter()
        .filter(|q| q.about.is_some())
        .collect();
    assert!(!doubts.is_empty());
    assert!(
        doubts.iter().all(|q| q.answered.is_some()),
        "{:?}",
        play.questions()
    );
    assert_truth(&play, &dir);
}

/// A drawn card read unsurely as another card for as long as it lies (a
/// worn index, a design the reader does not know): the table asks, with
/// where the card lies, and the dealer, looking at it, answers with the right
/// card (a correction with its reason, in the journal): the ledger is the
/// truth's.
#[test]
fn a_card_read_unsurely_throughout_is_put_right_by_the_dealers_answer() {
    let dir = sitting("play-reread", 12, 2, 3, "480x270");
    let drawn = dealt_face_up(&dir);
    let misread = |_: u64, _: &Value, readings: &mut Vec<Seen>| {
        for (_, card) in &drawn {
            for r in readings.iter_mut().filter(|r| r.card == *card) {
                r.card = another_face(card);
                r.confidence = 0.35;
            }
        }
    };
    let play = play_answering_altered(&dir, &[], &misread);
    let doubts: Vec<_> = play
        .questions()
        .iter()
        .filter(|q| q.about.is_some())
        .collect();
    assert!(!doubts.is_empty(), "{:?}", play.questions());
    assert!(doubts.iter().all(|q| q.at.is_some()), "{doubts:?}");
    let journal = play.game().journal_text();
    assert!(journal.contains("the dealer's answer to"), "{journal}");
    assert_truth(&play, &dir);
}

/// A drawn card found a second time, half a card off itself, read unsurely
/// as another card while its player may still draw: the table takes it for
/// his next card and asks; the dealer, looking at where it lies, sees the
/// card the player holds already and answers that it is no card (the line
/// taken back, with its reason): the ledger is the truth's. (His words the
/// table refused over such a card go in once it is taken back: seed 51 of
/// the live table's sittings, `Play::words_refused_over`.)
#[test]
fn a_card_found_again_and_read_as_another_is_taken_back_by_the_dealers_answer() {
    let dir = sitting("play-reread", 12, 2, 3, "480x270");
    // Ann's 9D, drawn at frame 59 (2D 4S 9D; her "content" comes at 65).
    let (landed, card) = dealt_face_up(&dir)
        .into_iter()
        .find(|(frame, _)| *frame == 59)
        .expect("a card dealt at frame 59");
    assert_eq!(card, "9D");
    let phantom = |f: u64, label: &Value| {
        if (landed + 3..landed + 12).contains(&f) {
            // KD: a card that puts Ann over, ending her hand.
            let mut boxes = second_box(label, &card, "KD", [0.5, 0.0]);
            for b in &mut boxes {
                b.confidence = 0.45;
            }
            boxes
        } else {
            Vec::new()
        }
    };
    let play = play_answering_with(&dir, &[], &phantom);
    let journal = play.game().journal_text();
    assert!(journal.contains("no card: the camera read"), "{journal}");
    assert_truth(&play, &dir);
}

/// The dealer's drawn card never seen (a hand over it from the moment it
/// lands until the round's cards are gathered): once every card of the
/// round has gone from sight while it is still due, the table asks the
/// dealer for it, the next round's cards wait for his answer, and the
/// dealer, who saw it, says it: the ledger is the truth's.
#[test]
fn a_drawn_card_never_seen_is_asked_for_once_the_round_is_gathered() {
    // Seed 25: the dealer, Bob, draws in the first round.
    let dir = sitting("play-unseen-draw", 25, 2, 3, "480x270");
    let truth = std::fs::read_to_string(dir.join("truth.jsonl")).expect("truth.jsonl");
    let lines: Vec<Value> = truth
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let dealer = lines
        .iter()
        .find(|l| l["t"] == "dealer")
        .and_then(|l| l["player"].as_str())
        .expect("a dealer");
    // His first card drawn (a card line naming its hand).
    let (landed, card) = lines
        .iter()
        .find(|l| l["t"] == "card" && l["to"] == dealer && l["hand"].is_u64())
        .and_then(|l| Some((l["frame"].as_u64()?, l["card"].as_str()?.to_owned())))
        .expect("the dealer draws a card");
    let hidden = |f: u64, _: &Value, readings: &mut Vec<Seen>| {
        if (landed.saturating_sub(10)..landed + 40).contains(&f) {
            readings.retain(|r| r.card != card);
        }
    };
    let play = play_answering_altered(&dir, &[], &hidden);
    // Asked, and settled by the dealer's answer.
    assert!(
        play.questions().iter().any(|q| q
            .text
            .contains("went from the table before the camera saw it")
            && q.answered.is_some()),
        "{:?}",
        play.questions()
    );
    assert_truth(&play, &dir);
}

/// The finder may find a card's face as a smaller box than its back (the
/// face's index corner and pips, not its edge): a card turned up then seems a
/// new card coming to rest where the back lay, and while another player is
/// due a card it is no card dealt but that back turned up. Seed 18: Cat
/// turns her cards up at the start of her turn, while the table still waits
/// for Bob's word.
#[test]
fn a_card_turned_up_and_found_as_a_smaller_box_is_turned_up_not_dealt() {
    let dir = sitting("play-turned-anew", 18, 2, 3, "480x270");
    let smaller = |_: u64, _: &Value, readings: &mut Vec<Seen>| {
        for r in readings.iter_mut().filter(|r| r.card != "back") {
            let [x0, y0, x1, y1] = r.bbox;
            r.bbox = [x0, y0, x0 + 0.7 * (x1 - x0), y0 + 0.7 * (y1 - y0)];
        }
    };
    assert_truth(&play_answering_altered(&dir, &[], &smaller), &dir);
}

/// "The holder turns up his cards" (RULES.md, a player's natural): a
/// natural paid on the player's word while a card of it lies face down is
/// a question until the camera sees the cards turned up. Seed 8: Bob
/// declares a natural (QC and AD) as the first round's second cards go
/// round. Seen turned up, no question stays open about it; with the camera
/// never seeing them turned up (read as backs), the table asks for them,
/// and the payment stands meanwhile.
#[test]
fn a_natural_paid_on_cards_never_seen_turned_up_is_a_question() {
    let dir = sitting("play-natural-unshown", 8, 2, 3, "1280x720");
    let natural = |play: &Play| {
        play.questions()
            .iter()
            .filter(|q| q.text.starts_with("Bob was paid a natural"))
            .cloned()
            .collect::<Vec<_>>()
    };
    let shown = play_answering(&dir);
    assert_truth(&shown, &dir);
    assert!(
        natural(&shown).iter().all(|q| q.answered.is_some()),
        "{:?}",
        shown.questions()
    );
    // Bob's cards as backs from his declaration on.
    let unshown = play_answering_altered(&dir, &[], &|f, label, readings| {
        if f < 127 {
            return;
        }
        let bobs: Vec<[f32; 4]> = label["cards"]
            .as_array()
            .expect("cards")
            .iter()
            .filter(|c| c["role"]["seat"] == 1 && c["card"] != "back")
            .map(label_box)
            .collect();
        for seen in readings.iter_mut() {
            if bobs.contains(&seen.bbox) {
                *seen = Seen::new("back", 0.99, seen.bbox);
            }
        }
    });
    assert_truth(&unshown, &dir);
    let asked = natural(&unshown);
    assert_eq!(asked.len(), 1, "{:?}", unshown.questions());
    assert!(asked[0].answered.is_none(), "{:?}", asked[0]);
    // Not at once (the holder has a moment to turn them up): here when the
    // recording ends, 1.6 seconds after the declaration.
    assert!(asked[0].frame > 127, "asked at once: {:?}", asked[0]);
}

/// B's eight-round deal at a camera's table: rendered sittings of the eight
/// games (stakes and elections said by the dealer before the cards, Blind
/// Vingt-un's hands face down until the end, the cards drawn blind laid
/// beside the others and taken face down, the cards of Sympathy to the Clock
/// turned up, the Clock's fresh pack shuffled off the table), read
/// perfectly from their labels, keep the truth's ledger.
#[test]
fn the_eight_round_deal_at_a_cameras_table_keeps_the_ledger() {
    let scratch = temp_dir("eight-round-rules");
    let rules = scratch.join("rules.toml");
    std::fs::write(&rules, "eight_round_deal = true\nrouge_et_noir_cards = 3\n")
        .expect("write the rules");
    let rules = rules.to_string_lossy().into_owned();
    for (seed, players) in [(3, 3), (8, 4), (6, 4)] {
        let dir = rendered_sitting(
            &format!("play-eight-{seed}"),
            seed,
            8,
            players,
            "480x270",
            &["--rules", &rules],
        );
        let truth = truth_ledger(&dir);
        let games = truth["rounds"]
            .as_array()
            .expect("rounds")
            .iter()
            .filter(|r| r["game"].is_string())
            .count();
        assert_eq!(games, 7, "seven rounds of the eight are not ordinary");
        let play = play_answering(&dir);
        assert_truth(&play, &dir);
    }
}

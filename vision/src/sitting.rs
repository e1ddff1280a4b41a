//! A rendered sitting: the engine deals real rounds (the autoplayer's random
//! stakes and decisions) and the renderer draws the table after each card, as
//! a frame sequence with exact truth.
//!
//! `DIR/sitting.json` (frame rate, size, seed, design, players), `DIR/frames/`
//! (`NNNNNN.jpg` at that frame rate), `DIR/dealer.jsonl` (what the camera cannot
//! see, in the table-script format: the table and dealer lines, stakes, double,
//! divide, content, and the declarations made aloud) and `DIR/truth.jsonl` (the
//! complete table script, cards included). Every line carries `"frame"`, the
//! frame at which it happens (for a card: the frame it lands).

use std::path::PathBuf;

use pone_engine::autoplay::Autoplayer;
use pone_engine::eight::RoundGame;
use pone_engine::script::{Line, Meta};
use pone_engine::sitting::{HandState, Phase, State};
use pone_engine::{Card, Command, Event, Game, HouseRules, Seat};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::art::Design;
use crate::render::scene_seed;
use crate::scene::{
    Layout, Occluder, Placed, Role, Scene, random_light, random_surface, random_table_camera,
};
use crate::synth::SynthError;

/// What sitting to render.
#[derive(Clone, Debug)]
pub struct SittingOptions {
    /// Where to write.
    pub out: PathBuf,
    /// The seed of the deal, the decisions and the look.
    pub seed: u64,
    /// Rounds to play.
    pub rounds: u32,
    /// Players, the dealer among them.
    pub players: usize,
    /// Frame size.
    pub width: u32,
    /// Frame height.
    pub height: u32,
    /// Frames per second.
    pub fps: u32,
    /// Worker threads for rendering.
    pub threads: usize,
    /// Dealing slips to film, as a learning dealer makes them: each a card
    /// of the sitting that the dealer first puts at another seat's place,
    /// then, a moment later, moves to the seat it was due to. The game is
    /// the same; the camera should tell the slip (`play::Slip`).
    pub slips: Vec<FilmedSlip>,
    /// The table's house rules (the eight-round deal among them).
    pub rules: HouseRules,
}

/// What was made.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SittingSummary {
    /// Frames per second.
    pub fps: u32,
    /// Frame width.
    pub width: u32,
    /// Frame height.
    pub height: u32,
    /// The seed.
    pub seed: u64,
    /// The design drawn.
    pub design: String,
    /// The players in seating order.
    pub players: Vec<String>,
    /// How many frames.
    pub frames: u64,
    /// Rounds played.
    pub rounds: u32,
    /// Where the frames are.
    pub frame_files: String,
    /// The frames where a hand starts to pass over the table, for a second
    /// and a half (none is a card).
    pub hand_passes: Vec<u64>,
}

/// A dealing slip to film: card `card` of the sitting (the first card dealt
/// is 1) lands `seats_on` seats on round the table from the seat it was due
/// to (1: the next seat's place, a player skipped or a drawn card at the
/// wrong seat; 2 or more: dealt out of order). Written `CARD` or
/// `CARD+SEATS` (`14`, `24+2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FilmedSlip {
    /// The card of the sitting, counted from 1.
    pub card: u64,
    /// How many seats on from its own it lands.
    pub seats_on: usize,
}

impl std::str::FromStr for FilmedSlip {
    type Err = String;

    fn from_str(text: &str) -> Result<FilmedSlip, String> {
        let (card, seats_on) = text.split_once('+').unwrap_or((text, "1"));
        let number = |what: &str, text: &str| {
            text.trim()
                .parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| {
                    format!(
                        "`{text}` is not {what} (a slip is CARD or CARD+SEATS: \
                         `14`, or `24+2` for card 24 put two seats on)"
                    )
                })
        };
        Ok(FilmedSlip {
            card: number("a card of the sitting (1 is the first dealt)", card)?,
            seats_on: usize::try_from(number("a number of seats (1 or more)", seats_on)?)
                .map_err(|e| e.to_string())?,
        })
    }
}

/// How long the pone takes to shuffle the last card into his pile, seconds.
const SHUFFLE_SECS: usize = 4;

const NAMES: [&str; 7] = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gil"];

/// A card on the picture: which card, face up or not.
type Shown = (Card, bool);

/// The table as the camera sees it after a command.
#[derive(Clone, Debug, Default, PartialEq)]
struct Picture {
    /// Per seat, per hand, the cards.
    hands: Vec<Vec<Vec<Shown>>>,
    /// Per seat, whether its drawn cards lie beside the others, a card's
    /// width apart, not tucked to show an index: cards drawn blind.
    beside: Vec<bool>,
    pile: u16,
    pack: u16,
}

/// Which first-two cards the table would have turned up by now.
fn picture(state: &State) -> Picture {
    let seats = state.names().len();
    let dealer = state.dealer();
    let dealer_playing = matches!(state.phase(), Phase::Dealer | Phase::Showdown);
    // Blind Vingt-un: the players' cards lie face down, drawn ones too, until
    // the end, and a card drawn blind has no index to show, so the dealer
    // lays it beside the player's cards.
    let blind = state.phase() != Phase::Between && state.round_game() == RoundGame::Blind;
    let beside: Vec<bool> = (0..seats)
        .map(|i| blind && Some(Seat(i as u8)) != dealer)
        .collect();
    let hands = (0..seats)
        .map(|i| {
            let seat = Seat(i as u8);
            let Some(sr) = state.seat_round(seat) else {
                return Vec::new();
            };
            if state.round_number() == 0 || state.phase() == Phase::Between {
                return Vec::new();
            }
            let divided = sr.hands.len() > 1;
            let game = state.round_game();
            let drawn_up = !beside[i];
            sr.hands
                .iter()
                .filter(|h| !h.in_pile)
                .map(|h| {
                    // The games of cards turned up lie face up.
                    let turned = h.state == HandState::Natural
                        || divided
                        || !game.is_vingt_un()
                        || (Some(seat) == dealer && dealer_playing);
                    let dealt = h.cards.dealt();
                    h.cards
                        .slots()
                        .iter()
                        .enumerate()
                        .filter_map(|(k, slot)| {
                            slot.map(|c| (c, (k >= dealt && drawn_up) || turned))
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    Picture {
        hands,
        beside,
        pile: state.pone_pile(),
        pack: state.cards_before_last() + 1,
    }
}

/// The table with a card just dealt by `command` lying in its hand (face up
/// when it is a drawn card), before anything else happens to the hand.
fn with_card(shown: &Picture, command: &Command) -> Picture {
    let mut out = shown.clone();
    if let Command::Card {
        to,
        hand,
        card: Some(card),
    } = *command
        && let Some(hands) = out.hands.get_mut(to.index())
    {
        let last = hands.len().saturating_sub(1);
        let k = hand.map_or(last, |h| usize::from(h.saturating_sub(1)).min(last));
        if let Some(h) = hands.get_mut(k) {
            let drawn = h.len() >= 2;
            h.push((card, drawn));
        }
    }
    out
}

/// The table at the end of a round, before the cards go to the pone: every
/// hand still on it turned up to be paid (so the camera sees what was dealt
/// face down), with the card that ended the round.
fn showdown(shown: &Picture, command: &Command) -> Picture {
    let mut out = with_card(shown, command);
    for card in out.hands.iter_mut().flatten().flatten() {
        card.1 = true;
    }
    out
}

/// Whether the picture shows `card` in a hand.
fn holds(picture: &Picture, card: Card) -> bool {
    picture
        .hands
        .iter()
        .flatten()
        .flatten()
        .any(|&(c, _)| c == card)
}

/// The frames' scenes, built as the sitting is played.
struct Film {
    base: Scene,
    layout: Layout,
    back: usize,
    frames: Vec<Scene>,
    look_seed: u64,
    round: u32,
    /// A hand passing over the table: the frames it spans and its path.
    pass: Option<(usize, usize, Occluder)>,
    /// The first frame of each hand that passed over.
    passes: Vec<u64>,
}

impl Film {
    fn placed(&self, picture: &Picture) -> Vec<Placed> {
        let mut cards = Vec::new();
        let mut rng = StdRng::seed_from_u64(self.look_seed ^ u64::from(self.round));
        cards.extend(self.layout.place_stack(
            Role::Pile,
            usize::from(picture.pile.clamp(0, 6)),
            self.back,
            &mut rng,
        ));
        if picture.pack > 0 {
            cards.extend(self.layout.place_stack(
                Role::Pack,
                usize::from(picture.pack.clamp(1, 6)),
                self.back,
                &mut rng,
            ));
        }
        for (seat, hands) in picture.hands.iter().enumerate() {
            for (h, hand) in hands.iter().enumerate() {
                // Steady positions: the jitter depends on the round, seat and hand only.
                let mut hand_rng = StdRng::seed_from_u64(scene_seed(
                    self.look_seed,
                    u64::from(self.round) * 100 + seat as u64 * 5 + h as u64,
                ));
                let beside = picture.beside.get(seat).copied().unwrap_or(false);
                cards.extend(self.layout.place_hand_laid(
                    seat,
                    h as u8 + 1,
                    hand,
                    self.back,
                    beside,
                    &mut hand_rng,
                ));
            }
        }
        cards
    }

    fn frame(&mut self, cards: Vec<Placed>) {
        let n = self.frames.len();
        let mut scene = self.base.clone();
        scene.cards = cards;
        scene.seed = scene_seed(self.look_seed, n as u64 + 1);
        if let Some((from, to, occluder)) = &self.pass
            && (*from..*to).contains(&n)
        {
            {
                let t = (n - from) as f32 / (to - from).max(1) as f32;
                let mut o = occluder.clone();
                // In and out again: the hand reaches to its point and back.
                let reach = 1.0 - (2.0 * t - 1.0).abs();
                o.to = [
                    o.from[0] + (occluder.to[0] - o.from[0]) * reach,
                    o.from[1] + (occluder.to[1] - o.from[1]) * reach,
                ];
                scene.occluders.push(o);
            }
        }
        self.frames.push(scene);
    }

    /// Holds the picture for `count` frames.
    fn hold(&mut self, picture: &Picture, count: usize) {
        let cards = self.placed(picture);
        for _ in 0..count {
            self.frame(cards.clone());
        }
    }

    /// Slides the cards that are new in `after` from the pack, and the cards
    /// gone from it to the pile, over `count` frames; the last frame shows `after`.
    fn slide(&mut self, before: &Picture, after: &Picture, count: usize) {
        let old = self.placed(before);
        let new = self.placed(after);
        // A card is the same card wherever it lies: one moved within a seat
        // (a divided pair) jumps; only cards new to the table slide in.
        let moving_in: Vec<&Placed> = new
            .iter()
            .filter(|p| {
                matches!(p.role, Role::Hand { .. }) && !old.iter().any(|o| o.hidden == p.hidden)
            })
            .collect();
        let moving_out: Vec<&Placed> = old
            .iter()
            .filter(|p| {
                matches!(p.role, Role::Hand { .. }) && !new.iter().any(|n| n.hidden == p.hidden)
            })
            .collect();
        let pack = self.layout.pack;
        let pile = self.layout.pile;
        for step in 1..count {
            let t = step as f32 / count as f32;
            let ease = t * t * (3.0 - 2.0 * t);
            let mut cards: Vec<Placed> = old
                .iter()
                .filter(|p| {
                    !moving_out
                        .iter()
                        .any(|m| m.hidden == p.hidden && p.hidden.is_some())
                })
                .cloned()
                .collect();
            for p in &moving_in {
                let mut m = (*p).clone();
                m.center = [
                    pack[0] + (p.center[0] - pack[0]) * ease,
                    pack[1] + (p.center[1] - pack[1]) * ease,
                ];
                m.lift = 0.5 * (1.0 - ease) + p.lift;
                m.role = Role::Moving;
                m.labelled = true;
                cards.push(m);
            }
            for p in &moving_out {
                let mut m = (*p).clone();
                m.center = [
                    p.center[0] + (pile[0] - p.center[0]) * ease,
                    p.center[1] + (pile[1] - p.center[1]) * ease,
                ];
                m.face = None;
                m.role = Role::Moving;
                cards.push(m);
            }
            self.frame(cards);
        }
        self.frame(new);
    }

    /// Moves the cards that lie elsewhere in `after` than in `before` (a
    /// card put right by the dealer's hand) across the table over `count`
    /// frames; the last frame shows `after`.
    fn shift(&mut self, before: &Picture, after: &Picture, count: usize) {
        let old = self.placed(before);
        let new = self.placed(after);
        for step in 1..count {
            let t = step as f32 / count as f32;
            let ease = t * t * (3.0 - 2.0 * t);
            let cards = new
                .iter()
                .map(|p| {
                    let from = old.iter().find(|o| {
                        o.hidden.is_some()
                            && o.hidden == p.hidden
                            && crate::boxes::distance(o.center, p.center) > 0.5
                    });
                    let Some(from) = from else {
                        return p.clone();
                    };
                    let mut m = p.clone();
                    m.center = [
                        from.center[0] + (p.center[0] - from.center[0]) * ease,
                        from.center[1] + (p.center[1] - from.center[1]) * ease,
                    ];
                    m.angle = from.angle + (p.angle - from.angle) * ease;
                    m.lift = p.lift.max(from.lift) + 0.3;
                    m.role = Role::Moving;
                    m.labelled = true;
                    m
                })
                .collect();
            self.frame(cards);
        }
        self.frame(new);
    }

    /// A dealing slip: the card `command` deals lands at the place of the
    /// seat `seats_on` seats on, lies there a moment, and the dealer moves
    /// it to its own. The frame it landed astray in, and the table with the
    /// card at its own place; `None` (nothing filmed) when that seat has no
    /// hand to put it by.
    fn slip(
        &mut self,
        shown: &Picture,
        command: &Command,
        seats_on: usize,
        slide_frames: usize,
        pause: usize,
    ) -> Option<(usize, Picture)> {
        let landed = with_card(shown, command);
        let wrong = astray(&landed, command, seats_on)?;
        self.slide(shown, &wrong, slide_frames);
        let frame = self.frames.len().saturating_sub(1);
        self.hold(&wrong, 3 * pause);
        // A hand moves a card slower than a dealt card flies.
        self.shift(&wrong, &landed, 2 * slide_frames);
        self.hold(&landed, pause);
        Some((frame, landed))
    }
}

/// The table with the card just dealt (`landed`, by `command`) lying at the
/// place of the seat `seats_on` seats on instead of its own: a dealing slip.
/// `None` when that seat has no hand to put it by, or is its own.
fn astray(landed: &Picture, command: &Command, seats_on: usize) -> Option<Picture> {
    let Command::Card { to, .. } = *command else {
        return None;
    };
    let seats = landed.hands.len();
    let mut out = landed.clone();
    let card = out
        .hands
        .get_mut(to.index())?
        .iter_mut()
        .rev()
        .find_map(Vec::pop)?;
    let next = (to.index() + seats_on) % seats.max(1);
    if next == to.index() {
        return None;
    }
    out.hands.get_mut(next)?.last_mut()?.push(card);
    Some(out)
}

fn write_err(path: &std::path::Path, e: &impl std::fmt::Display) -> SynthError {
    SynthError::Write {
        path: path.to_owned(),
        reason: e.to_string(),
    }
}

impl Film {
    /// A camera, table, light and design for the whole sitting.
    fn new(
        options: &SittingOptions,
        designs: &[Design],
        players: usize,
        rng: &mut StdRng,
    ) -> (Film, usize) {
        let design_index = rng.random_range(0..designs.len());
        let design = &designs[design_index];
        let dealer = rng.random_range(0..players);
        let layout = Layout::new(players, dealer, design.aspect(), 1.0);
        let look_seed = rng.random();
        let mut light = random_light(rng);
        light.gain = light.gain.max(0.7);
        let base = Scene {
            camera: random_table_camera(rng, options.width, options.height, layout.reach()),
            surface: random_surface(rng),
            light,
            cards: Vec::new(),
            occluders: Vec::new(),
            design: design_index,
            blur: rng.random_range(0.0..0.8),
            motion: None,
            noise: rng.random_range(1.0..4.0),
            jpeg_quality: 85,
            seed: 0,
            table_seed: scene_seed(look_seed, 0),
        };
        let back = rng.random_range(0..design.backs());
        let film = Film {
            base,
            layout,
            back,
            frames: Vec::new(),
            look_seed,
            round: 0,
            pass: None,
            passes: Vec::new(),
        };
        (film, dealer)
    }

    /// Now and then a hand passes over the table for a second and a half.
    fn start_pass(&mut self, rng: &mut StdRng, fps: usize) {
        if self
            .pass
            .as_ref()
            .is_some_and(|(_, to, _)| *to <= self.frames.len())
        {
            self.pass = None;
        }
        if self.pass.is_some() || !rng.random_bool(0.02) {
            return;
        }
        let start = self.frames.len();
        self.passes.push(start as u64);
        let edge = rng.random_range(0.1..0.9);
        self.pass = Some((
            start,
            start + fps * 3 / 2,
            Occluder {
                from: [edge, 1.05],
                to: [rng.random_range(0.25..0.75), rng.random_range(0.3..0.7)],
                width: rng.random_range(0.03..0.05),
                sleeve: [0.2, 0.22, 0.3],
                skin: [0.85, 0.66, 0.52],
            },
        ));
    }
}

/// The declarations a table makes aloud: a natural, and a player's "over"
/// (the dealer's cards lie face up).
fn said_aloud(events: &[Event], state: &State) -> Vec<Line> {
    events
        .iter()
        .filter_map(|event| match *event {
            Event::Natural { player, hand: 1 } => Some(Line::Natural {
                player: state.name(player).to_owned(),
                hand: None,
            }),
            Event::OverDrawn { player, hand } if Some(player) != state.dealer() => {
                let divided = state.seat_round(player).is_some_and(|s| s.hands.len() > 1);
                Some(Line::Over {
                    player: state.name(player).to_owned(),
                    hand: divided.then_some(hand),
                })
            }
            _ => None,
        })
        .collect()
}

/// A player's hand that made 21 by drawing stands by itself when every card
/// is known, but his first cards lie face down: the camera's game learns it
/// only from him, so he says he is content (in the dealer's script only; the
/// truth knows his cards).
fn stands_unseen(events: &[Event], state: &State) -> Vec<Line> {
    events
        .iter()
        .filter_map(|event| match *event {
            Event::VingtUn { player, hand } if Some(player) != state.dealer() => {
                let divided = state.seat_round(player).is_some_and(|s| s.hands.len() > 1);
                Some(Line::Content {
                    player: state.name(player).to_owned(),
                    hand: Some(if divided { hand } else { 1 }),
                })
            }
            _ => None,
        })
        .collect()
}

/// The two scripts, written as the sitting is played.
#[derive(Default)]
struct Scripts {
    truth: Vec<String>,
    dealer: Vec<String>,
}

impl Scripts {
    /// A line only the camera's game needs (the truth knows it already).
    fn dealer_only(&mut self, line: &Line, frame: usize) {
        self.dealer.push(line.to_json(&Meta {
            frame: Some(frame as u64),
            ..Meta::default()
        }));
    }

    fn record(&mut self, line: &Line, frame: usize, camera_sees_it: bool) {
        let text = line.to_json(&Meta {
            frame: Some(frame as u64),
            ..Meta::default()
        });
        if !camera_sees_it {
            self.dealer.push(text.clone());
        }
        self.truth.push(text);
    }
}

/// Plays the sitting, filming it: the scripts and the rounds played.
fn play(
    options: &SittingOptions,
    film: &mut Film,
    game: &mut Game,
    dealer: usize,
    rng: &mut StdRng,
) -> Result<(Scripts, u32), SynthError> {
    let fps = options.fps.max(1) as usize;
    let slide_frames = (fps * 2 / 5).max(2);
    let pause = (fps / 4).max(1);
    let mut scripts = Scripts::default();
    scripts.record(&game.table_line(), 0, false);
    let auto = Autoplayer::default();
    let mut shown = Picture::default();
    let mut next_command = Some(Command::Dealer {
        player: Seat(dealer as u8),
    });
    let mut rounds = 0;
    let mut dealt = 0u64;
    film.hold(&shown, pause);
    while let Some(command) = next_command.take() {
        let line = Line::from_command(&command, game.sitting().state());
        let events = game
            .command(None, &command)
            .map_err(|e| write_err(&options.out, &e))?
            .to_vec();
        let round_over = events.iter().any(|e| matches!(e, Event::RoundEnded { .. }));
        let state = game.sitting().state();
        if events
            .iter()
            .any(|e| matches!(e, Event::RoundStarted { .. }))
        {
            film.round = state.round_number();
        }
        film.start_pass(rng, fps);
        // The pack down to its last card: the dealer passes it to the pone,
        // who takes up his pile and shuffles them off the table before the
        // pack comes back and this card is dealt from it.
        if events
            .iter()
            .any(|e| matches!(e, Event::PackReshuffled { .. }))
        {
            let taken_up = Picture {
                pile: 0,
                pack: 0,
                ..shown.clone()
            };
            film.hold(&taken_up, SHUFFLE_SECS * fps);
            shown = taken_up;
        }
        if matches!(command, Command::Card { .. }) {
            dealt += 1;
        }
        let slip = options
            .slips
            .iter()
            .find(|s| s.card == dealt && !round_over);
        let astray =
            slip.and_then(|slip| film.slip(&shown, &command, slip.seats_on, slide_frames, pause));
        if let Some((frame, landed)) = &astray {
            scripts.record(&line, *frame, true);
            shown = landed.clone();
        }
        let slipped = astray.is_some();
        // At the end of a round the standing hands are turned up (the final
        // declaration) before the cards go to the pone.
        let after = if round_over {
            showdown(&shown, &command)
        } else {
            picture(state)
        };
        // A card that sends its hand to the pone (over-drawn) is seen landing
        // first; the hand is thrown after.
        let thrown = !round_over
            && !slipped
            && matches!(command, Command::Card { card: Some(c), .. } if !holds(&after, c));
        if thrown {
            let landed = with_card(&shown, &command);
            film.slide(&shown, &landed, slide_frames);
            scripts.record(&line, film.frames.len().saturating_sub(1), true);
            film.hold(&landed, 2 * pause);
            shown = landed;
        }
        if round_over
            || (matches!(command, Command::Card { .. }) && !thrown && !slipped)
            || after != shown
        {
            film.slide(&shown, &after, slide_frames);
        }
        let frame = film.frames.len().saturating_sub(1);
        if !thrown && !slipped {
            scripts.record(&line, frame, matches!(line, Line::Card { .. }));
        }
        for said in said_aloud(&events, state) {
            scripts.record(&said, frame, false);
        }
        for said in stands_unseen(&events, state) {
            scripts.dealer_only(&said, frame);
        }
        // The hands turned up at the end stay a second, to be seen and paid.
        film.hold(&after, if round_over { fps } else { pause });
        shown = after;
        if round_over {
            rounds += 1;
            let gathered = picture(game.sitting().state());
            film.slide(&shown, &gathered, slide_frames);
            film.hold(&gathered, pause);
            shown = gathered;
        }
        if rounds < options.rounds {
            next_command = Autoplayer::next(&auto, game.sitting().state(), rng);
        }
    }
    Ok((scripts, rounds))
}

/// Plays and renders a sitting; `progress` is told, as each frame is
/// rendered, the frames done and of how many.
pub fn write_sitting(
    options: &SittingOptions,
    designs: &[Design],
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<SittingSummary, SynthError> {
    if designs.is_empty() {
        return Err(SynthError::NoDesigns);
    }
    let mut rng = StdRng::seed_from_u64(options.seed);
    let players = options.players.clamp(2, NAMES.len());
    let names: Vec<String> = NAMES[..players].iter().map(|n| (*n).to_owned()).collect();
    let (mut film, dealer) = Film::new(options, designs, players, &mut rng);
    let mut game =
        Game::new(names.clone(), options.rules.clone()).map_err(|e| write_err(&options.out, &e))?;
    let (scripts, rounds) = play(options, &mut film, &mut game, dealer, &mut rng)?;
    let summary = SittingSummary {
        fps: options.fps,
        width: options.width,
        height: options.height,
        seed: options.seed,
        design: designs[film.base.design].name.clone(),
        players: names,
        frames: film.frames.len() as u64,
        rounds,
        frame_files: "frames/NNNNNN.jpg".into(),
        hand_passes: film.passes.clone(),
    };
    write_outputs(options, designs, &film, &scripts, &summary, progress)?;
    Ok(summary)
}

/// Writes the scripts and `sitting.json`, then renders the frames in parallel.
fn write_outputs(
    options: &SittingOptions,
    designs: &[Design],
    film: &Film,
    scripts: &Scripts,
    summary: &SittingSummary,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<(), SynthError> {
    let out = &options.out;
    let frames_dir = out.join("frames");
    let labels_dir = out.join("labels");
    for dir in [&frames_dir, &labels_dir] {
        std::fs::create_dir_all(dir).map_err(|e| write_err(dir, &e))?;
    }
    let write = |name: &str, text: String| {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(|e| write_err(&path, &e))
    };
    write("truth.jsonl", scripts.truth.join("\n") + "\n")?;
    write("dealer.jsonl", scripts.dealer.join("\n") + "\n")?;
    write(
        "sitting.json",
        serde_json::to_string_pretty(summary).unwrap_or_default(),
    )?;
    let done = std::sync::atomic::AtomicU64::new(0);
    crate::synth::parallel_for(summary.frames, options.threads, &|n| {
        let scene = &film.frames[n as usize];
        crate::synth::write_frame(scene, designs, &frames_dir, &labels_dir, n)?;
        let done = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        progress(done, summary.frames);
        Ok(())
    })
}

/// A rendered sitting's dealer at the table, from the frames' labels (what
/// he sees on the table):
/// - when the table asks him to show a hand (`Play::asked_to_show`: the
///   showdown waits for a card face down the camera cannot read), he says
///   the cards he saw shown, once for each hand asked;
/// - when it asks for a card due in the draw that went unseen
///   (`Play::asked_for_card`), he says it, from the frames that show it;
/// - when it doubts a card it read (a question `about` a line, `at` a box),
///   he looks at the card lying there and, when it is another, puts the
///   line right with it, as the desk's answer does.
pub struct LabelDealer {
    dir: PathBuf,
    answered: Option<(u32, Seat, u8)>,
    /// The card in the draw asked for and answered, as `answered`, with
    /// the cards the hand held then.
    card_answered: Option<(u32, Seat, u8, usize)>,
    /// The table's questions looked at so far.
    looked: usize,
    /// Whether he answers the table's doubts about a card.
    doubts: bool,
}

impl LabelDealer {
    /// The dealer of the rendered sitting in `dir` (its `labels/`).
    pub fn new(dir: &std::path::Path) -> LabelDealer {
        LabelDealer {
            dir: dir.to_path_buf(),
            answered: None,
            card_answered: None,
            looked: 0,
            doubts: true,
        }
    }

    /// This dealer, leaving the table's doubts about a card unanswered (to
    /// see what the camera settles by itself).
    #[must_use]
    pub fn leaving_doubts(mut self) -> LabelDealer {
        self.doubts = false;
        self
    }

    /// Answers the table, if it asks something after frame `frame`: a
    /// doubted card put right, else its call to show a hand. The line said
    /// (one a call), or `None` (nothing asked, asked already, the card read
    /// right, or no frame shows it).
    pub fn answer(&mut self, play: &mut crate::play::Play, frame: u64) -> Option<Line> {
        for seat in play.asked_for_places() {
            if let Some(at) = self.first_card_at(frame, seat) {
                play.move_place(crate::play::Place::Seat(seat.index()), at);
            }
        }
        while self.doubts
            && let Some(question) = play.questions().get(self.looked).cloned()
        {
            self.looked += 1;
            if let Some(line) = self.put_right(play, &question, frame) {
                play.say(line.clone());
                return Some(line);
            }
        }
        if let Some((seat, hand)) = play.asked_for_card() {
            let state = play.game().sitting().state();
            let cards = state
                .hand(seat, hand)
                .map(|h| h.cards.clone())
                .unwrap_or_default();
            let asked = Some((state.round_number(), seat, hand, cards.len()));
            if self.card_answered != asked {
                let round = state.round_number();
                let Some(card) = self.card_missing(frame, round, seat, hand, &cards) else {
                    // Asked for a card drawn while the camera was out, he
                    // drew none: the desk's Y, its note (once the table
                    // asks so).
                    let none_drawn = play.questions().iter().rev().find(|q| {
                        q.answered.is_none() && q.text.contains(crate::play::NONE_DRAWN)
                    })?;
                    self.card_answered = asked;
                    let line = crate::play::settled_as_it_stands(&none_drawn.text);
                    play.say(line.clone());
                    return Some(line);
                };
                self.card_answered = asked;
                let line = Line::Card {
                    to: state.name(seat).to_owned(),
                    hand: Some(hand),
                    card,
                };
                play.say(line.clone());
                return Some(line);
            }
        }
        let (seat, hand) = play.asked_to_show()?;
        let state = play.game().sitting().state();
        let held = state.hand(seat, hand).map_or(0, |h| h.cards.len());
        let asked = Some((state.round_number(), seat, hand));
        if self.answered == asked {
            return None;
        }
        self.answered = asked;
        let line = Line::Show {
            player: state.name(seat).to_owned(),
            hand: Some(hand),
            cards: self.hand_shown(frame, state.round_number(), seat, hand, held)?,
        };
        play.say(line.clone());
        Some(line)
    }

    /// The dealer's answer to a question doubting a card: the card lying
    /// where it was read (the labelled face whose box holds the reading's
    /// centre, in the frames from the question's to `frame`), when it is
    /// another card than the line has.
    fn put_right(
        &self,
        play: &crate::play::Play,
        question: &crate::play::Question,
        frame: u64,
    ) -> Option<Line> {
        let (seq, at) = (question.about?, question.at?);
        if question.answered.is_some() {
            return None;
        }
        let here = crate::boxes::centre(at);
        let lying = (question.frame..=frame.max(question.frame)).find_map(|f| {
            let labels = self.labels(f)?;
            labels
                .cards
                .iter()
                .filter(|c| crate::boxes::contains(c.bbox, here))
                .max_by(|a, b| {
                    crate::boxes::iou(a.bbox, at).total_cmp(&crate::boxes::iou(b.bbox, at))
                })
                .and_then(|c| c.card.parse::<Card>().ok())
        })?;
        let game = play.game();
        let (_, command) = game.in_force().iter().find(|(s, _)| *s == seq)?;
        let (to, read, with) = command.with_card(lying)?;
        if read == Some(lying) {
            return None;
        }
        let state = game.sitting().state();
        // The card lying there is a card a hand holds already: the camera
        // read it a second time, and the line is no card (taken back).
        let holder = state.order().iter().copied().find(|&seat| {
            state
                .seat_round(seat)
                .is_some_and(|sr| sr.hands.iter().any(|h| h.cards.contains(lying)))
        });
        if let Some(holder) = holder {
            return Some(Line::Correct {
                line: seq,
                with: None,
                reason: format!(
                    "no card: the camera read {}'s {lying} a second time (the dealer's answer \
                     to \"{}\")",
                    state.name(holder),
                    question.text
                ),
            });
        }
        let reason = format!(
            "the card to {} was {lying}, not {} as the camera read it (the dealer's answer to \"{}\")",
            state.name(to),
            read.map_or_else(|| "face down".to_owned(), |c| c.to_string()),
            question.text
        );
        Some(Line::Correct {
            line: seq,
            with: Some(Box::new(Line::from_command(&with, state))),
            reason,
        })
    }

    /// The card of a hand the table asks for, as the dealer sees the hand
    /// (its cards in the order dealt, each in the last frame of its round
    /// up to `frame` that shows it; `Some(None)` for a card lying face
    /// down): the one
    /// after the cards the table's `cards` hold, unless they hold it
    /// already: the camera missed a card before the last it saw (a card
    /// drawn under the next, seed 18 with the camera out from 7 s to 8.5
    /// s), and the dealer names the first card they do not hold.
    #[allow(clippy::option_option)] // none found, or found face down
    fn card_missing(
        &self,
        frame: u64,
        round: u32,
        seat: Seat,
        hand: u8,
        cards: &pone_engine::hand::Cards,
    ) -> Option<Option<Card>> {
        let held = |card: &Option<Card>| card.is_some_and(|card| cards.contains(card));
        let round = self.hands_round(frame, round, seat, hand, cards.len());
        let next = hand_label(&round, seat, hand, cards.len()).map(|c| c.card.parse::<Card>().ok());
        if !next.as_ref().is_some_and(held) {
            return next;
        }
        (0..cards.len())
            .filter_map(|position| hand_label(&round, seat, hand, position))
            .map(|label| label.card.parse::<Card>().ok())
            .find(|card| card.is_some() && !held(card))
    }

    /// Where the round's first card of `seat` lies (its box's centre), in
    /// the last frame up to `frame` that shows it: the seat's place, as the
    /// dealer drags it on the camera's picture.
    fn first_card_at(&self, frame: u64, seat: Seat) -> Option<[f32; 2]> {
        hand_label(&self.hands_round(frame, 0, seat, 1, 0), seat, 1, 0)
            .map(|c| crate::boxes::centre(c.bbox))
    }

    /// The frames of the round a hand the table asks about was dealt in,
    /// latest first, up to `frame`: of the runs of frames in which the seat
    /// holds cards (the cards gathered between two rounds part them), the
    /// latest that shows as many cards of the hand as the table holds
    /// (`held` cards); when none does, every frame up to `frame`.
    ///
    /// The dealer answers from the hand asked about, not from the cards
    /// lying at its place a round before or after. Seed 43, camera out from
    /// 11 s to 12.5 s: asked for a card Bob drew unseen, he drew none, and
    /// the last frame showing a third card of Bob's was the round before's.
    /// The table may be a round behind: asked at frame 96 to show Bob's
    /// hand of the round before, his next round's first card lies there.
    ///
    /// The table's round (`round`, from 1; 0 for none) picks the round's
    /// run of frames of that number when there is one by `frame` (on the
    /// 111 renders of seeds 8 and 11-120, one run for each round): the
    /// dealer knows which round he is asked about, and a hand of the next
    /// round may hold as many cards (blind seed 114 at 10 fps, the camera
    /// out from 4 s to 7 s: asked for Ann's second card of the first round,
    /// he answered with her second card of the next, still to come).
    fn hands_round(
        &self,
        frame: u64,
        round: u32,
        seat: Seat,
        hand: u8,
        held: usize,
    ) -> Vec<crate::render::FrameLabels> {
        // Whether a seat (`None`: any seat) holds cards in a frame.
        let holds = |labels: &crate::render::FrameLabels, who: Option<u8>| {
            labels.cards.iter().any(|c| {
                matches!(c.role, crate::scene::Role::Hand { seat: s, .. } if who.is_none_or(|w| w == s))
            })
        };
        // A round's frames: a run in which some seat holds cards (the
        // round's cards are gathered before the next is dealt). Not the
        // seat's own runs: a card dealt at its place by mistake and moved
        // to its seat's makes a run of its own (seed 35's filmed slips).
        if let Some(nth) = round.checked_sub(1) {
            let mut runs: Vec<Vec<crate::render::FrameLabels>> = Vec::new();
            let mut holding = false;
            for labels in (0..=frame).filter_map(|f| self.labels(f)) {
                let now = holds(&labels, None);
                if now && !holding {
                    runs.push(Vec::new());
                }
                if now && let Some(run) = runs.last_mut() {
                    run.push(labels);
                }
                holding = now;
            }
            if let Some(mut run) = usize::try_from(nth)
                .ok()
                .and_then(|n| runs.into_iter().nth(n))
            {
                run.reverse();
                return run;
            }
        }
        // As many: the camera may have put the hand's cards in another
        // order than dealt (seed 21 at 7 players: Eve's AC, dealt second,
        // was her first by the camera), so the faces are not compared.
        let agrees = |run: &[crate::render::FrameLabels]| {
            !run.is_empty()
                && held.checked_sub(1).is_none_or(|last| {
                    run.iter()
                        .any(|labels| hand_label_in(labels, seat, hand, last).is_some())
                })
        };
        // Read back from `frame` only as far as the run that agrees.
        let mut frames = Vec::new();
        let mut run_from = 0;
        for labels in (0..=frame).rev().filter_map(|f| self.labels(f)) {
            if holds(&labels, Some(seat.0)) {
                frames.push(labels);
                continue;
            }
            if agrees(&frames[run_from..]) {
                return frames.split_off(run_from);
            }
            frames.push(labels);
            run_from = frames.len();
        }
        if agrees(&frames[run_from..]) {
            return frames.split_off(run_from);
        }
        frames
    }

    /// Frame `f`'s labels, if it has any that read.
    fn labels(&self, f: u64) -> Option<crate::render::FrameLabels> {
        let path = self.dir.join("labels").join(format!("{f:06}.json"));
        serde_json::from_slice(&std::fs::read(path).ok()?).ok()
    }

    /// A hand's face-up cards in the last frame of its round (the table
    /// holds `held`) up to `frame` that shows any (the cards may be gathered
    /// by then).
    fn hand_shown(
        &self,
        frame: u64,
        round: u32,
        seat: Seat,
        hand: u8,
        held: usize,
    ) -> Option<Vec<Card>> {
        self.hands_round(frame, round, seat, hand, held)
            .into_iter()
            .find_map(|labels| {
                let cards: Vec<Card> = labels
                    .cards
                    .iter()
                    .filter(|c| {
                        matches!(c.role, crate::scene::Role::Hand { seat: s, hand: h, .. }
                        if s == seat.0 && h == hand)
                    })
                    .filter_map(|c| c.card.parse().ok())
                    .collect();
                (!cards.is_empty()).then_some(cards)
            })
    }
}

/// The label of the card at place `position` of a hand (0 first) in the
/// last of a round's frames (latest first) that shows it.
fn hand_label(
    round: &[crate::render::FrameLabels],
    seat: Seat,
    hand: u8,
    position: usize,
) -> Option<crate::render::CardLabel> {
    round
        .iter()
        .find_map(|labels| hand_label_in(labels, seat, hand, position))
        .cloned()
}

/// The label of the card at place `position` of a hand in one frame's labels.
fn hand_label_in(
    labels: &crate::render::FrameLabels,
    seat: Seat,
    hand: u8,
    position: usize,
) -> Option<&crate::render::CardLabel> {
    labels.cards.iter().find(|c| {
        matches!(c.role, crate::scene::Role::Hand { seat: s, hand: h, position: p }
            if s == seat.0 && h == hand && usize::from(p) == position)
    })
}

#[cfg(test)]
mod tests {
    use super::FilmedSlip;

    #[test]
    fn a_slip_is_a_card_of_the_sitting_and_how_many_seats_on_it_lands() {
        let slip = |text: &str| text.parse::<FilmedSlip>();
        assert_eq!(
            slip("14"),
            Ok(FilmedSlip {
                card: 14,
                seats_on: 1
            })
        );
        assert_eq!(
            slip("24+2"),
            Ok(FilmedSlip {
                card: 24,
                seats_on: 2
            })
        );
        for bad in ["", "0", "x", "3+", "3+0", "-1"] {
            let said = slip(bad).expect_err(bad);
            assert!(said.contains("CARD+SEATS"), "{bad}: {said}");
        }
    }
}

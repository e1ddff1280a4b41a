//! The dealer's desk: a game kept from the dealer's keys (or taps), for a
//! table with no camera, or for what the camera cannot see.
//!
//! Every key goes to [`Desk::press`]; what the table waits for decides what
//! it means:
//!
//! | keys | when | what |
//! |---|---|---|
//! | a rank (`A`, `2`-`9`, `T`, `J`, `Q`, `K`) then a suit (`S`, `H`, `D`, `C`) | a card is due | the card, to whoever it is due |
//! | `X` | a card is due | the card, dealt face down and unseen |
//! | a rank then a suit | the showdown waits for a card dealt face down | the card shown, in the first hand that must show one (the dealer's, then each standing hand in turn) |
//! | digits, then `Enter` | stakes are due | the stake of the first player who has none (in the eight-round deal's staked games, before any card) |
//! | `S` or `A`; `R` or `B` | the eight-round deal: a player elects | sympathy or antipathy (Sympathy and Antipathy); red or black (Rouge et Noir) |
//! | `D` | stakes are made | the dealer doubles |
//! | `C` | a hand is in play | content: it stands |
//! | `V` | a pair is in play | divide it (the same stake on the new hand) |
//! | `U` (or `Backspace` with nothing typed) | any time | undo the last command |
//! | `W`, words, then `Enter` (the window's "Why" field) | before an undo or a fix | the dealer's own reason: it goes in the journal with the undo's or the correction's |
//! | `R` | after an undo | redo it |
//! | `F`, the number of a card or a stake, then the right card (or the stake's digits and `Enter`) | a card or a stake was typed (or read) wrong, however long ago | fix it (the correction and its reason go in the journal); `0` shows older ones, nine at a time |
//! | `F`, the number of a surplus card, a card exposed or rejected, or a deal sold, then the right card (or the price's digits and `Enter`) | its card or price was typed wrong | fix it (a correction with its reason) |
//! | `F`, the number of a stake, then `X` | the stake was made in error (a player sitting out, the wrong player) | take it back (a correction with its reason); the stake is due again |
//! | `F`, the number of the brulet, then its cards again (or `X`) | its cards were typed wrong (or there was none) | fix it, or take it back (a correction with its reason) |
//! | `F`, the number of a double, content, divide, over or anything else of the `M` menu | it was said in error, however long ago | take it back (a correction with its reason) |
//! | `F`, the number of the first dealer's line, then the right dealer's digit | the wrong player was named to deal first | fix it (a correction with its reason) |
//! | `F`, the number of the draw for the deal, then its cards again from the first (`Backspace` takes back the last) | a card of the draw was typed wrong | fix it (a correction with its reason; refused whole if the game dealt since cannot stand it) |
//! | `E` | any time | export the ledger: `<journal>.ledger.csv` and `.ledger.json` beside the journal (`pone-sitting.ledger.*` here without one) |
//! | `O` | a hand is in play | the player says he is over (his cards face down) |
//! | `M`, a digit, then whose (a digit, in seating order) and what it needs | the engine allows it now | say or mark what the cards do not: `1` a natural declared, `2` the deal sold (then the price's digits and `Enter`), `3` the deal declined, `4` the brulet (the bottom card, and the top card after an ace or a tenth card, or `Enter`), `5` a player retires, `6` the pack reshuffled for confusion, `7` a surplus card (the card, or `X`), `8` a surplus card put right, `9` a card exposed (the card), `0` a card rejected (the card, or `X`) |
//! | a rank then a suit | drawing for the deal (no dealer yet) | the card turned up for the next player; the first ace (or knave) deals |
//! | `Escape` | something typed | forget it |
//! | `Y` | at a camera's table, a question open | settled: the reading (or what the camera saw) stands; a note of it goes in the journal |
//! | a rank then a suit (or `X`) | at a camera's table, a question asks for a card it never saw | that card, put in where it was due (or turned up in its hand) |
//! | ranks and suits, then `Enter` (`Backspace` takes back the last) | at a camera's table, a question asks for the dealer's whole hand | his hand shown: the cards he held face down turned up, and any he drew unseen |
//! | `Y` or `N` | the engine flagged a player's card exposed in dealing | he keeps it, or rejects it (to the pone's pile) |
//! | `Y` or `N` | the engine flagged two cards dealt to a player at once | put right (the surplus goes on to the next player), or he rejects one (then the card, or `X`) |
//! | `Y` or `N` | a natural paid on a player's word, his cards then shown not a natural | take the natural back (a correction with its reason; its payment goes), or leave it |
//! | `N`, then the right card | the question doubts a card | the card was another: a correction with its reason |
//!
//! At a camera's table the camera deals the cards: card keys and redo are
//! refused, `U` takes back the dealer's own last word (a stake, the double,
//! content, divide), and `F` any of them, however long ago; a card is fixed
//! (`F`) or a doubtful reading answered (`Y`, `N`) with a `correct` line that the pipeline's game takes
//! ([`Desk::take_corrections`]).
//!
//! Each accepted command is written to the journal file at once (when there
//! is one), so a sitting is never lost; a refused one changes nothing and
//! says why.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use pone_engine::script::{Line, Meta};

use pone_engine::eight::Choice;
use pone_engine::event::{Declaration, Event, Flag, Reason};
use pone_engine::ledger::RoundRecord;
use pone_engine::sitting::{Phase, State};
use pone_engine::{Card, Command, Game, HouseRules, Rank, Seat, Suit};
use pone_vision::play::Wanted;

/// A key the desk understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A letter or digit, as typed (either case).
    Char(char),
    /// Confirms digits typed.
    Enter,
    /// Forgets what was typed.
    Escape,
    /// Takes back the last character typed, or, with nothing typed, undoes.
    Backspace,
}

/// What the desk said last: done, or refused and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// A command was accepted: what it was.
    Done(String),
    /// A key or a command was refused: why.
    Refused(String),
}

/// What has been typed towards the next command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
enum Typed {
    #[default]
    Nothing,
    /// A card's rank, waiting for its suit.
    Rank(Rank),
    /// A stake's digits, waiting for `Enter`.
    Digits(String),
    /// Fixing a card dealt: which (its journal line, once chosen), and the
    /// right card's rank once typed; while choosing, the page of choices
    /// shown (nine to a page, the most recent first).
    Fixing {
        line: Option<u64>,
        rank: Option<Rank>,
        page: usize,
        /// Of a hand's cards shown together, which is fixed (from the
        /// first), once chosen.
        shown: Option<usize>,
    },
    /// Answering the open question with the right card: its rank once typed.
    Answering { rank: Option<Rank> },
    /// Answering the open question asking for the dealer's whole hand: the
    /// cards typed so far, in the order dealt, and the next one's rank once
    /// typed; `Enter` gives them.
    Hand {
        cards: Vec<Card>,
        rank: Option<Rank>,
    },
    /// Fixing a stake made or the price of a deal sold (its journal line):
    /// the right amount's digits.
    FixingAmount { line: u64, digits: String },
    /// Fixing who was named the first dealer (his journal line): the right
    /// player's digit, in seating order.
    FixingDealer { line: u64 },
    /// A declaration or an irregularity (`M`).
    Saying(Menu),
    /// Fixing the draw for the deal (its journal line): the cards turned up
    /// again from the first, and the rank of the next once typed.
    Redrawing {
        line: u64,
        cards: Vec<Card>,
        rank: Option<Rank>,
    },
}

/// How far the `M` menu has come: which entry, once chosen (a digit), then
/// whose (a digit, in seating order), then what it needs: a price's digits,
/// a card's rank (and the brulet's bottom card once typed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Menu {
    what: Option<Say>,
    player: Option<Seat>,
    rank: Option<Rank>,
    digits: String,
    bottom: Option<Card>,
    /// The journal line this fixes (the brulet said again, `F`).
    fixing: Option<u64>,
}

impl Menu {
    /// The menu at entry `what` (nothing more chosen).
    fn at(what: Say) -> Menu {
        Menu {
            what: Some(what),
            ..Menu::default()
        }
    }

    /// The menu at entry `what` for `player`.
    fn of(what: Say, player: Seat) -> Menu {
        Menu {
            player: Some(player),
            ..Menu::at(what)
        }
    }
}

/// What the dealer may say or mark from the `M` menu, by its digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Say {
    Natural,
    Sell,
    Decline,
    Brulet,
    Retire,
    Reshuffle,
    Surplus,
    Rectify,
    Exposed,
    Reject,
}

impl Say {
    /// The menu, in digit order (`1` first, `0` last).
    const MENU: [Say; 10] = [
        Say::Natural,
        Say::Sell,
        Say::Decline,
        Say::Brulet,
        Say::Retire,
        Say::Reshuffle,
        Say::Surplus,
        Say::Rectify,
        Say::Exposed,
        Say::Reject,
    ];

    /// The entry a digit chooses.
    fn of_digit(c: char) -> Option<Say> {
        let d = c.to_digit(10)? as usize;
        Say::MENU.get(if d == 0 { 9 } else { d - 1 }).copied()
    }

    /// Its words in the menu.
    fn words(self) -> &'static str {
        match self {
            Say::Natural => "a natural declared",
            Say::Sell => "the deal sold",
            Say::Decline => "the deal declined",
            Say::Brulet => "the brulet",
            Say::Retire => "a player retires",
            Say::Reshuffle => "the pack reshuffled (confusion)",
            Say::Surplus => "a surplus card",
            Say::Rectify => "a surplus card put right",
            Say::Exposed => "a card exposed",
            Say::Reject => "a card rejected",
        }
    }

    /// Whether it is said of one player, chosen next.
    fn of_a_player(self) -> bool {
        !matches!(self, Say::Decline | Say::Brulet | Say::Reshuffle)
    }
}

/// A game kept from the dealer's keys.
pub struct Desk {
    game: Game,
    typed: Typed,
    said: Option<Said>,
    journal: Option<PathBuf>,
    /// At a camera's table: the camera deals the cards, and the desk gives
    /// only what the camera cannot see (stakes, the double, content, divide,
    /// over, and the `M` menu's declarations and irregularities).
    camera_deals: bool,
    /// The camera's questions (at a camera's table), oldest first, and
    /// whether each is settled.
    questions: Vec<(pone_vision::play::Question, bool)>,
    /// Corrections made here for the pipeline's game, oldest first.
    corrections: Vec<Line>,
    /// The cards turned up so far in the draw for the deal.
    drawn: Vec<Card>,
    /// At a camera's table: the dealer said something the pipeline's game
    /// has not come back with yet (its journal lines may be numbered
    /// otherwise there, so no correction is made until it has).
    ahead: bool,
    /// The engine's flags answered here (`Y` or `N`): the round's number
    /// and the flag's place among its flags.
    flags_answered: Vec<(u32, usize)>,
    /// The dealer's own words for the next undo or correction (the
    /// window's "Why" field): they go in its reason in the journal.
    why: String,
}

/// How a note of a flag answered at the desk begins (then the flag's place
/// among its round's flags, and the round: `... 0 of round 2: Bob keeps the
/// 7S`).
const FLAG_ANSWERED: &str = "the dealer answered the engine's flag";

impl Desk {
    /// A new sitting of `players` (in seating order) under `rules`, the first
    /// of them dealing; its journal written to `journal` when given.
    pub fn new(
        players: Vec<String>,
        rules: HouseRules,
        journal: Option<PathBuf>,
    ) -> anyhow::Result<Desk> {
        Desk::with_dealer(players, rules, journal, Some(Seat(0)))
    }

    /// A new sitting, as [`Desk::new`], with `dealer` dealing first, or
    /// (`None`) the table drawing for the deal: cards turned up round the
    /// table from the first player, typed at the desk, until the first ace
    /// (or knave, as the house rules say).
    pub fn with_dealer(
        players: Vec<String>,
        rules: HouseRules,
        journal: Option<PathBuf>,
        dealer: Option<Seat>,
    ) -> anyhow::Result<Desk> {
        let mut game = Game::new(players, rules)?;
        if let Some(dealer) = dealer {
            game.command(None, &Command::Dealer { player: dealer })?;
        }
        let desk = Desk {
            game,
            typed: Typed::Nothing,
            said: None,
            journal,
            camera_deals: false,
            questions: Vec::new(),
            corrections: Vec::new(),
            drawn: Vec::new(),
            ahead: false,
            flags_answered: Vec::new(),
            why: String::new(),
        };
        desk.save()?;
        Ok(desk)
    }

    /// The sitting kept in the journal `path` (written by a desk, `pone
    /// replay` reads the same file), to go on with it.
    pub fn resume(path: &Path) -> anyhow::Result<Desk> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the journal {}", path.display()))?;
        let game = pone_engine::journal::replay(&text).with_context(|| {
            format!(
                "{}: not a journal Pone can go on with (fix or remove the line named, \
                 or start a new sitting with another file)",
                path.display()
            )
        })?;
        Ok(Desk {
            flags_answered: Desk::flags_answered_in(&game),
            game,
            typed: Typed::Nothing,
            said: None,
            journal: Some(path.to_owned()),
            camera_deals: false,
            questions: Vec::new(),
            corrections: Vec::new(),
            drawn: Vec::new(),
            ahead: false,
            why: String::new(),
        })
    }

    /// The dealer's own words for the next undo or correction, to edit (the
    /// window's "Why" field): they go in its reason in the journal, after
    /// what the desk says was done, and are cleared once it is taken.
    pub fn why_mut(&mut self) -> &mut String {
        &mut self.why
    }

    /// `reason`, with the dealer's own words when he gave any.
    fn with_why(&self, reason: String) -> String {
        match self.why.trim() {
            "" => reason,
            why => format!("{reason}; the dealer's reason: {why}"),
        }
    }

    /// A desk at a camera's table (`pone play`'s window): the game is the
    /// pipeline's, replaced each frame ([`Desk::follow`]); the dealer's
    /// commands are taken out with [`Desk::said_commands`] and given to it.
    #[must_use]
    pub fn at_camera(game: Game) -> Desk {
        Desk {
            game,
            typed: Typed::Nothing,
            said: None,
            journal: None,
            camera_deals: true,
            questions: Vec::new(),
            corrections: Vec::new(),
            drawn: Vec::new(),
            ahead: false,
            flags_answered: Vec::new(),
            why: String::new(),
        }
    }

    /// Whether the camera deals the cards here (`pone play`'s window).
    #[must_use]
    pub fn camera_deals(&self) -> bool {
        self.camera_deals
    }

    /// Follows the pipeline's game (what is typed stays).
    pub fn follow(&mut self, game: Game) {
        self.game = game;
        self.ahead = false;
    }

    /// The commands the dealer gave since the game was last followed, as
    /// lines for the pipeline, oldest first.
    pub fn said_commands(&self, since: usize) -> Vec<Line> {
        let state = self.game.sitting().state();
        self.game
            .in_force()
            .iter()
            .skip(since)
            .map(|(_, c)| Line::from_command(c, state))
            .collect()
    }

    /// The camera's questions so far (the pipeline's, oldest first: new
    /// ones are added, and those settled here stay settled).
    pub fn ask(&mut self, questions: &[pone_vision::play::Question]) {
        let same = |a: &pone_vision::play::Question, b: &pone_vision::play::Question| {
            (a.frame, &a.text, a.about) == (b.frame, &b.text, b.about)
        };
        for (k, q) in questions.iter().enumerate() {
            if self.questions.get(k).is_none_or(|(old, _)| !same(old, q)) {
                self.questions.truncate(k);
                self.questions.push((q.clone(), false));
            }
            // Settled by the camera itself since (a doubted card read surely).
            if q.answered.is_some()
                && let Some(entry) = self.questions.get_mut(k)
            {
                *entry = (q.clone(), true);
            }
        }
    }

    /// The oldest question not settled yet: its number and itself.
    #[must_use]
    pub fn open_question(&self) -> Option<(usize, &pone_vision::play::Question)> {
        self.questions
            .iter()
            .enumerate()
            .find(|(_, (_, settled))| !settled)
            .map(|(k, (q, _))| (k, q))
    }

    /// Whether question `k` was settled at the desk.
    #[must_use]
    pub fn settled(&self, k: usize) -> bool {
        self.questions.get(k).is_some_and(|(_, s)| *s)
    }

    /// The oldest flag of the round in play that asks the dealer for an
    /// answer and has none yet: a player's card exposed in dealing (he keeps
    /// or rejects it), two cards dealt to one player at once (put right, or
    /// one rejected), a natural paid that the cards contradict (taken back
    /// or left), an over the cards contradict while that hand plays on (his
    /// cards right, or one of them fixed). Its round, its place, and the flag.
    fn open_flag(&self) -> Option<(u32, usize, Flag)> {
        let state = self.game.sitting().state();
        if state.phase() == Phase::Between {
            return None;
        }
        let round = self.game.ledger().rounds.last()?;
        round
            .flags
            .iter()
            .enumerate()
            .filter(|(_, f)| match f {
                Flag::CardExposed { player, card } => {
                    state.dealer() != Some(*player) && !self.dealt_since_exposed(*player, *card)
                }
                Flag::SurplusCard { .. } => true,
                Flag::DeclarationContradicted {
                    player,
                    hand,
                    declared: Declaration::Natural,
                } => natural_paid(round, *player, *hand) && self.natural_line(*player).is_some(),
                // Asked while the hand said over plays on: is a card of it wrong?
                Flag::DeclarationContradicted {
                    player,
                    hand,
                    declared: Declaration::Over,
                } => state.turn() == Some((*player, *hand)),
            })
            .find(|(k, _)| !self.flags_answered.contains(&(round.round, *k)))
            .map(|(k, f)| (round.round, k, f.clone()))
    }

    /// The journal line of `player`'s natural declared, in force.
    fn natural_line(&self, player: Seat) -> Option<u64> {
        self.game
            .in_force()
            .iter()
            .rev()
            .find(|(_, c)| matches!(c, Command::Natural { player: p, .. } if *p == player))
            .map(|(seq, _)| *seq)
    }

    /// Whether a card was dealt after `card` of `player` was marked exposed:
    /// then he kept it (he rejects it before the next card, or not at all).
    fn dealt_since_exposed(&self, player: Seat, card: Card) -> bool {
        let in_force = self.game.in_force();
        in_force
            .iter()
            .rposition(|(_, c)| *c == Command::Exposed { player, card })
            .is_none_or(|at| {
                in_force[at + 1..]
                    .iter()
                    .any(|(_, c)| matches!(c, Command::Card { .. }))
            })
    }

    /// The open question and its keys, as the desk shows it: the camera's,
    /// or else an irregularity the engine flagged.
    #[must_use]
    pub fn question_prompt(&self) -> Option<String> {
        let Some((_, q)) = self.open_question() else {
            let (_, _, flag) = self.open_flag()?;
            let state = self.game.sitting().state();
            return Some(match flag {
                Flag::CardExposed { player, card } => format!(
                    "Check: {}'s card {card} was exposed in dealing. Y: he keeps it; N: he \
                     rejects it (to the pone's pile; the next card is his)",
                    state.name(player)
                ),
                Flag::SurplusCard { player } => format!(
                    "Check: {} was dealt two cards at once. Y: put right, the surplus goes on \
                     to the next player; N: he rejects one of them (then the card, or X)",
                    state.name(player)
                ),
                Flag::DeclarationContradicted {
                    player,
                    declared: Declaration::Over,
                    ..
                } => format!(
                    "Check: {} said over, but his cards as taken cannot pass 21. Y: they are \
                     right, he plays on; N: a card of his was taken wrong (then choose it to fix)",
                    state.name(player)
                ),
                Flag::DeclarationContradicted { player, .. } => format!(
                    "Check: {} said natural and was paid, but his cards are not an ace and a \
                     tenth card. Y: take the natural back (its payment goes with it); N: leave it",
                    state.name(player)
                ),
            });
        };
        Some(if let Some(Wanted::Hand { .. }) = q.wants {
            format!(
                "Camera asks: {}. The cards: rank then suit for each, in the order dealt, then \
                 Enter; Y: settled as it stands",
                q.text
            )
        } else if let Some(wanted) = q.wants {
            let face_down = if wanted.may_be_face_down() {
                ", or X face down"
            } else {
                ""
            };
            format!(
                "Camera asks: {}. The card: rank then suit{face_down}; Y: settled as it stands",
                q.text
            )
        } else if q.about.is_some() {
            format!("Camera asks: {}. Y: right; N: it is another card", q.text)
        } else if q.natural.is_some() {
            format!(
                "Camera asks: {}. Y: they are an ace and a tenth card; N: they are not (the \
                 natural taken back, its payment with it)",
                q.text
            )
        } else {
            format!("Camera asks: {}. Y: settled", q.text)
        })
    }

    /// The corrections made here since last taken, and the hands shown
    /// whole for the camera's questions, for the pipeline's game.
    pub fn take_corrections(&mut self) -> Vec<Line> {
        std::mem::take(&mut self.corrections)
    }

    /// The game kept.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The journal the desk writes, when it writes one.
    #[must_use]
    pub fn journal(&self) -> Option<&Path> {
        self.journal.as_deref()
    }

    /// What the desk said last.
    pub fn said(&self) -> Option<&Said> {
        self.said.as_ref()
    }

    /// What has been typed towards the next command, as shown (`Q`, `12`).
    pub fn typed(&self) -> String {
        match &self.typed {
            Typed::Nothing | Typed::FixingDealer { .. } => String::new(),
            Typed::Rank(rank) => rank.letter().to_string(),
            Typed::Digits(digits) | Typed::FixingAmount { digits, .. } => digits.clone(),
            Typed::Fixing { rank, .. }
            | Typed::Answering { rank }
            | Typed::Redrawing { rank, .. } => {
                rank.map(|r| r.letter().to_string()).unwrap_or_default()
            }
            Typed::Hand { cards, rank } => cards
                .iter()
                .map(ToString::to_string)
                .chain(rank.map(|r| r.letter().to_string()))
                .collect::<Vec<_>>()
                .join(" "),
            Typed::Saying(menu) => menu
                .rank
                .map_or_else(|| menu.digits.clone(), |r| r.letter().to_string()),
        }
    }

    /// What the table waits for, and the keys that give it.
    pub fn prompt(&self) -> String {
        let state = self.game.sitting().state();
        if let Typed::Answering { .. } = &self.typed
            && let Some((_, q)) = self.open_question()
        {
            return format!(
                "{}: the right card, rank then suit (Escape: leave it)",
                q.text
            );
        }
        if let Typed::Hand { cards, .. } = &self.typed
            && let Some((k, _)) = self.open_wanted()
        {
            let q = &self.questions[k].0;
            let so_far = if cards.is_empty() {
                "none yet".to_owned()
            } else {
                card_words(cards)
            };
            return format!(
                "{}: typed so far {so_far}; the next card, rank then suit, or Enter when the \
                 hand is whole (Backspace: take back the last; Escape: leave it)",
                q.text
            );
        }
        if let Some(prompt) = self.fixing_prompt() {
            return prompt;
        }
        if self.drawing() {
            let word = state.rules().first_dealer.word();
            return format!(
                "Draw for the deal: cards face up round the table, the first {word} deals. \
                 Card to {}: rank then suit",
                self.draw_seat_name()
            );
        }
        if let Some(prompt) = wager_prompt(state) {
            return prompt;
        }
        if let Some((seat, hand)) = state.due_card() {
            let hand = if has_divided(state, seat) {
                format!(", hand {hand}")
            } else {
                String::new()
            };
            let choices = if matches!(state.phase(), Phase::Drawing { .. } | Phase::Dealer) {
                "; C: content; V: divide"
            } else if may_double(state) {
                "; D: the dealer doubles"
            } else {
                ""
            };
            if self.camera_deals {
                return format!(
                    "The camera deals: the next card goes to {}{hand}{choices}",
                    state.name(seat)
                );
            }
            if state.phase() == Phase::Turning {
                return format!(
                    "{}: card to {}, turned up: rank then suit (QH, TD, 7S)",
                    state.game(),
                    state.name(seat)
                );
            }
            return format!(
                "Card to {}{hand}: rank then suit (QH, TD, 7S), X face down{choices}",
                state.name(seat)
            );
        }
        if let Some((seat, hand)) = state.to_show() {
            let hand = if has_divided(state, seat) {
                format!(" (hand {hand})")
            } else {
                String::new()
            };
            return format!(
                "Showdown: {}'s hand{hand} has a card face down: rank then suit to show it",
                state.name(seat)
            );
        }
        match state.phase() {
            Phase::Showdown => "Showdown: cards dealt face down must be shown".into(),
            _ => "Waiting".into(),
        }
    }

    /// The prompt of the `M` menu: its entries, then whose, then what the
    /// entry chosen needs.
    fn say_prompt(&self, menu: &Menu) -> String {
        let state = self.game.sitting().state();
        let Some(what) = menu.what else {
            let entries: Vec<String> = Say::MENU
                .iter()
                .enumerate()
                .map(|(k, say)| format!("{}: {}", (k + 1) % 10, say.words()))
                .collect();
            return format!("Say or mark: {} (Escape: none)", entries.join(", "));
        };
        let Some(player) = menu.player.filter(|_| what.of_a_player()) else {
            if what == Say::Brulet {
                let again = if menu.fixing.is_some() {
                    " (fixing it: its cards again, or X: there was none)"
                } else {
                    ""
                };
                return match menu.bottom {
                    None => format!(
                        "The brulet{again}: the bottom card, rank then suit (Escape: leave it)"
                    ),
                    Some(bottom) => format!(
                        "The brulet{again}: {bottom} at the bottom; the top card, rank then suit \
                         (Enter: not looked at)"
                    ),
                };
            }
            return format!(
                "{}: whose? {} (Escape: none)",
                capitalised(what.words()),
                numbered_players(state)
            );
        };
        let name = state.name(player);
        match what {
            Say::Sell => format!("The deal sold to {name}: the price, digits then Enter"),
            Say::Surplus | Say::Reject => format!(
                "{} ({name}): the card, rank then suit, or X unseen",
                capitalised(what.words())
            ),
            _ => format!(
                "{} ({name}): the card, rank then suit",
                capitalised(what.words())
            ),
        }
    }

    /// The prompt while fixing: the choices (a page of them), or what the
    /// chosen card must be.
    fn fix_prompt(&self, line: Option<u64>, page: usize, shown: Option<usize>) -> String {
        let fixable = self.fixable();
        if let Some((seq, words)) = line.and_then(|l| fixable.iter().find(|d| d.0 == l)) {
            if let Some(Command::Show { cards, .. }) = self.command_at(*seq)
                && cards.len() > 1
            {
                if let Some(card) = shown.and_then(|at| cards.get(at)) {
                    return format!(
                        "Fix the {card} of {words}: the right card, rank then suit (Escape: leave it)"
                    );
                }
                let which: Vec<String> = cards
                    .iter()
                    .enumerate()
                    .map(|(k, card)| format!("{}: {card}", k + 1))
                    .collect();
                return format!(
                    "Fix {words}: which card? {} (Escape: leave it)",
                    which.join(", ")
                );
            }
            return if matches!(self.command_at(*seq), Some(Command::Card { .. })) {
                format!(
                    "Fix {words}: the right card, rank then suit, or X: no card was dealt, take it back (Escape: leave it)"
                )
            } else {
                format!("Fix {words}: the right card, rank then suit (Escape: leave it)")
            };
        }
        let choices: Vec<String> = fixable
            .iter()
            .skip(page * FIX_PAGE)
            .take(FIX_PAGE)
            .enumerate()
            .map(|(k, (_, words))| format!("{}: {words}", k + 1))
            .collect();
        let more = if fixable.len() > FIX_PAGE {
            format!(
                ", 0: older (page {} of {})",
                page + 1,
                fixable.len().div_ceil(FIX_PAGE)
            )
        } else {
            String::new()
        };
        format!(
            "Fix or take back which? {}{more} (Escape: none)",
            choices.join(", ")
        )
    }

    /// One key from the dealer.
    pub fn press(&mut self, key: Key) {
        match key {
            Key::Escape => {
                self.typed = Typed::Nothing;
            }
            Key::Backspace => match &mut self.typed {
                Typed::Nothing => self.undo(),
                Typed::Fixing { .. }
                | Typed::Answering { .. }
                | Typed::Rank(_)
                | Typed::Saying(_)
                | Typed::FixingDealer { .. } => {
                    self.typed = Typed::Nothing;
                }
                Typed::FixingAmount { digits, .. } => {
                    if digits.pop().is_none() {
                        self.typed = Typed::Nothing;
                    }
                }
                // The rank typed, else the last card turned up again, else
                // the fix itself.
                Typed::Redrawing { cards, rank, .. } | Typed::Hand { cards, rank } => {
                    if rank.take().is_none() && cards.pop().is_none() {
                        self.typed = Typed::Nothing;
                    }
                }
                Typed::Digits(d) => {
                    d.pop();
                    if d.is_empty() {
                        self.typed = Typed::Nothing;
                    }
                }
            },
            Key::Enter => self.enter(),
            Key::Char(c) => self.char(c.to_ascii_uppercase()),
        }
    }

    /// A key that answers a question, types a stake being fixed, takes back
    /// a word, or is refused at a camera's table: whether it was one.
    fn answered_or_refused(&mut self, c: char) -> bool {
        if let Typed::Answering { rank } = self.typed {
            self.answering(rank, c);
            return true;
        }
        if let Typed::Hand { cards, rank } = &self.typed {
            let (mut cards, rank) = (cards.clone(), *rank);
            let waiting = |rank| Typed::Hand {
                cards: cards.clone(),
                rank: Some(rank),
            };
            if let Some(card) = self.rank_then_suit(rank, c, waiting) {
                cards.push(card);
            }
            // A key refused leaves the cards typed so far.
            if matches!(self.typed, Typed::Nothing) {
                self.typed = Typed::Hand { cards, rank: None };
            }
            return true;
        }
        if let Typed::FixingAmount { line, digits } = &self.typed {
            let (line, nothing_typed) = (*line, digits.is_empty());
            let stake = self
                .command_at(line)
                .filter(|c| matches!(c, Command::Stake { .. }));
            if stake.is_some() && c == 'X' && nothing_typed {
                // A stake made in error (by a player sitting the round out,
                // or typed for the wrong one): taken back.
                self.taken_back(line);
            } else if !c.is_ascii_digit() {
                let take_back = if stake.is_some() {
                    ", or X to take it back"
                } else {
                    ""
                };
                self.refuse(format!("{c}: digits, then Enter{take_back}"));
            } else if let Typed::FixingAmount { digits, .. } = &mut self.typed
                && digits.len() < 6
            {
                digits.push(c);
            }
            return true;
        }
        if matches!(self.typed, Typed::Nothing) && matches!(c, 'Y' | 'N') {
            self.answer(c == 'Y');
            return true;
        }
        // A question asking for a card the camera never saw: the card typed
        // answers it (X: a card of the deal dealt face down).
        if self.camera_deals
            && matches!(self.typed, Typed::Nothing)
            && let Some((k, wanted)) = self.open_wanted()
        {
            if let Some(rank) = rank_of(c) {
                self.typed = if matches!(wanted, Wanted::Hand { .. }) {
                    Typed::Hand {
                        cards: Vec::new(),
                        rank: Some(rank),
                    }
                } else {
                    Typed::Answering { rank: Some(rank) }
                };
                return true;
            }
            if c == 'X' && wanted.may_be_face_down() {
                self.give_wanted(k, wanted, None);
                return true;
            }
        }
        if self.camera_deals && matches!(self.typed, Typed::Nothing) && c == 'U' {
            self.take_back();
            return true;
        }
        if matches!(self.typed, Typed::Nothing)
            && let Some((player, choices)) = self.game.sitting().state().election_due()
            && let Some(&choice) = choices.iter().find(|&&ch| choice_key(ch) == c)
        {
            self.command(&Command::Choose { player, choice });
            return true;
        }
        if self.camera_deals
            && matches!(self.typed, Typed::Nothing)
            && (rank_of(c).is_some_and(|_| {
                let state = self.game.sitting().state();
                state.stake_due().is_none() && state.to_show().is_none()
            }) || matches!(c, 'X' | 'R'))
        {
            self.refuse(format!(
                "{c}: at a camera's table the camera deals the cards, and the desk gives stakes \
                 (digits, Enter), the double (D), content (C), divide (V), over (O), what the \
                 cards do not say (M), fixes a card (F) and answers the camera's questions (Y, N)"
            ));
            return true;
        }
        false
    }

    fn char(&mut self, c: char) {
        if self.answered_or_refused(c) {
            return;
        }
        let state = self.game.sitting().state();
        let showing = state.to_show().is_some();
        if matches!(self.typed, Typed::Fixing { .. }) {
            return self.fixing(c);
        }
        if let Typed::Saying(menu) = &self.typed {
            let menu = menu.clone();
            self.typed = Typed::Nothing;
            return self.saying(menu, c);
        }
        if let Typed::FixingDealer { line } = self.typed {
            return self.fix_dealer(line, c);
        }
        if let Typed::Redrawing { line, cards, rank } = &self.typed {
            let (line, cards, rank) = (*line, cards.clone(), *rank);
            return self.redrawing(line, cards, rank, c);
        }
        if let Typed::Rank(rank) = self.typed {
            match self.rank_then_suit(Some(rank), c, Typed::Rank) {
                Some(card) if self.drawing() => self.draw(card),
                Some(card) if showing => self.show(card),
                Some(card) => self.deal(Some(card)),
                None => {}
            }
            return;
        }
        if state.stake_due().is_some() && c.is_ascii_digit() {
            let mut digits = match std::mem::take(&mut self.typed) {
                Typed::Digits(d) => d,
                _ => String::new(),
            };
            if digits.len() < 6 {
                digits.push(c);
            }
            self.typed = Typed::Digits(digits);
            return;
        }
        if self.drawing() && !matches!(c, 'E' | 'R') && rank_of(c).is_none() {
            return match c {
                'U' => self.undo(),
                _ => self.refuse(format!("{c} means nothing in the draw: {}", self.prompt())),
            };
        }
        match c {
            'U' => self.undo(),
            'R' => self.redo(),
            'E' => self.export(),
            'F' => self.open_fix_menu(),
            'D' => self.command(&Command::Double),
            'X' => self.deal(None),
            'O' => match state.turn() {
                Some((player, hand)) => self.command(&Command::Over {
                    player,
                    hand: Some(hand),
                }),
                None => self.refuse("over: no hand is in play".into()),
            },
            'M' => self.typed = Typed::Saying(Menu::default()),
            'C' | 'V' => match state.turn() {
                Some((player, hand)) => self.command(&if c == 'C' {
                    Command::Content {
                        player,
                        hand: Some(hand),
                    }
                } else {
                    Command::Divide {
                        player,
                        hand: Some(hand),
                        amount: None,
                    }
                }),
                None => self.refuse(format!(
                    "{}: no hand is in play",
                    if c == 'C' { "content" } else { "divide" }
                )),
            },
            _ => match rank_of(c) {
                Some(rank) if state.due_card().is_some() || self.drawing() || showing => {
                    self.typed = Typed::Rank(rank);
                }
                Some(_) => self.refuse(format!("no card is due now: {}", self.prompt())),
                None => self.refuse(format!("{c} means nothing here: {}", self.prompt())),
            },
        }
    }

    /// A key in the `M` menu: the entry, whose, then what it needs; an
    /// entry complete goes to the engine, which says whether it stands. A
    /// key refused leaves the menu where it was.
    fn saying(&mut self, mut menu: Menu, c: char) {
        let Some(what) = menu.what else {
            return match Say::of_digit(c) {
                Some(Say::Decline) => self.command(&Command::Decline),
                Some(Say::Reshuffle) => self.command(&Command::Reshuffle),
                Some(say) => self.typed = Typed::Saying(Menu::at(say)),
                None => self.refuse_in(menu, &format!("{c}: choose by its digit")),
            };
        };
        if what == Say::Brulet {
            return self.brulet_key(menu, c);
        }
        let Some(player) = menu.player else {
            return self.whose(what, c);
        };
        if what == Say::Sell {
            if !c.is_ascii_digit() {
                return self.refuse_in(menu, &format!("{c}: a price is digits, then Enter"));
            }
            if menu.digits.len() < 6 {
                menu.digits.push(c);
            }
            self.typed = Typed::Saying(menu);
            return;
        }
        if menu.rank.is_none() && c == 'X' && matches!(what, Say::Surplus | Say::Reject) {
            return self.say_card(what, player, None);
        }
        if menu.rank.is_none() && rank_of(c).is_none() {
            return self.refuse_in(menu, &format!("{c} is no rank"));
        }
        let waiting = |rank| {
            Typed::Saying(Menu {
                rank: Some(rank),
                ..Menu::of(what, player)
            })
        };
        if let Some(card) = self.rank_then_suit(menu.rank, c, waiting) {
            self.say_card(what, player, Some(card));
        }
    }

    /// The player an entry of the menu is said of, by his digit: said at
    /// once when that is all it needs.
    fn whose(&mut self, what: Say, c: char) {
        let Some(player) = seat_of_digit(self.game.sitting().state(), c) else {
            return self.refuse_in(
                Menu::at(what),
                &format!("{c}: choose the player by his digit"),
            );
        };
        match what {
            Say::Natural => self.command(&Command::Natural { player, hand: None }),
            Say::Retire => self.command(&Command::Retire { player }),
            Say::Rectify => self.command(&Command::Rectify { player }),
            _ => self.typed = Typed::Saying(Menu::of(what, player)),
        }
    }

    /// Refuses a key in the menu, which stays where it was.
    fn refuse_in(&mut self, menu: Menu, why: &str) {
        self.typed = Typed::Saying(menu);
        self.refuse(format!("{why}: {}", self.prompt()));
    }

    /// The card of a surplus, an exposed or a rejected card, said.
    fn say_card(&mut self, what: Say, player: Seat, card: Option<Card>) {
        match (what, card) {
            (Say::Surplus, card) => self.command(&Command::Surplus { player, card }),
            (Say::Reject, card) => self.command(&Command::Reject { player, card }),
            (Say::Exposed, Some(card)) => self.command(&Command::Exposed { player, card }),
            _ => self.refuse("an exposed card is seen: rank then suit".into()),
        }
    }

    /// A key of the brulet: the bottom card, then, when it is an ace or a
    /// tenth card, the top card (or `Enter`, not looked at).
    fn brulet_key(&mut self, menu: Menu, c: char) {
        // Fixing a brulet that was none: `X` takes it back.
        if let Some(line) = menu.fixing
            && menu.rank.is_none()
            && menu.bottom.is_none()
            && c == 'X'
        {
            self.taken_back(line);
            return;
        }
        if menu.rank.is_none() && rank_of(c).is_none() {
            return self.refuse_in(menu, &format!("{c} is no rank"));
        }
        let (bottom, fixing) = (menu.bottom, menu.fixing);
        let waiting = move |rank| {
            Typed::Saying(Menu {
                rank: Some(rank),
                bottom,
                fixing,
                ..Menu::at(Say::Brulet)
            })
        };
        let Some(card) = self.rank_then_suit(menu.rank, c, waiting) else {
            return;
        };
        match bottom {
            Some(bottom) => self.brulet(fixing, bottom, Some(card)),
            None if card.rank == Rank::Ace || card.rank.is_tenth_card() => {
                self.said = Some(Said::Done(format!(
                    "{card} at the bottom: the top card is looked at too"
                )));
                self.typed = Typed::Saying(Menu {
                    bottom: Some(card),
                    fixing,
                    ..Menu::at(Say::Brulet)
                });
            }
            None => self.brulet(fixing, card, None),
        }
    }

    /// The brulet's cards, said: a new line, or, when fixing one
    /// (`fixing`), that line corrected with its reason.
    fn brulet(&mut self, fixing: Option<u64>, bottom: Card, top: Option<Card>) {
        let command = Command::Brulet { bottom, top };
        let Some(line) = fixing else {
            return self.command(&command);
        };
        self.typed = Typed::Nothing;
        let state = self.game.sitting().state();
        let was = self
            .command_at(line)
            .map_or_else(String::new, |old| describe(&old, state));
        let reason = format!(
            "\"{was}\": it was {} (fixed at the desk)",
            describe(&command, state)
        );
        let with = Line::from_command(&command, state);
        self.correct(line, Some(with), reason);
    }

    fn enter(&mut self) {
        if let Typed::Saying(menu) = &self.typed {
            let menu = menu.clone();
            return match (menu.what, menu.player, menu.bottom) {
                (Some(Say::Sell), Some(to), _) => {
                    self.typed = Typed::Nothing;
                    match menu.digits.parse::<u32>() {
                        Ok(price) => self.command(&Command::Sell { to, price }),
                        Err(_) => self.refuse_in(menu, "the price: digits, then Enter"),
                    }
                }
                (Some(Say::Brulet), _, Some(bottom)) => {
                    self.typed = Typed::Nothing;
                    self.brulet(menu.fixing, bottom, None);
                }
                _ => {}
            };
        }
        if let Typed::FixingAmount { line, digits } = &self.typed {
            let (line, digits) = (*line, digits.clone());
            self.typed = Typed::Nothing;
            return self.fix_amount(line, &digits);
        }
        if let Typed::Hand { cards, rank: None } = &self.typed {
            let cards = cards.clone();
            return self.give_hand(&cards);
        }
        let Typed::Digits(digits) = std::mem::take(&mut self.typed) else {
            return;
        };
        let state = self.game.sitting().state();
        let Some(player) = state.stake_due() else {
            return self.refuse("no stake is due now".into());
        };
        match digits.parse::<u32>() {
            Ok(amount) => self.command(&Command::Stake { player, amount }),
            Err(_) => self.refuse(format!("{digits} is no stake")),
        }
    }

    /// Whether the table is drawing for the first deal (no dealer yet).
    #[must_use]
    pub fn drawing(&self) -> bool {
        self.game.sitting().state().dealer().is_none()
    }

    /// The cards turned up so far in the draw for the deal.
    #[must_use]
    pub fn drawn(&self) -> &[Card] {
        &self.drawn
    }

    /// Who the next card of the draw is turned up for.
    fn draw_seat_name(&self) -> &str {
        let names = self.game.sitting().state().names();
        names
            .get(self.drawn.len() % names.len().max(1))
            .map_or("", String::as_str)
    }

    /// Whether `card`, turned up in a draw for the deal after `cards`, ends
    /// it (the first ace, or knave, as the house rules say), or why it cannot
    /// be turned up there.
    fn in_the_draw(&self, cards: &[Card], card: Card) -> Result<bool, String> {
        let rules = self.game.sitting().state().rules();
        if cards.iter().filter(|&&c| c == card).count() >= usize::from(rules.packs) {
            return Err(format!("{card} is turned up already in this draw"));
        }
        Ok(card.rank == rules.first_dealer.rank())
    }

    /// A card turned up in the draw for the deal: the first ace (or knave)
    /// ends it, and its holder deals.
    fn draw(&mut self, card: Card) {
        let ends = match self.in_the_draw(&self.drawn, card) {
            Ok(ends) => ends,
            Err(why) => return self.refuse(why),
        };
        let to = self.draw_seat_name().to_owned();
        self.drawn.push(card);
        if !ends {
            self.said = Some(Said::Done(format!("{card} to {to}")));
            return;
        }
        let command = Command::DrawForDeal {
            from: None,
            cards: self.drawn.clone(),
        };
        match self.game.command(Some(now_ms()), &command) {
            Ok(_) => {
                self.drawn.clear();
                self.said = Some(Said::Done(format!("{card} to {to}: {to} deals first")));
                self.saved();
            }
            Err(e) => {
                self.drawn.pop();
                self.refuse(format!("refused: {e}"));
            }
        }
    }

    /// The card due, to whoever it is due.
    fn deal(&mut self, card: Option<Card>) {
        let state = self.game.sitting().state();
        let Some((to, hand)) = state.due_card() else {
            return self.refuse(format!("no card is due now: {}", self.prompt()));
        };
        let hand = has_divided(state, to).then_some(hand);
        self.command(&Command::Card { to, hand, card });
    }

    /// A card face down turned up at the showdown, in the first hand that
    /// must show one.
    fn show(&mut self, card: Card) {
        let Some((player, hand)) = self.game.sitting().state().to_show() else {
            return self.refuse(format!("no hand is waiting to be shown: {}", self.prompt()));
        };
        self.command(&Command::Show {
            player,
            hand: Some(hand),
            cards: std::iter::once(card).collect(),
        });
    }

    /// Gives the engine `command`, saying whether it was taken and why not.
    fn command(&mut self, command: &Command) {
        self.commanded(command);
    }

    /// [`Desk::command`]: whether it was taken.
    fn commanded(&mut self, command: &Command) -> bool {
        let text = describe(command, self.game.sitting().state());
        match self.game.command(Some(now_ms()), command) {
            Ok(events) => {
                // A declaration the cards contradict is kept in the journal,
                // but the cards decide: said as the table shows it. (A
                // natural paid that the cards shown contradict is asked.)
                let declared = matches!(command, Command::Over { .. } | Command::Natural { .. });
                let contradicted = events
                    .iter()
                    .find_map(|e| match e {
                        Event::Flagged(flag @ Flag::DeclarationContradicted { .. }) => {
                            Some(flag.clone())
                        }
                        _ => None,
                    })
                    .filter(|_| declared);
                self.said = Some(match (contradicted, self.game.ledger().rounds.last()) {
                    (Some(flag), Some(round)) => Said::Refused(crate::screen::flag_text(
                        self.game.sitting().state(),
                        round,
                        &flag,
                    )),
                    _ => Said::Done(text),
                });
                self.saved();
                self.ahead |= self.camera_deals;
                true
            }
            Err(e) => {
                self.refuse(format!("refused: {e}"));
                false
            }
        }
    }

    fn undo(&mut self) {
        self.typed = Typed::Nothing;
        if self.drawing()
            && let Some(card) = self.drawn.pop()
        {
            self.said = Some(Said::Done(format!("{card} taken back from the draw")));
            return;
        }
        let state = self.game.sitting().state();
        let reason = self
            .game
            .in_force()
            .last()
            .map(|(_, c)| format!("{} taken back at the desk", describe(c, state)))
            .map(|reason| self.with_why(reason));
        match self.game.apply(
            meta(),
            Line::Undo {
                reason: reason.clone(),
            },
        ) {
            Ok(_) => {
                self.said = Some(Said::Done(reason.unwrap_or_else(|| "undone".into())));
                self.why.clear();
                self.saved();
            }
            Err(e) => self.refuse(e.to_string()),
        }
    }

    fn redo(&mut self) {
        let reason = Some("put back at the desk".to_owned());
        match self.game.apply(meta(), Line::Redo { reason }) {
            Ok(_) => {
                let state = self.game.sitting().state();
                let put_back = self.game.in_force().last().map(|(_, c)| describe(c, state));
                self.said = Some(Said::Done(
                    put_back.map_or_else(|| "redone".into(), |words| format!("{words} put back")),
                ));
                self.saved();
            }
            Err(e) => self.refuse(e.to_string()),
        }
    }

    /// What may be fixed or taken back, most recent first, however long
    /// ago: the cards dealt or turned up, which are fixed to the right card,
    /// the stakes, fixed to the right stake, and the double, content and
    /// divide, taken back. Their journal lines and words.
    fn fixable(&self) -> Vec<(u64, String)> {
        let state = self.game.sitting().state();
        self.game
            .in_force()
            .iter()
            .rev()
            .filter(|(_, c)| match c {
                Command::Card { .. }
                | Command::Show { .. }
                | Command::Dealer { .. }
                | Command::DrawForDeal { .. }
                | Command::Choose { .. } => true,
                other => said_at_the_desk(other),
            })
            .map(|(seq, c)| (*seq, describe(c, state)))
            .collect()
    }

    /// How many cards journal line `line` shows together (a hand shown at
    /// once); 0 for any other line.
    fn shown_together(&self, line: u64) -> usize {
        match self.command_at(line) {
            Some(Command::Show { cards, .. }) => cards.len(),
            _ => 0,
        }
    }

    /// `F`: the list of what can be fixed, its newest first (none yet: said).
    fn open_fix_menu(&mut self) {
        if self.fixable().is_empty() {
            return self.refuse("nothing dealt nor said yet to fix".into());
        }
        self.typed = Typed::Fixing {
            line: None,
            rank: None,
            page: 0,
            shown: None,
        };
    }

    /// A key while choosing what to fix: its number in the prompt (`0`:
    /// the older ones), then what it needs.
    fn fixing_which(&mut self, page: usize, c: char) {
        let fixable = self.fixable();
        if c == '0' {
            let pages = fixable.len().div_ceil(FIX_PAGE).max(1);
            self.typed = Typed::Fixing {
                line: None,
                rank: None,
                page: (page + 1) % pages,
                shown: None,
            };
            return;
        }
        let chosen = c
            .to_digit(10)
            .and_then(|d| usize::try_from(d).ok())
            .and_then(|d| d.checked_sub(1))
            .and_then(|k| fixable.get(page * FIX_PAGE + k).map(|(line, _)| *line));
        let Some(line) = chosen else {
            return self.refuse(format!("{c}: type the number of what to fix"));
        };
        match self.command_at(line) {
            Some(Command::Stake { .. } | Command::Sell { .. }) => {
                self.typed = Typed::FixingAmount {
                    line,
                    digits: String::new(),
                };
            }
            Some(
                Command::Card { .. }
                | Command::Show { .. }
                | Command::Surplus { .. }
                | Command::Exposed { .. }
                | Command::Reject { .. },
            ) => {
                self.typed = Typed::Fixing {
                    line: Some(line),
                    rank: None,
                    page,
                    shown: None,
                };
            }
            Some(Command::Dealer { .. }) => self.typed = Typed::FixingDealer { line },
            // The draw for the deal: its cards turned up again.
            Some(Command::DrawForDeal { .. }) => {
                self.typed = Typed::Redrawing {
                    line,
                    cards: Vec::new(),
                    rank: None,
                }
            }
            // An election has two sides: fixed, it is the other.
            Some(Command::Choose { player, choice }) => {
                self.typed = Typed::Nothing;
                let other = other_side(choice);
                let state = self.game.sitting().state();
                let new = Line::from_command(
                    &Command::Choose {
                        player,
                        choice: other,
                    },
                    state,
                );
                let reason = format!(
                    "{} elects {other}, not {choice}: put right at the desk",
                    state.name(player)
                );
                self.correct(line, Some(new), reason);
            }
            // The brulet: its cards said again.
            Some(Command::Brulet { .. }) => {
                self.typed = Typed::Saying(Menu {
                    fixing: Some(line),
                    ..Menu::at(Say::Brulet)
                });
            }
            _ => self.taken_back(line),
        }
    }

    /// A key while fixing a card: which line (its number in the prompt),
    /// which of a hand's cards shown together, then the right card's rank
    /// and suit; the correction goes in the journal with its reason.
    fn fixing(&mut self, c: char) {
        let Typed::Fixing {
            line,
            rank,
            page,
            shown,
        } = self.typed
        else {
            return;
        };
        let Some(line) = line else {
            return self.fixing_which(page, c);
        };
        // A hand's cards shown together: which of them, first.
        let together = self.shown_together(line);
        if together > 1 && shown.is_none() {
            let at = c.to_digit(10).and_then(|d| usize::try_from(d).ok());
            match at.filter(|&d| (1..=together).contains(&d)) {
                Some(d) => {
                    self.typed = Typed::Fixing {
                        line: Some(line),
                        rank: None,
                        page,
                        shown: Some(d - 1),
                    };
                }
                None => self.refuse(format!(
                    "{c}: type the number of the card to fix, 1 to {together}"
                )),
            }
            return;
        }
        // A card dealt that was none (the camera's card found twice, a card
        // typed twice): taken back.
        if rank.is_none()
            && c == 'X'
            && let Some(command @ Command::Card { .. }) = self.command_at(line)
        {
            self.typed = Typed::Nothing;
            let words = describe(&command, self.game.sitting().state());
            let reason = format!("\"{words}\" taken back at the desk: no card was dealt");
            self.correct(line, None, reason);
            return;
        }
        let Some(new) = self.rank_then_suit(rank, c, |rank| Typed::Fixing {
            line: Some(line),
            rank: Some(rank),
            page,
            shown,
        }) else {
            return;
        };
        let state = self.game.sitting().state();
        let command = self.command_at(line);
        // A card said at the desk (a surplus card, one exposed or rejected).
        if let Some(command) = &command
            && let Some((_, old, with)) = command.with_said_card(new)
        {
            let words = describe(command, state);
            let reason = match old {
                Some(old) => format!(
                    "\"{words}\": the card was {new}, not {old} as first typed (fixed at the desk)"
                ),
                None => format!("\"{words}\": the card was {new} (named at the desk)"),
            };
            let with = Line::from_command(&with, state);
            self.correct(line, Some(with), reason);
            return;
        }
        let fixed = command.and_then(|c| match shown {
            Some(at) => c.with_shown_card(at, new),
            None => c.with_card(new),
        });
        let Some((to, old, with)) = fixed else {
            return self.refuse("that card is no longer in the game".into());
        };
        let with = Line::from_command(&with, state);
        let how = if self.camera_deals { "read" } else { "typed" };
        let reason = match old {
            Some(old) => format!(
                "the card to {} was {new}, not {old} as first {how} (fixed at the desk)",
                state.name(to)
            ),
            None => format!(
                "the card to {} was {new}, dealt face down (named at the desk)",
                state.name(to)
            ),
        };
        self.correct(line, Some(with), reason);
    }

    /// The prompt while something is being fixed, or said from the `M` menu.
    fn fixing_prompt(&self) -> Option<String> {
        let state = self.game.sitting().state();
        if let Typed::FixingAmount { line, .. } = &self.typed
            && let Some((_, words)) = self.fixable().into_iter().find(|d| d.0 == *line)
        {
            return Some(match self.command_at(*line) {
                Some(Command::Sell { .. }) => format!(
                    "Fix \"{words}\": the right price, digits then Enter (Escape: leave it)"
                ),
                _ => format!(
                    "Fix \"{words}\": the right stake, digits then Enter, or X: no stake was \
                     made (Escape: leave it)"
                ),
            });
        }
        if let Typed::Fixing {
            line, page, shown, ..
        } = self.typed
        {
            return Some(self.fix_prompt(line, page, shown));
        }
        if let Typed::FixingDealer { line } = self.typed
            && let Some((_, words)) = self.fixable().into_iter().find(|d| d.0 == line)
        {
            return Some(format!(
                "Fix \"{words}\": who deals first? {} (Escape: leave it)",
                numbered_players(state)
            ));
        }
        if let Typed::Saying(menu) = &self.typed {
            return Some(self.say_prompt(menu));
        }
        if let Typed::Redrawing { cards, .. } = &self.typed {
            let names = state.names();
            let first = self.fixable_draw_from().map_or(0, Seat::index);
            let next = names
                .get((first + cards.len()) % names.len().max(1))
                .map_or("", String::as_str);
            return Some(format!(
                "Fix the draw for the deal: its cards again, from the first ({} so far). Card to \
                 {next}: rank then suit (Backspace: the last again; Escape: leave it)",
                cards.len()
            ));
        }
        None
    }

    /// The player the draw being fixed began with.
    fn fixable_draw_from(&self) -> Option<Seat> {
        let Typed::Redrawing { line, .. } = self.typed else {
            return None;
        };
        match self.command_at(line) {
            Some(Command::DrawForDeal { from, .. }) => Some(from.unwrap_or(Seat(0))),
            _ => None,
        }
    }

    /// A key while the draw for the deal is turned up again: the next
    /// card's rank, then its suit; the first ace (or knave) ends the draw,
    /// and the journal's line is corrected with its reason.
    fn redrawing(&mut self, line: u64, mut cards: Vec<Card>, rank: Option<Rank>, c: char) {
        let waiting = |cards: Vec<Card>| {
            move |rank| Typed::Redrawing {
                line,
                cards,
                rank: Some(rank),
            }
        };
        let Some(card) = self.rank_then_suit(rank, c, waiting(cards.clone())) else {
            if let Some(rank) = rank {
                // A suit refused: the rank is kept for another try.
                self.typed = waiting(cards)(rank);
            }
            return;
        };
        let Some(Command::DrawForDeal { from, cards: old }) = self.command_at(line) else {
            return self.refuse("the draw for the deal is no longer in the game".into());
        };
        let ends = match self.in_the_draw(&cards, card) {
            Ok(ends) => ends,
            Err(why) => {
                self.typed = Typed::Redrawing {
                    line,
                    cards,
                    rank: None,
                };
                return self.refuse(why);
            }
        };
        cards.push(card);
        let state = self.game.sitting().state();
        if !ends {
            self.typed = Typed::Redrawing {
                line,
                cards,
                rank: None,
            };
            self.said = Some(Said::Done(format!("{card} in the draw again")));
            return;
        }
        let reason = format!(
            "the draw for the deal was {}, not {} as first typed (fixed at the desk)",
            card_words(&cards),
            card_words(&old)
        );
        let with = Line::from_command(&Command::DrawForDeal { from, cards }, state);
        self.correct(line, Some(with), reason);
    }

    /// The right first dealer, by his digit: the journal's `dealer` line
    /// corrected, with its reason.
    fn fix_dealer(&mut self, line: u64, c: char) {
        let state = self.game.sitting().state();
        let Some(player) = seat_of_digit(state, c) else {
            return self.refuse(format!("{c}: the right dealer's digit: {}", self.prompt()));
        };
        self.typed = Typed::Nothing;
        let Some(Command::Dealer { player: old }) = self.command_at(line) else {
            return self.refuse("that dealer is no longer in the game".into());
        };
        let with = Line::from_command(&Command::Dealer { player }, state);
        let reason = format!(
            "{} deals first, not {} as first said (fixed at the desk)",
            state.name(player),
            state.name(old)
        );
        self.correct(line, Some(with), reason);
    }

    /// At a camera's table, `U` takes back the dealer's own last word (a
    /// stake, the double, content, divide): a correction that removes it,
    /// with its reason, for the pipeline's game too. The camera's cards are
    /// fixed (`F`), not taken back.
    fn take_back(&mut self) {
        let Some(line) = self
            .game
            .in_force()
            .iter()
            .rev()
            .find(|(_, c)| said_at_the_desk(c))
            .map(|(seq, _)| *seq)
        else {
            return self.refuse("U: nothing said at the desk to take back".into());
        };
        self.taken_back(line);
    }

    /// Journal line `line` taken back at the desk: a correction with its
    /// reason, the line's words.
    fn taken_back(&mut self, line: u64) {
        self.typed = Typed::Nothing;
        let words = self
            .command_at(line)
            .map_or_else(String::new, |c| describe(&c, self.game.sitting().state()));
        self.correct(line, None, format!("\"{words}\" taken back at the desk"));
    }

    /// The command in force at journal line `line`.
    fn command_at(&self, line: u64) -> Option<Command> {
        self.game
            .in_force()
            .iter()
            .find(|(seq, _)| *seq == line)
            .map(|(_, c)| c.clone())
    }

    /// The card dealt (or turned up) at journal line `line` with `new` in its
    /// place: whose it is, the card it was, and the line that replaces it.
    fn with_card(&self, line: u64, new: Card) -> Option<(Seat, Option<Card>, Line)> {
        let (to, card, command) = self.command_at(line)?.with_card(new)?;
        Some((
            to,
            card,
            Line::from_command(&command, self.game.sitting().state()),
        ))
    }

    /// The stake or the deal's price of journal line `line` fixed to `digits`.
    fn fix_amount(&mut self, line: u64, digits: &str) {
        let Ok(amount) = digits.parse::<u32>() else {
            return self.refuse(format!("\"{digits}\" is no amount"));
        };
        let state = self.game.sitting().state();
        let (with, reason) = match self.command_at(line) {
            Some(Command::Stake {
                player,
                amount: old,
            }) => (
                Command::Stake { player, amount },
                format!(
                    "{} staked {amount}, not {old} as first typed (fixed at the desk)",
                    state.name(player)
                ),
            ),
            Some(Command::Sell { to, price: old }) => (
                Command::Sell { to, price: amount },
                format!(
                    "the deal was sold to {} for {amount}, not {old} as first typed (fixed at \
                     the desk)",
                    state.name(to)
                ),
            ),
            _ => return self.refuse("that amount is no longer in the game".into()),
        };
        let with = Line::from_command(&with, state);
        self.correct(line, Some(with), reason);
    }

    /// Replaces the command of journal line `line` with `with` (or takes it
    /// back, with none), giving the reason; at a camera's table the
    /// correction goes to the pipeline too. Whether it was taken.
    fn correct(&mut self, line: u64, with: Option<Line>, reason: String) -> bool {
        if self.ahead {
            self.refuse(AHEAD.into());
            return false;
        }
        let reason = self.with_why(reason);
        let correction = Line::Correct {
            line,
            with: with.map(Box::new),
            reason: reason.clone(),
        };
        match self.game.apply(meta(), correction.clone()) {
            Ok(_) => {
                self.said = Some(Said::Done(reason));
                self.why.clear();
                self.saved();
                if self.camera_deals {
                    self.corrections.push(correction);
                    self.ahead = true;
                }
                true
            }
            Err(e) => {
                self.refuse(format!("refused: {e}"));
                false
            }
        }
    }

    /// `Y` or `N` to the open question: `Y` settles it as it stands; `N`
    /// (for a doubted card) asks for the right card.
    fn answer(&mut self, right: bool) {
        let Some((k, q)) = self.open_question() else {
            if let Some(flag) = self.open_flag() {
                return self.answer_flag(flag, right);
            }
            return self.refuse(format!(
                "{}: no question is open",
                if right { 'Y' } else { 'N' }
            ));
        };
        if right {
            let text = format!("settled: {}", q.text);
            // The dealer's word is kept in the journal beside the camera's.
            let note = pone_vision::play::settled_as_it_stands(&q.text);
            self.questions[k].1 = true;
            if self.game.apply(meta(), note.clone()).is_ok() {
                self.saved();
                if self.camera_deals {
                    self.corrections.push(note);
                }
            }
            self.said = Some(Said::Done(text));
        } else if q.about.is_some() {
            self.typed = Typed::Answering { rank: None };
        } else if let Some(player) = q.natural {
            self.take_natural_back(player, "his cards, seen at the table, are not");
            self.questions[k].1 = true;
        } else {
            self.refuse(format!(
                "N: \"{}\" doubts no card; set the table right and press Y",
                q.text
            ));
        }
    }

    /// `Y` or `N` to a flag the engine raised: a card exposed kept or
    /// rejected, a surplus card put right or one of the two rejected.
    fn answer_flag(&mut self, (round, k, flag): (u32, usize, Flag), right: bool) {
        // An answer that changes nothing in the game (a card exposed kept, a
        // natural left) is kept in the journal as a note, so a sitting gone
        // on with does not ask it again.
        // (An over the cards contradict, his cards right: the same.)
        let noted = match &flag {
            Flag::CardExposed { .. } => right,
            Flag::DeclarationContradicted { declared, .. } => {
                right == (*declared == Declaration::Over)
            }
            Flag::SurplusCard { .. } => false,
        };
        let answered = match (flag, right) {
            (Flag::CardExposed { player, card }, true) => {
                let name = self.game.sitting().state().name(player).to_owned();
                self.said = Some(Said::Done(format!("{name} keeps the {card}")));
                true
            }
            (Flag::CardExposed { player, card }, false) => self.commanded(&Command::Reject {
                player,
                card: Some(card),
            }),
            (Flag::SurplusCard { player }, true) => self.commanded(&Command::Rectify { player }),
            (Flag::SurplusCard { player }, false) => {
                // Which of the two he rejects: the card, or X unseen.
                self.typed = Typed::Saying(Menu::of(Say::Reject, player));
                true
            }
            (
                Flag::DeclarationContradicted {
                    player,
                    declared: Declaration::Over,
                    ..
                },
                right,
            ) => {
                let name = self.game.sitting().state().name(player).to_owned();
                self.said = Some(Said::Done(if right {
                    format!("{name}'s cards are right: not over, he plays on")
                } else {
                    // Which card was taken wrong: the fix menu, as F opens it.
                    self.open_fix_menu();
                    format!("a card of {name}'s was taken wrong: choose it to fix")
                }));
                true
            }
            (Flag::DeclarationContradicted { player, .. }, true) => {
                self.take_natural_back(player, "his cards are not");
                // The flag goes with the natural taken back; the round's
                // other flags move up a place, so none is marked answered.
                false
            }
            (Flag::DeclarationContradicted { .. }, false) => {
                self.said = Some(Said::Done("the natural left as it is".into()));
                true
            }
        };
        if answered {
            self.flags_answered.push((round, k));
        }
        let Some(Said::Done(word)) = self.said.as_ref().filter(|_| answered && noted) else {
            return;
        };
        let note = Line::Note {
            text: format!("{FLAG_ANSWERED} {k} of round {round}: {word}"),
        };
        if self.game.apply(meta(), note.clone()).is_ok() {
            self.saved();
            if self.camera_deals {
                self.corrections.push(note);
            }
        }
    }

    /// The flags answered in a journal's notes (the round's number and the
    /// flag's place), as [`Desk::answer_flag`] wrote them.
    fn flags_answered_in(game: &Game) -> Vec<(u32, usize)> {
        game.journal()
            .iter()
            .filter_map(|entry| match &entry.line {
                Line::Note { text } => {
                    let rest = text.strip_prefix(FLAG_ANSWERED)?.trim_start();
                    let (k, rest) = rest.split_once(" of round ")?;
                    let (round, _) = rest.split_once(':')?;
                    Some((round.parse().ok()?, k.parse().ok()?))
                }
                _ => None,
            })
            .collect()
    }

    /// Takes `player`'s natural back (a correction, its payment going with
    /// it), saying why: `why`, then "an ace and a tenth card".
    fn take_natural_back(&mut self, player: Seat, why: &str) {
        if let Some(line) = self.natural_line(player) {
            let name = self.game.sitting().state().name(player).to_owned();
            let reason = format!(
                "{name}'s natural taken back: {why} an ace and a tenth card (the cards decide)"
            );
            self.correct(line, None, reason);
        }
    }

    /// A key towards a card typed rank then suit: with no rank yet, `c` is
    /// the rank, and the desk waits for the suit in the state `waiting`
    /// makes of it; with the rank, `c` is the suit and the card is complete.
    /// A key that is neither is refused.
    fn rank_then_suit(
        &mut self,
        rank: Option<Rank>,
        c: char,
        waiting: impl FnOnce(Rank) -> Typed,
    ) -> Option<Card> {
        let Some(rank) = rank else {
            match rank_of(c) {
                Some(rank) => self.typed = waiting(rank),
                None => self.refuse(format!("{c} is no rank: A, 2-9, T, J, Q or K")),
            }
            return None;
        };
        self.typed = Typed::Nothing;
        let Some(suit) = suit_of(c) else {
            self.refuse(format!(
                "{}{c} is no card: a rank is followed by its suit, S, H, D or C",
                rank.letter()
            ));
            return None;
        };
        Some(Card { rank, suit })
    }

    /// The oldest question not settled yet that asks for a card the camera
    /// never saw (its number, and the card it wants): a card typed answers
    /// it, whatever older question waits for a `Y`.
    fn open_wanted(&self) -> Option<(usize, Wanted)> {
        self.questions
            .iter()
            .enumerate()
            .filter(|(_, (_, settled))| !settled)
            .find_map(|(k, (q, _))| Some((k, q.wants?)))
    }

    /// The card typed (`None`: X, face down) for question `k`, which wants
    /// it: dealt to the hand it was due to, or turned up in the hand that
    /// held it face down. The question is settled once the engine takes it.
    fn give_wanted(&mut self, k: usize, wanted: Wanted, card: Option<Card>) {
        let state = self.game.sitting().state();
        let command = match wanted {
            Wanted::Card { seat, hand, .. } => Command::Card {
                to: seat,
                hand: has_divided(state, seat).then_some(hand),
                card,
            },
            Wanted::Shown { seat, hand } | Wanted::Hand { seat, hand } => Command::Show {
                player: seat,
                hand: Some(hand),
                cards: card.into_iter().collect(),
            },
        };
        if self.commanded(&command)
            && let Some((_, settled)) = self.questions.get_mut(k)
        {
            *settled = true;
        }
    }

    /// The dealer's whole hand typed (`cards`, in the order dealt) for the
    /// open question asking for it: his cards face down turned up, and any
    /// he drew unseen, tried on a copy of the game and given to the
    /// pipeline as one show, which its game puts in whole
    /// ([`pone_vision::play::hand_shown_whole`]). Refused, what was typed
    /// stays, to be put right.
    fn give_hand(&mut self, cards: &[Card]) {
        let Some((k, Wanted::Hand { seat, hand })) = self.open_wanted() else {
            self.typed = Typed::Nothing;
            return self.refuse("no question asks for a hand now".into());
        };
        let state = self.game.sitting().state();
        let Some(lines) = pone_vision::play::hand_shown_whole(state, seat, hand, cards) else {
            let unseen = state.hand(seat, hand).map_or(0, |h| h.cards.unseen());
            return self.refuse(format!(
                "{} holds {unseen} card(s) face down: type every card of the hand, in the \
                 order dealt, then Enter",
                state.name(seat)
            ));
        };
        let mut trial = self.game.clone();
        for line in lines {
            if let Err(e) = trial.apply(meta(), line) {
                return self.refuse(format!("refused: {e}"));
            }
        }
        let shown = Line::Show {
            player: state.name(seat).to_owned(),
            hand: Some(hand),
            cards: cards.to_vec(),
        };
        self.said = Some(Said::Done(format!(
            "{}'s hand: {}",
            state.name(seat),
            card_words(cards)
        )));
        self.typed = Typed::Nothing;
        self.questions[k].1 = true;
        self.corrections.push(shown);
        self.ahead = true;
    }

    /// A key while answering the open question with the right card.
    fn answering(&mut self, rank: Option<Rank>, c: char) {
        let Some(new) = self.rank_then_suit(rank, c, |rank| Typed::Answering { rank: Some(rank) })
        else {
            return;
        };
        if let Some((k, wanted)) = self.open_wanted() {
            return self.give_wanted(k, wanted, Some(new));
        }
        let Some((k, q)) = self.open_question() else {
            return;
        };
        let (text, line) = (q.text.clone(), q.about);
        let Some((line, (to, card, with))) =
            line.and_then(|line| self.with_card(line, new).map(|w| (line, w)))
        else {
            return self.refuse("that card is no longer in the game".into());
        };
        let state = self.game.sitting().state();
        let reason = format!(
            "the card to {} was {new}, not {} as the camera read it (the dealer's answer to \
             \"{text}\")",
            state.name(to),
            card.map_or_else(|| "face down".to_owned(), |c| c.to_string())
        );
        if self.correct(line, Some(with), reason) {
            self.questions[k].1 = true;
        }
    }

    /// Writes the ledger as CSV and JSON beside the journal.
    fn export(&mut self) {
        match export_beside(&self.game, self.journal.as_deref()) {
            Ok(written) => self.said = Some(Said::Done(written)),
            Err(e) => self.refuse(format!("{e:#}")),
        }
    }

    fn refuse(&mut self, why: String) {
        self.said = Some(Said::Refused(why));
    }

    /// Writes the journal after a command; a failure is said, not hidden.
    fn saved(&mut self) {
        if let Err(e) = self.save() {
            self.said = Some(Said::Refused(format!("{e:#}")));
        }
    }

    /// Writes the whole journal to its file (a new file, then renamed over
    /// the old, so a crash mid-write leaves the last good journal).
    fn save(&self) -> anyhow::Result<()> {
        let Some(path) = &self.journal else {
            return Ok(());
        };
        write_journal(path, &self.game.journal_text())
    }
}

/// Writes the ledger as CSV and JSON beside `journal` (`<journal>.ledger.csv`
/// and `.ledger.json`), or, with none, as `pone-sitting.ledger.*` in the
/// folder Pone was started from: where it wrote them.
pub fn export_beside(game: &Game, journal: Option<&Path>) -> anyhow::Result<String> {
    let stem = journal.map_or_else(|| PathBuf::from("pone-sitting.jsonl"), Path::to_owned);
    let (csv, json) = crate::cli::export_ledger(game, &stem)?;
    Ok(format!(
        "the ledger written to {} and {}",
        csv.display(),
        json.display()
    ))
}

/// Writes a whole journal to `path`: a new file, then renamed over the old,
/// so a crash mid-write leaves the last good journal.
pub fn write_journal(path: &Path, text: &str) -> anyhow::Result<()> {
    let fresh = path.with_extension("writing");
    std::fs::write(&fresh, text)
        .and_then(|()| std::fs::rename(&fresh, path))
        .with_context(|| {
            format!(
                "cannot write the journal {} (the game goes on in memory: free \
                 the disk or fix the folder's permissions)",
                path.display()
            )
        })
}

/// Cards as the desk writes them: `JD 4C 8D`.
fn card_words(cards: &[Card]) -> String {
    cards
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A command in the table's words: `QH to Bob`, `Bob stakes 4`.
fn describe(command: &Command, state: &State) -> String {
    let hand = |h: &Option<u8>, seat: Seat| match h {
        Some(h) if has_divided(state, seat) => format!(" (hand {h})"),
        _ => String::new(),
    };
    match command {
        Command::Card {
            to,
            hand: h,
            card: Some(card),
        } => format!("{card} to {}{}", state.name(*to), hand(h, *to)),
        Command::Card {
            to,
            hand: h,
            card: None,
        } => {
            format!("a card face down to {}{}", state.name(*to), hand(h, *to))
        }
        Command::Stake { player, amount } => format!("{} stakes {amount}", state.name(*player)),
        Command::Choose { player, choice } => format!("{} elects {choice}", state.name(*player)),
        Command::Double => format!(
            "{} doubles",
            state.dealer().map_or("the dealer", |d| state.name(d))
        ),
        Command::Content { player, hand: h } => {
            format!("{} is content{}", state.name(*player), hand(h, *player))
        }
        Command::Divide { player, .. } => format!("{} divides his pair", state.name(*player)),
        Command::Show {
            player,
            hand: h,
            cards,
        } => format!(
            "{}{} shows {}",
            state.name(*player),
            hand(h, *player),
            card_words(cards)
        ),
        Command::Over { player, hand: h } => {
            format!("{}{} is over", state.name(*player), hand(h, *player))
        }
        Command::Natural { player, .. } => format!("{} declares a natural", state.name(*player)),
        Command::Sell { to, price } => format!("the deal sold to {} for {price}", state.name(*to)),
        Command::Decline => "the deal declined: it passes to the left".into(),
        Command::Brulet { bottom, top } => match top {
            Some(top) => format!("the brulet: {bottom} at the bottom, {top} on top"),
            None => format!("the brulet: {bottom} at the bottom"),
        },
        Command::Retire { player } => format!("{} retires", state.name(*player)),
        Command::Dealer { player } => format!("{} deals first", state.name(*player)),
        Command::DrawForDeal { cards, .. } => {
            format!("the draw for the deal ({})", card_words(cards))
        }
        Command::Reshuffle => "the pack reshuffled and cut again".into(),
        Command::Surplus { player, card } => format!(
            "a surplus card{} to {}",
            card.map(|c| format!(" ({c})")).unwrap_or_default(),
            state.name(*player)
        ),
        Command::Rectify { player } => format!(
            "{}'s surplus card goes on to the next player",
            state.name(*player)
        ),
        Command::Exposed { player, card } => {
            format!("{card} exposed, dealt to {}", state.name(*player))
        }
        Command::Reject { player, card } => format!(
            "{} rejects{}",
            state.name(*player),
            card.map_or_else(|| " the card".into(), |c| format!(" {c}"))
        ),
    }
}

/// The other side of an election: sympathy's is antipathy, red's black.
fn other_side(choice: pone_engine::eight::Choice) -> pone_engine::eight::Choice {
    use pone_engine::eight::Choice;
    match choice {
        Choice::Sympathy => Choice::Antipathy,
        Choice::Antipathy => Choice::Sympathy,
        Choice::Red => Choice::Black,
        Choice::Black => Choice::Red,
    }
}

/// Whether a command is the dealer's word, not a card: a stake, the
/// double, content, divide, and what the `O` key and the `M` menu say.
fn said_at_the_desk(command: &Command) -> bool {
    matches!(
        command,
        Command::Stake { .. }
            | Command::Double
            | Command::Content { .. }
            | Command::Divide { .. }
            | Command::Over { .. }
            | Command::Natural { .. }
            | Command::Sell { .. }
            | Command::Decline
            | Command::Brulet { .. }
            | Command::Retire { .. }
            | Command::Reshuffle
            | Command::Surplus { .. }
            | Command::Rectify { .. }
            | Command::Exposed { .. }
            | Command::Reject { .. }
    )
}

/// How many choices the fix prompt shows at a time (a digit each).
const FIX_PAGE: usize = 9;

/// Why a correction waits at a camera's table.
const AHEAD: &str = "a moment: the table has not taken your last words yet; try again";

/// Whether stakes are due now (digits then mean a stake).
pub fn stakes_due(desk: &Desk) -> bool {
    desk.game.sitting().state().stake_due().is_some()
}

/// Whether the dealer may double now.
pub fn double_due(desk: &Desk) -> bool {
    may_double(desk.game.sitting().state())
}

/// Whether the dealer may double: every first card dealt and staked, no
/// second card yet, not doubled already.
fn may_double(state: &State) -> bool {
    matches!(state.phase(), Phase::FirstCards { next } if usize::from(next) == state.order().len())
        && state.stake_due().is_none()
        && !state.doubled()
}

/// Whether the desk waits for digits other than a stake due: the number of
/// what to fix, or a stake being fixed.
pub fn digits_asked(desk: &Desk) -> bool {
    match &desk.typed {
        Typed::Fixing {
            line: Some(line),
            shown: None,
            ..
        } => desk.shown_together(*line) > 1,
        Typed::Fixing { line: None, .. }
        | Typed::FixingAmount { .. }
        | Typed::FixingDealer { .. } => true,
        Typed::Saying(menu) => match menu.what {
            None | Some(Say::Sell) => true,
            Some(say) => say.of_a_player() && menu.player.is_none(),
        },
        _ => false,
    }
}

/// Whether `Enter` completes what is typed: a stake, a price, or the
/// brulet with no top card looked at.
pub fn enter_asked(desk: &Desk) -> bool {
    match &desk.typed {
        Typed::Digits(_) | Typed::FixingAmount { .. } => true,
        Typed::Hand { cards, rank } => !cards.is_empty() && rank.is_none(),
        Typed::Saying(menu) => matches!(
            (menu.what, menu.player, menu.bottom),
            (Some(Say::Sell), Some(_), _) | (Some(Say::Brulet), _, Some(_))
        ),
        _ => false,
    }
}

/// Whether `player`'s natural on `hand` was paid in `round` (a declaration
/// the cards then contradict must be taken back).
pub(crate) fn natural_paid(round: &RoundRecord, player: Seat, hand: u8) -> bool {
    round.settlements.iter().any(|s| match s.reason {
        Reason::Natural | Reason::Misericorde | Reason::NaturalShownTies => {
            s.player == player && s.hand == hand
        }
        Reason::DealerNatural => round.dealer == player,
        _ => false,
    })
}

/// Whether a flag of the engine waits for the dealer's `Y` or `N` (a card
/// exposed, a surplus card, a declaration the cards contradict).
pub fn flag_asked(desk: &Desk) -> bool {
    desk.open_flag().is_some()
}

/// Whether a card is due now (ranks and suits then mean a card).
pub fn card_due(desk: &Desk) -> bool {
    desk.game.sitting().state().due_card().is_some() || desk.drawing()
}

/// Whether the desk waits for a card's rank or suit to fix a card or
/// answer a question (the card buttons mean that then).
pub fn card_asked(desk: &Desk) -> bool {
    match &desk.typed {
        Typed::Answering { .. } | Typed::Hand { .. } => true,
        Typed::Fixing {
            line: Some(line),
            shown,
            ..
        } => shown.is_some() || desk.shown_together(*line) <= 1,
        Typed::Saying(Menu {
            what: Some(say),
            player,
            ..
        }) => *say == Say::Brulet || (player.is_some() && *say != Say::Sell),
        _ => false,
    }
}

/// The prompt for the stake or the election due, if one is.
fn wager_prompt(state: &State) -> Option<String> {
    if let Some((player, [a, b])) = state.election_due() {
        return Some(format!(
            "{}: {} elects {a} ({}) or {b} ({})",
            state.game(),
            state.name(player),
            choice_key(a),
            choice_key(b),
        ));
    }
    let player = state.stake_due()?;
    Some(format!(
        "Stake for {}: digits, then Enter ({} to {})",
        state.name(player),
        state.rules().min_stake,
        state.rules().max_stake,
    ))
}

/// The key that elects `choice`: its first letter.
pub fn choice_key(choice: Choice) -> char {
    choice
        .word()
        .chars()
        .next()
        .map_or(' ', |c| c.to_ascii_uppercase())
}

/// The two choices a player elects between now, if one is due.
pub fn choices_due(desk: &Desk) -> Option<[Choice; 2]> {
    desk.game
        .sitting()
        .state()
        .election_due()
        .map(|(_, choices)| choices)
}

fn has_divided(state: &State, seat: Seat) -> bool {
    state.seat_round(seat).is_some_and(|r| r.hands.len() > 1)
}

fn meta() -> Meta {
    Meta {
        at: Some(now_ms()),
        ..Meta::default()
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The players by their digits, in seating order: `1: Ann, 2: Bob`.
fn numbered_players(state: &State) -> String {
    let players: Vec<String> = state
        .names()
        .iter()
        .enumerate()
        .map(|(k, name)| format!("{}: {name}", k + 1))
        .collect();
    players.join(", ")
}

/// The player a digit names, in seating order (`1` the first; nine at most).
fn seat_of_digit(state: &State, c: char) -> Option<Seat> {
    c.to_digit(10)
        .and_then(|d| u8::try_from(d).ok())
        .filter(|&d| (1..=state.names().len().min(9)).contains(&usize::from(d)))
        .map(|d| Seat(d - 1))
}

/// `words` with its first letter a capital.
pub(crate) fn capitalised(words: &str) -> String {
    let mut chars = words.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

fn rank_of(c: char) -> Option<Rank> {
    Some(match c {
        'A' => Rank::Ace,
        '2' => Rank::Two,
        '3' => Rank::Three,
        '4' => Rank::Four,
        '5' => Rank::Five,
        '6' => Rank::Six,
        '7' => Rank::Seven,
        '8' => Rank::Eight,
        '9' => Rank::Nine,
        'T' => Rank::Ten,
        'J' => Rank::Jack,
        'Q' => Rank::Queen,
        'K' => Rank::King,
        _ => return None,
    })
}

fn suit_of(c: char) -> Option<Suit> {
    Some(match c {
        'S' => Suit::Spades,
        'H' => Suit::Hearts,
        'D' => Suit::Diamonds,
        'C' => Suit::Clubs,
        _ => return None,
    })
}

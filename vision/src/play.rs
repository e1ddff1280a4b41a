//! The live table: the tracker's facts and the dealer's words, in the order
//! they happened, into the engine.
//!
//! The camera supplies the cards: a card that comes to rest is the next card
//! of the deal, given to the player the engine says is due it; the seat zones
//! (learned from where each player's first card lands) check it lay there. A
//! face-down card turned up is shown. The dealer supplies what the camera
//! cannot see (stakes, the double, content, declarations), each with its
//! frame. Anything the two disagree on, or the engine refuses, becomes a
//! [`Question`]; nothing is guessed silently.
//!
//! A fact is stamped with the frame its card came to rest in, but known only a
//! few frames later (the tracker waits for it to lie still), so the dealer's
//! words wait that long too, and a card that landed by the time he spoke (or
//! a moment after: `slack`) comes before them.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::time::Duration;

use pone_engine::eight::RoundGame;
use pone_engine::script::{Line, Meta};
use pone_engine::sitting::{HandState, Phase, State};
use pone_engine::{Command, Event, Game, GameError, Seat};

use crate::boxes::{area, centre, distance, long_side, share_of_smaller};
use crate::recognise::Seen;
use crate::tracker::{Fact, ONE_CARD_TWICE, Tracker, TrackerOptions};

/// A card's short side, in its long side (a playing card is 63 by 88 mm).
const CARD_SHORT_SIDE: f32 = 63.0 / 88.0;

/// How far from a seat's cards (in card sizes) a card still lies at that seat.
const REACH: f32 = 1.6;

/// How far from every seat's place (in card sizes) a back found on the
/// camera's return while the round's first cards go round lies to be the
/// pone's pile: the dealer puts a seat's first card where he put its first
/// before, and the second just beside it. In the rendered sittings (seeds
/// 11-45, labels) a round's first card lies within a tenth of a card's
/// length of the seat's first ever, its second within 0.54, the pone's pile
/// 0.89 or more from every seat's.
const PILE_OFF_THE_PLACES: f32 = 0.7;

/// How long after a card the camera gave a player his divide may show that
/// it was his pair's card turned up and pulled apart, in seconds.
const DIVIDE_WINDOW_SECS: f32 = 5.0;

/// How long every card of the round must have been out of sight, while a
/// card is still due in the draw, for the table to ask the dealer for that
/// card (the round's cards gathered before the camera saw it), in seconds:
/// soon enough to be answered before the next round's first card comes.
const GATHERED_UNSEEN_SECS: f32 = 0.5;

/// How far from where it was dealt a card of the round lies, in its long
/// sides, for the table to take it for gathered up with the rest of the
/// round's cards when all of those are out of sight (seed 14's followed
/// onto the new pile by a long side; a card turned up or squared stays
/// well within).
const MOVED_OFF: f32 = 0.75;

/// How long the showdown waits for the camera to see the hands turned up
/// before the dealer is asked for a card face down, in seconds.
const SHOWDOWN_WAIT_SECS: f32 = 2.0;

/// How the question for a hand the showdown waits for begins.
const SHOWDOWN_WAITS: &str = "the showdown waits for";

/// What the question for the dealer's card face down, his draw waiting
/// with the round's cards gone unseen, says.
const TURNED_UP_UNSEEN: &str = "turned up and gathered before the camera saw it";

/// How the dealer answers a question asking for his whole hand.
const TYPE_THE_HAND: &str =
    "type the whole hand at the desk in the order dealt (rank then suit for each card, then Enter)";

/// What the question for a card in the draw the camera never saw says.
const GONE_UNSEEN: &str = "the round's cards went from the table before the camera saw it";

/// What the question for a card of the deal that a dealer's word passed says.
const DEALT_UNSEEN: &str = "the camera has not seen it dealt";

/// How long the cards landing after a dealer's word (or a face drawn) wait
/// for his answer when it raised a question ([`Awaited`]: a card of the
/// deal it passed, a natural the cards as read contradict), in seconds.
/// Past it they go in as the camera sees them (the card asked for may be
/// among them, seen late), so a question left unanswered never stops the
/// table.
const ANSWER_WAIT_SECS: f32 = 5.0;

/// The share of a box coming to rest that must lie on a card counted
/// already for it to be that card seen again rather than a new one
/// ([`Play::new_card_first`]).
const ON_A_COUNTED_CARD: f32 = 0.8;

/// Seconds a natural paid may lie with a card face down before the dealer is
/// asked to have it turned up: "the holder turns up his cards" (RULES.md,
/// the player's natural), and the camera must see them to check the word.
const NATURAL_SHOWN_SECS: f32 = 3.0;

/// The least time the pone takes to shuffle the last card into his pile
/// and hand the pack back, in seconds: a card dealt from the new pack sooner
/// than this after the card before is a question ([`Play`]'s shuffle check).
const SHUFFLE_SECS: f32 = 2.5;

/// How much of a face-down box found on the camera's return must lie on a
/// hand's cards (the box around them) to be that hand found again
/// ([`Play::hand_found_again_on_return`]).
const ON_THE_HAND: f32 = 0.25;

/// How much of a face-down card not found again on the camera's return must
/// lie under a card of its seat dealt after it, found again, to be taken as
/// hidden by it (the finder misses a back half covered), not gathered
/// ([`Play::alone_on_return`]).
const HIDDEN_UNDER: f32 = 0.3;

/// How soon after one of a round's cards over went from sight a back come
/// to rest where it lay is those cards turned face down to be gathered, in
/// seconds ([`Play::turned_down_to_gather`]): the next round's first card
/// comes after every card is gathered and the pack taken up.
const TURNED_DOWN_SECS: f32 = 0.5;

/// A box at least this share of a card's long side is a card's size, not
/// the finder's smaller second box on it ([`Play::found_again_on_a_card`]).
const SAME_SIZE: f32 = 0.85;

/// How long the pack and the pone's pile must be gone from their places
/// for the pone to have taken them up to shuffle in the last card, in
/// seconds ([`StackWatch`]): a hand passing over them hides them for less.
const TAKEN_UP_SECS: f32 = 1.0;

/// A card coming to rest found twice (the card just dealt), read as another
/// face at least this surely and more surely than the card was, is read
/// again as that face: one card's two boxes read as two faces.
const SURE_SECOND_FACE: f32 = 0.9;

/// A card turned up read at least this surely is not read again as the
/// face a box coming to rest on it reads ([`Play::shown_read_again`]):
/// a card dealt onto a hand as it is turned up lies on it (seeds 63 and 69:
/// a card drawn or dealt onto a card turned up at 0.997 and 0.998 in the
/// same frame), while a card turned up may be misread fairly surely (seed
/// 34 at 30 fps: the dealer's 5C read 6C at 0.91, then 5C at 0.9995 on a
/// second box).
const SURELY_SHOWN: f32 = 0.95;

/// How soon after the last card dealt a card coming to rest on it (or at
/// its seat) is that card found again, in seconds: the finder's second box
/// on it steadies a frame or two after the first, while a dealer's next card
/// to the same place comes later (round the table, or drawn one by one).
const FOUND_TWICE_SECS: f32 = 0.25;

/// How long after the last card dealt a face-down card coming to rest
/// mostly on it ([`ONE_CARD_TWICE`]) is still that card found again, while
/// the first or second cards go round the table and the card due goes to
/// another seat (so no dealer's card goes there next), in seconds:
/// the finder's second box on a player's first card steadied 0.4 s after
/// it (seed 23), and was taken for the next player's first card.
const FOUND_TWICE_ON_IT_SECS: f32 = 1.0;

/// How long a face-down card coming to rest at another seat's place waits
/// for the card of the seat due (which has no place yet) to come to rest
/// away from the places known, in seconds ([`Play::wait_for_the_due_seats_card`]).
const DUE_SEATS_CARD_SECS: f32 = 0.5;

/// How long a face-down card coming to rest at the place of the seat after
/// the one due waits for the next card dealt, in seconds
/// ([`Play::due_seats_card_unseen`]): one at the place of the seat after
/// that tells the due seat's card went unseen. A card is dealt every second
/// or so (0.6 s in the rendered sittings).
const NEXT_CARD_SECS: f32 = 2.0;

/// A face-down card turned up and read less surely than this is not shown:
/// its reading is no reading (a demo sitting's 3S turned up under a drawn
/// card read 8S at 0.008), so the hand waits for the dealer to show it, as
/// for a card the camera cannot read. Unsure readings above it are shown and
/// asked about (holding those too lost cards on the 31 rendered sittings).
const UNREAD_TURNED_UP: f32 = 0.1;

/// Below this share of its votes a card turned up is asked about, though
/// the tracker counts it surely (from half its votes): a card is read as it
/// turns, in few frames, and a turned-up reading at 0.6 is often another
/// card (blind seed 71 of the live table: Cat's 9C read QC at 0.65, her
/// drawn Vingt-un unpaid; seed 39 at 30 fps: Cat's AD read KD at 0.64, and
/// the dealer's KD refused later as seen already).
const SURELY_TURNED_UP: f32 = 0.8;

/// How much of the smaller box a face read surely, turned up in a box of
/// its own, must share with a seat's card turned up in the same frame and
/// read unsurely to be that card ([`Play::read_surely_on_a_misread`]): no
/// card lies so squarely on another that the one under it turns up too.
const ON_A_MISREAD: f32 = 0.75;

/// How near, in card lengths, a card turned up that no seat was given must
/// lie to where a seat's face-down card lay to be that card
/// (`Play::turned_up_where_one_lay`): a hand's stacked cards lie about half
/// a card length apart.
const WHERE_ONE_LAY: f32 = 0.3;

/// How much of the smaller box a face-down box coming to rest at the seat
/// of the card just dealt, up to [`FOUND_TWICE_ON_IT_SECS`] after it while
/// the card due goes to another seat, must share with that card to be it
/// found again (less than [`ONE_CARD_TWICE`]: the finder's box on a hand's
/// two stacked backs steadied 0.3 s after the second card, half on it, seed
/// 39).
const AT_ITS_SEAT_TWICE: f32 = 0.3;

/// How near the place where a face was counted (a share of a card's
/// length) a face coming to rest while it is still seen must lie to be
/// that face's second box ([`Play::counted_face_found_again`]): 0.05 for
/// seed 83's 3D found again. A card drawn onto another lies a fifth of a
/// card off it or more, to show the index (seed 37's 4S drawn onto Bob's
/// 4C: 0.2), and the finder's box on a card partly covered shrinks to what
/// shows of it, so the boxes of the two cards now are no guide.
const WHERE_IT_WAS_COUNTED: f32 = 0.1;

/// Below this, a face-up card coming to rest at another seat's place than
/// the one due, lying mostly ([`ONE_CARD_TWICE`]) on a face-up card of that
/// seat, is that card's box found again, not a card
/// ([`Play::found_again_on_a_card`]): a KD read at 0.71 on a natural turned
/// up (AD, TS), while the next card was due elsewhere (seed 17 of the live
/// table's sittings, with session 27's finder).
const SURELY_A_CARD_ON_A_FACE: f32 = 0.9;

/// How much of the smaller box a face-up card coming to rest at another
/// seat's place than the one due must share with a face-down card of that
/// seat no longer seen, to be that card turned up
/// ([`Play::turned_up_anew`]). Less than a card found twice
/// ([`ONE_CARD_TWICE`]): a card turned up under a drawn card shows only its
/// index, and its box, drawn from the index, falls partly off the back's.
const TURNED_UP_ON: f32 = 0.4;

/// How near, in card lengths, a face-up card coming to rest at another
/// seat's place than the one due must lie to where a face-down card of that
/// seat lay, to be that card turned up even while a box on its back is still
/// seen ([`Play::turned_up_anew`]): no card is dealt squarely onto
/// another's, but the tracker's box on a back may slide onto the cards
/// beside it as the card turns and be seen a moment longer (seed 28 at 30
/// frames a second: Ann's 6H turned up at the showdown 2 pixels from where
/// its back lay, the back's box sliding onto her drawn cards).
const JUST_WHERE_IT_LAY: f32 = 0.15;

/// A player turns his cards up together: a face-up card coming to rest at
/// his place (not the seat due a card) within this long of another of his
/// cards turning up, while one of his lies face down, is that card turned
/// up (the tracker may pair the faces with the backs crosswise, and find
/// one face as a card of its own).
const TURNED_UP_TOGETHER_SECS: f32 = 0.3;

/// Frames further apart than this (seconds), and than [`CAMERA_OUT_GAPS`]
/// times the gap between frames till then, mean the camera was out between
/// them (unplugged, or its frames lost): what it finds on its return was
/// dealt meanwhile ([`CameraBack`]). A machine too slow to read a frame a
/// second is no camera out.
const CAMERA_OUT_SECS: f32 = 1.0;

/// See [`CAMERA_OUT_SECS`].
const CAMERA_OUT_GAPS: f32 = 4.0;

/// In the question asking for the cards a player drew while the camera was
/// out: `Y` at the desk (the dealer's note that it stands) answers "none".
pub const NONE_DRAWN: &str = "or Y if none";

/// The dealer's `Y` at the desk to the camera's question `question`: it
/// stands as the table has it (a reading, or no card drawn), kept in the
/// journal as a note.
#[must_use]
pub fn settled_as_it_stands(question: &str) -> Line {
    Line::Note {
        text: format!("the dealer said Y (the reading stands): {question}"),
    }
}

/// The pack and the pone's pile watched where they lie (the seat zones'
/// stacks): when the pack is down to its last card the dealer passes it to
/// the pone, who takes up his pile and shuffles them off the table, so the
/// stacks go from their places for a while before the next card is dealt.
/// Seen there all along, the last card was dealt instead.
#[derive(Clone, Copy, Debug, Default)]
struct StackWatch {
    /// The last frame a card was seen on a stack.
    seen: Option<u64>,
    /// The first frame of the stretch now going with no card seen on a
    /// stack (since it was last seen).
    gone_since: Option<u64>,
    /// The first frame of the latest stretch of at least
    /// [`TAKEN_UP_SECS`] with none seen, now over.
    taken_up: Option<u64>,
    /// The first frame read on the camera's last return: what the stacks
    /// did while it was out is not known.
    back: Option<u64>,
}

impl StackWatch {
    /// Frame `frame`: whether a card lay on a stack; a stretch gone from
    /// the stacks `long` frames or more is their being taken up.
    fn look(&mut self, frame: u64, on_a_stack: bool, long: u64) {
        if on_a_stack {
            if let Some(since) = self.gone_since.take()
                && frame >= since + long
            {
                self.taken_up = Some(since);
            }
            self.seen = Some(frame);
        } else if self.seen.is_some() {
            self.gone_since.get_or_insert(frame);
        }
    }

    /// The camera is back at `frame` after being out.
    fn camera_back(&mut self, frame: u64) {
        self.back = Some(frame);
        self.gone_since = None;
    }

    /// Whether the stacks were taken up after the card that landed at
    /// `before` and before the one that landed at `landed` (`Some(true)`),
    /// or lay in their places all along (`Some(false)`); `None` when the
    /// camera did not watch them then (none known, none seen since a frame
    /// or so before `before`, or the camera out).
    fn taken_up_between(&self, before: u64, landed: u64, long: u64, near: u64) -> Option<bool> {
        let from = before.saturating_sub(near);
        let watched =
            self.seen.is_some_and(|seen| seen >= from) && self.back.is_none_or(|back| back < from);
        if !watched {
            return None;
        }
        let going = self
            .gone_since
            .is_some_and(|since| since >= from && landed >= since + long);
        let done = self
            .taken_up
            .is_some_and(|since| since >= from && since <= landed);
        Some(going || done)
    }
}

/// The camera came back after being out.
#[derive(Clone, Copy, Debug)]
struct CameraBack {
    /// The last frame read before it went out.
    last: u64,
    /// The dealer's words said from this frame on count as said while it
    /// was out: with a card in flight in the last frame it read, a card
    /// come to rest in its last frames had not lain still long enough to
    /// count (seed 67 at 10 fps and 3 rounds, the camera out from 15 s to
    /// 16.5 s: Bob's 5C, drawn in its last frame, and his "content" said
    /// then, taken without it).
    said_from: u64,
    /// The first frame read on its return.
    first: u64,
    /// The cards coming to rest up to this frame were lying there on its
    /// return (each seen steadily by then): dealt while it was out, in an
    /// order it did not see.
    until: u64,
}

impl CameraBack {
    /// Whether a card that came to rest (or was turned up) at `frame` was
    /// lying there on the camera's return.
    fn found(&self, frame: u64) -> bool {
        (self.first..=self.first + 1).contains(&frame)
    }
}

/// The dealer asked to show the seats' places ([`Play::first_card_missed`]).
struct PlacesChecked {
    /// The question (its place in `questions`).
    question: usize,
    /// The frame it was asked in.
    asked: u64,
    /// The places learned before: they stand again for want of an answer.
    learned: Vec<Option<[f32; 2]>>,
}

/// A card come to rest, as the tracker tells it: its track, the frame, its
/// box, its face (none: face down), and how surely it was read.
#[derive(Clone, Copy, Debug)]
struct Landing {
    track: u64,
    frame: u64,
    bbox: [f32; 4],
    card: Option<pone_engine::Card>,
    confidence: f32,
    sure: bool,
}

/// A card turned up and shown: the frame, its track, where it lay, the
/// face shown, and how surely it was read.
#[derive(Clone, Copy, Debug)]
struct Shown {
    frame: u64,
    track: u64,
    bbox: [f32; 4],
    card: pone_engine::Card,
    confidence: f32,
}

/// Where each seat's cards lie on the picture.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SeatZones {
    /// Per seat, where its first card of a round came to rest (centre, pixels).
    pub anchors: Vec<Option<[f32; 2]>>,
    /// Where the pack and the pone's pile lie (centres, pixels): cards coming
    /// to rest there are not dealt.
    pub stacks: Vec<[f32; 2]>,
    /// A card's size on the picture (the long side of its box), pixels.
    pub card_size: f32,
}

impl SeatZones {
    /// Puts `place` at `at` (pixels); false for a place these zones do not
    /// have.
    pub fn move_place(&mut self, place: Place, at: [f32; 2]) -> bool {
        match place {
            Place::Seat(seat) => self.anchors.get_mut(seat).map(|a| *a = Some(at)),
            Place::Stack(stack) => self.stacks.get_mut(stack).map(|s| *s = at),
        }
        .is_some()
    }

    /// Whether `seat`'s place is known (learned or shown).
    #[must_use]
    pub fn knows(&self, seat: Seat) -> bool {
        matches!(self.anchors.get(seat.index()), Some(Some(_)))
    }
}

/// A place of [`SeatZones`] the dealer may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// A seat's place (its index in [`SeatZones::anchors`]).
    Seat(usize),
    /// The pack's or the pone's pile's (its index in [`SeatZones::stacks`]).
    Stack(usize),
}

/// Something the dealer should settle: the camera and the engine disagree,
/// or the engine refused a line.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Question {
    /// The frame it arose at.
    pub frame: u64,
    /// What happened, in words.
    pub text: String,
    /// The journal line of the card it doubts (its `seq`), when it doubts a
    /// reading: the dealer may answer with the right card (a `correct` line).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub about: Option<u64>,
    /// Where the card it doubts lay in the camera's picture when it was
    /// read, `[x0, y0, x1, y1]` in pixels: the card to look at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<[f32; 4]>,
    /// The dealer's slip it shows, when it shows one (a dealer in training
    /// is told, and his report counts them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slip: Option<Slip>,
    /// The player whose natural, paid on his word, it asks to see: the
    /// dealer may answer that the cards are no natural (it is taken back).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub natural: Option<Seat>,
    /// How the camera settled it itself since, if it did (a card doubted,
    /// read surely since): the dealer need not answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answered: Option<String>,
    /// The card it asks the dealer to type, if it asks for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wants: Option<Wanted>,
}

/// The card a question asks the dealer to type at the desk (rank then suit),
/// and what it is: the desk puts it in as the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Wanted {
    /// The card due to a hand, which the camera never saw come (the deal or
    /// the draw went on without it, or the round's cards went first).
    Card {
        /// Whose.
        seat: Seat,
        /// Which of his hands (1-based).
        hand: u8,
        /// A card of the deal, which may have been dealt face down (`X` at
        /// the desk).
        face_down: bool,
    },
    /// A card a hand holds face down, which the camera never saw turned up
    /// (the showdown waits for it, or the dealer's draw does).
    Shown {
        /// Whose.
        seat: Seat,
        /// Which of his hands (1-based).
        hand: u8,
    },
    /// The dealer's whole hand, the camera out while he turned up his card
    /// face down and perhaps drew: every card, in the order dealt, then
    /// `Enter` at the desk ([`hand_shown_whole`]).
    Hand {
        /// Whose.
        seat: Seat,
        /// Which of his hands (1-based).
        hand: u8,
    },
}

impl Wanted {
    /// Whether `X` answers it: a card of the deal, dealt face down.
    #[must_use]
    pub fn may_be_face_down(self) -> bool {
        matches!(
            self,
            Wanted::Card {
                face_down: true,
                ..
            }
        )
    }
}

/// A hand shown whole (`cards`, in the order dealt; those it holds face up
/// named or not) as the lines the engine takes: the first cards named that
/// it does not hold turn up those it holds face down, and the rest are
/// cards drawn unseen (the camera out), in the order named. `None` when
/// fewer are named than it holds face down.
#[must_use]
pub fn hand_shown_whole(
    state: &State,
    seat: Seat,
    hand: u8,
    cards: &[pone_engine::Card],
) -> Option<Vec<Line>> {
    let held = &state.hand(seat, hand)?.cards;
    let new: Vec<pone_engine::Card> = cards
        .iter()
        .copied()
        .filter(|&c| !held.contains(c))
        .collect();
    let (turned, drawn) = new.split_at_checked(usize::from(held.unseen()))?;
    let player = state.name(seat).to_owned();
    let mut lines = vec![Line::Show {
        player: player.clone(),
        hand: Some(hand),
        cards: turned.to_vec(),
    }];
    lines.extend(drawn.iter().map(|&card| Line::Card {
        to: player.clone(),
        hand: Some(hand),
        card: Some(card),
    }));
    Some(lines)
}

/// Where the cards a hand shown whole lacks go in, among the lines in
/// force ([`Play::where_missed_cards_go`]).
struct MissedCards {
    /// Each card missed, after the lines before this place.
    before: Vec<(usize, pone_engine::Card)>,
    /// The line that gave a card drawn as the second card, and the second
    /// card it gives now.
    replaced: Option<(usize, pone_engine::Card)>,
    /// That card, and the second card ([`second_card_drawn`]).
    second: Option<(pone_engine::Card, pone_engine::Card)>,
    /// The cards new to the pack.
    new: Vec<pone_engine::Card>,
}

/// A dealer's show of a hand, read by [`Play::hand_shown`].
struct HandShown<'a> {
    player: &'a str,
    /// The hand named, if one is.
    hand: Option<u8>,
    /// The cards named, in the order dealt.
    cards: &'a [pone_engine::Card],
    seat: Seat,
    /// What the hand holds, in the order dealt (`None`: face down).
    held: Vec<Option<pone_engine::Card>>,
}

/// A hand shown whole (`cards`, in the order dealt) set against what it
/// holds (`held`, `None` face down): the first two (dealt face down) in
/// either order, as the camera turning one up cannot tell which it was
/// (blind seed 97 at 10 fps, the camera out from 11 s to 12.5 s: Ann's 3S,
/// her second card, turned up as her first), each held named and each face
/// down turned up by a card it does not hold; then in order, a card it does
/// not hold named where a card held stands is one missed before it (`None`:
/// after the last). The cards missed, each with the card it lies before;
/// `None` when none are, or the show does not fit the hand so.
fn cards_missed(
    held: &[Option<pone_engine::Card>],
    cards: &[pone_engine::Card],
) -> Option<Vec<(Option<pone_engine::Card>, pone_engine::Card)>> {
    let first = held.len().min(2);
    let (dealt, drawn) = cards.split_at_checked(first)?;
    let face_down = held[..first].iter().filter(|s| s.is_none()).count();
    let turned = dealt.iter().filter(|&&c| !held.contains(&Some(c))).count();
    if turned != face_down || !held[..first].iter().flatten().all(|c| dealt.contains(c)) {
        return None;
    }
    let mut missed = Vec::new();
    let mut j = first;
    for &card in drawn {
        match held.get(j) {
            Some(&Some(c)) if c == card => j += 1,
            _ if held.contains(&Some(card)) => return None,
            Some(None) => j += 1,
            Some(&Some(c)) => missed.push((Some(c), card)),
            None => missed.push((None, card)),
        }
    }
    (!missed.is_empty() && j == held.len()).then_some(missed)
}

/// A hand shown whole (`cards`, in the order dealt) whose second card as
/// held (`held`) is named among the cards drawn, and whose second card as
/// named the hand does not hold: the second card, dealt face down as the
/// camera went out, was never seen, and the card the camera gave as the
/// second was one drawn after it (blind seed 127 at 10 fps, the camera out
/// from 4 s to 7 s: Cat's QS landed face down in the last frame before it
/// went, and her 4H, drawn face up onto it, went in as her second card).
/// The card the camera gave, and the second card named; `None` when the
/// show does not fit the hand so.
fn second_card_drawn(
    held: &[Option<pone_engine::Card>],
    cards: &[pone_engine::Card],
) -> Option<(pone_engine::Card, pone_engine::Card)> {
    let given = (*held.get(1)?)?;
    let named = *cards.get(1)?;
    let drawn_at = cards.iter().position(|&c| c == given)?;
    (drawn_at >= 2 && cards.len() > held.len() && !held.contains(&Some(named)))
        .then_some((given, named))
}

/// Puts `line` in on `trial`, keeping its text and its events in
/// `went_in` for the journal once the trial becomes the game. Whether it
/// went in.
fn put_in_logged(
    trial: &mut Game,
    meta: &Meta,
    line: Line,
    went_in: &mut Vec<(String, Vec<Event>)>,
) -> bool {
    let text = line.to_json(&Meta::default());
    let Ok(events) = trial.apply(meta.clone(), line) else {
        return false;
    };
    went_in.push((text, events.to_vec()));
    true
}

/// A question about a dealer's word that the camera's cards wait for.
#[derive(Clone, Copy, Debug)]
struct Awaited {
    /// The frame the word was said at: cards landing after it wait.
    word: u64,
    /// The frame it was asked at.
    asked: u64,
    /// The question (its place in `questions`): answered, the wait is over.
    question: usize,
}

/// A dealer's word the engine refused, kept to go in later.
#[derive(Clone, Debug)]
struct Refused {
    /// The frame it was said at.
    frame: u64,
    line: Line,
    /// The question that told it.
    question: usize,
    /// The card the deal waited for when it was refused, while the first
    /// or second cards went round (round, seat, hand): a card the camera
    /// had not seen yet, the word said after it.
    deal_waited_for: Option<(u32, Seat, u8)>,
}

/// Whether a dealer's line is a player's word of play, said once the second
/// cards are dealt: content, over, divide, a natural declared.
fn word_of_play(line: &Line) -> bool {
    matches!(
        line,
        Line::Content { .. } | Line::Over { .. } | Line::Divide { .. } | Line::Natural { .. }
    )
}

/// Whether a dealer's line is said before a round's cards are played: its
/// stakes, the double, the deal sold or declined, the brulet.
fn before_the_cards(line: &Line) -> bool {
    matches!(
        line,
        Line::Stake { .. } | Line::Double | Line::Sell { .. } | Line::Decline | Line::Brulet { .. }
    )
}

/// A dealing slip the camera saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Slip {
    /// In dealing the first or second cards round the table, a card came to
    /// rest at the place of the player after the one due: that player
    /// skipped.
    PlayerSkipped,
    /// In dealing round the table, a card came to rest at another player's
    /// place than the one due, not the next: dealt out of order.
    OutOfOrder,
    /// A card drawn by the player whose turn it is (or the dealer's own)
    /// came to rest at another seat's place.
    WrongSeat,
    /// The pack's last card dealt, instead of passed unseen to the pone to
    /// shuffle with his pile.
    LastCardDealt,
}

impl std::fmt::Display for Slip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Slip::PlayerSkipped => "a player skipped in dealing round the table",
            Slip::OutOfOrder => "a card dealt out of order round the table",
            Slip::WrongSeat => "a card drawn put at the wrong seat",
            Slip::LastCardDealt => "the last card dealt instead of passed to the pone",
        })
    }
}

/// A card the camera gave the engine, and how long that took.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Delivered {
    /// The frame the card came to rest in (as the tracker saw it).
    pub landed: u64,
    /// The frame being read when the engine took it.
    pub known: u64,
    /// The line the engine took.
    pub line: String,
    /// Its number in the journal.
    pub seq: u64,
}

/// Seat zones that do not fit the table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the seat zones name {zones} seats, but the table has {seats}: `anchors` needs one entry \
     per player, in seating order (null for a seat to learn from its first card)"
)]
pub struct ZonesError {
    /// Seats in the zones.
    pub zones: usize,
    /// Seats at the table.
    pub seats: usize,
}

/// The dealer's lines of a sitting: the table's players and rules, then
/// each line with the frame it was said at.
#[derive(Clone, Debug)]
pub struct DealerScript {
    /// The players in seating order.
    pub players: Vec<String>,
    /// The house rules.
    pub rules: pone_engine::HouseRules,
    /// The lines after the table line, each with its frame.
    pub lines: Vec<(u64, Line)>,
}

/// A dealer's script that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct DealerScriptError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong there, and what to write instead.
    pub reason: String,
}

impl DealerScript {
    /// Reads a dealer's script (`dealer.jsonl`): the table line first, then
    /// every line with its `"frame"`. Blank lines and `#` or `//` comments are skipped.
    pub fn parse(text: &str) -> Result<DealerScript, DealerScriptError> {
        let mut table = None;
        let mut lines = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
                continue;
            }
            let at = |reason: String| DealerScriptError {
                line: index + 1,
                reason,
            };
            let (line, meta) = Line::parse(trimmed).map_err(|e| at(e.to_string()))?;
            match line {
                Line::Table { players, rules } if table.is_none() => table = Some((players, rules)),
                Line::Table { .. } => return Err(at("a second table line".into())),
                _ if table.is_none() => {
                    return Err(at(
                        "the first line must be the table (its players and rules)".into(),
                    ));
                }
                line => {
                    let frame = meta.frame.ok_or_else(|| {
                        at(
                            "no \"frame\": every dealer's line says at which frame it was said"
                                .into(),
                        )
                    })?;
                    lines.push((frame, line));
                }
            }
        }
        let (players, rules) = table.ok_or(DealerScriptError {
            line: text.lines().count().max(1),
            reason: "no table line".into(),
        })?;
        Ok(DealerScript {
            players,
            rules,
            lines,
        })
    }
}

/// A line waiting for its turn.
#[derive(Clone, Debug)]
struct Pending {
    frame: u64,
    line: Line,
}

/// The camera and the dealer, keeping one game.
pub struct Play {
    game: Game,
    tracker: Tracker,
    zones: SeatZones,
    /// Tracks given to a seat this round.
    placed: BTreeMap<u64, (Seat, [f32; 2])>,
    /// Where each card given a seat came to rest, by its track (a card
    /// landing on it may move what shows of it: `placed` follows that).
    rested: BTreeMap<u64, [f32; 2]>,
    /// Faces found on the backs of a player not drawing, judged cards
    /// dealt there, not his cards turned up ([`Play::dealt_onto_a_hand`]).
    dealt_onto: BTreeSet<u64>,
    /// Cards given to the seat due that came to rest at another seat's
    /// place (the dealer's slip), until they move: no mark of their seat's
    /// place ([`Play::seat_distance`]).
    astray: BTreeMap<u64, u64>,
    /// The journal line each face-up card went in with, by its track.
    lines: BTreeMap<u64, u64>,
    /// The last card dealt: the frame it came to rest, its track, and how
    /// surely it was read.
    last_dealt: Option<(u64, u64, f32)>,
    /// The cards turned up lately (where they lay, or in boxes of their
    /// own).
    shown_lately: Vec<Shown>,
    /// How surely the camera read each face it put in this round (dealt
    /// face up or turned up), by track.
    faces_read: BTreeMap<u64, f32>,
    /// Second boxes found on a card just dealt (by their track): that
    /// card's track and seat. Such a box may be a neighbour's card the
    /// tracker lost to it, and turning up it shows that card.
    twins: BTreeMap<u64, (u64, Seat)>,
    /// The round's first card, dealt after the last round's cards were
    /// gathered, face down, while the pile had not come to rest (until the
    /// next card is dealt): its track, its seat, and
    /// how far from the seat's place it lay. The pile can lie near that
    /// seat (the pone's pile beside eldest hand, at two players).
    after_gathering: Option<(u64, Seat, f32)>,
    /// When each seat last turned up a card (the frame), by seat.
    turned_up_at: BTreeMap<Seat, u64>,
    /// The round just ended by the dealer's natural, until the next begins:
    /// the seat each of its cards was given, by track. A natural turned up
    /// after his ties it, so the hands turned up then are shown.
    ended_by_natural: BTreeMap<u64, Seat>,
    /// The last round's cards, as it ended: where each lay, by track, and
    /// the frame it went from sight since ([`Play::turned_down_to_gather`]).
    ended_lay: BTreeMap<u64, ([f32; 2], Option<u64>)>,
    /// Cards were thrown to the pone (a round over, a hand over-drawn): the
    /// next face-down card to come to rest away from the seat due a card is
    /// the pone's pile.
    gathering: bool,
    /// The frame the last round ended in (its last card, or the dealer's
    /// answer the showdown waited for).
    round_ended_at: u64,
    dealer: VecDeque<Pending>,
    facts: VecDeque<Fact>,
    questions: Vec<Question>,
    /// The dealer's words refused this round: they go in once a card they
    /// were refused over is put right, or once the card the deal waited for
    /// goes in.
    refused: Vec<Refused>,
    delivered: Vec<Delivered>,
    /// Frames a dealer's line waits for the camera.
    wait: u64,
    /// Frames a card must lie still in to count.
    counting: u64,
    /// A card landing this many frames after a dealer's line still comes before it.
    slack: u64,
    frame: u64,
    /// Frames a second.
    fps: f32,
    /// The frame the showdown began waiting for a card face down.
    showdown_since: Option<u64>,
    /// The hand the dealer was last asked to show: round, seat, hand.
    asked_showdown: Option<(u32, Seat, u8)>,
    /// The card in the draw asked for, as for `asked_showdown`.
    asked_card: Option<(u32, Seat, u8)>,
    /// Whether the card asked for is one of the deal that a word of play or
    /// a face drawn passed ([`Play::ask_for_a_card_a_word_passed`],
    /// [`Play::ask_for_a_card_a_face_passed`]).
    asked_card_of_the_deal: bool,
    /// The card in the draw or the hand the showdown waits for, as for
    /// `asked_card`, when every card of the round was found gone
    /// ([`Play::ask_for_a_card_gone_unseen`]).
    gone_unseen: Option<(u32, Seat, u8)>,
    /// Backs found on the camera's return, each all that was found again of
    /// its seat's cards, when the round's cards were found gone: where the
    /// next round's first cards lie, dealt where the last lay
    /// ([`Play::alone_on_return`]).
    alone_on_return: BTreeSet<u64>,
    /// The round's cards found gone on the camera's return (gone while it
    /// was out), with their seats: no longer placed, they still tell which
    /// of a seat's cards were not found again ([`Play::alone_on_return`]).
    gone_while_out: BTreeMap<u64, Seat>,
    /// A question about a dealer's word that the cards landing after the
    /// word wait for ([`ANSWER_WAIT_SECS`] at most).
    awaited: Option<Awaited>,
    /// Naturals paid on a card face down (round, seat, hand): when first
    /// seen so, and the question asked for it (its place in `questions`).
    naturals_unshown: BTreeMap<(u32, Seat, u8), (u64, Option<usize>)>,
    /// The time of the last frame read.
    last_at: Option<Duration>,
    /// The usual time between two frames read (seconds; a running mean).
    usual_gap: Option<f32>,
    /// The camera's return after it was out, while the cards it found and
    /// the dealer's words said meanwhile go in.
    back: Option<CameraBack>,
    /// The camera's last return, kept once caught up.
    returned: Option<CameraBack>,
    /// The seats' cards seen in the frames of the camera's last return.
    seen_on_return: BTreeSet<u64>,
    /// The dealer was asked to show the seats' places (the camera was out
    /// while the first cards went round): the question (its place in
    /// `questions`) and the frame it was asked in.
    places_asked: Option<(usize, u64)>,
    /// The dealer was asked to show the seats' places because every punter
    /// staked while the first round's first cards lacked one, and a card
    /// came to rest away from every place ([`Play::first_card_missed`]).
    places_checked: Option<PlacesChecked>,
    /// The hand the dealer was last asked for a card drawn while the camera
    /// was out (round, seat, hand), with the cards it held then.
    drawn_asked: Option<(u32, Seat, u8, usize)>,
    /// The hand the dealer said drew no more (his `Y` to that question),
    /// with the cards it held then: a face the camera finds at its place
    /// on the return is no card it drew.
    none_drawn: Option<(u32, Seat, u8, usize)>,
    /// The dealer's hand in his draw (round, seat, hand) whose card face
    /// down the camera, back from being out, found turned up, and the
    /// frame he was asked for it whole, until his answer goes in
    /// ([`Play::dealers_turning_up_unseen`]).
    turned_unseen: Option<((u32, Seat, u8), Option<u64>)>,
    /// The camera was out during this round.
    out_this_round: bool,
    /// The pack and the pile watched, for the last card passed to the pone.
    stacks: StackWatch,
    /// The camera's frame, width and height in pixels, once told
    /// ([`Play::frame_size`]): a box at its edge is a card cut by it.
    frame_size: Option<[f32; 2]>,
}

impl Play {
    /// A game at the dealer's table, his lines to come at their frames.
    pub fn new(script: DealerScript, fps: f32, options: TrackerOptions) -> Result<Play, GameError> {
        let DealerScript {
            players,
            rules,
            lines: dealer_lines,
        } = script;
        let seats = players.len();
        let game = Game::new(players, rules)?;
        let steady = (options.steady_time.as_secs_f32() * fps).ceil() as u64;
        let counting = u64::from(options.steady_frames).max(steady);
        let wait = counting + 3;
        Ok(Play {
            game,
            tracker: Tracker::new(options),
            zones: SeatZones {
                anchors: vec![None; seats],
                stacks: Vec::new(),
                card_size: 0.0,
            },
            gathering: false,
            round_ended_at: 0,
            placed: BTreeMap::new(),
            rested: BTreeMap::new(),
            dealt_onto: BTreeSet::new(),
            astray: BTreeMap::new(),
            lines: BTreeMap::new(),
            last_dealt: None,
            shown_lately: Vec::new(),
            faces_read: BTreeMap::new(),
            twins: BTreeMap::new(),
            after_gathering: None,
            turned_up_at: BTreeMap::new(),
            ended_by_natural: BTreeMap::new(),
            ended_lay: BTreeMap::new(),
            dealer: dealer_lines
                .into_iter()
                .map(|(frame, line)| Pending { frame, line })
                .collect(),
            facts: VecDeque::new(),
            questions: Vec::new(),
            refused: Vec::new(),
            delivered: Vec::new(),
            wait,
            counting,
            slack: 2,
            frame: 0,
            fps,
            showdown_since: None,
            asked_showdown: None,
            asked_card: None,
            asked_card_of_the_deal: false,
            gone_unseen: None,
            alone_on_return: BTreeSet::new(),
            gone_while_out: BTreeMap::new(),
            awaited: None,
            naturals_unshown: BTreeMap::new(),
            last_at: None,
            usual_gap: None,
            back: None,
            returned: None,
            seen_on_return: BTreeSet::new(),
            places_asked: None,
            places_checked: None,
            drawn_asked: None,
            none_drawn: None,
            turned_unseen: None,
            out_this_round: false,
            stacks: StackWatch::default(),
            frame_size: None,
        })
    }

    /// The camera's frame size in pixels, for the cards its edges cut (the
    /// top and left edges are known without it).
    pub fn frame_size(&mut self, width: u32, height: u32) {
        self.frame_size = Some([width as f32, height as f32]);
    }

    /// Starts from seat zones known already (a sitting's saved or hand-made
    /// zones, [`SeatZones`] as JSON): a seat with an anchor is not learned
    /// again from its first card. Refused when the zones have a different
    /// number of seats from the table.
    pub fn with_zones(mut self, zones: SeatZones) -> Result<Play, ZonesError> {
        let seats = self.zones.anchors.len();
        if zones.anchors.len() != seats {
            return Err(ZonesError {
                zones: zones.anchors.len(),
                seats,
            });
        }
        self.zones = zones;
        Ok(self)
    }

    /// One frame's readings.
    pub fn frame(&mut self, frame: u64, at: Duration, readings: &[Seen]) {
        let gap = self
            .last_at
            .map(|before| at.saturating_sub(before).as_secs_f32());
        let out = gap.is_some_and(|gap| {
            gap > CAMERA_OUT_SECS
                && self
                    .usual_gap
                    .is_none_or(|usual| gap > CAMERA_OUT_GAPS * usual)
        });
        if let Some(gap) = gap {
            self.usual_gap = Some(self.usual_gap.map_or(gap, |usual| 0.8 * usual + 0.2 * gap));
        }
        if out {
            tracing::debug!(last = self.frame, frame, "the camera is back");
            self.tracker.camera_back();
            self.stacks.camera_back(frame);
            self.out_this_round = true;
            self.back = Some(CameraBack {
                last: self.frame,
                said_from: if self.tracker.in_flight(self.frame) {
                    (self.frame + 1).saturating_sub(self.counting)
                } else {
                    self.frame + 1
                },
                first: frame,
                until: frame + self.wait + self.slack,
            });
            self.returned = self.back;
            self.seen_on_return.clear();
        }
        self.last_at = Some(at);
        self.frame = frame;
        self.watch_stacks(frame, readings);
        let mut facts = self.tracker.update(frame, at, readings);
        if self.back.is_some_and(|back| back.found(frame)) {
            let seen = self
                .placed
                .keys()
                .filter(|&&t| self.tracker.last_seen(t) == Some(frame));
            self.seen_on_return.extend(seen);
        }
        self.new_card_first(&mut facts);
        for fact in facts {
            self.queue(fact);
        }
        // A seat whose cards have all gone from sight has thrown them to the
        // pone (or a hand covers them): a stack may come to rest next.
        let mut hidden_seats = BTreeMap::new();
        for (&track, &(seat, _)) in &self.placed {
            let unseen = self
                .tracker
                .last_seen(track)
                .is_none_or(|last| frame >= last + 2);
            let entry = hidden_seats.entry(seat).or_insert(true);
            *entry &= unseen;
        }
        if hidden_seats.values().any(|&all_unseen| all_unseen) {
            self.gathering = true;
        }
        self.settle_order(false, true);
        self.ask_for_a_card_gone_unseen(frame, false);
        self.ask_for_hidden_cards(frame, false);
        self.ask_for_naturals(frame, false);
    }

    /// Whether any reading lies on the pack or the pone's pile, once their
    /// places are known ([`StackWatch`]).
    fn watch_stacks(&mut self, frame: u64, readings: &[Seen]) {
        if self.zones.stacks.is_empty() {
            return;
        }
        // On a stack, and nearer it than any seat's place (the pack may lie
        // by the dealer's cards).
        let on_a_stack = readings.iter().any(|r| {
            let size = if self.zones.card_size > 0.0 {
                self.zones.card_size
            } else {
                long_side(r.bbox)
            };
            let here = centre(r.bbox);
            let to_seat = self
                .zones
                .anchors
                .iter()
                .flatten()
                .map(|&a| distance(a, here))
                .fold(f32::INFINITY, f32::min);
            self.nearer_a_stack(here, size, to_seat)
        });
        let long = self.frames(TAKEN_UP_SECS).max(1);
        self.stacks.look(frame, on_a_stack, long);
    }

    /// A fact in the queue: a card come to rest before a card already
    /// waiting goes before it, so that cards go to the engine in the order
    /// they came (a card counted late, as the box where it landed was let go
    /// late: [`Tracker::not_a_card`]).
    fn queue(&mut self, fact: Fact) {
        let later = match fact {
            Fact::Landed { frame, .. } => self
                .facts
                .iter()
                .position(|f| matches!(f, Fact::Landed { frame: other, .. } if *other > frame)),
            _ => None,
        };
        match later {
            Some(k) => self.facts.insert(k, fact),
            None => self.facts.push_back(fact),
        }
    }

    /// Of the cards coming to rest in one frame, those lying on a card
    /// already counted ([`ON_A_COUNTED_CARD`] of them or more) go last, the
    /// one lying most on it last of all (a stable order otherwise): when a
    /// card dealt onto a seat's card makes the finder see that one again as a
    /// new box, the new card is the one lying less on it, whichever box the
    /// tracker named first (the demo sitting at two players: Bob's second
    /// card, its box 0.80 on his first card's, the first card's new box 0.90).
    fn new_card_first(&self, facts: &mut [Fact]) {
        // Where the landings are among the facts: only they move, among
        // themselves.
        let places: Vec<usize> = (0..facts.len())
            .filter(|&i| matches!(facts[i], Fact::Landed { .. }))
            .collect();
        if places.len() < 2 {
            return;
        }
        let landing: Vec<u64> = places
            .iter()
            .filter_map(|&i| match facts[i] {
                Fact::Landed { track, .. } => Some(track),
                _ => None,
            })
            .collect();
        let counted: Vec<[f32; 4]> = self
            .tracker
            .on_table()
            .filter(|(track, _, _)| !landing.contains(track))
            .map(|(_, bbox, _)| bbox)
            .collect();
        // How much a landing lies on a counted card, when that is
        // [`ON_A_COUNTED_CARD`] or more (0 else: those keep their order, first).
        let key = |fact: &Fact| match fact {
            Fact::Landed { bbox, .. } => {
                let share = counted
                    .iter()
                    .map(|&c| share_of_smaller(*bbox, c))
                    .fold(0.0, f32::max);
                if share >= ON_A_COUNTED_CARD {
                    share
                } else {
                    0.0
                }
            }
            _ => 0.0,
        };
        let mut landed: Vec<Fact> = places.iter().map(|&i| facts[i]).collect();
        landed.sort_by(|a, b| key(a).total_cmp(&key(b)));
        for (&i, fact) in places.iter().zip(landed) {
            facts[i] = fact;
        }
    }

    /// A natural paid while a card of the hand is still face down: after a
    /// moment ([`NATURAL_SHOWN_SECS`]; `now`: at once) the dealer is asked to
    /// have it turned up, once for each hand, even when the natural ended the
    /// round; the question is settled when the camera sees the cards. The
    /// payment stands meanwhile: the desk takes it back if the cards shown
    /// are no natural.
    fn ask_for_naturals(&mut self, frame: u64, now: bool) {
        let state = self.game.sitting().state();
        let round = state.round_number();
        // Naturals paid with a card face down, and those shown since.
        let (mut unshown, mut shown) = (Vec::new(), Vec::new());
        for &seat in state.order() {
            let Some(sr) = state.seat_round(seat) else {
                continue;
            };
            for (k, h) in sr.hands.iter().enumerate() {
                if h.state != HandState::Natural {
                    continue;
                }
                let key = (round, seat, k as u8 + 1);
                if h.cards.unseen() > 0 {
                    unshown.push(key);
                } else {
                    shown.push(key);
                }
            }
        }
        let moment = self.frames(NATURAL_SHOWN_SECS);
        let mut ask = Vec::new();
        // A round gone leaves its question as it is: only the cards seen
        // settle it.
        self.naturals_unshown.retain(|key, (_, asked)| {
            if shown.contains(key)
                && let Some(q) = asked.and_then(|q| self.questions.get_mut(q))
            {
                q.answered
                    .get_or_insert_with(|| "the cards were shown".to_owned());
            }
            unshown.contains(key)
        });
        for key in unshown {
            let (since, asked) = self.naturals_unshown.entry(key).or_insert((frame, None));
            if asked.is_none() && (now || frame >= *since + moment) {
                *asked = Some(self.questions.len() + ask.len());
                ask.push(key);
            }
        }
        for (_, seat, hand) in ask {
            let state = self.game.sitting().state();
            let hand = which_hand(state, seat, hand);
            let text = format!(
                "{} was paid a natural{hand} on a card the camera has not seen turned up: \
                 the holder turns up his cards; have them turned up, or look at them before \
                 they are gathered",
                state.name(seat)
            );
            self.raise(Question {
                frame,
                text,
                about: None,
                at: None,
                slip: None,
                natural: Some(seat),
                answered: None,
                wants: None,
            });
        }
    }

    /// At the showdown a hand still holds a card face down that the camera
    /// has not seen turned up (its index hidden, say): after a moment (`now`:
    /// at once) the dealer is asked for it, once for each hand. Until it is shown the round is
    /// not settled, and cards coming to rest wait.
    fn ask_for_hidden_cards(&mut self, frame: u64, now: bool) {
        if self.asked_showdown.is_some() && self.hand_to_show() != self.asked_showdown {
            // The hand asked for was shown: its question is settled.
            for q in &mut self.questions {
                if q.answered.is_none()
                    && matches!(q.wants, Some(Wanted::Shown { .. } | Wanted::Hand { .. }))
                {
                    q.answered = Some("the hand was shown".to_owned());
                }
            }
        }
        let state = self.game.sitting().state();
        let Some((seat, hand)) = state.to_show() else {
            self.showdown_since = None;
            return;
        };
        let since = *self.showdown_since.get_or_insert(frame);
        let waiting = (state.round_number(), seat, hand);
        let moment = self.frames(SHOWDOWN_WAIT_SECS);
        // The camera was out this round: it may not see the hands turned up
        // (seed 12 with the camera out from 5.1 s to 8.1 s: they were
        // turned up and gathered meanwhile, and the next round's cards,
        // landing while the showdown waited, went astray).
        let now = now || self.out_this_round;
        if (!now && frame < since + moment) || self.asked_showdown == Some(waiting) {
            return;
        }
        self.asked_showdown = Some(waiting);
        let which = which_hand(state, seat, hand);
        let text = format!(
            "{SHOWDOWN_WAITS} {}'s hand{which}: a card face down the camera cannot read; \
             type it at the desk (rank then suit)",
            state.name(seat)
        );
        self.ask_for(frame, text, Wanted::Shown { seat, hand });
    }

    /// A card due in the draw while every card of the round has gone from
    /// sight for [`GATHERED_UNSEEN_SECS`]: the round's cards were gathered
    /// before the camera saw that card (a hand over it as it came, seed 25
    /// of the live table's sittings), and the engine would wait for it for
    /// ever. The dealer is asked for it, once. A card of the round lying on
    /// the pack or the pone's pile is none of its hands' (the tracker may
    /// follow a card onto the pile as the cards thrown there land on it).
    /// The cards gone are let go at once (not only once out of sight for
    /// the tracker's `lost_after`): the next round's cards landing where
    /// they lay are new (seed 22 at 10 fps, the camera out from 7 s to
    /// 8.5 s over the showdown and the gathering: Bob's first card of the
    /// next round, landing just where his last lay, was taken for it, and
    /// every card after went one seat astray). So are they when the
    /// showdown waits for a hand (its own question asks for the card face
    /// down), and when the card due was asked for already (seed 14, the
    /// camera out from 7 s to 8.5 s: Bob's draw, asked for on the camera's
    /// return, then the showdown; Cat's first card of the next round,
    /// landing where her first of this round lay face down, was taken for
    /// it). Back from being out, the camera first catches up (`now`: the
    /// recording has ended).
    fn ask_for_a_card_gone_unseen(&mut self, frame: u64, now: bool) {
        if self.asked_card.is_some() && self.asked_for_card().is_none() {
            self.card_asked_went_in();
        }
        let due = self.draw_waits_for();
        let state = self.game.sitting().state();
        let showing = state
            .to_show()
            .map(|(seat, hand)| (state.round_number(), seat, hand));
        let Some(waiting @ (_, seat, hand)) = due.or(showing) else {
            return;
        };
        if self.gone_unseen != Some(waiting) {
            // None left in sight counts too: the tracker found them all
            // gone (seed 23 at 10 fps, the camera out from 13 s to 14.5 s:
            // Ann drew the QD and was over, and the cards were gathered,
            // all unseen; the recording ended with nothing asked).
            if !self.round_gone_unseen(frame, now, seat) {
                return;
            }
            let alone = self.alone_on_return(frame);
            self.alone_on_return.extend(alone);
            let unseen: Vec<u64> = self
                .placed
                .keys()
                .copied()
                .filter(|&track| {
                    self.tracker
                        .last_seen(track)
                        .is_some_and(|last| last < frame)
                })
                .collect();
            self.tracker.leave(&unseen);
            self.gone_unseen = Some(waiting);
        }
        if due.is_none() || self.asked_card == Some(waiting) {
            return;
        }
        // Back from being out, the camera first finds all that lies there,
        // and the dealer's words said meanwhile go in (a "content" may say
        // that no card is due; seed 21, out from 7 s to 8.5 s).
        if !now && self.back.is_some_and(|back| frame < back.until) {
            return;
        }
        // The dealer's hand holds a card face down the camera never saw
        // turned up: it comes first, and may end his draw (seed 25 at 10
        // fps, the camera out from 3 s to 4.5 s: Bob turned up his 4C,
        // drew the JC and was over, all unseen; asked for the JC, the
        // table waited for his next card for ever).
        if self.hand_to_show() == Some(waiting) {
            if self.asked_showdown != Some(waiting) {
                self.asked_showdown = Some(waiting);
                let text = format!(
                    "{}'s hand{}: a card face down {TURNED_UP_UNSEEN}, and any card drawn since; \
                     {TYPE_THE_HAND}",
                    state.name(seat),
                    which_hand(state, seat, hand)
                );
                self.ask_for(frame, text, Wanted::Hand { seat, hand });
            }
            return;
        }
        self.asked_card = Some(waiting);
        self.asked_card_of_the_deal = false;
        let text = format!(
            "{}'s card{}: {GONE_UNSEEN}; type it at the desk (rank then suit)",
            state.name(seat),
            which_hand(state, seat, hand)
        );
        self.ask_for(
            frame,
            text,
            Wanted::Card {
                seat,
                hand,
                face_down: false,
            },
        );
    }

    /// Whether every card of the round has been out of sight for
    /// [`GATHERED_UNSEEN_SECS`] at `frame`, or lies on the pack or the
    /// pone's pile (nearer it than its seat's place), or has gone from
    /// where it was dealt (the tracker may follow a card onto the pile
    /// before the table knows the pile's place: seed 14, the camera out
    /// from 7 s to 8.5 s, the first gathering thrown down by Ann's cards).
    /// When the recording has ended (`now`), out of sight in its last
    /// frame is enough: no later frame can show them (seed 81 at 10 fps,
    /// the camera out from 17 s to 18.5 s: Ann drew the 7H meanwhile, and
    /// the round's cards were gathered 0.3 s after the return and 0.4 s
    /// before the end; nothing was asked, and the round went unsettled).
    fn round_gone_unseen(&self, frame: u64, now: bool, waited: Seat) -> bool {
        let moment = if now {
            1
        } else {
            self.frames(GATHERED_UNSEEN_SECS).max(1)
        };
        let out_of_sight = |track: u64| {
            self.tracker
                .last_seen(track)
                .is_none_or(|last| frame >= last + moment)
        };
        let alone = self.alone_on_return(frame);
        let all = self.placed.iter().all(|(&track, &(seat, dealt))| {
            let off_its_place = self.tracker.counted_box(track).is_some_and(|bbox| {
                let here = centre(bbox);
                let anchor = self.zones.anchors.get(seat.index()).copied().flatten();
                let to_seat = anchor.map_or(f32::INFINITY, |a| distance(a, here));
                self.nearer_a_stack(here, long_side(bbox), to_seat)
                    || distance(dealt, here) > MOVED_OFF * long_side(bbox)
            });
            off_its_place
                || out_of_sight(track)
                || alone.contains(&track)
                || self.alone_on_return.contains(&track)
        });
        // At the recording's end, the cards of the seat waited for out of
        // sight in its last frame are enough: the others may lie on a pile
        // the table never took for one, lying near a seat's place (blind
        // seed 116 at 10 fps, the camera out from 13 s to 14.5 s: Cat,
        // dealing, drew the QD and was over, unseen, and the cards were
        // gathered 0.1 s after the return onto a pile a card's length from
        // Bob's place; his first card, followed onto it, stayed in sight,
        // and the round went unsettled).
        all || now
            && self
                .placed
                .iter()
                .filter(|(_, (s, _))| *s == waited)
                .all(|(&track, _)| out_of_sight(track))
    }

    /// The round's backs found again on the camera's return, each the only
    /// one of its seat's cards found again (its others, one or more, unseen
    /// since the return): the seat's cards were gathered while the camera
    /// was out, and the next round's first card, dealt face down where one
    /// of them lay, taken for it (blind seed 119 at 10 fps, the camera out
    /// from 7 s to 10 s: Bob, dealing, drew the 9H and was over, the cards
    /// were gathered and Cat's and Ann's next first cards dealt where their
    /// first lay, all unseen; those two kept the round in sight, nothing
    /// was asked, and the sitting never ended its first round).
    fn alone_on_return(&self, frame: u64) -> BTreeSet<u64> {
        let Some(back) = self.returned.filter(|_| self.out_this_round) else {
            return BTreeSet::new();
        };
        let seen_since = |track: u64| {
            self.tracker
                .last_seen(track)
                .is_some_and(|last| last >= back.first && last <= frame)
        };
        let backs = self.backs_on_table();
        // A card dealt before it and lying partly under it (still placed:
        // not found gone) may be hidden by it, not gathered (seed 51 at 10
        // fps, the camera out from 13 s to 14.5 s: Bob's 6H lay on his TS,
        // face down, covering two fifths of it, and only the 6H was found
        // again; taken for the next round's first card, it opened a round
        // the recording never dealt). The next round's first card is dealt
        // where the seat's first lay, and found as that one.
        let hidden_under = |under: u64, track: u64| {
            under < track
                && self
                    .tracker
                    .counted_box(under)
                    .zip(self.tracker.counted_box(track))
                    .is_some_and(|(below, above)| share_of_smaller(below, above) >= HIDDEN_UNDER)
        };
        self.placed
            .iter()
            .filter(|&(&track, &(seat, _))| {
                let others: Vec<u64> = self
                    .placed
                    .iter()
                    .map(|(&t, &(s, _))| (t, s))
                    .chain(self.gone_while_out.iter().map(|(&t, &s)| (t, s)))
                    .filter(|&(t, s)| s == seat && t != track)
                    .map(|(t, _)| t)
                    .collect();
                backs.contains(&track)
                    && seen_since(track)
                    && !others.is_empty()
                    && others.iter().all(|&t| !seen_since(t))
                    && !others.iter().all(|&t| hidden_under(t, track))
            })
            .map(|(&track, _)| track)
            .collect()
    }

    /// A natural the dealer declared for a player whose cards, as the
    /// camera read them, cannot make one (the engine flags it and uses the
    /// cards): the face read least surely is asked about (seed 42 of the
    /// live table's sittings: Cat's ace turned up read 2D at 0.60, and her
    /// natural with the KS went for nothing). Put right, the natural is
    /// said again ([`Play::words_refused_over`]); let stand, the flag stands.
    fn natural_contradicted(&mut self, frame: u64, word: &Line, events: &[Event]) {
        let Some(player) = events.iter().find_map(|e| match e {
            Event::Flagged(pone_engine::event::Flag::DeclarationContradicted {
                player, ..
            }) => Some(*player),
            _ => None,
        }) else {
            return;
        };
        let least_sure = self
            .placed
            .iter()
            .filter(|(_, (seat, _))| *seat == player)
            .filter_map(|(track, _)| Some((*track, *self.faces_read.get(track)?)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let Some((track, confidence)) = least_sure else {
            return;
        };
        let Some(&seq) = self.lines.get(&track) else {
            return;
        };
        let Some(card) = self
            .command_at(seq)
            .and_then(|command| command_cards(command).first().copied())
        else {
            return;
        };
        self.refused.push(Refused {
            frame,
            line: word.clone(),
            question: self.questions.len(),
            deal_waited_for: None,
        });
        self.awaited = Some(Awaited {
            word: frame,
            asked: self.frame,
            question: self.questions.len(),
        });
        let name = self.game.sitting().state().name(player);
        let text = format!(
            "{name} declared a natural, but the camera read {name}'s {card} ({:.0}% sure)",
            confidence * 100.0
        );
        let at = self.tracker.counted_box(track);
        self.ask_about(frame, text, Some(seq), at);
    }

    /// The dealer's "over" for the player due a card, whose cards as the
    /// camera saw them make 21 or less (the engine flags it, and the hand
    /// stays open): he drew a card the camera did not see (seed 12 with the
    /// camera out from 13.1 s to 14.6 s: Ann drew the 3H and the TD and
    /// threw her cards to the pone meanwhile), or one was misread. The
    /// dealer is asked for the card drawn, the cards landing after his
    /// word waiting for his answer; once it goes in, the word is said
    /// again (and asks for the next card while the hand is not over).
    fn over_contradicted(&mut self, frame: u64, word: &Line, events: &[Event]) {
        let contradicted = events.iter().find_map(|e| match e {
            Event::Flagged(pone_engine::event::Flag::DeclarationContradicted {
                player,
                declared: pone_engine::event::Declaration::Over,
                ..
            }) => Some(*player),
            _ => None,
        });
        let Some(due) = self
            .card_due()
            .filter(|&(_, seat, _)| Some(seat) == contradicted)
        else {
            return;
        };
        let state = self.game.sitting().state();
        let (_, seat, hand) = due;
        let held = state
            .hand(seat, hand)
            .map(|h| {
                h.cards
                    .slots()
                    .iter()
                    .map(|slot| slot.map_or_else(|| "X".to_owned(), |c| c.to_string()))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        let text = format!(
            "{}'s card{}: the dealer's {} says the hand went over 21, but the camera saw only \
             {held}: {DEALT_UNSEEN} (or it misread one); type the card drawn at the desk (rank \
             then suit)",
            state.name(seat),
            which_hand(state, seat, hand),
            word.to_json(&Meta::default()),
        );
        self.refused.push(Refused {
            frame,
            line: word.clone(),
            question: self.questions.len(),
            deal_waited_for: Some(due),
        });
        self.ask_for_a_card_of_the_deal(due, frame, text);
    }

    /// The card the dealer was asked for went in: its question is settled.
    /// A card of the deal is asked for no more (the same seat's hand may be
    /// due a card drawn next); a card in the draw stays asked, so that it
    /// is not asked again.
    fn card_asked_went_in(&mut self) {
        for q in &mut self.questions {
            if q.answered.is_none() && matches!(q.wants, Some(Wanted::Card { .. })) {
                q.answered = Some("the card went in".to_owned());
            }
        }
        self.card_of_the_deal_asked_no_more();
    }

    /// A card of the deal asked for is asked for no more (a card in the
    /// draw stays asked, so that it is not asked again).
    fn card_of_the_deal_asked_no_more(&mut self) {
        if std::mem::take(&mut self.asked_card_of_the_deal) {
            self.asked_card = None;
        }
    }

    /// While the dealer is asked for a card the camera never saw, a card
    /// coming to rest away from the place of the seat it is due to waits for
    /// his answer (the next round's first card, which would be no card while
    /// the round is not over); one at that seat's place may be that card.
    /// While a question about a dealer's word waits for his answer, every
    /// card landing after that word waits too ([`ANSWER_WAIT_SECS`] at
    /// most): a card of the deal the word passed (a card landing after the
    /// word cannot be it), a natural the cards as read contradict (a card
    /// drawn next would go to the player whose natural it was).
    /// At the recording's end (`all`), nothing waits for an answer.
    fn held_for_the_card_asked(&self, all: bool) -> bool {
        let Some(&Fact::Landed { bbox, frame, .. }) = self.facts.front() else {
            return false;
        };
        if let Some(Awaited {
            word,
            asked,
            question,
        }) = self.awaited
        {
            let open = self
                .questions
                .get(question)
                .is_some_and(|q| q.answered.is_none());
            let waiting = !all && self.frame < asked + self.frames(ANSWER_WAIT_SECS);
            if open && frame > word && waiting {
                return true;
            }
        }
        // The round's cards found gone with a card still due in the draw:
        // the dealer is asked for it (once the camera's return is caught
        // up), and a card landing meanwhile is the next round's (seed 22 at
        // 10 fps, the camera out from 7 s to 8.5 s: Bob's first card of the
        // next round, landing as the return was caught up, went for nothing
        // as a face down in the draw, and the next round's cards went one
        // seat astray). So is one come to rest just now as the round is
        // found gone, though not yet asked about (blind seed 121 at 10 fps,
        // the camera out from 7 s to 8.5 s: Ann, dealing, drew and was over,
        // and the cards were gathered, all unseen; Bob's next first card,
        // come to rest as the return was caught up, went in at once, for
        // nothing). One come to rest long before is judged as it came, not
        // by the table now (seed 74, out from 5 s to 6.5 s: cards waiting
        // for the dealer's divide were held as the next round's).
        let just_now = frame + self.wait + self.slack >= self.frame;
        let gone = self.draw_waits_for().filter(|&due @ (_, seat, _)| {
            let found_gone = self.gone_unseen == Some(due)
                || (just_now && self.round_gone_unseen(self.frame, false, seat));
            found_gone && self.asked_card != Some(due)
        });
        let seat = match (self.asked_for_card(), gone) {
            (Some((seat, _)), _) if !self.asked_card_of_the_deal => seat,
            (_, Some((_, seat, _))) if !all => seat,
            _ => return false,
        };
        self.nearest_seat(centre(bbox)) != Some(seat.index())
    }

    /// A word of play (content, over, divide, a natural) refused while the
    /// first or second cards go round, waiting for a card the camera has
    /// not seen: the dealer's word says the deal is past it, so it was dealt
    /// unseen (seed 15 of the live table's sittings: Ann's second card,
    /// face down on her first, seen as one box with it, and Cat's
    /// "content" refused). The dealer is asked for it, once; the cards
    /// landing after the word wait for his answer, and once the card goes
    /// in, the words refused over it go in too.
    fn ask_for_a_card_a_word_passed(&mut self) {
        let Some(due) = self.deal_waits_for() else {
            return;
        };
        if self.asked_card == Some(due) {
            return;
        }
        let Some(word) = self
            .refused
            .iter()
            .find(|w| w.deal_waited_for == Some(due) && word_of_play(&w.line))
        else {
            return;
        };
        let (said_at, said) = (word.frame, word.line.to_json(&Meta::default()));
        let state = self.game.sitting().state();
        let (_, seat, hand) = due;
        let text = format!(
            "{}'s card{}: the dealer's {said} says the deal is past it, but {DEALT_UNSEEN}; \
             type it at the desk (rank then suit, or X face down)",
            state.name(seat),
            which_hand(state, seat, hand)
        );
        self.ask_for_a_card_of_the_deal(due, said_at, text);
    }

    /// Asks the dealer for `due`, a card of the deal passed unseen: the
    /// cards landing after frame `passed_at` wait for his answer.
    fn ask_for_a_card_of_the_deal(&mut self, due: (u32, Seat, u8), passed_at: u64, text: String) {
        self.asked_card = Some(due);
        self.asked_card_of_the_deal = true;
        self.awaited = Some(Awaited {
            word: passed_at,
            asked: self.frame,
            question: self.questions.len(),
        });
        let (_, seat, hand) = due;
        // A card of the first or second cards may have been dealt face down.
        let face_down = self.deal_waits_for() == Some(due);
        self.ask_for(
            self.frame,
            text,
            Wanted::Card {
                seat,
                hand,
                face_down,
            },
        );
    }

    /// The card in the draw the table has asked the dealer for (the
    /// round's cards went before the camera saw it), while it is still due.
    pub fn asked_for_card(&self) -> Option<(Seat, u8)> {
        let due = self.card_due()?;
        (self.asked_card == Some(due)).then_some((due.1, due.2))
    }

    /// The dealer says a line now (at the window's desk), after the last
    /// frame read: it is stamped with the next frame, and goes in after the
    /// cards that landed before it, as a scripted line at that frame does.
    pub fn say(&mut self, line: Line) {
        // After the lines scripted up to then (a script's lines wait here
        // from the start).
        self.pending(self.frame + 1, line);
    }

    /// Puts the dealer's `line` at `frame` in the queue of his lines, after
    /// those at that frame or before.
    fn pending(&mut self, frame: u64, line: Line) {
        let at = self.dealer.partition_point(|p| p.frame <= frame);
        self.dealer.insert(at, Pending { frame, line });
    }

    /// The dealer's lines not in the game yet (said, or scripted for later frames).
    #[must_use]
    pub fn waiting(&self) -> usize {
        self.dealer.len()
    }

    /// The recording has ended: what waits goes in as far as the dealer's
    /// answers allow, the table still asking for a card drawn while the
    /// camera was out before a word said meanwhile goes in, and waiting
    /// for his answers given. Call [`Play::finish`] after, once he has no
    /// more to say: whatever is left goes in then. Seed 67 at 10 fps, the
    /// camera out from 15 s to 16.5 s and back on the recording's last
    /// frame: Bob, dealing, drew the 5C as it went and said "content"
    /// meanwhile; his word went in with no card asked for, his 21 taken
    /// for 16.
    pub fn finish_asking(&mut self) {
        self.end(true);
    }

    /// The recording has ended: everything waiting goes in (and a card due
    /// in the draw, its round's cards gone unseen, or a showdown still
    /// waiting for a card face down, asks for it at once: seed 16 at 10
    /// fps, the camera out from 17 s to 18.5 s, back a moment before the
    /// end).
    pub fn finish(&mut self) {
        self.end(false);
    }

    /// [`Play::finish`], or with the table still asking
    /// ([`Play::finish_asking`]).
    fn end(&mut self, asking: bool) {
        self.settle_order(true, asking);
        self.ask_for_a_card_gone_unseen(self.frame, true);
        self.ask_for_hidden_cards(self.frame, true);
        self.ask_for_naturals(self.frame, true);
    }

    /// The game as kept.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// What the dealer should look at.
    pub fn questions(&self) -> &[Question] {
        &self.questions
    }

    /// The hand the table has asked the dealer to show (the showdown waits
    /// for a card face down the camera cannot read), while it still waits.
    pub fn asked_to_show(&self) -> Option<(Seat, u8)> {
        let waiting @ (_, seat, hand) = self.hand_to_show()?;
        (self.asked_showdown == Some(waiting)).then_some((seat, hand))
    }

    /// The hand whose card face down the table waits for (round, seat,
    /// hand): at the showdown ([`State::to_show`]), or the dealer's in his
    /// draw once the round's cards went from the table unseen (he turned
    /// his cards up while the camera was out: the engine cannot tell
    /// whether he is over).
    fn hand_to_show(&self) -> Option<(u32, Seat, u8)> {
        let state = self.game.sitting().state();
        if let Some((seat, hand)) = state.to_show() {
            return Some((state.round_number(), seat, hand));
        }
        let due @ (_, seat, hand) = self.draw_waits_for()?;
        let hidden = state.hand(seat, hand).is_some_and(|h| h.cards.unseen() > 0);
        let unseen = self.gone_unseen == Some(due)
            || self.turned_unseen.is_some_and(|(asked, _)| asked == due);
        (state.dealer() == Some(seat) && hidden && unseen).then_some(due)
    }

    /// The seats whose places the table has asked the dealer to show (on
    /// the camera's picture: [`Play::move_place`]), while it waits for them.
    #[must_use]
    pub fn asked_for_places(&self) -> Vec<Seat> {
        let open = |question: Option<usize>| {
            question
                .and_then(|question| self.questions.get(question))
                .is_some_and(|q| q.answered.is_none())
        };
        let open = open(self.places_asked.map(|(question, _)| question))
            || open(self.places_checked.as_ref().map(|c| c.question));
        if !open {
            return Vec::new();
        }
        (0..self.zones.anchors.len())
            .filter(|&s| self.zones.anchors[s].is_none())
            .filter_map(|s| u8::try_from(s).ok().map(Seat))
            .collect()
    }

    /// The cards the camera gave, with when.
    pub fn delivered(&self) -> &[Delivered] {
        &self.delivered
    }

    /// The seat zones as learned.
    pub fn zones(&self) -> &SeatZones {
        &self.zones
    }

    /// Puts a seat's place, or the pack's or the pile's, where the dealer
    /// says (dragged on the camera's picture): cards coming to rest near a
    /// seat's place are that seat's, and near the pack or the pile no one's.
    /// False for a place the table does not have.
    pub fn move_place(&mut self, place: Place, at: [f32; 2]) -> bool {
        self.zones.move_place(place, at)
    }

    /// Feeds the engine what is due, in the order it happened.
    ///
    /// With `all` (the recording has ended), nothing waits for later frames;
    /// while `asking`, the table still asks for a card drawn while the
    /// camera was out before a word said meanwhile, and waits for the
    /// dealer's answers given.
    fn settle_order(&mut self, all: bool, asking: bool) {
        loop {
            // Back from being out, the camera first finds all that lies there.
            if !all && self.back.is_some_and(|back| self.frame < back.until) {
                return;
            }
            let said_meanwhile = self.catching_up();
            let catching_up = said_meanwhile == Some(true);
            if !all && self.dealers_turning_up_unseen() {
                return;
            }
            if asking
                && said_meanwhile.is_some()
                && ((!all && catching_up && self.places_wanted()) || self.drawn_unseen_wanted())
            {
                return;
            }
            // The dealer's answer to a question that cards wait for goes in
            // as soon as he gives it, though the camera is caught up: the
            // wait may end before his line's turn comes (seed 59 at 10 fps,
            // the camera out from 11 s to 12.5 s: Cat's QS, drawn as the
            // camera went, typed at the desk just after her "over" said
            // meanwhile was asked about, came after Ann's 8S found on the
            // return, which went to Cat). The dealer's words said meanwhile
            // wait for his answer too.
            if asking && self.awaiting_answer() {
                if self.none_drawn_said() {
                    continue;
                }
                if let Some(answer) = self.card_asked_given() {
                    self.apply(answer.frame, answer.line, None);
                    continue;
                }
                if said_meanwhile.is_some() {
                    return;
                }
            }
            let fact_frame = self.facts.front().map(fact_frame);
            let line_frame = self.dealer.front().map(|p| p.frame);
            // At the showdown a card coming to rest waits for the hands to be
            // shown (the dealer's word may show them): the next round's first
            // card is no card while the round is not settled.
            if !all && self.wait_for_the_due_seats_card() {
                return;
            }
            if said_meanwhile.is_none() && self.first_card_missed(all, asking) {
                return;
            }
            if self.due_seats_card_unseen(all) {
                return;
            }
            if self.dealt_onto_a_hand(all) {
                return;
            }
            self.due_seats_card_first();
            self.gathered_first();
            self.turned_up_in_the_deals_order();
            // Catching up, the cards found go in in the deal's order; but
            // with none found at the due seat's place, a face found at
            // another's, a card drawn, passed the card due, hidden (blind
            // seed 121 at 10 fps, the camera out from 10 s to 13 s: Ann's
            // second card lay under her first, boxed as one with it, and
            // Bob's 3D, drawn, went in as hers).
            if !catching_up
                || self
                    .back
                    .and_then(|back| self.found_for_the_due_seat(back))
                    .is_none()
            {
                self.ask_for_a_card_a_face_passed();
            }
            let showdown = self.game.sitting().state().to_show().is_some();
            let held = (showdown && matches!(self.facts.front(), Some(Fact::Landed { .. })))
                || self.held_for_the_card_asked(all);
            if showdown {
                self.hand_shown_first();
            }
            let camera_first = match (fact_frame, line_frame) {
                (None, None) => return,
                (Some(_), None) if held => return,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (Some(f), Some(_)) if catching_up && self.back.is_some_and(|b| b.found(f)) => {
                    !held && self.due_seats_card_found()
                }
                (Some(f), Some(l)) => !held && f <= l + self.slack,
            };
            if camera_first {
                if let Some(f) = fact_frame {
                    self.found_in_the_deals_order(f);
                }
                self.turned_up_before_its_second_box();
                if let Some(fact) = self.facts.pop_front() {
                    self.fact(fact);
                }
                continue;
            }
            // A dealer's line waits until every card that landed before it
            // (or just after) must have been seen.
            let ready = line_frame.is_some_and(|l| all || self.frame >= l + self.slack + self.wait);
            // So do his words for the next round (its stakes, said early)
            // while the showdown waits: the round is not settled.
            let for_later = showdown
                && !all
                && self
                    .dealer
                    .front()
                    .is_some_and(|p| before_the_cards(&p.line));
            if !ready || for_later {
                return;
            }
            if let Some(pending) = self.dealer.pop_front() {
                self.apply(pending.frame, pending.line, None);
            }
        }
    }

    /// Whether the camera, back from being out, is putting in the dealer's
    /// words said meanwhile (`Some`), and with them what it found lying
    /// there on its return (`Some(true)`): they wait in their queues. Over,
    /// it forgets its return.
    fn catching_up(&mut self) -> Option<bool> {
        let back = self.back?;
        let found = self.facts.iter().any(|f| back.found(fact_frame(f)));
        let meanwhile = |p: &Pending| p.frame >= back.said_from && p.frame <= back.until;
        let said = self.dealer.front().is_some_and(meanwhile);
        // Words said before it went out, still waiting their turn, go in
        // first; the return is kept for those said meanwhile after them.
        if !found && !self.dealer.iter().any(meanwhile) {
            tracing::debug!(
                ?back,
                "caught up with what was dealt while the camera was out"
            );
            self.back = None;
        }
        said.then_some(found)
    }

    /// Back from being out while the first cards went round, the camera
    /// finds cards lying at no seat's place, and the places are learned
    /// from where each seat's first card comes to rest, in the deal's
    /// order, which it did not see (seed 12 with the camera out from 1.1 s
    /// to 4.1 s). It asks the dealer to show the places on its picture,
    /// once, and what it found waits for his answer ([`ANSWER_WAIT_SECS`]
    /// at most; then it goes in as before). Whether to wait.
    fn places_wanted(&mut self) -> bool {
        let Some(back) = self.back else {
            return false;
        };
        if self.zones.anchors.iter().all(Option::is_some) {
            if let Some((question, _)) = self.places_asked
                && let Some(q) = self.questions.get_mut(question)
                && q.answered.is_none()
            {
                q.answered = Some("the places were shown".to_owned());
            }
            return false;
        }
        if let Some((_, asked)) = self.places_asked {
            return self.frame < asked + self.frames(ANSWER_WAIT_SECS).max(1);
        }
        let sizes: Vec<f32> = self
            .facts
            .iter()
            .filter_map(|f| match *f {
                Fact::Landed { frame, bbox, .. }
                    if back.found(frame) && self.nearest_seat(centre(bbox)).is_none() =>
                {
                    Some(long_side(bbox))
                }
                _ => None,
            })
            .collect();
        if sizes.is_empty() {
            return false;
        }
        if self.zones.card_size <= 0.0 {
            let mut sizes = sizes;
            sizes.sort_by(f32::total_cmp);
            self.zones.card_size = sizes[sizes.len() / 2];
        }
        self.places_asked = Some((self.questions.len(), self.frame));
        self.ask(
            self.frame,
            "the camera was out while the cards went round, and cannot tell whose cards are \
             whose: drag each player's name onto his cards on the camera's picture"
                .to_owned(),
        );
        true
    }

    /// In the first round (the places not all learned), every punter has
    /// staked, so the first cards have all gone round, but the deal still
    /// waits for the dealer's, and a face-down card comes to rest away from
    /// every place learned: either the dealer's own first card, or a
    /// second card while a first card went unseen, and then the places
    /// learned from the first cards went one seat astray (blind seed 140 at
    /// 10 fps: Cat's first card, small and far on a pale tiled floor, was
    /// never found; Ann's was taken for Cat's, Bob's for Ann's, and Cat's
    /// second card for Bob's first, and every card after went by places
    /// one seat astray, two rounds lost). The table asks the dealer to show
    /// the places on its picture, and the card waits for his answer
    /// ([`ANSWER_WAIT_SECS`] at most; then the places learned stand).
    /// Shown, the cards dealt go to the seats whose places they lie at
    /// ([`Play::put_in_by_the_places_shown`]). So too on the camera's
    /// return, when it finds such a card (blind seed 140 with the camera out
    /// from 3 s to 4.5 s, over the second cards of Cat and Ann: the card
    /// found at Cat's place went in as Bob's first, and the round was lost).
    /// Whether to wait.
    fn first_card_missed(&mut self, all: bool, asking: bool) -> bool {
        if let Some(checked) = self.places_checked.take() {
            if self.zones.anchors.iter().all(Option::is_some) {
                let answer = self.put_in_by_the_places_shown();
                if let Some(q) = self.questions.get_mut(checked.question) {
                    q.answered = Some(answer);
                }
                return false;
            }
            if !all && self.frame < checked.asked + self.frames(ANSWER_WAIT_SECS).max(1) {
                self.places_checked = Some(checked);
                return true;
            }
            for (anchor, was) in self.zones.anchors.iter_mut().zip(checked.learned) {
                if anchor.is_none() {
                    *anchor = was;
                }
            }
            return false;
        }
        if all || !asking {
            return false;
        }
        let Some(&Fact::Landed {
            bbox, card: None, ..
        }) = self.facts.front()
        else {
            return false;
        };
        let state = self.game.sitting().state();
        let Some(dealer) = state.dealer() else {
            return false;
        };
        let first_cards = matches!(state.phase(), Phase::FirstCards { .. });
        if state.round_game() != RoundGame::Ordinary
            || !first_cards
            || state.due_card() != Some((dealer, 1))
            || self.zones.anchors.get(dealer.index()) != Some(&None)
        {
            return false;
        }
        let here = centre(bbox);
        if !state.all_staked()
            || self.nearest_seat(here).is_some()
            || self.on_a_stack(here, long_side(bbox), None)
        {
            return false;
        }
        let (seen, seats) = (self.placed.len(), state.order().len());
        let learned = std::mem::replace(&mut self.zones.anchors, vec![None; seats]);
        self.places_checked = Some(PlacesChecked {
            question: self.questions.len(),
            asked: self.frame,
            learned,
        });
        self.ask(
            self.frame,
            format!(
                "every player has staked, but the camera saw {seen} of the {seats} first cards: \
                 drag each player's name onto his cards on the camera's picture"
            ),
        );
        true
    }

    /// The places shown by the dealer ([`Play::first_card_missed`]): each
    /// card dealt so far goes to the seat whose place it lies at, and when
    /// the card waiting lies at another seat's place than the dealer's, it
    /// is a second card, so a first card went unseen: one more goes in face
    /// down (the cards of the deal are face down, one like another), and
    /// the deal goes on with the second cards. What the answer settled.
    fn put_in_by_the_places_shown(&mut self) -> String {
        let shown = "the places were shown".to_owned();
        let Some(&Fact::Landed { bbox, .. }) = self.facts.front() else {
            return shown;
        };
        let state = self.game.sitting().state();
        let Some(dealer) = state.dealer() else {
            return shown;
        };
        let held: usize = state
            .order()
            .iter()
            .filter_map(|&seat| state.seat_round(seat))
            .flat_map(|r| r.hands.iter())
            .map(|h| h.cards.len())
            .sum();
        let at: BTreeMap<u64, usize> = self
            .placed
            .iter()
            .filter_map(|(&track, &(_, here))| self.nearest_seat(here).map(|s| (track, s)))
            .collect();
        let seats: BTreeSet<usize> = at.values().copied().collect();
        if at.len() != self.placed.len() || seats.len() != at.len() || held != at.len() {
            return shown;
        }
        for (track, seat) in at {
            if let (Some(entry), Ok(seat)) = (self.placed.get_mut(&track), u8::try_from(seat)) {
                entry.0 = Seat(seat);
            }
        }
        let landing = self.nearest_seat(centre(bbox));
        let missed = state
            .order()
            .iter()
            .copied()
            .find(|seat| !seats.contains(&seat.index()));
        let (Some(missed), Some(landing)) = (missed, landing) else {
            return shown;
        };
        if landing == dealer.index() {
            return shown;
        }
        let missed = state.name(missed).to_owned();
        let line = Line::Card {
            to: state.name(dealer).to_owned(),
            hand: None,
            card: None,
        };
        if !self.apply(self.frame, line, None) {
            return shown;
        }
        format!("the places were shown: {missed}'s first card went unseen, put in face down")
    }

    /// Back from being out, the camera has a player's "content" said
    /// meanwhile, while he is due a card, and sees none of his cards (turned
    /// up and gathered at the showdown before it saw them lie still: seed 12
    /// with the camera out from 5.1 s to 8.1 s): it cannot tell what he drew.
    /// It asks the dealer for each card drawn, once for each card the hand
    /// holds, the word and all after it waiting for his answer: a card, or
    /// `Y` for none ([`NONE_DRAWN`]; [`ANSWER_WAIT_SECS`] at most, then the
    /// word goes in). Whether to wait.
    fn drawn_unseen_wanted(&mut self) -> bool {
        let Some(Pending {
            frame: said,
            line: Line::Content { player, .. },
        }) = self.dealer.front()
        else {
            return false;
        };
        let said = *said;
        let state = self.game.sitting().state();
        let Some(due @ (round, seat, hand)) = self.draw_waits_for() else {
            return false;
        };
        if state.name(seat) != player {
            return false;
        }
        let held = state.hand(seat, hand).map_or(0, |h| h.cards.len());
        if self.drawn_asked == Some((round, seat, hand, held)) {
            return false;
        }
        // The dealer's whole hand, asked for and shown, holds every card he
        // drew (seed 37 at 10 fps, the camera out from 7 s to 8.5 s).
        let shown = state
            .hand(seat, hand)
            .is_some_and(|h| h.cards.unseen() == 0);
        if self.asked_showdown == Some(due) && shown {
            return false;
        }
        // His hand in sight, the cards found there have gone in first; but
        // a card drawn under the next may lie hidden under it (seed 29 at
        // 10 fps, the camera out from 5 s to 6.5 s: Bob drew 2H, 2S and
        // 9H, and the 2S, a strip under the 9H, was never found).
        let in_sight = self.hand_in_sight(seat);
        if in_sight
            && self
                .back
                .is_none_or(|back| self.found_for_the_due_seat(back).is_some())
        {
            return false;
        }
        self.drawn_asked = Some((round, seat, hand, held));
        let name = state.name(seat).to_owned();
        let which = which_hand(state, seat, hand);
        let text = if in_sight {
            format!(
                "{name}'s card{which}: the camera was out while {name} drew, and a card drawn \
                 under the next may lie hidden; type any card {name} drew that the table does \
                 not show at the desk (rank then suit), {NONE_DRAWN}"
            )
        } else {
            format!(
                "{name}'s card{which}: the camera was out while {name} drew, and {DEALT_UNSEEN}; \
                 type the next card {name} drew at the desk (rank then suit), {NONE_DRAWN}"
            )
        };
        self.ask_for_a_card_of_the_deal(due, said, text);
        true
    }

    /// Whether the dealer said the hand due a card in the draw drew no
    /// more ([`Play::none_drawn_said`]) and it holds what it held then: a
    /// face found at its place on the camera's return is then a card of
    /// its turned up, not one drawn (seed 31 at 10 fps, the camera out
    /// from 5 s to 6.5 s: Cat's 6C, dealt face down and turned up at the
    /// showdown, found in a box of its own, went in as a card she drew
    /// after the dealer said she drew none, and the showdown waited for
    /// her hand for ever).
    fn drew_no_more(&self) -> bool {
        let state = self.game.sitting().state();
        self.draw_waits_for().is_some_and(|(round, seat, hand)| {
            let held = state.hand(seat, hand).map_or(0, |h| h.cards.len());
            self.none_drawn == Some((round, seat, hand, held))
        })
    }

    /// Back from being out over the dealer's draw, the camera finds his card
    /// face down turned up: what it found there may be that card, or a card
    /// he drew onto it, and a card may lie hidden under the next (seed 26 at
    /// 10 fps, the camera out from 13 s to 14.5 s: Ann turned up her 4C and
    /// drew the 8D onto it, then the TS; the 8D was taken for the 4C turned
    /// up, and her hand, over, was paid as 21). He is asked for his hand,
    /// whole, and what the camera found waits for his answer
    /// ([`ANSWER_WAIT_SECS`] at most; his cards beyond those face down go in
    /// as cards drawn: [`Play::dealer_shows_cards_drawn_unseen`]). Whether
    /// to wait.
    fn dealers_turning_up_unseen(&mut self) -> bool {
        let Some(back) = self.back else {
            return false;
        };
        let Some(due @ (_, seat, hand)) = self.draw_waits_for() else {
            return false;
        };
        let state = self.game.sitting().state();
        let hidden = state.hand(seat, hand).is_some_and(|h| h.cards.unseen() > 0);
        if state.dealer() != Some(seat) || !hidden {
            return false;
        }
        if let Some((_, waiting)) = self.turned_unseen.filter(|&(asked, _)| asked == due) {
            // His answer ends the wait, though it leaves a card of the hand
            // face down: the hand may have been divided since (seed 74 at
            // 10 fps, the camera out from 5 s to 6.5 s: Bob, dealing, turned
            // up his AS and AC meanwhile and divided them after the return;
            // his answer named the AS alone, and the 7C dealt onto it waited
            // five seconds, then was asked for).
            let Some(frame) = waiting.filter(|_| self.asked_to_show() == Some((seat, hand))) else {
                return false;
            };
            let name = state.name(seat);
            let shown = self
                .dealer
                .iter()
                .position(|p| matches!(&p.line, Line::Show { player, .. } if player == name));
            if let Some(shown) = shown.and_then(|k| self.dealer.remove(k)) {
                self.apply(shown.frame, shown.line, None);
                self.turned_unseen = Some((due, None));
                return false;
            }
            return self.frame < frame + self.frames(ANSWER_WAIT_SECS);
        }
        if !self.turned_up_on_return(back, seat) {
            return false;
        }
        self.turned_unseen = Some((due, Some(self.frame)));
        self.asked_showdown = Some(due);
        let name = state.name(seat);
        let text = format!(
            "{name}'s hand{}: the camera was out while {name}, dealing, turned up a card and \
             drew, and a card may lie hidden under the next; {TYPE_THE_HAND}",
            which_hand(state, seat, hand)
        );
        self.ask_for(self.frame, text, Wanted::Hand { seat, hand });
        true
    }

    /// Whether a card of `seat`'s is seen now where it was placed (not
    /// gathered, nor carried off to the pone's pile, which may lie beside
    /// his place).
    fn hand_in_sight(&self, seat: Seat) -> bool {
        let half = 0.5 * self.zones.card_size;
        self.placed.iter().any(|(&track, &(s, there))| {
            s == seat
                && self
                    .tracker
                    .last_seen(track)
                    .is_some_and(|last| self.frame < last + 2)
                && self
                    .tracker
                    .counted_box(track)
                    .is_some_and(|bbox| distance(centre(bbox), there) < half)
        })
    }

    /// The dealer's `Y` to the question waiting for his answer, asking for
    /// a card drawn while the camera was out (his note that it stands,
    /// waiting among his lines): none was drawn. It goes in (the journal
    /// keeps it), and the question is settled. Whether he said it.
    fn none_drawn_said(&mut self) -> bool {
        let Some(awaited) = self.awaited else {
            return false;
        };
        let Some(question) = self
            .questions
            .get(awaited.question)
            .filter(|q| q.text.contains(NONE_DRAWN))
            .map(|q| q.text.clone())
        else {
            return false;
        };
        let Some(k) = self
            .dealer
            .iter()
            .position(|p| matches!(&p.line, Line::Note { text } if text.ends_with(&question)))
        else {
            return false;
        };
        let Some(note) = self.dealer.remove(k) else {
            return false;
        };
        self.apply(note.frame, note.line, None);
        if let Some(q) = self.questions.get_mut(awaited.question) {
            q.answered = Some("none drawn, the dealer said".to_owned());
        }
        self.none_drawn = self.drawn_asked;
        self.awaited = None;
        self.card_of_the_deal_asked_no_more();
        true
    }

    /// Whether a question about a dealer's word waits for his answer
    /// ([`ANSWER_WAIT_SECS`] at most).
    fn awaiting_answer(&self) -> bool {
        self.awaited.is_some_and(|awaited| {
            self.frame < awaited.asked + self.frames(ANSWER_WAIT_SECS)
                && self
                    .questions
                    .get(awaited.question)
                    .is_some_and(|q| q.answered.is_none())
        })
    }

    /// The dealer's answer to the table's call for a card, if he gave it:
    /// taken from his lines waiting.
    fn card_asked_given(&mut self) -> Option<Pending> {
        let (_, seat, hand) = self.asked_card?;
        let state = self.game.sitting().state();
        let name = state.name(seat);
        let k = self.dealer.iter().position(|p| {
            matches!(&p.line, Line::Card { to, hand: h, .. }
                if to == name && h.is_none_or(|h| h == hand))
        })?;
        self.dealer.remove(k)
    }

    /// Catching up after the camera was out, with the dealer's words said
    /// meanwhile waiting: the cards it found lying there go in as the deal
    /// asks for them, each between the words said before and after it. A
    /// card found at the place of the seat due a card goes first (of two
    /// there, the lower: a player draws until he is content or over, so
    /// the cards he drew, lowest first, make him over only at the last);
    /// a change the camera saw (a card gone or moved) goes first too.
    /// Otherwise the dealer's next word goes first: it moves the deal on
    /// to the seat whose cards lie there. His stakes and the double go
    /// before any card whenever the game takes them (they are said on the
    /// first cards, before the second), and so does a natural (declared at
    /// once on the second card, before any drawing: seed 113 at 10 fps,
    /// the camera out from 4 s to 7 s: Cat's natural, said meanwhile, was
    /// refused as too late once a card found at Bob's place went in as his
    /// draw). Whether the camera goes first.
    fn due_seats_card_found(&mut self) -> bool {
        // The dealer's hand, shown as asked, goes before what the camera
        // found of it.
        let asked = self.turned_unseen.map(|(asked, _)| asked);
        if asked.is_some()
            && self.hand_to_show() == asked
            && matches!(
                self.dealer.front(),
                Some(Pending {
                    line: Line::Show { .. },
                    ..
                })
            )
        {
            return false;
        }
        if self
            .dealer
            .front()
            .is_some_and(|p| self.divides_a_pair_pulled_apart(&p.line))
        {
            return false;
        }
        if let Some(word) = self.dealer.front().filter(|p| {
            before_the_cards(&p.line)
                || matches!(p.line, Line::Natural { .. })
                || self.divides_the_due_hand(&p.line)
        }) && self
            .game
            .clone()
            .apply(Meta::default(), word.line.clone())
            .is_ok()
        {
            return false;
        }
        if !matches!(
            self.facts.front(),
            Some(Fact::Landed { .. } | Fact::TurnedUp { .. })
        ) {
            return true;
        }
        let Some(back) = self.back else {
            return true;
        };
        let Some((_, due_seat, _)) = self.card_due() else {
            return false;
        };
        if self.drew_no_more() {
            return false;
        }
        if self.pile_waits_first() {
            return true;
        }
        let lowest = self.found_for_the_due_seat(back);
        let due = due_seat.index();
        // None there: a card coming to rest there after the return, seen
        // come, before the dealer's next word said after the return, goes
        // before that word as ever (seed 14 at 10 fps, the camera out from
        // 3 s to 4.5 s: Cat's "content", said as her card drawn came to
        // rest, went in before it, and the card went to Ann).
        let said_since = self
            .dealer
            .front()
            .map(|p| p.frame)
            .filter(|&word| word > back.first + 1);
        let seen_come = || {
            let word = said_since?;
            self.facts.iter().position(|f| match *f {
                Fact::Landed { frame, bbox, .. } => {
                    frame > back.first + 1
                        && frame <= word + self.slack
                        && self.nearest_seat(centre(bbox)) == Some(due)
                }
                _ => false,
            })
        };
        let Some(k) = lowest.or_else(seen_come) else {
            return false;
        };
        self.fact_first(
            k,
            "found on the camera's return at the place of the seat due, or seen come there",
        );
        true
    }

    /// Fact `k` of those waiting goes first (`why`, for the log).
    fn fact_first(&mut self, k: usize, why: &str) {
        if let Some(card) = self.facts.remove(k) {
            tracing::debug!(?card, "{why}");
            self.facts.push_front(card);
        }
    }

    /// Whether the fact waiting first is the pone's pile, the last round's
    /// cards gathered: it goes first ([`Play::gathered_first`]), before the
    /// cards found with it are put in the deal's order.
    fn pile_waits_first(&self) -> bool {
        matches!(self.facts.front(), Some(&Fact::Landed { frame, bbox, card, .. })
            if self.the_pile_gathered(frame, bbox, card))
    }

    /// The camera going first, the cards it found on its return (the first
    /// fact waiting, found in `frame`) go in the deal's order, with the
    /// dealer's words said meanwhile or not: the one at the place of the
    /// seat due first (seed 25
    /// at 10 fps, the camera out from 15 s to 16.5 s: Bob divided his 8s
    /// and drew the 5D to his first hand and the TC to his second; the TC,
    /// found first, went to the first hand).
    fn found_in_the_deals_order(&mut self, frame: u64) {
        let Some(back) = self.back.filter(|back| back.found(frame)) else {
            return;
        };
        let landing = matches!(
            self.facts.front(),
            Some(Fact::Landed { .. } | Fact::TurnedUp { .. })
        ) && !self.pile_waits_first();
        if !landing || self.drew_no_more() {
            return;
        }
        if let Some(k) = self.found_for_the_due_seat(back).filter(|&k| k > 0) {
            self.fact_first(
                k,
                "found on the camera's return at the place of the seat due",
            );
        }
    }

    /// Of the facts waiting, the card found on the camera's return at the
    /// place of the seat due a card, by the hand due (of two there, the
    /// lower: a player draws until he is content or over, so the cards he
    /// drew, lowest first, make him over only at the last), or turned up
    /// drawn onto a back: its place in the queue.
    fn found_for_the_due_seat(&self, back: CameraBack) -> Option<usize> {
        let (_, due_seat, due_hand) = self.card_due()?;
        let due = due_seat.index();
        let points = |card: Option<pone_engine::Card>| card.map_or(0, |c| c.rank.points());
        // Of backs, the one nearest the seat's place (the pone's pile,
        // found with the next round's first cards, may lie by it: seed 44
        // at 10 fps, the camera out from 9 s to 10.5 s, the pile, a card's
        // length from Ann's place, went in as her first card, and hers went
        // to Bob).
        let anchor = self.zones.anchors.get(due).copied().flatten();
        let off = |bbox: [f32; 4]| anchor.map_or(0.0, |a| distance(a, centre(bbox)));
        self.facts
            .iter()
            .enumerate()
            .filter_map(|(k, f)| match *f {
                Fact::Landed {
                    frame, bbox, card, ..
                } if back.found(frame)
                    && self.nearest_seat(centre(bbox)) == Some(due)
                    && self
                        .nearest_hand(due_seat, centre(bbox))
                        .is_none_or(|hand| hand == due_hand)
                    && !(card.is_some() && self.turned_up_unseen(bbox, due_seat, back)) =>
                {
                    Some((
                        k,
                        points(card),
                        if card.is_none() { off(bbox) } else { 0.0 },
                    ))
                }
                Fact::TurnedUp {
                    track, frame, card, ..
                } if self.drawn_onto_a_back(track, frame) => Some((k, points(Some(card)), 0.0)),
                _ => None,
            })
            .min_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
            .map(|(k, ..)| k)
    }

    /// Whether the dealer's own draw ended while the camera was out: his
    /// "content" or "over" said meanwhile, waiting to go in, or his own
    /// cards face down found turned up on the camera's return with a card
    /// he drew there (he turns them up once the players are done). The
    /// showdown came meanwhile, and the hands were turned up (seed 73 at
    /// 10 fps, the camera out from 5 s to 6.5 s: Cat, dealing, turned up
    /// and drew over 21, no word said, and Bob's TD, turned up for the
    /// showdown, went in as a card he drew). His cards turned up with none
    /// drawn say nothing: he turns them up to divide too (seed 49 at 10 fps,
    /// the camera out from 15 s to 16.5 s: Cat turned up her aces to divide
    /// as Bob's last card came to rest).
    fn showdown_meanwhile(&self) -> bool {
        let Some(back) = self.back else {
            return false;
        };
        let state = self.game.sitting().state();
        let Some(dealer) = state.dealer() else {
            return false;
        };
        let name = state.name(dealer);
        let said = self.dealer.iter().any(|p| {
            (back.last..=back.first).contains(&p.frame)
                && matches!(&p.line, Line::Content { player, .. } | Line::Over { player, .. }
                    if player == name)
        });
        let drew = || {
            self.facts.iter().any(|f| {
                matches!(*f, Fact::Landed { frame, bbox, card: Some(_), .. }
                    if back.found(frame) && self.seat_at(centre(bbox)) == Some(dealer))
            })
        };
        said || (self.turned_up_on_return(back, dealer) && drew())
    }

    /// Whether a card the table gave `seat` is found turned up on the
    /// camera's return (a fact waiting).
    fn turned_up_on_return(&self, back: CameraBack, seat: Seat) -> bool {
        self.facts.iter().any(|f| {
            matches!(*f, Fact::TurnedUp { track, frame, .. }
                if back.found(frame) && self.placed.get(&track).is_some_and(|&(s, _)| s == seat))
        })
    }

    /// Whether a face found on the camera's return (its box `bbox`) lies
    /// just where a card given to `seat` face down lay ([`JUST_WHERE_IT_LAY`]),
    /// that card's back not seen since the return: it is that card turned
    /// up for the showdown, not a card drawn (seed 28 at 10 fps, the camera
    /// out from 15 s to 16.5 s: Ann's 6H, dealt face down, turned up and
    /// found in a box of its own 2 pixels from where its back had lain, went
    /// in as a card she drew, and her hand was over). Where it lay is where
    /// it came to rest or where it showed last: a card drawn onto it moves
    /// what shows of it (seed 32 at 10 fps, the camera out from 7 s to
    /// 8.5 s: Cat's 2H, found 4 pixels from where its back came to rest and
    /// 28 from where it showed under her 6C, went in as a card she drew).
    fn turned_up_unseen(&self, bbox: [f32; 4], seat: Seat, back: CameraBack) -> bool {
        if !has_face_down(self.game.sitting().state(), seat) {
            return false;
        }
        let here = centre(bbox);
        let faces = self.faces_on_table();
        // The showdown come meanwhile, a face found anywhere on such a card,
        // its back not found on the return, is it turned up, its index
        // perhaps hidden under the next; the cards may be gathered since
        // (seed 38 at 10 fps, the camera out from 15 s to 16.5 s: Cat's 6H
        // and 8H, found turned up a third of a card from where their backs
        // lay, went in as cards she drew).
        let showdown = self.showdown_meanwhile();
        let reach = if showdown { 1.0 } else { JUST_WHERE_IT_LAY };
        self.placed.iter().any(|(&t, &(s, at))| {
            let unseen_since = self
                .tracker
                .last_seen(t)
                .is_none_or(|last| last < back.first);
            s == seat
                && faces.get(&t).is_none_or(Option::is_none)
                && !self.seen_on_return.contains(&t)
                && (unseen_since || showdown)
                && self
                    .rested
                    .get(&t)
                    .map_or(f32::INFINITY, |&r| distance(r, here))
                    .min(distance(at, here))
                    < reach * self.zones.card_size
        })
    }

    /// Whether `line`, said while the camera was out, divides the hand due a
    /// card, its pair face down, and the card the camera found on its return
    /// and gave that hand last, face up, is the one pulled apart for the
    /// divide: the word goes next, and the card becomes the second hand's
    /// ([`Play::divided_pair_turned_up`]; seed 25 at 10 fps, the camera out
    /// from 5 s to 6.5 s: Ann divided her AC and AH and drew the TS and the
    /// 7D, and the AH, found apart, went in as a card she drew before the
    /// divide, which was refused).
    fn divides_a_pair_pulled_apart(&self, line: &Line) -> bool {
        let Line::Divide { player, hand, .. } = line else {
            return false;
        };
        let Some(back) = self.back else {
            return false;
        };
        let Some((_, seat, due)) = self.card_due() else {
            return false;
        };
        let state = self.game.sitting().state();
        let pulled_apart = state
            .hand(seat, due)
            .is_some_and(|h| h.cards.len() == 3 && h.cards.unseen() == 2);
        let found_last = self.delivered.last().is_some_and(|d| {
            back.found(d.landed)
                && self.game.in_force().last().is_some_and(|(seq, c)| {
                    *seq == d.seq
                        && matches!(c, Command::Card { to, card: Some(_), .. } if *to == seat)
                })
        });
        state.name(seat) == player && hand.unwrap_or(1) == due && pulled_apart && found_last
    }

    /// Whether `line` divides the hand due a card, its cards all seen (and
    /// the game takes it now: the caller tries): a pair is divided on its
    /// first two cards only, so a card found for that hand on the camera's
    /// return came after the word (seed 20 at 10 fps, the camera out from
    /// 7 s to 8.5 s: Ann divided her 8H 8D again, and the 6S dealt to the
    /// 8H after it went in before it, over 21). A pair face down is turned
    /// up as it is divided: a face found there may be it
    /// ([`Play::divided_pair_turned_up`]; seed 20, out from 5 s to 6.5 s).
    fn divides_the_due_hand(&self, line: &Line) -> bool {
        let Line::Divide { player, hand, .. } = line else {
            return false;
        };
        let state = self.game.sitting().state();
        self.card_due().is_some_and(|(_, seat, due)| {
            let seen = state.hand(seat, due).is_some_and(|h| h.cards.unseen() == 0);
            state.name(seat) == player && hand.unwrap_or(1) == due && seen
        })
    }

    /// Of a divided seat's hands, the one whose card face up, as the
    /// camera sees it now, lies nearest `at` (`None`: the seat holds one
    /// hand, or none of its faces is in sight). A card found on the
    /// camera's return lies by the hand it was dealt to (seed 20 at 10
    /// fps, the camera out from 7 s to 8.5 s: Ann's QS, dealt to her hand
    /// 2, went to hand 1 and her 6S to hand 2).
    fn nearest_hand(&self, seat: Seat, at: [f32; 2]) -> Option<u8> {
        let hands = &self.game.sitting().state().seat_round(seat)?.hands;
        if hands.len() < 2 {
            return None;
        }
        let (_, hand) = self
            .tracker
            .on_table()
            .filter_map(|(_, bbox, card)| {
                let card = card?;
                let k = hands.iter().position(|h| h.cards.contains(card))?;
                Some((distance(centre(bbox), at), k as u8 + 1))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))?;
        Some(hand)
    }

    /// A time in seconds as a count of the recording's frames (whole frames,
    /// rounded down).
    fn frames(&self, secs: f32) -> u64 {
        (secs * self.fps) as u64
    }

    /// A face coming to rest at another seat's place than the one due
    /// while the second cards go round face down (ordinary Vingt-un) is a
    /// card drawn (RULES: drawn cards come face up): the deal is past the
    /// card it waits for, dealt unseen (seed 39 of the live table's
    /// sittings: Ann's and Bob's second cards, each face down on the first,
    /// seen as one box with it, and Cat's first card drawn, the 2S, given
    /// to Ann). The dealer is asked for the card due, once, and the face
    /// waits for his answer; unanswered ([`ANSWER_WAIT_SECS`]), it goes in
    /// as before (a card at another seat's place: his slip, asked).
    fn ask_for_a_card_a_face_passed(&mut self) {
        let Some(&Fact::Landed {
            frame,
            bbox,
            card: Some(card),
            ..
        }) = self.facts.front()
        else {
            return;
        };
        let state = self.game.sitting().state();
        let second_cards = matches!(state.phase(), Phase::SecondCards { .. });
        let Some(due) = self.deal_waits_for().filter(|_| second_cards) else {
            return;
        };
        if state.round_game() != RoundGame::Ordinary || self.asked_card == Some(due) {
            return;
        }
        let (_, seat, hand) = due;
        let reach = REACH * self.zones.card_size;
        let Some(here) = self
            .nearest_seat(centre(bbox))
            .filter(|&s| s != seat.index() && self.seat_distance(s, centre(bbox)) <= reach)
        else {
            return;
        };
        let text = format!(
            "{}'s card{}: a face ({card}) came to rest at {}'s place, a card drawn, so the deal \
             is past it, but {DEALT_UNSEEN}; type it at the desk (rank then suit, or X face down)",
            state.name(seat),
            which_hand(state, seat, hand),
            state.name(Seat(here as u8)),
        );
        self.ask_for_a_card_of_the_deal(due, frame.saturating_sub(1), text);
    }

    /// A face read surely ([`SURE_SECOND_FACE`]) coming to rest, first of
    /// the facts waiting, in the frame a seat's card turns up read less
    /// surely as another face (so unsurely it is asked about:
    /// [`SURELY_TURNED_UP`]; a card drawn onto a back may make it read
    /// fairly surely as that card, seed 49 out 15 s to 16.5 s), lying
    /// mostly on it ([`ONE_CARD_TWICE`]): the card turned up goes first, and
    /// this face is read as its second box ([`Play::shown_read_again`]). On
    /// the camera's return the card found at the place of the seat due goes
    /// first, and such a box is found there (seed 74 at 10 fps, the camera
    /// out from 17 s to 18.5 s: Ann's JD, turned up at the showdown, read
    /// QD at 0.58 and JD at 0.98 in a box of its own, which went in as a
    /// card she drew, and her hand was lost).
    fn turned_up_before_its_second_box(&mut self) {
        let Some(&Fact::Landed {
            frame,
            bbox,
            card: Some(card),
            confidence,
            sure: true,
            ..
        }) = self.facts.front()
        else {
            return;
        };
        if confidence < SURE_SECOND_FACE {
            return;
        }
        let turned = self.facts.iter().position(|f| {
            matches!(*f, Fact::TurnedUp { track, frame: when, bbox: at, card: was, confidence: read, .. }
                if when == frame
                    && was != card
                    && read < SURELY_TURNED_UP
                    && self.placed.contains_key(&track)
                    && share_of_smaller(at, bbox) >= ONE_CARD_TWICE)
        });
        if let Some(k) = turned {
            self.fact_first(k, "a card turned up goes before its second box");
        }
    }

    /// Of a seat's cards turned up in the same frame, the one dealt first
    /// goes first: the engine turns up a hand's cards face down in the
    /// order dealt (seed 25 at 10 fps, the camera out from 15 s to 16.5 s:
    /// Bob's 8H and 8C, his first and second cards, turned up together,
    /// went in 8C first; divided, each of his hands was the other's, and
    /// the cards found for his first went to his second).
    fn turned_up_in_the_deals_order(&mut self) {
        let Some(&Fact::TurnedUp { track, frame, .. }) = self.facts.front() else {
            return;
        };
        let Some(&(seat, _)) = self.placed.get(&track) else {
            return;
        };
        // The tracker numbers the cards as it first sees them.
        let earlier = self.facts.iter().position(|f| {
            matches!(*f, Fact::TurnedUp { track: other, frame: when, .. }
                if when == frame
                    && other < track
                    && self.placed.get(&other).is_some_and(|&(s, _)| s == seat))
        });
        if let Some(k) = earlier {
            self.fact_first(k, "a card turned up goes before one dealt after it");
        }
    }

    /// Of cards coming to rest in the same frame while the last round's
    /// cards are gathered, a back clear of every seat's place goes first:
    /// the cards gathered came to rest there before the next round's first
    /// cards came (seed 31 at 10 fps, the camera out from 7 s to 8.5 s: on
    /// its return the camera found the pile and the next round's first two
    /// cards at once, and the pile went in as Ann's first card). Found on
    /// the camera's return, in its first frame or the next, they came to
    /// rest together as well (blind seed 109 at 10 fps, the camera out from
    /// 9 s to 10.5 s: the pile, boxed a frame after Cat's and Ann's first
    /// cards, went in as Bob's, and his own as Cat's second).
    fn gathered_first(&mut self) {
        let Some(&Fact::Landed { frame, .. }) = self.facts.front().filter(|_| self.gathering)
        else {
            return;
        };
        let on_return = |other: u64| {
            self.back
                .is_some_and(|back| back.found(frame) && back.found(other))
        };
        let gathered = self.facts.iter().position(|f| {
            matches!(*f, Fact::Landed { frame: other, bbox, card, .. }
                if (other == frame || on_return(other)) && self.the_pile_gathered(other, bbox, card))
        });
        if let Some(k) = gathered.filter(|&k| k > 0) {
            self.fact_first(
                k,
                "the cards gathered go before the cards landing with them",
            );
        }
    }

    /// The cards counted on the table, by track: each one's face (`None`:
    /// face down).
    fn faces_on_table(&self) -> BTreeMap<u64, Option<pone_engine::Card>> {
        self.tracker
            .on_table()
            .map(|(t, _, face)| (t, face))
            .collect()
    }

    /// Whether a card found on the camera's return, waiting to go in, lies
    /// nearer `seat`'s place than `here`.
    fn found_nearer(&self, seat: Seat, here: [f32; 2]) -> bool {
        let (Some(back), Some(Some(anchor))) = (self.back, self.zones.anchors.get(seat.index()))
        else {
            return false;
        };
        let off = distance(*anchor, here);
        self.facts.iter().any(|f| {
            matches!(*f, Fact::Landed { frame, bbox, .. }
                if back.found(frame) && distance(*anchor, centre(bbox)) < off)
        })
    }

    /// Whether a card found on the camera's return in `frame` lies off
    /// every seat's place ([`PILE_OFF_THE_PLACES`]) while the round's first
    /// cards are due: no card of theirs. Seed 45 at 10 fps, the camera out
    /// from 7 s to 8.5 s: the first pile, 0.99 of a card from Cat's place,
    /// went in as her first card; seed 20, out from 13 s to 14.5 s, 1.3
    /// cards from Ann's; seed 25, out from 9 s to 10.5 s, a card's length
    /// from Ann's, went in as Bob's.
    fn off_the_places_on_return(&self, frame: u64, bbox: [f32; 4]) -> bool {
        let state = self.game.sitting().state();
        let first_due = matches!(state.phase(), Phase::Between | Phase::FirstCards { .. });
        let off = PILE_OFF_THE_PLACES * self.card_length(bbox);
        first_due
            && self.back.is_some_and(|back| back.found(frame))
            && self
                .zones
                .anchors
                .iter()
                .all(|a| a.is_some_and(|a| self.least_off(a, bbox) >= off))
    }

    /// The least distance from `place` at which the card seen as `bbox`
    /// may lie (its centre). A box cut by the frame's edge is a card going
    /// on past it, at least its short side: blind seed 127 at 10 fps, the
    /// camera out from 10 s to 13 s: the pone's pile, half out of sight at
    /// the top edge by Cat's place, found on the camera's return, went in
    /// as Ann's first card. A box shorter than a card within the frame is
    /// a card partly hidden (by an arm, by another card), whose centre may
    /// lie up to half the part hidden nearer: the same window, a strip of
    /// Bob's next first card seen past the dealer's arm was taken for the
    /// pile.
    fn least_off(&self, place: [f32; 2], bbox: [f32; 4]) -> f32 {
        let length = self.card_length(bbox);
        let (whole, cut) = self.past_the_edge(bbox);
        let hidden = if cut {
            0.0
        } else {
            0.5 * (length - long_side(whole)).max(0.0)
        };
        (distance(place, centre(whole)) - hidden).max(0.0)
    }

    /// A box come to rest, carried on past the frame's edges that cut it to
    /// a card's short side at least; and whether any did.
    fn past_the_edge(&self, bbox: [f32; 4]) -> ([f32; 4], bool) {
        const EDGE: f32 = 1.0;
        let short = CARD_SHORT_SIDE * self.card_length(bbox);
        let [mut x0, mut y0, mut x1, mut y1] = bbox;
        let mut cut = false;
        if x0 <= EDGE {
            x0 = x0.min(x1 - short);
            cut = true;
        }
        if y0 <= EDGE {
            y0 = y0.min(y1 - short);
            cut = true;
        }
        if let Some([width, height]) = self.frame_size {
            if x1 >= width - EDGE {
                x1 = x1.max(x0 + short);
                cut = true;
            }
            if y1 >= height - EDGE {
                y1 = y1.max(y0 + short);
                cut = true;
            }
        }
        ([x0, y0, x1, y1], cut)
    }

    /// Whether a card come to rest in `frame` (its box, its face) is the
    /// pone's pile, the last round's cards being gathered: face down, clear
    /// of every seat's place, or found on the camera's return off every
    /// seat's place while the first cards are due.
    fn the_pile_gathered(
        &self,
        frame: u64,
        bbox: [f32; 4],
        card: Option<pone_engine::Card>,
    ) -> bool {
        card.is_none()
            && self.gathering
            && (self.clear_of_the_seats(bbox) || self.off_the_places_on_return(frame, bbox))
    }

    /// A card's length for a box come to rest: its long side, or the
    /// cards' size on this table when longer (a card partly hidden, under
    /// another or an arm, or cut by the frame's edge, is boxed short).
    fn card_length(&self, bbox: [f32; 4]) -> f32 {
        long_side(bbox).max(self.zones.card_size)
    }

    /// Whether a box lies clear of every seat's place (a card's length
    /// from each): where the pack and the pone's pile lie.
    fn clear_of_the_seats(&self, bbox: [f32; 4]) -> bool {
        let size = long_side(bbox);
        self.zones
            .anchors
            .iter()
            .flatten()
            .all(|&a| distance(a, centre(bbox)) >= size)
    }

    /// Of cards coming to rest in the same frame, one at the place of the
    /// seat due a card goes before one at another seat's place: the camera
    /// saw no order between them (seed 69: Cat's second card and Ann's,
    /// each first seen turned up in one frame, Ann's told first, and each
    /// went to the other's hand).
    fn due_seats_card_first(&mut self) {
        let Some(&Fact::Landed { frame, bbox, .. }) = self.facts.front() else {
            return;
        };
        let Some(due) = self.due_seat() else {
            return;
        };
        let known = |s: usize| self.zones.anchors.get(s).is_some_and(Option::is_some);
        let here = self.nearest_seat(centre(bbox));
        if !known(due) || here.is_none_or(|s| s == due || !known(s)) {
            return;
        }
        let at_due = self.facts.iter().skip(1).position(|f| {
            matches!(f, Fact::Landed { frame: other, bbox, .. }
                if *other == frame && self.nearest_seat(centre(*bbox)) == Some(due))
        });
        if let Some(k) = at_due {
            self.fact_first(
                k + 1,
                "the due seat's card goes before one at another seat's place, landing together",
            );
        }
    }

    /// A face-down card coming to rest at another seat's place than the one
    /// due a card waits up to [`DUE_SEATS_CARD_SECS`] for a card that may
    /// have been dealt before it, which goes first:
    /// - while the due seat has no place yet (the first round teaches the
    ///   places), a card coming to rest away from every known place (seed
    ///   31: Ann's first card, seen late, came to rest in the same frame as
    ///   Bob's second, which lay on his first, and the tracker told of Bob's
    ///   a frame sooner);
    /// - while the cards go round, in the camera's first frames back from
    ///   being out, a card coming to rest at the due seat's place, hidden as
    ///   the camera came back (blind seed 127 at 10 fps, the camera out from
    ///   10 s to 13 s: Bob's second card, under the dealer's arm on the
    ///   camera's return, was seen two frames after Cat's, dealt after it,
    ///   and each went to the other).
    ///
    /// Whether to wait.
    fn wait_for_the_due_seats_card(&mut self) -> bool {
        let Some(Fact::Landed {
            frame,
            bbox,
            card: None,
            ..
        }) = self.facts.front().copied()
        else {
            return false;
        };
        let Some(due) = self.due_seat() else {
            return false;
        };
        let here = self.nearest_seat(centre(bbox));
        if here.is_none_or(|s| s == due) {
            return false;
        }
        let place_known = match self.zones.anchors.get(due) {
            Some(anchor) => anchor.is_some(),
            None => return false,
        };
        let why = if place_known {
            // In the camera's first frames back from being out, what it sees
            // come to rest may have lain there unseen.
            let dealing = the_deal_goes_round(self.game.sitting().state().phase());
            let catching_up = self
                .returned
                .is_some_and(|back| (back.first..=back.until).contains(&frame));
            if !dealing || !catching_up {
                return false;
            }
            "the due seat's card, hidden on the camera's return, goes before one at another seat's place"
        } else {
            // At the seat of the card just dealt it may be that card found
            // again ([`Play::found_twice`]): it goes in its turn.
            let last_seat = self
                .last_dealt
                .and_then(|(_, track, _)| self.placed.get(&track))
                .map(|&(seat, _)| seat.index());
            if here == last_seat {
                return false;
            }
            "the due seat's card goes before one at another seat's place"
        };
        let dealt_first = |bbox: [f32; 4]| {
            let seat = self.nearest_seat(centre(bbox));
            if place_known {
                seat == Some(due)
            } else {
                seat.is_none_or(|s| s == due)
            }
        };
        let within = self.frames(DUE_SEATS_CARD_SECS).max(1);
        let first = self.facts.iter().position(|f| {
            matches!(f, Fact::Landed { frame: other, bbox, card: None, .. }
                if *other <= frame + within && dealt_first(*bbox))
        });
        if let Some(k) = first {
            self.fact_first(k, why);
            return false;
        }
        self.frame < frame + within
    }

    /// While the cards go round in sight, a face-down card comes to rest as
    /// a card dealt ([`Play::lands_as_a_card`]) at the place of the seat
    /// after the one due: the dealer's slip (the card due given to the next
    /// seat, which he may move), or the due seat's card dealt unseen (lying
    /// on its first card as one box: blind seed 207 with 5 players, Dan's
    /// second card; blind seed 305 with 7, Dan's again: each card after it
    /// went one seat astray, or was dropped as a box found again and asked
    /// for). So too with the round's first card, once the last round's
    /// cards are gathered. It waits up to [`NEXT_CARD_SECS`] for the next card:
    /// - one coming to rest at the due seat's place within
    ///   [`DUE_SEATS_CARD_SECS`] is the due seat's card, seen late: it goes
    ///   first; later, the card waiting was no card dealt past it (the
    ///   pone's pile by a seat's place between rounds: seed 54): as before;
    /// - one coming to rest as a card at the place of the seat after next
    ///   tells that the due seat's card went unseen: it goes in face down
    ///   (the cards of the deal are face down, one like another), the
    ///   dealer is told, and the deal goes on;
    /// - the card itself moved or gone, or no card: as before (a slip,
    ///   asked; the test `a_card_dealt_to_the_next_seat_and_moved_is_told_as_the_dealers_slip`).
    ///
    /// Whether to wait.
    fn due_seats_card_unseen(&mut self, all: bool) -> bool {
        if self.back.is_some() {
            return false;
        }
        let Some(&Fact::Landed {
            track,
            frame,
            bbox,
            card: None,
            ..
        }) = self.facts.front()
        else {
            return false;
        };
        let state = self.game.sitting().state();
        let (Some((due, _)), Some(dealer)) = (state.due_card(), state.dealer()) else {
            return false;
        };
        let phase = state.phase();
        // (Between rounds, once the last round's cards are gathered: the
        // eldest's first card.)
        let round_first = phase == Phase::Between && !self.gathering;
        if state.round_game() != RoundGame::Ordinary || !(the_deal_goes_round(phase) || round_first)
        {
            return false;
        }
        let (next, after) = (state.left_of(due), state.left_of(state.left_of(due)));
        // The deal goes on past the seat after next (the second cards end
        // with the dealer's).
        let second_cards = matches!(phase, Phase::SecondCards { .. });
        if next == due || after == due || (second_cards && (due == dealer || next == dealer)) {
            return false;
        }
        if !self.zones.knows(next)
            || !self.zones.knows(after)
            || self.nearest_seat(centre(bbox)) != Some(next.index())
            || !self.lands_as_a_card(bbox, frame, next)
        {
            return false;
        }
        let within = self.frames(NEXT_CARD_SECS).max(1);
        match self.next_card_after(track, frame, due, after) {
            Some(NextCard::AtTheDueSeat(k, true)) => {
                self.fact_first(
                    k,
                    "the due seat's card, seen late, goes before one at the next seat's place",
                );
                return false;
            }
            // The due seat's card came after it (seed 54 at 10 fps: the
            // pone's pile, come to rest by Cat's place between rounds, then
            // Bob's first card a second later), or the dealer moved it.
            Some(NextCard::AtTheDueSeat(_, false) | NextCard::Moved) => return false,
            Some(NextCard::AtTheSeatAfterNext) => {}
            None => {
                // While it waits, the tracker follows it as a card of the
                // deal: moved by the dealer to the due seat's place (his
                // slip put right), it is this card moved, not a new one.
                self.tracker.dealt(track);
                return !all && self.frame < frame + within;
            }
        }
        self.put_in_unseen(frame, track, [due, next, after]);
        false
    }

    /// What the first card telling anything after the face-down card
    /// `track` (come to rest in `frame` at the next seat's place) says, for
    /// [`Play::due_seats_card_unseen`]: `due` is the seat due, `after` the
    /// seat after next.
    fn next_card_after(&self, track: u64, frame: u64, due: Seat, after: Seat) -> Option<NextCard> {
        let within = self.frames(NEXT_CARD_SECS).max(1);
        let soon = self.frames(DUE_SEATS_CARD_SECS).max(1);
        self.facts
            .iter()
            .enumerate()
            .skip(1)
            .find_map(|(k, fact)| match *fact {
                Fact::Moved { track: t, .. } | Fact::Gone { track: t, .. } if t == track => {
                    Some(NextCard::Moved)
                }
                Fact::Landed {
                    frame: other,
                    bbox,
                    card: None,
                    ..
                } if other <= frame + within => {
                    let seat = self.nearest_seat(centre(bbox));
                    if self.zones.knows(due) && seat == Some(due.index()) {
                        Some(NextCard::AtTheDueSeat(k, other <= frame + soon))
                    } else if seat == Some(after.index())
                        && self.lands_as_a_card(bbox, other, after)
                    {
                        Some(NextCard::AtTheSeatAfterNext)
                    } else {
                        None
                    }
                }
                _ => None,
            })
    }

    /// The due seat's card went unseen ([`Play::due_seats_card_unseen`]):
    /// it goes in face down, and the dealer is told. `seats`: the seat due,
    /// the next, the one after.
    fn put_in_unseen(&mut self, frame: u64, track: u64, [due, next, after]: [Seat; 3]) {
        let state = self.game.sitting().state();
        let (who, then, last) = (
            state.name(due).to_owned(),
            state.name(next).to_owned(),
            state.name(after).to_owned(),
        );
        tracing::debug!(
            frame,
            track,
            "{who}'s card went unseen: the next cards came to rest at {then}'s and {last}'s places"
        );
        let line = Line::Card {
            to: who.clone(),
            hand: None,
            card: None,
        };
        if self.apply(frame, line, None) {
            self.ask(
                frame,
                format!(
                    "the camera did not see {who}'s card dealt, but the cards after it came to \
                     rest at {then}'s and {last}'s places: it went in face down"
                ),
            );
        }
    }

    /// Whether a face-down box coming to rest in `frame` at `seat`'s place
    /// is a card dealt there: not on the pack or the pone's pile, and not
    /// the finder's box on that seat's cards found again (each of the seat's
    /// cards it lies on, [`ONE_CARD_TWICE`], is still seen, and it is as
    /// large as that card, [`SAME_SIZE`]).
    fn lands_as_a_card(&self, bbox: [f32; 4], frame: u64, seat: Seat) -> bool {
        !self.on_a_stack(centre(bbox), long_side(bbox), Some(seat))
            && self
                .tracker
                .on_table()
                .filter(|&(t, b, _)| {
                    self.placed.get(&t).is_some_and(|&(s, _)| s == seat)
                        && share_of_smaller(b, bbox) >= ONE_CARD_TWICE
                })
                .all(|(t, b, _)| {
                    self.tracker.last_seen(t).is_some_and(|seen| seen >= frame)
                        && long_side(bbox) >= SAME_SIZE * long_side(b)
                })
    }

    /// While the showdown waits, a hand the dealer shows goes in before
    /// anything he said for later (the next round's stakes, scripted at
    /// frames before the table asked him): at the frame of the first line
    /// waiting.
    fn hand_shown_first(&mut self) {
        let Some(k) = self
            .dealer
            .iter()
            .position(|p| matches!(p.line, Line::Show { .. }))
            .filter(|&k| k > 0)
        else {
            return;
        };
        let first = self.dealer.front().map(|p| p.frame);
        if let Some(mut shown) = self.dealer.remove(k) {
            shown.frame = first.map_or(shown.frame, |f| f.min(shown.frame));
            self.dealer.push_front(shown);
        }
    }

    fn fact(&mut self, fact: Fact) {
        tracing::debug!(?fact, due = ?self.game.sitting().state().due_card(), "fact");
        match fact {
            Fact::Landed {
                track,
                frame,
                bbox,
                card,
                confidence,
                sure,
                ..
            } => {
                let landing = Landing {
                    track,
                    frame,
                    bbox,
                    card,
                    confidence,
                    sure,
                };
                if !self.landed(landing) {
                    // Not a card of the deal: the tracker lets it go once
                    // unseen, so it cannot stand in for a card landing there
                    // later; the pack or the pile stays where it lies, so
                    // that a card dealt off it is a new card.
                    let due = self.game.sitting().state().due_card().map(|(seat, _)| seat);
                    if card.is_none() && self.on_a_stack(centre(bbox), long_side(bbox), due) {
                        self.tracker.anchor(track);
                    } else {
                        for fact in self.tracker.not_a_card(track) {
                            self.queue(fact);
                        }
                        // A back at rest while the round's cards are
                        // gathered: they are on their way to the pone.
                        if card.is_none() && self.gathering {
                            self.tracker.to_the_pile(track);
                        }
                    }
                }
            }
            Fact::TurnedUp {
                track,
                frame,
                bbox,
                card,
                confidence,
                sure,
                ..
            } => {
                let turned = Shown {
                    frame,
                    track,
                    bbox,
                    card,
                    confidence,
                };
                self.turned_up(turned, sure);
            }
            Fact::Reread {
                track,
                frame,
                was,
                card,
                confidence,
                ..
            } => self.reread(track, frame, was, card, confidence),
            Fact::Moved { track, bbox, .. } => {
                if let Some(entry) = self.placed.get_mut(&track) {
                    entry.1 = centre(bbox);
                }
                self.astray.remove(&track);
            }
            Fact::Gone { track, frame, .. } => {
                let gone = self.placed.remove(&track);
                if let Some((seat, _)) = gone
                    && self.out_this_round
                    && self.returned.is_some_and(|back| frame <= back.last)
                {
                    self.gone_while_out.insert(track, seat);
                }
                self.lines.remove(&track);
                self.twins.remove(&track);
                if let Some((_, went)) = self.ended_lay.get_mut(&track) {
                    *went = Some(frame);
                }
            }
        }
    }

    /// A seat's face-down card turned up where it lay (`turned.bbox`: where
    /// the tracker saw it then): shown as read, and an unsure reading asked
    /// about. When none of the seat's cards lies face down, or a card was
    /// drawn onto one while the camera was out, it is a card dealt.
    fn turned_up(&mut self, turned: Shown, sure: bool) {
        let Shown {
            frame,
            track,
            card,
            confidence,
            ..
        } = turned;
        if self.dealt_onto.contains(&track) {
            // Read as a face turned up is read (its first frames lay over
            // a back): under SURELY_TURNED_UP it is asked about.
            let sure = sure && confidence >= SURELY_TURNED_UP;
            self.dealt_at(track, frame, turned.bbox, card, (confidence, sure));
            return;
        }
        let mut placed = self.placed.get(&track).map(|&(seat, _)| seat);
        if self.game.sitting().state().phase() == Phase::Between {
            placed = placed.or_else(|| self.ended_by_natural.get(&track).copied());
        }
        if placed.is_none() && sure && confidence >= SURELY_TURNED_UP {
            placed = self.read_surely_on_a_misread(track, turned.bbox, frame);
        }
        let placed = placed.or_else(|| self.twin_turned_up(track, card));
        let seat = if let Some(seat) = placed {
            seat
        } else if let Some(seat) = self.named_back_turned_up(track, frame) {
            seat
        } else {
            let Some(lay @ (old, seat, _)) = self.where_one_lay(track) else {
                return;
            };
            // With the camera in sight all along, a face in a box the
            // table never gave a seat, where a back of the player
            // drawing lay, is a card he drew onto it, for the reason
            // `drawn_onto_a_back` gives: the tracker first saw it land
            // as a back, then its face (the demo sitting, seed 21 at 7
            // players on a still table: Fay's drawn AH, landing on her
            // backs at 10 fps, was taken for her face-down card turned
            // up, and her drawn Vingt-un paid double; Bob's 2H the same).
            if self.drawing_onto(seat, track, Some(old), frame) {
                self.dealt_not_turned_up(track, frame, card, (confidence, sure));
                return;
            }
            self.turned_up_where_one_lay(track, lay)
        };
        if !has_face_down(self.game.sitting().state(), seat) && self.shown_by_the_dealer(seat, card)
        {
            tracing::debug!(track, %card, "turned up, a card the dealer's show named");
            return;
        }
        if !has_face_down(self.game.sitting().state(), seat) || self.drawn_onto_a_back(track, frame)
        {
            // None of his cards lies face down: this is a card dealt
            // where one of his lay (a divided pair's card pulled
            // away), not that card turned up. Nor is a card he drew
            // onto one while the camera was out.
            self.dealt_not_turned_up(track, frame, card, (confidence, sure));
            return;
        }
        if confidence < UNREAD_TURNED_UP {
            tracing::debug!(track, %card, confidence, "turned up, read too unsurely to show");
            return;
        }
        if !self.show(track, seat, card, frame) {
            return;
        }
        let bbox = self.tracker.counted_box(track).unwrap_or(turned.bbox);
        self.shown_lately.push(Shown { bbox, ..turned });
        self.faces_read.insert(track, confidence);
        self.doubt_turned_up(frame, seat, (card, confidence, sure), bbox);
    }

    /// The lines a track stands behind: the camera's cards and the faces it
    /// turned up, a dealer's line a card seen since took, and a divided
    /// pair's card the camera took for a new card, shown (kept in
    /// `delivered`, not in `lines`). The rest are the dealer's word alone
    /// (seed 20 out 5-6.5 s: Ann's 8S pulled away went in as a show, and
    /// her 8D drawn where it had lain, taken for a card that show named,
    /// was lost).
    fn lines_with_a_track(&self) -> BTreeSet<u64> {
        self.lines
            .values()
            .copied()
            .chain(self.delivered.iter().map(|d| d.seq))
            .collect()
    }

    /// Whether a face read as `card`, turned up on a card of `seat` counted
    /// face down, is one the dealer's show of his hand named (his line, not
    /// the camera's): the card itself, or the only card it named of that
    /// rank, or else of that suit, the face misread. His show turned up the
    /// cards face down, so the camera's turning up is no card drawn (blind
    /// seed 92 at 10 fps, the camera out from 13 s to 14.5 s: Ann, dealing,
    /// showed 3D 8S AC 2C AD as the table asked; her 8S, found turned up on
    /// the return read 8C at 0.65, went in as a card she drew, and made her
    /// over).
    fn shown_by_the_dealer(&self, seat: Seat, card: pone_engine::Card) -> bool {
        let state = self.game.sitting().state();
        let Some(round) = state.seat_round(seat) else {
            return false;
        };
        let camera = self.lines_with_a_track();
        let named: Vec<pone_engine::Card> = self
            .game
            .in_force()
            .iter()
            .filter(|(seq, _)| !camera.contains(seq))
            .filter_map(|(_, command)| match command {
                Command::Show { player, cards, .. } if *player == seat => Some(cards.to_vec()),
                _ => None,
            })
            .flatten()
            .filter(|&c| round.hands.iter().any(|h| h.cards.contains(c)))
            .collect();
        let only = |same: &dyn Fn(&pone_engine::Card) -> bool| {
            named.iter().filter(|c| same(c)).count() == 1
        };
        named.contains(&card) || only(&|c| c.rank == card.rank) || only(&|c| c.suit == card.suit)
    }

    /// A face turned up surely in a box the table never gave a seat, in the
    /// frame where a seat's face-down card, lying squarely under it (the
    /// smaller box [`ON_A_MISREAD`] within the other), turns up read unsurely:
    /// one card turned up, found in two boxes, and this one reads it. The
    /// seat's card becomes `track`'s, and the unsure reading waiting to go in
    /// goes (seed 40 played from its MJPEG recording, on a still table: the
    /// dealer's QD turned up read QD at 1.0 in a box of its own and 6D at
    /// 0.36 in its counted box; the 6D was shown and paid, and a recording
    /// has no dealer to answer the question). Gives the seat.
    fn read_surely_on_a_misread(&mut self, track: u64, bbox: [f32; 4], frame: u64) -> Option<Seat> {
        let state = self.game.sitting().state();
        let (k, old, seat) = self.facts.iter().enumerate().find_map(|(k, f)| match *f {
            Fact::TurnedUp {
                track: old,
                frame: then,
                bbox: other,
                confidence,
                ..
            } if then == frame
                && old != track
                && confidence < SURELY_TURNED_UP
                && share_of_smaller(bbox, other) >= ON_A_MISREAD =>
            {
                let &(seat, _) = self.placed.get(&old)?;
                has_face_down(state, seat).then_some((k, old, seat))
            }
            _ => None,
        })?;
        tracing::debug!(
            track,
            old,
            "a face read surely on a seat's card turned up read unsurely"
        );
        self.facts.remove(k);
        self.take_over(old, track, seat, centre(bbox));
        Some(seat)
    }

    /// A face the tracker saw turned up that is a card dealt where it lies
    /// (`reading`: its confidence, and whether the tracker counts it surely).
    fn dealt_not_turned_up(
        &mut self,
        track: u64,
        frame: u64,
        card: pone_engine::Card,
        reading: (f32, bool),
    ) {
        let Some(bbox) = self.tracker.counted_box(track) else {
            return;
        };
        self.dealt_at(track, frame, bbox, card, reading);
    }

    /// A face the tracker saw turned up that is a card dealt at `bbox`.
    fn dealt_at(
        &mut self,
        track: u64,
        frame: u64,
        bbox: [f32; 4],
        card: pone_engine::Card,
        reading: (f32, bool),
    ) {
        self.placed.remove(&track);
        let landing = Landing {
            track,
            frame,
            bbox,
            card: Some(card),
            confidence: reading.0,
            sure: reading.1,
        };
        if !self.landed(landing) {
            self.tracker.leave(&[track]);
        }
    }

    /// On the camera's return, a face lying where a face-down card of the
    /// player drawing lay is a card he drew onto it while the camera was
    /// out, not that card turned up: a player's first two cards are never
    /// shown while he draws (RULES: drawing), and a natural or a divided
    /// pair, which are, shows both, while another of his cards still lies
    /// face down here (seed 36 at 30 fps, out from 7 s to 8 s: Ann's 2H,
    /// drawn onto her 2S, taken for the 2S turned up). So is a face in a
    /// box the table never gave a seat, lying just where such a card lay
    /// ([`Play::where_one_lay`]; seed 16 at 10 fps, out from 5 s to 6.5 s:
    /// Ann's JS, drawn onto her 2H, taken for the 2H turned up, and her
    /// "content", said meanwhile, went in first).
    fn drawn_onto_a_back(&self, track: u64, frame: u64) -> bool {
        if !self.back.is_some_and(|back| back.found(frame)) {
            return false;
        }
        let (seat, under) = match self.placed.get(&track) {
            Some(&(seat, _)) => (seat, None),
            None => match self.where_one_lay(track) {
                Some((old, seat, _)) => (seat, Some(old)),
                None => return false,
            },
        };
        self.drawing_onto(seat, track, under, frame)
    }

    /// Whether `seat` is drawing, with no natural or divide said, and
    /// still holds a back at his place other than `track` and `under`
    /// (seen up to `frame`): a face found where one of his backs lay is then
    /// a card he drew onto it.
    fn drawing_onto(&self, seat: Seat, track: u64, under: Option<u64>, frame: u64) -> bool {
        let state = self.game.sitting().state();
        let drawing = matches!(state.phase(), Phase::Drawing { .. })
            && state.due_card().is_some_and(|(due, _)| due == seat)
            && state.dealer() != Some(seat);
        // Seed 37 at 10 fps, the camera out from 7 s to 8.5 s: Ann's 7C,
        // found turned up at the showdown, went in as a card she drew.
        let showdown_meanwhile = self.showdown_meanwhile();
        drawing
            && !self.shown_by_word(seat)
            && !showdown_meanwhile
            && self.another_back(seat, [Some(track), under], frame)
    }

    /// Whether the dealer's words waiting their turn show `seat`'s cards:
    /// a natural or a divide said for him.
    fn shown_by_word(&self, seat: Seat) -> bool {
        let name = self.game.sitting().state().name(seat);
        self.dealer.iter().any(|p| {
            matches!(&p.line, Line::Natural { player, .. } | Line::Divide { player, .. }
                if player == name)
        })
    }

    /// Whether `seat` still holds a back at his place other than the
    /// tracks `not`, seen up to `frame`.
    fn another_back(&self, seat: Seat, not: [Option<u64>; 2], frame: u64) -> bool {
        self.tracker.on_table().any(|(t, bbox, card)| {
            !not.contains(&Some(t))
                && card.is_none()
                && self.placed.get(&t).is_some_and(|&(s, _)| s == seat)
                && self.tracker.last_seen(t).is_some_and(|l| l >= frame)
                && !self.off_to_a_stack(centre(bbox), seat)
        })
    }

    /// With the camera in sight while a player draws, a face found on the
    /// backs of another player (not the dealer) is far likelier a card
    /// dealt there, the dealer's slip, than that player's cards turned up:
    /// his first two cards are never shown while another draws (RULES:
    /// drawing), and a natural or a divided pair, which are, shows both
    /// (seed 35's slip sitting at 480x270: Ann's drawn 5H, dealt onto Bob's
    /// face-down hand and moved to her place, was taken for Bob's card
    /// turned up, and the dealer's answer made it his). The face is the
    /// tracker's back turned up ([`Fact::TurnedUp`]) or a box of its own
    /// lying where the back was ([`Play::turned_up_anew`]).
    ///
    /// The face first waits up to [`NEXT_CARD_SECS`]: another of his cards
    /// turned up, or a word for him (a natural, a divide, a show), says he
    /// did turn them up, and it goes in as before; the face gone from
    /// sight while his backs stay (moved to the due seat's place, the slip
    /// put right), or still lying there when the wait is over, says it was
    /// dealt there (`dealt_onto`): it goes in as a card come to rest at his
    /// place, so the deal gives it to the player drawing and the dealer is
    /// told of the slip. Whether to wait.
    fn dealt_onto_a_hand(&mut self, all: bool) -> bool {
        if self.back.is_some() {
            return false;
        }
        let (track, frame, seat, under) = match self.facts.front() {
            Some(&Fact::TurnedUp { track, frame, .. }) => match self.placed.get(&track) {
                Some(&(seat, _)) => (track, frame, seat, None),
                None => return false,
            },
            Some(&Fact::Landed {
                track,
                frame,
                bbox,
                card: Some(_),
                ..
            }) => match self.back_turned_up(track, bbox) {
                Some((old, seat)) => (track, frame, seat, Some(old)),
                None => return false,
            },
            _ => return false,
        };
        if self.dealt_onto.contains(&track) {
            return false;
        }
        let state = self.game.sitting().state();
        let (Some((due, _)), Some(dealer)) = (state.due_card(), state.dealer()) else {
            return false;
        };
        if !matches!(state.phase(), Phase::Drawing { .. })
            || state.round_game() != RoundGame::Ordinary
            || due == seat
            || due == dealer
            || seat == dealer
            || !waits_face_down(state, seat)
            || self.shown_by_word(seat)
            || !self.another_back(seat, [Some(track), under], frame)
        {
            return false;
        }
        let within = self.frames(NEXT_CARD_SECS).max(1);
        let name = state.name(seat);
        let shown = self.facts.iter().skip(1).any(|f| match *f {
            Fact::TurnedUp { track: t, .. } => self.placed.get(&t).is_some_and(|&(s, _)| s == seat),
            Fact::Landed {
                track: t,
                bbox,
                card: Some(_),
                ..
            } => self.back_turned_up(t, bbox).is_some_and(|(_, s)| s == seat),
            _ => false,
        }) || self.dealer.iter().any(|p| {
            // A word said before it (the table is behind the dealer: the
            // showdown may have come), the dealer's own word soon after
            // (his turn: the showdown comes), or a show of the player's.
            let dealers = state.name(dealer);
            p.frame <= frame
                || (p.frame <= frame + within
                    && match &p.line {
                        Line::Show { player, .. } => player == name,
                        Line::Content { player, .. }
                        | Line::Over { player, .. }
                        | Line::Natural { player, .. } => player == dealers,
                        Line::Card { to, .. } => to == dealers,
                        _ => false,
                    })
        });
        if shown {
            return false;
        }
        let gone = self
            .tracker
            .last_seen(track)
            .is_none_or(|l| l + 1 < self.frame);
        if !gone && !all && self.frame < frame + within {
            return true;
        }
        tracing::debug!(
            track,
            gone,
            "a face on the backs of a player not drawing: a card dealt there"
        );
        self.dealt_onto.insert(track);
        false
    }

    /// Blind Vingt-un: whether a face-down box come to rest while `due`
    /// draws is a card drawn blind. It is not when it lies at another seat's
    /// place, or centred where a card of `due`'s already placed lies (under
    /// [`WHERE_ONE_LAY`] of a card length away): those are boxes found again
    /// on the hands' backs, which lie a card's width apart.
    fn blind_draw(&self, due: Seat, bbox: [f32; 4]) -> bool {
        let here = centre(bbox);
        if self.nearest_seat(here) != Some(due.index()) {
            tracing::debug!(
                ?bbox,
                "Blind Vingt-un: face down at another seat's place, no draw"
            );
            return false;
        }
        let near = WHERE_ONE_LAY * long_side(bbox);
        let on_a_card = self.tracker.on_table().any(|(track, at, _)| {
            self.placed
                .get(&track)
                .is_some_and(|(seat, _)| *seat == due)
                && distance(centre(at), here) < near
        });
        if on_a_card {
            tracing::debug!(
                ?bbox,
                "Blind Vingt-un: face down where a card of the seat lies, found again"
            );
        }
        !on_a_card
    }

    /// A card come to rest that is no card new to the deal: on the pack or
    /// the pile, a card just turned up read again, the card just dealt found
    /// a second time, or a card seen already. `Some`: whether it went in
    /// (a second box may take the card over).
    fn seen_before(&mut self, landing: Landing, due: Option<Seat>) -> Option<bool> {
        let Landing {
            track,
            frame,
            bbox,
            card,
            confidence,
            ..
        } = landing;
        if self.on_a_stack(centre(bbox), long_side(bbox), due) {
            tracing::debug!(track, "come to rest on the pack or the pile");
            return Some(false);
        }
        if card.is_none() && self.turned_down_to_gather(frame, bbox) {
            tracing::debug!(track, "the round's cards turned down where they lay");
            return Some(false);
        }
        if card.is_none() && self.on_the_round_over(frame, bbox) {
            tracing::debug!(
                track,
                "a box on the round's cards, come to rest before it ended"
            );
            return Some(false);
        }
        // A sure face on a card just turned up and read unsurely is that
        // card read again, though its round is over: the camera's return
        // may settle the round before the sure box lands (blind seed 50,
        // the camera out from 15 s to 16.5 s: Bob's 6D, half under his
        // TC, turned up read QD at 0.39, then found as 6D at 0.99 in a box
        // of its own after the catch-up had settled the round).
        if card.is_some() && self.gathered_found_again(frame) {
            self.shown_read_again(&landing);
            return Some(false);
        }
        if let Some(twice) = self.found_twice(frame, bbox, card.map(|c| (c, confidence))) {
            tracing::debug!(
                track,
                last = twice.0,
                "the card just dealt found a second time"
            );
            return Some(self.second_box(landing, twice));
        }
        if self.a_card_seen_again(&landing) {
            tracing::debug!(track, "a card seen again");
            return Some(false);
        }
        if self.moved_home(&landing, due) {
            return Some(false);
        }
        None
    }

    /// Whether a card coming to rest at a seat's place, while the deal is
    /// due another, is that seat's card given it astray (come to rest at
    /// another seat's place, the dealer's slip) moved to its own place: the
    /// astray card came to rest at most three times [`NEXT_CARD_SECS`]
    /// before and went from sight since, and this one shows as it did (a
    /// back as a back). The tracker loses a card the dealer moves across the table
    /// when it was no card of the deal yet as it moved (seed 35's slip
    /// sitting at 480x270: Ann's first card of round 2, put at Bob's place
    /// while round 1's hands were shown, the table holding it for the
    /// showdown, then moved to hers, went in as Bob's, and his own card
    /// after it was taken for one found again). It takes the astray card's
    /// place, no new card.
    fn moved_home(&mut self, landing: &Landing, due: Option<Seat>) -> bool {
        let &Landing {
            track,
            frame,
            bbox,
            card,
            ..
        } = landing;
        let here = centre(bbox);
        let Some(seat) = self.seat_at(here) else {
            return false;
        };
        if due == Some(seat) {
            return false;
        }
        let within = 3 * self.frames(NEXT_CARD_SECS).max(1);
        let astray = self.astray.iter().find_map(|(&t, &rested)| {
            (self.placed.get(&t).is_some_and(|&(s, _)| s == seat)
                && rested < frame
                && frame <= rested + within
                && self.tracker.last_seen(t).is_none_or(|l| l < frame)
                && card.is_some() == self.lines.contains_key(&t))
            .then_some(t)
        });
        let Some(old) = astray else {
            return false;
        };
        tracing::debug!(track, old, "a card given astray, moved to its seat's place");
        self.astray.remove(&old);
        self.take_over(old, track, seat, here);
        true
    }

    /// Whether a back come to rest in `frame`, the last round's cards not yet
    /// gathered, lies where one of them lay (a card from it) and that
    /// one went from sight a moment before ([`TURNED_DOWN_SECS`]): those
    /// cards turned face down to be gathered, the tracker losing their
    /// faces, not the next round's first card (seed 24 at 10 fps: Ann's
    /// hand, turned down at her place as the recording ended, went in as
    /// her first card of a round never dealt). The next round's first card
    /// comes after the gathering; found on the camera's return with those
    /// cards found gone, it is seen in the frame they went in. A card's
    /// length ([`Play::card_length`]), not half: cards turned down are
    /// swept up towards the pile, and within the moment no card of the
    /// next round is dealt (seed 88 at 10 fps: Cat's two cards, turned
    /// down and swept towards the pile as the recording ended, came to
    /// rest 47 pixels from where her 8D lay, boxed 93 long, and went in as
    /// her first card of a round never dealt). Measured from the card past
    /// the frame's edge ([`Play::past_the_edge`]): a box cut by the edge
    /// is the part of a card in sight, its centre nearer the picture's
    /// middle than the card's (seed 212 at 10 fps, 5 players: the round's
    /// cards gathered onto the pone's pile half out of the frame's top
    /// edge, their box's centre 98 pixels from where Bob's 9S lay (the
    /// card's 111), a card's length 100, were taken for his cards turned
    /// down; the pile was never known, and a box found on it went in as
    /// his second card of the next round).
    fn turned_down_to_gather(&self, frame: u64, bbox: [f32; 4]) -> bool {
        let moment = self.frames(TURNED_DOWN_SECS).max(1);
        let card = self.past_the_edge(bbox).0;
        self.gathering
            && self.where_one_of_the_round_over_lay(card, self.card_length(bbox), |went| {
                went.is_some_and(|went| went < frame && frame <= went + moment)
            })
    }

    /// Whether `bbox` lies within `reach` of where a card of the round just
    /// over lay, that card's frame gone from sight (if it went) meeting
    /// `when` ([`Play::ended_lay`]).
    fn where_one_of_the_round_over_lay(
        &self,
        bbox: [f32; 4],
        reach: f32,
        when: impl Fn(Option<u64>) -> bool,
    ) -> bool {
        let here = centre(bbox);
        self.ended_lay
            .values()
            .any(|&(lay, went)| when(went) && distance(lay, here) < reach)
    }

    /// Whether a back come to rest in `frame`, before the round's first
    /// card, lies where a card of the round just over lay (half a card from
    /// it), not yet gone, and came to rest before that round ended (while
    /// the showdown waited for the dealer): the finder's box on that card,
    /// not the next round's first card, which is dealt once they are
    /// gathered (seed 70 at 10 fps, the camera out from 13 s to 14.5 s: a
    /// box on Cat's 2C, found a frame after the return, went in as her
    /// first card of a round never dealt once the dealer's shows settled
    /// the round).
    fn on_the_round_over(&self, frame: u64, bbox: [f32; 4]) -> bool {
        self.game.sitting().state().phase() == Phase::Between
            && frame <= self.round_ended_at
            && self.where_one_of_the_round_over_lay(bbox, 0.5 * self.card_length(bbox), |went| {
                went.is_none_or(|went| went >= frame)
            })
    }

    /// A card came to rest: if it is the next card of the deal, it goes to the
    /// engine (true); the pack, the pile, a card where none is due do not.
    fn landed(&mut self, landing: Landing) -> bool {
        let Landing {
            track,
            frame,
            bbox,
            card,
            confidence,
            sure,
        } = landing;
        let here = centre(bbox);
        let size = long_side(bbox);
        let due = self.game.sitting().state().due_card();
        if let Some(went_in) = self.seen_before(landing, due.map(|(seat, _)| seat)) {
            return went_in;
        }
        // No card is due (the pack before the deal), or the cards of a
        // round over were gathered away from the seat due the next
        // card: a stack, not a dealt card.
        // (A seat whose place is not learned yet may be anywhere: its first
        // card is not the pile, however the table looked a moment before.)
        let near_due = due.is_some_and(|(seat, _)| {
            self.zones
                .anchors
                .get(seat.index())
                .copied()
                .flatten()
                .is_none_or(|a| distance(a, here) < REACH * size)
        });
        // Drawn cards come face up (RULES: drawing): a face-down card coming
        // to rest in the draw is none of them (a hand thrown up to the pone,
        // the pile, a card seen again). But in Blind Vingt-un (the
        // eight-round deal's third round) the players draw face down.
        let state = self.game.sitting().state();
        let drawing = matches!(state.phase(), Phase::Drawing { .. } | Phase::Dealer);
        let drawn_blind = drawing
            && state.round_game() == RoundGame::Blind
            && due.is_some_and(|(seat, _)| Some(seat) != state.dealer());
        if card.is_none() && drawing && due.is_some() && !self.gathering && !drawn_blind {
            return false;
        }
        // (A card drawn blind comes to rest at the seat due, face down, long
        // after the last round's cards were gathered.)
        // Found on the camera's return clear of every seat's place, it goes
        // first as the pile ([`Play::gathered_first`]), though a card's
        // length or so from the seat due, when a card found with it lies
        // nearer that seat's place (seed 44 at 10 fps, the camera out from
        // 9 s to 10.5 s: the pile went in as Ann's first card, and hers
        // went to Bob). Or, while the round's first cards are due, when it
        // lies off every seat's place ([`Play::off_the_places_on_return`]).
        let clear = self.clear_of_the_seats(bbox);
        let off_the_places = self.off_the_places_on_return(frame, bbox);
        let pile_found = self.back.is_some_and(|back| back.found(frame))
            && due.is_some_and(|(seat, _)| {
                (clear && self.found_nearer(seat, here)) || off_the_places
            });
        let gathered = self.gathering && !drawn_blind && (drawing || !near_due || pile_found);
        if card.is_none() && (due.is_none() || gathered) {
            // The pack and the pile lie clear of the players' places: a card
            // at rest on one is that seat's cards being gathered up, a moment
            // on their way to the pone.
            if !clear && !off_the_places {
                return self.pile_taken_for_a_card(track, frame, here, confidence);
            }
            self.zones.stacks.push(centre(self.past_the_edge(bbox).0));
            self.gathering = false;
            return false;
        }
        let Some((due, _)) = due else {
            return false;
        };
        if drawn_blind && card.is_none() && !self.blind_draw(due, bbox) {
            return false;
        }
        let name = self.game.sitting().state().name(due).to_owned();
        if self.turned_up_in_a_box_of_its_own(&landing, due) {
            return true;
        }
        if self.found_again_on_a_card(&landing, due) {
            return false;
        }
        let Some(astray) = self.at_seat(due, here, size, frame) else {
            return false;
        };
        let line = Line::Card {
            to: name.clone(),
            hand: None,
            card,
        };
        // Placed first: the card may end the round, and go with the others.
        self.place(track, due, here);
        if astray {
            self.astray.insert(track, frame);
        }
        let anchor = self.zones.anchors.get(due.index()).copied().flatten();
        let phase = self.game.sitting().state().phase();
        let round_first = matches!(phase, Phase::Between | Phase::FirstCards { next: 0 });
        if !self.apply(frame, line, Some(frame)) {
            self.placed.remove(&track);
            return false;
        }
        self.past_the_gathering(phase, card.is_none());
        self.after_gathering = anchor
            .filter(|_| round_first && self.gathering && card.is_none())
            .map(|a| (track, due, distance(a, here)));
        self.last_dealt = Some((frame, track, confidence));
        if card.is_some() {
            self.note_line(track);
            self.faces_read.insert(track, confidence);
        }
        if !sure {
            let read = card.map_or_else(|| "face down".to_owned(), |c| c.to_string());
            let what = format!("the card to {name}");
            self.doubt_last_card(frame, &what, (&read, confidence), Some(bbox));
        }
        true
    }

    /// Whether a card coming to rest is a card on the table already, seen
    /// again: a card turned up, or a face counted, found again in a box of
    /// its own, or a card the dealer named before the camera saw it.
    fn a_card_seen_again(&mut self, landing: &Landing) -> bool {
        let (here, size) = (centre(landing.bbox), long_side(landing.bbox));
        self.shown_read_again(landing)
            || self.counted_face_found_again(landing)
            || self.dealers_card_seen(landing.track, landing.card, here, size)
    }

    /// A face coming to rest that a hand at that place holds already, named
    /// by the dealer's word rather than the camera (the card the table asked
    /// him for, given before the camera saw it: seed 22's AH, named as the
    /// table asked for Ann's second card, then turned up with her first):
    /// that card seen, no new one. Placed at its seat, as the camera's cards
    /// are.
    fn dealers_card_seen(
        &mut self,
        track: u64,
        card: Option<pone_engine::Card>,
        here: [f32; 2],
        size: f32,
    ) -> bool {
        let Some(card) = card else {
            return false;
        };
        let Some(seat) = self.seat_at(here) else {
            return false;
        };
        let near =
            self.zones.anchors[seat.index()].is_some_and(|a| distance(a, here) < REACH * size);
        let state = self.game.sitting().state();
        let held = state
            .seat_round(seat)
            .is_some_and(|r| r.hands.iter().any(|h| h.cards.contains(card)));
        if !near || !held {
            return false;
        }
        // The dealer's line that named it (the camera's lines have a track):
        // a card, or a hand he showed (its cards face down turned up, as
        // the table asked: seed 37 at 10 fps, the camera out from 7 s to
        // 8.5 s, Bob's 4H, named in his hand shown, then found turned up).
        let named = self
            .game
            .in_force()
            .iter()
            .rev()
            .find_map(|(seq, command)| {
                let (named, one) = match command {
                    Command::Card {
                        to, card: Some(c), ..
                    } => (*to == seat && *c == card, true),
                    Command::Show { player, cards, .. } => {
                        (*player == seat && cards.contains(&card), false)
                    }
                    _ => (false, false),
                };
                named.then_some((*seq, one))
            });
        let Some((seq, one)) = named.filter(|(seq, _)| !self.lines_with_a_track().contains(seq))
        else {
            return false;
        };
        tracing::debug!(track, %card, "the card the dealer named, seen");
        self.place(track, seat, here);
        // A hand shown is one line for all its cards: none is this card's.
        if one {
            self.lines.insert(track, seq);
        }
        true
    }

    /// A face come to rest that is a seat's face-down card turned up, found
    /// as a box of its own ([`Play::turned_up_anew`],
    /// [`Play::turned_up_together`]): shown as read, and an unsure reading
    /// asked about, as for a card turned up where it lay.
    fn turned_up_in_a_box_of_its_own(&mut self, landing: &Landing, due: Seat) -> bool {
        let &Landing {
            track,
            frame,
            bbox,
            card,
            confidence,
            sure,
        } = landing;
        let Some(card) = card else {
            return false;
        };
        if !(self.turned_up_anew(track, due, bbox, card, frame)
            || self.turned_up_together(track, due, centre(bbox), card, frame))
        {
            return false;
        }
        self.shown_lately.push(Shown {
            frame,
            track,
            bbox,
            card,
            confidence,
        });
        self.faces_read.insert(track, confidence);
        if let Some(&(seat, _)) = self.placed.get(&track) {
            self.doubt_turned_up(frame, seat, (card, confidence, sure), bbox);
        }
        true
    }

    /// A card of `seat` turned up and shown as read (`sure`: the tracker's
    /// word, from the share of its votes): asked about when the tracker is
    /// unsure, or the reading is under [`SURELY_TURNED_UP`].
    fn doubt_turned_up(
        &mut self,
        frame: u64,
        seat: Seat,
        (card, confidence, sure): (pone_engine::Card, f32, bool),
        at: [f32; 4],
    ) {
        if sure && confidence >= SURELY_TURNED_UP {
            return;
        }
        let name = self.game.sitting().state().name(seat);
        let what = format!("{name}'s card turned up");
        self.doubt_last_card(frame, &what, (&card.to_string(), confidence), Some(at));
    }

    /// A card come to rest that is the last card dealt found a second time
    /// (`twice`: that card's track, box, face and sureness): true when its
    /// box is the card's from now on.
    fn second_box(
        &mut self,
        landing: Landing,
        (last, at, was, first): (u64, [f32; 4], Option<pone_engine::Card>, f32),
    ) -> bool {
        let Landing {
            track,
            frame,
            bbox,
            card,
            confidence,
            sure,
        } = landing;
        // One card read as two faces on its two boxes: the surer reading,
        // read surely, is its face (the second box is often the one that
        // shows the index whole).
        if let (Some(was), Some(card)) = (was, card)
            && was != card
            && sure
            && confidence >= SURE_SECOND_FACE
            && confidence > first
        {
            self.reread(last, frame, was, card, confidence);
        }
        // The card dealt is the larger box's.
        if self.larger_box_is_the_card(last, at, track, bbox) {
            self.last_dealt = Some((frame, track, confidence.max(first)));
            return true;
        }
        false
    }

    /// Card `card` (lying at `at`) found a second time as `track` (at
    /// `bbox`): the larger box is the card, the smaller a part of it. When
    /// the second is larger it takes the card over (true); else it is the
    /// card's twin.
    fn larger_box_is_the_card(
        &mut self,
        card: u64,
        at: [f32; 4],
        track: u64,
        bbox: [f32; 4],
    ) -> bool {
        let Some(&(seat, _)) = self.placed.get(&card) else {
            return false;
        };
        if area(bbox) > area(at) {
            self.take_over(card, track, seat, centre(bbox));
            return true;
        }
        self.twins.insert(track, (card, seat));
        false
    }

    /// Whether a face-up card coming to rest lies mostly ([`ONE_CARD_TWICE`])
    /// on a card turned up just before
    /// ([`FOUND_TWICE_SECS`]) and read less surely as another face (and not
    /// surely: [`SURELY_SHOWN`]), while this one reads surely
    /// ([`SURE_SECOND_FACE`]): that card's second box,
    /// its index whole in it. The card shown is read again as this face
    /// (seed 70 of the rendered sittings: Ann's 2H turned up at the
    /// showdown read 2D at 0.65, then 2H at 0.95 in a box found a frame
    /// later, which was dealt to the dealer as a card drawn; seed 34 at
    /// 30 fps: the dealer's 5C turned up read 6C at 0.91, then 5C at 0.9995
    /// 0.1 s later, and was counted as a card drawn).
    fn shown_read_again(&mut self, landing: &Landing) -> bool {
        let Some(card) = landing.card else {
            return false;
        };
        if !landing.sure || landing.confidence < SURE_SECOND_FACE {
            return false;
        }
        let window = self.frames(FOUND_TWICE_SECS).max(1);
        self.shown_lately
            .retain(|shown| landing.frame.abs_diff(shown.frame) <= window);
        let found = self.shown_lately.iter().find_map(|shown| {
            if shown.confidence >= SURELY_SHOWN || shown.confidence >= landing.confidence {
                return None;
            }
            // Where it lies now, or where it lay when it was turned up: on
            // the camera's return the facts are taken up late, and the
            // round's cards may be gone by then.
            let (at, was) = self
                .tracker
                .on_table()
                .find(|&(t, ..)| t == shown.track)
                .map_or((shown.bbox, Some(shown.card)), |(_, at, was)| (at, was));
            let was = was.filter(|&was| was != card)?;
            (share_of_smaller(at, landing.bbox) >= ONE_CARD_TWICE).then_some((shown.track, at, was))
        });
        let Some((shown, at, was)) = found else {
            return false;
        };
        tracing::debug!(track = landing.track, shown, %card, %was, "a card turned up found again");
        self.reread(shown, landing.frame, was, card, landing.confidence);
        self.larger_box_is_the_card(shown, at, landing.track, landing.bbox);
        true
    }

    /// Whether a face-up card coming to rest lies just where a face was
    /// counted ([`WHERE_IT_WAS_COUNTED`]) while that face is still seen,
    /// reads less surely than that face did and is of its rank: the
    /// finder's second box on that card, its suit misread, no card dealt.
    /// A card dealt squarely onto another hides it
    /// (blind seed 83 of the live table: the dealer's 3D, drawn at 0.99999,
    /// found again 1.5 s later as 3H at 0.96 just where it was counted,
    /// while it was still seen, and counted as another card drawn). A face
    /// of another rank may be the card under it: the tracker's box on a
    /// seat's two backs, one on the other, may slide from one to the other
    /// (seed 69: Cat's first card, the 4H, turned up as her 7H on it, and
    /// then found at its place as the 4H, in a box of its own).
    fn counted_face_found_again(&self, landing: &Landing) -> bool {
        let Some(card) = landing.card else {
            return false;
        };
        let under = self.tracker.on_table().find(|&(t, _, c)| {
            t != landing.track
                && c.is_some_and(|c| c != card && c.rank == card.rank)
                && self.placed.get(&t).is_some_and(|&(_, at)| {
                    distance(at, centre(landing.bbox)) < WHERE_IT_WAS_COUNTED * self.zones.card_size
                })
                && self
                    .faces_read
                    .get(&t)
                    .is_some_and(|&read| read > landing.confidence)
                && self
                    .tracker
                    .last_seen(t)
                    .is_some_and(|l| l >= landing.frame)
        });
        if let Some((under, at, was)) = under {
            tracing::debug!(
                track = landing.track,
                under,
                ?at,
                ?was,
                %card,
                "a counted face found again"
            );
        }
        under.is_some()
    }

    /// Whether a face-up card coming to rest (in `frame`) before the round's
    /// first card is a card of the round just over found again: it came to
    /// rest before that round ended (while the showdown waited for the
    /// dealer), or the round's cards are still in sight (a settled hand's
    /// card found as a new box where the hand lies). The first cards come
    /// face down, so it is no card dealt.
    fn gathered_found_again(&self, frame: u64) -> bool {
        self.game.sitting().state().phase() == Phase::Between
            && (frame <= self.round_ended_at || self.tracker.leaving_boxes().next().is_some())
    }

    /// The last card dealt (its track, box, face when face up, and how
    /// surely it was read), when a
    /// card coming to rest is that card found a second time: cards are dealt
    /// one at a time, so one coming to rest with it (within
    /// [`FOUND_TWICE_SECS`]) and
    /// lying mostly ([`ONE_CARD_TWICE`]) on it, or at the place of the same
    /// seat ([`Play::nearest_seat`]), is the finder's second box on it (the
    /// overlapping backs of a hand).
    fn found_twice(
        &self,
        frame: u64,
        bbox: [f32; 4],
        face: Option<(pone_engine::Card, f32)>,
    ) -> Option<(u64, [f32; 4], Option<pone_engine::Card>, f32)> {
        let face_down = face.is_none();
        let (dealt, last, sure) = self.last_dealt?;
        let frames = |secs: f32| self.frames(secs).max(1);
        let gap = frame.abs_diff(dealt);
        // Later, only a face-down box lying on it while the cards go round
        // the table and the next goes elsewhere.
        let elsewhere = || {
            let state = self.game.sitting().state();
            let round = the_deal_goes_round(state.phase());
            let due = state.due_card().map(|(s, _)| s);
            let seat = self.placed.get(&last).map(|(s, _)| *s);
            face_down && round && due.is_some() && seat.is_some() && due != seat
        };
        let soon = gap <= frames(FOUND_TWICE_SECS);
        if !soon && (gap > frames(FOUND_TWICE_ON_IT_SECS) || !elsewhere()) {
            return None;
        }
        // Both found lying there on the camera's return: cards dealt while
        // it was out, not one at a time, so two at one seat's place are two
        // cards unless one lies mostly on the other. And the card just dealt
        // found lying there on the return was dealt some time before: a face
        // read surely coming to rest on it, read surely as another, is a
        // card of its own however they lie (a player's drawn cards lie
        // overlapped in a row; seed 36, the camera out while Ann drew her 2H
        // and 6H). So is a card coming to rest after the camera caught up
        // (seed 24 at 10 fps, the camera out from 13 s to 14.5 s: Ann's 4C,
        // dealt onto her 4H two frames after the return, was taken for the
        // 4H's second box, and the 4H read again as 4C). So is a face read
        // surely on it found face down (a face-down card's second box shows
        // its back; seed 76 at 10 fps, the camera out from 11 s to 12.5 s:
        // Bob's 3H, drawn onto his 3C face down two frames after the
        // return, was taken for its second box, and his turn waited for it).
        let found_on_return = self.returned.filter(|back| back.found(dealt));
        let on_return = found_on_return.is_some_and(|back| back.found(frame));
        // And, return or not, a face read surely is no second box of a card
        // lying face down, whose second box shows its back (blind seed 207
        // at 5 players, 10 fps: Dan's 8S, drawn onto his hand a frame after
        // the finder boxed his backs anew, was taken for their second box,
        // and his draw was lost).
        let two_faces = |was: Option<pone_engine::Card>| {
            let read_surely = |confidence: f32| confidence >= SURE_SECOND_FACE;
            let on_a_back = was.is_none() && face.is_some_and(|(_, c)| read_surely(c));
            on_a_back
                || (found_on_return.is_some()
                    && read_surely(sure)
                    && face.is_some_and(|(card, c)| read_surely(c) && was != Some(card)))
        };
        if found_on_return.is_some() && self.on_another_of_its_seat(last, bbox) {
            return None;
        }
        let here = self.nearest_seat(centre(bbox)).filter(|_| !on_return);
        self.tracker
            .on_table()
            .find(|&(track, at, was)| {
                let share = share_of_smaller(at, bbox);
                let same_seat = here.is_some() && here == self.nearest_seat(centre(at));
                track == last
                    && !two_faces(was)
                    && (share >= ONE_CARD_TWICE
                        || (same_seat && (soon || share >= AT_ITS_SEAT_TWICE)))
            })
            .map(|(track, at, card)| (track, at, card, sure))
    }

    /// Whether a box coming to rest lies mostly ([`ONE_CARD_TWICE`]) on
    /// another card of the seat of `last`, the card just dealt, and more
    /// than on `last`. Cards found on the camera's return, boxed as one and
    /// then apart, are found again in boxes of their own: such a box is
    /// that other card's, not a second box of the card just dealt (seed 15
    /// at 10 fps on a still table, the camera out from 3 s to 4.5 s: Cat's
    /// 7C, boxed again on its own, took her 3D's place, and her 4D, drawn
    /// onto it, was taken for its second box).
    fn on_another_of_its_seat(&self, last: u64, bbox: [f32; 4]) -> bool {
        let Some(&(seat, _)) = self.placed.get(&last) else {
            return false;
        };
        let lies_on = |at: [f32; 4]| share_of_smaller(at, bbox);
        let on_last = self.tracker.counted_box(last).map_or(0.0, lies_on);
        self.tracker.on_table().any(|(track, at, _)| {
            track != last
                && self.placed.get(&track).is_some_and(|&(s, _)| s == seat)
                && lies_on(at) >= ONE_CARD_TWICE
                && lies_on(at) > on_last
        })
    }

    /// A card of the deal gone in, dealt in `phase`: a second first card
    /// (`face_down`) dealt to its seat means the last round's cards are
    /// with the pone, though his pile was not seen coming to rest (it lies
    /// where it lay, seen all along), and a card at another seat's place is
    /// a card dealt there, not cards gathered (seed 35, round 3: Cat's first
    /// card put at Eve's place was taken for the pile).
    fn past_the_gathering(&mut self, phase: Phase, face_down: bool) {
        let first_cards = matches!(phase, Phase::FirstCards { next } if next > 0);
        if first_cards && face_down {
            self.gathering = false;
        }
    }

    /// A face-down card come to rest at the place of the seat that had the
    /// first card after the gathering (the next card due elsewhere), lying
    /// at under half that card's distance from the place: that card was the
    /// pile coming to rest, and this one the seat's card. The card's line
    /// stands; its track is this one, and the other lies as a stack.
    fn pile_taken_for_a_card(&mut self, track: u64, frame: u64, here: [f32; 2], sure: f32) -> bool {
        let Some((first, seat, was)) = self.after_gathering else {
            return false;
        };
        let Some(anchor) = self.zones.anchors.get(seat.index()).copied().flatten() else {
            return false;
        };
        if distance(anchor, here) >= 0.5 * was || self.nearest_seat(here) != Some(seat.index()) {
            return false;
        }
        let Some((_, pile)) = self.placed.remove(&first) else {
            return false;
        };
        tracing::debug!(
            pile = first,
            card = track,
            "the first card after the gathering was the pile"
        );
        self.place(track, seat, here);
        self.zones.stacks.push(pile);
        self.tracker.anchor(first);
        self.after_gathering = None;
        self.gathering = false;
        if self.last_dealt.is_some_and(|(_, last, _)| last == first) {
            self.last_dealt = Some((frame, track, sure));
        }
        true
    }

    /// The seat of a second box found on a card just dealt (a twin), when it
    /// turns up as `card` and is another of that seat's cards: the card it
    /// was found on is shown already as another card, and the seat holds a
    /// card face down (not `card`). The tracker's box on that other card
    /// was lost to the twin as the new card overlapped it.
    fn twin_turned_up(&self, track: u64, card: pone_engine::Card) -> Option<Seat> {
        let &(first, seat) = self.twins.get(&track)?;
        let first_face = self.lines.contains_key(&first).then(|| {
            self.tracker
                .on_table()
                .find(|&(t, ..)| t == first)
                .and_then(|(_, _, face)| face)
        });
        let other = matches!(first_face, Some(Some(face)) if face != card);
        let round = self.game.sitting().state().seat_round(seat)?;
        let held = round.hands.iter().any(|h| h.cards.contains(card));
        let unseen = round.hands.iter().any(|h| h.cards.unseen() > 0);
        let twin = (other && !held && unseen).then_some(seat);
        if twin.is_some() {
            tracing::debug!(track, first, %card, "a second box turned up as another card of the seat");
        }
        twin
    }

    /// A card turned up that the table never gave a seat (a second box on
    /// a hand's stacked backs, counted as they were covered by a card drawn,
    /// while the backs' own boxes were still seen): when it lies just where a
    /// card given face down to a seat that still holds unseen cards lay,
    /// and that card is not seen face up, it is that card. Its place goes to
    /// this track (the other is let go) and its seat is returned. `lay`:
    /// that card's track, its seat, and where `track` lies
    /// ([`Play::where_one_lay`]).
    fn turned_up_where_one_lay(&mut self, track: u64, lay: (u64, Seat, [f32; 2])) -> Seat {
        let (old, seat, here) = lay;
        tracing::debug!(track, old, "turned up where a seat's face-down card lay");
        self.take_over(old, track, seat, here);
        seat
    }

    /// A card turned up that the table never gave a seat, at the place of a
    /// seat holding a card face down that the dealer gave by his word (the
    /// table asked him for a card the camera had not seen dealt, and he said
    /// it lay face down), when no card the camera gave that seat lies face
    /// down still: it is that card, turned up. Placed at its seat with that
    /// card's line; gives the seat (seed 76 at 10 fps, the camera out from
    /// 11 s to 12.5 s: Cat, dealing, turned up her 6S, found again in a box
    /// of its own on the return, and the box the camera had given it turned
    /// up her 7D, given by the dealer; the 6S was never shown, and the
    /// round never settled).
    fn named_back_turned_up(&mut self, track: u64, frame: u64) -> Option<Seat> {
        let here = centre(self.tracker.counted_box(track)?);
        let seat = self.seat_at(here)?;
        let state = self.game.sitting().state();
        let faces = self.faces_on_table();
        let tracked_back = self
            .placed
            .iter()
            .any(|(t, &(s, _))| s == seat && faces.get(t).is_none_or(Option::is_none));
        // Once the round is over the lines of its cards face down are let
        // go: its cards turned up then are no cards given by his word (seed
        // 13 at 10 fps, the camera out from 13 s to 14.5 s: four shows
        // refused after Cat's natural).
        if state.phase() == Phase::Between
            || !has_face_down(state, seat)
            || tracked_back
            || self.drawing_onto(seat, track, None, frame)
        {
            return None;
        }
        // The seat's cards this round are its last cards given.
        let held = state
            .seat_round(seat)
            .map_or(0, |r| r.hands.iter().map(|h| h.cards.len()).sum());
        let seq = self
            .game
            .in_force()
            .iter()
            .rev()
            .filter_map(|(seq, command)| match command {
                Command::Card { to, card, .. } if *to == seat => Some((*seq, card.is_none())),
                _ => None,
            })
            .take(held)
            .find(|&(seq, face_down)| face_down && !self.lines.values().any(|&s| s == seq))?
            .0;
        tracing::debug!(
            track,
            "turned up: a card face down the dealer gave by his word"
        );
        self.place(track, seat, here);
        self.lines.insert(track, seq);
        Some(seat)
    }

    /// For [`Play::turned_up_where_one_lay`]: the card given face down
    /// that `track`, turned up, lies just where it lay (its track and
    /// seat), and where `track` lies.
    fn where_one_lay(&self, track: u64) -> Option<(u64, Seat, [f32; 2])> {
        let bbox = self.tracker.counted_box(track)?;
        let here = centre(bbox);
        let state = self.game.sitting().state();
        let faces = self.faces_on_table();
        let (old, seat, _) = self
            .placed
            .iter()
            .filter(|&(&t, &(seat, _))| {
                t != track
                    && has_face_down(state, seat)
                    && faces.get(&t).is_none_or(Option::is_none)
            })
            .map(|(&t, &(seat, at))| (t, seat, distance(at, here)))
            .filter(|&(.., d)| d <= WHERE_ONE_LAY * self.zones.card_size)
            .min_by(|a, b| a.2.total_cmp(&b.2))?;
        Some((old, seat, here))
    }

    /// The card of track `old`, given to `seat`, is `track`'s now, lying at
    /// `here` (its line goes with it); the tracker lets `old` go.
    fn take_over(&mut self, old: u64, track: u64, seat: Seat, here: [f32; 2]) {
        self.placed.remove(&old);
        if let Some(seq) = self.lines.remove(&old) {
            self.lines.insert(track, seq);
        }
        self.place(track, seat, here);
        self.tracker.leave(&[old]);
    }

    /// The seat whose place (where its first card lay) lies nearest
    /// `centre`, within reach of it.
    fn nearest_seat(&self, centre: [f32; 2]) -> Option<usize> {
        self.zones
            .anchors
            .iter()
            .enumerate()
            .filter_map(|(s, a)| a.map(|a| (s, distance(a, centre))))
            .filter(|&(_, d)| d <= REACH * self.zones.card_size)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(s, _)| s)
    }

    /// [`Play::nearest_seat`], as a seat.
    fn seat_at(&self, centre: [f32; 2]) -> Option<Seat> {
        self.nearest_seat(centre)
            .and_then(|s| u8::try_from(s).ok())
            .map(Seat)
    }

    /// Whether a card came to rest on the pack or the pone's pile (rather
    /// than at the seat due a card, when that lies nearer).
    fn on_a_stack(&self, centre: [f32; 2], size: f32, due: Option<Seat>) -> bool {
        let to_seat = due.map_or(f32::INFINITY, |seat| {
            self.seat_distance(seat.index(), centre)
        });
        self.nearer_a_stack(centre, size, to_seat)
    }

    /// Whether a card given to `seat`, seen now at `centre`, lies on the pack
    /// or the pone's pile rather than at the seat's place (where its first
    /// card lay): the tracker may follow a back onto a card thrown to the
    /// pile nearby (seed 32 at 10 fps: Cat's 9H, face down, followed onto
    /// Bob's cards thrown to the pile as he went over).
    fn off_to_a_stack(&self, centre: [f32; 2], seat: Seat) -> bool {
        let anchor = self.zones.anchors.get(seat.index()).copied().flatten();
        let to_seat = anchor.map_or(f32::INFINITY, |a| distance(a, centre));
        self.nearer_a_stack(centre, self.zones.card_size, to_seat)
    }

    /// Whether a card of `size` at `centre` lies within 0.7 of its size of
    /// the pack or the pone's pile, and nearer it than `to_seat`.
    fn nearer_a_stack(&self, centre: [f32; 2], size: f32, to_seat: f32) -> bool {
        let to_stack = self
            .zones
            .stacks
            .iter()
            .map(|&s| distance(s, centre))
            .fold(f32::INFINITY, f32::min);
        to_stack < 0.7 * size && to_stack < to_seat
    }

    /// How far `centre` lies from a seat's cards (its anchor and this
    /// round's cards, but those given it astray: seed 35's slip sitting at
    /// 480x270, Ann's drawn 5H, come to rest on Bob's cards and moved to
    /// her place, was lost from sight as it moved, and Bob's next card,
    /// where it had lain, was taken for one at Ann's place).
    fn seat_distance(&self, seat: usize, centre: [f32; 2]) -> f32 {
        let anchor = self.zones.anchors.get(seat).copied().flatten();
        anchor
            .into_iter()
            .chain(
                self.placed
                    .iter()
                    .filter(|(t, (s, _))| s.index() == seat && !self.astray.contains_key(t))
                    .map(|(_, (_, c))| *c),
            )
            .map(|p| distance(p, centre))
            .fold(f32::INFINITY, f32::min)
    }

    /// A face-up card coming to rest at another seat's place than the one
    /// due, on a face-down card of that seat no longer seen (not in this
    /// frame: at 30 frames a second the back may still be seen in the
    /// frame the face came to rest, seed 28's dealer turning up his cards)
    /// ([`TURNED_UP_ON`]), or lying just where that card lay
    /// ([`JUST_WHERE_IT_LAY`]), is that
    /// card turned up (its face found as a box of its own), not a card
    /// dealt: shown, and its track takes the old one's place.
    ///
    /// The seat due too, on the camera's return while the deal goes round
    /// face down, when its card lying there was not seen since the return:
    /// a face there is none of the deal's cards (blind seed 102 at 10 fps,
    /// the camera out from 3 s to 4.5 s: Ann turned up her AS and TD for
    /// her natural meanwhile; the AS, found where her first card lay as her
    /// second was due, went in as that second card, and her TD went to Bob).
    fn turned_up_anew(
        &mut self,
        track: u64,
        due: Seat,
        bbox: [f32; 4],
        card: pone_engine::Card,
        frame: u64,
    ) -> bool {
        let Some((old, seat)) = self.back_turned_up(track, bbox) else {
            return false;
        };
        if self.dealt_onto.contains(&track) {
            return false;
        }
        let state = self.game.sitting().state();
        let dealt_face_down = the_deal_goes_round(state.phase())
            && matches!(
                state.round_game(),
                RoundGame::Ordinary | RoundGame::ImaginaryTens | RoundGame::Blind
            );
        let unseen_since_the_return = self.back.is_some_and(|back| {
            back.found(frame) && self.tracker.last_seen(old).is_some_and(|l| l < back.first)
        });
        if (seat == due && !(dealt_face_down && unseen_since_the_return))
            || !has_face_down(state, seat)
            || !self.show(track, seat, card, frame)
        {
            return false;
        }
        self.placed.remove(&old);
        self.place(track, seat, centre(bbox));
        self.tracker.leave(&[old]);
        true
    }

    /// The seat's back that a face come to rest at `bbox` may be, turned up
    /// ([`Play::turned_up_anew`]): one it lies on, no longer seen, or one
    /// that lay just there. Its track, and the seat.
    fn back_turned_up(&self, track: u64, bbox: [f32; 4]) -> Option<(u64, Seat)> {
        self.tracker
            .on_table()
            .filter(|&(t, b, c)| {
                c.is_none()
                    && t != track
                    && ((share_of_smaller(b, bbox) >= TURNED_UP_ON
                        && self.tracker.last_seen(t).is_some_and(|l| l < self.frame))
                        || self.placed.get(&t).is_some_and(|&(_, at)| {
                            distance(at, centre(bbox)) < JUST_WHERE_IT_LAY * self.zones.card_size
                        }))
            })
            .find_map(|(t, ..)| self.placed.get(&t).map(|&(s, _)| (t, s)))
    }

    /// Whether a card coming to rest at another seat's place than the one
    /// due lies mostly ([`ONE_CARD_TWICE`]) on a card of that seat, face as
    /// it is face: that card's box found again, not a card dealt there.
    /// - Face up, read less surely than [`SURELY_A_CARD_ON_A_FACE`], on a
    ///   face-up card given to that seat: the finder's second box on a hand
    ///   turned up. A card dealt to the wrong seat comes with a sure reading
    ///   of its own.
    /// - Face down, while the first or second cards go round, at the place
    ///   of another seat than the one due, on a face-down
    ///   card of that seat (given to it, or a second box found on one): the
    ///   finder's box on a hand's stacked backs, lost and found again after
    ///   the next seat's card (the demo sittings at 5 and 7 players, with
    ///   session 28's finder). A second card dealt lies about half on the
    ///   first; only a card dealt to the wrong seat squarely on its cards
    ///   would be taken for them. But while the second cards go round, a
    ///   card's size lying on a seat's one card, whose own box is still
    ///   seen, two or more seats on from the one due, is a card dealt there
    ///   out of order.
    ///
    /// A card the seat due is given lies at its own place.
    fn found_again_on_a_card(&self, landing: &Landing, due: Seat) -> bool {
        let &Landing {
            track,
            frame,
            bbox,
            card,
            confidence,
            ..
        } = landing;
        let face_up = card.is_some();
        let phase = self.game.sitting().state().phase();
        let dealing = the_deal_goes_round(phase);
        if (face_up && confidence >= SURELY_A_CARD_ON_A_FACE) || (!face_up && !dealing) {
            return false;
        }
        // A card given to a seat whose place it did not lie at (the deal's
        // order broken, asked about) leaves the seats' cards mixed: a face-
        // down card coming to rest at the place of the seat due is its card.
        if !face_up
            && self
                .nearest_seat(centre(bbox))
                .is_none_or(|s| s == due.index())
        {
            return false;
        }
        // Given to the seat; or, face down, a second box found on its card;
        // or, face up, such a box turned up and shown as the seat's card
        // (seed 58 at 30 fps: Ann's 4D, turned up at the showdown, was
        // shown from the second box on her hand, and her first card's own
        // box, turning up after it, read 4H at 0.32, went in as a card the
        // dealer drew).
        let seat_of = |t: u64| {
            let placed = self.placed.get(&t).map(|&(seat, _)| seat);
            let twin = || {
                self.twins
                    .get(&t)
                    .filter(|_| !face_up || self.faces_read.contains_key(&t))
                    .map(|&(_, seat)| seat)
            };
            placed.or_else(twin)
        };
        let under = self.tracker.on_table().find(|&(t, b, c)| {
            c.is_some() == face_up
                && t != track
                && share_of_smaller(b, bbox) >= ONE_CARD_TWICE
                && seat_of(t).is_some_and(|seat| seat != due)
        });
        let Some((under, under_box, _)) = under else {
            return !face_up && self.hand_found_again_on_return(bbox, frame, due);
        };
        // While the second cards go round, a seat not yet given its second
        // has one card: a box as large as that card lying on it, while the
        // card's own box is still seen, is a second card dealt there (a
        // dealer's slip, the card due elsewhere), not that card found again
        // (the finder's second box on a card is smaller, and its box on a
        // hand's stacked backs needs two).
        let seat = seat_of(under);
        let cards_there = self
            .placed
            .values()
            .filter(|&&(s, _)| Some(s) == seat)
            .count();
        let twin_there = self.twins.values().any(|&(_, s)| Some(s) == seat);
        // Not the next seat's: its second card in turn, where the due
        // seat's was missed (lying on its first as one box: seed 15), looks
        // the same.
        let state = self.game.sitting().state();
        let out_of_order = seat.is_some_and(|s| slip_kind(state, due, s) == Slip::OutOfOrder);
        let dealt_there = !face_up
            && out_of_order
            && matches!(phase, Phase::SecondCards { .. })
            && cards_there == 1
            && !twin_there
            && self.placed.contains_key(&under)
            && self
                .tracker
                .last_seen(under)
                .is_some_and(|seen| seen >= frame)
            && long_side(bbox) >= SAME_SIZE * long_side(under_box);
        if dealt_there {
            tracing::debug!(track, under, "a card dealt onto another seat's one card");
            return false;
        }
        tracing::debug!(track, under, "found again on a card of another seat");
        true
    }

    /// On the camera's return while the cards go round, a face-down box at
    /// the place of a seat that has its card of this pass and is not due
    /// one, lying in part ([`ON_THE_HAND`]) on that seat's cards, is the
    /// finder's box on the hand's stacked backs, not a card dealt there
    /// (seed 14 at 10 fps, out from 11 s to 12.5 s: a box half on Cat's KS
    /// and the TC dealt onto it meanwhile, whose tracks took the two boxes
    /// lower down, was given to Bob, whose card came after). Dealt there
    /// by a slip while the camera was out, the card due elsewhere is asked
    /// for when the dealer's words pass it.
    fn hand_found_again_on_return(&self, bbox: [f32; 4], frame: u64, due: Seat) -> bool {
        if !self.back.is_some_and(|back| back.found(frame)) {
            return false;
        }
        let Some(seat) = self
            .nearest_seat(centre(bbox))
            .filter(|&s| s != due.index())
        else {
            return false;
        };
        let pass = match self.game.sitting().state().phase() {
            Phase::FirstCards { .. } => 1,
            Phase::SecondCards { .. } => 2,
            _ => return false,
        };
        let hand: Vec<[f32; 4]> = self
            .tracker
            .on_table()
            .filter(|&(t, _, card)| {
                card.is_none() && self.placed.get(&t).is_some_and(|&(s, _)| s.index() == seat)
            })
            .map(|(_, b, _)| b)
            .collect();
        let Some(&first) = hand.first() else {
            return false;
        };
        let around = hand.iter().fold(first, |a, b| {
            [
                a[0].min(b[0]),
                a[1].min(b[1]),
                a[2].max(b[2]),
                a[3].max(b[3]),
            ]
        });
        let found_again = hand.len() >= pass && share_of_smaller(around, bbox) >= ON_THE_HAND;
        if found_again {
            tracing::debug!(
                ?bbox,
                seat,
                "on the camera's return, a box on a hand found again"
            );
        }
        found_again
    }

    /// The track is a card given to `seat`, lying at `here`; the tracker
    /// may follow it if the dealer picks it up and puts it down elsewhere.
    fn place(&mut self, track: u64, seat: Seat, here: [f32; 2]) {
        self.placed.insert(track, (seat, here));
        self.rested.insert(track, here);
        self.tracker.dealt(track);
    }

    /// Whether a card landing at `centre` lies at the seat the deal gives it
    /// to. Learns the seat's place from its first card; a card far from every
    /// seat is not dealt (the pile, the pack, `None`); one at another seat is
    /// a question (`Some(true)`: astray).
    fn at_seat(&mut self, due: Seat, centre: [f32; 2], size: f32, frame: u64) -> Option<bool> {
        if self.zones.card_size <= 0.0 {
            self.zones.card_size = size;
        } else {
            self.zones.card_size = 0.9 * self.zones.card_size + 0.1 * size;
        }
        let anchor = self.zones.anchors.get(due.index()).copied()?;
        if anchor.is_none() {
            self.zones.anchors[due.index()] = Some(centre);
            return Some(false);
        }
        let reach = REACH * self.zones.card_size;
        let nearest = (0..self.zones.anchors.len())
            .map(|s| (s, self.seat_distance(s, centre)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match nearest {
            Some((_, d)) if d > reach => None,
            Some((seat, _)) if seat != due.index() => {
                let state = self.game.sitting().state();
                let text = format!(
                    "a card came to rest at {}'s place, but the deal gives the next card to {}",
                    state.name(Seat(seat as u8)),
                    state.name(due)
                );
                let slip = slip_kind(state, due, Seat(seat as u8));
                self.ask_slip(frame, text, slip);
                Some(true)
            }
            _ => Some(false),
        }
    }

    /// Applies a line; a refusal becomes a question. Tells the tracker when
    /// a round ends or the pack is reshuffled. A card of the deal that the
    /// dealer's words have passed unseen is asked for.
    fn apply(&mut self, frame: u64, line: Line, landed: Option<u64>) -> bool {
        let applied = self.apply_line(frame, line, landed);
        self.ask_for_a_card_a_word_passed();
        applied
    }

    /// [`Play::apply`], but for asking for a card passed unseen.
    fn apply_line(&mut self, frame: u64, line: Line, landed: Option<u64>) -> bool {
        let text = line.to_json(&Meta::default());
        let meta = Meta {
            frame: Some(frame),
            ..Meta::default()
        };
        let divide = matches!(line, Line::Divide { .. }).then(|| line.clone());
        // The dealer's show of a hand (the camera's shows are one card each).
        let shown = (landed.is_none() && matches!(line, Line::Show { .. })).then(|| line.clone());
        // The dealer putting a card right (his answer to a reading doubted):
        // the cards the line had, and those it has now.
        let put_right = match &line {
            Line::Correct {
                line: seq, with, ..
            } => self.command_at(*seq).map(|command| {
                (
                    command_cards(command),
                    with.as_deref().map_or_else(Vec::new, line_cards),
                )
            }),
            _ => None,
        };
        let words = (landed.is_none() && put_right.is_none()).then(|| line.clone());
        let corrected = match &line {
            Line::Correct { line: seq, .. } if put_right.is_some() => Some(*seq),
            _ => None,
        };
        // The card due, when this is a card (the card of the deal asked for
        // goes in), and the card the deal waits for (the camera's, or the
        // dealer's answer when asked for it).
        let is_card = matches!(line, Line::Card { .. });
        let card_due = self.card_due().filter(|_| is_card);
        let deal_waits_for = self.word_waits_for().filter(|_| is_card);
        if let Some(show) = &shown
            && self.dealer_shows_a_card_turned_up_taken_for_drawn(frame, show)
        {
            return true;
        }
        match self.game.apply(meta, line) {
            Ok(events) => {
                tracing::debug!(frame, "applied {text}");
                let events = events.to_vec();
                if let Some((was, now)) = put_right {
                    self.deck_sense_put_right(&was, &now);
                }
                let asked_went_in = self.asked_card_of_the_deal
                    && card_due.is_some()
                    && card_due == self.asked_card;
                // The words refused that waited for this card, taken before
                // a round it ends forgets its words refused (seed 25 at 10
                // fps, the camera out from 9 s to 10.5 s: the next round's
                // stakes, refused while the dealer was asked for his JC, were
                // lost when the JC ended the round).
                let waited = deal_waits_for.or(card_due.filter(|_| asked_went_in));
                let again = waited.map(|due| self.refused_waiting_for(due));
                self.applied(frame, text, landed, &events);
                match &words {
                    Some(word @ Line::Natural { .. }) => {
                        self.natural_contradicted(frame, word, &events);
                    }
                    Some(word @ Line::Over { .. }) => self.over_contradicted(frame, word, &events),
                    _ => {}
                }
                if asked_went_in {
                    self.card_asked_went_in();
                }
                if let Some(seq) = corrected {
                    self.words_refused_over(seq);
                }
                if let Some(again) = again {
                    self.words_refused_before_the_card(again, "the card the deal waited for");
                }
                true
            }
            Err(e) => {
                if let Some(divide @ Line::Divide { player, .. }) = &divide
                    && self.divided_pair_turned_up(frame, player, divide)
                {
                    return true;
                }
                if let Some(show) = &shown
                    && (self.dealer_shows_over_a_misreading(frame, show)
                        || self.dealer_shows_a_card_given_elsewhere(frame, show)
                        || self.dealer_shows_cards_drawn_unseen(frame, show)
                        || self.dealer_shows_a_card_drawn_taken_for_turned_up(frame, show)
                        || self.dealer_shows_cards_drawn_hidden(frame, show))
                {
                    return true;
                }
                if let Some(word @ Line::Natural { .. }) = &words
                    && self.dealer_natural_before_the_shows(frame, word)
                {
                    return true;
                }
                if let Some(line) = words {
                    self.refused.push(Refused {
                        frame,
                        line,
                        question: self.questions.len(),
                        deal_waited_for: self.word_waits_for(),
                    });
                }
                self.ask(frame, format!("{text} was refused: {e}"));
                false
            }
        }
    }

    /// The dealer put right the camera's card of journal line `seq`: his
    /// words refused since that card went in (refused over it: a
    /// "content" after a card misread made the hand over, the round ended
    /// by it) go in now, in order, and their questions are settled.
    fn words_refused_over(&mut self, seq: u64) {
        let Some(since) = self
            .delivered
            .iter()
            .find(|d| d.seq == seq)
            .map(|d| d.landed)
        else {
            return;
        };
        self.words_again(
            |word| word.frame >= since,
            "went in once the card was put right",
        );
    }

    /// The card that the deal waited for went in, the camera's or the
    /// dealer's when asked for it: the dealer's words refused while it
    /// waited (`again`), said after that card came to rest but
    /// before the camera saw it (a second card lying on the first, seen
    /// only when turned up: seed 22's "content" refused as the second cards
    /// were not all dealt), are said again at their frames, in order with
    /// the cards that landed before and after them (seed 15: Ann's "over"
    /// comes after the card she drew, which waited for the card asked for).
    /// One refused again is asked again. `went_in`: what went in, for the
    /// questions settled (the card the deal waited for, or a hand the
    /// dealer was asked to show).
    fn words_refused_before_the_card(&mut self, again: Vec<Refused>, went_in: &str) {
        for word in again {
            tracing::debug!(
                word.frame,
                went_in,
                "the dealer's word, refused before, is said again"
            );
            if let Some(q) = self.questions.get_mut(word.question) {
                q.answered = Some(format!("said again once {went_in} went in"));
            }
            self.pending(word.frame, word.line);
        }
    }

    /// The dealer's words refused that wait for the card `due`, taken out
    /// of those refused ([`Play::words_refused_before_the_card`] says them
    /// again once it goes in).
    fn refused_waiting_for(&mut self, due: (u32, Seat, u8)) -> Vec<Refused> {
        let (again, kept): (Vec<Refused>, Vec<Refused>) = std::mem::take(&mut self.refused)
            .into_iter()
            .partition(|word| word.deal_waited_for == Some(due));
        self.refused = kept;
        again
    }

    /// Tries again, in order, the refused words that `which` picks; those
    /// that go in have their questions settled with `settled`, the others
    /// stay refused (waiting for the card the deal waits for now, if any).
    fn words_again(&mut self, which: impl Fn(&Refused) -> bool, settled: &str) {
        let ended = self.round_ended_at;
        let (again, mut kept): (Vec<Refused>, Vec<Refused>) = std::mem::take(&mut self.refused)
            .into_iter()
            .partition(which);
        for word in again {
            if self.apply_put_right(word.frame, word.line.clone()) {
                tracing::debug!(
                    word.frame,
                    "the dealer's word, refused before, went in: {settled}"
                );
                if let Some(q) = self.questions.get_mut(word.question) {
                    q.answered = Some(settled.to_owned());
                }
            } else {
                kept.push(Refused {
                    deal_waited_for: self.word_waits_for(),
                    ..word
                });
            }
        }
        // A word that went in may have ended the round, and its words with it.
        if self.round_ended_at == ended {
            kept.append(&mut self.refused);
            kept.sort_by_key(|word| word.frame);
            self.refused = kept;
        }
    }

    /// The command in force at journal line `seq`.
    fn command_at(&self, seq: u64) -> Option<&Command> {
        self.game
            .in_force()
            .iter()
            .find(|(s, _)| *s == seq)
            .map(|(_, command)| command)
    }

    /// The seat due the next card (its index), if any.
    fn due_seat(&self) -> Option<usize> {
        let (seat, _) = self.game.sitting().state().due_card()?;
        Some(seat.index())
    }

    /// The card due now (round, seat, hand).
    fn card_due(&self) -> Option<(u32, Seat, u8)> {
        let state = self.game.sitting().state();
        let (seat, hand) = state.due_card()?;
        Some((state.round_number(), seat, hand))
    }

    /// The card the deal waits for while the first or second cards go
    /// round (round, seat, hand).
    fn deal_waits_for(&self) -> Option<(u32, Seat, u8)> {
        let dealing = the_deal_goes_round(self.game.sitting().state().phase());
        self.card_due().filter(|_| dealing)
    }

    /// The card the draw waits for, a player's or the dealer's (round,
    /// seat, hand).
    fn draw_waits_for(&self) -> Option<(u32, Seat, u8)> {
        let drawing = matches!(
            self.game.sitting().state().phase(),
            Phase::Drawing { .. } | Phase::Dealer
        );
        self.card_due().filter(|_| drawing)
    }

    /// The card a dealer's word refused now waits for: the one the deal
    /// waits for, or the round's first card before it comes (the stakes
    /// refused as the camera, out while the first cards were dealt, had not
    /// seen them go in once they do: `words_refused_before_the_card`), or
    /// the card in the draw the dealer is asked for (seed 15 at 10 fps, the
    /// camera out from 15 s to 16.5 s: Bob's "content", said as the dealer
    /// was asked for Ann's card drawn unseen, was refused as her turn was
    /// not over, and never said again: the round never ended), or the card
    /// due in the draw whose hand the dealer is asked to show.
    fn word_waits_for(&self) -> Option<(u32, Seat, u8)> {
        let between = self.game.sitting().state().phase() == Phase::Between;
        self.deal_waits_for()
            .or_else(|| self.card_due().filter(|_| between))
            .or_else(|| {
                self.card_due()
                    .filter(|&due| self.asked_card == Some(due) || self.asked_showdown == Some(due))
            })
    }

    /// Tells the tracker's deck sense that the cards `was` of a line are
    /// `now` (the dealer's correction): each card no longer in it is free
    /// to be seen, each new one counted.
    fn deck_sense_put_right(&mut self, was: &[pone_engine::Card], now: &[pone_engine::Card]) {
        let gone = was.iter().filter(|c| !now.contains(c));
        let mut came = now.iter().filter(|c| !was.contains(c));
        for &card in gone {
            self.tracker.put_right(card, came.next().copied());
        }
        for &card in came {
            self.tracker.put_right(card, Some(card));
        }
    }

    /// What a line that went in (`text`, a camera's card `landed` in that
    /// frame, or the dealer's word) did, told to the tracker: a round over,
    /// the pack reshuffled, a new deal.
    fn applied(&mut self, frame: u64, text: String, landed: Option<u64>, events: &[Event]) {
        let round_over = events.iter().any(|e| matches!(e, Event::RoundEnded { .. }));
        let last_card = events
            .iter()
            .any(|e| matches!(e, Event::PackReshuffled { .. }));
        // A new deal's dealer gathers every card and shuffles a fresh pack.
        let new_deal = events
            .iter()
            .any(|e| matches!(e, Event::DealStarted { .. }));
        if last_card && let Some(landed) = landed {
            self.check_shuffle_time(frame, landed);
        }
        if let Some(landed) = landed {
            let seq = self.game.in_force().last().map_or(0, |(seq, _)| *seq);
            self.delivered.push(Delivered {
                landed,
                known: self.frame,
                line: text,
                seq,
            });
        }
        let mut leaving: Vec<u64> = self.placed.keys().copied().collect();
        if events
            .iter()
            .any(|e| matches!(e, Event::RoundStarted { .. }))
        {
            self.ended_by_natural.clear();
        }
        if round_over {
            let state = self.game.sitting().state();
            let dealer = state.order().last().copied();
            let by_natural = events
                .iter()
                .any(|e| matches!(e, Event::Natural { player, .. } if Some(*player) == dealer));
            if by_natural {
                self.ended_by_natural = self
                    .placed
                    .iter()
                    .map(|(&track, &(seat, _))| (track, seat))
                    .collect();
            }
            let came_since = self.come_since_the_return(&leaving);
            leaving.retain(|track| !came_since.contains(track));
            self.out_this_round = false;
            self.refused.clear();
            self.round_ended_at = self.frame;
            self.tracker.leave(&leaving);
            self.ended_lay = self
                .placed
                .iter()
                .filter(|(track, _)| leaving.contains(track))
                .map(|(&track, &(_, at))| (track, (at, None)))
                .collect();
            for track in came_since {
                tracing::debug!(
                    track,
                    "a card come since the camera's return, where one lay"
                );
                for fact in self.tracker.not_a_card(track) {
                    self.queue(fact);
                }
            }
            self.placed.clear();
            self.alone_on_return.clear();
            self.gone_while_out.clear();
            self.rested.clear();
            self.dealt_onto.clear();
            self.astray.clear();
            self.faces_read.clear();
            // Second boxes were found on this round's cards.
            self.twins.clear();
            // The face-up cards' lines stay until their cards go: one
            // read unsurely and read again surely as another corrects
            // the settled round.
            self.gathering = true;
        } else if self.game.sitting().state().phase() == Phase::Showdown {
            // Every card is dealt: a card hidden now is not coming
            // back, and one that lands where it lay is the next
            // round's (the cards seen stay, to be shown).
            self.tracker.leave(&leaving);
        }
        if new_deal {
            self.tracker.new_pack();
        } else if last_card {
            self.tracker.reshuffled();
        }
    }

    /// The tracks the tracker has on the table face down.
    fn backs_on_table(&self) -> BTreeSet<u64> {
        self.tracker
            .on_table()
            .filter(|&(_, _, card)| card.is_none())
            .map(|(track, ..)| track)
            .collect()
    }

    /// Of the round's cards (`tracks`), as it ends after the camera was out
    /// this round: a back found again on the camera's return where a card
    /// lay face down, at a seat whose cards all lie face up now, is none of
    /// them but a card come since (the next round's first, dealt where the
    /// last lay while the camera was out: seed 23 at 10 fps, the camera out
    /// from 7 s to 8.5 s: Bob's 6D, taken for his 9C's box face down (the
    /// 9C turned up was found as a box of its own), was never counted, and
    /// every card after went one seat astray). The tracker counts it anew
    /// from the frame it was found again ([`Tracker::not_a_card`]).
    fn come_since_the_return(&self, tracks: &[u64]) -> Vec<u64> {
        let Some(back) = self.returned.filter(|_| self.out_this_round) else {
            return Vec::new();
        };
        let state = self.game.sitting().state();
        let backs = self.backs_on_table();
        let alone_now = self.alone_on_return(self.frame);
        let seen_since = |track: u64| {
            self.tracker
                .last_seen(track)
                .is_some_and(|last| last >= back.first)
        };
        // A seat whose cards all lie face up: while the return is caught
        // up (after it, the dealer may have shown a hand still lying face
        // down by his word: seed 15 at 10 fps, the camera out from 17 s to
        // 18.5 s). The only one of its seat's cards found again: found on
        // the return (a second box may be seen later, on a card dealt
        // since: seed 17 at 10 fps, the camera out from 9 s to 10.5 s, a
        // second box on Ann's 9D drawn 3 s after the return).
        let catching_up = self.back.is_some();
        let placed = tracks.iter().copied().filter(|track| {
            let face_up = catching_up
                && self
                    .placed
                    .get(track)
                    .is_some_and(|&(seat, _)| !has_face_down(state, seat));
            let alone = (catching_up || self.seen_on_return.contains(track))
                && (self.alone_on_return.contains(track) || alone_now.contains(track));
            backs.contains(track) && seen_since(*track) && (face_up || alone)
        });
        // A seat whose cards were all found gone on the return, none of
        // them found again: a back at its place found again on the return,
        // though no card the table placed (a second box found on one of its cards,
        // that the next card dealt there was taken for), is come since too
        // (blind seed 118 at 10 fps, the camera out from 7 s to 10 s over
        // the showdown, the gathering and Cat's and Ann's next first cards).
        let cleared = |seat: Seat| {
            self.gone_while_out.values().any(|&s| s == seat)
                && !self
                    .placed
                    .iter()
                    .any(|(&t, &(s, _))| s == seat && seen_since(t))
        };
        let unplaced = self
            .tracker
            .on_table()
            .filter(|&(track, _, card)| {
                let again = self.tracker.seen_again(track);
                card.is_none()
                    && !self.placed.contains_key(&track)
                    && again.is_some_and(|again| back.found(again))
            })
            .filter(|&(track, bbox, _)| {
                let here = centre(bbox);
                let seat = self
                    .twins
                    .get(&track)
                    .map(|&(_, seat)| seat)
                    .or_else(|| self.seat_at(here));
                seat.is_some_and(|seat| cleared(seat) && !self.off_to_a_stack(here, seat))
            })
            .map(|(track, ..)| track);
        placed.chain(unplaced).collect()
    }

    /// Applies the dealer's line `line` put right by the table (after a
    /// correction it needed), its events told as [`Play::applied`] tells
    /// them: whether it went in (a refusal asks nothing).
    fn apply_put_right(&mut self, frame: u64, line: Line) -> bool {
        let text = line.to_json(&Meta::default());
        let meta = Meta {
            frame: Some(frame),
            ..Meta::default()
        };
        match self.game.apply(meta, line) {
            Ok(events) => {
                let events = events.to_vec();
                self.applied(frame, text, None, &events);
                true
            }
            Err(_) => false,
        }
    }

    /// A card dealt from a new pack: the last card of the old one went
    /// unseen to the pone, who took up his pile and shuffled it in. When
    /// the camera watched the pack and the pile meanwhile and saw them in
    /// their places all along ([`StackWatch`]), or, not watching them, saw
    /// this card land too soon after the card before for a shuffle
    /// ([`SHUFFLE_SECS`]), it is likely the last card itself, dealt instead
    /// of passed: a dealer's mistake, told.
    fn check_shuffle_time(&mut self, frame: u64, landed: u64) {
        let Some(before) = self.delivered.last().map(|d| d.landed) else {
            return;
        };
        let seconds = landed.saturating_sub(before) as f32 / self.fps;
        let long = self.frames(TAKEN_UP_SECS).max(1);
        let near = self.frames(0.5);
        let taken_up = self.stacks.taken_up_between(before, landed, long, near);
        tracing::debug!(before, landed, seconds, ?taken_up, "a card from a new pack");
        if taken_up == Some(false) {
            self.ask_slip(
                frame,
                "the last card dealt? The pack was down to its last card, which is not \
                 dealt but goes unseen to the pone to shuffle with his pile; the pone's \
                 pile lay in its place from the card before to this one"
                    .to_owned(),
                Slip::LastCardDealt,
            );
        } else if taken_up.is_none() && seconds < SHUFFLE_SECS {
            self.ask_slip(
                frame,
                format!(
                    "the last card dealt? The pack was down to its last card, which is not \
                     dealt but goes unseen to the pone to shuffle with his pile; this card \
                     came {seconds:.1} s after the one before, too soon for a shuffle"
                ),
                Slip::LastCardDealt,
            );
        }
    }

    /// A player divides: he turns his pair up and pulls one card away, where
    /// no card lay, so the camera takes it for a new card dealt him face up.
    /// When the dealer's divide is then refused, and the last card the camera
    /// gave the divider came face up a moment before, that card was the
    /// pair's: it becomes a card shown, and the divide goes in (true). Put
    /// back as it was when the divide is refused all the same.
    fn divided_pair_turned_up(&mut self, frame: u64, player: &str, divide: &Line) -> bool {
        let Some(seat) = self.game.sitting().state().seat(player) else {
            return false;
        };
        let last_card = self
            .game
            .in_force()
            .iter()
            .rev()
            .find_map(|(seq, c)| match c {
                Command::Card { to, card, .. } => Some((*seq, *to, *card)),
                _ => None,
            });
        let Some((seq, to, Some(card))) = last_card else {
            return false;
        };
        let window = self.frames(DIVIDE_WINDOW_SECS);
        let Some(i) = self
            .delivered
            .iter()
            .rposition(|d| d.seq == seq && d.landed + window >= frame)
        else {
            return false;
        };
        if to != seat {
            return false;
        }
        let meta = Meta {
            frame: Some(frame),
            ..Meta::default()
        };
        // The card pulled away makes the second hand: shown after the
        // divide, as that hand's. (Shown before it, it would be taken for
        // the first of the pair's cards face down, and the second hand's
        // card, shown later, for a card seen twice.)
        let show = Line::Show {
            player: player.to_owned(),
            hand: Some(2),
            cards: vec![card],
        };
        let correct = |with: Option<Line>, reason: &str| Line::Correct {
            line: seq,
            with: with.map(Box::new),
            reason: reason.to_owned(),
        };
        let reason =
            "the camera took a card of a divided pair, turned up and pulled apart, for a new card";
        if self
            .game
            .apply(meta.clone(), correct(None, reason))
            .is_err()
        {
            return false;
        }
        if self.game.apply(meta.clone(), divide.clone()).is_ok() {
            tracing::debug!(frame, "a divided pair's card: line {seq} is a card shown");
            self.delivered[i].line = show.to_json(&Meta::default());
            match self.game.apply(meta, show) {
                Ok(_) => {
                    if let Some((shown, _)) = self.game.in_force().last() {
                        self.delivered[i].seq = *shown;
                    }
                }
                // Its card stays face down: the showdown asks the dealer.
                Err(e) => tracing::warn!(frame, "the divided pair's card, shown: {e}"),
            }
            // The face-down card turned up and pulled away is not on the
            // table any more: its track goes, so that no card dealt where it
            // lay is taken for it turned up.
            let landed = self.delivered[i].landed;
            let turned: Vec<u64> = self
                .tracker
                .on_table()
                .filter(|&(track, _, card)| {
                    card.is_none()
                        && self.placed.get(&track).is_some_and(|&(s, _)| s == seat)
                        && self.tracker.last_seen(track).is_some_and(|l| l < landed)
                })
                .map(|(track, ..)| track)
                .collect();
            self.tracker.leave(&turned);
            for track in &turned {
                self.placed.remove(track);
            }
            return true;
        }
        let dealt = Line::Card {
            to: player.to_owned(),
            hand: None,
            card: Some(card),
        };
        let put_back = correct(Some(dealt), "the divide was refused all the same");
        if let Err(e) = self.game.apply(meta, put_back) {
            tracing::warn!(frame, "line {seq} could not be put back: {e}");
        }
        false
    }

    /// The face-up card of `track` is `seat`'s card turned up: shown (its
    /// line noted for the track). Whether the engine took it.
    fn show(&mut self, track: u64, seat: Seat, card: pone_engine::Card, frame: u64) -> bool {
        let line = Line::Show {
            player: self.game.sitting().state().name(seat).to_owned(),
            hand: None,
            cards: vec![card],
        };
        let shown = self.apply(frame, line, Some(frame));
        if shown {
            self.note_line(track);
            self.turned_up_at.insert(seat, frame);
        }
        shown
    }

    /// A face-up card coming to rest at the place of a player (not the one
    /// due a card) who has just turned up another card
    /// ([`TURNED_UP_TOGETHER_SECS`]) and still has one face down: that card
    /// turned up. Shown, and placed at his seat.
    fn turned_up_together(
        &mut self,
        track: u64,
        due: Seat,
        here: [f32; 2],
        card: pone_engine::Card,
        frame: u64,
    ) -> bool {
        let Some(seat) = self.seat_at(here) else {
            return false;
        };
        let Some(&when) = self.turned_up_at.get(&seat) else {
            return false;
        };
        let window = self.frames(TURNED_UP_TOGETHER_SECS).max(1);
        if seat == due
            || frame.abs_diff(when) > window
            || !has_face_down(self.game.sitting().state(), seat)
            || !self.show(track, seat, card, frame)
        {
            return false;
        }
        tracing::debug!(track, %card, "turned up with the card before it");
        self.place(track, seat, here);
        true
    }

    /// The journal line just put in is the card of `track`.
    fn note_line(&mut self, track: u64) {
        if let Some(&(seq, _)) = self.game.in_force().last() {
            self.lines.insert(track, seq);
        }
    }

    /// A face-up card counted unsurely, read surely since as another card:
    /// its line is corrected, with the reason.
    fn reread(
        &mut self,
        track: u64,
        frame: u64,
        was: pone_engine::Card,
        card: pone_engine::Card,
        confidence: f32,
    ) {
        let reason = format!(
            "the camera read the card again: {card} ({:.0}% sure), not {was} as first read",
            confidence * 100.0
        );
        if let Some(&seq) = self.lines.get(&track) {
            self.correct_card(seq, frame, was, card, reason);
        }
    }

    /// Puts `card` in the place of `was` in journal line `seq`, giving
    /// `reason`: whether it went in (a refusal is a question).
    fn correct_card(
        &mut self,
        seq: u64,
        frame: u64,
        was: pone_engine::Card,
        card: pone_engine::Card,
        reason: String,
    ) -> bool {
        let state = self.game.sitting().state();
        let command = self.command_at(seq).cloned();
        let Some((_, Some(old), with)) = command.and_then(|c| c.with_card(card)) else {
            return false;
        };
        if old != was {
            return false;
        }
        let correction = Line::Correct {
            line: seq,
            with: Some(Box::new(Line::from_command(&with, state))),
            reason,
        };
        let meta = Meta {
            frame: Some(frame),
            ..Meta::default()
        };
        match self.game.apply(meta, correction) {
            Ok(_) => {
                tracing::debug!(frame, "line {seq} read again: {card}, not {was}");
                self.tracker.put_right(was, Some(card));
                for q in &mut self.questions {
                    if q.about == Some(seq) && q.answered.is_none() {
                        q.answered = Some(format!("read again: {card}"));
                    }
                }
                true
            }
            Err(e) => {
                self.ask(
                    frame,
                    format!("the card read {was} reads {card} now, but: {e}"),
                );
                false
            }
        }
    }

    /// The dealer shows a hand (his answer when the showdown waits for it)
    /// that the engine refuses because the camera read one of its cards
    /// turned up as another: each card the camera gave the player that the
    /// dealer does not name is put right as the one card he names, and the
    /// camera did not give, of the same rank (or else the same suit, or else
    /// the one he names at its place in the hand); then the show goes in.
    /// The dealer looks at the real cards: his word wins, and the journal
    /// says so. Whether the show went in.
    fn dealer_shows_over_a_misreading(&mut self, frame: u64, line: &Line) -> bool {
        let Line::Show { player, cards, .. } = line else {
            return false;
        };
        let state = self.game.sitting().state();
        let Some(seat) = state.seat(player) else {
            return false;
        };
        // The player's cards known now (the camera's), each with the last
        // journal line that gave it him.
        let known: Vec<pone_engine::Card> = state
            .seat_round(seat)
            .map(|r| r.hands.iter().flat_map(|h| h.cards.known()).collect())
            .unwrap_or_default();
        let line_of = |card: pone_engine::Card| {
            self.game
                .in_force()
                .iter()
                .rev()
                .find_map(|(seq, command)| {
                    let (to, old, _) = command.with_card(card)?;
                    (to == seat && old == Some(card)).then_some(*seq)
                })
        };
        let misread: Vec<(u64, pone_engine::Card)> = known
            .iter()
            .copied()
            .filter(|c| !cards.contains(c))
            .filter_map(|c| line_of(c).map(|seq| (seq, c)))
            .collect();
        if misread.is_empty() {
            return false;
        }
        let unseen: Vec<pone_engine::Card> = cards
            .iter()
            .copied()
            .filter(|c| !known.contains(c))
            .collect();
        // The card the dealer names at the misread card's place in its hand
        // (he shows a hand's cards in the order dealt).
        let in_place = |was: pone_engine::Card| {
            let round = state.seat_round(seat)?;
            let slots = round
                .hands
                .iter()
                .find(|h| h.cards.contains(was))?
                .cards
                .slots();
            let k = slots.iter().position(|s| *s == Some(was))?;
            (slots.len() == cards.len()).then(|| cards[k])
        };
        let misread: Vec<(u64, pone_engine::Card, Option<pone_engine::Card>)> = misread
            .into_iter()
            .map(|(seq, was)| (seq, was, in_place(was).filter(|c| unseen.contains(c))))
            .collect();
        for (seq, was, placed) in misread {
            let alike = |same: &dyn Fn(&pone_engine::Card) -> bool| {
                let found: Vec<_> = unseen.iter().copied().filter(|c| same(c)).collect();
                (found.len() == 1).then(|| found[0])
            };
            // Of its rank, or else of its suit, or else at its place.
            let Some(card) = alike(&|c| c.rank == was.rank)
                .or_else(|| alike(&|c| c.suit == was.suit))
                .or(placed)
            else {
                return false;
            };
            let reason = format!("the dealer shows {player}'s {card} where the camera read {was}");
            if !self.correct_card(seq, frame, was, card, reason) {
                return false;
            }
        }
        self.apply_put_right(frame, line.clone())
    }

    /// The dealer shows a hand (his answer when the showdown waits for it)
    /// naming a card the camera gave another player this round, face up:
    /// that was a card already on the table found again as a new box and
    /// read as another (a drawn row's cards overlap), not a card dealt. Its
    /// line is struck, the reason in the journal, and the show goes in.
    /// The dealer looks at the real cards: his word wins. Whether the show
    /// went in; when it does not, nothing is struck.
    fn dealer_shows_a_card_given_elsewhere(&mut self, frame: u64, line: &Line) -> bool {
        let Line::Show { player, cards, .. } = line else {
            return false;
        };
        let state = self.game.sitting().state();
        let Some(seat) = state.seat(player) else {
            return false;
        };
        let camera_lines: Vec<u64> = self.delivered.iter().map(|d| d.seq).collect();
        // Each named card in another player's hand of this round, with the
        // camera's line that gave it him.
        let elsewhere: Vec<(u64, pone_engine::Card, String)> = cards
            .iter()
            .filter_map(|&card| {
                let (seq, to) = self.game.in_force().iter().rev().find_map(|(seq, c)| {
                    let (to, old, _) = c.with_card(card)?;
                    (old == Some(card)).then_some((*seq, to))
                })?;
                let in_hand = state
                    .seat_round(to)
                    .is_some_and(|r| r.hands.iter().any(|h| h.cards.known().any(|c| c == card)));
                (to != seat && in_hand && camera_lines.contains(&seq))
                    .then(|| (seq, card, state.name(to).to_owned()))
            })
            .collect();
        if elsewhere.is_empty() {
            return false;
        }
        let corrections: Vec<(u64, Line)> = elsewhere
            .iter()
            .map(|(seq, card, to)| {
                (
                    *seq,
                    Line::Correct {
                        line: *seq,
                        with: None,
                        reason: format!(
                            "the dealer shows {card} in {player}'s hand: the camera's {card} to {to} was a card on the table found again"
                        ),
                    },
                )
            })
            .collect();
        if !self.show_after_corrections(frame, line, corrections) {
            return false;
        }
        for (_, card, _) in &elsewhere {
            self.tracker.put_right(*card, None);
        }
        true
    }

    /// A dealer's show of a hand (`line`) as the rules for his shows read
    /// it: whose, the cards named, and what the hand holds now.
    fn hand_shown<'a>(&self, line: &'a Line) -> Option<HandShown<'a>> {
        let Line::Show {
            player,
            hand,
            cards,
        } = line
        else {
            return None;
        };
        let state = self.game.sitting().state();
        let seat = state.seat(player)?;
        let held = state.hand(seat, hand.unwrap_or(1))?.cards.slots().to_vec();
        Some(HandShown {
            player,
            hand: *hand,
            cards,
            seat,
            held,
        })
    }

    /// Puts in `corrections` of the camera's lines (each with the line it
    /// corrects), then the dealer's show `line`, on a copy of the game,
    /// which becomes the game when all go in: the journal only grows, and
    /// the lines corrected are no longer the camera's cards'. Whether it
    /// all went in; when it does not, nothing changes.
    fn show_after_corrections(
        &mut self,
        frame: u64,
        line: &Line,
        corrections: Vec<(u64, Line)>,
    ) -> bool {
        let meta = Meta {
            frame: Some(frame),
            ..Meta::default()
        };
        let mut trial = self.game.clone();
        let mut corrected = Vec::with_capacity(corrections.len());
        for (seq, correction) in corrections {
            if trial.apply(meta.clone(), correction).is_err() {
                return false;
            }
            corrected.push(seq);
        }
        let text = line.to_json(&Meta::default());
        let Ok(events) = trial.apply(meta, line.clone()) else {
            return false;
        };
        let events = events.to_vec();
        self.game = trial;
        self.applied(frame, text, None, &events);
        self.lines.retain(|_, seq| !corrected.contains(seq));
        true
    }

    /// The dealer shows a hand whole, in the order dealt (his answer when
    /// the showdown waits for it), naming fewer cards than it holds: a
    /// card the camera gave it face up as a card drawn that he names as its
    /// first or second card (dealt face down) was that card turned up,
    /// found on the camera's return as a card drawn (blind seed 90 at 10
    /// fps, the camera out from 13 s to 14.5 s: Bob's 4C, turned up for the
    /// showdown while the camera was out, went in as a card he drew; his
    /// show named nothing new, his hand kept a card face down, and the
    /// round never settled). The camera's line for it is struck, the reason
    /// in the journal, and the show goes in. Whether it went in; when it
    /// does not, nothing is struck.
    fn dealer_shows_a_card_turned_up_taken_for_drawn(&mut self, frame: u64, line: &Line) -> bool {
        let Some(HandShown {
            player,
            cards,
            seat,
            held,
            ..
        }) = self.hand_shown(line)
        else {
            return false;
        };
        if cards.len() < 2 || cards.len() >= held.len() {
            return false;
        }
        // Named as the first or second card dealt (dealt face down), held
        // face up past them by the camera's line as a card drawn.
        let camera_lines: Vec<u64> = self.delivered.iter().map(|d| d.seq).collect();
        let mut struck = Vec::new();
        for &card in &cards[..2] {
            if !held[2..].contains(&Some(card)) {
                continue;
            }
            let drawn = self.game.in_force().iter().rev().find_map(|(seq, c)| {
                matches!(c, Command::Card { to, card: Some(c), .. } if *to == seat && *c == card)
                    .then_some(*seq)
            });
            let Some(seq) = drawn.filter(|seq| camera_lines.contains(seq)) else {
                return false;
            };
            struck.push((seq, card));
        }
        // Those struck, the hand is the cards named: each card it holds
        // face up named.
        let known_named = held.iter().flatten().all(|c| cards.contains(c));
        if struck.is_empty() || struck.len() != held.len() - cards.len() || !known_named {
            return false;
        }
        let corrections = struck
            .iter()
            .map(|&(seq, card)| {
                (
                    seq,
                    Line::Correct {
                        line: seq,
                        with: None,
                        reason: format!(
                            "the dealer shows {card} in {player}'s hand where a card lay face down: the camera's {card} drawn was that card turned up"
                        ),
                    },
                )
            })
            .collect();
        if !self.show_after_corrections(frame, line, corrections) {
            return false;
        }
        tracing::debug!(
            ?struck,
            "the dealer's show: cards drawn were cards turned up"
        );
        true
    }

    /// The dealer shows a hand whole, in the order dealt, naming as a card
    /// drawn (past the first two) a card the camera showed turned up in
    /// that hand: it was the card drawn, landing on a card face down and
    /// taken for it turned up (blind seed 85 at 10 fps: Cat's QS, drawn
    /// onto her 3H, went in as the 3H turned up, and the camera, out from
    /// 15 s to 16.5 s, never saw the 3H; the show was refused). The
    /// camera's show becomes that card drawn, the reason in the journal,
    /// and the show goes in. Whether it went in; when it does not, nothing
    /// is struck.
    fn dealer_shows_a_card_drawn_taken_for_turned_up(&mut self, frame: u64, line: &Line) -> bool {
        let Some(HandShown {
            player,
            hand,
            cards,
            seat,
            held,
        }) = self.hand_shown(line)
        else {
            return false;
        };
        // The camera's lines for the faces it saw, by their tracks.
        let camera_lines: Vec<u64> = self.lines.values().copied().collect();
        let mut struck = Vec::new();
        for &card in cards.iter().skip(2) {
            if !held.contains(&Some(card)) {
                continue;
            }
            let shown = self.game.in_force().iter().rev().find_map(|(seq, c)| {
                matches!(c, Command::Show { player: p, cards, .. } if *p == seat && cards[..] == [card])
                    .then_some(*seq)
            });
            let Some(seq) = shown.filter(|seq| camera_lines.contains(seq)) else {
                return false;
            };
            struck.push((seq, card));
        }
        if struck.is_empty() {
            return false;
        }
        let corrections = struck
            .iter()
            .map(|&(seq, card)| {
                (
                    seq,
                    Line::Correct {
                        line: seq,
                        with: Some(Box::new(Line::Card {
                            to: player.to_owned(),
                            hand,
                            card: Some(card),
                        })),
                        reason: format!(
                            "the dealer shows {card} drawn in {player}'s hand: the camera's {card} turned up was that card drawn, landing on a card face down"
                        ),
                    },
                )
            })
            .collect();
        if !self.show_after_corrections(frame, line, corrections) {
            return false;
        }
        tracing::debug!(
            ?struck,
            "the dealer's show: cards turned up were cards drawn"
        );
        true
    }

    /// Where the cards a hand shown whole lacks go in
    /// ([`Play::dealer_shows_cards_drawn_hidden`]), among the lines in
    /// force: `None` when the show does not fit the hand so.
    fn where_missed_cards_go(
        &self,
        seat: Seat,
        hand: Option<u8>,
        mut held: Vec<Option<pone_engine::Card>>,
        cards: &[pone_engine::Card],
    ) -> Option<MissedCards> {
        // The second card missed, and the card given in its place drawn
        // after it: the line that gave that card gives the second card
        // named, and the card goes in as one missed.
        let second = second_card_drawn(&held, cards);
        if let Some((_, named)) = second {
            held[1] = Some(named);
        }
        let missed = cards_missed(&held, cards)?;
        // The line each card missed goes in before: the line in force
        // that gave the hand the card it lies before, or the first line
        // after the hand's last card (or else its "content").
        let in_force = self.game.in_force();
        let gave = |card: pone_engine::Card| {
            in_force.iter().rposition(|(_, c)| {
                matches!(c, Command::Card { to, card: Some(c), .. } if *to == seat && *c == card)
            })
        };
        let content = || {
            in_force.iter().rposition(|(_, c)| {
                matches!(c, Command::Content { player, hand: h } if *player == seat && h.unwrap_or(1) == hand.unwrap_or(1))
            })
        };
        let mut before = Vec::with_capacity(missed.len());
        for &(next, card) in &missed {
            let at = match next {
                Some(next) => gave(next),
                None => match held.last().copied().flatten() {
                    Some(last) if held.len() > 2 => gave(last).map(|k| k + 1),
                    _ => content(),
                },
            };
            before.push((at?, card));
        }
        // The line that gave the card drawn as the second card, and the
        // second card named, which it gives now.
        let replaced = match second {
            Some((given, named)) => Some((gave(given)?, named)),
            None => None,
        };
        // The card given is the camera's still; the second card named is
        // the one new to the pack.
        let new = missed
            .iter()
            .map(|&(_, card)| card)
            .filter(|&card| second.is_none_or(|(given, _)| card != given))
            .chain(second.map(|(_, named)| named))
            .collect();
        Some(MissedCards {
            before,
            replaced,
            second,
            new,
        })
    }

    /// The dealer shows a hand whole, in the order dealt (his answer when
    /// the showdown waits for it), naming cards drawn that it lacks, among
    /// or after those the camera saw: they were drawn where it could not
    /// see them (blind seed 89 at 10 fps, the camera out from 13 s to
    /// 14.5 s: Cat's 2H, drawn while it was out, lay under the 4C she drew
    /// next, and her show was refused). On a copy of the game the lines in
    /// force from the first such card's place on are struck, and put in
    /// again with the cards missed at their places, then the show. A second
    /// card named that the hand lacks, where the card it holds second is
    /// named drawn, was missed as the camera went out: the line that gave
    /// that card gives the second card, and the card goes in as drawn
    /// ([`second_card_drawn`]). Whether it all went in; when it does not,
    /// nothing changes.
    fn dealer_shows_cards_drawn_hidden(&mut self, frame: u64, line: &Line) -> bool {
        let Some(HandShown {
            player,
            hand,
            cards,
            seat,
            held,
        }) = self.hand_shown(line)
        else {
            return false;
        };
        let Some(MissedCards {
            before,
            replaced,
            second,
            new,
        }) = self.where_missed_cards_go(seat, hand, held, cards)
        else {
            return false;
        };
        let in_force = self.game.in_force();
        let Some(from) = before
            .iter()
            .map(|&(at, _)| at)
            .chain(replaced.map(|(at, _)| at))
            .min()
        else {
            return false;
        };
        let struck: Vec<(u64, Command)> = in_force[from..].to_vec();
        let seqs: Vec<u64> = struck.iter().map(|(seq, _)| *seq).collect();
        let reason = match second {
            Some((given, named)) => format!(
                "the dealer shows {player}'s hand: its second card {named} was never seen, and the camera's {given} was a card drawn: put in again after them"
            ),
            None => format!(
                "the dealer shows {player}'s hand with cards drawn the camera did not see: put in again after them"
            ),
        };
        let Some(mut trial) = self.struck_on_a_copy(frame, &seqs, &reason) else {
            return false;
        };
        let meta = Meta {
            frame: Some(frame),
            ..Meta::default()
        };
        let missed_card = |card| Line::Card {
            to: player.to_owned(),
            hand,
            card: Some(card),
        };
        let last = |trial: &Game| trial.in_force().last().map(|(s, _)| *s);
        let mut went_in = Vec::new();
        let mut renumbered = BTreeMap::new();
        // Where each card missed went in, for the camera's line of the card
        // given as the second to follow it there.
        let mut put_in = BTreeMap::new();
        for (k, (seq, command)) in struck.iter().enumerate() {
            for &(_, card) in before.iter().filter(|(at, _)| *at == from + k) {
                if !put_in_logged(&mut trial, &meta, missed_card(card), &mut went_in) {
                    return false;
                }
                put_in.insert(card, last(&trial));
            }
            match replaced {
                Some((at, named)) if at == from + k => {
                    if !put_in_logged(&mut trial, &meta, missed_card(named), &mut went_in) {
                        return false;
                    }
                }
                _ => {
                    let again = Line::from_command(command, trial.sitting().state());
                    if trial.apply(meta.clone(), again).is_err() {
                        return false;
                    }
                    renumbered.insert(*seq, last(&trial));
                }
            }
        }
        for &(_, card) in before.iter().filter(|(at, _)| *at == from + struck.len()) {
            if !put_in_logged(&mut trial, &meta, missed_card(card), &mut went_in) {
                return false;
            }
            put_in.insert(card, last(&trial));
        }
        if let (Some((given, _)), Some((at, _))) = (second, replaced) {
            renumbered.insert(struck[at - from].0, put_in.get(&given).copied().flatten());
        }
        if !put_in_logged(&mut trial, &meta, line.clone(), &mut went_in) {
            return false;
        }
        self.game = trial;
        self.renumber(&renumbered);
        self.deck_sense_put_right(&[], &new);
        tracing::debug!(
            ?new,
            "the dealer's show: cards drawn the camera did not see"
        );
        for (text, events) in went_in {
            self.applied(frame, text, None, &events);
        }
        true
    }

    /// The dealer declares his natural after the camera turned up a
    /// player's natural and it was paid (seed 69 at 30 fps: Bob's KH and AH
    /// found turned up in the frame Ann declared hers, her natural refused).
    /// He declares his at once, before the players': the camera's shows
    /// since the deal's last card are struck, his natural goes in, and they
    /// are shown again after it, where a natural ties his. A show that no
    /// longer goes in is dropped. Whether his natural went in; when it does
    /// not, nothing changes.
    fn dealer_natural_before_the_shows(&mut self, frame: u64, line: &Line) -> bool {
        let Line::Natural { player, .. } = line else {
            return false;
        };
        let state = self.game.sitting().state();
        if state.seat(player).is_none() || state.seat(player) != state.dealer() {
            return false;
        }
        let camera: BTreeSet<u64> = self.delivered.iter().map(|d| d.seq).collect();
        let mut shows: Vec<(u64, Line)> = self
            .game
            .in_force()
            .iter()
            .rev()
            .take_while(|(seq, command)| {
                matches!(command, Command::Show { .. }) && camera.contains(seq)
            })
            .filter_map(|(seq, _)| {
                let entry = self.game.journal().iter().find(|e| e.seq == *seq)?;
                Some((*seq, entry.line.clone()))
            })
            .collect();
        if shows.is_empty() {
            return false;
        }
        shows.reverse();
        let meta = Meta {
            frame: Some(frame),
            ..Meta::default()
        };
        // Struck and put in again on a copy, which becomes the game when his
        // natural goes in.
        let struck: Vec<u64> = shows.iter().map(|(seq, _)| *seq).collect();
        let reason = format!("{player} declares the dealer's natural first: shown again after it");
        let Some(mut trial) = self.struck_on_a_copy(frame, &struck, &reason) else {
            return false;
        };
        let text = line.to_json(&Meta::default());
        let Ok(events) = trial.apply(meta.clone(), line.clone()) else {
            return false;
        };
        let mut went_in = vec![(text, events.to_vec())];
        // Each struck line's number, and its number shown again (if it is).
        let mut renumbered = BTreeMap::new();
        for (seq, show) in shows {
            let text = show.to_json(&Meta::default());
            match trial.apply(meta.clone(), show) {
                Ok(events) => {
                    let events = events.to_vec();
                    renumbered.insert(seq, trial.in_force().last().map(|(s, _)| *s));
                    went_in.push((text, events));
                }
                Err(e) => {
                    tracing::debug!(frame, "{text} is dropped after the dealer's natural: {e}");
                    renumbered.insert(seq, None);
                }
            }
        }
        self.game = trial;
        self.renumber(&renumbered);
        for (text, events) in went_in {
            tracing::debug!(frame, "applied {text}");
            self.applied(frame, text, None, &events);
        }
        true
    }

    /// On a copy of the game, strikes the lines in force numbered `struck`,
    /// the last first, with `reason` (the journal only grows: the copy
    /// becomes the game once what goes in after them does). `None` when one
    /// will not go.
    fn struck_on_a_copy(&self, frame: u64, struck: &[u64], reason: &str) -> Option<Game> {
        let meta = Meta {
            frame: Some(frame),
            ..Meta::default()
        };
        let mut trial = self.game.clone();
        for &seq in struck.iter().rev() {
            let strike = Line::Correct {
                line: seq,
                with: None,
                reason: reason.to_owned(),
            };
            trial.apply(meta.clone(), strike).ok()?;
        }
        Some(trial)
    }

    /// Lines struck and put in again have new numbers (`renumbered`: each
    /// struck line's number, and its number now, or `None` when it was not
    /// put in again): the camera's cards and faces, and the questions
    /// doubting them, follow; a line not put in again goes from them.
    fn renumber(&mut self, renumbered: &BTreeMap<u64, Option<u64>>) {
        let renumber = |seq: &mut u64| match renumbered.get(seq) {
            Some(Some(now)) => {
                *seq = *now;
                true
            }
            Some(None) => false,
            None => true,
        };
        self.delivered.retain_mut(|d| renumber(&mut d.seq));
        self.lines.retain(|_, seq| renumber(seq));
        for question in &mut self.questions {
            if let Some(seq) = &mut question.about
                && !renumber(seq)
            {
                question.about = None;
            }
        }
    }

    /// The dealer shows his hand in his draw (his answer when the round's
    /// cards went from the table unseen, his card face down with them:
    /// [`Play::hand_to_show`]), naming more cards than it holds face down:
    /// the first he names turn up those face down, and the rest are cards
    /// he drew unseen, in the order named (seed 25 at 10 fps, the camera
    /// out from 3 s to 4.5 s: Bob shows JD 4C JC, the 4C face down, the JC
    /// drawn). Whether it all went in; when it does not, nothing does.
    fn dealer_shows_cards_drawn_unseen(&mut self, frame: u64, line: &Line) -> bool {
        let Line::Show {
            player,
            hand,
            cards,
        } = line
        else {
            return false;
        };
        let Some(waiting @ (_, seat, due_hand)) = self.hand_to_show() else {
            return false;
        };
        let state = self.game.sitting().state();
        let named = state.seat(player) == Some(seat) && hand.is_none_or(|h| h == due_hand);
        if !named || self.draw_waits_for() != Some(waiting) {
            return false;
        }
        let Some(lines) =
            hand_shown_whole(state, seat, due_hand, cards).filter(|lines| lines.len() > 1)
        else {
            return false;
        };
        let meta = Meta {
            frame: Some(frame),
            ..Meta::default()
        };
        // Put in on a copy, which becomes the game when all go in.
        let mut trial = self.game.clone();
        let mut went_in = Vec::new();
        for line in lines {
            if !put_in_logged(&mut trial, &meta, line, &mut went_in) {
                return false;
            }
        }
        // The words refused while the dealer was asked for the hand, taken
        // before the round it ends forgets them (seed 25 at 10 fps on a
        // still table, the camera out from 9 s to 10.5 s: the next round's
        // stakes, refused while he was asked for JD 4C JC, were lost).
        let again = self.refused_waiting_for(waiting);
        self.game = trial;
        for (text, events) in went_in {
            self.applied(frame, text, None, &events);
        }
        self.words_refused_before_the_card(again, "the hand asked for");
        true
    }

    fn ask(&mut self, frame: u64, text: String) {
        self.ask_about(frame, text, None, None);
    }

    /// Asks about the card just put in (the last line in force), read
    /// unsurely: "`what` reads `read` (N% sure)"; the desk's `N` corrects
    /// that line.
    fn doubt_last_card(
        &mut self,
        frame: u64,
        what: &str,
        (read, confidence): (&str, f32),
        at: Option<[f32; 4]>,
    ) {
        let about = self.game.in_force().last().map(|(seq, _)| *seq);
        let text = format!("{what} reads {read} ({:.0}% sure)", confidence * 100.0);
        self.ask_about(frame, text, about, at);
    }

    fn ask_slip(&mut self, frame: u64, text: String, slip: Slip) {
        self.raise(Question {
            frame,
            text,
            about: None,
            at: None,
            slip: Some(slip),
            natural: None,
            answered: None,
            wants: None,
        });
    }

    fn ask_about(&mut self, frame: u64, text: String, about: Option<u64>, at: Option<[f32; 4]>) {
        self.raise(Question {
            frame,
            text,
            about,
            at,
            ..Question::default()
        });
    }

    /// Asks the dealer for a card the camera never saw: `wants` says which,
    /// for the desk to put it in as he types it.
    fn ask_for(&mut self, frame: u64, text: String, wants: Wanted) {
        self.raise(Question {
            frame,
            text,
            wants: Some(wants),
            ..Question::default()
        });
    }

    fn raise(&mut self, question: Question) {
        tracing::warn!(question.frame, "{}", question.text);
        self.questions.push(question);
    }
}

/// The cards a command names: a card dealt face up, the cards shown.
fn command_cards(command: &Command) -> Vec<pone_engine::Card> {
    match command {
        Command::Card {
            card: Some(card), ..
        } => vec![*card],
        Command::Show { cards, .. } => cards.to_vec(),
        _ => Vec::new(),
    }
}

/// The cards a line names, as [`command_cards`].
fn line_cards(line: &Line) -> Vec<pone_engine::Card> {
    match line {
        Line::Card {
            card: Some(card), ..
        } => vec![*card],
        Line::Show { cards, .. } => cards.clone(),
        _ => Vec::new(),
    }
}

/// Which of `seat`'s hands `hand` is, in words for a question: ` (hand 2)`
/// when he divided a pair, nothing when he holds one hand.
fn which_hand(state: &State, seat: Seat, hand: u8) -> String {
    if state.seat_round(seat).is_some_and(|sr| sr.hands.len() > 1) {
        format!(" (hand {hand})")
    } else {
        String::new()
    }
}

/// Whether `seat`'s one hand still lies face down, as dealt: no natural
/// declared, not divided, not over (thrown to the pone).
fn waits_face_down(state: &State, seat: Seat) -> bool {
    state.seat_round(seat).is_some_and(|round| {
        matches!(round.hands.as_slice(), [hand]
            if hand.declared.is_none()
                && matches!(hand.state, HandState::Open | HandState::Stood))
    })
}

/// What the card after one come to rest at the next seat's place says
/// ([`Play::due_seats_card_unseen`]).
enum NextCard {
    /// That card moved or went from sight: the dealer's slip, put right.
    Moved,
    /// A card at the due seat's place (the fact's index), and whether it
    /// came to rest soon enough to be the due seat's card seen late.
    AtTheDueSeat(usize, bool),
    /// A card dealt at the place of the seat after next: the due seat's
    /// card went unseen.
    AtTheSeatAfterNext,
}

/// Which slip a card at `at`'s place is, when the deal gives it to `due`:
/// in the draw, the wrong seat; round the table, the player after the one
/// due (that one skipped) or another (out of order).
fn slip_kind(state: &pone_engine::sitting::State, due: Seat, at: Seat) -> Slip {
    if matches!(state.phase(), Phase::Drawing { .. } | Phase::Dealer) {
        Slip::WrongSeat
    } else if state.left_of(due) == at {
        Slip::PlayerSkipped
    } else {
        Slip::OutOfOrder
    }
}

/// Whether the first or second cards go round the table.
fn the_deal_goes_round(phase: Phase) -> bool {
    matches!(phase, Phase::FirstCards { .. } | Phase::SecondCards { .. })
}

/// Whether any of `seat`'s cards this round lies face down.
fn has_face_down(state: &pone_engine::sitting::State, seat: Seat) -> bool {
    state
        .seat_round(seat)
        .is_some_and(|r| r.hands.iter().any(|h| h.cards.unseen() > 0))
}

fn fact_frame(fact: &Fact) -> u64 {
    match fact {
        Fact::Landed { frame, .. }
        | Fact::TurnedUp { frame, .. }
        | Fact::Reread { frame, .. }
        | Fact::Moved { frame, .. }
        | Fact::Gone { frame, .. } => *frame,
    }
}

#[cfg(test)]
mod tests {
    use super::{DealerScript, Play, SeatZones, Slip, cards_missed, second_card_drawn, slip_kind};
    use crate::tracker::TrackerOptions;
    use pone_engine::Seat;
    use std::time::Duration;

    /// Frames 1.5 s apart after frames 0.1 s apart: the camera was out. A
    /// machine reading a frame every 2 s from the start is no camera out.
    #[test]
    fn a_gap_between_frames_is_the_camera_out_but_a_slow_reader_is_not() {
        let script = || {
            DealerScript::parse(r#"{"t":"table","players":["Ann","Bob"],"frame":0}"#)
                .expect("a table")
        };
        let mut play = Play::new(script(), 10.0, TrackerOptions::default()).expect("a table");
        for frame in 0..10 {
            play.frame(frame, Duration::from_millis(frame * 100), &[]);
        }
        assert!(play.back.is_none());
        play.frame(25, Duration::from_millis(2500), &[]);
        assert!(
            play.back
                .is_some_and(|back| back.last == 9 && back.first == 25)
        );

        // (Its first gap, with none before to compare, is taken for one.)
        let mut slow = Play::new(script(), 10.0, TrackerOptions::default()).expect("a table");
        for frame in 0..10 {
            slow.frame(frame, Duration::from_secs(2 * frame), &[]);
            assert!(
                slow.back.is_none_or(|back| back.first <= 1),
                "frame {frame}"
            );
        }
    }

    /// How far from a place a card seen in part may lie: a box cut by the
    /// frame's edge goes on past it, a short box within the frame may lie
    /// nearer by half the part hidden.
    #[test]
    fn a_card_seen_in_part_lies_where_the_rest_of_it_may() {
        let script = DealerScript::parse(r#"{"t":"table","players":["Ann","Bob"],"frame":0}"#)
            .expect("a table");
        let zones = SeatZones {
            anchors: vec![Some([740.0, 90.0]), Some([330.0, 540.0])],
            stacks: Vec::new(),
            card_size: 100.0,
        };
        let mut play = Play::new(script, 10.0, TrackerOptions::default())
            .expect("a table")
            .with_zones(zones)
            .expect("zones for two seats");
        play.frame_size(1280, 720);
        let close = |a: f32, b: f32| (a - b).abs() < 0.01;
        // A whole card: its centre.
        assert!(close(
            play.least_off([0.0, 0.0], [30.0, 40.0, 100.0, 140.0]),
            65.0f32.hypot(90.0)
        ));
        // Cut by the top edge, 43 high: it goes on to a card's short side
        // (71.6) above its foot, 28 further from a place below it.
        let short = 100.0 * 63.0 / 88.0;
        let top = play.least_off([734.0, 90.0], [698.0, 0.0, 770.0, 43.0]);
        assert!(close(top, 90.0 - (43.0 - 0.5 * short)), "{top}");
        // Cut by the right edge, where the frame's size says it ends.
        let right = play.least_off([1200.0, 300.0], [1240.0, 260.0, 1280.0, 340.0]);
        assert!(close(right, (1240.0 + 0.5 * short) - 1200.0), "{right}");
        // A strip 50 long within the frame: the card may lie 25 nearer.
        let strip = play.least_off([330.0, 540.0], [305.0, 595.0, 355.0, 640.0]);
        assert!(close(strip, 77.5 - 25.0), "{strip}");
    }

    /// A hand shown whole against what it holds: the cards drawn it lacks,
    /// each with the card it lies before; the first two in either order.
    #[test]
    fn a_hand_shown_whole_finds_the_cards_drawn_it_lacks() {
        let card = |s: &str| s.parse::<pone_engine::Card>().expect("a card");
        let cards = |s: &str| s.split(' ').map(card).collect::<Vec<_>>();
        // Seed 89: Cat holds 6C, a card face down, 4C and 4H; the 2H lay
        // under the 4C.
        let held = [Some(card("6C")), None, Some(card("4C")), Some(card("4H"))];
        assert_eq!(
            cards_missed(&held, &cards("6C 2S 2H 4C 4H")),
            Some(vec![(Some(card("4C")), card("2H"))])
        );
        // After the last, and with the first two named the other way round.
        assert_eq!(
            cards_missed(&held, &cards("2S 6C 4C 4H 5D")),
            Some(vec![(None, card("5D"))])
        );
        // Nothing missed, a card held named out of its place, too few
        // turned up, or a card missed among the first two: no fit.
        assert_eq!(cards_missed(&held, &cards("6C 2S 4C 4H")), None);
        assert_eq!(cards_missed(&held, &cards("6C 2S 4H 4C")), None);
        assert_eq!(cards_missed(&held, &cards("6C 4C 2H 4H")), None);
        let two = [Some(card("3S")), None];
        assert_eq!(
            cards_missed(&two, &cards("QH 3S 2H")),
            Some(vec![(None, card("2H"))])
        );
        assert_eq!(cards_missed(&two, &cards("QH 2H")), None);
    }

    /// A hand shown whole whose second card as held is named among the
    /// cards drawn: that card was drawn, and the second card named missed.
    #[test]
    fn a_hand_shown_whole_finds_its_second_card_missed() {
        let card = |s: &str| s.parse::<pone_engine::Card>().expect("a card");
        let cards = |s: &str| s.split(' ').map(card).collect::<Vec<_>>();
        // Blind seed 127: Cat's QS landed face down as the camera went, and
        // her 4H, drawn onto it, went in as her second card.
        let held = [None, Some(card("4H"))];
        assert_eq!(
            second_card_drawn(&held, &cards("4C QS 4H")),
            Some((card("4H"), card("QS")))
        );
        let drawn = [None, Some(card("4H")), Some(card("5D"))];
        assert_eq!(
            second_card_drawn(&drawn, &cards("4C QS 4H 5D")),
            Some((card("4H"), card("QS")))
        );
        // Named second, not named, no more named than held, the second
        // card named held already, or the second face down: no fit.
        assert_eq!(second_card_drawn(&held, &cards("4C 4H 5D")), None);
        assert_eq!(second_card_drawn(&held, &cards("4C QS")), None);
        assert_eq!(second_card_drawn(&drawn, &cards("4C 5D 4H")), None);
        assert_eq!(second_card_drawn(&drawn, &cards("4C 5D 4H 7C")), None);
        assert_eq!(
            second_card_drawn(&[Some(card("3S")), None], &cards("QH 3S 2H")),
            None
        );
    }

    /// Ann deals to Bob, Cat and Dan, then herself; `lines` go on from there.
    fn state_after(lines: &str) -> pone_engine::Game {
        let text = format!(
            "{{\"t\":\"table\",\"players\":[\"Ann\",\"Bob\",\"Cat\",\"Dan\"]}}\n\
             {{\"t\":\"dealer\",\"player\":\"Ann\"}}\n{lines}"
        );
        pone_engine::replay(&text).expect("the journal replays")
    }

    #[test]
    fn a_card_at_the_wrong_place_is_a_player_skipped_out_of_order_or_the_wrong_seat() {
        // Bob's first card is due: one at Cat's place skips Bob, one at
        // Dan's or Ann's is out of order.
        let game = state_after("");
        let state = game.sitting().state();
        assert_eq!(state.due_card(), Some((Seat(1), 1)));
        assert_eq!(slip_kind(state, Seat(1), Seat(2)), Slip::PlayerSkipped);
        assert_eq!(slip_kind(state, Seat(1), Seat(3)), Slip::OutOfOrder);
        assert_eq!(slip_kind(state, Seat(1), Seat(0)), Slip::OutOfOrder);
        // In the draw, Bob's card at Cat's place is the wrong seat.
        let game = state_after(
            "{\"t\":\"card\",\"to\":\"Bob\"}\n{\"t\":\"card\",\"to\":\"Cat\"}\n\
             {\"t\":\"card\",\"to\":\"Dan\"}\n{\"t\":\"card\",\"to\":\"Ann\"}\n\
             {\"t\":\"stake\",\"player\":\"Bob\",\"amount\":1}\n\
             {\"t\":\"stake\",\"player\":\"Cat\",\"amount\":1}\n\
             {\"t\":\"stake\",\"player\":\"Dan\",\"amount\":1}\n\
             {\"t\":\"card\",\"to\":\"Bob\"}\n{\"t\":\"card\",\"to\":\"Cat\"}\n\
             {\"t\":\"card\",\"to\":\"Dan\"}\n{\"t\":\"card\",\"to\":\"Ann\"}\n",
        );
        let state = game.sitting().state();
        assert_eq!(state.due_card(), Some((Seat(1), 1)));
        assert_eq!(slip_kind(state, Seat(1), Seat(2)), Slip::WrongSeat);
    }
}

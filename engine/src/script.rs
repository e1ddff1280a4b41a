//! The text form of commands: one JSON object per line, key `t`, players by name.
//!
//! Table scripts and journals share this grammar. A line may carry `at` (its time,
//! milliseconds since the Unix epoch), `frame` (the camera frame it happened at)
//! and `seq` (its number in a journal) beside its own keys.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::card::Card;
use crate::command::Command;
use crate::eight::Choice;
use crate::rules::HouseRules;
use crate::sitting::State;

/// The journal header's `t`, and the format version this build writes and reads.
pub const JOURNAL_VERSION: u32 = 1;

/// One line of a table script or journal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
#[allow(missing_docs)] // the fields are the grammar's keys, documented on `Command`
pub enum Line {
    /// A journal's first line: the format and its version.
    Journal { version: u32 },
    /// The table: players in seating order (each next one on the left) and house rules.
    Table {
        players: Vec<String>,
        #[serde(default)]
        rules: HouseRules,
    },
    /// The first dealer.
    Dealer { player: String },
    /// The next card to a player; no `card`: dealt unseen.
    Card {
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
    },
    /// A stake on the first card (before the cards, in the eight-round deal's staked games).
    Stake { player: String, amount: u32 },
    /// An election before the cards: `sympathy`, `antipathy`, `red` or `black`.
    Choose { player: String, choice: Choice },
    /// The dealer doubles.
    Double,
    /// A pair divided; `amount` is the stake on the new hand.
    Divide {
        player: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        amount: Option<u32>,
    },
    /// A hand stands.
    Content {
        player: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand: Option<u8>,
    },
    /// Cards turned up.
    Show {
        player: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand: Option<u8>,
        cards: Vec<Card>,
    },
    /// "Over".
    Over {
        player: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand: Option<u8>,
    },
    /// "Natural".
    Natural {
        player: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand: Option<u8>,
    },
    /// Two cards dealt at once: this is the second.
    Surplus {
        player: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
    },
    /// The surplus card goes to the player it was meant for.
    Rectify { player: String },
    /// A card exposed in dealing.
    Exposed { player: String, card: Card },
    /// A card rejected (exposed, or one of two dealt at once).
    Reject {
        player: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
    },
    /// The pack reshuffled for confusion before dealing.
    Reshuffle,
    /// The brulet.
    Brulet {
        bottom: Card,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        top: Option<Card>,
    },
    /// The deal sold.
    Sell { to: String, price: u32 },
    /// The deal declined.
    Decline,
    /// The first dealer found by the first ace (or knave) dealt face up.
    DrawForDeal {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<String>,
        cards: Vec<Card>,
    },
    /// A player leaves.
    Retire { player: String },
    /// Takes back the last command in force, giving the reason when there is one.
    Undo {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// Puts back the last command undone, giving the reason when there is one.
    Redo {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// A word kept in the journal that changes nothing: the dealer's answer
    /// to a question the camera asked, say.
    Note { text: String },
    /// Replaces (or, without `with`, removes) the command of journal line `line`
    /// (its `seq`), giving the reason.
    Correct {
        line: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        with: Option<Box<Line>>,
        reason: String,
    },
}

/// Keys any line may carry beside its own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// Its number in the journal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// When it was accepted, milliseconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<u64>,
    /// The camera frame it happened at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<u64>,
}

/// A line that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LineError {
    /// Not JSON, or not an object with a known `t` and the right keys.
    #[error("{0}")]
    Malformed(String),
    /// A player not at this table.
    #[error("no player called \"{name}\" at this table (players: {players})")]
    UnknownPlayer {
        /// The name given.
        name: String,
        /// The table's players.
        players: String,
    },
    /// A line that is not a command of the game (a table, header or correction).
    #[error("\"{0}\" is not a game command here")]
    NotACommand(&'static str),
}

impl Line {
    /// Reads one line: a JSON object with `t`, plus optional `seq`, `at`, `frame`.
    pub fn parse(text: &str) -> Result<(Line, Meta), LineError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| LineError::Malformed(format!("not valid JSON: {e}")))?;
        let Value::Object(mut map) = value else {
            return Err(LineError::Malformed(
                "expected a JSON object such as {\"t\":\"card\",\"to\":\"Ann\",\"card\":\"9H\"}"
                    .into(),
            ));
        };
        let meta = take_meta(&mut map)?;
        if !map.contains_key("t") {
            return Err(LineError::Malformed(
                "the object has no \"t\" key naming the command".into(),
            ));
        }
        let line = serde_json::from_value(Value::Object(map))
            .map_err(|e| LineError::Malformed(e.to_string()))?;
        Ok((line, meta))
    }

    /// The line as one JSON object, with its meta keys.
    pub fn to_json(&self, meta: &Meta) -> String {
        let mut value = serde_json::to_value(self).unwrap_or(Value::Null);
        if let (Value::Object(map), Ok(Value::Object(extra))) =
            (&mut value, serde_json::to_value(meta))
        {
            map.extend(extra);
        }
        value.to_string()
    }

    /// The command this line gives, with names resolved against the table.
    pub fn command(&self, state: &State) -> Result<Command, LineError> {
        let seat = |name: &String| {
            state.seat(name).ok_or_else(|| LineError::UnknownPlayer {
                name: name.clone(),
                players: state.names().join(", "),
            })
        };
        Ok(match self {
            Line::Journal { .. } => return Err(LineError::NotACommand("journal")),
            Line::Table { .. } => return Err(LineError::NotACommand("table")),
            Line::Undo { .. } => return Err(LineError::NotACommand("undo")),
            Line::Redo { .. } => return Err(LineError::NotACommand("redo")),
            Line::Correct { .. } => return Err(LineError::NotACommand("correct")),
            Line::Note { .. } => return Err(LineError::NotACommand("note")),
            Line::Dealer { player } => Command::Dealer {
                player: seat(player)?,
            },
            Line::Card { to, hand, card } => Command::Card {
                to: seat(to)?,
                hand: *hand,
                card: *card,
            },
            Line::Stake { player, amount } => Command::Stake {
                player: seat(player)?,
                amount: *amount,
            },
            Line::Choose { player, choice } => Command::Choose {
                player: seat(player)?,
                choice: *choice,
            },
            Line::Double => Command::Double,
            Line::Divide {
                player,
                hand,
                amount,
            } => Command::Divide {
                player: seat(player)?,
                hand: *hand,
                amount: *amount,
            },
            Line::Content { player, hand } => Command::Content {
                player: seat(player)?,
                hand: *hand,
            },
            Line::Show {
                player,
                hand,
                cards,
            } => Command::Show {
                player: seat(player)?,
                hand: *hand,
                cards: cards.iter().copied().collect(),
            },
            Line::Over { player, hand } => Command::Over {
                player: seat(player)?,
                hand: *hand,
            },
            Line::Natural { player, hand } => Command::Natural {
                player: seat(player)?,
                hand: *hand,
            },
            Line::Surplus { player, card } => Command::Surplus {
                player: seat(player)?,
                card: *card,
            },
            Line::Rectify { player } => Command::Rectify {
                player: seat(player)?,
            },
            Line::Exposed { player, card } => Command::Exposed {
                player: seat(player)?,
                card: *card,
            },
            Line::Reject { player, card } => Command::Reject {
                player: seat(player)?,
                card: *card,
            },
            Line::Reshuffle => Command::Reshuffle,
            Line::Brulet { bottom, top } => Command::Brulet {
                bottom: *bottom,
                top: *top,
            },
            Line::Sell { to, price } => Command::Sell {
                to: seat(to)?,
                price: *price,
            },
            Line::Decline => Command::Decline,
            Line::Retire { player } => Command::Retire {
                player: seat(player)?,
            },
            Line::DrawForDeal { from, cards } => Command::DrawForDeal {
                from: from.as_ref().map(seat).transpose()?,
                cards: cards.clone(),
            },
        })
    }

    /// The line for a command, with names from the table.
    pub fn from_command(command: &Command, state: &State) -> Line {
        let name = |seat| state.name(seat).to_owned();
        match command.clone() {
            Command::Dealer { player } => Line::Dealer {
                player: name(player),
            },
            Command::Card { to, hand, card } => Line::Card {
                to: name(to),
                hand,
                card,
            },
            Command::Stake { player, amount } => Line::Stake {
                player: name(player),
                amount,
            },
            Command::Choose { player, choice } => Line::Choose {
                player: name(player),
                choice,
            },
            Command::Double => Line::Double,
            Command::Divide {
                player,
                hand,
                amount,
            } => Line::Divide {
                player: name(player),
                hand,
                amount,
            },
            Command::Content { player, hand } => Line::Content {
                player: name(player),
                hand,
            },
            Command::Show {
                player,
                hand,
                cards,
            } => Line::Show {
                player: name(player),
                hand,
                cards: cards.to_vec(),
            },
            Command::Over { player, hand } => Line::Over {
                player: name(player),
                hand,
            },
            Command::Natural { player, hand } => Line::Natural {
                player: name(player),
                hand,
            },
            Command::Surplus { player, card } => Line::Surplus {
                player: name(player),
                card,
            },
            Command::Rectify { player } => Line::Rectify {
                player: name(player),
            },
            Command::Exposed { player, card } => Line::Exposed {
                player: name(player),
                card,
            },
            Command::Reject { player, card } => Line::Reject {
                player: name(player),
                card,
            },
            Command::Reshuffle => Line::Reshuffle,
            Command::Brulet { bottom, top } => Line::Brulet { bottom, top },
            Command::Sell { to, price } => Line::Sell {
                to: name(to),
                price,
            },
            Command::Decline => Line::Decline,
            Command::Retire { player } => Line::Retire {
                player: name(player),
            },
            Command::DrawForDeal { from, cards } => Line::DrawForDeal {
                from: from.map(name),
                cards,
            },
        }
    }
}

fn take_meta(map: &mut Map<String, Value>) -> Result<Meta, LineError> {
    let mut meta = Map::new();
    for key in ["seq", "at", "frame"] {
        if let Some(v) = map.remove(key) {
            meta.insert(key.to_owned(), v);
        }
    }
    serde_json::from_value(Value::Object(meta))
        .map_err(|e| LineError::Malformed(format!("seq, at and frame are whole numbers: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_with_their_meta_keys() {
        let (line, meta) =
            Line::parse(r#"{"t":"card","to":"Ann","card":"10H","frame":12}"#).expect("parses");
        assert_eq!(
            line,
            Line::Card {
                to: "Ann".into(),
                hand: None,
                card: "TH".parse().ok()
            }
        );
        assert_eq!(meta.frame, Some(12));
        let (line, _) = Line::parse(r#"{"t":"double"}"#).expect("parses");
        assert_eq!(line, Line::Double);
        let (line, _) = Line::parse(r#"{"t":"card","to":"Bob"}"#).expect("unseen card");
        assert!(matches!(line, Line::Card { card: None, .. }));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        for (text, needle) in [
            (r#"{"t":"stake","player":"Ann"}"#, "amount"),
            (
                r#"{"t":"stake","player":"Ann","amount":2,"colour":"red"}"#,
                "colour",
            ),
            (r#"{"t":"deal","player":"Ann"}"#, "deal"),
            (r#"{"t":"card","to":"Ann","card":"1X"}"#, "not a card"),
            (r"[1,2]", "object"),
            ("{\"t\":", "JSON"),
            (r#"{"to":"Ann"}"#, "\"t\""),
        ] {
            let err = Line::parse(text).expect_err(text).to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn undo_and_redo_carry_a_reason_or_none() {
        let (line, _) = Line::parse(r#"{"t":"undo"}"#).expect("parses");
        assert_eq!(line, Line::Undo { reason: None });
        assert_eq!(line.to_json(&Meta::default()), r#"{"t":"undo"}"#);
        let text = r#"{"t":"undo","reason":"QH to Bob taken back at the desk"}"#;
        let (line, meta) = Line::parse(text).expect("parses");
        assert_eq!(
            line,
            Line::Undo {
                reason: Some("QH to Bob taken back at the desk".into())
            }
        );
        assert_eq!(line.to_json(&meta), text);
        let (line, _) = Line::parse(r#"{"t":"redo","reason":"put back"}"#).expect("parses");
        assert!(matches!(line, Line::Redo { reason: Some(_) }));
    }

    #[test]
    fn a_line_writes_back_as_it_was_read() {
        let text = r#"{"t":"divide","player":"Bob","amount":1}"#;
        let (line, meta) = Line::parse(text).expect("parses");
        let again = Line::parse(&line.to_json(&meta)).expect("reparses");
        assert_eq!(again, (line, meta));
    }
}

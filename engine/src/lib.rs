//! The rules of Vingt-un as a pure, event-sourced core: commands in, events out.
//!
//! No I/O, no clock, no randomness: time comes in as an argument, and every rule
//! is a function of the state and a command.
//!
//! - [`Card`], [`Rank`], [`Suit`]: the cards, and how they count.
//! - [`Cards`](hand::Cards): a hand, some of whose cards may be unseen.
//! - [`HouseRules`]: what the table agreed before play, with the defaults of `RULES.md`.
//! - [`eight`]: the eight-round deal's games, one a round (house rule `eight_round_deal`).
//! - [`Sitting`]: the state machine. [`Sitting::apply`] takes a [`Command`] and
//!   returns the [`Event`]s it caused, or a [`RuleError`] and no change.
//! - [`Ledger`]: a fold over events: balances, and per round who paid whom and why.
//! - [`Line`]: the text form of commands (a table script or journal line).
//! - [`Game`]: a sitting kept from its journal, with undo, redo and corrections;
//!   [`replay`] reads a journal or table script back.
//! - [`report`]: the outcome as JSON or words, as `pone replay` prints it.
//! - [`odds`]: the chances the seeds quote, computed exactly.
//! - [`autoplay`]: a table that plays itself at random from a caller's seed.

pub mod autoplay;
pub mod card;
pub mod command;
pub mod eight;
pub mod error;
pub mod event;
pub mod hand;
pub mod journal;
pub mod ledger;
pub mod odds;
pub mod report;
pub mod rules;
pub mod script;
pub mod sitting;

pub use card::{Card, Rank, Suit};
pub use command::Command;
pub use error::{RuleError, RuleErrorKind};
pub use event::{Event, Party, Reason, Seat, Settlement};
pub use journal::{Game, GameError, ReplayError, replay};
pub use ledger::Ledger;
pub use rules::HouseRules;
pub use script::Line;
pub use sitting::{Phase, Sitting};

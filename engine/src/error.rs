//! Why a command was refused. A refused command changes nothing.

use crate::card::Card;

/// A command the rules do not allow now: its [`RuleErrorKind`], boxed so that
/// a `Result<(), RuleError>` fits in a register on the engine's hot path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct RuleError(Box<RuleErrorKind>);

impl RuleError {
    /// What kind of refusal this is.
    pub fn kind(&self) -> &RuleErrorKind {
        &self.0
    }
}

impl From<RuleErrorKind> for RuleError {
    fn from(kind: RuleErrorKind) -> RuleError {
        RuleError(Box::new(kind))
    }
}

/// Why a command was refused. Each message names the players and says what
/// would be allowed instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuleErrorKind {
    /// Nothing can be dealt before the table names the dealer.
    #[error(
        "no dealer yet: name the first dealer ({{\"t\":\"dealer\",\"player\":...}}) before the first card"
    )]
    NoDealer,
    /// Something came at the wrong moment of the round.
    #[error("{0}")]
    OutOfTurn(String),
    /// A stake the rules refuse.
    #[error("{0}")]
    Stake(String),
    /// A divide the rules refuse.
    #[error("{0}")]
    Divide(String),
    /// A card that cannot be in the pack now.
    #[error(
        "{card} was already seen in this pack{detail}: a pack holds each card {copies}; if it was an irregularity, record it (exposed, surplus, reject)"
    )]
    CardAlreadySeen {
        /// The card.
        card: Card,
        /// How many of each card the pack holds, in words.
        copies: &'static str,
        /// Where it was seen.
        detail: String,
    },
    /// No card can be dealt: the pack and the pone's pile are both spent.
    #[error("the pack is down to its last card and the pone's pile is empty: no card can be dealt")]
    PackExhausted,
    /// A hand that does not exist or is finished.
    #[error("{0}")]
    Hand(String),
    /// A declaration or show the cards or the moment refuse.
    #[error("{0}")]
    Declaration(String),
    /// Something about the deal (dealer, sale, brulet, retiring) refused.
    #[error("{0}")]
    Deal(String),
}

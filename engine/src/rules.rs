//! The house rules a table agrees before play, with the defaults of `RULES.md`.
//!
//! Every key of the `rules` object of a table script (and of the sitting's TOML)
//! is a field here; a missing key takes its default, an unknown key is an error.

use serde::{Deserialize, Deserializer, Serialize};

use crate::card::Rank;

/// Whom the deal passes to when a player's natural puts the dealer out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DealPasses {
    /// To the player on the dealer's left (the modern way; A, B, C).
    #[default]
    Left,
    /// To the holder of the natural (the old way); with several, the eldest hand.
    Holder,
    /// A natural never puts the dealer out (A: "often agreed").
    Never,
}

/// How much the second stake on a divided pair may be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DivideStake {
    /// Any amount within the limits (A).
    #[default]
    Any,
    /// The same as the first stake (B).
    Same,
}

/// When a pair is divided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DivideWhen {
    /// At the player's turn to draw: "I go on both", then a card on each (B).
    #[default]
    Turn,
    /// Before any drawing, with the second cards (A, DRAWING).
    BeforeDrawing,
}

/// How the first dealer is found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstDealer {
    /// The player dealt the first ace (A, C).
    #[default]
    Ace,
    /// The player dealt the first knave (B note 44).
    Knave,
}

impl FirstDealer {
    /// The rank whose first card turned up names the dealer.
    pub const fn rank(self) -> Rank {
        match self {
            FirstDealer::Ace => Rank::Ace,
            FirstDealer::Knave => Rank::Jack,
        }
    }

    /// That rank's word at the table.
    pub const fn word(self) -> &'static str {
        match self {
            FirstDealer::Ace => "ace",
            FirstDealer::Knave => "knave",
        }
    }
}

/// What a brulet (bottom and top card making a natural) wins the dealer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Brulet {
    /// No brulet: "generally abandoned" (B).
    #[default]
    Off,
    /// Double the minimum stake from each player (B note 44).
    DoubleMinimum,
    /// The limit (maximum stake) from each player (C).
    Limit,
    /// The pool (C: "clears the board of the stakes laid").
    ClearsPool,
}

/// An ace and a tenth card on a divided hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DividedNatural {
    /// A drawn Vingt-un: settled at the end with the others, and it puts nobody out.
    #[default]
    Drawn,
    /// A natural, as C counts "three natural Vingt-uns": paid at once as a natural.
    Natural,
}

/// How the dealer's divided hands settle with the players: no source says, so
/// the table chooses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DealerDivided {
    /// Each of the dealer's hands settles with every standing hand on its own, as
    /// a player's divided hands each settle with the dealer ("when either dealer
    /// or player goes on several cards, he loses on one or more, and thus
    /// neutralizes his gains", C).
    #[default]
    Each,
    /// Only the dealer's best hand settles (the highest not over; over if all are).
    Best,
}

/// The house rules of a sitting. `Default` gives the defaults of `RULES.md`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(clippy::struct_excessive_bools)] // each flag is an independent house rule
pub struct HouseRules {
    /// The least a player may stake on his card, in counters.
    pub min_stake: u32,
    /// The most a player may stake on one card (not what a hand can win or lose).
    pub max_stake: u32,
    /// What a natural is paid, in stakes: 2 (A, B, C) or 4 (B note 46), the
    /// dealer's natural included. A first-round natural is still paid 2.
    pub natural_pays: u32,
    /// The holder of a natural also receives his stake from every other player (A).
    pub natural_bonus_from_players: bool,
    /// Whom the deal passes to when a natural puts the dealer out.
    pub deal_passes: DealPasses,
    /// Each dealer keeps the deal for this many rounds at most (A, B); none: no limit.
    #[serde(deserialize_with = "none_or")]
    pub rounds_per_deal: Option<u32>,
    /// The second stake on a divided pair.
    pub divide_stake: DivideStake,
    /// When a pair is divided.
    pub divide_when: DivideWhen,
    /// What a player's drawn Vingt-un pays against the dealer's drawn Vingt-un,
    /// in stakes: 1 (A, C) or 2 (B).
    pub drawn_21_tie_pays: u32,
    /// How the first dealer is found when the table draws for it.
    pub first_dealer: FirstDealer,
    /// One pack of 52 or two shuffled together (104).
    pub packs: u8,
    /// The ante each player puts into the pool at the start of every deal; none:
    /// no pool. The pool goes to the player whose natural puts the dealer out.
    #[serde(deserialize_with = "none_or")]
    pub pool: Option<u32>,
    /// The brulet, and what it wins.
    pub brulet: Brulet,
    /// The dealer may divide a pair too (A, C).
    pub dealer_may_divide: bool,
    /// An ace and a tenth card on a divided hand.
    pub divided_natural: DividedNatural,
    /// How the dealer's divided hands settle (an open point of the sources).
    pub dealer_divided: DealerDivided,
    /// B's eight-round deal: every deal lasts eight rounds, each played its own
    /// way (ordinary Vingt-un, Imaginary Tens, Blind Vingt-un, Sympathy and
    /// Antipathy, Rouge et Noir, Self and Company, Differences, the Clock), and
    /// then passes to the left; no natural puts the dealer out.
    pub eight_round_deal: bool,
    /// Rouge et Noir in the eight-round deal: the player's cards, 1 (B), or 3
    /// with two of three deciding the colour (B: "in some circles").
    pub rouge_et_noir_cards: u32,
    /// Differences in the eight-round deal: the agreed rate, in counters, for
    /// each point between a player's two cards and the dealer's.
    pub differences_rate: u32,
    /// The Clock in the eight-round deal: the agreed stake the dealer wins from
    /// each player when a card answers its call, or pays each when none does.
    pub clock_stake: u32,
}

impl Default for HouseRules {
    fn default() -> HouseRules {
        HouseRules {
            min_stake: 1,
            max_stake: 12,
            natural_pays: 2,
            natural_bonus_from_players: false,
            deal_passes: DealPasses::Left,
            rounds_per_deal: None,
            divide_stake: DivideStake::Any,
            divide_when: DivideWhen::Turn,
            drawn_21_tie_pays: 1,
            first_dealer: FirstDealer::Ace,
            packs: 1,
            pool: None,
            brulet: Brulet::Off,
            dealer_may_divide: true,
            divided_natural: DividedNatural::Drawn,
            dealer_divided: DealerDivided::Each,
            eight_round_deal: false,
            rouge_et_noir_cards: 1,
            differences_rate: 1,
            clock_stake: 1,
        }
    }
}

/// A house-rule value out of its range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// The stake limits don't make sense.
    #[error(
        "stake limits: min_stake {min} and max_stake {max} must satisfy 1 <= min_stake <= max_stake"
    )]
    Limits {
        /// The minimum given.
        min: u32,
        /// The maximum given.
        max: u32,
    },
    /// A rule that takes one of a few numbers got another.
    #[error("{key} must be one of {allowed}, not {value}")]
    OutOfRange {
        /// The rule key.
        key: &'static str,
        /// What it may be.
        allowed: &'static str,
        /// What it was.
        value: u32,
    },
    /// The brulet clears a pool, but there is none.
    #[error("brulet = \"clears_pool\" needs a pool: set pool to the ante per player")]
    BruletWithoutPool,
    /// The eight-round deal with a rule that cannot go with it.
    #[error("eight_round_deal: {0}")]
    EightRoundDeal(&'static str),
}

impl HouseRules {
    /// Checks the values that serde's types let through.
    pub fn validate(&self) -> Result<(), RulesError> {
        if self.min_stake == 0 || self.min_stake > self.max_stake {
            return Err(RulesError::Limits {
                min: self.min_stake,
                max: self.max_stake,
            });
        }
        let one_of = |key, allowed, value, ok: &[u32]| {
            if ok.contains(&value) {
                Ok(())
            } else {
                Err(RulesError::OutOfRange {
                    key,
                    allowed,
                    value,
                })
            }
        };
        one_of("natural_pays", "2 or 4", self.natural_pays, &[2, 4])?;
        one_of(
            "drawn_21_tie_pays",
            "1 or 2",
            self.drawn_21_tie_pays,
            &[1, 2],
        )?;
        one_of("packs", "1 or 2", u32::from(self.packs), &[1, 2])?;
        if self.rounds_per_deal == Some(0) {
            return Err(RulesError::OutOfRange {
                key: "rounds_per_deal",
                allowed: "a number of rounds from 1, or none",
                value: 0,
            });
        }
        if self.brulet == Brulet::ClearsPool && self.pool.is_none() {
            return Err(RulesError::BruletWithoutPool);
        }
        one_of(
            "rouge_et_noir_cards",
            "1 or 3",
            self.rouge_et_noir_cards,
            &[1, 3],
        )?;
        for (key, value) in [
            ("differences_rate", self.differences_rate),
            ("clock_stake", self.clock_stake),
        ] {
            if value == 0 {
                return Err(RulesError::OutOfRange {
                    key,
                    allowed: "a number of counters from 1",
                    value,
                });
            }
        }
        if self.eight_round_deal {
            if self.rounds_per_deal.is_some() {
                return Err(RulesError::EightRoundDeal(
                    "the deal lasts eight rounds: leave rounds_per_deal out (or none)",
                ));
            }
            if self.pool.is_some() {
                return Err(RulesError::EightRoundDeal(
                    "no natural puts the dealer out, so nothing wins a pool: leave pool out (or none)",
                ));
            }
        }
        Ok(())
    }

    /// Cards in a full pack under these rules.
    pub fn pack_size(&self) -> u16 {
        52 * u16::from(self.packs)
    }
}

/// Accepts a number, `null`, or the word `"none"`.
fn none_or<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NoneOr {
        Number(u32),
        Word(String),
        Null(()),
    }
    match NoneOr::deserialize(deserializer)? {
        NoneOr::Number(n) => Ok(Some(n)),
        NoneOr::Null(()) => Ok(None),
        NoneOr::Word(w) if w.eq_ignore_ascii_case("none") => Ok(None),
        NoneOr::Word(w) => Err(serde::de::Error::custom(format!(
            "expected a number or \"none\", found \"{w}\""
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_keys_take_their_defaults() {
        let rules: HouseRules =
            serde_json::from_str(r#"{"max_stake":6,"pool":"none","rounds_per_deal":3}"#)
                .expect("valid rules");
        assert_eq!(rules.max_stake, 6);
        assert_eq!(rules.min_stake, 1);
        assert_eq!(rules.rounds_per_deal, Some(3));
        assert_eq!(rules.pool, None);
        assert!(rules.validate().is_ok());
    }

    #[test]
    fn unknown_keys_and_bad_values_are_refused() {
        let err =
            serde_json::from_str::<HouseRules>(r#"{"natral_pays":4}"#).expect_err("misspelt key");
        assert!(err.to_string().contains("natral_pays"), "{err}");
        let rules: HouseRules = serde_json::from_str(r#"{"natural_pays":3}"#).expect("parses");
        assert!(rules.validate().is_err());
        let rules: HouseRules =
            serde_json::from_str(r#"{"min_stake":5,"max_stake":2}"#).expect("parses");
        assert!(rules.validate().is_err());
    }
}

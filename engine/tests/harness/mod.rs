//! A scripted table: deal these cards, these players say these words, then
//! assert the settlements. Commands are written short, one per line or split
//! by `;`:
//!
//! ```text
//! dealer Cat
//! deal Ann=9H Bob=8S Cat=7D      one card each, in the order written
//! stake Ann=2 Bob=3
//! card Bob:2 KS                  a card to Bob's hand 2; `card Bob` alone: unseen
//! content Bob:2 | over Ann | natural Ann | divide Bob 1 | show Bob KH 9C
//! choose Ann red                 sympathy, antipathy, red or black
//! ```
//! Anything starting with `{` is passed as a JSON line as it is.

#![allow(dead_code, clippy::missing_panics_doc)] // each test binary uses part of it

use std::collections::BTreeMap;

use pone_engine::event::Party;
use pone_engine::script::{Line, Meta};
use pone_engine::{Event, Game, Reason, RuleError, Settlement};

pub struct Table {
    pub game: Game,
}

fn player(word: &str) -> (String, Option<u8>) {
    match word.split_once(':') {
        Some((p, h)) => (p.to_owned(), Some(h.parse().expect("hand number"))),
        None => (word.to_owned(), None),
    }
}

fn with_hand(mut obj: serde_json::Value, hand: Option<u8>) -> serde_json::Value {
    if let Some(h) = hand {
        obj["hand"] = h.into();
    }
    obj
}

/// The JSON lines for one short command.
pub fn expand(command: &str) -> Vec<String> {
    use serde_json::json;
    let command = command.trim();
    if command.starts_with('{') {
        return vec![command.to_owned()];
    }
    let words: Vec<&str> = command.split_whitespace().collect();
    let (verb, args) = words.split_first().expect("a command");
    let value = match *verb {
        "deal" => {
            return args
                .iter()
                .map(|a| {
                    let (p, c) = a.split_once('=').expect("deal P=C");
                    let (p, hand) = player(p);
                    let mut obj = json!({"t":"card","to":p});
                    if c != "?" {
                        obj["card"] = c.into();
                    }
                    with_hand(obj, hand).to_string()
                })
                .collect();
        }
        "stake" => {
            return args
                .iter()
                .map(|a| {
                    let (p, n) = a.split_once('=').expect("stake P=N");
                    json!({"t":"stake","player":p,"amount":n.parse::<u32>().expect("amount")})
                        .to_string()
                })
                .collect();
        }
        "card" => {
            let (p, hand) = player(args[0]);
            let mut obj = json!({"t":"card","to":p});
            if let Some(c) = args.get(1).filter(|c| **c != "?") {
                obj["card"] = (*c).into();
            }
            with_hand(obj, hand)
        }
        "double" | "undo" | "redo" | "decline" | "reshuffle" => json!({ "t": verb }),
        "content" | "over" | "natural" => {
            let (p, hand) = player(args[0]);
            with_hand(json!({"t":verb,"player":p}), hand)
        }
        "divide" => {
            let (p, hand) = player(args[0]);
            let mut obj = json!({"t":"divide","player":p});
            if let Some(a) = args.get(1) {
                obj["amount"] = a.parse::<u32>().expect("amount").into();
            }
            with_hand(obj, hand)
        }
        "show" => {
            let (p, hand) = player(args[0]);
            with_hand(json!({"t":"show","player":p,"cards":args[1..]}), hand)
        }
        "dealer" | "retire" | "rectify" => json!({"t":verb,"player":args[0]}),
        "surplus" | "reject" => {
            let mut obj = json!({"t":verb,"player":args[0]});
            if let Some(c) = args.get(1) {
                obj["card"] = (*c).into();
            }
            obj
        }
        "exposed" => json!({"t":"exposed","player":args[0],"card":args[1]}),
        "choose" => json!({"t":"choose","player":args[0],"choice":args[1]}),
        "brulet" => {
            let mut obj = json!({"t":"brulet","bottom":args[0]});
            if let Some(c) = args.get(1) {
                obj["top"] = (*c).into();
            }
            obj
        }
        "sell" => json!({"t":"sell","to":args[0],"price":args[1].parse::<u32>().expect("price")}),
        other => panic!("unknown short command {other}"),
    };
    vec![value.to_string()]
}

impl Table {
    /// A table of these players with these rules (a JSON object, `{}` for the defaults).
    pub fn new(players: &[&str], rules: &str) -> Table {
        let rules = serde_json::from_str(rules).expect("rules JSON");
        Table {
            game: Game::new(players.iter().map(|p| (*p).to_owned()).collect(), rules)
                .expect("table"),
        }
    }

    /// Ann, Bob and Cat with the default rules, Cat dealing.
    pub fn three() -> Table {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], "{}");
        t.run("dealer Cat");
        t
    }

    fn apply_json(&mut self, json: &str) -> Result<Vec<Event>, String> {
        let (line, meta) = Line::parse(json).map_err(|e| e.to_string())?;
        self.game
            .apply(
                Meta {
                    at: Some(0),
                    ..meta
                },
                line,
            )
            .map(<[Event]>::to_vec)
            .map_err(|e| e.to_string())
    }

    /// Runs commands that must all be accepted; returns their events.
    pub fn run(&mut self, script: &str) -> Vec<Event> {
        let mut events = Vec::new();
        for command in script.split(['\n', ';']).filter(|c| !c.trim().is_empty()) {
            for json in expand(command) {
                match self.apply_json(&json) {
                    Ok(e) => events.extend(e),
                    Err(e) => panic!("refused: {json}\n  {e}"),
                }
            }
        }
        events
    }

    /// Runs one command that must be refused with a message containing `needle`,
    /// and checks that nothing changed.
    pub fn refuse(&mut self, command: &str, needle: &str) {
        let before = self.game.sitting().state().clone();
        let ledger_before = self.game.ledger().clone();
        let jsons = expand(command);
        assert_eq!(jsons.len(), 1, "refuse takes one command");
        match self.apply_json(&jsons[0]) {
            Ok(_) => panic!("accepted, but should be refused: {command}"),
            Err(e) => assert!(
                e.contains(needle),
                "{command}: refused as \"{e}\", expected \"{needle}\""
            ),
        }
        assert_eq!(
            &before,
            self.game.sitting().state(),
            "a refused command changed the state"
        );
        assert_eq!(
            &ledger_before,
            self.game.ledger(),
            "a refused command changed the ledger"
        );
    }

    /// The sitting's state.
    pub fn state(&self) -> &pone_engine::sitting::State {
        self.game.sitting().state()
    }

    /// The hands of the player at seat `seat` (seating order, from 0) this round.
    pub fn hands(&self, seat: u8) -> &[pone_engine::sitting::Hand] {
        &self
            .state()
            .seat_round(pone_engine::Seat(seat))
            .expect("a seat at the table")
            .hands
    }

    /// The known cards of a hand (`hand` from 0), as codes.
    pub fn cards(&self, seat: u8, hand: usize) -> Vec<String> {
        self.hands(seat)[hand]
            .cards
            .known()
            .map(|c| c.to_string())
            .collect()
    }

    /// Every player's balance.
    pub fn balances(&self) -> BTreeMap<String, i64> {
        let state = self.game.sitting().state();
        state
            .names()
            .iter()
            .cloned()
            .zip(self.game.ledger().balances.iter().copied())
            .collect()
    }

    /// Asserts the balances, given as `Ann=0 Bob=-1 Cat=1`, and that they agree
    /// with the engine's own.
    pub fn assert_balances(&self, expected: &str) {
        let want: BTreeMap<String, i64> = expected
            .split_whitespace()
            .map(|w| {
                let (p, n) = w.split_once('=').expect("P=N");
                (p.to_owned(), n.parse().expect("number"))
            })
            .collect();
        assert_eq!(self.balances(), want);
        assert_eq!(
            self.game.ledger().balances,
            self.game.sitting().state().balances(),
            "ledger and state disagree"
        );
        let sum: i64 = self.game.ledger().balances.iter().sum::<i64>() + self.game.ledger().pool;
        assert_eq!(sum, 0, "money was created or lost");
    }

    /// The settlements of round `n` (1-based) as `player:hand amount reason`.
    pub fn settlements(&self, round: usize) -> Vec<String> {
        let state = self.game.sitting().state();
        self.game.ledger().rounds[round - 1]
            .settlements
            .iter()
            .map(|s: &Settlement| {
                let counterpart = match (s.from, s.to) {
                    (Party::Pool, _) | (_, Party::Pool) => "pool".to_owned(),
                    (Party::Seat(a), Party::Seat(b)) => {
                        state.name(if a == s.player { b } else { a }).to_owned()
                    }
                };
                format!(
                    "{}:{} {:+} {} ({counterpart})",
                    state.name(s.player),
                    s.hand,
                    s.amount,
                    reason_key(s.reason)
                )
            })
            .collect()
    }

    /// The dealer of each round, then who deals next.
    pub fn dealers(&self) -> (Vec<String>, String) {
        let state = self.game.sitting().state();
        let rounds = self
            .game
            .ledger()
            .rounds
            .iter()
            .map(|r| state.name(r.dealer).to_owned())
            .collect();
        let next = state
            .dealer()
            .map_or(String::new(), |d| state.name(d).to_owned());
        (rounds, next)
    }
}

pub fn reason_key(reason: Reason) -> String {
    serde_json::to_value(reason)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Whether an error is of the kind expected (for tests that match on the enum).
pub fn is_rule_error(e: &RuleError) -> bool {
    !e.to_string().is_empty()
}

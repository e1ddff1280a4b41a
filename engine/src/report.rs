//! The outcome of a game in words and numbers: what `pone replay` prints.

use serde_json::{Value, json};

use crate::event::{Party, Seat, Settlement};
use crate::journal::Game;
use crate::ledger::RoundRecord;
use crate::sitting::{Phase, State};

/// The game's balances, rounds and settlements as JSON, players by name.
///
/// `balances` maps every player to what he is up or down over the sitting;
/// `rounds` lists each round with its `dealer` and `settlements` (`player`,
/// `hand`, `amount` signed from the player's side, `from`, `to`, `reason`);
/// `next_dealer` is who deals next.
pub fn to_json(game: &Game) -> Value {
    let state = game.sitting().state();
    let ledger = game.ledger();
    let name = |seat: Seat| Value::from(state.name(seat));
    let balances: serde_json::Map<String, Value> = state
        .names()
        .iter()
        .zip(&ledger.balances)
        .map(|(n, b)| (n.clone(), Value::from(*b)))
        .collect();
    let rounds: Vec<Value> = ledger
        .rounds
        .iter()
        .map(|r| {
            let mut round = json!({
                "round": r.round,
                "dealer": name(r.dealer),
                "doubled": r.doubled,
                "settlements": r.settlements.iter().map(|s| settlement_json(state, s)).collect::<Vec<_>>(),
                "flags": r.flags.iter().map(|f| flag_json(state, f)).collect::<Vec<_>>(),
                "next_dealer": r.next_dealer.map(name),
            });
            if !r.game.is_ordinary() {
                // The eight-round deal's games are named; ordinary rounds read as before.
                round["game"] = json!(r.game);
            }
            round
        })
        .collect();
    json!({
        "players": state.names(),
        "balances": balances,
        "pool": ledger.pool,
        "rounds": rounds,
        "next_dealer": state.dealer().map(name),
        "round_in_play": state.phase() != Phase::Between,
        "pending_settlements": ledger.pending().iter().map(|s| settlement_json(state, s)).collect::<Vec<_>>(),
    })
}

fn party(state: &State, party: Party) -> Value {
    match party {
        Party::Seat(seat) => Value::from(state.name(seat)),
        Party::Pool => Value::from("pool"),
    }
}

fn settlement_json(state: &State, s: &Settlement) -> Value {
    json!({
        "player": state.name(s.player),
        "hand": s.hand,
        "amount": s.amount,
        "from": party(state, s.from),
        "to": party(state, s.to),
        "reason": s.reason,
        "why": s.reason.words(),
    })
}

fn flag_json(state: &State, flag: &crate::event::Flag) -> Value {
    let mut value = serde_json::to_value(flag).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value
        && let Some(Value::Number(n)) = map.get("player")
    {
        let seat = Seat(n.as_u64().unwrap_or(0) as u8);
        map.insert("player".into(), Value::from(state.name(seat)));
    }
    value
}

/// Every player's balance after each round settled, from zero at the start:
/// `(round, balances in seating order)`, a row per round. The last row is
/// the ledger's balances when no payment waits for the next round.
pub fn balances_by_round(game: &Game) -> Vec<(u32, Vec<i64>)> {
    let ledger = game.ledger();
    let mut balances = vec![0i64; ledger.balances.len()];
    let mut rows = Vec::new();
    for r in &ledger.rounds {
        for s in &r.settlements {
            let value = s.amount.abs();
            for (party, delta) in [(s.from, -value), (s.to, value)] {
                if let Party::Seat(seat) = party
                    && let Some(b) = balances.get_mut(seat.index())
                {
                    *b += delta;
                }
            }
        }
        if r.next_dealer.is_some() {
            rows.push((r.round, balances.clone()));
        }
    }
    rows
}

/// Every payment of the game as CSV, a row each: `round`, `dealer`,
/// `doubled`, `player` and `hand` (whose hand or account), `amount` (signed
/// from the player's side: `from` pays `to` its size), `from`, `to`,
/// `reason`, `why` (in words).
///
/// # Errors
/// Never in practice: the rows are written to memory.
pub fn to_csv(game: &Game) -> Result<String, csv::Error> {
    let state = game.sitting().state();
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record([
        "round", "dealer", "doubled", "player", "hand", "amount", "from", "to", "reason", "why",
    ])?;
    for r in &game.ledger().rounds {
        for s in &r.settlements {
            let reason = serde_json::to_value(s.reason)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            out.write_record([
                r.round.to_string().as_str(),
                state.name(r.dealer),
                if r.doubled { "yes" } else { "no" },
                state.name(s.player),
                s.hand.to_string().as_str(),
                s.amount.to_string().as_str(),
                party_name(state, s.from),
                party_name(state, s.to),
                reason.as_str(),
                s.reason.words(),
            ])?;
        }
    }
    let bytes = out.into_inner().map_err(csv::IntoInnerError::into_error)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A round's game after its dealer, `, Imaginary Tens`; nothing for ordinary Vingt-un.
pub fn game_words(round: &RoundRecord) -> String {
    if round.game.is_ordinary() {
        String::new()
    } else {
        format!(", {}", round.game)
    }
}

/// The game in words: each round's payments, then the balances.
pub fn to_text(game: &Game) -> String {
    use std::fmt::Write as _;
    let state = game.sitting().state();
    let ledger = game.ledger();
    let mut text = String::new();
    for r in &ledger.rounds {
        let doubled = if r.doubled { ", doubled" } else { "" };
        let _ = writeln!(
            text,
            "Round {} (dealer {}{doubled}{})",
            r.round,
            state.name(r.dealer),
            game_words(r)
        );
        for s in &r.settlements {
            let _ = writeln!(text, "  {}", settlement_text(state, r, s));
        }
        for f in &r.flags {
            let _ = writeln!(text, "  check: {}", flag_json(state, f));
        }
        if let Some(next) = r.next_dealer
            && next != r.dealer
        {
            let _ = writeln!(text, "  the deal passes to {}", state.name(next));
        }
    }
    let _ = writeln!(text, "Balances:");
    for (name, balance) in state.names().iter().zip(&ledger.balances) {
        let _ = writeln!(text, "  {name:<12} {balance:+}");
    }
    if ledger.pool != 0 {
        let _ = writeln!(text, "  {:<12} {}", "pool", ledger.pool);
    }
    if let Some(dealer) = state.dealer() {
        let _ = writeln!(text, "Next dealer: {}", state.name(dealer));
    }
    if state.phase() != Phase::Between {
        let _ = writeln!(text, "(round {} is still in play)", state.round_number());
    }
    text
}

/// One payment of a round in words: `Ann pays Bob 2 (hand 2): ...`, or
/// `Ann: no payment, ...`.
pub fn settlement_text(state: &State, round: &RoundRecord, s: &Settlement) -> String {
    let hand = if s.hand > 1
        || round
            .settlements
            .iter()
            .any(|o| o.player == s.player && o.hand > 1)
    {
        format!(" (hand {})", s.hand)
    } else {
        String::new()
    };
    if s.amount == 0 {
        format!("{}{hand}: no payment, {}", state.name(s.player), s.reason)
    } else {
        format!(
            "{} pays {} {}{hand}: {}",
            party_name(state, s.from),
            party_name(state, s.to),
            s.amount.abs(),
            s.reason
        )
    }
}

fn party_name(state: &State, party: Party) -> &str {
    match party {
        Party::Seat(seat) => state.name(seat),
        Party::Pool => "the pool",
    }
}

//! The journal: every accepted line, append-only; the game is a fold over it.
//!
//! [`Game`] keeps the journal, the commands in force (undo, redo and corrections
//! change which, never the file), the [`Sitting`] folded from them and the
//! [`Ledger`] folded from its events. [`replay`] reads a journal or a table
//! script back into a `Game`.

use crate::command::Command;
use crate::error::{RuleError, RuleErrorKind};
use crate::event::Event;
use crate::ledger::Ledger;
use crate::rules::HouseRules;
use crate::script::{JOURNAL_VERSION, Line, LineError, Meta};
use crate::sitting::{Sitting, TableError};

/// One accepted line of the journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its number: the line it was first written at.
    pub seq: u64,
    /// Its time and frame.
    pub meta: Meta,
    /// The line.
    pub line: Line,
}

/// Why a line was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// The line could not be read.
    #[error(transparent)]
    Line(#[from] LineError),
    /// The rules refuse the command.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The table cannot be set up.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The first line must set the table.
    #[error(
        "the first line must be the table: {{\"t\":\"table\",\"players\":[...],\"rules\":{{...}}}}"
    )]
    NoTable,
    /// A second table line.
    #[error("the table is set once, on the first line")]
    TableTwice,
    /// A journal of another format version.
    #[error(
        "journal format version {0} is not known to this build (it reads version {JOURNAL_VERSION})"
    )]
    Version(u32),
    /// Undo with nothing in force.
    #[error("nothing to undo")]
    NothingToUndo,
    /// Redo with nothing undone.
    #[error("nothing to redo: a new command since the last undo clears what could be redone")]
    NothingToRedo,
    /// A correction names no command in force.
    #[error("no command numbered {0} is in force to correct")]
    NoSuchCommand(u64),
    /// A correction the rest of the game cannot stand.
    #[error("the correction of line {seq} breaks line {broken}: {reason}")]
    Correction {
        /// The corrected line.
        seq: u64,
        /// The first later line refused after it.
        broken: u64,
        /// Why that line was refused.
        reason: String,
    },
}

/// A sitting kept from its journal.
#[derive(Clone, Debug)]
pub struct Game {
    players: Vec<String>,
    rules: HouseRules,
    journal: Vec<Entry>,
    in_force: Vec<(u64, Command)>,
    undone: Vec<(u64, Command)>,
    sitting: Sitting,
    ledger: Ledger,
    next_seq: u64,
}

impl Game {
    /// A new game at this table. Its journal starts with a header and the table line.
    pub fn new(players: Vec<String>, rules: HouseRules) -> Result<Game, GameError> {
        let sitting = Sitting::new(players.clone(), rules.clone())?;
        let ledger = Ledger::new(players.len());
        Ok(Game {
            players,
            rules,
            journal: Vec::new(),
            in_force: Vec::new(),
            undone: Vec::new(),
            sitting,
            ledger,
            next_seq: 3,
        })
    }

    /// The sitting as the commands in force leave it.
    pub fn sitting(&self) -> &Sitting {
        &self.sitting
    }

    /// The ledger of the commands in force.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// Every line accepted, in order (the table line aside).
    pub fn journal(&self) -> &[Entry] {
        &self.journal
    }

    /// The commands in force, with their numbers.
    pub fn in_force(&self) -> &[(u64, Command)] {
        &self.in_force
    }

    /// The journal as text: the header, the table, then every line, one JSON object each.
    pub fn journal_text(&self) -> String {
        let mut text = Line::Journal {
            version: JOURNAL_VERSION,
        }
        .to_json(&Meta::default());
        text.push('\n');
        text.push_str(&self.table_line().to_json(&Meta::default()));
        text.push('\n');
        for entry in &self.journal {
            text.push_str(&entry.line.to_json(&entry.meta));
            text.push('\n');
        }
        text
    }

    /// The table line.
    pub fn table_line(&self) -> Line {
        Line::Table {
            players: self.players.clone(),
            rules: self.rules.clone(),
        }
    }

    /// Applies one command given by seat, at time `at` (ms since the Unix epoch).
    pub fn command(&mut self, at: Option<u64>, command: &Command) -> Result<&[Event], GameError> {
        let line = Line::from_command(command, self.sitting.state());
        self.apply(
            Meta {
                at,
                ..Meta::default()
            },
            line,
        )
    }

    /// Applies one line: a command, `undo`, `redo` or `correct`. Returns the
    /// events of a command; after an undo, redo or correction the state is
    /// folded again and the events are empty (read the state and ledger).
    pub fn apply(&mut self, mut meta: Meta, line: Line) -> Result<&[Event], GameError> {
        let seq = meta.seq.unwrap_or(self.next_seq);
        meta.seq = Some(seq);
        match &line {
            Line::Journal { .. } | Line::Table { .. } => return Err(GameError::TableTwice),
            // Kept, and nothing else: the game stands as it was.
            Line::Note { .. } => {}
            Line::Undo { .. } => {
                let last = self.in_force.pop().ok_or(GameError::NothingToUndo)?;
                self.undone.push(last);
                self.refold().map_err(|(_, e)| GameError::Rule(e))?;
            }
            Line::Redo { .. } => {
                let (redo_seq, command) = self.undone.pop().ok_or(GameError::NothingToRedo)?;
                if let Err(e) = self.fold_one(&command) {
                    self.undone.push((redo_seq, command));
                    return Err(e.into());
                }
                self.in_force.push((redo_seq, command));
            }
            Line::Correct {
                line: target, with, ..
            } => {
                let target = *target;
                let position = self
                    .in_force
                    .iter()
                    .position(|(s, _)| *s == target)
                    .ok_or(GameError::NoSuchCommand(target))?;
                let replacement = match with.as_deref() {
                    Some(l) => Some(l.command(self.sitting.state())?),
                    None => None,
                };
                let saved = self.in_force.clone();
                match replacement {
                    Some(c) => self.in_force[position] = (target, c),
                    None => {
                        self.in_force.remove(position);
                    }
                }
                if let Err((broken, e)) = self.refold() {
                    self.in_force = saved;
                    self.refold().map_err(|(_, e)| GameError::Rule(e))?;
                    return Err(GameError::Correction {
                        seq: target,
                        broken,
                        reason: e.to_string(),
                    });
                }
            }
            other => {
                let command = other.command(self.sitting.state())?;
                self.fold_one(&command)?;
                self.in_force.push((seq, command));
                self.undone.clear();
                self.next_seq = self.next_seq.max(seq) + 1;
                self.journal.push(Entry { seq, meta, line });
                return Ok(self.sitting.last_events());
            }
        }
        self.next_seq = self.next_seq.max(seq) + 1;
        self.journal.push(Entry { seq, meta, line });
        Ok(&[])
    }

    fn fold_one(&mut self, command: &Command) -> Result<(), RuleError> {
        let events = self.sitting.apply(command)?;
        for event in events {
            self.ledger.record(event);
        }
        Ok(())
    }

    /// Folds the commands in force again from a fresh table.
    fn refold(&mut self) -> Result<(), (u64, RuleError)> {
        self.sitting = Sitting::new(self.players.clone(), self.rules.clone())
            .map_err(|e| (0, RuleErrorKind::Deal(e.to_string()).into()))?;
        self.ledger = Ledger::new(self.players.len());
        let commands = std::mem::take(&mut self.in_force);
        let mut result = Ok(());
        for (seq, command) in &commands {
            if let Err(e) = self.fold_one(command) {
                result = Err((*seq, e));
                break;
            }
        }
        self.in_force = commands;
        result
    }
}

/// A journal or table script that cannot be replayed: where, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct ReplayError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong there.
    pub error: GameError,
}

/// Replays a journal or table script (blank lines and lines starting with `#`
/// or `//` are skipped). A line without `seq` is numbered by its line number.
pub fn replay(text: &str) -> Result<Game, ReplayError> {
    let mut game: Option<Game> = None;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
            continue;
        }
        let at = |error: GameError| ReplayError {
            line: line_no,
            error,
        };
        let (line, mut meta) = Line::parse(trimmed).map_err(|e| at(e.into()))?;
        match (&mut game, line) {
            (None, Line::Journal { version }) => {
                if version != JOURNAL_VERSION {
                    return Err(at(GameError::Version(version)));
                }
            }
            (None, Line::Table { players, rules }) => {
                game = Some(Game::new(players, rules).map_err(at)?);
            }
            (None, _) => return Err(at(GameError::NoTable)),
            (Some(_), Line::Table { .. } | Line::Journal { .. }) => {
                return Err(at(GameError::TableTwice));
            }
            (Some(g), line) => {
                meta.seq = meta.seq.or(Some(line_no as u64));
                g.apply(meta, line).map_err(at)?;
            }
        }
    }
    game.ok_or(ReplayError {
        line: text.lines().count().max(1),
        error: GameError::NoTable,
    })
}

//! The command-line subcommands.

use std::io::Write;
use std::path::Path;

use anyhow::Context as _;
use pone_engine::{replay, report};

/// `pone replay FILE [--json]`: replays a journal or table script and prints
/// the ledger. Bad input stops it with the line number and the reason.
pub fn replay_file(path: &Path, json: bool, out: &mut impl Write) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let game = replay(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if json {
        let value = report::to_json(&game);
        writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
    } else {
        write!(out, "{}", report::to_text(&game))?;
    }
    Ok(())
}

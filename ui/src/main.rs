//! `pone`: a dealer's aid for a real Vingt-un table.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A dealer's aid for a real Vingt-un table: it keeps the game, the stakes and
/// every settlement.
#[derive(Parser)]
#[command(name = "pone", version, about)]
struct Options {
    #[command(subcommand)]
    command: Option<Commands>,
}

#[derive(Subcommand)]
enum Commands {
    /// Replay a journal or a table script (JSON lines) and print the ledger.
    Replay {
        /// The journal or table script.
        file: PathBuf,
        /// Print the ledger as JSON: balances, rounds with their settlements, next dealer.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let options = Options::parse();
    let result = match options.command {
        Some(Commands::Replay { file, json }) => {
            pone_ui::cli::replay_file(&file, json, &mut std::io::stdout().lock())
        }
        None => {
            eprintln!(
                "The side-screen app is not built yet; try `pone replay FILE.jsonl` (see `pone --help`)."
            );
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

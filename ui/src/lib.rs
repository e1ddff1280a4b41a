//! The `pone` binary's library: the command-line tools now, the side-screen app
//! (eframe) later.
//!
//! - [`cli`]: the subcommands (`pone replay`), as functions that take their
//!   arguments and a writer, so tests can run them without a process.

pub mod cli;

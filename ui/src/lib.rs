//! The `pone` binary's library: the command-line tools now, the side-screen app
//! (eframe) later.
//!
//! - [`cli`]: the subcommands (`pone replay`, `pone synth`, `pone demo`), as
//!   functions that take their arguments and a writer, so tests can run them
//!   without a process.
//! - [`live`]: `pone play`, frames to the engine through the recogniser and the tracker.
//! - [`see`]: `pone recognise` and `pone eval`, the card recogniser on still images.

pub mod cli;
pub mod live;
pub mod see;

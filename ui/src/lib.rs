//! The `pone` binary's library: the side screen and the command-line tools.
//!
//! - [`screen`]: the side screen, an eframe window on a sitting.
//! - [`desk`]: the dealer's desk, a game kept from the dealer's keys.
//! - [`drill`]: settlement drills for dealers learning the game (`pone drill`).
//! - [`demo`]: a sitting that plays itself (`pone demo`, the side screen with no camera).
//! - [`cli`]: the subcommands (`pone replay`, `pone synth`, `pone demo`), as
//!   functions that take their arguments and a writer, so tests can run them
//!   without a process.
//! - [`live`]: `pone play`, frames to the engine through the recogniser and the tracker.
//! - [`setup`]: the sitting's setup in the window (players, rules, the cards' source).
//! - [`preview`]: what the camera chosen on the setup sees, before the sitting starts.
//! - [`see`]: `pone recognise` and `pone eval`, the card recogniser on still images.

pub mod cli;
pub mod demo;
pub mod desk;
pub mod drill;
pub mod live;
pub mod preview;
pub mod screen;
pub mod see;
pub mod setup;

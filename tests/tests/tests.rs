//! End-to-end tests: the `pone` binary and the crates together, one binary split
//! into modules by area.

mod cli;
mod play;
mod reader;
mod recognise;
mod replay;
mod synth;

//! Pone's hands: an optional serial card-dealing shoe.
//!
//! This crate will hold the shoe's wire protocol as a pure codec (bytes in, shoe
//! messages out, testable without a port), and the `serialport` side behind a
//! cargo feature, so that a shoe can deal a card on the engine's request and report
//! each card it delivers as an engine command.
//!
//! Nothing is implemented yet.

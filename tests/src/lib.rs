//! End-to-end tests of Pone live in `tests/tests.rs`, one binary split into
//! modules by area; this library only gives the crate a home.

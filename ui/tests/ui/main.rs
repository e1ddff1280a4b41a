//! The side screen's tests, in one test binary (each binary links the whole
//! window toolkit, and seven of them filled a CI machine's disk).

mod desk;
mod drill;
mod live_screen;
mod screen;
mod setup;
mod training;
mod window;

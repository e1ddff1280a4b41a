//! Pone's eyes: frames in, card observations out.
//!
//! This crate will hold (issues 3, 4 and 5):
//! - **sources**: a live camera through `nokhwa`, a folder of frames or an MJPEG
//!   recording, and the rendered demo sitting, all behind one `FrameSource` trait;
//! - **the renderer**: a synthetic card table drawn from real card art, with exact
//!   labels, for training data, tests and the demo;
//! - **the reader**: finding cards and their index corners with `image`/`imageproc`
//!   and reading rank and suit with an ONNX model run by `ort`;
//! - **the tracker**: per-frame readings turned into stable facts (a card landed at a
//!   seat, a card was turned up, cards went to the pone) and then engine commands.
//!
//! Nothing is implemented yet: the engine (`pone-engine`) comes first.

//! Pone's eyes: frames in, card observations out.
//!
//! - [`art`]: card designs (faces, backs, where the index is printed), the
//!   committed CC0 ones built in, the others from the art cache.
//! - [`boxes`]: box overlap, centres and distances, shared by the finder, tracker and live table.
//! - [`camera`]: a pinhole camera over the table plane.
//! - [`changes`]: what changed between a still camera's frames, for the finder to look at again.
//! - [`scene`]: what a frame shows (table top, light, cards where Vingt-un puts
//!   them, hands over the table, the camera's faults), and random scenes.
//! - [`clutter`]: things on the table besides cards (papers, books, mugs, phones).
//! - [`render`]: draws a scene with exact labels for every card.
//! - [`model`]: ONNX Runtime loaded at run time, and the corner classifier.
//! - [`photos`]: real photographs for rendered tables (table tops, printed pictures).
//! - [`finder`]: the network that finds index corners and face-down cards in a frame.
//! - [`recognise`]: frame in, cards out (the finder, then the reader on each corner).
//! - [`reader`]: straightening a found card and cutting its index corners
//!   (the reader's geometry, shared by its training crops).
//! - [`scoring`]: readings against labelled cards, one to one (`pone eval`, the accuracy tests).
//! - [`synth`]: writes labelled sets of rendered scenes (`pone synth`).
//! - [`sitting`]: a sitting the engine plays and the renderer films (`pone synth --sitting`).
//! - [`source`]: where frames come from (a frames folder, an MJPEG file, a camera).
//! - [`play`]: the tracker's facts and the dealer's words, in order, into the engine.
//! - [`tracker`]: readings, frame by frame, to stable table facts (a card landed, turned up, left).

// Images are arithmetic on pixel coordinates and colour values, all small: the
// casts between integers and floats there are the point, not a risk.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::many_single_char_names
)]

pub mod art;
pub mod boxes;
pub mod camera;
pub mod changes;
pub mod clutter;
pub mod finder;
pub mod model;
pub mod photos;
pub mod play;
pub mod reader;
pub mod recognise;
pub mod render;
pub mod scene;
pub mod scoring;
pub mod sitting;
pub mod source;
pub mod synth;
mod texture;
pub mod tracker;

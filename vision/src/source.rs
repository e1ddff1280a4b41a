//! Where frames come from: a folder of frames (a rendered sitting or a
//! recording), an MJPEG file, or a live camera (the `camera` feature), all
//! behind one trait, [`Source`].
//!
//! A source gives frames with their time since it started. Recordings can be
//! played at their own pace ([`Pace::Live`], as a camera would give them) or
//! as fast as they can be read ([`Pace::Fast`], for tests and benchmarks).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use image::RgbImage;

/// One frame.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Its number, from 0, in the order the source gave it.
    pub index: u64,
    /// When it was taken, from the source's start.
    pub at: Duration,
    /// The picture.
    pub image: RgbImage,
    /// The picture as the source gave it, when that was a JPEG (a camera's
    /// MJPEG, an MJPEG file): saved as it is by `pone record`.
    pub jpeg: Option<Vec<u8>>,
}

/// `image` at most `width` pixels wide, for a window to show (the camera's
/// picture, the setup's preview), and its pixels per source pixel. It is
/// here rather than in the window's crate so that even a dev build shrinks
/// frames at speed: `image`'s generic code takes the optimisation of the
/// crate it is used in, and shrinking each frame in the unoptimised window
/// crate took most of a debug build's recogniser thread.
#[must_use]
#[allow(
    clippy::cast_precision_loss, // picture sizes, far below 2^23
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss // a scaled picture size: positive and small
)]
pub fn for_showing(image: &RgbImage, width: u32) -> (RgbImage, f32) {
    let (w, h) = image.dimensions();
    let scale = (width as f32 / w.max(1) as f32).min(1.0);
    if scale >= 1.0 {
        return (image.clone(), 1.0);
    }
    let small = image::imageops::thumbnail(
        image,
        ((w as f32 * scale).round() as u32).max(1),
        ((h as f32 * scale).round() as u32).max(1),
    );
    (small, scale)
}

/// How fast a recording plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// At its frame rate, as the camera gave it: a frame whose time has
    /// passed when the next is asked for is let go, and the newest due is
    /// given, as a camera's driver lets frames go while its reader is busy
    /// ([`Source::dropped`] counts them).
    Live,
    /// As fast as frames can be read; frame times still follow the frame rate.
    Fast,
    /// At its frame rate, but every frame given: one read late is given
    /// late, and the recording falls behind the clock (a recording reviewed
    /// on a machine too slow to read it as a camera gives it).
    Steady,
}

/// Frames that cannot be had.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SourceError {
    /// A frame file cannot be read or decoded.
    #[error("cannot read the frame {path}: {reason}")]
    Frame {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A folder or file holds no frames.
    #[error("no frames in {path}: {hint}")]
    Empty {
        /// The folder or file.
        path: PathBuf,
        /// What to do about it.
        hint: &'static str,
    },
    /// A folder or file cannot be opened.
    #[error("cannot open {path}: {reason}")]
    Open {
        /// The folder or file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// An MJPEG file is broken at a place.
    #[error(
        "{path}: frame {frame} (byte {offset}) is not a whole JPEG: {reason}; the frames before it play"
    )]
    Mjpeg {
        /// The file.
        path: PathBuf,
        /// The frame, from 0.
        frame: u64,
        /// Where it starts.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// The camera stopped giving frames (unplugged, or taken by another program).
    #[error("the camera {name} is lost: {reason}")]
    Lost {
        /// The camera.
        name: String,
        /// What it said.
        reason: String,
    },
    /// No camera can be opened.
    #[error("cannot open a camera: {0}")]
    Camera(String),
}

/// Frames, one after another.
pub trait Source {
    /// The next frame; `None` when a recording has ended. A camera that drops
    /// out gives [`SourceError::Lost`] and may give frames again later.
    fn next_frame(&mut self) -> Result<Option<Frame>, SourceError>;
    /// Frames per second, as recorded or as the camera runs.
    fn fps(&self) -> f32;
    /// What it is, for the screen and the log (`"frames in DIR"`, `"camera 0: NAME"`).
    fn describe(&self) -> String;
    /// Frames let go unread so far because they came while the reader was
    /// busy with the one before (a recording played at [`Pace::Live`]).
    fn dropped(&self) -> u64 {
        0
    }
}

impl<S: Source + ?Sized> Source for Box<S> {
    fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
        (**self).next_frame()
    }

    fn fps(&self) -> f32 {
        (**self).fps()
    }

    fn describe(&self) -> String {
        (**self).describe()
    }

    fn dropped(&self) -> u64 {
        (**self).dropped()
    }
}

/// Waits until a frame is due when playing at the recording's own pace.
#[derive(Debug)]
struct Clock {
    pace: Pace,
    start: Option<Instant>,
}

impl Clock {
    fn new(pace: Pace) -> Clock {
        Clock { pace, start: None }
    }

    fn wait_for(&mut self, at: Duration) {
        if self.pace == Pace::Fast {
            return;
        }
        let start = *self.start.get_or_insert_with(Instant::now);
        if let Some(left) = (start + at).checked_duration_since(Instant::now()) {
            std::thread::sleep(left);
        }
    }

    /// Playing live, the number of the newest frame whose time has come
    /// (`None` as fast as it can, or before the first frame).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // a positive frame count
    fn newest_due(&self, fps: f32) -> Option<u64> {
        if self.pace != Pace::Live {
            return None;
        }
        let seconds = self.start?.elapsed().as_secs_f64();
        Some((seconds * f64::from(fps.max(0.1))).floor() as u64)
    }
}

fn frame_time(index: u64, fps: f32) -> Duration {
    Duration::from_secs_f64(index as f64 / f64::from(fps.max(0.1)))
}

/// A folder of frames (`.jpg`, `.jpeg` or `.png`), played in name order: a
/// rendered sitting's `frames/` or what `pone record` saved.
#[derive(Debug)]
pub struct FolderSource {
    folder: PathBuf,
    files: Vec<PathBuf>,
    next: usize,
    fps: f32,
    clock: Clock,
    dropped: u64,
}

impl FolderSource {
    /// The frames in `folder`. The frame rate is `fps` when given, otherwise
    /// the `fps` of `sitting.json` or `recording.json` beside the folder or in
    /// it, otherwise 30.
    pub fn open(folder: &Path, fps: Option<f32>, pace: Pace) -> Result<FolderSource, SourceError> {
        let entries = std::fs::read_dir(folder).map_err(|e| SourceError::Open {
            path: folder.to_owned(),
            reason: e.to_string(),
        })?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                    matches!(e.to_ascii_lowercase().as_str(), "jpg" | "jpeg" | "png")
                })
            })
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(SourceError::Empty {
                path: folder.to_owned(),
                hint: "a frames folder holds .jpg or .png files (pone synth --sitting or pone record make them)",
            });
        }
        let fps = fps.or_else(|| recorded_fps(folder)).unwrap_or(30.0);
        Ok(FolderSource {
            folder: folder.to_owned(),
            files,
            next: 0,
            fps,
            clock: Clock::new(pace),
            dropped: 0,
        })
    }

    /// How many frames the folder holds.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether the folder holds no frames (never, once opened).
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// The frame rate written beside a frames folder, by `pone synth --sitting`
/// (`sitting.json`) or `pone record` (`recording.json`).
fn recorded_fps(folder: &Path) -> Option<f32> {
    let parent = folder.parent();
    [Some(folder), parent]
        .into_iter()
        .flatten()
        .flat_map(|dir| ["sitting.json", "recording.json"].map(|name| dir.join(name)))
        .find_map(|path| {
            let text = std::fs::read_to_string(path).ok()?;
            let value: serde_json::Value = serde_json::from_str(&text).ok()?;
            value.get("fps")?.as_f64().map(|f| f as f32)
        })
        .filter(|f| *f > 0.0)
}

impl Source for FolderSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
        // Live, the frames whose time passed while the last was read are let
        // go (the last frame of all is always given).
        if let Some(newest) = self.clock.newest_due(self.fps) {
            let newest = usize::try_from(newest)
                .unwrap_or(usize::MAX)
                .min(self.files.len().saturating_sub(1));
            if newest > self.next {
                self.dropped += (newest - self.next) as u64;
                self.next = newest;
            }
        }
        let Some(path) = self.files.get(self.next) else {
            return Ok(None);
        };
        let index = self.next as u64;
        self.next += 1;
        let at = frame_time(index, self.fps);
        self.clock.wait_for(at);
        let bad = |reason: String| SourceError::Frame {
            path: path.clone(),
            reason,
        };
        let bytes = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
        let format = image::guess_format(&bytes).map_err(|e| bad(e.to_string()))?;
        let image = image::load_from_memory_with_format(&bytes, format)
            .map_err(|e| bad(e.to_string()))?
            .to_rgb8();
        let jpeg = (format == image::ImageFormat::Jpeg).then_some(bytes);
        Ok(Some(Frame {
            index,
            at,
            image,
            jpeg,
        }))
    }

    fn fps(&self) -> f32 {
        self.fps
    }

    fn describe(&self) -> String {
        let n = self.files.len();
        let frames = if n == 1 { "frame" } else { "frames" };
        format!("{n} {frames} in {}", self.folder.display())
    }

    fn dropped(&self) -> u64 {
        self.dropped
    }
}

/// An MJPEG file: JPEG images one after another, as cameras stream them and
/// `ffmpeg -f mjpeg` or `pone record --mjpeg` write them.
#[derive(Debug)]
pub struct MjpegSource {
    path: PathBuf,
    reader: BufReader<File>,
    offset: u64,
    index: u64,
    fps: f32,
    clock: Clock,
    dropped: u64,
}

impl MjpegSource {
    /// The file at `path`, at `fps` frames a second (otherwise the `fps` of
    /// `recording.json` beside it, otherwise 30).
    pub fn open(path: &Path, fps: Option<f32>, pace: Pace) -> Result<MjpegSource, SourceError> {
        let file = File::open(path).map_err(|e| SourceError::Open {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
        let fps = fps
            .or_else(|| path.parent().and_then(recorded_fps))
            .unwrap_or(30.0);
        Ok(MjpegSource {
            path: path.to_owned(),
            reader: BufReader::new(file),
            offset: 0,
            index: 0,
            fps,
            clock: Clock::new(pace),
            dropped: 0,
        })
    }
}

impl Source for MjpegSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
        // Live, the frames whose time passed while the last was read are
        // passed over, unread (the last frame of all is always given).
        let newest = self.clock.newest_due(self.fps);
        let mut taken: Option<(u64, Vec<u8>)> = None;
        loop {
            let start = self.offset;
            match next_jpeg(&mut self.reader) {
                Ok(Some(bytes)) => {
                    self.offset += bytes.len() as u64;
                    if taken.replace((start, bytes)).is_some() {
                        self.index += 1;
                        self.dropped += 1;
                    }
                }
                Ok(None) => break,
                Err(reason) => {
                    return Err(SourceError::Mjpeg {
                        path: self.path.clone(),
                        frame: self.index + u64::from(taken.is_some()),
                        offset: start,
                        reason,
                    });
                }
            }
            if newest.is_none_or(|newest| self.index >= newest) {
                break;
            }
        }
        let Some((start, jpeg)) = taken else {
            if self.index == 0 {
                return Err(SourceError::Empty {
                    path: self.path.clone(),
                    hint: "an MJPEG file is JPEG images one after another",
                });
            }
            return Ok(None);
        };
        let bad = |reason: String| SourceError::Mjpeg {
            path: self.path.clone(),
            frame: self.index,
            offset: start,
            reason,
        };
        let image = image::load_from_memory_with_format(&jpeg, image::ImageFormat::Jpeg)
            .map_err(|e| bad(e.to_string()))?
            .to_rgb8();
        let index = self.index;
        self.index += 1;
        let at = frame_time(index, self.fps);
        self.clock.wait_for(at);
        Ok(Some(Frame {
            index,
            at,
            image,
            jpeg: Some(jpeg),
        }))
    }

    fn fps(&self) -> f32 {
        self.fps
    }

    fn describe(&self) -> String {
        format!("MJPEG {}", self.path.display())
    }

    fn dropped(&self) -> u64 {
        self.dropped
    }
}

/// The next JPEG in an MJPEG stream, whole (SOI to EOI), or `None` at the end.
///
/// Reads marker by marker: segments carry their length, and in the
/// entropy-coded data after SOS a 0xFF byte is always followed by 0x00 (a
/// stuffed byte) or a restart marker, so the first other marker there ends it.
/// Bytes between images (some cameras pad) are skipped.
fn next_jpeg(reader: &mut impl Read) -> Result<Option<Vec<u8>>, String> {
    let mut byte = [0u8; 1];
    let mut read_byte = |reader: &mut dyn Read| -> Result<Option<u8>, String> {
        match reader.read(&mut byte) {
            Ok(0) => Ok(None),
            Ok(_) => Ok(Some(byte[0])),
            Err(e) => Err(e.to_string()),
        }
    };
    // Find SOI (FF D8).
    let mut previous = None;
    loop {
        let Some(b) = read_byte(reader)? else {
            return Ok(None);
        };
        if previous == Some(0xFF) && b == 0xD8 {
            break;
        }
        previous = Some(b);
    }
    let mut out = vec![0xFF, 0xD8];
    let truncated = || "the file ends inside it".to_owned();
    loop {
        // A marker: FF, any fill FFs, then its code.
        let mut code = read_byte(reader)?.ok_or_else(truncated)?;
        if code != 0xFF {
            return Err(format!("expected a marker, found byte {code:#04x}"));
        }
        while code == 0xFF {
            code = read_byte(reader)?.ok_or_else(truncated)?;
        }
        out.extend([0xFF, code]);
        match code {
            0xD9 => return Ok(Some(out)),
            0x01 | 0xD0..=0xD7 => continue,
            _ => {}
        }
        read_segment(reader, &mut out)?;
        if code == 0xDA {
            // Entropy-coded data up to the next marker that is not a stuffed
            // byte or a restart marker.
            loop {
                let b = read_byte(reader)?.ok_or_else(truncated)?;
                if b != 0xFF {
                    out.push(b);
                    continue;
                }
                let mut next = read_byte(reader)?.ok_or_else(truncated)?;
                while next == 0xFF {
                    next = read_byte(reader)?.ok_or_else(truncated)?;
                }
                if next == 0x00 || (0xD0..=0xD7).contains(&next) {
                    out.extend([0xFF, next]);
                    continue;
                }
                out.extend([0xFF, next]);
                if next == 0xD9 {
                    return Ok(Some(out));
                }
                // Another marker after the scan (progressive JPEGs have
                // several scans): read on from its length.
                read_segment(reader, &mut out)?;
                if next != 0xDA {
                    break;
                }
            }
        }
    }
}

/// A source that may drop out (a camera unplugged): when it is lost, every
/// call tries to open it again (at most once a `retry`), giving
/// [`SourceError::Lost`] until it is back. Frame numbers and times run on
/// across the gap, so the table keeps its state and picks up where it was.
pub struct Reopening<S, F> {
    open: F,
    source: Option<S>,
    name: String,
    retry: Duration,
    last_try: Option<Instant>,
    start: Instant,
    next_index: u64,
    fps: f32,
}

impl<S: Source, F: FnMut() -> Result<S, SourceError>> Reopening<S, F> {
    /// Opens the source with `open`, which is called again whenever it is lost.
    pub fn new(mut open: F, retry: Duration) -> Result<Reopening<S, F>, SourceError> {
        let source = open()?;
        Ok(Reopening {
            name: source.describe(),
            fps: source.fps(),
            open,
            source: Some(source),
            retry,
            last_try: None,
            start: Instant::now(),
            next_index: 0,
        })
    }

    /// Whether the source is giving frames now.
    pub fn is_live(&self) -> bool {
        self.source.is_some()
    }
}

impl<S: Source, F: FnMut() -> Result<S, SourceError>> Source for Reopening<S, F> {
    fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
        if self.source.is_none() {
            if let Some(last) = self.last_try
                && let Some(wait) = self.retry.checked_sub(last.elapsed())
            {
                std::thread::sleep(wait);
            }
            self.last_try = Some(Instant::now());
            match (self.open)() {
                Ok(source) => self.source = Some(source),
                Err(e) => {
                    return Err(SourceError::Lost {
                        name: self.name.clone(),
                        reason: format!("waiting for it to come back ({e})"),
                    });
                }
            }
        }
        let Some(source) = self.source.as_mut() else {
            return Ok(None);
        };
        match source.next_frame() {
            Ok(Some(mut frame)) => {
                frame.index = self.next_index;
                frame.at = self.start.elapsed();
                self.next_index += 1;
                Ok(Some(frame))
            }
            Ok(None) => Ok(None),
            Err(e) => {
                self.source = None;
                self.last_try = Some(Instant::now());
                Err(e)
            }
        }
    }

    fn fps(&self) -> f32 {
        self.fps
    }

    fn describe(&self) -> String {
        self.name.clone()
    }

    fn dropped(&self) -> u64 {
        self.source.as_ref().map_or(0, Source::dropped)
    }
}

/// A recording played with the camera out at times (`pone play
/// --camera-out`), to rehearse an unplugged camera: the frames taken in
/// each window are lost, and the first asked for in a window gives
/// [`SourceError::Lost`] instead, as an unplugged camera does. Frame numbers
/// and times run on across the gap, as [`Reopening`]'s do.
pub struct Unplugged<S> {
    source: S,
    windows: Vec<(Duration, Duration)>,
    told: Vec<bool>,
}

impl<S: Source> Unplugged<S> {
    /// `source` with the camera out from each window's start until its end
    /// (times from the recording's start).
    pub fn new(source: S, windows: Vec<(Duration, Duration)>) -> Unplugged<S> {
        let told = vec![false; windows.len()];
        Unplugged {
            source,
            windows,
            told,
        }
    }
}

impl<S: Source> Source for Unplugged<S> {
    fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
        loop {
            let Some(frame) = self.source.next_frame()? else {
                return Ok(None);
            };
            let Some(k) = self
                .windows
                .iter()
                .position(|&(from, to)| (from..to).contains(&frame.at))
            else {
                return Ok(Some(frame));
            };
            if !self.told[k] {
                self.told[k] = true;
                let (from, to) = self.windows[k];
                return Err(SourceError::Lost {
                    name: format!("({})", self.source.describe()),
                    reason: format!(
                        "unplugged from {:.1} s to {:.1} s (--camera-out)",
                        from.as_secs_f64(),
                        to.as_secs_f64()
                    ),
                });
            }
        }
    }

    fn fps(&self) -> f32 {
        self.source.fps()
    }

    fn describe(&self) -> String {
        self.source.describe()
    }

    fn dropped(&self) -> u64 {
        self.source.dropped()
    }
}

/// A camera, as the system lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CameraListing {
    /// Its number, for `--camera`.
    pub index: u32,
    /// Its name.
    pub name: String,
}

/// What to ask of a camera.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CameraRequest {
    /// Which camera (its number in [`cameras`]).
    pub index: u32,
    /// Frame width and height wanted (the closest the camera offers is taken).
    pub size: (u32, u32),
    /// Frames per second wanted.
    pub fps: u32,
}

impl Default for CameraRequest {
    fn default() -> CameraRequest {
        CameraRequest {
            index: 0,
            size: (1280, 720),
            fps: 30,
        }
    }
}

/// The cameras attached (none when built without the `camera` feature).
pub fn cameras() -> Result<Vec<CameraListing>, SourceError> {
    camera::list()
}

/// A live camera (V4L2 on Linux) through nokhwa, MJPEG where it offers it.
#[cfg(feature = "camera")]
pub use camera::CameraSource;

#[cfg(feature = "camera")]
mod camera {
    use std::time::{Duration, Instant};

    use image::RgbImage;
    use nokhwa::pixel_format::RgbFormat;
    use nokhwa::utils::{
        ApiBackend, CameraFormat, CameraIndex, FrameFormat, RequestedFormat, RequestedFormatType,
        Resolution,
    };

    use super::{CameraListing, CameraRequest, Frame, Source, SourceError};

    pub(super) fn list() -> Result<Vec<CameraListing>, SourceError> {
        let found =
            nokhwa::query(ApiBackend::Auto).map_err(|e| SourceError::Camera(e.to_string()))?;
        Ok(found
            .iter()
            .filter_map(|info| match info.index() {
                CameraIndex::Index(index) => Some(CameraListing {
                    index: *index,
                    name: info.human_name(),
                }),
                CameraIndex::String(_) => None,
            })
            .collect())
    }

    /// A camera giving frames.
    pub struct CameraSource {
        camera: nokhwa::Camera,
        name: String,
        fps: f32,
        start: Instant,
        index: u64,
    }

    impl CameraSource {
        /// Opens the camera asked for, at the format nearest the request
        /// (MJPEG preferred: a webcam gives its full frame rate only so).
        pub fn open(request: &CameraRequest) -> Result<CameraSource, SourceError> {
            let wanted = CameraFormat::new(
                Resolution::new(request.size.0, request.size.1),
                FrameFormat::MJPEG,
                request.fps,
            );
            let format = RequestedFormat::new::<RgbFormat>(RequestedFormatType::Closest(wanted));
            let mut camera = nokhwa::Camera::new(CameraIndex::Index(request.index), format)
                .map_err(|e| {
                    SourceError::Camera(format!(
                        "camera {}: {e} (list the cameras with `pone cameras`)",
                        request.index
                    ))
                })?;
            camera
                .open_stream()
                .map_err(|e| SourceError::Camera(format!("camera {}: {e}", request.index)))?;
            let name = format!("camera {}: {}", request.index, camera.info().human_name());
            let fps = camera.camera_format().frame_rate() as f32;
            Ok(CameraSource {
                camera,
                name,
                fps,
                start: Instant::now(),
                index: 0,
            })
        }
    }

    impl Source for CameraSource {
        fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
            let lost = |e: &dyn std::fmt::Display| SourceError::Lost {
                name: self.name.clone(),
                reason: e.to_string(),
            };
            let buffer = self.camera.frame().map_err(|e| lost(&e))?;
            let at: Duration = self.start.elapsed();
            let mjpeg = buffer.source_frame_format() == FrameFormat::MJPEG;
            let image: RgbImage = if mjpeg {
                image::load_from_memory_with_format(buffer.buffer(), image::ImageFormat::Jpeg)
                    .map_err(|e| lost(&e))?
                    .to_rgb8()
            } else {
                buffer.decode_image::<RgbFormat>().map_err(|e| lost(&e))?
            };
            let index = self.index;
            self.index += 1;
            Ok(Some(Frame {
                index,
                at,
                image,
                jpeg: mjpeg.then(|| buffer.buffer().to_vec()),
            }))
        }

        fn fps(&self) -> f32 {
            self.fps
        }

        fn describe(&self) -> String {
            self.name.clone()
        }
    }
}

#[cfg(not(feature = "camera"))]
mod camera {
    use super::{CameraListing, SourceError};

    #[expect(
        clippy::unnecessary_wraps,
        reason = "the same signature as with the camera feature"
    )]
    pub(super) fn list() -> Result<Vec<CameraListing>, SourceError> {
        Ok(Vec::new())
    }
}

/// A marker segment's length (two bytes, itself included) and body, onto `out`.
fn read_segment(reader: &mut impl Read, out: &mut Vec<u8>) -> Result<(), String> {
    let truncated = |_| "the file ends inside it".to_owned();
    let mut length = [0u8; 2];
    reader.read_exact(&mut length).map_err(truncated)?;
    let size = usize::from(u16::from_be_bytes(length));
    if size < 2 {
        return Err(format!("a segment of length {size}"));
    }
    out.extend(length);
    let start = out.len();
    out.resize(start + size - 2, 0);
    reader.read_exact(&mut out[start..]).map_err(truncated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_shrunk_for_showing_to_the_width_asked_and_never_grown() {
        let frame = RgbImage::from_fn(1280, 720, |x, _| image::Rgb([(x % 256) as u8, 90, 200]));
        let (small, scale) = for_showing(&frame, 960);
        assert_eq!((small.dimensions(), scale), ((960, 540), 0.75));
        // The colours are kept (a flat channel stays flat).
        assert!(small.pixels().all(|p| p.0[1] == 90 && p.0[2] == 200));
        let (same, scale) = for_showing(&frame, 2000);
        assert_eq!((same.dimensions(), scale), ((1280, 720), 1.0));
    }

    fn jpeg(seed: u8) -> Vec<u8> {
        let image = RgbImage::from_fn(40, 30, |x, y| {
            image::Rgb([seed.wrapping_add(x as u8 * 5), y as u8 * 7, seed])
        });
        let mut bytes = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 85)
            .encode_image(&image)
            .expect("encoding a small picture in memory");
        bytes
    }

    #[test]
    fn an_mjpeg_stream_splits_into_its_frames_with_padding_between() {
        let frames = [jpeg(10), jpeg(200), jpeg(77)];
        let mut stream = Vec::new();
        for f in &frames {
            stream.extend(f);
            stream.extend([0u8, 0, 0]);
        }
        let mut reader = std::io::Cursor::new(stream);
        for f in &frames {
            assert_eq!(
                next_jpeg(&mut reader).expect("a whole frame").as_ref(),
                Some(f)
            );
        }
        assert_eq!(next_jpeg(&mut reader).expect("the end"), None);
    }

    /// With the camera out from 0.1 s to 0.2 s, the frames taken then are
    /// lost, the first asked for says the camera is lost, and the frames
    /// after come with their own numbers and times.
    #[test]
    fn a_recording_with_the_camera_out_loses_the_frames_of_the_window() {
        let dir = std::env::temp_dir().join(format!("pone-unplugged-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        for k in 0..10u8 {
            std::fs::write(dir.join(format!("{k:03}.jpg")), jpeg(k)).expect("a frame");
        }
        let folder = FolderSource::open(&dir, Some(20.0), Pace::Fast).expect("the folder");
        let window = (Duration::from_millis(100), Duration::from_millis(200));
        let mut source = Unplugged::new(folder, vec![window]);
        let mut read = Vec::new();
        let mut lost = 0;
        loop {
            match source.next_frame() {
                Ok(Some(frame)) => read.push((frame.index, frame.at.as_millis())),
                Ok(None) => break,
                Err(SourceError::Lost { reason, .. }) => {
                    assert!(reason.contains("0.1 s to 0.2 s"), "{reason}");
                    lost += 1;
                }
                Err(e) => panic!("{e}"),
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(lost, 1);
        assert_eq!(
            read,
            [
                (0, 0),
                (1, 50),
                (4, 200),
                (5, 250),
                (6, 300),
                (7, 350),
                (8, 400),
                (9, 450)
            ]
        );
    }

    /// Played live, a recording read more slowly than its frame rate lets
    /// go the frames that came meanwhile, as a camera does, and gives the
    /// newest due (its last frame always); as fast as it can, or steadily,
    /// every frame.
    #[test]
    fn played_live_the_frames_that_came_while_the_reader_was_busy_are_let_go() {
        let dir = std::env::temp_dir().join(format!("pone-live-pace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let mut stream = Vec::new();
        for k in 0..40u8 {
            let bytes = jpeg(k);
            std::fs::write(dir.join(format!("{k:03}.jpg")), &bytes).expect("a frame");
            stream.extend(bytes);
        }
        let mjpeg = dir.join("recording.mjpeg");
        std::fs::write(&mjpeg, &stream).expect("the stream");
        // 400 frames a second, read one every 20 ms: about 8 come each time.
        let slow = |source: &mut dyn Source| {
            let mut read = Vec::new();
            while let Some(frame) = source.next_frame().expect("a frame") {
                read.push(frame.index);
                std::thread::sleep(Duration::from_millis(20));
            }
            read
        };
        let mut folder = FolderSource::open(&dir, Some(400.0), Pace::Live).expect("the folder");
        let mut file = MjpegSource::open(&mjpeg, Some(400.0), Pace::Live).expect("the file");
        for source in [&mut folder as &mut dyn Source, &mut file] {
            let read = slow(source);
            assert!(read.windows(2).all(|w| w[0] < w[1]), "{read:?}");
            assert_eq!(read.first(), Some(&0));
            assert_eq!(read.last(), Some(&39), "the last frame is given");
            assert!(read.len() < 20, "{read:?}");
            assert_eq!(source.dropped(), 40 - read.len() as u64);
        }
        let mut fast = MjpegSource::open(&mjpeg, Some(400.0), Pace::Fast).expect("the file");
        assert_eq!(slow(&mut fast), (0..40).collect::<Vec<u64>>());
        assert_eq!(fast.dropped(), 0);
        // Steady, every frame is given, however late.
        let mut steady = FolderSource::open(&dir, Some(400.0), Pace::Steady).expect("the folder");
        assert_eq!(slow(&mut steady), (0..40).collect::<Vec<u64>>());
        assert_eq!(steady.dropped(), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Frames from a list; `None` entries are the camera dropping out.
    struct Flaky {
        frames: std::vec::IntoIter<Option<RgbImage>>,
    }

    impl Source for Flaky {
        fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
            match self.frames.next() {
                None => Ok(None),
                Some(None) => Err(SourceError::Lost {
                    name: "test".into(),
                    reason: "unplugged".into(),
                }),
                Some(Some(image)) => Ok(Some(Frame {
                    index: 0,
                    at: Duration::ZERO,
                    image,
                    jpeg: None,
                })),
            }
        }

        fn fps(&self) -> f32 {
            30.0
        }

        fn describe(&self) -> String {
            "flaky".into()
        }
    }

    #[test]
    fn a_source_that_drops_out_is_reopened_and_its_frames_run_on() {
        let picture = RgbImage::new(4, 4);
        // First opening: two frames, then lost. Second opening fails (still
        // unplugged); the third gives a frame, then the recording ends.
        let mut openings = vec![
            Ok(vec![Some(picture.clone()), Some(picture.clone()), None]),
            Err(()),
            Ok(vec![Some(picture)]),
        ]
        .into_iter();
        let open = move || match openings.next() {
            Some(Ok(frames)) => Ok(Flaky {
                frames: frames.into_iter(),
            }),
            _ => Err(SourceError::Camera("no camera".into())),
        };
        let mut source = Reopening::new(open, Duration::ZERO).expect("opens");
        let mut got = Vec::new();
        for _ in 0..8 {
            match source.next_frame() {
                Ok(Some(frame)) => got.push(format!("frame {}", frame.index)),
                Ok(None) => {
                    got.push("end".into());
                    break;
                }
                Err(SourceError::Lost { .. }) => got.push("lost".into()),
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!(
            got,
            ["frame 0", "frame 1", "lost", "lost", "frame 2", "end"]
        );
    }

    #[test]
    fn a_cut_mjpeg_stream_is_an_error_not_a_frame() {
        let whole = jpeg(5);
        let mut reader = std::io::Cursor::new(whole[..whole.len() / 2].to_vec());
        let err = next_jpeg(&mut reader).expect_err("half a JPEG");
        assert!(err.contains("ends inside"), "{err}");
    }
}

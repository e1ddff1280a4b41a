//! What a camera sees, shown on the sitting's setup before the sitting
//! starts, so the dealer can point it at the table: a thread reads the
//! chosen camera's frames and keeps the last one, made small, for the form
//! to draw, and a second reads the cards in the latest frame, drawn on the
//! picture as the table will see them (box, card, confidence), so that he
//! can see the camera reads his deck before the first card is dealt. The
//! camera is let go before the sitting opens it ([`Preview::close`]).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use eframe::egui;
use egui::{Color32, RichText};
use image::RgbImage;
use pone_vision::recognise::{Recogniser, Seen};
use pone_vision::source::{Source, SourceError};

/// How a camera is opened by its number (`pone cameras`): the machine's own
/// cameras in the app ([`CameraOpener::cameras`]); tests give a recording.
#[derive(Clone)]
pub struct CameraOpener(Arc<OpenCamera>);

type OpenCamera = dyn Fn(u32) -> anyhow::Result<Box<dyn Source>> + Send + Sync;

impl CameraOpener {
    /// Opens camera N with `open`.
    pub fn new(
        open: impl Fn(u32) -> anyhow::Result<Box<dyn Source>> + Send + Sync + 'static,
    ) -> CameraOpener {
        CameraOpener(Arc::new(open))
    }

    /// This machine's cameras, as a sitting opens them (1280x720, 30 frames
    /// a second, opened again when one drops out).
    #[must_use]
    pub fn cameras() -> CameraOpener {
        CameraOpener::new(|index| crate::live::open_camera(index, (1280, 720), 30))
    }
}

impl std::fmt::Debug for CameraOpener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CameraOpener")
    }
}

/// The width the preview keeps of each frame, in pixels (a 1280x720 frame
/// is kept 480x270): enough to see the table, little to copy 30 times a
/// second.
const KEPT_WIDTH: u32 = 480;

/// The width it is drawn at on the form, in points.
const SHOWN_WIDTH: f32 = 400.0;

/// How long the reading thread rests after the camera drops out before it
/// asks again (a camera reopened asks no sooner than once a second).
const LOST_REST: Duration = Duration::from_millis(200);

/// Where the camera stands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Standing {
    /// Being opened.
    Opening,
    /// Giving frames: what it is.
    Showing(String),
    /// Dropped out (unplugged): what it is and why; it is opened again.
    Lost(String),
    /// A recording came to its end: what it was.
    Ended(String),
    /// It could not be opened, or failed: why.
    Failed(String),
}

/// What the recogniser makes of the camera's frames.
#[derive(Clone, Debug)]
enum Reading {
    /// Its models are being loaded.
    Loading,
    /// The cards in a recent frame (in the camera's pixels).
    Read(Vec<Seen>),
    /// It cannot read: why (no models, no ONNX Runtime).
    Failed(String),
}

/// What the reading threads leave for the form.
#[derive(Debug)]
struct Latest {
    standing: Standing,
    /// Frames read so far, the last one made small, and its full size.
    frames: u64,
    frame: Option<(RgbImage, (u32, u32))>,
    /// The cards read in a recent frame.
    reading: Reading,
    /// Frames the recogniser has read.
    read: u64,
}

/// What the dealer did on the preview this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tapped {
    /// He asked to open the camera again (it could not be opened).
    pub again: bool,
    /// He tapped the picture here (the camera's pixels, as its frames are).
    pub at: Option<[f32; 2]>,
}

/// The radius of a place marked on the picture, in points.
const MARK_RADIUS: f32 = 7.0;

/// A camera being read for the setup's form.
pub struct Preview {
    camera: u32,
    latest: Arc<Mutex<Latest>>,
    stop: Arc<AtomicBool>,
    /// The camera's thread and the recogniser's.
    threads: Vec<JoinHandle<()>>,
    /// The texture drawn, the frame it holds, and that frame's full size.
    texture: Option<(u64, egui::TextureHandle, (u32, u32))>,
}

impl std::fmt::Debug for Preview {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Preview")
            .field("camera", &self.camera)
            .field("frames", &self.frames())
            .finish_non_exhaustive()
    }
}

impl Preview {
    /// Starts reading camera `camera` on a thread of its own, and the
    /// cards in its frames with the models in `models` on another.
    #[must_use]
    pub fn open(camera: u32, opener: &CameraOpener, models: PathBuf) -> Preview {
        let latest = Arc::new(Mutex::new(Latest {
            standing: Standing::Opening,
            frames: 0,
            frame: None,
            reading: Reading::Loading,
            read: 0,
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let open = Arc::clone(&opener.0);
        // One frame waits for the recogniser at most: the others are let go.
        let (to_read, frames) = sync_channel(1);
        let (shared, stopping) = (Arc::clone(&latest), Arc::clone(&stop));
        let camera_thread =
            std::thread::spawn(move || read(camera, &*open, &to_read, &shared, &stopping));
        let (shared, stopping) = (Arc::clone(&latest), Arc::clone(&stop));
        let reading_thread =
            std::thread::spawn(move || read_cards(&models, &frames, &shared, &stopping));
        Preview {
            camera,
            latest,
            stop,
            threads: vec![camera_thread, reading_thread],
            texture: None,
        }
    }

    /// The camera's number.
    #[must_use]
    pub fn camera(&self) -> u32 {
        self.camera
    }

    /// How many frames it has read.
    #[must_use]
    pub fn frames(&self) -> u64 {
        self.lock().frames
    }

    /// How many of its frames the recogniser has read.
    #[must_use]
    pub fn frames_read(&self) -> u64 {
        self.lock().read
    }

    /// Whether it has stopped reading for good: the camera could not be
    /// opened or failed, or a recording ended.
    #[must_use]
    pub fn stopped(&self) -> bool {
        matches!(
            self.lock().standing,
            Standing::Failed(_) | Standing::Ended(_)
        )
    }

    /// Stops reading and lets the camera go; returns once it is closed, so
    /// that the sitting can open it.
    pub fn close(mut self) {
        self.finish();
    }

    fn finish(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            // A thread that panicked has let the camera go too.
            let _ = thread.join();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Latest> {
        // A frame half written is still a frame to show.
        self.latest.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The camera's picture, with the cards read on it and `marks` (places
    /// in the camera's pixels, and their names), and where it stands; what
    /// the dealer did.
    pub fn preview_ui(&mut self, ui: &mut egui::Ui, marks: &[([f32; 2], String)]) -> Tapped {
        let standing = self.take_frame(ui.ctx());
        let reading = self.lock().reading.clone();
        let at = self.picture_ui(ui, &reading, marks);
        let again = self.standing_ui(ui, &standing);
        if self.texture.is_some() {
            reading_ui(ui, &reading);
        }
        if matches!(
            standing,
            Standing::Opening | Standing::Showing(_) | Standing::Lost(_)
        ) {
            ui.ctx().request_repaint_after(Duration::from_millis(40));
        }
        Tapped { again, at }
    }

    /// The last frame read, into the texture when it is new; where the
    /// camera stands.
    fn take_frame(&mut self, ctx: &egui::Context) -> Standing {
        let (standing, frames, fresh) = {
            let mut latest = self.lock();
            let frames = latest.frames;
            let shown = self.texture.as_ref().map(|(k, ..)| *k);
            let fresh = if shown == Some(frames) {
                None
            } else {
                latest.frame.take()
            };
            (latest.standing.clone(), frames, fresh)
        };
        if let Some((image, full)) = fresh {
            let pixels = [image.width() as usize, image.height() as usize];
            let colour = egui::ColorImage::from_rgb(pixels, image.as_raw());
            if let Some((shown, texture, size)) = &mut self.texture {
                texture.set(colour, egui::TextureOptions::LINEAR);
                *shown = frames;
                *size = full;
            } else {
                let texture = ctx.load_texture(
                    format!("camera {} preview", self.camera),
                    colour,
                    egui::TextureOptions::LINEAR,
                );
                self.texture = Some((frames, texture, full));
            }
        }
        standing
    }

    /// The picture with the cards read and the places marked on it; where
    /// it was tapped, in the camera's pixels.
    fn picture_ui(
        &self,
        ui: &mut egui::Ui,
        reading: &Reading,
        marks: &[([f32; 2], String)],
    ) -> Option<[f32; 2]> {
        let (_, texture, (full_w, full_h)) = self.texture.as_ref()?;
        let [w, h] = texture.size();
        #[allow(clippy::cast_precision_loss)] // a picture's side
        let shown = egui::vec2(SHOWN_WIDTH, SHOWN_WIDTH * h as f32 / w.max(1) as f32);
        // Exactly the picture's size (a justified column would widen the
        // widget past it, and the taps with it).
        let (rect, _) = ui.allocate_exact_size(shown, egui::Sense::hover());
        let id = ui.scope_id().with(("camera preview", self.camera));
        let response = ui.interact(rect, id, egui::Sense::click());
        egui::Image::new((texture.id(), shown)).paint_at(ui, rect);
        let name = format!("what camera {} sees", self.camera);
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, ui.is_enabled(), &name));
        #[allow(clippy::cast_precision_loss)] // a frame's side
        let full = egui::vec2(*full_w as f32, *full_h as f32).max(egui::vec2(1.0, 1.0));
        let painter = ui.painter_at(rect);
        let at = |x: f32, y: f32| rect.min + egui::vec2(x / full.x, y / full.y) * rect.size();
        if let Reading::Read(seen) = reading {
            draw_readings(&painter, seen, at);
        }
        for &([x, y], ref name) in marks {
            let centre = at(x, y);
            painter.circle(
                centre,
                MARK_RADIUS,
                Color32::from_rgb(250, 200, 60),
                egui::Stroke::new(1.5, Color32::BLACK),
            );
            painter.text(
                centre + egui::vec2(MARK_RADIUS + 3.0, 0.0),
                egui::Align2::LEFT_CENTER,
                name,
                egui::FontId::proportional(14.0),
                Color32::WHITE,
            );
        }
        let pos = response
            .clicked()
            .then(|| response.interact_pointer_pos())
            .flatten()?;
        let at = (pos - rect.min) / rect.size() * full;
        Some([at.x, at.y])
    }

    /// Where the camera stands, in words; true when the dealer asks to open
    /// it again.
    fn standing_ui(&self, ui: &mut egui::Ui, standing: &Standing) -> bool {
        let grey = |text: String| RichText::new(text).color(Color32::GRAY);
        match standing {
            Standing::Opening => {
                ui.label(grey(format!("Opening camera {}...", self.camera)));
            }
            Standing::Showing(what) => {
                let size = self
                    .texture
                    .as_ref()
                    .map_or_else(String::new, |(.., (w, h))| format!(", {w}x{h}"));
                ui.label(grey(format!("{what}{size}: what it sees now.")));
                ui.label(grey(
                    "Point it down at the table so that every seat's place, the pack and the \
                     pone's pile are in sight."
                        .to_owned(),
                ));
            }
            Standing::Lost(why) => {
                ui.label(
                    RichText::new(format!(
                        "{why}. Waiting for it: plug it in again, or choose the desk."
                    ))
                    .color(Color32::LIGHT_RED),
                );
            }
            Standing::Ended(what) => {
                ui.label(grey(format!("{what}: its last frame.")));
            }
            Standing::Failed(why) => {
                ui.label(
                    RichText::new(format!(
                        "Camera {} cannot be shown: {why}. Check its cable and that no other \
                         program has it, or choose the desk.",
                        self.camera
                    ))
                    .color(Color32::LIGHT_RED),
                );
                return ui.button("Try the camera again").clicked();
            }
        }
        false
    }
}

impl Drop for Preview {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Readings under this confidence are drawn and named in red on the
/// camera's picture: readings to doubt.
const DOUBTFUL: f32 = 0.8;

/// Each reading's box on a camera's picture, with its card and confidence:
/// gold for a face, blue for a back, red for one read under [`DOUBTFUL`].
/// `at`: a point of the camera's frame on the screen.
pub(crate) fn draw_readings(
    painter: &egui::Painter,
    readings: &[Seen],
    at: impl Fn(f32, f32) -> egui::Pos2,
) {
    for seen in readings {
        let b = seen.bbox;
        let colour = if seen.confidence < DOUBTFUL {
            Color32::LIGHT_RED
        } else if seen.card == "back" {
            crate::screen::CARD_BACK
        } else {
            crate::screen::GOLD
        };
        painter.rect_stroke(
            egui::Rect::from_min_max(at(b[0], b[1]), at(b[2], b[3])),
            2.0,
            egui::Stroke::new(2.0, colour),
            egui::StrokeKind::Outside,
        );
        painter.text(
            at(b[0], b[1]),
            egui::Align2::LEFT_BOTTOM,
            format!("{} {:.2}", seen.card, seen.confidence),
            egui::FontId::proportional(12.0),
            colour,
        );
    }
}

/// What the recogniser reads in the picture, in words under it.
fn reading_ui(ui: &mut egui::Ui, reading: &Reading) {
    let text = match reading {
        Reading::Loading => RichText::new("Loading the card recogniser...").color(Color32::GRAY),
        Reading::Read(seen) if seen.is_empty() => {
            RichText::new("It reads no card on the table now.").color(Color32::GRAY)
        }
        Reading::Read(seen) => {
            let cards: Vec<String> = seen
                .iter()
                .map(|s| format!("{} {:.2}", s.card, s.confidence))
                .collect();
            let doubtful = seen.iter().filter(|s| s.confidence < DOUBTFUL).count();
            let mut text = format!(
                "It reads {} card{} now: {}.",
                seen.len(),
                if seen.len() == 1 { "" } else { "s" },
                cards.join(", ")
            );
            if doubtful > 0 {
                text.push_str(
                    " Those in red it doubts: more light, or the camera nearer the table.",
                );
            }
            RichText::new(text).color(Color32::GRAY)
        }
        Reading::Failed(why) => RichText::new(format!(
            "Its cards cannot be read: {why}. The sitting will say so too; run scripts/setup."
        ))
        .color(Color32::LIGHT_RED),
    };
    ui.label(text);
}

/// The recogniser's thread: loads the models, then reads the cards in each
/// frame the camera's thread hands it, until that thread ends or it is told
/// to stop.
fn read_cards(
    models: &std::path::Path,
    frames: &Receiver<RgbImage>,
    latest: &Mutex<Latest>,
    stop: &AtomicBool,
) {
    crate::yield_to_the_window();
    let set = |reading: Reading| {
        let mut latest = latest.lock().unwrap_or_else(PoisonError::into_inner);
        if matches!(reading, Reading::Read(..)) {
            latest.read += 1;
        }
        latest.reading = reading;
    };
    // One thread: the camera's and the window's have the others.
    let mut recogniser = match Recogniser::open_on(models, 1) {
        Ok(recogniser) => recogniser,
        Err(e) => return set(Reading::Failed(e.to_string())),
    };
    recogniser.camera_frames(true);
    while !stop.load(Ordering::Relaxed) {
        let frame = match frames.recv_timeout(LOST_REST) {
            Ok(frame) => frame,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return,
        };
        match recogniser.recognise(&frame) {
            Ok(seen) => set(Reading::Read(seen)),
            Err(e) => return set(Reading::Failed(e.to_string())),
        }
    }
}

/// The camera's thread: opens the camera and keeps its last frame, small,
/// until told to stop, handing each frame whole to the recogniser when it
/// is free.
fn read(
    camera: u32,
    open: &OpenCamera,
    to_read: &SyncSender<RgbImage>,
    latest: &Mutex<Latest>,
    stop: &AtomicBool,
) {
    crate::yield_to_the_window();
    let set = |standing: Standing| {
        latest
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .standing = standing;
    };
    let mut source = match open(camera) {
        Ok(source) => source,
        Err(e) => return set(Standing::Failed(format!("{e:#}"))),
    };
    let what = source.describe();
    set(Standing::Showing(what.clone()));
    while !stop.load(Ordering::Relaxed) {
        match source.next_frame() {
            Ok(Some(frame)) => {
                let (w, h) = frame.image.dimensions();
                let (small, _) = pone_vision::source::for_showing(&frame.image, KEPT_WIDTH);
                {
                    let mut latest = latest.lock().unwrap_or_else(PoisonError::into_inner);
                    latest.frames += 1;
                    latest.frame = Some((small, (w, h)));
                    latest.standing = Standing::Showing(what.clone());
                }
                // The recogniser busy with a frame and one waiting: this one is let go.
                match to_read.try_send(frame.image) {
                    Ok(()) | Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {}
                }
            }
            Ok(None) => return set(Standing::Ended(what)),
            Err(SourceError::Lost { name, reason }) => {
                set(Standing::Lost(format!("{name} dropped out ({reason})")));
                std::thread::sleep(LOST_REST);
            }
            Err(e) => return set(Standing::Failed(e.to_string())),
        }
    }
}

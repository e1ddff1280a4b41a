//! What a camera sees, shown on the sitting's setup before the sitting
//! starts, so the dealer can point it at the table: a thread reads the
//! chosen camera's frames and keeps the last one, made small, for the form
//! to draw. The camera is let go before the sitting opens it
//! ([`Preview::close`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use eframe::egui;
use egui::{Color32, RichText};
use image::RgbImage;
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

/// What the reading thread leaves for the form.
#[derive(Debug)]
struct Latest {
    standing: Standing,
    /// Frames read so far, the last one made small, and its full size.
    frames: u64,
    frame: Option<(RgbImage, (u32, u32))>,
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
    thread: Option<JoinHandle<()>>,
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
    /// Starts reading camera `camera` on a thread of its own.
    #[must_use]
    pub fn open(camera: u32, opener: &CameraOpener) -> Preview {
        let latest = Arc::new(Mutex::new(Latest {
            standing: Standing::Opening,
            frames: 0,
            frame: None,
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let open = Arc::clone(&opener.0);
        let (shared, stopping) = (Arc::clone(&latest), Arc::clone(&stop));
        let thread = std::thread::spawn(move || read(camera, &*open, &shared, &stopping));
        Preview {
            camera,
            latest,
            stop,
            thread: Some(thread),
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
        if let Some(thread) = self.thread.take() {
            // A thread that panicked has let the camera go too.
            let _ = thread.join();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Latest> {
        // A frame half written is still a frame to show.
        self.latest.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The camera's picture, with `marks` on it (places in the camera's
    /// pixels, and their names), and where it stands; what the dealer did.
    pub fn preview_ui(&mut self, ui: &mut egui::Ui, marks: &[([f32; 2], String)]) -> Tapped {
        let standing = self.take_frame(ui.ctx());
        let at = self.picture_ui(ui, marks);
        let again = self.standing_ui(ui, &standing);
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

    /// The picture with the places marked on it; where it was tapped, in
    /// the camera's pixels.
    fn picture_ui(&self, ui: &mut egui::Ui, marks: &[([f32; 2], String)]) -> Option<[f32; 2]> {
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
        for ([x, y], name) in marks {
            let centre = rect.min + egui::vec2(x / full.x, y / full.y) * rect.size();
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

/// The reading thread: opens the camera and keeps its last frame, small,
/// until told to stop.
fn read(camera: u32, open: &OpenCamera, latest: &Mutex<Latest>, stop: &AtomicBool) {
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
                let kept_h = (u64::from(h) * u64::from(KEPT_WIDTH) / u64::from(w.max(1))).max(1);
                let small = image::imageops::thumbnail(
                    &frame.image,
                    KEPT_WIDTH.min(w),
                    u32::try_from(kept_h).unwrap_or(h).min(h),
                );
                let mut latest = latest.lock().unwrap_or_else(PoisonError::into_inner);
                latest.frames += 1;
                latest.frame = Some((small, (w, h)));
                latest.standing = Standing::Showing(what.clone());
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

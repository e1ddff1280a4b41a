//! `pone play`: frames from a source through the recogniser and the tracker
//! into the engine, with the dealer's words from a file; the ledger at the end.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use pone_engine::report;
use pone_engine::script::Meta;
use pone_vision::play::{DealerScript, Play};
use pone_vision::recognise::{Recogniser, models_dir};
use pone_vision::sitting::LabelDealer;
use pone_vision::source::{FolderSource, MjpegSource, Pace, Source, SourceError, Unplugged};
use pone_vision::tracker::TrackerOptions;

/// What `pone play` is given.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// A frames folder (or a rendered sitting's folder, or a recording's), or
    /// an MJPEG file; or, with `camera`, none.
    pub source: Option<PathBuf>,
    /// The camera to play from (its number in `pone cameras`), instead of a
    /// recorded source: its frame size asked, and its frame rate (`fps`, 30
    /// when not given).
    pub camera: Option<(u32, (u32, u32))>,
    /// The dealer's lines (`dealer.jsonl`): the table line first, every line
    /// with its `frame`. Without it the players are `deal`'s, and the dealer
    /// gives his words at the window's desk.
    pub dealer: Option<PathBuf>,
    /// The players, in seating order, when there is no `dealer` script.
    pub deal: Option<Vec<String>>,
    /// With `deal`: who deals first (by place in `deal`).
    pub first: usize,
    /// With `deal`: the house rules.
    pub rules: pone_engine::HouseRules,
    /// Print the ledger as JSON.
    pub json: bool,
    /// The models folder.
    pub models: Option<PathBuf>,
    /// Frames per second, when the source does not say.
    pub fps: Option<f32>,
    /// Play at the recording's own pace rather than as fast as possible.
    pub live: bool,
    /// A recording at its own pace (the window's, or with `live`), every
    /// frame read however late ([`Pace::Steady`]), none let go.
    pub every_frame: bool,
    /// The sitting's seat zones: read from this JSON file when it is there
    /// (saved by an earlier sitting, or made by hand), else learned and
    /// written to it at the end; places moved in the window (a seat's, the
    /// pack's, the pile's) are written at once.
    pub zones: Option<PathBuf>,
    /// Seat zones given by hand (tapped on the setup's camera picture): the
    /// table starts from them rather than from `zones`' file.
    pub seat_zones: Option<pone_vision::play::SeatZones>,
    /// The game's journal, written after every change (a new file: one
    /// there already is refused, so nothing is written over).
    pub journal: Option<PathBuf>,
    /// A recording played with the camera out in these windows (from, to;
    /// times from its start), to rehearse an unplugged camera
    /// ([`pone_vision::source::Unplugged`]).
    pub camera_out: Vec<(Duration, Duration)>,
}

impl PlayOptions {
    /// How a recording is played: as fast as it can be read, or (`paced`:
    /// the window always, headless with `live`) at its own pace, as a
    /// camera gives it or, with `every_frame`, every frame however late.
    fn pace(&self, paced: bool) -> Pace {
        match (paced, self.every_frame) {
            (false, _) => Pace::Fast,
            (true, false) => Pace::Live,
            (true, true) => Pace::Steady,
        }
    }
}

/// The dealer's script: `options.dealer`'s, or, at the desk, the table of
/// `options.deal` under `options.rules` with no lines yet but who deals
/// first (`options.first`).
fn dealer_script(options: &PlayOptions) -> anyhow::Result<DealerScript> {
    if let Some(path) = &options.dealer {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        return DealerScript::parse(&text)
            .with_context(|| format!("the dealer's script {}", path.display()));
    }
    let Some(players) = options.deal.clone() else {
        anyhow::bail!(
            "name the dealer's script (--dealer DIR/dealer.jsonl) or the players (--deal Ann,Bob,Cat)"
        );
    };
    let Some(first) = players.get(options.first).cloned() else {
        anyhow::bail!("the first dealer is not among the players {players:?}");
    };
    Ok(DealerScript {
        players,
        rules: options.rules.clone(),
        lines: vec![(0, pone_engine::Line::Dealer { player: first })],
    })
}

/// The frames `pone play` reads: the camera (reopened when it drops out)
/// or the recorded source, at its own pace or as fast as it goes.
fn play_source(options: &PlayOptions, pace: Pace) -> anyhow::Result<Box<dyn Source>> {
    match (&options.source, options.camera) {
        (Some(_), Some(_)) => anyhow::bail!("give --camera or --source, not both"),
        (Some(path), None) if options.camera_out.is_empty() => open_source(path, options.fps, pace),
        (Some(path), None) => Ok(Box::new(Unplugged::new(
            open_source(path, options.fps, pace)?,
            options.camera_out.clone(),
        ))),
        (None, Some(_)) if !options.camera_out.is_empty() => anyhow::bail!(
            "--camera-out rehearses a camera unplugged on a recording (--source); a real \
             camera is unplugged by hand"
        ),
        (None, Some((index, size))) => {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // a frame rate
            let fps = options
                .fps
                .map_or(30, |f| f.round().clamp(1.0, 240.0) as u32);
            open_camera(index, size, fps)
        }
        (None, None) => anyhow::bail!(
            "give the frames: --camera N (see `pone cameras`) or --source DIR (a recording, \
             a rendered sitting or a frames folder)"
        ),
    }
}

/// A table's play, with its seat zones given by hand, or from
/// `options.zones` when that file is there.
fn new_play(options: &PlayOptions, script: DealerScript, fps: f32) -> anyhow::Result<Play> {
    let play = Play::new(script, fps, TrackerOptions::default())?;
    if let Some(zones) = &options.seat_zones {
        return play
            .with_zones(zones.clone())
            .context("the seat zones placed on the setup");
    }
    let Some(path) = options.zones.as_deref().filter(|p| p.is_file()) else {
        return Ok(play);
    };
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the seat zones {}", path.display()))?;
    let zones: pone_vision::play::SeatZones = serde_json::from_str(&text).with_context(|| {
        format!(
            "{}: not seat zones (`anchors`: per seat [x, y] or null, `stacks`: [[x, y], ...], \
             `card_size`: pixels; remove the file to learn them again)",
            path.display()
        )
    })?;
    play.with_zones(zones)
        .with_context(|| format!("the seat zones {}", path.display()))
}

/// What the pipeline keeps on disk as the game goes: its journal after every
/// change, and the seat zones.
struct Keeping {
    journal: Option<PathBuf>,
    /// The journal's lines when it was last written (it only grows).
    written: Option<usize>,
    zones: Option<PathBuf>,
    /// Whether the zones file was there at the start: the user's, not
    /// written over with zones learned (only with seats he moves).
    zones_existed: bool,
}

impl Keeping {
    /// Refuses a journal that is there already: a camera's table starts a
    /// new one, and nothing is written over.
    fn new(options: &PlayOptions) -> anyhow::Result<Keeping> {
        if let Some(path) = options.journal.as_deref()
            && path.exists()
        {
            anyhow::bail!(
                "{}: a journal is there already, and a camera's table starts a new one: \
                 move that file away, or name another with --journal",
                path.display()
            );
        }
        Ok(Keeping {
            journal: options.journal.clone(),
            written: None,
            zones: options.zones.clone(),
            zones_existed: options.zones.as_deref().is_some_and(Path::is_file),
        })
    }

    /// Writes the journal when it grew since it was last written, and the
    /// seat zones when `moved` or `at_end` asks ([`Keeping::zones`]).
    fn keep(&mut self, play: &Play, moved: bool, at_end: bool) -> anyhow::Result<()> {
        self.journal(play.game())?;
        self.zones(play, moved, at_end)
    }

    /// Writes the journal, when it grew since it was last written.
    fn journal(&mut self, game: &pone_engine::Game) -> anyhow::Result<()> {
        let Some(path) = self.journal.as_deref() else {
            return Ok(());
        };
        let lines = game.journal().len();
        if self.written != Some(lines) {
            crate::desk::write_journal(path, &game.journal_text())?;
            self.written = Some(lines);
        }
        Ok(())
    }

    /// Writes the seat zones: at once when the user moved a seat, and at the
    /// end the zones learned, into a file that was not there at the start.
    fn zones(&self, play: &Play, moved: bool, at_end: bool) -> anyhow::Result<()> {
        let Some(path) = self.zones.as_deref() else {
            return Ok(());
        };
        if !(moved || (at_end && !self.zones_existed)) {
            return Ok(());
        }
        std::fs::write(path, serde_json::to_string_pretty(play.zones())? + "\n")
            .with_context(|| format!("cannot write the seat zones {}", path.display()))
    }
}

/// Opens a frames folder, a rendered sitting's folder (its `frames/`), a
/// recording's folder (its `recording.mjpeg`), or an MJPEG file.
pub fn open_source(path: &Path, fps: Option<f32>, pace: Pace) -> anyhow::Result<Box<dyn Source>> {
    let recording = path.join(RECORDING);
    if recording.is_file() {
        return Ok(Box::new(MjpegSource::open(&recording, fps, pace)?));
    }
    if path.is_dir() {
        let frames = path.join("frames");
        let folder = if frames.is_dir() {
            frames
        } else {
            path.to_owned()
        };
        Ok(Box::new(FolderSource::open(&folder, fps, pace)?))
    } else if path.is_file() {
        Ok(Box::new(MjpegSource::open(path, fps, pace)?))
    } else {
        anyhow::bail!(
            "{}: no such folder or file (give a frames folder, a rendered sitting's folder, or an MJPEG file)",
            path.display()
        )
    }
}

/// The MJPEG file of a recording's folder.
const RECORDING: &str = "recording.mjpeg";

/// `pone cameras`: the cameras attached, by number.
pub fn list_cameras(out: &mut impl Write) -> anyhow::Result<()> {
    let cameras = pone_vision::source::cameras()?;
    if cameras.is_empty() {
        writeln!(
            out,
            "no camera found{}",
            if cfg!(feature = "camera") {
                ""
            } else {
                ": this pone was built without the camera feature"
            }
        )?;
    }
    for camera in cameras {
        writeln!(out, "{}: {}", camera.index, camera.name)?;
    }
    Ok(())
}

/// What `pone record` is given.
#[derive(Clone, Debug)]
pub struct RecordOptions {
    /// The folder to write `recording.mjpeg` and `recording.json` into.
    pub out: PathBuf,
    /// Record this camera.
    pub camera: Option<u32>,
    /// Or copy this source (a frames folder, a sitting, an MJPEG file).
    pub source: Option<PathBuf>,
    /// Stop after this many seconds.
    pub seconds: Option<f32>,
    /// Frame size asked of the camera.
    pub size: (u32, u32),
    /// Frame rate asked of the camera.
    pub fps: u32,
}

/// `pone record`: what a camera (or another source) sees, as an MJPEG file
/// with its frame rate beside it, for `pone play --source` later. The file
/// holds every whole frame written even if recording is cut short.
pub fn record(options: &RecordOptions, out: &mut impl Write) -> anyhow::Result<()> {
    let mut source: Box<dyn Source> = match (&options.camera, &options.source) {
        (Some(_), Some(_)) => anyhow::bail!("give --camera or --source, not both"),
        (_, Some(path)) => open_source(path, None, Pace::Fast)?,
        (camera, None) => open_camera(camera.unwrap_or(0), options.size, options.fps)?,
    };
    std::fs::create_dir_all(&options.out)
        .with_context(|| format!("cannot make {}", options.out.display()))?;
    let path = options.out.join(RECORDING);
    let file =
        std::fs::File::create(&path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut writer = std::io::BufWriter::new(file);
    let fps = source.fps();
    let mut frames = 0u64;
    let mut size = (0, 0);
    let bar = crate::cli::progress_bar(0, "frames");
    loop {
        let frame = match source.next_frame() {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(pone_vision::source::SourceError::Lost { name, reason }) => {
                bar.println(format!("{name} lost: {reason}"));
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        if options.seconds.is_some_and(|s| frame.at.as_secs_f32() >= s) {
            break;
        }
        size = frame.image.dimensions();
        if let Some(bytes) = &frame.jpeg {
            writer.write_all(bytes)?;
        } else {
            let mut bytes = Vec::new();
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 90)
                .encode_image(&frame.image)?;
            writer.write_all(&bytes)?;
        }
        frames += 1;
        bar.inc(1);
    }
    bar.finish_and_clear();
    writer.flush()?;
    let info = serde_json::json!({
        "fps": fps,
        "width": size.0,
        "height": size.1,
        "frames": frames,
        "source": source.describe(),
    });
    let info_path = options.out.join("recording.json");
    std::fs::write(&info_path, serde_json::to_string_pretty(&info)? + "\n")
        .with_context(|| format!("cannot write {}", info_path.display()))?;
    writeln!(
        out,
        "{frames} frames ({}x{} at {fps} fps) from {} into {}",
        size.0,
        size.1,
        source.describe(),
        path.display()
    )?;
    Ok(())
}

/// A camera that is reopened when it drops out.
#[cfg(feature = "camera")]
pub(crate) fn open_camera(
    index: u32,
    size: (u32, u32),
    fps: u32,
) -> anyhow::Result<Box<dyn Source>> {
    use pone_vision::source::{CameraRequest, CameraSource, Reopening};
    let request = CameraRequest { index, size, fps };
    let source = Reopening::new(
        move || CameraSource::open(&request),
        std::time::Duration::from_secs(1),
    )?;
    Ok(Box::new(source))
}

#[cfg(not(feature = "camera"))]
pub(crate) fn open_camera(
    _index: u32,
    _size: (u32, u32),
    _fps: u32,
) -> anyhow::Result<Box<dyn Source>> {
    anyhow::bail!(
        "this pone was built without the camera feature: rebuild with `--features camera`"
    )
}

/// What the window shows of a table kept from a camera, as the pipeline's
/// thread last left it.
#[derive(Default)]
pub struct LiveView {
    /// The game so far.
    pub game: Option<pone_engine::Game>,
    /// The last frame read (its number, and the picture at most
    /// [`VIEW_WIDTH`] wide).
    pub frame: Option<(u64, image::RgbImage)>,
    /// The picture's pixels per source pixel.
    pub scale: f32,
    /// What the recogniser read in it, in source pixels.
    pub readings: Vec<pone_vision::recognise::Seen>,
    /// Where the seats' cards lie, in source pixels.
    pub zones: pone_vision::play::SeatZones,
    /// What the dealer should settle.
    pub questions: Vec<pone_vision::play::Question>,
    /// Where the frames come from.
    pub source: String,
    /// Reading a frame, median of the last ones, milliseconds.
    pub read_ms: f64,
    /// Whether the recording has ended.
    pub ended: bool,
    /// Why the pipeline stopped, if it failed.
    pub error: Option<String>,
    /// Whether the dealer gives his words at the window's desk (no script).
    pub desk: bool,
    /// The game's journal file, when it has one (the ledger is exported beside it).
    pub journal: Option<PathBuf>,
    /// Lines the desk said, for the pipeline to take.
    pub inbox: Vec<pone_engine::Line>,
    /// The dealer's lines the pipeline holds, not in the game yet.
    pub waiting: usize,
    /// Places (a seat's, the pack's, the pile's) dragged on the camera's
    /// picture (source pixels), for the pipeline to take.
    pub moved_places: Vec<(pone_vision::play::Place, [f32; 2])>,
    /// The window is closing: the pipeline stops before its next frame.
    pub closing: bool,
    /// Frames read so far.
    pub frames_read: u64,
    /// Frames the source let go unread, come while the one before was read.
    pub frames_dropped: u64,
    /// How long after it was due the latest frame's reading was done, and
    /// the longest so far, milliseconds (the source's clock started with
    /// its first frame): whether the pipeline keeps up with the source.
    pub behind_ms: (f64, f64),
    /// The window's context, given by the window when it first draws: the
    /// pipeline wakes it when it leaves something new, so the window draws
    /// as often as frames are read rather than on a clock of its own (every
    /// 30 ms before: in a software-drawn window, drawing is a core's work
    /// taken from the recogniser).
    pub waker: Option<eframe::egui::Context>,
}

/// The pipeline's thread and the view it keeps. Dropping it stops the
/// thread and waits for it, so that the program never ends while a frame is
/// being read (ONNX Runtime's globals torn down under a running model made
/// it print errors at exit).
pub struct Pipeline {
    view: std::sync::Arc<std::sync::Mutex<LiveView>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Pipeline {
    /// The view the pipeline keeps, for the window to draw.
    #[must_use]
    pub fn view(&self) -> std::sync::Arc<std::sync::Mutex<LiveView>> {
        std::sync::Arc::clone(&self.view)
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        if let Ok(mut view) = self.view.lock() {
            view.closing = true;
        }
        if let Some(thread) = self.thread.take() {
            // A pipeline that panicked has nothing more to stop.
            let _ = thread.join();
        }
    }
}

/// The widest the window's camera picture is kept.
pub const VIEW_WIDTH: u32 = 960;

/// `pone play` in the window: the pipeline runs on its own thread at the
/// recording's pace, and the window shows the table it keeps, the camera's
/// picture with every reading and the seat zones, and the questions.
/// Everything is opened before the window, so a bad source, script or model
/// is an error here, not a blank window.
pub fn play_window(options: &PlayOptions, window: crate::screen::LiveWindow) -> anyhow::Result<()> {
    let pipeline = start_pipeline(options)?;
    crate::screen::run_live(pipeline, window)
}

/// Opens the source, the script and the models, and starts the pipeline on
/// its own thread. Anything that cannot open is an error here.
pub fn start_pipeline(options: &PlayOptions) -> anyhow::Result<Pipeline> {
    use std::sync::{Arc, Mutex, mpsc};
    let view = Arc::new(Mutex::new(LiveView {
        desk: options.dealer.is_none(),
        journal: options.journal.clone(),
        ..LiveView::default()
    }));
    let (opened, ready) = mpsc::channel::<anyhow::Result<()>>();
    let worker = Arc::clone(&view);
    let options = options.clone();
    let thread = std::thread::spawn(move || {
        crate::yield_to_the_window();
        let start = || -> anyhow::Result<_> {
            let source = play_source(&options, options.pace(true))?;
            let script = dealer_script(&options)?;
            // The window draws beside the recogniser: a core is left to it
            // (drawing in software, two busy threads of the finder made a
            // quarter of the window's frames late at 60 a second).
            let folder = options.models.clone().unwrap_or_else(models_dir);
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get() - 1);
            let mut recogniser = Recogniser::open_on(&folder, threads.clamp(1, 4))?;
            recogniser.camera_frames(true);
            recogniser.frames_a_second(source.fps());
            let keeping = Keeping::new(&options)?;
            let play = new_play(&options, script, source.fps())?;
            Ok((source, recogniser, play, keeping))
        };
        // A rendered sitting played from its script: its dealer answers the
        // table's calls to show a hand, and its doubts about a card, from
        // what he saw (its labels), as
        // `pone play --headless` has him do (the camera demo's showdowns).
        let dealer = label_dealer(options.source.as_deref()).filter(|_| options.dealer.is_some());
        match start() {
            Ok((source, recogniser, play, keeping)) => {
                let _ = opened.send(Ok(()));
                run_pipeline(source, recogniser, play, keeping, dealer, &worker);
            }
            Err(e) => {
                let _ = opened.send(Err(e));
            }
        }
    });
    ready
        .recv()
        .context("the pipeline's thread stopped before it started")??;
    Ok(Pipeline {
        view,
        thread: Some(thread),
    })
}

/// The median of the last 30 of `times`, `new` added.
fn recent_median(times: &mut std::collections::VecDeque<f64>, new: f64) -> f64 {
    times.push_back(new);
    if times.len() > 30 {
        times.pop_front();
    }
    let mut sorted: Vec<f64> = times.iter().copied().collect();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

/// The recording has ended: the showdown is played out, `answer` showing
/// each hand the table asks for (a rendered sitting's dealer) until it
/// shows none; first as far as his answers allow, the table still asking
/// ([`Play::finish_asking`]), then whatever is left.
fn finish(play: &mut Play, mut answer: impl FnMut(&mut Play) -> bool) {
    play.finish_asking();
    while answer(play) {
        play.finish_asking();
    }
    play.finish();
    while answer(play) {
        play.finish();
    }
}

/// The camera is out (`why`): the window says so, the game kept. Whether
/// the window is closing, which waits for nothing more.
fn camera_out(view: &std::sync::Mutex<LiveView>, why: &dyn std::fmt::Display) -> bool {
    let Ok(mut v) = view.lock() else {
        return true;
    };
    v.error = Some(format!("{why}: the game is kept; waiting for the camera"));
    v.closing
}

/// What the window left for the table before a frame is read: the desk's
/// lines, and the places dragged on the camera's picture (whether any was).
/// `None` when the window is closing. Taken without waking the window:
/// nothing new to draw.
fn take_from_the_window(view: &std::sync::Mutex<LiveView>, play: &mut Play) -> Option<bool> {
    let (said, moved) = {
        let mut v = view.lock().ok()?;
        if v.closing {
            return None;
        }
        (
            std::mem::take(&mut v.inbox),
            std::mem::take(&mut v.moved_places),
        )
    };
    for line in said {
        play.say(line);
    }
    let dragged = !moved.is_empty();
    for (place, at) in moved {
        play.move_place(place, at);
    }
    Some(dragged)
}

/// Reads frames until the source ends, leaving each step in `view`.
fn run_pipeline(
    mut source: Box<dyn Source>,
    mut recogniser: Recogniser,
    mut play: Play,
    mut keeping: Keeping,
    mut dealer: Option<LabelDealer>,
    view: &std::sync::Mutex<LiveView>,
) {
    let update = |f: &mut dyn FnMut(&mut LiveView)| {
        if let Ok(mut v) = view.lock() {
            f(&mut v);
            if let Some(window) = &v.waker {
                window.request_repaint();
            }
        }
    };
    let description = source.describe();
    update(&mut |v| {
        v.source.clone_from(&description);
        v.game = Some(play.game().clone());
    });
    let mut times = std::collections::VecDeque::new();
    // When the source's clock started: the first frame's time, less its `at`.
    let mut clock: Option<Instant> = None;
    let mut last = 0;
    loop {
        let frame = match source.next_frame() {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(e) => {
                if camera_out(view, &e) {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(500));
                continue;
            }
        };
        let Some(dragged) = take_from_the_window(view, &mut play) else {
            return;
        };
        let start = Instant::now();
        let due =
            *clock.get_or_insert_with(|| start.checked_sub(frame.at).unwrap_or(start)) + frame.at;
        let readings = match recogniser.recognise(&frame.image) {
            Ok(r) => r,
            Err(e) => {
                let text = format!("{e}");
                update(&mut |v| v.error = Some(text.clone()));
                break;
            }
        };
        play.frame_size(frame.image.width(), frame.image.height());
        play.frame(frame.index, frame.at, &readings);
        if let Some(dealer) = &mut dealer {
            dealer.answer(&mut play, frame.index);
        }
        last = frame.index;
        let behind = due.elapsed().as_secs_f64() * 1000.0;
        let dropped = source.dropped();
        let read_ms = recent_median(&mut times, start.elapsed().as_secs_f64() * 1000.0);
        let (picture, scale) = pone_vision::source::for_showing(&frame.image, VIEW_WIDTH);
        let mut picture = Some(picture);
        // Kept on disk each frame; a failure is said on screen, and the game
        // goes on in memory.
        let kept = keeping
            .keep(&play, dragged, false)
            .err()
            .map(|e| format!("{e:#}"));
        update(&mut |v| {
            v.game = Some(play.game().clone());
            v.frame = picture.take().map(|p| (frame.index, p));
            v.scale = scale;
            v.readings.clone_from(&readings);
            v.zones = play.zones().clone();
            v.questions = play.questions().to_vec();
            v.read_ms = read_ms;
            v.frames_read += 1;
            v.frames_dropped = dropped;
            v.behind_ms = (behind, v.behind_ms.1.max(behind));
            v.waiting = play.waiting();
            v.error.clone_from(&kept);
        });
    }
    finish(&mut play, |play| {
        dealer
            .as_mut()
            .is_some_and(|d| d.answer(play, last).is_some())
    });
    let kept = keeping
        .keep(&play, false, true)
        .err()
        .map(|e| format!("{e:#}"));
    update(&mut |v| {
        v.game = Some(play.game().clone());
        v.questions = play.questions().to_vec();
        v.ended = true;
        if kept.is_some() {
            v.error.clone_from(&kept);
        }
    });
}

/// `pone play --headless`: runs the whole pipeline and prints the ledger (as
/// `pone replay` does); on stderr, the questions raised and the latency.
pub fn play_headless(options: &PlayOptions, out: &mut impl Write) -> anyhow::Result<()> {
    let mut source = play_source(options, options.pace(options.live))?;
    anyhow::ensure!(
        options.dealer.is_some(),
        "--headless needs the dealer's script (--dealer FILE): with --deal the dealer gives \
         his words at the window's desk"
    );
    let script = dealer_script(options)?;
    let folder = options.models.clone().unwrap_or_else(models_dir);
    let mut recogniser = Recogniser::open(&folder)?;
    // One camera, one table: the frames are alike in scale.
    recogniser.camera_frames(true);
    let fps = source.fps();
    recogniser.frames_a_second(fps);
    let mut keeping = Keeping::new(options)?;
    let mut play = new_play(options, script, fps)?;
    // A rendered sitting's dealer answers the table's calls to show a hand,
    // and its doubts about a card, from what he saw (its labels), as a
    // dealer at the desk would.
    let mut dealer = label_dealer(options.source.as_deref());
    let mut answer = |play: &mut Play, frame: u64| {
        let said = dealer.as_mut().and_then(|d| d.answer(play, frame));
        if let Some(line) = &said {
            eprintln!(
                "the dealer, asked at frame {frame}, says: {}",
                line.to_json(&Meta::default())
            );
        }
        said.is_some()
    };
    let bar = crate::cli::progress_bar(0, "frames");
    let mut busy = Vec::new();
    let mut last = 0;
    loop {
        let frame = match source.next_frame() {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(e @ SourceError::Lost { .. }) => {
                eprintln!("{e}: the game is kept; waiting for the camera");
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let start = Instant::now();
        let readings = recogniser.recognise(&frame.image)?;
        play.frame_size(frame.image.width(), frame.image.height());
        play.frame(frame.index, frame.at, &readings);
        busy.push(start.elapsed().as_secs_f64() * 1000.0);
        bar.inc(1);
        answer(&mut play, frame.index);
        keeping.keep(&play, false, false)?;
        last = frame.index;
    }
    bar.finish_and_clear();
    finish(&mut play, |play| answer(play, last));
    keeping.keep(&play, false, true)?;
    let game = play.game();
    if options.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&report::to_json(game))?
        )?;
    } else {
        write!(out, "{}", report::to_text(game))?;
    }
    summarise(&play, options.source.as_deref(), fps, &mut busy);
    if options.live {
        let dropped = source.dropped();
        let offered = busy.len() as u64 + dropped;
        #[allow(clippy::cast_precision_loss)] // frame counts
        let share = 100.0 * dropped as f64 / offered.max(1) as f64;
        eprintln!(
            "played live: {dropped} of the {offered} frames ({share:.1}%) let go, come while \
             the one before was read"
        );
    }
    Ok(())
}

/// On stderr: speed, the questions, and the card-to-engine latency (against
/// `truth.jsonl` when the source is a rendered sitting).
#[allow(
    clippy::print_stderr, // the CLI's report, beside the ledger on stdout
    clippy::cast_precision_loss, // frame counts and milliseconds, far below 2^52
    clippy::cast_sign_loss // a rank in a list: positive
)]
fn summarise(play: &Play, source: Option<&Path>, fps: f32, busy: &mut [f64]) {
    busy.sort_by(f64::total_cmp);
    let frames = busy.len();
    let mean = busy.iter().sum::<f64>() / frames.max(1) as f64;
    eprintln!(
        "{frames} frames at {fps} fps; {mean:.1} ms a frame to read ({:.1} frames a second)",
        1000.0 / mean.max(1e-3)
    );
    for q in play.questions() {
        match &q.answered {
            Some(how) => eprintln!(
                "question at frame {}: {} (settled by the camera: {how})",
                q.frame, q.text
            ),
            None => eprintln!("question at frame {}: {}", q.frame, q.text),
        }
    }
    let frame_ms = 1000.0 / f64::from(fps.max(0.1));
    // The cards dealt (a `card` line), not the ones shown.
    let dealt: Vec<_> = play
        .delivered()
        .iter()
        .filter(|d| d.line.contains("\"card\""))
        .collect();
    let cards = dealt.len();
    let truth = source.map(truth_cards).unwrap_or_default();
    if !truth.is_empty() {
        let camera: Vec<(String, Option<String>)> =
            dealt.iter().filter_map(|d| dealt_to(&d.line)).collect();
        let agree = in_order(&truth, &camera);
        eprintln!(
            "deal: {agree} of the truth's {} cards went to its player in its order (the camera gave {cards})",
            truth.len()
        );
    }
    let truth: Vec<u64> = if truth.len() == cards {
        truth.iter().map(|t| t.frame).collect()
    } else {
        Vec::new()
    };
    let mut latencies: Vec<f64> = dealt
        .iter()
        .enumerate()
        .map(|(k, d)| {
            let landed = truth.get(k).copied().unwrap_or(d.landed);
            (d.known.saturating_sub(landed)) as f64 * frame_ms + mean
        })
        .collect();
    latencies.sort_by(f64::total_cmp);
    if !latencies.is_empty() {
        let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
        eprintln!(
            "card to engine: {} cards, latency median {:.0} ms, 95th percentile {:.0} ms ({})",
            latencies.len(),
            at(0.5),
            at(0.95),
            if truth.is_empty() {
                "from the tracker's landing frames"
            } else {
                "from truth.jsonl's landing frames"
            }
        );
    }
}

/// A card of a rendered sitting's `truth.jsonl`.
struct TruthCard {
    /// The frame it landed in.
    frame: u64,
    /// Who it went to.
    to: String,
    /// The card.
    card: String,
}

/// The folder of the rendered sitting a source plays, given as its folder
/// or as its `frames` folder (`pone play --source DIR/frames`).
fn sitting_dir(source: &Path) -> &Path {
    if source.ends_with("frames") {
        source.parent().unwrap_or(source)
    } else {
        source
    }
}

/// The labelled dealer of the rendered sitting a source plays, when it is
/// one ([`LabelDealer`]: he answers the table from what lies on it).
fn label_dealer(source: Option<&Path>) -> Option<LabelDealer> {
    let dir = sitting_dir(source?);
    dir.join("labels").is_dir().then(|| LabelDealer::new(dir))
}

/// The cards of a rendered sitting's `truth.jsonl`, in order (none when the
/// source is not a rendered sitting).
fn truth_cards(source: &Path) -> Vec<TruthCard> {
    let Ok(text) = std::fs::read_to_string(sitting_dir(source).join("truth.jsonl")) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["t"] == "card")
        .filter_map(|v| {
            Some(TruthCard {
                frame: v["frame"].as_u64()?,
                to: v["to"].as_str()?.to_owned(),
                card: v["card"].as_str()?.to_owned(),
            })
        })
        .collect()
}

/// Who a `card` line the engine took went to, and the card when it was seen.
fn dealt_to(line: &str) -> Option<(String, Option<String>)> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    Some((
        v["to"].as_str()?.to_owned(),
        v["card"].as_str().map(str::to_owned),
    ))
}

/// How many of the truth's cards the camera gave to the right player in the
/// right order (and, face up, as the right card): the longest run they share,
/// in order, gaps allowed.
fn in_order(truth: &[TruthCard], camera: &[(String, Option<String>)]) -> usize {
    let same = |t: &TruthCard, c: &(String, Option<String>)| {
        t.to == c.0 && c.1.as_ref().is_none_or(|card| *card == t.card)
    };
    let mut row = vec![0usize; camera.len() + 1];
    for t in truth {
        let mut diagonal = 0;
        for (j, c) in camera.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if same(t, c) {
                diagonal + 1
            } else {
                above.max(row[j])
            };
            diagonal = above;
        }
    }
    row[camera.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seat zones tapped on the setup's picture are the table's from the
    /// start, before any zones file; zones for another count of seats are
    /// refused with the reason.
    #[test]
    fn seat_zones_given_by_hand_start_the_table() {
        let zones = pone_vision::play::SeatZones {
            anchors: vec![Some([300.0, 500.0]), None, Some([900.0, 480.0])],
            stacks: vec![[640.0, 120.0]],
            card_size: 0.0,
        };
        let mut options = PlayOptions {
            source: None,
            camera: None,
            dealer: None,
            deal: Some(["Ann", "Bob", "Cat"].map(str::to_owned).to_vec()),
            first: 0,
            rules: pone_engine::HouseRules::default(),
            json: false,
            models: None,
            fps: None,
            live: true,
            every_frame: false,
            zones: Some(PathBuf::from("/nonexistent/sitting.zones.json")),
            seat_zones: Some(zones.clone()),
            journal: None,
            camera_out: Vec::new(),
        };
        let play =
            new_play(&options, dealer_script(&options).expect("a script"), 30.0).expect("a table");
        assert_eq!(play.zones(), &zones);
        options.deal = Some(["Ann", "Bob"].map(str::to_owned).to_vec());
        let refused = new_play(&options, dealer_script(&options).expect("a script"), 30.0);
        assert!(refused.is_err_and(|e| format!("{e:#}").contains("placed on the setup")));
    }

    fn truth(cards: &[(&str, &str)]) -> Vec<TruthCard> {
        cards
            .iter()
            .enumerate()
            .map(|(k, (to, card))| TruthCard {
                frame: k as u64,
                to: (*to).to_owned(),
                card: (*card).to_owned(),
            })
            .collect()
    }

    fn camera(cards: &[(&str, Option<&str>)]) -> Vec<(String, Option<String>)> {
        cards
            .iter()
            .map(|(to, card)| ((*to).to_owned(), card.map(str::to_owned)))
            .collect()
    }

    #[test]
    fn the_deal_counts_cards_to_the_right_player_in_order() {
        let t = truth(&[("Ann", "5H"), ("Bob", "KD"), ("Cat", "2C")]);
        // A second sight at Cat's place between: the rest still in order.
        let c = camera(&[
            ("Ann", None),
            ("Cat", None),
            ("Bob", Some("KD")),
            ("Cat", Some("2C")),
        ]);
        assert_eq!(in_order(&t, &c), 3);
        // A face-up card read wrong does not count; one missed is missed.
        let c = camera(&[("Ann", None), ("Bob", Some("QD"))]);
        assert_eq!(in_order(&t, &c), 1);
        assert_eq!(in_order(&t, &[]), 0);
    }

    #[test]
    fn a_card_line_gives_its_player_and_card() {
        assert_eq!(
            dealt_to(r#"{"t":"card","to":"Bob","card":"KD"}"#),
            Some(("Bob".to_owned(), Some("KD".to_owned())))
        );
        assert_eq!(
            dealt_to(r#"{"t":"card","to":"Ann"}"#),
            Some(("Ann".to_owned(), None))
        );
        assert_eq!(dealt_to("not json"), None);
    }
}

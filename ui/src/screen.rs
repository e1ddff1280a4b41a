//! The side screen: an eframe window on a sitting. It shows every seat with
//! its name, stake, cards, points and status, whose turn it is, the dealer,
//! the pack and the pone's pile, running totals, and after each round who
//! paid whom and why. With no camera it plays the demo sitting.
//!
//! [`show_table`] draws a game into any `Ui` (the window, and the UI tests);
//! [`show_desk`] draws the dealer's desk (what the table waits for, the keys,
//! large buttons for touch) and passes it the keys pressed; [`SideScreen`] is
//! the window's app: the demo table driven by the clock, or a sitting kept
//! at the desk.

use std::time::Duration;

use eframe::egui;
use egui::{Color32, RichText};
use pone_engine::eight::RoundGame;
use pone_engine::event::{Declaration, Flag};
use pone_engine::ledger::RoundRecord;
use pone_engine::sitting::{HandState, Phase, State};
use pone_engine::{Card, Game, Rank, Seat, Suit, report};

use crate::demo::DemoTable;
use crate::desk::{Desk, Key, Said};
use crate::drill::{Drill, show_drill};
use crate::setup::{Dealing, Setup, Start, show_setup};
use pone_vision::play::Place;

/// What the window plays and for how long.
#[derive(Clone, Debug)]
pub struct ScreenOptions {
    /// Keep a sitting at the dealer's desk instead of the demo: its players,
    /// in seating order, the first dealing (with `journal`, a new journal).
    pub deal: Option<Vec<String>>,
    /// The journal the desk writes as it goes; an existing one is gone on
    /// with (with no `deal`); with `setup`, the form's journal.
    pub journal: Option<std::path::PathBuf>,
    /// The house rules of a new sitting at the desk (default: every rule's default).
    pub rules: pone_engine::HouseRules,
    /// Open on a new sitting's setup.
    pub setup: bool,
    /// Open on a settlement drill of these questions.
    pub drill: Option<Vec<crate::drill::Question>>,
    /// At the desk, training the dealer: at each round's end he announces
    /// every settlement, and the screen marks it before showing its own.
    pub training: bool,
    /// Players at the demo table.
    pub players: usize,
    /// The demo's seed.
    pub seed: u64,
    /// Close the window after this many seconds (for tests and screenshots).
    pub exit_after: Option<f64>,
    /// Close the window once the camera demo has played its recording
    /// through once (for tests, however slowly the machine renders it).
    pub exit_at_end: bool,
    /// Measure the frame times and print them on closing.
    pub measure_redraw: Option<Measure>,
    /// Time between two things the demo table does.
    pub step: Duration,
    /// What the window opens on when no sitting, setup or drill is asked for.
    pub opening: Opening,
    /// Where a new sitting's form is kept at Start, and filled in from the
    /// next time ([`crate::setup::last_sitting_file`] for `pone`; none: the
    /// form starts afresh and is not kept).
    pub remember: Option<std::path::PathBuf>,
}

/// What the window opens on when no sitting, setup or drill is asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Opening {
    /// The engine's demo.
    #[default]
    EngineDemo,
    /// `pone` alone: a new sitting's setup on the camera when one is
    /// attached; else the camera demo.
    CameraFirst,
    /// The camera demo (rendered into the cache on the first start, the
    /// engine's demo playing meanwhile), even with a camera attached.
    CameraDemo,
}

impl Default for ScreenOptions {
    fn default() -> ScreenOptions {
        ScreenOptions {
            deal: None,
            journal: None,
            rules: pone_engine::HouseRules::default(),
            setup: false,
            drill: None,
            training: false,
            players: 5,
            seed: 1,
            exit_after: None,
            exit_at_end: false,
            measure_redraw: None,
            step: Duration::from_millis(700),
            opening: Opening::EngineDemo,
            remember: None,
        }
    }
}

/// Whether Pone's windows open full screen (`--fullscreen`: a second
/// monitor or a tablet by the table); F11 switches either way.
static FULL_SCREEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Pone's windows open full screen from now on (`pone --fullscreen`).
pub fn open_full_screen() {
    FULL_SCREEN.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The window's options: its title and size (or full screen), and the renderer: OpenGL
/// (glow) unless `PONE_RENDERER=wgpu`. On a machine drawing in software (Mesa
/// llvmpipe, as here), glow drew the 7-player table at 53 frames a second
/// and wgpu at 12 (`--measure-redraw`).
fn native_options(title: &str, size: [f32; 2]) -> eframe::NativeOptions {
    let renderer = match std::env::var("PONE_RENDERER").as_deref() {
        Ok("wgpu") => eframe::Renderer::Wgpu,
        _ => eframe::Renderer::Glow,
    };
    eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(title)
            .with_inner_size(size)
            .with_fullscreen(FULL_SCREEN.load(std::sync::atomic::Ordering::Relaxed)),
        renderer,
        // Dithering hides banding in gradients, which the screen has none
        // of; drawing in software it cost a seventh of each frame.
        dithering: false,
        ..eframe::NativeOptions::default()
    }
}

/// F11 puts the window full screen (a second monitor or a tablet by the
/// table) and back.
fn fullscreen_key(ui: &egui::Ui) {
    if ui.input(|i| i.key_pressed(egui::Key::F11)) {
        let full = ui.input(|i| i.viewport().fullscreen.unwrap_or(false));
        ui.ctx()
            .send_viewport_cmd(egui::ViewportCommand::Fullscreen(!full));
    }
}

/// Opens the window and runs until it is closed (or `exit_after` passes).
pub fn run(options: ScreenOptions) -> anyhow::Result<()> {
    let table = match (&options.deal, &options.journal) {
        (Some(players), journal) => Table::Desk(Box::new(Desk::new(
            players.clone(),
            options.rules.clone(),
            journal.clone(),
        )?)),
        (None, _) if options.drill.is_some() => Table::Drill(Box::new(Drill::new(
            options.drill.clone().unwrap_or_default(),
        ))),
        (None, _) if options.setup => Table::Setup(Box::new(setup_form(&options))),
        (None, Some(journal)) => Table::Desk(Box::new(Desk::resume(journal)?)),
        (None, None) => {
            let setup = (options.opening == Opening::CameraFirst)
                .then(|| setup_form(&options))
                .filter(|setup| !setup.cameras.is_empty());
            match setup {
                Some(setup) => Table::Setup(Box::new(setup)),
                None => Table::Demo(Box::new(DemoTable::new(options.players, options.seed)?)),
            }
        }
    };
    let camera_demo = (options.opening != Opening::EngineDemo && matches!(table, Table::Demo(_)))
        .then(|| CameraDemo::Rendering(crate::demo::Rendering::start(options.players)));
    let native = native_options("Pone: Vingt-un", [1280.0, 800.0]);
    eframe::run_native(
        "pone",
        native,
        Box::new(move |_| {
            let mut screen = SideScreen::new(table, options);
            screen.camera_demo = camera_demo;
            Ok(Box::new(screen))
        }),
    )
    .map_err(|e| {
        anyhow::anyhow!(
            "cannot open Pone's window: {e}. It needs a display (X11): on a machine \
             with none, run it under `xvfb-run`, or use `pone demo` in the terminal"
        )
    })
}

/// A new sitting's form, its journal `options.journal` when given.
fn setup_form(options: &ScreenOptions) -> Setup {
    let mut setup = Setup::here();
    if let Some(file) = &options.remember {
        setup = setup.remembering(file);
    }
    if let Some(journal) = &options.journal {
        setup.journal = journal.display().to_string();
    }
    setup
}

/// What the window shows: the demo, a sitting kept at the desk, a new
/// sitting's setup, or a table kept from a camera.
pub enum Table {
    /// The demo sitting, playing itself.
    Demo(Box<DemoTable>),
    /// A sitting kept from the dealer's keys.
    Desk(Box<Desk>),
    /// A new sitting's form.
    Setup(Box<Setup>),
    /// A table kept from a camera, started from the setup.
    Live(Box<LiveScreen>),
    /// A settlement drill.
    Drill(Box<Drill>),
}

impl Table {
    /// The game shown (none on the setup's form, or before a camera's first frame).
    pub fn game(&self) -> Option<&Game> {
        match self {
            Table::Demo(demo) => Some(demo.game()),
            Table::Desk(desk) => Some(desk.game()),
            Table::Setup(_) | Table::Live(_) | Table::Drill(_) => None,
        }
    }
}

/// The window's app: the demo table played by the clock, or the desk, drawn each frame.
pub struct SideScreen {
    table: Table,
    options: ScreenOptions,
    /// When the table next acts, in the window's seconds.
    next_step: f64,
    /// Why the demo stopped, if it did.
    stopped: Option<String>,
    /// Frame times, with `measure_redraw`.
    redraws: Option<Redraws>,
    /// Training at the desk: the rounds settled when last looked, the
    /// announcements asked of the round just ended, and how they went.
    training: Option<Training>,
    /// What exporting the demo's ledger said last.
    exported: Option<String>,
    /// The camera demo, when the window started on the demo with no camera.
    camera_demo: Option<CameraDemo>,
    /// The rounds the engine's demo played before the camera demo took its
    /// place (`None`: it never gave way).
    demo_rounds_before: Option<u32>,
}

/// The camera demo: a sitting rendered from the built-in CC0 card designs
/// and read frame by frame through the recogniser and the tracker, as a
/// camera's would be, its dealer's words from its script.
enum CameraDemo {
    /// Its sitting being rendered; the engine's demo plays meanwhile.
    Rendering(crate::demo::Rendering),
    /// Rendered into this folder, waiting for the demo table to be shown.
    Ready(std::path::PathBuf),
    /// Played from this folder (again when it ends): the plays finished,
    /// and the rounds settled and frames read in them.
    Playing {
        dir: std::path::PathBuf,
        plays: u32,
        rounds: usize,
        frames: u64,
    },
    /// Why it is not shown (the engine's demo plays instead).
    Off(String),
}

/// The ledger's export button, for a table with no desk (the desk has its
/// `E` key): writes it beside `journal` ([`crate::desk::export_beside`]) and
/// says where, or why not. `said` keeps what it said last.
fn export_button(
    ui: &mut egui::Ui,
    game: &Game,
    journal: Option<&std::path::Path>,
    said: &mut Option<String>,
) {
    if ui.button("Export the ledger").clicked() {
        *said = Some(match crate::desk::export_beside(game, journal) {
            Ok(written) => crate::desk::capitalised(&written),
            Err(e) => format!("Not written: {e:#}"),
        });
    }
    if let Some(said) = said {
        ui.label(said.as_str());
    }
}

/// How many rounds of `game` are settled.
fn settled_rounds(game: &Game) -> usize {
    game.ledger()
        .rounds
        .iter()
        .filter(|r| r.next_dealer.is_some())
        .count()
}

/// The dealer's announcements of each round's settlements, in training.
struct Training {
    /// The rounds settled when last looked.
    rounds: usize,
    /// The camera's questions looked at (at a camera's table).
    questions: usize,
    asking: Option<Drill>,
    so_far: crate::drill::Practice,
}

impl Training {
    /// Training from `game` on (the rounds of a sitting gone on with were
    /// settled before).
    fn new(game: Option<&Game>) -> Training {
        Training {
            rounds: game.map_or(0, settled_rounds),
            questions: 0,
            asking: None,
            so_far: crate::drill::Practice::default(),
        }
    }

    /// Looks at the game after the dealer's keys: a round just ended is
    /// asked about before the table shows it.
    fn follow(&mut self, game: &Game) {
        let rounds = settled_rounds(game);
        if rounds > self.rounds {
            self.rounds = rounds;
            let questions = crate::drill::round_questions(game);
            if !questions.is_empty() {
                self.asking = Some(Drill::new(questions));
            }
        }
    }

    /// Counts the dealing slips among the camera's questions not looked at yet.
    fn note_slips(&mut self, questions: &[pone_vision::play::Question]) {
        for q in questions.iter().skip(self.questions) {
            if let Some(slip) = q.slip {
                self.so_far.slipped(slip);
            }
        }
        self.questions = self.questions.max(questions.len());
    }

    /// The practice's report as the sitting closes (`None`: nothing was
    /// announced and no slip seen): what to tell whoever started Pone. It
    /// is added to `<journal>.training.txt` beside the sitting's journal, a
    /// paragraph a practice, so a dealer's practices are kept together.
    fn close(&self, journal: Option<&std::path::Path>) -> Option<String> {
        if self.so_far.is_empty() {
            return None;
        }
        let report = format!(
            "training, after round {}: settlements announced {}",
            self.rounds,
            self.so_far.report()
        );
        let Some(journal) = journal else {
            return Some(report);
        };
        let path = journal.with_extension("training.txt");
        let kept = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut file| {
                std::io::Write::write_all(&mut file, format!("{report}\n\n").as_bytes())
            });
        Some(match kept {
            Ok(()) => format!("{report}\n(kept in {})", path.display()),
            Err(e) => format!(
                "{report}\n(not kept: cannot write {}: {e}; free the disk or fix the folder's permissions)",
                path.display()
            ),
        })
    }

    /// The practice so far, as a panel along the top, once there is any.
    fn show_report(&self, ui: &mut egui::Ui) {
        if self.so_far.is_empty() {
            return;
        }
        egui::Panel::top("training").show(ui, |ui| {
            ui.label(
                RichText::new(format!(
                    "Training: settlements announced {}",
                    self.so_far.report()
                ))
                .color(GOLD),
            );
        });
    }

    /// Asks for the announcements while any are due, on a panel of the
    /// window's own; true while it does (the table and the desk wait).
    fn ask(&mut self, ui: &mut egui::Ui) -> bool {
        if self.asking.is_none() {
            return false;
        }
        egui::CentralPanel::default().show(ui, |ui| self.ask_inside(ui));
        true
    }

    /// [`Training::ask`]'s questions, in `ui`.
    fn ask_inside(&mut self, ui: &mut egui::Ui) {
        let Some(drill) = &mut self.asking else {
            return;
        };
        let before = drill.practice().clone();
        ui.label(
            RichText::new("Training: announce each settlement before the screen shows it.")
                .color(GOLD)
                .size(18.0),
        );
        show_drill(ui, drill);
        let after = drill.practice();
        let answered = after.asked > before.asked;
        if answered {
            self.so_far.asked += 1;
            self.so_far.right += after.right - before.right;
            self.so_far.seconds.extend(after.seconds.last().copied());
            for (&mistake, &times) in &after.mistakes {
                let new = times - before.mistakes.get(&mistake).copied().unwrap_or(0);
                if new > 0 {
                    *self.so_far.mistakes.entry(mistake).or_default() += new;
                }
            }
        }
        if drill.question().is_none() {
            let shown = ui
                .button(RichText::new("Show the table (Enter)").size(20.0))
                .clicked()
                || (!answered && ui.input(|i| i.key_pressed(egui::Key::Enter)));
            if shown {
                self.asking = None;
            }
        }
    }
}

impl SideScreen {
    /// A window on `table`.
    pub fn new(table: Table, options: ScreenOptions) -> SideScreen {
        let training = options.training.then(|| Training::new(table.game()));
        SideScreen {
            table,
            training,
            exported: None,
            redraws: options.measure_redraw.map(Redraws::new),
            options,
            next_step: 0.0,
            stopped: None,
            camera_demo: None,
            demo_rounds_before: None,
        }
    }

    /// The camera demo's turn: its sitting, once rendered, played in place
    /// of the engine's demo, and played again when it ends.
    fn follow_camera_demo(&mut self) {
        let showing_demo = matches!(self.table, Table::Demo(_));
        match &mut self.camera_demo {
            Some(CameraDemo::Rendering(rendering)) => match rendering.finished() {
                Some(Ok(dir)) => self.camera_demo = Some(CameraDemo::Ready(dir)),
                Some(Err(e)) => self.camera_demo = Some(CameraDemo::Off(format!("{e:#}"))),
                None => {}
            },
            Some(CameraDemo::Ready(dir)) if showing_demo => {
                let dir = dir.clone();
                self.camera_demo = Some(match self.play_camera_demo(&dir) {
                    Ok(()) => CameraDemo::Playing {
                        dir,
                        plays: 0,
                        rounds: 0,
                        frames: 0,
                    },
                    Err(e) => CameraDemo::Off(format!("{e:#}")),
                });
            }
            Some(CameraDemo::Playing {
                dir,
                plays,
                rounds,
                frames,
            }) => {
                let Table::Live(live) = &self.table else {
                    return;
                };
                let Some((settled, read)) = live.finished() else {
                    return;
                };
                if self.options.exit_at_end {
                    // Played through once: the window closes on it.
                    return;
                }
                *plays += 1;
                *rounds += settled;
                *frames += read;
                let dir = dir.clone();
                if let Err(e) = self.play_camera_demo(&dir) {
                    self.camera_demo = Some(CameraDemo::Off(format!("{e:#}")));
                }
            }
            _ => {}
        }
    }

    /// Whether the camera demo has played its recording through.
    fn camera_demo_played(&self) -> bool {
        matches!(self.camera_demo, Some(CameraDemo::Playing { .. }))
            && matches!(&self.table, Table::Live(live) if live.finished().is_some())
    }

    /// Shows the camera demo's sitting from `dir`, from its first frame.
    fn play_camera_demo(&mut self, dir: &std::path::Path) -> anyhow::Result<()> {
        let pipeline = crate::live::start_pipeline(&crate::demo::camera_demo_play(dir))?;
        if let Table::Demo(demo) = &self.table {
            *self.demo_rounds_before.get_or_insert(0) += demo.rounds();
        }
        self.table = Table::Live(Box::new(LiveScreen::on(pipeline, None, None)));
        Ok(())
    }

    /// The demo table again (from a drill): the camera demo's when it has
    /// played, else the engine's.
    fn back_to_the_demo(&mut self) {
        if let Some(CameraDemo::Playing { dir, .. }) = &self.camera_demo {
            let dir = dir.clone();
            if self.play_camera_demo(&dir).is_ok() {
                return;
            }
        }
        match DemoTable::new(self.options.players, self.options.seed) {
            Ok(demo) => self.table = Table::Demo(Box::new(demo)),
            Err(e) => self.stopped = Some(format!("{e:#}")),
        }
    }

    /// What the demo's bar says of the camera demo.
    fn camera_demo_words(&self) -> Option<String> {
        Some(match self.camera_demo.as_ref()? {
            CameraDemo::Rendering(rendering) => {
                let (done, total) = rendering.progress();
                if total == 0 {
                    "The camera demo is being dealt...".to_owned()
                } else {
                    format!(
                        "Rendering the camera demo from the built-in card designs: {done} of \
                         {total} frames (once, into the cache)."
                    )
                }
            }
            CameraDemo::Ready(_) => "The camera demo is ready.".to_owned(),
            CameraDemo::Playing { plays, .. } => format!(
                "Camera demo{}: a rendered sitting read frame by frame by the recogniser; \
                 the dealer's words from its script.",
                if *plays > 0 {
                    format!(", play {}", plays + 1)
                } else {
                    String::new()
                }
            ),
            CameraDemo::Off(why) => format!("No camera demo: {why}"),
        })
    }

    /// The game shown.
    pub fn game(&self) -> Option<&Game> {
        self.table.game()
    }

    /// Starts the sitting the setup gave: at the desk, or from its camera.
    fn begin(&mut self, start: &Start) {
        let began = match start.dealing {
            Dealing::Desk => Desk::with_dealer(
                start.players.clone(),
                start.rules.clone(),
                start.journal.clone(),
                start.dealer.and_then(|d| u8::try_from(d).ok()).map(Seat),
            )
            .map(|desk| Table::Desk(Box::new(desk))),
            Dealing::Camera(index) => {
                let options = crate::live::PlayOptions {
                    source: None,
                    camera: Some((index, (1280, 720))),
                    dealer: None,
                    deal: Some(start.players.clone()),
                    first: start.dealer.unwrap_or(0),
                    rules: start.rules.clone(),
                    json: false,
                    models: None,
                    fps: None,
                    live: true,
                    every_frame: false,
                    // Beside the journal, as the sitting's own.
                    zones: start
                        .journal
                        .as_ref()
                        .map(|j| j.with_extension("zones.json")),
                    seat_zones: start.zones.clone(),
                    journal: start.journal.clone(),
                    camera_out: Vec::new(),
                };
                crate::live::start_pipeline(&options).map(|pipeline| {
                    let screen = LiveScreen::on(pipeline, None, None);
                    let screen = if start.training {
                        screen.training()
                    } else {
                        screen
                    };
                    Table::Live(Box::new(screen))
                })
            }
        };
        match began {
            Ok(table) => {
                self.table = table;
                self.training = start.training.then(|| Training::new(self.table.game()));
            }
            Err(e) => {
                if let Table::Setup(setup) = &mut self.table {
                    setup.error = Some(format!("{e:#}"));
                }
            }
        }
    }

    /// Lets the demo table act when its time has come (`now` in seconds).
    fn advance(&mut self, now: f64) {
        let Table::Demo(demo) = &mut self.table else {
            return;
        };
        if self.stopped.is_some() || now < self.next_step {
            return;
        }
        match demo.step() {
            Ok(events) => {
                let ended = events
                    .iter()
                    .any(|e| matches!(e, pone_engine::Event::RoundEnded { .. }));
                // A round's settlement stays up long enough to read.
                let pause = if ended { 4.0 } else { 1.0 };
                self.next_step = now + pause * self.options.step.as_secs_f64();
            }
            Err(e) => self.stopped = Some(format!("{e:#}")),
        }
    }
}

impl eframe::App for SideScreen {
    /// The demo says on closing how far it played (`pone --exit-after`
    /// checks a whole round was).
    #[allow(clippy::print_stderr)] // the one line a closed window leaves, for whoever started it
    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        match (&self.camera_demo, &self.table) {
            (Some(CameraDemo::Playing { rounds, frames, .. }), Table::Live(live)) => {
                let (settled, read) = live.played();
                eprintln!(
                    "camera demo: {} rounds played from {} frames read by the recogniser",
                    rounds + settled,
                    frames + read
                );
            }
            (Some(CameraDemo::Rendering(rendering)), _) => {
                let (done, total) = rendering.progress();
                eprintln!("camera demo: rendering, {done} of {total} frames");
            }
            (Some(CameraDemo::Off(why)), _) => eprintln!("camera demo: off: {why}"),
            _ => {}
        }
        let closed = match &self.table {
            Table::Live(live) => live.close(),
            Table::Desk(desk) => self.training.as_ref().and_then(|t| t.close(desk.journal())),
            _ => None,
        };
        if let Some(report) = closed {
            eprintln!("{report}");
        }
        // The engine's demo, played now or before the camera demo's took
        // its place.
        let now = match &self.table {
            Table::Demo(demo) => Some(demo.rounds()),
            _ => None,
        };
        if now.is_some() || self.demo_rounds_before.is_some() {
            let stopped = self
                .stopped
                .as_ref()
                .map(|why| format!("; stopped: {why}"))
                .unwrap_or_default();
            let rounds = now.unwrap_or(0) + self.demo_rounds_before.unwrap_or(0);
            eprintln!("demo: {rounds} rounds played{stopped}");
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let now = ui.input(|i| i.time);
        if let Some(redraws) = &mut self.redraws {
            redraws.tick(ui, frame, now);
        }
        fullscreen_key(ui);
        if self.options.exit_after.is_some_and(|limit| now >= limit)
            || (self.options.exit_at_end && self.camera_demo_played())
        {
            if let Some(redraws) = &mut self.redraws {
                redraws.report();
            }
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.follow_camera_demo();
        self.advance(now);
        // Drawn again at least four times a second: the engine's demo's
        // clock, and --exit-after, whatever is shown. Only the engine's demo
        // keeps the clock: under any other table its last step is long past,
        // and counting from it drew the window flat out (50 times a second,
        // a core's worth in software, so the camera demo's recogniser read
        // one frame in nine).
        let wait = match self.table {
            Table::Demo(_) => (self.next_step - now).max(0.0),
            _ => 0.25,
        };
        ui.ctx()
            .request_repaint_after(Duration::from_secs_f64(wait.min(0.25)));
        let camera_words = self.camera_demo_words();
        match &mut self.table {
            Table::Setup(setup) => {
                // On a panel: its margin and fill, as the table's views have.
                let start = egui::CentralPanel::default()
                    .show(ui, |ui| show_setup(ui, setup))
                    .inner;
                if let Some(start) = start {
                    self.begin(&start);
                }
                return;
            }
            Table::Live(live) => {
                if let Some(words) = camera_words
                    && let Some(table) = demo_bar(ui, &words, None, &self.options)
                {
                    self.table = table;
                } else {
                    live.ui(ui, frame);
                }
                return;
            }
            Table::Drill(drill) => {
                let back = egui::CentralPanel::default()
                    .show(ui, |ui| {
                        show_drill(ui, drill);
                        drill.question().is_none() && ui.button("Back to the demo table").clicked()
                    })
                    .inner;
                if back {
                    self.back_to_the_demo();
                }
                return;
            }
            Table::Desk(desk) => {
                if let Some(training) = &mut self.training {
                    if training.ask(ui) {
                        return;
                    }
                    training.show_report(ui);
                }
                show_desk(ui, desk);
                if let Some(training) = &mut self.training {
                    training.follow(desk.game());
                    if training.asking.is_some() {
                        // The round ended with this pass's keys or taps, the
                        // desk already drawn: drawn again, the question comes
                        // first, and the table's settlement waits for it.
                        ui.ctx()
                            .request_discard("a round ended: the dealer announces it first");
                        ui.ctx().request_repaint();
                        return;
                    }
                }
            }
            Table::Demo(demo) => {
                let words = camera_words.map_or_else(
                    || "The demo table plays itself.".to_owned(),
                    |camera| format!("The demo table plays itself. {camera}"),
                );
                let export = Some((demo.game(), &mut self.exported));
                if let Some(table) = demo_bar(ui, &words, export, &self.options) {
                    self.table = table;
                }
            }
        }
        if let Some(game) = self.table.game() {
            show_table(ui, game);
        }
        if let Some(why) = &self.stopped {
            egui::Panel::bottom("stopped").show(ui, |ui| {
                ui.colored_label(Color32::LIGHT_RED, why);
            });
        }
    }
}

/// The demo's bar: what it is (`words`), the ledger's export (the engine's
/// demo: its game, and what exporting said last), a new sitting, and the
/// settlement drills; the table to go to when one is chosen.
fn demo_bar(
    ui: &mut egui::Ui,
    words: &str,
    export: Option<(&Game, &mut Option<String>)>,
    options: &ScreenOptions,
) -> Option<Table> {
    let mut new_table = None;
    egui::Panel::bottom("new sitting").show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(words);
            if let Some((game, exported)) = export {
                let stem = std::path::Path::new("pone-demo.jsonl");
                export_button(ui, game, Some(stem), exported);
            }
            if ui.button("New sitting...").clicked() {
                new_table = Some(Table::Setup(Box::new(setup_form(options))));
            }
            if ui.button("Practise settlements...").clicked() {
                let seed = ui.input(|i| i.time).to_bits();
                new_table = Some(
                    match crate::drill::questions(options.players, seed, 10, &options.rules) {
                        Ok(q) => Table::Drill(Box::new(Drill::new(q))),
                        Err(e) => {
                            let mut setup = setup_form(options);
                            setup.error = Some(format!("{e:#}"));
                            Table::Setup(Box::new(setup))
                        }
                    },
                );
            }
        });
    });
    new_table
}

/// Opens the window on a table kept from a camera (`pone play`): the
/// pipeline's thread fills `view`; the window draws it until closed (or
/// `exit_after` seconds pass).
pub fn run_live(pipeline: crate::live::Pipeline, window: LiveWindow) -> anyhow::Result<()> {
    let native = native_options("Pone: Vingt-un, from the camera", [1280.0, 860.0]);
    eframe::run_native(
        "pone",
        native,
        Box::new(move |_| {
            let mut screen = LiveScreen::on(pipeline, window.exit_after, window.measure_redraw);
            screen.exit_at_end = window.exit_at_end;
            Ok(Box::new(if window.train {
                screen.training()
            } else {
                screen
            }))
        }),
    )
    .map_err(|e| {
        anyhow::anyhow!(
            "cannot open Pone's window: {e}. It needs a display (X11): on a machine \
             with none, run it under `xvfb-run`, or add --headless"
        )
    })
}

/// How `pone play` opens its window.
#[derive(Clone, Copy, Debug, Default)]
pub struct LiveWindow {
    /// Close it after this many seconds.
    pub exit_after: Option<f64>,
    /// Close it once the recording has played to its end.
    pub exit_at_end: bool,
    /// Measure the frame times and print them on closing.
    pub measure_redraw: Option<Measure>,
    /// Train the dealer ([`LiveScreen::training`]).
    pub train: bool,
}

/// The window's app for a table kept from a camera.
pub struct LiveScreen {
    view: std::sync::Arc<std::sync::Mutex<crate::live::LiveView>>,
    exit_after: Option<f64>,
    /// Close once the recording has ended (`pone play --exit-at-end`).
    exit_at_end: bool,
    /// The camera's last picture on the GPU, and its frame number.
    picture: Option<(u64, egui::TextureHandle)>,
    /// Frame times, with `--measure-redraw`.
    redraws: Option<Redraws>,
    /// The dealer's desk, when he gives his words here (no script).
    desk: Option<Desk>,
    /// Training the dealer: his dealing slips counted, and each round's
    /// settlements announced before the table shows them.
    training: Option<Training>,
    /// The pipeline's thread, stopped when the window goes.
    pipeline: Option<crate::live::Pipeline>,
    /// What exporting the ledger said last (a table with no desk).
    exported: Option<String>,
}

impl LiveScreen {
    /// A window on the table `pipeline` keeps; the pipeline stops with it.
    #[must_use]
    pub fn on(
        pipeline: crate::live::Pipeline,
        exit_after: Option<f64>,
        measure_redraw: Option<Measure>,
    ) -> LiveScreen {
        let mut screen = LiveScreen::new(pipeline.view(), exit_after, measure_redraw);
        screen.pipeline = Some(pipeline);
        screen
    }

    /// A window on the table the pipeline keeps in `view`.
    #[must_use]
    pub fn new(
        view: std::sync::Arc<std::sync::Mutex<crate::live::LiveView>>,
        exit_after: Option<f64>,
        measure_redraw: Option<Measure>,
    ) -> LiveScreen {
        LiveScreen {
            view,
            exit_after,
            exit_at_end: false,
            picture: None,
            redraws: measure_redraw.map(Redraws::new),
            desk: None,
            training: None,
            pipeline: None,
            exported: None,
        }
    }

    /// Rounds settled and frames read so far.
    #[must_use]
    pub fn played(&self) -> (usize, u64) {
        self.view.lock().map_or((0, 0), |view| {
            let rounds = view.game.as_ref().map_or(0, settled_rounds);
            (rounds, view.frames_read)
        })
    }

    /// Once the recording has ended (and its game is whole): the rounds
    /// settled and the frames read.
    #[must_use]
    pub fn finished(&self) -> Option<(usize, u64)> {
        let ended = self.view.lock().is_ok_and(|view| view.ended);
        ended.then(|| self.played())
    }

    /// Trains the dealer at this table: the slips the camera sees are told
    /// and counted, and at each round's end he announces the settlements
    /// before the table shows them.
    #[must_use]
    pub fn training(mut self) -> LiveScreen {
        let game = self.view.lock().ok().and_then(|v| v.game.clone());
        self.training = Some(Training::new(game.as_ref()));
        self
    }
}

/// The desk's panel at a camera's table: it follows the pipeline's game once
/// the lines it said are in, and hands the pipeline what the dealer says.
fn live_desk(desk: &mut Option<Desk>, ui: &mut egui::Ui, view: &mut crate::live::LiveView) {
    {
        let Some(game) = &view.game else {
            return;
        };
        let desk = desk.get_or_insert_with(|| Desk::at_camera(game.clone()));
        let said_waiting = !view.inbox.is_empty() || view.waiting > 0;
        if !said_waiting {
            desk.follow(game.clone());
        }
        desk.ask(&view.questions);
        let before = desk.game().in_force().len();
        show_desk(ui, desk);
        view.inbox.extend(desk.said_commands(before));
        view.inbox.extend(desk.take_corrections());
    }
}

impl LiveScreen {
    /// As the window closes: the training report, when the dealer trained
    /// ([`Training::close`]).
    fn close(&self) -> Option<String> {
        let journal = self.view.lock().ok()?.journal.clone();
        self.training.as_ref()?.close(journal.as_deref())
    }
}

impl eframe::App for LiveScreen {
    #[allow(clippy::print_stderr)] // the report a closed window leaves, for whoever started it
    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        if let Some(report) = self.close() {
            eprintln!("{report}");
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let now = ui.input(|i| i.time);
        if let Some(redraws) = &mut self.redraws {
            redraws.tick(ui, frame, now);
        }
        fullscreen_key(ui);
        let ended = self.exit_at_end && self.finished().is_some();
        if ended || self.exit_after.is_some_and(|limit| now >= limit) {
            if let Some(redraws) = &mut self.redraws
                && redraws.report()
            {
                report_pipeline(&self.view);
            }
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        let Ok(mut view) = self.view.lock() else {
            return;
        };
        if view.waker.is_none() {
            view.waker = Some(ui.ctx().clone());
        }
        if let Some((index, image)) = view.frame.take()
            && self
                .picture
                .as_ref()
                .is_none_or(|(shown, _)| *shown != index)
        {
            let size = [image.width() as usize, image.height() as usize];
            let colour = egui::ColorImage::from_rgb(size, image.as_raw());
            if let Some((shown, texture)) = &mut self.picture {
                texture.set(colour, egui::TextureOptions::LINEAR);
                *shown = index;
            } else {
                let texture = ui
                    .ctx()
                    .load_texture("camera", colour, egui::TextureOptions::LINEAR);
                self.picture = Some((index, texture));
            }
        }
        // While training asks for the announcements, the camera's picture
        // and its questions stay in sight; the table and the desk wait.
        let mut asking = false;
        if let Some(training) = &mut self.training {
            training.note_slips(&view.questions);
            if let Some(game) = &view.game {
                training.follow(game);
            }
            asking = training.asking.is_some();
            if !asking {
                training.show_report(ui);
            }
        }
        if view.desk && !asking {
            live_desk(&mut self.desk, ui, &mut view);
        }
        egui::Panel::bottom("camera")
            .default_size(300.0)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    let desk = self.desk.as_ref();
                    let settled = |k: usize| desk.is_some_and(|d| d.settled(k));
                    if let Some((_, texture)) = &self.picture {
                        // The card the newest open doubt is about.
                        let doubted = view
                            .questions
                            .iter()
                            .enumerate()
                            .rev()
                            .find(|(k, q)| q.answered.is_none() && !settled(*k))
                            .and_then(|(_, q)| q.at);
                        show_camera(ui, texture, &mut view, doubted);
                    } else {
                        ui.label("Waiting for the first frame...");
                    }
                    ui.vertical(|ui| {
                        show_questions(ui, &view, &settled);
                        if !view.desk
                            && let Some(game) = &view.game
                        {
                            let journal = view.journal.as_deref();
                            export_button(ui, game, journal, &mut self.exported);
                        }
                    });
                });
            });
        if let Some(training) = self.training.as_mut().filter(|_| asking) {
            training.ask(ui);
        } else if let Some(game) = &view.game {
            show_table(ui, game);
        }
        drop(view);
        // The pipeline wakes the window with each frame it reads; the clock
        // (--exit-after) a few times a second besides.
        ui.ctx().request_repaint_after(Duration::from_millis(250));
    }
}

/// With `--measure-redraw`, beside the window's frame times: whether the
/// pipeline kept up with its source while the window drew.
#[allow(clippy::print_stderr)] // the measurement asked for, beside the window
fn report_pipeline(view: &std::sync::Mutex<crate::live::LiveView>) {
    if let Ok(view) = view.lock() {
        let (last, worst) = view.behind_ms;
        eprintln!(
            "pipeline: {} frames read ({} let go, come while the one before was read), median \
             {:.1} ms a frame; the latest read {last:.1} ms after it was due, the latest of all \
             {worst:.1} ms",
            view.frames_read, view.frames_dropped, view.read_ms
        );
    }
}

/// How `--measure-redraw` draws the window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Measure {
    /// Every frame drawn again at once: the times between frames show the
    /// cost of a frame, and how often one takes longer than a 60 Hz frame.
    FlatOut,
    /// Drawn as a display of `hz` refreshes a second asks: each frame at the
    /// next refresh, and a refresh that passes with no frame drawn is a
    /// frame dropped.
    Paced {
        /// Refreshes a second.
        hz: f64,
    },
}

impl Measure {
    /// `--measure-redraw`'s value: 0 (or none given) draws flat out, a rate
    /// paces the window to it.
    #[must_use]
    pub fn from_hz(hz: f64) -> Measure {
        if hz > 0.0 {
            Measure::Paced { hz }
        } else {
            Measure::FlatOut
        }
    }
}

/// The window's frame times, for `--measure-redraw` (the first second,
/// while the window settles, left out); printed on closing.
pub struct Redraws {
    measure: Measure,
    last: Option<std::time::Instant>,
    /// The first measured frame: the refreshes count from it.
    first: Option<std::time::Instant>,
    intervals: Vec<f64>,
    /// Paced: the refreshes (counted from `first`) that had a frame.
    refreshes: std::collections::BTreeSet<u64>,
    /// The app's own share of each frame (its UI, tessellation and the
    /// renderer's calls), ms, as eframe measures it.
    cpu: Vec<f64>,
    reported: bool,
}

impl Redraws {
    fn new(measure: Measure) -> Redraws {
        Redraws {
            measure,
            last: None,
            first: None,
            intervals: Vec::new(),
            refreshes: std::collections::BTreeSet::new(),
            cpu: Vec::new(),
            reported: false,
        }
    }

    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss // a count of refreshes since the first: positive
    )]
    fn tick(&mut self, ui: &egui::Ui, frame: &eframe::Frame, now: f64) {
        let at = std::time::Instant::now();
        if let Some(last) = self.last
            && now >= 1.0
        {
            self.intervals
                .push(at.duration_since(last).as_secs_f64() * 1000.0);
            self.cpu
                .extend(frame.info().cpu_usage.map(|s| f64::from(s) * 1000.0));
        }
        self.last = Some(at);
        match self.measure {
            Measure::FlatOut => ui.ctx().request_repaint(),
            Measure::Paced { hz } => {
                let period = 1.0 / hz;
                // The refreshes count from the first measured frame.
                let first = if now < 1.0 {
                    at
                } else {
                    *self.first.get_or_insert(at)
                };
                let since = at.duration_since(first).as_secs_f64();
                let refresh = (since / period).floor() as u64;
                if now >= 1.0 {
                    self.refreshes.insert(refresh);
                }
                let next = period - since % period;
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_secs_f64(next));
            }
        }
    }

    /// The frame times in words: frames a second, median, 95th percentile
    /// and longest time between frames, and how many took longer than a
    /// 60 Hz frame; paced, how many refreshes passed with no frame drawn.
    #[must_use]
    pub fn summary(&self) -> Option<String> {
        let mut times = self.intervals.clone();
        if times.is_empty() {
            return None;
        }
        times.sort_by(f64::total_cmp);
        let n = times.len();
        let total: f64 = times.iter().sum();
        let over = times.iter().filter(|&&t| t > 1000.0 / 60.0).count();
        #[allow(
            clippy::cast_precision_loss,
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss
        )]
        let (fps, p95, share) = (
            n as f64 * 1000.0 / total,
            times[((n - 1) as f64 * 0.95).round() as usize],
            100.0 * over as f64 / n as f64,
        );
        let mut cpu = self.cpu.clone();
        cpu.sort_by(f64::total_cmp);
        let app = cpu
            .get(cpu.len() / 2)
            .map(|ms| format!("; the app's own work a frame, median {ms:.1} ms"))
            .unwrap_or_default();
        let times = format!(
            "between frames median {:.1} ms, 95th percentile {p95:.1} ms, longest {:.1} ms",
            times[n / 2],
            times[n - 1],
        );
        Some(match self.measure {
            Measure::FlatOut => format!(
                "redraw: {n} frames, {fps:.1} a second; {times}; {over} frames ({share:.1}%) \
                 over 16.7 ms{app}"
            ),
            Measure::Paced { hz } => {
                let (drawn, missed) = self.missed();
                #[allow(clippy::cast_precision_loss)] // counts of refreshes, small
                let share = 100.0 * missed as f64 / (drawn + missed).max(1) as f64;
                format!(
                    "redraw paced at {hz} a second: {n} frames, {fps:.1} a second; {times}; \
                     {missed} of {} refreshes ({share:.1}%) passed with no frame drawn{app}",
                    drawn + missed
                )
            }
        })
    }

    /// Paced: the refreshes that had a frame, and those that passed with
    /// none, from the first measured to the last.
    fn missed(&self) -> (u64, u64) {
        let (Some(&low), Some(&high)) = (self.refreshes.first(), self.refreshes.last()) else {
            return (0, 0);
        };
        let drawn = self.refreshes.len() as u64;
        (drawn, high - low + 1 - drawn)
    }

    /// Prints the summary, once: whether it printed it now.
    #[allow(clippy::print_stderr)] // the measurement asked for, beside the window
    fn report(&mut self) -> bool {
        if self.reported {
            return false;
        }
        self.reported = true;
        if let Some(text) = self.summary() {
            eprintln!("{text}");
        }
        true
    }
}

/// The camera's picture, with each reading's box, card and confidence, the
/// card the table asks about (`doubted`: where it was read) ringed, and
/// each seat's zone (where its first card lay) with the seat's name.
fn show_camera(
    ui: &mut egui::Ui,
    texture: &egui::TextureHandle,
    view: &mut crate::live::LiveView,
    doubted: Option<[f32; 4]>,
) {
    let size = texture.size_vec2();
    let shown = size * (280.0 / size.y.max(1.0));
    let (rect, _) = ui.allocate_exact_size(shown, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.image(
        texture.id(),
        rect,
        egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
        Color32::WHITE,
    );
    // Source pixels to the screen.
    let k = view.scale * shown.x / size.x.max(1.0);
    let at = |x: f32, y: f32| rect.min + egui::vec2(x * k, y * k);
    crate::preview::draw_readings(&painter, &view.readings, at);
    if let Some(b) = doubted {
        let ring = egui::Rect::from_min_max(at(b[0], b[1]), at(b[2], b[3])).expand(5.0);
        painter.rect_stroke(
            ring,
            4.0,
            egui::Stroke::new(4.0, CHECK),
            egui::StrokeKind::Outside,
        );
        painter.text(
            ring.right_top(),
            egui::Align2::LEFT_TOP,
            " asked",
            egui::FontId::proportional(14.0),
            CHECK,
        );
    }
    show_places(ui, &painter, rect, k, view);
}

/// The places on the camera's picture, each dragged where its cards lie:
/// the seats' (a seat's name in its zone), the pack's and the pile's; what
/// is moved goes to the pipeline ([`crate::live::LiveView::moved_places`]).
/// `k`: screen points per source pixel.
fn show_places(
    ui: &mut egui::Ui,
    painter: &egui::Painter,
    rect: egui::Rect,
    k: f32,
    view: &mut crate::live::LiveView,
) {
    let at = |x: f32, y: f32| rect.min + egui::vec2(x * k, y * k);
    let names = view
        .game
        .as_ref()
        .map(|g| g.sitting().state().names().to_vec())
        .unwrap_or_default();
    let reach = view.zones.card_size * k;
    // Each place is dragged where its cards lie: the seats', the pack's and
    // the pile's. A seat whose place is not known yet (it is learned from
    // its first card) waits along the picture's foot, to be dragged to it.
    let mut waiting = 0.0;
    let seats: Vec<_> = view
        .zones
        .anchors
        .iter()
        .enumerate()
        .map(|(seat, anchor)| {
            let name = names.get(seat).map_or("?", String::as_str);
            let parked = anchor.is_none();
            let spot = anchor.unwrap_or_else(|| {
                waiting += 1.0;
                let foot = (rect.left_bottom() + egui::vec2(60.0 * waiting - 28.0, -18.0)
                    - rect.min)
                    / k.max(f32::EPSILON);
                [foot.x, foot.y]
            });
            (Place::Seat(seat), spot, name, parked)
        })
        .collect();
    let stacks = view
        .zones
        .stacks
        .iter()
        .enumerate()
        .map(|(stack, &a)| (Place::Stack(stack), a, "pack or pile", false));
    let mut moved = Vec::new();
    for (place, [x, y], name, parked) in seats.into_iter().chain(stacks) {
        let mut centre = at(x, y);
        let (label, hint, colour) = match place {
            Place::Seat(_) if parked => (
                format!("{name}'s place (not known yet)"),
                "drag to where this seat's cards lie (else it is learned from its first card)",
                Color32::YELLOW,
            ),
            Place::Seat(_) => (
                format!("{name}'s place"),
                "drag to where this seat's cards lie",
                Color32::LIGHT_GREEN,
            ),
            Place::Stack(stack) => (
                format!("the pack or pile's place ({})", stack + 1),
                "drag to where the pack or the pone's pile lies",
                Color32::GRAY,
            ),
        };
        let handle = ui
            .interact(
                egui::Rect::from_center_size(centre, egui::Vec2::splat(TOUCH)),
                ui.scope_id().with(("place", place)),
                egui::Sense::drag(),
            )
            .on_hover_text(hint);
        handle.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
        // (A seat waiting at the foot is placed only once it moves: a tap
        // on it leaves it to be learned.)
        let delta = handle.drag_delta();
        if handle.dragged() && k > 0.0 && (!parked || delta != egui::Vec2::ZERO) {
            centre += delta;
            let source = (centre - rect.min) / k;
            moved.push((place, [source.x, source.y]));
        }
        let radius = if parked { 14.0 } else { reach.max(8.0) };
        painter.circle_stroke(centre, radius, egui::Stroke::new(1.5, colour));
        painter.text(
            centre,
            egui::Align2::CENTER_CENTER,
            name,
            egui::FontId::proportional(14.0),
            colour,
        );
    }
    for &(place, at) in &moved {
        view.zones.move_place(place, at);
    }
    view.moved_places.extend(moved);
}

/// Where the frames come from, how fast they are read, and the questions
/// the dealer should settle (the latest first).
fn show_questions(
    ui: &mut egui::Ui,
    view: &crate::live::LiveView,
    settled: &dyn Fn(usize) -> bool,
) {
    ui.label(RichText::new(&view.source).strong());
    ui.label(format!("{:.0} ms to read a frame", view.read_ms));
    // A machine slower than the source: a recording read frame by frame
    // falls behind its clock; one played as a camera gives it lets frames go.
    let behind = view.behind_ms.0 / 1000.0;
    if behind >= 1.0 {
        ui.label(format!(
            "{behind:.1} s behind the recording's clock: this machine reads its frames slower \
             than they came"
        ));
    }
    if view.frames_dropped > 0 {
        ui.label(format!(
            "{} frames let go unread: they came while the one before was read",
            view.frames_dropped
        ));
    }
    if view.ended {
        ui.label(RichText::new("The recording has ended.").color(GOLD));
    }
    if let Some(error) = &view.error {
        ui.label(RichText::new(error).color(Color32::LIGHT_RED));
    }
    ui.separator();
    if view.questions.is_empty() {
        ui.label("No questions: the camera and the dealer agree.");
    }
    egui::ScrollArea::vertical().show(ui, |ui| {
        for (k, q) in view.questions.iter().enumerate().rev() {
            let text = format!("frame {}: {}", q.frame, q.text);
            if let Some(how) = &q.answered {
                let text = format!("{text} (settled by the camera: {how})");
                ui.label(RichText::new(text).color(Color32::GRAY));
            } else if settled(k) {
                ui.label(RichText::new(format!("{text} (settled)")).color(Color32::GRAY));
            } else {
                ui.label(RichText::new(text).color(Color32::LIGHT_RED));
            }
        }
    });
}

/// The dealer's desk, as a panel along the bottom: what the table waits
/// for, what has been typed, what the desk said last (refusals in red),
/// large buttons for every key, and a "Why" field for the dealer's own
/// reason for his next undo or fix (`W` goes to it, `Enter` leaves it).
/// Keys pressed anywhere in the window go to the desk, but while the dealer
/// types his reason.
pub fn show_desk(ui: &mut egui::Ui, desk: &mut Desk) {
    let why_id = egui::Id::unique("the dealer's reason");
    let typing_why = ui.memory(|m| m.has_focus(why_id));
    let mut to_why = false;
    if !typing_why {
        for key in keys_pressed(ui) {
            if key == Key::Char('W') {
                to_why = true;
            } else {
                desk.press(key);
            }
        }
    }
    egui::Panel::bottom("desk").show(ui, |ui| {
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.label(RichText::new(desk.prompt()).size(20.0).strong());
            let typed = desk.typed();
            if !typed.is_empty() {
                ui.label(RichText::new(format!("  {typed}_")).size(20.0).color(GOLD));
            }
            // The dealer's own reason for his next undo or fix, at the right.
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let why = ui.add(
                    egui::TextEdit::singleline(desk.why_mut())
                        .id(why_id)
                        .font(egui::TextStyle::Heading)
                        .desired_width(420.0)
                        .min_size(egui::vec2(0.0, TOUCH))
                        .align(egui::Align2::LEFT_CENTER)
                        .hint_text("for the next undo or fix, in the journal"),
                );
                let label = ui.label(RichText::new("Why (W):").size(18.0));
                why.labelled_by(label.id);
            });
        });
        if let Some(question) = desk.question_prompt() {
            ui.label(RichText::new(question).size(18.0).color(GOLD));
        }
        match desk.said() {
            Some(Said::Done(line)) => {
                ui.label(RichText::new(format!("Done: {line}")).color(Color32::LIGHT_GREEN));
            }
            Some(Said::Refused(why)) => {
                ui.label(RichText::new(why).color(Color32::LIGHT_RED));
            }
            None if desk.camera_deals() => {
                ui.label(
                    "The camera deals the cards: give the stakes, the double, content and \
                     divide here.",
                );
            }
            None => {
                ui.label("Type the cards as they are dealt, or tap them below.");
            }
        }
        let tapped = desk_buttons(ui, desk);
        ui.add_space(6.0);
        for key in tapped {
            desk.press(key);
        }
    });
    // Next frame: this frame's `W` must not be typed into the field.
    if to_why {
        ui.memory_mut(|m| m.request_focus(why_id));
    }
}

/// The least height, in points, of a control a finger taps: about 7 mm on a
/// tablet (the platforms' guides ask 44 to 48).
pub const TOUCH: f32 = 44.0;

/// Sizes `ui`'s controls for a finger ([`TOUCH`] high, boxes and circles
/// larger, more room between them): the forms and the drill, which a dealer
/// may work on a tablet by the table as he does the desk's buttons.
pub fn touch_sized(ui: &mut egui::Ui) {
    let spacing = ui.spacing_mut();
    spacing.interact_size = egui::vec2(64.0, TOUCH);
    spacing.button_padding = egui::vec2(12.0, 8.0);
    spacing.icon_width = 26.0;
    spacing.icon_width_inner = 14.0;
    spacing.icon_spacing = 8.0;
    spacing.item_spacing = egui::vec2(10.0, 8.0);
}

/// The keys pressed on the window's keyboard this frame, as the desk reads them.
fn keys_pressed(ui: &egui::Ui) -> Vec<Key> {
    ui.input(|i| {
        i.events
            .iter()
            .filter_map(|event| match event {
                egui::Event::Key {
                    key,
                    pressed: true,
                    modifiers,
                    ..
                } if !modifiers.ctrl && !modifiers.command && !modifiers.alt => desk_key(*key),
                _ => None,
            })
            .collect()
    })
}

/// The desk's large buttons, those that mean something now enabled; the keys tapped.
fn desk_buttons(ui: &mut egui::Ui, desk: &Desk) -> Vec<Key> {
    let mut pressed = Vec::new();
    let camera = desk.camera_deals();
    let (card, stake) = (
        (crate::desk::card_due(desk) && !camera) || crate::desk::card_asked(desk),
        crate::desk::stakes_due(desk) || crate::desk::digits_asked(desk),
    );
    // The eight-round deal's cards turned up are named, never face down.
    let face_down = card && desk.game().sitting().state().phase() != Phase::Turning;
    let big = |ui: &mut egui::Ui, enabled: bool, text: RichText| {
        ui.add_enabled(
            enabled,
            egui::Button::new(text.size(22.0)).min_size(egui::vec2(48.0, 44.0)),
        )
        .clicked()
    };
    ui.horizontal_wrapped(|ui| {
        for rank in "A23456789TJQK".chars() {
            if big(ui, card, RichText::new(rank.to_string())) {
                pressed.push(Key::Char(rank));
            }
        }
        ui.separator();
        for (letter, suit) in [
            ('S', Suit::Spades),
            ('H', Suit::Hearts),
            ('D', Suit::Diamonds),
            ('C', Suit::Clubs),
        ] {
            let colour = if matches!(suit, Suit::Hearts | Suit::Diamonds) {
                RED_SUIT
            } else {
                Color32::BLACK
            };
            let text = RichText::new(suit_name(suit)).color(colour);
            if ui
                .add_enabled(
                    card,
                    egui::Button::new(text.size(18.0))
                        .fill(CARD_FACE)
                        .min_size(egui::vec2(96.0, 44.0)),
                )
                .clicked()
            {
                pressed.push(Key::Char(letter));
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        for digit in '0'..='9' {
            if big(ui, stake, RichText::new(digit.to_string())) {
                pressed.push(Key::Char(digit));
            }
        }
        let playing = matches!(
            desk.game().sitting().state().phase(),
            Phase::Drawing { .. } | Phase::Dealer
        );
        // Sympathy or antipathy, red or black, when a player elects.
        for choice in crate::desk::choices_due(desk).into_iter().flatten() {
            let key = crate::desk::choice_key(choice);
            if big(ui, true, RichText::new(format!("{choice} ({key})"))) {
                pressed.push(Key::Char(key));
            }
        }
        for (text, key, enabled) in [
            ("Enter", Key::Enter, stake || crate::desk::enter_asked(desk)),
            ("Face down (X)", Key::Char('X'), face_down),
            ("Double (D)", Key::Char('D'), crate::desk::double_due(desk)),
            ("Content (C)", Key::Char('C'), playing),
            ("Divide (V)", Key::Char('V'), playing),
            ("Over (O)", Key::Char('O'), playing),
            ("Say or mark (M)", Key::Char('M'), !desk.drawing()),
            ("Undo (U)", Key::Char('U'), true),
            ("Redo (R)", Key::Char('R'), !camera),
            ("Fix or take back (F)", Key::Char('F'), true),
            ("Export the ledger (E)", Key::Char('E'), true),
        ] {
            if big(ui, enabled, RichText::new(text)) {
                pressed.push(key);
            }
        }
        let question = desk.open_question().map(|(_, q)| q.about.is_some());
        let flag = question.is_none() && crate::desk::flag_asked(desk);
        let answers = if flag {
            [("Yes (Y)", true), ("No (N)", true)]
        } else {
            [
                ("Right (Y)", question.is_some()),
                ("Another card (N)", question == Some(true)),
            ]
        };
        for ((text, enabled), key) in answers.into_iter().zip([Key::Char('Y'), Key::Char('N')]) {
            if !camera && !flag {
                break;
            }
            if big(ui, enabled, RichText::new(text)) {
                pressed.push(key);
            }
        }
    });
    pressed
}

/// A key of the keyboard as the desk reads it.
fn desk_key(key: egui::Key) -> Option<Key> {
    match key {
        egui::Key::Enter => Some(Key::Enter),
        egui::Key::Escape => Some(Key::Escape),
        egui::Key::Backspace => Some(Key::Backspace),
        other => {
            let mut name = other.name().chars();
            match (name.next(), name.next()) {
                (Some(c), None) if c.is_ascii_alphanumeric() => Some(Key::Char(c)),
                _ => None,
            }
        }
    }
}

fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Spades => "Spades",
        Suit::Hearts => "Hearts",
        Suit::Diamonds => "Diamonds",
        Suit::Clubs => "Clubs",
    }
}

/// Felt green, and the colours drawn on it.
const FELT: Color32 = Color32::from_rgb(22, 82, 52);
const CARD_FACE: Color32 = Color32::from_rgb(250, 248, 240);
pub(crate) const CARD_BACK: Color32 = Color32::from_rgb(40, 70, 150);
const RED_SUIT: Color32 = Color32::from_rgb(200, 30, 40);
pub(crate) const GOLD: Color32 = Color32::from_rgb(240, 200, 80);
/// What the table should check (the engine's flags): orange, apart from
/// the gold of notices and the red of refusals.
const CHECK: Color32 = Color32::from_rgb(255, 140, 40);
/// The round table's cloth, a little lighter than the room's [`FELT`].
const TABLE_TOP: Color32 = Color32::from_rgb(30, 104, 66);
/// The round table's wooden rim.
const TABLE_RIM: Color32 = Color32::from_rgb(110, 72, 40);

/// Draws the whole table of `game` into `ui`: the round's line on top, the
/// totals and the last settlement on the right, the seats in the middle.
pub fn show_table(ui: &mut egui::Ui, game: &Game) {
    let state = game.sitting().state();
    egui::Panel::top("round").show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.heading(round_line(state));
        });
        ui.label(pack_line(state));
    });
    egui::Panel::right("totals")
        .default_size(360.0)
        .show(ui, |ui| show_totals(ui, game));
    egui::CentralPanel::default()
        .frame(egui::Frame::new().fill(FELT).inner_margin(12.0))
        .show(ui, |ui| show_seats(ui, state));
}

/// Round, dealer, double, and what the table waits for.
fn round_line(state: &State) -> String {
    let Some(dealer) = state.dealer().map(|d| state.name(d)) else {
        return "Before the first deal: the first dealer is not chosen yet".to_owned();
    };
    let doubled = if state.doubled() { ", doubled" } else { "" };
    let now = match state.phase() {
        Phase::Between => "between rounds".to_owned(),
        Phase::FirstCards { .. } => going_round(state, "first cards"),
        Phase::SecondCards { .. } => going_round(state, "second cards"),
        Phase::Drawing { .. } => match state.turn() {
            Some((seat, _)) => format!("{} to draw", state.name(seat)),
            None => "drawing".to_owned(),
        },
        Phase::Dealer => format!("{dealer}, the dealer, plays"),
        Phase::Showdown => "showdown".to_owned(),
        Phase::Turning => match state.due_card() {
            Some((seat, _)) => format!("the next card to {}", state.name(seat)),
            None => "stakes and elections".to_owned(),
        },
    };
    if state.rules().eight_round_deal {
        // The eight-round deal: each round its own game, named.
        let (round, of_deal) = if state.phase() == Phase::Between {
            (state.round_number() + 1, state.rounds_in_deal() + 1)
        } else {
            (state.round_number(), state.rounds_in_deal())
        };
        let game = state.game();
        let waits = if state.phase() == Phase::Between {
            format!("next: {}", game.how())
        } else {
            now
        };
        return format!(
            "Round {round}: {dealer} deals {game}{doubled} ({} of his eight); {waits}",
            ordinal(of_deal),
        );
    }
    format!(
        "Round {}: {dealer} deals{doubled} ({} of his deal); {now}",
        state.round_number(),
        ordinal(state.rounds_in_deal()),
    )
}

/// `cards` going round, and what the table waits for: whose card comes
/// next, or whose stake.
fn going_round(state: &State, cards: &str) -> String {
    match (state.due_card(), state.stake_due()) {
        (Some((seat, _)), _) => format!("{cards}, the next to {}", state.name(seat)),
        (None, Some(seat)) => format!("{cards}, {}'s stake", state.name(seat)),
        (None, None) => cards.to_owned(),
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The pack and the pone's pile, with a call when the last card is reached.
fn pack_line(state: &State) -> RichText {
    let left = state.cards_before_last();
    let pone = state.pone().map_or("-", |p| state.name(p));
    let text = format!(
        "Pack: {left} cards before the last card · the pone ({pone}) holds {} used cards",
        state.pone_pile()
    );
    if left == 0 {
        RichText::new(format!(
            "{text} · LAST CARD: it is not dealt; the pone reshuffles"
        ))
        .color(GOLD)
        .strong()
    } else {
        RichText::new(text)
    }
}

/// Running totals, and the last round's payments in words.
/// Every player's balance after each round settled, a line each, from zero.
#[allow(clippy::cast_precision_loss)] // counters, far below 2^52
fn show_chart(ui: &mut egui::Ui, game: &Game) {
    let rows = report::balances_by_round(game);
    if rows.is_empty() {
        return;
    }
    let names = game.sitting().state().names();
    egui_plot::Plot::new("balances by round")
        .height(180.0)
        .legend(egui_plot::Legend::default())
        .x_axis_label("round")
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .include_y(0.0)
        .show(ui, |plot| {
            for (k, name) in names.iter().enumerate() {
                let points: Vec<[f64; 2]> = std::iter::once([0.0, 0.0])
                    .chain(
                        rows.iter()
                            .map(|(round, balances)| [f64::from(*round), balances[k] as f64]),
                    )
                    .collect();
                plot.line(egui_plot::Line::new(name.as_str(), points));
            }
        });
}

fn show_totals(ui: &mut egui::Ui, game: &Game) {
    let state = game.sitting().state();
    let ledger = game.ledger();
    ui.heading("Totals");
    egui::Grid::new("balances").striped(true).show(ui, |ui| {
        for (name, balance) in state.names().iter().zip(&ledger.balances) {
            ui.label(RichText::new(name).size(18.0));
            let colour = match balance.signum() {
                1 => Color32::from_rgb(60, 170, 90),
                -1 => Color32::from_rgb(220, 80, 70),
                _ => ui.visuals().text_color(),
            };
            ui.label(
                RichText::new(format!("{balance:+}"))
                    .size(18.0)
                    .color(colour),
            );
            ui.end_row();
        }
        if ledger.pool != 0 {
            ui.label("pool");
            ui.label(ledger.pool.to_string());
            ui.end_row();
        }
    });
    show_chart(ui, game);
    ui.separator();
    egui::ScrollArea::vertical().show(ui, |ui| {
        // The round in play, when it has paid anything yet (naturals, overs)
        // or has something for the table to check.
        if let Some(round) = ledger.rounds.last()
            && round.next_dealer.is_none()
            && !(round.settlements.is_empty() && round.flags.is_empty())
        {
            ui.heading(format!("Round {} so far", round.round));
            for s in &round.settlements {
                ui.label(report::settlement_text(state, round, s));
            }
            show_flags(ui, state, round);
            ui.separator();
        }
        let Some(round) = ledger.rounds.iter().rev().find(|r| r.next_dealer.is_some()) else {
            ui.label("No round settled yet.");
            return;
        };
        let doubled = if round.doubled { ", doubled" } else { "" };
        ui.heading(format!(
            "Round {} settled (dealer {}{doubled}{})",
            round.round,
            state.name(round.dealer),
            report::game_words(round)
        ));
        for s in &round.settlements {
            ui.label(report::settlement_text(state, round, s));
        }
        show_flags(ui, state, round);
        if let Some(next) = round.next_dealer
            && next != round.dealer
        {
            ui.label(RichText::new(format!("The deal passes to {}.", state.name(next))).strong());
        }
    });
}

/// What the engine flagged in `round` for the table to check, a line each.
fn show_flags(ui: &mut egui::Ui, state: &State, round: &RoundRecord) {
    for flag in &round.flags {
        ui.label(
            RichText::new(format!("Check: {}", flag_text(state, round, flag)))
                .color(CHECK)
                .strong(),
        );
    }
}

/// A flag in words a table reads: who, what happened, and what the rules
/// say follows.
pub(crate) fn flag_text(state: &State, round: &RoundRecord, flag: &Flag) -> String {
    match *flag {
        Flag::DeclarationContradicted {
            player,
            hand,
            declared,
        } => {
            let who = state.name(player);
            let whose = if hand > 1 {
                format!("his hand {hand}")
            } else {
                "his cards".to_owned()
            };
            match declared {
                Declaration::Over => format!(
                    "{who} said over, but {whose} cannot pass 21: the cards decide, and he \
                     plays on."
                ),
                Declaration::Natural if crate::desk::natural_paid(round, player, hand) => format!(
                    "{who} said natural and was paid, but {whose} are not an ace and a tenth \
                     card: the cards decide, so take the natural back (Fix, F)."
                ),
                Declaration::Natural => format!(
                    "{who} said natural, but {whose} are not an ace and a tenth card: the \
                     cards decide, and he plays on."
                ),
            }
        }
        Flag::CardExposed { player, card } => {
            let who = state.name(player);
            let card = card_words(card);
            if state.dealer() == Some(player) {
                format!("The dealer's card, the {card}, was exposed in dealing: he keeps it.")
            } else {
                format!(
                    "{who}'s card, the {card}, was exposed in dealing: he may keep it or reject it."
                )
            }
        }
        Flag::SurplusCard { player } => {
            let who = state.name(player);
            let later = if state.dealer() == Some(player) {
                "the pone takes one of the two at random and adds it to the used cards".to_owned()
            } else {
                format!("{who} looks at the two and rejects one (to the pone's pile)")
            };
            format!(
                "Two cards were dealt to {who} at once: put right if found before a third \
                 card is dealt; found later, {later}."
            )
        }
    }
}

/// A card in words: "Queen of Hearts", "10 of Clubs".
fn card_words(card: Card) -> String {
    let rank = match card.rank {
        Rank::Ace => "Ace".to_owned(),
        Rank::Jack => "Knave".to_owned(),
        Rank::Queen => "Queen".to_owned(),
        Rank::King => "King".to_owned(),
        pips => pips.points().to_string(),
    };
    format!("{rank} of {}", suit_name(card.suit))
}

/// How large a seat is drawn.
#[derive(Clone, Copy)]
struct SeatStyle {
    /// The seat's width (inside its margins).
    width: f32,
    /// The least height of a seat (inside its margins).
    height: f32,
    /// The player's name's size.
    title: f32,
    /// A card's size.
    card: egui::Vec2,
    /// The space between the seat's lines.
    lines: f32,
    /// The name and the stake on one line.
    one_line: bool,
}

/// Seats as large as the table allows.
const FULL_SEAT: SeatStyle = SeatStyle {
    width: 260.0,
    height: 170.0,
    title: 20.0,
    card: egui::vec2(44.0, 62.0),
    lines: 12.0,
    one_line: false,
};

/// Seats when the full ones would not all show at once (seven players
/// beside the camera view and the desk): smaller cards, the stake beside
/// the name, no height to spare.
const COMPACT_SEAT: SeatStyle = SeatStyle {
    width: 180.0,
    height: 0.0,
    title: 17.0,
    card: egui::vec2(34.0, 48.0),
    lines: 3.0,
    one_line: true,
};

/// A seat's inner margin, each side.
const SEAT_MARGIN: f32 = 10.0;

/// A seat's frame each side: its inner margin and its line.
const SEAT_FRAME: f32 = SEAT_MARGIN + 1.0;

/// How many seats go across `width` in `style`, `gap` apart.
fn seats_across(width: f32, gap: f32, style: SeatStyle) -> usize {
    (1..=16u8)
        .rev()
        .find(|&n| f32::from(n) * (style.width + 2.0 * SEAT_FRAME + gap) - gap <= width)
        .map_or(1, usize::from)
}

/// Every seat round an oval table, in seating order clockwise from the
/// bottom (the deal goes to the dealer's left), with the pack and the
/// pone's pile in the middle; the seats as large as fit round it, and in
/// rows ([`show_seat_rows`]) when not even the compact ones do.
fn show_seats(ui: &mut egui::Ui, state: &State) {
    let area = ui.available_rect_before_wrap();
    let count = state.names().len();
    for style in [FULL_SEAT, COMPACT_SEAT] {
        if let Some(places) = round_places(area, count, style) {
            show_round_table(ui, state, area, &places, style);
            return;
        }
    }
    show_seat_rows(ui, state);
}

/// A seat's size on the round table, its frame included: a compact seat,
/// which has no height of its own, is as tall as its name, its cards and
/// its status line.
fn seat_size(style: SeatStyle) -> egui::Vec2 {
    let lines = if style.one_line { 2.0 } else { 3.0 };
    let height = style
        .height
        .max(lines * (style.title + style.lines) + style.card.y);
    egui::vec2(style.width, height) + egui::Vec2::splat(2.0 * SEAT_FRAME)
}

/// The width the pack and the pone's pile take in the middle of the table.
const PACK_WIDTH: f32 = 200.0;

/// The least room between two seats round the table.
const SEAT_GAP: f32 = 8.0;

/// Where each of `count` seats lies round an oval table filling `area`:
/// their centres evenly round an ellipse, the first at the bottom, the
/// others clockwise. `None` when two seats would overlap.
fn round_places(area: egui::Rect, count: usize, style: SeatStyle) -> Option<Vec<egui::Rect>> {
    let size = seat_size(style);
    let radius = (area.size() - size) / 2.0;
    if count < 2 || radius.x <= 0.0 || radius.y <= 0.0 {
        return None;
    }
    let step = std::f32::consts::TAU / f32::from(u16::try_from(count).ok()?);
    let places: Vec<egui::Rect> = (0..count)
        .map(|k| {
            let angle =
                std::f32::consts::FRAC_PI_2 + step * f32::from(u16::try_from(k).unwrap_or(0));
            let centre = area.center() + egui::vec2(radius.x * angle.cos(), radius.y * angle.sin());
            egui::Rect::from_center_size(centre, size)
        })
        .collect();
    let apart = places.iter().enumerate().all(|(a, p)| {
        places[a + 1..].iter().all(|q| {
            !p.expand(SEAT_GAP / 2.0)
                .intersects(q.expand(SEAT_GAP / 2.0))
        })
    });
    apart.then_some(places)
}

/// The oval table in `area`, the seats at `places` round it, and in the
/// middle the pack and the pone's pile when they fit between the seats.
fn show_round_table(
    ui: &mut egui::Ui,
    state: &State,
    area: egui::Rect,
    places: &[egui::Rect],
    style: SeatStyle,
) {
    let radius = (area.size() - seat_size(style)) / 2.0;
    let painter = ui.painter();
    painter.add(egui::Shape::ellipse_filled(
        area.center(),
        radius,
        TABLE_TOP,
    ));
    painter.add(egui::Shape::ellipse_stroke(
        area.center(),
        radius,
        egui::Stroke::new(6.0, TABLE_RIM),
    ));
    // Every seat as tall as the tallest may be, so that the table is even.
    let style = SeatStyle {
        height: seat_size(style).y - 2.0 * SEAT_FRAME,
        ..style
    };
    let mut taken = Vec::with_capacity(places.len());
    for (k, &place) in places.iter().enumerate() {
        let seat = Seat(u8::try_from(k).unwrap_or(u8::MAX));
        let drawn = ui.scope_builder(egui::UiBuilder::new().max_rect(place), |ui| {
            show_seat(ui, state, seat, style);
        });
        taken.push(drawn.response.rect);
    }
    // Seats grow with divided hands and long draws: the pack only where
    // none reaches.
    let middle = egui::Rect::from_center_size(area.center(), egui::vec2(PACK_WIDTH, 84.0));
    if taken.iter().all(|p| !p.intersects(middle)) {
        show_pack(ui, state, middle);
    }
    ui.allocate_rect(area, egui::Sense::hover());
}

/// The pack and the pone's pile, drawn side by side in `rect` as stacks of
/// backs with what each holds; the pack's words gold when its last card is
/// reached.
fn show_pack(ui: &mut egui::Ui, state: &State, rect: egui::Rect) {
    let painter = ui.painter();
    let card = COMPACT_SEAT.card;
    let left = state.cards_before_last();
    let pile = state.pone_pile();
    let pone = state.pone().map_or("-", |p| state.name(p));
    let pack_words = if left == 0 {
        "last card: reshuffle".to_owned()
    } else {
        format!("pack: {left} to go")
    };
    let stacks: [(u8, String, bool); 2] = [
        (3, pack_words, left == 0),
        (
            u8::from(pile > 0) + u8::from(pile > 10),
            format!("{pone}'s pile: {pile}"),
            false,
        ),
    ];
    let column = rect.width() / 2.0;
    for (k, (depth, words, call)) in (0u8..).zip(stacks) {
        let centre_x = rect.left() + column * (f32::from(k) + 0.5);
        let top_left = egui::pos2(centre_x - card.x / 2.0 - 3.0, rect.top());
        if depth == 0 {
            // An empty pile: its place only.
            painter.rect_stroke(
                egui::Rect::from_min_size(top_left, card),
                5.0,
                egui::Stroke::new(1.0, Color32::from_gray(150)),
                egui::StrokeKind::Inside,
            );
        }
        for d in 0..depth {
            let card_rect =
                egui::Rect::from_min_size(top_left + egui::Vec2::splat(3.0 * f32::from(d)), card);
            painter.rect_filled(card_rect, 5.0, CARD_BACK);
            painter.rect_stroke(
                card_rect.shrink(3.0),
                3.0,
                egui::Stroke::new(1.0, Color32::from_rgb(190, 200, 240)),
                egui::StrokeKind::Inside,
            );
        }
        painter.text(
            egui::pos2(centre_x, rect.top() + card.y + 14.0),
            egui::Align2::CENTER_TOP,
            words,
            egui::FontId::proportional(13.0),
            if call { GOLD } else { Color32::from_gray(230) },
        );
    }
}

/// Every seat, in seating order, in as many rows as the width asks; in the
/// compact style ([`COMPACT_SEAT`]) when the full seats' rows would not all
/// show in the height there is.
fn show_seat_rows(ui: &mut egui::Ui, state: &State) {
    let gap = 12.0;
    ui.spacing_mut().item_spacing = egui::vec2(gap, gap);
    let (width, height) = (ui.available_width(), ui.available_height());
    let count = state.names().len();
    let across = seats_across(width, gap, FULL_SEAT);
    let rows = f32::from(u16::try_from(count.div_ceil(across)).unwrap_or(u16::MAX));
    let style = if rows * (FULL_SEAT.height + 2.0 * SEAT_FRAME + gap) <= height {
        FULL_SEAT
    } else {
        COMPACT_SEAT
    };
    let across = seats_across(width, gap, style);
    let seats: Vec<Seat> = (0..count).map(|i| Seat(i as u8)).collect();
    egui::ScrollArea::vertical().show(ui, |ui| {
        for row in seats.chunks(across) {
            ui.horizontal(|ui| {
                for &seat in row {
                    show_seat(ui, state, seat, style);
                }
            });
        }
    });
}

/// The seat the table waits on, marked on the table: whose turn it is to
/// draw or play, or, while the cards go round (the first and second cards,
/// the eight-round deal's cards turned up), whose card comes next, or
/// whose stake.
fn waited_on(state: &State) -> Option<Seat> {
    match state.phase() {
        Phase::FirstCards { .. } | Phase::SecondCards { .. } | Phase::Turning => state
            .due_card()
            .map(|(seat, _)| seat)
            .or_else(|| state.stake_due()),
        _ => state.turn().map(|(seat, _)| seat),
    }
}

fn show_seat(ui: &mut egui::Ui, state: &State, place: Seat, style: SeatStyle) {
    let turn = waited_on(state) == Some(place);
    let stroke = if turn {
        egui::Stroke::new(3.0, GOLD)
    } else {
        egui::Stroke::new(1.0, Color32::from_gray(90))
    };
    egui::Frame::new()
        .fill(Color32::from_rgb(16, 60, 38))
        .stroke(stroke)
        .corner_radius(8.0)
        .inner_margin(SEAT_MARGIN)
        .show(ui, |ui| {
            ui.set_min_size(egui::vec2(style.width, style.height));
            ui.spacing_mut().item_spacing.y = style.lines;
            ui.vertical(|ui| {
                let mut title = state.name(place).to_owned();
                if state.dealer() == Some(place) {
                    title.push_str(" · dealer");
                }
                if state.pone() == Some(place) {
                    title.push_str(" · pone");
                }
                let title = RichText::new(title)
                    .size(style.title)
                    .strong()
                    .color(Color32::WHITE);
                let Some(round) = state.seat_round(place) else {
                    ui.label(title);
                    return;
                };
                let doubled = state.doubled() && state.dealer() != Some(place);
                let mut wager = match round.stake {
                    Some(amount) => stake_words(amount, doubled),
                    None if state.dealer() == Some(place) => "deals".to_owned(),
                    None => "no stake yet".to_owned(),
                };
                if let Some(choice) = round.choice {
                    wager = format!("{wager}, {choice}");
                }
                let wager = RichText::new(wager).color(Color32::from_gray(220));
                if style.one_line {
                    ui.horizontal(|ui| {
                        ui.label(title);
                        ui.label(wager);
                    });
                } else {
                    ui.label(title);
                    ui.label(wager);
                }
                let divided = round.hands.len() > 1;
                ui.horizontal(|ui| {
                    for (number, hand) in (1u8..).zip(&round.hands) {
                        ui.vertical(|ui| {
                            if divided {
                                // Each hand of a divided pair: its own stake,
                                // and the one in play marked.
                                let in_play = state.turn() == Some((place, number));
                                let words = format!(
                                    "Hand {number}: {}{}",
                                    stake_words(hand.stake, doubled),
                                    if in_play { " · in play" } else { "" }
                                );
                                let colour = if in_play {
                                    GOLD
                                } else {
                                    Color32::from_gray(220)
                                };
                                ui.label(RichText::new(words).color(colour));
                            }
                            ui.horizontal(|ui| {
                                ui.spacing_mut().item_spacing.x = 4.0;
                                for slot in hand.cards.slots() {
                                    draw_card(ui, *slot, style.card);
                                }
                            });
                            ui.label(
                                RichText::new(hand_status(hand, state.round_game()))
                                    .color(Color32::from_gray(230)),
                            );
                        });
                    }
                });
            });
        });
}

/// A stake in words, and what it is doubled: `stake 3, doubled: 6`.
fn stake_words(amount: u32, doubled: bool) -> String {
    if doubled {
        format!("stake {amount}, doubled: {}", 2 * amount)
    } else {
        format!("stake {amount}")
    }
}

/// A hand's points and where it stands; in the eight-round deal's games of
/// cards turned up, what its cards say in that game.
fn hand_status(hand: &pone_engine::sitting::Hand, game: RoundGame) -> String {
    if hand.cards.is_empty() {
        return String::new();
    }
    let known: Vec<Card> = hand.cards.known().collect();
    match game {
        RoundGame::SympathyAntipathy | RoundGame::RougeEtNoir => {
            let red = known
                .iter()
                .filter(|c| pone_engine::eight::is_red(c.suit))
                .count();
            return format!("{red} red, {} black", known.len() - red);
        }
        RoundGame::SelfAndCompany => {
            return match known.as_slice() {
                [own] => format!("self {own}"),
                [own, company] => format!("self {own} · company {company}"),
                [own, company, rest @ ..] => {
                    format!("self {own} · company {company} · {} turned", rest.len())
                }
                [] => String::new(),
            };
        }
        RoundGame::Differences => {
            let points = pone_engine::eight::differences_points(&known);
            return format!("{points} (an ace counts one)");
        }
        RoundGame::Clock => return format!("{} of 13 called", known.len()),
        RoundGame::Ordinary | RoundGame::ImaginaryTens | RoundGame::Blind => {}
    }
    let points = hand.cards.points();
    let count = match points.exact() {
        Some(total) => format!("{total}"),
        None => format!("{}+ with {} unseen", points.least(), hand.cards.unseen()),
    };
    let status = match hand.state {
        HandState::Open => "",
        HandState::Stood if points.exact() == Some(21) => " · Vingt-un",
        HandState::Stood => " · content",
        HandState::Over => " · over",
        HandState::Natural => " · natural",
        HandState::Settled => " · settled",
    };
    let ten = if hand.cards.is_imaginary_ten() {
        " (ten added)"
    } else {
        ""
    };
    format!("{count}{ten}{status}")
}

/// One card, face up (rank and suit) or a back, `size` large (its rank
/// and pip drawn to the scale of the full seats' cards).
fn draw_card(ui: &mut egui::Ui, slot: Option<Card>, size: egui::Vec2) {
    let scale = size.y / FULL_SEAT.card.y;
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter();
    let Some(card) = slot else {
        painter.rect_filled(rect, 5.0, CARD_BACK);
        painter.rect_stroke(
            rect.shrink(4.0 * scale),
            3.0,
            egui::Stroke::new(1.5, Color32::from_rgb(190, 200, 240)),
            egui::StrokeKind::Inside,
        );
        return;
    };
    painter.rect_filled(rect, 5.0, CARD_FACE);
    let colour = match card.suit {
        Suit::Hearts | Suit::Diamonds => RED_SUIT,
        Suit::Spades | Suit::Clubs => Color32::BLACK,
    };
    let rank = card.rank.letter();
    let rank = if rank == 'T' {
        "10".to_owned()
    } else {
        rank.to_string()
    };
    painter.text(
        rect.center_top() + egui::vec2(0.0, 6.0 * scale),
        egui::Align2::CENTER_TOP,
        rank,
        egui::FontId::proportional(20.0 * scale),
        colour,
    );
    draw_suit(
        painter,
        card.suit,
        rect.center_bottom() - egui::vec2(0.0, 18.0 * scale),
        9.0 * scale,
        colour,
    );
}

/// A suit's pip, drawn (the default fonts have no suit signs): centred on
/// `centre`, about `r` from the centre to its edge.
fn draw_suit(painter: &egui::Painter, suit: Suit, centre: egui::Pos2, r: f32, colour: Color32) {
    use egui::{Shape, pos2, vec2};
    let c = centre;
    match suit {
        Suit::Diamonds => {
            painter.add(Shape::convex_polygon(
                vec![
                    pos2(c.x, c.y - r),
                    pos2(c.x + 0.75 * r, c.y),
                    pos2(c.x, c.y + r),
                    pos2(c.x - 0.75 * r, c.y),
                ],
                colour,
                egui::Stroke::NONE,
            ));
        }
        Suit::Hearts => {
            painter.circle_filled(c + vec2(-0.45 * r, -0.3 * r), 0.5 * r, colour);
            painter.circle_filled(c + vec2(0.45 * r, -0.3 * r), 0.5 * r, colour);
            painter.add(Shape::convex_polygon(
                vec![
                    pos2(c.x - 0.93 * r, c.y - 0.15 * r),
                    pos2(c.x + 0.93 * r, c.y - 0.15 * r),
                    pos2(c.x, c.y + r),
                ],
                colour,
                egui::Stroke::NONE,
            ));
        }
        Suit::Spades => {
            painter.circle_filled(c + vec2(-0.45 * r, 0.2 * r), 0.5 * r, colour);
            painter.circle_filled(c + vec2(0.45 * r, 0.2 * r), 0.5 * r, colour);
            painter.add(Shape::convex_polygon(
                vec![
                    pos2(c.x, c.y - r),
                    pos2(c.x + 0.93 * r, c.y + 0.05 * r),
                    pos2(c.x - 0.93 * r, c.y + 0.05 * r),
                ],
                colour,
                egui::Stroke::NONE,
            ));
            stem(painter, c, r, colour);
        }
        Suit::Clubs => {
            painter.circle_filled(c + vec2(0.0, -0.5 * r), 0.42 * r, colour);
            painter.circle_filled(c + vec2(-0.48 * r, 0.15 * r), 0.42 * r, colour);
            painter.circle_filled(c + vec2(0.48 * r, 0.15 * r), 0.42 * r, colour);
            stem(painter, c, r, colour);
        }
    }
}

/// The foot of a spade or a club.
fn stem(painter: &egui::Painter, c: egui::Pos2, r: f32, colour: Color32) {
    use egui::pos2;
    painter.add(egui::Shape::convex_polygon(
        vec![
            pos2(c.x, c.y + 0.1 * r),
            pos2(c.x + 0.35 * r, c.y + r),
            pos2(c.x - 0.35 * r, c.y + r),
        ],
        colour,
        egui::Stroke::NONE,
    ));
}

#[cfg(test)]
mod tests {
    use super::{COMPACT_SEAT, FULL_SEAT, Measure, Redraws, round_places};
    use eframe::egui;

    #[test]
    fn seats_go_round_the_table_clockwise_from_the_bottom_or_in_rows_when_they_would_touch() {
        let area = egui::Rect::from_min_size(egui::pos2(0.0, 0.0), egui::vec2(900.0, 720.0));
        let places = round_places(area, 4, FULL_SEAT).expect("four full seats fit round");
        let centres: Vec<egui::Pos2> = places.iter().map(egui::Rect::center).collect();
        // The first at the bottom, the next on the left (the dealer's left
        // as he faces the table), then the top, then the right.
        assert!(centres[0].y > centres[2].y && (centres[0].x - 450.0).abs() < 1.0);
        assert!(centres[1].x < centres[3].x);
        assert!(places.iter().all(|p| area.contains_rect(*p)));
        for (a, p) in places.iter().enumerate() {
            assert!(places[a + 1..].iter().all(|q| !p.intersects(*q)));
        }
        // Seven full seats do not fit round this table; compact ones do.
        assert!(round_places(area, 7, FULL_SEAT).is_none());
        assert!(round_places(area, 7, COMPACT_SEAT).is_some());
        // A strip of a table: in rows.
        let strip = egui::Rect::from_min_size(egui::pos2(0.0, 0.0), egui::vec2(900.0, 200.0));
        assert!(round_places(strip, 7, COMPACT_SEAT).is_none());
    }

    #[test]
    fn a_paced_window_counts_the_refreshes_that_passed_with_no_frame() {
        let mut redraws = Redraws::new(Measure::from_hz(60.0));
        // Frames at refreshes 0 to 9, but none at 4 and 7.
        redraws.refreshes.extend([0, 1, 2, 3, 5, 6, 8, 9]);
        redraws.intervals.extend([16.7; 7]);
        assert_eq!(redraws.missed(), (8, 2));
        let summary = redraws.summary().unwrap_or_default();
        assert!(
            summary.contains("2 of 10 refreshes (20.0%) passed with no frame drawn"),
            "{summary}"
        );
    }

    #[test]
    fn a_window_drawn_flat_out_counts_the_frames_longer_than_a_60_hz_frame() {
        let mut redraws = Redraws::new(Measure::from_hz(0.0));
        redraws.intervals.extend([8.0, 9.0, 20.0, 8.5]);
        let summary = redraws.summary().unwrap_or_default();
        assert!(
            summary.contains("1 frames (25.0%) over 16.7 ms"),
            "{summary}"
        );
        assert_eq!(redraws.missed(), (0, 0));
    }
}

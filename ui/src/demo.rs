//! A sitting that plays itself with the default house rules: `pone demo`
//! prints one, and the side screen shows one when no camera is there: the
//! camera demo, a sitting rendered from the built-in CC0 card designs into
//! the cache and read through the recogniser, and the engine's own demo
//! while it renders (or when the models cannot run).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use anyhow::Context as _;
use pone_engine::autoplay::Autoplayer;
use pone_engine::{Command, Event, Game, HouseRules, Seat};
use rand::SeedableRng as _;
use rand::rngs::StdRng;

/// The players' names, in seating order.
pub const NAMES: [&str; 16] = [
    "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gil", "Hal", "Ivy", "Jon", "Kit", "Lou", "Max",
    "Ned", "Olive", "Pip",
];

/// A table whose players and dealer play at random from a seed.
pub struct DemoTable {
    game: Game,
    auto: Autoplayer,
    rng: StdRng,
    rounds: u32,
}

impl DemoTable {
    /// `players` at the table (2 to 16), the first of them dealing.
    pub fn new(players: usize, seed: u64) -> anyhow::Result<DemoTable> {
        anyhow::ensure!(
            (2..=NAMES.len()).contains(&players),
            "--players must be from 2 to {}, not {players}",
            NAMES.len(),
        );
        let names = NAMES[..players].iter().map(|n| (*n).to_owned()).collect();
        let mut game = Game::new(names, HouseRules::default())?;
        game.command(None, &Command::Dealer { player: Seat(0) })?;
        Ok(DemoTable {
            game,
            auto: Autoplayer::default(),
            rng: StdRng::seed_from_u64(seed),
            rounds: 0,
        })
    }

    /// The next thing the table does; the events it caused.
    pub fn step(&mut self) -> anyhow::Result<Vec<Event>> {
        let command = self
            .auto
            .next(self.game.sitting().state(), &mut self.rng)
            .context("the demo table stopped: it waits for something only a person can do")?;
        let events = self.game.command(None, &command)?.to_vec();
        self.rounds += events
            .iter()
            .filter(|e| matches!(e, Event::RoundEnded { .. }))
            .count() as u32;
        Ok(events)
    }

    /// Plays until `rounds` rounds have ended.
    pub fn play_rounds(&mut self, rounds: u32) -> anyhow::Result<()> {
        while self.rounds < rounds {
            self.step()?;
        }
        Ok(())
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Rounds ended so far.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }
}

/// The camera demo's sitting: rounds played, frames a second, frame size.
const CAMERA_DEMO_ROUNDS: u32 = 3;
const CAMERA_DEMO_FPS: u32 = 10;
const CAMERA_DEMO_SIZE: (u32, u32) = (1280, 720);
/// The camera demo's seed: its deal, its decisions and its look.
const CAMERA_DEMO_SEED: u64 = 21;
/// Raised when the camera demo's sitting should be rendered again (a new
/// renderer, seed or length): the cache's folder names carry it.
const CAMERA_DEMO_VERSION: u32 = 1;

/// Where Pone keeps what it makes for itself: `$XDG_CACHE_HOME/pone`, else
/// `~/.cache/pone`.
#[must_use]
pub fn cache_root() -> Option<PathBuf> {
    crate::xdg_folder("XDG_CACHE_HOME", ".cache")
}

/// The folder of the camera demo's sitting for `players`, in the cache.
#[must_use]
pub fn camera_demo_dir(players: usize) -> Option<PathBuf> {
    let version = env!("CARGO_PKG_VERSION");
    Some(cache_root()?.join("demo").join(format!(
        "v{version}-{CAMERA_DEMO_VERSION}-{players}-players"
    )))
}

/// A camera demo's sitting being rendered into the cache on a thread of
/// its own: the frames done, and the folder when it is finished.
pub struct Rendering {
    progress: Arc<(AtomicU64, AtomicU64)>,
    finished: mpsc::Receiver<anyhow::Result<PathBuf>>,
}

impl Rendering {
    /// The camera demo for `players`: its cached sitting when it is there
    /// (finished at once), else rendered from the built-in CC0 card designs.
    #[must_use]
    pub fn start(players: usize) -> Rendering {
        let progress = Arc::new((AtomicU64::new(0), AtomicU64::new(0)));
        let (send, finished) = mpsc::channel();
        let counts = Arc::clone(&progress);
        std::thread::spawn(move || {
            crate::yield_to_the_window();
            let _ = send.send(render_camera_demo(players, &counts));
        });
        Rendering { progress, finished }
    }

    /// Frames rendered, and of how many (0 until the sitting is played).
    #[must_use]
    pub fn progress(&self) -> (u64, u64) {
        (
            self.progress.0.load(Ordering::Relaxed),
            self.progress.1.load(Ordering::Relaxed),
        )
    }

    /// The sitting's folder once it is rendered, or why it could not be.
    pub fn finished(&self) -> Option<anyhow::Result<PathBuf>> {
        match self.finished.try_recv() {
            Ok(result) => Some(result),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => {
                Some(Err(anyhow::anyhow!("the demo's renderer stopped")))
            }
        }
    }
}

/// Renders the camera demo's sitting for `players` into the cache, unless it
/// is there. It is written into a folder of its own first and renamed when
/// whole, so a start that is stopped half way leaves no half sitting (and
/// the next start clears what it left).
fn render_camera_demo(players: usize, counts: &(AtomicU64, AtomicU64)) -> anyhow::Result<PathBuf> {
    let dir = camera_demo_dir(players)
        .context("no cache folder for the demo: set HOME or XDG_CACHE_HOME")?;
    if dir.join("sitting.json").is_file() {
        return Ok(dir);
    }
    let parent = dir.parent().unwrap_or(&dir).to_owned();
    std::fs::create_dir_all(&parent)
        .with_context(|| format!("cannot make the demo's cache folder {}", parent.display()))?;
    clear_abandoned(&parent);
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    let partial = parent.join(format!("{name}.partial-{}", std::process::id()));
    let options = pone_vision::sitting::SittingOptions {
        out: partial.clone(),
        seed: CAMERA_DEMO_SEED,
        rounds: CAMERA_DEMO_ROUNDS,
        players,
        width: CAMERA_DEMO_SIZE.0,
        height: CAMERA_DEMO_SIZE.1,
        fps: CAMERA_DEMO_FPS,
        // Every core: the engine's demo, shown meanwhile, asks little.
        threads: std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        slips: Vec::new(),
        rules: pone_engine::HouseRules::default(),
    };
    let designs = pone_vision::art::embedded()?;
    pone_vision::sitting::write_sitting(&options, &designs, &|done, total| {
        counts.1.store(total, Ordering::Relaxed);
        counts.0.fetch_max(done, Ordering::Relaxed);
    })
    .with_context(|| format!("cannot render the demo sitting into {}", partial.display()))?;
    if std::fs::rename(&partial, &dir).is_err() {
        // Another window finished it first.
        std::fs::remove_dir_all(&partial).ok();
    }
    anyhow::ensure!(
        dir.join("sitting.json").is_file(),
        "the demo sitting was rendered but could not be kept in {}",
        dir.display()
    );
    Ok(dir)
}

/// Removes the half-rendered demo sittings of starts that are no longer
/// running (`NAME.partial-PID`, the process gone).
fn clear_abandoned(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.rsplit_once(".partial-"))
            .and_then(|(_, pid)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new("/proc").join(pid.to_string()).exists() {
            std::fs::remove_dir_all(entry.path()).ok();
        }
    }
}

/// How the camera demo's sitting is played: its frames at their own pace
/// through the recogniser and the tracker, with its dealer's script. Every
/// frame is read, however late ([`pone_vision::source::Pace::Steady`]): a
/// machine too slow to read it as a camera gives it plays the demo slower,
/// rather than letting frames go and showing a table kept worse than Pone
/// keeps it (the window says how far behind the recording's clock it is).
#[must_use]
pub fn camera_demo_play(dir: &Path) -> crate::live::PlayOptions {
    crate::live::PlayOptions {
        source: Some(dir.to_owned()),
        camera: None,
        dealer: Some(dir.join("dealer.jsonl")),
        deal: None,
        first: 0,
        rules: HouseRules::default(),
        json: false,
        models: None,
        fps: None,
        live: true,
        every_frame: true,
        zones: None,
        seat_zones: None,
        journal: None,
        camera_out: Vec::new(),
    }
}

//! `pone`: a dealer's aid for a real Vingt-un table.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A dealer's aid for a real Vingt-un table: it keeps the game, the stakes and
/// every settlement.
#[derive(Parser)]
#[command(name = "pone", version, about)]
#[allow(clippy::struct_excessive_bools)] // the command line's flags
struct Options {
    #[command(subcommand)]
    command: Option<Commands>,
    /// With no subcommand (the side-screen window): close it after this many
    /// seconds.
    #[arg(long, value_name = "SECONDS")]
    exit_after: Option<f64>,
    /// With no subcommand: close the window once the camera demo has
    /// played its recording through once.
    #[arg(long)]
    exit_at_end: bool,
    /// With no subcommand: players at the demo table.
    #[arg(long, default_value_t = 5)]
    players: usize,
    /// With no subcommand: milliseconds between two things the demo table
    /// does (700 by default; a settlement stays up four times as long).
    #[arg(long, value_name = "MS")]
    step_ms: Option<u64>,
    /// With no subcommand: keep a sitting at the dealer's desk (keys and
    /// taps) instead of the demo: its players, in seating order, the first
    /// dealing (`--deal Ann,Bob,Cat`).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    deal: Option<Vec<String>>,
    /// With no subcommand: the desk's journal, written after every command;
    /// without --deal, an existing journal to go on with.
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// With the window: print the frame times on closing (with
    /// --exit-after), to measure the redraw cost. Alone, every frame is drawn
    /// again at once; with a rate (`--measure-redraw 60`), the window draws
    /// as a display of that many refreshes a second asks, and counts the
    /// refreshes that pass with no frame drawn.
    #[arg(long, global = true, value_name = "HZ", num_args = 0..=1, default_missing_value = "0")]
    measure_redraw: Option<f64>,
    /// With --deal: the sitting's house rules, a TOML file naming the rules
    /// it changes (`pone rules` prints them all with their defaults).
    #[arg(long, value_name = "FILE", requires = "deal")]
    rules: Option<PathBuf>,
    /// With no subcommand: open the window on a new sitting's setup (the
    /// players and their seating, who deals first, every house rule, the
    /// journal, and the desk or a camera for the cards).
    /// With --journal, the form's journal (a new file).
    #[arg(long, conflicts_with = "deal")]
    setup: bool,
    /// With no subcommand: the demo even when a camera is attached (with one,
    /// `pone` opens a new sitting's setup on it).
    #[arg(long, conflicts_with_all = ["deal", "journal", "setup"])]
    demo: bool,
    /// With --deal or --journal: train the dealer: at each round's end he
    /// announces every settlement, and the screen marks it before showing its own.
    #[arg(long)]
    train: bool,
    /// With the window: open it full screen (a second monitor or a tablet
    /// by the table); F11 switches either way.
    #[arg(long, global = true)]
    fullscreen: bool,
}

#[derive(Subcommand)]
enum Commands {
    /// Replay a journal or a table script (JSON lines) and print the ledger.
    Replay {
        /// The journal or table script.
        file: PathBuf,
        /// Print the ledger as JSON: balances, rounds with their settlements, next dealer.
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// Print every payment as CSV: round, dealer, doubled, player, hand,
        /// amount, from, to, reason, why.
        #[arg(long)]
        csv: bool,
    },
    /// Print the house rules with their defaults, as a sitting's rules TOML.
    Rules,
    /// List the cameras attached, by number.
    Cameras,
    /// Record what a camera sees (or copy another source) as an MJPEG file,
    /// `DIR/recording.mjpeg`, with its frame rate in `DIR/recording.json`.
    Record {
        /// The folder to write into.
        #[arg(long)]
        out: PathBuf,
        /// The camera's number (`pone cameras`); the first one by default.
        #[arg(long)]
        camera: Option<u32>,
        /// Copy this source instead: a frames folder, a rendered sitting, an MJPEG file.
        #[arg(long)]
        source: Option<PathBuf>,
        /// Stop after this many seconds (otherwise at the source's end, or Ctrl-C).
        #[arg(long)]
        seconds: Option<f32>,
        /// Frame size asked of the camera, `WIDTHxHEIGHT` (the nearest it offers is taken).
        #[arg(long, default_value = "1280x720", value_parser = parse_size)]
        size: (u32, u32),
        /// Frame rate asked of the camera.
        #[arg(long, default_value_t = 30)]
        fps: u32,
    },
    /// Keep a game from the camera's frames and the dealer's words: frames
    /// through the recogniser and the tracker into the engine; the ledger at the end.
    Play {
        /// A frames folder, a rendered sitting's folder (`pone synth --sitting`),
        /// a recording's folder (`pone record`), or an MJPEG file.
        #[arg(long, required_unless_present = "camera", conflicts_with = "camera")]
        source: Option<PathBuf>,
        /// Play from this camera (its number in `pone cameras`) as the cards
        /// are dealt; it is opened again when it drops out.
        #[arg(long)]
        camera: Option<u32>,
        /// With --camera: the frame size asked, `WIDTHxHEIGHT` (the nearest it offers is taken).
        #[arg(long, default_value = "1280x720", value_parser = parse_size)]
        size: (u32, u32),
        /// The dealer's words (`dealer.jsonl`: the table line, then stakes, double,
        /// content and declarations, each with its `frame`).
        #[arg(long, required_unless_present = "deal")]
        dealer: Option<PathBuf>,
        /// No script: the players in seating order, the first dealing; the
        /// dealer gives stakes, the double, content and divide at the
        /// window's desk while the camera deals (`--deal Ann,Bob,Cat`).
        #[arg(
            long,
            value_delimiter = ',',
            value_name = "NAMES",
            conflicts_with = "dealer"
        )]
        deal: Option<Vec<String>>,
        /// With --deal: the sitting's house rules, a TOML file naming the
        /// rules it changes (`pone rules` prints them all with their defaults).
        #[arg(long, value_name = "FILE", requires = "deal")]
        rules: Option<PathBuf>,
        /// No window: print the ledger at the end. Without it, the side screen
        /// shows the table, the camera's picture with its readings, and the
        /// questions, at the recording's pace.
        #[arg(long)]
        headless: bool,
        /// Print the ledger as JSON, as `pone replay --json` does.
        #[arg(long)]
        json: bool,
        /// The folder holding the models (default: the repository's models/).
        #[arg(long)]
        models: Option<PathBuf>,
        /// Frames per second, when the source does not say, or asked of the
        /// camera (default 30).
        #[arg(long)]
        fps: Option<f32>,
        /// Play the recording at its own pace, as a camera would give it:
        /// frames that come while one is read are let go, and counted (the
        /// window always plays so).
        #[arg(long)]
        live: bool,
        /// A recording played at its own pace (the window's, or --live):
        /// read every frame, however late, letting none go (to review a
        /// recording on a machine too slow to read it as a camera gives it).
        #[arg(long)]
        every_frame: bool,
        /// With the window: close it after this many seconds.
        #[arg(long, value_name = "SECONDS")]
        exit_after: Option<f64>,
        /// With the window: close it once the recording has played to its
        /// end (a camera never ends: use --exit-after).
        #[arg(long, conflicts_with = "headless")]
        exit_at_end: bool,
        /// With the window: train the dealer. The slips the camera sees in
        /// his dealing are counted, and at each round's end he announces
        /// every settlement, marked before the table shows its own.
        #[arg(long, conflicts_with = "headless")]
        train: bool,
        /// The sitting's seat zones (JSON): read when the file is there (saved
        /// by an earlier sitting, or edited by hand), else learned from the
        /// first deal and written there at the end; seats, the pack and the
        /// pile moved on the window's camera picture are written there at
        /// once.
        #[arg(long, value_name = "FILE")]
        zones: Option<PathBuf>,
        /// The game's journal, written after every change as the camera
        /// deals (`pone replay FILE` reads it); a new file: one there
        /// already is refused.
        #[arg(long, value_name = "FILE")]
        journal: Option<PathBuf>,
        /// With --source: rehearse the camera unplugged from FROM to TO
        /// seconds of the recording (`7-8.5`; again for more): the frames
        /// taken meanwhile are lost, and the table keeps the game and picks
        /// up what it finds on the camera's return.
        #[arg(long, value_name = "FROM-TO", value_parser = parse_window, requires = "source")]
        camera_out: Vec<(std::time::Duration, std::time::Duration)>,
    },
    /// Find and read the cards in images (photos or frames of the table).
    Recognise {
        /// The images (JPEG or PNG).
        #[arg(required = true)]
        images: Vec<PathBuf>,
        /// Print one JSON array, one object per image: its cards with their boxes.
        #[arg(long)]
        json: bool,
        /// The folder holding finder.onnx and reader.onnx (default: the repository's models/).
        #[arg(long)]
        models: Option<PathBuf>,
    },
    /// The corner reader's training crops from rendered sets: each scene's
    /// labelled index corners, and every corner the finder finds there, filed
    /// under the card it shows or `none` (`models/train_reader.py` reads them).
    /// From class folders of photos (`crops-gpiosenka-train`): the corners
    /// found on each photo's card, filed under its card (the part kept out
    /// for `pone eval` is left alone).
    Crops {
        /// The rendered sets (`pone synth --out` folders), or class folders of photos.
        #[arg(required = true)]
        sets: Vec<PathBuf>,
        /// Where to write: one folder per set, `<CLASS>/*.png` inside.
        #[arg(long)]
        out: PathBuf,
        /// The folder holding finder.onnx (default: the repository's models/).
        #[arg(long)]
        models: Option<PathBuf>,
        /// The back checker's crops instead (`models/train_backs.py` reads
        /// them): every face-down card the finder finds, as `back` or `none`.
        #[arg(long)]
        backs: bool,
    },
    /// The recogniser's accuracy on labelled folders: rendered scenes (labels/,
    /// images/), VOC boxes (*.xml beside the images), class folders (`queen of
    /// hearts/`), or single cards named by their card (`10c.jpg`).
    Eval {
        /// The folders.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// The folder holding finder.onnx and reader.onnx (default: the repository's models/).
        #[arg(long)]
        models: Option<PathBuf>,
        /// Class folders: measure on every image, not only the part kept out of training.
        #[arg(long)]
        all: bool,
    },
    /// Render camera-like table scenes with exact labels (training and test data).
    Synth {
        /// Where to write: images/, labels/ and synth.json.
        #[arg(long)]
        out: PathBuf,
        /// How many scenes.
        #[arg(long, default_value_t = 100)]
        scenes: u64,
        /// The seed: the same seed makes the same scenes.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Which built-in designs: train, held-out or all.
        #[arg(long, default_value = "all")]
        designs: String,
        /// Frame size, `WIDTHxHEIGHT`.
        #[arg(long, default_value = "1280x720", value_parser = parse_size)]
        size: (u32, u32),
        /// Also draw every design of `models/art/manifest.toml` from this art cache
        /// (filled by `models/art/fetch_art.py`; GPL/LGPL art stays out of the repo).
        #[arg(long)]
        art_cache: Option<PathBuf>,
        /// Also write straightened index-corner crops by class (`crops/<CARD>/`, `crops/back/`).
        #[arg(long)]
        crops: bool,
        /// Take the cards away: the tables with their things, hands and light
        /// only (negatives for training the finder).
        #[arg(long)]
        empty: bool,
        /// Draw each design with this many invented backs instead of its own
        /// (stripes, tartans, lattices, dots, frames, emblems in random
        /// colours): training the back checker on more backs than the art has.
        #[arg(long, default_value_t = 0)]
        invented_backs: usize,
        /// With --art-cache: draw with at most this many of the manifest's
        /// invented designs (`invented_00` ...; default all, 0 for the real
        /// decks only).
        #[arg(long)]
        invented_designs: Option<usize>,
        /// With --art-cache: dress half the tables with a real photo's texture
        /// (wood, stone, leather, cloth), most printed pictures on them with
        /// a real photo, and half with a raised box or stone made of them
        /// (`CACHE/_photos/`, from `fetch_art.py`).
        #[arg(long)]
        photos: bool,
        /// Render a sitting the engine plays: frames, dealer.jsonl and truth.jsonl.
        #[arg(long)]
        sitting: bool,
        #[command(flatten)]
        sitting_args: pone_ui::cli::SittingArgs,
    },
    /// Play a sitting by itself (random stakes and decisions) and print its ledger.
    Demo {
        /// Players at the table, the dealer among them.
        #[arg(long, default_value_t = 4)]
        players: usize,
        /// Rounds to play.
        #[arg(long, default_value_t = 12)]
        rounds: u32,
        /// Seed of the shuffle and the decisions; the same seed plays the same sitting.
        #[arg(long)]
        seed: Option<u64>,
        /// Write the sitting's journal here (it replays with `pone replay`).
        #[arg(long)]
        journal: Option<PathBuf>,
    },
    /// Practise settling: rounds the engine plays, and what one player gets
    /// (or pays) over each, answered on the keyboard; a report at the end.
    Drill {
        /// Questions to ask.
        #[arg(long, default_value_t = 10)]
        questions: usize,
        /// Players at the table, the dealer among them.
        #[arg(long, default_value_t = 5)]
        players: usize,
        /// Seed of the rounds; the same seed asks the same questions.
        #[arg(long)]
        seed: Option<u64>,
        /// The house rules practised for, a TOML file naming the rules it
        /// changes (`pone rules` prints them all with their defaults).
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
        /// Practise in the window rather than on the terminal.
        #[arg(long)]
        window: bool,
        /// With --window: close it after this many seconds.
        #[arg(long, value_name = "SECONDS", requires = "window")]
        exit_after: Option<f64>,
    },
}

/// `pone` alone: the side screen: a new sitting's setup on the camera when
/// one is attached, else the demo (the camera demo, rendered into the cache
/// on the first start); or the desk, with --deal or --journal.
fn window(options: Options) -> anyhow::Result<()> {
    let rules = options
        .rules
        .as_deref()
        .map(pone_ui::cli::read_rules)
        .transpose()?;
    let defaults = pone_ui::screen::ScreenOptions::default();
    pone_ui::screen::run(pone_ui::screen::ScreenOptions {
        players: options.players,
        exit_after: options.exit_after,
        exit_at_end: options.exit_at_end,
        deal: options.deal,
        journal: options.journal,
        rules: rules.unwrap_or_default(),
        setup: options.setup,
        opening: if options.demo {
            pone_ui::screen::Opening::CameraDemo
        } else {
            pone_ui::screen::Opening::CameraFirst
        },
        training: options.train,
        remember: pone_ui::setup::last_sitting_file(),
        measure_redraw: options
            .measure_redraw
            .map(pone_ui::screen::Measure::from_hz),
        step: options
            .step_ms
            .map_or(defaults.step, std::time::Duration::from_millis),
        ..defaults
    })
}

/// `pone drill`: the questions, asked on the terminal, or in the window
/// (closed after `exit_after` seconds when given).
fn drill(command: Commands) -> anyhow::Result<()> {
    let Commands::Drill {
        questions,
        players,
        seed,
        rules,
        window,
        exit_after,
    } = command
    else {
        unreachable!("only the drill comes here")
    };
    let rules = rules
        .as_deref()
        .map(pone_ui::cli::read_rules)
        .transpose()?
        .unwrap_or_default();
    let seed = seed.unwrap_or_else(clock_seed);
    let asked = pone_ui::drill::questions(players, seed, questions, &rules)?;
    if window {
        return pone_ui::screen::run(pone_ui::screen::ScreenOptions {
            drill: Some(asked),
            players,
            rules,
            exit_after,
            ..pone_ui::screen::ScreenOptions::default()
        });
    }
    pone_ui::drill::practise(
        &asked,
        &mut std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
    )?;
    Ok(())
}

/// A seed from the clock, when none is given.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `FROM-TO` in seconds, FROM before TO.
fn parse_window(text: &str) -> Result<(std::time::Duration, std::time::Duration), String> {
    let bad = || format!("\"{text}\" is not a window: write FROM-TO in seconds, e.g. 7-8.5");
    let (from, to) = text.split_once('-').ok_or_else(bad)?;
    let seconds = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
            .ok_or_else(bad)
    };
    let (from, to) = (seconds(from)?, seconds(to)?);
    if from < to {
        Ok((from, to))
    } else {
        Err(format!(
            "{text}: the camera must come back after it goes (FROM before TO)"
        ))
    }
}

fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("\"{text}\" is not a size: write WIDTHxHEIGHT, e.g. 1280x720");
    let (w, h) = text.split_once('x').ok_or_else(bad)?;
    let (w, h) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if (64..=8192).contains(&w) && (64..=8192).contains(&h) {
        Ok((w, h))
    } else {
        Err(format!("{text}: width and height must be from 64 to 8192"))
    }
}

fn demo(
    players: usize,
    rounds: u32,
    seed: Option<u64>,
    journal: Option<PathBuf>,
) -> anyhow::Result<()> {
    let seed = seed.unwrap_or_else(clock_seed);
    let options = pone_ui::cli::DemoOptions {
        players,
        rounds,
        seed,
        journal,
    };
    pone_ui::cli::demo(&options, &mut std::io::stdout().lock())
}

/// The live-table commands: `pone cameras`, `pone record`, `pone play`.
fn live_command(command: Commands, measure_redraw: Option<f64>) -> anyhow::Result<()> {
    let measure_redraw = measure_redraw.map(pone_ui::screen::Measure::from_hz);
    match command {
        Commands::Cameras => pone_ui::live::list_cameras(&mut std::io::stdout().lock()),
        Commands::Record {
            out,
            camera,
            source,
            seconds,
            size,
            fps,
        } => {
            let options = pone_ui::live::RecordOptions {
                out,
                camera,
                source,
                seconds,
                size,
                fps,
            };
            pone_ui::live::record(&options, &mut std::io::stdout().lock())
        }
        Commands::Play {
            source,
            camera,
            rules,
            size,
            dealer,
            headless,
            json,
            models,
            fps,
            live,
            every_frame,
            exit_after,
            exit_at_end,
            train,
            zones,
            journal,
            deal,
            camera_out,
        } => {
            let rules = rules
                .as_deref()
                .map(pone_ui::cli::read_rules)
                .transpose()?
                .unwrap_or_default();
            let options = pone_ui::live::PlayOptions {
                source,
                camera: camera.map(|index| (index, size)),
                dealer,
                deal,
                first: 0,
                rules,
                json,
                models,
                fps,
                live,
                every_frame,
                zones,
                seat_zones: None,
                journal,
                camera_out,
            };
            if headless {
                pone_ui::live::play_headless(&options, &mut std::io::stdout().lock())
            } else {
                let window = pone_ui::screen::LiveWindow {
                    exit_after,
                    exit_at_end,
                    measure_redraw,
                    train,
                };
                pone_ui::live::play_window(&options, window)
            }
        }
        _ => unreachable!("only the live-table commands come here"),
    }
}

/// `pone synth`: scenes, or with `sitting` a sitting.
fn synth(
    args: &pone_ui::cli::SynthArgs,
    sitting: Option<pone_ui::cli::SittingArgs>,
) -> anyhow::Result<()> {
    let out = &mut std::io::stdout().lock();
    match sitting {
        Some(sitting) => pone_ui::cli::synth_sitting(args, &sitting, out),
        None => pone_ui::cli::synth(args, out),
    }
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let options = Options::parse();
    if options.fullscreen {
        pone_ui::screen::open_full_screen();
    }
    let result = match options.command {
        Some(Commands::Replay { file, json, csv }) => {
            let format = match (json, csv) {
                (true, _) => pone_ui::cli::Format::Json,
                (_, true) => pone_ui::cli::Format::Csv,
                _ => pone_ui::cli::Format::Text,
            };
            pone_ui::cli::replay_file(&file, format, &mut std::io::stdout().lock())
        }
        Some(Commands::Synth {
            out,
            scenes,
            seed,
            designs,
            size,
            sitting,
            sitting_args,
            art_cache,
            crops,
            empty,
            invented_backs,
            invented_designs,
            photos,
        }) => {
            let args = pone_ui::cli::SynthArgs {
                out,
                scenes,
                seed,
                designs,
                size,
                crops,
                empty,
                invented_backs,
                art_cache,
                invented_designs,
                photos,
            };
            synth(&args, sitting.then_some(sitting_args))
        }
        Some(Commands::Recognise {
            images,
            json,
            models,
        }) => pone_ui::see::recognise(
            &images,
            json,
            models.as_deref(),
            &mut std::io::stdout().lock(),
        ),
        Some(Commands::Crops {
            sets,
            out,
            models,
            backs,
        }) => pone_ui::see::crops(
            &sets,
            &out,
            models.as_deref(),
            backs,
            &mut std::io::stdout().lock(),
        )
        .map(drop),
        Some(Commands::Eval { dirs, models, all }) => {
            pone_ui::see::eval(&dirs, models.as_deref(), all, &mut std::io::stdout().lock())
        }
        Some(Commands::Rules) => pone_ui::cli::rules_toml(&mut std::io::stdout().lock()),
        Some(live @ (Commands::Cameras | Commands::Record { .. } | Commands::Play { .. })) => {
            live_command(live, options.measure_redraw)
        }
        Some(Commands::Demo {
            players,
            rounds,
            seed,
            journal,
        }) => demo(players, rounds, seed, journal),
        Some(drill_command @ Commands::Drill { .. }) => drill(drill_command),
        None => window(options),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

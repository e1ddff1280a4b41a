//! `pone play`: frames from a source through the recogniser and the tracker
//! into the engine, with the dealer's words from a file; the ledger at the end.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context as _;
use pone_engine::report;
use pone_vision::play::{DealerScript, Play};
use pone_vision::recognise::{Recogniser, models_dir};
use pone_vision::source::{FolderSource, MjpegSource, Pace, Source};
use pone_vision::tracker::TrackerOptions;

/// What `pone play` is given.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// A frames folder (or a rendered sitting's folder), or an MJPEG file.
    pub source: PathBuf,
    /// The dealer's lines (`dealer.jsonl`): the table line first, every line with its `frame`.
    pub dealer: PathBuf,
    /// Print the ledger as JSON.
    pub json: bool,
    /// The models folder.
    pub models: Option<PathBuf>,
    /// Frames per second, when the source does not say.
    pub fps: Option<f32>,
    /// Play at the recording's own pace rather than as fast as possible.
    pub live: bool,
}

/// Opens a frames folder, a rendered sitting's folder (its `frames/`), or an MJPEG file.
pub fn open_source(path: &Path, fps: Option<f32>, pace: Pace) -> anyhow::Result<Box<dyn Source>> {
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

/// `pone play --headless`: runs the whole pipeline and prints the ledger (as
/// `pone replay` does); on stderr, the questions raised and the latency.
pub fn play_headless(options: &PlayOptions, out: &mut impl Write) -> anyhow::Result<()> {
    let pace = if options.live { Pace::Live } else { Pace::Fast };
    let mut source = open_source(&options.source, options.fps, pace)?;
    let text = std::fs::read_to_string(&options.dealer)
        .with_context(|| format!("cannot read {}", options.dealer.display()))?;
    let script = DealerScript::parse(&text)
        .with_context(|| format!("the dealer's script {}", options.dealer.display()))?;
    let folder = options.models.clone().unwrap_or_else(models_dir);
    let mut recogniser = Recogniser::open(&folder)?;
    let fps = source.fps();
    let mut play = Play::new(script, fps, TrackerOptions::default())?;
    let bar = crate::cli::progress_bar(0, "frames");
    let mut busy = Vec::new();
    while let Some(frame) = source.next_frame()? {
        let start = Instant::now();
        let readings = recogniser.recognise(&frame.image)?;
        play.frame(frame.index, frame.at, &readings);
        busy.push(start.elapsed().as_secs_f64() * 1000.0);
        bar.inc(1);
    }
    bar.finish_and_clear();
    play.finish();
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
    summarise(&play, &options.source, fps, &mut busy);
    Ok(())
}

/// On stderr: speed, the questions, and the card-to-engine latency (against
/// `truth.jsonl` when the source is a rendered sitting).
#[allow(
    clippy::print_stderr, // the CLI's report, beside the ledger on stdout
    clippy::cast_precision_loss, // frame counts and milliseconds, far below 2^52
    clippy::cast_sign_loss // a rank in a list: positive
)]
fn summarise(play: &Play, source: &Path, fps: f32, busy: &mut [f64]) {
    busy.sort_by(f64::total_cmp);
    let frames = busy.len();
    let mean = busy.iter().sum::<f64>() / frames.max(1) as f64;
    eprintln!(
        "{frames} frames at {fps} fps; {mean:.1} ms a frame to read ({:.1} frames a second)",
        1000.0 / mean.max(1e-3)
    );
    for q in play.questions() {
        eprintln!("question at frame {}: {}", q.frame, q.text);
    }
    let frame_ms = 1000.0 / f64::from(fps.max(0.1));
    let cards = play
        .delivered()
        .iter()
        .filter(|d| d.line.contains("\"card\""))
        .count();
    let truth = truth_cards(source);
    if !truth.is_empty() && truth.len() != cards {
        eprintln!(
            "the camera gave {cards} cards; the sitting's truth has {}",
            truth.len()
        );
    }
    let truth = if truth.len() == cards {
        truth
    } else {
        Vec::new()
    };
    let mut latencies: Vec<f64> = play
        .delivered()
        .iter()
        .filter(|d| d.line.contains("\"card\""))
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

/// The landing frames of the cards in a rendered sitting's `truth.jsonl`, in order.
fn truth_cards(source: &Path) -> Vec<u64> {
    let dir = if source.ends_with("frames") {
        source.parent().unwrap_or(source)
    } else {
        source
    };
    let Ok(text) = std::fs::read_to_string(dir.join("truth.jsonl")) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["t"] == "card")
        .filter_map(|v| v["frame"].as_u64())
        .collect()
}

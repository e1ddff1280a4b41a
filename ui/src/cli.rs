//! The command-line subcommands.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use pone_engine::{replay, report};

/// `pone replay FILE [--json]`: replays a journal or table script and prints
/// the ledger. Bad input stops it with the line number and the reason.
pub fn replay_file(path: &Path, format: Format, out: &mut impl Write) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let game = replay(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    match format {
        Format::Text => write!(out, "{}", report::to_text(&game))?,
        Format::Json => {
            let value = report::to_json(&game);
            writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        }
        Format::Csv => write!(out, "{}", report::to_csv(&game)?)?,
    }
    Ok(())
}

/// A sitting's house rules from a TOML file (`pone rules` prints every rule
/// with its default; a file names only those it changes).
pub fn read_rules(path: &Path) -> anyhow::Result<pone_engine::HouseRules> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the house rules {}", path.display()))?;
    toml::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}: not a sitting's house rules: {e}(`pone rules` prints every rule with its \
             default; keep the lines you change)",
            path.display()
        )
    })
}

/// How `pone replay` prints the ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// In words: each round's payments, then the balances.
    Text,
    /// As JSON ([`report::to_json`]).
    Json,
    /// As CSV, a row per payment ([`report::to_csv`]).
    Csv,
}

/// Writes the ledger of `game` beside `stem` as `<stem>.ledger.csv` and
/// `<stem>.ledger.json`; the two paths written.
pub fn export_ledger(
    game: &pone_engine::Game,
    stem: &Path,
) -> anyhow::Result<(std::path::PathBuf, std::path::PathBuf)> {
    let csv_path = stem.with_extension("ledger.csv");
    let json_path = stem.with_extension("ledger.json");
    std::fs::write(&csv_path, report::to_csv(game)?)
        .with_context(|| format!("cannot write {}", csv_path.display()))?;
    std::fs::write(
        &json_path,
        serde_json::to_string_pretty(&report::to_json(game))? + "\n",
    )
    .with_context(|| format!("cannot write {}", json_path.display()))?;
    Ok((csv_path, json_path))
}

/// What `pone demo` plays.
#[derive(Clone, Debug)]
pub struct DemoOptions {
    /// Players at the table, the dealer among them.
    pub players: usize,
    /// Rounds to play.
    pub rounds: u32,
    /// The seed of the shuffle and of the players' decisions.
    pub seed: u64,
    /// Where to write the sitting's journal, if anywhere.
    pub journal: Option<std::path::PathBuf>,
}

/// `pone demo`: a sitting that plays itself with the default house rules,
/// printed as `pone replay` prints a ledger. Its journal replays to the same ledger.
pub fn demo(options: &DemoOptions, out: &mut impl Write) -> anyhow::Result<()> {
    let mut table = crate::demo::DemoTable::new(options.players, options.seed)?;
    table.play_rounds(options.rounds)?;
    let game = table.game();
    if let Some(path) = &options.journal {
        std::fs::write(path, game.journal_text())
            .with_context(|| format!("cannot write the journal to {}", path.display()))?;
    }
    writeln!(
        out,
        "A sitting of {} players that plays itself (seed {}):",
        options.players, options.seed
    )?;
    write!(out, "{}", report::to_text(game))?;
    Ok(())
}

/// `pone rules`: the house rules with their defaults, as the TOML of a sitting's
/// rules file (every key may be left out to keep its default).
pub fn rules_toml(out: &mut impl Write) -> anyhow::Result<()> {
    let rules = pone_engine::HouseRules::default();
    writeln!(
        out,
        "# Pone house rules: the defaults of RULES.md. Change what your table agreed;\n\
         # a key left out keeps its default. pool and rounds_per_deal: a number, or \"none\"."
    )?;
    let mut text = toml::to_string(&rules)?;
    // TOML has no null: the keys that default to none are written as "none".
    if rules.rounds_per_deal.is_none() {
        text.push_str("rounds_per_deal = \"none\"\n");
    }
    if rules.pool.is_none() {
        text.push_str("pool = \"none\"\n");
    }
    write!(out, "{text}")?;
    Ok(())
}

/// What `pone synth` makes.
#[derive(Clone, Debug)]
pub struct SynthArgs {
    /// Where to write the set.
    pub out: std::path::PathBuf,
    /// How many scenes.
    pub scenes: u64,
    /// The seed: the same seed makes the same set.
    pub seed: u64,
    /// `train`, `held-out` or `all` of the built-in CC0 designs.
    pub designs: String,
    /// Frame width and height.
    pub size: (u32, u32),
    /// Also write straightened index-corner crops, by class, for training the reader.
    pub crops: bool,
    /// The tables with their cards taken away (the finder's negatives).
    pub empty: bool,
    /// Each design drawn with this many invented backs instead of its own (0: its own).
    pub invented_backs: usize,
    /// The art cache of `models/art/fetch_art.py`, for every design of
    /// `models/art/manifest.toml` besides the built-in ones (training sets).
    pub art_cache: Option<std::path::PathBuf>,
    /// With `art_cache`: at most this many of the manifest's invented designs (`None`: all).
    pub invented_designs: Option<usize>,
    /// With `art_cache`: dress the tables with its real photos (table tops,
    /// printed pictures; `fetch_art.py` writes them to `CACHE/_photos/`).
    pub photos: bool,
}

fn chosen_designs(args: &SynthArgs) -> anyhow::Result<Vec<pone_vision::art::Design>> {
    use pone_vision::art::Split;
    let which = match args.designs.as_str() {
        "train" => Some(Split::Train),
        "held-out" | "held_out" => Some(Split::HeldOut),
        "all" => None,
        other => anyhow::bail!("--designs must be train, held-out or all, not \"{other}\""),
    };
    let mut designs = pone_vision::art::embedded()?;
    if let Some(cache) = &args.art_cache {
        let manifest = std::path::Path::new("models/art/manifest.toml");
        let splits = pone_vision::art::manifest_splits(manifest).context(
            "run pone synth from the repository root, where models/art/manifest.toml is",
        )?;
        let built_in: Vec<String> = designs.iter().map(|d| d.name.clone()).collect();
        let wanted: Vec<_> = splits
            .into_iter()
            .filter(|e| !built_in.contains(&e.name) && which.is_none_or(|w| e.split == w))
            .filter(|e| {
                args.invented_designs.is_none_or(|most| {
                    pone_vision::art::invented_number(&e.name).is_none_or(|k| k < most)
                })
            })
            .collect();
        designs.extend(pone_vision::art::from_cache(cache, &wanted)?);
    }
    Ok(pone_vision::synth::choose(designs, which))
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZero::get)
}

pub(crate) fn progress_bar(len: u64, unit: &str) -> indicatif::ProgressBar {
    indicatif::ProgressBar::new(len).with_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {unit}, {{per_sec}}, {{eta}} left"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    )
}

/// What `pone synth --sitting` plays.
#[derive(Clone, Debug, clap::Args)]
pub struct SittingArgs {
    /// With --sitting: rounds to play.
    #[arg(long, default_value_t = 6)]
    pub rounds: u32,
    /// With --sitting: players at the table, the dealer among them.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// With --sitting: frames per second.
    #[arg(long, default_value_t = 10)]
    pub fps: u32,
    /// With --sitting: film a dealing slip at this card of the sitting (the
    /// first card dealt is 1): it lands at the next seat's place (or, as
    /// `CARD+SEATS`, that many seats on: `24+2`), then the dealer moves it
    /// to its own. Repeat for more.
    #[arg(long = "slip", value_name = "CARD[+SEATS]")]
    pub slips: Vec<pone_vision::sitting::FilmedSlip>,
    /// With --sitting: the table's house rules, a TOML file as `pone rules`
    /// prints (`eight_round_deal = true` films B's eight-round deal).
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
}

/// `pone synth --sitting`: a sitting the engine plays and the renderer films.
pub fn synth_sitting(
    args: &SynthArgs,
    sitting: &SittingArgs,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let designs = chosen_designs(args)?;
    let options = pone_vision::sitting::SittingOptions {
        out: args.out.clone(),
        seed: args.seed,
        rounds: sitting.rounds,
        players: sitting.players,
        width: args.size.0,
        height: args.size.1,
        fps: sitting.fps,
        threads: threads(),
        slips: sitting.slips.clone(),
        rules: match &sitting.rules {
            Some(path) => read_rules(path)?,
            None => pone_engine::HouseRules::default(),
        },
    };
    let bar = progress_bar(0, "frames");
    let start = std::time::Instant::now();
    let summary = pone_vision::sitting::write_sitting(&options, &designs, &|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })?;
    bar.finish_and_clear();
    writeln!(
        out,
        "{} rounds in {} frames ({} fps, {}x{}, design {}) in {:.1} s: {}",
        summary.rounds,
        summary.frames,
        summary.fps,
        summary.width,
        summary.height,
        summary.design,
        start.elapsed().as_secs_f64(),
        args.out.display()
    )?;
    Ok(())
}

/// `pone synth`: rendered table scenes with exact labels, with a progress bar.
pub fn synth(args: &SynthArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let mut designs = chosen_designs(args)?;
    if args.invented_backs > 0 {
        designs = designs
            .into_iter()
            .enumerate()
            .map(|(k, d)| d.with_invented_backs(args.invented_backs, args.seed ^ k as u64))
            .collect();
    }
    let photos = match (&args.art_cache, args.photos) {
        (Some(cache), true) => Some(std::sync::Arc::new(
            pone_vision::photos::Photos::from_cache(cache)?,
        )),
        (None, true) => anyhow::bail!(
            "--photos needs --art-cache CACHE: the photos are CACHE/_photos/, written by `python3 models/art/fetch_art.py --cache CACHE`"
        ),
        (_, false) => None,
    };
    let threads = threads();
    let options = pone_vision::synth::SynthOptions {
        out: args.out.clone(),
        scenes: args.scenes,
        seed: args.seed,
        width: args.size.0,
        height: args.size.1,
        threads,
        crops: args.crops,
        empty: args.empty,
        photos,
    };
    let bar = indicatif::ProgressBar::new(args.scenes).with_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} scenes, {per_sec}, {eta} left",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let start = std::time::Instant::now();
    pone_vision::synth::write_set(&options, &designs, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    writeln!(
        out,
        "{} scenes of {}x{} in {:.1} s ({:.1} scenes/s on {threads} threads) in {}",
        args.scenes,
        args.size.0,
        args.size.1,
        seconds,
        f64::from(u32::try_from(args.scenes).unwrap_or(u32::MAX)) / seconds.max(1e-9),
        args.out.display()
    )?;
    Ok(())
}

/// The card a file of straightened single cards is named for: rank
/// `2..10, j, q, k, a` then suit `c, d, h, s` (`10c.jpg`, `qh.png`).
pub fn card_from_file_name(path: &Path) -> Option<pone_engine::Card> {
    let stem = path.file_stem()?.to_str()?.to_ascii_uppercase();
    stem.parse().ok()
}

//! The real window: `pone --exit-after SECONDS` opens the side screen on the
//! demo sitting under Xvfb (no display or camera here), plays rounds, and
//! exits cleanly with code 0. `scripts/setup` installs Xvfb.

use std::process::Command;

#[test]
fn the_window_opens_plays_and_exits_cleanly() {
    // The engine's demo paced fast, so that 4 seconds hold whole rounds
    // (the camera demo renders meanwhile, into a cache of the test's own).
    let cache = std::env::temp_dir().join(format!("pone-window-cache-{}", std::process::id()));
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_pone"))
        .args(["--exit-after", "4", "--step-ms", "20"])
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .expect("xvfb-run (the xvfb package: run ./scripts/setup)");
    std::fs::remove_dir_all(&cache).ok();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "pone --exit-after 4 ended with {}: {said}",
        output.status
    );
    // On closing, the demo says how many rounds it played.
    let rounds: u32 = said
        .lines()
        .find_map(|line| line.strip_prefix("demo: ")?.strip_suffix(" rounds played"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no \"demo: N rounds played\" line: {said}"));
    assert!(rounds >= 1, "the demo played no whole round: {said}");
}

/// With no camera, `pone` renders the camera demo's sitting from the
/// built-in card designs into the cache on its first start (the engine's
/// demo plays meanwhile), then plays it through the real recogniser and
/// tracker as a camera's frames, and says on closing how far it got. The
/// next start finds it in the cache.
#[test]
fn with_no_camera_the_window_plays_the_rendered_demo_through_the_recogniser() {
    let cache = std::env::temp_dir().join(format!("pone-camera-demo-{}", std::process::id()));
    let run = |exit: &[&str]| {
        let output = Command::new("xvfb-run")
            .args(["-a", "-s", "-screen 0 1280x800x24"])
            .arg(env!("CARGO_BIN_EXE_pone"))
            .args(["--players", "2"])
            .args(exit)
            .env("XDG_CACHE_HOME", &cache)
            .output()
            .expect("xvfb-run (the xvfb package: run ./scripts/setup)");
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(
            output.status.success(),
            "pone ended with {}: {said}",
            output.status
        );
        said
    };
    // Closed once the camera demo has played through (however slowly the
    // machine renders and reads it), or at worst after ten minutes.
    let said = run(&["--exit-at-end", "--exit-after", "600"]);
    // "camera demo: R rounds played from F frames read by the recogniser"
    let (rounds, frames) = said
        .lines()
        .find_map(|line| {
            let rest = line.strip_prefix("camera demo: ")?;
            let (rounds, rest) = rest.split_once(" rounds played from ")?;
            let (frames, _) = rest.split_once(' ')?;
            Some((rounds.parse::<u32>().ok()?, frames.parse::<u64>().ok()?))
        })
        .unwrap_or_else(|| panic!("no \"camera demo: R rounds played from F frames\": {said}"));
    // Every frame of the recording is read however late (a slow machine
    // plays the demo slower), so the camera keeps every round the sitting
    // was rendered with, whatever the machine's load.
    let demo = cache.join("pone/demo");
    let kept: Vec<_> = std::fs::read_dir(&demo)
        .expect("the demo's cache")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(
        kept.len() == 1 && !kept[0].to_string_lossy().contains("partial"),
        "one whole sitting in the cache: {kept:?}"
    );
    let sitting: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(kept[0].join("sitting.json")).expect("the sitting's sitting.json"),
    )
    .expect("sitting.json is JSON");
    assert_eq!(
        (Some(u64::from(rounds)), Some(frames)),
        (sitting["rounds"].as_u64(), sitting["frames"].as_u64()),
        "(rounds, frames) played, against the sitting's: {said}"
    );
    // Found in the cache, it plays at once.
    let said = run(&["--exit-after", "10"]);
    assert!(
        said.lines()
            .any(|l| l.starts_with("camera demo: ") && l.contains(" rounds played from ")),
        "{said}"
    );
    std::fs::remove_dir_all(&cache).ok();
}

#[test]
fn the_setup_window_opens_and_exits_cleanly() {
    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_pone"))
        .args(["--setup", "--exit-after", "2"])
        .status()
        .expect("xvfb-run (the xvfb package: run ./scripts/setup)");
    assert!(
        status.success(),
        "pone --setup --exit-after 2 ended with {status}"
    );
}

#[test]
fn the_drill_window_opens_and_exits_cleanly() {
    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_pone"))
        .args(["drill", "--window", "--seed", "3", "--exit-after", "2"])
        .status()
        .expect("xvfb-run (the xvfb package: run ./scripts/setup)");
    assert!(status.success(), "pone drill --window ended with {status}");
}

#[test]
fn the_desk_window_opens_writes_its_journal_and_goes_on_from_it() {
    let dir = std::env::temp_dir().join(format!("pone-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let journal = dir.join("sitting.jsonl");
    let run = |args: &[&str]| {
        Command::new("xvfb-run")
            .args(["-a", "-s", "-screen 0 1280x800x24"])
            .arg(env!("CARGO_BIN_EXE_pone"))
            .args(args)
            .status()
            .expect("xvfb-run (the xvfb package: run ./scripts/setup)")
    };
    let path = journal.to_str().expect("a UTF-8 path");
    let status = run(&[
        "--deal",
        "Ann,Bob,Cat",
        "--journal",
        path,
        "--exit-after",
        "2",
    ]);
    assert!(status.success(), "pone --deal ... ended with {status}");
    let text = std::fs::read_to_string(&journal).expect("the journal written");
    let game = pone_engine::replay(&text).expect("a journal pone replay reads");
    assert_eq!(game.sitting().state().names(), ["Ann", "Bob", "Cat"]);
    // Started again on its journal, it goes on with the same sitting.
    let status = run(&["--journal", path, "--exit-after", "2"]);
    assert!(status.success(), "pone --journal ... ended with {status}");
    // A journal that is not one is refused with a clear error, not a window.
    std::fs::write(&journal, "{not json\n").expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_pone"))
        .args(["--journal", path])
        .output()
        .expect("pone");
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("sitting.jsonl"), "{error}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn pone_play_opens_the_window_on_a_rendered_sitting_and_exits_cleanly() {
    // The recogniser needs the models and ONNX Runtime (./scripts/setup).
    let dir = rendered_sitting("pone-play-window");
    let out = dir.to_str().expect("a UTF-8 path");
    let dealer = dir.join("dealer.jsonl");
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x900x24"])
        .arg(env!("CARGO_BIN_EXE_pone"))
        .args(["play", "--source", out, "--dealer"])
        .arg(&dealer)
        // Training the dealer as it plays: the window asks for the
        // settlements at the round's end. Every frame is read, however
        // slowly the machine reads them (as a camera gives them, a busy
        // machine lets most go), and it closes when the recording has
        // played, or at worst after two minutes.
        .args([
            "--every-frame",
            "--exit-at-end",
            "--exit-after",
            "120",
            "--train",
        ])
        .arg("--journal")
        .arg(dir.join("window.jsonl"))
        // Paced as a 60 Hz display: the frame times and the pipeline's
        // keeping up are printed on closing.
        .args(["--measure-redraw", "60"])
        .output()
        .expect("xvfb-run (the xvfb package: run ./scripts/setup)");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "pone play (the window) ended with {}: {said}",
        output.status,
    );
    assert!(
        said.contains("redraw paced at 60 a second") && said.contains("pipeline: "),
        "{said}"
    );
    // The pipeline is stopped before the program ends: ONNX Runtime never
    // runs a model while it is torn down.
    assert!(!said.contains("[E:onnxruntime"), "{said}");
    // The window's game is in its journal as it goes.
    let text = std::fs::read_to_string(dir.join("window.jsonl")).expect("the window's journal");
    assert!(
        text.lines().filter(|l| l.contains("\"card\"")).count() >= 2,
        "{text}"
    );
    pone_engine::replay(&text).expect("the window's journal replays");
    // Headless, the seat zones learned are written to a file not there
    // before; a file that is not zones is refused, naming it.
    let zones = dir.join("zones.json");
    let journal = dir.join("sitting.jsonl");
    let headless = || {
        Command::new(env!("CARGO_BIN_EXE_pone"))
            .args(["play", "--headless", "--source", out, "--dealer"])
            .arg(&dealer)
            .arg("--zones")
            .arg(&zones)
            .arg("--journal")
            .arg(&journal)
            .output()
            .expect("pone play --headless")
    };
    let output = headless();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The game's journal, written as the camera dealt, is the game: it
    // replays to the ledger printed. Every frame read, the window kept the
    // same game.
    let printed = String::from_utf8_lossy(&output.stdout);
    assert_eq!(replayed(&journal), printed);
    assert_eq!(replayed(&dir.join("window.jsonl")), printed);
    // A journal there already is never written over.
    let again = headless();
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("a journal is there already"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    std::fs::remove_file(&journal).expect("the journal goes");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&zones).expect("zones written"))
            .expect("JSON");
    assert_eq!(saved["anchors"].as_array().map(Vec::len), Some(2));
    std::fs::write(&zones, "{\"anchors\": 3}").expect("write");
    let output = headless();
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("zones.json: not seat zones"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // A source that is not there is an error before any window opens.
    let output = Command::new(env!("CARGO_BIN_EXE_pone"))
        .args(["play", "--source", "/nowhere/frames", "--dealer"])
        .arg(&dealer)
        .output()
        .expect("pone play");
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("/nowhere/frames"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// What `pone replay` prints of the journal at `path`.
fn replayed(path: &std::path::Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_pone"))
        .arg("replay")
        .arg(path)
        .output()
        .expect("pone replay");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A small rendered sitting (one round, two players) in a fresh folder.
fn rendered_sitting(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let out = dir.to_str().expect("a UTF-8 path");
    let status = Command::new(env!("CARGO_BIN_EXE_pone"))
        .args([
            "synth",
            "--sitting",
            "--out",
            out,
            "--rounds",
            "1",
            "--players",
            "2",
        ])
        .args(["--fps", "5", "--size", "480x270"])
        .status()
        .expect("pone synth");
    assert!(status.success(), "pone synth --sitting ended with {status}");
    dir
}

#[test]
fn pone_play_with_no_script_takes_the_dealers_words_at_the_windows_desk() {
    let dir = rendered_sitting("pone-play-desk");
    let out = dir.to_str().expect("a UTF-8 path");
    // With no script, the dealer gives his words at the window's desk.
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x900x24"])
        .arg(env!("CARGO_BIN_EXE_pone"))
        .args([
            "play",
            "--source",
            out,
            "--deal",
            "Ann,Bob",
            "--exit-after",
            "3",
        ])
        .output()
        .expect("xvfb-run");
    assert!(
        output.status.success(),
        "pone play --deal (the window) ended with {}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let output = Command::new(env!("CARGO_BIN_EXE_pone"))
        .args(["play", "--headless", "--source", out, "--deal", "Ann,Bob"])
        .output()
        .expect("pone play");
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("at the window's desk"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `pone play --camera N` on a machine with no such camera says which camera
/// and where to look, before any window opens; `--camera` and `--source`
/// together are refused.
#[test]
fn pone_play_from_a_camera_that_is_not_there_says_so() {
    let output = Command::new(env!("CARGO_BIN_EXE_pone"))
        .args(["play", "--camera", "7", "--deal", "Ann,Bob"])
        .output()
        .expect("pone play");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("camera 7") || stderr.contains("without the camera feature"),
        "{stderr}"
    );
    let output = Command::new(env!("CARGO_BIN_EXE_pone"))
        .args(["play", "--camera", "0", "--source", "/tmp", "--deal", "Ann"])
        .output()
        .expect("pone play");
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("--camera"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

//! The other subcommands of `pone`, from the outside.

use pone_engine::HouseRules;
use pone_tests::pone;

#[test]
fn pone_rules_prints_a_rules_file_that_reads_back_as_the_defaults() {
    let output = pone().arg("rules").output().expect("pone runs");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let rules: HouseRules = toml::from_str(&text).expect("the printed file is valid rules TOML");
    assert_eq!(rules, HouseRules::default());
}

#[test]
fn pone_demo_writes_a_journal_that_replays_to_the_same_ledger() {
    let dir = std::env::temp_dir().join(format!("pone-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let journal = dir.join("demo.jsonl");
    let demo = pone()
        .args([
            "demo",
            "--players",
            "5",
            "--rounds",
            "30",
            "--seed",
            "11",
            "--journal",
        ])
        .arg(&journal)
        .output()
        .expect("pone runs");
    assert!(
        demo.status.success(),
        "{}",
        String::from_utf8_lossy(&demo.stderr)
    );
    let replayed = pone()
        .arg("replay")
        .arg(&journal)
        .output()
        .expect("pone runs");
    assert!(
        replayed.status.success(),
        "{}",
        String::from_utf8_lossy(&replayed.stderr)
    );
    let demo_text = String::from_utf8_lossy(&demo.stdout);
    let ledger = String::from_utf8_lossy(&replayed.stdout);
    assert!(
        demo_text.ends_with(ledger.as_ref()),
        "demo:\n{demo_text}\nreplay:\n{ledger}"
    );
    assert!(ledger.contains("Round 30 "), "{ledger}");
}

#[test]
fn pone_demo_refuses_a_table_of_one() {
    let output = pone()
        .args(["demo", "--players", "1"])
        .output()
        .expect("pone runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--players must be from 2"));
}

#[test]
fn pone_eval_reads_a_folder_of_single_cards_named_by_their_card() {
    // Real photos, for measuring only: the test checks that eval runs through
    // them, not how well (that figure is in models/README.md).
    let bidly = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/datasets/single-cards-bidly");
    if !bidly.is_dir() {
        return; // the shared datasets are not beside this checkout
    }
    let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/reader.onnx");
    let output = pone()
        .arg("eval")
        .arg("--model")
        .arg(model)
        .arg(&bidly)
        .output()
        .expect("pone runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("of 52 cards read right"));
}

#[test]
fn pone_eval_names_a_file_that_is_not_a_card() {
    let dir = std::env::temp_dir().join(format!("pone-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    image::RgbImage::new(8, 8)
        .save(dir.join("joker.png"))
        .expect("image");
    let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/reader.onnx");
    let output = pone()
        .arg("eval")
        .arg("--model")
        .arg(model)
        .arg(&dir)
        .output()
        .expect("pone runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("joker.png") && stderr.contains("not a card"),
        "{stderr}"
    );
}

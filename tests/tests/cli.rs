//! The other subcommands of `pone`, from the outside.

use pone_engine::HouseRules;
use pone_tests::{pone, pone_ok, reader_model, temp_dir};

#[test]
fn pone_rules_prints_a_rules_file_that_reads_back_as_the_defaults() {
    let output = pone_ok(["rules"]);
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let rules: HouseRules = toml::from_str(&text).expect("the printed file is valid rules TOML");
    assert_eq!(rules, HouseRules::default());
}

#[test]
fn pone_demo_writes_a_journal_that_replays_to_the_same_ledger() {
    let dir = temp_dir("demo");
    let journal = dir.join("demo.jsonl");
    let journal_arg = journal.to_string_lossy();
    let demo = pone_ok([
        "demo",
        "--players",
        "5",
        "--rounds",
        "30",
        "--seed",
        "11",
        "--journal",
        &journal_arg,
    ]);
    let replayed = pone_ok(["replay", &journal_arg]);
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
    let output = pone_ok([
        "eval".as_ref(),
        "--model".as_ref(),
        reader_model().as_os_str(),
        bidly.as_os_str(),
    ]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("of 52 cards read right"));
}

#[test]
fn pone_eval_names_a_file_that_is_not_a_card() {
    let dir = temp_dir("eval");
    image::RgbImage::new(8, 8)
        .save(dir.join("joker.png"))
        .expect("image");
    let model = reader_model();
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

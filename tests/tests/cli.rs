//! The other subcommands of `pone`, from the outside.

use pone_engine::HouseRules;
use pone_tests::{pone, pone_ok, temp_dir};

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

/// `--camera-out` takes a window of the recording in seconds, and names
/// the form when it is not one.
#[test]
fn pone_play_refuses_a_camera_out_window_that_is_none() {
    for (window, said) in [
        ("8-7", "FROM before TO"),
        ("7", "write FROM-TO in seconds"),
        ("a-b", "write FROM-TO in seconds"),
    ] {
        let output = pone()
            .args(["play", "--source", "frames", "--dealer", "dealer.jsonl"])
            .args(["--headless", "--camera-out", window])
            .output()
            .expect("pone runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success());
        assert!(stderr.contains(window) && stderr.contains(said), "{stderr}");
    }
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
    let output = pone_ok(["eval".as_ref(), bidly.as_os_str()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("single cards named by their card"),
        "{stdout}"
    );
    assert!(stdout.contains(" of 52 read right"), "{stdout}");
}

#[test]
fn pone_eval_names_a_file_that_is_not_a_card() {
    let dir = temp_dir("eval");
    image::RgbImage::new(8, 8)
        .save(dir.join("joker.png"))
        .expect("image");
    let output = pone().arg("eval").arg(&dir).output().expect("pone runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("joker.png") && stderr.contains("not a card"),
        "{stderr}"
    );
}

/// Two rendered scenes of the held-out design, with their labels.
fn rendered_scenes(name: &str) -> pone_tests::Scratch {
    let dir = temp_dir(name);
    pone_ok([
        "synth".as_ref(),
        "--out".as_ref(),
        dir.as_os_str(),
        "--scenes".as_ref(),
        "2".as_ref(),
        "--seed".as_ref(),
        "12".as_ref(),
        "--designs".as_ref(),
        "held-out".as_ref(),
    ]);
    dir
}

#[test]
fn pone_recognise_prints_one_json_object_per_image_in_order() {
    let dir = rendered_scenes("recognise");
    let images = [dir.join("images/000001.jpg"), dir.join("images/000000.jpg")];
    let output = pone_ok(
        std::iter::once("recognise".as_ref())
            .chain(std::iter::once("--json".as_ref()))
            .chain(images.iter().map(|p| p.as_os_str())),
    );
    let value: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("recognise --json prints JSON");
    let results = value.as_array().expect("an array");
    assert_eq!(results.len(), 2);
    let mut read_right = 0;
    for (result, image) in results.iter().zip(&images) {
        assert_eq!(result["image"], image.display().to_string());
        assert_eq!(result["width"], 1280);
        assert_eq!(result["height"], 720);
        let label_file = dir
            .join("labels")
            .join(image.file_stem().expect("a name"))
            .with_extension("json");
        let labels: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(label_file).expect("labels"))
                .expect("label JSON");
        for card in result["cards"].as_array().expect("cards") {
            let name = card["card"].as_str().expect("a card name");
            assert!(
                name == "back" || name.parse::<pone_engine::Card>().is_ok(),
                "{name}"
            );
            let confidence = card["confidence"].as_f64().expect("a confidence");
            assert!((0.0..=1.0).contains(&confidence));
            let bbox: Vec<f64> = card["box"]
                .as_array()
                .expect("a box")
                .iter()
                .map(|v| {
                    assert!(v.is_i64(), "whole pixels: {v}");
                    v.as_f64().expect("a number")
                })
                .collect();
            assert_eq!(bbox.len(), 4);
            assert!(bbox[0] <= bbox[2] && bbox[1] <= bbox[3], "{bbox:?}");
            let (x, y) = (
                f64::midpoint(bbox[0], bbox[2]),
                f64::midpoint(bbox[1], bbox[3]),
            );
            let on_its_card = labels["cards"]
                .as_array()
                .expect("labelled cards")
                .iter()
                .any(|l| {
                    let b: Vec<f64> = l["box"]
                        .as_array()
                        .expect("box")
                        .iter()
                        .map(|v| v.as_f64().expect("number"))
                        .collect();
                    l["card"] == name && x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3]
                });
            read_right += u32::from(on_its_card);
        }
    }
    assert!(
        read_right >= 3,
        "{read_right} cards read right in two scenes"
    );
}

#[test]
fn pone_recognise_names_a_file_it_cannot_read() {
    let dir = temp_dir("recognise-bad");
    let bad = dir.join("table.jpg");
    std::fs::write(&bad, "not a picture").expect("write");
    let output = pone()
        .arg("recognise")
        .arg(&bad)
        .output()
        .expect("pone runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("table.jpg") && stderr.contains("JPEG"),
        "{stderr}"
    );
}

#[test]
fn pone_eval_measures_a_rendered_set() {
    let dir = rendered_scenes("eval-rendered");
    let output = pone_ok(["eval".as_ref(), dir.as_os_str()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("(rendered scenes (pone synth)): 2 images"),
        "{stdout}"
    );
    assert!(stdout.contains("read right"), "{stdout}");
}

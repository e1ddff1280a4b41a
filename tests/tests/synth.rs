//! `pone synth`: rendered scenes and sittings, from the outside.

use pone_tests::{pone_ok, temp_dir};
use serde_json::Value;

fn lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("file")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

#[test]
fn a_scene_set_has_an_image_and_labels_for_every_scene() {
    let out = temp_dir("scenes");
    let out_arg = out.to_string_lossy();
    pone_ok([
        "synth",
        "--scenes",
        "3",
        "--seed",
        "4",
        "--size",
        "320x180",
        "--designs",
        "held-out",
        "--out",
        &out_arg,
    ]);
    for n in 0..3 {
        assert!(out.join(format!("images/{n:06}.jpg")).is_file());
        let labels: Value = serde_json::from_slice(
            &std::fs::read(out.join(format!("labels/{n:06}.json"))).expect("labels"),
        )
        .expect("JSON");
        assert_eq!(labels["design"], "kenney");
        assert_eq!(labels["width"], 320);
    }
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(out.join("synth.json")).expect("manifest"))
            .expect("JSON");
    assert_eq!(manifest["scenes"], 3);
}

#[test]
fn a_rendered_sitting_replays_and_its_frames_match_its_scripts() {
    let out = temp_dir("sitting");
    let out_arg = out.to_string_lossy();
    pone_ok([
        "synth",
        "--sitting",
        "--rounds",
        "2",
        "--players",
        "3",
        "--fps",
        "4",
        "--size",
        "320x180",
        "--seed",
        "12",
        "--out",
        &out_arg,
    ]);
    let sitting: Value =
        serde_json::from_slice(&std::fs::read(out.join("sitting.json")).expect("sitting.json"))
            .expect("JSON");
    let frames = sitting["frames"].as_u64().expect("frames");
    assert_eq!(sitting["rounds"], 2);
    assert_eq!(
        std::fs::read_dir(out.join("frames"))
            .expect("frames")
            .count() as u64,
        frames
    );
    let truth = lines(&out.join("truth.jsonl"));
    let dealer = lines(&out.join("dealer.jsonl"));
    let mut last = 0;
    for line in &truth {
        let frame = line["frame"].as_u64().expect("every line has its frame");
        assert!(frame < frames && frame >= last, "frames in order: {line}");
        last = frame;
    }
    assert!(
        truth
            .iter()
            .any(|l| l["t"] == "card" && l["card"].is_string())
    );
    assert!(
        dealer.iter().all(|l| l["t"] != "card"),
        "the camera supplies the cards"
    );
    assert!(dealer.iter().any(|l| l["t"] == "stake"));
    // Every dealer line is a truth line at the same frame, but for a player's
    // "content" on a hand that made 21 by drawing: the truth knows his
    // face-down cards and stands the hand by itself; the camera does not.
    for line in &dealer {
        if truth.contains(line) {
            continue;
        }
        assert_eq!(line["t"], "content", "{line}");
        let frame = line["frame"].as_u64();
        let drew_21 = truth
            .iter()
            .any(|t| t["t"] == "card" && t["to"] == line["player"] && t["frame"].as_u64() == frame);
        assert!(drew_21, "{line}: no card to that player at that frame");
    }

    // Each round ends with the hands on the table turned up, so the camera
    // sees what was dealt face down: a run of frames where every card in the
    // hands of two seats or more shows its face.
    let mut showdowns = 0;
    let mut in_showdown = false;
    for f in 0..frames {
        let label: Value = serde_json::from_slice(
            &std::fs::read(out.join(format!("labels/{f:06}.json"))).expect("a label per frame"),
        )
        .expect("JSON");
        let in_hands: Vec<&Value> = label["cards"]
            .as_array()
            .expect("cards")
            .iter()
            .filter(|c| c["role"]["at"] == "hand")
            .collect();
        let mut seats: Vec<&Value> = in_hands.iter().map(|c| &c["role"]["seat"]).collect();
        seats.dedup();
        let all_up = seats.len() >= 2 && in_hands.iter().all(|c| c["card"] != "back");
        if all_up && !in_showdown {
            showdowns += 1;
        }
        in_showdown = all_up;
    }
    assert!(showdowns >= 2, "{showdowns} showdowns in 2 rounds");
    let truth_path = out.join("truth.jsonl");
    let replay = pone_ok(["replay", "--json", &truth_path.to_string_lossy()]);
    let report: Value = serde_json::from_slice(&replay.stdout).expect("JSON");
    assert_eq!(report["rounds"].as_array().map(Vec::len), Some(2));
    let sum: i64 = report["balances"]
        .as_object()
        .expect("balances")
        .values()
        .filter_map(Value::as_i64)
        .sum();
    assert_eq!(sum, 0);
}

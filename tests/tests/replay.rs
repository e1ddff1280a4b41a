//! `pone replay` from the outside: the binary, its JSON, its errors.

use pone_tests::{data, pone, pone_ok, temp_dir};

#[test]
fn the_issues_worked_example_settles_as_the_seeds_say() {
    let output = pone_ok([
        std::ffi::OsStr::new("replay"),
        "--json".as_ref(),
        data("worked_example.jsonl").as_os_str(),
    ]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        report["balances"],
        serde_json::json!({"Ann": 0, "Bob": -1, "Cat": 1})
    );
    let dealers: Vec<&str> = report["rounds"]
        .as_array()
        .expect("rounds")
        .iter()
        .map(|r| r["dealer"].as_str().expect("dealer"))
        .collect();
    assert_eq!(dealers, ["Cat", "Cat"]);
    assert_eq!(report["next_dealer"], "Ann");
}

#[test]
fn an_illegal_move_stops_the_replay_with_its_line_and_reason() {
    let dir = temp_dir("replay");
    let script = dir.join("bad.jsonl");
    std::fs::write(
        &script,
        concat!(
            "{\"t\":\"table\",\"players\":[\"Ann\",\"Bob\"]}\n",
            "{\"t\":\"dealer\",\"player\":\"Bob\"}\n",
            "{\"t\":\"card\",\"to\":\"Ann\",\"card\":\"9H\"}\n",
            "{\"t\":\"stake\",\"player\":\"Ann\",\"amount\":13}\n",
        ),
    )
    .expect("write script");
    let output = pone()
        .arg("replay")
        .arg(&script)
        .output()
        .expect("pone runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("line 4"), "{stderr}");
    assert!(stderr.contains("outside the limits 1 to 12"), "{stderr}");
    assert!(stderr.contains("bad.jsonl"), "{stderr}");
}

/// B's eight-round deal from a table script: each round its own game, named
/// in the report, and the deal passing after the eighth.
#[test]
fn the_eight_round_deal_settles_each_game_and_names_it() {
    let output = pone_ok([
        std::ffi::OsStr::new("replay"),
        "--json".as_ref(),
        data("eight_round_deal.jsonl").as_os_str(),
    ]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        report["balances"],
        serde_json::json!({"Ann": 5, "Bob": -14, "Cat": 9})
    );
    let games: Vec<&str> = report["rounds"]
        .as_array()
        .expect("rounds")
        .iter()
        .map(|r| r["game"].as_str().unwrap_or("ordinary"))
        .collect();
    assert_eq!(
        games,
        [
            "ordinary",
            "imaginary_tens",
            "blind",
            "sympathy_antipathy",
            "rouge_et_noir",
            "self_and_company",
            "differences",
            "clock"
        ]
    );
    assert_eq!(report["next_dealer"], "Ann");
    let text = pone_ok([
        std::ffi::OsStr::new("replay"),
        data("eight_round_deal.jsonl").as_os_str(),
    ]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Round 6 (dealer Cat, Self and Company)"),
        "{text}"
    );
    assert!(
        text.contains("Cat pays Ann 2: self and company: the company's card paired first"),
        "{text}"
    );
}

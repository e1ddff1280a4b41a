//! The side screen drawn headless (`egui_kittest` with wgpu): what a table sees
//! part way through a demo sitting, found by label and compared with the
//! committed snapshot (`UPDATE_SNAPSHOTS=1` to renew it after a deliberate change).

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pone_ui::demo::DemoTable;
use pone_ui::screen::show_table;

/// A 5-player demo sitting after two whole rounds and a few cards of the third.
fn table() -> DemoTable {
    let mut table = DemoTable::new(5, 1).expect("a demo table");
    table.play_rounds(2).expect("two rounds");
    for _ in 0..8 {
        table.step().expect("a step");
    }
    table
}

#[test]
fn the_table_shows_seats_totals_and_the_last_settlement() {
    let table = table();
    let game = table.game();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui(|ui| show_table(ui, game));
    harness.run();
    // Every player has his seat and his running total.
    for (name, balance) in game
        .sitting()
        .state()
        .names()
        .iter()
        .zip(&game.ledger().balances)
    {
        assert!(
            harness.query_all_by_label_contains(name).count() >= 2,
            "{name} has no seat or no line in the totals"
        );
        assert!(
            harness
                .query_all_by_label(&format!("{balance:+}"))
                .next()
                .is_some(),
            "{name}'s total {balance:+} is not shown"
        );
    }
    // The last round settled is spelled out.
    let round = game
        .ledger()
        .rounds
        .iter()
        .rev()
        .find(|r| r.next_dealer.is_some())
        .expect("a round settled");
    harness.get_by_label_contains(&format!("Round {} settled", round.round));
    harness.snapshot("table_round_3");
}

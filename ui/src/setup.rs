//! The sitting's setup in the window: the players in seating order, who
//! deals first, every house rule of `RULES.md` with its default, the
//! journal, and where the cards come from (typed at the desk, or a camera,
//! with what the camera chosen sees: [`crate::preview`]).
//!
//! [`show_setup`] draws the form into any `Ui` and returns what to start when
//! the dealer presses Start and the form holds together; [`Setup::start`]
//! says what is wrong otherwise.

use std::path::{Path, PathBuf};

use eframe::egui;
use egui::{Color32, RichText};
use pone_engine::HouseRules;
use pone_engine::rules::{
    Brulet, DealPasses, DealerDivided, DivideStake, DivideWhen, DividedNatural, FirstDealer,
};
use pone_vision::play::SeatZones;

use crate::preview::{CameraOpener, Preview};

/// Where the cards come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dealing {
    /// The dealer types (or taps) every card at the desk.
    Desk,
    /// A camera reads them (its number in `pone cameras`); the dealer gives
    /// the rest at the desk.
    Camera(u32),
}

/// The form as filled so far.
#[derive(Debug)]
pub struct Setup {
    /// The players in seating order (the deal passes to the left, down the list).
    pub players: Vec<String>,
    /// Who deals first, by place in `players`; `None`: the table draws for
    /// it at the desk (the first ace, or knave, deals).
    pub dealer: Option<usize>,
    /// The house rules.
    pub rules: HouseRules,
    /// Where the journal is written (empty: none).
    pub journal: String,
    /// Where the cards come from.
    pub dealing: Dealing,
    /// Training the dealer: he announces each round's settlements before
    /// the screen shows them.
    pub training: bool,
    /// The cameras found when the form opened: number and name.
    pub cameras: Vec<(u32, String)>,
    /// How a camera chosen is opened to show what it sees.
    pub opener: CameraOpener,
    /// The models that read the cards on its picture (the sitting's:
    /// [`pone_vision::recognise::models_dir`]).
    pub models: PathBuf,
    /// What the camera chosen sees, while the form is open.
    pub preview: Option<Preview>,
    /// Where the cards will lie on the camera's picture, tapped on it: each
    /// player's place in seating order, then the pack and the pone's pile
    /// (the camera's pixels). Those not given are learned from the first
    /// cards dealt.
    pub places: Vec<[f32; 2]>,
    /// What was wrong the last time Start was pressed.
    pub error: Option<String>,
    /// Where the form is kept at Start, to be filled in so the next time
    /// it opens ([`Setup::remembering`]); `None`: not kept.
    pub kept_in: Option<PathBuf>,
    /// What the form says of where it was filled in from.
    pub filled: Option<String>,
}

/// A sitting's form as it was started, kept for the next sitting (the same
/// table, most nights): everything but the journal, which is always new.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct LastSitting {
    players: Vec<String>,
    dealer: Option<usize>,
    rules: HouseRules,
    /// The camera's number, `None` at the desk.
    camera: Option<u32>,
    training: bool,
    places: Vec<[f32; 2]>,
}

/// Where the last sitting's form is kept: `$XDG_CONFIG_HOME/pone`, else
/// `~/.config/pone`.
#[must_use]
pub fn last_sitting_file() -> Option<PathBuf> {
    Some(crate::xdg_folder("XDG_CONFIG_HOME", ".config")?.join("last-sitting.json"))
}

/// A sitting to start, as the form gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// The players in seating order.
    pub players: Vec<String>,
    /// Who deals first, by place in `players`; `None`: the draw.
    pub dealer: Option<usize>,
    /// The house rules, checked.
    pub rules: HouseRules,
    /// The journal to write, if any.
    pub journal: Option<PathBuf>,
    /// Where the cards come from.
    pub dealing: Dealing,
    /// Training the dealer.
    pub training: bool,
    /// With a camera, the seats' places and the stacks tapped on its
    /// picture (none: all learned from the first cards dealt).
    pub zones: Option<SeatZones>,
}

impl Setup {
    /// A form with four players, every rule at its default, a journal file
    /// that is not there yet (`pone-sitting.jsonl`, `pone-sitting-2.jsonl`...),
    /// and the cameras found (the desk when there is none).
    #[must_use]
    pub fn new(cameras: Vec<(u32, String)>) -> Setup {
        Setup {
            players: crate::demo::NAMES[..4]
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            dealer: Some(0),
            rules: HouseRules::default(),
            journal: free_journal_name(),
            dealing: cameras
                .first()
                .map_or(Dealing::Desk, |(index, _)| Dealing::Camera(*index)),
            cameras,
            opener: CameraOpener::cameras(),
            models: pone_vision::recognise::models_dir(),
            preview: None,
            places: Vec::new(),
            training: false,
            error: None,
            kept_in: None,
            filled: None,
        }
    }

    /// The form kept in `file` at Start, and filled in from what was kept
    /// there by the last sitting started: its players, first dealer, house
    /// rules, training, and its camera with the places tapped on it, when
    /// that camera is here. A file that cannot be read leaves the form as
    /// it was, and says so; Start writes it anew.
    #[must_use]
    pub fn remembering(mut self, file: &Path) -> Setup {
        self.kept_in = Some(file.to_owned());
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return self,
            Err(e) => {
                self.filled = Some(format!(
                    "The last sitting's form in {} cannot be read ({e}): the form starts                      afresh, and Start writes that file anew.",
                    file.display()
                ));
                return self;
            }
        };
        let last: LastSitting = match serde_json::from_str(&text) {
            Ok(last) => last,
            Err(e) => {
                self.filled = Some(format!(
                    "The last sitting's form in {} is not as Pone writes it (line {}, column                      {}: {e}): the form starts afresh, and Start writes that file anew.",
                    file.display(),
                    e.line(),
                    e.column()
                ));
                return self;
            }
        };
        if last.players.len() < 2 || last.rules.validate().is_err() {
            return self;
        }
        self.dealer = last.dealer.filter(|&d| d < last.players.len());
        self.players = last.players;
        self.rules = last.rules;
        self.training = last.training;
        match last.camera {
            None => self.dealing = Dealing::Desk,
            Some(camera) if self.cameras.iter().any(|(k, _)| *k == camera) => {
                self.dealing = Dealing::Camera(camera);
                self.places = last.places;
                self.places.truncate(self.players.len() + 2);
            }
            // That camera is not here: the first one found, its places to tap.
            Some(_) => {}
        }
        self.filled = Some(format!(
            "Filled in as the last sitting was started ({}).",
            file.display()
        ));
        self
    }

    /// Keeps the form as started, for the next time it opens: what went
    /// wrong, when anything did (the sitting starts all the same).
    fn keep(&self, start: &Start) -> Option<String> {
        let file = self.kept_in.as_ref()?;
        let last = LastSitting {
            players: start.players.clone(),
            dealer: start.dealer,
            rules: start.rules.clone(),
            camera: match start.dealing {
                Dealing::Desk => None,
                Dealing::Camera(camera) => Some(camera),
            },
            training: start.training,
            places: self.places.clone(),
        };
        let text = serde_json::to_string_pretty(&last).ok()?;
        let kept = file
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(file, text));
        kept.err().map(|e| {
            format!(
                "the form could not be kept for the next sitting in {} ({e}): fix the                  folder's permissions, or free the disk",
                file.display()
            )
        })
    }

    /// The form opened on this machine: its cameras listed (none when the
    /// camera feature is off or none is attached).
    #[must_use]
    pub fn here() -> Setup {
        let cameras = pone_vision::source::cameras()
            .map(|list| list.into_iter().map(|c| (c.index, c.name)).collect())
            .unwrap_or_default();
        Setup::new(cameras)
    }

    /// The sitting the form describes, or what is wrong with it.
    pub fn start(&self) -> Result<Start, String> {
        let players: Vec<String> = self.players.iter().map(|p| p.trim().to_owned()).collect();
        if players.len() < 2 {
            return Err("a sitting needs at least two players".into());
        }
        if let Some(k) = players.iter().position(String::is_empty) {
            return Err(format!("player {} has no name", k + 1));
        }
        for (k, name) in players.iter().enumerate() {
            if players[..k].contains(name) {
                return Err(format!(
                    "two players are called {name}: give one another name"
                ));
            }
        }
        match (self.dealer, self.dealing) {
            (Some(k), _) if k >= players.len() => return Err("choose who deals first".into()),
            (None, Dealing::Camera(_)) => {
                return Err(
                    "with a camera, choose who deals first (the draw for the deal is typed at \
                     the desk)"
                        .into(),
                );
            }
            _ => {}
        }
        self.rules
            .validate()
            .map_err(|e| format!("house rules: {e}"))?;
        let journal = self.journal.trim();
        if !journal.is_empty() && std::path::Path::new(journal).exists() {
            return Err(format!(
                "{journal} is there already, and a sitting's journal is never written over: \
                 give another file, or go on with that sitting (`pone --journal {journal}`)"
            ));
        }
        Ok(Start {
            players,
            dealer: self.dealer,
            rules: self.rules.clone(),
            journal: (!journal.is_empty()).then(|| PathBuf::from(journal)),
            dealing: self.dealing,
            training: self.training,
            zones: self.zones(),
        })
    }

    /// The places tapped on the camera's picture as seat zones: the first
    /// are the players', the rest the pack and the pile; none without a
    /// camera or a place.
    fn zones(&self) -> Option<SeatZones> {
        let seats = self.players.len();
        if !matches!(self.dealing, Dealing::Camera(_)) || self.places.is_empty() {
            return None;
        }
        Some(SeatZones {
            anchors: (0..seats).map(|k| self.places.get(k).copied()).collect(),
            stacks: self.places.iter().skip(seats).copied().collect(),
            // Learned from the first card that comes to rest.
            card_size: 0.0,
        })
    }

    /// What the next tap on the camera's picture places, when anything is
    /// left to place.
    fn next_place(&self) -> Option<String> {
        let k = self.places.len();
        match k.checked_sub(self.players.len()) {
            None => Some(format!("{}'s cards", self.players[k].trim())),
            Some(0) => Some("the pack".to_owned()),
            Some(1) => Some("the pone's pile".to_owned()),
            Some(_) => None,
        }
    }

    /// The names of the places tapped, as marked on the picture.
    fn place_names(&self) -> Vec<([f32; 2], String)> {
        self.places
            .iter()
            .enumerate()
            .map(|(k, &at)| {
                let name = match k.checked_sub(self.players.len()) {
                    None => self.players[k].trim().to_owned(),
                    Some(0) => "pack".to_owned(),
                    Some(_) => "pile".to_owned(),
                };
                (at, name)
            })
            .collect()
    }
}

/// The first of `pone-sitting.jsonl`, `pone-sitting-2.jsonl`, ... that is
/// not there.
fn free_journal_name() -> String {
    (1..10_000)
        .map(|n| {
            if n == 1 {
                "pone-sitting.jsonl".to_owned()
            } else {
                format!("pone-sitting-{n}.jsonl")
            }
        })
        .find(|name| !std::path::Path::new(name).exists())
        .unwrap_or_default()
}

/// Draws the form; the sitting to start once Start is pressed on a form
/// that holds together (otherwise the form says what is wrong).
pub fn show_setup(ui: &mut egui::Ui, setup: &mut Setup) -> Option<Start> {
    crate::screen::touch_sized(ui);
    let mut started = None;
    // Start stays on the screen above the forms, however far they scroll.
    ui.horizontal(|ui| {
        ui.heading("A new sitting");
        ui.add_space(24.0);
        let button = egui::Button::new(RichText::new("Start the sitting").size(22.0))
            .min_size(egui::vec2(220.0, 48.0));
        if ui.add(button).clicked() {
            match setup.start() {
                Ok(start) => {
                    setup.error = None;
                    if let Some(why) = setup.keep(&start) {
                        tracing::warn!("{why}");
                    }
                    // The sitting opens the camera: the preview lets it go first.
                    if let Some(preview) = setup.preview.take() {
                        preview.close();
                    }
                    started = Some(start);
                }
                Err(why) => setup.error = Some(why),
            }
        }
        if ui.button("Every rule to its default").clicked() {
            setup.rules = HouseRules::default();
        }
    });
    if let Some(why) = &setup.error {
        ui.label(RichText::new(why).color(Color32::LIGHT_RED).size(18.0));
    } else if let Some(filled) = &setup.filled {
        ui.label(RichText::new(filled).color(Color32::GRAY));
    }
    ui.separator();
    if started.is_some() {
        // Drawn now, the form would open the camera the sitting takes.
        return started;
    }
    egui::ScrollArea::vertical().show(ui, |ui| {
        ui.columns(2, |columns| {
            players_form(&mut columns[0], setup);
            columns[0].add_space(12.0);
            dealing_form(&mut columns[0], setup);
            rules_form(&mut columns[1], &mut setup.rules);
        });
    });
    started
}

/// The players in seating order, each with its name, moved up or down, or
/// taken away; who deals first.
fn players_form(ui: &mut egui::Ui, setup: &mut Setup) {
    ui.label(RichText::new("Players, in seating order (the deal passes down the list)").strong());
    let mut action = None;
    let count = setup.players.len();
    for (k, name) in setup.players.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            let label = ui.label(format!("Player {}", k + 1));
            ui.add(
                egui::TextEdit::singleline(name)
                    .desired_width(160.0)
                    .align(egui::Align2::LEFT_CENTER),
            )
            .labelled_by(label.id);
            if ui.add_enabled(k > 0, egui::Button::new("Up")).clicked() {
                action = Some((k, -1));
            }
            if ui
                .add_enabled(k + 1 < count, egui::Button::new("Down"))
                .clicked()
            {
                action = Some((k, 1));
            }
            if ui
                .add_enabled(count > 2, egui::Button::new("Remove"))
                .clicked()
            {
                action = Some((k, 0));
            }
        });
    }
    match action {
        Some((k, 0)) => {
            setup.players.remove(k);
            // The pack's and the pile's places follow the players'.
            setup.places.clear();
            if let Some(d) = &mut setup.dealer
                && (*d >= setup.players.len() || *d > k)
            {
                *d = d.saturating_sub(1);
            }
        }
        Some((k, step)) => {
            let other = if step < 0 { k - 1 } else { k + 1 };
            setup.players.swap(k, other);
            if setup.dealer == Some(k) {
                setup.dealer = Some(other);
            } else if setup.dealer == Some(other) {
                setup.dealer = Some(k);
            }
        }
        None => {}
    }
    if ui
        .add_enabled(
            setup.players.len() < crate::demo::NAMES.len(),
            egui::Button::new("Add a player"),
        )
        .clicked()
    {
        let name = crate::demo::NAMES
            .iter()
            .find(|n| !setup.players.iter().any(|p| p == *n))
            .map_or_else(
                || format!("Player {}", setup.players.len() + 1),
                |n| (*n).to_owned(),
            );
        setup.players.push(name);
        setup.places.clear();
    }
    ui.horizontal(|ui| {
        let label = ui.label("Deals first:");
        let shown = setup.dealer.map_or_else(
            || DRAW.to_owned(),
            |d| setup.players.get(d).cloned().unwrap_or_default(),
        );
        egui::ComboBox::from_id_salt("first dealer")
            .selected_text(shown)
            .width(220.0)
            .show_ui(ui, |ui| {
                for (k, name) in setup.players.iter().enumerate() {
                    ui.selectable_value(&mut setup.dealer, Some(k), name);
                }
                ui.selectable_value(&mut setup.dealer, None, DRAW);
            })
            .response
            .labelled_by(label.id);
    });
}

/// The first dealer's choice that has the table draw for it.
const DRAW: &str = "the draw (cards turned up at the desk)";

/// Where the cards come from, and the journal.
fn dealing_form(ui: &mut egui::Ui, setup: &mut Setup) {
    ui.label(RichText::new("The cards").strong());
    ui.radio_value(
        &mut setup.dealing,
        Dealing::Desk,
        "Typed or tapped at the desk as they are dealt",
    );
    if setup.cameras.is_empty() {
        ui.label(
            RichText::new("No camera found (`pone cameras` lists them).").color(Color32::GRAY),
        );
    }
    for (index, name) in &setup.cameras {
        ui.radio_value(
            &mut setup.dealing,
            Dealing::Camera(*index),
            format!("Read by camera {index}: {name}"),
        );
    }
    preview_ui(ui, setup);
    ui.checkbox(
        &mut setup.training,
        "Training: the dealer announces each settlement, marked before the screen shows it",
    );
    ui.add_space(8.0);
    ui.horizontal(|ui| {
        let label = ui.label("Journal file:");
        ui.add(
            egui::TextEdit::singleline(&mut setup.journal)
                .desired_width(240.0)
                .align(egui::Align2::LEFT_CENTER),
        )
        .labelled_by(label.id);
    });
    ui.label(
        RichText::new("Every command is written there as it is given; empty: no journal.")
            .color(Color32::GRAY),
    );
}

/// What the camera chosen sees, with the places tapped on it; none for the
/// desk. Choosing another camera lets the last one go, and its places.
fn preview_ui(ui: &mut egui::Ui, setup: &mut Setup) {
    let Dealing::Camera(index) = setup.dealing else {
        // The desk: the camera is let go, and its places with it.
        setup.preview = None;
        setup.places.clear();
        return;
    };
    if setup.preview.as_ref().is_none_or(|p| p.camera() != index) {
        // The old one is closed before the new one opens: it may be the same device.
        if let Some(old) = setup.preview.take() {
            old.close();
            setup.places.clear();
        }
        setup.preview = Some(Preview::open(index, &setup.opener, setup.models.clone()));
    }
    let marks = setup.place_names();
    let Some(preview) = setup.preview.as_mut() else {
        return;
    };
    let tapped = preview.preview_ui(ui, &marks);
    let showing = preview.frames() > 0;
    if tapped.again {
        if let Some(old) = setup.preview.take() {
            old.close();
        }
        setup.preview = Some(Preview::open(index, &setup.opener, setup.models.clone()));
    }
    if let Some(at) = tapped.at
        && setup.next_place().is_some()
    {
        setup.places.push(at);
    }
    if !showing {
        return;
    }
    let grey = |text: String| RichText::new(text).color(Color32::GRAY);
    match setup.next_place() {
        Some(next) if setup.places.is_empty() => ui.label(grey(format!(
            "The places are learned from the first cards dealt; or tap the picture where \
             each player's cards will lie, in seating order, then the pack and the pone's \
             pile. First: {next}."
        ))),
        Some(next) => ui.label(grey(format!(
            "Tap the picture where {next} will lie (those not tapped are learned from the \
             first cards dealt)."
        ))),
        None => ui.label(grey(
            "Every place is marked: the cards coming to rest there are the seats', the pack's \
             and the pile's."
                .to_owned(),
        )),
    };
    if !setup.places.is_empty() && ui.button("Clear the places").clicked() {
        setup.places.clear();
    }
}

/// Every house rule, with its default and where the old books stand.
fn rules_form(ui: &mut egui::Ui, rules: &mut HouseRules) {
    let d = HouseRules::default();
    ui.label(RichText::new("House rules (RULES.md; A, B, C are the old books)").strong());
    egui::Grid::new("rules")
        .num_columns(3)
        .spacing([12.0, 6.0])
        .striped(true)
        .show(ui, |ui| {
            let label = ui.label("Least stake");
            ui.add(egui::DragValue::new(&mut rules.min_stake).range(1..=100_000))
                .labelled_by(label.id);
            mark(ui, rules.min_stake != d.min_stake, "1");
            ui.end_row();
            let label = ui.label("Most stake on one card");
            ui.add(egui::DragValue::new(&mut rules.max_stake).range(1..=100_000))
                .labelled_by(label.id);
            mark(ui, rules.max_stake != d.max_stake, "12");
            ui.end_row();
            let label = ui.label("A natural pays");
            choose(
                ui,
                label.id,
                "natural_pays",
                &mut rules.natural_pays,
                &[(2, "2 stakes (A, B, C)"), (4, "4 stakes (B note 46)")],
            );
            mark(ui, rules.natural_pays != d.natural_pays, "2 stakes");
            ui.end_row();
            ui.label("A natural's holder also gets");
            ui.checkbox(
                &mut rules.natural_bonus_from_players,
                "his stake from every other player (A)",
            );
            mark(
                ui,
                rules.natural_bonus_from_players != d.natural_bonus_from_players,
                "no",
            );
            ui.end_row();
            let label = ui.label("A natural that puts the dealer out passes the deal");
            choose(
                ui,
                label.id,
                "deal_passes",
                &mut rules.deal_passes,
                &[
                    (DealPasses::Left, "to his left (the modern way)"),
                    (
                        DealPasses::Holder,
                        "to the natural's holder (the old way: A, B, C)",
                    ),
                    (DealPasses::Never, "never: the dealer stays (A)"),
                ],
            );
            mark(ui, rules.deal_passes != d.deal_passes, "to his left");
            ui.end_row();
            let label = ui.label("Rounds a dealer keeps the deal");
            optional(
                ui,
                label.id,
                &mut rules.rounds_per_deal,
                "at most",
                1..=100,
                3,
            );
            mark(ui, rules.rounds_per_deal != d.rounds_per_deal, "none");
            ui.end_row();
            let label = ui.label("The second stake on a divided pair");
            choose(
                ui,
                label.id,
                "divide_stake",
                &mut rules.divide_stake,
                &[
                    (DivideStake::Any, "any within the limits (A)"),
                    (DivideStake::Same, "the same as the first (B)"),
                ],
            );
            mark(ui, rules.divide_stake != d.divide_stake, "any");
            ui.end_row();
            let label = ui.label("A pair is divided");
            choose(
                ui,
                label.id,
                "divide_when",
                &mut rules.divide_when,
                &[
                    (DivideWhen::Turn, "at the player's turn (B)"),
                    (DivideWhen::BeforeDrawing, "before any drawing (A)"),
                ],
            );
            mark(
                ui,
                rules.divide_when != d.divide_when,
                "at the player's turn",
            );
            ui.end_row();
            divide_rules(ui, rules);
        });
}

/// The rules of the draw, the packs, the pool, the brulet and divided hands:
/// the second half of the form's rows.
fn divide_rules(ui: &mut egui::Ui, rules: &mut HouseRules) {
    let d = HouseRules::default();
    let label = ui.label("A drawn Vingt-un against the dealer's");
    choose(
        ui,
        label.id,
        "drawn_21_tie_pays",
        &mut rules.drawn_21_tie_pays,
        &[(1, "pays 1 stake (A, C)"), (2, "pays 2 stakes (B)")],
    );
    mark(
        ui,
        rules.drawn_21_tie_pays != d.drawn_21_tie_pays,
        "1 stake",
    );
    ui.end_row();
    let label = ui.label("Drawing for the first deal");
    choose(
        ui,
        label.id,
        "first_dealer",
        &mut rules.first_dealer,
        &[
            (FirstDealer::Ace, "the first ace deals (A, C)"),
            (FirstDealer::Knave, "the first knave deals (B note 44)"),
        ],
    );
    mark(ui, rules.first_dealer != d.first_dealer, "the first ace");
    ui.end_row();
    let label = ui.label("Packs");
    choose(
        ui,
        label.id,
        "packs",
        &mut rules.packs,
        &[(1, "one pack of 52"), (2, "two packs shuffled together")],
    );
    mark(ui, rules.packs != d.packs, "one pack");
    ui.end_row();
    let label = ui.label("A pool");
    optional(
        ui,
        label.id,
        &mut rules.pool,
        "each player antes",
        1..=100_000,
        1,
    );
    mark(ui, rules.pool != d.pool, "none");
    ui.end_row();
    let label = ui.label("The brulet");
    choose(
        ui,
        label.id,
        "brulet",
        &mut rules.brulet,
        &[
            (Brulet::Off, "not played (B)"),
            (
                Brulet::DoubleMinimum,
                "wins double the least stake from each (B note 44)",
            ),
            (Brulet::Limit, "wins the limit from each (C)"),
            (Brulet::ClearsPool, "clears the pool (C)"),
        ],
    );
    mark(ui, rules.brulet != d.brulet, "not played");
    ui.end_row();
    divided_rules(ui, rules);
}

/// The rules of divided hands: the form's last rows.
fn divided_rules(ui: &mut egui::Ui, rules: &mut HouseRules) {
    let d = HouseRules::default();
    ui.label("The dealer may divide a pair");
    ui.checkbox(&mut rules.dealer_may_divide, "yes (A, C)");
    mark(ui, rules.dealer_may_divide != d.dealer_may_divide, "yes");
    ui.end_row();
    let label = ui.label("An ace and a tenth card on a divided hand");
    choose(
        ui,
        label.id,
        "divided_natural",
        &mut rules.divided_natural,
        &[
            (DividedNatural::Drawn, "a drawn Vingt-un"),
            (DividedNatural::Natural, "a natural, paid at once (C)"),
        ],
    );
    mark(
        ui,
        rules.divided_natural != d.divided_natural,
        "a drawn Vingt-un",
    );
    ui.end_row();
    let label = ui.label("The dealer's divided hands settle");
    choose(
        ui,
        label.id,
        "dealer_divided",
        &mut rules.dealer_divided,
        &[
            (DealerDivided::Each, "each with every standing hand"),
            (DealerDivided::Best, "only his best hand"),
        ],
    );
    mark(ui, rules.dealer_divided != d.dealer_divided, "each");
    ui.end_row();
    eight_round_rules(ui, rules);
}

/// B's eight-round deal and the agreed figures of its games.
fn eight_round_rules(ui: &mut egui::Ui, rules: &mut HouseRules) {
    let d = HouseRules::default();
    ui.label("The eight-round deal (B)");
    ui.checkbox(
        &mut rules.eight_round_deal,
        "eight rounds, each its own game",
    )
    .on_hover_text(
        "Vingt-un, Imaginary Tens, Blind Vingt-un, Sympathy and Antipathy, Rouge et Noir, \
             Self and Company, Differences, the Clock; then the deal passes to the left",
    );
    mark(ui, rules.eight_round_deal != d.eight_round_deal, "no");
    ui.end_row();
    let label = ui.label("Rouge et Noir: cards to each player");
    choose(
        ui,
        label.id,
        "rouge_et_noir_cards",
        &mut rules.rouge_et_noir_cards,
        &[(1, "one (B)"), (3, "three, two of three decide (B)")],
    );
    mark(
        ui,
        rules.rouge_et_noir_cards != d.rouge_et_noir_cards,
        "one",
    );
    ui.end_row();
    let label = ui.label("Differences: counters a point");
    ui.add(egui::DragValue::new(&mut rules.differences_rate).range(1..=100_000))
        .labelled_by(label.id);
    mark(ui, rules.differences_rate != d.differences_rate, "1");
    ui.end_row();
    let label = ui.label("The Clock: the stake won or paid");
    ui.add(egui::DragValue::new(&mut rules.clock_stake).range(1..=100_000))
        .labelled_by(label.id);
    mark(ui, rules.clock_stake != d.clock_stake, "1");
    ui.end_row();
}

/// A rule row's last cell: "default" when the rule is at its default, else
/// "changed" and what the default is.
fn mark(ui: &mut egui::Ui, changed: bool, default: &str) {
    // Written out, not on hover: a finger on a tablet cannot hover.
    let (words, colour) = if changed {
        (format!("changed (default: {default})"), crate::screen::GOLD)
    } else {
        ("default".to_owned(), Color32::GRAY)
    };
    ui.label(RichText::new(words).color(colour));
}

/// One of a rule's values, from a list.
fn choose<T: PartialEq + Copy>(
    ui: &mut egui::Ui,
    label: egui::Id,
    id: &str,
    value: &mut T,
    options: &[(T, &str)],
) {
    let shown = options
        .iter()
        .find(|(v, _)| v == value)
        .map_or("", |(_, label)| label);
    egui::ComboBox::from_id_salt(id)
        .selected_text(shown)
        .width(250.0)
        .show_ui(ui, |ui| {
            for (v, words) in options {
                ui.selectable_value(value, *v, *words);
            }
        })
        .response
        .labelled_by(label);
}

/// A rule that is off or a number.
fn optional(
    ui: &mut egui::Ui,
    label: egui::Id,
    value: &mut Option<u32>,
    words: &str,
    range: std::ops::RangeInclusive<u32>,
    first: u32,
) {
    ui.horizontal(|ui| {
        let mut on = value.is_some();
        if ui.checkbox(&mut on, words).changed() {
            *value = on.then_some(value.unwrap_or(first));
        }
        if let Some(n) = value {
            ui.add(egui::DragValue::new(n).range(range))
                .labelled_by(label);
        } else {
            ui.label(RichText::new("none").color(Color32::GRAY));
        }
    });
}

//! Readings against labelled cards, one to one, as `pone eval` and the
//! accuracy tests count them: a labelled card is read right when a reading
//! whose box centre lies in its box names it, and each reading counts for one
//! card at most. A second reading of a card already read is a false card (the
//! table would count that card twice), as is a reading on no card.

use crate::recognise::Seen;

/// A labelled card.
#[derive(Clone, Copy, Debug)]
pub struct Label<'a> {
    /// `QH`, `back`, or a rank alone (`Q`) when the labels give no suit.
    pub card: &'a str,
    /// The box around what shows of it, `[x0, y0, x1, y1]`.
    pub bbox: [f32; 4],
    /// Whether it must be found. A card too hidden to read need not be, and a
    /// reading on it is no false card either.
    pub counted: bool,
}

/// What became of a labelled card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This reading names it.
    Right(usize),
    /// This reading lies on it but names another card.
    Wrong(usize),
    /// No reading lies on it.
    Missed,
}

/// A reading that counts for no labelled card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FalseReading {
    /// Which reading.
    pub reading: usize,
    /// Whether it lies on a labelled card that another reading took: the same
    /// card read twice, or a card read where another card lies.
    pub on_a_card: bool,
}

/// Every labelled card's outcome (in the labels' order) and the false readings.
#[derive(Clone, Debug, Default)]
pub struct Matching {
    /// One per label.
    pub outcomes: Vec<Outcome>,
    /// Readings that count for no card.
    pub false_readings: Vec<FalseReading>,
}

/// Whether a reading's box centre lies in a box.
#[must_use]
pub fn centre_in(seen: &Seen, bbox: [f32; 4]) -> bool {
    crate::boxes::contains(bbox, crate::boxes::centre(seen.bbox))
}

/// Whether a reading names a labelled card (a rank-only label compares ranks).
#[must_use]
pub fn agrees(read: &str, label: &str) -> bool {
    if label.len() == 1 {
        read != "back" && read.starts_with(label)
    } else {
        read == label
    }
}

/// Matches readings to labels one to one, as many read right as can be,
/// then as many of the rest as can be to the counted cards they lie on (read
/// wrong). A best matching, not a greedy one: where cards overlap, a
/// reading's centre lies in several cards' boxes (a hand's stacked backs),
/// and taking the first card that fits would leave the reading of that card
/// with none and count it false.
#[must_use]
pub fn match_readings(readings: &[Seen], labels: &[Label]) -> Matching {
    use pathfinding::prelude::{Matrix, kuhn_munkres};
    // One card read right outweighs every card read wrong together.
    let right = labels.len() as i64 + 1;
    let n = readings.len().max(labels.len());
    let mut weights = Matrix::new(n, n, 0_i64);
    for (r, seen) in readings.iter().enumerate() {
        for (l, label) in labels.iter().enumerate() {
            if !centre_in(seen, label.bbox) {
                continue;
            }
            weights[(r, l)] = if agrees(&seen.card, label.card) {
                right
            } else {
                i64::from(label.counted)
            };
        }
    }
    let mut outcomes = vec![Outcome::Missed; labels.len()];
    let mut used = vec![false; readings.len()];
    if n > 0 {
        let (_, columns) = kuhn_munkres(&weights);
        for (r, &l) in columns.iter().enumerate().take(readings.len()) {
            match weights[(r, l)] {
                0 => {}
                w => {
                    used[r] = true;
                    outcomes[l] = if w == right {
                        Outcome::Right(r)
                    } else {
                        Outcome::Wrong(r)
                    };
                }
            }
        }
    }
    let mut false_readings = Vec::new();
    for (r, seen) in readings.iter().enumerate() {
        if used[r] {
            continue;
        }
        let on: Vec<&Label> = labels.iter().filter(|l| centre_in(seen, l.bbox)).collect();
        // A reading on a card that need not be found is no false card.
        if on.iter().any(|l| !l.counted) {
            continue;
        }
        false_readings.push(FalseReading {
            reading: r,
            on_a_card: !on.is_empty(),
        });
    }
    Matching {
        outcomes,
        false_readings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(card: &str, confidence: f32, bbox: [f32; 4]) -> Seen {
        Seen::new(card, confidence, bbox)
    }

    #[test]
    fn a_card_read_twice_counts_once_and_the_second_reading_is_false() {
        let labels = [Label {
            card: "QH",
            bbox: [0.0, 0.0, 100.0, 100.0],
            counted: true,
        }];
        let readings = [
            seen("QH", 0.9, [10.0, 10.0, 90.0, 90.0]),
            seen("QH", 0.8, [20.0, 20.0, 80.0, 80.0]),
            seen("4C", 0.99, [0.0, 0.0, 50.0, 50.0]),
            seen("back", 0.7, [200.0, 200.0, 300.0, 300.0]),
        ];
        let matching = match_readings(&readings, &labels);
        assert_eq!(matching.outcomes, [Outcome::Right(0)]);
        assert_eq!(
            matching.false_readings,
            [
                FalseReading {
                    reading: 1,
                    on_a_card: true
                },
                FalseReading {
                    reading: 2,
                    on_a_card: true
                },
                FalseReading {
                    reading: 3,
                    on_a_card: false
                },
            ]
        );
    }

    #[test]
    fn overlapping_cards_each_keep_their_own_reading() {
        // Two stacked backs: the upper one's reading lies in both boxes and
        // is the surer; the lower one's lies in its own box only.
        let labels = [
            Label {
                card: "back",
                bbox: [0.0, 0.0, 100.0, 100.0],
                counted: true,
            },
            Label {
                card: "back",
                bbox: [30.0, 0.0, 130.0, 100.0],
                counted: true,
            },
        ];
        let readings = [
            seen("back", 0.9, [40.0, 0.0, 120.0, 100.0]),
            seen("back", 0.6, [0.0, 0.0, 40.0, 100.0]),
        ];
        let matching = match_readings(&readings, &labels);
        assert_eq!(matching.outcomes, [Outcome::Right(1), Outcome::Right(0)]);
        assert!(matching.false_readings.is_empty());
    }

    #[test]
    fn a_wrong_reading_takes_the_card_it_lies_on_and_hidden_cards_forgive() {
        let labels = [
            Label {
                card: "Q",
                bbox: [0.0, 0.0, 100.0, 100.0],
                counted: true,
            },
            Label {
                card: "2S",
                bbox: [100.0, 0.0, 200.0, 100.0],
                counted: false,
            },
        ];
        let readings = [
            seen("KH", 0.9, [10.0, 10.0, 90.0, 90.0]),
            seen("QS", 0.3, [110.0, 10.0, 190.0, 90.0]),
        ];
        let matching = match_readings(&readings, &labels);
        assert_eq!(matching.outcomes, [Outcome::Wrong(0), Outcome::Missed]);
        assert!(matching.false_readings.is_empty());
        assert!(agrees("QS", "Q") && !agrees("back", "Q") && !agrees("QS", "QH"));
    }
}

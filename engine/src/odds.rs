//! The chances the seeds quote, computed exactly from a full pack.

use crate::card::Rank;

/// Cards of each rank in one full pack, ace first.
pub const FULL_PACK: [u8; 13] = [4; 13];

/// The chance that one card drawn from `pack` (counts per rank, ace first)
/// takes a hand of `hard` points (aces as 1) over 21.
pub fn over_chance(hard: u8, pack: &[u8; 13]) -> f64 {
    let total: u32 = pack.iter().map(|&n| u32::from(n)).sum();
    if total == 0 {
        return 0.0;
    }
    let over: u32 = Rank::ALL
        .iter()
        .zip(pack)
        .filter(|(rank, _)| hard + rank.points() > 21)
        .map(|(_, &n)| u32::from(n))
        .sum();
    f64::from(over) / f64::from(total)
}

/// The chance that a given hand's first two cards are a natural (full pack).
pub fn natural_chance() -> f64 {
    // An ace then a tenth card, or a tenth card then an ace.
    2.0 * (4.0 / 52.0) * (16.0 / 51.0)
}

/// The chance that at least one of `hands` hands (the dealer's among them) is
/// dealt a natural from a full pack, exactly, by inclusion and exclusion over
/// which hands hold naturals (each natural uses one ace and one tenth card).
pub fn any_natural_chance(hands: u32) -> f64 {
    // P(a given set of k hands all hold naturals) = ways to give each an ace and a
    // tenth card (in either order) over ways to deal them 2k cards.
    let all_natural = |k: u32| -> f64 {
        if k > 4 {
            return 0.0;
        }
        let mut p = 1.0;
        for i in 0..k {
            let aces = f64::from(4 - i);
            let tens = f64::from(16 - i);
            let cards = f64::from(52 - 2 * i);
            p *= 2.0 * aces * tens / (cards * (cards - 1.0));
        }
        p
    };
    let mut chance = 0.0;
    let mut binom = 1.0;
    for k in 1..=hands.min(4) {
        binom = binom * f64::from(hands - k + 1) / f64::from(k);
        let sign = if k % 2 == 1 { 1.0 } else { -1.0 };
        chance += sign * binom * all_natural(k);
    }
    chance
}

/// The chance that two cards from a full pack count more than 14 (an ace as 11
/// where that stays at or under 21).
pub fn two_cards_over_14_chance() -> f64 {
    let mut favourable = 0u32;
    let mut total = 0u32;
    for (i, a) in Rank::ALL.iter().enumerate() {
        for (j, b) in Rank::ALL.iter().enumerate() {
            let ways = if i == j { 4 * 3 } else { 4 * 4 };
            let hard = a.points() + b.points();
            let best = if (*a == Rank::Ace || *b == Rank::Ace) && hard <= 11 {
                hard + 10
            } else {
                hard
            };
            total += ways;
            if best > 14 {
                favourable += ways;
            }
        }
    }
    f64::from(favourable) / f64::from(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C: "if those in hand make 14 exactly, it is 7 to 6 that the one next drawn
    /// does not make the number of points above 21".
    #[test]
    fn holding_fourteen_it_is_seven_to_six_against_going_over() {
        let p = over_chance(14, &FULL_PACK);
        assert!((p - 6.0 / 13.0).abs() < 1e-12, "{p}");
    }

    /// C: "but if the points be 15, it is 7 to 6 against that hand".
    #[test]
    fn holding_fifteen_it_is_seven_to_six_for_going_over() {
        let p = over_chance(15, &FULL_PACK);
        assert!((p - 7.0 / 13.0).abs() < 1e-12, "{p}");
    }

    /// C: "it is rather above an even bet that the adversary's two first cards
    /// amount to more than 14".
    #[test]
    fn two_first_cards_beat_fourteen_rather_above_an_even_bet() {
        let p = two_cards_over_14_chance();
        assert!((p - 26.0 / 51.0).abs() < 1e-12, "{p}");
    }

    /// C: "A natural may be expected once in seven coups when two, and twice in
    /// seven when four people play". The exact figures are lower: about once in
    /// 10.6 coups with two players and once in 5.5 with four.
    #[test]
    fn the_seeds_natural_figures_are_generous() {
        let two = any_natural_chance(2);
        let four = any_natural_chance(4);
        assert!((1.0 / two - 10.6).abs() < 0.1, "1 in {}", 1.0 / two);
        assert!((1.0 / four - 5.5).abs() < 0.1, "1 in {}", 1.0 / four);
        assert!(two < 1.0 / 7.0 && four < 2.0 / 7.0);
        assert!((natural_chance() - 0.048_265).abs() < 1e-6);
    }
}

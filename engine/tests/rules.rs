//! One scripted table per rule of `RULES.md`, named after it, and every house
//! rule against its default. Figures are worked out by hand from the seeds.

mod harness;

use harness::Table;
use pone_engine::sitting::Phase;
use pone_engine::{Event, Seat};

/// The issue's worked example (round 1: a drawn Vingt-un by the dealer against a
/// divided pair; round 2: a doubled natural that puts the dealer out).
const WORKED_EXAMPLE: &str = "
    deal Ann=9H Bob=8S Cat=7D; stake Ann=2 Bob=3; deal Ann=8C Bob=8D Cat=9C
    content Ann; divide Bob 1; card Bob:1 3H; card Bob:2 KS; card Bob:1 TC; content Bob:2
    card Cat 5S
    deal Ann=AS Bob=4H Cat=TD; stake Ann=1 Bob=2; double; deal Ann=KH Bob=6C Cat=6D
    card Bob 9D; content Bob; card Cat 7S";

mod cards_and_counting {
    use super::*;

    #[test]
    fn worked_example_of_the_issue() {
        let mut t = Table::three();
        t.run(WORKED_EXAMPLE);
        t.assert_balances("Ann=0 Bob=-1 Cat=1");
        assert_eq!(
            t.dealers(),
            (vec!["Cat".into(), "Cat".into()], "Ann".into())
        );
        assert_eq!(
            t.settlements(1),
            [
                "Ann:1 -4 dealer_drawn_vingt_un (Cat)",
                "Bob:1 -3 tied_drawn_vingt_un (Cat)",
                "Bob:2 -2 dealer_drawn_vingt_un (Cat)"
            ]
        );
        assert_eq!(
            t.settlements(2),
            ["Ann:1 +4 natural (Cat)", "Bob:1 +4 dealer_over_drawn (Cat)"]
        );
    }

    #[test]
    fn an_ace_counts_one_or_eleven_at_the_holders_option() {
        let mut t = Table::three();
        // Ann: A+5 = 16, then K makes 16 again (ace now 1); Bob: A+A = 12, +9 = 21.
        t.run("deal Ann=AS Bob=AH Cat=9C; stake Ann=1 Bob=1; deal Ann=5D Bob=AD Cat=8C");
        t.run("card Ann KC; content Ann; card Bob 9D");
        // Bob's 21 (A A 9) is a drawn Vingt-un and finished his hand by itself.
        t.run("content Cat"); // Cat 17
        t.assert_balances("Ann=-1 Bob=2 Cat=-1");
    }

    #[test]
    fn a_natural_beats_a_drawn_vingt_un() {
        let mut t = Table::three();
        t.run("deal Ann=AS Bob=5H Cat=5C; stake Ann=1 Bob=1; deal Ann=KD Bob=6H Cat=6C");
        // Ann's natural is paid at once (misericorde in a deal's first round: 2 stakes).
        t.run("card Bob 2S; content Bob; card Cat TC");
        // Cat draws 21: Bob (13) pays 2; Ann was paid already and pays nothing.
        t.assert_balances("Ann=2 Bob=-2 Cat=0");
    }

    #[test]
    fn over_drawn_pays_at_once_and_gets_nothing_back_when_the_dealer_over_draws() {
        let mut t = Table::three();
        t.run("deal Ann=9H Bob=8S Cat=7D; stake Ann=2 Bob=3; deal Ann=5C Bob=8D Cat=9C");
        let events = t.run("card Ann KH");
        assert!(events.iter().any(|e| matches!(e, Event::OverDrawn { .. })));
        t.assert_balances("Ann=-2 Bob=0 Cat=2");
        t.run("content Bob; card Cat 8H");
        t.assert_balances("Ann=-2 Bob=3 Cat=-1");
    }
}

mod before_play {
    use super::*;

    #[test]
    fn stakes_lie_between_the_limits() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"min_stake":2,"max_stake":6}"#);
        t.run("dealer Cat; deal Ann=9H Bob=8S Cat=7D");
        t.refuse("stake Ann=7", "outside the limits 2 to 6");
        t.refuse("stake Ann=1", "outside the limits 2 to 6");
        t.run("stake Ann=6");
        t.refuse("stake Ann=2", "already staked");
        t.refuse("stake Cat=2", "the dealer does not stake");
    }

    #[test]
    fn the_maximum_limits_the_stake_not_what_a_hand_can_win() {
        let mut t = Table::three();
        t.run("deal Ann=5H Bob=9S Cat=KD; stake Ann=12 Bob=1; double; deal Ann=6C Bob=9D Cat=QD");
        t.run("card Ann TC; content Bob; content Cat");
        // Ann's drawn Vingt-un on a doubled maximum: 4 x 12.
        t.assert_balances("Ann=48 Bob=-2 Cat=-46");
    }

    #[test]
    fn the_pone_sits_on_the_dealers_right() {
        let t = Table::three();
        let state = t.state();
        assert_eq!(state.pone().map(|s| state.name(s)), Some("Bob"));
    }

    #[test]
    fn the_first_ace_dealt_face_up_makes_the_dealer() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], "{}");
        t.refuse(r#"{"t":"draw_for_deal","cards":["5H","KS"]}"#, "no ace");
        t.refuse(
            r#"{"t":"draw_for_deal","cards":["AH","KS"]}"#,
            "1 card(s) after it",
        );
        t.run(r#"{"t":"draw_for_deal","from":"Bob","cards":["5H","JS","9C","AD"]}"#);
        // Bob, Cat, Ann, Bob: the ace falls to Bob.
        assert_eq!(t.dealers().1, "Bob");
        t.refuse("dealer Ann", "already named");
    }

    #[test]
    fn house_rule_first_dealer_knave() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"first_dealer":"knave"}"#);
        t.run(r#"{"t":"draw_for_deal","cards":["AH","KS","JC"]}"#);
        assert_eq!(t.dealers().1, "Cat");
    }

    #[test]
    fn the_dealer_is_named_once() {
        let mut t = Table::three();
        t.refuse("dealer Ann", "already named");
        let mut fresh = Table::new(&["Ann", "Bob"], "{}");
        fresh.refuse("card Ann 9H", "no dealer yet");
    }
}

mod a_round {
    use super::*;

    #[test]
    fn one_card_to_each_from_the_dealers_left_dealer_last() {
        let mut t = Table::three();
        t.refuse("card Bob 9H", "goes to Ann");
        t.run("card Ann 9H");
        t.refuse("card Cat 8S", "goes to Bob");
        t.refuse("card Ann 8S", "surplus");
        t.run("card Bob 8S; card Cat 7D");
    }

    #[test]
    fn each_player_stakes_on_his_card_before_the_second_card() {
        let mut t = Table::three();
        t.run("card Ann 9H");
        t.refuse("stake Bob=2", "deal it first");
        t.run("stake Ann=2; card Bob 8S; card Cat 7D");
        t.refuse("card Ann 5C", "no stake yet from Bob");
        t.refuse("double", "no stake yet from Bob");
        t.run("stake Bob=1; card Ann 5C");
        t.refuse("stake Bob=3", "stakes are made on the first card");
        t.refuse("double", "before the second cards");
    }

    #[test]
    fn double_doubles_every_stake() {
        let mut t = Table::three();
        t.run("deal Ann=TH Bob=9S Cat=TD; stake Ann=2 Bob=3; double; deal Ann=9C Bob=8D Cat=8C");
        t.refuse("double", "");
        t.run("content Ann; content Bob; content Cat");
        // Cat 18: Ann 19 receives 4, Bob 17 pays 6.
        t.assert_balances("Ann=4 Bob=-6 Cat=2");
    }

    #[test]
    fn the_dealers_natural_collects_double_and_a_players_natural_ties() {
        let mut t = Table::three();
        t.run("deal Ann=AH Bob=9S Cat=AD; stake Ann=2 Bob=3; double; deal Ann=KC Bob=9D Cat=QD");
        assert_eq!(t.state().phase(), Phase::Between, "the round ends there");
        t.assert_balances("Ann=0 Bob=-12 Cat=12");
        assert_eq!(
            t.settlements(1),
            [
                "Ann:1 +0 natural_ties_natural (Cat)",
                "Bob:1 -12 dealer_natural (Cat)"
            ]
        );
        assert_eq!(t.dealers().1, "Cat", "the dealer's natural keeps the deal");
    }

    #[test]
    fn house_rule_natural_pays_four_for_every_natural_the_dealers_too() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"natural_pays":4}"#);
        t.run("dealer Cat");
        t.run("deal Ann=AH Bob=9S Cat=AD; stake Ann=2 Bob=3; double; deal Ann=KC Bob=9D Cat=QD");
        t.assert_balances("Ann=0 Bob=-24 Cat=24");
    }

    /// Round 1: Ann's natural in the deal's first round is the misericorde: paid
    /// as a drawn Vingt-un and the dealer goes on. Round 2: Ann's natural is paid
    /// and puts Cat out; the deal passes to his left.
    const TWO_NATURALS: &str = "
        deal Ann=AH Bob=9S Cat=5D; stake Ann=2 Bob=3; deal Ann=KC Bob=8D Cat=QD
        content Bob; card Cat 4C; content Cat
        deal Ann=QH Bob=2S Cat=6D; stake Ann=1 Bob=1; deal Ann=AC Bob=3D Cat=7D
        card Bob TC; content Bob; card Cat 2C; content Cat";

    #[test]
    fn a_players_natural_is_paid_double_and_puts_the_dealer_out_but_not_in_the_first_round() {
        let mut t = Table::three();
        t.run(TWO_NATURALS);
        assert_eq!(t.settlements(1)[0], "Ann:1 +4 misericorde (Cat)");
        assert_eq!(t.settlements(2)[0], "Ann:1 +2 natural (Cat)");
        t.assert_balances("Ann=6 Bob=-4 Cat=-2");
        assert_eq!(
            t.dealers(),
            (vec!["Cat".into(), "Cat".into()], "Ann".into())
        );
    }

    #[test]
    fn house_rule_natural_pays_four_but_the_misericorde_still_pays_two() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"natural_pays":4}"#);
        t.run("dealer Cat");
        t.run(TWO_NATURALS);
        assert_eq!(t.settlements(1)[0], "Ann:1 +4 misericorde (Cat)");
        assert_eq!(t.settlements(2)[0], "Ann:1 +4 natural (Cat)");
        t.assert_balances("Ann=8 Bob=-4 Cat=-4");
    }

    #[test]
    fn house_rule_natural_bonus_from_players() {
        let mut t = Table::new(
            &["Ann", "Bob", "Cat"],
            r#"{"natural_bonus_from_players":true}"#,
        );
        t.run("dealer Cat");
        t.run(TWO_NATURALS);
        // Each of Ann's naturals also takes her stake from Bob: 2, then 1.
        t.assert_balances("Ann=9 Bob=-7 Cat=-2");
    }

    #[test]
    fn a_hand_at_twenty_one_is_finished_without_content() {
        let mut t = Table::three();
        t.run("deal Ann=TH Bob=9S Cat=TD; stake Ann=2 Bob=3; deal Ann=5C Bob=8D Cat=8C");
        t.run("card Ann 6C");
        assert_eq!(t.state().turn().map(|(s, _)| s.0), Some(1), "Bob's turn");
        t.run("content Ann"); // said again, harmless
        t.refuse("card Ann 2C", "Bob's turn");
    }

    #[test]
    fn a_content_said_for_the_dealers_twenty_one_after_the_round_is_harmless() {
        let mut t = Table::three();
        t.run("deal Ann=TH Bob=9S Cat=5D; stake Ann=2 Bob=1; deal Ann=8C Bob=8H Cat=6C");
        t.run("content Ann; content Bob; card Cat TC");
        assert_eq!(
            t.state().phase(),
            Phase::Between,
            "Cat's 21 ended the round"
        );
        let before = t.state().clone();
        t.run("content Cat");
        assert_eq!(t.state(), &before);
        t.assert_balances("Ann=-4 Bob=-2 Cat=6");
    }

    #[test]
    fn when_no_hand_is_left_standing_the_dealer_does_not_play() {
        let mut t = Table::three();
        t.run("deal Ann=TH Bob=9S Cat=TD; stake Ann=2 Bob=3; deal Ann=5C Bob=8D Cat=8C");
        t.run("card Ann 9C; card Bob 7H");
        assert_eq!(t.state().phase(), Phase::Between);
        t.assert_balances("Ann=-2 Bob=-3 Cat=5");
        t.refuse("card Cat 2C", "goes to Ann");
    }

    #[test]
    fn the_dealer_over_pays_standing_hands_once_and_drawn_vingt_uns_twice() {
        let mut t = Table::three();
        t.run("deal Ann=TH Bob=9S Cat=TD; stake Ann=2 Bob=3; deal Ann=8C Bob=9D Cat=6C");
        t.run("content Ann; card Bob 3C; card Cat 8D");
        t.assert_balances("Ann=2 Bob=6 Cat=-8");
    }

    #[test]
    fn the_dealer_standing_pays_higher_hands_and_takes_ties() {
        let mut t = Table::three();
        t.run("deal Ann=TH Bob=9S Cat=TD; stake Ann=2 Bob=3; deal Ann=8C Bob=9D Cat=8D");
        t.run("content Ann; card Bob 3C; content Cat");
        // Cat 18: Ann's 18 ties and pays 2; Bob's drawn 21 receives 6.
        t.assert_balances("Ann=-2 Bob=6 Cat=-4");
        assert_eq!(
            t.settlements(1),
            ["Ann:1 -2 not_higher (Cat)", "Bob:1 +6 drawn_vingt_un (Cat)"]
        );
    }

    #[test]
    fn house_rule_drawn_21_tie_pays_two() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"drawn_21_tie_pays":2}"#);
        t.run("dealer Cat");
        t.run(WORKED_EXAMPLE);
        // Round 1: Bob's drawn 21 pays 6 instead of 3.
        assert_eq!(t.settlements(1)[1], "Bob:1 -6 tied_drawn_vingt_un (Cat)");
        t.assert_balances("Ann=0 Bob=-4 Cat=4");
    }
}

mod divided_pairs {
    use super::*;

    #[test]
    fn only_two_cards_of_one_denomination_divide() {
        let mut t = Table::three();
        t.run("deal Ann=KH Bob=5S Cat=7D; stake Ann=2 Bob=3; deal Ann=QC Bob=8D Cat=9C");
        t.refuse("divide Ann 2", "not a pair");
        t.run("content Ann; card Bob 5C");
        t.refuse("divide Bob 1", "only the first two cards");
    }

    #[test]
    fn a_divide_comes_at_the_players_turn() {
        let mut t = Table::three();
        t.run("deal Ann=KH Bob=5S Cat=7D; stake Ann=2 Bob=3; deal Ann=QC Bob=5D Cat=9C");
        t.refuse("divide Bob 1", "Ann's turn");
        t.run("content Ann; divide Bob 1");
    }

    #[test]
    fn up_to_four_hands_each_settled_on_its_own() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"packs":2}"#);
        t.run("dealer Cat");
        t.run("deal Ann=8H Bob=5S Cat=TD; stake Ann=2 Bob=1; deal Ann=8C Bob=5D Cat=7C");
        t.run("divide Ann 1; card Ann:1 8D; divide Ann:1 3; card Ann:2 8S; divide Ann:2 4");
        t.run("card Ann:1 8H; card Ann:2 2S; card Ann:3 TS; card Ann:4 9S");
        assert_eq!(t.hands(0).len(), 4);
        t.refuse("divide Ann:1 1", "4 hands");
        // Hands: 1 = 8H 8H (16), 2 = 8C 2S (10), 3 = 8D TS (18), 4 = 8S 9S (17).
        t.run("content Ann:1; card Ann:2 TH; content Ann:2; content Ann:3; content Ann:4");
        t.run("content Bob; content Cat");
        // Cat 17: hand 1 (16, stake 2) pays 2; hand 2 (20, stake 1) receives 1;
        // hand 3 (18, stake 3) receives 3; hand 4 (17, stake 4) ties and pays 4;
        // Bob's 10 pays 1.
        assert_eq!(
            t.settlements(1),
            [
                "Ann:1 -2 not_higher (Cat)",
                "Ann:2 +1 higher (Cat)",
                "Ann:3 +3 higher (Cat)",
                "Ann:4 -4 not_higher (Cat)",
                "Bob:1 -1 not_higher (Cat)"
            ]
        );
        t.assert_balances("Ann=-2 Bob=-1 Cat=3");
    }

    #[test]
    fn a_hand_is_finished_before_the_next_is_drawn() {
        let mut t = Table::three();
        t.run("deal Ann=8H Bob=5S Cat=TD; stake Ann=2 Bob=1; deal Ann=8C Bob=5D Cat=7C");
        t.run("divide Ann 2; card Ann:1 2D; card Ann:2 3S");
        t.refuse("card Ann:2 4S", "finishes one hand before the next");
        t.refuse("content Ann:2", "not in play");
        t.run("card Ann:1 4S; content Ann:1; card Ann:2 9S");
    }

    #[test]
    fn house_rule_divide_stake_same() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"divide_stake":"same"}"#);
        t.run("dealer Cat");
        t.run("deal Ann=8H Bob=5S Cat=TD; stake Ann=2 Bob=1; deal Ann=8C Bob=5D Cat=7C");
        t.refuse("divide Ann 3", "the same as the first (2)");
        t.run("divide Ann");
        let hands = t.hands(0);
        assert_eq!(hands[1].stake, 2);
    }

    #[test]
    fn a_double_applies_to_the_divided_stakes_too() {
        let mut t = Table::three();
        t.run("deal Ann=8H Bob=5S Cat=TD; stake Ann=2 Bob=1; double; deal Ann=8C Bob=5D Cat=7C");
        t.run("divide Ann 3; card Ann:1 TC; card Ann:2 KS; content Ann:1; content Ann:2");
        t.run("content Bob; content Cat");
        // Cat 17: both of Ann's 18s win their doubled stakes, 4 and 6; Bob pays 2.
        t.assert_balances("Ann=10 Bob=-2 Cat=-8");
    }

    #[test]
    fn house_rule_divide_before_drawing() {
        let mut t = Table::new(
            &["Ann", "Bob", "Cat"],
            r#"{"divide_when":"before_drawing"}"#,
        );
        t.run("dealer Cat");
        t.run("deal Ann=TH Bob=9S Cat=TD; stake Ann=2 Bob=1; deal Ann=5C Bob=9D Cat=7C");
        // Bob divides and completes his hands before Ann draws.
        t.run("divide Bob 1; card Bob:1 TS; card Bob:2 8H");
        t.run("card Ann 2C; content Ann; content Bob:1; content Bob:2");
        t.refuse("divide Bob:1 1", "");
        t.run("content Cat");
        // Cat 17: Ann 17 pays 2; Bob 19 and 17: +1 and -1.
        t.assert_balances("Ann=-2 Bob=0 Cat=2");
    }

    #[test]
    fn by_default_pairs_are_not_divided_before_drawing_starts() {
        let mut t = Table::three();
        t.run("deal Ann=TH Bob=9S Cat=TD; stake Ann=2 Bob=1; deal Ann=5C Bob=9D Cat=7C");
        t.refuse("divide Bob 1", "Ann's turn");
    }

    #[test]
    fn an_ace_and_a_tenth_card_on_a_divided_hand_is_a_drawn_vingt_un() {
        let mut t = Table::three();
        t.run("deal Ann=TH Bob=AS Cat=5D; stake Ann=1 Bob=2; deal Ann=9C Bob=AD Cat=8C");
        t.run("content Ann; divide Bob 2; card Bob:1 KS; card Bob:2 5S");
        // Hand 1 (A K) stands as 21 by itself; hand 2 draws.
        t.run("card Bob:2 2S; content Bob:2; card Cat 5C; content Cat");
        // Cat 18: Ann 19 +1; Bob's hand 1 drawn Vingt-un +4; hand 2 (18) ties, -2.
        t.assert_balances("Ann=1 Bob=2 Cat=-3");
        assert_eq!(t.dealers().1, "Cat", "a divided hand's 21 puts nobody out");
    }

    #[test]
    fn house_rule_divided_natural_counts_as_a_natural() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"divided_natural":"natural"}"#);
        t.run("dealer Cat");
        // A first round, then the same play in round 2 so the natural is not a misericorde.
        t.run("deal Ann=2H Bob=3S Cat=4D; stake Ann=1 Bob=1; deal Ann=TH Bob=TS Cat=TD");
        t.run("content Ann; content Bob; content Cat");
        t.run("deal Ann=TC Bob=AS Cat=5D; stake Ann=1 Bob=2; deal Ann=9C Bob=AD Cat=8C");
        t.run("content Ann; divide Bob 2; card Bob:1 KS");
        assert_eq!(t.settlements(2), ["Bob:1 +4 natural (Cat)"]);
        t.run("card Bob:2 5S; card Bob:2 2S; content Bob:2; card Cat 5C; content Cat");
        assert_eq!(t.dealers().1, "Ann", "the natural put Cat out");
    }

    #[test]
    fn house_rule_the_dealer_may_not_divide() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"dealer_may_divide":false}"#);
        t.run("dealer Cat");
        t.run("deal Ann=TH Bob=9S Cat=8D; stake Ann=2 Bob=1; deal Ann=9C Bob=8H Cat=8C");
        t.run("content Ann; content Bob");
        t.refuse("divide Cat", "may not divide");
    }

    #[test]
    fn the_dealers_divided_hands_each_settle_with_every_standing_hand() {
        let mut t = Table::three();
        t.run("deal Ann=TH Bob=9S Cat=8D; stake Ann=2 Bob=1; deal Ann=9C Bob=8H Cat=8C");
        t.run("content Ann; content Bob");
        t.run("divide Cat; card Cat:1 TS; card Cat:2 KD; content Cat:1; content Cat:2");
        // Cat's hands are 18 and 18: Ann (19) wins twice, Bob (17) loses twice.
        t.assert_balances("Ann=4 Bob=-2 Cat=-2");
    }

    #[test]
    fn house_rule_dealer_divided_best_settles_with_his_best_hand_only() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"dealer_divided":"best"}"#);
        t.run("dealer Cat");
        t.run("deal Ann=TH Bob=9S Cat=8D; stake Ann=2 Bob=1; deal Ann=9C Bob=8H Cat=8C");
        t.run("content Ann; content Bob");
        t.run("divide Cat; card Cat:1 TS; card Cat:2 5D; content Cat:1; card Cat:2 QD");
        // Cat's hands: 18 and over; his best is 18.
        t.assert_balances("Ann=2 Bob=-1 Cat=-1");
    }
}

mod the_pack_and_the_pones_pile {
    use super::*;

    #[test]
    fn a_card_already_seen_in_this_pack_is_refused() {
        let mut t = Table::three();
        t.run("deal Ann=9H Bob=8S");
        t.refuse(
            "card Cat 9H",
            "already seen in this pack (it is on the table)",
        );
    }

    #[test]
    fn house_rule_two_packs_hold_each_card_twice() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"packs":2}"#);
        t.run("dealer Cat; deal Ann=9H Bob=9H");
        t.refuse("card Cat 9H", "twice");
    }

    /// Two players, four cards a round, all 52 cards in rank order: the 13th
    /// round needs the last card, which goes to the pone with his pile instead.
    #[test]
    fn the_last_card_is_never_dealt_and_the_pones_pile_becomes_the_pack() {
        let mut t = Table::new(&["Ann", "Bob"], "{}");
        t.run("dealer Bob");
        let cards: Vec<String> = "A23456789TJQK"
            .chars()
            .flat_map(|r| "SHDC".chars().map(move |s| format!("{r}{s}")))
            .collect();
        for round in cards.chunks(4).take(12) {
            t.run(&format!(
                "deal Ann={} Bob={}; stake Ann=1; deal Ann={} Bob={}; content Ann; content Bob",
                round[0], round[1], round[2], round[3]
            ));
        }
        assert_eq!(t.state().cards_before_last(), 3);
        assert_eq!(t.state().pone_pile(), 48);
        t.run("deal Ann=KS Bob=KH; stake Ann=1; card Ann KD");
        assert_eq!(
            t.state().cards_before_last(),
            0,
            "only the last card is left"
        );
        // KS is on the table: not in the new pack. 2S was in the pone's pile: it is.
        t.refuse("card Bob KS", "on the table");
        let events = t.run("card Bob 2S");
        assert!(
            events.contains(&Event::PackReshuffled { cards: 49 }),
            "{events:?}"
        );
        t.run("content Ann; content Bob");
        // KC, the last card, went to the pone unseen and is in the new pack too.
        t.run("deal Ann=KC Bob=AS");
    }

    #[test]
    fn a_new_deal_gathers_every_card_into_a_fresh_pack() {
        let mut t = Table::three();
        t.run(super::a_round_with_a_natural_in_round_two());
        assert_eq!(t.dealers().1, "Ann");
        // The cards of Cat's deal are all in Ann's fresh pack.
        t.run("deal Bob=AS Cat=2H Ann=9H");
    }
}

/// Cat deals two rounds; Bob's natural in round 2 puts him out.
fn a_round_with_a_natural_in_round_two() -> &'static str {
    "deal Ann=9H Bob=8S Cat=7D; stake Ann=1 Bob=1; deal Ann=8C Bob=9D Cat=TC
     content Ann; content Bob; content Cat
     deal Ann=2H Bob=AS Cat=3D; stake Ann=1 Bob=2; deal Ann=5C Bob=KD Cat=4D
     card Ann 6H; card Ann 5H; content Ann; card Cat TD; content Cat"
}

mod who_deals_next {
    use super::*;

    #[test]
    fn a_natural_passes_the_deal_to_the_dealers_left() {
        let mut t = Table::three();
        t.run(a_round_with_a_natural_in_round_two());
        t.assert_balances("Ann=0 Bob=3 Cat=-3");
        assert_eq!(
            t.dealers(),
            (vec!["Cat".into(), "Cat".into()], "Ann".into())
        );
    }

    #[test]
    fn house_rule_deal_passes_to_the_holder() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"deal_passes":"holder"}"#);
        t.run("dealer Cat");
        t.run(a_round_with_a_natural_in_round_two());
        assert_eq!(t.dealers().1, "Bob");
    }

    #[test]
    fn house_rule_a_natural_never_puts_the_dealer_out() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"deal_passes":"never"}"#);
        t.run("dealer Cat");
        t.run(a_round_with_a_natural_in_round_two());
        assert_eq!(t.dealers().1, "Cat");
        t.assert_balances("Ann=0 Bob=3 Cat=-3");
    }

    #[test]
    fn with_several_naturals_the_eldest_hand_takes_the_deal() {
        let mut t = Table::new(&["Ann", "Bob", "Cat", "Dan"], r#"{"deal_passes":"holder"}"#);
        // Bob deals: the order is Cat, Dan, Ann, Bob; Dan is elder than Ann.
        t.run("dealer Bob");
        t.run("deal Cat=9H Dan=8S Ann=7D Bob=6D; stake Cat=1 Dan=1 Ann=1; deal Cat=8C Dan=9D Ann=TC Bob=TS");
        t.run("content Cat; content Dan; content Ann; content Bob");
        t.run("deal Cat=2H Dan=AS Ann=AD Bob=3D; stake Cat=1 Dan=1 Ann=1; deal Cat=5C Dan=KD Ann=QC Bob=4D");
        t.run("card Cat 9C; content Cat; card Bob TD; content Bob");
        t.assert_balances("Ann=3 Bob=-6 Cat=0 Dan=3");
        assert_eq!(t.dealers().1, "Dan");
    }

    #[test]
    fn house_rule_rounds_per_deal() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"rounds_per_deal":2}"#);
        t.run("dealer Cat");
        t.run("deal Ann=9H Bob=8S Cat=7D; stake Ann=1 Bob=1; deal Ann=8C Bob=9D Cat=TC");
        t.run("content Ann; content Bob; content Cat");
        assert_eq!(t.dealers().1, "Cat");
        t.run("deal Ann=2H Bob=3S Cat=4D; stake Ann=1 Bob=1; deal Ann=TH Bob=TS Cat=TD");
        t.run("content Ann; content Bob; content Cat");
        assert_eq!(t.dealers().1, "Ann");
        t.run("deal Bob=9H Cat=8S Ann=7D");
    }

    #[test]
    fn house_rule_pool_fed_each_deal_and_won_by_the_natural_that_puts_the_dealer_out() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"pool":1}"#);
        t.run("dealer Cat");
        assert_eq!(t.game.ledger().pool, 3);
        t.run(a_round_with_a_natural_in_round_two());
        // Bob's natural takes the pool (3); Ann's new deal is fed again.
        assert_eq!(t.game.ledger().pool, 3);
        t.assert_balances("Ann=-2 Bob=4 Cat=-5");
        assert!(
            t.settlements(2)
                .contains(&"Bob:1 +3 pool_won (pool)".to_owned())
        );
    }

    #[test]
    fn the_deal_may_be_sold_or_declined_at_its_start() {
        let mut t = Table::three();
        t.run("sell Bob 5");
        t.assert_balances("Ann=0 Bob=-5 Cat=5");
        assert_eq!(t.dealers().1, "Bob");
        t.run("decline");
        assert_eq!(t.dealers().1, "Cat");
        t.run("card Ann 9H");
        t.refuse("sell Bob 1", "only between rounds");
        t.refuse("decline", "only between rounds");
    }

    #[test]
    fn a_player_may_retire_after_any_hand() {
        let mut t = Table::three();
        t.run("deal Ann=9H Bob=8S Cat=7D; stake Ann=1 Bob=1");
        t.refuse("retire Bob", "only after a hand");
        t.run("deal Ann=8C Bob=9D Cat=TC; content Ann; content Bob; content Cat");
        t.run("retire Bob");
        t.refuse("retire Ann", "two players must stay");
        t.run("deal Ann=2H Cat=3S");
        t.refuse("card Bob 4D", "left the table");
    }

    #[test]
    fn when_the_dealer_retires_the_deal_passes_to_his_left() {
        let mut t = Table::three();
        t.run("retire Cat");
        assert_eq!(t.dealers().1, "Ann");
        t.run("deal Bob=2H Ann=3S");
    }
}

mod irregularities {
    use super::*;

    #[test]
    fn confusion_in_preparing_the_pack_reshuffles_it() {
        let mut t = Table::three();
        t.run("reshuffle");
        t.run("card Ann 9H");
        t.refuse("reshuffle", "");
    }

    #[test]
    fn two_cards_to_one_player_put_right_before_a_third_is_dealt() {
        let mut t = Table::three();
        t.run("card Ann 9H; surplus Ann 8S; rectify Ann; card Cat 7D");
        assert_eq!(t.cards(1, 0), ["8S"]);
    }

    #[test]
    fn two_cards_to_one_player_found_late_he_rejects_one() {
        let mut t = Table::three();
        t.run("card Ann 9H; surplus Ann 8S; card Bob 5C");
        t.refuse("rectify Ann", "reject one");
        t.run("reject Ann 9H; card Cat 7D; stake Ann=1 Bob=1");
        t.refuse("card Cat 9H", "");
        assert_eq!(t.cards(0, 0), ["8S"]);
    }

    #[test]
    fn the_dealers_two_cards_at_once_the_pone_takes_one() {
        let mut t = Table::three();
        t.run("deal Ann=9H Bob=8S Cat=7D; surplus Cat 6D; stake Ann=1 Bob=1; card Ann 5C; reject Cat 6D");
        t.run("card Bob 2C; card Cat 3C");
        assert!(matches!(t.state().phase(), Phase::Drawing { .. }));
    }

    #[test]
    fn an_exposed_card_may_be_rejected_and_the_next_card_replaces_it() {
        let mut t = Table::three();
        t.run("card Ann; exposed Ann 9H; reject Ann");
        t.refuse("card Bob 5C", "owed the next card");
        t.run("card Ann 5C; card Bob 6C; card Cat 7C");
        t.refuse("stake Ann=13", "");
    }

    #[test]
    fn the_dealer_keeps_a_card_of_his_own_that_he_exposed() {
        let mut t = Table::three();
        t.run("deal Ann=9H Bob=8S; card Cat; exposed Cat 7D");
        t.refuse("reject Cat", "must keep");
    }
}

mod brulet {
    use super::*;

    #[test]
    fn brulet_is_off_by_default() {
        let mut t = Table::three();
        t.refuse("brulet AS KH", "brulet is off");
    }

    #[test]
    fn house_rule_brulet_double_minimum() {
        let mut t = Table::new(
            &["Ann", "Bob", "Cat"],
            r#"{"brulet":"double_minimum","min_stake":2}"#,
        );
        t.run("dealer Cat; brulet AS KH");
        t.assert_balances("Ann=-4 Bob=-4 Cat=8");
        // The cards looked at went to the pone's pile.
        t.refuse("card Ann AS", "pone's pile");
    }

    #[test]
    fn house_rule_brulet_limit_and_no_natural_no_payment() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"brulet":"limit"}"#);
        t.run("dealer Cat");
        t.refuse(
            "brulet 5S KH",
            "only when the bottom card is an ace or a tenth card",
        );
        t.refuse("brulet KS", "name it");
        t.run("brulet KS 9H");
        t.assert_balances("Ann=0 Bob=0 Cat=0");
        t.refuse("brulet AS KH", "once");
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"brulet":"limit"}"#);
        t.run("dealer Cat; brulet TS AC");
        t.assert_balances("Ann=-12 Bob=-12 Cat=24");
    }

    #[test]
    fn house_rule_brulet_clears_the_pool() {
        let mut t = Table::new(
            &["Ann", "Bob", "Cat"],
            r#"{"brulet":"clears_pool","pool":1}"#,
        );
        t.run("dealer Cat; brulet AS KH");
        t.assert_balances("Ann=-1 Bob=-1 Cat=2");
        assert_eq!(t.game.ledger().pool, 0);
    }
}

mod unseen_cards_and_declarations {
    use super::*;

    #[test]
    fn face_down_cards_settle_by_declaration_and_by_the_cards_shown() {
        let mut t = Table::three();
        t.run("card Ann; card Bob; card Cat; stake Ann=2 Bob=3; card Ann; card Bob; card Cat");
        t.run("card Ann KH; card Ann QS; over Ann");
        t.assert_balances("Ann=-2 Bob=0 Cat=2");
        t.run("content Bob; show Cat 9C 7D; card Cat 2S; content Cat");
        assert_eq!(t.state().phase(), Phase::Showdown, "Bob's cards are unseen");
        assert_eq!(
            t.state().to_show(),
            Some((Seat(1), 1)),
            "Bob's hand is to show"
        );
        t.run("show Bob TH");
        assert_eq!(
            t.state().to_show(),
            Some((Seat(1), 1)),
            "one card still face down"
        );
        t.run("show Bob 9H");
        assert_eq!(t.state().to_show(), None, "the round is settled");
        t.assert_balances("Ann=-2 Bob=3 Cat=-1");
        t.refuse("show Ann 5C", "thrown to the pone unseen");
    }

    #[test]
    fn a_declaration_the_cards_contradict_is_flagged_and_the_cards_are_used() {
        let mut t = Table::three();
        t.run("card Ann; card Bob; card Cat; stake Ann=2 Bob=3; card Ann; card Bob; card Cat");
        t.run("show Ann 5H; card Ann 2C");
        let events = t.run("over Ann");
        assert!(
            events.iter().any(|e| matches!(e, Event::Flagged(_))),
            "5 + 2 + one card cannot be over: {events:?}"
        );
        assert_eq!(
            t.state().turn().map(|(s, _)| s.0),
            Some(0),
            "still Ann's turn"
        );
    }

    #[test]
    fn a_natural_is_declared_at_once_and_checked_when_shown() {
        let mut t = Table::three();
        t.run("card Ann; card Bob; card Cat; stake Ann=2 Bob=3; card Ann; card Bob; card Cat");
        t.run("natural Ann");
        assert_eq!(t.settlements(1), ["Ann:1 +4 misericorde (Cat)"]);
        let events = t.run("show Ann 9H 5C");
        assert!(
            events.iter().any(|e| matches!(e, Event::Flagged(_))),
            "{events:?}"
        );
        t.run("card Bob TC");
        t.refuse("natural Bob", "too late");
        t.run("content Bob");
        t.refuse("natural Cat", "too late");
    }

    #[test]
    fn a_declaration_the_cards_confirm_changes_nothing() {
        let mut t = Table::three();
        t.run("deal Ann=AH Bob=9S Cat=5D; stake Ann=2 Bob=3; deal Ann=KC Bob=8D Cat=QD");
        let events = t.run("natural Ann");
        assert!(events.is_empty());
        t.run("card Bob 9C; over Bob");
        t.assert_balances("Ann=4 Bob=-3 Cat=-1");
    }

    #[test]
    fn the_dealer_declares_his_natural_before_the_players() {
        let mut t = Table::three();
        t.run("card Ann; card Bob; card Cat; stake Ann=2 Bob=3; card Ann; card Bob; card Cat");
        t.run("natural Cat");
        t.assert_balances("Ann=-4 Bob=-6 Cat=10");
    }

    /// The dealer's natural settles at once the hands still face down; a
    /// player who then turns up a natural, or declares it, ties it and gets
    /// back what he paid. A hand turned up that is no natural pays as it did.
    #[test]
    fn a_natural_turned_up_after_the_dealers_ties_it() {
        let mut t = Table::three();
        t.run("card Ann; card Bob; card Cat; stake Ann=2 Bob=3; card Ann; card Bob; card Cat");
        t.run("natural Cat");
        t.run("show Bob KH AH");
        t.assert_balances("Ann=-4 Bob=0 Cat=4");
        t.run("show Ann 9C 7D");
        t.assert_balances("Ann=-4 Bob=0 Cat=4");
        t.refuse("show Bob QS", "thrown to the pone");
        // The dealer's own cards may be turned up too.
        t.run("show Cat AS KD");
        assert_eq!(
            t.settlements(1),
            [
                "Ann:1 -4 dealer_natural (Cat)",
                "Bob:1 -6 dealer_natural (Cat)",
                "Bob:1 +6 natural_shown_ties (Cat)"
            ]
        );

        let mut t = Table::three();
        t.run("card Ann; card Bob; card Cat; stake Ann=2 Bob=3; card Ann; card Bob; card Cat");
        t.run("natural Cat; natural Ann; natural Ann");
        t.assert_balances("Ann=0 Bob=-6 Cat=6");
        // Once the next round is begun, the last one's naturals are too late.
        t.run("card Ann");
        t.refuse("natural Bob", "cannot declare a natural now");
    }
}

mod the_journal {
    use super::*;
    use pone_engine::replay;

    #[test]
    fn undo_takes_back_the_last_command_and_redo_puts_it_back() {
        let mut t = Table::three();
        t.run("deal Ann=9H Bob=8S Cat=7D; stake Ann=2");
        let before = t.state().clone();
        t.run("stake Bob=3");
        let after = t.state().clone();
        t.run("undo");
        assert_eq!(t.state(), &before);
        t.run("redo");
        assert_eq!(t.state(), &after);
        t.refuse("redo", "nothing to redo");
    }

    #[test]
    fn a_correction_replaces_an_earlier_command_with_a_reason() {
        let mut t = Table::three();
        t.run(WORKED_EXAMPLE);
        // The first card dealt Ann 9H; make it a 2H: Ann then holds 10 and the
        // rest of the game still stands.
        let seq = t.game.in_force()[1].0;
        t.run(&format!(
            r#"{{"t":"correct","line":{seq},"with":{{"t":"card","to":"Ann","card":"2H"}},"reason":"misread"}}"#
        ));
        // Round 1: Ann (10) pays 4 to Cat's drawn 21, as before.
        t.assert_balances("Ann=0 Bob=-1 Cat=1");
        assert_eq!(
            t.game.journal().last().map(|e| e.seq),
            Some(t.game.journal().len() as u64 + 2)
        );
        // A correction the later lines cannot stand is refused whole.
        t.refuse(
            &format!(r#"{{"t":"correct","line":{seq},"with":{{"t":"card","to":"Ann","card":"3H"}},"reason":"x"}}"#),
            "breaks line",
        );
    }

    #[test]
    fn the_journal_replays_to_the_same_state() {
        let mut t = Table::three();
        t.run(WORKED_EXAMPLE);
        t.run("undo; undo; redo");
        let text = t.game.journal_text();
        assert!(text.starts_with(r#"{"t":"journal","version":1}"#), "{text}");
        let again = replay(&text).expect("replays");
        assert_eq!(again.sitting().state(), t.state());
        assert_eq!(again.ledger(), t.game.ledger());
    }
}

/// The examples worked in the seed texts themselves.
mod seeds_worked_examples {
    use super::*;
    use pone_engine::hand::Points;

    fn points(t: &Table, seat: u8, hand: usize) -> Points {
        t.hands(seat)[hand].cards.points()
    }

    /// A: "suppose a player receives at first a 4, and then a 9, making 13; he
    /// asks for a third card, and may receive a 7, making his total 20, on which
    /// he would stand. Had his third card been a 9, it would have been an over-draw".
    #[test]
    fn a_four_and_a_nine_then_a_seven_stands_on_twenty_or_a_nine_over_draws() {
        let mut t = Table::three();
        t.run("deal Ann=4H Bob=TS Cat=8D; stake Ann=2 Bob=1; deal Ann=9C Bob=7S Cat=9D");
        assert_eq!(points(&t, 0, 0), Points::Known(13));
        t.run("card Ann 7C; content Ann");
        assert_eq!(points(&t, 0, 0), Points::Known(20));
        let mut t = Table::three();
        t.run("deal Ann=4H Bob=TS Cat=8D; stake Ann=2 Bob=1; deal Ann=9C Bob=7S Cat=9D");
        t.run("card Ann 9H");
        assert_eq!(t.settlements(1), ["Ann:1 -2 over_drawn (Cat)"]);
    }

    /// B: "his hand consists of an ace and a two ... either three or thirteen ...
    /// a second two, making him fifteen ... a seven, making him twenty-two, or
    /// twelve ... a three, making him still only fifteen ... a five, when he of
    /// course stands" (20).
    #[test]
    fn an_ace_and_a_two_drawn_to_twenty() {
        let mut t = Table::three();
        t.run("deal Ann=AH Bob=TS Cat=8D; stake Ann=2 Bob=1; deal Ann=2C Bob=7S Cat=9D");
        assert_eq!(points(&t, 0, 0), Points::Known(13));
        for (card, total) in [("2D", 15), ("7C", 12), ("3S", 15), ("5H", 20)] {
            t.run(&format!("card Ann {card}"));
            assert_eq!(points(&t, 0, 0), Points::Known(total), "after {card}");
        }
        t.run("content Ann; content Bob; content Cat");
        // Cat 17: Ann's 20 wins her stake.
        assert_eq!(t.settlements(1)[0], "Ann:1 +2 higher (Cat)");
    }

    /// C: aces divided, "if by great luck he should successively draw three
    /// tens, or court-cards, thus making three natural Vingt-uns, he would obtain
    /// double stakes upon each ... and should he, on laying his first card, have
    /// cried 'double,' the stakes payable would, in such case, be twice doubled,
    /// therefore upon the three cards twelve-fold" (the house rule that counts
    /// them as naturals).
    #[test]
    fn three_natural_vingt_uns_on_divided_aces_twice_doubled_pay_twelve_fold() {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"divided_natural":"natural"}"#);
        t.run("dealer Cat");
        t.run("deal Ann=AH Bob=TS Cat=8D; stake Ann=1 Bob=1; double; deal Ann=AS Bob=7S Cat=9D");
        t.run("divide Ann 1; card Ann:1 AD; divide Ann:1 1");
        t.run("card Ann:1 KH; card Ann:2 KS; card Ann:3 KD");
        let won: i64 = t.game.ledger().rounds[0]
            .settlements
            .iter()
            .filter(|s| s.player.0 == 0)
            .map(|s| s.amount)
            .sum();
        assert_eq!(won, 12, "twelve times the stake of 1");
    }

    /// A: "it is quite possible for a player to win or lose four times the amount
    /// of the maximum over one hand" (doubled, then a Vingt-un).
    #[test]
    fn a_hand_wins_four_times_the_maximum() {
        let mut t = Table::three();
        t.run("deal Ann=5H Bob=9S Cat=KD; stake Ann=12 Bob=1; double; deal Ann=6C Bob=9D Cat=QD");
        t.run("card Ann TC; content Bob; content Cat");
        assert_eq!(t.settlements(1)[0], "Ann:1 +48 drawn_vingt_un (Cat)");
    }
}

mod dealer_advice {
    use super::*;

    /// The odds of over-drawing are offered at the dealer's turn, never applied,
    /// from the cards not seen since the last shuffle.
    #[test]
    fn the_dealer_is_told_his_odds_of_over_drawing() {
        let mut t = Table::three();
        t.run("deal Ann=TH Bob=9S Cat=8D; stake Ann=2 Bob=1; deal Ann=9C Bob=8H Cat=6C");
        assert!(t.state().advice().is_none(), "not the dealer's turn");
        t.run("content Ann; content Bob");
        let advice = t.state().advice().expect("dealer's turn");
        assert_eq!(advice.points, 14);
        // Seen: TH 9C 9S 8H 8D 6C. Over 21 from 14: an 8, 9 or tenth card.
        // Left: 8s 2, 9s 2, tenth cards 15, of 46 unseen cards.
        assert_eq!(advice.unseen_cards, 46);
        assert!(
            (advice.over_chance - 19.0 / 46.0).abs() < 1e-12,
            "{}",
            advice.over_chance
        );
        // Advice changes nothing: the dealer may still stand on 14.
        t.run("content Cat");
        t.assert_balances("Ann=2 Bob=1 Cat=-3");
    }
}

mod house_rules_file {
    use pone_engine::HouseRules;
    use pone_engine::rules::DealPasses;

    #[test]
    fn house_rules_read_from_the_sittings_toml_with_defaults_for_the_rest() {
        let rules: HouseRules =
            toml::from_str("max_stake = 6\ndeal_passes = \"holder\"\npool = 2\n").expect("TOML");
        assert_eq!(rules.max_stake, 6);
        assert_eq!(rules.deal_passes, DealPasses::Holder);
        assert_eq!(rules.pool, Some(2));
        assert_eq!(rules.natural_pays, 2);
        let err = toml::from_str::<HouseRules>("max_stakes = 6\n").expect_err("typo");
        assert!(err.to_string().contains("max_stakes"), "{err}");
    }
}

/// B's eight-round deal (house rule `eight_round_deal`): one deal of eight
/// rounds, each its own game, worked by hand from the seed text.
mod the_eight_round_deal {
    use super::*;
    use pone_engine::eight::RoundGame;

    /// Ann, Bob and Cat playing the eight-round deal, Cat dealing.
    fn eight() -> Table {
        let mut t = Table::new(&["Ann", "Bob", "Cat"], r#"{"eight_round_deal":true}"#);
        t.run("dealer Cat");
        t
    }

    /// The deal's rounds, one script each (no card twice before the Clock's
    /// fresh pack).
    const ROUNDS: [&str; 8] = [
        // 1. Ordinary: Ann 17 and Bob 16 against Cat's 16.
        "deal Ann=9H Bob=8S Cat=7D; stake Ann=2 Bob=3; deal Ann=8C Bob=8D Cat=9C
         content Ann; content Bob; content Cat",
        // 2. Imaginary Tens: stakes first; Ann's ace is a natural, Bob's 5 is
        // 15 and draws to 19, Cat's king is twenty.
        "stake Ann=2 Bob=1; deal Ann=AS Bob=5H Cat=KD; card Bob 4C; content Bob; content Cat",
        // 3. Blind: Ann draws blind to 24, Bob holds a natural unknowing;
        // Cat stands on 16; the hands are turned up at the end.
        "stake Ann=1 Bob=2; deal Ann=? Bob=? Cat=9S; deal Ann=? Bob=? Cat=7S
         card Ann ?; content Ann; content Bob; content Cat
         show Ann KH 5C 9D; show Bob AH KS",
        // 4. Sympathy and Antipathy: two reds for Ann (sympathy wins), two
        // blacks for Bob (antipathy loses).
        "stake Ann=2 Bob=3; choose Ann sympathy; choose Bob antipathy
         deal Ann=2H Bob=3S; deal Ann=4D Bob=5S",
        // 5. Rouge et Noir: both name red; a heart for Ann, a spade for Bob.
        "stake Ann=1 Bob=1; choose Ann red; choose Bob red; deal Ann=6H Bob=6S",
        // 6. Self and Company: Cat's 7 and the company's ten; a 2, then a
        // ten pairs the company's card.
        "stake Ann=2 Bob=1; deal Cat=7H Cat=TC Cat=2D Cat=TS",
        // 7. Differences: Ann 11 (K, A as one), Bob 5, Cat 15; a counter a point.
        "deal Ann=KC Bob=2C Cat=QD; deal Ann=AD Bob=3C Cat=5D",
        // 8. The Clock, with the full pack shuffled: "one" a two of hearts
        // (seen in round 4, back in the pack), "two" a two: it answers.
        "deal Cat=2H Cat=2D",
    ];

    #[test]
    fn one_deal_plays_the_eight_games_in_the_seed_order_then_passes() {
        let mut t = eight();
        for (script, game) in ROUNDS.iter().zip(pone_engine::eight::EIGHT_ROUNDS) {
            assert_eq!(t.state().game(), game, "the next round's game");
            t.run(script);
            assert_eq!(t.state().phase(), Phase::Between, "{game} is settled");
        }
        let want: [&[&str]; 8] = [
            &["Ann:1 +2 higher (Cat)", "Bob:1 -3 not_higher (Cat)"],
            &["Ann:1 +4 natural (Cat)", "Bob:1 -1 not_higher (Cat)"],
            &["Ann:1 -1 over_drawn (Cat)", "Bob:1 +4 natural (Cat)"],
            &[
                "Ann:1 +2 chose_rightly (Cat)",
                "Bob:1 -3 chose_wrongly (Cat)",
            ],
            &[
                "Ann:1 +1 chose_rightly (Cat)",
                "Bob:1 -1 chose_wrongly (Cat)",
            ],
            &[
                "Ann:1 +2 company_paired (Cat)",
                "Bob:1 +1 company_paired (Cat)",
            ],
            &["Ann:1 -4 difference (Cat)", "Bob:1 -10 difference (Cat)"],
            &["Ann:1 -1 clock_struck (Cat)", "Bob:1 -1 clock_struck (Cat)"],
        ];
        for (round, want) in want.iter().enumerate() {
            assert_eq!(t.settlements(round + 1), *want, "round {}", round + 1);
        }
        t.assert_balances("Ann=5 Bob=-14 Cat=9");
        // Ann's natural in round 2 put nobody out: Cat dealt all eight, and
        // the deal passes to his left.
        assert_eq!(t.dealers(), (vec!["Cat".into(); 8], "Ann".into()));
        assert_eq!(t.state().game(), RoundGame::Ordinary, "a new deal begins");
    }

    #[test]
    fn imaginary_tens_and_blind_take_the_stakes_before_the_cards() {
        let mut t = eight();
        t.run(ROUNDS[0]);
        t.refuse("deal Ann=AS", "every player stakes before the first card");
        t.run("stake Ann=2");
        t.refuse("deal Ann=AS", "no stake yet from Bob");
        t.refuse("stake Cat=2", "Cat is the dealer");
        t.refuse("double", "only in ordinary Vingt-un");
        t.run("stake Bob=1; deal Ann=AS Bob=5H Cat=KD");
        t.refuse("stake Bob=3", "before the cards");
        t.run("card Bob 4C; content Bob; content Cat");
        t.run("stake Ann=1 Bob=2; deal Ann=? Bob=? Cat=9S; deal Ann=? Bob=? Cat=7S");
        t.refuse("over Ann", "does not look at his cards");
        t.refuse("natural Bob", "does not look at his cards");
        t.refuse("divide Ann", "only in ordinary Vingt-un");
    }

    #[test]
    fn blind_hands_are_settled_once_turned_up_and_the_dealers_natural_collects() {
        let mut t = eight();
        t.run(ROUNDS[0]);
        t.run(ROUNDS[1]);
        // The dealer's natural: Ann's natural ties it; Bob's hand pays double.
        t.run("stake Ann=1 Bob=2; deal Ann=? Bob=? Cat=AC; deal Ann=? Bob=? Cat=QC");
        assert_eq!(
            t.state().phase(),
            Phase::Showdown,
            "the players' cards are turned up"
        );
        t.run("show Ann AH KS; show Bob 2S 3D");
        assert_eq!(
            t.settlements(3),
            [
                "Ann:1 +0 natural_ties_natural (Cat)",
                "Bob:1 -4 dealer_natural (Cat)"
            ]
        );
    }

    #[test]
    fn sympathy_waits_for_every_election_and_rouge_et_noir_may_take_three_cards() {
        let mut t = Table::new(
            &["Ann", "Bob", "Cat"],
            r#"{"eight_round_deal":true,"rouge_et_noir_cards":3}"#,
        );
        t.run("dealer Cat");
        for script in &ROUNDS[..3] {
            t.run(script);
        }
        t.run("stake Ann=2 Bob=3; choose Ann sympathy");
        t.refuse("deal Ann=2H", "not yet Bob");
        t.refuse("choose Bob red", "sympathy or antipathy, not red");
        t.run("choose Bob antipathy; deal Ann=2H");
        t.refuse("deal Ann=4D", "the next card goes to Bob");
        t.run("deal Bob=3S Ann=4D Bob=5S");
        // Three cards each, two of three deciding: Ann red, red, black; Bob black, red, red.
        t.run("stake Ann=1 Bob=1; choose Ann red; choose Bob black");
        t.run("deal Ann=6H Bob=6S; deal Ann=7H Bob=QD; deal Ann=JC Bob=8H");
        assert_eq!(
            t.settlements(5),
            [
                "Ann:1 +1 chose_rightly (Cat)",
                "Bob:1 -1 chose_wrongly (Cat)"
            ]
        );
    }

    #[test]
    fn self_and_company_alike_wins_for_the_dealer_and_the_clock_may_pay() {
        let mut t = eight();
        for script in &ROUNDS[..5] {
            t.run(script);
        }
        t.run("stake Ann=2 Bob=1");
        t.refuse("deal Ann=7H", "the next card goes to Cat");
        t.refuse("deal Cat=?", "name the card");
        t.run("deal Cat=7H Cat=7C");
        assert_eq!(
            t.settlements(6),
            [
                "Ann:1 -2 self_and_company_alike (Cat)",
                "Bob:1 -1 self_and_company_alike (Cat)"
            ]
        );
        t.run(ROUNDS[6]);
        t.refuse("stake Ann=1", "nobody stakes");
        // Thirteen cards, none on its call: the dealer pays each the stake.
        t.run(
            "deal Cat=2S Cat=AS Cat=4S Cat=5S Cat=6S Cat=7S Cat=8S Cat=9S Cat=TS Cat=JS \
             Cat=QS Cat=KS Cat=AH",
        );
        assert_eq!(
            t.settlements(8),
            ["Ann:1 +1 clock_silent (Cat)", "Bob:1 +1 clock_silent (Cat)"]
        );
        assert_eq!(t.state().dealer(), Some(Seat(0)), "Ann deals next");
    }

    #[test]
    fn the_eight_round_deal_leaves_out_the_rules_it_cannot_keep() {
        for rules in [
            r#"{"eight_round_deal":true,"rounds_per_deal":3}"#,
            r#"{"eight_round_deal":true,"pool":1}"#,
            r#"{"rouge_et_noir_cards":2}"#,
            r#"{"clock_stake":0}"#,
        ] {
            let rules: pone_engine::HouseRules = serde_json::from_str(rules).expect("rules JSON");
            assert!(rules.validate().is_err(), "{rules:?}");
        }
    }
}

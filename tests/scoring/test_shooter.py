import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.faces import Suit
from scoring.game import Event, IllegalMove
from scoring.replay import replay
from scoring.shooter import Contract, PlayedHand, Shooter
from tests.scoring.golden_logs import golden

FOUR = ("Ana", "Bo", "Cy", "Di")


def bid(player, tricks, trump="H"):
    return Event("bid", {"bid": tricks, "trump": trump} if trump else {"bid": tricks}, player)


def passes(player):
    return Event("pass", {}, player)


def tricks(**taken):
    return Event("tricks", {"tricks": taken})


def played(g, *events):
    for event in events:
        g.apply(event)
    return g


def rejected(g, event, match):
    """The game refuses ``event`` with a message matching ``match`` and changes nothing."""
    before = g.view()
    with pytest.raises(IllegalMove, match=match):
        g.apply(event)
    assert g.view() == before


# -- the sheet's scoring -----------------------------------------------------------------
def test_a_failed_bid_of_4_loses_4():
    g = played(Shooter(FOUR), passes("Bo"), bid("Cy", 4), passes("Di"), passes("Ana"))
    g.apply(tricks(Ana=2, Bo=1, Cy=3, Di=0))
    assert g.totals() == {"Ana": 2, "Bo": 1, "Cy": 3 - 4, "Di": 0}
    assert g.notes[-1] == "Cy bid 4 in hearts, took 3: -1; Ana +2; Bo +1; Di +0"


def test_a_made_bid_scores_its_tricks():
    hand = PlayedHand("Ana", Contract("Bo", 4, Suit.SPADES), {"Ana": 1, "Bo": 5, "Cy": 0, "Di": 0})
    assert hand.scores() == {"Ana": 1, "Bo": 5, "Cy": 0, "Di": 0}


def test_a_moon_gains_12_instead_of_its_tricks():
    g = played(Shooter(FOUR), bid("Bo", 6))  # shooting the moon ends the bidding
    assert g.phase() == "play"
    g.apply(tricks(Ana=0, Bo=6, Cy=0, Di=0))
    assert g.totals()["Bo"] == 12


def test_a_failed_moon_loses_12_and_its_tricks_still_count():
    g = played(Shooter(FOUR), bid("Bo", 6), tricks(Ana=1, Bo=5, Cy=0, Di=0))
    assert g.totals() == {"Ana": 1, "Bo": 5 - 12, "Cy": 0, "Di": 0}


def test_three_players_play_eight_tricks_and_the_moon_is_eight():
    g = Shooter(["Ana", "Bo", "Cy"])
    assert g.tricks_in_hand == 8
    rejected(g, bid("Bo", 9), "3 to 8 tricks, not 9")
    played(g, bid("Bo", 8), tricks(Ana=0, Bo=8, Cy=0))
    assert g.totals()["Bo"] == 12


def test_a_renege_costs_2_at_any_time():
    g = played(Shooter(FOUR), Event("renege", {}, "Di"))  # even during the bidding
    assert g.totals()["Di"] == -2
    assert g.turn() == "Bo"
    assert g.notes == ["Di reneged: -2"]
    assert "renege" in g.allowed()["Ana"]


# -- the deal and the bidding ---------------------------------------------------------------
def test_bidding_starts_left_of_the_dealer_and_everyone_speaks_once():
    g = Shooter(FOUR)
    assert (g.dealer, g.turn()) == ("Ana", "Bo")
    assert g.allowed() == {
        "Ana": ["renege"],
        "Bo": ["bid", "pass", "renege"],  # the moves of the moment first
        "Cy": ["renege"],
        "Di": ["renege"],
    }
    played(g, bid("Bo", 3, None), passes("Cy"), bid("Di", 4, None), passes("Ana"))
    assert g.phase() == "trump"
    assert g.turn() == "Di"
    rejected(g, tricks(Ana=0, Bo=0, Cy=0, Di=6), "Di's bid needs a trump")
    rejected(g, Event("trump", {"trump": "H"}, "Bo"), "it is Di's turn")
    g.apply(Event("trump", {"trump": "diamonds"}, "Di"))
    assert g.details()["trump"] == "diamonds"
    g.apply(tricks(Ana=0, Bo=2, Cy=0, Di=4))
    assert (g.dealer, g.turn()) == ("Bo", "Cy")  # the deal passes to the left


def test_when_everyone_passes_the_next_dealer_deals_again():
    g = played(Shooter(FOUR), *(passes(p) for p in ("Bo", "Cy", "Di", "Ana")))
    assert g.dealer == "Bo"
    assert g.turn() == "Cy"
    assert g.notes == ["everyone passed: Bo deals again"]
    assert g.totals() == dict.fromkeys(FOUR, 0)


def test_the_winning_bid_named_trump_already():
    g = played(Shooter(FOUR), bid("Bo", 3, "S"), bid("Cy", 4, "C"), passes("Di"), passes("Ana"))
    assert g.contract == Contract("Cy", 4, Suit.CLUBS)
    rejected(g, Event("trump", {"trump": "H"}, "Cy"), "trump is already clubs")


def test_after_a_bid_of_three_the_next_must_bid_four_or_more():
    """The sheet: "If the player bids three, the next player must bid four or more." """
    g = played(Shooter(FOUR), bid("Bo", 3))
    rejected(g, bid("Cy", 3), "Bo bid 3: a bid must be more than that")
    played(g, bid("Cy", 4))
    assert (g.high_bid().player, g.high_bid().tricks) == ("Cy", 4)


def test_a_bid_lower_than_the_last_is_refused():
    g = played(Shooter(FOUR), bid("Bo", 4))
    rejected(g, bid("Cy", 3), "Bo bid 4: a bid must be more than that")
    rejected(g, bid("Cy", 4), "Bo bid 4: a bid must be more than that")
    rejected(g, bid("Cy", 2), "3 to 6 tricks, not 2")
    rejected(g, bid("Cy", 7), "3 to 6 tricks, not 7")


def test_bids_out_of_turn_or_malformed_are_refused():
    g = Shooter(FOUR)
    rejected(g, bid("Cy", 3), "Bo's turn")
    rejected(g, Event("bid", {"bid": "four"}, "Bo"), "wrong type")
    rejected(g, bid("Bo", 3, "X"), "unknown trump 'X'")
    rejected(g, tricks(Ana=6, Bo=0, Cy=0, Di=0), "after the bidding")
    played(g, bid("Bo", 6))
    rejected(g, passes("Cy"), "the bidding is closed")


def test_tricks_must_add_up_to_the_deal():
    g = played(Shooter(FOUR), bid("Bo", 3), passes("Cy"), passes("Di"), passes("Ana"))
    rejected(g, tricks(Ana=2, Bo=3, Cy=0, Di=0), "add up to 5, but a hand has 6")
    rejected(g, tricks(Ana=2, Bo=3, Cy=2, Di=0), "add up to 7, but a hand has 6")
    rejected(g, tricks(Ana=3, Bo=3, Cy=0), "every player")
    rejected(g, tricks(Ana=3, Bo=3, Cy=0, Di=0, Ed=0), "every player")
    rejected(g, tricks(Ana=7, Bo=-1, Cy=0, Di=0), "Bo's tricks must be a whole number")


def test_three_or_four_players():
    for players in (["Ana", "Bo"], ["Ana", "Bo", "Cy", "Di", "Ed"]):
        with pytest.raises(IllegalMove, match="3 to 4 players"):
            Shooter(players)


# -- the end ----------------------------------------------------------------------------------
def test_the_first_to_32_wins():
    """ "The first player to reach thirty two points or more wins the game": 31 plays on."""
    g = played(Shooter(FOUR), bid("Bo", 6), tricks(Ana=0, Bo=6, Cy=0, Di=0))  # the moon: 12
    played(g, bid("Cy", 6), tricks(Ana=0, Bo=6, Cy=0, Di=0))  # Cy's moon fails: Bo 18
    played(g, bid("Di", 6), tricks(Ana=0, Bo=6, Cy=0, Di=0))  # 24
    played(g, bid("Ana", 6), tricks(Ana=0, Bo=6, Cy=0, Di=0))  # 30
    played(g, passes("Bo"), bid("Cy", 3), passes("Di"), passes("Ana"), tricks(Ana=0, Bo=1, Cy=5, Di=0))
    assert g.totals()["Bo"] == 31 and not g.finished()
    played(g, passes("Cy"), bid("Di", 3), passes("Ana"), passes("Bo"), tricks(Ana=0, Bo=1, Cy=0, Di=5))
    assert g.totals()["Bo"] == 32 and g.finished() and g.winners() == ["Bo"]


def test_trump_is_not_named_while_the_bidding_is_open():
    rejected(Shooter(FOUR), Event("trump", {"trump": "S"}, "Bo"), "once the bidding is closed")


def test_a_tie_at_the_top_plays_on_and_a_third_player_may_win():
    g = played(Shooter(["Ana", "Bo", "Cy"], {"goal": 4}), bid("Bo", 4), passes("Cy"), passes("Ana"))
    g.apply(tricks(Ana=4, Bo=4, Cy=0))
    assert g.totals() == {"Ana": 4, "Bo": 4, "Cy": 0}
    assert not g.finished()
    played(g, bid("Cy", 8), tricks(Ana=0, Bo=0, Cy=8))  # Cy shoots the moon: 12
    assert g.finished()
    assert g.winners() == ["Cy"]
    assert g.notes[-1] == "Cy reaches 12 and wins"
    rejected(g, Event("renege", {}, "Ana"), "the game is over")


# -- scores are a pure function of the recorded hands ----------------------------------------
@st.composite
def hands(draw):
    """Players, then hands as (bidder seat after the dealer, bid, taker of each trick),
    with reneges (seat) between them."""
    count = draw(st.sampled_from([3, 4]))
    in_hand = 24 // count
    hand = st.tuples(
        st.integers(0, count - 1),
        st.integers(3, in_hand),
        st.lists(st.integers(0, count - 1), min_size=in_hand, max_size=in_hand),
        st.lists(st.integers(0, count - 1), max_size=2),
    )
    return count, draw(st.lists(hand, max_size=12))


def events_for(players, dealer_seat, hand):
    """The events of one hand: everyone passes but the bidder."""
    bidder_seat, tricks_bid, takers, reneges = hand
    events = [Event("renege", {}, players[seat]) for seat in reneges]
    for step in range(len(players)):
        speaker = players[(dealer_seat + 1 + step) % len(players)]
        if step == bidder_seat:
            events.append(bid(speaker, tricks_bid, "S"))
            if tricks_bid == 24 // len(players):
                break  # the moon closes the bidding
        else:
            events.append(passes(speaker))
    taken = Counter(players[seat] for seat in takers)
    events.append(tricks(**{player: taken[player] for player in players}))
    return events


@settings(max_examples=200, deadline=None)
@given(hands())
def test_scores_are_a_pure_function_of_the_recorded_hands(game):
    count, recorded = game
    players = FOUR[:count]
    in_hand = 24 // count
    g = Shooter(players, {"goal": 10_000})
    expected = dict.fromkeys(players, 0)
    log = [Event("start", {"game": "shooter", "players": list(players), "options": {"goal": 10_000}})]
    for number, hand in enumerate(recorded):
        dealer_seat = number % count
        events = events_for(players, dealer_seat, hand)
        for event in events:
            g.apply(event)
        log += events
        bidder_seat, tricks_bid, takers, reneges = hand
        bidder = players[(dealer_seat + 1 + bidder_seat) % count]
        taken = Counter(players[seat] for seat in takers)
        for player in players:
            expected[player] += taken[player]
        if tricks_bid == in_hand:
            expected[bidder] += -taken[bidder] + 12 if taken[bidder] == in_hand else -12
        elif taken[bidder] < tricks_bid:
            expected[bidder] -= tricks_bid
        for seat in reneges:
            expected[players[seat]] -= 2
    assert g.totals() == expected
    # The same hands give the same scores after a round trip through the JSON log...
    numbered = [Event.from_json({**event.to_json(), "seq": seq}) for seq, event in enumerate(log, 1)]
    assert replay(numbered).totals() == expected
    # ...and in any order.
    shuffled = list(g.hands)
    random.Random(len(shuffled)).shuffle(shuffled)
    totals = Counter()
    for hand in shuffled:
        totals.update(hand.scores())
    totals.update({player: -2 * g.reneges.count(player) for player in players})
    assert {player: totals[player] for player in players} == expected


# -- a whole game -----------------------------------------------------------------------------
def test_golden_game():
    """Ana, Bo, Cy: 8 tricks a hand, goal 32.

    1. Ana deals. Bo 4, Cy 5, Ana passes; Cy names spades; tricks 2/3/3: Cy fails 5 (3-5 = -2).
       Ana 2, Bo 3, Cy -2.
    2. Bo deals. Cy passes; Bo reneges (-2); Ana shoots the moon in diamonds (the bidding
       ends) and takes all 8: +12.  Ana 14, Bo 1, Cy -2.
    3. Cy deals; everyone passes; Ana deals again. Bo 3, Cy passes, Ana 4 in hearts; a wrong
       entry of the tricks is undone; 5/2/1: Ana 19, Bo 3, Cy -1.
    4. Bo deals. Cy shoots the moon and takes 7: 7-12 = -5; Ana 1.  Ana 20, Bo 3, Cy -6.
    5. Cy deals. Ana 3, Bo shoots the moon in clubs, takes 8: +12.  Ana 20, Bo 15, Cy -6.
    6. Ana deals. Bo, Cy pass, Ana shoots the moon; Cy reneges (-2); Ana takes 8: +12.
       Ana 32, Bo 15, Cy -8: Ana reaches 32 alone and wins.
    """
    g = replay(golden("shooter.jsonl"))
    assert [sum(hand.scores().values()) for hand in g.hands] == [3, 12, 8, -4, 12, 12]
    assert g.totals() == {"Ana": 32, "Bo": 15, "Cy": -8}
    assert g.finished()
    assert g.winners() == ["Ana"]

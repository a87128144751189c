"""Rules of the base game, each checked on a small hand-built position of the tutorial pack.

Positions are built by setting up a seeded game and then placing cards, cubes and figures by
hand; players are ScriptedBots, so any decision a test did not expect fails it.
"""

from __future__ import annotations

import copy

import pytest

from clankwork.interpreter.catalog import CardDef, Catalog, prepare
from clankwork.interpreter.decisions import ScriptedBot, UnscriptedDecision
from clankwork.interpreter.game import BLACK, Game
from clankwork.interpreter.scoring import score_player
from clankwork.interpreter.state import ESCAPED, KNOCKED_OUT, ON_CLOCK, PlayerState


@pytest.fixture(scope="module")
def cat(tutorial_ir: dict) -> Catalog:
    return prepare(tutorial_ir)


def new_game(cat: Catalog, players: int = 2, seed: int = 0, *scripts: list) -> Game:
    bots = [ScriptedBot(scripts[k] if k < len(scripts) else []) for k in range(players)]
    return Game(cat, bots, seed)


def cards(g: Game, *names: str) -> list[CardDef]:
    return [g.catalog.by_name[n.lower()] for n in names]


def place(g: Game, p: PlayerState, space: str) -> None:
    p.pos = g.board.index[space]


def labels(g: Game, p: PlayerState) -> list[str]:
    from clankwork.interpreter.actions import legal_actions

    return [o.label for o in legal_actions(g, p)]


def clear_area(p: PlayerState) -> None:
    p.supply += p.area
    p.area = 0


def token(g: Game, name: str):
    return next(t for t in g.catalog.tokens if t.name == name)


def start(g: Game, seat: int = 0) -> PlayerState:
    p = g.players[seat]
    g.begin_turn(p)
    return p


# -- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players,rage", [(2, 2), (3, 1), (4, 0)])
def test_setup(cat: Catalog, players: int, rage: int) -> None:
    g = new_game(cat, players, seed=3)
    assert g.rage == rage  # the third, second or first space of the track
    arrived = sum(1 for c in g.row if c.name == "Watcher")  # arrive: each player +1 Clank!
    assert [g.players[s].area - arrived for s in g.order] == [3, 2, 1, 0][:players]
    assert len(g.row) == 6 and not any(c.dragon or c.type == "event" for c in g.row)
    assert len(g.bag) == 24 and all(c == BLACK for c in g.bag)
    for p in g.players:
        assert len(p.hand) == 5 and len(p.deck) == 5 and p.pos == g.board.hq
        assert p.supply + p.area == 30
    b = g.board
    assert g.space_artifact[b.index["Ring Cellar"]].name == "Ring"
    assert g.space_artifact[b.index["Ankh Vault"]].name == "Ankh"
    assert g.space_artifact[b.index["Dragon's Maw"]].name == "Chalice"
    assert len(g.space_tokens[b.index["Goblin Warren"]]) == 1
    assert len(g.space_tokens[b.index["Dragon's Maw"]]) == 1
    assert len(g.major_bank) == 2 and len(g.minor_bank) == 12
    assert sum(g.reserve.values()) == 42 and [c.name for c in g.reserve_monsters] == ["Cultist"]


def test_artifact_without_a_declared_token_is_implicit(tutorial_ir: dict) -> None:
    ir = copy.deepcopy(tutorial_ir)
    ir["tokens"] = [t for t in ir["tokens"] if t["kind"] != "artifact"]
    g = Game(prepare(ir), [ScriptedBot([]), ScriptedBot([])], 1)
    tok = g.space_artifact[g.board.index["Ankh Vault"]]
    assert tok.points == 10 and tok.kind == "artifact" and tok.implicit


def test_starting_row_arrive_texts_happen_before_the_first_turn(tutorial_ir: dict) -> None:
    # Only Watchers in the deck: the whole starting row arrives.
    ir = copy.deepcopy(tutorial_ir)
    ir["cards"] = [c for c in ir["cards"] if c["deck"] != "adventure" or c["name"] == "Watcher"]
    next(c for c in ir["cards"] if c["name"] == "Watcher")["copies"] = 6
    g = Game(prepare(ir), [ScriptedBot([]), ScriptedBot([])], 2)
    assert [c.name for c in g.row] == ["Watcher"] * 6
    assert [g.players[s].area for s in g.order] == [3 + 6, 2 + 6]


# -- the rulebook's example turn -------------------------------------------------------------


def test_example_turn(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    clear_area(p)
    p.hand = cards(g, "Stumble", "Fancy Disguise", "Explore", "Burgle", "Sidestep")
    place(g, p, "Gatehouse")
    g.row[:2] = cards(g, "Dryad", "Sales Call")

    g.act(p, "play Stumble")
    assert p.area == 1
    g.act(p, "play Fancy Disguise")
    assert p.area == 0 and p.clank_debt == 1  # one -1 Clank! left over for later
    for name in ("Explore", "Burgle", "Sidestep"):
        g.act(p, f"play {name}")
    assert (p.skill, p.boots) == (3, 3)

    p.swords = 2  # the example's two swords come from elsewhere
    assert "fight Dryad" not in labels(g, p)  # a Dryad is only fought in a forest
    g.act(p, "move to Mossy Path")
    g.act(p, "move to Whispering Wood")  # a forest: exhausted
    assert p.boots == 1 and p.exhausted
    assert not any(lab.startswith("move") for lab in labels(g, p))

    g.act(p, "fight Dryad")
    assert p.skill == 5 and g.adventure_discard[-1].name == "Dryad"
    g.act(p, "acquire Sales Call")
    assert p.skill == 0 and p.discard[-1].name == "Sales Call"
    assert len(g.row) == 4  # no refill until the end of the turn

    g.gain(p, "clank", 1)  # the left-over -1 cancels later Clank! this turn
    assert p.area == 0 and p.clank_debt == 0

    assert "end turn" in labels(g, p)
    g.end_turn(p)
    assert len(p.hand) == 5 and not p.play and len(g.row) == 6


def test_end_turn_needs_an_empty_hand(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    assert "end turn" not in labels(g, p)
    while p.hand:
        g.act(p, f"play {p.hand[0].name}")
    assert "end turn" in labels(g, p)


# -- Clank! -----------------------------------------------------------------------------------


def test_clank_is_skipped_when_the_supply_is_empty(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    p.area += p.supply
    p.supply = 0
    before = p.area
    g.gain(p, "clank", 2)
    assert p.area == before and p.supply == 0


def test_negative_clank_is_lost_at_the_end_of_the_turn(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    clear_area(p)
    g.gain(p, "clank", -2)
    assert p.clank_debt == 2
    p.hand = []
    g.end_turn(p)
    g.begin_turn(p)
    g.gain(p, "clank", 1)
    assert p.area == 1


# -- cards: "regardless of order", prices -------------------------------------------------------


def test_freelance_cleric_counts_a_companion_played_after_it(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    p.hand = cards(g, "Freelance Cleric", "Mercenary")
    g.act(p, "play Freelance Cleric")
    assert p.skill == 2  # the Cleric itself is not "another" companion
    g.act(p, "play Mercenary")
    assert p.skill == 4 + 1  # the Cleric's 4 (rulebook: "a total of 4 Skill"), the Mercenary's 1


def test_two_clerics_count_each_other(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    p.hand = cards(g, "Freelance Cleric", "Freelance Cleric")
    g.act(p, "play Freelance Cleric")
    g.act(p, "play Freelance Cleric")
    assert p.skill == 8


def test_play_if_fires_once_when_the_condition_comes_true(cat: Catalog) -> None:
    # Wand of Recall: "play if you have an artifact: teleport" fires when the artifact is taken.
    g = new_game(cat, 2, 0, ["teleport to Whispering Wood"])
    p = start(g)
    p.hand = cards(g, "Wand of Recall")
    place(g, p, "Ring Cellar")
    g.act(p, "play Wand of Recall")
    assert p.pos == g.board.index["Ring Cellar"] and p.pending
    g.act(p, "take Ring")
    assert p.pos == g.board.index["Whispering Wood"] and not p.pending


def test_consultant_with_an_empty_hand_draws_nothing(cat: Catalog) -> None:
    g = new_game(cat)  # no scripted answers: any decision fails the test
    p = start(g)
    p.hand = cards(g, "Consultant")
    deck = list(p.deck)
    g.act(p, "play Consultant")
    assert p.skill == 1 and p.hand == [] and p.deck == deck


def test_consultant_discards_to_draw_two(cat: Catalog) -> None:
    g = new_game(cat, 2, 0, ["yes"])
    p = start(g)
    p.hand = cards(g, "Consultant", "Stumble")
    p.deck = cards(g, "Burgle", "Burgle", "Burgle")
    g.act(p, "play Consultant")
    assert [c.name for c in p.hand] == ["Burgle", "Burgle"]
    assert p.discard[-1].name == "Stumble" and p.area == g.players[0].area


def test_choose_one_asks_the_player(cat: Catalog) -> None:
    g = new_game(cat, 2, 0, ["heal 1"])
    p = start(g)
    p.hand = cards(g, "Hidden Shrine")
    g.take_damage(p, 2)
    g.act(p, "play Hidden Shrine")
    assert p.damage == 1 and p.gold == 0


def test_unscripted_decision_fails(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    p.hand = cards(g, "Hidden Shrine")
    with pytest.raises(UnscriptedDecision):
        g.act(p, "play Hidden Shrine")


def test_each_opponent_skips_players_off_the_clock(cat: Catalog) -> None:
    g = new_game(cat, 3)
    p = g.players[g.order[0]]
    g.begin_turn(p)
    others = [g.players[s] for s in g.order[1:]]
    others[1].status = ESCAPED
    before = [o.area for o in others]
    p.hand = cards(g, "Tattle")
    g.act(p, "play Tattle")
    assert [o.area for o in others] == [before[0] + 1, before[1]]


def test_draw_reshuffles_the_discard_pile_but_never_the_play_area(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    p.deck, p.hand = [], []
    p.discard = cards(g, "Burgle")
    p.play = cards(g, "Explore")
    g.draw(p, 2)
    assert [c.name for c in p.hand] == ["Burgle"] and [c.name for c in p.play] == ["Explore"]


def test_trash_from_discard_or_play_area(cat: Catalog) -> None:
    g = new_game(cat, 2, 0, ["trash Stumble from play area"])
    p = start(g)
    p.discard = cards(g, "Burgle")
    p.play = cards(g, "Stumble")
    g.trash(p, 1)
    assert not p.play and [c.name for c in g.trashed] == ["Stumble"]
    g.trash(p, 1, "Stumble")  # none left: nothing happens, no decision
    assert len(g.trashed) == 1


# -- acquire and fight ---------------------------------------------------------------------------


def test_acquire_trigger_and_reserve_supply(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    g.row[0] = cards(g, "Silver Spear")[0]
    p.skill = 3 + 2 * 15
    g.act(p, "acquire Silver Spear")
    assert p.swords == 1  # its Acquire text
    for _ in range(15):
        g.act(p, "acquire Mercenary (reserve)")
    assert g.reserve[g.catalog.by_name["mercenary"]] == 0
    assert "acquire Mercenary (reserve)" not in labels(g, p)


def test_the_reserve_monster_is_never_used_up(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    p.swords = 6
    for _ in range(3):
        g.act(p, "fight Cultist (reserve)")
    assert p.gold == 3 and p.swords == 0


# -- movement -------------------------------------------------------------------------------------


def test_hq_only_with_an_artifact_and_escape(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    place(g, p, "Gatehouse")
    p.boots = 1
    p.hand = []
    assert "move to HQ" not in labels(g, p)
    p.artifact = token(g, "Ring")
    g.space_artifact[g.board.index["Ring Cellar"]] = None
    g.act(p, "move to HQ")
    assert p.escaping and p.on_clock
    g.end_turn(p)
    assert p.status == ESCAPED and p.area == 0
    assert [t.name for t in p.tokens] == ["Mug"]
    assert score_player(g, p)[0] == 5 + 20 + sum(c.points for c in p.cards())


def test_monster_paths_swords_and_voluntary_damage(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    place(g, p, "Old Bridge")
    p.boots, p.swords = 1, 1
    moves = [lab for lab in labels(g, p) if "Bramblecrest" in lab]
    assert moves == [
        "move to Bramblecrest (1 swords, 0 damage)",
        "move to Bramblecrest (0 swords, 1 damage)",
    ]
    g.take_damage(p, 9)  # one from a full meter: no voluntary damage now
    moves = [lab for lab in labels(g, p) if "Bramblecrest" in lab]
    assert moves == ["move to Bramblecrest (1 swords, 0 damage)"]
    p.swords = 0
    assert not [lab for lab in labels(g, p) if "Bramblecrest" in lab]


def test_water_needs_a_canoe_and_one_way_paths(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    place(g, p, "Fisher's Rest")
    p.boots = 2
    assert "move to Mirror Lake" not in labels(g, p)
    p.tokens.append(token(g, "Canoe"))
    assert "move to Mirror Lake" in labels(g, p)
    place(g, p, "Lookout")
    assert [lab for lab in labels(g, p) if lab.startswith("move")] == ["move to Fisher's Rest"]
    place(g, p, "Old Bridge")
    assert "move to Lookout" in labels(g, p)


def test_forest_stops_boots_but_not_teleport(cat: Catalog) -> None:
    g = new_game(cat, 2, 0, ["teleport to Ring Cellar"])
    p = start(g)
    place(g, p, "Mossy Path")
    p.boots = 3
    g.act(p, "move to Whispering Wood")
    assert p.exhausted and p.gold == 2  # the wood's reward
    g.teleport(p)
    assert p.pos == g.board.index["Ring Cellar"] and p.exhausted
    assert not any(lab.startswith("move") for lab in labels(g, p))


def test_rewards_once_per_turn_per_space(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    place(g, p, "Bramblecrest")
    p.boots = 3
    hand = len(p.hand)
    g.act(p, "move to Crossroads")
    g.act(p, "move to Bramblecrest")
    g.act(p, "move to Crossroads")
    assert len(p.hand) == hand + 1


def test_major_secret_space_gives_its_token_only(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    warren = g.board.index["Goblin Warren"]
    place(g, p, "Crossroads")
    p.boots = 1
    secret = g.space_tokens[warren][0]
    bank = list(g.major_bank)
    g.act(p, "move to Goblin Warren")
    assert g.space_tokens[warren] == [] and g.major_bank == bank
    assert secret in p.tokens or secret in g.box
    p.hand = []
    g.end_turn(p)
    g.begin_turn(p)
    place(g, p, "Crossroads")
    p.boots, tokens = 1, list(p.tokens)
    g.act(p, "move to Goblin Warren")
    assert p.tokens == tokens and g.major_bank == bank


def test_coach_costs_a_boot_and_both_spaces_gold(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    place(g, p, "Bramblecrest")
    p.boots, p.gold = 1, 7
    assert "hire a coach to Lakeshore" not in labels(g, p)
    p.gold = 8
    g.act(p, "hire a coach to Lakeshore")
    assert (p.boots, p.gold, p.pos) == (0, 0, g.board.index["Lakeshore"])


def test_gold_tokens_pay_like_gold(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    place(g, p, "Lakeshore")
    p.boots, p.gold = 1, 4
    p.tokens.append(token(g, "Greater Treasure"))
    assert g.gold_of(p) == 9
    g.act(p, "hire a coach to Bramblecrest")
    assert p.gold == 1 and p.tokens == []  # 4 coins and the 5-gold token, 1 gold change


# -- market and artifacts ----------------------------------------------------------------------


def test_market_one_per_type_best_crown_first(cat: Catalog) -> None:
    g = new_game(cat)
    p, q = g.players
    g.begin_turn(p)
    place(g, p, "Bramblecrest")
    p.gold = 14
    g.act(p, "buy Crown")
    assert p.gold == 7 and [t.name for t in p.tokens] == ["Crown"]
    assert not any("Crown" in lab for lab in labels(g, p))  # one crown each
    assert "buy Canoe" in labels(g, p)
    g.begin_turn(q)
    place(g, q, "Bramblecrest")
    q.gold = 7
    g.act(q, "buy Small Crown")
    place(g, q, "Crossroads")
    q.gold = 7
    assert not any(lab.startswith("buy") for lab in labels(g, q))  # towns only


def test_take_artifact_raises_rage_one_only(cat: Catalog) -> None:
    g = new_game(cat, 4)
    p = start(g)
    place(g, p, "Ring Cellar")
    g.act(p, "take Ring")
    assert g.rage == 1 and p.artifact.name == "Ring"
    place(g, p, "Ankh Vault")
    assert "take Ankh" not in labels(g, p)
    g.advance_rage(10)
    assert g.rage == 6  # the top of the track


# -- the dragon, damage, the end ---------------------------------------------------------------


def _no_danger_row(g: Game) -> None:
    g.row[:] = cards(
        g, "Tattle", "Consultant", "Lucky Coin", "Elven Boots", "Fancy Disguise", "Sales Call"
    )


def test_dragon_attack_draws_the_rage_value(cat: Catalog) -> None:
    g = new_game(cat, 4)
    _no_danger_row(g)
    g.rage = 4  # the fifth space: 4 cubes
    for p in g.players:
        clear_area(p)
    green, yellow = g.players[0], g.players[1]
    g.gain(green, "clank", 1)
    g.gain(yellow, "clank", 2)
    g.dragon_attack()
    assert green.area == yellow.area == 0
    drawn = g.black_aside + sum(p.damage for p in g.players)
    assert drawn == 4 and len(g.bag) == 24 + 3 - 4
    g.row[0] = cards(g, "Ogre")[0]  # a danger card adds a cube
    g.dragon_attack()
    assert g.black_aside + sum(p.damage for p in g.players) == 4 + 5


def test_refill_arrive_then_one_attack_for_new_dragon_cards_only(cat: Catalog) -> None:
    g = new_game(cat, 2)
    p, q = g.players[g.order[0]], g.players[g.order[1]]
    g.begin_turn(p)
    p.hand = []
    for x in (p, q):
        clear_area(x)
    _no_danger_row(g)
    g.row.pop()
    g.row.pop()
    g.adventure_deck += cards(g, "Goblin", "Watcher")  # Watcher on top, then the Goblin
    g.end_turn(p)
    assert g.row[-2].name == "Watcher" and g.row[-1].name == "Goblin"
    # The Watcher's arrive (+1 Clank! each) happened, then the Goblin's attack moved it to the bag.
    assert p.area == q.area == 0
    drawn = g.black_aside + p.damage + q.damage
    assert drawn == 3  # rage space 3 with two players
    assert len(g.bag) == 24 + 2 - drawn
    # The Goblin stays in the row: no new attack when a plain card is added.
    g.row.pop(0)
    g.adventure_deck += cards(g, "Tattle")
    g.begin_turn(q)
    q.hand = []
    bag = len(g.bag)
    g.end_turn(q)
    assert len(g.bag) == bag


def test_events_resolve_and_are_discarded(tutorial_ir: dict) -> None:
    ir = copy.deepcopy(tutorial_ir)
    ir["cards"].append(
        {
            "name": "Cave-in",
            "deck": "adventure",
            "type": "event",
            "copies": 1,
            "points": 0,
            "tags": [],
            "dragon": False,
            "danger": False,
            "triggers": [
                {"on": "arrive", "effects": [{"op": "gain", "amount": 2, "resource": "clank"}]}
            ],
        }
    )
    g = Game(prepare(ir), [ScriptedBot([]), ScriptedBot([])], 5)
    assert all(c.name != "Cave-in" for c in g.row)
    p = g.players[g.order[0]]
    g.begin_turn(p)
    clear_area(p)
    p.hand = []
    g.row.pop()
    g.adventure_deck.remove(g.catalog.by_name["cave-in"])
    g.adventure_deck += [cards(g, "Tattle")[0], g.catalog.by_name["cave-in"]]
    g.end_turn(p)
    assert g.row[-1].name == "Tattle" and g.adventure_discard[-1].name == "Cave-in"
    assert p.area == 2


def test_full_health_meter_knocks_out(cat: Catalog) -> None:
    g = new_game(cat)
    p = start(g)
    g.take_damage(p, 10)
    assert p.status == KNOCKED_OUT and p.damage == 10
    assert not g.can_take_damage(g.players[1], 10)
    g.heal(g.players[1], 3)  # nothing to heal
    assert g.players[1].damage == 0


def test_knocked_out_scores_nothing_without_artifact_or_in_the_danger_zone(cat: Catalog) -> None:
    g = new_game(cat)
    p = g.players[0]
    p.status = KNOCKED_OUT
    p.gold = 10
    assert score_player(g, p)[0] == 0
    p.artifact = token(g, "Chalice")
    place(g, p, "Deep Hollow")
    assert score_player(g, p)[0] == 0
    place(g, p, "Crossroads")
    assert score_player(g, p)[0] == 20 + 10 + sum(c.points for c in p.cards())


@pytest.mark.parametrize("players,draw", [(2, 6), (4, 4)])
def test_off_the_clock_turn_draws_exactly(cat: Catalog, players: int, draw: int) -> None:
    g = new_game(cat, players)
    for p in g.players:
        clear_area(p)
    off = g.players[g.order[0]]
    off.status = ESCAPED
    g.rage = 6
    g.take_turn(off)
    assert g.black_aside == draw and len(g.bag) == 24 - draw


def test_empty_bag_after_an_attack_ends_the_game(cat: Catalog) -> None:
    g = new_game(cat, 3)
    for p in g.players:
        clear_area(p)
    g.players[0].status = ESCAPED
    g.players[0].artifact = token(g, "Ring")
    g.bag = [BLACK, BLACK]
    g.black_aside = 22
    g.dragon_attack()
    assert g.over and g.end_reason == "dragon bag empty"
    assert [p.status for p in g.players] == [ESCAPED, KNOCKED_OUT, KNOCKED_OUT]
    assert g.result is not None and g.result.winners == (0,)
    assert g.log[-1]["type"] == "result"


def test_ties_go_to_the_most_valuable_artifact(cat: Catalog) -> None:
    g = new_game(cat, 2)
    a, b = g.players
    for p in g.players:
        p.status = ESCAPED
        p.deck = p.hand = p.discard = []
    a.artifact, a.gold = token(g, "Ring"), 15
    b.artifact, b.gold = token(g, "Chalice"), 0
    g._finish("test")
    assert g.result.scores == (20, 20) and g.result.winners == (1,)


def test_round_cap_is_flagged(cat: Catalog) -> None:
    g = Game(
        cat,
        [ScriptedBot([], fallback=_Idle()), ScriptedBot([], fallback=_Idle())],
        1,
        rules={"round_cap": 3},
    )
    r = g.play()
    assert r.capped and r.rounds == 3 and r.end_reason == "round cap"
    assert all(s == ON_CLOCK for s in r.status)


class _Idle:
    """Plays its cards and ends the turn, never moving."""

    name = "idle"

    def choose(self, view, decision) -> int:
        if decision.kind != "action" or decision.options[0].value[0] == "play":
            return 0
        return len(decision.options) - 1


def test_a_choice_does_not_offer_a_price_that_cannot_be_paid() -> None:
    """`choose one (pay 2 gold -> heal 1 | +1 skill)` with no gold: only the skill is left, so
    nobody is asked; with the gold both are offered."""
    from clankwork.dsl.compiler import compile_text

    result = compile_text(
        """
        pack c { version "1" }
        card Burgle { starting 10; play: +1 skill }
        card Offer { cost 1; play: choose one (spend 2 gold -> heal 1 | +1 skill) }
        token Relic { artifact; points 5 }
        board b {
          space HQ { hq }
          space Far { artifact 5 }
          path HQ -- Far
        }
        """,
        "c.clank",
    )
    assert result.ok, [d.message for d in result.diagnostics]
    cat = prepare(result.ir)
    g = new_game(cat)
    p = start(g)
    offer = cat.by_name["offer"]
    p.hand = [offer]
    g.act(p, "play Offer")  # unscripted: a decision here would raise
    assert p.skill == 1
    g = new_game(cat, 2, 0, ["pay 2 Gold to heal 1"])
    p = start(g)
    p.gold, p.hand = 2, [offer]
    g.take_damage(p, 1)
    g.act(p, "play Offer")
    assert p.damage == 0 and p.gold == 0

"""The heuristic bot values what a pack adds through the records, with no code that names it:
ways paid in another resource than boots (a rope climbed with a special move), entry tolls (a
guard fought with swords or passed with damage), tokens taken on entering a space (a study
token the player lacks, a choice of tokens elsewhere), and market items for what their own
actions do. The Forgotten Vault (content/vault) has all four."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.actions import BUY, END_TURN, ActionKind, legal_actions
from clankwork.interpreter.bot_routes import _board_info, _Routes
from clankwork.interpreter.bot_values import _UNKNOWN_UNIT
from clankwork.interpreter.bots import HeuristicBot, make_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.decisions import Decision, Option
from clankwork.interpreter.effects.registry import EFFECTS, Valuer
from clankwork.interpreter.game import Game
from clankwork.interpreter.state import Ctx
from clankwork.interpreter.stats import GameStats
from clankwork.tools.simulate import bot_seed, game_seeds

ROOT = Path(__file__).resolve().parents[2]
MOVES = "special moves"


@pytest.fixture(scope="module")
def vault_ir() -> dict:
    result = compile_pack(ROOT / "content" / "vault")
    assert result.ok, result.diagnostics
    return result.ir


@pytest.fixture(scope="module")
def ropes(vault_ir: dict) -> Catalog:
    return prepare(vault_ir, "ropes")


def _game(cat: Catalog, seed: int = 3) -> tuple[Game, HeuristicBot]:
    bot = HeuristicBot(1)
    g = Game(cat, [bot, make_bot("heuristic", 2)], seed)
    return g, bot


def _at(g: Game, name: str) -> int:
    return g.board.index[name]


def test_a_way_paid_in_another_resource_is_priced_by_how_soon_the_player_has_some(
    ropes: Catalog,
) -> None:
    board = ropes.board
    one, eleven = board.index["Room 1"], board.index["Room 11"]
    walking = _Routes(board, frozenset(), 0.25)
    holding = _Routes(board, frozenset(), 0.25, paid=frozenset({(MOVES, 1.0)}))
    waiting = _Routes(board, frozenset(), 0.25, paid=frozenset({(MOVES, 3.0)}))
    # Room 1 to the Swords study room: two tunnels past two monster icons, or one rope.
    assert walking.step[eleven][one].way.paid_in == "boots"
    assert holding.step[eleven][one].way.paid_in == MOVES
    assert holding.cost[eleven][one] == 1.0
    assert holding.cost[eleven][one] < waiting.cost[eleven][one] <= walking.cost[eleven][one]


def test_the_price_of_a_special_move_follows_the_pool_and_the_deck(ropes: Catalog) -> None:
    g, bot = _game(ropes)
    p = g.players[0]
    bot._begin(g, p)
    price = dict(bot._paying(g, p))
    # Clang! is one card in ten: a turn brings a special move about two times in five.
    assert 2.0 <= price[MOVES] <= HeuristicBot.WAY_WAIT
    g.gain(p, MOVES, 1)
    assert dict(bot._paying(g, p))[MOVES] == 1.0


def test_a_live_toll_counts_on_routes_until_its_guard_is_gone(ropes: Catalog) -> None:
    g, bot = _game(ropes)
    p = g.players[0]
    perch = _at(g, "Room 7")
    bot._begin(g, p)
    live = bot._live_tolls(g, p)
    assert perch in live and len(live) == 5  # five perches, one gargoyle each
    info = _board_info(g)
    assert info.toll_hurt[perch] == 1 and info.toll_swords[perch] == 3
    two = _at(g, "Room 2")
    calm = info.table(frozenset(), 1.0)
    wary = info.table(frozenset(), 1.0, tolls=live)
    assert wary.icons[perch][two] == calm.icons[perch][two] + 1
    g.space_tokens[perch].clear()
    assert perch not in bot._live_tolls(g, p)


def test_the_bot_fights_a_guard_with_the_swords_and_keeps_them_for_it(ropes: Catalog) -> None:
    g, bot = _game(ropes)
    p = g.players[0]
    p.pos = _at(g, "Room 2")
    p.hand = []
    bot._begin(g, p)
    perch = _at(g, "Room 7")
    # Entering with three swords: beating the gargoyle is worth more than the damage.
    p.swords = 3
    assert bot._toll_cost(p, perch, 3) < 0 < bot._toll_cost(p, perch, 2)
    # Walking into the perch this turn, the bot keeps the three swords for it.
    bot.waypoint, bot._detoured = perch, True
    p.boots = 1
    assert bot._icons_ahead(g, p) == 3
    assert bot._icons_ahead(g, p, tolls=False) == 0
    # On entry, it is asked and answers with the fight.
    g.active = p
    g.enter(p, perch)
    assert any(t.type == "gargoyle" for t in p.tokens) and p.damage == 0 and p.swords == 0


def test_entering_a_space_that_gives_a_token_the_player_lacks_is_worth_a_step(
    ropes: Catalog,
) -> None:
    g, bot = _game(ropes)
    p = g.players[0]
    bot._begin(g, p)
    info = _board_info(g)
    skill, wild = _at(g, "Room 4"), _at(g, "Room 13")
    assert skill in info.entry_hooks and wild in info.entry_hooks
    worth = bot._entry_gain(g, p, skill, info.entry_hooks[skill])
    assert worth > 1.0  # a point at the end, and skill on each turn with a Secret Tome
    # Holding one, the room gives nothing; the wild room gives one of the two types left.
    p.pos = skill
    g.take_here(p, "Skill Study Token")
    assert bot._entry_gain(g, p, skill, info.entry_hooks[skill]) == 0
    assert bot._entry_gain(g, p, wild, info.entry_hooks[wild]) > 0
    for room, name in (("Room 11", "Swords Study Token"), ("Room 20", "Boot Study Token")):
        p.pos = _at(g, room)
        g.take_here(p, name)
    assert bot._entry_gain(g, p, wild, info.entry_hooks[wild]) == 0


def test_a_token_is_worth_what_holding_it_brings(ropes: Catalog) -> None:
    g, bot = _game(ropes)
    bot._begin(g, g.players[0])
    assert bot.token("Monkey Idol") == 5.0
    assert bot.token("Skill Study Token") > 1.0
    # A secret drawn at random: the mean of the pile, not its best.
    assert 0 < bot.token("minor") < 3.0

    class Plain(Valuer):
        def unit(self, key: str) -> float:
            return {"token": 1.0, "minor secret": 2.0}.get(key, 0.0)

    assert Plain().token("Monkey Idol") == 1.0 and Plain().token("minor") == 2.0


def test_a_market_item_is_worth_what_its_action_saves(ropes: Catalog) -> None:
    g, bot = _game(ropes)
    p = g.players[0]
    hook = next(t for t in ropes.tokens if t.kind == "market" and t.actions)
    crown = next(t for t in ropes.tokens if t.kind == "market" and not t.actions)
    p.pos = _at(g, "Room 17")  # a market; the way home is shorter up a rope
    p.hand = []
    p.artifact = next(t for t in ropes.tokens if t.kind == "artifact")
    p.gold = g.rules["market_price"]
    for t in ropes.tokens:
        if t.kind == "market" and t is not hook:
            g.token_supply[t] = 0
    bot._begin(g, p)
    assert bot._item_worth(g, p, hook) > 0 == bot._item_worth(g, p, crown)
    opts = [o for o in legal_actions(g, p) if o.value[0] in (BUY, END_TURN)]
    pick = bot.choose(g, Decision(p.seat, "action", opts))
    assert opts[pick].value[0] is BUY and opts[pick].value[2] is hook


def test_taking_a_token_here_is_payable_only_while_one_lies_here(ropes: Catalog) -> None:
    g, _ = _game(ropes)
    p = g.players[0]
    room = g.board.spaces[_at(g, "Room 4")]
    node = {"op": "take_here", "what": "Skill Study Token"}
    can = EFFECTS["take_here"].can_pay
    assert can(g, Ctx(p, room), node)
    g.space_tokens[room.index].clear()
    assert not can(g, Ctx(p, room), node)


def test_the_token_taken_from_another_room_is_the_one_worth_most(ropes: Catalog) -> None:
    g, bot = _game(ropes)
    p = g.players[0]
    g.active = p
    bot._begin(g, p)
    asked = []
    real = bot.choose

    def spy(view, decision):
        if decision.kind == "choose":
            asked.append(decision)
        return real(view, decision)

    bot.choose = spy
    p.pos = _at(g, "Room 13")
    g.run(Ctx(p, g.board.spaces[p.pos]), [{"op": "take_elsewhere", "what": "study"}])
    (decision,) = asked
    values = [bot.effects(o) for o in decision.detail["options"]]
    taken = [t for t in p.tokens if t.type == "study"]
    assert len(taken) == 1
    assert bot.token(taken[0].name) == max(values)


@pytest.mark.parametrize("board", ["ropes", "clock"])
def test_bots_climb_study_fight_and_buy_hooks_in_vault_games(vault_ir: dict, board: str) -> None:
    cat = prepare(vault_ir, board)
    got: Counter[str] = Counter()
    moves = 0
    for seed in game_seeds(4, 12):
        stats = GameStats.for_game(cat, 4)
        g = Game(
            cat, [make_bot("heuristic", bot_seed(seed, k)) for k in range(4)], seed, stats=stats
        )
        g.play()
        assert not g.result.capped
        for seat in stats.tokens:
            for name, n in seat.items():
                tok = next(t for t in cat.tokens if t.name == name)
                got[tok.type] += n
        moves += sum(
            n
            for (a, b), n in stats.paths.items()
            if any(m.to == b and m.way.paid_in == MOVES for m in g.board.moves[a])
        )
    assert moves >= 12  # ropes or swings, a move a game at least
    assert got["study"] >= 12 * 4  # a study token a player
    assert got["gargoyle"] >= 3  # some gargoyles beaten
    assert got["grappling hook"] >= 1  # somebody buys the hook


def test_a_card_that_gives_a_way_resource_is_worth_most_of_a_boot_while_ways_help(
    ropes: Catalog,
) -> None:
    """A card's profile counts a special move as a little of anything (an unknown unit);
    the bot values it at most of a boot while a rope shortens its trip."""

    g, bot = _game(ropes)
    p = g.players[0]
    bot._begin(g, p)
    grapnel = next(c for c in ropes.cards if c.name == "Grapnel Line")
    profile = sum(a * bot.w[i] for i, a in bot.info.profile_terms(grapnel))
    plan = bot._way_plan(MOVES)
    assert plan == pytest.approx(0.8 * bot.boot_value)  # from Start, a rope shortens the trip
    assert plan > _UNKNOWN_UNIT
    assert bot.power(grapnel) == pytest.approx(profile + plan - _UNKNOWN_UNIT)


def test_the_card_kept_in_play_for_another_turn_is_the_one_worth_most(ropes: Catalog) -> None:
    """`keep another card you played in play for your next turn` shows the bots each card's
    play lines: the heuristic bot keeps the one that will give most again."""
    g, bot = _game(ropes)
    p = g.players[0]
    g.active = p
    bot._begin(g, p)
    cards = {c.name: c for c in ropes.cards}
    p.hand = [cards["Burgle"], cards["Silver Spear"], cards["Tuning Fork"]]
    for name in ("Burgle", "Silver Spear", "Tuning Fork"):
        g.play_card(p, cards[name])
    burgle = bot.effects([e for _, eff in cards["Burgle"].play for e in eff])
    spear = bot.effects([e for _, eff in cards["Silver Spear"].play for e in eff])
    assert spear > burgle  # three Swords against one Skill
    # Burgle is the first option (it was played first); the Spear is kept.
    assert [c.name for c in p.staying] == ["Silver Spear"]


class _NewKind(ActionKind):
    """An action kind no bot has a rule for (one a designer adds to the engine)."""

    name, verb = "rest", "rest"

    def __init__(self, worth: float) -> None:
        self.worth = worth

    def appraise(self, value: tuple, v: Valuer) -> float:
        return self.worth


@pytest.mark.parametrize("bot", ["heuristic", "greedy"])
def test_an_action_kind_no_bot_was_taught_is_taken_by_its_appraisal(
    tutorial_ir: dict, bot: str
) -> None:
    """Bots choose among the kinds they have rules for; a kind added later is taken when its
    own appraisal says it is worth something (the best of them), and left when it is not."""
    cat = prepare(tutorial_ir, 0)
    player = make_bot(bot, 1)
    g = Game(cat, [player, make_bot(bot, 2)], 3)
    p = g.players[0]
    p.hand = []
    for worth, want in ((0.5, 1), (-0.5, 0), (0.0, 0)):
        kinds = (_NewKind(worth), _NewKind(worth / 2))
        opts = [
            Option("end turn", (END_TURN,)),
            Option("rest", (kinds[1],)),
            Option("rest well", (kinds[0],)),
        ]
        groups = {END_TURN: [0], kinds[1]: [1], kinds[0]: [2]}
        got = player.choose(g, Decision(0, "action", opts, detail=groups))
        assert got == (2 if want else 0), (bot, worth)


def test_a_token_whose_points_count_something_is_worth_them(tmp_path: Path) -> None:
    """A token taken as a reward (`take "Guardian's Cog"`) whose points count what the player
    holds (`points 1 per cog you hold`) is worth those points as the player would stand
    holding it: with two cogs held, a third counts 3 (it was worth 0, so the bots never
    fought for one)."""
    (tmp_path / "pack.clank").write_text(
        'pack cogs { version "0.1.0"; extends clank }\n'
        "token Cog { count 5; type cog; points 1 per cog you hold }\n"
        'token "Guardian\'s Cog" { count 1; type cog; points 1 per cog you hold }\n'
        'reserve "Bronze Guardian" { fight 3; defeat: take "Guardian\'s Cog" }\n',
        encoding="utf-8",
    )
    result = compile_pack(tmp_path)
    assert result.ok, result.diagnostics
    g, bot = _game(prepare(result.ir, 0))
    p = g.players[0]
    bot._begin(g, p)
    assert bot.token("Guardian's Cog") == pytest.approx(1 * bot.unit("points"))
    cog = next(t for t in g.catalog.tokens if t.name == "Cog")
    p.tokens.extend([cog, cog])
    bot._tokens.clear()  # remembered for the turn
    assert bot.token("Guardian's Cog") == pytest.approx(3 * bot.unit("points"))

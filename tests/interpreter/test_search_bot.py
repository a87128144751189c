"""The search bot: it sees only what its player may see, plays whole games that replay, and
is named with its budget."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from clankwork.dsl.compiler import compile_pack
from clankwork.interpreter.actions import legal_actions
from clankwork.interpreter.bot_routes import _groups
from clankwork.interpreter.bot_search import SearchBot, determinise
from clankwork.interpreter.bots import make_bot, parse_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.game import Game
from clankwork.interpreter.log import replay

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tutorial() -> Catalog:
    result = compile_pack(ROOT / "content" / "tutorial")
    assert result.ok
    return prepare(result.ir)


def _at_a_searched_decision(cat: Catalog, seed: int) -> tuple[Game, object]:
    """A game of two heuristic bots played to the first action decision of its third round
    that offers something besides playing a card, and the player to decide."""
    game = Game(cat, [make_bot("heuristic", k) for k in range(2)], seed)
    for _ in range(2):
        game.round += 1
        for seat in game.order:
            game.take_turn(game.players[seat])
    p = game.players[game.order[0]]
    game.round += 1
    game.turn += 1
    game.begin_turn(p)
    while p.hand:  # play the hand: what is left is moving, buying, ending
        assert game.step(p)
    return game, p


def _hide_differently(game: Game, seat: int) -> Game:
    """A copy of ``game`` that differs only in what the player in ``seat`` cannot see: the
    order of its own deck and of the adventure deck, the bag and the secrets' banks, and the
    opponents' hands (dealt anew from their hands and decks)."""
    twin = game.clone()
    rng = random.Random(99)
    me = twin.players[seat]
    me.deck.reverse()
    for zone in (twin.adventure_deck, twin.bag, twin.minor_bank, twin.major_bank):
        rng.shuffle(zone)
    for q in twin.players:
        if q.seat != seat:
            pool = q.hand + q.deck
            rng.shuffle(pool)
            q.hand[:], q.deck[:] = pool[: len(q.hand)], pool[len(q.hand) :]
    twin.rng = random.Random(12345)
    return twin


def test_the_search_bot_decides_on_what_its_player_can_see(tutorial: Catalog) -> None:
    game, p = _at_a_searched_decision(tutorial, 4)
    twin = _hide_differently(game, p.seat)
    assert twin.adventure_deck != game.adventure_deck  # the twin's hidden order is not the same
    seen = []
    for g in (game, twin):
        bot = SearchBot(7, budget=4)
        q = g.players[p.seat]
        opts = legal_actions(g, q)
        pick = bot.choose_action(g, q, opts, _groups(opts))
        seen.append((opts[pick].label, bot.last))
    assert len(seen[0][1]) > 1  # options were searched, each with its playouts' rewards
    assert seen[0] == seen[1]


def test_determinising_ignores_the_real_order_of_what_is_hidden(tutorial: Catalog) -> None:
    game, p = _at_a_searched_decision(tutorial, 5)
    twin = _hide_differently(game, p.seat)
    a, b = game.clone(), twin.clone()
    determinise(a, p.seat, random.Random(3))
    determinise(b, p.seat, random.Random(3))
    assert a.adventure_deck == b.adventure_deck
    assert a.bag == b.bag
    for qa, qb in zip(a.players, b.players, strict=True):
        assert (qa.hand, qa.deck) == (qb.hand, qb.deck)
    # What the player sees is left as it is: its hand, the row, the opponents' discards.
    assert a.players[p.seat].hand == game.players[p.seat].hand
    assert a.row == game.row


def test_a_search_game_ends_and_its_log_replays(tutorial: Catalog) -> None:
    logs = []
    for _ in range(2):
        game = Game(tutorial, [make_bot("search:4", 3), make_bot("heuristic", 4)], 21)
        result = game.play()
        assert result.end_reason != "round cap"
        logs.append(game.log)
    assert logs[0] == logs[1]  # same seed, same bots: the same game
    assert replay(tutorial, logs[0]).result == result


def test_search_bots_are_named_with_their_budget() -> None:
    assert parse_bot("search") == ("search", 4)
    assert parse_bot("search:32") == ("search", 32)
    assert make_bot("search:5", 1).budget == 5
    for bad, says in (
        ("searc", "unknown bot 'searc'"),
        ("search:0", "at least 4"),
        ("search:3", "at least 4"),
        ("heuristic:4", "only the search bot takes a budget"),
    ):
        with pytest.raises(ValueError, match=says):
            parse_bot(bad)


def test_the_search_bot_state_carries_on(tutorial: Catalog) -> None:
    bot = SearchBot(5, budget=6)
    bot.rng.random()
    again = SearchBot(0, budget=9)
    game = Game(tutorial, [bot, make_bot("heuristic", 1)], 2)
    again.load_bot_state(game, bot.bot_state())
    assert again.budget == 6
    assert again.rng.random() == bot.rng.random()

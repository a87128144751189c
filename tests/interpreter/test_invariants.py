"""The invariant checker fires: each of its checks, on a state broken on purpose.

A checker that always returned [] would keep every simulation test green; here each branch is
made to speak, and a sound state is shown to pass.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.game import BLACK, Game
from clankwork.interpreter.invariants import check_invariants


@pytest.fixture
def game(tutorial_ir: dict) -> Game:
    g = Game(prepare(tutorial_ir), [make_bot("greedy", k) for k in range(2)], 5)
    for seat in g.order:  # one round in, so every zone has something in it
        g.take_turn(g.players[seat])
    assert check_invariants(g) == []
    return g


def _lose_a_card(g: Game) -> None:
    g.players[0].hand.pop() if g.players[0].hand else g.players[0].deck.pop()


def _lose_a_token(g: Game) -> None:
    t = next(t for t, n in g.token_supply.items() if n)
    g.token_supply[t] -= 1


BREAKS: dict[str, tuple[Callable[[Game], None], str]] = {
    "a card lost": (_lose_a_card, "cards not conserved"),
    "a card copied": (lambda g: g.row.append(g.row[0]), "cards not conserved"),
    "a cube lost": (lambda g: setattr(g.players[0], "supply", g.players[0].supply - 1), "cubes"),
    "negative cubes": (
        lambda g: (
            setattr(g.players[0], "area", -1),
            setattr(g.players[0], "supply", g.players[0].supply + g.players[0].area + 1),
        ),
        "negative cube count",
    ),
    "damage past health": (
        lambda g: setattr(g.players[1], "damage", g.rules["health"] + 1),
        "damage (health",
    ),
    "full meter, still in": (
        lambda g: (
            setattr(g.players[1], "supply", g.players[1].supply - g.rules["health"]),
            setattr(g.players[1], "damage", g.players[1].damage + g.rules["health"]),
        ),
        "full health meter",
    ),
    "negative resource": (lambda g: setattr(g.players[0], "boots", -1), "negative resource"),
    "a black cube lost": (lambda g: g.bag.remove(BLACK), "black cubes"),
    "a token lost": (_lose_a_token, "token "),
    "a mark off the play area": (
        lambda g: g.players[0].staying.append(g.catalog.cards[0]),
        "marked in play",
    ),
    "rage off the track": (lambda g: setattr(g, "rage", len(g.rules["rage_track"])), "rage index"),
}


@pytest.mark.parametrize("what", BREAKS)
def test_each_invariant_fires_on_a_broken_state(game: Game, what: str) -> None:
    brk, said = BREAKS[what]
    brk(game)
    problems = check_invariants(game)
    assert any(said in p for p in problems), problems

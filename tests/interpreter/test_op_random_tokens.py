"""Tokens drawn at random from the supply: `take N random WHAT`, `deal N random WHAT face down
to each player` and `return N random WHAT from the supply`."""

from __future__ import annotations

from collections import Counter

from clankwork.dsl.compiler import compile_text
from clankwork.interpreter.bot_values import effects_value
from clankwork.interpreter.bots import RandomBot
from clankwork.interpreter.effects.registry import render_effects
from clankwork.interpreter.game import Game
from clankwork.interpreter.state import Ctx

PACK = """
card Burgle { starting 10; play: +1 skill }
card Deal { cost 1; play: each player (take 3 random omen) }
card Draw { cost 1; play: take a random omen }
card Hand { cost 1; play: deal 2 random omen face down to each player }
card Cull { cost 1; play: return 2 random omen from the supply }
card Cull1 { cost 1; play: return 2 omen from the supply }
token Sun { count 4; type omen; points 2 }
token Moon { count 4; type omen; points 1 }
token Flash { count 2; type omen; returns; on reveal: +2 gold }
token Relic { artifact; points 5 }
board b { space HQ { hq }; space A { artifact 5 }; path HQ -- A }
"""


def _game(seed: int = 3) -> tuple[Game, dict[str, list]]:
    result = compile_text(PACK, "op.clank")
    assert result.ok, result.diagnostics
    effects = {c["name"]: c["triggers"][0]["effects"] for c in result.ir["cards"] if c["triggers"]}
    return Game(result.ir, [RandomBot(1), RandomBot(2)], seed=seed), effects


def _omens(game: Game) -> int:
    return sum(left for tok, left in game.token_supply.items() if "omen" in tok.match)


def test_compiles_and_prints() -> None:
    _, fx = _game()
    assert fx["Draw"] == [{**fx["Draw"][0], "op": "take_random", "what": "omen", "n": 1}]
    assert render_effects(fx["Draw"]) == "take a random omen token from the supply"
    assert render_effects(fx["Cull"]) == "return 2 random omen from the supply to the box"
    assert fx["Cull1"][0].get("random") is None


def test_each_player_is_dealt_n_revealed_as_taken() -> None:
    game, fx = _game()
    game.run(Ctx(game.players[0]), fx["Deal"])
    for p in game.players:
        assert len(p.tokens) + p.gold // 2 == 3  # a Flash gives 2 gold and goes to the box
    assert _omens(game) == 10 - 6


def test_the_draw_is_random_and_the_seed_decides_it() -> None:
    hands = set()
    for seed in range(12):
        game, fx = _game(seed)
        game.run(Ctx(game.players[0]), fx["Deal"])
        hands.add(tuple(sorted(t.name for t in game.players[0].tokens)))
        again, _ = _game(seed)
        again.run(Ctx(again.players[0]), fx["Deal"])
        assert [t.name for t in again.players[0].tokens] == [t.name for t in game.players[0].tokens]
    assert len(hands) > 2


def test_no_more_than_the_supply_holds() -> None:
    game, fx = _game()
    for _ in range(15):
        game.run(Ctx(game.players[0]), fx["Draw"])
    assert _omens(game) == 0
    assert Counter(t.name for t in game.players[0].tokens) == {"Sun": 4, "Moon": 4}


def test_return_at_random_leaves_a_random_pair_out() -> None:
    left = set()
    for seed in range(12):
        game, fx = _game(seed)
        game.run(Ctx(game.players[0]), fx["Cull"])
        assert _omens(game) == 8 and len(game.box) == 2
        left.add(tuple(sorted(t.name for t in game.box)))
    assert len(left) > 1
    game, fx = _game()
    game.run(Ctx(game.players[0]), fx["Cull1"])
    assert [t.name for t in game.box] == ["Sun", "Sun"]  # without "random": supply order


def test_a_bot_values_a_draw_by_the_tokens_it_may_give() -> None:
    _, fx = _game()
    assert effects_value(fx["Deal"]) != 0 and effects_value(fx["Draw"]) > 0


def test_deal_gives_each_player_n_face_down() -> None:
    game, fx = _game()
    assert fx["Hand"][0] == {**fx["Hand"][0], "op": "deal_random", "n": 2, "face_down": True}
    assert render_effects(fx["Hand"]) == "deal 2 random omen tokens face down to each player"
    game.run(Ctx(game.players[1]), fx["Hand"])
    for p in game.players:
        assert len(p.tokens) + p.gold // 2 == 2
    assert _omens(game) == 10 - 4

"""The general records Clank! In! Space! is written with, on a small pack of their own:
markers placed on spaces and actions limited per module, spaces entered only with a grant,
free ways closed where a token lies, cube tokens in the dragon bag, the rage marker's
event, other words for a base resource, and their diagnostics."""

from __future__ import annotations

from typing import Any

import pytest

from clankwork.dsl.compiler import compile_text
from clankwork.interpreter import actions
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.game import Game

PACK = """pack p { version "1" }
resource gold { word coins coin }
way lift { paid in boots; cost 0; exhausts; teleport can't; within lift; blocked by Barrier }
card Burgle { starting 10; play: +1 skill }
token Marker { count 4 }
token Pass { count 2; grants vault }
token Barrier { count 1 }
token Hunter { cube 2; when drawn: each player (take 1 damage) }
token Relic { artifact; points 5 }
board b {
  space HQ { hq; feature lift }
  group east {
    space A {
      feature lift
      action tap once per module if there is no Marker here: place a Marker here -> (+2 coins,
          if you lack Marker (take Pass))
    }
    space B {
      action tap once per module if there is no Marker here: place a Marker here -> (+1 coins)
    }
  }
  group west {
    space C {
      feature lift
      action tap once per module if there is no Marker here: place a Marker here -> (+1 coins,
          if you lack Marker (take Pass))
    }
  }
  space Vault { requires vault; artifact 5 }
  path HQ -- A
  path A -- B
  path B -- C
  path C -- Vault
}
rules {
  rage track 2 2 3 3 4
  when rage advances if rage is on space 4: put 2 Hunter in the clank area
  when rage advances if rage is on space 5: place Barrier on each lift
}
"""


def _compile(text: str = PACK) -> dict[str, Any]:
    result = compile_text(text, "p.clank")
    assert result.ok, result.diagnostics
    return result.ir


def _game(ir: dict[str, Any]) -> Game:
    g = Game(ir, [make_bot("random", 0), make_bot("random", 1)], 1)
    g.begin_turn(g.players[0])
    return g


def _at(g: Game, p: Any, space: str) -> None:
    p.pos = g.board.index[space]


def _labels(g: Game, p: Any) -> list[str]:
    return [o.label for o in actions.legal_actions(g, p)]


def _give(g: Game, p: Any, name: str) -> None:
    p.tokens.append(next(t for t in g.catalog.tokens if t.name == name))


def test_a_marker_per_module_and_per_space_then_the_grant() -> None:
    g = _game(_compile())
    p, q = g.players
    _give(g, p, "Marker")
    _give(g, p, "Marker")
    _at(g, p, "A")
    assert "tap at A" in _labels(g, p)
    g.act(p, "tap at A")
    assert p.gold == 2 and [t.name for t in g.space_tokens[g.board.index["A"]]] == ["Marker"]
    _at(g, p, "B")  # the same module: no second marker there
    assert "tap at B" not in _labels(g, p)
    _at(g, p, "C")
    g.act(p, "tap at C")
    assert [t.name for t in p.tokens] == ["Pass"]
    # Another player: A holds a marker already; B is open to them (their own module count).
    _give(g, q, "Marker")
    g.active = q
    _at(g, q, "A")
    assert "tap at A" not in _labels(g, q)
    _at(g, q, "B")
    assert "tap at B" in _labels(g, q)


def test_a_space_that_requires_a_grant_is_closed_to_moves_and_teleports() -> None:
    g = _game(_compile())
    p = g.players[0]
    _at(g, p, "C")
    p.boots = 1
    assert "move to Vault" not in _labels(g, p)
    assert g.board.index["Vault"] not in actions.teleport_targets(g, p)
    _give(g, p, "Pass")
    assert "move to Vault" in _labels(g, p)
    assert g.board.index["Vault"] in actions.teleport_targets(g, p)


def test_a_free_way_exhausts_and_a_token_blocks_it_where_it_lies() -> None:
    g = _game(_compile())
    p = g.players[0]
    _at(g, p, "A")
    assert "move to C by lift" in _labels(g, p)
    g.act(p, "move to C by lift")
    assert p.exhausted and p.boots == 0
    g.place_from_supply("Barrier", "lift")  # one Barrier: on the first lift space, HQ
    p.exhausted = False
    assert "move to A by lift" in _labels(g, p)
    assert "move to HQ by lift" not in _labels(g, p)


def test_the_rage_marker_fires_once_a_space_and_cube_tokens_go_round() -> None:
    g = _game(_compile())
    p, q = g.players
    g.rage = 1  # space 2
    g.advance_rage(3)  # 3, 4 (two Hunters), 5 (the Barrier)
    assert g.rage == 4 and [t.name for t in g.area_cubes] == ["Hunter", "Hunter"]
    assert [t.name for t in g.space_tokens[g.board.index["HQ"]]] == ["Barrier"]
    g.advance_rage(1)  # at the end of the track: no new space, nothing fires
    assert len(g.area_cubes) == 2
    for x in (p, q):
        x.supply, x.area = x.supply + x.area, 0
    g.bag = [-1] * 3
    hunter = g.catalog.tokens.index(next(t for t in g.catalog.tokens if t.name == "Hunter"))
    g.stacked_draws = [-2 - hunter, -1, -1, -1]  # a Hunter, then three black cubes
    g.dragon_attack()
    # The Hunter drawn: every player takes a damage, and it is back in the Clank! area; the
    # other one stays in the bag.
    assert (p.damage, q.damage) == (1, 1)
    assert len(g.area_cubes) == 1 and len(g.bag_tokens) == 1 and g.black_aside == 3


def test_a_game_without_cube_tokens_keeps_them_empty() -> None:
    ir = _compile(
        PACK.replace(
            "token Hunter { cube 2; when drawn: each player (take 1 damage) }\n", ""
        ).replace(
            "  when rage advances if rage is on space 4: put 2 Hunter in the clank area\n", ""
        )
    )
    g = Game(ir, [make_bot("heuristic", 0), make_bot("heuristic", 1)], 3)
    g.play()
    assert g.area_cubes == [] and g.bag_tokens == []


def test_a_base_resource_takes_other_words() -> None:
    ir = _compile(PACK + "card Purse { cost 1; play: +3 coins, pay 1 coin -> draw 1 }\n")
    (purse,) = [c for c in ir["cards"] if c["name"] == "Purse"]
    gain, pay = purse["triggers"][0]["effects"]
    assert gain["resource"] == "gold" and pay["cost"][0]["resource"] == "gold"


@pytest.mark.parametrize(
    ("extra", "code", "words"),
    [
        ("card X { cost 1; play: put 1 Relic in the clank area }\n", "CW107", "cube token"),
        ("card X { cost 1; play: place Ghost on each lift }\n", "CW107", "Ghost"),
        (
            "token Y { count 1; action once per modul: +1 skill }\n",
            "CW128",
            "once per module",
        ),
        ("way slide { cost 101 }\n", "CW113", "cost"),
        (
            "token Z { count 1; action take if there is no Ghost here: +1 skill }\n",
            "CW107",
            "ghost",
        ),
    ],
)
def test_the_records_words_are_checked(extra: str, code: str, words: str) -> None:
    diags = compile_text(PACK + extra, "p.clank").diagnostics
    hits = [d for d in diags if d.code == code]
    assert hits, diags
    assert any(words in d.message or words in (d.hint or "") for d in hits), hits

"""`simulate` tells what players were offered from what they chose: a table in the text, the
JSON and the HTML reports, a warning for a thing offered and never chosen, another for one
never offered, and a token's points that count something shown as it scores them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from clankwork.interpreter.actions import legal_actions
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.decisions import Option
from clankwork.interpreter.game import Game
from clankwork.interpreter.stats import GameStats, offer_keys
from clankwork.tools.check import load_ir
from clankwork.tools.simulate import command

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))

# A tutorial extension with an action nobody should take (it only makes noise), on a space
# on the way to three artifacts; an action on a room no path reaches; and a market item that
# scores per companion owned.
EXTENSION = """
pack "offers-probe" {
  version "0.1.0"
  extends tutorial
}

change space Crossroads { action "bang the gong": +2 clank }

board overworld {
  space Attic { at 700 0; action "dust the shelves": +1 skill }
}

token "Guild Charter" { market 2; type charter; points 3 per companion }
"""


def _pack(tmp_path: Path) -> Path:
    folder = tmp_path / "ext"
    folder.mkdir()
    (folder / "pack.clank").write_text(EXTENSION, encoding="utf-8")
    return folder


def test_a_new_action_offered_and_never_chosen_is_named(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    html = tmp_path / "r.html"
    args = [str(_pack(tmp_path)), "-n", "20", "-p", "2", "--json", str(out), "--html", str(html)]
    result = CliRunner().invoke(command, args)
    assert result.exit_code == 0, result.output
    refused = [ln for ln in result.stderr.splitlines() if "offered but never chosen" in ln]
    assert refused and "action bang the gong" in refused[0]
    unseen = [ln for ln in result.stderr.splitlines() if "never offered" in ln]
    assert unseen and "action dust the shelves" in unseen[0]
    assert "dust the shelves" not in refused[0] and "bang the gong" not in unseen[0]

    rep = json.loads(out.read_text())
    jsonschema.validate(rep, SCHEMA)
    rows = {(o["kind"], o["name"]): o for o in rep["offers"]}
    gong = rows["action", "bang the gong"]
    assert gong["offered"] > 0 and gong["chosen"] == 0 and gong["use_rate"] == 0
    assert rows["action", "dust the shelves"]["offered"] == 0
    # Cards and market items are listed too, offered or not.
    assert ("card", "Mercenary") in rows and ("market", "Crown") in rows
    assert "offered and chosen" in result.stdout and "bang the gong" in result.stdout
    assert "Offered and chosen" in html.read_text(encoding="utf-8")

    charter = next(t for t in rep["tokens"] if t["name"] == "Guild Charter")
    assert charter["points"] == 0 and charter["points_per"] == "3 per companion you own"
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("Guild Charter"))
    assert "3 per companion" in line


def test_an_offer_counts_once_a_turn_and_a_choice_each_time() -> None:
    cat = prepare(load_ir(None, "tutorial"))
    stats = GameStats.for_game(cat, 2)
    game = Game(cat, [make_bot("heuristic", k) for k in range(2)], 3, stats=stats)
    game.round = game.turn = 1
    p = game.players[game.order[0]]
    game.begin_turn(p)
    while p.hand:  # the plays offer nothing the report counts; what follows does
        game.step(p)
    opts = legal_actions(game, p)
    stats.on_options(game, p, opts, 0)
    stats.on_options(game, p, opts, 0)  # the same options again, in the same turn
    game.end_turn(p)
    offered = dict(stats.offers)
    assert offered and set(offered.values()) == {1}
    assert stats.offered_by[p.seat] == set(offered)
    assert sum(stats.chosen.values()) == 2 * len(stats.chosen)  # option 0, chosen twice


def test_offers_are_counted_again_each_turn_and_alike_for_equal_options() -> None:
    # What an option offers is worked out once a game and a listed option once a turn: a
    # copy of an option counts as the option, and the next turn counts its offers again.
    cat = prepare(load_ir(None, "tutorial"))
    stats = GameStats.for_game(cat, 2)
    game = Game(cat, [make_bot("heuristic", k) for k in range(2)], 3, stats=stats)
    game.round = game.turn = 1
    p = game.players[game.order[0]]
    game.begin_turn(p)
    while p.hand:
        game.step(p)
    opts = legal_actions(game, p)
    stats.on_options(game, p, opts, 0)
    stats.on_options(game, p, [Option(o.label, o.value) for o in opts], 0)
    stats.on_turn_end(game, p)
    once = dict(stats.offers)
    assert once and set(once.values()) == {1}
    stats.on_options(game, p, opts[1:], 0)  # a later turn of the same player
    stats.on_turn_end(game, p)
    again = {k for o in opts[1:] for k in offer_keys(game, o.value)}
    assert again and stats.offers == {k: 1 + (k in again) for k in once}

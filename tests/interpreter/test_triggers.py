"""Events and triggers: space triggers, tokens a space holds, held tokens, cards in play and
the pack's own rules triggers, with their limits and conditions."""

from __future__ import annotations

import pytest

from clankwork.dsl.compiler import compile_text
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.decisions import ScriptedBot
from clankwork.interpreter.game import Game

BASE = """
pack t { version "0.1" }
card Burgle { starting 10; play: +1 skill }
token Relic { artifact; points 5 }
token Mug { mug 2; points 20 }
token "Monkey Idol" { count 3; points 5 }
token Treasure { minor secret 4; gold 2 }
token "Lucky Charm" { market 2; points 1; at the start of your turn: +1 boots }
token Spyglass { market 2; whenever another player enters: +1 gold }
card Lantern { cost 1; play: +1 skill; at the end of your turn: +1 gold }
rules {
  when you escape: take Mug
  once per game when the dragon attacks: +5 gold
}
board b {
  space HQ { hq }
  space Fountain { once per turn when you enter: +2 gold }
  space Spring { when you enter: +1 gold }
  space Shrine { holds 3 "Monkey Idol"; once per turn when you enter: take "Monkey Idol" here }
  space Vault { holds 2 minor secrets; when you enter: take a minor secret here }
  space Rich { when you enter if you have a "Monkey Idol": +3 gold }
  space Camp { at the end of your turn: heal 1 }
  space Far { artifact 5 }
  path HQ -- Fountain
  path Fountain -- Spring
  path Spring -- Shrine
  path Shrine -- Vault
  path Vault -- Rich
  path Rich -- Camp
  path Camp -- Far
}
"""


def game(extra: str = "", players: int = 2) -> Game:
    result = compile_text(BASE + extra, "t.clank")
    assert result.ok, [d.message for d in result.diagnostics]
    return Game(prepare(result.ir), [ScriptedBot([]) for _ in range(players)], seed=1)


def at(g: Game, seat: int, space: str) -> None:
    g.enter(g.players[seat], g.board.index[space])


def test_once_per_turn_fires_once_each_turn() -> None:
    g = game()
    p = g.players[0]
    g.begin_turn(p)
    gold = p.gold
    at(g, 0, "Fountain")
    at(g, 0, "Spring")
    at(g, 0, "Fountain")
    assert p.gold == gold + 2 + 1
    g.turn += 1  # the next turn
    at(g, 0, "Fountain")
    assert p.gold == gold + 2 + 1 + 2


def test_a_trigger_without_a_limit_fires_at_every_entry() -> None:
    g = game()
    p = g.players[0]
    gold = p.gold
    for _ in range(3):
        at(g, 0, "Fountain")
        at(g, 0, "Spring")
    assert p.gold == gold + 2 + 3


def test_a_space_holds_tokens_placed_at_setup_and_taken_one_a_turn() -> None:
    g = game()
    shrine = g.board.index["Shrine"]
    assert [t.name for t in g.space_tokens[shrine]] == ["Monkey Idol"] * 3
    p = g.players[0]
    at(g, 0, "Shrine")
    at(g, 0, "Spring")
    at(g, 0, "Shrine")
    assert [t.name for t in p.tokens] == ["Monkey Idol"]
    assert len(g.space_tokens[shrine]) == 2
    for _ in range(3):
        g.turn += 1
        at(g, 0, "Shrine")
    assert [t.name for t in p.tokens].count("Monkey Idol") == 3 and not g.space_tokens[shrine]


def test_held_minor_secrets_come_from_the_bank() -> None:
    g = game()
    vault = g.board.index["Vault"]
    assert [t.name for t in g.space_tokens[vault]] == ["Treasure", "Treasure"]
    assert len(g.minor_bank) == 2  # four declared, two on the Vault
    at(g, 0, "Vault")
    assert [t.name for t in g.players[0].tokens] == ["Treasure"]


def test_a_condition_is_tested_when_the_trigger_fires() -> None:
    g = game()
    p = g.players[0]
    gold = p.gold
    at(g, 0, "Rich")
    assert p.gold == gold
    at(g, 0, "Shrine")
    at(g, 0, "Rich")
    assert p.gold == gold + 3


def test_a_held_token_fires_at_the_start_of_its_owners_turn_only() -> None:
    g = game()
    charm = next(t for t in g.catalog.tokens if t.name == "Lucky Charm")
    g.players[1].tokens.append(charm)
    g.begin_turn(g.players[0])
    assert g.players[0].boots == 0
    g.begin_turn(g.players[1])
    assert g.players[1].boots == 1


def test_held_triggers_for_their_owner_only_are_looked_up_on_that_player() -> None:
    """The events whose held triggers all fire for their owner's own doing (`emit` then
    looks at that player's things only): two copies of a design in play fire once, and the
    other player's copy does not fire."""
    g = game()
    assert g.catalog.held_own == {"turn start", "turn end"}
    assert "enter" in g.catalog.held_events and "enter" not in g.catalog.held_own
    lantern = g.catalog.by_name["lantern"]
    me, other = g.players
    me.play += [lantern, lantern]
    other.play.append(lantern)
    gold = me.gold, other.gold
    g.emit("turn end", me)
    assert (me.gold, other.gold) == (gold[0] + 1, gold[1])


def test_another_player_entering_pays_the_owner() -> None:
    g = game()
    spy = next(t for t in g.catalog.tokens if t.name == "Spyglass")
    owner, other = g.players
    owner.tokens.append(spy)
    gold = owner.gold
    at(g, 0, "Spring")  # the owner's own move: nothing
    assert owner.gold == gold + 1  # (the Spring itself)
    at(g, 1, "Camp")
    assert owner.gold == gold + 2 and other.gold == 0


def test_a_card_in_play_fires_at_the_end_of_the_turn_and_a_space_for_who_stands_there() -> None:
    g = game()
    p = g.players[0]
    lantern = g.catalog.by_name["lantern"]
    g.begin_turn(p)
    p.hand.append(lantern)
    g.play_card(p, lantern)
    p.damage, p.supply = 2, p.supply - 2
    at(g, 0, "Camp")
    gold = p.gold
    g.end_turn(p)
    assert p.gold == gold + 1 and p.damage == 1


def test_rules_triggers_escape_and_once_per_game() -> None:
    g = game()
    p = g.players[0]
    g.begin_turn(p)
    p.artifact = g.space_artifact[g.board.index["Far"]]
    at(g, 0, "HQ")
    assert p.escaping
    g.end_turn(p)
    assert [t.name for t in p.tokens] == ["Mug"]
    q = g.players[1]
    gold = q.gold
    g.active = q
    g.dragon_attack()
    g.dragon_attack()
    assert q.gold == gold + 5


def test_acquiring_defeating_and_moving_are_events() -> None:
    """A held token watches acquires, a space watches defeats made while standing on it, and
    the rules watch every move along a path (a teleport is not one)."""
    from clankwork.interpreter.actions import ACQUIRE, FIGHT, MOVE, legal_actions

    result = compile_text(
        """
        pack e { version "0.1" }
        card Burgle { starting 10; play: +1 skill }
        card Lantern { cost 1; play: +1 skill }
        monster Goblin { copies 2; fight 1; defeat: +1 gold }
        token Relic { artifact; points 5 }
        token Ledger { market 2; whenever you acquire a card: +1 gold }
        rules { whenever you move along a path: +1 clank }
        board b {
          space HQ { hq }
          space Pit { whenever you defeat a monster: heal 1 }
          space Far { artifact 5 }
          path HQ -- Pit
          path Pit -- Far
        }
        """,
        "e.clank",
    )
    assert result.ok, [d.message for d in result.diagnostics]
    g = Game(prepare(result.ir), [ScriptedBot([]) for _ in range(2)], seed=1)
    p = g.players[0]
    p.tokens.append(next(t for t in g.catalog.tokens if t.name == "Ledger"))
    g.begin_turn(p)
    lantern, goblin = g.catalog.by_name["lantern"], g.catalog.by_name["goblin"]
    g.row[:] = [lantern, goblin, goblin]
    p.skill, p.swords, p.boots = 1, 2, 1
    p.damage, p.supply = 2, p.supply - 2
    gold, area = p.gold, p.area

    def do(kind: object) -> None:
        option = next(o for o in legal_actions(g, p) if o.value[0] is kind)
        g.apply(p, option.value)

    do(FIGHT)  # on HQ: only the Goblin's own gold
    assert p.gold == gold + 1 and p.damage == 2
    do(ACQUIRE)
    assert p.gold == gold + 1 + 1  # the Ledger
    do(MOVE)  # HQ to the Pit: the rules' Clank!
    assert p.area == area + 1 and g.board.spaces[p.pos].name == "Pit"
    do(FIGHT)  # on the Pit: the Goblin's gold and the Pit's healing
    assert p.gold == gold + 3 and p.damage == 1
    g.enter(p, g.board.index["Far"])  # not a move along a path: no Clank!
    assert p.area == area + 1


def test_cubes_drawn_and_the_dragons_damage_are_events() -> None:
    g = game(
        """
        token Ward { market 2; whenever your cubes are drawn: +1 gold }
        token Grit { market 2; whenever you take damage: +1 boots }
        """
    )
    a, b = g.players
    a.tokens.append(next(t for t in g.catalog.tokens if t.name == "Ward"))
    b.tokens.append(next(t for t in g.catalog.tokens if t.name == "Grit"))
    g.begin_turn(a)
    g.bag[:] = [0, 0, 1]
    a.supply -= 2
    b.supply -= 1
    g.stacked_draws[:] = [0, 0, 1]
    gold = a.gold
    g._draw_cubes(3)
    assert a.damage == 2 and b.damage == 1
    assert a.gold == gold + 1  # once for the draw, not once a cube
    assert b.boots == 1
    assert b.gold == 0


def test_a_path_carries_a_trigger_for_who_moves_along_it() -> None:
    from clankwork.interpreter.actions import MOVE, legal_actions

    src = """
    pack t { version "0.1" }
    card Burgle { starting 10; play: +1 skill }
    token Relic { artifact; points 5 }
    board b {
      space HQ { hq }
      space Toll { }
      space Far { artifact 5 }
      path HQ -- Toll { when you take this path: +2 gold }
      path Toll -- Far { once per turn when you move along this path: +1 clank }
    }
    """
    result = compile_text(src, "t.clank")
    assert result.ok, [d.message for d in result.diagnostics]
    g = Game(prepare(result.ir), [ScriptedBot([]) for _ in range(2)], seed=1)
    p = g.players[0]
    g.begin_turn(p)
    p.boots = 4
    gold, area = p.gold, p.area

    def move(to: str) -> None:
        (o,) = [o for o in legal_actions(g, p) if o.value[0] is MOVE and o.label == f"move to {to}"]
        g.apply(p, o.value)

    move("Toll")
    assert p.gold == gold + 2  # either way along a two-way path
    move("Far")
    g.act(p, "take Relic")  # HQ is open only to a player with an artifact
    move("Toll")
    assert p.area == area + 1 and p.gold == gold + 2  # once this turn
    move("HQ")
    assert p.gold == gold + 4
    bad = compile_text(src.replace("when you take this path", "when the dragon attacks"), "t.clank")
    assert [d.code for d in bad.diagnostics] == ["CW102"], [d.message for d in bad.diagnostics]
    assert "does not apply to a path" in bad.diagnostics[0].message


def test_a_trigger_that_sets_itself_off_stops() -> None:
    from clankwork.interpreter.bots import RandomBot

    result = compile_text(
        BASE
        + """
board loop {
  space Home { hq }
  space Ping { when you enter: teleport }
  space Pong { when you enter: teleport }
  path Home -> Ping
  path Ping -- Pong
}
""",
        "t.clank",
    )
    assert result.ok, [d.message for d in result.diagnostics]
    g = Game(prepare(result.ir, "loop"), [RandomBot(1), RandomBot(2)], seed=3)
    g.enter(g.players[0], g.board.index["Ping"])  # returns: the depth limit stops the bounce
    assert g._depth == 0


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        ("space X { whenever you enterr: +1 gold }", "CW102", "whenever you enter"),
        ("space X { whenever another player enters: +1 gold }", "CW102", "does not apply"),
        ("space X { holds 2 idols }", "CW107", "holds 'idols'"),
        ("space X { when you enter: take a fruit here }", "CW107", "takes 'fruit'"),
        ("space X { once per round when you enter: +1 gold }", "CW102", "unknown trigger"),
        ("card Q { cost 1; when you escape: +1 gold }", "CW102", "does not apply"),
    ],
)
def test_trigger_mistakes_are_diagnostics(line: str, code: str, words: str) -> None:
    src = BASE.replace("  space Far { artifact 5 }", "  space Far { artifact 5 }\n" + "  " + line)
    if line.startswith("card"):
        src = BASE + line + "\n"
    result = compile_text(src, "t.clank")
    found = [d for d in result.diagnostics if d.code == code]
    assert found, [d.message for d in result.diagnostics]
    assert words in found[0].message + (found[0].hint or ""), found[0]
    assert found[0].span is not None and found[0].span.file == "t.clank"

"""Conservation checks on a game state: nothing is created or lost, health stays in bounds.

Used by the tests after every turn of many random games, and by anyone fuzzing new content.
Cards and tokens are found by walking the declared state (`interpreter.snapshot.components`).
"""

from __future__ import annotations

from collections import Counter

from .catalog import CardDef
from .game import BLACK, Game
from .snapshot import components
from .state import KNOCKED_OUT


def check_invariants(game: Game) -> list[str]:
    """Every broken invariant, as a sentence; empty when the state is sound."""
    problems: list[str] = []
    rules = game.rules
    cat = game.catalog
    n = len(game.players)

    # Cards and tokens: every copy is in exactly one zone. The zones are those of the declared
    # state (`Game.STATE`, PlayerState's fields), so a new zone is counted once declared.
    have: Counter[str] = Counter()
    tok_have: Counter[int] = Counter()
    for _, thing, k in components(game):
        if isinstance(thing, CardDef):
            have[thing.name] += k
        else:
            tok_have[id(thing)] += k
    want: Counter[str] = Counter()
    for c in cat.cards:
        if c.deck == "starting":
            want[c.name] += c.copies * n
        elif c.deck == "adventure" or (c.deck == "reserve" and c.type != "monster"):
            want[c.name] += c.copies
    if have != want:
        problems.append(f"cards not conserved: {dict(have - want)} extra, {dict(want - have)} lost")

    # Cubes: each player's cubes are in supply, Clank! area, bag or health meter.
    for p in game.players:
        total = game.cube_count(p)
        if total != rules["player_cubes"]:
            problems.append(f"player {p.seat} has {total} cubes, not {rules['player_cubes']}")
        if min(p.supply, p.area, p.damage) < 0:
            problems.append(f"player {p.seat} has a negative cube count")
        if not 0 <= p.damage <= rules["health"]:
            problems.append(f"player {p.seat} has {p.damage} damage (health {rules['health']})")
        if p.damage >= rules["health"] and p.status != KNOCKED_OUT:
            problems.append(f"player {p.seat} has a full health meter but is {p.status}")
        if min(p.skill, p.swords, p.boots, p.gold) < 0:
            problems.append(f"player {p.seat} has a negative resource")
        # Held-over and staying marks name copies of the play area, never more than are there.
        marked = Counter(p.held_over) + Counter(p.staying)
        if marked - Counter(p.play):
            names = sorted(c.name for c in marked - Counter(p.play))
            problems.append(f"player {p.seat} has cards marked in play that are not: {names}")
    black = game.bag.count(BLACK) + game.black_aside
    if black != rules["dragon_cubes"]:
        problems.append(f"{black} black cubes, not {rules['dragon_cubes']}")

    # Tokens (counted with the cards above): as many of each design as the pack declares.
    for t in cat.tokens:
        if tok_have[id(t)] != t.count:
            problems.append(f"token {t.name}: {tok_have[id(t)]} found, {t.count} declared")

    if not 0 <= game.rage < len(rules["rage_track"]):
        problems.append(f"rage index {game.rage} is off the track")
    return problems

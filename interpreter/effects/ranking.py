"""Comparisons between players over any count: who has the most or the fewest, who has more
than you, and ranked awards with their tie rule.

    rules { most veins: 7 points, second most 4 points, ties share }
    card Tithe { play: each player who has more gold than you (+1 clank) }
    card Crowned { play if you have the most crown tokens: +2 skill }

A count is any count record (`per` formulas): a resource (`veins`, `gold`), tokens held
(`vein tokens`), cards owned with a name or tag, damage taken... `rank_points` is the one
reading of a ranked award; scoring (interpreter/scoring.py) and the bots both use it.
"""

from __future__ import annotations

from typing import Any

from .registry import condition, effect, render_count, render_effects

# How tied players score a ranked award (the designer says it; `share` when not said):
#   share  the tied players split the points of the places they fill, rounded down, and the
#          next player takes the place after those (7 and 4 for two tied at the top: 5 each,
#          the next one third)
#   all    each tied player scores the place, and the next player the next place (7, 7, 4)
#   skip   each tied player scores the place, and the places they fill beyond it are
#          skipped (7, 7, then third)
TIES = ("share", "all", "skip")
DEFAULT_TIES = "share"
PLACES = ("most", "second", "third", "fourth", "fifth", "sixth")


def rank_points(
    values: list[int], points: list[int], ties: str = DEFAULT_TIES, fewest: bool = False
) -> list[int]:
    """What each value's owner scores from a ranked award: ``points[0]`` for the most (the
    fewest), ``points[1]`` for the next, by the tie rule. A player with none of a count
    (0) takes no place for the most of it; ``None`` stands for a player out of the ranking."""
    out = [0] * len(values)
    ranked = [v for v in values if v is not None and (fewest or v > 0)]
    place = 0
    for value in sorted(set(ranked), reverse=not fewest):
        tied = [i for i, v in enumerate(values) if v == value]
        if place >= len(points):
            break
        if ties == "share":
            each = sum(points[place : place + len(tied)]) // len(tied)
        else:
            each = points[place]
        for i in tied:
            out[i] = each
        place += 1 if ties == "all" else len(tied)
    return out


# What a count's card text says after its noun, written for "per" ("+1 per Gold you
# have"); a comparison says whose it is itself ("more Gold than you").
_WHOSE = (" you have", " you hold", " you own", " you have taken")


def _noun(count: dict[str, Any]) -> str:
    text = render_count(count)
    for tail in _WHOSE:
        if text.endswith(tail):
            return text[: -len(tail)]
    return text


def _counts(game: Any, node: dict[str, Any]) -> list[int]:
    return [game.count_of(p, node["count"]) for p in game.players]


@condition(
    "most",
    phrases=(
        "you have the most {count:count}",
        "you alone have the most {count:count} {alone=true}",
        "you have the fewest {count:count} {fewest=true}",
        "you have the least {count:count} {fewest=true}",
        "you alone have the fewest {count:count} {fewest=true} {alone=true}",
    ),
    params={
        "count": {"$ref": "#/$defs/count"},
        "fewest": {"type": "boolean"},
        "alone": {"type": "boolean"},
    },
    defaults={"fewest": False, "alone": False},
    render=lambda n: (
        "you " + ("alone " if n["alone"] else "") + "have the "
        f"{'fewest' if n['fewest'] else 'most'} {_noun(n['count'])}"
    ),
    examples=("play if you have the most crown tokens: +2 skill",),
    # One player of the table, about: a third of the time.
    appraise=lambda n, v: 0.35 * (0.7 if n["alone"] else 1.0),
)
def most(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """No other player has more of the count than you (ties hold, unless `alone`); for the
    most you need at least one. `fewest` / `least`: no other player has fewer."""
    counts = _counts(game, node)
    mine = counts[ctx.player.seat]
    others = [c for i, c in enumerate(counts) if i != ctx.player.seat]
    if node["fewest"]:
        return all(mine < c if node["alone"] else mine <= c for c in others)
    return mine > 0 and all(mine > c if node["alone"] else mine >= c for c in others)


_EVERY = "every|each|all|any"
_SOME = "another|some|an|a"


@condition(
    "more_than",
    phrases=(
        f"you have more {{count:count}} than {_EVERY} other player|players {{every=true}}",
        f"you have more {{count:count}} than {_EVERY} opponent|opponents {{every=true}}",
        "you have more {count:count} than everyone else {every=true}",
        f"you have more {{count:count}} than {_SOME} [other] player|opponent",
        f"you have fewer|less {{count:count}} than {_EVERY} other player|players"
        " {every=true} {fewer=true}",
        f"you have fewer|less {{count:count}} than {_EVERY} opponent|opponents"
        " {every=true} {fewer=true}",
        "you have fewer|less {count:count} than everyone else {every=true} {fewer=true}",
        f"you have fewer|less {{count:count}} than {_SOME} [other] player|opponent {{fewer=true}}",
    ),
    params={
        "count": {"$ref": "#/$defs/count"},
        "fewer": {"type": "boolean"},
        "every": {"type": "boolean"},
    },
    defaults={"fewer": False, "every": False},
    render=lambda n: (
        f"you have {'fewer' if n['fewer'] else 'more'} {_noun(n['count'])} than "
        + ("every other player" if n["every"] else "another player")
    ),
    examples=(
        "if you have more gold than every other player (+1 clank)",
        "play if you have fewer crown tokens than another player: +1 skill",
    ),
    appraise=lambda n, v: 0.3 if n["every"] else 0.6,
)
def more_than(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """You have more of the count than every other player (`every`), or than at least one
    (`another player`); `fewer` / `less` the other way round. Ties are not more."""
    counts = _counts(game, node)
    mine = counts[ctx.player.seat]
    others = [c for i, c in enumerate(counts) if i != ctx.player.seat]
    beats = [c > mine if node["fewer"] else mine > c for c in others]
    return all(beats) if node["every"] else any(beats)


# `each player who has more gold than you (...)`: who may be any player, an opponent, or
# "the player(s)"; the relation more or fewer than you, or the most or the fewest.
_WHO = (
    'each player|players {who="player"}',
    'each opponent|opponents {who="opponent"}',
    'each other player|players {who="opponent"}',
    'the player|players {who="player"}',
)
_REL = (
    '[who|that] [has|have|with] more {count:count} than you {rel="more"}',
    '[who|that] [has|have|with] fewer|less {count:count} than you {rel="fewer"}',
    '[who|that] [has|have|with] the most {count:count} {rel="most"}',
    '[who|that] [has|have|with] the fewest|least {count:count} {rel="fewest"}',
)
_SAID = {
    "more": "who has more {} than you",
    "fewer": "who has fewer {} than you",
    "most": "with the most {}",
    "fewest": "with the fewest {}",
}


def _appraise_compared(node: dict[str, Any], v: Any) -> float:
    # About a third of the table when it is the most or the fewest, half of it against you.
    share = 0.35 if node["rel"] in ("most", "fewest") else 0.5
    theirs = share * v.opponents(node["do"])
    if node["who"] == "player" and node["rel"] in ("most", "fewest"):
        return theirs + share * v.effects(node["do"])
    return theirs


@effect(
    "each_compared",
    phrases=tuple(f"{w} {r}" for w in _WHO for r in _REL),
    params={
        "who": {"enum": ["player", "opponent"]},
        "rel": {"enum": ["more", "fewer", "most", "fewest"]},
        "count": {"$ref": "#/$defs/count"},
        "do": {"$ref": "#/$defs/effects"},
    },
    render=lambda n: (
        f"each {n['who']} {_SAID[n['rel']].format(_noun(n['count']))}: {render_effects(n['do'])}"
    ),
    examples=(
        "each player who has more gold than you (take 1 damage)",
        "the player with the most companion you own (+2 gold)",
    ),
    appraise=_appraise_compared,
    structural=True,
)
def each_compared(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Every player (or opponent) whose count compares so with yours (more, fewer than you)
    or with the others of the group (the most, the fewest of the players, or of your
    opponents: all who tie; the most needs at least one) does the bracketed effects, in turn
    order from you, as `each player` does. The counts are taken once, before anyone acts."""
    counts = _counts(game, node)
    mine = counts[ctx.player.seat]
    rel = node["rel"]
    group = list(game.each(ctx.player, include_self=node["who"] == "player"))
    if not group:
        return
    among = [counts[p.seat] for p in group]
    top = max(among) if rel == "most" else min(among)
    chosen = []
    for player in group:
        n = counts[player.seat]
        if (
            (rel == "more" and n > mine)
            or (rel == "fewer" and n < mine)
            or (rel == "most" and n == top and n > 0)
            or (rel == "fewest" and n == top)
        ):
            chosen.append(player)
    for player in chosen:
        game.run(ctx.for_player(player), node["do"])

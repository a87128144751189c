"""Conditions ("if ...") and counts ("per ...") that effects and card lines can test."""

from __future__ import annotations

from typing import Any

from .registry import article, condition, count
from .turn_modifiers import counts_in_play
from .where import feature_stem

# What the bots assume without looking at the game: a condition holds half the time, and a
# count ("+1 swords per companion in play") comes to one or two when its effect is applied.
_EVEN = 0.5
_EXPECTED = 1.5


@condition(
    "in_play",
    appraise=lambda n, v: _EVEN,
    phrases=(
        "another {tag:tag} in play {other=true}",
        "another {tag:tag} in your play area {other=true}",
        "{min:int} or more {tag:tag} in play",
        "a|an {tag:tag} in play",
    ),
    params={
        "tag": {"type": "string"},
        "min": {"type": "integer", "minimum": 1, "maximum": 100},
        "other": {"type": "boolean"},
    },
    required=("tag",),
    defaults={"min": 1},
    render=lambda n: (
        f"another {n['tag']} is in your play area"
        if n.get("other")
        else f"{n.get('min', 1)} or more {n['tag']} cards are in your play area"
    ),
    examples=("play if another companion in play: +1 skill",),
)
def in_play(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """Cards with that tag (or name) in your play area this turn, played before or after;
    "another" leaves out the card itself. A `TAG counts as in play this turn` makes it hold."""
    if game.turn_modifiers and ctx.player is game.active and counts_in_play(game, node["tag"]):
        return True
    return game.count_in_play(ctx, node["tag"], node.get("other", False)) >= node.get("min", 1)


def token_words(token: dict[str, Any]) -> frozenset[str]:
    """Every word `you have WORDS` finds a token by (an IR token): its name, type, kind and
    grants, "secret" for secrets, each in the singular and the plural. The catalog matches
    with it and the compiler checks conditions against it, so the two never disagree."""
    kind = token["kind"]
    typ = token.get("type") or token["name"]
    words = [token["name"], typ, kind, *token.get("grants", ())]
    if kind in ("major", "minor"):
        words += [f"{kind} secret", "secret"]
    out = set()
    for w in words:
        w = w.lower()
        out |= {w, w[:-1] if w.endswith("s") else w + "s"}
    return frozenset(out)


@condition(
    "have",
    appraise=lambda n, v: _EVEN,
    # The parameter naming a token the player holds or not: what holding one changes (bots).
    meta={"holding": "what"},
    phrases=(
        "you have a|an|any {what:words}",
        "you have {what:words}",
        "you hold a|an|any {what:words}",
        "you hold {what:words}",
    ),
    params={"what": {"type": "string"}},
    render=lambda n: f"you have {article(n['what'])}",
    examples=("if you have an artifact (+2 skill)", "play if you have mystic fruit: +1 skill"),
)
def have(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """You hold a token of that kind or name (artifact, crown, mystic fruit, canoe...)."""
    return game.has_token(ctx.player, node["what"])


@condition(
    "at",
    appraise=lambda n, v: v.where(n["feature"]),
    phrases=("you are in|on|at a|an {feature:words}", "you are in|on|at {feature:words}"),
    params={"feature": {"type": "string"}},
    render=lambda n: f"you are in {article(n['feature'])}",
    examples=("if you are in a forest (+1 boots)", "if you are not in a flooded room (+1 gold)"),
)
def at(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """Your space has that feature (forest, town, magic circle, danger zone...); "a flooded
    room" is a space with the feature `flooded`."""
    feature = node["feature"]
    stem = feature_stem(feature)
    return game.space_has(ctx.player, feature) or (
        stem != feature.lower() and game.space_has(ctx.player, stem)
    )


@count(
    "gold",
    appraise=lambda n, v: _EXPECTED,
    phrases=("{every:int} gold", "gold"),
    params={"every": {"type": "integer", "minimum": 1, "maximum": 1000}},
    defaults={"every": 1},
    render=lambda n: f"{n['every']} Gold you have" if n["every"] > 1 else "Gold you have",
    examples=("points 1 per 5 gold",),
)
def gold(game: Any, player: Any, node: dict[str, Any]) -> int:
    """Your gold (tokens that count as gold included), in whole groups of ``every``."""
    return game.gold_of(player) // node.get("every", 1)


@count(
    "in_play",
    appraise=lambda n, v: _EXPECTED,
    phrases=("{tag:tag} in play", "other {tag:tag} in play"),
    params={"tag": {"type": "string"}},
    render=lambda n: f"{n['tag']} in your play area",
    examples=("+1 swords per companion in play",),
)
def in_play_count(game: Any, player: Any, node: dict[str, Any]) -> int:
    """Cards with that tag or name in your play area."""
    return game.count_in_play_of(player, node["tag"])


@count(
    "resource",
    appraise=lambda n, v: _EXPECTED,
    # The unit a bot values one more of: the parameter naming it (see bot_estimates.py).
    meta={"unit": "resource"},
    phrases=("{resource:resource}", "{resource:resource} you have"),
    params={"resource": {"type": "string", "minLength": 1}},
    render=lambda n: n["resource"],
    examples=("points 1 per favour", "most veins: 7 points"),
)
def resource_count(game: Any, player: Any, node: dict[str, Any]) -> int:
    """How much of a resource you have: one the pack declares (`resource veins { kept }`),
    or skill, swords, boots (this turn's), gold, Clank! (cubes in the Clank! area)."""
    return game.pool(player, node["resource"])


@count(
    "damage",
    appraise=lambda n, v: _EXPECTED,
    meta={"unit_key": "damage"},
    phrases=("damage", "damage taken", "damage you have taken", "damage on your health meter"),
    params={},
    render=lambda n: "damage taken",
    examples=("fewest damage: 5 points",),
)
def damage_count(game: Any, player: Any, node: dict[str, Any]) -> int:
    """The damage cubes on your health meter."""
    return player.damage


@count(
    "owned",
    appraise=lambda n, v: _EXPECTED,
    # The parameter naming the cards counted (a name or a tag): what one more adds (bots).
    meta={"owning": "card"},
    phrases=("{card:name} you own", "{card:name} in your deck", "{card:name}"),
    params={"card": {"type": "string"}},
    render=lambda n: f"{n['card']} you own",
    examples=('points 2 per "Mysterious Tome"',),
)
def owned(game: Any, player: Any, node: dict[str, Any]) -> int:
    """Cards of that name or tag among all your cards (deck, hand, discard, play area)."""
    return game.count_owned(player, node["card"])

"""Sets of tokens a player holds, for "per" formulas and end-of-game points (the plain
count of tokens held is `held`, in components.py)."""

from __future__ import annotations

from typing import Any

from .registry import count


def _names(among: str) -> list[str]:
    return [n.strip().lower() for n in among.split(" or ") if n.strip()]


def _render_sets(node: dict[str, Any]) -> str:
    names = [n.strip() for n in node["among"].split(" or ")]
    listed = ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]
    return f"set of {node['n']} different tokens you hold among {listed}"


@count(
    "sets",
    phrases=("set|sets of {n:int} among {among:words}",),
    params={
        "n": {"type": "integer", "minimum": 1, "maximum": 100},
        "among": {"type": "string"},
    },
    render=_render_sets,
    examples=('points 4 per set of 2 among "Gold Star" or Moonstone or Sunstone',),
    # Sets are rare: a bot expects to complete about half of one.
    appraise=lambda node, v: 0.5,
)
def sets(game: Any, player: Any, node: dict[str, Any]) -> int:
    """Complete sets of N different tokens among the names listed (separated by "or") that
    the player holds: 2 of 3 names held make one set of 2, all 3 still one."""
    want = _names(node["among"])
    held_words = [t.match for t in player.tokens]
    if player.artifact is not None:
        held_words.append(player.artifact.match)
    different = sum(1 for w in want if any(w in m for m in held_words))
    return different // node["n"]

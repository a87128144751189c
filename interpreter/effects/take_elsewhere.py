"""Taking a token that lies on another space: "take one you do not have from any room".

A space's `holds` puts tokens on it at setup and `take X here` takes one from the space you
stand on. Some spaces let a player reach further: from one room, a token from any other room
that holds one, of a kind the player does not hold yet (one of each type per player).
"""

from __future__ import annotations

from typing import Any

from .registry import effect


def offers(game: Any, player: Any, what: str) -> list[tuple[str, int]]:
    """(token name, space) for each token name matching ``what`` that lies on a space other
    than the player's and that the player does not hold, first space in board order."""
    want = what.lower()
    held = {t.name for t in player.tokens}
    if player.artifact is not None:
        held.add(player.artifact.name)
    seen: dict[str, int] = {}
    for s, lying in enumerate(game.space_tokens):
        if s == player.pos:
            continue
        for tok in lying:
            if want in tok.match and tok.name not in held and tok.name not in seen:
                seen[tok.name] = s
    return list(seen.items())


@effect(
    "take_elsewhere",
    phrases=(
        "take a|an|one {what:tag} you lack from another space",
        "take a|an|one {what:tag} you do not have from another space",
        "take a|an|one {what:tag} you lack from another room",
        "take a|an|one {what:tag} you do not have from another room",
    ),
    params={"what": {"type": "string", "minLength": 1}},
    render=lambda n: f"take a {n['what']} you do not have from another space",
    examples=("may take a relic you lack from another room",),
    can_pay=lambda game, ctx, n: bool(offers(game, ctx.player, n["what"])),
    appraise=lambda n, v: v.token(n["what"]),
)
def take_elsewhere(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Take one token matching WHAT (a kind, type or name) from another space that holds one,
    of a name you do not hold yet: you choose which (nothing when there is none)."""
    player = ctx.player
    found = offers(game, player, node["what"])
    if not found:
        return
    spaces = game.board.spaces
    labels = [f"take {name} from {spaces[s].name}" for name, s in found]
    # Bots read each option as taking that token (its appraisal names it).
    detail = {
        "op": "choose",
        "options": [[{"op": "take_elsewhere", "what": name}] for name, _ in found],
    }
    pick = game.choose(player, "choose", labels, source=ctx.source, detail=detail)
    name, s = found[pick]
    lying = game.space_tokens[s]
    for i in range(len(lying) - 1, -1, -1):
        if lying[i].name == name:
            tok = lying.pop(i)
            game.reveal(player, tok)
            return

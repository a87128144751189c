"""Actions a pack declares on a space or a token: `action [NAME] [once per turn|game]: ...`.

A content action is offered to the player while they stand on the space (or hold the token),
when its limit allows and its price can be paid; taking it pays the price and runs the
effects. How often each player used it lives in `PlayerState.used` (plain data).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .context import Ctx
from .effects.registry import EFFECTS, render_condition, render_effects

LIMITS = ("turn", "game", "module")


@dataclass(frozen=True, slots=True, eq=False)
class ContentAction:
    """One declared action: where it is (a space or a token), its limit, price and effects.

    ``key`` names it in `PlayerState.used` ("space:Shrine:0"); ``cost`` are payable effect
    nodes paid first (`pay 2 boots`), ``effects`` what follows; ``cond`` a condition that
    must hold for it to be offered (`action NAME if CONDITION: ...`). The limit ``module``
    is once per game in each module (or board group) per player, shared by every action of
    the same name: its use is kept under "NAME@MODULE".
    """

    key: str
    name: str | None
    where: str  # "space" or "token"
    owner: str  # the space's or the token's name
    limit: str | None
    cost: tuple[dict[str, Any], ...]
    effects: tuple[dict[str, Any], ...]
    label: str
    cond: dict[str, Any] | None = None

    @classmethod
    def from_ir(cls, a: dict[str, Any], key: str, owner: str, where: str) -> ContentAction:
        """Build the action from its IR node."""
        name = a.get("name")
        at = "at" if where == "space" else "with"
        return cls(
            key=key,
            name=name,
            where=where,
            owner=owner,
            limit=a.get("limit"),
            cost=tuple(a.get("cost", ())),
            effects=tuple(a.get("effects", ())),
            label=f"{name or 'act'} {at} {owner}",
            cond=a.get("if"),
        )

    def use_key(self, game: Any, p: Any, source: Any) -> str:
        """Where the use is kept in `PlayerState.used`: the action's own key, or for a
        `once per module` action its name and the module of the space it is taken on."""
        if self.limit != "module":
            return self.key
        space = source if getattr(source, "holds", None) is not None else None
        if space is None:
            space = game.board.spaces[p.pos]
        return f"{self.name or self.key}@{space.module or ''}"

    def open_to(self, game: Any, p: Any, source: Any) -> bool:
        """Whether ``p`` may take it now: its limit allows and its price can be paid."""
        if self.limit is not None:
            last = p.used.get(self.use_key(game, p, source))
            if last is not None and (self.limit != "turn" or last == game.turn):
                return False
        ctx = None
        if self.cond is not None:
            ctx = Ctx(p, source)
            if not game.holds(ctx, self.cond):
                return False
        if self.cost:
            if ctx is None:
                ctx = Ctx(p, source)
            for node in self.cost:
                can = EFFECTS[node["op"]].can_pay
                if can is not None and not can(game, ctx, node):
                    return False
        return True

    def take(self, game: Any, p: Any, source: Any) -> None:
        """Record the use, pay the price, run the effects."""
        p.used[self.use_key(game, p, source)] = game.turn
        if game.stats is not None:
            game.stats.on_act(game, p, self.name or self.label)
        ctx = Ctx(p, source)
        game.run(ctx, list(self.cost))
        game.run(ctx, list(self.effects))


def content_actions(node: dict[str, Any], where: str, name: str) -> tuple[ContentAction, ...]:
    """The `action` lines of a space or token IR node, ready for play."""
    return tuple(
        ContentAction.from_ir(a, f"{where}:{name}:{k}", name, where)
        for k, a in enumerate(node.get("actions", ()))
    )


def render_action(a: dict[str, Any]) -> str:
    """The text printed for an action IR node ("Once per game: pay 2 Boots → +3 Gold")."""
    head = a.get("name") or "Action"
    if a.get("limit"):
        head += f", once per {a['limit']}"
    if a.get("if"):
        head += f", if {render_condition(a['if'])}"
    body = render_effects(list(a.get("effects", ())))
    if a.get("cost"):
        cost = render_effects(list(a["cost"]))
        body = f"{cost} \u2192 {body}" if body else cost
    return f"{head}: {body}"

"""Actions a pack declares on a space or a token: `action [NAME] [once per turn|game]: ...`.

A content action is offered to the player while they stand on the space (or hold the token),
when its limit allows and its price can be paid; taking it pays the price and runs the
effects. How often each player used it lives in `PlayerState.used` (plain data).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .effects.registry import EFFECTS, render_effects

if TYPE_CHECKING:
    from .state import PlayerState

LIMITS = ("turn", "game")


@dataclass(frozen=True, slots=True, eq=False)
class ContentAction:
    """One declared action: where it is (a space or a token), its limit, price and effects.

    ``key`` names it in `PlayerState.used` ("space:Shrine:0"); ``cost`` are payable effect
    nodes paid first (`pay 2 boots`), ``effects`` what follows.
    """

    key: str
    name: str | None
    where: str  # "space" or "token"
    owner: str  # the space's or the token's name
    limit: str | None
    cost: tuple[dict[str, Any], ...]
    effects: tuple[dict[str, Any], ...]
    label: str

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
        )

    def open_to(self, game: Any, p: PlayerState, source: Any) -> bool:
        """Whether ``p`` may take it now: its limit allows and its price can be paid."""
        from .state import Ctx  # state imports the catalog, which imports this module

        if self.limit is not None:
            last = p.used.get(self.key)
            if last is not None and (self.limit == "game" or last == game.turn):
                return False
        if self.cost:
            ctx = Ctx(p, source)
            for node in self.cost:
                can = EFFECTS[node["op"]].can_pay
                if can is not None and not can(game, ctx, node):
                    return False
        return True

    def take(self, game: Any, p: PlayerState, source: Any) -> None:
        """Record the use, pay the price, run the effects."""
        from .state import Ctx

        p.used[self.key] = game.turn
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
    body = render_effects(list(a.get("effects", ())))
    if a.get("cost"):
        cost = render_effects(list(a["cost"]))
        body = f"{cost} \u2192 {body}" if body else cost
    return f"{head}: {body}"

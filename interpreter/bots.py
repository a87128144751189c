"""Bots: a random player and a greedy one that plays the way people do.

GreedyBot plays every card first, picks an artifact worth its round trip, walks there and
back along the board's distance tables, spends swords on monster paths, fights and buys with
what is left, and never takes damage it cannot afford. It is deterministic: ties go to the
first option, so a greedy game depends only on the game's seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .actions import best_market_item
from .board import UNREACHABLE
from .catalog import CardDef
from .decisions import Decision

# What one unit of each resource is worth to the greedy bot, in "skill".
WEIGHTS = {"skill": 1.0, "swords": 0.8, "boots": 1.5, "gold": 0.7, "clank": -0.6}


def effects_value(nodes: list[dict[str, Any]]) -> float:
    """A rough worth of an effect list for the player who gets it."""
    return sum(effect_value(n) for n in nodes)


def effect_value(node: dict[str, Any]) -> float:
    """A rough worth of one effect node (positive is good for its player)."""
    op = node["op"]
    if op == "gain":
        return WEIGHTS[node["resource"]] * node["amount"] * (1.5 if "per" in node else 1)
    if op == "spend":
        return -WEIGHTS[node["resource"]] * node["amount"]
    simple = {
        "draw": 1.2,
        "heal": 0.7,
        "damage": -1.0,
        "discard": -0.8,
        "trash": 0.4,
        "rage": -1.0,
    }
    if op in simple:
        return simple[op] * node.get("n", 1)
    if op == "teleport":
        return 1.0
    if op == "secret":
        return 3.0 if node["size"] == "major" else 1.5
    if op == "token":
        return 1.0
    if op == "dragon_attack":
        return -2.0
    if op == "each":
        inner = effects_value(node["do"])
        # What opponents get counts against us.
        return inner if node["who"] == "player" else -0.5 * inner
    if op == "choose":
        return max(effects_value(o) for o in node["options"])
    if op == "may":
        return max(0.0, effects_value(node["do"]))
    if op == "if":
        return 0.6 * effects_value(node["do"])
    if op == "pay":
        net = effects_value(node["cost"]) + effects_value(node["then"])
        return max(0.0, net) if node.get("optional") else 0.7 * net
    return 0.0


def triggers_value(triggers: Any) -> float:
    """Worth of a card's trigger list; conditional lines count a little over half."""
    return sum(effects_value(eff) * (1.0 if cond is None else 0.6) for cond, eff in triggers)


class RandomBot:
    """Picks uniformly at random, but ends a turn a third of the time once it may.

    (A uniform pick among ~20 actions would wander the board for hundreds of turns.)
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, decision: Decision) -> int:
        """A random legal option."""
        options = decision.options
        if decision.kind == "action" and options[-1].value[0] == "end":
            if len(options) == 1 or self.rng.random() < 1 / 3:
                return len(options) - 1
            return self.rng.randrange(len(options) - 1)
        return self.rng.randrange(len(options))


class GreedyBot:
    """A deterministic heuristic player: artifact, then home, buying and fighting on the way."""

    name = "greedy"

    # Boots of round trip one point of artifact value is worth giving up.
    TRIP_COST = 1.0
    # Health left below which the bot stops taking risks.
    CAREFUL = 4

    def __init__(self, seed: int = 0) -> None:
        self._power: dict[CardDef, float] = {}

    # -- helpers ----------------------------------------------------------------------------

    def power(self, card: CardDef) -> float:
        """What playing the card is worth (cached per design)."""
        v = self._power.get(card)
        if v is None:
            v = triggers_value(card.play)
            self._power[card] = v
        return v

    def goal(self, game: Any, p: Any) -> int | None:
        """Where the player is heading: HQ with an artifact, else the best artifact left."""
        board = game.board
        hq = board.hq
        if p.artifact is not None:
            return hq
        dist = board.dist
        left = game.rules["health"] - p.damage
        best, best_score = None, None
        for s in board.artifact_spaces:
            tok = game.space_artifact[s]
            if tok is None:
                continue
            trip = dist[p.pos][s] + dist[s][hq]
            if trip >= UNREACHABLE:
                continue
            if left <= self.CAREFUL:
                score = -trip  # hurt: the nearest artifact, whatever it is worth
            else:
                score = tok.points - self.TRIP_COST * trip
                if board.spaces[s].danger_zone:
                    score -= 3
            if best_score is None or score > best_score:
                best, best_score = s, score
        return best

    def late(self, game: Any, p: Any) -> bool:
        """Points matter more than deck power once the player is heading home."""
        return p.artifact is not None or game.round >= 10

    def card_score(self, game: Any, p: Any, card: CardDef) -> float:
        """Worth of acquiring a card now."""
        points = card.points + (2 if card.points_per else 0)
        w = 1.0 if self.late(game, p) else 0.3
        power = self.power(card) * (0.5 if self.late(game, p) else 1.0)
        return power + w * points + triggers_value(card.acquire)

    # -- decisions --------------------------------------------------------------------------

    def choose(self, view: Any, decision: Decision) -> int:
        """Answer any decision."""
        p = view.players[decision.player]
        kind = decision.kind
        if kind == "action":
            return self._action(view, p, decision)
        if kind == "may":
            return 0 if self._want(view, p, decision.detail) else 1
        if kind == "choose":
            return self._pick_effects(view, p, decision)
        if kind == "discard":
            return min(
                range(len(decision.options)),
                key=lambda i: self.power(decision.options[i].value),
            )
        if kind == "trash":
            return min(
                range(len(decision.options)),
                key=lambda i: (
                    self.power(decision.options[i].value[1]) + decision.options[i].value[1].points
                ),
            )
        if kind == "teleport":
            goal = self.goal(view, p)
            if goal is None:
                return 0
            dist = view.board.dist
            return min(
                range(len(decision.options)), key=lambda i: dist[decision.options[i].value][goal]
            )
        return 0

    def _want(self, game: Any, p: Any, node: Any) -> bool:
        if not isinstance(node, dict):
            return True
        if node.get("op") == "pay":
            for c in node["cost"]:
                if c["op"] == "damage" and game.rules["health"] - p.damage - c["n"] <= 4:
                    return False
            return effects_value(node["cost"]) + effects_value(node["then"]) > 0
        if node.get("op") == "may":
            return effects_value(node["do"]) > 0
        return True

    def _pick_effects(self, game: Any, p: Any, decision: Decision) -> int:
        node = decision.detail
        if not isinstance(node, dict) or "options" not in node:
            return 0

        def worth(effects: list[dict[str, Any]]) -> float:
            v = effects_value(effects)
            if p.damage == 0:
                # Healing an unhurt player does nothing.
                v -= sum(0.7 * e.get("n", 1) for e in effects if e["op"] == "heal")
            return v

        values = [worth(o) for o in node["options"]]
        return values.index(max(values))

    def _action(self, game: Any, p: Any, d: Decision) -> int:
        groups: dict[str, list[int]] = {}
        for i, o in enumerate(d.options):
            groups.setdefault(o.value[0], []).append(i)
        opts = d.options
        if "play" in groups:
            return groups["play"][0]

        goal = self.goal(game, p)
        if "artifact" in groups and (goal == p.pos or goal is None):
            return groups["artifact"][0]

        for i in groups.get("use", ()):
            tok = opts[i].value[1]
            heals = sum(e.get("n", 1) for _, eff in tok.use for e in eff if e["op"] == "heal")
            if heals:
                if p.damage >= heals:
                    return i
            elif p.artifact is not None:
                return i

        if "move" in groups and goal is not None:
            i = self._move(game, p, goal, [(i, opts[i].value) for i in groups["move"]])
            if i is not None:
                return i

        if "coach" in groups and goal is not None:
            dist = game.board.dist
            spaces = game.board.spaces
            here = dist[p.pos][goal]
            for i in groups["coach"]:
                dest = opts[i].value[1]
                saving = here - dist[dest][goal]
                cost = spaces[p.pos].coach + spaces[dest].coach
                if saving >= 3 and cost <= 2 * saving:
                    return i

        if "fight" in groups:
            return max(groups["fight"], key=lambda i: triggers_value(opts[i].value[1].defeat))

        if "acquire" in groups or "acquire reserve" in groups:
            cands = groups.get("acquire", []) + groups.get("acquire reserve", [])
            scores = [self.card_score(game, p, opts[i].value[1]) for i in cands]
            best = max(scores)
            if best >= 1.5:
                return cands[scores.index(best)]

        if "fight reserve" in groups:
            return groups["fight reserve"][0]

        price = game.rules["market_price"]
        for i in groups.get("buy", ()):
            if best_market_item(game, opts[i].value[1]).points > price:
                return i

        return groups["end"][0] if "end" in groups else 0

    def _move(
        self, game: Any, p: Any, goal: int, moves: list[tuple[int, tuple[Any, ...]]]
    ) -> int | None:
        dist = game.board.dist
        now = dist[p.pos][goal]
        left = game.rules["health"] - p.damage
        best, best_key = None, None
        for i, (_, m, swords) in moves:
            after = dist[m.to][goal]
            if after >= now:
                continue
            hurt = m.monsters - swords
            # Never walk into a knock-out; when hurt, avoid damage unless heading home.
            if hurt and (left - hurt <= 1 or (left - hurt <= self.CAREFUL and not p.artifact)):
                continue
            shortest = m.boots + after == now
            key = (shortest, -hurt, -swords if not hurt else 0, -after)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return best


BOTS: dict[str, Callable[[int], Any]] = {"greedy": GreedyBot, "random": RandomBot}


def make_bot(name: str, seed: int = 0) -> Any:
    """A new bot by name ("greedy", "random"), seeded for its game and seat."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None

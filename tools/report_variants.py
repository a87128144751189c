"""Variant runs of `clankwork simulate`: the same seeds played with one change to the pack.

``--without CARD`` takes a card's copies out of every deck, ``--give CARD@SEAT`` puts one copy
into a seat's starting deck, ``--sweep KEY=V1,V2`` and ``--sweep cost:CARD=V1,V2`` play each
value of a rule or of a card's cost. A change is plain data (`Change`), sent to the workers
with the run's spec; each worker applies it to the catalog it prepares (`apply_changes`), so a
variant plays the same on one process, many, or a Dask cluster.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clankwork.interpreter.catalog import CardDef, Catalog
from clankwork.interpreter.intervals import (
    ci,
    difference_interval,
    mean_interval,
    num,
    rate,
    rate_ci,
)
from clankwork.interpreter.stats import SHARE_UNIT, RunTotals, first_player
from clankwork.interpreter.steps import Planned, Step

if TYPE_CHECKING:
    from clankwork.interpreter.game import Game

# The most values one --sweep may list (each is a whole run of games).
MAX_SWEEP_VALUES = 20


class ChangeError(ValueError):
    """A change that names no card of the pack, a seat the run does not have, a bad value."""


@dataclass(frozen=True)
class Change:
    """One change to a run: ``kind`` is ``without``, ``give``, ``cost`` or ``rule``."""

    kind: str
    card: str = ""  # the card's name as the pack spells it (without, give, cost)
    seat: int = 1  # give: the seat (1 = the first player) whose starting deck gets the card
    key: str = ""  # rule: the rule's name
    value: Any = None  # cost: the new cost; rule: the rule's value

    @property
    def label(self) -> str:
        """What the change is, in a few words (the report's name for the variant)."""
        if self.kind == "without":
            return f"without {self.card}"
        if self.kind == "give":
            return f"{self.card} given to seat {self.seat}"
        if self.kind == "cost":
            return f"cost:{self.card}={self.value}"
        return f"{self.key}={json.dumps(self.value)}"

    def record(self) -> dict[str, Any]:
        """The change as the report's JSON states it."""
        out: dict[str, Any] = {"kind": self.kind, "label": self.label}
        if self.kind in ("without", "give", "cost"):
            out["card"] = self.card
        if self.kind == "give":
            out["seat"] = self.seat
        if self.kind == "rule":
            out["rule"] = self.key
        if self.kind in ("cost", "rule"):
            out["value"] = self.value
        return out


def find_card(catalog: Catalog, name: str) -> CardDef:
    """The pack's card of that name (any case); `ChangeError` naming the closest ones."""
    card = catalog.by_name.get(name.strip().lower())
    if card is not None:
        return card
    names = [c.name for c in catalog.cards]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise ChangeError(f"the pack has no card named {name!r}{hint}")


def without(catalog: Catalog, name: str) -> Change:
    """The change ``--without NAME``: the card's copies out of every deck."""
    card = find_card(catalog, name)
    return Change("without", card.name)


def give(catalog: Catalog, text: str, players: int) -> Change:
    """The change ``--give NAME[@SEAT]`` (seat 1 when not given)."""
    name, at, seat_text = text.rpartition("@")
    if not at or not seat_text.strip().isdigit():
        name, seat = text, 1
    else:
        seat = int(seat_text)
        if not 1 <= seat <= players:
            raise ChangeError(
                f"{text!r}: seat {seat} of {players} players (seats are 1 to {players})"
            )
    card = find_card(catalog, name)
    return Change("give", card.name, seat=seat)


def sweep(catalog: Catalog, text: str) -> list[Change]:
    """The changes of ``--sweep KEY=V1,V2,...`` (a rule; values are JSON) or
    ``--sweep cost:CARD=V1,V2,...`` (a card's cost), one per value, in the order given."""
    key, eq, values_text = text.partition("=")
    key = key.strip()
    if not eq or not key or not values_text.strip():
        raise ChangeError(f"{text!r}: expected RULE=V1,V2,... or cost:CARD=V1,V2,...")
    parts = _split_values(values_text)
    if len(parts) > MAX_SWEEP_VALUES:
        raise ChangeError(
            f"{text!r}: {len(parts)} values; a sweep plays at most {MAX_SWEEP_VALUES}"
        )
    if key.lower().startswith("cost:"):
        card = find_card(catalog, key[5:])
        out = []
        for part in parts:
            if not part.isdigit() or len(part) > 3:
                raise ChangeError(f"{text!r}: a cost is a whole number 0 to 999, not {part!r}")
            out.append(Change("cost", card.name, value=int(part)))
        return out
    rule = key.replace(" ", "_").replace("-", "_")
    out = []
    for part in parts:
        try:
            value = json.loads(part)
        except (ValueError, RecursionError):
            raise ChangeError(f"{text!r}: each value must be JSON, not {part!r}") from None
        out.append(Change("rule", key=rule, value=value))
    return out


def _split_values(text: str) -> list[str]:
    """Comma-separated values, commas inside brackets kept (``[2,3],[3,4]``)."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth <= 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    parts.append("".join(current).strip())
    return [p for p in parts if p]


def rule_overrides(changes: tuple[Change, ...]) -> dict[str, Any]:
    """The rule overrides the changes make."""
    return {c.key: c.value for c in changes if c.kind == "rule"}


def apply_changes(catalog: Catalog, changes: tuple[Change, ...]) -> Catalog:
    """A copy of the catalog with the card changes made (rule changes go to the rules the
    game is given); the catalog itself is not changed."""
    cards = list(catalog.cards)
    steps = dict(catalog.steps)
    for change in changes:
        if change.kind == "rule":
            continue
        k = next(i for i, c in enumerate(cards) if c.name == change.card)
        card = cards[k]
        if change.kind == "without":
            if card.deck == "reserve" and card.type == "monster":
                del cards[k]  # a reserve monster has no copies to take out: it goes
            else:
                cards[k] = dataclasses.replace(card, copies=0)
        elif change.kind == "cost":
            cards[k] = dataclasses.replace(card, cost=int(change.value))
        elif change.kind == "give":
            steps["setup"] = _with_give(steps["setup"], change.card, change.seat)
    by_name = dict(catalog.by_name)
    by_name.update({c.name.lower(): c for c in cards})
    return dataclasses.replace(catalog, cards=cards, by_name=by_name, steps=steps)


def _with_give(setup: tuple[Planned, ...], name: str, seat: int) -> tuple[Planned, ...]:
    """The setup steps with one that puts a copy of ``name`` into seat ``seat``'s deck,
    right after the starting decks are dealt (before the opening hands)."""

    def handler(game: Game) -> None:
        player = game.players[game.order[seat - 1]]
        card = game.catalog.by_name[name.lower()]
        # Its place in the deck comes from a random stream of its own: the game's own
        # stream, and so the rest of the deal, stays as in the game without the change.
        place = random.Random(game.seed * 2654435761 + seat).randrange(len(player.deck) + 1)
        player.deck.insert(place, card)

    step = Step("setup.give", handler, f"One {name} into seat {seat}'s starting deck.")
    planned = Planned("setup.give", step, None)
    names = [p.name for p in setup]
    at = names.index("setup.players") + 1 if "setup.players" in names else len(setup)
    if "setup.players" not in names and "setup.hands" in names:
        at = names.index("setup.hands")
    return (*setup[:at], planned, *setup[at:])


def card_figures(totals: RunTotals, name: str, players: int) -> dict[str, Any]:
    """A card's own figures in a run: copies acquired (and a game), the player-games that
    took one and their win rate, those that passed it, and its edge with its interval (as
    the report's card table has them); and as the report's offers table has it, the
    player-turns a game it was offered (in the row or reserve with the skill for it) and the
    times a game it was chosen, and the share of the player-games offered it that took it."""
    t = totals
    key = ("card", name)
    takers, won = t.acquirers[name], t.acquirer_wins[name]
    passed, passed_won = t.passers[name], t.passer_wins[name]
    edge = won / takers - passed_won / passed if takers and passed else 0
    # Copies acquired a game: its squares are not kept per card, so the interval is that of
    # the player-games' rate of taking one (the share of player-games that acquired it).
    return {
        "name": name,
        "acquired": t.acquired[name],
        "per_game": rate(t.acquired[name], t.games),
        "players": takers,
        "players_rate": rate(takers, t.games * players),
        "players_rate_ci": rate_ci(takers, t.games * players),
        "win_rate": rate(won, takers),
        "win_rate_ci": rate_ci(won, takers),
        "passed": passed,
        "edge": num(edge),
        "edge_ci": ci(difference_interval(won, takers, passed_won, passed)),
        "first_round": rate(t.first_round_sum[name], takers),
        "first_round_ci": ci(
            mean_interval(t.first_round_sum[name], t.first_round_sq[name], takers)
        ),
        "offered_per_game": rate(t.offers[key], t.games),
        "offered_per_game_ci": ci(mean_interval(t.offers[key], t.offers_sq[key], t.games)),
        "chosen_per_game": rate(t.chosen[key], t.games),
        "chosen_per_game_ci": ci(mean_interval(t.chosen[key], t.chosen_sq[key], t.games)),
        "offered_players": t.offer_players[key],
        "use_rate": rate(t.chooser_players[key], t.offer_players[key]),
        "use_rate_ci": rate_ci(t.chooser_players[key], t.offer_players[key]),
    }


def seat_one(totals: RunTotals, players: int) -> dict[str, Any]:
    """Seat 1's share of the games with a winner in a run (`stats.first_player`)."""
    shares = totals.win_shares_seat + [0] * (players - len(totals.win_shares_seat))
    return first_player(
        shares[0] / SHARE_UNIT, totals.games - totals.no_winner, max(players, 1), totals.games
    )


def _points(x: float) -> str:
    return f"{x * 100:+.1f}"


def _delta_rate(d: float, ci: dict[str, float]) -> str:
    """A change of a rate in percentage points with its interval: ``+1.2 [-0.8, +3.1]``."""
    return f"{_points(d)} [{_points(ci['low'])}, {_points(ci['high'])}]"


def _delta_mean(d: float, ci: dict[str, float]) -> str:
    return f"{d:+.2f} [{ci['low']:+.2f}, {ci['high']:+.2f}]"


def format_variants(variants: list[dict[str, Any]], table: Any) -> list[str]:
    """The variants as tables for the terminal (``table`` lays out rows of cells)."""
    if not variants:
        return []
    lines = [
        "",
        f"variants, each on the same {variants[0]['games']} seeds as the run above "
        "(change from it, 95% interval; rates in points):",
    ]
    for v in variants:
        r = v["rounds"]
        lines.append("")
        change = _delta_mean(r["delta"], r["delta_ci"])
        lines.append(f"{v['change']['label']}: rounds {r['mean']:.2f} ({change})")
        given = v["change"].get("seat") if v["change"]["kind"] == "give" else None
        rows = [("seat", "win rate", "change", "mean score", "change")]
        for s in v["by_seat"]:
            ci = s["win_rate_ci"]
            mark = " *" if s["seat"] == given else ""
            rows.append(
                (
                    f"{s['seat']}{mark}",
                    f"{s['win_rate']:.1%} [{ci['low'] * 100:.1f}–{ci['high'] * 100:.1f}]",
                    _delta_rate(s["win_rate_delta"], s["win_rate_delta_ci"]),
                    f"{s['mean_score']:.2f}",
                    _delta_mean(s["mean_score_delta"], s["mean_score_delta_ci"]),
                )
            )
        lines += table(rows)
        if given is not None:
            lines.append(f"* the seat given {v['change']['card']}")
        if "card" in v:
            lines.append(_card_line(v["card"]))
    lines += _sweep_tables(variants, table)
    return lines


def _card_line(c: dict[str, Any]) -> str:
    """A variant's card in a line: how much it was bought and its edge."""
    ci_ = c["players_rate_ci"]
    return (
        f"{c['name']}: acquired {c['per_game']:.2f} a game, by {c['players_rate']:.1%} "
        f"[{ci_['low'] * 100:.1f}–{ci_['high'] * 100:.1f}] of players; edge "
        f"{_delta_rate(c['edge'], c['edge_ci'])}"
    )


def _sweep_tables(variants: list[dict[str, Any]], table: Any) -> list[str]:
    """Each cost sweep as one table: the card's own figures and seat 1's share at each
    value."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for v in variants:
        if v["change"]["kind"] == "cost" and "card" in v:
            groups.setdefault(v["change"]["card"], []).append(v)
    lines: list[str] = []
    for card, group in groups.items():
        head = ("a game", "offered / chosen", "taken when offered", "by players")
        rows = [(f"cost of {card}", *head, "edge (points)", "seat 1 share")]
        for v in group:
            c, fp = v["card"], v["first_player"]
            pc, fc, uc = c["players_rate_ci"], fp["win_rate_ci"], c["use_rate_ci"]
            rows.append(
                (
                    str(v["change"]["value"]),
                    f"{c['per_game']:.2f}",
                    f"{c['offered_per_game']:.2f} / {c['chosen_per_game']:.2f}",
                    f"{c['use_rate']:.1%} [{uc['low'] * 100:.1f}–{uc['high'] * 100:.1f}]"
                    if c["offered_players"]
                    else "never offered",
                    f"{c['players_rate']:.1%} [{pc['low'] * 100:.1f}–{pc['high'] * 100:.1f}]",
                    _delta_rate(c["edge"], c["edge_ci"]),
                    f"{fp['win_rate']:.1%} [{fc['low'] * 100:.1f}–{fc['high'] * 100:.1f}]",
                )
            )
        lines += ["", f"sweep of {card}'s cost: the card's own figures at each value", *table(rows)]
    return lines


def variant_figures(change: Change, totals: RunTotals, players: int) -> dict[str, Any]:
    """What a variant run adds to its comparison: seat 1's share of the games with a winner,
    and the changed card's own figures (a card's cost swept, a card given; not a card taken
    out, which nobody can acquire)."""
    out: dict[str, Any] = {"first_player": seat_one(totals, players)}
    if change.kind in ("cost", "give"):
        out["card"] = card_figures(totals, change.card, players)
    return out


def format_ladder(rows: list[dict[str, Any]], table: Any) -> list[str]:
    """Seat 1's share by bot strength (`simulate --ladder`), as a table."""
    if not rows:
        return []
    cells = [("every seat", "games with a winner", "seat 1's share", "fair", "verdict")]
    for r in rows:
        ci_ = r["win_rate_ci"]
        cells.append(
            (
                r["bot"],
                str(r["games"]),
                f"{r['win_rate']:.1%} [{ci_['low'] * 100:.1f}–{ci_['high'] * 100:.1f}]",
                f"{r['fair']:.0%}",
                r["verdict"].split(":")[0],
            )
        )
    return [
        "",
        "first-player advantage by bot strength (the same seeds, every seat the same bot):",
        *table(cells, right={1, 2, 3}),
    ]

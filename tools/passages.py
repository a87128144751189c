"""Book of Secrets passages, read for a campaign: their text shown when read, their choices
made by the player a passage is directed at.

A passage's choice goes to one seat (the player who entered the waypoint, completed the
contract, was promoted; the winner for an epilogue). `read_passages` asks that seat through
an ``ask`` callback when a person holds it (a terminal prompt, a results file's answer) and
lets the seat's bot decide otherwise, seeded by the game: the same game, the same choices.
The callback does not care when the passage is read (before setup, during a turn, after the
game), so the same asking serves a passage read after the game and one read as it happens.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import click

from clankwork.interpreter.bots import effects_value
from clankwork.interpreter.stickers import stickers

# Passages a game's prologue or epilogue may lead to, read at most (a loop of `read`s ends).
MAX_READS = 100

Ask = Callable[[dict[str, Any]], int]
"""A person's answer to a passage's choice: the passage's IR in, the option's index out."""
Say = Callable[[str], None]
"""Where the text of each passage read is written (a terminal), as it is read."""


def passage(ir: dict[str, Any], number: int) -> dict[str, Any] | None:
    """The pack's passage ``number`` (None when the pack has none of that number)."""
    return next((p for p in ir.get("passages", ()) if p["number"] == number), None)


def passage_worth(ir: dict[str, Any], number: int, seen: frozenset[int] = frozenset()) -> float:
    """What reading passage ``number`` (and what it leads to) is worth to a player, roughly,
    as a bot weighs a choice: its rule stickers' and Franchise Board abilities' effects as
    the greedy bot values effects, +1 a checkmark, -1 an X on a campaign track (a track's X
    counts against the players, as the `mark_track` effect's appraisal says), a little for
    a card fetched or a contract opened; a choice counts its best option."""
    ps = passage(ir, number)
    if ps is None or number in seen or len(seen) > MAX_READS:
        return 0.0
    seen = seen | {number}
    known = stickers(ir)
    worth = 0.0
    for d in ps["do"]:
        if d["do"] == "sticker" and d["name"] in known:
            st = known[d["name"]]
            worth += effects_value(st.get("effects", []))
            worth += sum(effects_value(t["effects"]) for t in st.get("abilities", ()))
            # A board or card sticker: what its new lines give, at half (a space or a card
            # is met now and then).
            items = [e.get("item") or {} for e in st.get("edits", ())]
            items += [sp for b in st.get("boards", ()) for sp in b["spaces"]]
            worth += 0.5 * sum(
                effects_value(t["effects"]) for it in items for t in it.get("triggers", ())
            )
        elif d["do"] == "checkmark":
            worth += 1.0
        elif d["do"] == "mark":
            worth -= 1.0
        elif d["do"] in ("fetch", "contract"):
            worth += 0.25
        elif d["do"] == "read":
            worth += passage_worth(ir, d["passage"], seen)
    if ps.get("choices"):
        worth += max(passage_worth(ir, c["read"], seen) for c in ps["choices"])
    return worth


def bot_choice(ir: dict[str, Any], ps: dict[str, Any], bot: str, rng: random.Random) -> int:
    """The option a seat's bot takes: a random bot at random, any other the option worth
    most to it (`passage_worth`; a tie at random)."""
    options = list(range(len(ps["choices"])))
    if bot != "random":
        worth = [passage_worth(ir, c["read"]) for c in ps["choices"]]
        options = [k for k in options if worth[k] >= max(worth) - 1e-9]
    return options[rng.randrange(len(options))]


def read_passages(
    ir: dict[str, Any],
    start: int,
    seed: int,
    bot: str = "random",
    *,
    by: int | None = None,
    ask: Ask | None = None,
    say: Say | None = None,
    who: str = "",
) -> dict[str, Any]:
    """Read passage ``start`` and every passage it leads to. A choice goes to ``ask`` (a
    person's seat) or else to the seat's bot ``bot`` (seeded: the same game, the same
    choices); ``say`` gets each passage's text as it is read, and the choice made. What was
    read, with the choice made, and what the passages did: stickers applied, checkmarks for
    each player, X on each campaign track, cards fetched and destroyed, contracts opened, the
    next game's patron and board; ``by``: the seat the passages were directed at."""
    by_no = {p["number"]: p for p in ir.get("passages", ())}
    rng = random.Random(seed * 100_003 + start)
    out = _reading(by)
    queue = [start]
    while queue and len(out["read"]) < MAX_READS:
        ps = by_no.get(queue.pop(0))
        if ps is None:
            continue
        if say is not None:
            say(passage_text(ps))
        queue += _take(ps, out)
        choice = None
        if ps.get("choices"):
            # The bot's draw is made even when a person answers, so the seeded choices of
            # the passages after it are the same whoever answered this one.
            picked = bot_choice(ir, ps, bot, rng)
            choice = ask(ps) if ask is not None else picked
            if not 0 <= choice < len(ps["choices"]):
                raise ValueError(f"passage {ps['number']}: no option {choice + 1}")
            queue.append(ps["choices"][choice]["read"])
            if say is not None:
                _say_choice(say, ps, choice, who)
        out["read"].append([ps["number"], choice])
    return out


def read_during_game(
    ir: dict[str, Any],
    records: list[list[int]],
    *,
    say: Say | None = None,
    who: Callable[[int], str] | None = None,
) -> list[dict[str, Any]]:
    """The readings of the passages a campaign game read as they happened (the engine's
    `passages_read`: [passage, seat, option chosen or -1, 1 for a passage first asked for]),
    in the shape `read_passages` gives, one for each passage first asked for with those it
    led to: the game followed the passages' `read` lines and asked their choices itself, so
    nothing is asked or followed here; ``say`` gets each text and choice as `read_passages`
    says them."""
    by_no = {p["number"]: p for p in ir.get("passages", ())}
    out: list[dict[str, Any]] = []
    for number, seat, choice, first in records:
        ps = by_no.get(number)
        if ps is None:
            continue
        if first or not out:
            out.append(_reading(seat))
        if say is not None:
            say(passage_text(ps))
        _take(ps, out[-1])
        picked = choice if choice >= 0 and ps.get("choices") else None
        if picked is not None and say is not None:
            _say_choice(say, ps, picked, who(seat) if who is not None else "")
        out[-1]["read"].append([number, picked])
    return out


def _reading(by: int | None) -> dict[str, Any]:
    """A reading with nothing read yet, directed at seat ``by``."""
    out: dict[str, Any] = {
        "read": [],
        "stickers": [],
        "checkmarks": 0,
        "marks": {},
        "fetched": [],
        "destroyed": [],
        "contracts": [],
    }
    if by is not None:
        out["by"] = by
    return out


def _take(ps: dict[str, Any], out: dict[str, Any]) -> list[int]:
    """What passage ``ps``'s lines do, added to the reading ``out``; the passages its `read`
    lines lead to."""
    then = []
    for d in ps["do"]:
        if d["do"] == "sticker":
            out["stickers"].append(d["name"])
        elif d["do"] == "checkmark":
            out["checkmarks"] += 1
        elif d["do"] == "mark":
            out["marks"][d["track"]] = out["marks"].get(d["track"], 0) + 1
        elif d["do"] == "read":
            then.append(d["passage"])
        elif d["do"] == "fetch":
            out["fetched"].append(d["card"])
        elif d["do"] == "destroy":
            out["destroyed"].append(d["name"])
        elif d["do"] == "contract":
            out["contracts"].append(d["name"])
        elif d["do"] in ("patron", "board"):
            out[d["do"]] = d["name"]  # the last one read counts
    return then


def _say_choice(say: Say, ps: dict[str, Any], choice: int, who: str) -> None:
    said = f"{who} chose" if who else "chose"
    say(f"  {said} {choice + 1}. {ps['choices'][choice]['label']}")


def passage_text(ps: dict[str, Any]) -> str:
    """A passage as a reader sees it: its number, its text, its choices numbered."""
    lines = [f"passage {ps['number']}: {ps.get('text') or '(no text)'}"]
    lines += [f"  {k}. {c['label']}" for k, c in enumerate(ps.get("choices", ()), start=1)]
    return "\n".join(lines)


def choice_index(ps: dict[str, Any], answer: Any) -> int | None:
    """The option of ``ps`` an answer names: its number (from 1, an int or digits) or its
    label (any case); None when it names none."""
    choices = ps.get("choices", ())
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int) or (isinstance(answer, str) and answer.strip().isdigit()):
        k = int(answer) - 1
        return k if 0 <= k < len(choices) else None
    if isinstance(answer, str):
        want = answer.strip().casefold()
        for k, c in enumerate(choices):
            if c["label"].casefold() == want:
                return k
    return None


def terminal_ask(name: str) -> Ask:
    """Ask the person called ``name`` a passage's choice in the terminal (the passage's text
    and options were printed as it was read); asked again until it names an option."""

    def ask(ps: dict[str, Any]) -> int:
        n = len(ps["choices"])
        while True:
            text = click.prompt(f"{name}, your choice for passage {ps['number']} (1-{n})")
            k = choice_index(ps, text)
            if k is not None:
                return k
            click.echo(f"  choose 1 to {n}")

    return ask

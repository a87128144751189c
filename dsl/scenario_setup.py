"""How the scenario compiler reads each setup statement (`players 3`, `place Spike on tunnel
Hall -- Cellar`, `player 1 { ... }`), registered by the verb's words (dsl/scenario_words.py);
the statements' records and their run side are interpreter/scenario_setup.py's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .diagnostics import Span, did_you_mean
from .parser import Atom, Stmt, atoms_span
from .resolve import near_miss
from .scenario_facts import article, boxes_problem, counter_problem
from .scenario_words import (
    PLAYER_LISTS,
    PLAYER_NUMBERS,
    PLAYER_SETUP,
    at,
    compiles,
    is_none,
    lower,
)

if TYPE_CHECKING:
    from .scenarios import _ScenarioCompiler

SETUP_NUMBERS = ("players", "seed", "rage")


def _setup_number(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> None:
    key = s.words[0]
    value = c.number(s, args, key, key)
    if value is None:
        c.pending.broken.add(key)
        return
    sc[key] = value
    if key == "players":
        c.pending.players_at = args[0].span
    elif key == "rage":
        c.pending.rage.append((value, args[0].span, "rage"))


for _key in SETUP_NUMBERS:
    compiles(_key)(_setup_number)


@compiles("as dealt")
def _as_dealt(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> bool | None:
    if args:
        return False
    sc["dealt"] = True
    return None


@compiles("counter")
def _counter(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> bool | None:
    if len(args) != 2 or args[1].kind != "number":
        return False
    name = c.ref(args[0], c.counters, "counter")
    value = c.number(s, args[1:], "counter", "scenario count")
    if (
        name is not None
        and value is not None
        and c.fits(counter_problem(c.facts, name, value, args[1].span))
    ):
        sc.setdefault("counters", {})[name] = value
    return None


@compiles("first player")
def _first(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> None:
    value = c.number(s, args, "first player", "seat")
    if value is not None:
        sc["first"] = value
        c.pending.seats.append((value, args[0].span, "first player"))


@compiles("sticker")
def _sticker(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> bool | None:
    """A campaign's sticker applied before the game (interpreter/stickers.py)."""
    if len(args) != 1:
        return False
    name = c.ref(args[0], c.stickers, "sticker")
    if name is not None:
        sc.setdefault("stickers", []).append(name)
    return None


@compiles("fetch")
def _fetch(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> bool | None:
    """A campaign's Cardporium card fetched into the adventure deck before setup."""
    if len(args) != 1:
        return False
    n = c.number(s, args, "fetch", "scenario count")
    if n is not None and n not in c.cardporium:
        c.error(
            "CW107",
            f"the pack has no Cardporium card {n}",
            args[0].span,
            hint="Cardporium cards: " + (", ".join(map(str, sorted(c.cardporium))) or "none"),
        )
    elif n is not None:
        sc.setdefault("fetched", []).append(n)
    return None


@compiles("destroy")
def _destroy(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> bool | None:
    if len(args) != 1:
        return False
    name = c.ref(args[0], c.cards, "card")
    if name is not None:
        sc.setdefault("destroyed", []).append(name)
        c.pending.destroyed.append((name, args[0].span))
    return None


@compiles("campaign")
def _campaign(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> bool | None:
    """A campaign game: personal goals mark their boxes, and the post-game steps run once the
    game is scored (before the last expectations are checked)."""
    if args:
        return False
    sc["campaign"] = True
    return None


def _named(key: str, pool: str, what: str) -> None:
    """`patron NAME`, `contract NAME`: one declared name, added to the scenario's list."""

    def read(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> bool | None:
        if len(args) != 1:
            return False
        name = c.ref(args[0], getattr(c, pool), what)
        if name is not None:
            sc.setdefault(key, []).append(name)
        return None

    compiles(what)(read)


_named("patrons", "patrons", "patron")
# A contract open in the Contracts row for this game.
_named("contracts", "contracts", "contract")


@compiles("goal")
def _goal(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> bool | None:
    """Boxes of a personal goal filled in earlier games of the campaign."""
    if len(args) != 2:
        return False
    name = c.ref(args[0], c.goals, "goal")
    n = c.number(s, args[1:], "goal", "scenario count")
    if name is not None and n is not None and c.fits(boxes_problem(c.facts, name, n, args[1].span)):
        sc.setdefault("goals_before", {})[name] = n
        c.pending.goals.append((name, args[0].span, None))
    return None


@compiles("modules")
def _modules(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> None:
    """A modular board's assembly, as `--modules` writes it (interpreter/assembly.py)."""
    if len(args) == 1 and args[0].kind == "string":
        sc["modules"] = args[0].text
        c.pending.modules_at = args[0].span
        return
    c.error(
        "CW105",
        "`modules` takes the assembly in double quotes",
        atoms_span(args) if args else s.span,
        hint='modules "1=Hydroponics, 2=Med Lab"',
    )


@compiles("board")
def _board(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> bool | None:
    if len(args) != 1:
        return False
    board = c.ref(args[0], {k: v["name"] for k, v in c.boards.items()}, "board")
    if board is None:
        c.pending.broken.add("board")
    else:
        sc["board"] = board
    return None


@compiles("row")
@compiles("adventure")
def _cards(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> None:
    """`row CARD...`, `adventure CARD...`, and `adventure deck|discard CARD...` (`none`)."""
    key = s.words[0]
    if key == "adventure" and args and lower(args[:1])[0] in ("deck", "discard"):
        pile = "adventure_" + args[0].text.lower()
        cards = args[1:]
        names = [] if is_none(cards) else c.card_list(cards)
        if names is not None:
            sc[pile] = names
        return
    names = c.card_list(args)
    if names is not None:
        sc[key] = names


def _secrets(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, atoms: list[Atom]) -> None:
    """`minor secrets TOKEN...`, `major secrets TOKEN...` (`none`: an empty bank)."""
    size = s.words[0]
    names = [] if is_none(atoms) else c.refs(atoms, c.tokens, "token")
    if names is None:
        return
    bad = [n for n in names if c.token_kind[n] != size]
    if bad:
        c.error(
            "CW105",
            f"{bad[0]!r} is not a {size} secret",
            s.span,
            hint=f"`{size} secrets` lists the {size} secrets of the bank",
        )
        return
    sc[f"{size}_bank"] = names


compiles("minor secrets")(_secrets)
compiles("major secrets")(_secrets)


@compiles("block")
def _block(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> None:
    path = c.path(s, args)
    if path is not None:
        sc.setdefault("block", []).append(path)


@compiles("switch")
def _switch(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, args: list[Atom]) -> None:
    switch = c.switch(s, args)
    if switch is not None:
        sc.setdefault("switches", {})[switch[0]] = switch[1]


@compiles("reserve")
def _reserve_pile(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, rest: list[Atom]) -> None:
    if len(rest) != 2 or rest[1].kind != "number":
        c.error(
            "CW105",
            "reserve takes a reserve card and the number left in its pile",
            s.span,
            hint="reserve Explore 0",
        )
        return
    name = c.ref(rest[0], c.reserve, "reserve card")
    left = c.in_range(rest[1], "a reserve pile", "scenario count")
    if name is None or left is None:
        return
    copies = c.facts.copies.get(name, 1)
    if left > copies:
        c.error(
            "CW141",
            f"the {name} pile holds {copies} cards, not {left}",
            rest[1].span,
            hint=f"a number from 0 to {copies}",
        )
        return
    sc.setdefault("reserve", {})[name] = left


@compiles("place")
def _place(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, rest: list[Atom]) -> None:
    words = lower(rest)
    if len(rest) == 6 and words[1] == "on" and words[2] in ("tunnel", "path"):
        path = c.path(s, rest[2:])
        token = c.ref(rest[0], c.tokens, "token")
        if path is not None and token is not None:
            sc.setdefault("place_on_path", []).append({"token": token, "path": path})
        return
    if len(rest) != 3 or words[1] != "on":
        c.error(
            "CW105",
            "place takes a token (or `nothing`), `on` and a space",
            s.span,
            hint='place "Greater Treasure" on "Stonecutter\'s Pass"',
        )
        return
    space = c.space(rest[2])
    token = None
    if words[0] != "nothing":
        token = c.ref(rest[0], c.tokens, "token")
        if token is None:
            return
    if space:
        sc.setdefault("place", []).append({"token": token, "space": space})


@compiles("bag")
def _bag(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, rest: list[Atom]) -> bool | None:
    if not rest:
        return False
    words = lower(rest)
    bag = sc.setdefault("bag", {})
    if words[0] == "black" and len(rest) == 2 and rest[1].kind == "number":
        n = c.in_range(rest[1], "black cubes", "scenario count")
        if n is not None:
            bag["black"] = n
            c.pending.black.append((n, rest[1].span))
    elif words[0] == "player" and len(rest) == 3 and all(a.kind == "number" for a in rest[1:]):
        seat = c.seat(rest[1], "bag player")
        n = c.in_range(rest[2], "cubes", "scenario count")
        if seat is not None and n is not None:
            bag[str(seat)] = n
            c.pending.cubes.setdefault(seat, []).append((n, rest[2].span, "bag player"))
    else:
        c.error(
            "CW105",
            "bag takes `black N` or `player SEAT N`",
            s.span,
            hint="bag black 3 / bag player 2 1",
        )


@compiles("draws")
def _draws(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, rest: list[Atom]) -> bool | None:
    """`draws black 1 2 Hunter`: the next cubes drawn (black, a seat, a cube token)."""
    if not rest:
        return False
    draws: list[Any] = []
    for a in rest:
        if a.kind == "number":
            seat = c.seat(a, "draws player")
            if seat is None:
                return
            draws.append(seat)
        elif a.kind == "word" and a.text.lower() == "black":
            draws.append("black")
        elif a.kind in ("word", "string") and a.text in c.facts.cubes:
            # A cube token's name (a pack's `cube N` token).
            draws.append({"token": a.text})
        elif a.kind in ("word", "string") and a.text in c.tokens:
            c.error(
                "CW142",
                f"{a.text!r} is {article(c.token_kind[a.text])} token, not a cube the bag holds",
                a.span,
                hint="draws lists `black`, player numbers or cube tokens (`cube N`)",
            )
            return
        elif a.kind in ("word", "string"):
            cubes = ["black", *c.facts.cubes]
            c.error(
                "CW107",
                f"no cube named {a.text!r}: draws lists `black`, player numbers or the "
                "pack's cube tokens",
                a.span,
                hint=near_miss(a.text, cubes)
                or "cubes: black, a player number" + "".join(f", {cube}" for cube in c.facts.cubes),
            )
            return
        else:
            c.error("CW105", "draws lists `black`, player numbers or cube tokens", a.span)
            return
    sc["draws"] = draws


@compiles("rolls")
def _rolls(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, rest: list[Atom]) -> bool | None:
    """`rolls 3 1`: what the next random outcomes (`roll (...)`) come up, in order: the
    N-th option of each, counted from 1."""
    if not rest:
        return False
    picks: list[int] = []
    for a in rest:
        if a.kind != "number":
            c.error(
                "CW105",
                f"rolls lists option numbers (from 1), not `{a.source()}`",
                a.span,
                hint="`rolls 2 1`: the second option of the next roll, then the first",
            )
            return
        pick = c.in_range(a, "a rolled option", "rolls")
        if pick is None:
            return
        picks.append(pick)
    sc["rolls"] = picks


@compiles("player")
def _player(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, _args: list[Atom]) -> bool | None:
    if s.block is None:
        return False
    if len(s.head) != 2 or s.head[1].kind != "number":
        c.error("CW105", "player takes a seat number", s.span, hint="player 1 { ... }")
        return
    seat = c.seat(s.head[1], "player")
    if seat is None:
        return
    entry: dict[str, Any] = {"seat": seat, "at": at(s.span)}
    for p in s.block or []:
        _player_line(c, entry, p)
    sc["setup"].append(entry)


def _player_line(c: _ScenarioCompiler, entry: dict[str, Any], p: Stmt) -> None:
    """One statement of `player N { ... }` into the player's setup entry."""
    seat, pending = entry["seat"], c.pending
    words, rest = p.words, p.head[1:]
    key = words[0]
    if words[:2] == ["in", "play"]:
        key, rest = "in play", p.head[2:]
    if key in PLAYER_LISTS:
        names = c.refs(rest, c.tokens, "token") if key == "tokens" else c.card_list(rest)
        if names is not None:
            entry[key.replace(" ", "_")] = names
    elif key in PLAYER_NUMBERS:
        value = c.number(p, rest, key, "scenario count")
        if value is not None:
            entry[key] = value
            _player_number(c, seat, key, value, p.span)
    elif len(words) > 1 and " ".join(map(str, words[:-1])) in c.resource_words:
        # A pack's declared resource: `favour 2`, `special moves 1`.
        name = c.resource_words[" ".join(map(str, words[:-1]))]
        value = c.number(p, p.head[-1:], name, "scenario count")
        if value is not None and name in c.declared_resources:
            entry.setdefault("pools", {})[name] = value
            if name in c.per_turn:
                pending.pools.append((seat, p.head_text(), p.span))
        elif value is not None:
            # Another word for a base resource (`credits 3`); every base resource is
            # one of PLAYER_NUMBERS.
            entry[name] = value
            _player_number(c, seat, name, value, p.span, p.head_text())
    elif key == "at" and len(rest) == 1:
        space = c.space(rest[0])
        if space:
            entry["space"] = space
    elif key == "artifact" and len(rest) == 1:
        tok = c.artifact(rest[0])
        if tok:
            entry["artifact"] = tok
    elif key == "status" and words[1:] in (["escaped"], ["knocked", "out"], ["on"]):
        entry["status"] = " ".join(words[1:])
        if entry["status"] == "knocked out":
            pending.knocked_out.add(seat)
    elif key == "status":
        c.error(
            "CW105",
            f"unknown status `{' '.join(a.source() for a in rest)}`",
            atoms_span(rest) if rest else p.span,
            hint=did_you_mean(" ".join(map(str, words[1:])), ["escaped", "knocked out"])
            or "status escaped / status knocked out",
        )
    else:
        c.error(
            "CW102",
            f"unknown player setup `{p.head_text()}`",
            p.head[0].span,
            hint=did_you_mean(key, [*PLAYER_SETUP, "in", *c.resource_words])
            or "player setup: " + ", ".join(PLAYER_SETUP),
        )


def _player_number(
    c: _ScenarioCompiler, seat: int, key: str, value: int, span: Span, said: str | None = None
) -> None:
    """What a player's number means for the checks made once the scenario is read:
    cubes taken from the supply, damage against health, a turn's pool."""
    said = said or f"{key} {value}"
    if key in ("damage", "clank", "supply"):
        c.pending.cubes.setdefault(seat, []).append((value, span, said))
    if key == "damage":
        c.pending.damage.append((seat, value, span))
    if key in ("skill", "swords", "boots"):
        c.pending.pools.append((seat, said, span))

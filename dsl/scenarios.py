"""Compile scenario files (a pack's `scenarios/*.clank`) into scenario IR.

A scenario sets up a position, scripts what the players do, and states what must hold:

    scenario "Example Turn" {
      players 2; rage 5
      row Dryad "Sales Call"
      player 1 { at "Mossy Path"; hand Stumble "Fancy Disguise" Explore Burgle Sidestep }
      play Stumble
      expect player 1 clank 1
      move "Whispering Wood"
      expect player 1 exhausted yes
    }

The interpreter runs the IR (interpreter/scenario.py); this module only checks and lowers it.
Every statement is described, with examples, in docs/scenarios.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clankwork.interpreter.state import state_facts

from .board_blocks import with_board_designs
from .compiler import ParseFn, parser
from .diagnostics import Diagnostic, Span, did_you_mean, has_errors
from .limits import RANGES, bad_name_char, range_problem, shown_name
from .parser import Atom, Stmt
from .resolve import name_key, near_miss
from .scenario_facts import (
    PackFacts,
    Pending,
    act_problem,
    article,
    artifact_problem,
    boxes_problem,
    card_problem,
    check_pending,
    coach_problem,
    counter_problem,
    token_problem,
)
from .sources import PackReader

SETUP_NUMBERS = ("players", "seed", "rage")
SETUP_WORDS = (
    "players",
    "seed",
    "rage",
    "board",
    "modules",
    "as dealt",
    "first player",
    "row",
    "adventure",
    "reserve",
    "minor secrets",
    "major secrets",
    "place",
    "block",
    "switch",
    "bag",
    "draws",
    "rolls",
    "counter",
    "sticker",
    "contract",
    "fetch",
    "destroy",
    "campaign",
    "patron",
    "goal",
    "player",
)
PLAYER_LISTS = ("hand", "deck", "discard", "in play", "tokens")
PLAYER_NUMBERS = ("gold", "damage", "clank", "skill", "swords", "boots", "supply")
PLAYER_SETUP = (*PLAYER_LISTS, *PLAYER_NUMBERS, "at", "artifact", "status")
ACTIONS = (
    "play",
    "acquire",
    "fight",
    "move",
    "buy",
    "coach",
    "take artifact",
    "use",
    "act",
    "end turn",
    "answer",
    "yes",
    "no",
)

# Expectation facts: the words that name them, and the shape of the value after them.
#   int   a number          bool   yes or no          word   on, escaped or knocked out
#   space a space name      token  a token name       token? a token name or `none`
#   card  a card name       int card   a number and a card (owns 6 Burgle)
PLAYER_FACTS: dict[tuple[str, ...], str] = {
    ("skill",): "int",
    ("swords",): "int",
    ("boots",): "int",
    ("gold",): "int",
    ("clank",): "int",
    ("debt",): "int",
    ("damage",): "int",
    ("supply",): "int",
    ("hand",): "int",
    ("deck",): "int",
    ("discard",): "int",
    ("played",): "int",
    ("tokens",): "int",
    ("cards",): "int",
    ("score",): "int",
    ("at",): "space",
    ("status",): "word",
    ("has",): "token",
    ("has", "no"): "token",
    # A status in force (interpreter/statuses.py): a name, or a prohibition in quotes
    # ("cannot use boots").
    ("has", "status"): "status",
    ("has", "no", "status"): "status",
    ("exhausted",): "bool",
    ("artifact",): "token?",
    ("owns",): "int card",
    ("hand", "has"): "card",
    ("hand", "has", "no"): "card",
    ("deck", "has"): "card",
    ("deck", "has", "no"): "card",
    ("discard", "has"): "card",
    ("discard", "has", "no"): "card",
    ("in", "play", "has"): "card",
    ("in", "play", "has", "no"): "card",
    # A campaign game: boxes of a personal goal filled this game.
    ("goal",): "goal int",
}
GAME_FACTS: dict[tuple[str, ...], str] = {
    ("rage",): "rage",
    ("bag",): "int",
    ("bag", "black"): "int",
    ("bag", "player"): "seat int",
    ("aside",): "int",
    ("row",): "int",
    ("row", "has"): "card",
    ("row", "has", "no"): "card",
    ("adventure", "deck"): "int",
    ("adventure", "discard"): "int",
    ("adventure", "discard", "has"): "card",
    ("adventure", "discard", "has", "no"): "card",
    ("reserve",): "card int",
    ("minor", "secrets"): "int",
    ("major", "secrets"): "int",
    ("trashed",): "int",
    ("winner",): "seat",
    ("turn",): "seat",
    ("counter",): "counter int",
    # A campaign game's post-game marks: a passage to be read after the game, X added to
    # one of the pack's campaign tracks this game.
    ("reads", "has"): "passage",
    ("track",): "track int",
}
EXPECT_FORMS = (
    "expect player N FACT VALUE",
    "expect rage N",
    "expect bag N",
    "expect row has CARD",
    "expect adventure discard N",
    "expect reserve CARD N",
    "expect space SPACE has TOKEN",
    "expect can ACTION",
    "expect cannot ACTION",
    "expect moves to SPACE...",
    "expect teleports to SPACE...",
    "expect winner N",
    "expect game over",
)


def _at(span: Span) -> dict[str, Any]:
    return span.to_ir()


def _join(atoms: list[Atom]) -> Span:
    a, b = atoms[0].span, atoms[-1].span
    return Span(a.file, a.line, a.col, b.end_line, b.end_col)


def _lower(atoms: list[Atom]) -> list[str | None]:
    """Lower-cased unquoted words; None for numbers and quoted names (never keywords)."""
    return [a.text.lower() if a.kind == "word" else None for a in atoms]


def _longest(words: list[str | None], table: dict[tuple[str, ...], str]) -> tuple[str, ...] | None:
    """The longest fact name in ``table`` that ``words`` starts with."""
    best = None
    for key in table:
        if tuple(words[: len(key)]) == key and (best is None or len(key) > len(best)):
            best = key
    return best


# The setup statements by their first words, longest first (`adventure deck` before
# `adventure`), to name each in the IR's `setup_at`.
_SETUP_FIRST = {w.split()[0] for w in SETUP_WORDS}
_SETUP_SAID = sorted(
    (tuple(w.split()) for w in (*SETUP_WORDS, "adventure deck", "adventure discard")),
    key=len,
    reverse=True,
)


def _setup_word(words: list[str]) -> str | None:
    """The setup statement ``words`` begin (`adventure deck`, `bag`), None for the others
    (`player N { ... }` blocks carry their own span)."""
    if words[0] not in _SETUP_FIRST:
        return None
    return next(
        (" ".join(w) for w in _SETUP_SAID if w != ("player",) and tuple(words[: len(w)]) == w),
        None,
    )


def _is_none(atoms: list[Atom]) -> bool:
    return len(atoms) == 1 and atoms[0].kind == "word" and atoms[0].text.lower() == "none"


class _ScenarioCompiler:
    def __init__(self, pack: dict[str, Any]) -> None:
        self.diags: list[Diagnostic] = []
        # A scenario may name what one board has (`on board NAME { token ... }`): checked
        # against its board once the scenario is read (scenario_facts).
        raw, pack = pack, with_board_designs(pack)
        # Names match exactly (case and spaces count), as in the pack itself.
        self.cards = {c["name"]: c["name"] for c in pack["cards"]}
        self.reserve = {c["name"]: c["name"] for c in pack["cards"] if c.get("deck") == "reserve"}
        self.tokens = {t["name"]: t["name"] for t in pack["tokens"]}
        self.token_kind = {t["name"]: t["kind"] for t in pack["tokens"]}
        self.boards = {b["name"]: b for b in pack["boards"]}
        self.counters = {c["name"]: c["name"] for c in pack.get("counters", ())}
        self.stickers = {st["name"]: st["name"] for st in pack.get("stickers", ())}
        self.contracts = {k["name"]: k["name"] for k in pack.get("contracts", ())}
        self.patrons = {k["name"]: k["name"] for k in pack.get("patrons", ())}
        self.goals = {k["name"]: k["name"] for k in pack.get("goals", ())}
        campaign = pack.get("campaign") or {}
        self.tracks = {t["name"]: t["name"] for t in campaign.get("tracks", ())}
        self.cardporium = {c["cardporium"] for c in pack["cards"] if "cardporium" in c}
        self.spaces = {s["name"]: s["name"] for b in pack["boards"] for s in b["spaces"]}
        # The switches the boards' paths name (`switch NAME STATES` on a path).
        self.switches = {
            p["switch"]["name"]: p["switch"]["name"]
            for b in pack["boards"]
            for p in b.get("paths", ())
            if isinstance(p.get("switch"), dict)
        }
        # Spaces a board sticker adds (a scenario with that sticker may stand on them).
        self.spaces.update(
            (s["name"], s["name"])
            for st in pack.get("stickers", ())
            for b in st.get("boards", ())
            for s in b["spaces"]
        )
        # A pack's declared resources are player facts too (`expect player 1 favour 2`), and
        # so are its other words for base resources (`expect player 1 credits 2`).
        self.resource_words = {
            w: r["name"] for r in pack.get("resources", ()) for w in (r["name"], *r["words"])
        }
        self.declared_resources = {r["name"] for r in pack.get("resources", ())}
        self.per_turn = {
            r["name"] for r in pack.get("resources", ()) if r.get("keep", "turn") == "turn"
        }
        self.resource_words.update(pack.get("resource_aliases", {}))
        declared_player, declared_game = state_facts()
        # The named facts first; then any field the game's declared state has.
        self.player_facts = {
            **declared_player,
            **PLAYER_FACTS,
            **{tuple(w.split()): "int" for w in self.resource_words},
        }
        self.game_facts = {**declared_game, **GAME_FACTS}
        self.facts = PackFacts(raw)
        # Card and token names some board's game lacks.
        self.by_board = (
            {
                kind: set().union(*(names[kind] for names in self.facts.designs.values()))
                - set.intersection(*(names[kind] for names in self.facts.designs.values()))
                for kind in ("card", "token")
            }
            if self.facts.designs
            else {}
        )
        self.pending = Pending()

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, span, hint))

    def ref(self, atom: Atom, pool: dict[str, str], what: str) -> str | None:
        """A declared name, or a CW107 diagnostic."""
        name = atom.text
        if name in pool:
            kind = "token" if pool is self.tokens else "card"
            if name in self.by_board.get(kind, ()):
                self.pending.designs.append((kind, name, atom.span))
            return pool[name]
        self.error(
            "CW107",
            f"no {what} named {name!r} in the pack",
            atom.span,
            hint=near_miss(name, pool.values()) or f"check the {what}'s name",
        )
        return None

    def refs(self, atoms: list[Atom], pool: dict[str, str], what: str) -> list[str] | None:
        """Every name of a list, or None (with diagnostics) when one is unknown."""
        names = [self.ref(a, pool, what) for a in atoms]
        return names if all(names) else None  # type: ignore[return-value]

    def number(self, st: Stmt, atoms: list[Atom], what: str, limit: str) -> int | None:
        """Exactly one number in ``atoms``, within RANGES[limit]; None with a diagnostic."""
        if len(atoms) != 1 or atoms[0].kind not in ("number", "signed"):
            self.error("CW105", f"{what} takes one number", st.span, hint=f"write `{what} 2`")
            return None
        return self.in_range(atoms[0], what, limit)

    def in_range(self, atom: Atom, what: str, limit: str) -> int | None:
        """The atom's number when RANGES[limit] allows it; else CW108 (too small) or CW113."""
        problem = range_problem(int(atom.value), atom.span, what, RANGES[limit])
        if problem is not None:
            self.diags.append(problem)
            return None
        return int(atom.value)

    def seat(self, atom: Atom, what: str) -> int | None:
        """A seat number in its range; checked against `players` once the scenario is read."""
        seat = self.in_range(atom, "a player number", "seat")
        if seat is not None:
            self.pending.seats.append((seat, atom.span, what))
        return seat

    def space(self, atom: Atom) -> str | None:
        """A space of the pack; checked against the scenario's board once it is read."""
        name = self.ref(atom, self.spaces, "space")
        if name is not None:
            self.pending.spaces.append((name, atom.span))
        return name

    def fits(self, problem: Diagnostic | None) -> bool:
        """True when a name or number fits its place (scenario_facts.py says), else False
        with the diagnostic."""
        if problem is not None:
            self.diags.append(problem)
        return problem is None

    def artifact(self, atom: Atom) -> str | None:
        """An artifact token by name."""
        tok = self.ref(atom, self.tokens, "token")
        return tok if tok and self.fits(artifact_problem(self.facts, tok, atom.span)) else None

    def card_list(self, atoms: list[Atom]) -> list[str] | None:
        """Cards setup puts somewhere (a `destroy` of every copy would take them away)."""
        names = self.refs(atoms, self.cards, "card")
        if names is not None:
            self.pending.placed_cards += [(n, a.span) for n, a in zip(names, atoms, strict=True)]
        return names

    def scenario(self, st: Stmt) -> dict[str, Any] | None:
        if st.words[0] != "scenario":
            self.error(
                "CW101",
                f"a scenario file holds scenarios, not {st.head[0].text!r}",
                st.head[0].span,
                hint=did_you_mean(st.words[0], ["scenario"])
                or 'write scenario "what it checks" { ... }',
            )
            return None
        if len(st.head) != 2 or st.head[1].kind not in ("string", "word"):
            self.error(
                "CW105", "a scenario needs one name", st.span, hint='scenario "Rule name" {...}'
            )
            return None
        ch = bad_name_char(st.head[1].text)
        if ch is not None:
            self.error(
                "CW114",
                f'the scenario name "{shown_name(st.head[1].text)}" holds the control '
                f"character U+{ord(ch):04X}",
                st.head[1].span,
                hint="remove it: a scenario's name becomes a test item's name",
            )
        sc: dict[str, Any] = {
            "name": st.head[1].text,
            "players": 2,
            "setup": [],
            "steps": [],
            "at": _at(st.span),
        }
        spans: dict[str, Span] = {}
        self.pending = Pending()
        for s in st.block or []:
            spans.setdefault(s.words[0], s.span)
            self.statement(sc, s)
        # Facts that depend on the whole scenario (its players, board, stickers...).
        self.diags.extend(check_pending(self.facts, sc, self.pending))
        if sc.get("dealt") and "row" in sc:
            self.error(
                "CW112",
                "`row` replaces the dealt row, so it cannot go with `as dealt`",
                spans.get("row"),
                hint="with `as dealt`, stack the adventure deck (`adventure A B ...`): "
                "setup deals the row from it",
            )
        return sc

    def statement(self, sc: dict[str, Any], s: Stmt) -> None:
        words, rest = s.words, s.head[1:]
        key = words[0]
        if s.effects is not None:
            self.error("CW112", f"`{key}` takes no colon", s.span)
            return
        said = _setup_word(words)
        if said is not None:
            # Where each setup statement is, for a failure while the game is set up.
            sc.setdefault("setup_at", {}).setdefault(said, _at(s.span))
        if key in SETUP_NUMBERS:
            value = self.number(s, rest, key, key)
            if value is None:
                self.pending.broken.add(key)
                return
            sc[key] = value
            if key == "players":
                self.pending.players_at = rest[0].span
            elif key == "rage":
                self.pending.rage.append((value, rest[0].span, "rage"))
        elif words == ["as", "dealt"]:
            sc["dealt"] = True
        elif key == "counter" and len(rest) == 2 and rest[1].kind == "number":
            name = self.ref(rest[0], self.counters, "counter")
            value = self.number(s, rest[1:], "counter", "scenario count")
            if (
                name is not None
                and value is not None
                and self.fits(counter_problem(self.facts, name, value, rest[1].span))
            ):
                sc.setdefault("counters", {})[name] = value
        elif words[:2] == ["first", "player"]:
            value = self.number(s, s.head[2:], "first player", "seat")
            if value is not None:
                sc["first"] = value
                self.pending.seats.append((value, s.head[2].span, "first player"))
        elif key == "sticker" and len(rest) == 1:
            # A campaign's sticker applied before the game (interpreter/stickers.py).
            name = self.ref(rest[0], self.stickers, "sticker")
            if name is not None:
                sc.setdefault("stickers", []).append(name)
        elif key == "fetch" and len(rest) == 1:
            # A campaign's Cardporium card fetched into the adventure deck before setup.
            n = self.number(s, rest, "fetch", "scenario count")
            if n is not None and n not in self.cardporium:
                self.error(
                    "CW107",
                    f"the pack has no Cardporium card {n}",
                    rest[0].span,
                    hint="Cardporium cards: "
                    + (", ".join(map(str, sorted(self.cardporium))) or "none"),
                )
            elif n is not None:
                sc.setdefault("fetched", []).append(n)
        elif key == "destroy" and len(rest) == 1:
            name = self.ref(rest[0], self.cards, "card")
            if name is not None:
                sc.setdefault("destroyed", []).append(name)
                self.pending.destroyed.append((name, rest[0].span))
        elif words == ["campaign"]:
            # A campaign game: personal goals mark their boxes, and the post-game steps run
            # once the game is scored (before the last expectations are checked).
            sc["campaign"] = True
        elif key == "patron" and len(rest) == 1:
            name = self.ref(rest[0], self.patrons, "patron")
            if name is not None:
                sc.setdefault("patrons", []).append(name)
        elif key == "goal" and len(rest) == 2:
            # Boxes of a personal goal filled in earlier games of the campaign.
            name = self.ref(rest[0], self.goals, "goal")
            n = self.number(s, rest[1:], "goal", "scenario count")
            if (
                name is not None
                and n is not None
                and self.fits(boxes_problem(self.facts, name, n, rest[1].span))
            ):
                sc.setdefault("goals_before", {})[name] = n
                self.pending.goals.append((name, rest[0].span, None))
        elif key == "contract" and len(rest) == 1:
            # A contract open in the Contracts row for this game.
            name = self.ref(rest[0], self.contracts, "contract")
            if name is not None:
                sc.setdefault("contracts", []).append(name)
        elif key == "modules" and len(rest) == 1 and rest[0].kind == "string":
            # A modular board's assembly, as `--modules` writes it (interpreter/assembly.py).
            sc["modules"] = rest[0].text
            self.pending.modules_at = rest[0].span
        elif key == "modules":
            self.error(
                "CW105",
                "`modules` takes the assembly in double quotes",
                _join(rest) if rest else s.span,
                hint='modules "1=Hydroponics, 2=Med Lab"',
            )
        elif key == "board" and len(rest) == 1:
            board = self.ref(rest[0], {k: v["name"] for k, v in self.boards.items()}, "board")
            if board is None:
                self.pending.broken.add("board")
            else:
                sc["board"] = board
        elif key == "adventure" and rest and _lower(rest[:1])[0] in ("deck", "discard"):
            pile = "adventure_" + rest[0].text.lower()
            cards = rest[1:]
            names = [] if _is_none(cards) else self.card_list(cards)
            if names is not None:
                sc[pile] = names
        elif key in ("row", "adventure"):
            names = self.card_list(rest)
            if names is not None:
                sc[key] = names
        elif key == "reserve":
            self.reserve_pile(sc, s, rest)
        elif words[:2] in (["minor", "secrets"], ["major", "secrets"]):
            atoms = s.head[2:]
            names = [] if _is_none(atoms) else self.refs(atoms, self.tokens, "token")
            if names is None:
                return
            bad = [n for n in names if self.token_kind[n] != words[0]]
            if bad:
                self.error(
                    "CW105",
                    f"{bad[0]!r} is not a {words[0]} secret",
                    s.span,
                    hint=f"`{words[0]} secrets` lists the {words[0]} secrets of the bank",
                )
                return
            sc[f"{words[0]}_bank"] = names
        elif key == "place":
            self.place(sc, s, rest)
        elif key == "block":
            path = self.path(s, rest)
            if path is not None:
                sc.setdefault("block", []).append(path)
        elif key == "switch":
            switch = self.switch(s, rest)
            if switch is not None:
                sc.setdefault("switches", {})[switch[0]] = switch[1]
        elif key == "bag" and rest:
            self.bag(sc, s, rest)
        elif key == "draws" and rest:
            self.draws(sc, rest)
        elif key == "rolls" and rest:
            self.rolls(sc, rest)
        elif key == "player" and s.block is not None:
            self.player(sc, s)
        elif key == "expect":
            self.expect(sc, s, rest)
        else:
            self.action(sc, s)

    def reserve_pile(self, sc: dict[str, Any], s: Stmt, rest: list[Atom]) -> None:
        if len(rest) != 2 or rest[1].kind != "number":
            self.error(
                "CW105",
                "reserve takes a reserve card and the number left in its pile",
                s.span,
                hint="reserve Explore 0",
            )
            return
        name = self.ref(rest[0], self.reserve, "reserve card")
        left = self.in_range(rest[1], "a reserve pile", "scenario count")
        if name is None or left is None:
            return
        copies = self.facts.copies.get(name, 1)
        if left > copies:
            self.error(
                "CW141",
                f"the {name} pile holds {copies} cards, not {left}",
                rest[1].span,
                hint=f"a number from 0 to {copies}",
            )
            return
        sc.setdefault("reserve", {})[name] = left

    def switch(self, s: Stmt, rest: list[Atom]) -> tuple[str, int] | None:
        """`NAME N`: a switch of the board (`switch NAME N` on its paths) and a state."""
        if len(rest) != 2 or rest[1].kind != "number" or rest[0].kind not in ("word", "string"):
            self.error(
                "CW105", "a switch is written `switch NAME STATE`", s.span, hint="switch dial 2"
            )
            return None
        name = self.ref(rest[0], self.switches, "switch")
        n = self.in_range(rest[1], "switch state", "switch state")
        return None if n is None or name is None else (name, n)

    def path(self, s: Stmt, rest: list[Atom]) -> list[str] | None:
        """`tunnel A -- B` (or `path A -- B`): the two spaces of a path, as the board writes
        it; None (reported) when it is not that."""
        words = _lower(rest)
        if len(rest) != 4 or words[0] not in ("tunnel", "path") or rest[2].kind != "link":
            self.error(
                "CW105",
                "a path is written `tunnel A -- B` (the spaces it joins, as the board says)",
                s.span,
                hint="tunnel Hall -- Cellar",
            )
            return None
        a, b = self.space(rest[1]), self.space(rest[3])
        return None if a is None or b is None else [a, b]

    def place(self, sc: dict[str, Any], s: Stmt, rest: list[Atom]) -> None:
        words = _lower(rest)
        if len(rest) == 6 and words[1] == "on" and words[2] in ("tunnel", "path"):
            path = self.path(s, rest[2:])
            token = self.ref(rest[0], self.tokens, "token")
            if path is not None and token is not None:
                sc.setdefault("place_on_path", []).append({"token": token, "path": path})
            return
        if len(rest) != 3 or words[1] != "on":
            self.error(
                "CW105",
                "place takes a token (or `nothing`), `on` and a space",
                s.span,
                hint='place "Greater Treasure" on "Stonecutter\'s Pass"',
            )
            return
        space = self.space(rest[2])
        token = None
        if words[0] != "nothing":
            token = self.ref(rest[0], self.tokens, "token")
            if token is None:
                return
        if space:
            sc.setdefault("place", []).append({"token": token, "space": space})

    def bag(self, sc: dict[str, Any], s: Stmt, rest: list[Atom]) -> None:
        words = _lower(rest)
        bag = sc.setdefault("bag", {})
        if words[0] == "black" and len(rest) == 2 and rest[1].kind == "number":
            n = self.in_range(rest[1], "black cubes", "scenario count")
            if n is not None:
                bag["black"] = n
                self.pending.black.append((n, rest[1].span))
        elif words[0] == "player" and len(rest) == 3 and all(a.kind == "number" for a in rest[1:]):
            seat = self.seat(rest[1], "bag player")
            n = self.in_range(rest[2], "cubes", "scenario count")
            if seat is not None and n is not None:
                bag[str(seat)] = n
                self.pending.cubes.setdefault(seat, []).append((n, rest[2].span, "bag player"))
        else:
            self.error(
                "CW105",
                "bag takes `black N` or `player SEAT N`",
                s.span,
                hint="bag black 3 / bag player 2 1",
            )

    def draws(self, sc: dict[str, Any], rest: list[Atom]) -> None:
        """`draws black 1 2 Hunter`: the next cubes drawn (black, a seat, a cube token)."""
        draws: list[Any] = []
        for a in rest:
            if a.kind == "number":
                seat = self.seat(a, "draws player")
                if seat is None:
                    return
                draws.append(seat)
            elif a.kind == "word" and a.text.lower() == "black":
                draws.append("black")
            elif a.kind in ("word", "string") and a.text in self.facts.cubes:
                # A cube token's name (a pack's `cube N` token).
                draws.append({"token": a.text})
            elif a.kind in ("word", "string") and a.text in self.tokens:
                self.error(
                    "CW142",
                    f"{a.text!r} is {article(self.token_kind[a.text])} token, not a cube the "
                    "bag holds",
                    a.span,
                    hint="draws lists `black`, player numbers or cube tokens (`cube N`)",
                )
                return
            elif a.kind in ("word", "string"):
                cubes = ["black", *self.facts.cubes]
                self.error(
                    "CW107",
                    f"no cube named {a.text!r}: draws lists `black`, player numbers or the "
                    "pack's cube tokens",
                    a.span,
                    hint=near_miss(a.text, cubes)
                    or "cubes: black, a player number"
                    + "".join(f", {c}" for c in self.facts.cubes),
                )
                return
            else:
                self.error("CW105", "draws lists `black`, player numbers or cube tokens", a.span)
                return
        sc["draws"] = draws

    def rolls(self, sc: dict[str, Any], rest: list[Atom]) -> None:
        """`rolls 3 1`: what the next random outcomes (`roll (...)`) come up, in order: the
        N-th option of each, counted from 1."""
        picks: list[int] = []
        for a in rest:
            if a.kind != "number":
                self.error(
                    "CW105",
                    f"rolls lists option numbers (from 1), not `{a.source()}`",
                    a.span,
                    hint="`rolls 2 1`: the second option of the next roll, then the first",
                )
                return
            pick = self.in_range(a, "a rolled option", "rolls")
            if pick is None:
                return
            picks.append(pick)
        sc["rolls"] = picks

    def player(self, sc: dict[str, Any], s: Stmt) -> None:
        if len(s.head) != 2 or s.head[1].kind != "number":
            self.error("CW105", "player takes a seat number", s.span, hint="player 1 { ... }")
            return
        seat = self.seat(s.head[1], "player")
        if seat is None:
            return
        entry: dict[str, Any] = {"seat": seat, "at": _at(s.span)}
        for p in s.block or []:
            self.player_line(entry, p)
        sc["setup"].append(entry)

    def player_line(self, entry: dict[str, Any], p: Stmt) -> None:
        """One statement of `player N { ... }` into the player's setup entry."""
        seat, pending = entry["seat"], self.pending
        words, rest = p.words, p.head[1:]
        key = words[0]
        if words[:2] == ["in", "play"]:
            key, rest = "in play", p.head[2:]
        if key in PLAYER_LISTS:
            names = (
                self.refs(rest, self.tokens, "token") if key == "tokens" else self.card_list(rest)
            )
            if names is not None:
                entry[key.replace(" ", "_")] = names
        elif key in PLAYER_NUMBERS:
            value = self.number(p, rest, key, "scenario count")
            if value is not None:
                entry[key] = value
                self.player_number(seat, key, value, p.span)
        elif len(words) > 1 and " ".join(map(str, words[:-1])) in self.resource_words:
            # A pack's declared resource: `favour 2`, `special moves 1`.
            name = self.resource_words[" ".join(map(str, words[:-1]))]
            value = self.number(p, p.head[-1:], name, "scenario count")
            if value is not None and name in self.declared_resources:
                entry.setdefault("pools", {})[name] = value
                if name in self.per_turn:
                    pending.pools.append((seat, p.head_text(), p.span))
            elif value is not None:
                # Another word for a base resource (`credits 3`); every base resource is
                # one of PLAYER_NUMBERS.
                entry[name] = value
                self.player_number(seat, name, value, p.span, p.head_text())
        elif key == "at" and len(rest) == 1:
            space = self.space(rest[0])
            if space:
                entry["space"] = space
        elif key == "artifact" and len(rest) == 1:
            tok = self.artifact(rest[0])
            if tok:
                entry["artifact"] = tok
        elif key == "status" and words[1:] in (["escaped"], ["knocked", "out"], ["on"]):
            entry["status"] = " ".join(words[1:])
            if entry["status"] == "knocked out":
                pending.knocked_out.add(seat)
        elif key == "status":
            self.error(
                "CW105",
                f"unknown status `{' '.join(a.source() for a in rest)}`",
                _join(rest) if rest else p.span,
                hint=did_you_mean(" ".join(map(str, words[1:])), ["escaped", "knocked out"])
                or "status escaped / status knocked out",
            )
        else:
            self.error(
                "CW102",
                f"unknown player setup `{p.head_text()}`",
                p.head[0].span,
                hint=did_you_mean(key, [*PLAYER_SETUP, "in", *self.resource_words])
                or "player setup: " + ", ".join(PLAYER_SETUP),
            )

    def player_number(
        self, seat: int, key: str, value: int, span: Span, said: str | None = None
    ) -> None:
        """What a player's number means for the checks made once the scenario is read:
        cubes taken from the supply, damage against health, a turn's pool."""
        said = said or f"{key} {value}"
        if key in ("damage", "clank", "supply"):
            self.pending.cubes.setdefault(seat, []).append((value, span, said))
        if key == "damage":
            self.pending.damage.append((seat, value, span))
        if key in ("skill", "swords", "boots"):
            self.pending.pools.append((seat, said, span))

    def action(self, sc: dict[str, Any], s: Stmt) -> None:
        step = self.action_step(s.head, s.span)
        if step is not None:
            sc["steps"].append(step)

    def action_step(self, head: list[Atom], span: Span) -> dict[str, Any] | None:
        """One scripted action (`play Burgle`, `move X spending 1 swords`...), or None."""
        words = [str(w) for w in _lower(head)]
        rest = head[1:]
        key = words[0]
        step: dict[str, Any] = {"at": _at(span)}
        if words in (["end", "turn"], ["take", "artifact"], ["yes"], ["no"]):
            step["do"] = " ".join(words)
        elif key in ("play", "acquire", "fight") and len(rest) == 1:
            name = self.ref(rest[0], self.cards, "card")
            if name is None or not self.fits(card_problem(self.facts, key, name, rest[0].span)):
                return None
            step.update(do=key, arg=name)
        elif key in ("move", "coach") and rest:
            space = self.space(rest[0])
            if space is None:
                return None
            if key == "coach" and not self.fits(coach_problem(self.facts, space, rest[0].span)):
                return None
            step.update(do=key, arg=space)
            tail = [a.text.lower() if a.kind == "word" else a.value for a in rest[1:]]
            if tail:
                if (
                    key == "move"
                    and len(tail) == 3
                    and tail[0] == "spending"
                    and rest[2].kind == "number"
                    and tail[2] in ("sword", "swords")
                ):
                    swords = self.in_range(rest[2], "swords", "scenario amount")
                    if swords is None:
                        return None
                    step["swords"] = swords
                else:
                    self.error(
                        "CW105",
                        "after the space, a move takes `spending N swords`",
                        _join(rest[1:]),
                    )
                    return None
        elif key in ("buy", "use") and len(rest) == 1:
            tok = self.ref(rest[0], self.tokens, "token")
            if tok is None or not self.fits(token_problem(self.facts, key, tok, rest[0].span)):
                return None
            step.update(do=key, arg=tok)
        elif key == "act" and rest:
            # A pack's `action` line, by its label's start: `act pray`, `act at Shrine`.
            arg = " ".join(a.text for a in rest)
            if not self.fits(act_problem(self.facts, arg, _join(rest))):
                return None
            step.update(do="act", arg=arg)
        elif key == "answer" and len(rest) == 1:
            if rest[0].kind == "number":
                n = self.in_range(rest[0], "an answer", "answer")
                if n is None:
                    return None
                step.update(do="answer", arg=n)
            else:
                step.update(do="answer", arg=rest[0].text)
        else:
            self.error(
                "CW102",
                f"unknown scenario step `{' '.join(a.source() for a in head)}`",
                head[0].span,
                hint=did_you_mean(key, [w.split()[0] for w in (*ACTIONS, *SETUP_WORDS, "expect")])
                or "steps: " + ", ".join(ACTIONS) + ", expect",
            )
            return None
        return step

    def expect(self, sc: dict[str, Any], s: Stmt, rest: list[Atom]) -> None:
        words = _lower(rest)
        step: dict[str, Any] = {"do": "expect", "at": _at(s.span)}
        if not rest:
            self.error("CW105", "expect what?", s.span, hint="forms: " + ", ".join(EXPECT_FORMS))
            return
        if words[0] in ("can", "cannot") and len(rest) > 1:
            named = len(self.pending.designs)
            action = self.action_step(rest[1:], _join(rest[1:]))
            if words[0] == "cannot":
                # What a board lacks may be named: `expect cannot acquire Lantern` there.
                del self.pending.designs[named:]
            if action is None:
                return
            if action["do"] in ("answer", "yes", "no"):
                self.error(
                    "CW105",
                    f"`expect {words[0]}` takes an action, not an answer",
                    s.span,
                    hint="expect cannot end turn / expect can move X",
                )
                return
            step.update(fact="can", value=words[0] == "can", action=action)
        elif words[:2] in (["moves", "to"], ["teleports", "to"]) and len(rest) > 2:
            found = [self.space(a) for a in rest[2:]]
            spaces = [x for x in found if x is not None]
            if len(spaces) != len(found):
                return
            step.update(fact=words[0], value=sorted(spaces))
        elif words[0] == "game" and words[1:] in (["over"], ["not", "over"]):
            step.update(fact="over", value=words[1] == "over")
        elif words[0] == "switch" and len(rest) == 3:
            switch = self.switch(s, rest[1:])
            if switch is None:
                return
            step.update(fact="switch", switch=switch[0], value=switch[1])
        elif words[0] in ("tunnel", "path") and len(rest) >= 6 and rest[2].kind == "link":
            path = self.path(s, rest[:4])
            tail = words[4:]
            if path is None:
                return
            if tail in (["is", "blocked"], ["is", "open"]):
                step.update(fact="path", path=path, value=tail[1])
            elif tail[0] == "has" and tail[1:-1] in ([], ["no"], ["token"], ["no", "token"]):
                token = self.ref(rest[-1], self.tokens, "token")
                if token is None:
                    return
                fact = "path has no" if tail[1] == "no" else "path has"
                step.update(fact=fact, path=path, value=token)
            else:
                self.error(
                    "CW105",
                    "expect tunnel A -- B is blocked|open, or has [no] TOKEN",
                    s.span,
                    hint="expect tunnel Hall -- Cellar has Spike",
                )
                return
        elif words[0] == "space" and len(rest) >= 4 and words[2] == "has":
            space = self.space(rest[1])
            negate = words[3] == "no" and len(rest) == 5
            if len(rest) != (5 if negate else 4):
                self.error("CW105", "expect space SPACE has [no] TOKEN", s.span)
                return
            token = self.ref(rest[-1], self.tokens, "token")
            if space is None or token is None:
                return
            step.update(fact="space has no" if negate else "space has", space=space, value=token)
        elif len(rest) >= 2 and words[0] == "player" and rest[1].kind == "number":
            seat = self.seat(rest[1], "expect player")
            if seat is None:
                return
            step["seat"] = seat
            if not self.fact(step, s, rest[2:], self.player_facts, f"player {step['seat']} "):
                return
            step["fact"] = self.resource_words.get(step["fact"], step["fact"])
        elif not self.fact(step, s, rest, self.game_facts, ""):
            return
        sc["steps"].append(step)

    def named_count(self, step: dict[str, Any], fact: str, args: list[Atom]) -> bool:
        """`goal NAME N`, `counter NAME N`, `track NAME N`: a declared name and a number."""
        pool, what = {
            "goal": (self.goals, "goal"),
            "counter": (self.counters, "counter"),
            "track": (self.tracks, "campaign track"),
        }[fact]
        name_atom, n = args
        name = self.ref(name_atom, pool, what)
        if name is None:
            return False
        if n.kind != "number":
            said = "player N goal" if fact == "goal" else fact
            self.error("CW105", f"expect {said} NAME takes a number after the name", n.span)
            return False
        value = self.in_range(
            n, f"expect {fact}", "expected" if fact == "track" else "scenario count"
        )
        if value is None:
            return False
        if fact == "goal":
            if not self.fits(boxes_problem(self.facts, name, value, n.span)):
                return False
            if value > 0:
                # Only its owner fills a goal's boxes (another player's stays at 0).
                self.pending.goals.append((name, name_atom.span, step["seat"]))
        if fact == "counter" and not self.fits(counter_problem(self.facts, name, value, n.span)):
            return False
        step.update({"fact": fact, fact: name, "value": value})
        return True

    def fact(
        self,
        step: dict[str, Any],
        s: Stmt,
        atoms: list[Atom],
        table: dict[tuple[str, ...], str],
        prefix: str,
    ) -> bool:
        """Read `FACT VALUE` into ``step``; False (with a diagnostic) when it does not read."""
        words = _lower(atoms)
        key = _longest(words, table)
        if key is None:
            said = " ".join(a.source() for a in atoms[:1])
            choices = [" ".join(k) for k in table]
            hint = None
            # Compare as many words as each fact has: `adventure discrd` is close to
            # `adventure discard`, and nearer than `adventure deck`.
            plain = len(words) if None not in words else words.index(None)
            for n in range(min(plain, 4), 0, -1):
                said_n = " ".join(str(w) for w in words[:n])
                same = [c for c in choices if len(c.split()) == n]
                if same and (hint := did_you_mean(said_n, same)):
                    said = " ".join(a.source() for a in atoms[:n])
                    break
            if not prefix:
                hint = hint or did_you_mean(str(words[0] or ""), ["player", "space", "game"])
            self.error(
                "CW102",
                f"unknown expectation `expect {prefix}{said}`".replace("  ", " "),
                atoms[0].span if atoms else s.span,
                hint=hint
                or (
                    "facts: " + ", ".join(sorted(set(choices)))
                    if prefix
                    else "forms: " + ", ".join(EXPECT_FORMS)
                ),
            )
            return False
        fact = " ".join(key)
        shape = table[key]
        args = atoms[len(key) :]
        want_n = len(shape.split())
        longer = [" ".join(k) for k in table if len(k) > len(key) and k[: len(key)] == key]
        if len(args) != want_n and longer and args and args[0].kind == "word":
            # `expect row hs Dryad`: a misspelt longer fact, not a wrong value.
            said = f"{fact} {args[0].text}"
            self.error(
                "CW102",
                f"unknown expectation `expect {prefix}{said}`",
                args[0].span,
                hint=did_you_mean(said, longer) or "facts: " + ", ".join(longer),
            )
            return False
        if len(args) != want_n:
            self.error(
                "CW105",
                f"expect {prefix}{fact} takes {_shape_words(shape)}",
                s.span,
                hint=f"expect {prefix}{fact} {_shape_example(shape)}",
            )
            return False
        if shape == "int card":
            n, card = args
            if n.kind != "number":
                self.error("CW105", f"expect {prefix}{fact} takes a number, then a card", n.span)
                return False
            name = self.ref(card, self.cards, "card")
            value = self.in_range(n, f"expect {prefix}{fact}", "expected")
            if name is None or value is None:
                return False
            step.update(fact=fact, card=name, value=value)
            return True
        if shape == "card int":
            card, n = args
            pool = self.reserve if fact == "reserve" else self.cards
            name = self.ref(card, pool, "reserve card" if fact == "reserve" else "card")
            if name is None:
                return False
            if n.kind != "number":
                self.error("CW105", f"expect {fact} CARD takes a number after the card", n.span)
                return False
            value = self.in_range(n, f"expect {fact}", "expected")
            if value is None:
                return False
            step.update(fact=fact, card=name, value=value)
            return True
        if shape in ("goal int", "counter int", "track int"):
            return self.named_count(step, fact, args)
        if shape == "seat int":
            seat, n = args
            if seat.kind != "number" or n.kind != "number":
                self.error("CW105", f"expect {fact} takes a player number and a count", s.span)
                return False
            of = self.seat(seat, f"expect {fact}")
            value = self.in_range(n, f"expect {fact}", "expected")
            if of is None or value is None:
                return False
            step.update(fact=fact, of=of, value=value)
            return True
        a = args[0]
        value: Any
        if shape == "int" and a.kind in ("number", "signed"):
            value = self.in_range(a, f"expect {prefix}{fact}", "expected")
        elif shape == "seat" and a.kind == "number":
            value = self.seat(a, f"expect {fact}")
        elif shape == "passage" and a.kind == "number":
            value = self.in_range(a, "a passage number", "passage")
        elif shape == "rage" and a.kind == "number":
            value = self.in_range(a, "expect rage", "rage")
            if value is not None:
                self.pending.rage.append((value, a.span, "expect rage"))
        elif shape == "bool" and a.text.lower() in ("yes", "no", "true", "false"):
            value = a.text.lower() in ("yes", "true")
        elif shape == "space":
            value = self.space(a)
        elif shape == "card":
            value = self.ref(a, self.cards, "card")
        elif shape == "token?" and _is_none([a]):
            step.update(fact=fact, value=None)
            return True
        elif shape == "token?":
            value = self.artifact(a)  # `artifact TOKEN`, the only fact of this shape
        elif shape == "token":
            value = self.ref(a, self.tokens, "token")
        elif shape == "status" and a.kind in ("word", "string"):
            value = a.text.lower()
        elif shape == "word" and a.text.lower() in ("on", "escaped", "knocked"):
            value = {"knocked": "knocked out"}.get(a.text.lower(), a.text.lower())
        else:
            self.error("CW105", f"expect {prefix}{fact} takes {_shape_words(shape)}", a.span)
            return False
        if value is None:
            return False
        step.update(fact=fact, value=value)
        return True


def _shape_words(shape: str) -> str:
    return {
        "int": "a number",
        "bool": "yes or no",
        "word": "on, escaped or knocked",
        "space": "a space",
        "card": "a card",
        "token": "a token",
        "token?": "a token or none",
        "status": "a status (a name, or a prohibition in quotes)",
        "int card": "a number and a card",
        "card int": "a card and a number",
        "counter int": "a counter and a number",
        "track int": "a campaign track and a number",
        "seat int": "a player number and a count",
        "goal int": "a personal goal and a number",
        "seat": "a player number",
        "rage": "a rage space (from 1)",
        "passage": "a passage number",
    }[shape]


def _shape_example(shape: str) -> str:
    return {
        "int": "2",
        "bool": "yes",
        "word": "escaped",
        "space": '"Front Gate"',
        "card": "Burgle",
        "token": "Mug",
        "token?": "none",
        "status": "dizzy",
        "int card": "6 Burgle",
        "card int": "Explore 14",
        "counter int": "doom 2",
        "track int": '"Rival Guild" 1',
        "seat int": "1 3",
        "goal int": '"Monster Hunter" 1',
        "seat": "1",
        "rage": "3",
        "passage": "17",
    }[shape]


@dataclass(frozen=True)
class ScenarioFile:
    """What one scenario file compiled to: its scenarios, its syntax errors and the
    diagnostics of compiling its scenarios."""

    scenarios: list[dict[str, Any]]
    syntax: list[Diagnostic]
    checks: list[Diagnostic]


def compile_scenarios(
    pack_dir: str | Path,
    pack_ir: dict[str, Any],
    display_root: str | Path | None = None,
    pack_sources: Mapping[str, str] | None = None,
    overrides: Mapping[str, str] | None = None,
    parse: ParseFn | None = None,
    memo: dict[tuple[str, str], ScenarioFile] | None = None,
) -> tuple[list[dict[str, Any]], list[Diagnostic], dict[str, str]]:
    """Scenario IR of every `scenarios/*.clank` file of a pack, its diagnostics and sources.

    Files are read through `PackReader` (regular files inside the pack only, bounded);
    ``pack_sources``, the pack's files from `compile_pack`, count toward the pack limits;
    ``overrides`` replaces files' contents as in `compile_pack`; ``parse`` parses each file.
    ``memo`` keeps each file's scenarios and diagnostics by its name and text, for a caller
    that compiles the same ``pack_ir`` again (one memo per pack IR: a file depends on nothing
    else)."""
    shown = Path(display_root) if display_root is not None else Path(pack_dir)
    out: list[dict[str, Any]] = []
    diags: list[Diagnostic] = []
    sources: dict[str, str] = {}
    # The pack limits cover the pack and its scenarios together; scenario files already in
    # pack_sources (a second run over the same pack) are not counted twice.
    prefix = (shown / "scenarios").as_posix() + "/"
    earlier = [t for n, t in (pack_sources or {}).items() if not n.startswith(prefix)]
    used = sum(len(t.encode("utf-8", "surrogatepass")) for t in earlier)
    if not Path(pack_dir).is_dir():
        return out, diags, sources
    with PackReader(
        pack_dir, shown, used_bytes=used, used_files=len(earlier), overrides=overrides
    ) as reader:
        if not reader.exists("scenarios"):
            return out, diags, sources
        folder = reader.resolve("scenarios", None)
        entries = reader.list_clank(folder, "scenarios") if folder is not None else None
        comp = _ScenarioCompiler(pack_ir)
        for entry in entries or []:
            named = f"scenarios/{entry}"
            name = (shown / named).as_posix()
            rel = reader.resolve(named, None)
            text = reader.read(rel, named, None) if rel is not None else None
            if text is None:
                continue
            sources[name] = text
            done = memo.get((name, text)) if memo is not None else None
            if done is None:
                stmts, syntax = (parse or parser().parse)(text, name)
                start = len(comp.diags)
                compiled = [
                    sc
                    for st in stmts
                    # a balance block: dsl/balance.py compiles it
                    if not (st.words and st.words[0] == "balance")
                    and (sc := comp.scenario(st)) is not None
                ]
                done = ScenarioFile(compiled, syntax, comp.diags[start:])
                if memo is not None:
                    memo[(name, text)] = done
            else:
                comp.diags.extend(done.checks)
            out.extend(done.scenarios)
            diags.extend(done.syntax)
        diags.extend(reader.diags)
        sources.update(reader.undecodable)  # to show the line of a CW004
    diags.extend(comp.diags)
    seen: dict[str, dict[str, Any]] = {}
    for sc in out:
        # Names that differ only in case or spacing are the same test item to a reader.
        if name_key(sc["name"]) in seen:
            diags.append(
                Diagnostic(
                    "CW106",
                    f"two scenarios are named {sc['name']!r}",
                    Span.from_ir(sc["at"]),
                    hint="scenario names identify test items; make them unique",
                    notes=(("the first is here", Span.from_ir(seen[name_key(sc["name"])]["at"])),),
                )
            )
        seen[name_key(sc["name"])] = sc
    return (out if not has_errors(diags) else []), diags, sources

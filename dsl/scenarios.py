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
Each statement verb and each fact is a record (interpreter/scenario_words.py) read by its
registered compile function (dsl/scenario_words.py: setup statements in scenario_setup.py,
`expect` in scenario_expect.py, the script's steps here). Every statement is described, with
examples, in docs/scenarios.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clankwork.interpreter.scenario_setup import VERBS, Verb

from .board_blocks import with_board_designs
from .compiler import ParseFn, parser
from .diagnostics import Diagnostic, Span, did_you_mean, has_errors
from .limits import RANGES, bad_name_char, range_problem, shown_name
from .parser import Atom, Stmt, atoms_span
from .resolve import named_twice, near_miss
from .scenario_expect import EXPECT_FORMS
from .scenario_facts import (
    PackFacts,
    Pending,
    act_problem,
    artifact_problem,
    card_problem,
    check_pending,
    coach_problem,
    token_problem,
)
from .scenario_setup import SETUP_NUMBERS
from .scenario_words import (
    ACTIONS,
    DECLARED_FACTS,
    GAME_FACTS,
    PLAYER_FACTS,
    PLAYER_LISTS,
    PLAYER_NUMBERS,
    PLAYER_SETUP,
    SETUP_WORDS,
    STATEMENTS,
    STEP_ARGS,
    action_words,
    at,
    fact_table,
    longest_verb,
    lower,
    setup_word,
    step_arg,
)
from .sources import PackReader

# What the editor tools and the tests read here.
__all__ = [
    "ACTIONS",
    "EXPECT_FORMS",
    "GAME_FACTS",
    "PLAYER_FACTS",
    "PLAYER_LISTS",
    "PLAYER_NUMBERS",
    "PLAYER_SETUP",
    "SETUP_NUMBERS",
    "SETUP_WORDS",
    "ScenarioFile",
    "compile_scenarios",
]


class _ScenarioCompiler:
    """Compiles the scenarios of one pack: the pack's names and facts, and the checks every
    statement's compile function reads (names, numbers, seats, spaces)."""

    def __init__(self, pack: dict[str, Any]) -> None:
        self.diags: list[Diagnostic] = []
        # A scenario may name what one board has (`on board NAME { token ... }`): checked
        # against its board once the scenario is read (scenario_facts).
        raw, pack = pack, with_board_designs(pack)
        self._names(pack)
        self._resources(pack)
        self.facts = PackFacts(raw)
        # Card and token names some board's game lacks.
        self.by_board = (
            {
                kind: set().union(*(names[kind] for names in self.facts.designs.values()))
                - set.intersection(*(names[kind] for names in self.facts.designs.values()))
                for kind in ("card", "token", "counter")
            }
            if self.facts.designs
            else {}
        )
        self.pending = Pending()

    def _names(self, pack: dict[str, Any]) -> None:
        """The names a scenario may use. They match exactly (case and spaces count), as in
        the pack itself."""
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

    def _resources(self, pack: dict[str, Any]) -> None:
        """The facts an `expect` may state: the registered ones, the declared state's, and
        the pack's resources."""
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
        declared_player, declared_game = DECLARED_FACTS
        # The named facts first; then any field the game's declared state has.
        self.player_facts = {
            **declared_player,
            **fact_table("player"),
            **{tuple(w.split()): "int" for w in self.resource_words},
        }
        self.game_facts = {**declared_game, **fact_table("game")}

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, span, hint))

    def ref(self, atom: Atom, pool: dict[str, str], what: str) -> str | None:
        """A declared name, or a CW107 diagnostic."""
        name = atom.text
        if name in pool:
            kind = (
                "token" if pool is self.tokens else "counter" if pool is self.counters else "card"
            )
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
            "at": at(st.span),
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
        """One statement of a scenario, by its verb's registered compile function (a script
        step when none reads it)."""
        words = s.words
        if s.effects is not None:
            self.error("CW112", f"`{words[0]}` takes no colon", s.span)
            return
        said = setup_word(words)
        if said is not None:
            # Where each setup statement is, for a failure while the game is set up.
            sc.setdefault("setup_at", {}).setdefault(said, at(s.span))
        verb = longest_verb(words, ("setup", "expect"))
        read = STATEMENTS.get(verb.words) if verb is not None else None
        args = s.head[len(verb.words.split()) :] if verb is not None else []
        if read is not None and read(self, sc, s, args) is not False:
            return
        # Not a setup statement of a form its verb reads: a script step, or an unknown one.
        step = self.action_step(s.head, s.span)
        if step is not None:
            sc["steps"].append(step)

    def action_step(self, head: list[Atom], span: Span) -> dict[str, Any] | None:
        """One scripted action (`play Burgle`, `move X spending 1 swords`...), or None."""
        words = [str(w) for w in lower(head)]
        step: dict[str, Any] = {"at": at(span)}
        verb = longest_verb(words, ("step",))
        got: bool | None = False
        if verb is not None and verb.arg in STEP_ARGS:
            got = STEP_ARGS[verb.arg](self, verb, head[len(verb.words.split()) :], step)
        if got is False:
            self.error(
                "CW102",
                f"unknown scenario step `{' '.join(a.source() for a in head)}`",
                head[0].span,
                hint=did_you_mean(words[0], [v.words.split()[0] for v in VERBS.values()])
                or "steps: " + ", ".join(action_words()) + ", expect",
            )
            return None
        return step if got else None

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
        words = lower(rest)
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


# How a script step reads its argument, by its record's `arg` (interpreter/scenario_setup.py).


@step_arg(None)
def _bare(c: _ScenarioCompiler, verb: Verb, args: list[Atom], step: dict[str, Any]) -> bool:
    """`end turn`, `take artifact`, `yes`, `no`."""
    if args:
        return False
    step["do"] = verb.words
    return True


@step_arg("card")
def _card(c: _ScenarioCompiler, verb: Verb, args: list[Atom], step: dict[str, Any]) -> bool | None:
    """`play CARD`, `acquire CARD`, `fight CARD`."""
    return _named(c, verb, args, step, c.cards, "card", card_problem)


@step_arg("token")
def _token(c: _ScenarioCompiler, verb: Verb, args: list[Atom], step: dict[str, Any]) -> bool | None:
    """`buy TOKEN`, `use TOKEN`."""
    return _named(c, verb, args, step, c.tokens, "token", token_problem)


def _named(
    c: _ScenarioCompiler,
    verb: Verb,
    args: list[Atom],
    step: dict[str, Any],
    names: dict[str, str],
    kind: str,
    problem: Callable[[PackFacts, str, str, Span], Diagnostic | None],
) -> bool | None:
    """A step naming one of ``names`` (a card, a token) that ``problem`` finds fit for the
    verb: False when the step has not one argument, None (reported) when it is no fit."""
    if len(args) != 1:
        return False
    name = c.ref(args[0], names, kind)
    if name is None or not c.fits(problem(c.facts, verb.words, name, args[0].span)):
        return None
    step.update(do=verb.words, arg=name)
    return True


def _spending(c: _ScenarioCompiler, verb: Verb, tail: list[Atom]) -> int | None:
    """`spending N swords` after a move's space: N, or None (reported)."""
    said = [a.text.lower() if a.kind == "word" else a.value for a in tail]
    if (
        verb.words == "move"
        and len(said) == 3
        and said[0] == "spending"
        and tail[1].kind == "number"
        and said[2] in ("sword", "swords")
    ):
        return c.in_range(tail[1], "swords", "scenario amount")
    c.error("CW105", "after the space, a move takes `spending N swords`", atoms_span(tail))
    return None


@step_arg("move")
@step_arg("coach")
def _to(c: _ScenarioCompiler, verb: Verb, args: list[Atom], step: dict[str, Any]) -> bool | None:
    """`move SPACE [spending N swords]`, `coach SPACE`."""
    if not args:
        return False
    space = c.space(args[0])
    if space is None:
        return None
    if verb.words == "coach" and not c.fits(coach_problem(c.facts, space, args[0].span)):
        return None
    step.update(do=verb.words, arg=space)
    if args[1:]:
        swords = _spending(c, verb, args[1:])
        if swords is None:
            return None
        step["swords"] = swords
    return True


@step_arg("words")
def _act(c: _ScenarioCompiler, verb: Verb, args: list[Atom], step: dict[str, Any]) -> bool | None:
    """A pack's `action` line, by its label's start: `act pray`, `act at Shrine`."""
    if not args:
        return False
    arg = " ".join(a.text for a in args)
    if not c.fits(act_problem(c.facts, arg, atoms_span(args))):
        return None
    step.update(do=verb.words, arg=arg)
    return True


@step_arg("answer")
def _answer(
    c: _ScenarioCompiler, verb: Verb, args: list[Atom], step: dict[str, Any]
) -> bool | None:
    """`answer TEXT`, `answer N`."""
    if len(args) != 1:
        return False
    if args[0].kind == "number":
        n = c.in_range(args[0], "an answer", "answer")
        if n is None:
            return None
        step.update(do=verb.words, arg=n)
    else:
        step.update(do=verb.words, arg=args[0].text)
    return True


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
        comp = _ScenarioCompiler(pack_ir)
        for named, text in reader.clank_texts("scenarios"):
            name = (shown / named).as_posix()
            sources[name] = text
            done = _compile_file(comp, name, text, parse, memo)
            out.extend(done.scenarios)
            diags.extend(done.syntax)
        diags.extend(reader.diags)
        sources.update(reader.undecodable)  # to show the line of a CW004
    diags.extend(comp.diags)
    diags.extend(
        named_twice(
            out,
            "scenarios",
            "scenario names identify test items; make them unique",
            "the first is here",
        )
    )
    return (out if not has_errors(diags) else []), diags, sources


def _compile_file(
    comp: _ScenarioCompiler,
    name: str,
    text: str,
    parse: ParseFn | None,
    memo: dict[tuple[str, str], ScenarioFile] | None,
) -> ScenarioFile:
    """One scenario file's scenarios and diagnostics (from ``memo`` when it has them)."""
    done = memo.get((name, text)) if memo is not None else None
    if done is not None:
        comp.diags.extend(done.checks)
        return done
    stmts, syntax = (parse or parser().parse)(text, name)
    start = len(comp.diags)
    compiled = [
        sc
        for st in stmts
        # a balance block: dsl/balance.py compiles it
        if not (st.words and st.words[0] == "balance") and (sc := comp.scenario(st)) is not None
    ]
    done = ScenarioFile(compiled, syntax, comp.diags[start:])
    if memo is not None:
        memo[(name, text)] = done
    return done

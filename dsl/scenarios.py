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
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .compiler import parser
from .diagnostics import Diagnostic, Span, did_you_mean, has_errors
from .parser import Atom, Stmt

SETUP_NUMBERS = ("players", "seed", "rage")
PLAYER_LISTS = ("hand", "deck", "discard", "in play", "tokens")
PLAYER_NUMBERS = ("gold", "damage", "clank", "skill", "swords", "boots", "supply")
ACTIONS = (
    "play",
    "acquire",
    "fight",
    "move",
    "buy",
    "coach",
    "take artifact",
    "use",
    "end turn",
    "answer",
    "yes",
    "no",
)
PLAYER_FACTS = {
    "skill": "int",
    "swords": "int",
    "boots": "int",
    "gold": "int",
    "clank": "int",
    "debt": "int",
    "damage": "int",
    "supply": "int",
    "hand": "int",
    "deck": "int",
    "discard": "int",
    "played": "int",
    "tokens": "int",
    "score": "int",
    "at": "space",
    "status": "word",
    "has": "name",
    "exhausted": "bool",
    "artifact": "name",
}
GAME_FACTS = {"rage": "int", "bag": "int", "row": "int", "winner": "int", "turn": "int"}


def _at(span: Span) -> dict[str, Any]:
    return span.to_ir()


def _join(atoms: list[Atom]) -> Span:
    a, b = atoms[0].span, atoms[-1].span
    return Span(a.file, a.line, a.col, b.end_line, b.end_col)


class _ScenarioCompiler:
    def __init__(self, pack: dict[str, Any]) -> None:
        self.diags: list[Diagnostic] = []
        self.cards = {c["name"].lower(): c["name"] for c in pack["cards"]}
        self.tokens = {t["name"].lower(): t["name"] for t in pack["tokens"]}
        self.boards = {b["name"].lower(): b for b in pack["boards"]}
        self.spaces = {s["name"].lower(): s["name"] for b in pack["boards"] for s in b["spaces"]}

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, span, hint))

    def ref(self, atom: Atom, pool: dict[str, str], what: str) -> str | None:
        """A declared name, or a CW107 diagnostic."""
        name = atom.text
        if name.lower() in pool:
            return pool[name.lower()]
        self.error(
            "CW107",
            f"no {what} named {name!r} in the pack",
            atom.span,
            hint=did_you_mean(name, pool.values()) or f"check the {what}'s name",
        )
        return None

    def number(self, st: Stmt, atoms: list[Atom], what: str) -> int | None:
        if len(atoms) != 1 or atoms[0].kind not in ("number", "signed"):
            self.error("CW105", f"{what} takes one number", st.span, hint=f"write `{what} 2`")
            return None
        return int(atoms[0].value)

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
        sc: dict[str, Any] = {
            "name": st.head[1].text,
            "players": 2,
            "setup": [],
            "steps": [],
            "at": _at(st.span),
        }
        for s in st.block or []:
            self.statement(sc, s)
        for p in sc["setup"]:
            if p["seat"] > sc["players"]:
                self.error(
                    "CW108",
                    f"player {p['seat']} in a {sc['players']}-player scenario",
                    Span.from_ir(p["at"]),
                    hint=f"set `players {p['seat']}` or renumber",
                )
        return sc

    def statement(self, sc: dict[str, Any], s: Stmt) -> None:
        words, rest = s.words, s.head[1:]
        key = words[0]
        if s.effects is not None:
            self.error("CW112", f"`{key}` takes no colon", s.span)
            return
        if key in SETUP_NUMBERS:
            value = self.number(s, rest, key)
            if value is not None:
                sc[key] = value
        elif key == "board" and len(rest) == 1:
            if rest[0].text.lower() not in self.boards:
                self.ref(rest[0], {k: v["name"] for k, v in self.boards.items()}, "board")
            else:
                sc["board"] = self.boards[rest[0].text.lower()]["name"]
        elif key in ("row", "adventure"):
            names = [self.ref(a, self.cards, "card") for a in rest]
            if all(names):
                sc[key] = names
        elif key == "bag" and rest:
            self.bag(sc, s, rest)
        elif key == "draws" and rest:
            draws = []
            for a in rest:
                if a.kind == "number":
                    draws.append(int(a.value))
                elif a.kind == "word" and a.text.lower() == "black":
                    draws.append("black")
                else:
                    self.error("CW105", "draws lists `black` or player numbers", a.span)
                    return
            sc["draws"] = draws
        elif key == "player" and s.block is not None:
            self.player(sc, s)
        elif key == "expect":
            self.expect(sc, s, rest)
        else:
            self.action(sc, s)

    def bag(self, sc: dict[str, Any], s: Stmt, rest: list[Atom]) -> None:
        words = [a.text.lower() if a.kind == "word" else None for a in rest]
        bag = sc.setdefault("bag", {})
        if words[0] == "black" and len(rest) == 2 and rest[1].kind == "number":
            bag["black"] = int(rest[1].value)
        elif words[0] == "player" and len(rest) == 3 and all(a.kind == "number" for a in rest[1:]):
            bag[str(rest[1].value)] = int(rest[2].value)
        else:
            self.error(
                "CW105",
                "bag takes `black N` or `player SEAT N`",
                s.span,
                hint="bag black 3 / bag player 2 1",
            )

    def player(self, sc: dict[str, Any], s: Stmt) -> None:
        if len(s.head) != 2 or s.head[1].kind != "number":
            self.error("CW105", "player takes a seat number", s.span, hint="player 1 { ... }")
            return
        entry: dict[str, Any] = {"seat": int(s.head[1].value), "at": _at(s.span)}
        for p in s.block or []:
            words, rest = p.words, p.head[1:]
            key = words[0]
            if words[:2] == ["in", "play"]:
                key, rest = "in play", p.head[2:]
            if key in PLAYER_LISTS:
                pool, what = (self.tokens, "token") if key == "tokens" else (self.cards, "card")
                names = [self.ref(a, pool, what) for a in rest]
                if all(names):
                    entry[key.replace(" ", "_")] = names
            elif key in PLAYER_NUMBERS:
                value = self.number(p, rest, key)
                if value is not None:
                    entry[key] = value
            elif key == "at" and len(rest) == 1:
                space = self.ref(rest[0], self.spaces, "space")
                if space:
                    entry["space"] = space
            elif key == "artifact" and len(rest) == 1:
                tok = self.ref(rest[0], self.tokens, "token")
                if tok:
                    entry["artifact"] = tok
            else:
                self.error(
                    "CW102",
                    f"unknown player setup `{p.head_text()}`",
                    p.head[0].span,
                    hint=did_you_mean(key, [*PLAYER_LISTS, *PLAYER_NUMBERS, "at", "artifact", "in"])
                    or "player setup: at, hand, deck, discard, in play, tokens, artifact, "
                    + ", ".join(PLAYER_NUMBERS),
                )
        sc["setup"].append(entry)

    def action(self, sc: dict[str, Any], s: Stmt) -> None:
        words, rest = s.words, s.head[1:]
        key = words[0]
        step: dict[str, Any] = {"at": _at(s.span)}
        if words in (["end", "turn"], ["take", "artifact"], ["yes"], ["no"]):
            step["do"] = " ".join(words)
        elif key in ("play", "acquire", "fight") and len(rest) == 1:
            name = self.ref(rest[0], self.cards, "card")
            if name is None:
                return
            step.update(do=key, arg=name)
        elif key in ("move", "coach") and rest:
            space = self.ref(rest[0], self.spaces, "space")
            if space is None:
                return
            step.update(do=key, arg=space)
            tail = [a.text.lower() if a.kind == "word" else a.value for a in rest[1:]]
            if tail:
                if len(tail) == 3 and tail[0] == "spending" and tail[2] in ("sword", "swords"):
                    step["swords"] = int(tail[1])
                else:
                    self.error(
                        "CW105",
                        "after the space, a move takes `spending N swords`",
                        _join(rest[1:]),
                    )
                    return
        elif key in ("buy", "use") and len(rest) == 1:
            tok = self.ref(rest[0], self.tokens, "token")
            if tok is None:
                return
            step.update(do=key, arg=tok)
        elif key == "answer" and len(rest) == 1:
            step.update(
                do="answer", arg=rest[0].value if rest[0].kind == "number" else rest[0].text
            )
        else:
            self.error(
                "CW102",
                f"unknown scenario step `{s.head_text()}`",
                s.head[0].span,
                hint=did_you_mean(key, [a.split()[0] for a in ACTIONS] + ["expect", "player"])
                or "steps: " + ", ".join(ACTIONS) + ", expect",
            )
            return
        sc["steps"].append(step)

    def expect(self, sc: dict[str, Any], s: Stmt, rest: list[Atom]) -> None:
        words = [a.text.lower() if a.kind == "word" else None for a in rest]
        step: dict[str, Any] = {"do": "expect", "at": _at(s.span)}
        if len(rest) >= 3 and words[0] == "player" and rest[1].kind == "number":
            step["seat"] = int(rest[1].value)
            fact, args, facts = words[2], rest[3:], PLAYER_FACTS
        elif words and words[0] == "game" and words[1:] == ["over"]:
            step.update(fact="over", value=True)
            sc["steps"].append(step)
            return
        elif words and words[0] == "row" and len(rest) == 3 and words[1] == "has":
            name = self.ref(rest[2], self.cards, "card")
            if name:
                step.update(fact="row has", value=name)
                sc["steps"].append(step)
            return
        elif words and words[0] in GAME_FACTS:
            fact, args, facts = words[0], rest[1:], GAME_FACTS
        else:
            self.error(
                "CW102",
                f"unknown expectation `{s.head_text()}`",
                s.span,
                hint="expect player N FACT VALUE, expect rage N, expect bag N, expect row N, "
                "expect row has CARD, expect winner N, expect game over",
            )
            return
        if fact not in facts:
            self.error(
                "CW102",
                f"unknown fact {fact!r}",
                rest[2].span if "seat" in step else rest[0].span,
                hint=did_you_mean(fact or "", facts) or "facts: " + ", ".join(facts),
            )
            return
        shape = facts[fact]
        if len(args) != 1:
            self.error("CW105", f"expect ... {fact} takes one value", s.span)
            return
        a = args[0]
        value: Any
        if shape == "int" and a.kind in ("number", "signed"):
            value = int(a.value)
        elif shape == "bool" and a.text.lower() in ("yes", "no", "true", "false"):
            value = a.text.lower() in ("yes", "true")
        elif shape == "space":
            value = self.ref(a, self.spaces, "space")
        elif shape == "name":
            value = self.ref(a, self.tokens, "token")
        elif shape == "word" and a.text.lower() in ("on", "escaped", "knocked"):
            value = {"knocked": "knocked out"}.get(a.text.lower(), a.text.lower())
        else:
            want = {
                "int": "a number",
                "bool": "yes or no",
                "word": "on, escaped or knocked",
            }.get(shape, "a name")
            self.error("CW105", f"expect ... {fact} takes {want}", a.span)
            return
        if value is None:
            return
        step.update(fact=fact, value=value)
        sc["steps"].append(step)


def compile_scenarios(
    pack_dir: str | Path, pack_ir: dict[str, Any], display_root: str | Path | None = None
) -> tuple[list[dict[str, Any]], list[Diagnostic], dict[str, str]]:
    """Scenario IR of every `scenarios/*.clank` file of a pack, its diagnostics and sources."""
    root = Path(pack_dir)
    shown = Path(display_root) if display_root is not None else root
    folder = root / "scenarios"
    out: list[dict[str, Any]] = []
    diags: list[Diagnostic] = []
    sources: dict[str, str] = {}
    if not folder.is_dir():
        return out, diags, sources
    comp = _ScenarioCompiler(pack_ir)
    for path in sorted(folder.glob("*.clank")):
        name = (shown / "scenarios" / path.name).as_posix()
        text = path.read_text(encoding="utf-8")
        sources[name] = text
        stmts, syntax = parser().parse(text, name)
        diags.extend(syntax)
        for st in stmts:
            sc = comp.scenario(st)
            if sc is not None:
                out.append(sc)
    diags.extend(comp.diags)
    seen: dict[str, dict[str, Any]] = {}
    for sc in out:
        if sc["name"].lower() in seen:
            diags.append(
                Diagnostic(
                    "CW106",
                    f"two scenarios are named {sc['name']!r}",
                    Span.from_ir(sc["at"]),
                    hint="scenario names identify test items; make them unique",
                    notes=(("the first is here", Span.from_ir(seen[sc["name"].lower()]["at"])),),
                )
            )
        seen[sc["name"].lower()] = sc
    return (out if not has_errors(diags) else []), diags, sources

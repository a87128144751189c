"""Where each name of a pack is declared and used: references, rename, outline and hover.

The index reads the statements of every file of an analysis (the pack's, its scenarios', its
bases') with the compiled IR, which says what the names are:

- cards (with monsters, events and reserve), tokens and spaces, named exactly (case and
  spacing count, as in the compiler): a quoted string or a bare word of that text;
- space features, declared resources and their other words, the game's own resources and
  ways, named by words in any case: a quoted string or a run of bare words (`+1 special
  moves`, `feature skill study room`), the longest run that names something winning.

A name written where it is declared (`card Burgle`, `token "Mystic Fruit"`, `space HQ`,
`resource favour`, `way rope`) is its declaration; everywhere else it is a use. A word the
language gives a meaning of its own (an effect's `gold`, a flag's `forest`) is a use of the
resource or feature of that name, which is what it is. Lines that name files or packs
(`include`, `extends`, the pack block) hold no names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from clankwork.dsl.board_blocks import with_board_designs
from clankwork.dsl.compiler import FEATURE_WORDS, SPACE_FLAGS, feature_name
from clankwork.dsl.diagnostics import Span
from clankwork.dsl.parser import Atom, Effect, Stmt
from clankwork.dsl.resolve import name_key
from clankwork.interpreter.effects.registry import RESOURCE_WORDS

EXACT = ("card", "token", "space")
"""Kinds whose names match exactly."""
FOLDED = ("feature", "resource", "way")
"""Kinds whose names are words, matched in any case."""
DECLARES = {
    "card": "card",
    "monster": "card",
    "reserve": "card",
    "event": "card",
    "token": "token",
    "space": "space",
    "resource": "resource",
    "way": "way",
}
"""The statements that declare a name (their second word), and the kind they declare."""
_NO_NAMES = ("include", "extends", "pack", "version", "title", "description")
_LONGEST = 5  # words in the longest folded name looked for
NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")


@dataclass(frozen=True, order=True)
class Symbol:
    """A named thing of a pack: its kind (card, token, space, feature, resource, way) and
    its name (as declared; a folded kind's in lower case)."""

    kind: str
    name: str


@dataclass(frozen=True)
class Use:
    """Where a symbol is written: its file (real path), the span of its atoms, whether it
    is the declaration, and whether it is one quoted string."""

    symbol: Symbol
    real: str
    span: Span
    declares: bool
    quoted: bool


@dataclass
class Index:
    """Every use of every name in an analysis's files."""

    uses: list[Use] = field(default_factory=list)
    by_symbol: dict[Symbol, list[Use]] = field(default_factory=dict)
    base_resources: set[str] = field(default_factory=set)  # the game's own: not renamed
    builtin_features: set[str] = field(default_factory=set)  # space flags: not renamed
    declared: dict[Symbol, dict[str, Any]] = field(default_factory=dict)  # symbol → its IR

    def add(self, use: Use) -> None:
        self.uses.append(use)
        self.by_symbol.setdefault(use.symbol, []).append(use)

    def at(self, real: str, line: int, col: int) -> list[Use]:
        """The uses under a position (1-based line and column), the declaration first."""
        found = [
            u
            for u in self.uses
            if u.real == real
            and (u.span.line, u.span.col) <= (line, col) <= (u.span.end_line, u.span.end_col)
        ]
        return sorted(found, key=lambda u: not u.declares)

    def symbols_named(self, name: str) -> list[Symbol]:
        """The symbols a name is, exactly or (a folded kind) in any case."""
        return sorted(
            s
            for s in self.by_symbol
            if s.name == name or (s.kind in FOLDED and s.name == name.casefold())
        )


def _names(ir: dict[str, Any]) -> tuple[dict[str, list[Symbol]], dict[tuple[str, ...], Symbol]]:
    """The exact names (text → symbols) and the folded ones (lower-case words → symbol)."""
    exact: dict[str, list[Symbol]] = {}
    folded: dict[tuple[str, ...], Symbol] = {}

    def name(kind: str, text: str) -> None:
        sym = Symbol(kind, text)
        if sym not in exact.get(text, []):
            exact.setdefault(text, []).append(sym)

    for card in ir.get("cards", ()):
        name("card", card["name"])
    for tok in ir.get("tokens", ()):
        name("token", tok["name"])
    for board in ir.get("boards", ()):
        for space in board.get("spaces", ()):
            name("space", space["name"])
            for feat in space.get("features", ()):
                folded[tuple(feat.casefold().split())] = Symbol("feature", feat.casefold())
    for words, feat in FEATURE_WORDS.items():
        folded.setdefault(tuple(words.split()), Symbol("feature", feat))
    for word, res in RESOURCE_WORDS.items():
        folded[(word,)] = Symbol("resource", res)
    for res in ir.get("resources", ()):
        for word in (res["name"], *res.get("words", ())):
            folded[tuple(word.casefold().split())] = Symbol("resource", res["name"].casefold())
    for word, res in (ir.get("resource_aliases") or {}).items():
        folded[tuple(word.casefold().split())] = Symbol("resource", res)
    for way in ir.get("ways", ()):
        folded[tuple(way["name"].casefold().split())] = Symbol("way", way["name"].casefold())
    return exact, folded


def build(ir: dict[str, Any] | None, trees: dict[str, list[Stmt]]) -> Index:
    """The index of ``trees`` (real path → the file's statements) with the names of ``ir``."""
    index = Index()
    if ir is None:
        return index
    ir = with_board_designs(ir)  # the designs one board has (`on board`) are names too
    exact, folded = _names(ir)
    index.base_resources = set(RESOURCE_WORDS.values())
    index.builtin_features = {v[0] for v in SPACE_FLAGS.values() if v[0]}
    for card in ir.get("cards", ()):
        index.declared[Symbol("card", card["name"])] = card
    for tok in ir.get("tokens", ()):
        index.declared[Symbol("token", tok["name"])] = tok
    for board in ir.get("boards", ()):
        for space in board.get("spaces", ()):
            index.declared.setdefault(Symbol("space", space["name"]), {**space, "board": board})
    for res in ir.get("resources", ()):
        index.declared[Symbol("resource", res["name"].casefold())] = res
    for way in ir.get("ways", ()):
        index.declared[Symbol("way", way["name"].casefold())] = way
    for real, stmts in trees.items():
        for st in _statements(stmts):
            _index_statement(index, real, st, exact, folded)
    return index


def _statements(stmts: list[Stmt]) -> Iterator[Stmt]:
    for st in stmts:
        yield st
        if st.block:
            yield from _statements(st.block)


def _phrases(effects: list[Effect] | None) -> Iterator[list[Atom]]:
    for e in effects or []:
        yield e.phrase
        yield from _phrases(e.consequence)
        for alt in e.alternatives:
            yield from _phrases(alt)


def _index_statement(
    index: Index,
    real: str,
    st: Stmt,
    exact: dict[str, list[Symbol]],
    folded: dict[tuple[str, ...], Symbol],
) -> None:
    words = st.words
    if not words or words[0] in _NO_NAMES:
        return
    head = st.head
    declared = DECLARES.get(words[0])
    start = 0
    if declared is not None and len(head) >= 2 and head[1].kind in ("word", "string"):
        text = head[1].text
        sym = Symbol(declared, text if declared in EXACT else text.casefold())
        if sym in index.declared or declared in EXACT:
            index.add(Use(sym, real, head[1].span, True, head[1].kind == "string"))
        start = 2
    # The first word of a line is the language's (a property, a flag, a scenario verb): it
    # may be a feature (`forest`), a way (`rope`) or a resource, never a card.
    _index_atoms(index, real, head[start:], exact, folded, first_is_word=start == 0)
    for phrase in _phrases(st.effects):
        _index_atoms(index, real, phrase, exact, folded, first_is_word=False)


def _index_atoms(
    index: Index,
    real: str,
    atoms: list[Atom],
    exact: dict[str, list[Symbol]],
    folded: dict[tuple[str, ...], Symbol],
    first_is_word: bool,
) -> None:
    i = 0
    while i < len(atoms):
        a = atoms[i]
        if a.kind == "string":
            syms = exact.get(a.text) or _folded_one(folded, a.text)
            for sym in syms:
                index.add(Use(sym, real, a.span, False, True))
            i += 1
            continue
        if a.kind == "word" and not (first_is_word and i == 0) and a.text in exact:
            for sym in exact[a.text]:
                index.add(Use(sym, real, a.span, False, False))
            i += 1
            continue
        run = _folded_run(folded, atoms, i)
        if run is not None:
            sym, n = run
            span = Span(a.span.file, a.span.line, a.span.col, atoms[i + n - 1].span.end_line,
                        atoms[i + n - 1].span.end_col)  # fmt: skip
            index.add(Use(sym, real, span, False, False))
            i += n
            continue
        i += 1


def _folded_one(folded: dict[tuple[str, ...], Symbol], text: str) -> list[Symbol]:
    sym = folded.get(tuple(feature_name(text).casefold().split())) or folded.get(
        tuple(text.casefold().split())
    )
    return [sym] if sym is not None else []


def _folded_run(
    folded: dict[tuple[str, ...], Symbol], atoms: list[Atom], i: int
) -> tuple[Symbol, int] | None:
    """The longest run of bare words (and numbers) from ``i`` that is a folded name."""
    words: list[str] = []
    for a in atoms[i : i + _LONGEST]:
        if a.kind not in ("word", "number"):
            break
        words.append(str(a.text).casefold())
    for n in range(len(words), 0, -1):
        sym = folded.get(tuple(words[:n]))
        if sym is not None:
            return sym, n
    return None


# -- renaming ---------------------------------------------------------------------------------


def rename_problem(index: Index, sym: Symbol, new: str, editable: set[str]) -> str | None:
    """Why ``sym`` may not be renamed ``new`` (None when it may): a name the game gives,
    one declared where the edit may not go (a base pack), a new name that is no name, or
    one that another of its kind already has."""
    if sym.kind == "resource" and sym not in index.declared:
        return f"{sym.name} is one of the game's own resources: it cannot be renamed"
    if sym.kind == "feature" and sym.name in index.builtin_features:
        return f"{sym.name} is a feature the language gives (a space flag): it cannot be renamed"
    uses = index.by_symbol.get(sym, [])
    outside = sorted({u.real for u in uses if u.real not in editable})
    if outside:
        return (
            f"{sym.kind} {sym.name!r} is written in {outside[0]}, which is not this pack's "
            "(a base pack): rename it there"
        )
    if not new.strip() or new != new.strip():
        return "a name cannot be empty or start or end with a space"
    if any(ord(c) < 32 or c in '"\\' or 0x7F <= ord(c) < 0xA0 for c in new):
        return "a name cannot hold a quote, a backslash or a control character"
    if sym.kind in FOLDED and not all(NAME_RE.fullmatch(w) for w in new.split()):
        return f"a {sym.kind} is named by words (letters, digits, _ and ')"
    for other in index.by_symbol:
        if other.kind == sym.kind and other != sym and name_key(other.name) == name_key(new):
            return f"there is already a {sym.kind} named {other.name!r}"
    return None


def new_text(use: Use, new: str, keywords: set[str]) -> str:
    """What replaces ``use`` when its symbol is renamed ``new``: quoted as it was, bare
    where the new name may be bare (one NAME, or words for a folded kind, and not a word
    the language reads as its own), quoted otherwise."""
    quoted = '"' + new + '"'
    if use.quoted:
        return quoted
    if use.symbol.kind in FOLDED:
        return new if all(NAME_RE.fullmatch(w) for w in new.split()) else quoted
    if NAME_RE.fullmatch(new) and new.casefold() not in keywords:
        return new
    return quoted

"""Completion that knows where the cursor is: which block, which statement, which slot of
which phrase.

The text before the cursor is read with a small lexer of its own (it must work on half-typed
text the parser refuses): blocks are followed by their braces, statements end where the
grammar ends them, and the words of the statement under the cursor say what may come next:

- at the start of a statement, the statements its block takes (the declaration kinds at the
  top of a file, a card's properties and triggers in a card, a space's flags in a space,
  the setup and action words in a scenario), with snippets for whole declarations;
- after a statement's first words, the names that fit (`only in` features, `path` spaces,
  `replace card` cards, `extends` bundled packs, a scenario's `hand` cards and `at` spaces);
- in effects (after `:`), and in a condition after `if`, the registry's phrases matched
  against the words already typed: their next literal words, or the names their next slot
  takes (after `+2`, resource words; after `trash a`, cards; after `gain`, tokens; after
  `you are in a`, features).

Items are filtered by the word being typed and ranked: what fits here first.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types as lsp

from clankwork.dsl.compiler import (
    CARD_FLAGS,
    DECL_KINDS,
    PROPERTIES,
    REWARDS,
    SPACE_FLAGS,
    TOKEN_KINDS,
)
from clankwork.dsl.extends import EDIT_KINDS
from clankwork.dsl.phrases import Item, compile_pattern
from clankwork.dsl.scenarios import ACTIONS, GAME_FACTS, PLAYER_FACTS, PLAYER_SETUP, SETUP_WORDS
from clankwork.interpreter.effects import CONDITIONS, COUNTS, EFFECTS, TRIGGERS, Record, Registry
from clankwork.interpreter.effects.registry import DURATIONS, RESOURCE_WORDS, pretty_phrase
from clankwork.interpreter.rules import RULE_PARAMS

from .lsp_index import NAME_RE

CARD_KINDS = ("card", "monster", "reserve", "event")
TRIGGER_LEADS = sorted({p.split()[0] for r in TRIGGERS for p in r.phrases})
# Snippets of whole declarations (LSP snippet syntax), in `clankwork fmt`'s layout.
SNIPPETS = {
    "card": "card ${1:Name} { cost ${2:3}; play: ${3:+1 skill} }",
    "monster": "monster ${1:Name} { fight ${2:2}; defeat: ${3:+2 gold} }",
    "event": "event ${1:Name} { arrive: ${2:each player (+1 clank)} }",
    "token": "token ${1:Name} { minor secret ${2:2}; use: ${3:+1 skill} }",
    "board": "board ${1:name} {\n  space ${2:HQ} { hq }\n  $0\n}",
    "space": "space ${1:Name} { $0 }",
    "path": "path ${1:A} -- ${2:B}",
    "resource": "resource ${1:name} { ${2|per turn,kept|} }",
    "way": "way ${1:name} { paid in ${2:boots} }",
    "scenario": 'scenario "${1:what it checks}" {\n  players ${2:2}\n  $0\n}',
    "player": "player ${1:1} { hand ${2:Burgle} }",
}
# Scenario statements and the kind of name that follows their words.
SCENARIO_NAMES = {
    ("hand",): "card",
    ("deck",): "card",
    ("discard",): "card",
    ("in", "play"): "card",
    ("row",): "card",
    ("adventure",): "card",
    ("destroy",): "card",
    ("play",): "card",
    ("acquire",): "card",
    ("fight",): "card",
    ("buy",): "token",
    ("use",): "token",
    ("tokens",): "token",
    ("artifact",): "token",
    ("take", "artifact"): "token",
    ("minor", "secrets"): "token",
    ("major", "secrets"): "token",
    ("at",): "space",
    ("move",): "space",
    ("coach",): "space",
    ("counter",): "counter",
    ("sticker",): "sticker",
    ("contract",): "contract",
    ("patron",): "patron",
    ("goal",): "goal",
    ("expect", "row", "has"): "card",
    ("expect", "row", "has", "no"): "card",
    ("expect", "reserve"): "card",
    ("expect", "space"): "space",
    ("expect", "moves", "to"): "space",
    ("expect", "teleports", "to"): "space",
}
FACT_SHAPES = {"card": "card", "space": "space", "token": "token", "token?": "token"}
# What the names of each slot of a registry phrase are, by the slot's name.
SLOT_NAMES = {
    "card": "card",
    "old": "card",
    "new": "card",
    "token": "token",
    "what": "token",
    "track": "track",
    "name": "counter",
    "feature": "feature",
    "tag": "tag",
}

KINDS = {
    "card": lsp.CompletionItemKind.Class,
    "token": lsp.CompletionItemKind.Constant,
    "space": lsp.CompletionItemKind.Field,
    "feature": lsp.CompletionItemKind.EnumMember,
    "resource": lsp.CompletionItemKind.Unit,
    "way": lsp.CompletionItemKind.Interface,
    "tag": lsp.CompletionItemKind.EnumMember,
    "pack": lsp.CompletionItemKind.Module,
}


@dataclass
class Tok:
    """One token of the text before the cursor: kind (word, number, signed, string, open
    string, or the punctuation itself) and where it starts (0-based line, column)."""

    kind: str
    text: str
    line: int
    col: int


@dataclass
class Context:
    """Where the cursor is: the blocks around it (their head words, outermost first), the
    statement's complete tokens, and the word being typed with where it starts."""

    blocks: list[list[str]]
    stmt: list[Tok]
    prefix: str
    start: tuple[int, int]  # where the word typed starts
    end: tuple[int, int]  # the cursor
    in_string: bool = False

    @property
    def block(self) -> str | None:
        """The kind of the innermost block (its first word), None at the top level."""
        return self.blocks[-1][0] if self.blocks and self.blocks[-1] else None


@dataclass
class Names:
    """The names a pack gives, by kind (from its IR)."""

    by_kind: dict[str, list[str]] = field(default_factory=dict)
    docs: dict[tuple[str, str], str] = field(default_factory=dict)  # (kind, name) → markdown

    def of(self, kind: str) -> list[str]:
        return self.by_kind.get(kind, [])


def pack_names(ir: dict[str, Any] | None, bundled: list[str], card_doc: Any = None) -> Names:
    """The names of ``ir`` by kind, and the bundled packs' names."""
    out: dict[str, set[str]] = {k: set() for k in KINDS}
    out["pack"] = set(bundled)
    out["resource"] = set(RESOURCE_WORDS)
    out["tag"] = set(CARD_FLAGS)
    out["feature"] = {k for k in (" ".join(w) for w in SPACE_FLAGS) if k != "exhausts"}
    names = Names()
    if ir is not None:
        for card in ir.get("cards", ()):
            out["card"].add(card["name"])
            out["tag"] |= set(card.get("tags", ()))
            if card_doc is not None:
                names.docs["card", card["name"]] = card_doc(card)
        for tok in ir.get("tokens", ()):
            out["token"].add(tok["name"])
        for board in ir.get("boards", ()):
            for space in board.get("spaces", ()):
                out["space"].add(space["name"])
                out["feature"] |= set(space.get("features", ()))
        for res in ir.get("resources", ()):
            out["resource"] |= {res["name"], *res.get("words", ())}
        out["resource"] |= set(ir.get("resource_aliases") or {})
        out["way"] = {w["name"] for w in ir.get("ways", ())}
        lists = {
            "counter": ir.get("counters", ()),
            "sticker": ir.get("stickers", ()),
            "contract": ir.get("contracts", ()),
            "patron": ir.get("patrons", ()),
            "goal": ir.get("goals", ()),
            "track": (ir.get("campaign") or {}).get("tracks", ()),
        }
        for kind, items in lists.items():
            out[kind] = {x["name"] for x in items if "name" in x}
    names.by_kind = {k: sorted(v) for k, v in out.items()}
    return names


def record_doc(record: Record) -> str:
    """A registry record as markdown: its phrases, doc and examples."""
    phrases = ", ".join(f"`{pretty_phrase(p)}`" for p in record.phrases)
    parts = [f"**{record.family} `{record.name}`**: {phrases}", inspect.cleandoc(record.doc)]
    if record.examples:
        parts.append("Example: " + ", ".join(f"`{e}`" for e in record.examples))
    return "\n\n".join(parts)


# -- reading the text before the cursor -------------------------------------------------------


def tokens(text: str) -> Iterator[Tok]:
    """The tokens of ``text`` (strings, comments and escapes read as the lexer reads them;
    a string still open at the end is an "open" token)."""
    line = 0
    for line_no, row in enumerate(text.split("\n")):
        line = line_no
        i, n = 0, len(row)
        while i < n:
            c = row[i]
            if c.isspace():
                i += 1
            elif c == "#":
                break
            elif c == '"':
                j = i + 1
                while j < n and row[j] != '"':
                    j += 2 if row[j] == "\\" else 1
                if j >= n:
                    yield Tok("open", row[i + 1 :], line, i)
                    break
                yield Tok("string", row[i + 1 : j].replace('\\"', '"'), line, i)
                i = j + 1
            elif row.startswith(("->", "--"), i):
                yield Tok(row[i : i + 2], row[i : i + 2], line, i)
                i += 2
            elif c in "+-" and i + 1 < n and row[i + 1].isdigit():
                j = i + 1
                while j < n and row[j].isdigit():
                    j += 1
                yield Tok("signed", row[i:j], line, i)
                i = j
            elif c.isdigit():
                j = i
                while j < n and row[j].isdigit():
                    j += 1
                yield Tok("number", row[i:j], line, i)
                i = j
            elif c.isalpha() or c == "_":
                m = NAME_RE.match(row, i)
                assert m is not None
                j = m.end()
                while j < n and row[j] == "." and NAME_RE.match(row, j + 1):
                    j = NAME_RE.match(row, j + 1).end()  # type: ignore[union-attr]
                yield Tok("word", row[i:j], line, i)
                i = j
            else:
                yield Tok(c, c, line, i)
                i += 1
        yield Tok("nl", "\n", line, n)


def context_at(text: str, line: int, col: int) -> Context:
    """The context of a cursor at 0-based ``line`` and ``col`` (characters) of ``text``."""
    lines = text.split("\n")
    before = "\n".join([*lines[:line], lines[line][:col] if line < len(lines) else ""])
    toks = list(tokens(before))
    if toks and toks[-1].kind == "nl":
        toks.pop()  # the cursor's own line is not ended
    prefix, start, in_string = "", (line, col), False
    if toks and toks[-1].kind == "open":
        last = toks.pop()
        prefix, start, in_string = last.text, (last.line, last.col + 1), True
    elif toks and toks[-1].kind == "word" and toks[-1].col + len(toks[-1].text) == col:
        last = toks.pop()
        prefix, start = last.text, (last.line, last.col)
    blocks: list[list[str]] = []
    stmt: list[Tok] = []
    parens = 0
    for t in toks:
        if t.kind == "(":
            parens += 1
        elif t.kind == ")":
            parens = max(0, parens - 1)
        if t.kind == "nl":
            if parens or (stmt and stmt[-1].kind in (",", "->")):
                continue
            stmt = []
        elif t.kind == ";":
            stmt = []
        elif t.kind == "{":
            blocks.append([x.text.lower() for x in stmt if x.kind in ("word", "string")])
            stmt, parens = [], 0
        elif t.kind == "}":
            if blocks:
                blocks.pop()
            stmt, parens = [], 0
        else:
            stmt.append(t)
    return Context(blocks, stmt, prefix, start, (line, col), in_string)


# -- what may come next ---------------------------------------------------------------------


Expect = tuple[str, Any, str, list[Tok]]
"""("word", words, "", []) for literal words, or ("slot", kind, slot name, the words of the
slot typed already)."""


def _atom(t: Tok) -> bool:
    return t.kind in ("word", "number", "signed", "string")


def expectations(
    items: tuple[Item, ...], atoms: list[Tok], resources: set[tuple[str, ...]], depth: int = 0
) -> Iterator[Expect]:
    """What may follow ``atoms`` in a phrase of ``items``: literal words or a slot."""
    if depth > 3:
        return
    if not atoms:
        for it in items:
            if it.kind == "const":
                continue
            if it.slot is None:
                yield ("word", it.words, "", [])
                if it.optional:
                    continue
                return
            if it.kind in ("cond", "count"):
                registry = CONDITIONS if it.kind == "cond" else COUNTS
                yield from _registry_expectations(registry, [], resources, depth + 1)
                return
            yield ("slot", it.kind, it.slot, [])
            return
        return
    if not items:
        return  # the phrase is complete and more was typed: it is not this one
    it, rest = items[0], items[1:]
    a = atoms[0]
    if it.kind == "const":
        yield from expectations(rest, atoms, resources, depth)
    elif it.slot is None:
        if a.kind == "word" and a.text.lower() in it.words:
            yield from expectations(rest, atoms[1:], resources, depth)
        if it.optional:
            yield from expectations(rest, atoms, resources, depth)
    elif it.kind in ("int", "signed"):
        if a.kind == "number" or (it.kind == "signed" and a.kind == "signed"):
            yield from expectations(rest, atoms[1:], resources, depth)
    elif it.kind == "resource":
        words = [t.text.lower() if t.kind == "word" else "" for t in atoms]
        for n in range(1, len(atoms) + 1):
            if tuple(words[:n]) in resources:
                yield from expectations(rest, atoms[n:], resources, depth)
        if all(t.kind == "word" for t in atoms) and not rest:
            yield ("slot", "resource", it.slot, atoms)
        elif all(t.kind == "word" for t in atoms):
            typed = tuple(words)
            if any(r[: len(typed)] == typed and len(r) > len(typed) for r in resources):
                yield ("slot", "resource", it.slot, atoms)
    elif it.kind in ("name", "tag") and a.kind in ("word", "string"):
        yield from expectations(rest, atoms[1:], resources, depth)
    elif it.kind == "words" and all(t.kind in ("word", "string", "number") for t in atoms):
        yield ("slot", "words", it.slot, atoms)
    elif it.kind == "duration" and all(t.kind == "word" for t in atoms):
        typed = " ".join(t.text.lower() for t in atoms)
        if any(d.startswith(typed) for d in DURATIONS):
            yield ("slot", "duration", it.slot, atoms)
    elif it.kind in ("cond", "count"):
        registry = CONDITIONS if it.kind == "cond" else COUNTS
        yield from _registry_expectations(registry, atoms, resources, depth + 1)


def _registry_expectations(
    registry: Registry, atoms: list[Tok], resources: set[tuple[str, ...]], depth: int = 0
) -> Iterator[Expect]:
    for record in registry:
        for pattern in record.phrases:
            if "{" in pattern and ":" not in pattern and "=" not in pattern:
                continue  # a structural phrase (`may {cost} -> {then}`), not words
            yield from expectations(compile_pattern(pattern), atoms, resources, depth)


# -- items ----------------------------------------------------------------------------------


@dataclass
class _Items:
    """Completion items being collected, each with its rank (lower first)."""

    ctx: Context
    snippets: bool
    out: dict[str, tuple[int, lsp.CompletionItem]] = field(default_factory=dict)

    def add(
        self,
        label: str,
        rank: int,
        kind: lsp.CompletionItemKind,
        detail: str,
        insert: str | None = None,
        doc: str | None = None,
        typed: list[Tok] | None = None,
    ) -> None:
        """An item replacing the word typed (and the slot's words typed before it)."""
        written = " ".join([*(t.text for t in typed or []), self.ctx.prefix]).strip()
        if not label.lower().startswith(written.lower()):
            return
        if label in self.out and self.out[label][0] <= rank:
            return
        start = (typed[0].line, typed[0].col) if typed else self.ctx.start
        new_text = insert if insert is not None else label
        if self.ctx.in_string:
            new_text = label
        elif (
            insert is None
            and not NAME_RE.fullmatch(label)
            and kind
            in (
                lsp.CompletionItemKind.Class,
                lsp.CompletionItemKind.Constant,
                lsp.CompletionItemKind.Field,
            )
        ):
            new_text = '"' + label + '"'  # a card, token or space name with spaces
        item = lsp.CompletionItem(
            label=label,
            kind=kind,
            detail=detail,
            documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, doc) if doc else None,
            filter_text=label,
            text_edit=lsp.TextEdit(
                lsp.Range(lsp.Position(*start), lsp.Position(*self.ctx.end)), new_text
            ),
        )
        self.out[label] = (rank, item)

    def snippet(self, word: str, rank: int) -> None:
        if not self.snippets or word not in SNIPPETS:
            return
        label = f"{word} …"
        if not word.startswith(self.ctx.prefix.lower()):
            return
        self.out[label] = (
            rank,
            lsp.CompletionItem(
                label=label,
                kind=lsp.CompletionItemKind.Snippet,
                detail=f"a {word} declaration",
                filter_text=word,
                insert_text_format=lsp.InsertTextFormat.Snippet,
                text_edit=lsp.TextEdit(
                    lsp.Range(lsp.Position(*self.ctx.start), lsp.Position(*self.ctx.end)),
                    SNIPPETS[word],
                ),
            ),
        )

    def names(self, kind: str, names: Names, rank: int, typed: list[Tok] | None = None) -> None:
        for name in names.of(kind):
            self.add(
                name, rank, KINDS.get(kind, lsp.CompletionItemKind.Value), kind,
                doc=names.docs.get((kind, name)), typed=typed,
            )  # fmt: skip

    def words(self, words: Any, rank: int, detail: str) -> None:
        for w in sorted(words):
            self.add(w, rank, lsp.CompletionItemKind.Keyword, detail)

    def items(self) -> list[lsp.CompletionItem]:
        ranked = sorted(self.out.values(), key=lambda r: (r[0], r[1].label.lower()))
        for n, (_rank, item) in enumerate(ranked):
            item.sort_text = f"{n:05d}"
        return [item for _rank, item in ranked]


def complete(
    text: str,
    line: int,
    col: int,
    names: Names,
    scenario_file: bool = False,
    snippets: bool = True,
) -> list[lsp.CompletionItem]:
    """Completion items at a cursor (0-based line, column in characters) of ``text``."""
    ctx = context_at(text, line, col)
    got = _Items(ctx, snippets)
    stmt = ctx.stmt
    colon = next((i for i, t in enumerate(stmt) if t.kind == ":"), None)
    if colon is not None:
        _in_effects(got, stmt[colon + 1 :], names)
    elif not stmt:
        _at_start(got, ctx, names, scenario_file)
    else:
        _in_head(got, ctx, names)
    return got.items()


def _resources(names: Names) -> set[tuple[str, ...]]:
    return {tuple(w.lower().split()) for w in names.of("resource")}


def _in_effects(got: _Items, after: list[Tok], names: Names) -> None:
    """After a `:`: the current effect's phrase, from its last `,`, `(`, `|` or `->`."""
    cut = max((i for i, t in enumerate(after) if t.kind in (",", "(", "|", "->")), default=-1)
    phrase = [t for t in after[cut + 1 :] if _atom(t)]
    if not phrase:  # an effect's first word: the registry's phrases
        _effect_phrases(got)
        got.words(("if", "unless"), 3, "condition group")
        return
    if phrase[0].text.lower() in ("if", "unless"):
        cond = phrase[1:]
        _expected(got, _registry_expectations(CONDITIONS, cond, _resources(names)), names)
        return
    _expected(got, _registry_expectations(EFFECTS, phrase, _resources(names)), names)


def _expected(got: _Items, found: Iterator[Expect], names: Names) -> None:
    for what, kind, slot, typed in found:
        if what == "word":
            got.words(kind, 1, "word")
            continue
        if kind == "resource":
            got.names("resource", names, 0, typed)
        elif kind == "duration":
            for d in DURATIONS:
                got.add(d, 0, lsp.CompletionItemKind.EnumMember, "how long it lasts", typed=typed)
        elif kind == "words" and slot == "feature":
            got.names("feature", names, 0, typed)
        elif kind == "words" and slot == "what":
            got.names("token", names, 0, typed)
        elif kind in ("name", "tag") and slot in SLOT_NAMES:
            target = SLOT_NAMES[slot]
            got.names(target, names, 0)
            if slot == "name":
                got.names("goal", names, 0)


def _effect_phrases(got: _Items) -> None:
    for record in EFFECTS:
        for pattern in record.phrases:
            if record.structural and "{" in pattern:
                # A group is offered by its plain words (`choose one`, `roll`, `at random`).
                continue
            label = pretty_phrase(pattern)
            insert = record.examples[0] if record.examples else None
            if not label.lower().startswith(got.ctx.prefix.lower()):
                continue
            got.add(
                label,
                2,
                lsp.CompletionItemKind.Function,
                f"effect {record.name}",
                insert,
                doc=record_doc(record),
            )


def _at_start(got: _Items, ctx: Context, names: Names, scenario_file: bool) -> None:
    """A statement's first word: what the block around the cursor takes."""
    block = ctx.block
    if block is None:
        if scenario_file:
            got.words(["scenario"], 0, "declaration")
            got.snippet("scenario", 0)
            return
        got.words(DECL_KINDS, 0, "declaration")
        for word in ("card", "monster", "event", "token", "board", "resource", "way"):
            got.snippet(word, 1)
        return
    if block in CARD_KINDS or block in ("replace", "change"):
        got.words(PROPERTIES["card"], 0, "property")
        got.words(CARD_FLAGS, 0, "flag")
        got.words(TRIGGER_LEADS, 0, "trigger")
    elif block == "token":
        got.words(PROPERTIES["token"], 0, "property")
        got.words((" ".join(k) for k in TOKEN_KINDS), 0, "token kind")
        got.words(TRIGGER_LEADS, 1, "trigger")
    elif block == "space":
        got.words(PROPERTIES["space"], 0, "property")
        got.words((" ".join(k) for k in SPACE_FLAGS), 0, "flag")
        got.words((" ".join(k) for k in REWARDS), 1, "reward")
        got.words(TRIGGER_LEADS, 1, "trigger")
    elif block == "path":
        got.words(PROPERTIES["path"], 0, "property")
        got.names("way", names, 0)
    elif block in ("board", "module"):
        got.words(PROPERTIES[block], 0, "property")
        got.snippet("space", 0)
        got.snippet("path", 0)
    elif block in PROPERTIES:
        got.words(PROPERTIES[block], 0, "property")
    elif block == "rules":
        got.words((p.words for p in RULE_PARAMS), 0, "rule")
        got.words(("step", "counter", "slot", "when", "whenever", "at"), 1, "rules")
        got.words(("most", "fewest", "second most"), 2, "ranked award")
    elif block == "scenario":
        got.words(SETUP_WORDS, 0, "setup")
        got.words(ACTIONS, 0, "action")
        got.words(["expect"], 0, "expectation")
        got.snippet("player", 1)
    elif block == "player":
        got.words(PLAYER_SETUP, 0, "player setup")


def _in_head(got: _Items, ctx: Context, names: Names) -> None:
    """After a statement's first words."""
    atoms = [t for t in ctx.stmt if _atom(t) or t.kind in ("--", "->")]
    words = [t.text.lower() for t in atoms]
    if "if" in words or "unless" in words:
        # The condition being typed: after `if`/`unless`, or after the `or`/`and` that
        # joins it to the one before.
        cut = max(i for i, w in enumerate(words) if w in ("if", "unless", "or", "and"))
        cond = [t for t in atoms[cut + 1 :] if _atom(t)]
        _expected(got, _registry_expectations(CONDITIONS, cond, _resources(names)), names)
        return
    first = words[0]
    if words[:2] in (["only", "in"], ["not", "in"]) or first == "feature":
        typed = atoms[2:] if first != "feature" else atoms[1:]
        got.names("feature", names, 0, typed)
    elif first == "path" or words[:2] == ["dead", "end"]:
        got.names("space", names, 0)
    elif first in ("replace", "remove", "change"):
        if len(words) == 1:
            got.words(EDIT_KINDS[first], 0, "kind")
        else:
            kind = "card" if words[1] in CARD_KINDS else words[1]
            got.names(kind, names, 0)
    elif first == "extends":
        got.names("pack", names, 0)
    elif first == "way" or (ctx.block == "way" and words[:2] == ["paid", "in"]):
        got.names("resource" if first == "paid" else "way", names, 0)
    elif ctx.block in ("scenario", "player"):
        _scenario_head(got, words, names)
    elif first in TRIGGER_LEADS:
        # After a trigger's words (`play`, `when you enter`): its condition.
        got.words(("if", "unless"), 2, "condition")


def _scenario_head(got: _Items, words: list[str], names: Names) -> None:
    for n in range(len(words), 0, -1):
        kind = SCENARIO_NAMES.get(tuple(words[:n]))
        if kind is not None:
            got.names(kind, names, 0)
            return
    if words[0] != "expect":
        return
    if len(words) >= 3 and words[1] == "player":
        facts, rest = PLAYER_FACTS, words[3:]
    else:
        facts, rest = GAME_FACTS, words[1:]
    shape = facts.get(tuple(rest))
    if shape in FACT_SHAPES:
        got.names(FACT_SHAPES[shape], names, 0)
        return
    following = {
        f[len(rest)] for f in facts if f[: len(rest)] == tuple(rest) and len(f) > len(rest)
    }
    if len(words) == 1:
        following |= {"player", "can", "cannot", "space", "moves", "teleports", "winner", "game"}
    got.words(following, 0, "fact")

"""Compile parsed statements into the pack IR (plain JSON), collecting diagnostics.

Stages, as in Crafting Interpreters: parse every file, then compile declarations (unknown
words, bad values), then resolve references (duplicates, undefined names). Each stage reports
all it finds; a later stage does not run on a pack whose earlier stage failed.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clankwork.interpreter.effects import TRIGGERS
from clankwork.interpreter.effects.conditions import token_words
from clankwork.interpreter.rules import default_rules
from clankwork.interpreter.steps import STEPS, plan_names

from . import extends as ext
from . import limits
from .art import check_art
from .awards import Awards
from .board_blocks import check_board_blocks, with_board_designs
from .declarations import Declarations
from .decls import DECL_KINDS, DECLARATIONS, INSIDE, PROPERTIES
from .decls.shared import (
    CARD_FLAGS,
    FEATURE_WORDS,
    REWARDS,
    SPACE_FLAGS,
    TOKEN_KINDS,
    _join,
    _phrase_span,
    feature_name,
    first_words,
)
from .diagnostics import Diagnostic, Span, did_you_mean, has_errors, quote_name
from .effect_compiler import EffectCompiler
from .limits import RANGES, Range, bad_name_char, range_problem, shown_name
from .modules import Modules
from .parser import Atom, Parser, Stmt
from .resolve import check_references
from .sources import PackReader
from .stickers import check as check_stickers

# Names other modules (the language server, the docs, the editor grammar) import from here.
__all__ = [
    "CARD_FLAGS",
    "DECL_KINDS",
    "FEATURE_WORDS",
    "IR_FORMAT",
    "MANIFEST",
    "PROPERTIES",
    "REWARDS",
    "SPACE_FLAGS",
    "TOKEN_KINDS",
    "TRIGGERS",
    "CompileResult",
    "ParseFn",
    "Source",
    "compile_pack",
    "compile_text",
    "default_board_first",
    "feature_name",
    "first_words",
    "parser",
    "property_words",
]

IR_FORMAT = "clankwork-ir/1"
MANIFEST = "pack.clank"


def property_words() -> list[str]:
    """Every word or phrase that opens a property line in some declaration."""
    out = {w for words in PROPERTIES.values() for w in words}
    out |= set(CARD_FLAGS) | {p.split()[0] for r in TRIGGERS for p in r.phrases}
    for table in (TOKEN_KINDS, SPACE_FLAGS, REWARDS):
        out |= {" ".join(k) for k in table}
    return sorted(out)


@dataclass
class Source:
    """One file of a pack: its path as shown to the user and its text."""

    path: str
    text: str


@dataclass
class CompileResult:
    """The IR (None when errors stopped compilation), diagnostics, and the sources read."""

    ir: dict[str, Any] | None
    diagnostics: list[Diagnostic]
    sources: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when there is IR and no error."""
        return self.ir is not None and not has_errors(self.diagnostics)


_PARSER: Parser | None = None


def parser() -> Parser:
    """The shared parser (built once per process)."""
    global _PARSER
    if _PARSER is None:
        _PARSER = Parser()
    return _PARSER


ParseFn = Callable[[str, str], tuple[list[Stmt], list[Diagnostic]]]
"""What parses one file's text (shown file name second): `Parser.parse`, or a caller's
parser that keeps what it parsed (the language server's `dsl.incremental`)."""


def compile_pack(
    pack_dir: str | Path,
    display_root: str | Path | None = None,
    overrides: Mapping[str, str] | None = None,
    parse: ParseFn | None = None,
) -> CompileResult:
    """Compile the pack in ``pack_dir`` (its `pack.clank` and the files it includes).

    Every file is read through `PackReader`: regular files inside the pack folder only,
    bounded in size and count; includes nest at most `limits.MAX_INCLUDE_DEPTH` deep.
    ``overrides`` (path inside the pack → text) replaces files' contents, for an editor's
    unsaved buffers; see `PackReader`. ``parse`` parses each file (the shared parser when
    None); the statements it gives are not changed.

    A pack that `extends` a base compiles the base first (with its own reader, rooted at the
    base's folder; a base may extend another) and lays itself over it (`dsl.extends`): the
    IR is the whole pack, base and extension, with spans in the files they come from."""
    return _compile_pack(pack_dir, display_root, overrides, [], (0, 0), True, parse)


def _compile_pack(
    pack_dir: str | Path,
    display_root: str | Path | None,
    overrides: Mapping[str, str] | None,
    chain: list[tuple[Path, str, Span]],
    used: tuple[int, int],
    check: bool,
    parse: ParseFn | None = None,
) -> CompileResult:
    """`compile_pack` for one pack of a chain of bases: ``chain`` holds the extensions
    being compiled above this one (for cycles), ``used`` the bytes and files they read (the
    pack limits cover a chain together); ``check`` runs the reference checks (only on the
    whole pack: an extension may supply what its base refers to)."""
    # The folder the user names may be a link: resolve it once, containment is relative
    # to the real folder.
    root = Path(os.path.realpath(pack_dir))
    shown = Path(display_root) if display_root is not None else Path(pack_dir)
    manifest = MANIFEST
    if root.is_file() and root.suffix == ".clank":
        manifest, root, shown = root.name, root.parent, shown.parent
    if not os.path.lexists(root / manifest):
        missing = Diagnostic(
            "CW004",
            f"{_show(shown / MANIFEST)} does not exist: a pack is a folder with a {MANIFEST}",
            None,
            hint=f'create {MANIFEST} with `pack NAME {{ version "0.1" }}` and include lines',
        )
        return CompileResult(None, [missing], {})
    loading = _PackLoad(root, shown, chain, parse)
    with PackReader(root, shown, used[0], used[1], overrides=overrides) as reader:
        loading.read_all(reader, manifest)
    return loading.result(check)


class _PackLoad:
    """One pack's files read, parsed and compiled in include order (`_compile_pack`).

    Each file is compiled as soon as it is parsed, so its statements are garbage once its
    IR is built: a 100,000-card pack never holds all its syntax trees and all its IR at
    once."""

    def __init__(
        self, root: Path, shown: Path, chain: list[tuple[Path, str, Span]], parse: ParseFn | None
    ) -> None:
        self.root, self.shown, self.chain, self.parse = root, shown, chain, parse
        self.files: dict[str, str] = {}
        self.diags: list[Diagnostic] = []
        self.compiler = _Compiler()
        # The base, once the manifest's pack block names one: where it is, and what it
        # compiled to.
        self.based: dict[str, Any] = {}

    def includes(self, stmts: list[Stmt]) -> list[Atom]:
        """The file names of the include lines among ``stmts`` (CW105 for a malformed one)."""
        out = []
        for st in stmts:
            if st.words and st.words[0] == "include":
                target = st.head[1] if len(st.head) == 2 else None
                if target is None or target.kind != "string":
                    self.diags.append(
                        Diagnostic(
                            "CW105",
                            "include takes one quoted file name",
                            st.span,
                            hint='write include "cards.clank"',
                        )
                    )
                    continue
                out.append(target)
        return out

    def follow_base(self, reader: PackReader) -> None:
        """Compile the base the pack block names, before anything else of this pack: the
        rules block starts from the base's rules."""
        compiler, based = self.compiler, self.based
        assert compiler.extends is not None
        found = ext.find_base(compiler.extends, self.root, self.shown)
        if isinstance(found, Diagnostic):
            based["failed"] = found
            return
        name = compiler.pack["name"] if compiler.pack else _show(self.shown)
        problem = ext.cycle_or_depth(found, self.chain, self.root, name)
        if problem is not None:
            based["failed"] = problem
            return
        result = _compile_pack(
            found.root,
            found.shown,
            None,
            [*self.chain, (self.root, name, found.span)],
            (reader.used_bytes, reader.used_files),
            False,
            self.parse,
        )
        reader.used_bytes += sum(
            len(t.encode("utf-8", "surrogatepass")) for t in result.sources.values()
        )
        reader.used_files += len(result.sources)
        based["base"], based["result"] = found, result
        if result.ir is not None:
            compiler.inherit_resources(result.ir)
            compiler.rules = copy.deepcopy(
                {k: v for k, v in result.ir["rules"].items() if k != "at"}
            )
            compiler.rules_at = dict(result.ir["rules"].get("at", {}))

    def load(self, reader: PackReader, named: str, via: Atom | None) -> list[Stmt] | None:
        """Read, parse and compile one file; None when it is refused, unreadable or seen."""
        span = via.span if via else None
        rel = reader.resolve(named, span)
        if rel is None:
            return None
        name = reader.display(rel)
        if name in self.files:
            return None
        text = reader.read(rel, named, span)
        if text is None:
            return None
        self.files[name] = text
        stmts, syntax = (self.parse or parser().parse)(text, name)
        self.diags.extend(syntax)
        ordered = stmts
        if via is None:
            # The manifest's pack block first, so its `extends` is followed before any
            # other declaration (the pack block's place in the file means nothing).
            ordered = sorted(stmts, key=lambda st: st.words[0] != "pack")
        for st in ordered:
            self.compiler.decl(st)
            if via is None and self.compiler.extends is not None and not self.based:
                self.follow_base(reader)
        return stmts

    def read_all(self, reader: PackReader, manifest: str) -> None:
        """Every file from the manifest on: depth first, in the order the includes are
        written (declaration order matters), with an explicit stack: a chain of thousands
        of includes is a CW007, not a RecursionError."""
        first = self.load(reader, manifest, None)
        stack = [(0, iter(self.includes(first or [])))]
        while stack:
            depth, pending = stack[-1]
            target = next(pending, None)
            if target is None:
                stack.pop()
                continue
            if depth + 1 > limits.MAX_INCLUDE_DEPTH:
                self.diags.append(
                    Diagnostic(
                        "CW007",
                        f"include {target.source()} is nested more than "
                        f"{limits.MAX_INCLUDE_DEPTH} includes deep, the limit; it is not read",
                        target.span,
                        hint="include the file from a file nearer pack.clank, or from "
                        "pack.clank itself",
                    )
                )
                continue
            stmts = self.load(reader, str(target.value), target)
            if stmts:
                stack.append((depth + 1, iter(self.includes(stmts))))
        self.diags.extend(check_art(reader, self.compiler.art_refs))
        self.diags.extend(reader.diags)
        self.files.update(reader.undecodable)  # to show the line of a CW004

    def result(self, check: bool) -> CompileResult:
        """The pack's IR and diagnostics once every file is read (over its base's, if any)."""
        diags, files, compiler, based = self.diags, self.files, self.compiler, self.based
        if "failed" in based:
            # No base: the extension's own declarations are still checked, its references not.
            found = [*diags, based["failed"], *compiler.diags]
            return CompileResult(None, sorted(found, key=Diagnostic.sort_key), files)
        base_result: CompileResult | None = based.get("result")
        if base_result is not None:
            files.update(base_result.sources)
            diags.extend(base_result.diagnostics)
        if any(d.code in ("CW004", "CW005", "CW006", "CW007") for d in diags):
            # A file is missing: every reference to what it declares would be a false alarm.
            return CompileResult(None, sorted(diags, key=Diagnostic.sort_key), files)
        if base_result is None:
            result = _compile_statements([], diags, files, compiler, check=check)
        elif base_result.ir is None or has_errors(base_result.diagnostics):
            # The base does not compile: the extension's every edit would be a false alarm.
            result = CompileResult(
                None, sorted([*diags, *compiler.diags], key=Diagnostic.sort_key), files
            )
        else:
            result = _extend(base_result.ir, based["base"], diags, files, compiler, check)
        if result.ir is not None and "at" not in result.ir["pack"]:
            first_name = next(iter(files))
            result.diagnostics.insert(
                0,
                Diagnostic(
                    "CW109",
                    f"{first_name} does not declare the pack",
                    Span(first_name, 1, 1, 1, 2),
                    hint='start it with `pack NAME { version "0.1.0" }`',
                ),
            )
            result.ir = None
        return result


def _extend(
    base_ir: dict[str, Any],
    base: ext.Base,
    diags: list[Diagnostic],
    files: dict[str, str],
    compiler: _Compiler,
    check: bool,
) -> CompileResult:
    """Finish ``compiler`` (an extension) and lay it over ``base_ir``; the reference checks
    (with ``check``) run on the whole pack."""
    syntax_ok = not has_errors(diags)
    own = compiler.finish(check=False)
    ir, overlay = ext.apply_extension(base_ir, own, compiler.edits, base)
    bad = default_board_first(ir["boards"], compiler.default_board)
    if bad is not None:
        compiler.diags.append(bad)
    # The extension's resources and ways are checked (and their source marks taken out of
    # the IR) on the whole pack, whose paths may name them.
    compiler.check_declarations(ir)
    found = [*diags, *compiler.diags, *overlay]
    if check and syntax_ok:
        found.extend(check_references(with_board_designs(ir)))
        found.extend(check_board_blocks(ir))
    return CompileResult(ir if syntax_ok else None, sorted(found, key=Diagnostic.sort_key), files)


def compile_text(text: str, filename: str = "inline.clank") -> CompileResult:
    """Compile one piece of text as a whole pack (for tests and tools)."""
    stmts, diags = parser().parse(text, filename)
    return _compile_statements([(filename, stmts)], diags, {filename: text})


def _compile_statements(
    order: list[tuple[str, list[Stmt]]],
    diags: list[Diagnostic],
    files: dict[str, str],
    compiler: _Compiler | None = None,
    check: bool = True,
) -> CompileResult:
    """Compile every parsed file (or finish ``compiler``, which has compiled them already).
    Reference checks run unless a file failed to parse (its declarations are missing, so
    every reference to them would be a false alarm). The IR is returned whenever parsing
    succeeded, so later checks can run on it; `ok` says if it is clean."""
    if any(d.code == "CW004" for d in diags):
        return CompileResult(None, sorted(diags, key=Diagnostic.sort_key), files)
    syntax_ok = not has_errors(diags)
    if compiler is None:
        compiler = _Compiler()
    for _name, stmts in order:
        for st in stmts:
            compiler.decl(st)
    ir = compiler.finish(check=syntax_ok and check)
    diags = sorted([*diags, *compiler.diags, *compiler.unbased()], key=Diagnostic.sort_key)
    return CompileResult(ir if syntax_ok else None, diags, files)


def _show(p: Path) -> str:
    return p.as_posix()


def _count_held_tokens(ir: dict[str, Any]) -> None:
    """A count of cards that names no card and no tag but names tokens counts the tokens the
    player holds: `most veins: 7 points` in a pack whose veins are tokens (`token Vein {
    type vein }`), as `vein tokens` says outright. A name that is a card or a tag (or its
    plural) keeps its meaning, so no pack's counts change but those that named nothing."""
    cards = {c["name"].lower() for c in ir["cards"]}
    cards |= {t.lower() for c in ir["cards"] for t in c.get("tags", ())}
    cards |= {w + "s" for w in cards}
    tokens = {w for t in ir["tokens"] for w in token_words(t)}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("count") == "owned" and isinstance(node.get("card"), str):
                name = node["card"].lower()
                if name not in cards and name in tokens:
                    node["count"], node["what"] = "held", node.pop("card")
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(ir)


def default_board_first(boards: list[dict[str, Any]], named: Atom | None) -> Diagnostic | None:
    """A game plays the pack's first board when none is named; `default board NAME` makes
    NAME that board (a pack that extends another lists the base's boards first, so the one
    it adds, say, would otherwise never be the default). CW107 for a name no board has."""
    if named is None:
        return None
    names = [b["name"] for b in boards]
    if named.text not in names:
        return Diagnostic(
            "CW107",
            f"default board {quote_name(named.text)} is not a board of the pack",
            named.span,
            hint=did_you_mean(named.text, names) or "boards: " + ", ".join(names),
        )
    boards.insert(0, boards.pop(names.index(named.text)))
    return None


class _Compiler(Declarations, Modules, Awards, EffectCompiler):
    """Builds the IR from statements; every method appends diagnostics rather than raising.

    Each declaration compiles through its record (dsl/decls/), which reads and adds to the
    compiler's state below; triggers, conditions and effects compile in `EffectCompiler`."""

    def __init__(self) -> None:
        self.diags: list[Diagnostic] = []
        self.pack: dict[str, Any] | None = None
        self.rules = default_rules()
        self.rules_at: dict[str, Any] = {}
        self.cards: list[dict[str, Any]] = []
        # (card, file as written, span) of each `art "FILE"`: read once the files are (dsl.art).
        self.art_refs: list[tuple[dict[str, Any], str, Span]] = []
        self.tokens: list[dict[str, Any]] = []
        self.boards: list[dict[str, Any]] = []
        # `default board NAME` in the pack block: the board a game plays when none is named.
        self.default_board: Atom | None = None
        # The pack's own triggers (`rules { when you escape: ... }`).
        self.triggers: list[dict[str, Any]] = []
        # Its changes to the steps of setup and the turn, in order.
        self.steps: list[dict[str, Any]] = []
        # Its counters (`counter doom max 5`).
        self.counters: list[dict[str, Any]] = []
        self._init_declarations()
        self._init_modules()
        # The `on board NAME { ... }` blocks (dsl/decls/on_board.py).
        self.on_board: list[dict[str, Any]] = []
        self._init_awards()
        self.campaign: dict[str, list[dict[str, Any]]] = {
            "stickers": [],
            "passages": [],
            "contracts": [],
            "patrons": [],
        }
        # Personal goals (`goal NAME { ... }`), in the IR only when the pack has some.
        self.goals: list[dict[str, Any]] = []
        # Rule slots bound to a rule parameter (`slot R15 rule market price`).
        self.rule_slots: list[dict[str, Any]] = []
        # The `campaign { ... }` block: the Associate Status track, the pack's tracks, death.
        self.campaign_block: dict[str, Any] | None = None
        # `replace`, `remove` and `change`, applied to the base by `extends.apply_extension`.
        self.edits: list[ext.Edit] = []
        self.extends: Atom | None = None  # the `extends` value, when the pack has one

    # -- helpers ---------------------------------------------------------------------------
    def error(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, span, hint))

    def _int(self, st: Stmt, atoms: list[Atom], what: str, limit: str | Range) -> int | None:
        """Exactly one number in ``atoms``, within its range (a key of RANGES, or a Range);
        reports a diagnostic and returns None otherwise."""
        if len(atoms) != 1 or atoms[0].kind not in ("number", "signed"):
            span = _phrase_span(atoms) if atoms else st.span
            self.error("CW105", f"{what} takes one number", span, hint=f"write `{what} 3`")
            return None
        return self._in_range(atoms[0], what, RANGES[limit] if isinstance(limit, str) else limit)

    def _in_range(self, atom: Atom, what: str, limit: Range) -> int | None:
        """The atom's value when ``limit`` allows it; else CW108 (too small) or CW113."""
        problem = range_problem(int(atom.value), atom.span, what, limit)
        if problem is not None:
            self.diags.append(problem)
            return None
        return int(atom.value)

    def _name(self, st: Stmt, kind: str) -> tuple[str, Span] | None:
        if len(st.head) < 2 or st.head[1].kind not in ("word", "string"):
            self.error(
                "CW105",
                f"{kind} needs a name",
                st.span,
                hint=f'write `{kind} "Some Name" {{ ... }}`',
            )
            return None
        if len(st.head) > 2:
            extra = st.head[2:]
            self.error(
                "CW105",
                f"unexpected {' '.join(a.source() for a in extra)!s} after the {kind} name",
                _phrase_span(extra),
                hint="names with spaces go in double quotes",
            )
            return None
        self._clean(st.head[1:2])
        return st.head[1].text, st.head[1].span

    def _clean(self, atoms: list[Atom]) -> bool:
        """CW114 for each name atom holding a control character; True when all are clean.
        The declaration still compiles, so its references do not repeat the error."""
        ok = True
        for atom in atoms:
            if atom.kind not in ("word", "string"):
                continue
            ch = bad_name_char(str(atom.value))
            if ch is not None:
                ok = False
                self.error(
                    "CW114",
                    f'the name "{shown_name(str(atom.value))}" holds the control character '
                    f"U+{ord(ch):04X}",
                    atom.span,
                    hint="remove it: names may not hold tabs, carriage returns, escapes, "
                    "line separators or direction overrides",
                )
        return ok

    def _no_effects(self, st: Stmt) -> None:
        if st.effects is not None:
            self.error(
                "CW112",
                f"`{st.head_text()}` does not take effects after a colon",
                st.span,
                hint="effects belong to a trigger such as `play:` inside a card",
            )

    # -- declarations ----------------------------------------------------------------------
    def decl(self, st: Stmt) -> None:
        """Compile one declaration through its record (CW101 for a keyword none has)."""
        kind = st.words[0]
        record = DECLARATIONS.get(kind)
        if record is None or record.compile is None:
            self.error(
                "CW101",
                f"unknown declaration {st.head[0].text!r}",
                st.head[0].span,
                hint=INSIDE.get(kind)
                or did_you_mean(kind, DECL_KINDS)
                or f"a file holds {', '.join(DECL_KINDS[:-1])} or {DECL_KINDS[-1]} declarations",
            )
            return
        record.compile(self, st)

    # extensions: `replace`, `remove` and `change` (dsl/decls/edits.py) are applied to the
    # base's IR by `extends.apply_extension` ---------------------------------------------------
    def unbased(self) -> list[Diagnostic]:
        """CW124 for `extends` and each edit when no base is followed (`compile_text`, or a
        pack whose `extends` is not in its manifest)."""
        out = []
        if self.extends is not None:
            out.append(
                Diagnostic(
                    "CW124",
                    f"`extends {self.extends.source()}` is followed only from the pack block "
                    "in a pack folder's pack.clank",
                    self.extends.span,
                    hint="move the pack block into pack.clank, and check the pack's folder "
                    "(`clankwork check FOLDER`)",
                )
            )
        for e in self.edits:
            out.append(
                Diagnostic(
                    "CW124",
                    f"`{e.verb} {e.kind}` edits a base pack, but this pack extends none",
                    _join(e.span, e.name_span),
                    hint='add `extends NAME` (a bundled pack) or `extends "../folder"` to '
                    "the pack block in pack.clank"
                    + (
                        ""
                        if e.verb == "remove"
                        else f", or declare a new design without `{e.verb}`"
                    ),
                )
            )
        return out

    # resolve ---------------------------------------------------------------------------------
    def finish(self, check: bool = True) -> dict[str, Any]:
        """Assemble the IR, and (with ``check``) resolve its references."""
        if self.extends is None:  # an extension's come after its base's (`_extend`)
            bad = default_board_first(self.boards, self.default_board)
            if bad is not None:
                self.diags.append(bad)
        pack = self.pack or {"name": "unnamed", "version": "0.0.0", "extends": []}
        rules = dict(self.rules)
        rules["at"] = self.rules_at
        ir = {
            "format": IR_FORMAT,
            "pack": pack,
            "rules": rules,
            "cards": self.cards,
            "tokens": self.tokens,
            "boards": self.boards,
            "triggers": self.triggers,
            "steps": self.steps,
            "counters": self.counters,
            "resources": self.resources,
            "ways": self.ways,
            **self.campaign,
        }
        # Campaign parts few packs have: in the IR only when present (so a pack without
        # them compiles to the IR it always had).
        if self.goals:
            ir["goals"] = self.goals
        if self.awards:
            ir["awards"] = self.awards
        if self.resource_aliases:
            ir["resource_aliases"] = self.resource_aliases
        if self.dragon is not None:
            ir["dragon"] = self.dragon
        if self.rule_slots:
            ir["rule_slots"] = self.rule_slots
        if self.campaign_block is not None:
            ir["campaign"] = self.campaign_block
        if self.on_board:
            ir["on_board"] = self.on_board
        self.finish_modules(self.boards)  # see modules.py
        for i, problem in plan_names(self.steps)[1]:
            bad = self.steps[i]
            anchor = bad.get("before") or bad.get("after") or bad.get("replaces") or bad["step"]
            self.error(
                "CW107",
                problem,
                Span.from_ir(bad["at"]),
                hint=did_you_mean(anchor, list(STEPS)) or "see docs/language.md, Steps",
            )
        _count_held_tokens(ir)
        if not check and self.extends is None:
            self.settle_declarations()
        if check:
            self.check_declarations(ir)
            self.diags.extend(check_references(with_board_designs(ir)))
            self.diags.extend(check_board_blocks(ir))
            self.diags.extend(check_stickers(ir))
        return ir

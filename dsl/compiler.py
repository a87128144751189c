"""Compile parsed statements into the pack IR (plain JSON), collecting diagnostics.

Stages, as in Crafting Interpreters: parse every file, then compile declarations (unknown
words, bad values), then resolve references (duplicates, undefined names). Each stage reports
all it finds; a later stage does not run on a pack whose earlier stage failed.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from clankwork.interpreter.effects import CONDITIONS, COUNTS, EFFECTS, TRIGGERS
from clankwork.interpreter.effects.conditions import token_words
from clankwork.interpreter.effects.counted_amounts import held_name
from clankwork.interpreter.effects.logic import leaves
from clankwork.interpreter.rules import RULE_PARAMS, default_rules
from clankwork.interpreter.steps import STEPS, plan_names

from . import extends as ext
from . import limits
from .art import check_art
from .awards import Awards, is_award
from .board_blocks import BoardBlocks, check_board_blocks, with_board_designs
from .condition_logic import IF_WORDS, failing_part, parse_condition
from .declarations import Declarations
from .decls import DECL_KINDS, DECLARATIONS, INSIDE, PROPERTIES
from .decls.shared import (
    CARD_FLAGS,
    FEATURE_WORDS,
    REWARDS,
    SPACE_FLAGS,
    TOKEN_KINDS,
    TRIGGER_WORDS,
    _at,
    _join,
    _match_words,
    _new_only,
    _phrase_span,
    _track_line,
    feature_name,
    first_words,
)
from .diagnostics import Diagnostic, Span, did_you_mean, has_errors, quote_name
from .limits import RANGES, Range, bad_name_char, range_problem, shown_name
from .modules import Modules
from .parser import Atom, Effect, Parser, Stmt
from .phrases import EFFECT_EXAMPLES, EFFECT_WORDS, leading_words, match_record, resolve
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

# The words of a group (an effect with bracketed options) and of a random outcome's weight.
GROUP_WORDS = ("choose", "each", "if", "may", "roll", "at random")
WEIGHT_WORDS = frozenset(("face", "faces", "chance", "chances", "times"))

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
    files: dict[str, str] = {}
    diags: list[Diagnostic] = []
    # Each file is compiled as soon as it is parsed (in include order), so its statements
    # are garbage once its IR is built: a 100,000-card pack never holds all its syntax trees
    # and all its IR at once.
    compiler = _Compiler()
    manifest = MANIFEST
    if root.is_file() and root.suffix == ".clank":
        manifest, root, shown = root.name, root.parent, shown.parent
    if not os.path.lexists(root / manifest):
        diags.append(
            Diagnostic(
                "CW004",
                f"{_show(shown / MANIFEST)} does not exist: a pack is a folder with a {MANIFEST}",
                None,
                hint=f'create {MANIFEST} with `pack NAME {{ version "0.1" }}` and include lines',
            )
        )
        return CompileResult(None, diags, files)

    def includes(stmts: list[Stmt]) -> list[Atom]:
        """The file names of the include lines among ``stmts`` (CW105 for a malformed one)."""
        out = []
        for st in stmts:
            if st.words and st.words[0] == "include":
                target = st.head[1] if len(st.head) == 2 else None
                if target is None or target.kind != "string":
                    diags.append(
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

    # The base, once the manifest's pack block names one: where it is, and what it compiled to.
    based: dict[str, Any] = {}

    with PackReader(root, shown, used[0], used[1], overrides=overrides) as reader:

        def follow_base() -> None:
            """Compile the base the pack block names, before anything else of this pack: the
            rules block starts from the base's rules."""
            assert compiler.extends is not None
            found = ext.find_base(compiler.extends, root, shown)
            if isinstance(found, Diagnostic):
                based["failed"] = found
                return
            name = compiler.pack["name"] if compiler.pack else _show(shown)
            problem = ext.cycle_or_depth(found, chain, root, name)
            if problem is not None:
                based["failed"] = problem
                return
            result = _compile_pack(
                found.root,
                found.shown,
                None,
                [*chain, (root, name, found.span)],
                (reader.used_bytes, reader.used_files),
                False,
                parse,
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

        def load(named: str, via: Atom | None) -> list[Stmt] | None:
            """Read and parse one file; None when it is refused, unreadable or seen."""
            span = via.span if via else None
            rel = reader.resolve(named, span)
            if rel is None:
                return None
            name = reader.display(rel)
            if name in files:
                return None
            text = reader.read(rel, named, span)
            if text is None:
                return None
            files[name] = text
            stmts, syntax = (parse or parser().parse)(text, name)
            diags.extend(syntax)
            ordered = stmts
            if via is None:
                # The manifest's pack block first, so its `extends` is followed before any
                # other declaration (the pack block's place in the file means nothing).
                ordered = sorted(stmts, key=lambda st: st.words[0] != "pack")
            for st in ordered:
                compiler.decl(st)
                if via is None and compiler.extends is not None and not based:
                    follow_base()
            return stmts

        # Depth first, in the order the includes are written (declaration order matters),
        # with an explicit stack: a chain of thousands of includes is a CW007, not a
        # RecursionError.
        first = load(manifest, None)
        stack = [(0, iter(includes(first or [])))]
        while stack:
            depth, pending = stack[-1]
            target = next(pending, None)
            if target is None:
                stack.pop()
                continue
            if depth + 1 > limits.MAX_INCLUDE_DEPTH:
                diags.append(
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
            stmts = load(str(target.value), target)
            if stmts:
                stack.append((depth + 1, iter(includes(stmts))))
        diags.extend(check_art(reader, compiler.art_refs))
        diags.extend(reader.diags)
        files.update(reader.undecodable)  # to show the line of a CW004

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


def _rounding_joined(effs: list[Effect]) -> list[Effect]:
    """`return half your gems, rounded up`: a rounding written after a comma belongs to the
    effect before it (the comma separates effects, so it arrives as an effect of its own)."""
    out: list[Effect] = []
    for e in effs:
        words = [a.text.lower() for a in e.phrase]
        if out and e.form == "simple" and words in (["rounded", "up"], ["rounded", "down"]):
            # The effect it rounds: the one before, or the last of what its price buys.
            prev = out[-1]
            last = prev.consequence[-1] if prev.form == "then" and prev.consequence else prev
            if last.form == "simple" and "half" in [a.text.lower() for a in last.phrase]:
                # New effects: the parsed ones may be cached and compiled again.
                joined = replace(
                    last, phrase=[*last.phrase, *e.phrase], span=_join(last.span, e.span)
                )
                if last is not prev:
                    rest = [*prev.consequence[:-1], joined]
                    joined = replace(prev, consequence=rest, span=_join(prev.span, e.span))
                out[-1] = joined
                continue
        out.append(e)
    return out


# Groups the compiler reads itself (`choose one (a | b)`, `each player (...)`, `if`, `may`).
_GROUPS = frozenset({"each", "choose", "if", "may", "pay"})


def _misspelt_if(atoms: list[Atom]) -> str | None:
    """`did you mean "unless"?` for a trigger line whose `if` or `unless` is misspelt (the
    words after it then read as part of the trigger)."""
    for a in atoms[1:]:
        if a.kind == "word" and len(a.text) > 3:
            hint = did_you_mean(a.text, ["unless"])
            if hint is not None:
                return hint
    return None


# A subject before a status said of other players, without brackets ("each opponent can't
# move this turn", "each opponent is dizzy until your next turn"): how many words it takes
# and who it names. Only a status reads this way (the rest of the phrase is a `forbid` or a
# `status`); other effects keep their brackets.
_EACH_SUBJECT = {
    ("each", "opponent", "can't"): (2, "opponent"),
    ("each", "opponent", "cannot"): (2, "opponent"),
    ("each", "opponent", "gains"): (2, "opponent"),
    ("each", "opponent", "is"): (2, "opponent"),
    ("each", "player", "can't"): (2, "player"),
    ("each", "player", "cannot"): (2, "player"),
    ("each", "player", "gains"): (2, "player"),
    ("each", "player", "is"): (2, "player"),
}


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


def _takes_from_pool(node: dict[str, Any]) -> bool:
    """A gain with a minus sign of anything but Clank! (whose negative amount is a real debt
    the rules keep): it would take from a pool that may not hold it."""
    return (
        node["op"] in ("gain", "bonus_on_gain")
        and node.get("amount", 0) < 0
        and node["resource"] != "clank"
    )


class _Compiler(Declarations, Modules, Awards, BoardBlocks):
    """Builds the IR from statements; every method appends diagnostics rather than raising."""

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
        self._init_board_blocks()
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

    # cards ---------------------------------------------------------------------------------

    def _trigger(self, s: Stmt, holder: str, selfs: tuple[str, ...] = ()) -> dict[str, Any] | None:
        """A trigger line: `[once per turn|once per game] PHRASE [if CONDITION]: effects`.

        ``holder`` is what carries it (card, token, space, rules); ``selfs`` are the
        component's own moments it may use (`play`, `acquire`...)."""
        atoms = list(s.head)
        limit = None
        low = [a.text.lower() if a.kind == "word" else None for a in atoms]
        if low[:2] == ["once", "per"] and len(low) > 2 and low[2] in ("turn", "game"):
            limit = low[2]
            atoms, low = atoms[3:], low[3:]
        if low[:1] == ["on"]:
            atoms, low = atoms[1:], low[1:]
        cond_atoms: list[Atom] | None = None
        deny = False
        k = next((i for i, w in enumerate(low) if w in IF_WORDS), None)
        if k is not None:
            deny = IF_WORDS[low[k]]
            atoms, cond_atoms = atoms[:k], atoms[k + 1 :]
        allowed = [
            r
            for r in TRIGGERS
            if (r.name in selfs if r.meta["who"] == "self" else holder in r.meta["holders"])
        ]
        node = resolve(TRIGGERS, atoms) if atoms else None
        shown = [p for r in allowed for p in r.phrases[:1]]
        if node is None:
            bad = atoms[0] if atoms else s.head[0]
            text = " ".join(a.source() for a in atoms) or bad.source()
            leads = [w.split()[0] for w in shown]
            # The whole phrase against every phrase allowed here; the first word alone only
            # when it is not one a trigger already starts with ("when" says nothing).
            self.error(
                "CW102",
                f"unknown trigger `{text}`",
                _phrase_span(atoms) if atoms else bad.span,
                hint=did_you_mean(text.lower(), [p for r in allowed for p in r.phrases])
                or _misspelt_if(atoms)
                or (None if bad.text.lower() in leads else did_you_mean(bad.text, leads))
                or f"triggers here are {', '.join(p + ':' for p in shown)}",
            )
            return None
        record = TRIGGERS[node["on"]]
        if record not in allowed:
            self.error(
                "CW102",
                f"`{' '.join(a.source() for a in atoms)}:` does not apply to a {holder} here",
                _phrase_span(atoms),
                hint="this declaration takes " + ", ".join(f"`{p}:`" for p in shown),
            )
            return None
        trig: dict[str, Any] = {"on": record.name, "at": _at(s.span), "effects": []}
        if limit is not None:
            trig["limit"] = limit
        if cond_atoms is not None:
            if not cond_atoms:
                self.error(
                    "CW105",
                    "`if` needs a condition",
                    s.span,
                    hint=f"write `{record.phrases[0]} if CONDITION: effects`",
                )
                return None
            cond = self._condition(cond_atoms, deny)
            if cond is None:
                return None
            trig["if"] = cond
        effects = self.effects(s.effects or [])
        if effects is None:
            return None
        trig["effects"] = effects
        return trig

    def _condition(self, atoms: list[Atom], deny: bool = False) -> dict[str, Any] | None:
        """The condition node of ``atoms`` (`not`, `or`, `and` included; denied with
        ``deny``, for `unless`), or None after reporting why it is none."""
        failures: list[Any] = []
        atoms = self.resource_atoms(atoms, compared=True)
        node = parse_condition(atoms, failures, deny)
        if node is not None and self._out_of_range(failures):
            return None
        if node is None:
            bad = failing_part(atoms)
            self.error(
                "CW104",
                f"unknown condition `{' '.join(a.source() for a in bad)}`",
                _phrase_span(bad),
                hint=did_you_mean(bad[0].text, leading_words(CONDITIONS) | {"not"})
                or "conditions: `another companion in play`, `you have an artifact`, "
                "`you are in a forest`, `not ...`, `... or ...`",
            )
            return None
        for leaf in leaves(node):
            if leaf["cond"] == "at":
                leaf["feature"] = feature_name(leaf["feature"])
        return node

    def _out_of_range(self, failures: list[Any]) -> bool:
        """Report the numbers a matched phrase holds outside their slots' ranges."""
        found = False
        for kind, detail in failures:
            if kind == "range":
                atom, what, limit = detail
                self._in_range(atom, what, limit)
                found = True
        return found

    # effects -------------------------------------------------------------------------------
    def effects(self, effs: list[Effect]) -> list[dict[str, Any]] | None:
        """Compile a list of effects; None when any of them failed (already reported)."""
        out = []
        ok = True
        for e in _rounding_joined(effs):
            node = self.effect(e)
            if node is None:
                ok = False
            else:
                out.append(node)
        return out if ok else None

    def effect(self, e: Effect) -> dict[str, Any] | None:
        """Compile one effect."""
        words = [a.text.lower() if a.kind == "word" else None for a in e.phrase]
        if e.form == "simple":
            if words and words[0] == "may" and len(e.phrase) > 1:
                inner = self._phrase(e.phrase[1:])
                return None if inner is None else {"op": "may", "do": [inner], "at": _at(e.span)}
            who = _EACH_SUBJECT.get(tuple(w or "" for w in words[:3])) if words else None
            if who is not None and resolve(EFFECTS, e.phrase) is None:
                # "each opponent can't move until your next turn": a status said of others
                # is "each opponent (you can't move until your next turn)".
                n, kind = who
                inner = resolve(EFFECTS, e.phrase[n:])
                if inner is not None and inner["op"] in ("forbid", "status"):
                    inner = self._phrase(e.phrase[n:])
                    at = _at(e.span)
                    if inner is None:
                        return None
                    return {"op": "each", "who": kind, "do": [inner], "at": at}
            return self._phrase(e.phrase)
        if e.form == "then":
            optional = bool(words) and words[0] == "may"
            cost_atoms = e.phrase[1:] if optional else e.phrase
            if not cost_atoms:
                self.error("CW105", "`may ->` needs a price before the arrow", e.span)
                return None
            cost = self._phrase(cost_atoms)
            then = self.effects(e.consequence)
            if cost is None or then is None:
                return None
            if not EFFECTS[cost["op"]].payable:
                payable = sorted(r.name for r in EFFECTS if r.payable)
                self.error(
                    "CW112",
                    f"`{' '.join(a.source() for a in cost_atoms)}` cannot be a price before `->`",
                    _phrase_span(cost_atoms),
                    hint="a price is one of: " + ", ".join(payable),
                )
                return None
            return {
                "op": "pay",
                "optional": optional,
                "cost": [cost],
                "then": then,
                "at": _at(e.span),
            }
        # group: "choose one ( a | b )", "each opponent ( ... )", "if COND ( ... )", "may ( ... )"
        head = words[0] if words else None
        if head == "roll" or words[:2] == ["at", "random"]:
            return self._random(e)
        alts = []
        for alt in e.alternatives:
            compiled = self.effects(alt)
            if compiled is None:
                return None
            alts.append(compiled)
        at = _at(e.span)
        mark = len(self.diags)
        if head == "choose" and words[1:] in ([], ["one"]):
            if len(alts) < 2:
                self.error(
                    "CW105",
                    "choose needs at least two options",
                    e.span,
                    hint="separate the options with |, e.g. choose one (+2 gold | heal 1)",
                )
                return None
            return {"op": "choose", "options": alts, "at": at}
        if head in ("each", "if", "unless", "may") and len(alts) != 1:
            self.error(
                "CW105",
                f"`{head}` takes one bracketed list, not options with |",
                e.span,
                hint=f"write {head} ... (effect, effect)",
            )
            return None
        if head == "each":
            who = {
                ("opponent",): "opponent",
                ("opponents",): "opponent",
                ("other", "player"): "opponent",
                ("of", "your", "opponents"): "opponent",
                ("player",): "player",
                ("players",): "player",
            }.get(tuple(w or "" for w in words[1:]))
            if who is None:
                node = self._group(e.phrase, alts[0], at)
                if node is not None or len(self.diags) > mark:
                    return node
                self.error(
                    "CW103",
                    f"unknown group `{' '.join(a.source() for a in e.phrase)}`",
                    _phrase_span(e.phrase),
                    hint="write `each player (...)` or `each opponent (...)`",
                )
                return None
            return {"op": "each", "who": who, "do": alts[0], "at": at}
        if head in IF_WORDS and len(e.phrase) > 1:
            cond = self._condition(e.phrase[1:], IF_WORDS[head])
            return None if cond is None else {"op": "if", "cond": cond, "do": alts[0], "at": at}
        if head == "may" and len(e.phrase) == 1:
            return {"op": "may", "do": alts[0], "at": at}
        if len(alts) == 1 and e.phrase:
            node = self._group(e.phrase, alts[0], at)
            if node is not None or len(self.diags) > mark:
                return node
        self.error(
            "CW103",
            f"unknown effect group `{' '.join(a.source() for a in e.phrase)} (...)`",
            _phrase_span(e.phrase) if e.phrase else e.span,
            hint=did_you_mean(head or "", [*GROUP_WORDS, "unless"])
            or "groups are `choose one (a | b)`, `each opponent (...)`, `if CONDITION (...)`, "
            "`roll (a | b)`",
        )
        return None

    def _random(self, e: Effect) -> dict[str, Any] | None:
        """`roll [NAME OF THE DIE] (a | b | c)` or `at random (a | b)`: one option comes up by
        chance; `weight N` (or `N faces`) first in an option gives it N chances."""
        words = [a.text.lower() if a.kind == "word" else None for a in e.phrase]
        label_atoms = e.phrase[1:] if words[0] == "roll" else e.phrase[2:]
        if words[0] != "roll" and label_atoms:
            self.error(
                "CW105",
                "`at random` takes no words after it, not "
                f"`{' '.join(a.source() for a in label_atoms)}`",
                _phrase_span(label_atoms),
                hint="write `at random (a | b)`, or `roll the NAME die (a | b)` to name the die",
            )
            return None
        if any(a.kind not in ("word", "string") for a in label_atoms):
            self.error(
                "CW105",
                "a roll is named with words (`roll the bone die (...)`), not numbers",
                _phrase_span(label_atoms),
                hint="give each option its chances inside the brackets: "
                "`roll (weight 2, +1 gold | nothing)`",
            )
            return None
        options, weights = [], []
        for alt in e.alternatives:
            weight, rest = self._weight(alt)
            if weight is None:
                return None
            compiled = self.effects(rest)
            if compiled is None:
                return None
            options.append(compiled)
            weights.append(weight)
        if len(options) < 2:
            self.error(
                "CW105",
                "a roll needs at least two outcomes",
                e.span,
                hint="separate the outcomes with |, e.g. roll (+2 gold | nothing)",
            )
            return None
        node: dict[str, Any] = {"op": "random", "options": options, "weights": weights}
        if label_atoms:
            node["label"] = " ".join(a.text for a in label_atoms)
        node["at"] = _at(e.span)
        return node

    def _weight(self, alt: list[Effect]) -> tuple[int | None, list[Effect]]:
        """An outcome's chances, from a leading `weight N` / `N faces` (1 without one), and
        its effects. None (reported) for a weight out of range or with nothing to weigh."""
        first = alt[0].phrase if alt and alt[0].form == "simple" else []
        kinds = [a.kind for a in first]
        low = [a.text.lower() for a in first]
        number = None
        if kinds == ["word", "number"] and low[0] == "weight":
            number = first[1]
        elif kinds == ["number", "word"] and low[1] in WEIGHT_WORDS:
            number = first[0]
        if number is None:
            return 1, alt
        weight = self._in_range(number, "the weight of an outcome", RANGES["weight"])
        if weight is None:
            return None, alt
        if len(alt) == 1:
            self.error(
                "CW105",
                "this outcome has a weight but no effect",
                alt[0].span,
                hint="write the effect after a comma (`weight 2, +1 gold`), or `nothing`",
            )
            return None, alt
        return int(weight), alt[1:]

    def _group(
        self, phrase: list[Atom], do: list[dict[str, Any]], at: dict[str, Any]
    ) -> dict[str, Any] | None:
        """A group whose words a structural record with a `do` list reads (`each player who
        has more gold than you (...)`), or None (nothing reported) when none does."""
        failures: list[Any] = []
        atoms = self.resource_atoms(phrase, compared=True)
        for record in EFFECTS:
            if not record.structural or "do" not in record.params or record.name in _GROUPS:
                continue
            got = match_record(record, atoms, failures)
            if got is not None:
                if self._out_of_range(failures):
                    return None
                for value in got.values():
                    if isinstance(value, dict) and "count" in value:
                        value["at"] = at
                return {"op": record.name, **got, "do": do, "at": at}
        return None

    def _negative_gain(self, node: dict[str, Any], span: Span) -> None:
        """CW131: `-20 boots` would take what the pool may not hold (it used to stop at 0,
        so later Boots still worked): say what to write instead."""
        res, n = node["resource"], -node["amount"]
        word = quote_name(res)
        self.error(
            "CW131",
            f"`-{n} {word}` takes {word} from the pool, which may hold less: an effect never "
            "takes more than there is",
            span,
            hint=f"a price offered only when it can be paid: `pay {n} {word} -> ...`; to stop "
            f"{word} being used: `you can't use {word} for the rest of this turn`",
        )

    def _phrase(self, atoms: list[Atom]) -> dict[str, Any] | None:
        failures: list[Any] = []
        atoms = self.resource_atoms(atoms)  # declared resources' words (declarations.py)
        node = resolve(EFFECTS, atoms, failures)
        span = _phrase_span(atoms)
        if node is not None and self._out_of_range(failures):
            return None
        if node is not None and "counted" in node and held_name(node["counted"]) is None:
            # `return COUNT` gives back tokens: its count must count tokens you hold.
            self.error(
                "CW105",
                f"`{' '.join(a.source() for a in atoms)}` does not count tokens you hold",
                span,
                hint="write `return half your gem tokens rounded up` or `return 2 gem tokens`",
            )
            return None
        if node is not None:
            node["at"] = _at(span)
            if "per" in node:
                node["per"]["at"] = _at(span)
            inner = node.get("counted")
            while isinstance(inner, dict):
                inner["at"] = _at(span)
                inner = inner.get("of")
            if _takes_from_pool(node):
                self._negative_gain(node, span)
                return None
            return node
        for kind, sub in failures:
            if kind == "count":
                self.error(
                    "CW104",
                    f"unknown count `{' '.join(a.source() for a in sub)}` after `per`",
                    _phrase_span(sub),
                    hint=did_you_mean(sub[0].text, leading_words(COUNTS))
                    or 'counts: `companion in play`, `5 gold`, `"Some Card"`',
                )
                return None
        text = " ".join(a.source() for a in atoms)
        first = atoms[0]
        hint = None
        if first.kind == "word":
            if first.text.lower() in EFFECT_WORDS:
                hint = did_you_mean(text, EFFECT_EXAMPLES)
            hint = hint or did_you_mean(first.text, EFFECT_WORDS)
        elif first.kind in ("signed", "number") and len(atoms) >= 2 and atoms[1].kind == "word":
            hint = did_you_mean(atoms[1].text, self.resource_names())
            if hint is None:
                hint = "resources are skill, swords, boots, gold and clank"
                if self.resources:
                    hint += ", and the pack's " + ", ".join(r["name"] for r in self.resources)
                hint += " (a pack's own resource is declared with `resource NAME` before use)"
        self.error(
            "CW103",
            f"unknown effect `{text}`",
            span,
            hint=hint or "see docs/language.md for every effect (or run `clankwork docs`)",
        )
        return None

    # tokens --------------------------------------------------------------------------------

    # boards --------------------------------------------------------------------------------
    def decl_board(self, st: Stmt) -> None:
        named = self._name(st, "board")
        if named is None:
            return
        board: dict[str, Any] = {
            "name": named[0],
            "spaces": [],
            "paths": [],
            "groups": [],
            "at": _at(st.span),
        }
        self._board_body(board, st.block or [], None)
        self.boards.append(board)

    def _board_body(self, board: dict[str, Any], body: list[Stmt], group: str | None) -> None:
        for s in body:
            key = s.words[0]
            if key != "position":
                self._no_effects(s)
            if key == "space":
                self._space(board, s, group)
            elif key == "path":
                self._path(board, s)
            elif s.words[:2] == ["dead", "end"]:
                self._dead_end(board, s)
            elif key == "position" and group is None:
                self.board_position(board, s)  # see modules.py
            elif key == "join" and group is None:
                self.board_join(board, s)
            elif key in ("module", "group", "area"):
                named = self._name(s, key)
                if named is None:
                    continue
                board["groups"].append({"name": named[0], "kind": key, "at": _at(s.span)})
                self._board_body(board, s.block or [], named[0])
            else:
                self.error(
                    "CW102",
                    f"unknown board statement `{s.head_text()}`",
                    s.head[0].span,
                    hint=did_you_mean(key, first_words(PROPERTIES["board"]))
                    or "a board holds space, path, dead end, position, join and module statements",
                )

    def _space(self, board: dict[str, Any], st: Stmt, group: str | None) -> None:
        named = self._name(st, "space")
        if named is None:
            return
        space: dict[str, Any] = {
            "name": named[0],
            "features": [],
            "exhausts": False,
            "triggers": [],
            "holds": [],
            "at": _at(st.span),
        }
        if group:
            space["group"] = group
        rewarded: dict[str, Span] = {}
        for s in st.block or []:
            if s.words[0] == "action":
                self.action_line(space, s)  # see declarations.py
                continue
            if s.effects is not None:
                trig = self._trigger(s, "space")
                if trig is not None:
                    space["triggers"].append(trig)
                continue
            words, rest = s.words, s.head[1:]
            flag = _match_words(words, SPACE_FLAGS)
            if flag is not None and flag[1] == len(words):
                (feature, exhausts), _n = flag
                if feature and feature not in space["features"]:
                    space["features"].append(feature)
                space["exhausts"] = space["exhausts"] or exhausts
                continue
            key = words[0]
            if key in ("coach", "waypoint", "artifact"):
                value = self._int(s, rest, key, key)
                if value is not None:
                    space[key] = value
            elif key == "reward":
                hit = _match_words(words[1:], REWARDS)
                if hit is None:
                    self.error(
                        "CW102",
                        f"unknown reward `{' '.join(a.source() for a in rest)}`",
                        _phrase_span(rest) if rest else s.span,
                        hint=did_you_mean(" ".join(words[1:]), [" ".join(k) for k in REWARDS])
                        or "rewards: gold N, minor secret, major secret, fruit, draw, heal",
                    )
                    continue
                (rkind, takes_n), n = hit
                tail = rest[n:]
                amount = 1
                if tail:
                    if not takes_n:
                        self.error("CW105", f"reward {rkind} takes no number", _phrase_span(tail))
                        continue
                    got = self._int(s, tail, f"reward {rkind}", "reward")
                    if got is None:
                        continue
                    amount = got
                elif rkind == "gold":
                    self.error("CW105", "reward gold needs an amount", s.span, hint="reward gold 2")
                    continue
                if rkind in rewarded:
                    self.diags.append(
                        Diagnostic(
                            "CW105",
                            f"space {space['name']!r} gives `reward {rkind}` twice",
                            s.span,
                            hint="give one reward of each kind; for more, raise its amount "
                            "(`reward gold 3`)",
                            notes=(("the first is here", rewarded[rkind]),),
                        )
                    )
                rewarded[rkind] = s.span
                self._reward(space, rkind, amount, s.span)
            elif key == "holds":
                self._holds(space, s, rest)
            elif key == "at":
                if len(rest) != 2 or any(a.kind not in ("number", "signed") for a in rest):
                    self.error("CW105", "at takes two numbers, x and y", s.span, hint="at 120 40")
                    continue
                pos = [self._in_range(a, "a position", RANGES["position"]) for a in rest]
                if None not in pos:
                    space["pos"] = pos
            elif key == "feature" and rest:
                self._clean(rest)
                space["features"].append(" ".join(a.text.lower() for a in rest))
            elif key == "requires" and rest:
                # Entered only by a player holding a token that grants the words, whatever
                # the way (a path, a teleport, a lift).
                self._clean(rest)
                space.setdefault("requires", []).append(" ".join(a.text.lower() for a in rest))
            else:
                self.error(
                    "CW102",
                    f"unknown space property `{s.head_text()}`",
                    s.head[0].span,
                    hint=did_you_mean(
                        " ".join(words),
                        [" ".join(k) for k in SPACE_FLAGS] + list(PROPERTIES["space"]),
                    )
                    or did_you_mean(key, PROPERTIES["space"])
                    or "see docs/language.md for space properties",
                )
        board["spaces"].append(space)

    def _reward(self, space: dict[str, Any], kind: str, n: int, span: Span) -> None:
        """`reward KIND [N]`: sugar for a token held by the space (a major secret, a fruit)
        and a `once per turn when you enter:` trigger that gives it."""
        at = _at(span)
        if kind in ("major secret", "fruit"):
            what = "major" if kind == "major secret" else "fruit"
            space["holds"].append({"what": what, "n": n, "at": at})
            effects = [{"op": "take_here", "what": what, "at": at} for _ in range(n)]
        elif kind == "minor secret":
            effects = [{"op": "secret", "size": "minor", "at": at} for _ in range(n)]
        elif kind == "gold":
            effects = [{"op": "gain", "amount": n, "resource": "gold", "at": at}]
        else:
            effects = [{"op": kind, "n": n, "at": at}]
        space["triggers"].append({"on": "enter", "limit": "turn", "effects": effects, "at": at})

    def _holds(self, space: dict[str, Any], s: Stmt, rest: list[Atom]) -> None:
        """`holds [N] WHAT`: N tokens matching WHAT (a kind, type or name) are placed on the
        space at setup: secrets from the shuffled pile, other tokens from the supply."""
        n = 1
        if rest and rest[0].kind == "number":
            got = self._int(s, rest[:1], "holds", "holds")
            if got is None:
                return
            n, rest = got, rest[1:]
        if not rest or any(a.kind not in ("word", "string") for a in rest):
            self.error(
                "CW105",
                "holds takes a count and what the space holds",
                s.span,
                hint='write `holds 2 minor secrets` or `holds 3 "Golden Statue"`',
            )
            return
        self._clean(rest)
        what = " ".join(a.text.lower() for a in rest)
        space["holds"].append({"what": what, "n": n, "at": _at(s.span)})

    def _path(self, board: dict[str, Any], st: Stmt) -> None:
        h = st.head
        if (
            len(h) != 4
            or h[2].kind not in ("link", "arrow")
            or any(a.kind not in ("word", "string") for a in (h[1], h[3]))
        ):
            self.error(
                "CW105",
                "a path joins two spaces with -- (two-way) or -> (one-way)",
                st.span,
                hint='write path HQ -- "Whispering Wood" { boots 2 }',
            )
            return
        self._clean([h[1], h[3]])
        path: dict[str, Any] = {
            "from": h[1].text,
            "to": h[3].text,
            "oneway": h[2].kind == "arrow",
            "at": _at(st.span),
            "from_at": _at(h[1].span),
            "to_at": _at(h[3].span),
        }
        self._path_props(path, st)
        board["paths"].append(path)

    def _dead_end(self, board: dict[str, Any], st: Stmt) -> None:
        h = st.head
        if len(h) != 3 or h[2].kind not in ("word", "string"):
            self.error(
                "CW105",
                "dead end names the space it leaves",
                st.span,
                hint='write dead end "Old Mill" { boots 2 }',
            )
            return
        self._clean([h[2]])
        path = {
            "from": h[2].text,
            "to": None,
            "oneway": True,
            "at": _at(st.span),
            "from_at": _at(h[2].span),
        }
        self._path_props(path, st)
        board["paths"].append(path)

    def _path_props(self, path: dict[str, Any], st: Stmt) -> None:
        path.update({"boots": 1, "monsters": 0, "requires": [], "features": []})
        for s in st.block or []:
            if s.effects is not None:
                trig = self._trigger(s, "path")
                if trig is not None:
                    path.setdefault("triggers", []).append(trig)
                continue
            words, rest = s.words, s.head[1:]
            key = words[0]
            if key in ("boots", "footprints", "monsters", "cost"):
                value = self._int(s, rest, key, "monsters" if key == "monsters" else "boots")
                if value is not None:
                    # `cost N` is the price in the path's way's resource; the IR keeps it as
                    # `boots` (what a tunnel, the default way, is paid in).
                    path["monsters" if key == "monsters" else "boots"] = value
            elif self.path_way(path, s):
                pass  # `way ladder`, or a declared way's name (declarations.py)
            elif words == ["water"]:
                path["features"].append("water")
                path["requires"].append("canoe")
            elif words == ["mountain"]:
                path["features"].append("mountain")
            elif words in (["lock"], ["locked"]):
                path["features"].append("lock")
                path["requires"].append("key")
            elif key == "requires" and rest:
                self._clean(rest)
                path["requires"].append(" ".join(a.text.lower() for a in rest))
            elif key == "switch":
                self._path_switch(path, s)
            elif key == "holds":
                path.setdefault("holds", [])
                self._holds(path, s, rest)
            else:
                self.error(
                    "CW102",
                    f"unknown path property `{s.head_text()}`",
                    s.head[0].span,
                    hint=did_you_mean(key, PROPERTIES["path"])
                    or did_you_mean(
                        " ".join(words), [*self.base_ways, *(w["name"] for w in self.ways)]
                    )
                    or "paths take boots N, monsters N, water, mountain, lock, requires WORD, "
                    "way WAY",
                )

    def _path_switch(self, path: dict[str, Any], s: Stmt) -> None:
        """`switch NAME STATE...`: the path is there only while the switch NAME (a piece of
        the board with states, turned by effects) is in one of those states."""
        rest = s.head[1:]
        if len(rest) < 2 or rest[0].kind not in ("word", "string"):
            self.error(
                "CW105",
                "`switch` takes the switch's name and the states the path is open in",
                s.span,
                hint="switch dial 1 3",
            )
            return
        states = []
        for a in rest[1:]:
            value = self._int(s, [a], "switch state", "switch state")
            if value is None:
                return
            states.append(value)
        path["switch"] = {"name": rest[0].text, "states": sorted(set(states))}

    # rules ---------------------------------------------------------------------------------
    def decl_rules(self, st: Stmt) -> None:
        table = {tuple(p.words.split()): p for p in RULE_PARAMS}
        for s in st.block or []:
            if s.words[0] == "step" or s.words[:2] == ["remove", "step"]:
                self._step(s)
                continue
            if s.words[0] == "slot":
                self._slot(s)
                continue
            if s.words[0] == "counter" and s.effects is None:
                self._counter(s)
                continue
            if is_award(s):
                self.decl_award(s)
                continue
            if s.effects is not None:
                trig = self._trigger(s, "rules")
                if trig is not None:
                    self.triggers.append(trig)
                continue
            hit = _match_words(s.words, table)
            if hit is None:
                self.error(
                    "CW102",
                    f"unknown rule `{s.head_text()}`",
                    s.head[0].span,
                    hint=did_you_mean(" ".join(s.words[:2]), [p.words for p in RULE_PARAMS])
                    or "rules: " + ", ".join(p.words for p in RULE_PARAMS),
                )
                continue
            param, n = hit
            rest = s.head[n:]
            self._rule_value(param, s, rest)

    def _counter(self, s: Stmt) -> None:
        """`counter NAME [max N]`: a marker on a track of the pack's own (a doom track)."""
        h = s.head
        top = 100
        if len(h) == 4 and h[2].kind == "word" and h[2].text.lower() == "max":
            got = self._int(s, h[3:], "counter max", "counter")
            if got is None:
                return
            top = got
        elif len(h) != 2:
            self.error("CW105", "write `counter NAME` or `counter NAME max N`", s.span)
            return
        if h[1].kind not in ("word", "string"):
            self.error("CW105", "a counter needs a name", h[1].span, hint="counter doom max 5")
            return
        self._clean([h[1]])
        self.counters.append({"name": h[1].text, "max": top, "at": _at(s.span)})

    def _step(self, s: Stmt) -> None:
        """`step NAME [before|after|replaces OTHER]: effects` or `remove step NAME`."""
        removing = s.words[0] == "remove"
        names = s.head[2:] if removing else s.head[1:]
        form = (
            "remove step NAME" if removing else "step NAME [before|after|replaces OTHER]: effects"
        )
        ok = (
            len(names) == 1
            if removing
            else len(names) == 1
            or (
                len(names) == 3
                and names[1].kind == "word"
                and names[1].text.lower() in ("before", "after", "replaces")
            )
        )
        if not ok or any(a.kind not in ("word", "string") for a in names[::2]):
            self.error(
                "CW105",
                f"write `{form}`",
                s.span,
                hint="steps are named like end_of_turn.draw_hand",
            )
            return
        change: dict[str, Any] = {
            "change": "remove" if removing else "insert",
            "step": names[0].text,
            "at": _at(s.span),
        }
        if removing:
            if s.effects is not None:
                self.error("CW112", "`remove step` takes no effects", s.span)
                return
        else:
            if len(names) == 3:
                where = names[1].text.lower()
                change[where] = names[2].text
                if where == "replaces":
                    change["change"] = "replace"
            if s.effects is None:
                self.error(
                    "CW109",
                    f"step {names[0].text!r} has no effects",
                    s.span,
                    hint=f"write `{s.head_text()}: EFFECTS`",
                )
                return
            effects = self.effects(s.effects)
            if effects is None:
                return
            change["effects"] = effects
        self.steps.append(change)

    def _slot(self, s: Stmt) -> None:
        """`slot NAME before|after STEP`: a rule slot, an empty step a sticker fills;
        `slot NAME covers STEP`: a box printed with an engine step's rule, which holds until a
        sticker covers it with effects;
        `slot NAME TRIGGER` (`slot R13 whenever you heal`): an empty rules trigger a sticker
        fills with effects; `slot NAME rule WORDS` (`slot R15 rule market price`): a rule
        parameter a sticker sets (`fills R15 { market price 5 }`)."""
        h = s.head
        form_hint = (
            "e.g. `slot R10 after setup.players`, `slot R13 whenever you heal` or "
            "`slot R15 rule market price`; a sticker then `fills R10: ...`"
        )
        if len(h) < 3 or s.effects is not None or h[1].kind not in ("word", "string"):
            self.error(
                "CW105",
                "write `slot NAME before|after STEP`, `slot NAME TRIGGER` or "
                "`slot NAME rule WORDS` (a slot has no effects of its own)",
                s.span,
                hint=form_hint,
            )
            return
        name = h[1].text
        low2 = h[2].text.lower() if h[2].kind == "word" else None
        if low2 == "rule":
            table = {tuple(p.words.split()): p for p in RULE_PARAMS}
            hit = _match_words([a.text.lower() for a in h[3:]], table) if len(h) > 3 else None
            if hit is None or hit[1] != len(h) - 3:
                words = " ".join(a.source() for a in h[3:])
                self.error(
                    "CW102",
                    f"unknown rule `{words}` for slot {name}",
                    _phrase_span(h[3:]) if len(h) > 3 else s.span,
                    hint=did_you_mean(words, [p.words for p in RULE_PARAMS])
                    or "rules: " + ", ".join(p.words for p in RULE_PARAMS),
                )
                return
            self.rule_slots.append({"slot": name, "rule": hit[0].key, "at": _at(s.span)})
            return
        if low2 in ("before", "after", "covers"):
            if len(h) != 4 or h[3].kind not in ("word", "string"):
                self.error(
                    "CW105", "write `slot NAME before|after|covers STEP`", s.span, hint=form_hint
                )
                return
            anchor = h[3].text
            phase = anchor.split(".", 1)[0]
            change: dict[str, Any] = {
                "change": "replace" if low2 == "covers" else "insert",
                "step": f"{phase}.{name}",
                "replaces" if low2 == "covers" else low2: anchor,
                "effects": [],
                "slot": name,
                "at": _at(s.span),
            }
            if low2 == "covers":
                # A box printed with a rule: the rule holds until a sticker covers it.
                change["covers"] = anchor
            self.steps.append(change)
            return
        # A moment: the rest is a trigger of the rules block, without effects of its own.
        trig = self._trigger(Stmt(h[2:], s.span), "rules")
        if trig is not None:
            trig["slot"] = name
            self.triggers.append(trig)

    def _rule_value(self, param: Any, s: Stmt, rest: list[Atom]) -> None:
        players: str = "*"
        words = [a.text.lower() if a.kind == "word" else None for a in rest]
        if len(rest) >= 3 and words[-3] == "with" and words[-1] in ("players", "player"):
            if rest[-2].kind != "number":
                self.error("CW105", "with N players needs a number", rest[-2].span)
                return
            seats = self._in_range(rest[-2], "with N players", RANGES["players"])
            if seats is None:
                return
            players = str(seats)
            rest = rest[:-3]
        if not rest and param.switch and players == "*":
            self.rules[param.key] = 1  # a switch's words alone turn it on
            self.rules_at[param.key] = _at(s.span)
            return
        if not rest or any(a.kind != "number" for a in rest):
            self.error(
                "CW105",
                f"rule `{param.words}` takes "
                + ("numbers" if param.shape == "ints" else "one number"),
                _phrase_span(rest) if rest else s.span,
                hint=f"write `{param.words} {param.default if param.shape == 'int' else '...'}`",
            )
            return
        if param.shape == "ints" and len(rest) > param.max_len:
            self.error(
                "CW113",
                f"rule `{param.words}` cannot list {len(rest)} numbers; the most is "
                f"{param.max_len}",
                _phrase_span(rest[param.max_len :]),
                hint=f"list from 1 to {param.max_len} numbers",
            )
            return
        limit = Range(param.low, param.high, param.doc)
        checked = [self._in_range(a, f"rule `{param.words}`", limit) for a in rest]
        if None in checked:
            return
        values = [int(v) for v in checked if v is not None]
        if param.shape == "ints":
            self.rules[param.key] = values
        elif len(values) != 1:
            self.error("CW105", f"rule `{param.words}` takes one number", _phrase_span(rest))
            return
        elif param.shape == "by_players":
            self.rules[param.key][players] = values[0]
        else:
            if players != "*":
                self.error(
                    "CW105",
                    f"rule `{param.words}` does not vary with the number of players",
                    s.span,
                )
                return
            self.rules[param.key] = values[0]
        self.rules_at[param.key] = _at(s.span)

    # campaign declarations: stickers, passages and contracts ----------------------------
    def decl_sticker(self, st: Stmt) -> None:
        """`sticker NAME { fills SLOT: EFFECTS }`: a rule sticker (interpreter/stickers.py);
        and board and card stickers: `change`, `replace` and `remove` lines, as an extension
        writes them, applied to the pack when the sticker is (dsl/stickers.py)."""
        h = st.head
        if len(h) != 2 or h[1].kind not in ("word", "string"):
            self.error("CW105", "write `sticker NAME { fills SLOT: EFFECTS }`", st.span)
            return
        sticker: dict[str, Any] = {"name": h[1].text, "at": _at(st.span)}
        bad = False
        for s in st.block or []:
            if s.words[0] in ("change", "replace", "remove"):
                saved, self.edits = self.edits, []
                before = len(self.diags)
                self._edit(s, s.words[0])
                got, self.edits = self.edits, saved
                bad = bad or len(self.diags) > before
                sticker.setdefault("edits", []).extend(ext.edit_to_ir(e) for e in got)
                continue
            if s.words[0] == "board" and s.block is not None and s.effects is None:
                # A board sticker that adds spaces and paths (to a dead end, say), written
                # as an extension adds to its base's board.
                saved_boards, self.boards = self.boards, []
                before = len(self.diags)
                self.decl_board(s)
                got, self.boards = self.boards, saved_boards
                bad = bad or len(self.diags) > before
                sticker.setdefault("boards", []).extend(got)
                continue
            if s.words[0] == "fills" and len(s.head) == 2 and (s.effects or s.block):
                if "fills" in sticker:
                    self.error("CW106", "a sticker fills one slot", s.span)
                    continue
                if s.block is not None and s.effects is None:
                    # A slot bound to rule parameters: the block sets them.
                    values = self._sticker_rules(s)
                    bad = bad or values is None
                    if values is not None:
                        sticker["fills"] = s.head[1].text
                        sticker["fills_at"] = _at(s.head[1].span)
                        sticker["rules"] = values
                    continue
                effects = self.effects(s.effects or [])
                bad = bad or effects is None
                if effects is not None:
                    sticker["fills"] = s.head[1].text
                    sticker["fills_at"] = _at(s.head[1].span)
                    sticker["effects"] = effects
            elif s.effects is not None and s.words[0] in TRIGGER_WORDS:
                # A Franchise Board sticker: a permanent ability, a trigger as the rules
                # block writes one (`when you escape: +2 gold`).
                trig = self._trigger(s, "rules")
                bad = bad or trig is None
                if trig is not None:
                    sticker.setdefault("abilities", []).append(trig)
            else:
                bad = True
                self.error(
                    "CW102",
                    f"unknown sticker line `{s.head_text()}`",
                    s.head[0].span,
                    hint=did_you_mean(s.words[0], ["fills", "change", "replace", "remove"])
                    or "a sticker says `fills SLOT: EFFECTS` (a rule sticker), `fills SLOT { "
                    "RULE VALUE }` (a rule parameter), `TRIGGER: EFFECTS` (a Franchise Board "
                    "ability), or `change`, `replace` or `remove` what the pack declares (a "
                    "board or card sticker)",
                )
        if not bad and not any(k in sticker for k in ("fills", "edits", "abilities", "boards")):
            self.error(
                "CW109",
                f"sticker {h[1].text!r} fills no slot and changes nothing",
                st.span,
                hint="add `fills SLOT: EFFECTS` (the pack's rules declare `slot SLOT ...`) "
                'or a change: `change space "Old Mill" { forest }`',
            )
            return
        # A sticker with an error is still declared (its name only, when nothing of it
        # compiled), so what names it is not reported again: the pack fails on the error.
        self.campaign["stickers"].append(sticker)

    def _sticker_rules(self, s: Stmt) -> dict[str, Any] | None:
        """A rule sticker's `fills SLOT { RULE VALUE ... }`: the rule values it sets, compiled
        as the rules block compiles them (the pack's own rules are left alone)."""
        table = {tuple(p.words.split()): p for p in RULE_PARAMS}
        saved = self.rules, self.rules_at
        self.rules, self.rules_at = default_rules(), {}
        before = len(self.diags)
        try:
            for line in s.block or []:
                hit = _match_words(line.words, table) if line.effects is None else None
                if hit is None:
                    self.error(
                        "CW102",
                        f"unknown rule `{line.head_text()}`",
                        line.head[0].span,
                        hint=did_you_mean(" ".join(line.words[:2]), [p.words for p in RULE_PARAMS])
                        or "a rule sticker's block sets rules: `market price 5`",
                    )
                    continue
                self._rule_value(hit[0], line, line.head[hit[1] :])
            values = {k: self.rules[k] for k in self.rules_at}
        finally:
            self.rules, self.rules_at = saved
        if len(self.diags) > before:
            return None
        if not values:
            self.error("CW109", "this slot's block sets no rule", s.span)
            return None
        return values

    def decl_goal(self, st: Stmt) -> None:
        """`goal NAME { player N; boxes N; TRIGGER }`: a personal goal on player N's deck
        box; each time the trigger fires for them, they fill one of its boxes (a campaign
        game only), and a full row of boxes earns a checkmark at the employee reviews."""
        h = st.head
        if len(h) != 2 or h[1].kind not in ("word", "string") or st.effects is not None:
            self.error("CW105", "write `goal NAME { player N; boxes N; TRIGGER }`", st.span)
            return
        goal: dict[str, Any] = {"name": h[1].text, "at": _at(st.span)}
        for s in st.block or []:
            w = s.words
            if w[0] == "player" and len(s.head) == 2 and s.effects is None:
                n = self._int(s, s.head[1:], "player", RANGES["players"])
                if n is not None:
                    goal["player"] = n
            elif w[0] == "boxes" and len(s.head) == 2 and s.effects is None:
                n = self._int(s, s.head[1:], "boxes", Range(1, 20, "boxes in a row"))
                if n is not None:
                    goal["boxes"] = n
            elif s.effects is None and "trigger" not in goal:
                trig = self._trigger(s, "rules")
                if trig is not None:
                    trig["effects"] = [{"op": "goal", "name": h[1].text, "at": _at(s.span)}]
                    goal["trigger"] = trig
            else:
                self.error(
                    "CW102",
                    f"unknown goal line `{s.head_text()}`",
                    s.head[0].span,
                    hint=did_you_mean(w[0], ["player", "boxes"])
                    or "a goal says `player N`, `boxes N` and, once, when it is met: "
                    "`whenever you defeat a monster` (no colon)",
                )
        missing = [k for k in ("player", "boxes", "trigger") if k not in goal]
        if missing:
            self.error(
                "CW109",
                f"goal {h[1].text!r} has no "
                + " and no ".join(
                    {"player": "`player N`", "boxes": "`boxes N`", "trigger": "trigger"}[k]
                    for k in missing
                ),
                st.span,
                hint='e.g. `goal "Monster Hunter" { player 1; boxes 3; whenever you defeat a '
                "monster }`",
            )
            return
        self.goals.append(goal)

    def decl_campaign(self, st: Stmt) -> None:
        """`campaign { status NAME at N reads P; track NAME { spaces N; space K reads P };
        death marks TRACK reads P }`: the Associate Status track (each section's first
        checkmark, and the passage a promotion reads), the pack's own tracks (each one's
        length and numbered spaces; any number, each named by the pack), and what a player
        death does: the track it adds an X to and the passage read after."""
        if len(st.head) != 1 or st.effects is not None:
            self.error("CW105", "write `campaign { ... }`", st.span)
            return
        if self.campaign_block is not None:
            self.error("CW106", "a pack has one campaign block", st.span)
            return
        block: dict[str, Any] = {"statuses": [], "tracks": [], "at": _at(st.span)}
        for s in st.block or []:
            w, h = s.words, s.head
            if s.effects is not None:
                self.error("CW112", "a campaign block's lines take no colon", s.span)
            elif w[0] == "track" and len(h) == 2 and h[1].kind in ("word", "string"):
                self._campaign_track(s, block)
            elif w[0] == "track":
                self.error(
                    "CW105",
                    f"cannot read the track line `{s.head_text()}`",
                    s.span,
                    hint='write `track "Rival Guild" { spaces 10; space 3 reads 17 }`',
                )
            elif s.block is not None:
                self.error(
                    "CW105",
                    f"`{w[0]}` takes no block",
                    s.block_span or s.span,
                    hint="only a `track NAME { ... }` line of a campaign block has a block",
                )
            elif w[0] == "status" and len(h) == 6 and w[2] == "at" and w[4] == "reads":
                at = self._int(s, h[3:4], "status at", Range(1, 100, "checkmarks"))
                reads = self._int(s, h[5:6], "reads", "passage")
                if at is not None and reads is not None:
                    block["statuses"].append(
                        {"name": h[1].text, "checkmark": at, "reads": reads, "at": _at(s.span)}
                    )
            elif w[0] == "death" and "death" in block:
                self.error("CW106", "a campaign block says what a death does once", s.span)
            elif w[0] == "death":
                self._campaign_death(s, block)
            else:
                self.error(
                    "CW102",
                    f"unknown campaign line `{s.head_text()}`",
                    h[0].span,
                    hint=did_you_mean(w[0], ["status", "track", "death"])
                    or "a campaign block says `status Copper at 3 reads 150`, "
                    '`track "Rival Guild" { spaces 10; space 3 reads 17 }`, '
                    '`death marks "Rival Guild" reads 167`',
                )
        block["statuses"].sort(key=lambda x: x["checkmark"])
        self.campaign_block = block

    def _campaign_track(self, s: Stmt, block: dict[str, Any]) -> None:
        """`track NAME { spaces N; space K reads P }`: one of the pack's campaign tracks."""
        name = s.head[1].text
        if any(t["name"] == name for t in block["tracks"]):
            self.error("CW106", f"the campaign declares track {name!r} twice", s.span)
            return
        track: dict[str, Any] = {"name": name, "spaces": 0, "reads": {}, "at": _at(s.span)}
        for line in s.block or []:
            w, h = line.words, line.head
            if line.effects is not None or line.block is not None:
                self.error("CW112", "a track's lines take no colon and no block", line.span)
            elif w[0] == "spaces" and len(h) == 2:
                n = self._int(line, h[1:], "spaces", Range(1, 100, "spaces"))
                if n is not None:
                    track["spaces"] = n
            elif w[0] == "space" and len(h) == 4 and w[2] == "reads":
                space = self._int(line, h[1:2], "space", Range(1, 100, "spaces"))
                reads = self._int(line, h[3:4], "reads", "passage")
                if space is not None and reads is not None:
                    track["reads"][str(space)] = reads
                    track.setdefault("_spans", {})[str(space)] = line.span
            else:
                self.error(
                    "CW102",
                    f"unknown track line `{line.head_text()}`",
                    h[0].span,
                    hint=did_you_mean(w[0], ["spaces", "space"])
                    or "a track says `spaces 10` and `space 3 reads 17`",
                )
        for space, span in track.pop("_spans", {}).items():
            if int(space) > track["spaces"]:
                self.error(
                    "CW108",
                    f"space {space} of track {name!r} is past its end ({track['spaces']} spaces)",
                    span,
                    hint=f"write `spaces {space}` or more in the track's block",
                )
        block["tracks"].append(track)

    def _campaign_death(self, s: Stmt, block: dict[str, Any]) -> None:
        """`death [marks TRACK] [reads P]`: what a player death does (post-game step 5)."""
        rest, words = s.head[1:], s.words[1:]
        death: dict[str, Any] = {}
        if words[:1] == ["marks"] and len(rest) >= 2 and rest[1].kind in ("word", "string"):
            death["marks"] = rest[1].text
            rest, words = rest[2:], words[2:]
        if words[:1] == ["reads"] and len(rest) == 2:
            n = self._int(s, rest[1:], "death reads", "passage")
            if n is None:
                return
            death["reads"] = n
            rest = []
        if rest or not death:
            self.error(
                "CW105",
                f"cannot read the death line `{s.head_text()}`",
                s.span,
                hint='write `death marks "Rival Guild" reads 167` (either part may be left out)',
            )
            return
        block["death"] = {**death, "at": _at(s.span)}

    def decl_passage(self, st: Stmt) -> None:
        """`passage N { text "..."; prologue G; epilogue G; sticker NAME; checkmark each
        player; mark the TRACK track; read N; choice "LABEL" reads N }`: a Book of Secrets
        entry."""
        h = st.head
        if len(h) != 2 or h[1].kind != "number" or st.effects is not None:
            self.error("CW105", "write `passage N { ... }` (N is the entry's number)", st.span)
            return
        number = self._int(st, h[1:], "passage", "passage")
        if number is None:
            return
        passage: dict[str, Any] = {"number": number, "text": "", "do": [], "at": _at(st.span)}
        choices: list[dict[str, Any]] = []
        for s in st.block or []:
            w, rest = s.words, s.head[1:]
            if s.effects is not None:
                self.error("CW112", "a passage's lines take no colon", s.span)
            elif w[0] == "text" and len(rest) == 1 and rest[0].kind == "string":
                passage["text"] = rest[0].text
            elif w[0] in ("prologue", "epilogue") and len(rest) == 1:
                game = self._int(s, rest, f"{w[0]} game", "passage")
                if game is not None:
                    passage[w[0]] = game
            elif w[0] == "sticker" and len(rest) == 1 and rest[0].kind in ("word", "string"):
                passage["do"].append({"do": "sticker", "name": rest[0].text, "at": _at(s.span)})
            elif w == ["checkmark", "each", "player"]:
                passage["do"].append({"do": "checkmark", "at": _at(s.span)})
            elif (track := _track_line(s)) is not None:
                # An X on one of the pack's campaign tracks.
                passage["do"].append({"do": "mark", "track": track, "at": _at(s.span)})
            elif (
                w[0] in ("patron", "board")
                and len(rest) == 1
                and rest[0].kind
                in (
                    "word",
                    "string",
                )
            ):
                # The next game's patron, or the board (side) it is played on.
                passage["do"].append({"do": w[0], "name": rest[0].text, "at": _at(s.span)})
            elif w[0] == "contract" and len(rest) == 1 and rest[0].kind in ("word", "string"):
                passage["do"].append({"do": "contract", "name": rest[0].text, "at": _at(s.span)})
            elif w[0] == "fetch" and len(rest) == 1:
                n = self._int(s, rest, "fetch", "passage")
                if n is not None:
                    passage["do"].append({"do": "fetch", "card": n, "at": _at(s.span)})
            elif w[0] == "destroy" and len(rest) == 1 and rest[0].kind in ("word", "string"):
                passage["do"].append({"do": "destroy", "name": rest[0].text, "at": _at(s.span)})
            elif w[0] == "read" and len(rest) == 1:
                n = self._int(s, rest, "read", "passage")
                if n is not None:
                    passage["do"].append({"do": "read", "passage": n, "at": _at(s.span)})
            elif (
                w[0] == "choice" and len(rest) == 3 and rest[0].kind == "string" and w[2] == "reads"
            ):
                n = self._int(s, rest[2:], "choice", "passage")
                if n is not None:
                    choices.append({"label": rest[0].text, "read": n, "at": _at(s.span)})
            else:
                words = ["text", "prologue", "epilogue", "sticker", "checkmark", "mark", "read"]
                words += ["fetch", "destroy", "contract", "patron", "board"]
                self.error(
                    "CW102",
                    f"unknown passage line `{s.head_text()}`",
                    s.head[0].span,
                    hint=did_you_mean(w[0], [*words, "choice"])
                    or 'a passage says: text "...", prologue N, epilogue N, sticker NAME, '
                    "checkmark each player, mark the TRACK track, read N, fetch N, destroy CARD, "
                    "contract NAME, "
                    "patron NAME, board NAME, "
                    'choice "LABEL" reads N',
                )
        if choices:
            passage["choices"] = choices
        self.campaign["passages"].append(passage)

    def decl_patron(self, st: Stmt) -> None:
        """`patron NAME { TRIGGER: EFFECTS ... }`: a patron's rules for one campaign game
        (a passage names the next game's patron: `patron NAME`)."""
        h = st.head
        if len(h) != 2 or h[1].kind not in ("word", "string") or st.effects is not None:
            self.error("CW105", "write `patron NAME { TRIGGER: EFFECTS }`", st.span)
            return
        patron: dict[str, Any] = {"name": h[1].text, "triggers": [], "at": _at(st.span)}
        for s in st.block or []:
            if s.effects is None:
                self.error(
                    "CW102",
                    f"unknown patron line `{s.head_text()}`",
                    s.head[0].span,
                    hint="a patron's lines are triggers, as in the rules block: "
                    "`at the start of your turn: +1 boots`",
                )
                continue
            trig = self._trigger(s, "rules")
            if trig is not None:
                patron["triggers"].append(trig)
        self.campaign["patrons"].append(patron)

    def decl_contract(self, st: Stmt) -> None:
        """`contract NAME { complete [if COND]: PRICE -> REWARD; passage N }`: a contract
        any player may complete at the end of their turn while it is open in a campaign."""
        h = st.head
        if len(h) != 2 or h[1].kind not in ("word", "string") or st.effects is not None:
            self.error("CW105", "write `contract NAME { complete: ... }`", st.span)
            return
        contract: dict[str, Any] = {"name": h[1].text, "at": _at(st.span)}
        for s in st.block or []:
            w = s.words
            if w[0] == "complete" and s.effects is not None:
                if len(s.head) > 2 and w[1] in IF_WORDS:
                    cond = self._condition(s.head[2:], IF_WORDS[w[1]])
                    if cond is None:
                        continue
                    contract["if"] = cond
                elif len(s.head) != 1:
                    self.error(
                        "CW105",
                        "write `complete: ...`, `complete if CONDITION: ...` or "
                        "`complete unless CONDITION: ...`",
                        s.span,
                        hint=did_you_mean(s.head[1].text, list(IF_WORDS)),
                    )
                    continue
                effects = self.effects(s.effects)
                if effects is not None:
                    contract["effects"] = effects
            elif w[0] == "passage" and len(s.head) == 2 and s.effects is None:
                n = self._int(s, s.head[1:], "passage", "passage")
                if n is not None:
                    contract["passage"] = n
            elif (w == ["start"] or w == ["end", "of", "game"]) and s.effects is not None:
                # Instructions for the start of the game (setup) and its end (post-game).
                effects = self.effects(s.effects)
                if effects is not None:
                    contract["start" if w[0] == "start" else "end"] = effects
            else:
                self.error(
                    "CW102",
                    f"unknown contract line `{s.head_text()}`",
                    s.head[0].span,
                    hint=did_you_mean(w[0], ["complete", "passage", "start", "end of game"])
                    or "a contract says `complete [if CONDITION]: PRICE -> REWARD`, "
                    "`passage N` (read when it is completed), and may say `start: EFFECTS` "
                    "and `end of game: EFFECTS`",
                )
        if "effects" not in contract:
            self.error(
                "CW109",
                f"contract {h[1].text!r} has no `complete:` line",
                st.span,
                hint="add `complete if CONDITION: pay 3 gold -> +2 skill`",
            )
            return
        self.campaign["contracts"].append(contract)

    # extensions: `replace`, `remove` and `change` what the base pack declares. Each is
    # compiled here with the declaration's own code and applied to the base's IR by
    # `extends.apply_extension` --------------------------------------------------------------
    def decl_replace(self, st: Stmt) -> None:
        self._edit(st, "replace")

    def decl_remove(self, st: Stmt) -> None:
        self._edit(st, "remove")

    def decl_change(self, st: Stmt) -> None:
        self._edit(st, "change")

    def _edit(self, st: Stmt, verb: str) -> None:
        kinds = ext.EDIT_KINDS[verb]
        h = st.head
        kind = h[1].text.lower() if len(h) > 1 and h[1].kind == "word" else None
        if kind not in kinds:
            bad = h[1] if len(h) > 1 else h[0]
            self.error(
                "CW105",
                f"`{verb}` is followed by what it {verb}s: {', '.join(kinds)}",
                bad.span,
                hint=(did_you_mean(bad.text, kinds) if len(h) > 1 else None)
                or f'write `{verb} card "Some Card"' + (" }" if verb == "remove" else " { ... }`"),
            )
            return
        inner_head, board = h[1:], None
        # `... in BOARD` chooses the board of a space or a path named on several boards.
        if (
            kind in ("space", "path")
            and len(inner_head) >= 4
            and inner_head[-2].kind == "word"
            and inner_head[-2].text.lower() == "in"
            and inner_head[-1].kind in ("word", "string")
        ):
            self._clean(inner_head[-1:])
            board = inner_head[-1].text
            inner_head = inner_head[:-2]
        self._no_effects(st)
        if verb == "remove" and st.block is not None:
            self.error(
                "CW112",
                "`remove` takes no block",
                st.block_span or st.span,
                hint=f"write `remove {kind} NAME` on its own",
            )
            return
        if verb != "remove" and st.block is None:
            self.error(
                "CW105",
                f"`{verb} {kind}` needs a block with the "
                + ("new declaration" if verb == "replace" else "properties it changes"),
                st.span,
                hint=f"write `{verb} {kind} NAME {{ ... }}`",
            )
            return
        inner = Stmt(inner_head, st.span, None, st.block, st.block_span)
        if kind == "path":
            self._edit_path(st, verb, inner, board)
            return
        at_name = len(self.diags)
        named = self._name(inner, kind)
        if named is None:
            return
        edit = ext.Edit(verb, kind, named[0], st.span, named[1], board=board)
        named_at = len(self.diags)
        if verb == "replace":
            edit.item = self._compile_one(inner, kind)
            # The declaration checks the name again: report a bad name once.
            self.diags[named_at:] = _new_only(self.diags, at_name, named_at)
            if edit.item is None:
                return
        elif verb == "change":
            # The body is compiled as a whole declaration; what it lacks comes from the base,
            # so "has no cost" (CW109) does not apply to it.
            before = len(self.diags)
            edit.item = self._compile_one(inner, kind)
            self.diags[before:] = [
                d for d in _new_only(self.diags, at_name, before) if d.code != "CW109"
            ]
            if edit.item is None:
                return
            before = len(self.diags)
            empty = self._compile_one(Stmt(inner_head, st.span, None, [], None), kind)
            del self.diags[before:]
            words = [s.words[0] for s in st.block or [] if s.effects is None]
            edit.fields = ext.change_fields(kind, edit.item, empty or {}, words)
        self.edits.append(edit)

    def _compile_one(self, st: Stmt, kind: str) -> dict[str, Any] | None:
        """Compile one declaration of ``kind`` (a card kind, token, board or space) and take
        it back out of the pack: the compiled item, or None when it failed."""
        if kind == "space":
            scratch: dict[str, Any] = {"name": "", "spaces": [], "paths": [], "groups": []}
            self._space(scratch, st, None)
            return scratch["spaces"][0] if scratch["spaces"] else None
        items = self.tokens if kind == "token" else self.boards if kind == "board" else self.cards
        n = len(items)
        self.decl(st)
        return items.pop() if len(items) > n else None

    def _edit_path(self, st: Stmt, verb: str, inner: Stmt, board: str | None) -> None:
        h = inner.head
        if (
            len(h) != 4
            or h[2].kind not in ("link", "arrow")
            or any(a.kind not in ("word", "string") for a in (h[1], h[3]))
        ):
            self.error(
                "CW105",
                f"`{verb} path` names the path by its two spaces, as the base writes it",
                st.span,
                hint=f'write `{verb} path HQ -- "Whispering Wood"` (-> for a one-way path)',
            )
            return
        self._clean([h[1], h[3]])
        ends = (h[1].text, h[3].text, h[2].kind == "arrow")
        name = f"{h[1].source()} {h[2].text if h[2].kind == 'arrow' else '--'} {h[3].source()}"
        edit = ext.Edit(
            verb, "path", name, st.span, _join(h[1].span, h[3].span), board=board, ends=ends
        )
        if verb == "change":
            scratch: dict[str, Any] = {"name": "", "spaces": [], "paths": [], "groups": []}
            self._path(scratch, inner)
            self._path(scratch, Stmt(h, st.span, None, [], None))
            if len(scratch["paths"]) != 2:
                return
            edit.item, empty = scratch["paths"]
            words = [s.words[0] for s in st.block or [] if s.effects is None]
            edit.fields = tuple(
                f
                for f in ext.change_fields("path", edit.item, empty, words)
                if f not in ("from", "to", "oneway", "from_at", "to_at")
            )
        self.edits.append(edit)

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

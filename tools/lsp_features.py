"""The language server's features about names and fixes: hover on a name, go to definition,
references, rename, the outline of a file, completion by context and quick fixes.

`NameFeatures` is a part of `lsp.ClankServer` (it uses the server's analyses, documents and
position codec); the work is done by `lsp_index` (who names what where), `lsp_complete`
(what may come next) and `lsp_actions` (how to fix a diagnostic).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls.workspace import PositionCodec

from clankwork.dsl.compiler import DECL_KINDS, MANIFEST, parser
from clankwork.dsl.diagnostics import Span
from clankwork.dsl.parser import Stmt
from clankwork.dsl.phrases import leading_words
from clankwork.interpreter.effects import EFFECTS
from clankwork.interpreter.effects.registry import RESOURCE_WORDS

from .card_text import card_kind, card_rules
from .check import compile_and_check
from .lsp_actions import Edit, Fix, apply_edits, fixes
from .lsp_complete import Names, complete, pack_names
from .lsp_index import Index, Symbol, Use, build, new_text, rename_problem
from .packs import bundled_names, bundled_pack

# Words the language reads as its own: a card renamed to one of them is written quoted.
KEYWORDS = (
    set(leading_words(EFFECTS))
    | set(RESOURCE_WORDS)
    | set(DECL_KINDS)
    | {"may", "if", "unless", "not", "per"}
)
_SYMBOL_KINDS = {
    "card": lsp.SymbolKind.Class,
    "monster": lsp.SymbolKind.Class,
    "reserve": lsp.SymbolKind.Class,
    "event": lsp.SymbolKind.Event,
    "token": lsp.SymbolKind.Constant,
    "board": lsp.SymbolKind.Namespace,
    "module": lsp.SymbolKind.Module,
    "space": lsp.SymbolKind.Field,
    "path": lsp.SymbolKind.Operator,
    "dead": lsp.SymbolKind.Operator,
    "resource": lsp.SymbolKind.Property,
    "way": lsp.SymbolKind.Interface,
    "rules": lsp.SymbolKind.Object,
    "on": lsp.SymbolKind.Namespace,
    "pack": lsp.SymbolKind.Package,
    "scenario": lsp.SymbolKind.Method,
    "player": lsp.SymbolKind.Variable,
}
_OUTLINED_INSIDE = ("board", "module", "rules", "scenario", "on")


def card_text(card: dict[str, Any]) -> str:
    """A card's generated rules text, as markdown for a hover."""
    head = f"**{card['name']}** ({card_kind(card)}"
    if "cost" in card:
        head += f", cost {card['cost']}"
    if card.get("fight"):
        head += f", fight {card['fight']}"
    if card.get("points"):
        head += f", {card['points']} point{'s' if card['points'] != 1 else ''}"
    head += ")"
    rules = [f"{h} {t}" for h, t in card_rules(card)]
    return "\n\n".join([head, *rules])


@dataclass
class Known:
    """What the server worked out from one analysis, kept until the next."""

    index: Index | None = None
    trees: dict[str, list[Stmt]] = field(default_factory=dict)
    names: Names | None = None


def symbol_text(index: Index, sym: Symbol) -> str | None:
    """Markdown for a hover on a name: what it is, and where it is used."""
    decl = index.declared.get(sym)
    uses = index.by_symbol.get(sym, [])
    count = sum(1 for u in uses if not u.declares)
    tail = f"\n\n{count} use{'s' if count != 1 else ''} in the pack"
    if sym.kind == "card" and decl is not None:
        return card_text(decl) + tail
    if sym.kind == "token" and decl is not None:
        facts = [decl.get("kind", "token")]
        if decl.get("count", 1) != 1:
            facts.append(f"{decl['count']} of them")
        if decl.get("points"):
            facts.append(f"{decl['points']} points")
        rules = [f"{h} {t}" for h, t in card_rules(decl)]
        return "\n\n".join([f"**{sym.name}** (token: {', '.join(facts)})", *rules]) + tail
    if sym.kind == "space" and decl is not None:
        board = decl.get("board", {}).get("name", "")
        feats = ", ".join(decl.get("features", ())) or "no features"
        return f"**{sym.name}** (space on board {board}: {feats})" + tail
    if sym.kind == "feature":
        spaces = sorted(
            s.name
            for s, d in index.declared.items()
            if s.kind == "space" and sym.name in [f.casefold() for f in d.get("features", ())]
        )
        where = ", ".join(spaces) if spaces else "no space has it"
        return f"**{sym.name}** (space feature): {where}" + tail
    if sym.kind == "resource" and decl is not None:
        keep = "lost at the end of the turn" if decl.get("keep", "turn") == "turn" else "kept"
        words = ", ".join(decl.get("words", ()))
        return f"**{decl['name']}** (resource, {keep}{'; also ' + words if words else ''})" + tail
    if sym.kind == "way" and decl is not None:
        paid = decl.get("paid_in")
        return f"**{decl['name']}** (way{', paid in ' + paid if paid else ''})" + tail
    return None


class NameFeatures:
    """Hover, definition, references, rename, outline, completion and quick fixes (a part
    of `lsp.ClankServer`)."""

    known: dict[str, Known]
    workspace: Any
    caches: dict[str, Any]
    analyses: dict[str, Any]
    _bundled_texts: dict[str, list[str]] | None

    # The server's own methods these use (lsp.ClankServer).
    key_of: Callable[[str], tuple[str, Path] | None]
    analysis_of: Callable[[str], tuple[Any, dict[str, Any] | None]]
    text_of: Callable[[str], tuple[str, str] | None]
    uri_of: Callable[[str], str]
    open_docs: Callable[[], dict[str, str]]
    fresh: Callable[[str], None]

    def known_of(self, uri: str) -> tuple[Any, Known] | None:
        """The last analysis of the document's pack, and what was worked out from it."""
        a, _ir = self.analysis_of(uri)
        key = self.key_of(uri)
        if a is None or key is None:
            return None
        return a, self.known.setdefault(key[0], Known())

    def trees_of(self, key: str, a: Any) -> dict[str, list[Stmt]]:
        """The statements of every .clank file of an analysis (real path → statements)."""
        k = self.known.setdefault(key, Known())
        if not k.trees:
            cache = self.caches.get(key)
            parse = cache.parse if cache is not None else parser().parse
            for real, text in a.files.items():
                if real.endswith(".clank"):
                    k.trees[real] = parse(text, a.shown.get(real, real))[0]
        return k.trees

    def index_of(self, uri: str) -> Index | None:
        """The index of names of the document's pack (built once per analysis)."""
        got = self.known_of(uri)
        key = self.key_of(uri)
        if got is None or key is None:
            return None
        a, k = got
        if k.index is None:
            _a, ir = self.analysis_of(uri)
            k.index = build(ir, self.trees_of(key[0], a))
        return k.index

    def forget_known(self, key: str) -> None:
        """A new analysis of ``key``: what was worked out from the last one is stale."""
        self.known.pop(key, None)

    # -- names under the cursor --------------------------------------------------------------

    def uses_at(self, uri: str, line: int, col: int, real: str) -> list[Use]:
        index = self.index_of(uri)
        return index.at(real, line, col) if index is not None else []

    def hover_name(self, uri: str, line: int, col: int, real: str) -> str | None:
        """Markdown for a name under the cursor (None when there is none, or it is one of
        the game's own resources, whose effect's documentation says more)."""
        index = self.index_of(uri)
        if index is None:
            return None
        for use in index.at(real, line, col):
            if use.symbol.kind == "resource" and use.symbol not in index.declared:
                continue
            text = symbol_text(index, use.symbol)
            if text is not None:
                return text
        return None

    def locations(self, uses: list[Use]) -> list[lsp.Location]:
        codec = self.workspace.position_codec
        out = []
        for u in uses:
            text = self._text_at(u.real)
            out.append(lsp.Location(self.uri_of(u.real), to_range(u.span, text, codec)))
        return out

    def _text_at(self, real: str) -> str:
        for a in self.analyses.values():
            if real in a.files:
                return str(a.files[real])
        return ""

    def definition_of(self, uri: str, line: int, col: int, real: str) -> list[lsp.Location]:
        index = self.index_of(uri)
        if index is None:
            return []
        decls = [
            d for u in index.at(real, line, col) for d in index.by_symbol[u.symbol] if d.declares
        ]
        return self.locations(decls)

    def references_of(
        self, uri: str, line: int, col: int, real: str, declaration: bool
    ) -> list[lsp.Location]:
        self.fresh(uri)
        index = self.index_of(uri)
        if index is None:
            return []
        found: list[Use] = []
        for u in index.at(real, line, col):
            found += [x for x in index.by_symbol[u.symbol] if declaration or not x.declares]
        unique = {(x.real, x.span): x for x in found}
        return self.locations(sorted(unique.values(), key=lambda x: (x.real, x.span)))

    # -- rename --------------------------------------------------------------------------------

    def rename_target(self, uri: str, line: int, col: int, real: str) -> tuple[Use, str] | str:
        """The use under the cursor and the symbol's name, or why it cannot be renamed."""
        uses = self.uses_at(uri, line, col, real)
        if not uses:
            return "there is no card, token, space, feature, resource or way name here"
        kinds = {u.symbol for u in uses}
        if len(kinds) > 1:
            what = " and ".join(f"a {s.kind}" for s in sorted(kinds))
            return f"this name is both {what}: rename refused as ambiguous"
        return uses[0], uses[0].symbol.name

    def rename_edits(
        self, uri: str, line: int, col: int, real: str, new: str
    ) -> lsp.WorkspaceEdit | str:
        """The edit renaming the name under the cursor to ``new`` everywhere, or why not."""
        self.fresh(uri)  # the edits are made on the text the client has now
        target = self.rename_target(uri, line, col, real)
        if isinstance(target, str):
            return target
        use = target[0]
        index = self.index_of(uri)
        key = self.key_of(uri)
        assert index is not None and key is not None
        a, _ir = self.analysis_of(uri)
        root = str(a.root) if a is not None and a.root is not None else None
        editable = {
            r for r in a.files if root is None or _inside(r, os.path.realpath(root))
        }  # the pack's own files (not its bases')
        problem = rename_problem(index, use.symbol, new, editable)
        if problem is not None:
            return problem
        texts: dict[str, str] = {}
        edits: dict[str, list[Edit]] = {}
        for u in index.by_symbol[use.symbol]:
            texts.setdefault(u.real, self._text_at(u.real))
            edits.setdefault(u.real, []).append(Edit(u.real, u.span, new_text(u, new, KEYWORDS)))
        if a is not None and a.root is not None:
            problem = self._rename_breaks(a, key[0], texts, edits)
            if problem is not None:
                return problem
        return self.workspace_edit([e for es in edits.values() for e in es])

    def _rename_breaks(
        self, a: Any, key: str, texts: dict[str, str], edits: dict[str, list[Edit]]
    ) -> str | None:
        """Why the renamed pack would be worse (an error the analysis ``a`` does not have),
        or None: the pack is checked with the renamed texts in place of its files."""
        real_root = os.path.realpath(a.root)
        docs = self.open_docs()
        renamed = {r: apply_edits(texts[r], es) for r, es in edits.items()}
        before = {
            Path(os.path.relpath(p, real_root)).as_posix(): t
            for p, t in docs.items()
            if _inside(p, real_root)
        }
        after = dict(before)
        for r, t in renamed.items():
            after[Path(os.path.relpath(r, real_root)).as_posix()] = t
        old = [*a.unplaced, *(d for ds in a.diagnostics.values() for d in ds)]
        new = compile_and_check(Path(a.root), after, self.caches.get(key)).diagnostics
        counts: dict[str, int] = {}
        for d in old:
            if d.severity == "error":
                counts[d.code] = counts.get(d.code, 0) + 1
        for d in new:
            if d.severity != "error":
                continue
            counts[d.code] = counts.get(d.code, 0) - 1
            if counts[d.code] < 0:
                return f"the rename would add an error ({d.code}): {d.message}"
        return None

    def workspace_edit(self, edits: list[Edit]) -> lsp.WorkspaceEdit:
        codec = self.workspace.position_codec
        changes: dict[str, list[lsp.TextEdit]] = {}
        for e in edits:
            text = self._text_at(e.real) or (self.text_of(self.uri_of(e.real)) or ("", ""))[0]
            changes.setdefault(self.uri_of(e.real), []).append(
                lsp.TextEdit(to_range(e.span, text, codec), e.text)
            )
        return lsp.WorkspaceEdit(changes=changes)

    # -- outline -------------------------------------------------------------------------------

    def outline(self, uri: str) -> list[lsp.DocumentSymbol]:
        got = self.text_of(uri)
        if got is None:
            return []
        text, real = got
        stmts, _diags = parser().parse(text, real)
        codec = self.workspace.position_codec
        return [s for st in stmts if (s := _symbol(st, text, codec, top=True)) is not None]

    # -- completion ----------------------------------------------------------------------------

    def complete_at(self, uri: str, pos: lsp.Position, snippets: bool) -> list[lsp.CompletionItem]:
        got = self.text_of(uri)
        if got is None:
            return []
        text, real = got
        lines = text.split("\n")
        if pos.line >= len(lines):
            return []
        col = self.workspace.position_codec.position_from_client_units(lines, pos).character
        names = self.names_of(uri)
        scenario_file = Path(real).parent.name == "scenarios"
        items = complete(text, pos.line, col, names, scenario_file, snippets)
        codec = self.workspace.position_codec
        for item in items:  # columns in the client's units (UTF-16 by default)
            edit = item.text_edit
            if isinstance(edit, lsp.TextEdit):
                edit.range = _client_range(edit.range, lines, codec)
        return items

    def names_of(self, uri: str) -> Names:
        got = self.known_of(uri)
        if got is None:
            return pack_names(None, bundled_names())
        _a, k = got
        if k.names is None:
            _a2, ir = self.analysis_of(uri)
            k.names = pack_names(ir, bundled_names(), card_text)
        return k.names

    # -- quick fixes -----------------------------------------------------------------------------

    def code_actions(self, uri: str, wanted: list[lsp.Diagnostic]) -> list[lsp.CodeAction]:
        got = self.text_of(uri)
        a, _ir = self.analysis_of(uri)
        if got is None or a is None:
            return []
        text, real = got
        codec = self.workspace.position_codec
        ours = a.diagnostics.get(real, [])
        out = []
        for want in wanted:
            for d in ours:
                if d.code != want.code or d.span is None:
                    continue
                if to_range(d.span, text, codec) != want.range:
                    continue
                for fix in fixes(d, real, text, lambda a=a: self._manifest(a), self._bundled):
                    out.append(self._action(fix, want))
        return out

    def _action(self, fix: Fix, diag: lsp.Diagnostic) -> lsp.CodeAction:
        return lsp.CodeAction(
            title=fix.title,
            kind=lsp.CodeActionKind.QuickFix,
            diagnostics=[diag],
            is_preferred=fix.preferred or None,
            edit=self.workspace_edit(list(fix.edits)),
        )

    def _manifest(self, a: Any) -> tuple[str, str] | None:
        if a.root is None:
            return None
        real = os.path.join(os.path.realpath(a.root), MANIFEST)
        if real in a.files:
            return real, a.files[real]
        got = self.text_of(Path(real).as_uri())
        return (real, got[0]) if got else None

    def _bundled(self) -> Mapping[str, list[str]]:
        if self._bundled_texts is None:
            self._bundled_texts = {
                name: [p.read_text(encoding="utf-8") for p in bundled_pack(name).glob("*.clank")]
                for name in bundled_names()
            }
        return self._bundled_texts


def _inside(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:
        return False


def _position(lines: list[str], line: int, col: int, codec: PositionCodec) -> lsp.Position:
    i = max(line - 1, 0)
    text = lines[i] if i < len(lines) else ""
    prefix = text[: max(col - 1, 0)]
    beyond = max(col - 1 - len(text), 0)
    return lsp.Position(i, codec.client_num_units(prefix) + beyond)


def to_range(span: Span, text: str, codec: PositionCodec) -> lsp.Range:
    """The LSP range of ``span`` in a file holding ``text``."""
    lines = text.split("\n")
    return lsp.Range(
        _position(lines, span.line, span.col, codec),
        _position(lines, span.end_line, span.end_col, codec),
    )


def _client_range(r: lsp.Range, lines: list[str], codec: PositionCodec) -> lsp.Range:
    """A range in characters made one in the client's units."""

    def conv(p: lsp.Position) -> lsp.Position:
        row = lines[p.line] if p.line < len(lines) else ""
        return lsp.Position(p.line, codec.client_num_units(row[: p.character]))

    return lsp.Range(conv(r.start), conv(r.end))


def _symbol(st: Stmt, text: str, codec: PositionCodec, top: bool) -> lsp.DocumentSymbol | None:
    """The outline entry of a statement that declares something (and of its block's)."""
    words = st.words
    kind = _SYMBOL_KINDS.get(words[0]) if words else None
    if kind is None and not (top and words and words[0] in ("replace", "change", "remove")):
        return None
    if words[0] in ("path", "dead", "on") or words[0] in ("replace", "change", "remove"):
        name = st.head_text()
        selection = st.head[0].span
    elif len(st.head) >= 2:
        name = st.head[1].text
        selection = st.head[1].span
    else:
        name = words[0]
        selection = st.head[0].span
    children = []
    if st.block and words[0] in _OUTLINED_INSIDE:
        children = [c for s in st.block if (c := _symbol(s, text, codec, top=False)) is not None]
    return lsp.DocumentSymbol(
        name=name or words[0],
        detail=words[0],
        kind=kind or lsp.SymbolKind.Object,
        range=to_range(st.span, text, codec),
        selection_range=to_range(selection, text, codec),
        children=children or None,
    )

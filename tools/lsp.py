"""`clankwork lsp`: a language server for .clank files over stdio (on pygls).

A change to a .clank file recompiles the whole pack it belongs to once the editor has been
quiet for a moment (`--debounce`), with the editor's unsaved buffers read in place of the
files on disk (through `PackReader`, so containment and size rules hold), runs the checks of
`clankwork check`, and publishes the diagnostics of every file of the pack. An analysis keeps
what the next one may use again (`check_cache`): an edit re-parses the statements it changed
and re-checks what depends on its file. Completion (by context), hover, definition,
references, rename, the outline and quick fixes read the op registry, the pack's last
compiled IR and its statements (`lsp_features`).

Messages are read by `lsp_framing.MessageReader` (bounded, resynchronised after a bad header)
instead of pygls's reader; which files may be read from disk is `lsp_files`'s to say.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
import time
import traceback
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import click
from lsprotocol import types as lsp
from pygls import uris
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.workspace import PositionCodec, TextDocument

from clankwork.dsl.compiler import MANIFEST, compile_text, parser
from clankwork.dsl.diagnostics import Diagnostic
from clankwork.dsl.formatter import format_source
from clankwork.interpreter.effects import CONDITIONS, COUNTS, EFFECTS

from .check import compile_and_check, no_cycle_collection
from .check_cache import CheckCache
from .lsp_complete import record_doc
from .lsp_features import Known, NameFeatures, to_range
from .lsp_files import inside, may_read, read_clank, too_large
from .lsp_stdio import FdReader, serve

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_']*(\.[A-Za-z_][A-Za-z0-9_']*)*")
_WORD_AT = re.compile(r"[A-Za-z0-9_'.+\-!]+")
# A pack folder is at most this many folders above a file: a file in scenarios/ belongs to
# the pack above, and no pack nests deeper than this in practice.
_MAX_PACK_DEPTH = 32

_SEVERITY = {
    "error": lsp.DiagnosticSeverity.Error,
    "warning": lsp.DiagnosticSeverity.Warning,
    "info": lsp.DiagnosticSeverity.Information,
}
_NODE_KEYS = {"op": EFFECTS, "cond": CONDITIONS, "count": COUNTS}

DEFAULT_DELAY = 0.2
"""Seconds without a change before a pack is analysed again (`clankwork lsp --debounce`)."""


def find_pack(path: Path) -> Path | None:
    """The folder holding the pack.clank that ``path`` belongs to (the nearest one above it),
    or None for a file outside any pack."""
    folder = path.parent
    for _ in range(_MAX_PACK_DEPTH):
        if (folder / MANIFEST).is_file():
            return folder
        if folder.parent == folder:
            return None
        folder = folder.parent
    return None


def quoted(name: str) -> str:
    """``name`` as the language spells it: bare when it is one NAME, else in quotes."""
    if _NAME.fullmatch(name):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _local(path: str) -> str:
    """A file's path with its folders' links resolved but not the file's own: a link in the
    pack stays in the pack, where `PackReader` refuses it if it leads out (CW005)."""
    head, tail = os.path.split(os.path.abspath(path))
    return os.path.join(os.path.realpath(head), tail)


def _real(shown: str) -> str:
    """The path of a file as a diagnostic shows it (relative to the working folder)."""
    return _local(os.path.join(os.getcwd(), shown))


@dataclass
class Analysis:
    """One compile of a pack (or a lone file): its IR and diagnostics by real file path."""

    root: Path | None
    ir: dict[str, Any] | None
    files: dict[str, str] = field(default_factory=dict)
    diagnostics: dict[str, list[Diagnostic]] = field(default_factory=dict)
    unplaced: list[Diagnostic] = field(default_factory=list)
    shown: dict[str, str] = field(default_factory=dict)  # real path → the name compiled


def analyse(path: Path, open_docs: Mapping[str, str], cache: CheckCache | None = None) -> Analysis:
    """Compile what ``path`` (see `_local`) belongs to, with ``open_docs`` (real path → text)
    overriding the files on disk, and run the checks of `clankwork check`; ``cache`` is
    what the last analysis of the same pack kept (`tools.check_cache`)."""
    root = find_pack(path)
    if root is None:
        return _analyse_lone(path, open_docs.get(str(path)))
    real_root = os.path.realpath(root)
    overrides = {
        Path(os.path.relpath(p, real_root)).as_posix(): t
        for p, t in open_docs.items()
        if inside(p, real_root)
    }
    result = compile_and_check(root, overrides, cache)
    out = Analysis(root, result.ir, {_real(n): t for n, t in result.sources.items()})
    out.shown = {_real(n): n for n in result.sources}
    _place(out, result.diagnostics)
    if str(path) not in out.files:
        # Not included by pack.clank (nor a scenario): its syntax is all that can be checked
        # without false alarms about names the pack declares elsewhere.
        text = open_docs.get(str(path))
        if text is not None:
            out.files[str(path)] = text
            big = too_large(text, str(path))
            _place(out, [big] if big else parser().parse(text, str(path))[1])
    return out


def _analyse_lone(path: Path, text: str | None) -> Analysis:
    """Compile a file outside any pack on its own: the editor's ``text``, or when it is not
    open the file on disk (the caller has checked that it may be read)."""
    if text is None:
        text, diags = read_clank(str(path))
        if text is None:
            out = Analysis(None, None, {str(path): ""})
            _place(out, diags)
            return out
    out = Analysis(None, None, {str(path): text})
    big = too_large(text, str(path))
    if big is not None:
        _place(out, [big])
        return out
    result = compile_text(text, str(path))
    out.ir = result.ir
    _place(out, result.diagnostics)
    return out


def _place(out: Analysis, diags: list[Diagnostic]) -> None:
    for d in diags:
        if d.span is None:
            out.unplaced.append(d)
        else:
            out.diagnostics.setdefault(_real(d.span.file), []).append(d)


class ClankServer(NameFeatures, LanguageServer):
    """The Clankwork language server: one analysis per pack, run once the editor has been
    quiet for ``delay`` seconds after a change."""

    def __init__(self, delay: float = DEFAULT_DELAY) -> None:
        super().__init__("clankwork", metadata.version("clankwork"))
        self.delay = delay
        self.analyses: dict[str, Analysis] = {}
        self.good_ir: dict[str, dict[str, Any]] = {}  # the last IR of each pack, for names
        self.published: dict[str, set[str]] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}  # analysis key → its timer
        self.caches: dict[str, CheckCache] = {}  # what each pack's last analysis kept
        self.known: dict[str, Known] = {}  # what features worked out from the last analysis
        self._bundled_texts: dict[str, list[str]] | None = None

    # -- documents ------------------------------------------------------------------------

    def open_doc(self, uri: str) -> TextDocument | None:
        """The document the client opened at ``uri`` (None when it has not)."""
        return self.workspace.text_documents.get(unquote(uri))

    def open_docs(self) -> dict[str, str]:
        """Real path → text of every open .clank document."""
        out = {}
        for uri, doc in list(self.workspace.text_documents.items()):
            path = uris.to_fs_path(uri)
            if path and path.endswith(".clank"):
                out[_local(path)] = doc.source
        return out

    def roots(self) -> list[str]:
        """The folders whose .clank files may be read from disk: the workspace folders the
        client named, and the pack folder of every document it has open."""
        named = [self.workspace.root_path] if self.workspace.root_path else []
        named += [uris.to_fs_path(f.uri) for f in self.workspace.folders.values()]
        packs = [find_pack(Path(p)) for p in self.open_docs()]
        return [str(r) for r in [*named, *packs] if r]

    def allowed(self, uri: str) -> bool:
        """True when the server may look at the document at ``uri``: the client opened it,
        or it is a .clank file of the workspace (see `lsp_files`)."""
        if self.open_doc(uri) is not None:
            return True
        path = uris.to_fs_path(uri)
        return bool(path) and may_read(path, self.roots())

    def text_of(self, uri: str) -> tuple[str, str] | None:
        """(text, real path) of a document: the client's buffer when it is open, else the
        file on disk when `readable`; None when refused or unreadable."""
        path = uris.to_fs_path(uri)
        if not path:
            return None
        doc = self.open_doc(uri)
        if doc is not None:
            return doc.source, _local(path)
        if not self.allowed(uri):
            self.report(
                f"refused {uri}: it is neither open in the editor nor a .clank file of the "
                "workspace, so it is not read"
            )
            return None
        text, _diags = read_clank(path)
        return (text, _local(path)) if text is not None else None

    def report(self, problem: str) -> None:
        """Tell the user about input the server refused: a line on stderr, and the editor's
        log (where it shows the server's messages)."""
        click.echo(f"clankwork lsp: {problem}", err=True)
        self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Warning, problem))

    def uri_of(self, real: str) -> str:
        """The URI the editor uses for a real path (its own when the file is open)."""
        for uri in self.workspace.text_documents:
            path = uris.to_fs_path(uri)
            if path and _local(path) == real:
                return uri
        return uris.from_fs_path(real) or real

    def key_of(self, uri: str) -> tuple[str, Path] | None:
        """The analysis key (pack folder or lone file) and real path of a document."""
        path = uris.to_fs_path(uri)
        if not path:
            return None
        real = Path(_local(path))
        root = find_pack(real)
        return (os.path.realpath(root) if root else str(real)), real

    def analysis_of(self, uri: str) -> tuple[Analysis | None, dict[str, Any] | None]:
        """The last analysis of a document's pack, and the last IR that compiled."""
        key = self.key_of(uri)
        if key is None:
            return None, None
        if key[0] not in self.analyses:
            self.refresh(uri)
        a = self.analyses.get(key[0])
        ir = a.ir if a and a.ir is not None else self.good_ir.get(key[0])
        return a, ir

    def fresh(self, uri: str) -> None:
        """Analyse the pack of ``uri`` now when its last analysis is not of the text the
        editor has (a change is waiting for its analysis): for requests that edit it."""
        key = self.key_of(uri)
        if key is None:
            return
        a = self.analyses.get(key[0])
        stale = key[0] in self.pending or a is None
        if not stale:
            stale = any(a.files.get(real, text) != text for real, text in self.open_docs().items())
        if stale:
            self.refresh(uri)

    def schedule(self, uri: str) -> None:
        """Refresh the pack of ``uri`` once no change has come for ``delay`` seconds: a
        burst of typing costs one analysis, of the newest text."""
        key = self.key_of(uri)
        if key is None:
            return
        self.cancel(key[0])
        loop = asyncio.get_running_loop()
        self.pending[key[0]] = loop.call_later(self.delay, self.refresh, uri)

    def cancel(self, key: str) -> None:
        """Drop the pending analysis of ``key`` (a pack folder or a lone file)."""
        timer = self.pending.pop(key, None)
        if timer is not None:
            timer.cancel()

    def refresh(self, uri: str) -> None:
        """Recompile the pack of ``uri`` now and publish diagnostics for every file of it."""
        key = self.key_of(uri)
        if key is None:
            return
        self.cancel(key[0])
        if not key[1].name.endswith(".clank") or not self.allowed(uri):
            return
        # The cycle collector waits until the diagnostics are sent: after compiling a big
        # pack its first pass walks every object the caches keep (0.1 s for 2,000 cards),
        # time the editor would otherwise wait for them.
        with no_cycle_collection():
            self._refresh(key, uri)

    def _refresh(self, key: tuple[str, Path], uri: str) -> None:
        started = time.perf_counter()
        try:
            cache = self.caches.setdefault(key[0], CheckCache())
            a = analyse(key[1], self.open_docs(), cache)
        except Exception:  # a bug in a check must not take the editor's server down
            self.window_log_message(
                lsp.LogMessageParams(lsp.MessageType.Error, traceback.format_exc())
            )
            return
        # One line per analysis in the editor's log: how often and how long it compiles.
        self.window_log_message(
            lsp.LogMessageParams(
                lsp.MessageType.Log,
                f"analysed {key[0]} in {time.perf_counter() - started:.2f} s",
            )
        )
        self.analyses[key[0]] = a
        self.forget_known(key[0])
        if a.ir is not None:
            self.good_ir[key[0]] = a.ir
        self.publish(key[0], uri, a)

    def publish(self, key: str, uri: str, a: Analysis) -> None:
        """Publish the diagnostics of analysis ``a`` of ``key``, for every file of it, and
        clear the files it published before and no longer has."""
        codec = self.workspace.position_codec
        now: dict[str, list[lsp.Diagnostic]] = {self.uri_of(f): [] for f in a.files}
        for real, diags in a.diagnostics.items():
            text = a.files.get(real, "")
            now.setdefault(self.uri_of(real), []).extend(
                self.convert(d, text, codec, a) for d in diags
            )
        for d in a.unplaced:
            now.setdefault(uri, []).append(self.convert(d, "", codec, a))
        for gone in self.published.get(key, set()) - set(now):
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(gone, []))
        for target, diags in now.items():
            # The version of an open buffer, so the editor drops results for older text.
            doc = self.workspace.text_documents.get(target)
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(target, diags, doc.version if doc else None)
            )
        self.published[key] = set(now)

    def convert(
        self, d: Diagnostic, text: str, codec: PositionCodec, a: Analysis
    ) -> lsp.Diagnostic:
        """An LSP diagnostic: same code, range, severity and message; the hint appended as
        `help:` and the notes as related information."""
        where = to_range(d.span, text, codec) if d.span else lsp.Range(_zero(), _zero())
        message = d.message + (f"\nhelp: {d.hint}" if d.hint else "")
        related = [
            lsp.DiagnosticRelatedInformation(
                lsp.Location(
                    self.uri_of(_real(s.file)), to_range(s, a.files.get(_real(s.file), ""), codec)
                ),
                note,
            )
            for note, s in d.notes
        ]
        return lsp.Diagnostic(
            range=where,
            message=message,
            severity=_SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Error),
            code=d.code,
            source="clankwork",
            related_information=related or None,
        )

    def snippets(self) -> bool:
        """True when the client takes snippets in completion items."""
        doc = self.client_capabilities.text_document
        item = doc.completion.completion_item if doc and doc.completion else None
        return bool(item and item.snippet_support)

    # -- positions ------------------------------------------------------------------------

    def at_cursor(self, uri: str, pos: lsp.Position) -> tuple[str, int, int, str] | None:
        """(line text, 1-based line, 1-based column in characters, real path) at ``pos``;
        None past the end or when the document may not be read."""
        got = self.text_of(uri)
        if got is None:
            return None
        lines = got[0].split("\n")
        if pos.line >= len(lines):
            return None
        where = self.workspace.position_codec.position_from_client_units(lines, pos)
        return lines[pos.line], pos.line + 1, where.character + 1, got[1]


def _zero() -> lsp.Position:
    return lsp.Position(0, 0)


def word_at(line: str, col: int) -> str | None:
    """The name under column ``col`` (1-based): a quoted string's text, or a bare word."""
    i = col - 1
    # A quoted name: the quotes before the cursor are paired up from the line's start.
    start = None
    j = 0
    while j < len(line):
        c = line[j]
        if c == "#" and start is None:
            break
        if c == "\\" and start is not None:
            j += 2
            continue
        if c == '"':
            if start is None:
                start = j
            else:
                if start <= i <= j:
                    return line[start + 1 : j].replace('\\"', '"').replace("\\\\", "\\")
                start = None
        j += 1
    for m in _WORD_AT.finditer(line):
        if m.start() <= i <= m.end() and m.end() > m.start():
            return m.group()
    return None


def _contains(at: Mapping[str, Any], line: int, col: int) -> bool:
    start = (at["line"], at["col"])
    end = (at["end_line"], at["end_col"])
    return start <= (line, col) <= end


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every dict in an IR subtree."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            yield n
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)


def node_at(ir: dict[str, Any], real: str, line: int, col: int) -> dict[str, Any] | None:
    """The smallest effect, condition or count node of ``ir`` whose span holds the position."""
    best: dict[str, Any] | None = None
    best_size: tuple[int, int] | None = None
    for n in _walk(ir):
        at = n.get("at")
        if not isinstance(at, dict) or not any(k in n for k in _NODE_KEYS):
            continue
        if not _contains(at, line, col) or _real(at["file"]) != real:
            continue
        size = (at["end_line"] - at["line"], at["end_col"] - at["col"])
        if best_size is None or size < best_size:
            best, best_size = n, size
    return best


def _lead(pattern: str) -> str:
    """The literal words a phrase pattern starts with (`draw {n:int}` → `draw`)."""
    out = []
    for part in pattern.split():
        if part.startswith(("{", "[")):
            break
        out.append(part.split("|")[0])
    return " ".join(out)


def hover_text(
    ir: dict[str, Any] | None, real: str, line_text: str, line: int, col: int
) -> str | None:
    """Markdown for a hover on an effect: the registry's docs and the card text (a name
    under the cursor is `NameFeatures.hover_name`'s)."""
    if ir is not None:
        node = node_at(ir, real, line, col)
        if node is not None:
            key = next(k for k in _NODE_KEYS if k in node)
            record = next((r for r in _NODE_KEYS[key] if r.name == node[key]), None)
            if record is not None:
                try:
                    shown = record.render(node)
                except Exception:  # a half-compiled node; the docs still help
                    shown = None
                return record_doc(record) + (f"\n\nCard text: **{shown}**" if shown else "")
    word = word_at(line_text, col)
    if word is None:
        return None
    docs = [
        record_doc(r)
        for reg in (EFFECTS, CONDITIONS, COUNTS)
        for r in reg
        if not r.structural and any(_lead(p).split()[:1] == [word.lower()] for p in r.phrases)
    ]
    return "\n\n---\n\n".join(docs) if docs else None


class Refused(JsonRpcException):
    """A request the server answers with why it will not do it (the protocol's
    RequestFailed): a rename that would clash, a name the game gives."""

    CODE = -32803


def build_server(delay: float = DEFAULT_DELAY) -> ClankServer:
    """A server with every feature registered, analysing ``delay`` seconds after a change."""
    server = ClankServer(delay)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: ClankServer, params: lsp.DidOpenTextDocumentParams) -> None:
        # Debounced too: an editor restoring a session opens many files of one pack at once.
        ls.schedule(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: ClankServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: ClankServer, params: lsp.DidSaveTextDocumentParams) -> None:
        if ls.open_doc(params.text_document.uri) is not None:
            ls.refresh(params.text_document.uri)  # at once, in place of any pending one

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: ClankServer, params: lsp.DidCloseTextDocumentParams) -> None:
        # The file on disk counts again when the pack is still the workspace's; a lone
        # file's diagnostics, and a pack's that is no longer, go with the buffer.
        uri = params.text_document.uri
        key = ls.key_of(uri)
        if key is None:
            return
        if find_pack(key[1]) is not None and ls.allowed(uri):
            ls.schedule(uri)
            return
        ls.cancel(key[0])
        for gone in ls.published.pop(key[0], set()) | {uri}:
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(gone, []))
        ls.analyses.pop(key[0], None)
        ls.good_ir.pop(key[0], None)
        ls.caches.pop(key[0], None)
        ls.forget_known(key[0])

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: ClankServer, _params: None) -> None:
        for key in list(ls.pending):
            ls.cancel(key)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION)
    def completion(ls: ClankServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        if ls.at_cursor(params.text_document.uri, params.position) is None:
            return lsp.CompletionList(is_incomplete=False, items=[])
        items = ls.complete_at(params.text_document.uri, params.position, ls.snippets())
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: ClankServer, params: lsp.HoverParams) -> lsp.Hover | None:
        here = ls.at_cursor(params.text_document.uri, params.position)
        if here is None:
            return None
        uri = params.text_document.uri
        # A name first: `trash a Burgle` shows the card, not the effect around it.
        text = ls.hover_name(uri, here[1], here[2], here[3])
        if text is None:
            _a, ir = ls.analysis_of(uri)
            text = hover_text(ir, here[3], here[0], here[1], here[2])
        if text is None:
            return None
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: ClankServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        here = ls.at_cursor(params.text_document.uri, params.position)
        if here is None:
            return None
        return ls.definition_of(params.text_document.uri, here[1], here[2], here[3]) or None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(ls: ClankServer, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        here = ls.at_cursor(params.text_document.uri, params.position)
        if here is None:
            return None
        found = ls.references_of(
            params.text_document.uri,
            here[1],
            here[2],
            here[3],
            params.context.include_declaration,
        )
        return found or None

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(
        ls: ClankServer, params: lsp.PrepareRenameParams
    ) -> lsp.PrepareRenamePlaceholder | None:
        here = ls.at_cursor(params.text_document.uri, params.position)
        if here is None:
            return None
        target = ls.rename_target(params.text_document.uri, here[1], here[2], here[3])
        if isinstance(target, str):
            raise Refused(target)
        use, name = target
        text = ls.text_of(params.text_document.uri)
        codec = ls.workspace.position_codec
        return lsp.PrepareRenamePlaceholder(
            to_range(use.span, text[0] if text else "", codec), name
        )

    @server.feature(lsp.TEXT_DOCUMENT_RENAME)
    def rename(ls: ClankServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
        here = ls.at_cursor(params.text_document.uri, params.position)
        if here is None:
            return None
        got = ls.rename_edits(params.text_document.uri, here[1], here[2], here[3], params.new_name)
        if isinstance(got, str):
            # RequestFailed: the editor shows the message, nothing is changed.
            raise Refused(got)
        return got

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(
        ls: ClankServer, params: lsp.DocumentSymbolParams
    ) -> list[lsp.DocumentSymbol]:
        return ls.outline(params.text_document.uri)

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
    )
    def code_action(ls: ClankServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        return ls.code_actions(params.text_document.uri, params.context.diagnostics)

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(
        ls: ClankServer, params: lsp.DocumentFormattingParams
    ) -> list[lsp.TextEdit] | None:
        # `clankwork fmt`'s layout; a buffer that does not parse, or is past the file size
        # limit, is left alone (its diagnostics already say why).
        got = ls.text_of(params.text_document.uri)
        if got is None:
            return []
        source, real = got
        if too_large(source, real) is not None:
            return []
        formatted = format_source(source, real)
        if formatted is None or formatted == source:
            return []
        lines = source.split("\n")
        end = lsp.Position(len(lines) - 1, len(lines[-1].encode("utf-16-le")) // 2)
        return [lsp.TextEdit(lsp.Range(_zero(), end), formatted)]

    return server


def _not_refused(record: logging.LogRecord) -> bool:
    """A refused request is an answer, not a problem of the server's: not logged."""
    return not (record.exc_info and isinstance(record.exc_info[1], Refused))


class _OneLine(logging.Formatter):
    """pygls's log records as one line each: its tracebacks are for its developers, and the
    editor shows the server's stderr to users."""

    def format(self, record: logging.LogRecord) -> str:
        return f"clankwork lsp: {record.getMessage().splitlines()[0]}"


@click.command("lsp")
@click.option(
    "--debounce",
    type=click.IntRange(0, 3_600_000),
    default=int(DEFAULT_DELAY * 1000),
    show_default=True,
    metavar="MS",
    help="Milliseconds without a change before a pack is analysed again.",
)
def command(debounce: int) -> None:
    """Run the language server on stdin/stdout (for an editor to start)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    handler.addFilter(_not_refused)
    log = logging.getLogger("pygls")
    log.addHandler(handler)
    log.setLevel(logging.ERROR)
    log.propagate = False
    server = build_server(debounce / 1000)
    code = serve(server.protocol, FdReader(sys.stdin.fileno()), sys.stdout.buffer, server.report)
    sys.exit(code)

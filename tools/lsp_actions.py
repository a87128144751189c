"""Quick fixes for the diagnostics `clankwork check` reports, where the fix is clear:

- a did-you-mean: the word (or quoted name) nearest the suggestion, within the diagnostic's
  range, replaced by it; one fix per suggestion;
- a resource nobody declared (`+2 favour`, a way `paid in` one): `resource NAME { per turn }`
  added at the top of the file, before its first use;
- a path to a space its board lacks: `space NAME { }` added on the line before the path;
- `replace`, `remove` or `change` in a pack that extends none: `extends BASE` added to the
  pack block, when exactly one bundled pack declares what the statement names.

A fix is a list of edits of files (real path, 1-based span in characters, new text); the
server turns them into the protocol's code actions.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from clankwork.dsl.diagnostics import Diagnostic, Span
from clankwork.interpreter.effects.registry import RESOURCE_WORDS

from .lsp_index import NAME_RE

_SUGGESTED = re.compile(r'did you mean ((?:"[^"]*"(?: or )?)+)\?')
_QUOTED = re.compile(r'"([^"]*)"')
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_\'.!]*')
_GAIN = re.compile(r"^(?:[+-]\d+|(?:pay|spend|gain|make)\s+\d+)\s+(.+?)\s*$", re.IGNORECASE)
_PAID_IN = re.compile(r"is paid in `(.+?)`, which is no resource")
_EDIT = re.compile(r'^(replace|remove|change)\s+(\w+)\s+("(?:[^"\\]|\\.)*"|\S+)')


@dataclass(frozen=True)
class Edit:
    """Replace ``span`` (1-based, end exclusive; an empty span inserts) of the file at
    ``real`` with ``text``."""

    real: str
    span: Span
    text: str


@dataclass(frozen=True)
class Fix:
    """One quick fix: its title and its edits."""

    title: str
    edits: tuple[Edit, ...]
    preferred: bool = False


def apply_edits(text: str, edits: list[Edit]) -> str:
    """``text`` with ``edits`` made (spans do not overlap), last first."""
    lines = text.split("\n")
    offsets = [0]
    for row in lines:
        offsets.append(offsets[-1] + len(row) + 1)
    out = text
    for e in sorted(edits, key=lambda e: (e.span.line, e.span.col), reverse=True):
        start = offsets[e.span.line - 1] + e.span.col - 1
        end = offsets[e.span.end_line - 1] + e.span.end_col - 1
        out = out[:start] + e.text + out[end:]
    return out


def span_text(text: str, span: Span) -> str:
    """The source a span covers (spans on one line or several)."""
    lines = text.split("\n")
    if span.line == span.end_line:
        row = lines[span.line - 1] if span.line <= len(lines) else ""
        return row[span.col - 1 : span.end_col - 1]
    first = lines[span.line - 1][span.col - 1 :]
    middle = lines[span.line : span.end_line - 1]
    last = lines[span.end_line - 1][: span.end_col - 1] if span.end_line <= len(lines) else ""
    return "\n".join([first, *middle, last])


def _quote(name: str, was_quoted: bool) -> str:
    if was_quoted or not NAME_RE.fullmatch(name):
        return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return name


def did_you_mean(d: Diagnostic, real: str, text: str) -> Iterator[Fix]:
    """One fix per suggestion of the diagnostic's did-you-mean."""
    found = _SUGGESTED.search(d.hint or "") or _SUGGESTED.search(d.message)
    if found is None or d.span is None or d.span.line != d.span.end_line:
        return
    written = span_text(text, d.span)
    for n, suggestion in enumerate(_QUOTED.findall(found.group(1))):
        best: tuple[float, re.Match[str]] | None = None
        for m in _TOKEN.finditer(written):
            word = m.group()
            bare = word[1:-1] if word.startswith('"') else word
            if bare == suggestion:
                continue
            score = difflib.SequenceMatcher(None, bare.casefold(), suggestion.casefold()).ratio()
            if score >= 0.5 and (best is None or score > best[0]):
                best = (score, m)
        if best is None:
            continue
        m = best[1]
        col = d.span.col + m.start()
        span = Span(d.span.file, d.span.line, col, d.span.line, col + len(m.group()))
        new = _quote(suggestion, m.group().startswith('"'))
        yield Fix(f"Change {m.group()} to {new}", (Edit(real, span, new),), preferred=n == 0)


def declare_resource(d: Diagnostic, real: str, text: str) -> Iterator[Fix]:
    """`resource NAME { per turn }` at the top of the file, for a resource nobody declared."""
    if d.span is None:
        return
    name = None
    if d.code == "CW103":
        m = _GAIN.match(span_text(text, d.span))
        name = m.group(1).strip('"') if m else None
        meant = _SUGGESTED.search(d.hint or "")
        if meant and any(w in RESOURCE_WORDS for w in _QUOTED.findall(meant.group(1))):
            return  # a misspelt resource: the did-you-mean is the fix
    elif d.code == "CW126":
        m = _PAID_IN.search(d.message)
        name = m.group(1) if m else None
    if not name or name.casefold() in RESOURCE_WORDS or not name.strip():
        return
    written = _quote(name, False) if " " not in name else '"' + name + '"'
    line = f"resource {written} {{ per turn }}\n"
    where = Span(d.span.file, 1, 1, 1, 1)
    yield Fix(f"Declare the resource {written} (lost at the end of the turn)", (
        Edit(real, where, line),
    ))  # fmt: skip


def add_space(d: Diagnostic, real: str, text: str) -> Iterator[Fix]:
    """`space NAME { }` before a path to a space its board lacks."""
    if d.code != "CW107" or d.span is None or not d.message.startswith("path "):
        return
    if "no space of that name on board" not in d.message:
        return
    written = span_text(text, d.span).strip()
    if not written:
        return
    row = text.split("\n")[d.span.line - 1]
    indent = row[: len(row) - len(row.lstrip())]
    where = Span(d.span.file, d.span.line, 1, d.span.line, 1)
    yield Fix(
        f"Add space {written} to the board",
        (Edit(real, where, f"{indent}space {written} {{ }}\n"),),
        preferred=True,
    )


def add_extends(
    d: Diagnostic,
    real: str,
    text: str,
    manifest: tuple[str, str] | None,
    bundled: Mapping[str, list[str]],
) -> Iterator[Fix]:
    """`extends BASE` in the pack block, when one bundled pack has what an edit names.

    ``manifest`` is (real path, text) of the pack's pack.clank; ``bundled`` the texts of
    each bundled pack's files."""
    if d.code != "CW124" or d.span is None or manifest is None:
        return
    m = _EDIT.match(span_text(text, d.span))
    if m is None:
        return
    name = m.group(3)
    name = name[1:-1] if name.startswith('"') else name
    declared = re.compile(
        r"^\s*(?:card|monster|reserve|event|token|space|board|module)\s+(?:"
        + re.escape(name)
        + r'|"'
        + re.escape(name)
        + r'")\s*(?:\{|$)',
        re.MULTILINE,
    )
    bases = [pack for pack, texts in bundled.items() if any(declared.search(t) for t in texts)]
    if len(bases) != 1:
        return
    edit = _extends_edit(manifest[0], manifest[1], bases[0])
    if edit is not None:
        yield Fix(f"Add `extends {bases[0]}` to the pack block", (edit,), preferred=True)


def _extends_edit(real: str, text: str, base: str) -> Edit | None:
    """The edit that puts `extends BASE` in the pack block of ``text``."""
    lines = text.split("\n")
    for n, row in enumerate(lines, 1):
        if not re.match(r"\s*pack\b.*\{", row):
            continue
        close = row.rfind("}")
        if close > row.index("{"):  # a block on one line: `pack p { version "0.1" }`
            inner = row[row.index("{") + 1 : close].rstrip()
            sep = "; " if inner.strip() else " "
            at = row.index("{") + 1 + len(inner)
            new = f"{sep}extends {base}" + ("" if inner.strip() else "")
            return Edit(real, Span(real, n, at + 1, n, at + 1), new)
        indent = "  "
        if n < len(lines):
            nxt = lines[n]
            indent = nxt[: len(nxt) - len(nxt.lstrip())] or "  "
        return Edit(real, Span(real, n + 1, 1, n + 1, 1), f"{indent}extends {base}\n")
    return None


def fixes(
    d: Diagnostic,
    real: str,
    text: str,
    manifest: Callable[[], tuple[str, str] | None],
    bundled: Callable[[], Mapping[str, list[str]]],
) -> list[Fix]:
    """Every quick fix for ``d`` (a diagnostic of the file at ``real`` holding ``text``)."""
    out = [
        *did_you_mean(d, real, text),
        *declare_resource(d, real, text),
        *add_space(d, real, text),
    ]
    if d.code == "CW124":
        out += add_extends(d, real, text, manifest(), bundled())
    return out

"""Which files `clankwork lsp` reads from disk, and how: the workspace's `.clank` files only.

A client names files by URI and may name any file at all. The server reads one from disk only
when it is a `.clank` file whose real path (every link resolved, the file's own included) is
inside a workspace folder the client named or inside the pack folder of a document the client
has open; a file elsewhere, or a link in the workspace leading out of it, is refused without
being opened. A document the client opened is the client's own text and is never read from
disk. A file that may be read is read under the rules of `PackReader`: a regular file, within
the file size limit (CW006), UTF-8.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from clankwork.dsl.diagnostics import Diagnostic, Span
from clankwork.dsl.limits import MAX_FILE_BYTES
from clankwork.dsl.sources import PackReader, show_size


def inside(path: str, root: str) -> bool:
    """True when the absolute, normalised ``path`` is ``root`` or below it."""
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # different drives on Windows
        return False


def may_read(path: str, roots: Iterable[str]) -> bool:
    """True when the file at ``path`` is a `.clank` file inside one of ``roots`` once every
    link on the way (its own included) is resolved."""
    real = os.path.realpath(path)
    if not real.endswith(".clank"):
        return False
    return any(inside(real, os.path.realpath(root)) for root in roots)


def read_clank(path: str) -> tuple[str | None, list[Diagnostic]]:
    """The text of the file at ``path`` (one `may_read` allowed) and the diagnostics of
    reading it: None with CW004-CW006 when it is missing, not a regular file, a link out of
    its folder, too large or not UTF-8."""
    folder, name = os.path.split(path)
    with PackReader(folder, folder) as reader:
        rel = reader.resolve(name, None)
        text = reader.read(rel, name, None) if rel is not None else None
        return text, reader.diags


def too_large(text: str, shown: str) -> Diagnostic | None:
    """CW006, as `clankwork check` reports it, when an editor's buffer is larger than one
    file may be; None when it fits."""
    if len(text) * 4 <= MAX_FILE_BYTES:  # UTF-8 takes at most four bytes a character
        return None
    if len(text.encode("utf-8", "surrogatepass")) <= MAX_FILE_BYTES:
        return None
    return Diagnostic(
        "CW006",
        f"{shown} is larger than {show_size(MAX_FILE_BYTES)}, the limit for one file",
        Span(shown, 1, 1, 1, 2),
        hint="split it into several files joined with include lines",
    )

"""Reading LSP messages off a byte stream: `Content-Length` framing, bounded and resynchronised.

pygls's own reader allocates whatever a `Content-Length` asks for (one header of 99999999999999
bytes is a MemoryError) and, at a header it does not understand, waits for good. This reader
never holds more than one message within ``limit`` plus one chunk, and after anything that is
not a well-formed header it skips to the next one instead of stopping: a `Content-Length:`
line can only start a header, never sit inside a JSON body (a body's strings hold no raw line
ends, and outside its strings every name is quoted), so finding one is a safe place to start
again. Header lines may end with "\\r\\n", as the protocol says, or with a bare "\\n".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from clankwork.dsl.limits import MAX_FILE_BYTES
from clankwork.dsl.sources import show_size

MAX_MESSAGE_BYTES = 8 * MAX_FILE_BYTES
"""One message (32 MiB): room for a whole file within the file limit written as JSON with
every byte escaped (`\\u00XX`, six bytes a byte), and the rest of the message. A document
past the file limit but within this gets a CW006 diagnostic; a message past it is skipped
unread."""
MAX_HEADER_BYTES = 8 * 1024
"""One message's header lines together (a real one is about 80 bytes)."""

_CHUNK = 64 * 1024
# A header line anywhere in the stream: where reading starts again after bytes that were not
# a message. Case-sensitive, as every client spells it, so the search is a fast literal scan.
_HEADER = re.compile(rb"Content-Length:[ \t]*[0-9]+[ \t]*\r?\n")
_TAIL = 256  # bytes kept between chunks while searching, so a header split by a read is found
_FIELD = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*")
# The id of a request whose body is refused: looked for before the body's first nested
# object, where any "id" key is the message's own.
_ID = re.compile(rb'(?<!\\)"id"\s*:\s*(-?[0-9]{1,15}|"(?:[^"\\]|\\.){0,200}")')


class Readable(Protocol):
    """A binary stream that can return what is available without waiting for more."""

    def read1(self, size: int = -1, /) -> bytes: ...


@dataclass(frozen=True)
class Frame:
    """What the reader found next: a message's body, a problem with the bytes before or in
    it (for the log), or both; ``id`` is the id of a request that was refused unread, when
    it could be seen, so that it can be answered with an error."""

    body: bytes | None = None
    problem: str | None = None
    id: int | str | None = None


class MessageReader:
    """Frames of the LSP messages read from ``stream``, each body at most ``limit`` bytes."""

    def __init__(self, stream: Readable, limit: int = MAX_MESSAGE_BYTES) -> None:
        self.stream = stream
        self.limit = limit
        self._buf = bytearray()
        self._eof = False

    def _fill(self) -> bool:
        """Read what the stream has (waiting for at least a byte); False at its end."""
        if self._eof:
            return False
        chunk = self.stream.read1(_CHUNK)
        if not chunk:
            self._eof = True
            return False
        self._buf += chunk
        return True

    def next(self) -> Frame | None:
        """The next frame, or None when the stream has ended."""
        while True:
            header = self._header()
            if header is None:
                return None
            if isinstance(header, Frame):
                return header
            size, fields = header
            if not fields:  # a blank line between messages: nothing to say about it
                del self._buf[:size]
                continue
            # A bad header is searched from its second byte: a good one may be glued to
            # bytes before it ("garbageContent-Length: 5"), and its body is skipped too.
            length = fields.get(b"content-length")
            if length is None:
                return self._resync("a header without Content-Length", 1)
            if not re.fullmatch(rb"[0-9]+", length):
                return self._resync(f"a header with Content-Length {_show(length)}", 1)
            del self._buf[:size]
            n = int(length) if len(length) <= 15 else self.limit + 1
            if n > self.limit:
                return self._refuse(n)
            return self._body(n)

    def _header(self) -> tuple[int, dict[bytes, bytes]] | Frame | None:
        """(size, fields) of the header lines at the start of the buffer up to the blank
        line that ends them; a Frame when they are not header lines; None at the end."""
        while True:
            fields: dict[bytes, bytes] = {}
            pos = 0
            while (nl := self._buf.find(b"\n", pos, MAX_HEADER_BYTES)) >= 0:
                line = bytes(self._buf[pos:nl]).removesuffix(b"\r")
                pos = nl + 1
                if not line:
                    return pos, fields
                m = _FIELD.fullmatch(line)
                if m is None:
                    return self._resync("bytes that are not a header", 1)
                name = m.group(1).lower()
                if name in fields and fields[name] != m.group(2):
                    return self._resync(f"a header with two {name.decode()} fields", pos)
                fields[name] = m.group(2)
            if len(self._buf) >= MAX_HEADER_BYTES:
                return self._resync(f"a header longer than {show_size(MAX_HEADER_BYTES)}", 1)
            if not self._fill():
                if not self._buf:
                    return None
                self._buf.clear()
                return Frame(problem="the input ended inside a header")

    def _resync(self, what: str, start: int = 0) -> Frame:
        """Skip to the next header at or after ``start``; a Frame saying what was skipped."""
        skipped = 0
        while True:
            m = _HEADER.search(self._buf, start)
            if m is not None:
                skipped += m.start()
                del self._buf[: m.start()]
                return Frame(problem=f"{what}: skipped {_bytes(skipped)} to the next header")
            keep = min(len(self._buf), _TAIL)
            skipped += len(self._buf) - keep
            del self._buf[: len(self._buf) - keep]
            start = 0
            if not self._fill():
                skipped += len(self._buf)
                self._buf.clear()
                return Frame(problem=f"{what}: skipped {_bytes(skipped)} to the end of the input")

    def _refuse(self, n: int) -> Frame:
        """Skip a body of ``n`` bytes (past the limit) without keeping it; the id of its
        request from what is already read, if it shows."""
        head = bytes(self._buf[: min(len(self._buf), 4096)])
        m = _HEADER.search(head)
        if m is not None:
            head = head[: m.start()]
        rid = _request_id(head)
        what = f"a message of {n:,} bytes, more than the limit of {show_size(self.limit)}"
        left = n
        while True:
            # A header before the body's end means the length was wrong: start again there.
            m = _HEADER.search(self._buf, 0, min(left, len(self._buf)))
            if m is not None:
                del self._buf[: m.start()]
                return Frame(problem=f"{what} (it ended early; skipped to the next header)", id=rid)
            if left <= len(self._buf):
                del self._buf[:left]
                return Frame(problem=f"{what}: skipped", id=rid)
            drop = max(len(self._buf) - _TAIL, 0)
            del self._buf[:drop]
            left -= drop
            if not self._fill():
                self._buf.clear()
                return Frame(problem=f"{what}: the input ended inside it", id=rid)

    def _body(self, n: int) -> Frame:
        """The body of ``n`` bytes (within the limit). A header inside it means the length
        was too long for the message: the bytes before that header are the body."""
        searched = 0
        while True:
            m = _HEADER.search(self._buf, max(searched - _TAIL, 0), min(n, len(self._buf)))
            if m is not None:
                body = bytes(self._buf[: m.start()])
                del self._buf[: m.start()]
                return Frame(body, f"a message shorter than its Content-Length of {n:,}")
            if len(self._buf) >= n:
                body = bytes(self._buf[:n])
                del self._buf[:n]
                return Frame(body)
            searched = len(self._buf)
            if not self._fill():
                self._buf.clear()
                return Frame(problem="the input ended inside a message")


def _request_id(head: bytes) -> int | str | None:
    """The id of the request whose body starts with ``head``, if it shows before any nested
    object or array."""
    start = head.find(b"{")
    if start < 0:
        return None
    nested = re.search(rb"[{\[]", head[start + 1 :])
    top = head[start : start + 1 + nested.start()] if nested else head[start:]
    m = _ID.search(top)
    if m is None:
        return None
    raw = m.group(1)
    if raw.startswith(b'"'):
        return raw[1:-1].decode("utf-8", "replace")
    return int(raw)


def _show(value: bytes) -> str:
    """A header value as a log line can show it."""
    text = value[:40].decode("ascii", "backslashreplace")
    return repr(text + ("..." if len(value) > 40 else ""))


def _bytes(n: int) -> str:
    return f"{n:,} byte{'s' if n != 1 else ''}"

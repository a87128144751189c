"""`MessageReader`: framing of LSP messages, bounded, and resynchronised after bad input."""

from __future__ import annotations

import io
import json
import tracemalloc

import pytest

from clankwork.tools.lsp_framing import MessageReader

GOOD = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize"}).encode()


def _framed(body: bytes, end: bytes = b"\r\n") -> bytes:
    return b"Content-Length: %d" % len(body) + end + end + body


def _frames(data: bytes, limit: int = 1000) -> list[tuple[bytes | None, str | None, object]]:
    reader = MessageReader(io.BytesIO(data), limit)
    out = []
    while (frame := reader.next()) is not None:
        out.append((frame.body, frame.problem, frame.id))
    return out


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        (b"Content-Length: 99999999999999\r\n\r\n{}", "more than the limit of 1,000 bytes"),
        (b"Content-Type: text/json\r\n\r\n{}", "a header without Content-Length"),
        (b"Content-Length: abc\r\n\r\n{}", "Content-Length 'abc'"),
        (b"Content-Length: -5\r\n\r\n{}", "Content-Length '-5'"),
        (b"Content-Length: \r\n\r\n{}", "Content-Length ''"),
        (b"hello\r\n", "bytes that are not a header"),
        (b"{}garbage without a line end", "bytes that are not a header"),
        (b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "two content-length fields"),
        (b"X" * 9000 + b"\r\n", "a header longer than 8 KiB"),
    ],
)
def test_bad_input_is_skipped_to_the_next_header(bad: bytes, problem: str) -> None:
    frames = _frames(bad + _framed(GOOD) + _framed(GOOD))
    assert frames[-2:] == [(GOOD, None, None), (GOOD, None, None)]
    assert len(frames) == 3 and frames[0][0] is None and problem in (frames[0][1] or "")


def test_line_ends_may_be_bare_lf_and_blank_lines_are_ignored() -> None:
    data = _framed(GOOD, b"\n") + b"\r\n" + _framed(GOOD)
    assert _frames(data) == [(GOOD, None, None), (GOOD, None, None)]


def test_an_oversize_message_is_skipped_whole_and_its_request_answered() -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "x", "params": {"id": 8}}).encode()
    big = body[:-1] + b', "pad": "' + b"y" * 5000 + b'"}'
    frames = _frames(_framed(big) + _framed(GOOD))
    assert frames == [
        (None, "a message of 5,074 bytes, more than the limit of 1,000 bytes: skipped", 7),
        (GOOD, None, None),
    ]


def test_a_length_longer_than_the_message_finds_the_next_header() -> None:
    frames = _frames(b"Content-Length: 500\r\n\r\n" + GOOD + _framed(GOOD))
    assert frames == [
        (GOOD, "a message shorter than its Content-Length of 500", None),
        (GOOD, None, None),
    ]


def test_the_end_of_the_input_inside_a_message_is_reported() -> None:
    assert _frames(b"Content-Length: 50\r\n\r\n{") == [
        (None, "the input ended inside a message", None)
    ]
    assert _frames(b"Content-Len") == [(None, "the input ended inside a header", None)]


class _Endless(io.RawIOBase):
    """A header announcing ``size`` bytes, then that many bytes made up as they are read."""

    def __init__(self, size: int) -> None:
        self.head = b"Content-Length: %d\r\n\r\n" % size
        self.left = size

    def readable(self) -> bool:
        return True

    def read1(self, n: int = -1) -> bytes:
        if self.head:
            out, self.head = self.head, b""
            return out
        got = min(n, self.left)
        self.left -= got
        return b"x" * got


def test_an_oversize_body_is_never_held_in_memory() -> None:
    stream = _Endless(64 << 20)
    reader = MessageReader(stream, limit=1 << 20)
    tracemalloc.start()
    try:
        frame = reader.next()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert frame is not None and frame.problem and "skipped" in frame.problem
    assert stream.left == 0 and reader.next() is None
    assert peak < 4 << 20  # a few chunks, not the 64 MiB body

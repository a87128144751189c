"""Running a pygls server on stdin and stdout with `MessageReader` in place of pygls's reader.

What the reader cannot frame, and a message that is not a JSON-RPC one, is reported through
``report`` (a line on stderr and the editor's log) and answered with the protocol's error when
it holds an id to answer (-32700 for a message refused unread, -32600 or -32602 for one that is
not a valid request); the server goes on with the next message. The end of the input, an
`exit` notification and a client that stopped reading end the server without a traceback.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest, JsonRpcParseError
from pygls.io_ import StdoutWriter
from pygls.protocol import JsonRPCProtocol

from .lsp_framing import Frame, MessageReader, Readable

Report = Callable[[str], None]


class FdReader:
    """A file descriptor read with `os.read`: unlike `sys.stdin.buffer`, it holds no lock
    that a read blocked at exit would keep from the interpreter's shutdown."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def read1(self, size: int = -1, /) -> bytes:
        """What the descriptor has, at most ``size`` bytes, waiting for at least one."""
        return os.read(self.fd, size if size > 0 else 1 << 16)


def serve(
    protocol: JsonRPCProtocol,
    stdin: Readable,
    stdout: BinaryIO,
    report: Report,
    limit: int | None = None,
) -> int:
    """Serve ``protocol`` until the input ends or the client says `exit`; the exit code."""
    writer = StdoutWriter(stdout)
    protocol.set_writer(writer)
    reader = MessageReader(stdin) if limit is None else MessageReader(stdin, limit)
    try:
        asyncio.run(_main(protocol, reader, writer, report))
    except SystemExit as e:  # `exit`: 0 after `shutdown`, 1 without (the protocol's rule)
        return e.code if isinstance(e.code, int) else 0
    except (BrokenPipeError, ConnectionResetError):
        report("the client stopped reading the server's output; stopping")
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


async def _main(
    protocol: JsonRPCProtocol, reader: MessageReader, writer: StdoutWriter, report: Report
) -> None:
    loop = asyncio.get_running_loop()
    frames: asyncio.Queue[Frame | None] = asyncio.Queue(maxsize=1)
    lost: asyncio.Future[None] = loop.create_future()

    def on_error(_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        # An exception in a timer callback (a debounced analysis): one line, never a
        # traceback; a client that stopped reading ends the server.
        exc = context.get("exception")
        if isinstance(exc, (BrokenPipeError, ConnectionResetError)):
            if not lost.done():
                lost.set_exception(exc)
            return
        report(f"internal error: {context.get('message')}: {exc!r}")

    loop.set_exception_handler(on_error)
    # A thread of its own that is never joined: a read blocked on stdin must not keep the
    # process alive once the server is done. The queue holds one frame, so the reader is
    # never more than one message ahead of the server.
    threading.Thread(target=_pump, args=(reader, frames, loop, report), daemon=True).start()
    while True:
        got = asyncio.ensure_future(frames.get())
        await asyncio.wait([got, lost], return_when=asyncio.FIRST_COMPLETED)
        if lost.done():
            got.cancel()
            lost.result()  # raises the lost connection's error
        frame = got.result()
        if frame is None:
            return
        if frame.problem is not None:
            report(frame.problem)
        if frame.id is not None:
            _answer_error(writer, frame.id, JsonRpcParseError(f"not read: {frame.problem}"))
        if frame.body is not None:
            handle(protocol, frame.body, writer, report)


def _pump(
    reader: MessageReader,
    frames: asyncio.Queue[Frame | None],
    loop: asyncio.AbstractEventLoop,
    report: Report,
) -> None:
    """Read frames and hand them to the loop, one at a time, until the input ends."""
    while True:
        try:
            frame = reader.next()
        except (OSError, ValueError) as e:  # stdin closed under us, or not readable
            report(f"cannot read the input: {e}")
            frame = None
        try:
            asyncio.run_coroutine_threadsafe(frames.put(frame), loop).result()
        except (RuntimeError, concurrent.futures.CancelledError):  # the server is stopping
            return
        if frame is None:
            return


def handle(protocol: JsonRPCProtocol, body: bytes, writer: StdoutWriter, report: Report) -> None:
    """Parse one message's body and hand it to ``protocol``; a body that is not a JSON-RPC
    message is reported and, when it holds an id, answered with the protocol's error."""
    try:
        message = json.loads(body, object_hook=protocol.structure_message)
    except JsonRpcException as e:  # JSON, but not a valid message (pygls says which)
        _refuse(writer, report, body, e, f"an invalid message ({e.message})")
        return
    except (ValueError, RecursionError) as e:  # not JSON, not UTF-8, or nested too deep
        report(f"a message that is not JSON ({str(e) or type(e).__name__}); no id to answer")
        return
    if not hasattr(message, "jsonrpc"):
        _refuse(writer, report, body, JsonRpcInvalidRequest(), "not a JSON-RPC 2.0 message")
        return
    protocol.handle_message(message)


def _refuse(
    writer: StdoutWriter, report: Report, body: bytes, error: JsonRpcException, what: str
) -> None:
    try:
        raw = json.loads(body)
    except (ValueError, RecursionError):
        raw = None
    rid = raw.get("id") if isinstance(raw, dict) else None
    if isinstance(rid, bool) or not isinstance(rid, (int, str)):
        report(f"{what}; no id to answer")
        return
    report(f"{what}; answered with error {error.code}")
    _answer_error(writer, rid, error)


def _answer_error(writer: StdoutWriter, rid: int | str, error: JsonRpcException) -> None:
    """Write an error response for request ``rid``."""
    body = json.dumps(
        {"jsonrpc": "2.0", "id": rid, "error": {"code": error.code, "message": error.message}}
    ).encode()
    writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

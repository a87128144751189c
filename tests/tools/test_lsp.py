"""`clankwork lsp`: a real LSP session over stdio, with a small JSON-RPC client."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from clankwork.dsl.diagnostics import Span
from clankwork.dsl.limits import MAX_FILE_BYTES
from clankwork.tools.check import bundled_pack, compile_and_check
from clankwork.tools.lsp import find_pack, quoted, to_range, word_at
from clankwork.tools.lsp_complete import complete, pack_names

WAIT = 60.0  # seconds; a deadline on every read, never a sleep


class Client:
    """A minimal LSP client: Content-Length framed JSON-RPC over a subprocess's pipes."""

    def __init__(self, cwd: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from clankwork.tools.cli import main; main()", "lsp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
        )
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.next_id = 0
        self.notes: list[dict[str, Any]] = []
        self.seen: list[bytes] = []  # every body the server wrote, as it wrote it
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None
            body = out.read(length)
            self.seen.append(body)
            self.inbox.put(json.loads(body))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        self.send({"method": method, "params": params or {}})

    def _next(self, deadline: float) -> dict[str, Any]:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("the server did not answer in time")
        try:
            msg = self.inbox.get(timeout=left)
        except queue.Empty as e:
            raise AssertionError("the server did not answer in time") from e
        if msg is None:
            assert self.proc.stderr is not None
            raise AssertionError("the server exited: " + self.proc.stderr.read().decode())
        return msg

    def request(self, method: str, params: dict[str, Any] | None = None) -> Any:
        self.next_id += 1
        rid = self.next_id
        self.send({"id": rid, "method": method, "params": params or {}})
        msg = self.response(rid)
        assert "error" not in msg, msg
        return msg.get("result")

    def response(self, rid: int | str) -> dict[str, Any]:
        """The server's response to request ``rid``, what came before it kept in notes."""
        for msg in self.notes:
            if msg.get("id") == rid and "method" not in msg:
                self.notes.remove(msg)
                return msg
        deadline = time.monotonic() + WAIT
        while True:
            msg = self._next(deadline)
            if msg.get("id") == rid and "method" not in msg:
                return msg
            self._other(msg)

    def logged(self, kind: int | None = None) -> list[str]:
        """The window/logMessage messages received so far (of type ``kind`` if given),
        taken out of notes."""
        out = []
        for msg in list(self.notes):
            if msg.get("method") == "window/logMessage" and kind in (None, msg["params"]["type"]):
                out.append(msg["params"]["message"])
                self.notes.remove(msg)
        return out

    def _other(self, msg: dict[str, Any]) -> None:
        if "method" in msg and "id" in msg:  # a request from the server: answer it
            self.send({"id": msg["id"], "result": None})
        else:
            self.notes.append(msg)

    def diagnostics(self, uri: str, version: int | None = None) -> list[dict[str, Any]]:
        """The next publishDiagnostics for ``uri`` (of the buffer's ``version`` if given)."""
        deadline = time.monotonic() + WAIT
        while True:
            for i, msg in enumerate(self.notes):
                if (
                    msg.get("method") == "textDocument/publishDiagnostics"
                    and msg["params"]["uri"] == uri
                    and version in (None, msg["params"].get("version"))
                ):
                    del self.notes[i]
                    return msg["params"]["diagnostics"]
            self._other(self._next(deadline))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=WAIT)


@pytest.fixture()
def pack(tmp_path: Path) -> Path:
    dest = tmp_path / "tutorial"
    shutil.copytree(bundled_pack("tutorial"), dest)
    return dest


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    c = Client(tmp_path)
    result = c.request(
        "initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}}
    )
    assert result["capabilities"]["completionProvider"] is not None
    c.notify("initialized")
    yield c
    c.close()


def _open(client: Client, path: Path, text: str) -> str:
    uri = path.as_uri()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "clank", "version": 1, "text": text}},
    )
    return uri


def _line_of(text: str, needle: str) -> tuple[int, int]:
    """0-based line and character (UTF-16, ASCII here) of ``needle`` in ``text``."""
    for n, line in enumerate(text.split("\n")):
        if needle in line:
            return n, line.index(needle)
    raise AssertionError(needle)


def test_lsp_session(client: Client, pack: Path, tmp_path: Path) -> None:
    """One server for every part: starting one takes about two seconds."""
    diagnostics_completion_hover_definition(client, pack)
    half_typed_text_answers(client, pack)
    file_outside_any_pack_and_link_out_of_the_pack(client, tmp_path)
    assert client.request("shutdown") is None
    client.notify("exit")
    assert client.proc.wait(timeout=WAIT) == 0


def diagnostics_completion_hover_definition(client: Client, pack: Path) -> None:
    path = pack / "adventure.clank"
    # The broken effect is only in the editor's buffer: the file on disk is clean.
    text = path.read_text().replace("+2 gold, +1 boots", "+2 goldd, +1 boots", 1)
    uri = _open(client, path, text)
    diags = client.diagnostics(uri)

    # What `clankwork check` reports for the same error, once the file on disk has it too.
    path.write_text(text)
    want = [d for d in compile_and_check(pack).diagnostics if d.code == "CW103"]
    assert len(want) == 1 and want[0].span is not None
    got = [d for d in diags if d["code"] == "CW103"]
    assert len(got) == 1, diags
    span = want[0].span
    assert got[0]["range"] == {
        "start": {"line": span.line - 1, "character": span.col - 1},
        "end": {"line": span.end_line - 1, "character": span.end_col - 1},
    }
    assert got[0]["severity"] == 1
    assert want[0].message in got[0]["message"]
    if want[0].hint:
        assert "help: " + want[0].hint in got[0]["message"]

    # Every other file of the pack is published too, with nothing to report.
    assert client.diagnostics((pack / "pack.clank").as_uri()) == []

    # Completion on an effect line offers effect words, documented by the registry.
    line, char = _line_of(text, "+2 skill, +2 swords")
    items = client.request(
        "textDocument/completion",
        {"textDocument": {"uri": uri}, "position": {"line": line, "character": char}},
    )
    items = items["items"] if isinstance(items, dict) else items
    labels = {i["label"] for i in items}
    assert "draw N [card]" in labels
    draw = next(i for i in items if i["label"] == "draw N [card]")
    assert "Draw cards" in draw["documentation"]["value"]
    assert "Lucky Coin" not in labels  # names come where a name fits (test_lsp_names.py)

    # Hover on an effect gives the registry's docs and the generated card text.
    line, char = _line_of(text, "draw 2 }")
    hover = client.request(
        "textDocument/hover",
        {"textDocument": {"uri": uri}, "position": {"line": line, "character": char + 1}},
    )
    assert "Draw cards" in hover["contents"]["value"]
    assert "Card text:" in hover["contents"]["value"]

    # Definition of a card named in a scenario jumps to its declaration.
    scenario = pack / "scenarios" / "rulebook_examples.clank"
    s_text = scenario.read_text()
    s_uri = _open(client, scenario, s_text)
    client.diagnostics(s_uri)
    line, char = _line_of(s_text, "play Burgle")
    char += len("play ")
    locs = client.request(
        "textDocument/definition",
        {"textDocument": {"uri": s_uri}, "position": {"line": line, "character": char + 2}},
    )
    decl_line, _ = _line_of((pack / "starting.clank").read_text(), "card Burgle")
    assert locs[0]["uri"] == (pack / "starting.clank").as_uri()
    assert locs[0]["range"]["start"]["line"] == decl_line

    # Formatting gives `clankwork fmt`'s layout as one edit of the whole buffer.
    messy = s_text.replace("play Burgle", "play   Burgle", 1)
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": s_uri, "version": 2}, "contentChanges": [{"text": messy}]},
    )
    edits = client.request(
        "textDocument/formatting",
        {"textDocument": {"uri": s_uri}, "options": {"tabSize": 2, "insertSpaces": True}},
    )
    assert len(edits) == 1 and edits[0]["range"]["start"] == {"line": 0, "character": 0}
    assert edits[0]["newText"] == s_text  # the bundled file is already formatted


def half_typed_text_answers(client: Client, pack: Path) -> None:
    """The buffer (open, with the CW103) goes through half-typed states, then is fixed."""
    uri = (pack / "adventure.clank").as_uri()
    good = bundled_pack("tutorial").joinpath("adventure.clank").read_text()
    for version, half in enumerate(['card "Half', "card X { cost", good + "\nmonster {{ (", good]):
        client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": version + 2},
                "contentChanges": [{"text": half}],
            },
        )
        diags = client.diagnostics(uri, version + 2)
        if half is good:
            assert diags == []
        else:
            assert diags and all(d["code"].startswith("CW") for d in diags)
    # Completion and hover in a broken buffer still answer.
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": 9}, "contentChanges": [{"text": "card X { pl"}]},
    )
    client.diagnostics(uri, 9)
    items = client.request(
        "textDocument/completion",
        {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 11}},
    )
    assert items["items"]


def file_outside_any_pack_and_link_out_of_the_pack(client: Client, tmp_path: Path) -> None:
    pack = tmp_path / "linked"
    shutil.copytree(bundled_pack("tutorial"), pack)
    lone = tmp_path / "lone.clank"
    uri = _open(client, lone, "card X { cost 1; play: +1 goldd }\n")
    assert [d["code"] for d in client.diagnostics(uri)] == ["CW103"]

    outside = tmp_path / "elsewhere.clank"
    outside.write_text("card Y { cost 1; play: +1 gold }\n")
    (pack / "reserve.clank").unlink()
    os.symlink(outside, pack / "reserve.clank")
    p_uri = _open(client, pack / "pack.clank", (pack / "pack.clank").read_text())
    diags = client.diagnostics(p_uri)
    assert (
        [d["code"] for d in diags]
        == [d.code for d in compile_and_check(pack).diagnostics]
        == ["CW005"]
    )
    # Opening the link itself, with text of the editor's: still refused, never read.
    _open(client, pack / "reserve.clank", "card Z { cost 1; play: +1 gold }\n")
    assert [d["code"] for d in client.diagnostics(p_uri)] == ["CW005"]


def test_positions_count_utf16_units() -> None:
    text = 'card "Caf\u00e9 \U0001f409" { cost 1 }\n'
    # Column 17 (in characters) is after the dragon, which is two UTF-16 units.
    from pygls.workspace import PositionCodec

    r = to_range(Span("f", 1, 6, 1, 17), text, PositionCodec())
    assert (r.start.character, r.end.character) == (5, 17)


def test_helpers(pack: Path) -> None:
    assert find_pack(pack / "scenarios" / "rulebook_examples.clank") == pack
    assert find_pack(pack / "adventure.clank") == pack
    assert quoted("Burgle") == "Burgle" and quoted("Lucky Coin") == '"Lucky Coin"'
    assert word_at('card "Lucky Coin" { cost 1 }', 9) == "Lucky Coin"
    assert word_at("monster Goblin { fight 2 }", 10) == "Goblin"
    names = pack_names(None, ["tutorial"])
    labels = [i.label for i in complete("card X {\n  play if another ", 1, 19, names)]
    assert "companion" in labels
    assert complete("", 0, 0, names)[0].label == "board"


def _started(cwd: Path, *args: str, root: Path | None = None) -> Client:
    c = Client(cwd, *args)
    c.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": root.as_uri() if root else None,
            "capabilities": {},
        },
    )
    c.notify("initialized")
    return c


_OPTIONS = {"tabSize": 2, "insertSpaces": True}


def _framed(body: bytes, end: bytes = b"\r\n") -> bytes:
    return b"Content-Length: %d" % len(body) + end + end + body


def _stopped(client: Client) -> str:
    """Shut the server down the protocol's way; its stderr, once it has exited with 0."""
    assert client.request("shutdown") is None
    client.notify("exit")
    assert client.proc.wait(timeout=WAIT) == 0
    assert client.proc.stderr is not None
    return client.proc.stderr.read().decode()


def test_malformed_input_is_reported_and_skipped(tmp_path: Path) -> None:
    """Each bad frame is logged (and answered when it shows an id); the next one is read."""
    client = _started(tmp_path)
    hover = {"textDocument": {"uri": "untitled:x"}, "position": {"line": 0, "character": 0}}
    cases = [
        # A huge length whose body shows its id: answered with ParseError, nothing allocated.
        (
            b'Content-Length: 99999999999999\r\n\r\n{"jsonrpc":"2.0","id":"big","method":"x"}',
            "more than the limit of 32 MiB",
        ),
        (b"Content-Type: application/vscode-jsonrpc\r\n\r\n{}", "without Content-Length"),
        (b"Content-Length: twelve\r\n\r\n{}", "Content-Length 'twelve'"),
        (b"Content-Length: -2\r\n\r\n{}", "Content-Length '-2'"),
        (b"hello, server\r\n", "not a header"),
        (_framed(b"{not json"), "not JSON"),
        (_framed(b'{"jsonrpc":"2.0","id":"bad","method":"textDocument/hover"}'), "invalid"),
        (_framed(b"[1, 2]"), "not a JSON-RPC 2.0 message"),
    ]
    for n, (bad, logged) in enumerate(cases):
        client.send_raw(bad)
        client.next_id += 1
        body = json.dumps({"jsonrpc": "2.0", "id": client.next_id, "method": "textDocument/hover"})
        # Every other valid request ends its lines with a bare LF: read as well.
        framed = _framed((body[:-1] + ', "params": ' + json.dumps(hover) + "}").encode())
        client.send_raw(framed if n % 2 else framed.replace(b"\r\n", b"\n"))
        assert client.response(client.next_id).get("result") is None
        assert any(logged in m for m in client.logged(2)), (logged, client.notes)
    assert client.response("big")["error"]["code"] == -32700
    assert client.response("bad")["error"]["code"] == -32602
    err = _stopped(client)
    assert "more than the limit of 32 MiB" in err and "Traceback" not in err


def test_oversize_buffer_gets_cw006_not_an_analysis(client: Client, pack: Path) -> None:
    big = "# " + "x" * 98 + "\n"
    text = big * (MAX_FILE_BYTES // len(big) + 1)
    for path in (pack.parent / "lone.clank", pack / "not_included.clank", pack / "reserve.clank"):
        uri = _open(client, path, text)
        diags = client.diagnostics(uri, 1)  # of the buffer: the pack's files are published too
        assert [d["code"] for d in diags] == ["CW006"], diags
        assert "larger than 4 MiB, the limit for one file" in diags[0]["message"]
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    edits = client.request(
        "textDocument/formatting",
        {
            "textDocument": {"uri": _open(client, pack / "big.clank", "card   " + text)},
            "options": {"tabSize": 2, "insertSpaces": True},
        },
    )
    assert edits == []


def test_burst_of_changes_is_one_analysis(tmp_path: Path) -> None:
    # The debounce is an hour: no analysis runs by itself during the test; saving runs the
    # pending one at once.
    client = _started(tmp_path, "--debounce", "3600000")
    uri = _open(client, tmp_path / "typed.clank", "")
    text = ""
    for n in range(200):
        text += f"card C{n} {{ cost 1; play: +1 gold }}\n"
        if n == 199:
            text = text.replace("+1 gold", "+1 goldd", 1)
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": n + 2}, "contentChanges": [{"text": text}]},
        )
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    assert [d["code"] for d in client.diagnostics(uri, 201)] == ["CW103"]
    _stopped(client)
    analyses = [m for m in client.logged(4) if m.startswith("analysed ")]
    published = [m for m in client.notes if m.get("method") == "textDocument/publishDiagnostics"]
    assert len(analyses) == 1 and published == [], (analyses, published)


def test_files_outside_the_workspace_are_not_read(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    pack = workspace / "tutorial"
    shutil.copytree(bundled_pack("tutorial"), pack)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    secret = elsewhere / "secret.clank"
    secret.write_text("card   Secret_hunter2 { cost 1 }\n")
    profile = elsewhere / ".profile"
    profile.write_text("export TOKEN=Secret_hunter2\n")
    fifo = elsewhere / "pipe.clank"
    os.mkfifo(fifo)  # opening it for reading would hang the server: it must not be opened
    (pack / "leak.clank").symlink_to(secret)
    messy = workspace / "messy.clank"  # never opened, but the workspace's: may be read
    messy.write_text("card   Fine { cost 1 }\n")

    client = _started(tmp_path, root=workspace)
    at = {"position": {"line": 0, "character": 9}}
    for path in (secret, profile, fifo, pack / "leak.clank"):
        doc = {"textDocument": {"uri": path.as_uri()}}
        assert client.request("textDocument/formatting", {**doc, "options": _OPTIONS}) == []
        assert client.request("textDocument/hover", {**doc, **at}) is None
        assert client.request("textDocument/definition", {**doc, **at}) is None
        assert client.request("textDocument/completion", {**doc, **at})["items"] == []
        client.notify("textDocument/didSave", doc)
        refused = [m for m in client.logged(2) if m.startswith("refused ")]
        assert len(refused) == 4 and path.as_uri() in refused[0], refused
    edits = client.request(
        "textDocument/formatting", {"textDocument": {"uri": messy.as_uri()}, "options": _OPTIONS}
    )
    assert edits[0]["newText"] == "card Fine { cost 1 }\n"
    _stopped(client)
    assert not any(b"hunter2" in body for body in client.seen)

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
from clankwork.tools.check import bundled_pack, compile_and_check
from clankwork.tools.lsp import completions, find_pack, quoted, to_range, word_at

WAIT = 60.0  # seconds; a deadline on every read, never a sleep


class Client:
    """A minimal LSP client: Content-Length framed JSON-RPC over a subprocess's pipes."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from clankwork.tools.cli import main; main()", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
        )
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.next_id = 0
        self.notes: list[dict[str, Any]] = []
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
            self.inbox.put(json.loads(out.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
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
        deadline = time.monotonic() + WAIT
        while True:
            msg = self._next(deadline)
            if msg.get("id") == rid and "method" not in msg:
                assert "error" not in msg, msg
                return msg.get("result")
            self._other(msg)

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
    assert "Lucky Coin" in labels  # a card of the pack
    assert '"Lucky Coin"' in {i.get("insertText") for i in items}

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
    labels = [i.label for i in completions("  play if ", None)]
    assert labels[0] in {"another TAG in play", "you have a WORDS"} or "if" not in labels[0]
    assert completions("", None)[0].label == "pack"

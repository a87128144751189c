"""`clankwork lsp` over stdio: completion by context, quick fixes, hover on names,
references, rename and the outline (the client is test_lsp's)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from test_lsp import Client, _line_of, _open

from clankwork.tools.check import bundled_pack, compile_and_check

CAPABILITIES = {
    "textDocument": {
        "completion": {"completionItem": {"snippetSupport": True}},
        "rename": {"prepareSupport": True},
    }
}


@pytest.fixture()
def pack(tmp_path: Path) -> Path:
    dest = tmp_path / "tutorial"
    shutil.copytree(bundled_pack("tutorial"), dest)
    return dest


@pytest.fixture()
def client(pack: Path) -> Any:
    c = Client(pack.parent)
    result = c.request(
        "initialize",
        {"processId": os.getpid(), "rootUri": pack.parent.as_uri(), "capabilities": CAPABILITIES},
    )
    caps = result["capabilities"]
    assert caps["renameProvider"]["prepareProvider"] is True
    assert caps["referencesProvider"] and caps["documentSymbolProvider"]
    assert caps["codeActionProvider"]["codeActionKinds"] == ["quickfix"]
    c.notify("initialized")
    yield c
    c.close()


def _at(uri: str, line: int, char: int) -> dict[str, Any]:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": char}}


def _raw(client: Client, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """The whole response to a request (its error, when it fails)."""
    client.next_id += 1
    client.send({"id": client.next_id, "method": method, "params": params})
    return client.response(client.next_id)


def _apply(text: str, edits: list[dict[str, Any]]) -> str:
    """``text`` with LSP text edits made (ASCII text: characters are UTF-16 units)."""
    lines = text.split("\n")
    starts = [0]
    for row in lines:
        starts.append(starts[-1] + len(row) + 1)

    def offset(p: dict[str, int]) -> int:
        return starts[p["line"]] + p["character"]

    for e in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        text = (
            text[: offset(e["range"]["start"])] + e["newText"] + text[offset(e["range"]["end"]) :]
        )
    return text


def _change(client: Client, uri: str, version: int, text: str) -> list[dict[str, Any]]:
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
    )
    return client.diagnostics(uri, version)


def _bare_uses(text: str, name: str) -> list[tuple[int, int]]:
    """(line, character) of every bare ``name`` outside strings and comments."""
    out = []
    for n, row in enumerate(text.split("\n")):
        code = re.sub(r'"(?:[^"\\]|\\.)*"', lambda m: " " * len(m.group()), row.split("#")[0])
        out += [(n, m.start()) for m in re.finditer(rf"(?<![\w']){re.escape(name)}(?![\w'])", code)]
    return out


def test_completion_quick_fix_hover_references_rename_outline(client: Client, pack: Path) -> None:
    adventure = pack / "adventure.clank"
    text = adventure.read_text() + "card Purge { cost 2; play: may trash a Burgel }\n"
    uri = _open(client, adventure, text)

    # A misspelt card name: CW107 with a did-you-mean, and a quick fix that applies it.
    diags = client.diagnostics(uri, 1)
    (typo,) = [d for d in diags if d["code"] == "CW107"]
    assert 'did you mean "Burgle"?' in typo["message"]
    actions = client.request(
        "textDocument/codeAction",
        {"textDocument": {"uri": uri}, "range": typo["range"], "context": {"diagnostics": [typo]}},
    )
    (fix,) = [a for a in actions if a["title"] == "Change Burgel to Burgle"]
    assert fix["kind"] == "quickfix" and fix["isPreferred"] is True
    text = _apply(text, fix["edit"]["changes"][uri])
    assert text.endswith("may trash a Burgle }\n")
    assert _change(client, uri, 2, text) == []

    # Hover on the card name inside the effect shows the card, not `trash`.
    line, char = _line_of(text, "a Burgle }")
    hover = client.request("textDocument/hover", _at(uri, line, char + 3))
    assert hover["contents"]["value"].startswith("**Burgle** (starting")
    assert "Trash" not in hover["contents"]["value"]

    # Completion after `+2 sk`: the resource words that fit, nothing else.
    typing = text + "card Quick { cost 1; play: +2 sk"
    _change(client, uri, 3, typing)
    last = typing.split("\n")[-1]
    got = client.request("textDocument/completion", _at(uri, typing.count("\n"), len(last)))
    labels = [i["label"] for i in got["items"]]
    assert labels[:2] == ["skill", "skills"] and len(labels) == 2, labels
    skill = got["items"][0]
    assert skill["textEdit"]["newText"] == "skill"
    assert skill["textEdit"]["range"]["start"]["character"] == len(last) - 2
    # At the start of a line in a card: its properties and triggers, and snippets at the top.
    got = client.request("textDocument/completion", _at(uri, 0, 0))
    labels = {i["label"] for i in got["items"]}
    assert {"card", "board", "card …"} <= labels and "+N RESOURCE" not in labels
    _change(client, uri, 4, text)

    # References of Burgle from its declaration: every use in the pack and its scenarios.
    starting = pack / "starting.clank"
    s_text = starting.read_text()
    line, char = _line_of(s_text, "card Burgle")
    refs = client.request(
        "textDocument/references",
        {**_at(starting.as_uri(), line, char + 6), "context": {"includeDeclaration": True}},
    )
    found = sorted((Path(r["uri"][7:]).name, r["range"]["start"]["line"]) for r in refs)
    want = []
    for path in sorted(pack.rglob("*.clank")):
        body = text if path == adventure else path.read_text()
        want += [(path.name, ln) for ln, _c in _bare_uses(body, "Burgle")]
    assert found == sorted(want)
    assert len(found) >= 15 and ("rulebook_examples.clank", 11) in found

    # Rename to a name another card has: refused, nothing changed.
    clash = _raw(
        client,
        "textDocument/rename",
        {**_at(starting.as_uri(), line, char + 6), "newName": "Stumble"},
    )
    assert clash["error"]["code"] == -32803
    assert "there is already a card named 'Stumble'" in clash["error"]["message"]
    # A rename the pack would not compile with (a bidirectional override in a name, CW114):
    # the server checks the renamed pack before answering, and refuses.
    bidi = _raw(
        client,
        "textDocument/rename",
        {**_at(starting.as_uri(), line, char + 6), "newName": "Cat\u202eBurglar"},
    )
    assert bidi["error"]["code"] == -32803
    assert "the rename would add an error (CW114)" in bidi["error"]["message"]
    # Rename everywhere: the declaration, the open buffer, the scenarios.
    prepared = client.request("textDocument/prepareRename", _at(starting.as_uri(), line, char + 6))
    assert prepared["placeholder"] == "Burgle"
    edit = client.request(
        "textDocument/rename", {**_at(starting.as_uri(), line, char + 6), "newName": "Cat Burglar"}
    )
    changes = edit["changes"]
    assert {Path(u[7:]).name for u in changes} == {
        "starting.clank",
        "adventure.clank",
        "rulebook_examples.clank",
    }
    assert sum(len(v) for v in changes.values()) == len(want)
    for file_uri, edits in changes.items():
        path = Path(file_uri[7:])
        if path == adventure:
            text = _apply(text, edits)
            path.write_text(text)
        else:
            path.write_text(_apply(path.read_text(), edits))
    assert 'may trash a "Cat Burglar" }' in text
    assert 'card "Cat Burglar" { starting 6' in starting.read_text()
    after = compile_and_check(pack)
    assert [d for d in after.diagnostics if d.severity == "error"] == []
    assert any(c["name"] == "Cat Burglar" for c in after.ir["cards"])
    assert all(not _bare_uses(p.read_text(), "Burgle") for p in pack.rglob("*.clank"))

    # Not a name: no rename.
    cost = _line_of(s_text, "starting 6")
    refused = _raw(client, "textDocument/prepareRename", _at(starting.as_uri(), *cost))
    assert refused["error"]["code"] == -32803

    # The outline of the board file: the board, its spaces and paths.
    board = (pack / "board.clank").as_uri()
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": board}})
    (top,) = [s for s in symbols if s["detail"] == "board"]
    kids = {c["name"] for c in top["children"]}
    assert "Gatehouse" in kids and any("--" in k for k in kids)

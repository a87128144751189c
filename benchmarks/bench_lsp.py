"""CPU time `clankwork lsp` spends on a burst of typing, against one analysis of the same pack.

Run: .venv/bin/python benchmarks/bench_lsp.py [PACK] [--edits 200] [--interval MS]

Two servers are started in the same run, each a `clankwork lsp` subprocess spoken to with raw
`Content-Length` framed JSON-RPC. The baseline opens one file of a copy of the pack, waits for
its diagnostics and exits: the CPU time of starting up plus one analysis. The measured session
does the same, then sends ``--edits`` changes of that file (full text, one more comment line
each, ``--interval`` ms apart; 0 sends them in one burst) and waits for the diagnostics of the
last version. Both CPU times are the child's own (user + system, from wait4), so the
difference is what the edits cost.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from clankwork.tools.check import bundled_pack


class RawClient:
    """Content-Length framed JSON-RPC over a `clankwork lsp` subprocess's pipes."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from clankwork.tools.cli import main; main()", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=cwd,
        )
        self.next_id = 0
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> None:
        # A thread of its own: the server's output must be drained while the edits are
        # written, or both sides block on full pipes.
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while (line := out.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if not length:
                self.inbox.put(None)
                return
            self.inbox.put(json.loads(out.read(length)))

    def receive(self) -> dict[str, Any]:
        msg = self.inbox.get()
        if msg is None:
            raise SystemExit("the server closed its output")
        if "method" in msg and "id" in msg:  # a request of the server's: answer it
            self.send({"id": msg["id"], "result": None})
        return msg

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            msg = self.receive()
            if msg.get("id") == self.next_id and "method" not in msg:
                return msg.get("result")

    def wait_diagnostics(self, uri: str, version: int) -> None:
        while True:
            msg = self.receive()
            p = msg.get("params") or {}
            published = msg.get("method") == "textDocument/publishDiagnostics"
            if published and p.get("uri") == uri and p.get("version") == version:
                return

    def finish(self) -> float:
        """Shut the server down; its CPU time in seconds (user + system)."""
        self.request("shutdown", {})
        self.send({"method": "exit"})
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        _pid, _status, usage = os.wait4(self.proc.pid, 0)
        self.proc.returncode = 0  # reaped above; keeps Popen from waiting again
        return usage.ru_utime + usage.ru_stime


def session(pack: Path, edits: int, interval: float) -> float:
    """CPU seconds of one server: open a file, make ``edits`` changes, wait for the last."""
    client = RawClient(pack)
    client.request(
        "initialize", {"processId": os.getpid(), "rootUri": pack.as_uri(), "capabilities": {}}
    )
    client.send({"method": "initialized", "params": {}})
    path = next(p for p in sorted(pack.glob("*.clank")) if p.name != "pack.clank")
    text = path.read_text()
    uri = path.as_uri()
    client.send(
        {
            "method": "textDocument/didOpen",
            "params": {
                "textDocument": {"uri": uri, "languageId": "clank", "version": 1, "text": text}
            },
        }
    )
    client.wait_diagnostics(uri, 1)
    for n in range(edits):
        text += f"# edit {n}\n"
        client.send(
            {
                "method": "textDocument/didChange",
                "params": {
                    "textDocument": {"uri": uri, "version": n + 2},
                    "contentChanges": [{"text": text}],
                },
            }
        )
        if interval:
            time.sleep(interval)
    if edits:
        client.wait_diagnostics(uri, edits + 1)
    return client.finish()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack", nargs="?", default=None)
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--interval", type=float, default=0.0, help="ms between edits")
    args = ap.parse_args()
    source = Path(args.pack) if args.pack else bundled_pack("acqinc")
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(tmp) / source.name
        shutil.copytree(source, pack)
        base = session(pack, 0, 0.0)
        typed = session(pack, args.edits, args.interval / 1000)
    print(f"pack {source.name}, {args.edits} edits {args.interval:g} ms apart")
    print(f"  baseline (start-up + one analysis): {base:6.2f} s CPU")
    print(f"  with the edits:                     {typed:6.2f} s CPU")
    print(f"  the edits cost:                     {typed - base:6.2f} s CPU")


if __name__ == "__main__":
    main()

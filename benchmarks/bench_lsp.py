"""`clankwork lsp` measured with a real JSON-RPC client: CPU for a burst of typing, and the
latency of diagnostics after opening a file and after an edit, old against new.

Run: .venv/bin/python benchmarks/bench_lsp.py [PACK] [--edits 200] [--interval MS]
     .venv/bin/python benchmarks/bench_lsp.py --latency [--old REV] [--cards 2000] [--rounds 5]

Every server is a `clankwork lsp` subprocess spoken to with raw `Content-Length` framed
JSON-RPC, on a copy of the pack.

CPU (the default): the baseline opens one file of the pack, waits for its diagnostics and
exits: the CPU time of starting up plus one analysis. The measured session does the same,
then sends ``--edits`` changes of that file (full text, one more comment line each,
``--interval`` ms apart; 0 sends them in one burst) and waits for the diagnostics of the last
version. Both CPU times are the child's own (user + system, from wait4), so the difference
is what the edits cost.

Latency (``--latency``): wall time from a message to the diagnostics it causes, for the
server of ``--old`` (default: the commit this branch started from, read with `git archive`
as bench_sim.py does) and of this checkout, in the same run, on acqinc and on acqinc plus
``--cards`` generated cards in one file (bench_bigpack.py's generator). Both servers run
with ``--debounce 0``, so the figures are the analysis and the messages alone; in an editor
the debounce (200 ms by default) comes before them. Measured: from starting the server to
the first diagnostics of the file it opens; from `didOpen` (server ready) to them; and from
a `didChange` to the diagnostics of that version, for ``--rounds`` edits of each kind: a
comment line added at the end of the big file, a comment added to a line in its middle (its
card re-parsed), a line added at its top (every statement below moves), and a line added to
a scenario file. Each edit is new text (never a text seen before).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_bigpack import write_pack  # noqa: E402
from bench_sim import _commit, _dirty, _old_tree  # noqa: E402

from clankwork.tools.check import bundled_pack  # noqa: E402

BRANCH_POINT = "9c295dc"  # main when issue 30's work began


# Runs the server, first writing where its code comes from on stderr (old or new).
SERVER = (
    "import sys, clankwork.tools.lsp as l; sys.stderr.write('from ' + l.__file__ + '\\n'); "
    "sys.stderr.flush(); from clankwork.tools.cli import main; main()"
)


class RawClient:
    """Content-Length framed JSON-RPC over a `clankwork lsp` subprocess's pipes."""

    def __init__(self, cwd: Path, *args: str, path: Path | None = None) -> None:
        env = dict(os.environ)
        if path is not None:
            env["PYTHONPATH"] = f"{path}{os.pathsep}{env.get('PYTHONPATH', '')}"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVER, "lsp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
        assert self.proc.stderr is not None
        self.code_from = self.proc.stderr.readline().decode().strip()
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


def _open(client: RawClient, path: Path, text: str) -> str:
    uri = path.as_uri()
    client.send(
        {
            "method": "textDocument/didOpen",
            "params": {
                "textDocument": {"uri": uri, "languageId": "clank", "version": 1, "text": text}
            },
        }
    )
    return uri


def _change(client: RawClient, uri: str, version: int, text: str) -> float:
    """Seconds from sending ``text`` as ``version`` to its diagnostics."""
    t0 = time.perf_counter()
    client.send(
        {
            "method": "textDocument/didChange",
            "params": {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": text}],
            },
        }
    )
    client.wait_diagnostics(uri, version)
    return time.perf_counter() - t0


def latencies(pack: Path, big: str, path: Path | None, rounds: int) -> dict[str, list[float]]:
    """One server's latencies (seconds) on ``pack``, editing its file ``big``."""
    out: dict[str, list[float]] = {}
    t_start = time.perf_counter()
    client = RawClient(pack, "--debounce", "0", path=path)
    client.request(
        "initialize", {"processId": os.getpid(), "rootUri": pack.as_uri(), "capabilities": {}}
    )
    client.send({"method": "initialized", "params": {}})
    target = pack / big
    text = target.read_text()
    t_open = time.perf_counter()
    uri = _open(client, target, text)
    client.wait_diagnostics(uri, 1)
    now = time.perf_counter()
    out["start -> first diagnostics"] = [now - t_start]
    out["didOpen -> first diagnostics"] = [now - t_open]
    version = 1
    lines = text.split("\n")
    middle = len(lines) // 2
    while middle < len(lines) and not lines[middle].strip():
        middle += 1
    for n in range(rounds):
        version += 1
        text += f"# edit {n}\n"
        out.setdefault("edit: a line added at the end", []).append(
            _change(client, uri, version, text)
        )
    for n in range(rounds):
        version += 1
        lines = text.split("\n")
        lines[middle] += f"  # middle {n}" if "#" not in lines[middle] else f" {n}"
        text = "\n".join(lines)
        out.setdefault("edit: a comment on a line in the middle", []).append(
            _change(client, uri, version, text)
        )
    # A card's cost changed (code, so the pack is compiled again): the first card from the
    # middle on.
    card = next(i for i in range(middle, len(lines)) if lines[i].startswith("card "))
    code = lines[card]
    digit = code.index("cost ") + len("cost ")
    for n in range(rounds):
        version += 1
        lines = text.split("\n")
        lines[card] = code[:digit] + str(1 + (int(code[digit]) + n) % 9) + code[digit + 1 :]
        text = "\n".join(lines)
        out.setdefault("edit: a card's cost changed", []).append(
            _change(client, uri, version, text)
        )
    for n in range(rounds):
        version += 1
        text = f"# top {n}\n" + text
        out.setdefault("edit: a line added at the top", []).append(
            _change(client, uri, version, text)
        )
    scenario = sorted((pack / "scenarios").glob("*.clank"))[0]
    s_text = scenario.read_text()
    s_uri = _open(client, scenario, s_text)
    client.wait_diagnostics(s_uri, 1)
    for n in range(rounds):
        s_text += f"# scenario edit {n}\n"
        out.setdefault("edit: a line added to a scenario file", []).append(
            _change(client, s_uri, n + 2, s_text)
        )
    client.finish()
    if path is not None and str(path) not in client.code_from:
        raise SystemExit(f"the old server ran {client.code_from}")
    return out


def latency_main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        old_path = _old_tree(args.old, Path(tmp))
        packs = []
        small = Path(tmp) / "acqinc"
        shutil.copytree(bundled_pack("acqinc"), small)
        packs.append(("acqinc", small, "adventure.clank"))
        big = write_pack(Path(tmp) / "big", args.cards, args.cards)
        packs.append((f"acqinc + {args.cards:,} cards in one file", big, "generated_000.clank"))
        print(
            f"old = {args.old} ({_commit(args.old)}), new = this checkout ({_commit('HEAD')}"
            f"{' + changes' if _dirty() else ''}); --debounce 0; {args.rounds} edits of "
            "each kind; wall seconds, min / median"
        )
        for label, pack, file in packs:
            got = {
                side: latencies(pack, file, path, args.rounds)
                for side, path in (("old", old_path), ("new", None))
            }
            print(f"\n{label}:")
            print(f"  {'':40}{'old min':>9}{'old med':>9}{'new min':>9}{'new med':>9}")
            for what in got["old"]:
                row = [f(got[side][what]) for side in ("old", "new") for f in (min, _median)]
                print(f"  {what:40}" + "".join(f"{v:9.3f}" for v in row))


def _median(xs: list[float]) -> float:
    return statistics.median(xs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack", nargs="?", default=None)
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--interval", type=float, default=0.0, help="ms between edits")
    ap.add_argument("--latency", action="store_true", help="latency, old against new")
    ap.add_argument("--old", default=BRANCH_POINT, help="the commit to compare with")
    ap.add_argument("--cards", type=int, default=2000, help="generated cards of the big pack")
    ap.add_argument("--rounds", type=int, default=5, help="edits of each kind")
    args = ap.parse_args()
    if args.latency:
        latency_main(args)
        return
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

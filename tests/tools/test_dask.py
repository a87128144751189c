"""`clankwork simulate --dask`: a LocalCluster plays the same report as one process."""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("distributed")

from clankwork.interpreter.catalog import prepare  # noqa: E402
from clankwork.interpreter.stats import RunTotals  # noqa: E402
from clankwork.tools import cluster  # noqa: E402
from clankwork.tools.check import load_ir  # noqa: E402
from clankwork.tools.cluster import run_on_dask  # noqa: E402
from clankwork.tools.simulate import (  # noqa: E402
    ChunkMerger,
    RunSpec,
    chunk_plan,
    command,
    simulate,
)

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = str(ROOT / "content" / "tutorial")


def test_dask_local_report_is_byte_identical_to_one_process(tmp_path: Path) -> None:
    common = [TUTORIAL, "-n", "200", "-p", "2", "--seed", "11", "--bots", "greedy"]
    runs = {
        "one": ["--jobs", "1"],
        "two": ["--jobs", "2"],
        "dask": ["--dask", "local", "--jobs", "2"],
    }
    texts = {}
    for name, extra in runs.items():
        out = tmp_path / f"{name}.json"
        result = CliRunner().invoke(command, [*common, *extra, "--json", str(out)])
        assert result.exit_code == 0, result.stderr
        texts[name] = out.read_bytes()
    assert texts["dask"] == texts["one"]
    assert texts["two"] == texts["one"]
    rep = json.loads(texts["one"])
    assert rep["games"] == 200 and rep["results_omitted"] == 0


class CountingMerger(ChunkMerger):
    """Records every chunk index it accepts."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.accepted: list[int] = []

    def offer(self, index: int, part: RunTotals) -> bool:
        ok = super().offer(index, part)
        if ok:
            self.accepted.append(index)
        return ok


def test_a_worker_killed_mid_run_has_its_chunks_rerun_once() -> None:
    ir = load_ir(Path(TUTORIAL))
    cat = prepare(ir, 0)
    games = 150
    spec = RunSpec(ir, 2, ("greedy", "greedy"), 0)
    merger = CountingMerger(RunTotals())
    killed: list[int] = []

    def kill_one(client: object, index: int) -> None:
        if index == 1 and not killed:
            pids = client.run(os.getpid)  # type: ignore[attr-defined]
            pid = sorted(pids.values())[0]
            killed.append(pid)
            os.kill(pid, signal.SIGKILL)

    run_on_dask(
        "local", spec, chunk_plan(4, games), merger, workers=2, keep=1000, on_client=kill_one
    )
    assert killed, "no worker was killed"
    assert sorted(merger.accepted) == list(range(len(merger.accepted)))
    assert len(merger.accepted) == len(set(merger.accepted)) == -(-games // 25)
    alone = simulate(ir, games, 2, 4, "greedy", catalog=cat)
    assert merger.totals.games == games
    assert merger.totals == alone.totals


# -- what answers at a --dask address ------------------------------------------------------


@contextmanager
def _listening(answer: bytes | None) -> Iterator[str]:
    """A server on 127.0.0.1 for the test's length: with ``answer``, it reads what comes and
    replies ``answer`` then hangs up (an HTTP server); with None it accepts nothing and says
    nothing (the kernel completes the connection). Yields its tcp:// address."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    over = threading.Event()

    def serve() -> None:
        while True:
            conn, _ = server.accept()
            with conn:
                if over.is_set():
                    return
                conn.recv(65536)
                conn.sendall(answer or b"")

    thread = threading.Thread(target=serve, daemon=True)
    if answer is not None:
        thread.start()
    try:
        yield f"tcp://127.0.0.1:{port}"
    finally:
        if answer is not None:  # closing a socket does not wake accept(): a last connection does
            over.set()
            socket.create_connection(("127.0.0.1", port)).close()
            thread.join()
        server.close()


def _simulate_at(address: str) -> tuple[int, str]:
    """``simulate --dask ADDRESS``: its exit status and stderr. Run in a thread only so that
    a hang (the bug this guards against) fails the test instead of stopping the suite."""
    done: list = []

    def run() -> None:
        done.append(
            CliRunner().invoke(command, [TUTORIAL, "-n", "4", "-p", "2", "--dask", address])
        )

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=120)
    assert done, f"simulate --dask {address} did not return"
    result = done[0]
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return result.exit_code, lines[0]


HTTP_400 = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


def test_an_http_server_at_the_dask_address_is_one_line(monkeypatch) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 5)  # it answers at once: never reached
    with _listening(HTTP_400) as address:
        code, line = _simulate_at(address)
    assert code == 1
    assert line == (
        f"Error: {address} answered, but not in Dask's protocol (a web server or a proxy?): "
        "give a Dask scheduler's address (tcp://HOST:8786 by default)"
    )


def test_a_closed_port_at_the_dask_address_is_one_line(monkeypatch) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 5)  # refused at once: never reached
    with _listening(None) as address:
        pass  # closed: nothing listens there now
    code, line = _simulate_at(address)
    assert code == 1
    assert line == (
        f"Error: nothing listens at {address} (connection refused): start the Dask scheduler "
        "there, or check the host and port"
    )


def test_a_peer_that_says_nothing_does_not_hang_the_run(monkeypatch) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 0.5)
    with _listening(None) as address:
        code, line = _simulate_at(address)
    assert code == 1
    assert line.startswith(
        f"Error: {address} accepted the connection but did not answer in Dask's protocol "
        "within 0.5 s"
    )

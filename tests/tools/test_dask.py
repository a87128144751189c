"""`clankwork simulate --dask`: a LocalCluster plays the same report as one process."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("distributed")

from clankwork.interpreter.catalog import prepare  # noqa: E402
from clankwork.interpreter.stats import RunTotals  # noqa: E402
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

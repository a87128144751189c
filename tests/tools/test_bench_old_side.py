"""benchmarks/bench_sim.py keeps an old commit's tree and build between runs: the tree it lays
out must still import once moved into the cache, and a partial build is never kept."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench_sim():
    spec = importlib.util.spec_from_file_location("bench_sim", ROOT / "benchmarks/bench_sim.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_old_tree_links_its_packages_relatively(tmp_path: Path) -> None:
    bench = _bench_sim()
    first = tmp_path / "a"
    first.mkdir()
    bench._old_tree("HEAD", first)
    moved = tmp_path / "b"
    shutil.move(str(first), str(moved))
    # The links still reach the packages after the tree moved: they are relative.
    assert (moved / "shim" / "clankwork" / "interpreter" / "game.py").is_file()
    assert (moved / "shim" / "clankwork" / "content" / "acqinc").is_dir()


def test_a_build_of_a_few_modules_is_not_kept(monkeypatch) -> None:
    bench = _bench_sim()
    monkeypatch.setenv("CLANKWORK_CORE_MODULES", "state,turn")
    assert bench._cache_key("HEAD") is None
    monkeypatch.delenv("CLANKWORK_CORE_MODULES")
    key = bench._cache_key("HEAD")
    assert key is not None and sys.implementation.cache_tag in key


def test_the_old_side_may_run_its_compiled_modules_from_its_tree(tmp_path: Path) -> None:
    # A commit of the `build-core` command loads its compiled modules from the tree the
    # links point into (src/), not through the links (shim/): both are the old side's.
    bench = _bench_sim()
    root = tmp_path / "a3af601"
    compiled = root / "src" / "interpreter" / "_compiled" / "game.cpython-311-x86_64-linux-gnu.so"
    assert bench._engine_is_from(str(compiled), root)
    assert bench._engine_is_from(str(root / "shim" / "clankwork" / "interpreter" / "game.py"), root)
    assert not bench._engine_is_from(str(ROOT / "interpreter" / "game.py"), root)

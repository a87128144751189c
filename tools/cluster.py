"""`clankwork simulate --dask`: play a run's chunks on a Dask cluster.

The pack is scattered to the workers once; each task plays one chunk of games (its first
game number and seeds) and returns the chunk's totals, which `ChunkMerger` folds in chunk
order. Dask reruns a task whose worker died; the merger refuses a chunk index it has seen,
so a rerun chunk is counted once. The report is the same as with ``--jobs 1``.

Before the client connects, `check_scheduler` makes Dask's own connection and handshake to a
``tcp://`` or ``tls://`` address under one deadline, so what answers there and is not a Dask
scheduler (a web server, a proxy) is a one-line `ClusterError` rather than whatever Dask's
decoder makes of its bytes (an HTTP reply read as a frame length asks for 3 EiB), and a peer
that accepts and says nothing cannot hang the run (Dask puts no timeout on the handshake).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import uuid
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from clankwork.interpreter.stats import RunTotals

if TYPE_CHECKING:
    from .simulate import ChunkMerger, Runner, RunSpec

INSTALL_HINT = "--dask needs dask.distributed: pip install 'clankwork[dask]'"

# Seconds to wait for a scheduler at a tcp:// address (connection and handshake) before
# giving up.
CONNECT_TIMEOUT = 20
DEFAULT_PORT = 8786

# Chunks in flight per worker (here, in processes or on a cluster): enough to keep every
# worker busy while results come back, few enough that out-of-order results waiting for their
# turn stay a handful.
WINDOW_PER_WORKER = 3


class DaskMissing(Exception):
    """dask.distributed is not installed (it is an optional extra)."""

    def __str__(self) -> str:
        return INSTALL_HINT


class ClusterError(Exception):
    """The scheduler could not be reached or the cluster could not start."""


# The runner of the run a worker process last played (its catalog prepared once per run).
_RUNNERS: dict[str, Runner] = {}


def dask_chunk(token: str, spec: RunSpec, start: int, seeds: list[int], keep: int) -> RunTotals:
    """A Dask task: play one chunk of run ``token`` on this worker (``spec.runner()`` plays
    it: a run's, or a compared pair's)."""
    runner = _RUNNERS.get(token)
    if runner is None:
        _RUNNERS.clear()  # one run at a time per worker: a finished run's catalog is dropped
        runner = _RUNNERS[token] = spec.runner()
    return runner.run_chunk(start, seeds, keep)


def local_workers(jobs: int) -> int:
    """Worker processes of a ``--dask local`` cluster: ``jobs``, or one per CPU for 0."""
    return jobs if jobs >= 1 else (os.cpu_count() or 1)


def _die_with(parent: int) -> None:
    # A worker of a LocalCluster is a child of this process: it ends if this process is killed.
    def watch() -> None:
        import time

        while os.getppid() == parent:
            time.sleep(0.25)
        os._exit(1)

    if os.getppid() == parent:
        threading.Thread(target=watch, daemon=True).start()


def check_scheduler(address: str, timeout: float) -> None:
    """`ClusterError` unless a Dask scheduler completes Dask's handshake at ``address``
    within ``timeout`` seconds (the connection is closed again). A closed port is said at
    once, where Dask would retry it until its timeout."""
    from distributed.comm import connect
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        host, port = parse_host_port(parse_address(address)[1], DEFAULT_PORT)
    except ValueError as e:
        raise ClusterError(f"{address}: not a scheduler address ({e})") from None
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except ConnectionRefusedError:
        raise ClusterError(
            f"nothing listens at {address} (connection refused): start the Dask scheduler "
            "there, or check the host and port"
        ) from None
    except OSError as e:
        raise ClusterError(f"no Dask scheduler at {address}: {e.strerror or e}") from None

    async def handshake() -> None:
        comm = await connect(address, timeout=timeout)
        await comm.close()

    scheduler = f"give a Dask scheduler's address (tcp://HOST:{DEFAULT_PORT} by default)"
    try:
        asyncio.run(asyncio.wait_for(handshake(), timeout))
    except TimeoutError:  # before OSError, which it is
        raise ClusterError(
            f"{address} accepted the connection but did not answer in Dask's protocol within "
            f"{timeout:g} s: it is not a Dask scheduler, or one too busy to answer; {scheduler}"
        ) from None
    except OSError as e:
        raise ClusterError(f"no Dask scheduler at {address}: {e}") from None
    except Exception:  # what Dask's decoder makes of another protocol's bytes
        raise ClusterError(
            f"{address} answered, but not in Dask's protocol (a web server or a proxy?): "
            f"{scheduler}"
        ) from None


def run_on_dask(
    address: str,
    spec: RunSpec,
    plan: Iterator[tuple[int, int, list[int]]],
    merger: ChunkMerger,
    *,
    workers: int,
    keep: int,
    on_client: Any = None,
) -> None:
    """Play ``plan``'s chunks on a cluster (``"local"`` or ``tcp://HOST:PORT``) into ``merger``.

    ``on_client(client, index)``, if given, is called as chunk ``index`` is merged (tests use
    it to kill a worker mid-run).
    """
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise DaskMissing() from None

    cluster = None
    try:
        if address == "local":
            cluster = LocalCluster(
                n_workers=local_workers(workers),
                threads_per_worker=1,  # the games hold the GIL: one per process
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            client = Client(cluster)
            parent = os.getpid()
            client.register_plugin(_parent_watch(parent))
        else:
            check_scheduler(address, CONNECT_TIMEOUT)
            client = Client(address, timeout=CONNECT_TIMEOUT)
    except OSError as e:
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"no Dask scheduler at {address}: {e}") from None
    token = uuid.uuid4().hex
    try:
        shared = client.scatter(spec, broadcast=True, hash=False)
        size = max(len(client.scheduler_info()["workers"]), 1)
        window = size * WINDOW_PER_WORKER
        index_of: dict[str, int] = {}
        running = as_completed()

        def fill() -> None:
            while not merger.done and len(index_of) < window:
                item = next(plan, None)
                if item is None:
                    return
                index, start, seeds = item
                future = client.submit(
                    dask_chunk, token, shared, start, seeds, keep, key=f"clankwork-{token}-{index}"
                )
                index_of[future.key] = index
                running.add(future)

        fill()
        for future in running:
            index = index_of.pop(future.key)
            # A chunk's error waits for its turn, as with --jobs: the first failing game.
            error = future.exception()
            merger.offer(index, error if error is not None else future.result())
            future.release()
            if on_client is not None:
                on_client(client, index)
            if merger.done:
                break
            fill()
        running.clear()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _parent_watch(parent: int) -> Any:
    """A worker plugin that makes each worker of a LocalCluster (restarted ones too) end
    when this process does. Made here: importing distributed costs most of a second."""
    from distributed.diagnostics.plugin import WorkerPlugin

    class ParentWatch(WorkerPlugin):
        name = "clankwork-parent-watch"

        def setup(self, worker: Any) -> None:
            _die_with(parent)

    return ParentWatch()

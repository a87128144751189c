"""A game log file read and checked, and the packs its header names, compiled once a run:
for `clankwork replay` and its web page (`replay --html`)."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import click

from clankwork.dsl.limits import MAX_DATA_BYTES
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.log import GameLog, LogError, ReplayMismatch, read_log

from .check import bundled_names, load_ir


class Packs:
    """Packs compiled once per run of the command, by name (or the --pack path)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.irs: dict[str, dict[str, Any]] = {}
        self.catalogs: dict[tuple[str, str], Catalog] = {}

    def ir(self, name: str) -> dict[str, Any]:
        """The IR `catalog` compiled for the log's pack ``name`` (call `catalog` first)."""
        return self.irs[str(self.path) if self.path is not None else name]

    def catalog(self, name: str, board: str) -> Catalog:
        key = str(self.path) if self.path is not None else name
        if key not in self.irs:
            if self.path is None and name not in bundled_names():
                # The log names its pack, and anyone can write a log: only a bundled pack's
                # exact name is looked up, never a folder (`bundled_pack` refuses paths too).
                raise click.ClickException(
                    f"the log's header names pack {name!r}, which is not a bundled pack "
                    f"({', '.join(bundled_names())}): replay it with --pack PACK (the pack's "
                    "folder or IR file)"
                )
            self.irs[key] = load_ir(self.path, name)
        if (key, board) not in self.catalogs:
            try:
                self.catalogs[key, board] = prepare(self.irs[key], board)
            except ValueError as e:
                raise ReplayMismatch(f"the log was played on board {board!r}: {e}") from None
        return self.catalogs[key, board]


def read_log_file(path: Path) -> GameLog:
    """A log file read (a regular file, at most `MAX_DATA_BYTES`) and checked line by line."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise LogError("not a regular file (a folder, a pipe or a device?): give a .jsonl log")
        with path.open("rb") as f:
            data = f.read(MAX_DATA_BYTES + 1)
    except OSError as e:
        raise LogError(f"cannot read: {e.strerror or e}") from None
    if len(data) > MAX_DATA_BYTES:
        raise LogError(
            f"the log is larger than {MAX_DATA_BYTES} bytes, the limit for one file "
            "(MAX_DATA_BYTES, CW006): is it a game log?"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise LogError("not UTF-8 text", line) from None
    return read_log(text)


def version_note(glog: GameLog, cat: Catalog) -> str:
    """How the log's pack and version differ from the pack given ('' when they match)."""
    h = glog.header
    notes = []
    if h["pack"] != cat.name:
        notes.append(f"the log is of pack {h['pack']!r}, the pack given is {cat.name!r}")
    if h["version"] != cat.version:
        notes.append(
            f"the log was written with {h['pack']} {h['version'] or '(no version)'}, "
            f"the pack is now {cat.version or '(no version)'}"
        )
    return "; ".join(notes)

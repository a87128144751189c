"""A game's log file written as the game goes (`clankwork play`, in the terminal or the
browser): one JSON line per record, on disk before the next question is asked."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .outputs import OutputError, check_file_target, plan_write, write_text


class LiveLog:
    """The game's log file, written as the game goes: one JSON line per record, at once.

    The file is first created through `outputs.write_text` (a fresh file renamed into place:
    a link planted at the path is replaced, never followed), then opened for appending
    without following links and checked to be a regular file. Each record is one unbuffered
    ``os.write``, so what a game has decided is on disk when the next question is asked.
    A FIFO or a device is refused, not streamed to: an undo rewrites the file from its start.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        if plan_write(path, named=True) == "stream":
            raise OutputError(
                f"cannot write {path}: it is not a regular file, and the game's log is "
                "rewritten from its start when you undo (choose a file name)"
            )
        check_file_target(path)
        write_text(path, "")
        flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
        try:
            self.fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
        except OSError as e:
            raise OutputError(f"cannot write {path}: {e.strerror or e}") from None
        if not stat.S_ISREG(os.fstat(self.fd).st_mode):
            os.close(self.fd)
            raise OutputError(f"cannot write {path}: not a regular file")

    def restart(self, records: Sequence[dict[str, Any]]) -> None:
        """Empty the file and write ``records`` (a game started again, after an undo)."""
        os.ftruncate(self.fd, 0)
        for r in records:
            self.add(r)

    def add(self, record: dict[str, Any]) -> None:
        """Append one record."""
        data = (json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]

    def close(self) -> None:
        """Close the file (what was written stays); closing it again does nothing."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

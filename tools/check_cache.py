"""What `compile_and_check` keeps between two runs on one pack, for the language server.

An edit changes one file. Of checking the pack again (`clankwork check`'s stages: compile,
board checks, scenarios, the IR schema) this keeps what the edit cannot have changed:

- every file's statements (`dsl.incremental`): an edited file re-parses only the
  statements whose text changed;
- each scenario file's whole parse (`LastParse`), which its balance blocks are read from;
- the compiled pack and its board checks, while no file it read has changed: an edit of a
  scenario file compiles that file's scenarios and nothing else;
- each scenario file's scenarios, by its text, for the compiled pack they were checked
  against;
- the IR schema's verdict on the compiled pack.

A compile that read a file it could not (missing, refused, too large: CW004-CW007), or a
pack whose cards have art (files the compile reads but does not parse), is not kept: the
next run compiles again.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clankwork.dsl.compiler import CompileResult, parser
from clankwork.dsl.diagnostics import Diagnostic
from clankwork.dsl.incremental import IncrementalParser
from clankwork.dsl.parser import Stmt
from clankwork.dsl.scenarios import ScenarioFile

_READER_CODES = ("CW004", "CW005", "CW006", "CW007")


@dataclass
class PackPart:
    """One compile of the pack and what depends on its IR alone."""

    result: CompileResult  # as compile_pack gave it: never changed afterwards
    board: list[Diagnostic]
    root: str  # the pack's real folder
    scenarios: dict[tuple[str, str], ScenarioFile] = field(default_factory=dict)
    schema: list[tuple[str, str]] | None = None  # validate_ir's answer, once asked


class LastParse:
    """`Parser.parse` of whole files, keeping each file's last text and what it gave.

    A run of `compile_and_check` reads each scenario file twice (its scenarios, then its
    balance blocks), and an edit elsewhere leaves them as they were: parsing them again was
    most of the time of checking a pack from the command line or after an edit of a big
    file. Callers read the statements and never change them."""

    def __init__(self) -> None:
        self.last: dict[str, tuple[str, tuple[list[Stmt], list[Diagnostic]]]] = {}

    def parse(self, text: str, filename: str) -> tuple[list[Stmt], list[Diagnostic]]:
        """What `Parser.parse` gives for ``text``, parsed again only when it changed."""
        kept = self.last.get(filename)
        if kept is None or kept[0] != text:
            kept = (text, parser().parse(text, filename))
            self.last[filename] = kept
        return kept[1]


class CheckCache:
    """Kept between runs of `compile_and_check` on one pack; counts what it saved."""

    def __init__(self) -> None:
        self.parser = IncrementalParser(parser())
        self.whole = LastParse()  # the scenario files' balance blocks
        self.part: PackPart | None = None
        self.compiles = 0  # runs that compiled the pack
        self.reuses = 0  # runs that found it unchanged

    def parse(self, text: str, filename: str) -> Any:
        """`Parser.parse`, re-parsing only the statements that changed."""
        return self.parser.parse(text, filename)

    def unchanged(self, pack: Path, overrides: Mapping[str, str] | None) -> PackPart | None:
        """The kept compile of ``pack`` when every file it read holds the same text now
        (the editor's buffer when ``overrides`` has it, else the file on disk), else None."""
        part = self.part
        if part is None or part.root != os.path.realpath(pack):
            return None
        overrides = overrides or {}
        for shown, text in part.result.sources.items():
            path = os.path.join(os.getcwd(), shown)  # as PackReader showed it
            real = os.path.realpath(path)
            rel = os.path.relpath(real, part.root)
            if not rel.startswith(os.pardir) and Path(rel).as_posix() in overrides:
                if overrides[Path(rel).as_posix()] != text:
                    return None
                continue
            if _disk_text(path) != text:
                return None
        return part

    def keep(self, pack: Path, result: CompileResult, board: list[Diagnostic]) -> PackPart:
        """Keep this compile of ``pack`` when the next run may use it (see the module)."""
        part = PackPart(result, board, os.path.realpath(pack))
        ir = result.ir
        reread = any(d.code in _READER_CODES for d in result.diagnostics) or (
            ir is not None and any("art" in c for c in ir["cards"])
        )
        self.part = None if reread else part
        return part


def _disk_text(path: str) -> str | None:
    """The text of the regular file at ``path`` (not a link), or None."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        with open(path, "rb") as f:
            return f.read().decode("utf-8")  # as PackReader reads it: line ends kept
    except (OSError, UnicodeDecodeError):
        return None

"""Unsaved editor text read in place of a pack's files (`compile_pack(..., overrides=...)`)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from clankwork.dsl import limits
from clankwork.dsl.compiler import compile_pack
from clankwork.tools.check import bundled_pack, compile_and_check


@pytest.fixture()
def pack(tmp_path: Path) -> Path:
    dest = tmp_path / "tutorial"
    shutil.copytree(bundled_pack("tutorial"), dest)
    return dest


def test_override_replaces_the_file_on_disk(pack: Path) -> None:
    text = (pack / "adventure.clank").read_text().replace("+2 gold", "+2 goldd", 1)
    result = compile_pack(pack, display_root="p", overrides={"adventure.clank": text})
    codes = [(d.code, d.span.file if d.span else None) for d in result.diagnostics]
    assert ("CW103", "p/adventure.clank") in codes
    assert result.sources["p/adventure.clank"] == text
    # The file on disk is untouched and still compiles clean.
    assert compile_pack(pack).ok


def test_override_of_a_scenario_file(pack: Path) -> None:
    name = next((pack / "scenarios").glob("*.clank")).name
    result = compile_and_check(pack, overrides={f"scenarios/{name}": "scenario {"})
    assert any(d.code in ("CW001", "CW003") for d in result.diagnostics)


def test_override_cannot_bypass_a_link_out_of_the_pack(pack: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.clank"
    outside.write_text("card Secret { cost 1; play: +1 gold }\n")
    (pack / "adventure.clank").unlink()
    os.symlink(outside, pack / "adventure.clank")
    # Keyed by the link's name or by the target's path outside: refused either way.
    for key in ("adventure.clank", "../secret.clank"):
        result = compile_pack(pack, overrides={key: "card X { cost 1 }\n"})
        assert [d.code for d in result.diagnostics] == ["CW005"]
        assert result.ir is None


def test_override_counts_toward_the_size_limit(pack: Path) -> None:
    big = "#" * (limits.MAX_FILE_BYTES + 1)
    result = compile_pack(pack, overrides={"adventure.clank": big})
    assert [d.code for d in result.diagnostics] == ["CW006"]


def test_override_of_a_fifo_is_refused(pack: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    (pack / "adventure.clank").unlink()
    os.mkfifo(pack / "adventure.clank")
    result = compile_pack(pack, overrides={"adventure.clank": "card X { cost 1 }\n"})
    assert [d.code for d in result.diagnostics] == ["CW005"]

"""The parser's tables are kept between runs in a private folder, and only there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clankwork.dsl.parser import Parser, tables_cache

TEXT = 'card "Lucky Coin" { cost 1; play: +1 skill, draw 1 }\nmonster Goblin { fight 2 }\n'


def test_the_tables_are_kept_and_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLANKWORK_CACHE_DIR", str(tmp_path / "cache"))
    where = tables_cache()
    assert where is not None and not os.path.exists(where)
    first = Parser().parse(TEXT, "a.clank")
    assert os.path.getsize(where) > 0
    assert os.stat(tmp_path / "cache").st_mode & 0o777 == 0o700
    assert Parser().parse(TEXT, "a.clank") == first  # read back from the file
    Path(where).write_bytes(b"not tables\n")  # damaged: rebuilt, never an error
    assert Parser().parse(TEXT, "a.clank") == first


def test_no_cache_in_a_folder_others_may_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("CLANKWORK_CACHE_DIR", str(shared))
    assert tables_cache() is None
    monkeypatch.setenv("CLANKWORK_CACHE_DIR", "")
    assert tables_cache() is None
    monkeypatch.setenv("CLANKWORK_CACHE_DIR", "relative/folder")
    assert tables_cache() is None
    assert Parser().parse(TEXT, "a.clank")[0]

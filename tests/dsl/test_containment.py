"""A pack reads only regular files inside its own folder, bounded in size, count and depth."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from clankwork.dsl import limits
from clankwork.dsl.compiler import compile_pack
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.dsl.sources import show_size, utf8_error_position

SECRET = "TOPSECRET-5f1c marker that must never be printed"


@pytest.fixture
def pack(tmp_path: Path, tutorial_dir: Path) -> Path:
    """A copy of the tutorial pack to break."""
    dest = tmp_path / "pack"
    shutil.copytree(tutorial_dir, dest)
    return dest


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file outside the pack with a distinctive marker."""
    path = tmp_path / "secret.clank"
    path.write_text(f'scenario "{SECRET}" {{ players 2 }}\n# {SECRET}\n', encoding="utf-8")
    return path


def codes(diags) -> list[str]:
    return [d.code for d in diags]


def add_include(pack: Path, name: str) -> None:
    with open(pack / "pack.clank", "a", encoding="utf-8") as f:
        f.write(f'include "{name}"\n')


def test_scenario_linked_out_of_the_pack_is_refused(pack: Path, outside: Path) -> None:
    (pack / "scenarios" / "x.clank").symlink_to(outside)
    result = compile_pack(pack)
    assert result.ok
    scenarios, diags, sources = compile_scenarios(pack, result.ir, pack_sources=result.sources)
    assert codes(diags) == ["CW005"]
    d = diags[0]
    assert d.span is not None and d.span.file.endswith("scenarios/x.clank")
    assert "outside the pack folder" in d.message and d.hint
    assert scenarios == []
    assert all(SECRET not in text for text in sources.values())


def test_scenarios_folder_linked_out_is_refused(pack: Path, outside: Path, tmp_path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(outside, elsewhere / "y.clank")
    shutil.rmtree(pack / "scenarios")
    (pack / "scenarios").symlink_to(elsewhere)
    result = compile_pack(pack)
    scenarios, diags, sources = compile_scenarios(pack, result.ir)
    assert codes(diags) == ["CW005"] and "scenarios" in diags[0].message
    assert sources == {} and scenarios == []


def test_link_inside_the_pack_is_fine(pack: Path) -> None:
    scen = pack / "scenarios"
    (pack / "more").mkdir()
    (scen / "rulebook_examples.clank").rename(pack / "more" / "real.clank")
    (scen / "rulebook_examples.clank").symlink_to(pack / "more" / "real.clank")
    (pack / "cards").symlink_to(pack)  # a folder link that stays inside
    add_include(pack, "cards/tokens.clank")  # same file as tokens.clank: read once
    result = compile_pack(pack)
    assert result.ok, result.diagnostics
    scenarios, diags, _ = compile_scenarios(pack, result.ir)
    assert diags == [] and len(scenarios) > 1


def test_pack_folder_given_as_a_link(pack: Path, tmp_path: Path) -> None:
    link = tmp_path / "link-to-pack"
    link.symlink_to(pack)
    result = compile_pack(link)
    assert result.ok, result.diagnostics
    _scenarios, diags, _ = compile_scenarios(link, result.ir)
    assert diags == []


def test_fifo_scenario_is_refused_without_blocking(pack: Path) -> None:
    # Opening a FIFO for reading blocks until a writer comes: if the reader opened it, this
    # test would hang (pytest's run would time out) instead of failing quickly.
    os.mkfifo(pack / "scenarios" / "y.clank")
    result = compile_pack(pack)
    _scenarios, diags, _ = compile_scenarios(pack, result.ir)
    assert codes(diags) == ["CW005"] and "FIFO" in diags[0].message


def test_fifo_manifest_is_refused(pack: Path) -> None:
    (pack / "pack.clank").unlink()
    os.mkfifo(pack / "pack.clank")
    result = compile_pack(pack)
    assert result.ir is None and codes(result.diagnostics) == ["CW005"]


def test_directory_named_like_an_include(pack: Path) -> None:
    (pack / "cards.clank").mkdir()
    add_include(pack, "cards.clank")
    result = compile_pack(pack)
    assert result.ir is None and codes(result.diagnostics) == ["CW005"]
    d = result.diagnostics[0]
    assert "directory" in d.message
    # The span is the include's file name, where the fix goes.
    assert d.span.file.endswith("pack.clank") and d.span.line == 30


def test_directory_named_like_a_scenario(pack: Path) -> None:
    (pack / "scenarios" / "z.clank").mkdir()
    result = compile_pack(pack)
    _scenarios, diags, _ = compile_scenarios(pack, result.ir)
    assert codes(diags) == ["CW005"] and "directory" in diags[0].message


def test_include_linked_out(pack: Path, outside: Path) -> None:
    (pack / "extra.clank").symlink_to(outside)
    add_include(pack, "extra.clank")
    result = compile_pack(pack)
    assert result.ir is None and codes(result.diagnostics) == ["CW005"]
    assert "link" in result.diagnostics[0].message
    assert all(SECRET not in t for t in result.sources.values())


def test_include_through_a_folder_linked_out(pack: Path, outside: Path) -> None:
    (pack / "lib").symlink_to(outside.parent)
    add_include(pack, "lib/secret.clank")
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW005"]
    assert all(SECRET not in t for t in result.sources.values())


def test_include_by_path_out_of_the_pack(pack: Path, outside: Path) -> None:
    add_include(pack, "../secret.clank")
    add_include(pack, str(outside))
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW005", "CW005"]
    assert all("outside the pack folder" in d.message for d in result.diagnostics)


def test_manifest_linked_out(pack: Path, outside: Path) -> None:
    (pack / "pack.clank").unlink()
    (pack / "pack.clank").symlink_to(outside)
    result = compile_pack(pack)
    assert result.ir is None and codes(result.diagnostics) == ["CW005"]
    assert result.diagnostics[0].span.file.endswith("pack.clank")
    assert result.sources == {}


def test_device_via_link_is_refused(pack: Path) -> None:
    (pack / "null.clank").symlink_to("/dev/null")
    add_include(pack, "null.clank")
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW005"]


def test_device_inside_the_pack_is_refused(pack: Path) -> None:
    try:
        os.mknod(pack / "dev.clank", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError):
        pytest.skip("cannot create a device node here (needs root)")
    add_include(pack, "dev.clank")
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW005"] and "device" in result.diagnostics[0].message


def test_socket_is_refused(pack: Path) -> None:
    import socket

    path = pack / "scenarios" / "s.clank"
    if len(os.fsencode(path)) > 100:
        pytest.skip("socket path too long for this system")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(path))
        result = compile_pack(pack)
        _scenarios, diags, _ = compile_scenarios(pack, result.ir)
    finally:
        sock.close()
    assert codes(diags) == ["CW005"] and "socket" in diags[0].message


def test_missing_include_is_still_cw004(pack: Path) -> None:
    add_include(pack, "nope.clank")
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW004"]
    assert result.diagnostics[0].span.line == 30


# -- limits -------------------------------------------------------------------------------


def biggest(pack: Path) -> int:
    return max(p.stat().st_size for p in pack.rglob("*.clank"))


def test_file_larger_than_the_limit(pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    limit = biggest(pack) + 100
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", limit)
    (pack / "big.clank").write_text("# " + "x" * limit + "\n", encoding="utf-8")
    add_include(pack, "big.clank")
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW006"]
    d = result.diagnostics[0]
    assert f"big.clank is larger than {limit:,} bytes, the limit for one file" in d.message
    assert d.hint and d.span.line == 30


def test_growing_file_is_read_to_the_limit_only(
    pack: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The size check does not trust the file's size: reading stops one byte past the limit."""
    import clankwork.dsl.sources as sources

    limit = biggest(pack) + 100
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", limit)
    (pack / "big.clank").write_text("# " + "x" * 10 * limit + "\n", encoding="utf-8")
    add_include(pack, "big.clank")
    real_stat = os.stat
    asked: list[int] = []
    real_read = os.read

    def small_stat(*args, **kwargs):
        st = real_stat(*args, **kwargs)
        if stat.S_ISREG(st.st_mode) and st.st_size > limit:  # pretend it is small
            return os.stat_result((*st[:6], 10, *st[7:10]))
        return st

    big_inode = (pack / "big.clank").stat().st_ino

    def counting_read(fd: int, n: int) -> bytes:
        data = real_read(fd, n)
        if os.fstat(fd).st_ino == big_inode:
            asked.append(len(data))
        return data

    monkeypatch.setattr(sources.os, "stat", small_stat)
    monkeypatch.setattr(sources.os, "read", counting_read)
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW006"]
    assert asked and sum(asked) == limit + 1  # of ten times that


def test_pack_larger_than_the_limit(pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    total = sum(p.stat().st_size for p in pack.glob("*.clank"))
    monkeypatch.setattr(limits, "MAX_PACK_BYTES", total - 10)
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW006"]
    assert "the limit for one pack" in result.diagnostics[0].message


def test_scenarios_count_toward_the_pack_limit(pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    total = sum(p.stat().st_size for p in pack.glob("*.clank"))
    result = compile_pack(pack)
    assert result.ok
    monkeypatch.setattr(limits, "MAX_PACK_BYTES", total + 100)
    _scenarios, diags, _ = compile_scenarios(pack, result.ir, pack_sources=result.sources)
    assert codes(diags) == ["CW006"] and "one pack" in diags[0].message


def test_too_many_files(pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_PACK_FILES", 3)
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW006"]
    assert "more than 3 files" in result.diagnostics[0].message


def test_too_many_scenario_files(pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(20):
        (pack / "scenarios" / f"s{i:02}.clank").write_text("# nothing\n", encoding="utf-8")
    result = compile_pack(pack)
    monkeypatch.setattr(limits, "MAX_PACK_FILES", len(result.sources) + 5)
    _scenarios, diags, _ = compile_scenarios(pack, result.ir, pack_sources=result.sources)
    assert codes(diags) == ["CW006"]


def test_two_thousand_chained_includes(tmp_path: Path) -> None:
    (tmp_path / "pack.clank").write_text(
        'pack chain { version "0.1" }\ninclude "f0.clank"\n', encoding="utf-8"
    )
    for i in range(2000):
        (tmp_path / f"f{i}.clank").write_text(f'include "f{i + 1}.clank"\n', encoding="utf-8")
    (tmp_path / "f2000.clank").write_text("# the end\n", encoding="utf-8")
    result = compile_pack(tmp_path)
    assert codes(result.diagnostics) == ["CW007"]
    d = result.diagnostics[0]
    assert f"more than {limits.MAX_INCLUDE_DEPTH} includes deep" in d.message
    assert d.span.file.endswith(f"f{limits.MAX_INCLUDE_DEPTH - 1}.clank")
    assert len(result.sources) == limits.MAX_INCLUDE_DEPTH + 1


def test_include_cycle_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "pack.clank").write_text(
        'pack loop { version "0.1" }\ninclude "a.clank"\n', encoding="utf-8"
    )
    (tmp_path / "a.clank").write_text('include "pack.clank"\n', encoding="utf-8")
    result = compile_pack(tmp_path)
    assert "CW007" not in codes(result.diagnostics)
    assert len(result.sources) == 2


def test_declaration_order_follows_the_includes(tmp_path: Path) -> None:
    """Depth first, as written: the first declaration of a duplicate is the one reported
    as first, whatever the loader's shape."""
    (tmp_path / "pack.clank").write_text(
        'pack o { version "0.1" }\ninclude "a.clank"\ninclude "c.clank"\n', encoding="utf-8"
    )
    (tmp_path / "a.clank").write_text('include "b.clank"\n', encoding="utf-8")
    (tmp_path / "b.clank").write_text("token Gem { }\n", encoding="utf-8")
    (tmp_path / "c.clank").write_text("token Gem { }\n", encoding="utf-8")
    result = compile_pack(tmp_path)
    assert list(result.sources) == [
        f"{tmp_path.as_posix()}/{n}" for n in ("pack.clank", "a.clank", "b.clank", "c.clank")
    ]
    dup = [d for d in result.diagnostics if d.code == "CW106"]
    assert dup and dup[0].span.file.endswith("c.clank")


# -- UTF-8 --------------------------------------------------------------------------------


def test_invalid_utf8_names_line_and_column(pack: Path) -> None:
    (pack / "bad.clank").write_bytes('# ok\ntoken "Gé" '.encode() + b"\xff{ }\n")
    add_include(pack, "bad.clank")
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW004"]
    d = result.diagnostics[0]
    assert (d.span.line, d.span.col) == (2, 12)
    assert d.span.file.endswith("bad.clank")
    assert "line 2, column 12" in d.message and "byte" in d.message
    assert d.notes and d.notes[0][1].line == 30  # the include that named it


def test_utf8_error_position_counts_characters() -> None:
    data = "é\nab€\r\ncd".encode() + b"\xc3(" + b"\n"
    start = data.index(b"\xc3(")
    assert utf8_error_position(data, start) == (3, 3)
    assert utf8_error_position(b"\xff", 0) == (1, 1)
    assert utf8_error_position("€€".encode() + b"\x80", 6) == (1, 3)


def test_show_size() -> None:
    assert show_size(16 * 1024 * 1024) == "16 MiB"
    assert show_size(64 * 1024) == "64 KiB"
    assert show_size(2000) == "2,000 bytes"
    assert show_size(1) == "1 byte"


# -- platforms without dir_fd, folders that cannot be opened -------------------------------


def test_without_dir_fd_the_same_files_are_refused(
    pack: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import clankwork.dsl.sources as sources

    monkeypatch.setattr(sources, "_DIR_FD", False)
    result = compile_pack(pack)
    assert result.ok, result.diagnostics
    scen = pack / "scenarios"
    (scen / "x.clank").symlink_to(outside)
    os.mkfifo(scen / "y.clank")
    (scen / "z.clank").mkdir()
    scenarios, diags, sources_read = compile_scenarios(pack, result.ir)
    assert codes(diags) == ["CW005", "CW005", "CW005"]
    assert all(SECRET not in t for t in sources_read.values())
    assert scenarios == []


def test_pack_folder_that_cannot_be_opened(pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import clankwork.dsl.sources as sources

    real_open = os.open
    root = os.path.realpath(pack)

    def no_entry(path, flags, *args, **kwargs):
        if os.fspath(path) == root:
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(sources.os, "open", no_entry)
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW004"]
    assert "Permission denied" in result.diagnostics[0].message


def test_link_loop_and_dangling_link(pack: Path) -> None:
    (pack / "a.clank").symlink_to("b.clank")
    (pack / "b.clank").symlink_to("a.clank")
    (pack / "c.clank").symlink_to("missing.clank")
    add_include(pack, "a.clank")
    add_include(pack, "c.clank")
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW005", "CW004"]
    assert "loop" in result.diagnostics[0].message
    assert "No such file" in result.diagnostics[1].message


def test_dot_dot_after_a_link_out_is_followed_as_the_system_would(
    pack: Path, outside: Path, tmp_path: Path
) -> None:
    """`lib/../secret.clank` with lib a link to a folder outside: the system reads the file
    next to that folder, outside the pack, so it is refused (not read as pack/secret.clank)."""
    (tmp_path / "deep").mkdir()
    (pack / "lib").symlink_to(tmp_path / "deep")
    (pack / "secret.clank").write_text("# inside\n", encoding="utf-8")
    add_include(pack, "lib/../secret.clank")
    result = compile_pack(pack)
    assert codes(result.diagnostics) == ["CW005"]


def test_nul_in_an_include_name(pack: Path) -> None:
    add_include(pack, "a\x00b.clank")
    result = compile_pack(pack)
    assert "CW004" in codes(result.diagnostics)

"""Output files: safe names, no link followed, atomic replacement, one-line errors (exit 2)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import stat
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from clankwork.tools.cli import main
from clankwork.tools.outputs import (
    MAX_NAME_CHARS,
    OutputError,
    check_file_target,
    prepare_dir,
    safe_filename,
    write_bytes,
    write_text,
)

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "content" / "tutorial"
as_root = hasattr(os, "geteuid") and os.geteuid() == 0


def cli(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_exit_2(result: Result) -> str:
    """The error of a failed command: exit status 2 and one error line (click adds its usage
    lines before the errors it finds itself, such as a --log-dir that is a file)."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("Error")]
    assert len(errors) == 1 and len(lines) in (1, 3), result.stderr
    return errors[0]


# --- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "../../etc/passwd",
        "/etc/passwd",
        "a/b\\c",
        "..",
        ".hidden",
        "CON",
        "nul",
        "lpt1",
        "tab\there\nnewline\x00nul\x1b[31m",
        "x" * 5000,
        "",
        "\u2620\u2620",
    ],
)
def test_a_name_never_chooses_where_a_file_goes(name: str) -> None:
    out = safe_filename(name, ".svg")
    stem = out.removesuffix(".svg")
    assert out.endswith(".svg") and stem
    assert "/" not in out and "\\" not in out and ".." not in out
    assert not out.startswith(".") and not out.startswith("-")
    assert all(ch.isascii() and (ch.isalnum() or ch in "-.") for ch in out)
    assert stem.lower() not in {"con", "prn", "aux", "nul", "lpt1", "com1"}
    assert len(stem) <= MAX_NAME_CHARS


def test_collisions_get_distinct_names_in_order() -> None:
    names = ["Dragon's Maw!", "Dragon's Maw?", "dragon s maw", "", "\u2620"]
    first = [safe_filename(n, ".svg", set(), fallback="card") for n in names]
    taken: set[str] = set()
    got = [safe_filename(n, ".svg", taken, fallback="card") for n in names]
    assert got == [
        "dragon-s-maw.svg",
        "dragon-s-maw-2.svg",
        "dragon-s-maw-3.svg",
        "card.svg",
        "card-2.svg",
    ]
    assert first[0] == got[0]
    # The same names in the same order give the same files, run after run.
    again: set[str] = set()
    assert [safe_filename(n, ".svg", again, fallback="card") for n in names] == got


# --- writing -------------------------------------------------------------------------------


def test_a_link_at_the_target_is_replaced_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("precious", encoding="utf-8")
    folder = tmp_path / "out"
    folder.mkdir()
    link = folder / "card.svg"
    link.symlink_to(outside)
    write_text(link, "<svg/>")
    assert outside.read_text(encoding="utf-8") == "precious"
    assert not link.is_symlink() and link.read_text(encoding="utf-8") == "<svg/>"
    assert sorted(p.name for p in folder.iterdir()) == ["card.svg"]  # no temporary left


def test_a_dangling_link_is_replaced_too(tmp_path: Path) -> None:
    target = tmp_path / "would-be-created"
    link = tmp_path / "out.json"
    link.symlink_to(target)
    write_text(link, "{}")
    assert not target.exists() and not link.is_symlink()


def test_a_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch) -> None:
    good = tmp_path / "good.json"
    good.write_bytes(b"old contents\n")

    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OutputError, match="No space left on device.*free some space"):
        write_bytes(good, b"new contents\n" * 1000)
    monkeypatch.undo()
    assert good.read_bytes() == b"old contents\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.json"]


def test_target_and_folder_checks(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="does not exist"):
        check_file_target(tmp_path / "missing" / "x.json")
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="is a file, not a folder"):
        check_file_target(tmp_path / "file" / "x.json")
    with pytest.raises(OutputError, match="is a folder"):
        check_file_target(tmp_path)
    with pytest.raises(OutputError, match="cannot create"):
        prepare_dir(tmp_path / "file" / "sub")
    assert prepare_dir(tmp_path / "a" / "b").is_dir()


# --- the commands --------------------------------------------------------------------------


@pytest.fixture
def broken_pack(tmp_path: Path) -> Path:
    pack = tmp_path / "broken"
    pack.mkdir()
    (pack / "pack.clank").write_text('pack broken { version "1" }\ncard X { cots 3 }\n')
    return pack


def test_a_failed_build_leaves_good_json_as_it_was(
    tmp_path: Path, broken_pack: Path, monkeypatch
) -> None:
    good = tmp_path / "good.json"
    assert cli("build", TUTORIAL, "-o", good).exit_code == 0
    before = good.read_bytes()
    assert before.startswith(b"{")
    # A pack with errors: exit 1, nothing written.
    result = cli("build", broken_pack, "-o", good)
    assert result.exit_code == 1 and "cots" in result.stderr
    assert good.read_bytes() == before
    # A write that fails half-way (the disk fills up): exit 2, one line, the old file intact.
    real_write = os.write
    calls = []

    def fills_up(fd: int, data: object) -> int:
        calls.append(fd)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, bytes(memoryview(data)[:100]))  # type: ignore[arg-type]

    monkeypatch.setattr(os, "write", fills_up)
    line = one_line_exit_2(cli("build", TUTORIAL, "-o", good))
    monkeypatch.undo()
    assert "good.json" in line and "No space left on device" in line
    assert len(calls) > 1  # it did start writing
    assert good.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken", "good.json"]


def test_build_output_errors_are_one_line_exit_2(tmp_path: Path) -> None:
    line = one_line_exit_2(cli("build", TUTORIAL, "-o", tmp_path / "nope" / "x.json"))
    assert "does not exist" in line
    (tmp_path / "file").write_text("x")
    line = one_line_exit_2(cli("build", TUTORIAL, "-o", tmp_path / "file" / "x.json"))
    assert "is a file, not a folder" in line


@pytest.mark.skipif(as_root, reason="root can write in a read-only folder")
def test_read_only_folder_is_exit_2(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        line = one_line_exit_2(cli("build", TUTORIAL, "-o", ro / "x.json"))
        assert "is not writable" in line
        line = one_line_exit_2(cli("simulate", "-n", "1", "--json", ro / "r.json"))
        assert "is not writable" in line
    finally:
        ro.chmod(stat.S_IRWXU)


def test_render_cards_refuses_to_follow_a_planted_link(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    out = tmp_path / "cards"
    out.mkdir()
    (out / "burgle.svg").symlink_to(outside)
    (out / "cards.html").symlink_to(outside)
    result = cli("render", "cards", TUTORIAL, "-o", out, "--sheet")
    assert result.exit_code == 0, result.output
    assert outside.read_text() == "precious"
    assert not (out / "burgle.svg").is_symlink() and (out / "burgle.svg").read_text().startswith(
        "<?xml"
    )
    assert not (out / "cards.html").is_symlink()


def test_render_output_errors(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    line = one_line_exit_2(cli("render", "cards", TUTORIAL, "-o", tmp_path / "file" / "sub"))
    assert "cannot create output folder" in line
    line = one_line_exit_2(
        cli("render", "board", TUTORIAL, "-o", tmp_path / "none" / "b.dot", "--format", "dot")
    )
    assert "does not exist" in line


def test_render_board_default_name_is_a_safe_file_name(tmp_path: Path, monkeypatch) -> None:
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "pack.clank").write_text(
        (TUTORIAL / "pack.clank").read_text().replace("board overworld", 'board "../../up"')
    )
    for other in TUTORIAL.glob("*.clank"):
        if other.name != "pack.clank":
            text = other.read_text().replace("board overworld", 'board "../../up"')
            (pack / other.name).write_text(text)
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    result = cli("render", "board", pack, "--format", "dot")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in work.iterdir()) == ["up.dot"]
    assert not (tmp_path / "up.dot").exists()


def test_simulate_output_errors_come_before_any_game(tmp_path: Path, monkeypatch) -> None:
    from clankwork.tools import simulate as sim

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before the output was checked")

    monkeypatch.setattr(sim, "simulate", never)
    line = one_line_exit_2(cli("simulate", "-n", "100000", "--json", tmp_path / "no" / "r.json"))
    assert "does not exist" in line
    (tmp_path / "file").write_text("x")
    line = one_line_exit_2(cli("simulate", "-n", "100000", "--log-dir", tmp_path / "file"))
    assert "is a file" in line
    line = one_line_exit_2(cli("simulate", "-n", "100000", "--log-dir", tmp_path / "file" / "l"))
    assert "cannot create log folder" in line
    line = one_line_exit_2(cli("simulate", "-n", "100000", "--json", tmp_path))
    assert "is a directory" in line
    # A read-only folder (made so for everyone, root included, by os.access saying so).
    real_access = os.access
    ro = tmp_path / "ro"
    ro.mkdir()
    monkeypatch.setattr(os, "access", lambda p, m, **k: Path(p) != ro and real_access(p, m))
    line = one_line_exit_2(cli("simulate", "-n", "100000", "--json", ro / "r.json"))
    assert f"cannot write {ro / 'r.json'}: folder {ro} is not writable" in line


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_simulate_disk_full_is_one_line(tmp_path: Path, monkeypatch, jobs: str) -> None:
    # With --jobs 2 the workers (forked on Linux, so patched too) fail and the parent says so.
    if jobs != "1" and sys.platform != "linux":
        pytest.skip("spawned workers do not inherit the patched os.write")

    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    result = cli("simulate", "-n", "60", "-p", "2", "-j", jobs, "--log-dir", tmp_path / "logs")
    monkeypatch.undo()
    line = one_line_exit_2(result)
    assert "game-000000.jsonl" in line and "No space left on device" in line
    assert list((tmp_path / "logs").iterdir()) == []


def test_docs_write_replaces_a_planted_link(tmp_path: Path, monkeypatch) -> None:
    from clankwork.tools import docs as docs_tool

    (tmp_path / "pyproject.toml").write_text("")  # a checkout, as far as --write can tell
    folder = tmp_path / "docs"
    folder.mkdir()
    outside = tmp_path / "outside.md"
    outside.write_text("precious")
    (folder / "diagnostics.md").symlink_to(outside)
    monkeypatch.setattr(docs_tool, "DOCS", folder)
    result = cli("docs", "--write", "diagnostics")
    assert result.exit_code == 0, result.output
    assert outside.read_text() == "precious"
    written = folder / "diagnostics.md"
    assert not written.is_symlink() and written.read_text().startswith("# Diagnostic codes")
    assert sorted(p.name for p in folder.iterdir()) == ["diagnostics.md"]


def test_simulate_replaces_links_planted_in_its_outputs(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "game-000000.jsonl").symlink_to(outside)
    (tmp_path / "r.json").symlink_to(outside)
    result = cli("simulate", "-n", "1", "-p", "2", "--log-dir", logs, "--json", tmp_path / "r.json")
    assert result.exit_code == 0, result.output
    assert outside.read_text() == "precious"
    assert not (logs / "game-000000.jsonl").is_symlink()
    assert not (tmp_path / "r.json").is_symlink()
    assert (tmp_path / "r.json").read_text().startswith("{")


# --- what is not a regular file ------------------------------------------------------------
# Special files are made inside tmp_path only; no test opens or names a system device.


class FifoReader:
    """Reads everything written into a FIFO in tmp_path, without ever blocking the test: a
    reader and a keeper write end are opened first (so neither the command's open nor the
    reads wait on the other), and closing the keeper after the command ends the reading."""

    def __init__(self, fifo: Path) -> None:
        self.fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        os.set_blocking(self.fd, True)
        self.keeper = os.open(fifo, os.O_WRONLY)
        self.chunks: list[bytes] = []
        self.thread = threading.Thread(target=self._read)
        self.thread.start()

    def _read(self) -> None:
        while chunk := os.read(self.fd, 65536):
            self.chunks.append(chunk)

    def data(self) -> bytes:
        """What was written, once the writer is done."""
        os.close(self.keeper)
        self.thread.join()
        os.close(self.fd)
        return b"".join(self.chunks)


def _char_device(path: Path, minor: int) -> Path:
    """A character device node in tmp_path: minor 3 reads like /dev/null, 7 like /dev/full."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, minor))
        os.close(os.open(path, os.O_WRONLY))
    except OSError as e:  # no CAP_MKNOD, or tmp_path mounted nodev
        with contextlib.suppress(OSError):
            path.unlink()
        pytest.skip(f"cannot make a device node in tmp_path: {e}")
    return path


def test_a_fifo_named_as_output_is_written_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "to-fifo"
    link.symlink_to(fifo)
    for target in (fifo, link):
        reader = FifoReader(fifo)
        result = cli("build", TUTORIAL, "-o", target)
        data = reader.data()
        assert result.exit_code == 0, result.output
        assert stat.S_ISFIFO(fifo.lstat().st_mode) and link.is_symlink()
        assert data.startswith(b"{") and json.loads(data)["pack"]["name"] == "tutorial"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "to-fifo"]
    # A report too (checked before the games, written at the end).
    reader = FifoReader(fifo)
    result = cli("simulate", "-n", "1", "-p", "2", "--json", link)
    assert result.exit_code == 0, result.output
    assert json.loads(reader.data())["games"] == 1


@pytest.mark.skipif(not as_root, reason="making a device node needs root")
def test_a_character_device_named_as_output_is_written_not_replaced(tmp_path: Path) -> None:
    null = _char_device(tmp_path / "null", 3)
    full = _char_device(tmp_path / "full", 7)
    link = tmp_path / "to-full"
    link.symlink_to(full)
    assert cli("build", TUTORIAL, "-o", null).exit_code == 0
    for target in (full, link):
        line = one_line_exit_2(cli("build", TUTORIAL, "-o", target))
        assert f"cannot write {target}: No space left on device" in line
    for node in (null, full):
        assert stat.S_ISCHR(node.lstat().st_mode), node
    assert link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full", "null", "to-full"]


def _special(tmp_path: Path, kind: str) -> Path:
    """A socket, folder, block device or link to one of these, in tmp_path."""
    if kind == "block device":
        if not as_root:
            pytest.skip("making a device node needs root")
        node = tmp_path / "blk"
        try:  # major 0 is no driver's: nothing could ever be written there
            os.mknod(node, stat.S_IFBLK | 0o600, os.makedev(0, 0))
        except OSError as e:
            pytest.skip(f"cannot make a device node in tmp_path: {e}")
        return node
    if kind == "socket":
        node = tmp_path / "s"
        server = socket.socket(socket.AF_UNIX)
        try:
            server.bind(str(node))
        except OSError as e:  # a tmp_path too long for a socket's address
            pytest.skip(f"cannot bind a socket in tmp_path: {e}")
        finally:
            server.close()
        return node
    node = tmp_path / "folder"
    node.mkdir()
    return node


@pytest.mark.parametrize("via_link", [False, True], ids=["itself", "link"])
@pytest.mark.parametrize("kind", ["socket", "folder", "block device"])
def test_sockets_folders_and_block_devices_are_never_replaced(
    tmp_path: Path, kind: str, via_link: bool
) -> None:
    node = _special(tmp_path, kind)
    target = node
    if via_link:
        target = tmp_path / "link"
        target.symlink_to(node)

    def state() -> list[tuple[str, int, bool]]:
        return sorted((p.name, p.lstat().st_mode, p.is_symlink()) for p in tmp_path.iterdir())

    before = state()
    what = f"it is {'a link to ' if via_link else ''}a {kind}"
    if kind != "folder":  # click refuses a folder for -o itself
        line = one_line_exit_2(cli("build", TUTORIAL, "-o", target))
        assert what in line
        assert state() == before
    with pytest.raises(OutputError, match=f"cannot write {target}: {what}"):
        write_text(target, "x")
    with pytest.raises(OutputError, match=f"cannot write {target}: {what}"):
        write_text(target, "x", named=True)
    with pytest.raises(OutputError, match=f"cannot write {target}: {what}"):
        check_file_target(target, named=True)
    assert state() == before


def test_special_files_inside_an_output_folder_are_refused(tmp_path: Path) -> None:
    # A name the user did not give (a card's file) is never a stream: refused before any
    # open, so a planted FIFO cannot make the command wait for a reader.
    out = tmp_path / "cards"
    out.mkdir()
    os.mkfifo(out / "burgle.svg")
    line = one_line_exit_2(cli("render", "cards", TUTORIAL, "-o", out))
    assert "burgle.svg: it is a FIFO, and only a regular file is replaced" in line
    assert stat.S_ISFIFO((out / "burgle.svg").lstat().st_mode)
    (out / "burgle.svg").unlink()
    (out / "burgle.svg").symlink_to(tmp_path)
    line = one_line_exit_2(cli("render", "cards", TUTORIAL, "-o", out))
    assert "burgle.svg: it is a link to a folder" in line
    assert (out / "burgle.svg").is_symlink()


def test_play_refuses_a_fifo_for_its_log(tmp_path: Path) -> None:
    fifo = tmp_path / "log"
    os.mkfifo(fifo)
    result = CliRunner().invoke(main, ["play", "--log", str(fifo), "--seed", "1"], input="quit\n")
    line = one_line_exit_2(result)
    assert "rewritten from its start when you undo" in line
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd")
def test_a_descriptor_link_is_written_through_not_replaced(tmp_path: Path) -> None:
    # `-o /dev/stdout > out.json`: the file the shell opened gets the output, and the link
    # (here /dev/fd/N, and a link of ours to it) is left alone.
    out = tmp_path / "out.json"
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        write_text(Path(f"/dev/fd/{fd}"), "one\n", named=True)
        link = tmp_path / "stdout"
        link.symlink_to(f"/dev/fd/{fd}")
        write_text(link, "two\n", named=True)
        assert link.is_symlink()
    finally:
        os.close(fd)
    assert out.read_text() == "one\ntwo\n"

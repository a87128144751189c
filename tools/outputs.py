"""Writing output files safely: names from packs are data, links are never followed, and a
failed write leaves the previous file as it was.

Packs come from strangers, and their names end up in file names (one SVG per card, a board's
default file). So a name never chooses where a file goes: `safe_filename` turns it into one
plain file name inside the output folder. A regular file (or nothing) at the target is written
to a fresh temporary file in its folder (created with ``O_CREAT | O_EXCL | O_NOFOLLOW``, so a
link planted there is never written through) and renamed over the target: a link to a regular
file (or a dangling one) is replaced, not followed, and a write that fails (a full disk, a
read-only folder) leaves the old file intact.

Anything else at the target is never replaced, since the rename that protects a regular file
is what would destroy a special one (`plan_write`). A FIFO or a character device (or a link to
one) the user named on purpose (``-o /dev/stdout``, ``--json fifo``: ``named=True``) is opened
and written in place, as a stream, with no rename; so is a regular file reached through a
descriptor link such as ``/dev/stdout`` or ``/dev/fd/N`` (appended to, as the shell's ``>`` or
``>>`` set it up). A write error there (``/dev/full`` is full) is a one-line `OutputError`. A
socket, a folder, a block device or a link to any of them is refused, and so is every special
file at a path the user did not name (a file inside an output folder).

Output problems are `OutputError`: one line, exit status 2, and checked before a long run
starts (`check_file_target`, `prepare_dir`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import unicodedata
from pathlib import Path
from typing import Literal

import click

MAX_NAME_CHARS = 80
"""Characters of a file name made from a pack's name (before the collision suffix)."""

# Names Windows reserves whatever the extension; refused everywhere so a pack written on
# Linux can be unpacked on Windows.
_RESERVED = {"con", "prn", "aux", "nul"} | {f"{p}{n}" for p in ("com", "lpt") for n in range(10)}
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
# O_NOFOLLOW / O_CLOEXEC are missing on some platforms; O_EXCL alone already refuses a link.
_CREATE = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class OutputError(click.ClickException):
    """An output file or folder that cannot be written: one line, exit status 2."""

    exit_code = 2


def safe_filename(
    name: str, suffix: str, taken: set[str] | None = None, fallback: str = "unnamed"
) -> str:
    """A plain file name for ``name`` (lower-case ASCII words joined by hyphens) + ``suffix``.

    The result has no "/", "\\", "..", control character or leading dot, is not a reserved
    device name, and is at most `MAX_NAME_CHARS` long before its suffix. With ``taken`` the
    name is also distinct from every name in it (``-2``, ``-3``... in the order names come,
    so the same pack always gives the same files) and is added to it. A name with no
    letter or digit to keep becomes ``fallback``.
    """
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = _NOT_SLUG.sub("-", folded.lower()).strip("-")[:MAX_NAME_CHARS].strip("-")
    if not slug:
        slug = fallback
    if slug in _RESERVED:
        slug += "-file"
    if taken is None:
        return slug + suffix
    candidate, n = slug, 2
    while candidate + suffix in taken:
        candidate, n = f"{slug}-{n}", n + 1
    taken.add(candidate + suffix)
    return candidate + suffix


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _fix(exc: OSError) -> str:
    """How to get past an OS error, for the end of a message."""
    code = exc.errno
    if code in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "choose a folder you can write to"
    if code == errno.ENOSPC or code == getattr(errno, "EDQUOT", -1):
        return "free some space or write elsewhere"
    if code == errno.ENOENT:
        return "create the folder first or choose another path"
    if code in (errno.EISDIR, errno.ENOTDIR):
        return "choose a path that is not a folder"
    return "choose another path"


def check_dir(folder: Path, what: str = "output folder") -> None:
    """`OutputError` unless ``folder`` exists, is a folder and can be written to."""
    if not folder.exists():
        raise OutputError(f"{what} {folder} does not exist: create it first or choose another")
    if not folder.is_dir():
        raise OutputError(f"{what} {folder} is a file, not a folder: choose a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write in {what} {folder}: choose a folder you can write to")


def prepare_dir(folder: Path, what: str = "output folder") -> Path:
    """Create ``folder`` (and its parents) if needed, then `check_dir` it."""
    if not folder.is_dir() and not folder.exists():
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise OutputError(f"cannot create {what} {folder}: {_reason(e)} ({_fix(e)})") from None
    check_dir(folder, what)
    return folder


_STREAM = (
    os.O_WRONLY
    | os.O_APPEND
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
# Paths (and link texts) that name one of the process's open files: a regular file reached
# through one is the shell's redirection, written in place like a stream.
_DESCRIPTOR_PREFIXES = ("/proc/", "/dev/fd/")
_MAX_LINKS = 40


def _kind(mode: int) -> str:
    """What a file of ``mode`` is, for a message."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _descriptor_link(path: Path) -> bool:
    """Whether ``path`` or a link on its way names an open file descriptor (``/dev/stdout``
    -> ``/proc/self/fd/1``, ``/dev/fd/63`` from ``>(...)``)."""
    here = os.path.abspath(path)
    for _ in range(_MAX_LINKS):
        if here.startswith(_DESCRIPTOR_PREFIXES):
            return True
        try:
            text = os.readlink(here)
        except OSError:
            return False
        here = os.path.normpath(os.path.join(os.path.dirname(here), text))
    return False


def plan_write(path: Path, named: bool = False) -> Literal["replace", "stream"]:
    """How ``path`` is written: ``"replace"`` (a temporary file renamed over it: a regular
    file, a link to one, or nothing there) or ``"stream"`` (opened and written in place: a
    FIFO or character device the user named, or a link to one). `OutputError` for anything
    else (a socket, a folder, a block device, a link to one; any special file not ``named``).
    """
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):  # its folder's problems are said later
        return "replace"
    except OSError as e:
        raise OutputError(f"cannot write {path}: {_reason(e)} ({_fix(e)})") from None
    link = stat.S_ISLNK(st.st_mode)
    if link:
        try:
            st = os.stat(path)
        except OSError:  # dangling, or a loop: the link itself is replaced
            return "replace"
        if stat.S_ISREG(st.st_mode):
            return "stream" if named and _descriptor_link(path) else "replace"
    elif stat.S_ISREG(st.st_mode):
        return "replace"
    mode = st.st_mode
    if named and (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        return "stream"
    what = ("a link to " if link else "") + _kind(mode)
    if stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {path}: it is {what} (give a file name)")
    if named or not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise OutputError(
            f"cannot write {path}: it is {what}, which is never replaced or written to "
            "(choose another path)"
        )
    raise OutputError(
        f"cannot write {path}: it is {what}, and only a regular file is replaced there "
        "(remove it or choose another folder)"
    )


def check_file_target(path: Path, named: bool = False) -> None:
    """`OutputError` unless ``path`` can be written: its folder exists and is writable, and
    it is not a folder itself nor anything else `plan_write` refuses. Call it before a long
    run, so a bad path fails at once. ``named``: the user gave this path (see `plan_write`).
    """
    if plan_write(path, named) == "stream":
        return  # written in place: its folder is not written to
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.exists():
        raise OutputError(
            f"cannot write {path}: folder {folder} does not exist (create it first or choose "
            "another path)"
        )
    if not folder.is_dir():
        raise OutputError(f"cannot write {path}: {folder} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(
            f"cannot write {path}: folder {folder} is not writable (choose a folder you can "
            "write to)"
        )


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _stream(path: Path, data: bytes) -> None:
    """Open ``path`` (a FIFO, a character device, a descriptor link) and write ``data`` in
    place: no temporary file, no rename. Checked again once open, so a file swapped in
    meanwhile is not written."""
    fd = os.open(path, _STREAM)
    try:
        mode = os.fstat(fd).st_mode
        if not (
            stat.S_ISFIFO(mode)
            or stat.S_ISCHR(mode)
            or (stat.S_ISREG(mode) and _descriptor_link(path))
        ):
            raise OutputError(
                f"cannot write {path}: it changed into {_kind(mode)} while being opened "
                "(choose another path)"
            )
        _write_all(fd, data)
    finally:
        os.close(fd)


def write_bytes(path: Path, data: bytes, named: bool = False) -> None:
    """Write ``data`` to ``path``. Over a regular file or nothing: atomically, a temporary
    file in the same folder, created without following links, then renamed over ``path`` (a
    link there is replaced); on any failure the temporary file is removed, ``path`` is as it
    was, and `OutputError` is raised. ``named`` (the user gave this path): a FIFO or a
    character device is written in place (`plan_write`); anything else is refused.
    """
    if plan_write(path, named) == "stream":
        try:
            _stream(path, data)
        except OSError as e:
            raise OutputError(f"cannot write {path}: {_reason(e)} ({_fix(e)})") from None
        return
    folder = path.parent if str(path.parent) else Path(".")
    tmp = fd = None
    try:
        for _ in range(8):
            tmp = folder / f".{path.name[:MAX_NAME_CHARS]}.{secrets.token_hex(6)}.tmp"
            try:
                fd = os.open(tmp, _CREATE, 0o666)
                break
            except FileExistsError:
                continue
        else:  # eight collisions of 48 random bits: something is creating files on purpose
            raise FileExistsError(errno.EEXIST, "cannot create a temporary file", str(folder))
        _write_all(fd, data)
        os.close(fd)
        fd = None
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise OutputError(f"cannot write {path}: {_reason(e)} ({_fix(e)})") from None
    finally:
        if fd is not None:
            os.close(fd)
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def write_text(path: Path, text: str, named: bool = False) -> None:
    """`write_bytes` of ``text`` as UTF-8."""
    write_bytes(path, text.encode("utf-8"), named)

"""Reading a pack's files safely: contained in the pack folder, regular files only, bounded.

Packs come from strangers (a content repository checks every pull request), so a file a pack
names is read only when it is a regular file inside the pack folder after resolving links.
A link out of the pack, a device, a FIFO, a socket or a directory is refused (CW005) without
being opened; a file, the whole pack or the number of files past its limit is refused (CW006)
after reading at most one byte past the limit.

Every path is opened relative to a descriptor of the pack folder, one component at a time with
``O_NOFOLLOW``, and the open file is checked again with ``fstat``: a link swapped in between
the check and the open fails to open instead of being followed.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import TracebackType

from . import limits
from .diagnostics import Diagnostic, Span

_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_NOCTTY = getattr(os, "O_NOCTTY", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)
_DIR_FD = os.open in os.supports_dir_fd and os.stat in os.supports_dir_fd

_LINK_HINT = "keep every file of a pack inside its folder; copy the file in instead of linking"


def show_size(n: int) -> str:
    """A byte count as a designer reads it: `16 MiB`, `64 KiB` or `1,000 bytes`."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n:,} byte{'s' if n != 1 else ''}"


def utf8_error_position(data: bytes, start: int) -> tuple[int, int]:
    """Line and column (from 1, columns in characters as the parser counts them) of byte
    ``start``, the first byte that is not UTF-8; lines end at "\\n" only, like the parser's."""
    line_start = data.rfind(b"\n", 0, start) + 1
    line = data.count(b"\n", 0, line_start) + 1
    # Everything before the first bad byte decodes, so this counts characters exactly.
    col = len(data[line_start:start].decode("utf-8")) + 1
    return line, col


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in a designer's words (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a link in a loop, or one that changed while the pack was read"
    return "not a regular file"


class PackReader:
    """Reads the files of one pack folder, collecting CW004-CW006 diagnostics in ``diags``.

    ``root`` is resolved once (the folder the user names may itself be a link); every path
    is then relative to it. ``used_bytes`` and ``used_files`` carry what an earlier reader of
    the same pack already read, so the pack limits cover the pack and its scenarios together.
    Use it as a context manager: it holds a descriptor of the pack folder.

    ``overrides`` maps a path inside the pack (relative to the real folder, "/"-separated,
    as `resolve` gives it) to the text to read instead of the file's bytes: an editor's
    unsaved buffer. Containment, the refusal of what is not a regular file on disk, and the
    file and pack limits apply to it as to a file read from disk.
    """

    def __init__(
        self,
        root: str | Path,
        shown: str | Path,
        used_bytes: int = 0,
        used_files: int = 0,
        overrides: Mapping[str, str] | None = None,
    ) -> None:
        self.root = Path(os.path.realpath(root))
        self.overrides = dict(overrides or {})
        self.shown = Path(shown)
        self.used_bytes = used_bytes
        self.used_files = used_files
        self.diags: list[Diagnostic] = []
        self.undecodable: dict[str, str] = {}
        """Files refused as not UTF-8, decoded with U+FFFD for each bad byte: for showing
        the line a diagnostic points at, never for compiling."""
        self._root_fd: int | None = None
        self._root_error: OSError | None = None  # the folder cannot be opened (permissions)
        self._full = False  # a pack limit was reported; read nothing more
        if _DIR_FD:
            try:
                self._root_fd = os.open(self.root, os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)
            except OSError as e:
                self._root_error = e

    def __enter__(self) -> PackReader:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Release the pack folder's descriptor."""
        if self._root_fd is not None:
            os.close(self._root_fd)
            self._root_fd = None

    def display(self, rel: str) -> str:
        """How the user sees the file at ``rel`` (a path relative to the pack folder)."""
        return (self.shown / rel).as_posix()

    def exists(self, rel: str) -> bool:
        """True when something (even a dangling link) is at ``rel``; nothing is opened."""
        return os.path.lexists(self.root / rel)

    def resolve(self, named: str, via: Span | None) -> str | None:
        """The path inside the pack (relative, "/"-separated, links resolved) that ``named``
        leads to, or None with a CW005 diagnostic when it leads out of the pack folder."""
        if "\x00" in named:  # no file has such a name; the system calls would refuse it
            self.diags.append(
                Diagnostic(
                    "CW004",
                    f"cannot read {self.display(named)!r}: a file name cannot hold a NUL character",
                    via or _file_span(self.display(named)),
                    hint="check the include path; it is relative to the pack folder",
                )
            )
            return None
        joined = os.path.join(self.root, named)
        # Links first, then "..", as the system reads a path (a/.. is not "." when a is a
        # link); the lexical form only tells a path out from a link out in the message.
        real = os.path.realpath(joined)
        lexical = os.path.normpath(joined)
        if _inside(real, self.root):
            return Path(os.path.relpath(real, self.root)).as_posix()
        name = self.display(named)
        if _inside(lexical, self.root):
            message = f"{name} is a link to a place outside the pack folder; it is not read"
        else:
            message = f"{name} is outside the pack folder; it is not read"
        self.diags.append(Diagnostic("CW005", message, via or _file_span(name), hint=_LINK_HINT))
        return None

    def _stopped(self, name: str, via: Span | None) -> bool:
        """Whether no more files are read: the pack's file limit is reached, or the pack folder
        cannot be read (said again for each file ``name``, included at ``via``)."""
        if self._full:
            return True
        if self._root_error is not None:
            self.diags.append(_unreadable(name, self._root_error, via))
            return True
        return False

    def read(self, rel: str, named: str, via: Span | None) -> str | None:
        """The text of the regular file at ``rel`` (from `resolve`), or None with a diagnostic
        (refused, too large, missing, not UTF-8). ``named`` is the path as the pack wrote it,
        for messages; ``via`` is the span of the include that named it, if any."""
        name = self.display(named)
        where = via or _file_span(name)
        if self._stopped(name, via):
            return None
        if self.used_files >= limits.MAX_PACK_FILES:
            self._full = True
            self.diags.append(
                Diagnostic(
                    "CW006",
                    f"the pack reads more than {limits.MAX_PACK_FILES:,} files, the limit for "
                    f"one pack ({name} is one too many)",
                    where,
                    hint="merge small files into fewer, larger ones",
                )
            )
            return None
        if rel in self.overrides:
            return self._read_override(rel, name, where)
        try:
            data = self._read_bytes(rel, name, where)
        except OSError as e:
            self.diags.append(_unreadable(name, e, via))
            return None
        if data is None:
            return None
        self.used_files += 1
        self.used_bytes += len(data)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            line, col = utf8_error_position(data, e.start)
            self.undecodable[name] = data.decode("utf-8", "replace")
            self.diags.append(
                Diagnostic(
                    "CW004",
                    f"{name} is not UTF-8 text (the byte at line {line}, column {col} "
                    "cannot be read)",
                    Span(name, line, col, line, col + 1),
                    hint="save the file as UTF-8",
                    notes=(("included here", via),) if via else (),
                )
            )
            return None

    def read_binary(self, rel: str, named: str, via: Span | None, max_bytes: int) -> bytes | None:
        """The bytes of the regular file at ``rel`` (from `resolve`), at most ``max_bytes``
        (an image the pack names), or None with a diagnostic (refused, too large, missing).
        The file counts toward the pack's file limit, not its byte limit: the byte limit is
        for text the compiler holds in memory."""
        name = self.display(named)
        where = via or _file_span(name)
        if self._stopped(name, via):
            return None
        try:
            data = self._read_bytes(rel, name, where, max_bytes)
        except OSError as e:
            self.diags.append(_unreadable(name, e, via))
            return None
        if data is not None:
            self.used_files += 1
        return data

    def clank_texts(self, folder: str) -> Iterator[tuple[str, str]]:
        """The path as the pack writes it and the text of each `.clank` file of ``folder`` (a
        folder of the pack, "scenarios"), in name order; a file that cannot be read is
        passed over (with its diagnostic)."""
        rel = self.resolve(folder, None)
        for entry in (self.list_clank(rel, folder) if rel is not None else None) or []:
            named = f"{folder}/{entry}"
            at = self.resolve(named, None)
            text = self.read(at, named, None) if at is not None else None
            if text is not None:
                yield named, text

    def list_clank(self, rel: str, named: str) -> list[str] | None:
        """Names of the `.clank` entries of the folder at ``rel`` (from `resolve`), sorted;
        None when it is not a folder. Nothing in it is opened; at most one name past the
        pack's file limit is collected."""
        budget = limits.MAX_PACK_FILES - self.used_files + 1
        names: list[str] = []
        if self._root_error is not None:
            self.diags.append(_unreadable(self.display(named), self._root_error, None))
            return None
        try:
            fd = self._open_dir(rel)
        except NotADirectoryError:
            return None
        except OSError as e:
            if e.errno in (errno.ELOOP, errno.ENOTDIR, errno.ENOENT):
                return None
            self.diags.append(_unreadable(self.display(named), e, None))
            return None
        try:
            with os.scandir(fd if fd is not None else self.root / rel) as it:
                for entry in it:
                    if entry.name.endswith(".clank"):
                        names.append(entry.name)
                        if len(names) > budget:
                            break
        finally:
            if fd is not None:
                os.close(fd)
        return sorted(names)

    def _read_override(self, rel: str, name: str, where: Span) -> str | None:
        """The override text for ``rel``, under the same rules as a file on disk: whatever
        is at ``rel`` already (a FIFO, a device, a folder) must be a regular file, or nothing
        (a buffer not saved yet), and the text counts toward the limits."""
        try:
            on_disk = os.lstat(self.root / rel)
        except FileNotFoundError:
            on_disk = None
        except OSError as e:
            self.diags.append(_unreadable(name, e, None))
            return None
        if on_disk is not None and self._refused(on_disk.st_mode, name, where):
            return None
        text = self.overrides[rel]
        size = len(text.encode("utf-8", "surrogatepass"))
        if self._too_large(size, name, where):
            return None
        self.used_files += 1
        self.used_bytes += size
        return text

    # -- opening ------------------------------------------------------------------------

    def _open_dir(self, rel: str) -> int | None:
        """A descriptor of the folder at ``rel``, opened component by component without
        following links (None where the platform has no ``dir_fd``; the caller uses paths)."""
        parts = [p for p in rel.split("/") if p not in ("", ".")]
        if self._root_fd is None:
            path = self.root.joinpath(*parts)
            if path.is_symlink() or not path.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, "not a directory", str(path))
            return None
        fd = os.dup(self._root_fd)
        try:
            for part in parts:
                st = os.stat(part, dir_fd=fd, follow_symlinks=False)
                if not stat.S_ISDIR(st.st_mode):
                    raise NotADirectoryError(errno.ENOTDIR, "not a directory", part)
                nxt = os.open(
                    part, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC, dir_fd=fd
                )
                os.close(fd)
                fd = nxt
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _read_bytes(
        self, rel: str, name: str, where: Span, max_bytes: int | None = None
    ) -> bytes | None:
        """At most the limit plus one byte of the regular file at ``rel``; None with a
        diagnostic when it is refused or too large. ``max_bytes`` is the limit of a binary
        file (`read_binary`), which the pack's byte limit does not count; by default the
        limits are those of a source file and of the pack."""
        folder, _, leaf = rel.rpartition("/")
        try:
            dir_fd = self._open_dir(folder)
        except NotADirectoryError as e:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name) from e
        try:
            target: str | Path = leaf if dir_fd is not None else self.root / rel
            # lstat first: a FIFO or a device is refused before anything opens it.
            before = os.stat(target, dir_fd=dir_fd, follow_symlinks=False)
            if self._refused(before.st_mode, name, where):
                return None
            if self._too_large(before.st_size, name, where, max_bytes):
                return None
            flags = os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK | _O_NOCTTY | _O_CLOEXEC | _O_BINARY
            try:
                fd = os.open(target, flags, dir_fd=dir_fd)
            except OSError as e:
                if e.errno == errno.ELOOP:  # became a link since the lstat
                    self._refused(stat.S_IFLNK, name, where)
                    return None
                raise
        finally:
            if dir_fd is not None:
                os.close(dir_fd)
        try:
            now = os.fstat(fd)
            if (now.st_dev, now.st_ino) != (before.st_dev, before.st_ino):
                self._refused(stat.S_IFLNK, name, where)
                return None
            if self._refused(now.st_mode, name, where):
                return None
            if max_bytes is None:
                cap = min(limits.MAX_FILE_BYTES, limits.MAX_PACK_BYTES - self.used_bytes)
            else:
                cap = max_bytes
            chunks: list[bytes] = []
            got = 0
            while got <= cap:
                chunk = os.read(fd, min(1 << 20, cap + 1 - got))
                if not chunk:
                    break
                chunks.append(chunk)
                got += len(chunk)
        finally:
            os.close(fd)
        if self._too_large(got, name, where, max_bytes):
            return None
        return b"".join(chunks)

    def _refused(self, mode: int, name: str, where: Span) -> bool:
        """Report a file that is not a regular file (CW005); True when it is refused."""
        kind = _kind(mode)
        if kind is None:
            return False
        if kind == "a directory":
            hint = "include files, not folders; a folder must not be named like a .clank file"
        else:
            hint = "a pack holds regular files only; replace it with a regular .clank file"
        self.diags.append(
            Diagnostic(
                "CW005", f"{name} is {kind}, not a regular file; it is not read", where, hint=hint
            )
        )
        return True

    def _too_large(self, size: int, name: str, where: Span, max_bytes: int | None = None) -> bool:
        """Report a file or pack past its size limit (CW006); True when it is. With
        ``max_bytes`` (a binary file) only that limit applies."""
        if max_bytes is not None:
            if size <= max_bytes:
                return False
            self.diags.append(
                Diagnostic(
                    "CW006",
                    f"{name} is larger than {show_size(max_bytes)}, the limit for one image",
                    where,
                    hint="save it smaller (a card's art needs about 750 x 1050 pixels at "
                    "300 dpi), or as JPEG",
                )
            )
            return True
        if size > limits.MAX_FILE_BYTES:
            self.diags.append(
                Diagnostic(
                    "CW006",
                    f"{name} is larger than {show_size(limits.MAX_FILE_BYTES)}, the limit for "
                    "one file",
                    where,
                    hint="split it into several files joined with include lines",
                )
            )
            return True
        if self.used_bytes + size > limits.MAX_PACK_BYTES:
            self._full = True
            self.diags.append(
                Diagnostic(
                    "CW006",
                    f"the pack's files together are larger than "
                    f"{show_size(limits.MAX_PACK_BYTES)}, the limit for one pack "
                    f"(reached at {name})",
                    where,
                    hint="split the content into several packs",
                )
            )
            return True
        return False


def _inside(path: str, root: Path) -> bool:
    """True when ``path`` (absolute, normalised) is ``root`` or below it."""
    try:
        return os.path.commonpath([path, str(root)]) == str(root)
    except ValueError:  # different drives on Windows
        return False


def _file_span(name: str) -> Span:
    """The start of a file, for a diagnostic about the file itself (no include names it)."""
    return Span(name, 1, 1, 1, 2)


def _unreadable(name: str, e: OSError, via: Span | None) -> Diagnostic:
    """CW004 for a file the system cannot give us (missing, no permission...)."""
    return Diagnostic(
        "CW004",
        f"cannot read {name}: {e.strerror or e}",
        via,
        hint="check the include path; it is relative to the pack folder",
    )

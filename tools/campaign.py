"""`clankwork campaign`: a legacy campaign kept as an append-only, checksummed event log.

A campaign file is one JSON object a line, each an event of the campaign (`campaign`, `game`,
`sticker`, `undo`); a game and its post-game steps are one line, so an interrupted write
leaves a game whole or absent. Every line carries its number (``seq``) and a checksum of the
rest of the line (``check``: the first 16 hex digits of the SHA-256 of its canonical JSON),
so an edited, reordered or damaged line is found and named. The campaign's state is the fold
of its events (`fold`); nothing is ever rewritten: undoing a game appends an `undo` event.

Writes are made to last: a new file is written to a temporary file, flushed to disk and
linked into place (never over an existing file); events are appended with one ``write``
and flushed to disk (``fsync``) before the command reports success. A write cut off (the
machine lost power, ``kill -9``) leaves at most a last line without its newline: reading
ignores it, with a warning, and the next write removes it (the file is rewritten without it,
by rename) before appending. Any other damage is refused with the line number, and the file
is left as it is.

One command writes at a time: every command that appends (`play`, `sticker`, `undo`) holds an
exclusive ``flock`` on the campaign file (`writing`) from before it reads the file until its
event is on disk, so a second one waits (saying so, at most `LOCK_WAIT` seconds) and then
reads what the first appended. Commands that only read (`status`, `history`, `rules`, `render
--campaign`) take no lock and never wait (`read_settled`): a last line still being appended
by a writer is left out, as if not yet written, not taken for an interrupted write.

The post-game steps of the Legacy rulebook ("Post-Game Campaign Steps") are the engine's
`post_game` phase (interpreter/steps.py: mission report, contracts' end-of-game instructions,
employee reviews, sort components, player death, continue), run after each campaign game; a
sticker may fill a slot among them. This module then reads what they call for from the Book
of Secrets (`after_game`): the completed contracts' passages, the epilogue, the entry of each
promotion on the Associate Status track, the numbered spaces of the pack's campaign tracks, a
death's passage.
`campaign simulate` plays whole campaigns with bots, in memory, and reports game by game.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import json
import os
import random
import re
import secrets
import stat
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from clankwork.dsl.diagnostics import did_you_mean
from clankwork.dsl.limits import MAX_DATA_BYTES
from clankwork.dsl.stickers import apply as apply_stickers
from clankwork.dsl.stickers import (
    fetch_and_destroy,
    with_contracts,
    with_goals,
    with_patron,
    with_waypoints,
)
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import Catalog, prepare
from clankwork.interpreter.effects.registry import TRIGGERS, render_condition, render_effects
from clankwork.interpreter.game import Game
from clankwork.interpreter.intervals import mean_interval, wilson
from clankwork.interpreter.log import to_jsonl
from clankwork.interpreter.rules import RULES_BY_KEY
from clankwork.interpreter.steps import STEPS
from clankwork.interpreter.stickers import slot_kind, slots, stickers

from .campaign_schema import FORMAT, OLD_FORMATS
from .check import bundled_names, bundled_pack, load_ir
from .livelog import LiveLog
from .menus import HUMAN
from .packs import PACK_FOLDER
from .passages import Ask, Say, read_during_game, read_passages, terminal_ask
from .play import PlaySession, Quit, default_log_path
from .simulate import bot_names, bot_seed, game_seeds

try:
    import fcntl  # one writing command at a time on a campaign file (POSIX)
except ImportError:  # pragma: no cover (Windows: no lock)
    fcntl = None  # type: ignore[assignment]

# The Associate Status track's sections: the checkmark that opens each one is a promotion.
# The rulebook does not print the section lengths; these are ours, for a pack whose
# `campaign { status ... }` does not set them.
PROMOTIONS = ((3, "Copper"), (7, "Silver"), (12, "Gold"))
POST_GAME_STEPS = (
    "post_game.mission_report",
    "post_game.contracts_and_epilogue",
    "post_game.employee_reviews",
    "post_game.sort_components",
    "post_game.player_death",
    "post_game.continue",
)
EVENT_TYPES = ("campaign", "game", "sticker", "undo")
LOCK_WAIT = 600.0
"""Seconds a writing command waits for another to finish with the same campaign file."""
_LOCK_POLL = 0.1


class CampaignFileError(click.ClickException):
    """A campaign file that cannot be read as it is: exit 1, naming the file and line."""

    exit_code = 1


def _check(event: dict[str, Any]) -> str:
    body = {k: v for k, v in event.items() if k != "check"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _line(event: dict[str, Any]) -> bytes:
    sealed = {**event, "check": _check(event)}
    text = json.dumps(sealed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return (text + "\n").encode("utf-8")


@dataclass
class LogRead:
    """The events of a campaign file, and whether it ended in a torn (unfinished) line."""

    events: list[dict[str, Any]]
    torn: bool
    good_bytes: int


def read_log(path: Path) -> LogRead:
    """Every complete event of the file, checked; `CampaignFileError` on damage."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise CampaignFileError(f"{path}: not a regular file, so not a campaign file")
        size = info.st_size
        if size > MAX_DATA_BYTES:
            raise CampaignFileError(
                f"{path}: {size} bytes, more than a campaign file may hold ({MAX_DATA_BYTES})"
            )
        data = path.read_bytes()
    except FileNotFoundError:
        raise CampaignFileError(
            f"{path}: no such campaign file (start one with `clankwork campaign new PACK {path}`)"
        ) from None
    except OSError as e:
        raise CampaignFileError(f"{path}: cannot read it ({e.strerror})") from None
    lines = data.split(b"\n")
    tail = lines.pop()  # after the last newline: b"" when the file ends cleanly
    events: list[dict[str, Any]] = []
    for n, raw in enumerate(lines, start=1):
        where = f"{path}:{n}"
        try:
            event = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise CampaignFileError(
                f"{where}: this line is not a campaign event (damaged or edited); the file is "
                "left as it is: restore it from a copy, or remove this line and every later one"
            ) from None
        if not isinstance(event, dict) or event.get("check") != _check(event):
            raise CampaignFileError(
                f"{where}: the line's checksum does not match (damaged or edited by hand); the "
                "file is left as it is: restore it from a copy"
            )
        if event.get("seq") != n or event.get("type") not in EVENT_TYPES:
            raise CampaignFileError(
                f"{where}: expected event {n}, found "
                f"{event.get('type')!r} numbered {event.get('seq')!r} (lines moved or removed)"
            )
        if n == 1 and event["type"] == "campaign" and event.get("format") in OLD_FORMATS:
            raise CampaignFileError(
                f"{where}: a {event['format']} campaign file, written by an earlier Clankwork "
                f"before campaign tracks were named by the pack; this one reads {FORMAT} files "
                "only: start the campaign again with `clankwork campaign new`"
            )
        if n == 1 and (event["type"] != "campaign" or event.get("format") != FORMAT):
            raise CampaignFileError(f"{where}: not a {FORMAT} campaign file")
        events.append(event)
    if not events:
        raise CampaignFileError(f"{path}: the file holds no campaign (it is empty)")
    return LogRead(events, bool(tail), len(data) - len(tail))


def _writer_at_work(path: Path) -> bool:
    """Whether another command holds ``path``'s lock (`writing`) right now; never waits."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # and with it the shared lock
    return False


def read_settled(path: Path) -> LogRead:
    """`read_log` for a command that only reads: it never waits for a writer. A last line
    without its newline is an interrupted write only if no writer is at work; while one is,
    it is that writer's append in flight, and left out as not yet written."""
    log = read_log(path)
    if not log.torn:
        return log
    if _writer_at_work(path):
        return LogRead(log.events, False, log.good_bytes)
    return read_log(path)  # no writer now: what was in flight has landed, or was cut off


@contextlib.contextmanager
def writing(path: Path) -> Iterator[None]:
    """Hold the campaign file's exclusive lock (``flock``) for a command that reads the file,
    decides and appends: read it only once this is entered. Another command holding it is
    waited for, with a message, at most `LOCK_WAIT` seconds (`CampaignFileError` after)."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    deadline: float | None = None
    while True:
        try:
            fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            read_log(path)  # says there is no such campaign file, and how to start one
            raise
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise CampaignFileError(
                    f"{path}: a link; campaign commands write the campaign file itself (name "
                    "the file the link points to)"
                ) from None
            raise CampaignFileError(f"{path}: cannot open it to write ({e.strerror})") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise CampaignFileError(f"{path}: not a regular file, so not a campaign file")
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if deadline is None:
                        deadline = time.monotonic() + LOCK_WAIT
                        click.echo(
                            f"waiting: another campaign command is writing {path} (it holds "
                            "the file's lock)",
                            err=True,
                        )
                    if time.monotonic() >= deadline:
                        raise CampaignFileError(
                            f"{path}: another campaign command has been writing it for "
                            f"{LOCK_WAIT:.0f} seconds; nothing was written: try again when "
                            "it is done"
                        ) from None
                    time.sleep(_LOCK_POLL)
            # The file may have been replaced (a torn line removed) while we waited: the lock
            # that counts is the one on the file at the path now.
            held = os.fstat(fd)
            with contextlib.suppress(FileNotFoundError):  # gone: the next open says so
                now = os.stat(path)
                if (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino):
                    break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    try:
        yield
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can open a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_new(path: Path, data: bytes, replace: bool = True) -> None:
    """``data`` as ``path``, by a temporary file flushed to disk and renamed into place; with
    ``replace`` False, linked into place instead, so an existing file (one another command
    has just made) is never replaced: `FileExistsError`."""
    folder = path.parent if str(path.parent) else Path(".")
    tmp = folder / f".{path.name}.{secrets.token_hex(6)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    os.close(fd)
    try:
        if replace:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise
            except OSError:  # a file system without hard links: rename, if still free
                if path.exists() or path.is_symlink():
                    raise FileExistsError(errno.EEXIST, "exists", str(path)) from None
                os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    _fsync_dir(folder)


def create(path: Path, first: dict[str, Any]) -> None:
    """A new campaign file holding its first event; never over an existing file."""
    if path.exists() or path.is_symlink():
        raise click.ClickException(
            f"{path} exists: a campaign file is never overwritten (choose another name)"
        )
    try:
        _write_new(path, _line({**first, "seq": 1}), replace=False)
    except FileExistsError:  # made meanwhile, by another command
        raise click.ClickException(
            f"{path} exists: a campaign file is never overwritten (choose another name)"
        ) from None
    except OSError as e:
        raise click.ClickException(f"cannot write {path}: {e.strerror}") from None


def append(path: Path, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Append events (numbered after the file's last), flushed to disk; the events written.
    A torn last line (an interrupted write) is removed first, by rewriting the file."""
    log = read_log(path)
    seq = len(log.events)
    sealed = []
    for e in events:
        seq += 1
        sealed.append({**e, "seq": seq})
    data = b"".join(_line(e) for e in sealed)
    try:
        if log.torn:
            _write_new(path, path.read_bytes()[: log.good_bytes] + data)
            return sealed
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as e:
        raise click.ClickException(f"cannot write {path}: {e.strerror}") from None
    return sealed


# -- the campaign's state: the fold of its events ---------------------------------------------


@dataclass
class Campaign:
    """What a campaign file says now."""

    pack: str
    pack_name: str
    players: int
    names: list[str]
    seed: int
    bots: list[str]
    # The games that count (undone ones left out), each its `game` event.
    games: list[dict[str, Any]] = field(default_factory=list)
    # Stickers applied, in order (dsl/stickers.py): every later game has them.
    stickers: list[str] = field(default_factory=list)
    # Cardporium cards fetched into the adventure deck, and cards destroyed (one copy each).
    fetched: list[int] = field(default_factory=list)
    destroyed: list[str] = field(default_factory=list)
    # The Contracts row: contracts opened by passages and not completed yet.
    contracts: list[str] = field(default_factory=list)
    # What the last game's passages named for the next one: its patron (one game) and the
    # board it is played on (until another is named).
    patron: str | None = None
    board: str | None = None
    checkmarks: list[int] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    # Boxes of each seat's personal goals filled so far, by goal.
    goals: list[dict[str, int]] = field(default_factory=list)
    # X on each of the pack's campaign tracks, by track name.
    marks: dict[str, int] = field(default_factory=dict)
    # `pack` is the name of a bundled pack (else a path relative to the file).
    bundled: bool = False

    @property
    def next_game(self) -> int:
        """The number of the next game to play (from 1)."""
        return len(self.games) + 1


def readings(game: dict[str, Any]) -> list[dict[str, Any]]:
    """Every passage reading of a game's event, in the order they were read: the prologue,
    what a recorded game told the table to do, those read during the game (a waypoint
    entered, a contract completed), then after the game the completed contracts' passages,
    the epilogue, and what the post-game steps read (promotions, the campaign tracks' spaces,
    a death, `read N`)."""
    out = [game["prologue"]] if game.get("prologue") else []
    # A recorded game: what the game told the table to do, and the passages reached in it.
    out += [game["table"]] if game.get("table") else []
    # Read during the game, as they happened (files written before passages were read then
    # have none).
    out += game.get("during", ())
    out += game.get("contract_passages", ())  # files written before `reads` (same shape)
    out += [game["epilogue"]] if game.get("epilogue") else []
    out += game.get("reads", ())
    return out


def standing(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events after the first that stand, in order: each `undo` takes back the last
    event that stood before it, whatever its kind (a game, a sticker), so undo after undo
    goes further back. An `undo` written before undo took back any event (it names only a
    ``game``, no ``undoes``) takes back the last game standing with that number."""
    out: list[dict[str, Any]] = []
    for e in events[1:]:
        if e["type"] != "undo":
            out.append(e)
        elif "undoes" in e:
            if out and out[-1]["seq"] == e["undoes"]:
                out.pop()
        else:
            last = next((i for i in range(len(out) - 1, -1, -1) if out[i]["type"] == "game"), None)
            if last is not None and out[last]["game"] == e.get("game"):
                del out[last]
    return out


def fold(events: list[dict[str, Any]]) -> Campaign:
    """The campaign state after ``events`` (the first is the `campaign` event)."""
    first = events[0]
    games: list[dict[str, Any]] = []
    # Stickers applied by hand, each before the game it was applied for.
    applied: list[tuple[int, str]] = []
    for e in standing(events):
        if e["type"] == "game":
            games.append(e)
        elif e["type"] == "sticker":
            applied.append((e["before_game"], e["name"]))
    n = first["players"]
    c = Campaign(
        pack=first["pack"],
        pack_name=first["pack_name"],
        players=n,
        names=list(first["names"]),
        seed=first["seed"],
        bots=list(first["bots"]),
        games=games,
        checkmarks=[0] * n,
        status=["Associate"] * n,
        goals=[{} for _ in range(n)],
        bundled=bool(first.get("bundled")),
    )
    played = {g["game"] for g in games}
    for g in games:
        c.patron = None  # a patron is for one game
        if g.get("board"):
            c.board = g["board"]
        c.stickers.extend(name for before, name in applied if before == g["game"])
        reads = readings(g)
        for read in reads:
            c.stickers.extend(read["stickers"])
            c.fetched.extend(k for k in read.get("fetched", ()) if k not in c.fetched)
            c.destroyed.extend(read.get("destroyed", ()))
            c.contracts.extend(k for k in read.get("contracts", ()) if k not in c.contracts)
            c.checkmarks = [k + read["checkmarks"] for k in c.checkmarks]
            _add_marks(c.marks, read["marks"])
        for name, _seat in g.get("contracts_completed", ()):
            if name in c.contracts:
                c.contracts.remove(name)
        # What the game's closing passages name is for the next game.
        for read in reads[1 if g.get("prologue") else 0 :]:
            c.patron = read.get("patron", c.patron)
            c.board = read.get("board", c.board)
        for seat, marks in enumerate(g["review"]["checkmarks"]):
            c.checkmarks[seat] += len(marks)
        for seat, rank in g["review"]["promotions"]:
            c.status[seat] = rank
        for seat, boxes in enumerate(g.get("goals", ())):
            for name, k in boxes.items():
                c.goals[seat][name] = c.goals[seat].get(name, 0) + k
        # The X the game itself added (a player death, and any its rules added).
        _add_marks(c.marks, g.get("marks", {}))
    # Stickers applied for a game not played yet (or undone) are on from the next game.
    c.stickers.extend(name for before, name in applied if before not in played)
    return c


def _add_marks(into: dict[str, int], marks: dict[str, int]) -> None:
    """Add X counts by track to ``into``."""
    for track, n in marks.items():
        into[track] = into.get(track, 0) + n


def tracks(ir: dict[str, Any]) -> list[dict[str, Any]]:
    """The pack's campaign tracks (`campaign { track NAME { ... } }`), in order."""
    return list((ir.get("campaign") or {}).get("tracks", ()))


def game_marks(game: dict[str, Any]) -> dict[str, int]:
    """X a game's event added to each campaign track: the game's own, and its passages'."""
    out: dict[str, int] = {}
    _add_marks(out, game.get("marks", {}))
    for r in readings(game):
        _add_marks(out, r["marks"])
    return out


def game_seed(campaign_seed: int, game: int) -> int:
    """The seed of a campaign's game ``game``: the same game number, the same game."""
    digest = hashlib.sha256(f"{campaign_seed}:{game}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def statuses(ir: dict[str, Any]) -> list[tuple[int, str, int | None]]:
    """The Associate Status track's sections: (the checkmark that opens it, its rank, the
    passage a promotion to it reads). The pack's `campaign { status ... }`, else ours."""
    block = ir.get("campaign") or {}
    if block.get("statuses"):
        return [(s["checkmark"], s["name"], s["reads"]) for s in block["statuses"]]
    return [(at, rank, None) for at, rank in PROMOTIONS]


# Passages the post-game steps may lead to, at most (promotions and tracks' entries that
# give more checkmarks and X end).
MAX_POST_READS = 50


@dataclass
class Table:
    """Who makes a campaign game's passage choices and where their text goes: ``ask[seat]``
    asks the person at that seat (None: the seat's bot decides), ``say`` prints each passage
    as it is read (None: nothing is printed, as in `campaign simulate`)."""

    ask: list[Ask | None] = field(default_factory=list)
    say: Say | None = None
    # How a seat is named where a choice is told ("Ann (heuristic)").
    names: list[str] = field(default_factory=list)

    def reader(self, seat: int) -> Ask | None:
        """The person who answers ``seat``'s choices (None: its bot)."""
        return self.ask[seat] if seat < len(self.ask) else None

    def who(self, seat: int) -> str:
        """The seat's name, for the line that tells its choice."""
        return self.names[seat] if seat < len(self.names) else f"P{seat + 1}"


BOTS_ONLY = Table()


class CampaignGame(Game):
    """A campaign's game: it also keeps which player's action queued each passage (a
    waypoint entered, a rule's `read N`), whose choices that player makes; ``picks`` (a
    `Table`'s asks, by seat) take a seat's passage choices during play instead of its bot
    (`campaign simulate --choices random`)."""

    def __init__(self, *args: Any, picks: list[Ask | None] | None = None, **kwargs: Any) -> None:
        self.readers: dict[int, int] = {}
        self.picks = list(picks or ())
        super().__init__(*args, **kwargs)

    def passage_choice(self, player: Any, ps: dict[str, Any]) -> int:
        """The seat's pick when the table has one for it, else the game's decision."""
        pick = self.picks[player.seat] if player.seat < len(self.picks) else None
        return pick(ps) if pick is not None else super().passage_choice(player, ps)

    def queue_read(self, passage: int, seat: int | None = None) -> None:
        """Queue the passage, and remember the first player who read it."""
        super().queue_read(passage, seat)
        if seat is not None:
            self.readers.setdefault(passage, seat)


def after_game(
    ir: dict[str, Any],
    c: Campaign,
    game: dict[str, Any],
    g: Any,
    seed: int,
    table: Table = BOTS_ONLY,
) -> dict[str, Any]:
    """The post-game steps of a played game ``g`` (its engine `post_game` phase has run),
    written into its event ``game``: the completed contracts' passages and the epilogue
    (step 2), the reviews' checkmarks and the promotions they make, with the entries they
    read (step 3), the X on the campaign tracks with the numbered spaces they cover (step 5),
    then every passage the game's rules asked to read (`read N`; a death's passage last).
    Each passage's choice is made by the seat it is directed at (`Table`)."""
    n = game["game"]
    by = {k["name"]: k for k in ir.get("contracts", ())}
    bots = game.get("bots", c.bots)

    def read(start: int, seat: int) -> dict[str, Any]:
        return read_passages(
            ir,
            start,
            seed,
            bots[seat],
            by=seat,
            ask=table.reader(seat),
            say=table.say,
            who=table.who(seat),
        )

    # The choices after the game are the winner's to make (Most Valuable Employee); a
    # completed contract's are its completer's, a promotion's the promoted player's, a
    # waypoint's the player who entered it.
    mvp = game["winners"][0] if game["winners"] else 0
    # The passages the game read as they happened (a waypoint entered, a contract completed),
    # with the choices made then: what they do for the campaign is taken now, in the order
    # read, before the post-game steps' passages.
    during = getattr(g, "passages_read", [])
    read_then = {r[0] for r in during}
    if during:
        game["during"] = read_during_game(ir, during, say=table.say, who=table.who)
    # 2. Contracts: a completed contract's passage (unless read when completed), then the
    # epilogue.
    done = [
        read(by[name]["passage"], seat)
        for name, seat in g.completed_contracts
        if by.get(name, {}).get("passage") not in (None, *read_then)
    ]
    end = _arc(ir, "epilogue", n)
    epilogue = read(end, mvp) if end is not None else None
    # 3. Employee reviews: the engine's checkmarks (scoring, winning, rows of goals, and any
    # the game's rules gave), with the passages'; each section opened is a promotion.
    marks = [list(p.checkmarks) for p in g.players]
    promotions: list[list[Any]] = []
    track = statuses(ir)
    # Each track's numbered spaces, and those its X covered before this game.
    numbered = {t["name"]: {int(k): v for k, v in t["reads"].items()} for t in tracks(ir)}
    covered = {
        (name, k) for name, spaces in numbered.items() for k in spaces if k <= c.marks.get(name, 0)
    }
    promoted: set[tuple[int, str]] = set()
    # What the game's rules and waypoints asked to read (a death's passage last), each passage
    # once a game, with the player who read it.
    readers = getattr(g, "readers", {})
    queue = [(p, readers.get(p, mvp)) for p in dict.fromkeys(g.reads) if p not in read_then]
    out: list[dict[str, Any]] = []
    for _ in range(MAX_POST_READS):
        every = readings({**game, "contract_passages": done, "epilogue": epilogue, "reads": out})
        from_passages = sum(r["checkmarks"] for r in every)
        new: list[tuple[int, int]] = []
        for seat in range(len(g.players)):
            total = c.checkmarks[seat] + from_passages + len(marks[seat])
            for at, rank, reads in track:
                if c.checkmarks[seat] < at <= total and (seat, rank) not in promoted:
                    promoted.add((seat, rank))
                    promotions.append([seat, rank])
                    if reads is not None:
                        new.append((reads, seat))
        # 5. The campaign tracks: an X that covers a number reads that entry at once.
        now = dict(c.marks)
        _add_marks(now, g.campaign_marks)
        for r in every:
            _add_marks(now, r["marks"])
        for name, spaces in numbered.items():
            for space in sorted(spaces):
                if (name, space) not in covered and space <= now.get(name, 0):
                    covered.add((name, space))
                    new.append((spaces[space], mvp))
        if not new and queue:
            new.append(queue.pop(0))
        if not new:
            break
        out.extend(read(p, seat) for p, seat in new)
    if done:
        game["contract_passages"] = done
    if epilogue is not None:
        game["epilogue"] = epilogue
    if out:
        game["reads"] = out
    # A Cardporium card is fetched once: a passage that fetches one already in the deck (an
    # earlier game's, or an earlier passage's of this one) records nothing.
    have = set(c.fetched)
    for r in readings(game):
        r["fetched"] = [k for k in r["fetched"] if not (k in have or have.add(k))]
    game["review"] = {"checkmarks": marks, "promotions": promotions}
    game["death"] = any(s == 0 for s in game["scores"])
    game["marks"] = dict(g.campaign_marks)
    goals = [dict(p.goals) for p in g.players]
    if any(goals):
        game["goals"] = goals
    return game


# -- the commands -------------------------------------------------------------------------------


def _pack_ref(pack: Path, file: Path, name: str) -> dict[str, Any]:
    """Where the pack is, as the campaign file keeps it: a bundled pack by its name (the
    file then moves anywhere), any other by its path relative to the file's folder (the two
    move together); an absolute path only when no relative one exists (another drive)."""
    folder = pack.parent if pack.is_file() else pack
    if name in bundled_names() and folder.resolve() == bundled_pack(name).resolve():
        return {"pack": name, "bundled": True}
    try:
        return {"pack": os.path.relpath(pack.resolve(), file.resolve().parent)}
    except ValueError:
        return {"pack": str(pack.resolve())}


def _pack_path(c: Campaign, file: Path, given: Path | None = None) -> Path:
    """The campaign's pack: ``given`` (`--pack`), else where the file says it is (a bundled
    name, or a path relative to the file, absolute in older files), else, for an older file
    whose path led to a Clankwork's bundled pack, that pack now (with a warning), else an
    error that says how to name it."""
    if given is not None:
        return given
    if c.bundled and c.pack_name in bundled_names():
        return bundled_pack(c.pack_name)
    path = (file.resolve().parent / c.pack).resolve()
    if (path / "pack.clank").is_file() or (path.is_file() and path.suffix in (".clank", ".json")):
        return path
    # A file from before bundled packs were named: its path led into a Clankwork's own
    # content folder (a checkout's or an installed one's), so the bundled pack is meant.
    bundled_before = Path(c.pack).name == c.pack_name and Path(c.pack).parent.name == "content"
    if bundled_before and c.pack_name in bundled_names():
        click.echo(
            f"warning: {file}: its pack {c.pack_name} was at {c.pack} (next to the campaign "
            f"file) and is not there now; using the bundled {c.pack_name} (name another "
            "with --pack PATH)",
            err=True,
        )
        return bundled_pack(c.pack_name)
    raise click.ClickException(
        f"{file}: its pack {c.pack_name} was at {c.pack} (next to the campaign file), and "
        "is not there now: name it with --pack PATH, or put the pack folder back there"
    )


def pack_ir(c: Campaign, file: Path, given: Path | None = None) -> dict[str, Any]:
    """The IR of the campaign's pack (`_pack_path`), checked to be the pack it was started
    with (a `--pack` of another pack is refused, naming both)."""
    path = _pack_path(c, file, given)
    ir = load_ir(path, checks=True)
    if ir["pack"]["name"] != c.pack_name:
        raise click.ClickException(
            f"{path} is the pack {ir['pack']['name']!r}, and {file} is a campaign of "
            f"{c.pack_name!r}: name that pack's folder with --pack"
        )
    return ir


PACK_OPTION = click.option(
    "--pack",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="The campaign's pack, when it is not where the campaign file says (the file was "
    "moved or copied without it): a pack folder, one of its files or an IR file.",
)


def _load(file: Path, holding: bool = False) -> tuple[Campaign, LogRead]:
    """The campaign in ``file``; ``holding``: this command holds the file's lock (`writing`),
    else it is read as a reader (`read_settled`)."""
    log = read_log(file) if holding else read_settled(file)
    if log.torn:
        click.echo(
            f"warning: {file}: the last line was cut off by an interrupted write and is "
            "ignored (the next write removes it)",
            err=True,
        )
    return fold(log.events), log


@click.group("campaign")
def command() -> None:
    """Keep a legacy campaign in a file: play its games one by one, see and undo them."""


@command.command("new")
@click.argument("pack", type=PACK_FOLDER)
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-p", "--players", type=click.IntRange(1, 8), default=4, show_default=True)
@click.option("--names", default="", help="Player names, comma-separated (default: P1, P2...).")
@click.option("-s", "--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True)
@click.option(
    "--bots",
    default="heuristic",
    show_default=True,
    help="Who plays each seat in `campaign play`: a bot, or human (a person at this "
    "terminal); one for all or one each, comma-separated.",
)
def new(pack: Path, file: Path, players: int, names: str, seed: int, bots: str) -> None:
    """Start a campaign of PACK in FILE (a new file)."""

    ir = load_ir(pack, checks=True)
    who = [n.strip() for n in names.split(",")] if names else [f"P{k + 1}" for k in range(players)]
    try:
        seats = seat_bots(bots, players)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--bots") from None
    if len(who) != players:
        raise click.BadParameter(f"{len(who)} names for {players} players", param_hint="--names")
    create(
        file,
        {
            "type": "campaign",
            "format": FORMAT,
            **_pack_ref(pack, file, ir["pack"]["name"]),
            "pack_name": ir["pack"]["name"],
            "players": players,
            "names": who,
            "seed": seed,
            "bots": seats,
        },
    )
    click.echo(f"started a campaign of {ir['pack']['name']} for {players} players in {file}")


@command.command("play")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--bots",
    default=None,
    help="Who plays each seat, this game only: a bot, or human (a person at this terminal); "
    "one for all or one each (default: the campaign's).",
)
@click.option(
    "--log",
    "log_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With a person at a seat: write the game's log here [default: a new "
    "play-PACK-seed-S.jsonl beside the campaign file].",
)
@PACK_OPTION
def play(file: Path, bots: str | None, log_file: Path | None, pack: Path | None) -> None:
    """Play the campaign's next game and append it, with the post-game steps. The seats are
    the campaign's bots (or --bots); a `human` seat is played by a person at this terminal,
    as `clankwork play` plays, and asked its passages' choices."""
    with writing(file):
        c, _ = _load(file, holding=True)
        ir = pack_ir(c, file, pack)
        n = c.next_game
        if bots is not None:
            try:
                c.bots = seat_bots(bots, c.players)
            except ValueError as e:
                raise click.BadParameter(str(e), param_hint="--bots") from None
        who = [f"{name} ({bot})" for name, bot in zip(c.names, c.bots, strict=True)]
        if HUMAN not in c.bots:
            # The passages are told after the game's line (a bot game is over in a moment).
            told: list[str] = []
            game = play_game(ir, c, n, Table(say=told.append, names=who))
        else:
            # With people, each passage is told as it is read, and a person's choice asked.
            told = []
            ask = [
                terminal_ask(name) if b == HUMAN else None
                for name, b in zip(c.names, c.bots, strict=True)
            ]
            table = Table(ask=ask, say=click.echo, names=who)
            game = play_with_people(ir, c, n, table, file, log_file)
        append(file, [game])
        c, _ = _load(file, holding=True)
    scores = ", ".join(f"{c.names[k]} {s}" for k, s in enumerate(game["scores"]))
    won = " and ".join(c.names[w] for w in game["winners"]) or "nobody"
    click.echo(f"game {n}: {scores}; {won} won ({game['end']}, {game['rounds']} rounds)")
    for text in told:
        click.echo(textwrap.indent(text, "  "))
    for line in game_summary(game, c.names):
        click.echo(f"  {line}")


def seat_bots(bots: str, players: int) -> list[str]:
    """Who plays each seat of a campaign game: a bot's name or `human` (one name for all
    seats, or one each); ValueError with why."""
    names = [b.strip() for b in bots.split(",")]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ValueError(f"{len(names)} seats named for {players} players")
    for name in names:
        if name != HUMAN:
            bot_names(name, 1)  # a ValueError names a bot that does not exist
    return names


def play_with_people(
    ir: dict[str, Any],
    c: Campaign,
    n: int,
    table: Table,
    file: Path,
    log_file: Path | None,
) -> dict[str, Any]:
    """Game ``n`` with a person at each `human` seat, in the terminal (`clankwork play`'s
    session: menus, undo, its log written as it goes); its `game` event. A person who quits
    leaves the campaign as it was (`click.ClickException`)."""
    setup = game_setup(ir, c, n, table)
    folder = file.parent if str(file.parent) else Path(".")
    path = log_file if log_file is not None else default_log_path(c.pack_name, setup.seed, folder)
    log = LiveLog(path)
    humans = [k for k, b in enumerate(c.bots) if b == HUMAN]
    session = PlaySession(
        ir,
        setup.catalog,
        players=c.players,
        seat=humans[0],
        seed=setup.seed,
        bots=c.bots,
        log=log,
        stdin=sys.stdin,
        stdout=sys.stdout,
        make_game=functools.partial(CampaignGame, goals_before=c.goals),
    )
    try:
        g = session.run()
    except (Quit, KeyboardInterrupt):
        raise click.ClickException(
            f"game {n} stopped before its end: the campaign is as it was (its log so far is "
            f"in {path}); `campaign play {file}` starts it again"
        ) from None
    finally:
        log.close()
    click.echo(f"log of game {n}: {path}")
    return finish_game(ir, c, setup, g, table)


@command.command("sticker")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("name")
@PACK_OPTION
def sticker(file: Path, name: str, pack: Path | None) -> None:
    """Apply the pack's sticker NAME: it fills its rule slot for every later game."""

    with writing(file):
        c, _ = _load(file, holding=True)
        ir = pack_ir(c, file, pack)
        known = stickers(ir)
        if name in c.stickers:
            raise click.ClickException(
                f"{name!r} is already on in this campaign: a sticker is applied once "
                f"(`campaign undo {file}` takes back the last event, a sticker too)"
            )
        if name not in known:
            raise click.ClickException(
                f"{c.pack_name} has no sticker named {name!r}"
                + (f"; {hint}" if (hint := did_you_mean(name, list(known))) else "")
                + (f" (stickers: {', '.join(sorted(known))})" if known else " (it has none)")
            )
        append(file, [{"type": "sticker", "name": name, "before_game": c.next_game}])
    where = f"slot {known[name]['fills']}" if "fills" in known[name] else "the pack"
    click.echo(f"applied {name!r} to {where} from game {c.next_game} on")


def _trigger_text(trig: dict[str, Any]) -> str:
    """A rules trigger as its record prints it: `whenever you heal: -1 Clank!`."""

    text = TRIGGERS[trig["on"]].render(trig)
    if trig.get("if"):
        head, _, rest = text.partition(": ")
        text = f"{head}, if {render_condition(trig['if'])}: {rest}"
    return text


def slot_text(slot: dict[str, Any], effects: list[dict[str, Any]] | None = None) -> str:
    """The rules text of a rule slot, generated like card text: where it sits (a step of a
    phase, a moment, a rule) and, filled, what it says."""

    kind = slot_kind(slot)
    if kind == "rule":
        return f"the rule `{RULES_BY_KEY[slot['rule']].words}`"
    if kind == "trigger":
        return (
            _trigger_text({**slot, "effects": effects or []})
            if effects
            else (_trigger_text({**slot, "effects": []}).rstrip(": ") + ": (empty)")
        )
    anchor = slot.get("before") or slot.get("after") or slot["replaces"]
    how = "before" if "before" in slot else "after" if "after" in slot else "covering"
    where = f"{slot['step'].split('.')[0].replace('_', ' ')}, {how} {anchor.split('.', 1)[1]}"
    if not effects and slot.get("covers"):
        printed = STEPS.get(slot["covers"])
        return f"{where}: (as printed) " + (" ".join(printed.doc.split()) if printed else "")
    return f"{where}: " + (render_effects(effects) if effects else "(empty)")


def sticker_text(ir: dict[str, Any], st: dict[str, Any]) -> list[str]:
    """What a sticker says, generated from its IR like card text: the slot it fills and its
    new rules, a Franchise Board ability, the board or cards it changes."""

    out = []
    if "fills" in st:
        slot = slots(ir).get(st["fills"])
        if slot is None:
            out.append(f"[{st['fills']}] (the pack has no such slot now)")
        elif "rules" in st:
            values = ", ".join(
                f"{RULES_BY_KEY[k].words} "
                + (" ".join(map(str, v)) if isinstance(v, list) else str(v))
                for k, v in st["rules"].items()
            )
            out.append(f"[{st['fills']}] {values}")
        else:
            out.append(f"[{st['fills']}] " + slot_text(slot, st["effects"]))
    out += [f"Franchise Board: {_trigger_text(t)}" for t in st.get("abilities", ())]
    for e in st.get("edits", ()):
        item, fields = e.get("item") or {}, e.get("fields") or []
        said = [
            f"{f} {' '.join(map(str, item[f])) if isinstance(item[f], list) else item[f]}"
            for f in fields
            if f in item and f != "triggers"
        ]
        said += [_trigger_text(t) for t in item.get("triggers", ())]
        out.append(
            f"{e['verb']} {e['kind']} {e['name']}" + (": " + "; ".join(said) if said else "")
        )
    for b in st.get("boards", ()):
        spaces = ", ".join(s["name"] for s in b["spaces"])
        paths = ", ".join(f"{p['from']} -- {p['to']}" for p in b["paths"])
        out.append(f"board {b['name']} gains " + "; ".join(x for x in (spaces, paths) if x))
    return out


@command.command("status")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@PACK_OPTION
def status(file: Path, pack: Path | None) -> None:
    """What the campaign says now: games and scores, checkmarks and Associate Status,
    personal goals, the campaign tracks, the deck's changes, the Contracts row, the stickers
    with their rules text."""

    c, _ = _load(file)
    ir = pack_ir(c, file, pack)
    click.echo(f"campaign of {c.pack_name} ({c.pack}), {c.players} players, seed {c.seed}")
    click.echo(f"games played: {len(c.games)}; next: game {c.next_game}")
    block = ir.get("campaign") or {}
    death = (block.get("death") or {}).get("marks")
    if c.games:
        click.echo("game  scores" + " " * 14 + "rounds  end")
        for g in c.games:
            marks = " ".join(f"{s:>3}" for s in g["scores"])
            dead = "  (a player death" + (f": an X on the {death} track)" if death else ")")
            dead = dead if g["death"] else ""
            click.echo(f"{g['game']:>4}  {marks:<20}{g['rounds']:>6}  {g['end']}{dead}")
    totals = [0] * c.players
    for g in c.games:
        for k, s in enumerate(g["scores"]):
            totals[k] += s
    click.echo("player  checkmarks  status     total score  personal goals")
    goals = {g["name"]: g for g in ir.get("goals", ())}
    for k in range(c.players):
        mine = [g for g in goals.values() if g["player"] == k + 1]
        shown = ", ".join(f"{g['name']} {c.goals[k].get(g['name'], 0)}/{g['boxes']}" for g in mine)
        click.echo(
            f"{c.names[k]:<8}{c.checkmarks[k]:>10}  {c.status[k]:<10}{totals[k]:>12}  {shown}"
        )
    declared = [t["name"] for t in tracks(ir)]
    for t in tracks(ir):
        x = c.marks.get(t["name"], 0)
        numbered = {int(k): v for k, v in t["reads"].items()}
        cells = [
            ("X" if i <= x else "_") + (str(numbered[i]) if i in numbered else "")
            for i in range(1, t["spaces"] + 1)
        ]
        shown = f"  [{' '.join(cells)}]" if cells else ""
        click.echo(f"{t['name']} track: {x} X{shown}")
    for name, x in c.marks.items():
        if name not in declared:
            click.echo(f"{name} track: {x} X (no longer in the pack)")
    by_no = {x["cardporium"]: x["name"] for x in ir["cards"] if "cardporium" in x}
    if c.fetched:
        fetched = list(dict.fromkeys(c.fetched))
        click.echo(
            "adventure deck: + "
            + ", ".join(f"{by_no.get(n, '?')} (Cardporium {n})" for n in fetched)
        )
    if c.destroyed:
        click.echo("destroyed: " + ", ".join(c.destroyed))
    if c.contracts:
        click.echo("Contracts row: " + ", ".join(c.contracts))
    if c.patron or c.board:
        nxt = [f"patron {c.patron}"] if c.patron else []
        nxt += [f"board {c.board}"] if c.board else []
        click.echo(f"game {c.next_game}: " + ", ".join(nxt))
    if c.stickers:
        known = stickers(ir)
        click.echo("stickers:")
        for name in dict.fromkeys(c.stickers):
            st = known.get(name)
            if st is None:
                click.echo(f"  {name}: (no longer in the pack)")
                continue
            click.echo(f"  {name}: " + "; ".join(sticker_text(ir, st)))


@command.command("rules")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@PACK_OPTION
def rules(file: Path, pack: Path | None) -> None:
    """The rulebook's boxes as the campaign has them now: every rule slot of the pack, in
    order, with the rules text of the sticker on it (generated like card text)."""

    ir = campaign_ir(file, pack)
    found = slots(ir)

    def order(name: str) -> tuple[int, str]:
        m = re.search(r"\d+", name)
        return (int(m.group()) if m else 10**6, name)

    for name in sorted(found, key=order):
        slot = found[name]
        if "rule" in slot:
            rule = slot["rule"]
            value = ir["rules"][rule]
            shown = " ".join(map(str, value)) if isinstance(value, list) else value
            text = f"{slot_text(slot)}: {shown}"
        else:
            text = slot_text(slot, slot.get("effects"))
        by = f"  ({slot['sticker']})" if slot.get("sticker") else ""
        click.echo(f"[{name}] {text}{by}")

    c, _ = _load(file)
    known = stickers(ir)
    for name in dict.fromkeys(c.stickers):
        for t in known.get(name, {}).get("abilities", ()):
            click.echo(f"[Franchise Board] {_trigger_text(t)}  ({name})")


def game_summary(e: dict[str, Any], names: list[str]) -> list[str]:
    """What a game's event changed in the campaign, as short phrases: passages read (with
    the choices made), stickers, the deck, contracts, checkmarks, promotions, X on the
    campaign tracks."""
    every = readings(e)
    out = []
    read = [
        str(n) if ch is None else f"{n} (choice {ch + 1})" for r in every for n, ch in r["read"]
    ]
    if read:
        out.append("read " + ", ".join(read))
    stuck = [x for r in every for x in r["stickers"]]
    if stuck:
        out.append("stickers " + ", ".join(stuck))
    fetched = [str(x) for r in every for x in r.get("fetched", ())]
    if fetched:
        out.append("fetched Cardporium " + ", ".join(fetched))
    gone = [x for r in every for x in r.get("destroyed", ())]
    if gone:
        out.append("destroyed " + ", ".join(gone))
    opened = [x for r in every for x in r.get("contracts", ())]
    if opened:
        out.append("contracts opened " + ", ".join(opened))
    done = [f"{n} by {names[s]}" for n, s in e.get("contracts_completed", ())]
    if done:
        out.append("completed " + ", ".join(done))
    review = e["review"]
    from_passages = sum(r["checkmarks"] for r in every)
    got = [
        f"{names[k]} +{len(m) + from_passages}"
        for k, m in enumerate(review["checkmarks"])
        if len(m) + from_passages
    ]
    if got:
        out.append("checkmarks " + ", ".join(got))
    out += [f"{names[s]} made {r}" for s, r in review["promotions"]]
    for track, x in game_marks(e).items():
        if x:
            out.append(f"{x} X on the {track} track")
    if e["death"]:
        out.append("a player death")
    return out


@command.command("history")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@PACK_OPTION
def history(file: Path, pack: Path | None) -> None:
    """Every event of the campaign file, one a line, undone ones included; under each game,
    the passages read, with their text and the choice made (and by whom)."""
    log = read_settled(file).events
    names = log[0]["names"]
    ir = _history_ir(log, file, pack)
    for e in log:
        t = e["type"]
        if t == "campaign":
            text = f"campaign of {e['pack_name']} for {', '.join(names)} (seed {e['seed']})"
        elif t == "game":
            scores = ", ".join(f"{names[k]} {s}" for k, s in enumerate(e["scores"]))
            text = f"game {e['game']}: {scores} ({e['end']}, {e['rounds']} rounds)"
            got = game_summary(e, names)
            text += "; " + "; ".join(got) if got else ""
        elif t == "sticker":
            text = f"sticker {e['name']!r} applied before game {e['before_game']}"
        elif e.get("what") == "sticker":
            text = f"sticker {e['name']!r} undone"
        else:
            text = f"game {e['game']} undone"
        click.echo(f"{e['seq']:>4}  {text}")
        if t == "game":
            for line in passage_lines(ir, e, names):
                click.echo(f"        {line}")


def _history_ir(log: list[dict[str, Any]], file: Path, pack: Path | None) -> dict[str, Any] | None:
    """The campaign's pack for `history` to print passage text from; None (with a note)
    when it cannot be found: the history is printed without the text."""
    c = fold(log[:1])
    try:
        return pack_ir(c, file, pack)
    except (click.ClickException, SystemExit) as e:
        message = e.format_message() if isinstance(e, click.ClickException) else str(e)
        click.echo(f"note: passages are shown without their text: {message}", err=True)
        return None


def passage_lines(ir: dict[str, Any] | None, game: dict[str, Any], names: list[str]) -> list[str]:
    """Each passage a game's event read, in order, with its text (from the pack ``ir``) and
    the choice made, by whom: `passage 2: Your first quarter... -> Ann chose "Take the bonus"`."""
    by_no = {p["number"]: p for p in (ir or {}).get("passages", ())}
    out = []
    for r in readings(game):
        for number, choice in r["read"]:
            ps = by_no.get(number)
            text = f"passage {number}" + (f": {ps['text']}" if ps and ps.get("text") else "")
            if choice is not None:
                label = (
                    ps["choices"][choice]["label"]
                    if ps and choice < len(ps.get("choices", ()))
                    else f"option {choice + 1}"
                )
                who = names[r["by"]] if "by" in r and r["by"] < len(names) else "the table"
                text += f" -> {who} chose {label!r}"
            out.append(text)
    return out


@command.command("undo")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@PACK_OPTION
def undo(file: Path, pack: Path | None) -> None:
    """Take back the last event that stands, whatever it is (a game played by bots or
    recorded, a sticker), by appending an `undo` event: the history keeps it. Undo again to
    go further back."""
    with writing(file):
        log = read_log(file)
        stand = standing(log.events)
        if not stand:
            raise click.ClickException(f"{file}: nothing to undo (no game or sticker yet)")
        last = stand[-1]
        event: dict[str, Any] = {"type": "undo", "undoes": last["seq"], "what": last["type"]}
        if last["type"] == "game":
            event["game"] = last["game"]
        else:
            event["name"] = last["name"]
        append(file, [event])
    click.echo(f"took back {undone_text(last)}")
    if last["type"] == "game" and last.get("recorded"):
        click.echo(f"  `campaign record {file}` records game {last['game']} again")
    elif last["type"] == "game":
        click.echo(f"  `campaign play {file}` plays it again: the same game, the same choices")


def undone_text(e: dict[str, Any]) -> str:
    """What an event taken back was, in words (for `undo` and `history`)."""
    if e["type"] == "game":
        how = "recorded at the table" if e.get("recorded") else "played by bots"
        return f"game {e['game']} ({how})"
    return f"the sticker {e['name']!r} (applied before game {e['before_game']})"


def _arc(ir: dict[str, Any], part: str, game: int) -> int | None:
    """The passage that is game ``game``'s prologue or epilogue, if the pack has one."""
    return next((p["number"] for p in ir.get("passages", ()) if p.get(part) == game), None)


def campaign_ir(file: Path, pack: Path | None = None) -> dict[str, Any]:
    """The IR of the campaign's pack as its next game will find it, before that game's
    prologue: the stickers on, the Cardporium cards fetched, the cards destroyed, the
    Contracts row (for `render board --campaign` and `render cards --campaign`)."""

    c, _ = _load(file)
    ir = pack_ir(c, file, pack)
    try:
        ir = fetch_and_destroy(apply_stickers(ir, c.stickers), c.fetched, c.destroyed)
    except ValueError as e:
        raise click.ClickException(f"{file}: {e} (the pack changed since)") from None
    return with_contracts(ir, c.contracts)


@dataclass
class GameSetup:
    """What game ``n`` of a campaign is played with: its seed, its prologue's reading (read
    before setup: its stickers, cards, contracts and patron are on for this game), the
    stickers on, the patron and board, and the catalog built from all of it."""

    n: int
    seed: int
    prologue: dict[str, Any] | None
    stickers: list[str]
    patron: str | None
    board: str | None
    catalog: Catalog

    def event(self, bots: list[str]) -> dict[str, Any]:
        """The head of the game's event: what it was played with."""
        game: dict[str, Any] = {
            "type": "game",
            "game": self.n,
            "seed": self.seed,
            "bots": list(bots),
            "stickers": self.stickers,
        }
        if self.patron is not None:
            game["patron"] = self.patron
        if self.board is not None:
            game["board"] = self.board
        if self.prologue is not None:
            game["prologue"] = self.prologue
        return game


def game_setup(ir: dict[str, Any], c: Campaign, n: int, table: Table = BOTS_ONLY) -> GameSetup:
    """Read game ``n``'s prologue (its choice is the first seat's) and build the game's
    catalog: the campaign's stickers and the prologue's on, the Cardporium cards fetched,
    the destroyed cards out, the Contracts row, the patron, the board, waypoints and goals."""
    seed = game_seed(c.seed, n)
    start = _arc(ir, "prologue", n)
    prologue = None
    if start is not None:
        prologue = read_passages(
            ir, start, seed, c.bots[0], by=0, ask=table.reader(0), say=table.say, who=table.who(0)
        )
    on = [*c.stickers, *(prologue["stickers"] if prologue else ())]
    fetched = [*c.fetched, *(prologue["fetched"] if prologue else ())]
    destroyed = [*c.destroyed, *(prologue["destroyed"] if prologue else ())]
    row = [*c.contracts, *(prologue["contracts"] if prologue else ())]
    patron = (prologue or {}).get("patron", c.patron)
    board = (prologue or {}).get("board", c.board)
    try:
        played = fetch_and_destroy(apply_stickers(ir, on), fetched, destroyed)
        played = with_goals(with_patron(with_contracts(played, row), patron))
        played = with_waypoints(played)
        cat = prepare(played, board if board is not None else 0)
    except ValueError as e:
        raise click.ClickException(f"game {n}: {e}") from None
    return GameSetup(n, seed, prologue, on, patron, board, cat)


def play_game(ir: dict[str, Any], c: Campaign, n: int, table: Table = BOTS_ONLY) -> dict[str, Any]:
    """Game ``n`` of the campaign, played by its bots: its `game` event (post-game included).
    The passages' choices are the bots' unless ``table`` names a person for a seat."""
    setup = game_setup(ir, c, n, table)
    bots = [make_bot(b, bot_seed(setup.seed, k)) for k, b in enumerate(c.bots)]
    g = CampaignGame(setup.catalog, bots, setup.seed, goals_before=c.goals, picks=table.ask)
    g.play()
    return finish_game(ir, c, setup, g, table)


def finish_game(
    ir: dict[str, Any], c: Campaign, setup: GameSetup, g: Game, table: Table
) -> dict[str, Any]:
    """A played game's event: its results, the post-game steps the rules run (contracts'
    end-of-game instructions, reviews, player death, and any a sticker adds), then the
    passages the campaign reads after them."""
    result = g.result
    assert result is not None
    g.post_game()
    game = setup.event(c.bots)
    game.update(
        {
            "scores": list(result.scores),
            "winners": list(result.winners),
            "status": [p.status for p in g.players],
            "rounds": g.round,
            "end": g.end_reason,
            "log": hashlib.sha256(to_jsonl(g.log).encode("utf-8")).hexdigest()[:16],
        }
    )
    if g.completed_contracts:
        game["contracts_completed"] = [list(x) for x in g.completed_contracts]
    return after_game(ir, c, game, g, setup.seed, table)


@command.command("simulate")
@click.argument("pack", type=PACK_FOLDER)
@click.option("--campaigns", type=click.IntRange(1, 10_000), default=20, show_default=True)
@click.option("--games", type=click.IntRange(1, 100), default=10, show_default=True)
@click.option("-p", "--players", type=click.IntRange(1, 8), default=4, show_default=True)
@click.option("-s", "--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True)
@click.option("--bots", default="heuristic", show_default=True, help="Bot of every seat.")
@click.option(
    "--choices",
    type=click.Choice(["bots", "random"]),
    default="bots",
    show_default=True,
    help="Who takes the passages' choices: each seat's bot (the option worth most to it), or "
    "a random pick, so that every branch of the arc is played and measured.",
)
def simulate(
    pack: Path, campaigns: int, games: int, players: int, seed: int, bots: str, choices: str
) -> None:
    """Bots play whole campaigns of PACK (nothing is written): how the campaign goes, game by
    game of its arc, with 95% intervals over the campaigns, and what each passage choice
    changed in the games after it."""

    try:
        seats = bot_names(bots, players)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--bots") from None
    ir = load_ir(pack, checks=True)
    first = {
        "type": "campaign",
        "format": FORMAT,
        "pack": str(pack),
        "pack_name": ir["pack"]["name"],
        "players": players,
        "names": [f"P{k + 1}" for k in range(players)],
        "bots": seats,
    }
    keys = ("score", "top", "rounds", "deaths", "checkmarks", "promotions")
    keys += ("stickers", "fetched", "destroyed", "contracts")
    # A column of X a game for each of the pack's campaign tracks, headed with its name.
    names = [t["name"] for t in tracks(ir)]
    keys += tuple(f"track:{name}" for name in names)
    rows: list[dict[str, float]] = [dict.fromkeys(keys, 0.0) for _ in range(games)]
    # Sums of squares over campaigns of the figures shown with an interval.
    squares: list[dict[str, float]] = [dict.fromkeys(ARC_INTERVALS, 0.0) for _ in range(games)]
    # How each passage's choice was answered: (passage, option) -> times; and what followed:
    # each campaign's mean score over the games after the choice (count, sum, squares).
    taken: dict[tuple[int, int], int] = {}
    after: dict[tuple[int, int], list[float]] = {}
    for cseed in game_seeds(seed, campaigns):
        events: list[dict[str, Any]] = [{**first, "seed": cseed}]
        table = BOTS_ONLY if choices == "bots" else random_choices(cseed, players)
        made: list[tuple[int, int, int]] = []  # (game, passage, option) of this campaign
        means: list[float] = []
        for n in range(1, games + 1):
            e = play_game(ir, fold(events), n, table)
            events.append(e)
            every = readings(e)
            row = rows[n - 1]
            means.append(sum(e["scores"]) / players)
            figures = {
                "score": means[-1],
                "top": max(e["scores"]),
                "rounds": e["rounds"],
                "deaths": e["death"],
            }
            for key, x in figures.items():
                squares[n - 1][key] += x * x
            row["score"] += sum(e["scores"]) / players
            row["top"] += max(e["scores"])
            row["rounds"] += e["rounds"]
            row["deaths"] += e["death"]
            for track, x in game_marks(e).items():
                if f"track:{track}" in row:
                    row[f"track:{track}"] += x
            from_passages = sum(r["checkmarks"] for r in every)
            row["checkmarks"] += (
                sum(len(m) for m in e["review"]["checkmarks"]) / players + from_passages
            )
            row["promotions"] += len(e["review"]["promotions"])
            row["stickers"] += sum(len(r["stickers"]) for r in every)
            row["fetched"] += sum(len(r.get("fetched", ())) for r in every)
            row["destroyed"] += sum(len(r.get("destroyed", ())) for r in every)
            row["contracts"] += len(e.get("contracts_completed", ()))
            for r in every:
                for number, option in r["read"]:
                    if option is not None:
                        taken[(number, option)] = taken.get((number, option), 0) + 1
                        made.append((n, number, option))
        for n, number, option in made:
            if n < games:  # the games after the choice, in this campaign
                later = sum(means[n:]) / (games - n)
                sums = after.setdefault((number, option), [0, 0.0, 0.0])
                sums[0] += 1
                sums[1] += later
                sums[2] += later * later
    k = campaigns
    said = "the bots" if choices == "bots" else "a random pick"
    click.echo(
        f"{campaigns} campaigns of {games} games of {ir['pack']['name']}, {players} players "
        f"(passage choices: {said}; ± a 95% interval over the campaigns)"
    )
    heads = [f"{name} X" for name in names]
    click.echo(
        "game    mean score     top score      rounds         deaths  "
        + "".join(f"{h}  " for h in heads)
        + "checkmarks/player  promotions  stickers  fetched  destroyed  contracts done"
    )
    for n, row in enumerate(rows, start=1):
        x = "".join(
            f"{row[f'track:{name}'] / k:>{max(6, len(h))}.2f}  "
            for name, h in zip(names, heads, strict=True)
        )
        sq = squares[n - 1]
        low, high = wilson(round(row["deaths"]), k)
        click.echo(
            f"{n:>4}  {_pm(row['score'], sq['score'], k):>12}  "
            f"{_pm(row['top'], sq['top'], k):>12}  "
            f"{_pm(row['rounds'], sq['rounds'], k):>10}  "
            f"{row['deaths'] / k:>4.0%} [{low:.0%}–{high:.0%}]  {x}"
            f"{row['checkmarks'] / k:>17.2f}  {row['promotions'] / k:>10.2f}  "
            f"{row['stickers'] / k:>8.2f}  {row['fetched'] / k:>7.2f}  "
            f"{row['destroyed'] / k:>9.2f}  {row['contracts'] / k:>14.2f}"
        )
    if taken:
        labels = {
            (p["number"], i): c["label"]
            for p in ir.get("passages", ())
            for i, c in enumerate(p.get("choices", ()))
        }
        click.echo(f"choices made ({said}), and the mean score of the games after them:")
        for (number, option), times in sorted(taken.items()):
            label = labels.get((number, option), f"option {option + 1}")
            n_after, total, sq = after.get((number, option), [0, 0.0, 0.0])
            effect = (
                f"; the {n_after} campaigns' later games: mean score {_pm(total, sq, int(n_after))}"
                if n_after
                else "; no game after it"
            )
            click.echo(f"  passage {number}: {label!r} {times} of {k}{effect}")


# The figures of `campaign simulate` shown with their 95 % interval over the campaigns.
ARC_INTERVALS = ("score", "top", "rounds", "deaths")


def _pm(total: float, squares: float, n: int) -> str:
    """A mean over ``n`` campaigns with the half-width of its 95 % normal interval."""
    low, high = mean_interval(total, squares, n)  # type: ignore[arg-type]
    return f"{total / n:.1f} ±{(high - low) / 2:.1f}" if n else "-"


def random_choices(seed: int, players: int) -> Table:
    """A table whose passage choices are random picks (seeded by the campaign): every branch
    of an arc gets played, whatever the bots would prefer."""
    rng = random.Random(seed * 7_919 + 17)

    def pick(ps: dict[str, Any]) -> int:
        return rng.randrange(len(ps["choices"]))

    return Table(ask=[pick] * players)

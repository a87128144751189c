"""`clankwork campaign`: a legacy campaign kept as an append-only, checksummed event log.

A campaign file is one JSON object a line, each an event of the campaign (`campaign`, `game`,
`sticker`, `undo`); a game and its post-game steps are one line, so an interrupted write
leaves a game whole or absent. Every line carries its number (``seq``) and a checksum of the
rest of the line (``check``: the first 16 hex digits of the SHA-256 of its canonical JSON),
so an edited, reordered or damaged line is found and named. The campaign's state is the fold
of its events (`fold`); nothing is ever rewritten: undoing a game appends an `undo` event.

Writes are made to last: a new file is written to a temporary file, flushed to disk and
renamed into place; events are appended with one ``write`` and flushed to disk (``fsync``)
before the command reports success. A write cut off (the machine lost power, ``kill -9``)
leaves at most a last line without its newline: reading ignores it, with a warning, and the
next write removes it (the file is rewritten without it, by rename) before appending. Any
other damage is refused with the line number, and the file is left as it is.

The post-game steps of the Legacy rulebook ("Post-Game Campaign Steps") run after each game
as named steps (`POST_GAME_STEPS`); this module runs the ones that need no Book of Secrets:
the mission report (scores), employee reviews (a checkmark for scoring more than 0 and one for
winning; promotions at the sections of the Associate Status track), sorting components (each
game starts from the pack again) and player death (at most one X on the Dran track a game).
Stickers, passages, contracts and personal goals are not written yet (issue 9).
`campaign simulate` plays whole campaigns with bots, in memory, and reports game by game.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from clankwork.dsl.limits import MAX_DATA_BYTES

FORMAT = "clankwork-campaign/1"
# The Associate Status track's sections: the checkmark that opens each one is a promotion.
# The rulebook does not print the section lengths; these are ours (a pack will set them).
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
        size = path.stat().st_size
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
        if n == 1 and (event["type"] != "campaign" or event.get("format") != FORMAT):
            raise CampaignFileError(f"{where}: not a {FORMAT} campaign file")
        events.append(event)
    if not events:
        raise CampaignFileError(f"{path}: the file holds no campaign (it is empty)")
    return LogRead(events, bool(tail), len(data) - len(tail))


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can open a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_new(path: Path, data: bytes) -> None:
    """``data`` as ``path``, by a temporary file flushed to disk and renamed into place."""
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
    os.replace(tmp, path)
    _fsync_dir(folder)


def create(path: Path, first: dict[str, Any]) -> None:
    """A new campaign file holding its first event; never over an existing file."""
    if path.exists() or path.is_symlink():
        raise click.ClickException(
            f"{path} exists: a campaign file is never overwritten (choose another name)"
        )
    try:
        _write_new(path, _line({**first, "seq": 1}))
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
    # Rule stickers applied, in order (interpreter/stickers.py): every later game has them.
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
    dran: int = 0

    @property
    def next_game(self) -> int:
        """The number of the next game to play (from 1)."""
        return len(self.games) + 1


def fold(events: list[dict[str, Any]]) -> Campaign:
    """The campaign state after ``events`` (the first is the `campaign` event)."""
    first = events[0]
    games: list[dict[str, Any]] = []
    # Stickers applied by hand, each before the game it was applied for.
    applied: list[tuple[int, str]] = []
    for e in events[1:]:
        if e["type"] == "game":
            games.append(e)
        elif e["type"] == "sticker":
            applied.append((e["before_game"], e["name"]))
        elif e["type"] == "undo" and games and games[-1]["game"] == e["game"]:
            games.pop()
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
    )
    played = {g["game"] for g in games}
    for g in games:
        c.patron = None  # a patron is for one game
        if g.get("board"):
            c.board = g["board"]
        c.stickers.extend(name for before, name in applied if before == g["game"])
        for part in ("prologue", "epilogue"):
            read = g.get(part)
            if read:
                c.stickers.extend(read["stickers"])
                c.fetched.extend(read.get("fetched", ()))
                c.destroyed.extend(read.get("destroyed", ()))
                c.contracts.extend(read.get("contracts", ()))
                c.checkmarks = [k + read["checkmarks"] for k in c.checkmarks]
                c.dran += read["dran"]
        for name, _seat in g.get("contracts_completed", ()):
            if name in c.contracts:
                c.contracts.remove(name)
        for read in g.get("contract_passages", ()):
            c.stickers.extend(read["stickers"])
            c.fetched.extend(read["fetched"])
            c.destroyed.extend(read["destroyed"])
            c.contracts.extend(read["contracts"])
            c.checkmarks = [k + read["checkmarks"] for k in c.checkmarks]
            c.dran += read["dran"]
        # What the game's closing passages name is for the next game.
        for read in [*g.get("contract_passages", ()), g.get("epilogue") or {}]:
            c.patron = read.get("patron", c.patron)
            c.board = read.get("board", c.board)
        for seat, marks in enumerate(g["review"]["checkmarks"]):
            c.checkmarks[seat] += len(marks)
        for seat, rank in g["review"]["promotions"]:
            c.status[seat] = rank
        c.dran += 1 if g["death"] else 0
    # Stickers applied for a game not played yet (or undone) are on from the next game.
    c.stickers.extend(name for before, name in applied if before not in played)
    return c


def game_seed(campaign_seed: int, game: int) -> int:
    """The seed of a campaign's game ``game``: the same game number, the same game."""
    digest = hashlib.sha256(f"{campaign_seed}:{game}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def post_game(c: Campaign, game: dict[str, Any]) -> dict[str, Any]:
    """The post-game steps after ``game`` (see `POST_GAME_STEPS`): its review and whether
    it adds an X to the Dran track, written into the game's event."""
    # 3. Employee reviews [R25]: a checkmark for scoring more than 0 and one for winning.
    marks: list[list[str]] = []
    promotions: list[list[Any]] = []
    # Checkmarks the game's passages gave count towards this review's promotions.
    read = sum(game[part]["checkmarks"] for part in ("prologue", "epilogue") if game.get(part))
    read += sum(r["checkmarks"] for r in game.get("contract_passages", ()))
    for seat, score in enumerate(game["scores"]):
        got = (["scored more than 0"] if score > 0 else []) + (
            ["won the game"] if seat in game["winners"] else []
        )
        marks.append(got)
        before = c.checkmarks[seat]
        for at, rank in PROMOTIONS:
            if before < at <= before + read + len(got):
                promotions.append([seat, rank])
    # 4. Sort components [R26, R27]: every game starts from the pack again (nothing kept).
    # 5. Player death [R28]: one X on the Dran track if anyone scored 0, never more.
    return {
        "review": {"checkmarks": marks, "promotions": promotions},
        "death": any(s == 0 for s in game["scores"]),
    }


# -- the commands -------------------------------------------------------------------------------


def _pack_ref(pack: Path, file: Path) -> str:
    """Where the pack is, as the campaign file keeps it: relative to the file's folder."""
    return os.path.relpath(pack.resolve(), file.resolve().parent)


def _pack_path(c: Campaign, file: Path) -> Path:
    path = (file.resolve().parent / c.pack).resolve()
    if not (path / "pack.clank").is_file():
        raise click.ClickException(
            f"{file}: its pack {c.pack_name} was at {c.pack} (next to the campaign file), and "
            f"is not there now: put the pack folder back there"
        )
    return path


def _load(file: Path) -> tuple[Campaign, LogRead]:
    log = read_log(file)
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
@click.argument("pack", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-p", "--players", type=click.IntRange(1, 8), default=4, show_default=True)
@click.option("--names", default="", help="Player names, comma-separated (default: P1, P2...).")
@click.option("-s", "--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True)
@click.option("--bots", default="heuristic", show_default=True, help="Bot of every seat.")
def new(pack: Path, file: Path, players: int, names: str, seed: int, bots: str) -> None:
    """Start a campaign of PACK in FILE (a new file)."""
    from clankwork.tools.check import load_ir
    from clankwork.tools.simulate import bot_names

    ir = load_ir(pack, checks=True)
    who = [n.strip() for n in names.split(",")] if names else [f"P{k + 1}" for k in range(players)]
    if len(who) != players:
        raise click.BadParameter(f"{len(who)} names for {players} players", param_hint="--names")
    create(
        file,
        {
            "type": "campaign",
            "format": FORMAT,
            "pack": _pack_ref(pack, file),
            "pack_name": ir["pack"]["name"],
            "players": players,
            "names": who,
            "seed": seed,
            "bots": bot_names(bots, players),
        },
    )
    click.echo(f"started a campaign of {ir['pack']['name']} for {players} players in {file}")


@command.command("play")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def play(file: Path) -> None:
    """Play the campaign's next game with its bots and append it, with the post-game steps."""
    from clankwork.tools.check import load_ir

    c, _ = _load(file)
    ir = load_ir(_pack_path(c, file), checks=True)
    n = c.next_game
    game = play_game(ir, c, n)
    append(file, [game])
    c, _ = _load(file)
    scores = ", ".join(f"{c.names[k]} {s}" for k, s in enumerate(game["scores"]))
    won = " and ".join(c.names[w] for w in game["winners"]) or "nobody"
    click.echo(f"game {n}: {scores}; {won} won ({game['end']}, {game['rounds']} rounds)")


@command.command("sticker")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("name")
def sticker(file: Path, name: str) -> None:
    """Apply the pack's sticker NAME: it fills its rule slot for every later game."""
    from clankwork.dsl.diagnostics import did_you_mean
    from clankwork.interpreter.stickers import stickers
    from clankwork.tools.check import load_ir

    c, _ = _load(file)
    ir = load_ir(_pack_path(c, file), checks=True)
    known = stickers(ir)
    if name not in known:
        raise click.ClickException(
            f"{c.pack_name} has no sticker named {name!r}"
            + (f"; {hint}" if (hint := did_you_mean(name, list(known))) else "")
            + (f" (stickers: {', '.join(sorted(known))})" if known else " (it has none)")
        )
    append(file, [{"type": "sticker", "name": name, "before_game": c.next_game}])
    where = f"slot {known[name]['fills']}" if "fills" in known[name] else "the pack"
    click.echo(f"applied {name!r} to {where} from game {c.next_game} on")


@command.command("status")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def status(file: Path) -> None:
    """What the campaign says now: games played, checkmarks and status, the Dran track."""
    c, _ = _load(file)
    click.echo(f"campaign of {c.pack_name} ({c.pack}), {c.players} players, seed {c.seed}")
    click.echo(f"games played: {len(c.games)}; next: game {c.next_game}")
    totals = [0] * c.players
    for g in c.games:
        for k, s in enumerate(g["scores"]):
            totals[k] += s
    click.echo("player  checkmarks  status     total score")
    for k in range(c.players):
        click.echo(f"{c.names[k]:<8}{c.checkmarks[k]:>10}  {c.status[k]:<10}{totals[k]:>12}")
    click.echo(f"Dran track: {c.dran} X")
    if c.fetched:
        click.echo("Cardporium cards fetched: " + ", ".join(map(str, c.fetched)))
    if c.destroyed:
        click.echo("cards destroyed: " + ", ".join(c.destroyed))
    if c.contracts:
        click.echo("Contracts row: " + ", ".join(c.contracts))
    if c.patron or c.board:
        nxt = [f"patron {c.patron}"] if c.patron else []
        nxt += [f"board {c.board}"] if c.board else []
        click.echo(f"game {c.next_game}: " + ", ".join(nxt))
    if c.stickers:
        from clankwork.interpreter.effects.registry import render_effects
        from clankwork.interpreter.stickers import stickers
        from clankwork.tools.check import load_ir

        known = stickers(load_ir(_pack_path(c, file), checks=True))
        click.echo("stickers:")
        for name in c.stickers:
            st = known.get(name)
            if st is None:
                click.echo(f"  {name}: (no longer in the pack)")
                continue
            parts = [f"[{st['fills']}] " + render_effects(st["effects"])] if "fills" in st else []
            parts += [f"{e['verb']} {e['kind']} {e['name']}" for e in st.get("edits", ())]
            click.echo(f"  {name}: " + "; ".join(parts))


@command.command("history")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def history(file: Path) -> None:
    """Every event of the campaign file, one a line, undone games included."""
    log, _ = read_log(file).events, None
    names = log[0]["names"]
    for e in log:
        t = e["type"]
        if t == "campaign":
            text = f"campaign of {e['pack_name']} for {', '.join(names)} (seed {e['seed']})"
        elif t == "game":
            scores = ", ".join(f"{names[k]} {s}" for k, s in enumerate(e["scores"]))
            review = e["review"]
            got = [f"{names[k]} +{len(m)}" for k, m in enumerate(review["checkmarks"]) if m]
            got += [f"{names[s]} made {r}" for s, r in review["promotions"]]
            got += ["an X on the Dran track"] if e["death"] else []
            text = f"game {e['game']}: {scores} ({e['end']}, {e['rounds']} rounds)"
            got = [
                f"{part} read " + ", ".join(str(n) for n, _ in e[part]["read"])
                for part in ("prologue", "epilogue")
                if e.get(part)
            ] + got
            text += "; " + ", ".join(got) if got else ""
        elif t == "sticker":
            text = f"sticker {e['name']!r} applied before game {e['before_game']}"
        else:
            text = f"game {e['game']} undone"
        click.echo(f"{e['seq']:>4}  {text}")


@command.command("undo")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def undo(file: Path) -> None:
    """Undo the last game (by appending an `undo` event: the history is kept)."""
    c, _ = _load(file)
    if not c.games:
        raise click.ClickException(f"{file}: no game to undo")
    n = c.games[-1]["game"]
    append(file, [{"type": "undo", "game": n}])
    click.echo(f"undid game {n}; `campaign play {file}` plays it again")


# Passages a game's prologue or epilogue may lead to, read at most (a loop of `read`s ends).
MAX_READS = 100


def read_passages(ir: dict[str, Any], start: int, seed: int) -> dict[str, Any]:
    """Read passage ``start`` and every passage it leads to, the campaign's bots choosing
    (seeded: the same game, the same choices). What was read, with the choice made, and
    what the passages did: stickers applied, checkmarks for each player, X on the Dran
    track."""
    import random

    by = {p["number"]: p for p in ir.get("passages", ())}
    rng = random.Random(seed * 100_003 + start)
    out: dict[str, Any] = {
        "read": [],
        "stickers": [],
        "checkmarks": 0,
        "dran": 0,
        "fetched": [],
        "destroyed": [],
        "contracts": [],
    }
    queue = [start]
    while queue and len(out["read"]) < MAX_READS:
        ps = by.get(queue.pop(0))
        if ps is None:
            continue
        for d in ps["do"]:
            if d["do"] == "sticker":
                out["stickers"].append(d["name"])
            elif d["do"] == "checkmark":
                out["checkmarks"] += 1
            elif d["do"] == "dran":
                out["dran"] += 1
            elif d["do"] == "read":
                queue.append(d["passage"])
            elif d["do"] == "fetch":
                out["fetched"].append(d["card"])
            elif d["do"] == "destroy":
                out["destroyed"].append(d["name"])
            elif d["do"] == "contract":
                out["contracts"].append(d["name"])
            elif d["do"] in ("patron", "board"):
                out[d["do"]] = d["name"]  # the last one read counts
        choice = None
        if ps.get("choices"):
            choice = rng.randrange(len(ps["choices"]))
            queue.append(ps["choices"][choice]["read"])
        out["read"].append([ps["number"], choice])
    return out


def _arc(ir: dict[str, Any], part: str, game: int) -> int | None:
    """The passage that is game ``game``'s prologue or epilogue, if the pack has one."""
    return next((p["number"] for p in ir.get("passages", ()) if p.get(part) == game), None)


def campaign_ir(file: Path) -> dict[str, Any]:
    """The IR of the campaign's pack as its next game will find it, before that game's
    prologue: the stickers on, the Cardporium cards fetched, the cards destroyed, the
    Contracts row (for `render board --campaign` and `render cards --campaign`)."""
    from clankwork.dsl.stickers import apply as apply_stickers
    from clankwork.dsl.stickers import fetch_and_destroy, with_contracts
    from clankwork.tools.check import load_ir

    c, _ = _load(file)
    ir = load_ir(_pack_path(c, file), checks=True)
    try:
        ir = fetch_and_destroy(apply_stickers(ir, c.stickers), c.fetched, c.destroyed)
    except ValueError as e:
        raise click.ClickException(f"{file}: {e} (the pack changed since)") from None
    return with_contracts(ir, c.contracts)


def play_game(ir: dict[str, Any], c: Campaign, n: int) -> dict[str, Any]:
    """Game ``n`` of the campaign, played by its bots: its `game` event (post-game included)."""
    from clankwork.dsl.stickers import apply as apply_stickers
    from clankwork.dsl.stickers import fetch_and_destroy, with_contracts, with_patron
    from clankwork.interpreter.bots import make_bot
    from clankwork.interpreter.catalog import prepare
    from clankwork.interpreter.game import Game
    from clankwork.interpreter.log import to_jsonl
    from clankwork.tools.simulate import bot_seed

    seed = game_seed(c.seed, n)
    # The prologue is read before setup: its stickers are on for this game.
    start = _arc(ir, "prologue", n)
    prologue = read_passages(ir, start, seed) if start is not None else None
    on = [*c.stickers, *(prologue["stickers"] if prologue else ())]
    fetched = [*c.fetched, *(prologue["fetched"] if prologue else ())]
    destroyed = [*c.destroyed, *(prologue["destroyed"] if prologue else ())]
    played = fetch_and_destroy(apply_stickers(ir, on), fetched, destroyed)
    row = [*c.contracts, *(prologue["contracts"] if prologue else ())]
    played = with_contracts(played, row)
    patron = (prologue or {}).get("patron", c.patron)
    board = (prologue or {}).get("board", c.board)
    try:
        played = with_patron(played, patron)
        cat = prepare(played, board if board is not None else 0)
    except ValueError as e:
        raise click.ClickException(f"game {n}: {e} (the pack changed since)") from None
    bots = [make_bot(b, bot_seed(seed, k)) for k, b in enumerate(c.bots)]
    g = Game(cat, bots, seed)
    result = g.play()
    game = {
        "type": "game",
        "game": n,
        "seed": seed,
        "scores": list(result.scores),
        "winners": list(result.winners),
        "status": [p.status for p in g.players],
        "rounds": g.round,
        "end": g.end_reason,
        "log": hashlib.sha256(to_jsonl(g.log).encode("utf-8")).hexdigest()[:16],
        "stickers": on,
    }
    if patron is not None:
        game["patron"] = patron
    if board is not None:
        game["board"] = board
    if prologue is not None:
        game["prologue"] = prologue
    # 2. Contracts completed (their passages), then the epilogue passage.
    if g.completed_contracts:
        game["contracts_completed"] = [list(x) for x in g.completed_contracts]
        by = {k["name"]: k for k in ir.get("contracts", ())}
        game["contract_passages"] = [
            read_passages(ir, by[name]["passage"], seed)
            for name, _ in g.completed_contracts
            if by.get(name, {}).get("passage") is not None
        ]
    # 2. Contracts and the epilogue passage (after the mission report, before the reviews).
    end = _arc(ir, "epilogue", n)
    if end is not None:
        game["epilogue"] = read_passages(ir, end, seed)
    return {**game, **post_game(c, game)}


@command.command("simulate")
@click.argument("pack", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--campaigns", type=click.IntRange(1, 10_000), default=20, show_default=True)
@click.option("--games", type=click.IntRange(1, 100), default=10, show_default=True)
@click.option("-p", "--players", type=click.IntRange(1, 8), default=4, show_default=True)
@click.option("-s", "--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True)
@click.option("--bots", default="heuristic", show_default=True, help="Bot of every seat.")
def simulate(pack: Path, campaigns: int, games: int, players: int, seed: int, bots: str) -> None:
    """Bots play whole campaigns of PACK (nothing is written): how the campaign goes, game by
    game of its arc."""
    from clankwork.tools.check import load_ir
    from clankwork.tools.simulate import bot_names, game_seeds

    ir = load_ir(pack, checks=True)
    first = {
        "type": "campaign",
        "format": FORMAT,
        "pack": str(pack),
        "pack_name": ir["pack"]["name"],
        "players": players,
        "names": [f"P{k + 1}" for k in range(players)],
        "bots": bot_names(bots, players),
    }
    rows: list[dict[str, float]] = [
        {"score": 0.0, "rounds": 0.0, "deaths": 0.0, "checkmarks": 0.0, "promotions": 0.0}
        for _ in range(games)
    ]
    for cseed in game_seeds(seed, campaigns):
        events: list[dict[str, Any]] = [{**first, "seed": cseed}]
        for n in range(1, games + 1):
            e = play_game(ir, fold(events), n)
            events.append(e)
            row = rows[n - 1]
            row["score"] += sum(e["scores"]) / players
            row["rounds"] += e["rounds"]
            row["deaths"] += e["death"]
            row["checkmarks"] += sum(len(m) for m in e["review"]["checkmarks"]) / players
            row["promotions"] += len(e["review"]["promotions"])
    click.echo(f"{campaigns} campaigns of {games} games of {ir['pack']['name']}, {players} players")
    click.echo("game  mean score  rounds  Dran X (share)  checkmarks/player  promotions")
    for n, row in enumerate(rows, start=1):
        k = campaigns
        click.echo(
            f"{n:>4}  {row['score'] / k:>10.1f}  {row['rounds'] / k:>6.1f}  "
            f"{row['deaths'] / k:>14.0%}  {row['checkmarks'] / k:>17.2f}  "
            f"{row['promotions'] / k:>10.2f}"
        )


def campaign_schema() -> dict[str, Any]:
    """The JSON Schema of one line of a campaign file."""
    seq = {"type": "integer", "minimum": 1}
    check = {"type": "string", "pattern": "^[0-9a-f]{16}$"}
    game_no = {"type": "integer", "minimum": 1}
    ints = {"type": "array", "items": {"type": "integer"}}

    def event(t: str, props: dict[str, Any], optional: dict[str, Any] | None = None) -> dict:
        return {
            "type": "object",
            "properties": {
                "type": {"const": t},
                "seq": seq,
                "check": check,
                **props,
                **(optional or {}),
            },
            "required": ["type", "seq", "check", *props],
            "additionalProperties": False,
        }

    reading = {
        "type": "object",
        "properties": {
            "read": {
                "type": "array",
                "items": {
                    "type": "array",
                    "prefixItems": [{"type": "integer"}, {"type": ["integer", "null"]}],
                    "minItems": 2,
                    "maxItems": 2,
                },
            },
            "stickers": {"type": "array", "items": {"type": "string"}},
            "checkmarks": {"type": "integer", "minimum": 0},
            "dran": {"type": "integer", "minimum": 0},
            "fetched": ints,
            "destroyed": {"type": "array", "items": {"type": "string"}},
            "contracts": {"type": "array", "items": {"type": "string"}},
            "patron": {"type": "string"},
            "board": {"type": "string"},
        },
        "required": [
            "read",
            "stickers",
            "checkmarks",
            "dran",
            "fetched",
            "destroyed",
            "contracts",
        ],
        "additionalProperties": False,
    }

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://clankwork.invalid/schemas/campaign.schema.json",
        "title": "One line (event) of a Clankwork campaign file",
        "oneOf": [
            event(
                "campaign",
                {
                    "format": {"const": FORMAT},
                    "pack": {"type": "string"},
                    "pack_name": {"type": "string"},
                    "players": {"type": "integer", "minimum": 1, "maximum": 8},
                    "names": {"type": "array", "items": {"type": "string"}},
                    "seed": {"type": "integer", "minimum": 0},
                    "bots": {"type": "array", "items": {"type": "string"}},
                },
            ),
            event(
                "game",
                {
                    "game": game_no,
                    "seed": {"type": "integer", "minimum": 0},
                    "scores": ints,
                    "winners": ints,
                    "status": {"type": "array", "items": {"type": "string"}},
                    "rounds": {"type": "integer", "minimum": 0},
                    "end": {"type": "string"},
                    "log": {"type": "string", "pattern": "^[0-9a-f]{16}$"},
                    "review": {
                        "type": "object",
                        "properties": {
                            "checkmarks": {
                                "type": "array",
                                "items": {"type": "array", "items": {"type": "string"}},
                            },
                            "promotions": {
                                "type": "array",
                                "items": {
                                    "type": "array",
                                    "prefixItems": [{"type": "integer"}, {"type": "string"}],
                                    "minItems": 2,
                                    "maxItems": 2,
                                },
                            },
                        },
                        "required": ["checkmarks", "promotions"],
                        "additionalProperties": False,
                    },
                    "death": {"type": "boolean"},
                    "stickers": {"type": "array", "items": {"type": "string"}},
                },
                {
                    "prologue": reading,
                    "epilogue": reading,
                    "contracts_completed": {
                        "type": "array",
                        "items": {
                            "type": "array",
                            "prefixItems": [{"type": "string"}, {"type": "integer"}],
                            "minItems": 2,
                            "maxItems": 2,
                        },
                    },
                    "contract_passages": {"type": "array", "items": reading},
                    "patron": {"type": "string"},
                    "board": {"type": "string"},
                },
            ),
            event("sticker", {"name": {"type": "string"}, "before_game": game_no}),
            event("undo", {"game": game_no}),
        ],
    }


def campaign_schema_text() -> str:
    """The campaign line schema as written to schemas/campaign.schema.json."""
    return json.dumps(campaign_schema(), indent=2, sort_keys=True) + "\n"

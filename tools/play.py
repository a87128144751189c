"""`clankwork play`: a person against the bots, in the terminal, with undo and a live log.

The person's seat is one more `Bot`: each decision the engine asks of it is shown as a
numbered menu (with the generated text of the cards its options name) under a view of the
position, and the typed number is the answer. The bots' turns are told by the replay
narrator. Every decision record is appended to the log file as it is made, so a game cut short
keeps its log, and a finished game's log is one that `clankwork replay` accepts.

`undo` takes back the person's last choice. The engine is deterministic given its seed and
the answers, so undo does not rewind the state: it plays the game again from the start,
quietly, with the answers recorded so far minus that last one, and asks that decision again.
The log file is rewritten from its start on the way, so it always holds the game as it stands.
"""

from __future__ import annotations

import re
import secrets
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import click

from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import CardDef, Catalog, prepare
from clankwork.interpreter.decisions import ACTION, Decision
from clankwork.interpreter.game import BLACK, Game
from clankwork.interpreter.on_board import for_board
from clankwork.interpreter.rules import MAX_PLAYERS
from clankwork.interpreter.state import PlayerState
from clankwork.interpreter.statuses import describe

from .check import FLAGSHIP, bundled_names, bundled_pack, load_ir
from .livelog import LiveLog
from .menus import HUMAN, card_text, option_text, question
from .outputs import safe_filename
from .packs import PACK
from .replay import Narrator
from .simulate import MAX_SEED, bot_names, bot_seed
from .web import Server, Table, board_drawing

HELP = """\
commands:
  N        choose option N of the menu
  undo, u  take back your last choice (the game is played again up to it)
  look, l  show the position and the menu again
  help, h  this list
  quit, q  end the game here (the log so far is kept)"""

# Characters of one typed line that are looked at (an answer is a number or a word).
MAX_LINE = 1000

# Clears a terminal and puts the cursor at its top (a hot seat's handover).
CLEAR = "\x1b[2J\x1b[H"
# Boards with at most this many spaces are drawn whole in the text map; a bigger one shows
# where everyone is and the neighbourhood of the player asked.
SMALL_BOARD = 30
MAP_WIDTH = 100

# A menu answer: a few digits (never thousands, never other scripts' digits).
_NUMBER = re.compile(r"[0-9]{1,6}")


class Quit(Exception):
    """The person ended the game: `quit`, the end of input, or Ctrl-C."""


class _Undo(Exception):
    """Take back the person's last choice (raised through the engine, caught by the session)."""


class _Records(list):  # type: ignore[type-arg]
    """A game's log list that also appends each record to the log file."""

    def __init__(self, records: list[dict[str, Any]], sink: Callable[[dict[str, Any]], None]):
        super().__init__(records)
        self.sink = sink

    def append(self, record: dict[str, Any]) -> None:
        super().append(record)
        self.sink(record)


class _Teller(Narrator):
    """The replay narrator, silenced while an undo replays the game, and flushable."""

    __slots__ = ("session",)

    def __init__(self, session: PlaySession, catalog: Catalog) -> None:
        super().__init__(session.players, catalog.space_slots, session.names, session.say)
        self.session = session

    def flush(self, game: Game, drop: bool = False) -> None:
        """Write the open line now, and the turn's heading (before the person is asked).

        ``drop``: forget the open line instead (after an undo it was told before).
        """
        self._turn(game)
        if drop:
            self.items = []
            self.attack = None
        else:
            self._close(game)


class _Seat:
    """One seat of the game: answers go through the session (scripted, human or bot)."""

    def __init__(self, session: PlaySession, seat: int, name: str, bot: Any) -> None:
        self.session = session
        self.seat = seat
        self.name = name
        self.bot = bot

    def choose(self, view: Any, decision: Decision) -> int:
        """The session's answer for this seat."""
        return self.session.answer(self, view, decision)


class PlaySession:
    """A person's game against bots: the terminal, the recorded answers, the log, undo."""

    def __init__(
        self,
        ir: dict[str, Any],
        catalog: Catalog,
        *,
        players: int,
        seat: int,
        seed: int,
        bots: Sequence[str],
        log: LiveLog,
        stdin: IO[str],
        stdout: IO[str],
        modules: str | None = None,
        make_game: Callable[..., Game] = Game,
    ) -> None:
        self.catalog = catalog
        # What builds the game (a campaign's game keeps more: tools/campaign.py).
        self.make_game = make_game
        # A modular board's assembly (`--modules`); None: the seed draws the ship.
        self.modules = modules
        self.players = players
        self.seed = seed
        self.names = [HUMAN if k == seat else bots[k] for k in range(players)]
        # The people's seats (hot seat: several, each handed the terminal in turn); the seat
        # being asked now, and the one asked before it.
        self.humans = [k for k, name in enumerate(self.names) if name == HUMAN]
        self.human = seat
        self.last_asked: int | None = None
        self.log = log
        self.stdin = stdin
        self.stdout = stdout
        self.cards = {c["name"]: c for c in ir.get("cards", ())}
        # Every answer of the game so far, as (seat, index), in the order they were asked;
        # `script` is what a replay after an undo answers before the game is live again.
        self.answers: list[tuple[int, int]] = []
        self.script: list[int] = []
        self.game: Game | None = None
        # The turn whose whole position was last shown (by seat): later actions show less.
        self.shown_turn: dict[int, int] = {}
        # True from an undo to the question it asks again.
        self.resumed = False
        self.teller: _Teller | None = None

    # -- output ---------------------------------------------------------------------------

    @property
    def replaying(self) -> bool:
        """True while an undo's replay is answering from the script."""
        return len(self.answers) < len(self.script)

    def say(self, text: str = "") -> None:
        """Write a line to the terminal (nothing while an undo replays the game)."""
        if not self.replaying:
            self.stdout.write(text + "\n")
            self.stdout.flush()

    # -- the game -------------------------------------------------------------------------

    def _new_game(self) -> Game:
        seats = [_Seat(self, k, name, self._bot(k, name)) for k, name in enumerate(self.names)]
        self.teller = _Teller(self, self.catalog)
        game = self.make_game(
            self.catalog, seats, self.seed, stats=self.teller, modules=self.modules
        )
        # Records are written as the engine appends them: the header now, then each decision.
        game.log = _Records(game.log, self.log.add)
        self.log.restart(game.log)
        return game

    def _bot(self, seat: int, name: str) -> Any:
        # Seeded as `clankwork simulate` seeds its bots; the person's seat has none.
        return None if name == HUMAN else make_bot(name, bot_seed(self.seed, seat))

    def run(self) -> Game:
        """Play to the end; `Quit` when the person ends the game first."""
        while True:
            self.answers = []
            self.shown_turn = {}
            game = self.game = self._new_game()
            try:
                game.play(after_turn=self._after_turn)
            except _Undo:
                mine = [i for i, (k, _) in enumerate(self.answers) if k == self.human]
                # A replay after an undo asks the same seat first: no handover for it.
                self.last_asked = self.human
                self.script = [index for _, index in self.answers[: mine[-1]]]
                self.stdout.write("(undone: your last choice is asked again)\n")
                self.resumed = True
                continue
            assert self.teller is not None
            self.teller.finish(game)
            return game

    def _after_turn(self, game: Game) -> None:
        assert self.teller is not None
        self.teller.after_turn(game)

    def answer(self, seat: _Seat, game: Game, decision: Decision) -> int:
        """Answer one decision: from the script during an undo's replay, else live."""
        k = len(self.answers)
        scripted = self.script[k] if k < len(self.script) else None
        if seat.bot is not None:
            # Asked even when scripted, so a bot's own state follows the game it sees.
            index = seat.bot.choose(game, decision)
            if scripted is not None:
                index = scripted
        elif scripted is not None:
            index = scripted
        else:
            assert self.teller is not None
            self.teller.flush(game, drop=self.resumed)
            self.resumed = False
            self.handover(seat.seat)
            index = self.ask(game, decision)
        if not 0 <= index < len(decision.options):
            raise RuntimeError(f"answer {index} out of range for {decision.labels}")
        assert self.teller is not None
        self.teller.decided(game, decision, index)
        self.answers.append((seat.seat, index))
        return index

    # -- the person's questions -----------------------------------------------------------

    def read(self, prompt: str) -> str:
        """One line typed by the person; `Quit` at the end of input or on Ctrl-C."""
        self.stdout.write(prompt)
        self.stdout.flush()
        try:
            line = self.stdin.readline(MAX_LINE)
            rest = line
            # A line longer than any answer is read to its end in pieces and refused whole.
            while len(rest) == MAX_LINE and not rest.endswith("\n"):
                rest = self.stdin.readline(MAX_LINE)
                line = line[:MAX_LINE] + "..."
        except KeyboardInterrupt:
            raise Quit from None
        if not line:
            raise Quit
        return line.strip()

    def handover(self, seat: int) -> None:
        """Hot seat: before another person's question, clear the screen and wait until the
        terminal is passed to them, so no one sees another's hand."""
        self.human = seat
        if len(self.humans) > 1 and self.last_asked != seat:
            self.stdout.write(CLEAR)
            self.read(f"pass the terminal to P{seat + 1}, then press Enter> ")
            self.stdout.write(CLEAR)
            self.shown_turn.pop(seat, None)  # their whole position, once the screen is theirs
        self.last_asked = seat

    def ask(self, game: Game, decision: Decision) -> int:
        """Show the position and the decision's menu; return the index of the option typed."""
        if decision.kind == ACTION:
            full = game.turn != self.shown_turn.get(self.human)
            self.shown_turn[self.human] = game.turn
            if full:
                self.say(text_map(game, self.human))
            self.say(position(game, self.human, self.cards, full))
        self.say(menu(game, decision, self.cards))
        n = len(decision.options)
        while True:
            text = self.read(f"choose 1-{n} (or help)> ").lower()
            if _NUMBER.fullmatch(text):
                pick = int(text)
                if 1 <= pick <= n:
                    return pick - 1
                self.say(f"there is no option {pick}: choose 1 to {n}")
            elif text in ("undo", "u"):
                if not any(k == self.human for k, _ in self.answers):
                    self.say("nothing to undo yet: this is your first choice")
                    continue
                raise _Undo
            elif text in ("quit", "q", "exit"):
                raise Quit
            elif text in ("help", "h", "?"):
                self.say(HELP)
            elif text in ("look", "l"):
                self.say(text_map(game, self.human))
                self.say(position(game, self.human, self.cards))
                self.say(menu(game, decision, self.cards))
            elif text:
                self.say(f"{text[:40]!r} is not an option or a command (type help)")


# -- what the person sees ---------------------------------------------------------------------


def _cap(text: str) -> str:
    """``text`` with its first letter upper case (a pack's word opening a line)."""
    return text[:1].upper() + text[1:]


def _who(game: Game, p: PlayerState, human: int) -> str:
    return f"P{p.seat + 1}" + (" (you)" if p.seat == human else "")


def _names(cards: Sequence[CardDef]) -> str:
    if not cards:
        return "(none)"
    counts = Counter(c.name for c in cards)
    return ", ".join(f"{n} x{k}" if k > 1 else n for n, k in counts.items())


def text_map(game: Game, seat: int, width: int = MAP_WIDTH) -> str:
    """A compact map of where everyone is: each space with the players on it (`Stairs[P1
    P3]`), the whole board when it is small (at most `SMALL_BOARD` spaces), else everyone's
    space; then the spaces one and two moves from the player at ``seat``."""
    spaces = game.board.spaces
    here: dict[int, list[str]] = {}
    for p in game.players:
        mark = f"P{p.seat + 1}" + ("" if p.on_clock else "-out")
        here.setdefault(p.pos, []).append(mark)

    def named(i: int) -> str:
        return spaces[i].name + (f"[{' '.join(here[i])}]" if i in here else "")

    if len(spaces) <= SMALL_BOARD:
        shown = [named(i) for i in range(len(spaces))]
        head = "Map: "
    else:
        shown = [named(i) for i in sorted(here)]
        head = "Where everyone is: "
    lines = _wrap(head, shown, width)
    me = game.players[seat]
    ring: list[list[int]] = [[me.pos]]
    seen = {me.pos}
    for _ in range(2):
        nxt = []
        for i in ring[-1]:
            for m in game.board.moves[i]:
                if m.to not in seen:
                    seen.add(m.to)
                    nxt.append(m.to)
        ring.append(nxt)
    for steps, ids in ((1, ring[1]), (2, ring[2])):
        if ids:
            word = "move" if steps == 1 else "moves"
            lines += _wrap(f"  {steps} {word} from P{seat + 1}: ", [named(i) for i in ids], width)
    return "\n".join(lines)


def _wrap(head: str, items: list[str], width: int) -> list[str]:
    """``items`` after ``head``, two spaces apart, in lines of at most ``width`` columns."""
    lines, line = [], head
    pad = " " * min(len(head), 8)
    for item in items:
        if len(line) + len(item) + 2 > width and line.strip() not in ("", head.strip()):
            lines.append(line.rstrip())
            line = pad
        line += item + "  "
    lines.append(line.rstrip())
    return lines


def position(game: Game, seat: int, cards: dict[str, dict[str, Any]], full: bool = True) -> str:
    """The position as the person at ``seat`` sees it: board, cards, resources, dragon.

    Not ``full``: only what the turn's actions change (resources, hand, play area).
    """
    me = game.players[seat]
    spaces = game.board.spaces
    health = game.rules["health"]
    track = game.rules["rage_track"]
    here = spaces[me.pos]
    you = (
        f"You: skill {me.skill}, swords {me.swords}, boots {me.boots}, "
        f"{game.catalog.gold_word} {game.gold_of(me)}, "
        f"damage {me.damage}/{health}, Clank! in the area {me.area}"
        + (", exhausted" if me.exhausted else "")
        + _statuses(me)
    )
    hand = f"Hand: {_names(me.hand)}   (deck {len(me.deck)}, discard {len(me.discard)})"
    play = f"Play area: {_names(me.play)}"
    if not full:
        return "\n".join([f"-- at {here.name}. " + you, hand, play])
    lines = [f"--- turn {game.turn}, round {game.round} " + "-" * 40]
    bag = Counter(game.bag)
    parts = [f"{bag[BLACK]} black"] + [
        f"P{p.seat + 1} {bag[p.seat]}" for p in game.players if bag[p.seat]
    ]
    area = ", ".join(f"P{p.seat + 1} {p.area}" for p in game.players)
    lines.append(
        f"{_cap(game.catalog.dragon_word)}: rage {game.rage + 1}/{len(track)} "
        f"(an attack draws {game.attack_size()}); "
        f"bag {len(game.bag)} cubes ({', '.join(parts)}); Clank! area: {area}"
    )
    feats = sorted(here.features - {"hq"}) + (["HQ"] if here.hq else [])
    lines.append(f"You are at {here.name}" + (f" ({', '.join(feats)})" if feats else ""))
    for m in game.board.moves[me.pos]:
        if m.way.paid_in == "boots":
            how = [f"{m.boots} boot{'s' if m.boots != 1 else ''}"]
        else:
            how = [f"{m.way.name}: {m.boots} {m.way.paid_in}"]
        if m.monsters:
            how.append(f"{m.monsters} monster{'s' if m.monsters != 1 else ''}")
        how += list(m.requires)
        sp = spaces[m.to]
        extra = []
        token = game.space_artifact[m.to]
        if token is not None:
            extra.append(f"artifact {token.name}")
        if sp.danger_zone:
            extra.append("danger zone")
        extra += [f"{t.name} on the path" for t in game.path_tokens.get(m.path, ())]
        lines.append(
            f"  -> {sp.name} ({', '.join(how)})" + (f"  [{', '.join(extra)}]" if extra else "")
        )
    changed = [f"{game.board.path_name(k)} blocked" for k in game.closed_paths]
    first = len(game.board.ir["paths"])
    changed += [f"{game.board.path_name(first + k)} added" for k in range(len(game.added_paths))]
    changed += [
        f"{t.name} on {game.board.path_name(k)}"
        for k, toks in game.path_tokens.items()
        for t in toks
    ]
    changed += [f"switch {k} in state {v}" for k, v in game.switches.items()]
    if changed:
        lines.append("Paths: " + "; ".join(changed))
    for p in game.players:
        if p.seat == seat:
            continue
        art = f", artifact {p.artifact.name}" if p.artifact else ""
        state = "" if p.on_clock else f", {p.status}"
        lines.append(
            f"  P{p.seat + 1}: at {spaces[p.pos].name} (damage {p.damage}/{health}, "
            f"{game.catalog.gold_word} {game.gold_of(p)}{art}{state}{_statuses(p)})"
        )
    lines.append(you)
    owned = []
    if me.artifact:
        owned.append(f"artifact {me.artifact.name} ({me.artifact.points} points)")
    if me.tokens:
        owned.append("tokens " + ", ".join(t.name for t in me.tokens))
    if owned:
        lines.append("     " + "; ".join(owned))
    lines += [hand, play, "Row:"]
    word = game.catalog.dragon_word
    lines += [f"  {c.name}: {card_text(c, cards, word)}" for c in game.row]
    if game.reserve:
        lines.append(
            "Reserve: "
            + "; ".join(f"{c.name} (cost {c.cost}, {n} left)" for c, n in game.reserve.items())
        )
    return "\n".join(lines)


def _statuses(p: PlayerState) -> str:
    """The player's statuses, for their line: ", dizzy until player 2's next turn"."""
    return "".join(f", {describe(e)}" for e in p.statuses)


def menu(game: Game, decision: Decision, cards: dict[str, dict[str, Any]]) -> str:
    """The decision as a numbered menu; options naming a card carry the card's text."""
    out = [question(game, decision)]
    width = len(str(len(decision.options)))
    for i, o in enumerate(decision.options, start=1):
        text = option_text(game, o, cards)
        out.append(f"  {i:>{width}}. {o.label}" + (f" - {text}" if text else ""))
    return "\n".join(out)


# -- the command ------------------------------------------------------------------------------


def default_log_path(pack: str, seed: int, folder: Path = Path(".")) -> Path:
    """A log file name in ``folder`` that no file there has yet (play-PACK-seed-S.jsonl)."""
    try:
        taken = {p.name for p in folder.iterdir()}
    except OSError:
        taken = set()
    return folder / safe_filename(f"play {pack} seed {seed}", ".jsonl", taken)


@click.command("play")
@click.argument("pack", required=False, type=PACK)
@click.option(
    "--players",
    "-p",
    default=None,
    type=click.IntRange(1, MAX_PLAYERS),
    help="Players, people included (within the pack's min and max players) [default: 2, or "
    "as many as --seats names].",
)
@click.option(
    "--seat",
    "-k",
    default=1,
    show_default=True,
    type=click.IntRange(1, MAX_PLAYERS),
    help="Your seat number (1 to --players); who goes first is drawn at setup.",
)
@click.option(
    "--seats",
    help="Who plays each seat, comma-separated: human, or a bot (heuristic, greedy, random; "
    "`bot` is --bots), e.g. human,human,bot,bot. In the terminal the people take turns at "
    "the keyboard (hot seat); with --web each person plays from a browser.",
)
@click.option(
    "--seed",
    "-s",
    type=click.IntRange(0, MAX_SEED),
    help="The game's seed [default: a new one, printed].",
)
@click.option(
    "--bots",
    default="heuristic",
    show_default=True,
    help="The other seats' bots: one name for all, or one each, comma-separated "
    "(heuristic, greedy, random).",
)
@click.option(
    "--board",
    help="The board to play on, when the pack has several (with its `on board` rules) "
    "[default: the first].",
)
@click.option(
    "--modules",
    help="A modular board's assembly: its free positions' sides, e.g. \"1=Hydroponics, "
    '2=Doomsday Cannon, 3=Med Lab" [default: drawn from the seed].',
)
@click.option(
    "--log",
    "log_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game's log here as it goes [default: play-PACK-seed-S.jsonl, new, in the "
    "current folder].",
)
@click.option(
    "--web",
    is_flag=True,
    help="Serve the game to browsers: each person's seat gets its own link (printed).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="With --web: the address to listen on (0.0.0.0 shares the game on your network).",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="With --web: the port to listen on (0: any free one).",
)
def command(
    pack: Path | None,
    players: int | None,
    seat: int,
    seats: str | None,
    seed: int | None,
    bots: str,
    board: str | None,
    modules: str | None,
    log_file: Path | None,
    web: bool,
    host: str,
    port: int,
) -> None:
    """Play PACK (default: the bundled flagship pack) with bots, in the terminal or (--web)
    in browsers.

    Each decision is a numbered menu: type its number. `undo` takes back your last choice,
    `quit` stops (the log is kept), `help` lists the commands.
    """
    ir = load_ir(pack, FLAGSHIP)
    try:
        catalog = prepare(ir, board if board is not None else 0)
        ir = for_board(ir, catalog.board.name)  # the cards' text as played on it
        names = seat_names(seats, players, seat, bots)
        lo, hi = catalog.rules["min_players"], catalog.rules["max_players"]
        if not lo <= len(names) <= hi:
            raise ValueError(f"this pack plays with {lo} to {hi} players, not {len(names)}")
        if modules:
            catalog.choose_assembly(None, modules)  # a ValueError names what does not fit
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    if seed is None:
        seed = secrets.randbelow(10**9)
    path = log_file if log_file is not None else default_log_path(catalog.name, seed)
    log = LiveLog(path)
    if web:
        try:
            over = serve_web(ir, catalog, names, seed, log, modules, host, port)
        finally:
            log.close()
        if not over:
            click.echo(f"game stopped before its end; its log so far is in {path}")
            return
        click.echo(f"log: {path} (clankwork replay {path}{_pack_hint(pack, catalog.name)})")
        return
    humans = [k for k, n in enumerate(names) if n == HUMAN]
    session = PlaySession(
        ir,
        catalog,
        players=len(names),
        seat=humans[0],
        seed=seed,
        bots=names,
        log=log,
        stdin=sys.stdin,
        stdout=sys.stdout,
        modules=modules,
    )
    people = " and ".join(f"P{k + 1}" for k in humans)
    session.say(
        f"{catalog.name} {catalog.version} on {catalog.board.name}, seed {seed}: "
        + (f"you are P{humans[0] + 1}" if len(humans) == 1 else f"{people} take turns here")
        + "; "
        + ", ".join(f"P{k + 1} {n}" for k, n in enumerate(names) if n != HUMAN)
    )
    session.say("type the number of an option, or help")
    try:
        game = session.run()
    except (Quit, KeyboardInterrupt):
        session.stdout.write("\n")
        click.echo(f"game stopped; its log so far is in {path}")
        return
    finally:
        log.close()
    assert game.result is not None
    click.echo(f"log: {path} (clankwork replay {path}{_pack_hint(pack, catalog.name)})")


def seat_names(seats: str | None, players: int | None, seat: int, bots: str) -> list[str]:
    """Who plays each seat: `human` or a bot's name. From ``seats`` (`bot` meaning the
    ``bots`` name), else the person at ``seat`` and bots in the others; ValueError with why."""
    if seats is None:
        n = players if players is not None else 2
        if not 1 <= seat <= n:
            raise ValueError(f"seat {seat} of {n} players (--seat)")
        others = bot_names(bots, n - 1) if n > 1 else []
        return others[: seat - 1] + [HUMAN] + others[seat - 1 :]
    given = [s.strip().lower() for s in seats.split(",")]
    if players is not None and players != len(given):
        raise ValueError(f"--seats names {len(given)} seats and --players says {players}")
    default = bots.split(",")[0].strip() if "," not in bots else "heuristic"
    names = [default if s == "bot" else s for s in given]
    for s in names:
        if s != HUMAN:
            bot_names(s, 1)  # a ValueError names the bot that does not exist
    if HUMAN not in names:
        raise ValueError("--seats names no human seat (write human for each person)")
    return names


def serve_web(
    ir: dict[str, Any],
    catalog: Catalog,
    names: list[str],
    seed: int,
    log: LiveLog,
    modules: str | None,
    host: str,
    port: int,
) -> bool:
    """`play --web`: serve the game until the host presses Ctrl-C (or the server is sent
    TERM); whether the game was over by then."""
    table = Table(ir, catalog, names, seed, log, modules)
    game = table.start()
    server = Server(table, board_drawing(ir, catalog, game))
    try:
        server.run(host, port, announce=lambda: _announce(server, table))
    except OSError as e:
        raise click.ClickException(f"cannot serve on {host}:{port}: {e.strerror or e}") from None
    except KeyboardInterrupt:
        pass
    finally:
        table.stop()
    return table.done


def _announce(server: Server, table: Table) -> None:
    click.echo(f"serving {table.catalog.name} at {server.url} (Ctrl-C stops the server)")
    for k, url in sorted(server.seat_urls().items()):
        click.echo(f"  P{k + 1}: {url}")
    click.echo("each link is its seat's secret: give each person theirs")


def _pack_hint(pack: Path | None, name: str) -> str:
    """``--pack PACK`` unless the log's pack name finds this same pack among the bundled."""
    if pack is None:
        return ""
    if name in bundled_names():
        folder = pack.parent if pack.is_file() else pack
        if folder.resolve() == bundled_pack(name).resolve():
            return ""
    return f" --pack {pack}"

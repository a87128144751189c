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

import json
import os
import re
import secrets
import stat
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import click

from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import CardDef, Catalog, prepare
from clankwork.interpreter.decisions import ACTION, Decision
from clankwork.interpreter.effects.registry import antagonist, render_effects
from clankwork.interpreter.game import BLACK, Game
from clankwork.interpreter.rules import MAX_PLAYERS
from clankwork.interpreter.state import PlayerState

from .card_text import card_rules
from .check import FLAGSHIP, bundled_names, bundled_pack, load_ir
from .outputs import OutputError, check_file_target, plan_write, safe_filename, write_text
from .packs import PACK
from .replay import Narrator
from .simulate import MAX_SEED, bot_names, bot_seed

HUMAN = "human"

HELP = """\
commands:
  N        choose option N of the menu
  undo, u  take back your last choice (the game is played again up to it)
  look, l  show the position and the menu again
  help, h  this list
  quit, q  end the game here (the log so far is kept)"""

# Characters of one typed line that are looked at (an answer is a number or a word).
MAX_LINE = 1000

# A menu answer: a few digits (never thousands, never other scripts' digits).
_NUMBER = re.compile(r"[0-9]{1,6}")


class Quit(Exception):
    """The person ended the game: `quit`, the end of input, or Ctrl-C."""


class _Undo(Exception):
    """Take back the person's last choice (raised through the engine, caught by the session)."""


class LiveLog:
    """The game's log file, written as the game goes: one JSON line per record, at once.

    The file is first created through `outputs.write_text` (a fresh file renamed into place:
    a link planted at the path is replaced, never followed), then opened for appending
    without following links and checked to be a regular file. Each record is one unbuffered
    ``os.write``, so what a game has decided is on disk when the next question is asked.
    A FIFO or a device is refused, not streamed to: an undo rewrites the file from its start.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        if plan_write(path, named=True) == "stream":
            raise OutputError(
                f"cannot write {path}: it is not a regular file, and the game's log is "
                "rewritten from its start when you undo (choose a file name)"
            )
        check_file_target(path)
        write_text(path, "")
        flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
        try:
            self.fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
        except OSError as e:
            raise OutputError(f"cannot write {path}: {e.strerror or e}") from None
        if not stat.S_ISREG(os.fstat(self.fd).st_mode):
            os.close(self.fd)
            raise OutputError(f"cannot write {path}: not a regular file")

    def restart(self, records: Sequence[dict[str, Any]]) -> None:
        """Empty the file and write ``records`` (a game started again, after an undo)."""
        os.ftruncate(self.fd, 0)
        for r in records:
            self.add(r)

    def add(self, record: dict[str, Any]) -> None:
        """Append one record."""
        data = (json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]

    def close(self) -> None:
        """Close the file (what was written stays)."""
        os.close(self.fd)


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
    ) -> None:
        self.catalog = catalog
        # A modular board's assembly (`--modules`); None: the seed draws the ship.
        self.modules = modules
        self.players = players
        self.human = seat
        self.seed = seed
        self.names = [HUMAN if k == seat else bots[k] for k in range(players)]
        self.log = log
        self.stdin = stdin
        self.stdout = stdout
        self.cards = {c["name"]: c for c in ir.get("cards", ())}
        # Every answer of the game so far, as (seat, index), in the order they were asked;
        # `script` is what a replay after an undo answers before the game is live again.
        self.answers: list[tuple[int, int]] = []
        self.script: list[int] = []
        self.game: Game | None = None
        # The turn whose whole position was last shown: later actions of it show less.
        self.shown_turn = -1
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
        game = Game(self.catalog, seats, self.seed, stats=self.teller, modules=self.modules)
        # Records are written as the engine appends them: the header now, then each decision.
        game.log = _Records(game.log, self.log.add)
        self.log.restart(game.log)
        return game

    def _bot(self, seat: int, name: str) -> Any:
        # Seeded as `clankwork simulate` seeds its bots; the person's seat has none.
        return None if seat == self.human else make_bot(name, bot_seed(self.seed, seat))

    def run(self) -> Game:
        """Play to the end; `Quit` when the person ends the game first."""
        while True:
            self.answers = []
            self.shown_turn = -1
            game = self.game = self._new_game()
            try:
                game.play(after_turn=self._after_turn)
            except _Undo:
                mine = [i for i, (k, _) in enumerate(self.answers) if k == self.human]
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

    def ask(self, game: Game, decision: Decision) -> int:
        """Show the position and the decision's menu; return the index of the option typed."""
        if decision.kind == ACTION:
            full = game.turn != self.shown_turn
            self.shown_turn = game.turn
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


def card_text(card: CardDef, cards: dict[str, dict[str, Any]], dragon: str = "dragon") -> str:
    """A card's numbers and its rules text, generated from its effect tree; ``dragon`` is
    the pack's word for the antagonist (its attack symbol: "dragon attack")."""
    ir = cards.get(card.name)
    bits = []
    if card.type == "monster" or card.fight:
        bits.append(f"fight {card.fight}")
    elif card.deck != "starting":
        bits.append(f"cost {card.cost}")
    if card.points:
        bits.append(f"{card.points} point{'s' if card.points != 1 else ''}")
    if card.dragon:
        bits.append(f"{dragon} attack")
    if card.danger:
        bits.append("danger")
    if card.only_in:
        bits.append(f"only in {card.only_in}")
    with antagonist(dragon):
        rules = "; ".join(f"{head} {text}" for head, text in card_rules(ir)) if ir else ""
    return ", ".join(bits) + (" - " if bits and rules else "") + rules


def _names(cards: Sequence[CardDef]) -> str:
    if not cards:
        return "(none)"
    counts = Counter(c.name for c in cards)
    return ", ".join(f"{n} x{k}" if k > 1 else n for n, k in counts.items())


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
        lines.append(
            f"  -> {sp.name} ({', '.join(how)})" + (f"  [{', '.join(extra)}]" if extra else "")
        )
    for p in game.players:
        if p.seat == seat:
            continue
        art = f", artifact {p.artifact.name}" if p.artifact else ""
        state = "" if p.on_clock else f", {p.status}"
        lines.append(
            f"  P{p.seat + 1}: at {spaces[p.pos].name} (damage {p.damage}/{health}, "
            f"{game.catalog.gold_word} {game.gold_of(p)}{art}{state})"
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


def _option_card(value: Any) -> CardDef | None:
    if isinstance(value, CardDef):
        return value
    if isinstance(value, tuple) and len(value) > 1:
        for v in value[:2]:
            if isinstance(v, CardDef):
                return v
    return None


_QUESTIONS = {
    "choose": "choose one:",
    "may": "do it?",
    "discard": "discard which card?",
    "trash": "trash which card?",
    "teleport": "teleport where?",
}


def menu(game: Game, decision: Decision, cards: dict[str, dict[str, Any]]) -> str:
    """The decision as a numbered menu; options naming a card carry the card's text."""
    if decision.kind == ACTION:
        head = "Your action:"
    else:
        head = _QUESTIONS.get(decision.kind, f"{decision.kind}?")
        if decision.kind == "may" and isinstance(decision.detail, dict):
            head = f"{render_effects([decision.detail])}?"
        if decision.source:
            head = f"{decision.source}: {head}"
        if decision.player != game.active.seat:
            head = f"(on P{game.active.seat + 1}'s turn) {head}"
    out = [head]
    width = len(str(len(decision.options)))
    for i, o in enumerate(decision.options, start=1):
        card = _option_card(o.value)
        text = f" - {card_text(card, cards, game.catalog.dragon_word)}" if card is not None else ""
        out.append(f"  {i:>{width}}. {o.label}{text}")
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
    default=2,
    show_default=True,
    type=click.IntRange(1, MAX_PLAYERS),
    help="Players, you included (within the pack's min and max players).",
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
def command(
    pack: Path | None,
    players: int,
    seat: int,
    seed: int | None,
    bots: str,
    modules: str | None,
    log_file: Path | None,
) -> None:
    """Play PACK (default: the bundled flagship pack) against bots, in the terminal.

    Each decision is a numbered menu: type its number. `undo` takes back your last choice,
    `quit` stops (the log is kept), `help` lists the commands.
    """
    if not 1 <= seat <= players:
        raise click.BadParameter(f"seat {seat} of {players} players", param_hint="--seat")
    ir = load_ir(pack, FLAGSHIP)
    try:
        catalog = prepare(ir)
        lo, hi = catalog.rules["min_players"], catalog.rules["max_players"]
        if not lo <= players <= hi:
            raise ValueError(f"this pack plays with {lo} to {hi} players, not {players}")
        others = bot_names(bots, players - 1) if players > 1 else []
        if modules:
            catalog.choose_assembly(None, modules)  # a ValueError names what does not fit
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    names = others[: seat - 1] + [HUMAN] + others[seat - 1 :]
    if seed is None:
        seed = secrets.randbelow(10**9)
    path = log_file if log_file is not None else default_log_path(catalog.name, seed)
    log = LiveLog(path)
    session = PlaySession(
        ir,
        catalog,
        players=players,
        seat=seat - 1,
        seed=seed,
        bots=names,
        log=log,
        stdin=sys.stdin,
        stdout=sys.stdout,
        modules=modules,
    )
    session.say(
        f"{catalog.name} {catalog.version} on {catalog.board.name}, seed {seed}: you are "
        f"P{seat}; " + ", ".join(f"P{k + 1} {n}" for k, n in enumerate(names) if k != seat - 1)
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


def _pack_hint(pack: Path | None, name: str) -> str:
    """``--pack PACK`` unless the log's pack name finds this same pack among the bundled."""
    if pack is None:
        return ""
    if name in bundled_names():
        folder = pack.parent if pack.is_file() else pack
        if folder.resolve() == bundled_pack(name).resolve():
            return ""
    return f" --pack {pack}"

"""`clankwork replay`: re-run a game log on its pack, turn by turn in words, or just check it.

The log's header names the pack; without ``--pack`` the bundled pack of that exact name is
used (a log cannot point the replayer at a folder: anyone can write a log). A
replay answers every decision from the log and must reach the recorded final state (its
digest): when the pack changed since the log was written, the replay says where it parted.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from clankwork.interpreter.actions import END_TURN, PLAY, TAKE, kind_of
from clankwork.interpreter.decisions import Decision
from clankwork.interpreter.effects.registry import render_effects
from clankwork.interpreter.game import Game
from clankwork.interpreter.log import LogError, ReplayMismatch, replay
from clankwork.interpreter.state import ESCAPED, KNOCKED_OUT, PlayerState
from clankwork.interpreter.stats import GameStats
from clankwork.interpreter.statuses import describe

from .game_logs import Packs, read_log_file, version_note
from .packs import PACK
from .replay_html import write_page


def _who(p: PlayerState | int) -> str:
    return f"P{(p if isinstance(p, int) else p.seat) + 1}"


class Narrator(GameStats):
    """Tells a game as it is replayed: the engine's hooks and the decisions make the lines."""

    __slots__ = (
        "write",
        "bots",
        "round",
        "turn",
        "items",
        "snap",
        "attack",
        "expect",
        "status",
        "statuses",
    )

    def __init__(self, game_players: int, spaces: int, bots: list[str], write: Any) -> None:
        super().__init__(spaces, game_players)
        self.write = write
        self.bots = bots
        self.round = -1
        self.turn = -1
        # The open line of the turn: [text, player, snapshot before it] (None: no open line).
        self.items: list[list[Any]] = []
        self.snap: Any = None
        self.attack: Any = None  # (cubes drawn, black aside, damage by seat) at its start
        self.expect: int | None = None  # where a move, coach or teleport decision leads
        self.status: list[str] = []
        # Each player's statuses as last told (a line says when one begins or ends).
        self.statuses: list[list[list[Any]]] = [[] for _ in range(game_players)]

    # -- following the game ---------------------------------------------------------------

    def _turn(self, game: Game) -> None:
        """Start the turn's block when the game has moved on to a new turn."""
        if not self.status:
            self.status = [p.status for p in game.players]
        if game.turn == self.turn:
            return
        self.turn = game.turn
        if game.round != self.round:
            self.round = game.round
            self.write("" if self.round == 0 else f"\nRound {self.round}")
            if self.round == 0:
                self.write("Setup")
        if game.turn == 0:
            return
        p = game.active
        if p.on_clock:
            where = game.board.spaces[p.pos].name
            health = game.rules["health"]
            extra = f", artifact {p.artifact.name}" if p.artifact else ""
            self.write(
                f"  Turn {game.turn}: {_who(p)} at {where} "
                f"(damage {p.damage}/{health}, {game.catalog.gold_word} {game.gold_of(p)}{extra})"
            )
        else:
            self.write(f"  Turn {game.turn}: {_who(p)} is off the clock ({p.status})")
        self._statuses(game)  # those that ended as the turn began

    def _item(self, game: Game, text: str, player: PlayerState) -> None:
        self._close(game)
        self.items = [[text, player, _snapshot(game, player)]]

    def _close(self, game: Game) -> None:
        """Finish the open line with what changed for its player since it began."""
        if self.items:
            text, player, before = self.items[0]
            gained = _changes(game, player, before)
            self.write(f"    {text}" + (f" -> {gained}" if gained else ""))
            self.items = []
        if self.attack is not None:
            drawn, black, damage, off = self.attack
            self.attack = None
            parts = []
            for p in game.players:
                hurt = p.damage - damage[p.seat]
                if hurt > 0:
                    parts.append(f"{_who(p)} takes {hurt} ({p.damage}/{game.rules['health']})")
            blacks = game.black_aside - black
            if blacks:
                parts.append(f"{blacks} black")
            who = "off-the-clock attack" if off else f"{game.catalog.dragon_name} attacks"
            self.write(
                f"    {who}: {drawn} cubes drawn" + (": " + ", ".join(parts) if parts else "")
            )
        self._statuses(game)

    def _statuses(self, game: Game) -> None:
        """A line for each status that began or ended since the last one was told."""
        for p in game.players:
            now = [list(e) for e in p.statuses]
            was = self.statuses[p.seat]
            if now == was:
                continue
            names = [e[0] for e in now]
            for e in was:
                if e[0] not in names:
                    act = e[0].removeprefix("cannot ")
                    said = f"may {act} again" if act != e[0] else f"is no longer {e[0]}"
                    self.write(f"    {_who(p)} {said}")
            for e in now:
                if e not in was:
                    said = describe(e)
                    self.write(
                        f"    {_who(p)} {'now' if said[:7] == 'cannot ' else 'is now'} {said}"
                    )
            self.statuses[p.seat] = now

    def decided(self, game: Game, decision: Decision, index: int) -> None:
        """A decision is answered (called before the engine acts on it)."""
        self._turn(game)
        p = game.players[decision.player]
        option = decision.options[index]
        if decision.kind != "action":
            self._effect_decision(game, p, decision, option.label)
            return
        value = option.value
        act = kind_of(option)
        if act is None:
            self._item(game, option.label, p)
        elif act is PLAY:
            name = value[1].name
            if self.items and self.items[0][0].startswith("plays ") and self.items[0][1] is p:
                self.items[0][0] += f", {name}"
            else:
                self._item(game, act.narrate(game, p, value), p)
        elif act is END_TURN:
            self._close(game)
        else:
            lands = act.lands(value)
            if lands is not None:
                self.expect = lands
            self._item(game, act.narrate(game, p, value), p)
            if act is TAKE:
                gold, damage, tokens, _, hand, paths = self.items[0][2]
                self.items[0][2] = (gold, damage, tokens, value[1], hand, paths)  # said already

    def _effect_decision(self, game: Game, p: PlayerState, d: Decision, label: str) -> None:
        if p is game.active:
            src = f"{d.source}: " if d.source else ""
        else:  # another player answers (an "each opponent" effect)
            src = f"{_who(p)} ({d.source}): " if d.source else f"{_who(p)}: "
        if d.kind == "may":
            text = f"{src}{'does it' if label == 'yes' else 'declines'}"
        elif d.kind == "choose":
            text = f"{src}chooses {label}"
        elif d.kind == "teleport":
            self.expect = d.options[[o.label for o in d.options].index(label)].value
            text = f"{src}{label.replace('teleport', 'teleports', 1)}"
        elif d.kind == "discard":
            text = f"{src}{label.replace('discard', 'discards', 1)}"
        elif d.kind == "trash":
            text = f"{src}{label.replace('trash', 'trashes', 1)}"
        else:
            text = f"{src}{d.kind}: {label}"
        self._item(game, text, p)

    def on_enter(self, game: Game, player: PlayerState, space: int) -> None:
        """Arrivals nobody decided (a forced teleport) get a line of their own."""
        super().on_enter(game, player, space)
        if self.expect == space:
            self.expect = None
            return
        self._turn(game)
        self._item(game, f"teleports to {game.board.spaces[space].name}", player)

    def on_roll(self, game: Game, player: PlayerState, pick: int, source: Any, detail: Any) -> None:
        """A random outcome came up: its line says what (the option's card text)."""
        self._turn(game)
        head = f"rolls {detail['label']}" if detail.get("label") else "rolls"
        src = f"{source}: " if source else ""
        who = "" if player is game.active else f"{_who(player)} "
        # The option's number is what a scenario's `rolls N` names.
        told = f"{head} {pick + 1}: {render_effects(detail['options'][pick])}"
        self._item(game, f"{who}{src}{told}", player)

    def on_attack(self, game: Game, cubes: int, off_clock: bool) -> None:
        """An attack begins; its line is written once its cubes are drawn."""
        super().on_attack(game, cubes, off_clock)
        self._turn(game)
        self._close(game)
        damage = [p.damage for p in game.players]
        self.attack = (min(cubes, len(game.bag)), game.black_aside, damage, off_clock)

    def after_turn(self, game: Game) -> None:
        """Write what is left of the turn, then who escaped or was knocked out in it."""
        self._turn(game)
        self._close(game)
        for p in game.players:
            if p.status == self.status[p.seat]:
                continue
            if p.status == ESCAPED:
                art = f" with {p.artifact.name}" if p.artifact else ""
                self.write(f"    {_who(p)} escapes{art}")
            elif p.status == KNOCKED_OUT:
                why = ""
                if p.artifact is None:
                    why = " without an artifact: scores 0"
                elif game.board.spaces[p.pos].danger_zone:
                    why = " in the Danger Zone: scores 0"
                self.write(f"    {_who(p)} is knocked out at {game.board.spaces[p.pos].name}{why}")
        self.status = [p.status for p in game.players]

    def finish(self, game: Game) -> None:
        """The end of the game and the final scores."""
        result = game.result
        assert result is not None
        self.write("")
        self.write(
            f"Game over after {result.rounds} rounds, {result.turns} turns: {result.end_reason}"
        )
        for seat in result.order:
            st = result.status[seat]
            parts = result.breakdown[seat] if result.breakdown else {}
            detail = ", ".join(f"{k} {v}" for k, v in parts.items() if v)
            won = "  winner" if seat in result.winners else ""
            self.write(
                f"  {_who(seat)} ({self.bots[seat]}) {_STATUS.get(st, st)}: "
                f"{result.scores[seat]} points" + (f" ({detail})" if detail else "") + won
            )


_STATUS = {"on": "still in (capped)"}


def _snapshot(game: Game, p: PlayerState) -> tuple[Any, ...]:
    return (game.gold_of(p), p.damage, list(p.tokens), p.artifact, len(p.hand), _paths(game))


def _paths(game: Game) -> tuple[Any, ...]:
    """The game's changes to its paths: closed ones, added ones, tokens on each."""
    lying = {k: [t.name for t in v] for k, v in game.path_tokens.items()}
    return (list(game.closed_paths), len(game.added_paths), lying, dict(game.switches))


def _path_changes(game: Game, before: tuple[Any, ...]) -> list[str]:
    """What changed on the board's paths since ``before`` (`_paths`), as narration."""
    closed, added, lying, switches = before
    name = game.board.path_name
    turned = [f"turns switch {k} to {v}" for k, v in game.switches.items() if switches.get(k) != v]
    out = [f"blocks {name(k)}" for k in game.closed_paths if k not in closed]
    out += [f"opens {name(k)}" for k in closed if k not in game.closed_paths]
    first = len(game.board.ir["paths"])
    out += [f"adds a tunnel {name(first + k)}" for k in range(added, len(game.added_paths))]
    for k in sorted({*lying, *game.path_tokens}):
        now = [t.name for t in game.path_tokens.get(k, ())]
        was = list(lying.get(k, ()))
        for t in now:
            if t in was:
                was.remove(t)
            else:
                out.append(f"{t} on {name(k)}")
        out += [f"{t} leaves {name(k)}" for t in was]
    return turned + out


def _changes(game: Game, p: PlayerState, before: tuple[Any, ...]) -> str:
    """What the player gained or lost since ``before``: gold, damage, tokens, artifact."""
    gold, damage, tokens, artifact, _, paths = before
    out = []
    if game.gold_of(p) != gold:
        out.append(f"{game.gold_of(p) - gold:+d} {game.catalog.gold_word}")
    if p.damage > damage:
        out.append(f"{p.damage - damage} damage")
    elif p.damage < damage:
        out.append(f"heals {damage - p.damage}")
    left = list(tokens)
    for t in p.tokens:
        if t in left:
            left.remove(t)
        else:
            out.append(f"gets {t.name}")
    if p.artifact is not artifact and p.artifact is not None:
        out.append(f"gets {p.artifact.name}")
    out += _path_changes(game, paths)
    return ", ".join(out)


def replay_one(path: Path, packs: Packs, check: bool, write: Any) -> bool:
    """Replay one log (told, or checked only); False, with the reason written, on failure."""
    name = str(path)
    note = ""
    game: Game | None = None
    try:
        glog = read_log_file(path)
        h = glog.header
        cat = packs.catalog(h["pack"], h["board"])
        note = version_note(glog, cat)
        narrator = None
        if not check:
            bots = list(h["bots"])
            write(
                f"{h['pack']} {h['version']} on {h['board']}, seed {h['seed']}, "
                f"{h['players']} players: "
                + ", ".join(f"{_who(k)} {b}" for k, b in enumerate(bots))
            )
            if h.get("modules"):
                write(f"modules: {h['modules']}")
            if h["rules"]:
                write("rules: " + ", ".join(f"{k}={v}" for k, v in h["rules"].items()))
            if note:
                write(f"note: {note}")
            narrator = Narrator(h["players"], cat.space_slots, bots, write)
        game = replay(
            cat,
            glog,
            stats=narrator,
            on_decision=narrator.decided if narrator else None,
            after_turn=narrator.after_turn if narrator else None,
        )
    except LogError as e:
        click.echo(f"error: {name}:{e.line or ''}{':' if e.line else ''} {e.message}", err=True)
        return False
    except ReplayMismatch as e:
        click.echo(f"error: {name}: the replay does not match the log: {e}", err=True)
        if note:
            click.echo(f"  ({note})", err=True)
        return False
    except click.ClickException as e:  # no such bundled pack, an unreadable IR file
        click.echo(f"error: {name}: {e.message}", err=True)
        return False
    except BrokenPipeError:
        raise
    except Exception as e:  # an engine bug met on the way: say where, without a traceback
        turn = f" at turn {game.turn}" if game is not None else ""
        click.echo(
            f"error: {name}: the replay failed{turn}: {type(e).__name__}: {e} "
            "(a Clankwork bug: please report it with this log)",
            err=True,
        )
        return False
    if narrator is not None:
        narrator.finish(game)
        write("")
    assert game.result is not None
    write(
        f"{name}: ok, {len(glog.decisions)} decisions replayed to the recorded final state "
        f"{game.result.state}" + (f" ({note})" if note and check else "")
    )
    return True


@click.command("replay")
@click.argument("logs", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--pack",
    type=PACK,
    help="The pack to replay on (folder, IR .json or a bundled pack's name) [default: the "
    "bundled pack the log names].",
)
@click.option(
    "--check",
    is_flag=True,
    help="Only check that each log replays to its recorded final state (exit 1 if not).",
)
@click.option(
    "--html",
    "html",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game as a self-contained web page to FILE (one LOG): board, pawns, cards.",
)
def command(logs: tuple[Path, ...], pack: Path | None, check: bool, html: Path | None) -> None:
    """Replay game LOGS (.jsonl from `simulate --log-dir`) turn by turn, or --check them."""
    packs = Packs(pack)
    if html is not None:
        if check or len(logs) != 1:
            raise click.UsageError("--html writes one page for one LOG (and not with --check)")
        if not write_page(logs[0], packs, html):
            raise SystemExit(1)
        return
    ok = True
    try:
        for path in logs:
            ok = replay_one(path, packs, check, click.echo) and ok
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`clankwork replay LOG | head`): stop quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None
    if not ok:
        raise SystemExit(1)

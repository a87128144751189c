"""Game logs: JSON lines of a header, every decision and the result; reading and replaying them.

A log is a list of records (dicts), one JSON object a line (``schemas/log.schema.json``):
``{"type": "header", ...}`` with the log format, seed, pack name and version, board, players,
bots and rule overrides; one ``{"type": "decision", ...}`` per decision asked (turn, player,
kind, chosen index and label); then ``{"type": "result", ...}`` with scores, winners, status
and a digest of the final state. Same seed, bots and pack give the same log, byte for byte.

`read_log` turns a file's text into a `GameLog`, with a `LogError` naming the line of anything
wrong; `replay` re-runs the decisions on a pack and raises `ReplayMismatch` when the game asks
something else or ends differently (for instance because the pack changed since).
"""

from __future__ import annotations

import difflib
import json
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from .catalog import Catalog, prepare
from .decisions import Decision
from .game import LOG_FORMATS_READ, Game
from .rules import MAX_PLAYERS, RULES_BY_KEY, rule_value_problem
from .stats import GameStats


def to_jsonl(log: Iterable[dict[str, Any]]) -> str:
    """The log as JSON lines (one record a line, keys in a fixed order)."""
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in log)


def from_jsonl(text: str) -> list[dict[str, Any]]:
    """Records from JSON-lines text (no checks: see `read_log`)."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


class LogError(ValueError):
    """A log that cannot be read: not JSON, a record the schema rejects, records out of place."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message, line)
        self.message = message
        self.line = line

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


class ReplayMismatch(Exception):
    """A replayed game left the recorded path or reached a different end."""


@dataclass
class GameLog:
    """A log read from a file: its records and the line each came from."""

    header: dict[str, Any]
    decisions: list[dict[str, Any]]
    result: dict[str, Any] | None
    # Line numbers (from 1) of the header, of each decision and of the result.
    header_line: int = 1
    decision_lines: list[int] = field(default_factory=list)
    result_line: int | None = None

    @property
    def records(self) -> list[dict[str, Any]]:
        """All records in order."""
        return [self.header, *self.decisions, *([self.result] if self.result else [])]

    @classmethod
    def from_records(cls, records: list[dict[str, Any]]) -> GameLog:
        """A log from records in memory (line numbers are their positions, from 1)."""
        if not records or records[0].get("type") != "header":
            raise LogError("the log does not start with a header record", 1)
        decisions, lines, result, result_line = [], [], None, None
        for k, r in enumerate(records[1:], start=2):
            if r.get("type") == "decision":
                decisions.append(r)
                lines.append(k)
            elif r.get("type") == "result":
                result, result_line = r, k
        return cls(records[0], decisions, result, 1, lines, result_line)


@lru_cache(maxsize=1)
def log_schema() -> dict[str, Any]:
    """The JSON Schema of one log record (``schemas/log.schema.json``)."""
    text = (resources.files("clankwork.schemas") / "log.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(log_schema())


def _schema_error(record: Any) -> str | None:
    """The most relevant schema error of a record, as a sentence (None when valid)."""
    from jsonschema.exceptions import best_match

    err = best_match(_validator().iter_errors(record))
    if err is None:
        return None
    where = "/".join(str(p) for p in err.absolute_path)
    kind = record.get("type") if isinstance(record, dict) else None
    what = f"{kind} record" if isinstance(kind, str) else "record"
    return f"{what}: {where + ': ' if where else ''}{err.message}"


def read_log(text: str, *, require_result: bool = True) -> GameLog:
    """Read and check a JSON-lines log; `LogError` (with the line) for anything wrong.

    The first record must be the header and the last the result (unless ``require_result``
    is False: a log cut short, such as a failed game's, is then read up to its last line).
    Blank lines are allowed and counted.
    """
    header: dict[str, Any] | None = None
    decisions: list[dict[str, Any]] = []
    lines: list[int] = []
    result: dict[str, Any] | None = None
    result_line: int | None = None
    last = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        last = number
        record = _record(raw, number)
        kind = record["type"]
        if header is None:
            if kind != "header":
                raise LogError(f"the log must start with a header record, not a {kind}", number)
            header = record
            _check_header(header, number)
        elif result is not None:
            raise LogError(f"a {kind} record after the result (line {result_line})", number)
        elif kind == "header":
            raise LogError("a second header record", number)
        elif kind == "decision":
            if record["player"] >= header["players"]:
                raise LogError(
                    f"decision of player {record['player']} in a game of "
                    f"{header['players']} players",
                    number,
                )
            decisions.append(record)
            lines.append(number)
        else:
            result, result_line = record, number
            if len(record["scores"]) != header["players"]:
                raise LogError(
                    f"{len(record['scores'])} scores for {header['players']} players", number
                )
    if header is None:
        raise LogError("the log is empty")
    if result is None and require_result:
        raise LogError(
            f"the log ends at line {last} without a result record (cut short?)", last or None
        )
    return GameLog(header, decisions, result, 1, lines, result_line)


def _record(raw: str, number: int) -> dict[str, Any]:
    """One line of a log read as a record and checked against the log schema."""
    try:
        record = json.loads(raw)
    except json.JSONDecodeError as e:
        raise LogError(f"not valid JSON ({e.msg}, column {e.colno})", number) from None
    except RecursionError:
        raise LogError("a record nested too deeply to read", number) from None
    except ValueError as e:  # a number of thousands of digits
        raise LogError(f"not a readable record ({e})", number) from None
    try:
        problem = _schema_error(record)
    except RecursionError:
        problem = "a record nested too deeply to check"
    if problem:
        raise LogError(problem, number)
    return record


def _check_header(header: dict[str, Any], line: int) -> None:
    """What the schema cannot say about a header."""
    if header["format"] not in LOG_FORMATS_READ:
        raise LogError(
            f"log format {header['format']!r}; this Clankwork reads "
            + " and ".join(LOG_FORMATS_READ),
            line,
        )
    # The header's words are printed as they are (`clankwork replay`): no terminal escapes.
    words = [(k, header[k]) for k in ("pack", "version", "board")]
    if isinstance(header.get("modules"), str):
        words.append(("modules", header["modules"]))
    for what, text in words + [(f"bots[{i}]", b) for i, b in enumerate(header["bots"])]:
        bad = next((ch for ch in text if unicodedata.category(ch) == "Cc"), None)
        if bad is not None:
            raise LogError(f"control character U+{ord(bad):04X} in the header's {what}", line)
    if header["players"] > MAX_PLAYERS:
        raise LogError(f"{header['players']} players; a game seats at most {MAX_PLAYERS}", line)
    if len(header["bots"]) != header["players"]:
        raise LogError(f"{len(header['bots'])} bots for {header['players']} players", line)
    check_rule_overrides(header["rules"], line)


def check_rule_overrides(rules: dict[str, Any], line: int | None = None) -> None:
    """`LogError` unless every override names a rule parameter and has its shape and range.

    ``line`` is the header's line in a log; without it the overrides are a command's
    (``--rule``), and the message says so.
    """
    where = " in the header's rule overrides" if line is not None else ""
    for key, value in rules.items():
        if key not in RULES_BY_KEY:
            close = difflib.get_close_matches(key, list(RULES_BY_KEY), n=1, cutoff=0.6)
            hint = f'; did you mean "{close[0]}"?' if close else ""
            raise LogError(
                f"unknown rule {key!r}{where}{hint} (rules: {', '.join(RULES_BY_KEY)})", line
            )
        problem = rule_value_problem(key, value)
        if problem:
            raise LogError(f"rule {key}: {problem}", line)


class _ReplayBot:
    """Answers from the recorded decisions, checking each is asked of the same player."""

    def __init__(
        self,
        name: str,
        records: Iterator[tuple[int, dict[str, Any]]],
        on_decision: Callable[[Game, Decision, int], None] | None,
    ) -> None:
        self.name = name
        self._records = records
        self._on_decision = on_decision

    def choose(self, view: Any, decision: Decision) -> int:
        """The recorded answer, once it is checked against the decision asked."""
        line, rec = next(self._records, (None, None))
        if rec is None:
            raise ReplayMismatch(
                f"the log has no more decisions, but the game asks player {decision.player} "
                f"for a {decision.kind} ({_options(decision)})"
            )
        where = f"line {line} (turn {rec['turn']})"
        if rec["player"] != decision.player or rec["kind"] != decision.kind:
            raise ReplayMismatch(
                f"{where}: the log has a {rec['kind']} of player {rec['player']}, "
                f"the game asks a {decision.kind} of player {decision.player} "
                f"({_options(decision)})"
            )
        i = rec["index"]
        if i >= len(decision.options) or decision.options[i].label != rec["label"]:
            raise ReplayMismatch(
                f"{where}: the log chose option {i} {rec['label']!r}, "
                f"the game offers {_options(decision)}"
            )
        if self._on_decision is not None:
            self._on_decision(view, decision, i)
        return i


def _options(decision: Decision) -> str:
    labels = decision.labels
    shown = ", ".join(f"{k}: {label!r}" for k, label in enumerate(labels[:12]))
    return shown + (f", ... ({len(labels)} options)" if len(labels) > 12 else "")


def replay(
    pack: Catalog | dict[str, Any],
    log: list[dict[str, Any]] | GameLog,
    *,
    stats: GameStats | None = None,
    on_decision: Callable[[Game, Decision, int], None] | None = None,
    after_turn: Callable[[Game], None] | None = None,
) -> Game:
    """Re-run a log's decisions on its pack; return the replayed game.

    Raises `ReplayMismatch` unless the game asks exactly the logged decisions and reaches the
    recorded result and final state. ``stats``, ``on_decision(game, decision, index)`` and
    ``after_turn(game)`` let a viewer follow the game.
    """
    glog = log if isinstance(log, GameLog) else GameLog.from_records(log)
    header = glog.header
    if isinstance(pack, Catalog) and pack.board.name != header["board"]:
        raise ReplayMismatch(
            f"the log was played on board {header['board']!r}, not {pack.board.name!r}"
        )
    modules: Any = header.get("modules")
    if modules and header["format"] == "clankwork-log/1":
        # A /1 log cannot say whether its ship drew numbers: one named with --modules by a
        # Clankwork before the assembly fix (633211c) drew none; one drawn from the seed, or
        # named after that fix, drew them as every ship does now. The no-draw way is tried
        # quietly first; a log it does not fit is replayed the other way, and when both fail
        # the error of the attempt that went further is the one told.
        try:
            if not isinstance(pack, Catalog):
                pack = prepare(pack, header["board"])
            named = pack.choose_assembly(None, modules)
        except ValueError as e:
            raise ReplayMismatch(f"the pack cannot set this game up: {e}") from None
        try:
            game = _replay_once(pack, glog, named)
        except ReplayMismatch as first:
            try:
                return _replay_once(pack, glog, modules, stats, on_decision, after_turn)
            except ReplayMismatch as second:
                if _reached(first) > _reached(second):
                    raise first from None
                raise
        if stats is None and on_decision is None and after_turn is None:
            return game  # nobody follows the game: the quiet replay is the replay
        modules = named
    return _replay_once(pack, glog, modules, stats, on_decision, after_turn)


def _reached(e: ReplayMismatch) -> int:
    """How far a failed replay got: the log's decisions it had replayed."""
    return int(getattr(e, "reached", 0))


class _Counting:
    """An iterator that counts what it has given."""

    def __init__(self, it: Iterator[Any]) -> None:
        self.it = it
        self.n = 0

    def __iter__(self) -> _Counting:
        return self

    def __next__(self) -> Any:
        x = next(self.it)
        self.n += 1
        return x


def _replay_once(
    pack: Catalog | dict[str, Any],
    glog: GameLog,
    modules: Any,
    stats: GameStats | None = None,
    on_decision: Callable[[Game, Decision, int], None] | None = None,
    after_turn: Callable[[Game], None] | None = None,
) -> Game:
    """`replay` on one assembly of a modular board (``modules``: the header's text, or the
    triples of a /1 log's named ship)."""
    header = glog.header
    records = _Counting(iter(zip(glog.decision_lines, glog.decisions, strict=True)))
    bots = [_ReplayBot(name, records, on_decision) for name in header["bots"]]
    try:
        return _play_through(pack, glog, modules, records, bots, stats, after_turn)
    except ReplayMismatch as e:
        e.reached = records.n  # type: ignore[attr-defined]
        raise


def _play_through(
    pack: Catalog | dict[str, Any],
    glog: GameLog,
    modules: Any,
    records: _Counting,
    bots: list[Any],
    stats: GameStats | None,
    after_turn: Callable[[Game], None] | None,
) -> Game:
    header = glog.header
    try:
        game = Game(
            pack,
            bots,
            header["seed"],
            board=header["board"],
            rules=header["rules"] or None,
            modules=modules,
            stats=stats,
        )
    except ValueError as e:
        raise ReplayMismatch(f"the pack cannot set this game up: {e}") from None
    game.play(after_turn=after_turn)
    left = next(records, None)
    if left is not None:
        raise ReplayMismatch(
            f"the game ended (turn {game.turn}: {game.end_reason}) before the log's decision "
            f"at line {left[0]}"
        )
    want = glog.result
    got = game.log[-1]
    if want is not None and got != want:
        diff = [k for k in want if want.get(k) != got.get(k)]
        where = f"line {glog.result_line}: " if glog.result_line else ""
        raise ReplayMismatch(
            f"{where}different result ({', '.join(diff)}): recorded "
            + ", ".join(f"{k}={want[k]!r}" for k in diff)
            + "; replayed "
            + ", ".join(f"{k}={got.get(k)!r}" for k in diff)
        )
    return game

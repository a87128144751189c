"""Game logs: JSON lines of a header, every decision and the result; and replaying them.

A log is a list of records (dicts): ``{"type": "header", ...}`` with the seed, pack, board,
players, bots and rule overrides; one ``{"type": "decision", ...}`` per decision asked (turn,
player, kind, chosen index and label); then ``{"type": "result", ...}`` with scores, winners
and a digest of the final state. Same seed, bots and pack give the same log, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from .catalog import Catalog
from .decisions import Decision
from .game import Game


def to_jsonl(log: Iterable[dict[str, Any]]) -> str:
    """The log as JSON lines (one record a line, keys in a fixed order)."""
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in log)


def from_jsonl(text: str) -> list[dict[str, Any]]:
    """Records from JSON-lines text."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


class ReplayMismatch(Exception):
    """A replayed game left the recorded path or reached a different end."""


class _ReplayBot:
    """Answers from the recorded decisions, checking each is asked of the same player."""

    def __init__(self, name: str, records: Iterator[dict[str, Any]]) -> None:
        self.name = name
        self._records = records

    def choose(self, view: Any, decision: Decision) -> int:
        """The recorded answer, once it is checked against the decision asked."""
        rec = next(self._records, None)
        if rec is None:
            raise ReplayMismatch(f"the log ends before {decision.kind} of player {decision.player}")
        if rec["player"] != decision.player or rec["kind"] != decision.kind:
            raise ReplayMismatch(
                f"turn {rec['turn']}: the log has {rec['kind']} of player {rec['player']}, "
                f"the game asks {decision.kind} of player {decision.player}"
            )
        i = rec["index"]
        if i >= len(decision.options) or decision.options[i].label != rec["label"]:
            raise ReplayMismatch(
                f"turn {rec['turn']}: option {i} is not {rec['label']!r} "
                f"(options: {decision.labels})"
            )
        return i


def replay(pack: Catalog | dict[str, Any], log: list[dict[str, Any]]) -> Game:
    """Re-run a log's decisions on its pack; raise `ReplayMismatch` unless the game reaches
    the recorded result and final state. Returns the replayed game."""
    header = log[0]
    if header.get("type") != "header":
        raise ReplayMismatch("the log does not start with a header record")
    records = iter([r for r in log if r["type"] == "decision"])
    bots = [_ReplayBot(name, records) for name in header["bots"]]
    game = Game(pack, bots, header["seed"], board=header["board"], rules=header["rules"] or None)
    if isinstance(pack, Catalog) and pack.board.name != header["board"]:
        raise ReplayMismatch(f"the log was played on board {header['board']!r}")
    game.play()
    if next(records, None) is not None:
        raise ReplayMismatch("the game ended before the log's last decision")
    want = next((r for r in reversed(log) if r["type"] == "result"), None)
    got = game.log[-1]
    if want is not None and got != want:
        raise ReplayMismatch(f"different result: recorded {want}, replayed {got}")
    return game

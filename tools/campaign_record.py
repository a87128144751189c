"""`clankwork campaign record`: a game played with cards at a real table, put into the
campaign as a bot game is.

What the campaign needs from a game is asked step by step in the terminal, or read from a
results file (`--from results.toml`, docs/campaign.md "Recording a game played at the table"):
each player's score parts and how their game ended, the personal goals' boxes they filled,
checkmarks and track X the game's rules gave, the contracts completed and by whom, the
passages reached (a waypoint entered) and by whom, the stickers the game told the table to
apply and the cards it fetched or destroyed for good, and the answers to the passages'
choices. Every answer is checked against the pack and the campaign (names, numbers, ranges);
a results file's problems are reported together, each at its line and column, with a hint,
and nothing is written. Then the game's prologue, its post-game steps (the engine's
`post_game` phase, run on a game holding the table's results) and its passages run as for a
bot game, and the game is appended as one `game` event marked ``recorded``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import click

from clankwork.dsl.diagnostics import Diagnostic, Span, did_you_mean, format_human
from clankwork.dsl.limits import MAX_DATA_BYTES
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.scoring import final_result
from clankwork.interpreter.state import ESCAPED, KNOCKED_OUT
from clankwork.interpreter.stickers import stickers

from .campaign import (
    PACK_OPTION,
    Campaign,
    CampaignGame,
    Table,
    _load,
    after_game,
    append,
    game_setup,
    game_summary,
    pack_ir,
    tracks,
    writing,
)
from .menus import HUMAN
from .passages import MAX_READS, choice_index, terminal_ask
from .simulate import bot_seed

STATUSES = (ESCAPED, KNOCKED_OUT, "died")
PARTS = ("artifact", "tokens", "gold", "cards")
MAX_POINTS = 10_000
MAX_ROUNDS = 1_000
END = "played at the table"


@dataclass
class Results:
    """What a table tells the campaign about one game, checked."""

    status: list[str]
    parts: list[dict[str, int]]
    goals: list[dict[str, int]]
    checkmarks: list[int]
    rounds: int = 0
    contracts: list[tuple[str, int]] = field(default_factory=list)
    passages: list[tuple[int, int]] = field(default_factory=list)
    stickers: list[str] = field(default_factory=list)
    fetched: list[int] = field(default_factory=list)
    destroyed: list[str] = field(default_factory=list)
    marks: dict[str, int] = field(default_factory=dict)
    # Answers to passages' choices, by passage number (a label or a number from 1).
    choices: dict[int, Any] = field(default_factory=dict)

    @property
    def scores(self) -> list[int]:
        """Each player's score: the sum of its parts."""
        return [sum(p.values()) for p in self.parts]

    def winners(self) -> list[int]:
        """The seats with the top score (more than 0), ties to the most valuable artifact."""
        best = max(self.scores)
        if best <= 0:
            return []
        tied = [k for k, s in enumerate(self.scores) if s == best]
        top = max(self.parts[k].get("artifact", 0) for k in tied)
        return [k for k in tied if self.parts[k].get("artifact", 0) == top]


class _Where:
    """Finds where a value of a TOML file is written, for a diagnostic's line and column:
    its key's line under the table (or the nth entry of an array of tables) it belongs to."""

    _HEAD = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.-]+)\s*\]\]?")

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.lines = text.splitlines()
        # (table, entry index or None) -> (first line, last line), 0-based
        self.blocks: dict[tuple[str | None, int | None], tuple[int, int]] = {}
        counts: dict[str, int] = {}
        current: tuple[str | None, int | None] = (None, None)
        start = 0
        for i, line in enumerate(self.lines):
            m = self._HEAD.match(line)
            if m is None:
                continue
            self.blocks.setdefault(current, (start, i - 1))
            name = m.group(2)
            if m.group(1) == "[[":
                current = (name, counts.get(name, 0))
                counts[name] = counts.get(name, 0) + 1
            else:
                current = (name, None)
            start = i
        self.blocks.setdefault(current, (start, len(self.lines) - 1))

    def at(self, table: str | None, index: int | None, *keys: str) -> Span | None:
        """The span of ``keys`` (a key, then a key inside its inline table) in that block;
        the block's header when the key is not found; None when there is no such block."""
        block = self.blocks.get((table, index))
        if block is None:
            return None
        first, last = block
        for i in range(first, last + 1):
            line = self.lines[i]
            if not keys:
                return Span(self.file, i + 1, 1, i + 1, len(line) + 1)
            m = re.match(rf'^\s*"?{re.escape(keys[0])}"?\s*=\s*', line)
            if m is None:
                continue
            col = m.end()
            for key in keys[1:]:
                k = re.search(rf'"?{re.escape(key)}"?\s*=\s*', line[col:])
                if k is not None:
                    col += k.end()
            end = re.search(r"[,}\]#]|$", line[col + 1 :])
            stop = col + 1 + (end.start() if end else 0)
            return Span(self.file, i + 1, col + 1, i + 1, max(stop, col + 1) + 1)
        line = self.lines[first] if self.lines else ""
        return Span(self.file, first + 1, 1, first + 1, len(line) + 1)


class Checker:
    """Checks a table's answers against the pack and the campaign, collecting diagnostics
    (a results file) or returning the first problem (a question asked in the terminal)."""

    def __init__(self, ir: dict[str, Any], c: Campaign) -> None:
        self.ir = ir
        self.c = c
        self.cards = {x["name"] for x in ir.get("cards", ())}
        self.cardporium = {x["cardporium"]: x["name"] for x in ir["cards"] if "cardporium" in x}
        self.stickers = set(stickers(ir))
        self.passages = {p["number"]: p for p in ir.get("passages", ())}
        self.contracts = {k["name"] for k in ir.get("contracts", ())}
        self.tracks = {t["name"] for t in tracks(ir)}
        self.goals = {g["name"]: g for g in ir.get("goals", ())}

    def seat(self, who: Any) -> tuple[int | None, str | None]:
        """A player named by the campaign's name for them or their seat number (from 1)."""
        names = self.c.names
        if isinstance(who, int) and not isinstance(who, bool):
            if 1 <= who <= self.c.players:
                return who - 1, None
            return None, f"seat {who}: this campaign has seats 1 to {self.c.players}"
        if isinstance(who, str):
            for k, name in enumerate(names):
                if name.casefold() == who.strip().casefold():
                    return k, None
            hint = did_you_mean(who, names)
            return None, f"no player named {who!r} in this campaign" + (
                f" ({hint})" if hint else f" (players: {', '.join(names)})"
            )
        return None, "name a player by name or by seat number"

    def points(self, value: Any, what: str) -> str | None:
        """A whole number of points in range, or what is wrong with it."""
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{what}: a whole number of points, not {value!r}"
        if not 0 <= value <= MAX_POINTS:
            return f"{what}: {value} is out of range (0 to {MAX_POINTS})"
        return None

    def status(self, value: Any) -> str | None:
        """How a player's game ended: escaped, knocked out or died."""
        if value not in STATUSES:
            return f"status {value!r}: write one of {', '.join(repr(s) for s in STATUSES)}"
        return None

    def goal(self, seat: int, name: Any, boxes: Any) -> str | None:
        """Boxes of one of the seat's own personal goals, within its row."""
        goal = self.goals.get(name) if isinstance(name, str) else None
        if goal is None:
            hint = did_you_mean(str(name), list(self.goals))
            return f"no personal goal named {name!r}" + (f" ({hint})" if hint else "")
        if goal["player"] != seat + 1:
            return f"{name!r} is player {goal['player']}'s goal, not {self.c.names[seat]}'s"
        if isinstance(boxes, bool) or not isinstance(boxes, int) or boxes < 0:
            return f"{name!r}: a number of boxes, not {boxes!r}"
        left = goal["boxes"] - self.c.goals[seat].get(name, 0)
        if boxes > left:
            return f"{name!r}: {boxes} boxes, but its row has {left} left"
        return None

    def sticker(self, name: Any) -> str | None:
        """A sticker of the pack, not already on."""
        if name not in self.stickers:
            hint = did_you_mean(str(name), list(self.stickers))
            return f"{self.c.pack_name} has no sticker named {name!r}" + (
                f" ({hint})" if hint else ""
            )
        if name in self.c.stickers:
            return f"the sticker {name!r} is already on in this campaign"
        return None

    def card(self, name: Any) -> str | None:
        """A card of the pack (a card destroyed for good)."""
        if name not in self.cards:
            hint = did_you_mean(str(name), list(self.cards))
            return f"{self.c.pack_name} has no card named {name!r}" + (f" ({hint})" if hint else "")
        return None

    def fetch(self, number: Any) -> str | None:
        """A Cardporium card's number."""
        if number not in self.cardporium:
            known = ", ".join(str(k) for k in sorted(self.cardporium)) or "none"
            return f"no Cardporium card numbered {number!r} (the pack's: {known})"
        return None

    def passage(self, number: Any) -> str | None:
        """A passage of the pack's Book of Secrets."""
        if isinstance(number, bool) or not isinstance(number, int) or number not in self.passages:
            return f"the pack has no passage {number!r}"
        return None

    def contract(self, name: Any) -> str | None:
        """A contract of the pack."""
        if name not in self.contracts:
            hint = did_you_mean(str(name), list(self.contracts))
            return f"{self.c.pack_name} has no contract named {name!r}" + (
                f" ({hint})" if hint else ""
            )
        return None

    def track(self, name: Any, n: Any) -> str | None:
        """X on one of the pack's campaign tracks."""
        if name not in self.tracks:
            hint = did_you_mean(str(name), list(self.tracks))
            return f"the pack has no campaign track named {name!r}" + (f" ({hint})" if hint else "")
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 100:
            return f"the {name} track: a number of X from 0 to 100, not {n!r}"
        return None

    def choice(self, number: Any, answer: Any) -> str | None:
        """An answer to passage ``number``'s choice: an option's label or number."""
        ps = self.passages.get(number)
        if ps is None or not ps.get("choices"):
            return f"passage {number} offers no choice"
        if choice_index(ps, answer) is None:
            labels = ", ".join(f"{k}. {c['label']}" for k, c in enumerate(ps["choices"], 1))
            return f"passage {number}: {answer!r} is none of its options ({labels})"
        return None


def parse_results(path: Path, ir: dict[str, Any], c: Campaign) -> Results:
    """A results file, checked; its problems are printed together and the command exits 1
    (`click.ClickException` for a file that cannot be read)."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise click.ClickException(f"cannot read {path}: {e.strerror}") from None
    if len(data) > MAX_DATA_BYTES:
        raise click.ClickException(f"{path}: more than {MAX_DATA_BYTES} bytes")
    text = data.decode("utf-8", errors="replace")
    where = _Where(str(path), text)
    diags: list[Diagnostic] = []

    def bad(code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        diags.append(Diagnostic(code, message, span, hint))

    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+), column (\d+)", str(e))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        bad("CW150", f"not TOML: {e}", Span(str(path), line, col, line, col + 1))
        _report(diags, path, text)
    check = Checker(ir, c)
    res = _read_doc(doc, check, where, bad, c)
    if diags:
        _report(diags, path, text)
    return res


def _report(diags: list[Diagnostic], path: Path, text: str) -> None:
    click.echo(format_human(diags, {str(path): text}), err=True)
    n = len(diags)
    raise click.ClickException(
        f"{path}: {n} problem{'s' if n != 1 else ''}; nothing was recorded (fix the file and "
        "run the command again)"
    )


def _read_doc(
    doc: dict[str, Any],
    check: Checker,
    where: _Where,
    bad: Callable[..., None],
    c: Campaign,
) -> Results:
    """The results in a parsed file (problems go to ``bad``)."""
    known = {"rounds", "player", "contracts", "passages", "table", "choices", "marks"}
    for key in doc:
        if key not in known:
            hint = did_you_mean(key, known)
            bad("CW150", f"unknown key {key!r}", where.at(None, None, key), hint)
    players = doc.get("player", [])
    if not isinstance(players, list) or len(players) != c.players:
        got = len(players) if isinstance(players, list) else 0
        bad(
            "CW152",
            f"{got} [[player]] entries for a campaign of {c.players} players",
            where.at(None, None),
            "write one [[player]] block for each seat, in seat order: " + ", ".join(c.names),
        )
        players = (players if isinstance(players, list) else [])[: c.players]
        players += [{}] * (c.players - len(players))
    res = Results(
        status=[ESCAPED] * c.players,
        parts=[dict.fromkeys(PARTS, 0) for _ in range(c.players)],
        goals=[{} for _ in range(c.players)],
        checkmarks=[0] * c.players,
    )
    for k, p in enumerate(players):
        _read_player(k, p, check, where, bad, res, c)
    rounds = doc.get("rounds", 0)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 0 <= rounds <= MAX_ROUNDS:
        bad("CW152", f"rounds: 0 to {MAX_ROUNDS}, not {rounds!r}", where.at(None, None, "rounds"))
    else:
        res.rounds = rounds
    for i, entry in enumerate(_tables(doc, "contracts", bad, where)):
        problem = check.contract(entry.get("name"))
        seat, who = check.seat(entry.get("by"))
        if problem or who:
            bad("CW151", problem or who, where.at("contracts", i, "name" if problem else "by"))
        elif seat is not None:
            res.contracts.append((entry["name"], seat))
    for i, entry in enumerate(_tables(doc, "passages", bad, where)):
        problem = check.passage(entry.get("passage"))
        seat, who = check.seat(entry.get("by"))
        if problem or who:
            key = "passage" if problem else "by"
            bad("CW151", problem or who, where.at("passages", i, key))
        elif seat is not None:
            res.passages.append((entry["passage"], seat))
    told = doc.get("table", {})
    if not isinstance(told, dict):
        bad("CW150", "[table] is a table", where.at(None, None, "table"))
        told = {}
    for key, test, into in (
        ("stickers", check.sticker, res.stickers),
        ("fetched", check.fetch, res.fetched),
        ("destroyed", check.card, res.destroyed),
    ):
        values = told.get(key, [])
        if not isinstance(values, list):
            bad("CW150", f"[table] {key}: a list", where.at("table", None, key))
            continue
        for v in values:
            problem = test(v)
            if problem:
                bad("CW151", problem, where.at("table", None, key))
            else:
                into.append(v)
    for key in told:
        if key not in ("stickers", "fetched", "destroyed"):
            hint = did_you_mean(key, ["stickers", "fetched", "destroyed"])
            bad("CW150", f"[table] has no key {key!r}", where.at("table", None, key), hint)
    marks = doc.get("marks", {})
    for name, n in (marks if isinstance(marks, dict) else {}).items():
        problem = check.track(name, n)
        if problem:
            bad("CW151", problem, where.at("marks", None, name))
        elif n:
            res.marks[name] = n
    choices = doc.get("choices", {})
    for number, answer in (choices if isinstance(choices, dict) else {}).items():
        n = int(number) if str(number).isdigit() else None
        problem = check.choice(n, answer)
        if problem:
            bad("CW151", problem, where.at("choices", None, str(number)))
        elif n is not None:
            res.choices[n] = answer
    return res


def _tables(
    doc: dict[str, Any], key: str, bad: Callable[..., None], where: _Where
) -> list[dict[str, Any]]:
    values = doc.get(key, [])
    if not isinstance(values, list) or not all(isinstance(v, dict) for v in values):
        bad("CW150", f"{key}: write [[{key}]] blocks", where.at(None, None, key))
        return []
    return values


def _read_player(
    k: int,
    p: dict[str, Any],
    check: Checker,
    where: _Where,
    bad: Callable[..., None],
    res: Results,
    c: Campaign,
) -> None:
    """One [[player]] block: its name (if given) must be the seat's."""
    if "name" in p and str(p["name"]).casefold() != c.names[k].casefold():
        bad(
            "CW151",
            f"player {k + 1} of this campaign is {c.names[k]}, not {p['name']!r}",
            where.at("player", k, "name"),
            "write the [[player]] blocks in seat order: " + ", ".join(c.names),
        )
    for key in p:
        if key not in ("name", "status", "score", "goals", "checkmarks"):
            hint = did_you_mean(key, ["name", "status", "score", "goals", "checkmarks"])
            bad("CW150", f"[[player]] has no key {key!r}", where.at("player", k, key), hint)
    status = p.get("status", ESCAPED)
    problem = check.status(status)
    if problem:
        bad("CW152", problem, where.at("player", k, "status"))
    else:
        res.status[k] = status
    score = p.get("score", 0)
    if isinstance(score, dict):
        for part, v in score.items():
            if part not in PARTS:
                hint = did_you_mean(part, PARTS)
                bad(
                    "CW150",
                    f"no score part {part!r} (parts: {', '.join(PARTS)})",
                    where.at("player", k, "score", part),
                    hint,
                )
                continue
            problem = check.points(v, f"{c.names[k]}'s {part}")
            if problem:
                bad("CW152", problem, where.at("player", k, "score", part))
            else:
                res.parts[k][part] = v
    else:
        problem = check.points(score, f"{c.names[k]}'s score")
        if problem:
            bad("CW152", problem, where.at("player", k, "score"))
        else:
            res.parts[k] = {"total": score}
    if res.status[k] == "died" and sum(res.parts[k].values()):
        bad(
            "CW152",
            f"{c.names[k]} died and scores nothing, not {sum(res.parts[k].values())}",
            where.at("player", k, "score"),
            "a player knocked out with an artifact outside the depths scores: write "
            'status = "knocked out"',
        )
    goals = p.get("goals", {})
    for name, boxes in (goals if isinstance(goals, dict) else {}).items():
        problem = check.goal(k, name, boxes)
        if problem:
            bad("CW151", problem, where.at("player", k, "goals", name))
        elif boxes:
            res.goals[k][name] = boxes
    marks = p.get("checkmarks", 0)
    if isinstance(marks, bool) or not isinstance(marks, int) or not 0 <= marks <= 100:
        bad("CW152", f"checkmarks: 0 to 100, not {marks!r}", where.at("player", k, "checkmarks"))
    else:
        res.checkmarks[k] = marks


# -- asking in the terminal -------------------------------------------------------------------


def _ask(prompt: str, test: Callable[[str], tuple[Any, str | None]], default: str = "") -> Any:
    """Ask until ``test`` accepts the answer (it returns the value and no problem)."""
    while True:
        text = click.prompt(prompt, default=default, show_default=bool(default))
        value, problem = test(text.strip())
        if problem is None:
            return value
        click.echo(f"  {problem}")


def _number(text: str) -> tuple[int | None, str | None]:
    if not text.isdigit() or len(text) > 6:
        return None, f"{text!r} is not a whole number"
    return int(text), None


def _list(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def ask_results(ir: dict[str, Any], c: Campaign) -> Results:
    """The table's results, asked step by step in the terminal, each answer checked."""
    check = Checker(ir, c)
    res = Results(
        status=[ESCAPED] * c.players,
        parts=[dict.fromkeys(PARTS, 0) for _ in range(c.players)],
        goals=[{} for _ in range(c.players)],
        checkmarks=[0] * c.players,
    )
    click.echo(f"recording game {c.next_game} of {c.pack_name}: answer each question")
    for k, name in enumerate(c.names):
        click.echo(f"-- {name} (seat {k + 1})")

        def status(text: str) -> tuple[Any, str | None]:
            return text, check.status(text)

        res.status[k] = _ask(f"{name}: escaped, knocked out or died?", status, ESCAPED)
        if res.status[k] != "died":
            for part in PARTS:

                def points(text: str, part: str = part) -> tuple[Any, str | None]:
                    value, problem = _number(text)
                    return value, problem or check.points(value, part)

                res.parts[k][part] = _ask(f"{name}: points from {part}", points, "0")
        for goal in (g for g in ir.get("goals", ()) if g["player"] == k + 1):

            def boxes(text: str, goal: str = goal["name"], k: int = k) -> tuple[Any, str | None]:
                value, problem = _number(text)
                return value, problem or check.goal(k, goal, value)

            n = _ask(f"{name}: boxes of {goal['name']} filled", boxes, "0")
            if n:
                res.goals[k][goal["name"]] = n

        def marks(text: str) -> tuple[Any, str | None]:
            value, problem = _number(text)
            return value, problem or (None if value <= 100 else "at most 100")

        res.checkmarks[k] = _ask(f"{name}: checkmarks the game's cards or spaces gave", marks, "0")
    res.rounds = _ask("rounds played", lambda t: _number(t), "0")
    res.contracts = _pairs(
        "contracts completed (name:player, comma-separated)", check.contract, check, str
    )
    res.passages = _pairs(
        "passages reached (number:player, comma-separated)", check.passage, check, int
    )
    for key, test, into, kind in (
        ("stickers the game told you to apply", check.sticker, res.stickers, str),
        ("Cardporium cards fetched into the deck (numbers)", check.fetch, res.fetched, int),
        ("cards destroyed for good", check.card, res.destroyed, str),
    ):

        def items(text: str, test: Any = test, kind: Any = kind) -> tuple[Any, str | None]:
            try:
                values = [kind(x) for x in _list(text)]
            except ValueError:
                return None, "numbers, comma-separated"
            problems = [p for p in map(test, values) if p]
            return values, problems[0] if problems else None

        into.extend(_ask(f"{key} (comma-separated, or Enter for none)", items, ""))
    for t in tracks(ir):

        def xs(text: str, name: str = t["name"]) -> tuple[Any, str | None]:
            value, problem = _number(text)
            return value, problem or check.track(name, value)

        n = _ask(f"X the game's rules added to the {t['name']} track", xs, "0")
        if n:
            res.marks[t["name"]] = n
    return res


def _pairs(prompt: str, test: Callable[[Any], str | None], check: Checker, kind: Any) -> list:
    def parse(text: str) -> tuple[Any, str | None]:
        out = []
        for item in _list(text):
            what, _, who = item.rpartition(":")
            if not what:
                return None, f"{item!r}: write WHAT:PLAYER"
            try:
                value = kind(what.strip())
            except ValueError:
                return None, f"{what!r} is not a number"
            problem = test(value)
            seat, bad = check.seat(int(who) if who.strip().isdigit() else who.strip())
            if problem or bad:
                return None, problem or bad
            out.append((value, seat))
        return out, None

    return _ask(prompt + ", or Enter for none", parse, "")


# -- the game ---------------------------------------------------------------------------------


def record_game(ir: dict[str, Any], c: Campaign, res: Results, table: Table) -> dict[str, Any]:
    """Game ``c.next_game`` as the table played it: its prologue read, a game built as a bot
    game would be and given the table's results, the post-game steps run on it, and its
    passages read: its `game` event, marked ``recorded``."""
    n = c.next_game
    setup = game_setup(ir, c, n, table)
    seed = setup.seed
    open_now = set(c.contracts) | set((setup.prologue or {}).get("contracts", ()))
    # A waypoint read at the table opened its contracts then: they may be completed in it.
    open_now |= opened_by(ir, [number for number, _seat in res.passages], res.choices)
    for name, _seat in res.contracts:
        if name not in open_now:
            raise click.ClickException(
                f"the contract {name!r} was not in the Contracts row in game {n} (open: "
                f"{', '.join(sorted(open_now)) or 'none'}): nothing was recorded"
            )
    # Seats' bots answer any decision the post-game steps put (none in the bundled packs); a
    # person's seat of the campaign's bot games has the heuristic bot for it.
    bots = [
        make_bot(b if b != HUMAN else "heuristic", bot_seed(seed, k)) for k, b in enumerate(c.bots)
    ]
    g = CampaignGame(setup.catalog, bots, seed, goals_before=c.goals)
    scores, winners = res.scores, res.winners()
    for p in g.players:
        k = p.seat
        p.status = KNOCKED_OUT if res.status[k] == "died" else res.status[k]
        p.goals = dict(res.goals[k])
        p.checkmarks.extend(["the game's cards or spaces"] * res.checkmarks[k])
    g.completed_contracts = [[name, seat] for name, seat in res.contracts]
    g.campaign_marks = dict(res.marks)
    for number, seat in res.passages:
        g.queue_read(number, seat)
    g.round = res.rounds
    g.end_reason = END
    g.over = True
    g.result = replace(
        final_result(g, digest=False),
        scores=tuple(scores),
        winners=tuple(winners),
        status=tuple(p.status for p in g.players),
        rounds=res.rounds,
        end_reason=END,
    )
    g.post_game()
    game = setup.event(["human"] * c.players)
    game.update(
        {
            "recorded": True,
            "scores": scores,
            "winners": winners,
            "status": list(res.status),
            "parts": res.parts,
            "rounds": res.rounds,
            "end": END,
        }
    )
    if res.stickers or res.fetched or res.destroyed:
        game["table"] = {
            "read": [],
            "stickers": list(res.stickers),
            "checkmarks": 0,
            "marks": {},
            "fetched": list(res.fetched),
            "destroyed": list(res.destroyed),
            "contracts": [],
        }
    if res.contracts:
        game["contracts_completed"] = [[name, seat] for name, seat in res.contracts]
    return after_game(ir, c, game, g, seed, table)


def opened_by(ir: dict[str, Any], numbers: list[int], choices: dict[int, Any]) -> set[str]:
    """The contracts passages ``numbers`` open, with the passages they read (a choice's
    option as ``choices`` answers it)."""
    by_no = {p["number"]: p for p in ir.get("passages", ())}
    out: set[str] = set()
    seen: set[int] = set()
    queue = list(numbers)
    while queue and len(seen) < MAX_READS:
        ps = by_no.get(queue.pop(0))
        if ps is None or ps["number"] in seen:
            continue
        seen.add(ps["number"])
        for line in ps["do"]:
            if line["do"] == "contract":
                out.add(line["name"])
            elif line["do"] == "read":
                queue.append(line["passage"])
        k = choice_index(ps, choices[ps["number"]]) if ps["number"] in choices else None
        if k is not None:
            queue.append(ps["choices"][k]["read"])
    return out


class MissingChoice(click.ClickException):
    """A passage read for a recorded game offers a choice the results file does not answer."""


def _file_answers(res: Results, path: Path) -> Callable[[dict[str, Any]], int]:
    def ask(ps: dict[str, Any]) -> int:
        if ps["number"] not in res.choices:
            first = ps["choices"][0]["label"]
            raise MissingChoice(
                f"passage {ps['number']} offers a choice ("
                + " / ".join(c["label"] for c in ps["choices"])
                + f"), which {path} does not answer: add it under [choices], e.g. "
                f'{ps["number"]} = "{first}"; nothing was recorded'
            )
        k = choice_index(ps, res.choices[ps["number"]])
        assert k is not None  # checked when the file was read
        return k

    return ask


@click.command("record")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--from",
    "results",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Read the game's results from this TOML file instead of asking "
    "(docs/campaign.md: Recording a game played at the table).",
)
@PACK_OPTION
def command(file: Path, results: Path | None, pack: Path | None) -> None:
    """Record the campaign's next game, played at the table with cards: its results are
    asked step by step (or read from --from FILE), checked against the pack, and the
    post-game steps and passages run as for a bot game."""
    with writing(file):
        c, _ = _load(file, holding=True)
        ir = pack_ir(c, file, pack)
        if results is not None:
            res = parse_results(results, ir, c)
            ask = [_file_answers(res, results)] * c.players
        else:
            res = ask_results(ir, c)
            ask = [terminal_ask(name) for name in c.names]
        table = Table(ask=ask, say=click.echo, names=list(c.names))
        game = record_game(ir, c, res, table)
        append(file, [game])
        c, _ = _load(file, holding=True)
    n = game["game"]
    scores = ", ".join(f"{c.names[k]} {s}" for k, s in enumerate(game["scores"]))
    won = " and ".join(c.names[w] for w in game["winners"]) or "nobody"
    click.echo(f"game {n} (recorded): {scores}; {won} won")
    for line in game_summary(game, c.names):
        click.echo(f"  {line}")

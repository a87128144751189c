"""A scenario's facts checked against the game that scenario sets up.

Some of what a scenario states can be checked only once the whole scenario is read, because
another statement, anywhere in it, decides the game: a seat against `players`, a space
against `board`, `modules` and the `sticker`s, a rage space against the rage track the
pack's rules give (a rule sticker may change it), damage against health. While statements
compile, `Pending` collects these facts with their spans; `check_pending` reports each one at
its line (CW140 a seat, CW141 a number, CW142 a name that this game lacks, CW143 `modules`),
so `clankwork check` finds them and `clankwork test` never meets them in play.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from clankwork.interpreter.assembly import is_modular, parse_assembly
from clankwork.interpreter.on_board import for_board, has_sections
from clankwork.interpreter.rules import default_rules
from clankwork.interpreter.stickers import apply_stickers

from .diagnostics import Diagnostic, Span
from .resolve import near_miss


@dataclass
class Pending:
    """What one scenario states that depends on the rest of it, each with its span."""

    # A seat number and what names it (`bag player`, `expect player`...).
    seats: list[tuple[int, Span, str]] = field(default_factory=list)
    spaces: list[tuple[str, Span]] = field(default_factory=list)
    # A rage space, and whether it is stated (`rage N`) or expected (`expect rage N`).
    rage: list[tuple[int, Span, str]] = field(default_factory=list)
    # Cubes a statement takes from a seat's supply (`bag player`, `damage`, `clank`,
    # `supply`), and black cubes put in the bag.
    cubes: dict[int, list[tuple[int, Span, str]]] = field(default_factory=dict)
    black: list[tuple[int, Span]] = field(default_factory=list)
    damage: list[tuple[int, int, Span]] = field(default_factory=list)  # seat, damage, span
    knocked_out: set[int] = field(default_factory=set)
    # A turn's pool stated for a seat (`skill 2`, a per-turn resource): only the first
    # player's turn reads it.
    pools: list[tuple[int, str, Span]] = field(default_factory=list)
    # Personal goals named: whose they are is checked against the seats.
    goals: list[tuple[str, Span, int | None]] = field(default_factory=list)
    # Cards setup puts somewhere, and `destroy` statements (a design with no copy left
    # leaves the pack, so setup can no longer place it).
    placed_cards: list[tuple[str, Span]] = field(default_factory=list)
    destroyed: list[tuple[str, Span]] = field(default_factory=list)
    # Cards and tokens named that some board of the pack does not have (`on board`): each
    # is checked against the scenario's board.
    designs: list[tuple[str, str, Span]] = field(default_factory=list)
    players_at: Span | None = None
    modules_at: Span | None = None
    # Statements that did not compile (`players`, `board`): the checks that read them are
    # skipped rather than report against a default the designer did not choose.
    broken: set[str] = field(default_factory=set)


class PackFacts:
    """What of a pack the deferred checks read: its rules as a scenario's stickers leave
    them, its boards' spaces, its goals and its cards' copies."""

    def __init__(self, ir: dict[str, Any]) -> None:
        self.ir = ir
        self.boards = {b["name"]: b for b in ir.get("boards", ())}
        self.first_board = ir["boards"][0]["name"] if ir.get("boards") else None
        self.stickers = {st["name"]: st for st in ir.get("stickers", ())}
        self.goals = {g["name"]: g for g in ir.get("goals", ())}
        self.copies: dict[str, int] = {}
        for c in ir.get("cards", ()):
            self.copies[c["name"]] = self.copies.get(c["name"], 0) + c.get("copies", 1)
        self._rules: dict[tuple[str, ...], dict[str, Any]] = {}
        # The cards and tokens of each board's game, in a pack with `on board` blocks.
        self.designs = board_designs(ir)
        self._board_games = (
            {b["name"]: for_board(ir, b["name"]) for b in ir.get("boards", ())}
            if has_sections(ir)
            else {b["name"]: {"cards": [], "tokens": []} for b in ir.get("boards", ())}
        )
        self._assemblies: dict[tuple[str, str], tuple[set[str] | None, str | None]] = {}
        self.counter_max = {c["name"]: c["max"] for c in ir.get("counters", ())}
        self.goal_boxes = {g["name"]: g["boxes"] for g in ir.get("goals", ())}
        # What each name is, in the pack and in every sticker's edit of it (a scenario with
        # that sticker plays the edited one): a card's type, a token's kind, coach spaces,
        # tokens with `use:` lines, and the labels of `action` lines.
        cards, tokens, spaces = (
            self.versions("card"),
            self.versions("token"),
            self.versions("space"),
        )
        self.card_types: dict[str, set[str]] = {}
        for c in cards:
            self.card_types.setdefault(c["name"], set()).add(c.get("type", ""))
        self.token_kinds: dict[str, set[str]] = {}
        for t in tokens:
            self.token_kinds.setdefault(t["name"], set()).add(t.get("kind", ""))
        self.cubes = sorted(n for n, kinds in self.token_kinds.items() if "cube" in kinds)
        self.usable = {
            t["name"] for t in tokens if any(x.get("on") == "use" for x in t.get("triggers", ()))
        }
        self.coach_spaces = {s["name"] for s in spaces if s.get("coach") is not None}
        # `act NAME` names an action by its label's start (`hack at Port Passage`, `use the
        # hook with Grappling Hook`, as interpreter/content_actions.py writes them).
        self.act_labels = {
            f"{a.get('name') or 'act'} {where} {owner['name']}": a.get("name") or "act"
            for where, owners in (("at", spaces), ("with", tokens))
            for owner in owners
            for a in owner.get("actions", ())
        }

    def versions(self, kind: str) -> list[dict[str, Any]]:
        """Every card, token or space of the pack, then each one as a sticker changes or adds
        it."""
        edits = [
            e["item"]
            for st in self.ir.get("stickers", ())
            for e in st.get("edits", ())
            if e.get("kind") == kind and isinstance(e.get("item"), dict) and "name" in e["item"]
        ]
        if kind == "space":
            added = [
                s
                for st in self.ir.get("stickers", ())
                for b in st.get("boards", ())
                for s in b["spaces"]
            ]
            return [*(s for b in self.ir.get("boards", ()) for s in b["spaces"]), *added, *edits]
        # Designs that only an `on board` block declares or changes (its reserve monster, its
        # tokens) are what they are on that board.
        blocks = [
            d for b in self.ir.get("boards", ()) for d in self._board_games[b["name"]][kind + "s"]
        ]
        return [*self.ir.get(kind + "s", ()), *edits, *blocks]

    def rules(self, stickers: Iterable[str], board: str | None = None) -> dict[str, Any]:
        """The rule values of a game with these stickers on, on ``board`` (its `on board`
        blocks' rules; the first board when None)."""
        board = board if board in self.boards else self.first_board
        key = (*stickers, f"@{board}")
        if key not in self._rules:
            ir = for_board(self.ir, board) if board is not None else self.ir
            rules = default_rules()
            rules.update({k: v for k, v in (ir.get("rules") or {}).items() if k != "at"})
            try:
                changed = apply_stickers(ir, [n for n in key[:-1] if n in self.stickers])
                rules.update({k: v for k, v in changed.get("rules", {}).items() if k != "at"})
            except ValueError:
                pass  # a sticker whose slot is gone: the pack's own check reports it
            self._rules[key] = rules
        return self._rules[key]

    def assembly(self, board_ir: dict[str, Any], text: str) -> tuple[set[str] | None, str | None]:
        """The spaces of a modular board's assembly written as `modules` writes it (the
        board's own and those of the module sides placed, as `assemble` keeps them), or None
        and what is wrong with it."""
        key = (board_ir["name"], text)
        if key not in self._assemblies:
            got, problem = parse_assembly(board_ir, text)
            spaces = None
            if got is not None:
                placed = {(m, side) for _p, m, side in got}
                spaces = {
                    s["name"]
                    for s in board_ir["spaces"]
                    if "module" not in s or (s["module"], s["side"]) in placed
                }
            self._assemblies[key] = (spaces, problem)
        return self._assemblies[key]

    def board(self, name: str | None) -> dict[str, Any] | None:
        """A board of the pack by name (the first when None)."""
        return self.boards.get(name if name is not None else self.first_board or "")


def _sticker_spaces(facts: PackFacts, board: str, stickers: Iterable[str]) -> dict[str, str]:
    """Spaces the stickers add to a board, with the sticker adding each."""
    out = {}
    for name in stickers:
        for b in facts.stickers.get(name, {}).get("boards", ()):
            if b["name"] == board:
                out.update((s["name"], name) for s in b["spaces"])
    return out


def _removed(facts: PackFacts, stickers: Iterable[str]) -> set[str]:
    return {
        e["name"]
        for name in stickers
        for e in facts.stickers.get(name, {}).get("edits", ())
        if e.get("verb") == "remove" and e.get("kind") == "space"
    }


def space_problem(
    facts: PackFacts, space: str, sc: dict[str, Any], assembly_spaces: set[str] | None
) -> tuple[str, str] | None:
    """Why a space the pack has is not on the board a scenario plays (message and hint), or
    None when it is there."""
    board_ir = facts.board(sc.get("board"))
    if board_ir is None:
        return None
    board = board_ir["name"]
    stickers = sc.get("stickers", ())
    own = {s["name"] for s in board_ir["spaces"]}
    added = _sticker_spaces(facts, board, stickers)
    if space in _removed(facts, stickers):
        return (
            f"a sticker of this scenario removes space {space!r}",
            "name a space the stickered board still has",
        )
    if space in added:
        return None
    if space in own:
        if assembly_spaces is None or space in assembly_spaces:
            return None
        return (
            f"space {space!r} is on a module side the scenario's `modules` does not place",
            'place its module with `modules "..."`, or name a space of this assembly',
        )
    adders = sorted(
        name
        for name, st in facts.stickers.items()
        for b in st.get("boards", ())
        if b["name"] == board and any(s["name"] == space for s in b["spaces"])
    )
    if adders:
        return (
            f"space {space!r} is added by sticker {adders[0]!r}, which this scenario does not "
            "apply",
            f'add `sticker "{adders[0]}"` to the scenario',
        )
    others = [
        b["name"] for b in facts.boards.values() if any(s["name"] == space for s in b["spaces"])
    ]
    where = f" (it is on {', '.join(repr(o) for o in others)})" if others else ""
    return (
        f"space {space!r} is not on board {board!r}, the board this scenario plays{where}",
        f'play that board with `board "{others[0]}"`' if others else "name a space of the board",
    )


def _assembly_spaces(
    facts: PackFacts, sc: dict[str, Any], pending: Pending, out: list[Diagnostic]
) -> set[str] | None:
    """The spaces of the assembly `modules` names (None without a `modules` line), with a
    CW143 when it names none."""
    text = sc.get("modules")
    if text is None:
        return None
    board_ir = facts.board(sc.get("board"))
    if board_ir is None:
        return None
    if not is_modular(board_ir):
        out.append(
            Diagnostic(
                "CW143",
                f"board {board_ir['name']!r} is not made of modules, so it has no `modules` "
                "to choose",
                pending.modules_at,
                hint="remove the `modules` line, or play a modular board with `board NAME`",
            )
        )
        return None
    got, problem = facts.assembly(board_ir, text)
    if got is None:
        out.append(
            Diagnostic(
                "CW143",
                f"`modules` names no assembly of board {board_ir['name']!r}: {problem}",
                pending.modules_at,
                hint='write the assembly as `--modules` does: modules "1=Hydroponics, 2=Med Lab"',
            )
        )
        return None
    return got


def check_pending(facts: PackFacts, sc: dict[str, Any], pending: Pending) -> list[Diagnostic]:
    """The deferred checks of one compiled scenario."""
    out: list[Diagnostic] = []
    players = sc["players"]
    rules = facts.rules(sc.get("stickers", ()), sc.get("board"))
    low, high = rules.get("min_players", 1), rules.get("max_players", players)
    if "players" in pending.broken:
        players = 10**9  # no seat is past a player count the scenario failed to state
    elif not low <= players <= high:
        out.append(
            Diagnostic(
                "CW141",
                f"{players} player{'s' if players != 1 else ''}, but the pack's rules allow "
                f"{low} to {high}",
                pending.players_at,
                hint=f"write `players N` with N from {low} to {high}",
            )
        )
    for seat, span, what in pending.seats:
        if seat > players:
            out.append(
                Diagnostic(
                    "CW140",
                    f"{what} {seat} in a {players}-player scenario",
                    span,
                    hint=f"set `players {seat}`, or name a seat from 1 to {players}",
                )
            )
    out += _goal_seats(facts, pending, players)
    assembly = _assembly_spaces(facts, sc, pending, out)
    for space, span in pending.spaces if "board" not in pending.broken else ():
        problem = space_problem(facts, space, sc, assembly)
        if problem is not None:
            out.append(Diagnostic("CW142", problem[0], span, hint=problem[1]))
    out += _numbers(facts, sc, pending, rules)
    out += _pools(sc, pending)
    out += _destroyed(facts, pending)
    out += _on_board(facts, sc, pending)
    return out


def board_designs(ir: dict[str, Any]) -> dict[str, dict[str, set[str]]]:
    """The card, token and counter names of each board's game (`on board` blocks laid over
    the pack), by board name and kind ("card", "token", "counter"); empty for a pack without
    blocks."""
    if not has_sections(ir):
        return {}
    out = {}
    for b in ir.get("boards", ()):
        game = for_board(ir, b["name"])
        out[b["name"]] = {
            "card": {c["name"] for c in game["cards"]},
            "token": {t["name"] for t in game["tokens"]},
            "counter": {c["name"] for c in game.get("counters", ())},
        }
    return out


def _on_board(facts: PackFacts, sc: dict[str, Any], pending: Pending) -> list[Diagnostic]:
    """CW142 for a card, token or counter that the scenario's board does not have in play."""
    board = sc.get("board", facts.first_board)
    if "board" in pending.broken or board not in facts.designs:
        return []
    out = []
    for kind, name, span in pending.designs:
        if name in facts.designs[board][kind]:
            continue
        have = [b for b, names in facts.designs.items() if name in names[kind]]
        out.append(
            Diagnostic(
                "CW142",
                f"{kind} {name!r} is not in play on board {board!r}",
                span,
                hint=f"it is on board {', '.join(repr(b) for b in have)}: write `board "
                f"{have[0]}` in the scenario"
                if have
                else "the board's `on board` block removes it",
            )
        )
    return out


def _goal_seats(facts: PackFacts, pending: Pending, players: int) -> list[Diagnostic]:
    out = []
    for name, span, seat in pending.goals:
        owner = facts.goals[name]["player"]
        if seat is None and owner > players:
            out.append(
                Diagnostic(
                    "CW140",
                    f"goal {name!r} is player {owner}'s, and this is a {players}-player scenario",
                    span,
                    hint=f"set `players {owner}`, or name a goal of a seat the scenario has",
                )
            )
        elif seat is not None and owner != seat:
            out.append(
                Diagnostic(
                    "CW142",
                    f"goal {name!r} is player {owner}'s personal goal: player {seat} fills "
                    "none of its boxes",
                    span,
                    hint=f"expect player {owner} goal ... (only its owner fills its boxes)",
                )
            )
    return out


def _numbers(
    facts: PackFacts, sc: dict[str, Any], pending: Pending, rules: dict[str, Any]
) -> list[Diagnostic]:
    """Numbers against the rules of the scenario's game: rage, cubes, damage."""
    out = []
    track = len(rules.get("rage_track") or ()) or 1
    for value, span, how in pending.rage:
        if value > track:
            out.append(
                Diagnostic(
                    "CW141",
                    f"{how} {value}, but the rage track has {track} spaces",
                    span,
                    hint=f"name a rage space from 1 to {track}",
                )
            )
    cubes = rules.get("player_cubes")
    for seat, taken in sorted(pending.cubes.items()):
        total = 0
        for n, span, what in taken:
            total += n
            if cubes is not None and total > cubes:
                out.append(
                    Diagnostic(
                        "CW141",
                        f"player {seat} has {cubes} cubes, and this scenario takes {total} "
                        f"from them (the last {n} by `{what}`)",
                        span,
                        hint="bag, damage, clank and supply together hold a player's cubes",
                    )
                )
                break
    dragon = rules.get("dragon_cubes")
    for n, span in pending.black:
        if dragon is not None and n > dragon:
            out.append(
                Diagnostic(
                    "CW141",
                    f"the pack has {dragon} black cubes, not {n}",
                    span,
                    hint=f"put at most {dragon} black cubes in the bag",
                )
            )
    health = rules.get("health")
    for seat, n, span in pending.damage:
        if health is not None and n >= health and seat not in pending.knocked_out:
            out.append(
                Diagnostic(
                    "CW141",
                    f"damage {n} knocks player {seat} out (health is {health})",
                    span,
                    hint=f"at most damage {health - 1} for a player still in the game; "
                    "a knocked-out player says `status knocked out`",
                )
            )
    return out


def _pools(sc: dict[str, Any], pending: Pending) -> list[Diagnostic]:
    """A turn's pool is stated for the player whose turn the scenario starts with."""
    if sc.get("dealt") and "first" not in sc:
        return []  # the rules draw the first player: any seat may be it
    first = sc.get("first", 1)
    return [
        Diagnostic(
            "CW112",
            f"`{what}` is a turn's pool, and the scenario starts with player {first}'s turn, "
            f"not player {seat}'s",
            span,
            hint=f"state it for player {first}, or make player {seat} the `first player`",
        )
        for seat, what, span in pending.pools
        if seat != first
    ]


def _destroyed(facts: PackFacts, pending: Pending) -> list[Diagnostic]:
    out = []
    count: dict[str, int] = {}
    for name, span in pending.destroyed:
        count[name] = count.get(name, 0) + 1
        if count[name] == facts.copies.get(name, 1) + 1:
            have = facts.copies.get(name, 1)
            out.append(
                Diagnostic(
                    "CW141",
                    f"{name!r} has {have} {'copy' if have == 1 else 'copies'}, and this "
                    f"scenario destroys {count[name]}",
                    span,
                    hint="destroy a card at most once per copy",
                )
            )
    gone = {n for n, k in count.items() if k >= facts.copies.get(n, 1)}
    for name, span in pending.placed_cards:
        if name in gone:
            out.append(
                Diagnostic(
                    "CW142",
                    f"every copy of {name!r} is destroyed in this scenario, so it is not in "
                    "the game",
                    span,
                    hint="destroy fewer copies, or name another card",
                )
            )
    return out


def article(word: str) -> str:
    """The word with its article: "a market", "an artifact"."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _kind_of(kinds: set[str]) -> str:
    return " or ".join(sorted(k for k in kinds if k)) or "other"


def _choices(what: str, names: Iterable[str]) -> str:
    return f"{what}: " + (", ".join(sorted(names)) or "none")


def artifact_problem(facts: PackFacts, tok: str, span: Span) -> Diagnostic | None:
    """`artifact TOKEN` (a player's setup, an expectation): the token must be an artifact."""
    artifacts = [n for n, k in facts.token_kinds.items() if "artifact" in k]
    if tok in artifacts:
        return None
    return Diagnostic(
        "CW142",
        f"{tok!r} is {article(_kind_of(facts.token_kinds.get(tok, set())))} token, not an artifact",
        span,
        hint=near_miss(tok, artifacts) or _choices("artifacts", artifacts),
    )


def card_problem(facts: PackFacts, verb: str, name: str, span: Span) -> Diagnostic | None:
    """`fight CARD` needs a monster, `acquire CARD` a card to acquire (`play` any card)."""
    need = {"fight": "monster", "acquire": "acquire"}.get(verb)
    types = facts.card_types.get(name, set())
    if need is None or need in types:
        return None
    fits = [n for n, t in facts.card_types.items() if need in t]
    what = "an event" if "event" in types else "a monster" if "monster" in types else "a card"
    return Diagnostic(
        "CW142",
        f"{name!r} is {what}, so it cannot be {'fought' if verb == 'fight' else 'acquired'}",
        span,
        hint=near_miss(name, fits)
        or ("fight a monster" if verb == "fight" else "acquire a card that is no monster"),
    )


def token_problem(facts: PackFacts, verb: str, tok: str, span: Span) -> Diagnostic | None:
    """`buy TOKEN` needs a market item, `use TOKEN` a token with `use:` lines."""
    if verb == "buy":
        items = [n for n, k in facts.token_kinds.items() if "market" in k]
        if tok in items:
            return None
        kind = _kind_of(facts.token_kinds.get(tok, set()))
        return Diagnostic(
            "CW142",
            f"{tok!r} is {article(kind)} token, not a market item",
            span,
            hint=near_miss(tok, items) or _choices("market items", items),
        )
    if tok in facts.usable:
        return None
    return Diagnostic(
        "CW142",
        f"{tok!r} has no `use:` line, so it cannot be used",
        span,
        hint=near_miss(tok, facts.usable) or _choices("tokens with `use:` lines", facts.usable),
    )


def coach_problem(facts: PackFacts, space: str, span: Span) -> Diagnostic | None:
    """`coach SPACE` goes to a coach space."""
    coach = facts.coach_spaces
    if space in coach:
        return None
    return Diagnostic(
        "CW142",
        f"{space!r} is not a coach space",
        span,
        hint=near_miss(space, coach) or _choices("coach spaces", coach),
    )


def act_problem(facts: PackFacts, arg: str, span: Span) -> Diagnostic | None:
    """`act NAME` names one of the pack's `action` lines by its label's start."""
    labels = facts.act_labels
    if any(label.lower().startswith(arg.lower()) for label in labels):
        return None
    names = sorted(set(labels.values()))
    return Diagnostic(
        "CW107",
        f"no action named {arg!r} in the pack",
        span,
        hint=near_miss(arg, [*names, *labels])
        or (
            _choices("actions", names)
            if names
            else "the pack declares no `action` line on a space or a token"
        ),
    )


def counter_problem(facts: PackFacts, name: str, value: int, span: Span) -> Diagnostic | None:
    """A counter's value, from 0 to its maximum."""
    top = facts.counter_max.get(name)
    return _past(top, value, span, f"counter {name!r} goes up to {top}, not {value}")


def boxes_problem(facts: PackFacts, name: str, value: int, span: Span) -> Diagnostic | None:
    """Boxes of a personal goal, from 0 to its row's."""
    boxes = facts.goal_boxes.get(name)
    return _past(boxes, value, span, f"goal {name!r} has {boxes} boxes, not {value}")


def _past(top: int | None, value: int, span: Span, message: str) -> Diagnostic | None:
    # A number stated past ``top`` (None: the name is not known, reported elsewhere).
    if top is None or value <= top:
        return None
    return Diagnostic("CW141", message, span, hint=f"a number from 0 to {top}")

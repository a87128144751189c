"""The cards, tokens, board and rules of a pack, prepared once from the IR for many games.

Preparing is the slow part (board tables, trigger lists); a `Catalog` is read-only afterwards,
so one catalog serves every game of a simulation. Card and token definitions are shared by
all their copies: a deck is a list of `CardDef` references, compared by identity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import assembly as asm
from .board import Board, Way
from .content_actions import content_actions
from .effects.conditions import token_words
from .effects.triggers import CARD_MOMENTS
from .hooks import Hook, hooks
from .on_board import for_board
from .pools import Resource, declared
from .rules import default_rules
from .steps import plan

# A trigger ready to run: its condition node (or None) and its effect list.
Trigger = tuple[dict[str, Any] | None, list[dict[str, Any]]]


def _triggers(node: dict[str, Any], on: str) -> tuple[Trigger, ...]:
    return tuple((t.get("if"), t["effects"]) for t in node.get("triggers", ()) if t["on"] == on)


def _moments(node: dict[str, Any]) -> dict[str, tuple[Trigger, ...]]:
    """A card's lines for its own moves between zones (`when you discard this:`), by the
    event that moves it; empty for most cards."""
    out: dict[str, list[Trigger]] = {}
    for t in node.get("triggers", ()):
        event = CARD_MOMENTS.get(t["on"])
        if event is not None:
            out.setdefault(event, []).append((t.get("if"), t["effects"]))
    return {k: tuple(v) for k, v in out.items()}


def _plain_gains(lines: tuple[Trigger, ...]) -> tuple[tuple[str, int], ...] | None:
    """The (resource, amount) of each effect when every line is unconditional and every
    effect a `gain` without "per"; None otherwise."""
    out = []
    for cond, effects in lines:
        if cond is not None:
            return None
        for node in effects:
            if node.get("op") != "gain" or "per" in node:
                return None
            out.append((node["resource"], node["amount"]))
    return tuple(out)


@dataclass(eq=False, slots=True)
class CardDef:
    """One card design; every copy in every deck is this same object."""

    name: str
    deck: str
    type: str
    copies: int
    cost: int
    fight: int
    points: int
    points_per: dict[str, Any] | None
    tags: tuple[str, ...]
    dragon: bool
    danger: bool
    only_in: str | None
    play: tuple[Trigger, ...]
    acquire: tuple[Trigger, ...]
    defeat: tuple[Trigger, ...]
    arrive: tuple[Trigger, ...]
    use: tuple[Trigger, ...]
    # Lower-case name and tags: what "companion in play" or "trash a Burgle" matches.
    match: frozenset[str]
    # Triggers on events ("at the end of your turn"), live while the card is in play.
    hooks: tuple[Hook, ...] = ()
    # The play lines as (resource, amount) pairs when they are nothing but plain gains
    # (`play: +2 skill, +1 boots`), else None: most cards played are those, and
    # `Game.play_card` gives them without walking the effect nodes.
    gains: tuple[tuple[str, int], ...] | None = None
    # A reserve monster set aside at setup, until an effect flips it in.
    aside: bool = False
    # `not in FEATURE`: never fought or acquired on a space with that feature.
    not_in: str | None = None
    # Its lines for its own moves ("when you discard this"), by event: discard, trash, draw.
    moments: dict[str, tuple[Trigger, ...]] = field(default_factory=dict)

    @classmethod
    def from_ir(cls, c: dict[str, Any]) -> CardDef:
        """Build the definition from one IR card."""
        tags = tuple(t.lower() for t in c.get("tags", ()))
        return cls(
            name=c["name"],
            deck=c["deck"],
            type=c["type"],
            copies=c.get("copies", 1),
            cost=c.get("cost", 0),
            fight=c.get("fight", 0),
            points=c.get("points", 0),
            points_per=c.get("points_per"),
            tags=tags,
            dragon=bool(c.get("dragon")),
            danger=bool(c.get("danger")),
            only_in=c.get("only_in"),
            not_in=c.get("not_in"),
            play=_triggers(c, "play"),
            acquire=_triggers(c, "acquire"),
            defeat=_triggers(c, "defeat"),
            arrive=_triggers(c, "arrive"),
            use=_triggers(c, "use"),
            match=frozenset((c["name"].lower(), *tags)),
            hooks=hooks(f"card:{c['name']}", c.get("triggers", ())),
            gains=_plain_gains(_triggers(c, "play")),
            aside=bool(c.get("aside")),
            moments=_moments(c),
        )

    def __repr__(self) -> str:
        return f"<card {self.name}>"


@dataclass(eq=False, slots=True)
class TokenDef:
    """One token design (a secret, market item, artifact, mug, fruit...)."""

    name: str
    kind: str
    count: int
    points: int
    points_per: dict[str, Any] | None
    gold: int
    type: str
    grants: tuple[str, ...]
    returns: bool
    reveal: tuple[Trigger, ...]
    use: tuple[Trigger, ...]
    match: frozenset[str]
    # `action ...:` lines: actions its holder may take (see actions.ContentAction).
    actions: tuple[Any, ...] = ()
    # True for an artifact the pack did not declare (a space's value with no token of it).
    implicit: bool = False
    # Triggers on events, live while a player holds the token.
    hooks: tuple[Hook, ...] = ()
    # A cube token's `when drawn:` lines (drawn from the dragon bag in an attack).
    drawn: tuple[Trigger, ...] = ()
    # Lying on a path: its `when you cross this:` lines, what becomes of it when crossed
    # ("stays", "removed", "taken") and the extra boots crossing asks.
    cross: tuple[Trigger, ...] = ()
    crossed: str = "stays"
    extra_boots: int = 0

    @classmethod
    def from_ir(cls, t: dict[str, Any], implicit: bool = False) -> TokenDef:
        """Build the definition from one IR token."""
        kind = t["kind"]
        typ = t.get("type") or t["name"].lower()
        grants = tuple(g.lower() for g in t.get("grants", ()))
        return cls(
            name=t["name"],
            kind=kind,
            count=t.get("count", 1),
            points=t.get("points", 0),
            points_per=t.get("points_per"),
            gold=t.get("gold", 0),
            type=typ.lower(),
            grants=grants,
            returns=bool(t.get("returns")),
            reveal=_triggers(t, "reveal"),
            use=_triggers(t, "use"),
            match=token_words(t),
            actions=content_actions(t, "token", t["name"]),
            implicit=implicit,
            hooks=hooks(f"token:{t['name']}", t.get("triggers", ())),
            drawn=_triggers(t, "drawn"),
            cross=_triggers(t, "cross"),
            crossed=t.get("crossed", "stays"),
            extra_boots=int(t.get("extra_boots", 0)),
        )

    def __repr__(self) -> str:
        return f"<token {self.name}>"


def implicit_artifact(value: int) -> TokenDef:
    """An artifact token for a space whose value no declared artifact has."""
    return TokenDef.from_ir(
        {"name": f"Artifact {value}", "kind": "artifact", "count": 1, "points": value},
        implicit=True,
    )


# Boards of a modular board's assemblies a catalog keeps built (`Catalog.board_for`): every
# one of a board with a few dozen assemblies (Space has 48), a bounded share of one with more.
ASSEMBLIES_KEPT = 64


@dataclass(slots=True)
class Catalog:
    """A pack prepared for play: card and token definitions, one board, the rules."""

    name: str
    version: str
    cards: list[CardDef]
    tokens: list[TokenDef]
    board: Board
    rules: dict[str, Any]
    by_name: dict[str, CardDef] = field(default_factory=dict)
    # The pack's own triggers (`rules { when you escape: ... }`) by event.
    rule_hooks: dict[str, tuple[Hook, ...]] = field(default_factory=dict)
    # Events some card or token design watches: only these make the engine look at play
    # areas and held tokens.
    held_events: frozenset[str] = frozenset()
    # Those of them whose held triggers all fire for their owner's own doing (`after each
    # action`, a "you" trigger): only the things of the player an event is about are looked at.
    held_own: frozenset[str] = frozenset()
    # The steps of setup and the turn, by phase, after the pack's changes (steps.plan).
    steps: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    # The pack's counters (`counter NAME max N` in its rules) and their maxima.
    counters: dict[str, int] = field(default_factory=dict)
    # Ranked awards scored at the end (`most veins: 7 points, ...`; effects/ranking.py).
    awards: tuple[dict[str, Any], ...] = ()
    # Declared resources by name (the base five are not listed).
    resources: dict[str, Resource] = field(default_factory=dict)
    # Every effect op the pack's designs, spaces and rules use: the engine skips the
    # bookkeeping of ops the pack never uses (what a turn gained, for `bonus_on_gain`).
    ops: frozenset[str] = frozenset()
    # The contracts open in the Contracts row this game (a campaign opens them).
    contracts: tuple[dict[str, Any], ...] = ()
    # Personal goals by name (their triggers join the rules in a campaign game only), and the
    # pack's campaign data (`campaign { ... }`: the Associate Status track, the pack's named
    # tracks, what a player death marks and reads).
    goals: dict[str, dict[str, Any]] = field(default_factory=dict)
    campaign: dict[str, Any] = field(default_factory=dict)
    # A campaign game reads a passage when it happens (`read N`, a waypoint entered, a
    # contract completed): the pack's passages by number, and every contract by name (a
    # passage may open one during the game). Empty in a game that is no campaign game.
    passages: dict[int, dict[str, Any]] = field(default_factory=dict)
    all_contracts: dict[str, dict[str, Any]] = field(default_factory=dict)
    # What each sticker's lines do, as effects (its rule effects, its abilities' effects):
    # what a bot weighs when a passage's choice would apply it.
    sticker_effects: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # A modular board's IR (positions, joins, modules; interpreter/assembly.py), or None.
    # `board` is then its first assembly; `board_for` builds (once) the board of another.
    modular: dict[str, Any] | None = None
    ways: dict[str, Way] = field(default_factory=dict)
    assembled: dict[asm.Assembly, Board] = field(default_factory=dict)
    # The pack's word for gold when it declares one (`resource gold { word credits }`): what
    # the replay narrator and `play` call it.
    gold_word: str = "gold"
    # What the pack calls the antagonist who attacks (`dragon { name "Lord X"; word boss }`):
    # its name in a sentence ("the dragon attacks") and the word for its bag, cubes and
    # attacks ("dragon bag"). Display only: what the narrator, `play` and reports say.
    dragon_name: str = "the dragon"
    dragon_word: str = "dragon"
    # Made from ``cards`` and ``tokens`` (again by `dataclasses.replace`), once for every game
    # to deal from: the designs of each deck ("starting", "adventure", "reserve"), and every
    # copy of them and of each kind of token, in the pack's order.
    decks: dict[str, tuple[CardDef, ...]] = field(init=False, repr=False, compare=False)
    deck_copies: dict[str, tuple[CardDef, ...]] = field(init=False, repr=False, compare=False)
    token_copies: dict[str, tuple[TokenDef, ...]] = field(init=False, repr=False, compare=False)
    # Events some card has its own lines for (`when you draw this:`): only these make the
    # engine look at the cards that move.
    moments: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        decks: dict[str, list[CardDef]] = {}
        for c in self.cards:
            decks.setdefault(c.deck, []).append(c)
        self.decks = {k: tuple(v) for k, v in decks.items()}
        self.deck_copies = {
            k: tuple(c for c in v for _ in range(c.copies)) for k, v in decks.items()
        }
        tokens: dict[str, list[TokenDef]] = {}
        for t in self.tokens:
            tokens.setdefault(t.kind, []).extend([t] * t.count)
        self.token_copies = {k: tuple(v) for k, v in tokens.items()}
        self.moments = frozenset(e for c in self.cards for e in c.moments)

    @property
    def space_slots(self) -> int:
        """Most spaces any board of the pack has (any assembly of a modular board): the size
        of a table indexed by space number that must fit every game."""
        if self.modular is None:
            return len(self.board.spaces)
        by_side: dict[tuple[str, str], int] = {}
        own = 0
        for s in self.modular["spaces"]:
            if "module" in s:
                key = (s["module"], s["side"])
                by_side[key] = by_side.get(key, 0) + 1
            else:
                own += 1
        return own + sum(
            max((by_side.get((c["module"], c["side"]), 0) for c in p["choices"]), default=0)
            for p in self.modular["positions"]
        )

    def implicit_artifact(self, value: int) -> TokenDef:
        """An artifact token for a space whose value no declared artifact has (setup)."""
        return implicit_artifact(value)

    def board_for(self, assembly: asm.Assembly | None) -> Board:
        """The board of one assembly (the catalog's own board for None or a plain board).
        Boards are built once per assembly and shared, like the catalog: the last
        `ASSEMBLIES_KEPT` used are kept (a board with many assemblies would otherwise keep one
        board for every ship a long run met), the least recently used built again."""
        if self.modular is None or assembly is None:
            return self.board
        key = tuple(tuple(a) for a in assembly)
        board = self.assembled.pop(key, None)  # type: ignore[call-overload]
        if board is None:
            board = Board(asm.assemble(self.modular, key, share=True), self.ways)
            while len(self.assembled) >= ASSEMBLIES_KEPT:
                del self.assembled[next(iter(self.assembled))]
        self.assembled[key] = board  # type: ignore[index]  # the most recent last
        return board

    def choose_assembly(self, rng: Any, text: str | None = None) -> asm.Assembly | None:
        """The assembly a game plays on: the one ``text`` names (`assembly.parse_assembly`,
        ValueError when it names none), else one drawn with ``rng`` (None: a plain board).
        With ``text`` and an ``rng``, the draw is made all the same and set aside, so a seed
        deals the same game whether its assembly was drawn or written (a replay names the
        drawn one; `--modules` keeps the seed's deal)."""
        if self.modular is None:
            if text:
                raise ValueError(f"board {self.board.name!r} has no modules to choose")
            return None
        if text:
            if rng is not None:
                asm.random_assembly(self.modular, rng)
            got, problem = asm.parse_assembly(self.modular, text)
            if got is None:
                raise ValueError(problem)
            return got
        got = asm.random_assembly(self.modular, rng)
        if got is None:
            raise ValueError(f"board {self.board.name!r} has no assembly: too few modules")
        return got

    @property
    def starting(self) -> list[CardDef]:
        """Starting-deck designs."""
        return list(self.decks.get("starting", ()))

    @property
    def adventure(self) -> list[CardDef]:
        """Adventure-deck designs (cards, monsters and events)."""
        return list(self.decks.get("adventure", ()))

    @property
    def reserve(self) -> list[CardDef]:
        """Reserve designs: limited piles and the repeatable reserve monsters."""
        return list(self.decks.get("reserve", ()))


def _ops(v: Any) -> set[str]:
    """The op names of every effect node in an IR value (iteratively: IR may be deep)."""
    found: set[str] = set()
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            op = x.get("op")
            if isinstance(op, str):
                found.add(op)
            stack.extend(y for y in x.values() if isinstance(y, (dict, list)))
        elif isinstance(x, list):
            stack.extend(y for y in x if isinstance(y, (dict, list)))
    return found


def _board_ir(ir: dict[str, Any], board: int | str) -> dict[str, Any]:
    """The IR of the pack's board named or numbered ``board`` (ValueError: none such)."""
    boards = ir.get("boards") or []
    if not boards:
        raise ValueError("the pack has no board to play on")
    if isinstance(board, str):
        found = [b for b in boards if b["name"] == board]
        if not found:
            names = ", ".join(b["name"] for b in boards)
            raise ValueError(f"the pack has no board named {board!r} (its boards: {names})")
        return found[0]
    if isinstance(board, int) and not isinstance(board, bool) and 0 <= board < len(boards):
        return boards[board]
    names = ", ".join(f"{i} {b['name']}" for i, b in enumerate(boards))
    raise ValueError(f"the pack has no board {board!r} (its boards: {names})")


def _rule_hooks(ir: dict[str, Any]) -> dict[str, tuple[Hook, ...]]:
    """The pack's `rules` triggers by the event they watch."""
    rule_hooks: dict[str, list[Hook]] = {}
    # An empty rules trigger is a rule slot no sticker fills yet: it watches nothing.
    for h in hooks("rules", [t for t in ir.get("triggers", ()) if t.get("effects")]):
        rule_hooks.setdefault(h.event, []).append(h)
    return {k: tuple(v) for k, v in rule_hooks.items()}


def _starting_board(
    board_ir: dict[str, Any], ways: dict[str, Way]
) -> tuple[Board, dict[str, Any] | None, dict[asm.Assembly, Board]]:
    """The board play starts on, the modular board's IR (None for a fixed board) and the
    boards assembled so far: a modular board starts on its first assembly, kept among the
    assembled ones."""
    modular = board_ir if asm.is_modular(board_ir) else None
    first = asm.first_assembly(board_ir) if modular is not None else None
    if modular is not None and first is None:
        raise ValueError(f"board {board_ir['name']!r} has no assembly: too few modules")
    assembled: dict[asm.Assembly, Board] = {}
    if first is not None:
        board = assembled[first] = Board(asm.assemble(board_ir, first, share=True), ways)
    else:
        board = Board(board_ir, ways)
    return board, modular, assembled


def _campaign_entries(ir: dict[str, Any]) -> dict[str, Any]:
    """What a campaign game reads from the pack, empty outside one: its passages by number
    and each sticker's effects (its own and its abilities')."""
    if not ir.get("campaign_game"):
        return {"passages": {}, "sticker_effects": {}}
    return {
        "passages": {p["number"]: p for p in ir.get("passages", ())},
        "sticker_effects": {
            st["name"]: [
                *st.get("effects", ()),
                *(e for t in st.get("abilities", ()) for e in t["effects"]),
            ]
            for st in ir.get("stickers", ())
        },
    }


def prepare(ir: dict[str, Any], board: int | str = 0) -> Catalog:
    """Prepare a compiled pack for play on one of its boards (by index or name)."""
    board_ir = _board_ir(ir, board)
    # The pack as played on this board: its `on board` blocks laid over it (on_board.py).
    ir = for_board(ir, board_ir["name"])
    rules = default_rules()
    rules.update({k: v for k, v in (ir.get("rules") or {}).items() if k != "at"})
    cards = [CardDef.from_ir(c) for c in ir.get("cards", ())]
    tokens = [TokenDef.from_ir(t) for t in ir.get("tokens", ())]
    pack = ir.get("pack") or {}
    rule_hooks = _rule_hooks(ir)
    held = {h.event for d in (*cards, *tokens) for h in d.hooks}
    not_own = {h.event for d in (*cards, *tokens) for h in d.hooks if h.who != "you"}
    ways = {w["name"]: Way.from_ir(w) for w in ir.get("ways", ())}
    start, modular, assembled = _starting_board(board_ir, ways)
    return Catalog(
        name=pack.get("name", "?"),
        version=pack.get("version", ""),
        cards=cards,
        tokens=tokens,
        board=start,
        rules=rules,
        by_name={c.name.lower(): c for c in cards},
        rule_hooks=rule_hooks,
        held_events=frozenset(held),
        held_own=frozenset(held - not_own),
        steps=plan(ir.get("steps", [])),
        counters={c["name"]: c["max"] for c in ir.get("counters", ())},
        awards=tuple(ir.get("awards", ())),
        resources=declared(ir),
        ops=frozenset(_ops(ir)),
        contracts=tuple(
            c for c in ir.get("contracts", ()) if c["name"] in ir.get("open_contracts", ())
        ),
        goals={g["name"]: g for g in ir.get("goals", ())},
        campaign=ir.get("campaign") or {},
        all_contracts={c["name"]: c for c in ir.get("contracts", ())},
        **_campaign_entries(ir),
        modular=modular,
        ways=ways,
        assembled=assembled,
        gold_word=next(
            (w for w, name in ir.get("resource_aliases", {}).items() if name == "gold"), "gold"
        ),
        dragon_name=ir.get("dragon", {}).get("name", "the dragon"),
        dragon_word=ir.get("dragon", {}).get("word", "dragon"),
    )

"""A scenario's statements, each a record (interpreter/scenario_words.py): the setup
statements with the run steps that turn a freshly set-up game into the scenario's position,
and the script's steps (run by matching the game's decision labels, interpreter/scenario.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .catalog import Catalog
from .game import BLACK, Game
from .scenario_checks import ship
from .scenario_words import SETUP_RUNS, setup_run, verb
from .state import ESCAPED, KNOCKED_OUT, ON_CLOCK, PlayerState

# Setup statements, in the order the compiler lists them (the editor grammar, completion).
for _words, _forms, _doc, _example, *_said in (
    ("players", ("players N",), "number of players (default 2)", "players 3"),
    ("seed", ("seed N",), "the game's random seed (default 0)", "seed 7"),
    (
        "rage",
        ("rage N",),
        "the rage marker on space N of the track (from 1)",
        "rage 5",
    ),
    ("board", ("board NAME",), "play on that board of the pack (default: the first)", "board B"),
    (
        "modules",
        ('modules "POS=SIDE, ..."',),
        "a modular board's assembly, as `--modules` writes it",
        'modules "1=Hydroponics, 2=Med Lab"',
    ),
    ("as dealt", ("as dealt",), "keep the position the setup rules made", "as dealt"),
    (
        "first player",
        ("first player N",),
        "player N takes the first turn; play goes clockwise from there",
        "first player 2",
    ),
    ("row", ("row CARD...",), "the adventure row holds exactly these cards", "row Dryad"),
    (
        "adventure",
        ("adventure CARD...", "adventure deck CARD...", "adventure discard CARD..."),
        "cards on top of the adventure deck, the first listed on top; `deck`: the deck holds "
        "exactly these; `discard`: the discard pile holds these",
        "adventure deck none",
        ("adventure deck", "adventure discard"),
    ),
    ("reserve", ("reserve CARD N",), "N cards left in that reserve pile", "reserve Explore 0"),
    (
        "minor secrets",
        ("minor secrets TOKEN...",),
        "the minor secrets of the bank, the first listed drawn first (`none`: empty)",
        "minor secrets none",
    ),
    (
        "major secrets",
        ("major secrets TOKEN...",),
        "the same for the bank's spare major secrets",
        "major secrets none",
    ),
    (
        "place",
        ("place TOKEN on SPACE", "place nothing on SPACE", "place TOKEN on tunnel A -- B"),
        "a token lies on that space (replacing one of its kind), or on the path joining A and B",
        'place "Greater Treasure" on "Stonecutter\'s Pass"',
    ),
    ("block", ("block tunnel A -- B",), "the path joining A and B is blocked", "block path A -- B"),
    (
        "switch",
        ("switch NAME N",),
        "the board's switch NAME is in state N (its paths of other states closed)",
        "switch dial 2",
    ),
    (
        "bag",
        ("bag black N", "bag player SEAT N"),
        "the dragon bag holds N black cubes, and N cubes of that player",
        "bag black 3",
    ),
    (
        "draws",
        ("draws CUBE...",),
        "the next cubes drawn from the bag, in order: `black`, a player number, a cube token",
        "draws black 1",
    ),
    (
        "rolls",
        ("rolls N...",),
        "what the next random outcomes come up: the N-th option of each, counted from 1",
        "rolls 2 1",
    ),
    ("counter", ("counter NAME N",), "the counter stands at N", "counter doom 2"),
    ("sticker", ("sticker NAME",), "a campaign's sticker is on", 'sticker "Rope Bridge"'),
    ("contract", ("contract NAME",), "the contract is open in the Contracts row", "contract X"),
    (
        "fetch",
        ("fetch N",),
        "Cardporium card N has been fetched into the adventure deck",
        "fetch 3",
    ),
    ("destroy", ("destroy CARD",), "one copy of the card has been destroyed", "destroy Stumble"),
    (
        "campaign",
        ("campaign",),
        "a campaign game: personal goals mark their boxes, and the post-game steps run",
        "campaign",
    ),
    ("patron", ("patron NAME",), "the patron's rules hold for this game", "patron Bob"),
    (
        "goal",
        ("goal NAME N",),
        "N boxes of that personal goal were filled in earlier games",
        'goal "Monster Hunter" 1',
    ),
    ("player", ("player N { ... }",), "one player's position", "player 1 { at Hall; gold 3 }"),
):
    verb(_words, "setup", _forms, _doc, _example, said=tuple(*_said))

# Script steps, answered from the game's decisions (an action's label, a question's option).
for _words, _forms, _doc, _example, _arg in (
    ("play", ("play CARD",), "play a card from hand", "play Burgle", "card"),
    (
        "acquire",
        ("acquire CARD",),
        "acquire a card from the row or the reserve",
        "acquire Dryad",
        "card",
    ),
    ("fight", ("fight CARD",), "fight a monster of the row or the reserve", "fight Goblin", "card"),
    (
        "move",
        ("move SPACE", "move SPACE spending N swords"),
        "move along a path (spending exactly N swords on its monster icons)",
        'move "Whispering Wood"',
        "move",
    ),
    ("buy", ("buy TOKEN",), "buy that market item", "buy Canoe", "token"),
    ("coach", ("coach SPACE",), "hire a coach to that coach space", "coach Southmarch", "coach"),
    (
        "take artifact",
        ("take artifact",),
        "take the artifact of the player's space",
        "take artifact",
        None,
    ),
    ("use", ("use TOKEN",), "use a held token (a potion...)", "use Potion", "token"),
    (
        "act",
        ("act NAME",),
        "take a pack's `action` line by its name or its label",
        "act pray",
        "words",
    ),
    ("end turn", ("end turn",), "end the turn (legal only with an empty hand)", "end turn", None),
    (
        "answer",
        ("answer TEXT", "answer N"),
        "pick the option whose label contains TEXT, or the Nth option (from 1)",
        'answer "discard Stumble"',
        "answer",
    ),
    ("yes", ("yes",), "answer a `may` question yes", "yes", None),
    ("no", ("no",), "answer a `may` question no", "no", None),
):
    verb(_words, "step", _forms, _doc, _example, arg=_arg)

verb(
    "expect",
    "expect",
    ("expect FACT VALUE", "expect player N FACT VALUE"),
    "states a fact that must hold at this point of the script",
    "expect player 1 clank 1",
)


def card_def(cat: Catalog, name: str) -> Any:
    """A card design of the catalog by its name."""
    return cat.by_name[name.lower()]


def _token(cat: Catalog, name: str) -> Any:
    for t in cat.tokens:
        if t.name.lower() == name.lower():
            return t
    raise KeyError(name)


def _take_from(pile: list[Any], card: Any) -> None:
    """Remove one copy of ``card`` from a pile when it is there (kept conservation-friendly)."""
    if card in pile:
        pile.remove(card)


@setup_run()
def _tidy(game: Game, sc: dict[str, Any]) -> None:
    """Without `as dealt`: player 1 (or the `first player`) about to act, in seat order,
    with an empty Clank! area."""
    if sc.get("dealt"):
        return
    n = len(game.players)
    first = sc.get("first", 1) - 1
    game.order = [(first + k) % n for k in range(n)]
    game.active = game.players[first]
    # A scenario starts from a quiet Clank! area: the starting Clank! depends on a random
    # first player, so a scenario that wants cubes there says so with `clank N`.
    for p in game.players:
        p.supply += p.area
        p.area = 0


@setup_run("rage")
def _rage(game: Game, sc: dict[str, Any]) -> None:
    if "rage" in sc:
        game.rage = max(0, min(sc["rage"] - 1, len(game.rules["rage_track"]) - 1))


@setup_run("counter")
def _counters(game: Game, sc: dict[str, Any]) -> None:
    for name, value in sc.get("counters", {}).items():
        game.counters[name] = 0
        game.move_counter(name, value)


@setup_run("row")
def _row(game: Game, sc: dict[str, Any]) -> None:
    if "row" in sc:
        game.adventure_deck.extend(game.row)
        game.row = []
        for name in sc["row"]:
            card = card_def(game.catalog, name)
            _take_from(game.adventure_deck, card)
            game.row.append(card)


@setup_run("adventure", "adventure deck", "adventure discard")
def _adventure(game: Game, sc: dict[str, Any]) -> None:
    cat = game.catalog
    if "adventure_deck" in sc:
        # Listed top first; the top of a pile is the end of its list.
        game.adventure_deck = [card_def(cat, name) for name in reversed(sc["adventure_deck"])]
    elif "adventure" in sc and not sc.get("dealt"):
        # The first name listed is the top card: the top of a pile is the end of its list.
        for name in reversed(sc["adventure"]):
            card = card_def(cat, name)
            _take_from(game.adventure_deck, card)
            game.adventure_deck.append(card)
    if "adventure_discard" in sc:
        game.adventure_discard = [card_def(cat, name) for name in sc["adventure_discard"]]


@setup_run("reserve")
def _reserve(game: Game, sc: dict[str, Any]) -> None:
    for name, left in sc.get("reserve", {}).items():
        game.reserve[card_def(game.catalog, name)] = left


@setup_run("minor secrets", "major secrets")
def _banks(game: Game, sc: dict[str, Any]) -> None:
    for size in ("minor", "major"):
        if f"{size}_bank" in sc:
            # The first listed is drawn first: the bank is drawn from the end of its list.
            bank = [_token(game.catalog, name) for name in reversed(sc[f"{size}_bank"])]
            setattr(game, f"{size}_bank", bank)


def _path_index(game: Game, ends: list[str]) -> int:
    a, b = (_space_index(game, x) for x in ends)
    path = game.board.path_between(a, b)
    if path is None:
        raise ValueError(f"no path joins {ends[0]} and {ends[1]} on this game's board")
    return path


@setup_run("place")
def _places(game: Game, sc: dict[str, Any]) -> None:
    for placed in sc.get("place", []):
        space = _space_index(game, placed["space"])
        if placed["token"] is None:
            game.space_tokens[space] = []
            game.space_artifact[space] = None
            continue
        tok = _token(game.catalog, placed["token"])
        if tok.kind == "artifact":
            game.space_artifact[space] = tok
        else:
            game.space_tokens[space] = [tok]


@setup_run("place", "block", "switch")
def _paths(game: Game, sc: dict[str, Any]) -> None:
    """The scenario's tokens on paths and blocked paths. A path the scenario lays tokens on
    holds those only: what the setup laid there (a path's `holds`, a setup step's random
    placement) goes back to the supply, so a scenario fixes what lies where."""
    laid: set[int] = set()
    for placed in sc.get("place_on_path", ()):
        tok = _token(game.catalog, placed["token"])
        path = _path_index(game, placed["path"])
        if path not in laid:
            laid.add(path)
            for old in game.path_tokens.pop(path, ()):
                game.token_supply[old] = game.token_supply.get(old, 0) + 1
        if game.token_supply.get(tok):
            game.token_supply[tok] -= 1  # from the supply while it lasts, as a line places
        game.path_tokens.setdefault(path, []).append(tok)
    for name, state in sc.get("switches", {}).items():
        if name not in game.board.switches:
            raise ValueError(f"no path of this game's board has switch {name!r}")
        game.switches[name] = state
    for ends in sc.get("block", ()):
        path = _path_index(game, ends)
        if path not in game.closed_paths:
            game.closed_paths.append(path)
    game.closed_paths.sort()
    game.reshape()


@setup_run("bag")
def _bag(game: Game, sc: dict[str, Any]) -> None:
    if "bag" not in sc:
        return
    for p in game.players:
        p.supply += game.bag.count(p.seat)
    game.bag = [BLACK] * sc["bag"].get("black", 0)
    for seat, k in sc["bag"].items():
        if seat == "black":
            continue
        p = game.players[int(seat) - 1]
        k = min(k, p.supply)
        p.supply -= k
        game.bag.extend([p.seat] * k)


@setup_run("draws")
def _draws(game: Game, sc: dict[str, Any]) -> None:
    if "draws" not in sc:
        return
    tokens = game.catalog.tokens
    game.stacked_draws = [
        BLACK
        if d == "black"
        # A cube token is -2 - its index among the pack's tokens.
        else -2 - tokens.index(_token(game.catalog, d["token"]))
        if isinstance(d, dict)
        else d - 1
        for d in sc["draws"]
    ]


@setup_run("rolls")
def _rolls(game: Game, sc: dict[str, Any]) -> None:
    if "rolls" in sc:
        game.stacked_rolls = [k - 1 for k in sc["rolls"]]


# The setup statements in the order they change the position, each with the statements
# (their first words) it sets up: a failure while setting one up is reported at its line.
def _player(game: Game, entry: dict[str, Any]) -> None:
    """One `player N { ... }` block."""
    cat = game.catalog
    p = game.players[entry["seat"] - 1]
    zones = ("hand", "deck", "discard", "in_play")
    if any(z in entry for z in zones):
        for zone in zones:
            cards = [card_def(cat, name) for name in entry.get(zone, ())]
            if zone == "deck":
                cards.reverse()  # listed top first; the top is the end of the list
            setattr(p, "play" if zone == "in_play" else zone, cards)
    if "space" in entry:
        p.pos = _space_index(game, entry["space"])
    if "gold" in entry:
        p.gold = entry["gold"]
    for name, n in entry.get("pools", {}).items():
        if not cat.resources[name].per_turn:
            p.pools[name] = n
    for key in ("damage", "clank"):
        if key in entry:
            k = min(entry[key], p.supply)
            p.supply -= k
            if key == "damage":
                p.damage += k
            else:
                p.area += k
    if "supply" in entry:
        # Cubes beyond the stated supply are put aside (out of this scenario's game).
        p.supply = entry["supply"]
    if "tokens" in entry:
        p.tokens = [_token(cat, name) for name in entry["tokens"]]
    if "artifact" in entry:
        p.artifact = _token(cat, entry["artifact"])
    if "status" in entry:
        _status(game, p, entry["status"])


def _status(game: Game, p: PlayerState, status: str) -> None:
    p.status = {"escaped": ESCAPED, "knocked out": KNOCKED_OUT}.get(status, ON_CLOCK)
    if p.status != ON_CLOCK:
        # Players listed off the clock left in the order they are listed.
        game.left.append(p.seat)
    if p.status == ESCAPED:
        # An escaped player's Clank! left the area with them.
        p.supply += p.area
        p.area = 0


@dataclass
class Doing:
    """What a scenario run is carrying out, and the line of the scenario that says it: where
    a failure inside the engine is reported."""

    at: dict[str, Any]
    what: str


def setup_position(game: Game, sc: dict[str, Any], doing: Doing | None = None) -> None:
    """Turn a freshly set-up game into the scenario's position.

    Without `as dealt`, player 1 (or the `first player`) is about to act, in seat order, with
    an empty Clank! area. With it, the game stays as the rules set it up (turn order, starting
    Clank!, the dealt row and its Arrive texts) and only what the scenario states changes.
    ``doing`` follows the statement being set up.
    """
    doing = doing or Doing(sc["at"], "setting up the game")
    lines = sc.get("setup_at", {})
    for words, step in SETUP_RUNS:
        said = [w for w in words if w in lines]
        doing.at = lines[said[0]] if said else sc["at"]
        doing.what = f"setting up `{said[0]}`" if said else "setting up the game"
        step(game, sc)
    for entry in sc["setup"]:
        doing.at, doing.what = entry["at"], f"setting up `player {entry['seat']}`"
        _player(game, entry)


def _space_index(game: Game, name: str) -> int:
    """The index of a space a scenario names; ValueError when this game's board (a modular
    board's assembly) lacks it."""
    at = game.board.index.get(name)
    if at is None:
        raise ValueError(f"space {name!r} is not on this game's board{ship(game)}")
    return at

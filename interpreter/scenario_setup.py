"""A scenario's statements, each a record (interpreter/scenario_words.py): the setup
statements with the run steps that turn a freshly set-up game into the scenario's position,
and the script's steps (run by matching the game's decision labels, interpreter/scenario.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .catalog import Catalog
from .scenario_checks import ship  # and registers every fact: dsl/ reads them through here
from .scenario_words import FACTS, SETUP_RUNS, VERBS, Fact, Verb, facts, setup_run, verb, verbs
from .state import BLACK, ESCAPED, KNOCKED_OUT, ON_CLOCK, PlayerState
from .state import GameCore as Game

# The records as the run side registers them (the statements here, the facts in
# scenario_checks.py): what the scenario compiler reads, without the game's modules.
__all__ = [
    "FACTS",
    "VERBS",
    "Doing",
    "Fact",
    "Verb",
    "card_def",
    "facts",
    "setup_position",
    "verbs",
]

# Setup statements, in the order the compiler lists them (the editor grammar, completion),
# then the script's steps (answered from the game's decisions: an action's label, a question's
# option), then `expect`. Each form is listed with its meaning in docs/scenarios.md.
verb(
    "players",
    "setup",
    (("players N", "number of players (default 2)"),),
    "players 3",
)
verb(
    "seed",
    "setup",
    (("seed N", "the game's random seed (default 0)"),),
    "seed 7",
)
verb(
    "rage",
    "setup",
    (
        (
            "rage N",
            "the rage marker on space N of the track (from 1; default: as set up for the player "
            "count)",
        ),
    ),
    "rage 5",
)
verb(
    "board",
    "setup",
    (("board NAME", "play on that board of the pack (default: the first)"),),
    "board B",
)
verb(
    "modules",
    "setup",
    (
        (
            'modules "POS=SIDE, ..."',
            "a modular board's assembly, as `--modules` writes it (default: drawn from the seed)",
        ),
    ),
    'modules "1=Hydroponics, 2=Med Lab"',
)
verb(
    "as dealt",
    "setup",
    (("as dealt", "keep the position the setup rules made (see below)"),),
    "as dealt",
)
verb(
    "first player",
    "setup",
    (("first player N", "player N takes the first turn; play goes clockwise from there"),),
    "first player 2",
)
verb(
    "row",
    "setup",
    (("row CARD...", "the adventure row holds exactly these cards"),),
    "row Dryad",
)
verb(
    "adventure",
    "setup",
    (
        ("adventure CARD...", "these cards on top of the adventure deck, the first listed on top"),
        (
            "adventure deck CARD...",
            "the adventure deck holds exactly these (`adventure deck none`: empty)",
        ),
        ("adventure discard CARD...", "the adventure discard pile holds these"),
    ),
    "adventure deck none",
    said=("adventure deck", "adventure discard"),
)
verb(
    "reserve",
    "setup",
    (("reserve CARD N", "N cards left in that reserve pile"),),
    "reserve Explore 0",
)
verb(
    "minor secrets",
    "setup",
    (
        (
            "minor secrets TOKEN...",
            "the minor secrets of the bank, the first listed drawn first (`none`: empty)",
        ),
    ),
    "minor secrets none",
)
verb(
    "major secrets",
    "setup",
    (("major secrets TOKEN...", "the same for the bank's spare major secrets"),),
    "major secrets none",
)
verb(
    "place",
    "setup",
    (
        (
            "place TOKEN on SPACE",
            "the token lies on that space (replacing one of its kind: a secret, an artifact...)",
        ),
        ("place nothing on SPACE", "the space holds no token"),
        (
            "place TOKEN on tunnel A -- B",
            "the token lies on the path joining A and B (`path A -- B` works too), in place of "
            "what the setup laid there",
        ),
    ),
    'place "Greater Treasure" on "Stonecutter\'s Pass"',
)
verb(
    "block",
    "setup",
    (("block tunnel A -- B", "the path joining A and B is blocked"),),
    "block path A -- B",
)
verb(
    "switch",
    "setup",
    (
        (
            "switch NAME N",
            "the board's switch NAME is in state N (its paths of other states closed)",
        ),
    ),
    "switch dial 2",
)
verb(
    "bag",
    "setup",
    (
        ("bag black N", "the dragon bag holds N black cubes (and no player cubes unless stated)"),
        ("bag player SEAT N", "and N cubes of that player (taken from their supply)"),
    ),
    "bag black 3",
)
verb(
    "draws",
    "setup",
    (
        (
            "draws CUBE...",
            "the next cubes drawn from the bag, in order: `black`, a player number, or a cube "
            "token's name (a `cube N` token in the bag)",
        ),
    ),
    "draws black 1",
)
verb(
    "rolls",
    "setup",
    (
        (
            "rolls N...",
            "what the next random outcomes come up (`roll (...)`, `at random (...)`): the N-th "
            "option of each, in order, counted from 1; then the seed rolls (a roll during an `as "
            "dealt` setup is the seed's)",
        ),
    ),
    "rolls 2 1",
)
verb(
    "counter",
    "setup",
    (
        (
            "counter NAME N",
            "the pack's counter stands at N (from 0 to its maximum; a counter the scenario's "
            "board does not keep is CW142)",
        ),
    ),
    "counter doom 2",
)
verb(
    "sticker",
    "setup",
    (("sticker NAME", "a campaign's sticker is on (docs/campaign.md)"),),
    'sticker "Rope Bridge"',
)
verb(
    "contract",
    "setup",
    (("contract NAME", "the contract is open in the Contracts row"),),
    "contract X",
)
verb(
    "fetch",
    "setup",
    (("fetch N", "Cardporium card N has been fetched into the adventure deck"),),
    "fetch 3",
)
verb(
    "destroy",
    "setup",
    (("destroy CARD", "one copy of the card has been destroyed"),),
    "destroy Stumble",
)
verb(
    "campaign",
    "setup",
    (
        (
            "campaign",
            "a campaign game: personal goals mark their boxes, and once the game is scored the "
            "post-game steps run (expectations after the game's end read what they marked)",
        ),
    ),
    "campaign",
)
verb(
    "patron",
    "setup",
    (("patron NAME", "the patron's rules hold for this game"),),
    "patron Bob",
)
verb(
    "goal",
    "setup",
    (("goal NAME N", "N boxes of that personal goal were filled in earlier games"),),
    'goal "Monster Hunter" 1',
)
verb(
    "player",
    "setup",
    (("player N { ... }", "one player's position (below)"),),
    "player 1 { at Hall; gold 3 }",
)
verb(
    "play",
    "step",
    (("play CARD", "play a card from hand"),),
    "play Burgle",
    arg="card",
)
verb(
    "acquire",
    "step",
    (("acquire CARD", "acquire a card from the row or the reserve"),),
    "acquire Dryad",
    arg="card",
)
verb(
    "fight",
    "step",
    (("fight CARD", "fight a monster of the row or the reserve"),),
    "fight Goblin",
    arg="card",
)
verb(
    "move",
    "step",
    (
        ("move SPACE", "move along a path (spending as many swords as help on monster icons)"),
        ("move SPACE spending N swords", "move, spending exactly N swords on its monster icons"),
    ),
    'move "Whispering Wood"',
    arg="move",
)
verb(
    "buy",
    "step",
    (("buy TOKEN", "buy that market item (of several alike, name the one on offer)"),),
    "buy Canoe",
    arg="token",
)
verb(
    "coach",
    "step",
    (("coach SPACE", "hire a coach to that coach space"),),
    "coach Southmarch",
    arg="coach",
)
verb(
    "take artifact",
    "step",
    (("take artifact", "take the artifact of the player's space"),),
    "take artifact",
)
verb(
    "use",
    "step",
    (("use TOKEN", "use a held token (a potion...)"),),
    "use Potion",
    arg="token",
)
verb(
    "act",
    "step",
    (
        (
            "act NAME",
            "take a pack's `action` line by its name (`act pray`) or its label (`act \"act at "
            'Shrine"`, `act "climb with Grappling Hook"`)',
        ),
    ),
    "act pray",
    arg="words",
)
verb(
    "end turn",
    "step",
    (("end turn", "end the turn (legal only with an empty hand)"),),
    "end turn",
)
verb(
    "answer",
    "step",
    (
        (
            "answer TEXT",
            'pick the option whose label contains TEXT (`answer "teleport to Millbrook"`, `answer '
            '"take 1 damage"`)',
        ),
        ("answer N", "pick the Nth option (from 1)"),
    ),
    'answer "discard Stumble"',
    arg="answer",
)
verb(
    "yes",
    "step",
    (("yes", "answer a `may` question: yes"),),
    "yes",
)
verb(
    "no",
    "step",
    (("no", "answer a `may` question: no"),),
    "no",
)
verb(
    "expect",
    "expect",
    (
        ("expect FACT VALUE", "states a fact that must hold at this point of the script"),
        ("expect player N FACT VALUE", "states a fact that must hold at this point of the script"),
    ),
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

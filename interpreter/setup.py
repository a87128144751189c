"""Game setup by player count, in the order of the rulebook's Game Setup section."""

from __future__ import annotations

from typing import Any

from .context import Ctx
from .rng import below, shuffle
from .rules import for_players

# The game these steps act on (`interpreter.game.Game`): the steps are records the catalog
# plans, below the engine, so they reach it through its API, as the effect handlers do.
Game = Any
TokenDef = Any


def _take_for_space(game: Game, majors: list[TokenDef], what: str) -> TokenDef | None:
    """One token matching ``what`` for a space's `holds`: secrets from the top of their
    shuffled piles (majors, then the minor bank), other tokens from the supply."""
    for pile in (majors, game.minor_bank):
        for i in range(len(pile) - 1, -1, -1):
            if what in pile[i].match:
                return pile.pop(i)
    for tok, left in game.token_supply.items():
        if left and what in tok.match:
            game.token_supply[tok] = left - 1
            return tok
    return None


def first_player(game: Game) -> None:
    """Setup 9, drawn first so that every later step can name the first player: a random
    first player (a scenario may name one; the draw still happens, so the seed deals the
    same), and the seating order from them."""
    n = len(game.players)
    first = below(game.rng, n)
    if game.first_player is not None:
        first = game.first_player
    game.order = [(first + k) % n for k in range(n)]
    game.active = game.players[first]


def bank(game: Game) -> None:
    """Setup 4: the minor secrets shuffled face down into the bank."""
    game.minor_bank = list(game.catalog.token_copies.get("minor", ()))
    shuffle(game.rng, game.minor_bank)


def dragon(game: Game) -> None:
    """Setup 5: the black cubes into the dragon bag, the marker on its rage space."""
    game.bag = [-1] * game.rules["dragon_cubes"]
    # Placed, not advanced: no `when the rage marker advances` line fires for setup.
    start = for_players(game.rules["rage_start"], len(game.players)) - 1
    game.rage = max(0, min(len(game.rules["rage_track"]) - 1, start))


def reserve_and_row(game: Game) -> None:
    """Setup 6: reserve piles (monsters there are never used up) and the adventure row,
    dealt without events or dragon-attack cards (set aside, then shuffled back)."""
    rng = game.rng
    for c in game.catalog.decks.get("reserve", ()):
        if c.aside:
            continue  # out of play until an effect flips it in (`flip OLD to NEW`)
        if c.type == "monster":
            game.reserve_monsters.append(c)
        else:
            game.reserve[c] = c.copies
    game.adventure_deck = list(game.catalog.deck_copies.get("adventure", ()))
    shuffle(rng, game.adventure_deck)
    # Cards a scenario stacks on top, listed top first (the top of a pile is its end).
    for card in reversed(game.stacked_adventure):
        if card in game.adventure_deck:
            game.adventure_deck.remove(card)
        game.adventure_deck.append(card)
    aside = []
    while len(game.row) < game.rules["row_size"] and game.adventure_deck:
        card = game.adventure_deck.pop()
        if card.type == "event" or card.dragon:
            aside.append(card)
        else:
            game.row.append(card)
    if aside:
        game.adventure_deck.extend(aside)
        shuffle(rng, game.adventure_deck)


def tokens(game: Game) -> None:
    """Setup 7: mugs, market items and cube tokens in the supply; what each space holds (a
    major secret from the shuffled pile, extras to the bank; other tokens from the supply);
    artifacts on their values' spaces, the others back in the box."""
    cat, board = game.catalog, game.board
    for t in cat.tokens:
        if t.kind in ("market", "mug", "other", "fruit", "cube"):
            game.token_supply[t] = t.count
    majors = list(cat.token_copies.get("major", ()))
    shuffle(game.rng, majors)
    for sp in board.holding:
        here = game.space_tokens[sp.index]
        for what, k in sp.holds:
            for _ in range(k):
                tok = _take_for_space(game, majors, what)
                if tok is not None:
                    here.append(tok)
    game.major_bank = majors
    laid = board.base.path_holds
    for k, what, n in laid:
        for _ in range(n):
            game.place_on_path(k, what)
    artifacts = list(cat.token_copies.get("artifact", ()))
    for i in board.artifact_spaces:
        sp = board.spaces[i]
        tok = next((t for t in artifacts if t.points == sp.artifact), None)
        if tok is None:
            tok = cat.implicit_artifact(sp.artifact)
        else:
            artifacts.remove(tok)
        game.space_artifact[sp.index] = tok
    game.box.extend(artifacts)


def players(game: Game) -> None:
    """Setup 8 and 9: cubes, figures on HQ, shuffled starting decks; starting Clank! by
    seat from the first player."""
    rules = game.rules
    starting = game.catalog.deck_copies.get("starting", ())
    clank = rules["starting_clank"]
    for k, seat in enumerate(game.order):
        p = game.players[seat]
        p.supply = rules["player_cubes"]
        p.pos = game.board.hq
        p.deck = list(starting)
        shuffle(game.rng, p.deck)
        game.clank(p, clank[k] if k < len(clank) else 0)


def hands(game: Game) -> None:
    """Setup 11: opening hands, in seating order."""
    for seat in game.order:
        game.draw(game.players[seat], game.rules["hand_size"], moments=False)


def arrive(game: Game) -> None:
    """The arrive texts of the starting row happen before the first turn."""
    for card in list(game.row):
        if card.arrive:
            game.run_triggers(Ctx(game.active, card), card.arrive)

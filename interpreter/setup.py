"""Game setup by player count, in the order of the rulebook's Game Setup section."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .catalog import TokenDef
from .rules import for_players
from .state import Ctx

if TYPE_CHECKING:
    from .game import Game


def implicit_artifact(value: int) -> TokenDef:
    """An artifact token for a space whose value no declared artifact has."""
    return TokenDef.from_ir(
        {"name": f"Artifact {value}", "kind": "artifact", "count": 1, "points": value},
        implicit=True,
    )


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


def setup_game(game: Game) -> None:
    """Set up the bank, bag, reserve, row, tokens, decks, first player and hands."""
    rules, rng, board, cat = game.rules, game.rng, game.board, game.catalog
    n = len(game.players)

    # 9 (drawn first so that every later step can name the first player).
    first = rng.randrange(n)
    if game.first_player is not None:
        first = game.first_player  # the draw still happens, so the seed deals the same
    game.order = [(first + k) % n for k in range(n)]
    game.active = game.players[first]

    # 4. The bank: minor secrets shuffled face down.
    game.minor_bank = [t for t in cat.tokens if t.kind == "minor" for _ in range(t.count)]
    rng.shuffle(game.minor_bank)

    # 5. The dragon bag and the rage track.
    game.bag = [-1] * rules["dragon_cubes"]
    game.rage = 0
    game.advance_rage(for_players(rules["rage_start"], n) - 1)

    # 6. Reserve piles (monsters there are never used up) and the adventure row, dealt
    # without events or dragon-attack cards (set aside, then shuffled back).
    for c in cat.reserve:
        if c.type == "monster":
            game.reserve_monsters.append(c)
        else:
            game.reserve[c] = c.copies
    game.adventure_deck = [c for c in cat.adventure for _ in range(c.copies)]
    rng.shuffle(game.adventure_deck)
    # Cards a scenario stacks on top, listed top first (the top of a pile is its end).
    for card in reversed(game.stacked_adventure):
        if card in game.adventure_deck:
            game.adventure_deck.remove(card)
        game.adventure_deck.append(card)
    aside = []
    while len(game.row) < rules["row_size"] and game.adventure_deck:
        card = game.adventure_deck.pop()
        if card.type == "event" or card.dragon:
            aside.append(card)
        else:
            game.row.append(card)
    if aside:
        game.adventure_deck.extend(aside)
        rng.shuffle(game.adventure_deck)

    # 7. Tokens: mugs and market items in the supply; what each space holds (a major secret
    # from the shuffled pile, extras to the bank; fruit from the supply); artifacts on their
    # values' spaces.
    for t in cat.tokens:
        if t.kind in ("market", "mug", "other", "fruit"):
            game.token_supply[t] = t.count
    majors = [t for t in cat.tokens if t.kind == "major" for _ in range(t.count)]
    rng.shuffle(majors)
    for sp in board.spaces:
        here = game.space_tokens[sp.index]
        for what, k in sp.holds:
            for _ in range(k):
                tok = _take_for_space(game, majors, what)
                if tok is not None:
                    here.append(tok)
    game.major_bank = majors
    artifacts = [t for t in cat.tokens if t.kind == "artifact" for _ in range(t.count)]
    for sp in board.spaces:
        if sp.artifact is None:
            continue
        tok = next((t for t in artifacts if t.points == sp.artifact), None)
        if tok is None:
            tok = implicit_artifact(sp.artifact)
        else:
            artifacts.remove(tok)
        game.space_artifact[sp.index] = tok
    # Artifacts without a space go back to the box.
    game.box.extend(artifacts)

    # 8, 9. Cubes, figures on HQ, starting decks; starting Clank! by seat from the first player.
    starting = [c for c in cat.starting for _ in range(c.copies)]
    clank = rules["starting_clank"]
    for k, seat in enumerate(game.order):
        p = game.players[seat]
        p.supply = rules["player_cubes"]
        p.pos = board.hq
        p.deck = list(starting)
        rng.shuffle(p.deck)
        game.clank(p, clank[k] if k < len(clank) else 0)

    # 11. Opening hands.
    for seat in game.order:
        game.draw(game.players[seat], rules["hand_size"])

    # Arrive texts of the starting row happen before the first turn.
    for card in list(game.row):
        if card.arrive:
            game.run_triggers(Ctx(game.active, card), card.arrive)

"""Tokens: taken from spaces, banks and the supply, revealed, held, placed and counted."""

from __future__ import annotations

from .catalog import TokenDef
from .context import Ctx
from .events import emit, run_triggers
from .rng import below, shuffle
from .state import GameCore, PlayerState


def take_here(game: GameCore, player: PlayerState, what: str) -> None:
    """Take the top token matching ``what`` from the player's space (nothing if none)."""
    want = what.lower()
    here = game.space_tokens[player.pos]
    for i in range(len(here) - 1, -1, -1):
        tok = here[i]
        if want in tok.match or want in ("token", "any token"):
            del here[i]
            reveal(game, player, tok)
            return


def take_secret(game: GameCore, player: PlayerState, size: str) -> None:
    """Take a secret of that size from the bank (nothing when it is empty) and reveal it."""
    bank = game.minor_bank if size == "minor" else game.major_bank
    if bank:
        reveal(game, player, bank.pop())


def reveal(game: GameCore, player: PlayerState, token: TokenDef) -> None:
    """The player takes a token: artifacts to the artifact slot, "on reveal" lines run."""
    if game.stats is not None:
        game.stats.on_token(game, player, token)
    if token.kind == "artifact":
        if player.artifact is None:
            player.artifact = token
        else:
            game.box.append(token)
            return
    else:
        player.tokens.append(token)
    if token.reveal:
        run_triggers(game, Ctx(player, token), token.reveal)
    if "reveal" in game._watched:
        emit(game, "reveal", player)
    if token.returns and token in player.tokens:
        player.tokens.remove(token)
        game.box.append(token)


def take_token(game: GameCore, player: PlayerState, name: str) -> None:
    """Take one token of that name from the supply (nothing if none is left)."""
    want = name.lower()
    for tok, left in game.token_supply.items():
        if left and tok.name.lower() == want:
            game.token_supply[tok] = left - 1
            reveal(game, player, tok)
            return


def return_token(game: GameCore, player: PlayerState, token: TokenDef) -> None:
    """The player gives a token they hold back to the box (a token used up by its own
    lines: `return this token to the box`)."""
    if token in player.tokens:
        player.tokens.remove(token)
        game.box.append(token)


def held_count(game: GameCore, player: PlayerState, what: str) -> int:
    """Tokens the player holds in hand (not the artifact carried) matching ``what``."""
    want = what.lower()
    return sum(1 for t in player.tokens if want in t.match)


def return_held(game: GameCore, player: PlayerState, what: str, n: int) -> int:
    """The player gives back up to ``n`` held tokens matching ``what`` (never the artifact)
    to the box, first held first; how many went."""
    want = what.lower()
    gone = [t for t in player.tokens if want in t.match][:n]
    for tok in gone:
        player.tokens.remove(tok)
        game.box.append(tok)
    return len(gone)


def return_to_supply(game: GameCore, player: PlayerState, what: str, n: int) -> int:
    """The player gives up to ``n`` tokens they hold matching ``what`` back to the supply
    (the last taken first; never their artifact); how many went."""
    want = what.lower()
    gone = 0
    for tok in reversed(list(player.tokens)):
        if gone >= n:
            break
        if want in tok.match:
            player.tokens.remove(tok)
            game.token_supply[tok] = game.token_supply.get(tok, 0) + 1
            gone += 1
    return gone


def supply_to_box(game: GameCore, what: str, n: int, at_random: bool = False) -> int:
    """Put up to ``n`` tokens matching ``what`` from the supply back in the box (fewer
    market items with fewer players), the first in the supply's order or ``at_random``;
    how many went."""
    taken = random_from_supply(game, what, n) if at_random else from_supply(game, what, n)
    game.box.extend(taken)
    return len(taken)


def take_random(game: GameCore, player: PlayerState, what: str, n: int) -> None:
    """The player takes up to ``n`` tokens matching ``what`` drawn at random from the supply,
    revealing each as it is taken."""
    for tok in random_from_supply(game, what, n):
        reveal(game, player, tok)


def random_from_supply(game: GameCore, what: str, n: int) -> list[TokenDef]:
    """Up to ``n`` tokens matching ``what`` taken out of the supply at random (each copy as
    likely as any other)."""
    want = what.lower()
    pile: list[TokenDef] = []
    for tok, left in game.token_supply.items():
        if left and want in tok.match:
            pile.extend([tok] * left)
    taken: list[TokenDef] = []
    while pile and len(taken) < n:
        tok = pile.pop(below(game.rng, len(pile)))
        game.token_supply[tok] -= 1
        taken.append(tok)
    return taken


def place_held(game: GameCore, player: PlayerState, what: str) -> bool:
    """Put a token the player holds (matching ``what``) on their space, where it lies
    for the rest of the game; False when they hold none."""
    want = what.lower()
    for tok in player.tokens:
        if want in tok.match:
            player.tokens.remove(tok)
            game.space_tokens[player.pos].append(tok)
            return True
    return False


def place_from_supply(game: GameCore, what: str, feature: str) -> None:
    """Put a token matching ``what`` from the supply on each space with ``feature``, in
    board order, while the supply lasts."""
    want, feature = what.lower(), feature.lower()
    for sp in game.board.spaces:
        if feature not in sp.features:
            continue
        for tok, left in game.token_supply.items():
            if left and want in tok.match:
                game.token_supply[tok] = left - 1
                game.space_tokens[sp.index].append(tok)
                break


def put_cubes(game: GameCore, what: str, n: int) -> int:
    """Put up to ``n`` cube tokens matching ``what`` from the supply into the Clank!
    area (they go into the bag with the next attack); how many went."""
    taken = from_supply(game, what, n, kind="cube")
    game.area_cubes.extend(taken)
    return len(taken)


def from_supply(game: GameCore, what: str, n: int, kind: str | None = None) -> list[TokenDef]:
    """Up to ``n`` tokens matching ``what`` (and of ``kind``, if given) taken out of the
    supply, in the supply's order."""
    want = what.lower()
    taken: list[TokenDef] = []
    for tok, left in game.token_supply.items():
        if len(taken) >= n:
            break
        if left and (kind is None or tok.kind == kind) and want in tok.match:
            k = min(left, n - len(taken))
            game.token_supply[tok] = left - k
            taken.extend([tok] * k)
    return taken


def count_tokens(game: GameCore, player: PlayerState, what: str) -> int:
    """Tokens the player holds (the artifact included) matching ``what``."""
    want = what.lower()
    n = sum(1 for t in player.tokens if want in t.match)
    art = player.artifact
    return n + (1 if art is not None and want in art.match else 0)


def deal_face_down(game: GameCore, what: str, feature: str) -> None:
    """Shuffle every supply token matching ``what`` face down and put one on each space
    with ``feature``, in board order; the extras go back to the box unseen."""
    pile: list[TokenDef] = []
    for tok, left in game.token_supply.items():
        if left and what in tok.match:
            pile.extend([tok] * left)
            game.token_supply[tok] = 0
    shuffle(game.rng, pile)
    for sp in game.board.spaces:
        if feature in sp.features and pile:
            game.space_tokens[sp.index].append(pile.pop())
    game.box.extend(pile)


def remove_random(game: GameCore, what: str, n: int) -> None:
    """Put ``n`` tokens matching ``what``, drawn at random from the board, in the box."""
    want = what.lower()
    for _ in range(n):
        spots = [(s, None) for s, t in enumerate(game.space_artifact) if t and want in t.match] + [
            (s, i)
            for s, held in enumerate(game.space_tokens)
            for i, t in enumerate(held)
            if want in t.match
        ]
        if not spots:
            return
        s, i = spots[below(game.rng, len(spots))]
        if i is None:
            tok = game.space_artifact[s]
            game.space_artifact[s] = None
        else:
            tok = game.space_tokens[s].pop(i)
        assert tok is not None
        game.box.append(tok)


def has_token(game: GameCore, player: PlayerState, what: str) -> bool:
    """Whether the player holds a token matching a kind, type, name or granted word."""
    want = what.lower()
    if player.artifact is not None and want in player.artifact.match:
        return True
    return any(want in t.match for t in player.tokens)


def grants(game: GameCore, player: PlayerState, requirement: str) -> bool:
    """Whether a held token grants a path requirement (a canoe for water)."""
    return any(requirement in t.grants for t in player.tokens)


def artifact_room(game: GameCore, player: PlayerState) -> bool:
    """Whether the player, already carrying an artifact, may carry one more: held tokens
    that grant `artifact slot` outnumber the extra artifacts carried."""
    slots = carried = 0
    for t in player.tokens:
        if "artifact slot" in t.grants:
            slots += 1
        elif t.kind == "artifact":
            carried += 1
    return slots > carried

"""The dragon: the rage track, the bag and its attacks; and the pack's other counters."""

from __future__ import annotations

from .catalog import TokenDef
from .context import Ctx
from .economy import knock_out
from .ending import finish
from .events import emit, run_triggers
from .rng import below
from .state import BLACK, GameCore, PlayerState


def advance_rage(game: GameCore, n: int) -> None:
    """Move the dragon marker; it stays within the track. Each space it reaches going up
    is a `rage` event (`when the rage marker advances:`), and each step up it cannot take
    from the last space a `rage past top` event (`when rage would rise past the top:`)."""
    top = len(game.rules["rage_track"]) - 1
    new = max(0, min(top, game.rage + n))
    past = game.rage + n - top  # steps up it cannot take from the last space
    if new <= game.rage or "rage" not in game._watched:
        game.rage = new
    else:
        while game.rage < new and not game.over:
            game.rage += 1
            emit(game, "rage", None)
    if past > 0 and "rage past top" in game._watched:
        for _ in range(past):
            if game.over:
                break
            emit(game, "rage past top", None)


def attack_size(game: GameCore) -> int:
    """Cubes an attack draws now: the rage value plus one per danger card in the row."""
    n = game.rules["rage_track"][game.rage]
    for c in game.row:
        if c.danger:
            n += 1
    return n


def dragon_attack(game: GameCore, extra: int = 0) -> None:
    """The Clank! area goes into the bag, then rage value + danger (+ ``extra``) cubes
    are drawn."""
    area_into_bag(game)
    n = attack_size(game) + extra
    if game.stats is not None:
        game.stats.on_attack(game, n, False)
    draw_cubes(game, n)
    emit(game, "dragon attack", None)


def area_into_bag(game: GameCore) -> None:
    """Every cube and cube token in the Clank! area goes into the dragon bag."""
    for p in game.players:
        if p.area:
            game.bag.extend([p.seat] * p.area)
            p.area = 0
    if game.area_cubes:
        game.bag_tokens.extend(game.area_cubes)
        game.area_cubes = []


def draw_cubes(game: GameCore, n: int) -> None:
    """Draw ``n`` cubes from the bag (cube tokens of no player among them): a player's cube
    is a damage (off the clock: back to their supply), a black one is set aside; then the
    `cubes drawn` and `damage` events, the tokens' `when drawn:` lines, and an empty bag
    ends the game."""
    bag, tokens = game.bag, game.bag_tokens  # tokens: empty in most packs
    drawn: list[PlayerState] = []  # whose cubes came out, in the order drawn
    pulled: list[TokenDef] = []
    for _ in range(n):
        if not bag and not tokens:
            break
        cube = _pull(game, pulled)
        if cube is None:
            continue  # a cube token
        if cube == BLACK:
            game.black_aside += 1
            continue
        p = game.players[cube]
        if p not in drawn:
            drawn.append(p)
        if p.on_clock:
            p.damage += 1
            if game.stats is not None:
                game.stats.on_hit(game, p)
            if p.damage >= game.rules["health"]:
                knock_out(game, p)
        else:
            p.supply += 1  # off the clock: no damage, the cube goes home
    _after_draw(game, drawn, pulled)


def _pull(game: GameCore, pulled: list[TokenDef]) -> int | None:
    """Take one thing out of the bag: a cube (returned), or a cube token (added to
    ``pulled``; None). A scenario's stacked draws come first."""
    bag, tokens, stacked = game.bag, game.bag_tokens, game.stacked_draws
    if stacked and stacked[0] <= -2 and game.catalog.tokens[-2 - stacked[0]] in tokens:
        # A scenario names a cube token to draw next (-2 - its index in the pack).
        tok = game.catalog.tokens[-2 - stacked.pop(0)]
        tokens.remove(tok)
        _pulled(game, tok, pulled)
        return None
    if stacked and stacked[0] in bag:
        i = bag.index(stacked.pop(0))
    elif tokens:
        i = below(game.rng, len(bag) + len(tokens))
        if i >= len(bag):
            _pulled(game, tokens.pop(i - len(bag)), pulled)
            return None
    else:
        i = below(game.rng, len(bag))
    bag[i], bag[-1] = bag[-1], bag[i]
    return bag.pop()


def _pulled(game: GameCore, tok: TokenDef, pulled: list[TokenDef]) -> None:
    pulled.append(tok)
    if game.stats is not None:
        game.stats.on_cube_token(game, tok)


def _after_draw(game: GameCore, drawn: list[PlayerState], pulled: list[TokenDef]) -> None:
    """What a draw sets off: events for the players hit, the tokens' lines, the end of the
    game when the bag is empty."""
    if drawn and not game.over:
        for p in drawn:
            emit(game, "cubes drawn", p)
            if p.on_clock:
                emit(game, "damage", p)  # the dragon's damage is damage
    for tok in pulled:
        # A cube token's `when drawn:` lines act for the active player; then it goes back
        # to the Clank! area, to be bagged again by the next attack.
        game.area_cubes.append(tok)
        if tok.drawn and not game.over:
            run_triggers(game, Ctx(game.active, tok), tok.drawn)
    if not game.bag and not game.bag_tokens:
        # An empty bag after an attack ends the game: everyone still in is knocked out.
        for p in game.players:
            if p.on_clock:
                knock_out(game, p)
        finish(game, "dragon bag empty")


def off_clock_draw(game: GameCore, n: int) -> None:
    """The Clank! area goes into the bag and exactly ``n`` cubes are drawn."""
    area_into_bag(game)
    if game.stats is not None:
        game.stats.on_attack(game, n, True)
    draw_cubes(game, n)


def return_black_cubes(game: GameCore, n: int) -> int:
    """Put up to ``n`` set-aside black cubes back into the bag; how many went back."""
    k = min(n, game.black_aside)
    game.black_aside -= k
    game.bag.extend([BLACK] * k)
    return k


def remove_own_cubes(game: GameCore, player: PlayerState, n: int) -> int:
    """Take up to ``n`` of the player's cubes out of the bag, back to their supply (the last
    put in first); how many came out."""
    seat = player.seat
    k = 0
    for i in range(len(game.bag) - 1, -1, -1):
        if k == n:
            break
        if game.bag[i] == seat:
            del game.bag[i]
            k += 1
    player.supply += k
    return k


def move_counter(game: GameCore, name: str, n: int) -> None:
    """Move a counter the pack declares; it stays between 0 and its maximum."""
    top = game.catalog.counters.get(name, 0)
    game.counters[name] = max(0, min(top, game.counters.get(name, 0) + n))

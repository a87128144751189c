"""Resources, Clank! and health: gaining, paying and counting them.

The base resources are the player's fields (skill, swords, boots, gold, Clank! cubes); a
pack's declared resources are `PlayerState.pools` (see pools.py).
"""

from __future__ import annotations

from .effects.turn_modifiers import on_gain
from .events import emit
from .state import KNOCKED_OUT, GameCore, PlayerState
from .statuses import forbids

# The base resources of the turn's pool (lost when the turn ends).
TURN_POOL = frozenset(("skill", "swords", "boots"))


def gain(game: GameCore, player: PlayerState, resource: str, amount: int) -> None:
    """Add ``amount`` (possibly negative) of a resource to the player's pool; a gain a
    status forbids (`cannot gain clank`) is not made."""
    if amount > 0 and player.statuses and forbids(player, "gain", resource):
        return
    if amount > 0 and player is game.active and resource in TURN_POOL:
        # The commonest gains of all (a played card's skill, boots or swords), kept
        # short: no floor to apply.
        if resource == "skill":
            player.skill += amount
        elif resource == "boots":
            player.boots += amount
        else:
            player.swords += amount
        got = game.turn_gained.get(resource)
        if got is None:
            got = game.turn_gained[resource] = [0, 0]
        got[0] += amount
        got[1] += 1
        if game.turn_modifiers:
            on_gain(game, player, resource, amount)
        return
    if amount < 0 and resource != "clank":
        # Never a clamp: only Clank! keeps a debt; the compiler refuses the rest (CW131).
        _take(game, player, resource, -amount)
        return
    if resource == "skill":
        player.skill += amount
    elif resource == "swords":
        player.swords += amount
    elif resource == "boots":
        player.boots += amount
    elif resource == "gold":
        player.gold += amount
    elif resource == "clank":
        before = player.area
        clank(game, player, amount)
        # Clank! made is what reached the area (debt and an empty supply take the rest).
        amount = player.area - before
    elif resource in game.catalog.resources:
        pools = player.pools
        pools[resource] = pools.get(resource, 0) + amount
    else:
        raise ValueError(f"unknown resource {resource!r}")
    if amount > 0 and game._track_gains and player is game.active:
        got = game.turn_gained.setdefault(resource, [0, 0])
        got[0] += amount
        got[1] += 1
        if game.turn_modifiers:
            on_gain(game, player, resource, amount)


def _take(game: GameCore, player: PlayerState, resource: str, n: int) -> None:
    """A negative gain of a pool (IR the compiler did not write: it refuses one, CW131):
    paid like a price when the pool holds it, else an error rather than a silent clamp."""
    if resource not in TURN_POOL and resource != "gold" and resource not in game.catalog.resources:
        raise ValueError(f"unknown resource {resource!r}")
    have = pool(game, player, resource)
    if have < n:
        raise ValueError(
            f"an effect takes {n} {resource} from player {player.seat + 1}, who has {have}: a "
            f"negative gain is never cut to what there is (write `pay {n} {resource} -> ...`)"
        )
    spend(game, player, resource, n)


def clear_turn_pools(game: GameCore, player: PlayerState) -> None:
    """Empty the player's declared resources that last one turn (like boots)."""
    if player.pools:
        resources = game.catalog.resources
        for name in player.pools:
            if resources[name].per_turn:
                player.pools[name] = 0


def pool(game: GameCore, player: PlayerState, resource: str) -> int:
    """How much of a resource the player has now (gold counts gold-valued tokens)."""
    if resource == "gold":
        return gold_of(game, player)
    if resource == "clank":
        return player.area
    if resource in ("skill", "swords", "boots"):
        return int(getattr(player, resource))
    return player.pools.get(resource, 0)


def clank(game: GameCore, player: PlayerState, amount: int) -> None:
    """Add or remove Clank! cubes; negative Clank! waits for later Clank! this turn."""
    if not player.on_clock:
        return  # off the clock: no more Clank!
    if amount < 0:
        removed = min(-amount, player.area)
        player.area -= removed
        player.supply += removed
        if player is game.active:
            player.clank_debt += -amount - removed
        return
    cancel = min(amount, player.clank_debt)
    player.clank_debt -= cancel
    added = min(amount - cancel, player.supply)
    player.supply -= added
    player.area += added


def can_spend(game: GameCore, player: PlayerState, resource: str, n: int) -> bool:
    """Whether the player can pay ``n`` of a resource (a status may forbid using it)."""
    if n > 0 and player.statuses and forbids(player, "use", resource):
        return False
    return pool(game, player, resource) >= n


def spend(game: GameCore, player: PlayerState, resource: str, n: int) -> None:
    """Pay ``n`` of a resource (the caller checked `can_spend`)."""
    if resource == "gold":
        pay_gold(game, player, n)
    elif resource == "clank":
        player.area -= n
        player.supply += n
    elif resource in ("skill", "swords", "boots"):
        setattr(player, resource, getattr(player, resource) - n)
    else:
        player.pools[resource] -= n


def can_box_cubes(game: GameCore, player: PlayerState, n: int) -> bool:
    """Whether the player's supply holds ``n`` cubes to pay with."""
    return player.supply >= n


def box_cubes(game: GameCore, player: PlayerState, n: int) -> None:
    """Pay ``n`` cubes of the player's supply as a price: they go to the box, out of the game
    (the caller checked `can_box_cubes`)."""
    player.supply -= n
    player.boxed_cubes += n


def pay_gold(game: GameCore, player: PlayerState, n: int) -> None:
    """Pay ``n`` gold: coins first, then gold-valued tokens, smallest first, with change
    in coins."""
    from_coins = min(n, player.gold)
    player.gold -= from_coins
    n -= from_coins
    while n > 0:
        tok = min((t for t in player.tokens if t.gold), key=lambda t: t.gold, default=None)
        if tok is None:
            raise RuntimeError("paid more gold than the player has")
        player.tokens.remove(tok)
        game.box.append(tok)
        if tok.gold > n:
            player.gold += tok.gold - n
            n = 0
        else:
            n -= tok.gold


def gold_of(game: GameCore, player: PlayerState) -> int:
    """Gold plus the gold value of tokens that count as gold."""
    gold = player.gold
    for t in player.tokens:
        gold += t.gold
    return gold


def heal(game: GameCore, player: PlayerState, n: int) -> None:
    """Return up to ``n`` cubes from the health meter to the supply."""
    k = min(n, player.damage)
    player.damage -= k
    player.supply += k
    if k:
        emit(game, "heal", player)


def can_take_damage(game: GameCore, player: PlayerState, n: int) -> bool:
    """Voluntary damage needs the cubes in supply and must not fill the health meter."""
    return player.supply >= n and player.damage + n < game.rules["health"]


def take_damage(game: GameCore, player: PlayerState, n: int) -> None:
    """Damage with cubes from the player's supply (as many as it holds)."""
    if not player.on_clock:
        return
    k = min(n, player.supply)
    player.supply -= k
    player.damage += k
    if player.damage >= game.rules["health"]:
        knock_out(game, player)
    elif k:
        emit(game, "damage", player)


def knock_out(game: GameCore, player: PlayerState) -> None:
    """The player's health meter is full: off the clock."""
    player.status = KNOCKED_OUT
    game.left.append(player.seat)
    emit(game, "knocked out", player)


def refresh(game: GameCore, player: PlayerState) -> None:
    """The player is no longer exhausted: boots may be spent on movement again."""
    player.exhausted = False

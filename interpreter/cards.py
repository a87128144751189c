"""Cards and their zones: drawing, playing, waiting play lines, discarding, trashing,
the reserve and the adventure row."""

from __future__ import annotations

from typing import Any

from .asking import decide
from .catalog import CardDef
from .context import Ctx
from .decisions import DISCARD, TRASH, Option
from .economy import gain
from .events import count_of, emit, holds, run, run_triggers
from .rng import shuffle
from .state import GameCore, PlayerState


def draw(game: GameCore, player: PlayerState, n: int, moments: bool = True) -> None:
    """Draw cards, reshuffling the discard pile (never the play area) into an empty deck;
    each card drawn is a draw event (not the first hands dealt at setup: ``moments`` off)."""
    hand = player.hand
    while n > 0:
        deck = player.deck
        if not deck:
            if not player.discard:
                return
            player.deck, player.discard = player.discard, []
            shuffle(game.rng, player.deck)
            deck = player.deck
        # The top k cards, top first (the top of a deck is its end), in one slice.
        k = min(n, len(deck))
        drawn = deck[: -k - 1 : -1]
        hand.extend(drawn)
        del deck[-k:]
        n -= k
        if moments and ("draw" in game._emits or "draw" in game.catalog.moments):
            for card in drawn:
                moved(game, player, card, "draw")


def play_card(game: GameCore, player: PlayerState, card: CardDef) -> None:
    """Move a card from hand to play area and resolve its play lines."""
    player.hand.remove(card)
    player.play.append(card)
    gains = card.gains
    if gains is not None:
        # Nothing but plain gains (most cards): given as the `gain` op gives them.
        for resource, amount in gains:
            if game.over:
                return
            gain(game, player, resource, amount)
        if "play" in game._emits and not game.over:
            emit(game, "play", player)
        return
    if replay_lines(game, player, card) and "play" in game._emits:
        emit(game, "play", player)


def check_pending(game: GameCore, player: PlayerState) -> None:
    """Fire each waiting "play if" line whose condition now holds (once each)."""
    fired = True
    while fired and player.pending and not game.over:
        fired = False
        for item in list(player.pending):
            card, cond, effects = item
            ctx = Ctx(player, card)
            if item in player.pending and holds(game, ctx, cond):
                player.pending.remove(item)
                run(game, ctx, effects)
                fired = True
    for item in player.recounts:
        ctx, node, given = item
        due = node["amount"] * count_of(game, ctx.player, node["per"])
        if abs(due) > abs(given) and not game.over:
            item[2] = due
            gain(game, ctx.player, node["resource"], due - given)


def recount_later(game: GameCore, ctx: Ctx, node: dict[str, Any], given: int) -> None:
    """Keep counting a "per ... in play" gain of a played card for the rest of the turn."""
    # "You get a card's effects regardless of the order in which you play your cards."
    if ctx.player is game.active and ctx.source in ctx.player.play:
        ctx.player.recounts.append([ctx, node, given])


def keep_in_play(game: GameCore, player: PlayerState, card: CardDef) -> None:
    """Mark one copy of ``card`` in the play area to stay there for the next turn."""
    player.staying.append(card)


def clear_play_area(game: GameCore, player: PlayerState) -> None:
    """The end of the turn's discard: the copies told to stay remain in play for the next
    turn (and are its held-over cards); everything else goes to the discard pile."""
    keep = player.staying
    if not keep and not player.held_over:
        player.discard.extend(player.play)
        player.play.clear()
        return
    rest = list(player.play)
    for card in keep:
        rest.remove(card)
    player.discard.extend(rest)
    player.play[:] = keep
    player.held_over = list(keep)
    player.staying = []


def replay_lines(game: GameCore, player: PlayerState, card: CardDef) -> bool:
    """Run a card's play lines, as it is played and again in its second turn in play (a
    `play if` line waits for its condition all turn); False if the game ended on the way."""
    ctx = Ctx(player, card)
    for cond, effects in card.play:
        if cond is None:
            run(game, ctx, effects)
        else:
            # "Regardless of order": tested now and after every later step of the turn.
            player.pending.append((card, cond, effects))
        if game.over:
            return False
    return True


def can_discard(game: GameCore, player: PlayerState, n: int) -> bool:
    """Whether the hand holds ``n`` unplayed cards."""
    return len(player.hand) >= n


def discard(game: GameCore, player: PlayerState, n: int) -> None:
    """Discard ``n`` cards of the player's choice from hand, without their effects."""
    for _ in range(n):
        if not player.hand:
            return
        choices = list(dict.fromkeys(player.hand))
        pick = decide(game, player, DISCARD, [Option(f"discard {c.name}", c) for c in choices])
        card = choices[pick]
        player.hand.remove(card)
        player.discard.append(card)
        moved(game, player, card, "discard")


def can_trash(game: GameCore, player: PlayerState, n: int, card: str | None = None) -> bool:
    """Whether the discard pile and play area hold ``n`` cards (matching ``card``) to trash."""
    want = card.lower() if card else None
    k = 0
    for zone in (player.discard, player.play):
        for c in zone:
            if want is None or want in c.match:
                k += 1
    return k >= n


def trash(game: GameCore, player: PlayerState, n: int, card: str | None = None) -> None:
    """Trash cards of the player's choice from discard pile or play area (name or tag)."""
    want = card.lower() if card else None
    for _ in range(n):
        options = [
            Option(f"trash {c.name} from {where}", (zone, c))
            for where, zone in (("discard pile", player.discard), ("play area", player.play))
            for c in dict.fromkeys(zone)
            if want is None or want in c.match
        ]
        if not options:
            return
        zone, chosen = options[decide(game, player, TRASH, options)].value
        zone.remove(chosen)
        game.trashed.append(chosen)
        if zone is player.play:
            unmark_left_play(game, player, chosen)
        moved(game, player, chosen, "trash")


def moved(game: GameCore, player: PlayerState, card: CardDef, event: str) -> None:
    """A card went to another zone by ``event`` (discard, trash, draw): its own lines for
    that move run, then the triggers that watch the event."""
    if game.over:
        return
    lines = card.moments.get(event) if card.moments else None
    if lines:
        run_triggers(game, Ctx(player, card), lines)
    if event in game._emits and not game.over:
        emit(game, event, player)


def unmark_left_play(game: GameCore, player: PlayerState, card: CardDef) -> None:
    """A copy of ``card`` left the play area: a mark (held over, told to stay) that now
    names more copies than are in play goes with it, the held-over one first (it has
    given its second turn's text already)."""
    if player.held_over.count(card) + player.staying.count(card) > player.play.count(card):
        marks = player.held_over if card in player.held_over else player.staying
        marks.remove(card)


def take_from_reserve(game: GameCore, player: PlayerState, card: CardDef, n: int) -> int:
    """Up to ``n`` cards of a reserve pile into the player's discard pile (no cost, no
    acquire text); how many were taken."""
    k = min(game.reserve.get(card, 0), n)
    if k:
        game.reserve[card] -= k
        player.discard.extend([card] * k)
    return k


def flip_reserve_monster(game: GameCore, old: str, new: str) -> bool:
    """The reserve monster named ``old`` is turned over: the design ``new`` takes its
    place in the Reserve for the rest of the game; False when ``old`` is not there."""
    by_name = game.catalog.by_name
    was, now = by_name.get(old.lower()), by_name.get(new.lower())
    if was is None or now is None or was not in game.reserve_monsters:
        return False
    game.reserve_monsters[game.reserve_monsters.index(was)] = now
    return True


def replace_row_card(game: GameCore, card: CardDef) -> None:
    """Discard a card of the row and put the adventure deck's next card in its place: its
    dragon symbol is ignored, its arrive text happens; an event drawn is carried out and
    discarded, and the next card drawn."""
    where = game.row.index(card)
    game.row.remove(card)
    game.adventure_discard.append(card)
    while game.adventure_deck and not game.over:
        new = game.adventure_deck.pop()
        run_triggers(game, Ctx(game.active, new), new.arrive)
        if new.type == "event":
            game.adventure_discard.append(new)
            continue
        game.row.insert(where, new)
        return


def refill_row(game: GameCore) -> bool:
    """Fill the row up to its size; True when a newly added card has the dragon symbol."""
    dragon = False
    reshuffled = False
    while len(game.row) < game.rules["row_size"]:
        if not game.adventure_deck and game.rules.get("deck_out"):
            # The deck cannot refill the row: the game ends at once, and everyone still in
            # is knocked out (a pack's `deck out ends game` rule).
            for p in game.players:
                if p.on_clock:
                    game.knock_out(p)
            if not game.over:
                game._finish("adventure deck empty")
            break
        if not game.adventure_deck:
            # One reshuffle per refill: after it, the discard pile holds only the events
            # this refill revealed, and shuffling them back again would loop for ever.
            if not game.adventure_discard or reshuffled:
                break
            reshuffled = True
            if game.stats is not None:
                game.stats.on_recycle(game)
            game.adventure_deck = game.adventure_discard
            game.adventure_discard = []
            shuffle(game.rng, game.adventure_deck)
        card = game.adventure_deck.pop()
        if card.type == "event":
            # An event is carried out and discarded; it never joins the row.
            if game.stats is not None:
                game.stats.on_event(game, card)
            run_triggers(game, Ctx(game.active, card), card.arrive)
            game.adventure_discard.append(card)
        else:
            game.row.append(card)
            dragon = dragon or card.dragon
            run_triggers(game, Ctx(game.active, card), card.arrive)
        if game.over:
            break
    return dragon


def count_in_play(game: GameCore, ctx: Ctx, tag: str, other: bool = False) -> int:
    """Cards in ctx's play area with that tag or name; ``other`` leaves out the source."""
    player = ctx.player
    n = count_in_play_of(game, player, tag)
    source = ctx.source
    if (
        other
        and isinstance(source, CardDef)
        and tag.lower() in source.match
        and source in player.play
    ):
        n -= 1
    return n


def count_in_play_of(game: GameCore, player: PlayerState, tag: str) -> int:
    """Cards in the player's play area with that tag or name. A loop, not `sum` of a
    generator (which the compiled core runs as a generator object): asked after every action
    of a player holding a trigger with an "in play" condition (the Vault's study tokens)."""
    want = tag.lower()
    n = 0
    for c in player.play:
        if want in c.match:
            n += 1
    return n


def count_owned(game: GameCore, player: PlayerState, name: str) -> int:
    """Cards the player owns (deck, hand, discard, play area) with that name or tag."""
    want = name.lower()
    return sum(1 for c in player.cards() if want in c.match)

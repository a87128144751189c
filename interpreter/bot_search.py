"""A search bot: it tries each option of an action decision on copies of the game and keeps
the one whose games went best.

At an action decision (after its hand is played: the plays are the heuristic bot's) the bot
takes every distinct option that is not playing a card, and for each one plays ``budget`` games
on from a copy of the game (`Game.clone`) in which it took that option, with heuristic bots in
every seat, to the end of the game; the option whose games beat the heuristic bot's own pick by
more than two standard errors of the paired differences is taken, else that pick. Each of the
``budget`` playouts is one guess at what the bot cannot see, shared by every option (common
random numbers: the options are compared on the same guesses): its own deck order, the
opponents' hands and decks, the adventure deck, the dragon bag, the secrets' banks and the
face-down tokens on the board, and the RNG, are dealt anew from what it can see. So it values
any option by what it does in the game, a new action or a market item whose worth is a
permission as much as a card: nothing in it names a component. Every other decision (a "may",
a choice, a discard) is the heuristic bot's.

This is determinised Monte Carlo search, a flat version of information-set MCTS (Cowling et
al., 2012; OpenSpiel's ismcts.py): one level of options, heuristic playouts below. The
strength knob is the budget: playouts per option (`search:N`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from .actions import END_TURN, PLAY
from .bot_heuristic import HeuristicBot
from .bot_routes import _groups
from .decisions import Decision, Option
from .state import ON_CLOCK

# Playouts per option when no budget is named (`search`).
DEFAULT_BUDGET = 4
# The most steps a playout's turn may take (a content loop caps the real game too).
STEP_CAP = 400
# What a point of final margin (own score less the best other) adds to a win in a playout's
# reward: a tie-break between options that win as often, small enough that no margin
# outweighs a win.
MARGIN_WEIGHT = 0.025
# The fewest playouts an option whose paired differences can overrule the heuristic pick: with
# two or three the spread of the differences is itself too noisy to test against (measured:
# search:2 won 30 % of 20 tutorial games against the heuristic bot, search:4 75 % of 24
# acqinc games); a smaller budget plays as the heuristic bot does.
MIN_PLAYOUTS = 4
# The kinds of secret a deal hides: their tokens are dealt anew among the places they lie.
HIDDEN_KINDS = ("minor", "major")


def _by_name(x: Any) -> str:
    return x.name


def determinise(game: Any, seat: int, rng: random.Random) -> None:
    """Deal anew, in ``game`` (a copy), what the player in ``seat`` cannot see, from ``rng``.

    Every hidden list is first put in a canonical order (by name), so the deal depends on
    what is hidden (which cards, which tokens) and never on its real order: two games that
    differ only in a hidden order give the same deals."""
    game.rng = random.Random(rng.getrandbits(64))
    for p in game.players:
        if p.seat == seat:
            p.deck.sort(key=_by_name)
            rng.shuffle(p.deck)
            continue
        pool = sorted(p.hand + p.deck, key=_by_name)
        rng.shuffle(pool)
        k = len(p.hand)
        p.hand[:] = pool[:k]
        p.deck[:] = pool[k:]
    for zone in (game.adventure_deck, game.bag_tokens, game.minor_bank, game.major_bank):
        zone.sort(key=_by_name)
        rng.shuffle(zone)
    game.bag.sort()
    rng.shuffle(game.bag)
    _redeal_face_down(game, rng)


def _redeal_face_down(game: Any, rng: random.Random) -> None:
    """Secrets lying on the board face down: each kind's tokens dealt anew among the places
    they lie (the number on each space stays: that much is seen)."""
    for kind in HIDDEN_KINDS:
        places = [
            (s, k)
            for s, toks in enumerate(game.space_tokens)
            for k, t in enumerate(toks)
            if t.kind == kind
        ]
        if len(places) < 2:
            continue
        tokens = sorted((game.space_tokens[s][k] for s, k in places), key=_by_name)
        rng.shuffle(tokens)
        for (s, k), t in zip(places, tokens, strict=True):
            game.space_tokens[s][k] = t


def play_out(game: Any, seat: int, ended: bool = False) -> None:
    """Play ``game`` (a copy whose player ``seat`` is mid-turn; with ``ended``, at the end of
    its turn) to its end."""
    p = game.players[seat]
    steps = 0
    while not ended and p.status == ON_CLOCK and not game.over and game.step(p):
        steps += 1
        if steps >= STEP_CAP:
            return
    if not game.over:
        game.end_turn(p)
    order = game.order
    for s in order[order.index(seat) + 1 :]:
        if game.over:
            return
        game.take_turn(game.players[s])
    if not game.over:
        game.play()


def reward(game: Any, seat: int) -> float:
    """What a finished playout is worth to ``seat``: its share of the win, and a little for
    its margin over the best other score."""
    r = game.result
    if r is None:
        return 0.0
    scores = r.scores
    best_other = max((s for k, s in enumerate(scores) if k != seat), default=0)
    win = 1.0 / len(r.winners) if seat in r.winners else 0.0
    return win + MARGIN_WEIGHT * (scores[seat] - best_other)


class SearchBot:
    """Tries each action on copies of the game with a guess at what it cannot see, plays each
    copy to the end with heuristic bots, and takes the action whose games went best (see
    the module's docstring). ``budget``: playouts per option."""

    name = "search"
    # How sure the playouts must be that another option beats the heuristic bot's pick
    # (the z of a one-sided test on the paired differences).
    Z = 2.0

    def __init__(self, seed: int = 0, budget: int = DEFAULT_BUDGET) -> None:
        self.seed = seed
        self.budget = budget
        self.rng = random.Random(seed)
        # Plays the hand, answers every other decision, and proposes its own pick.
        self.base = HeuristicBot(seed)
        self.playouts = 0  # playouts played so far (for the cost figures)
        # The last search: each option's index and its playouts' rewards.
        self.last: dict[int, list[float]] = {}

    def bot_state(self) -> dict[str, Any]:
        """What a saved game keeps of the bot: its RNG and its heuristic part's state."""
        return {
            "budget": self.budget,
            "rng": list(self.rng.getstate()[1]),
            "base": self.base.bot_state(),
        }

    def load_bot_state(self, game: Any, state: dict[str, Any]) -> None:
        """Carry on from `bot_state` in a restored game."""
        self.budget = state["budget"]
        self.rng.setstate((3, tuple(state["rng"]), None))
        self.base.load_bot_state(game, state["base"])

    def play_first(self, view: Any, p: Any) -> Any:
        """The heuristic bot plays the hand."""
        return self.base.play_first(view, p)

    def choose(self, view: Any, decision: Decision) -> int:
        """An action decision is searched; any other is the heuristic bot's."""
        if decision.kind == "action":
            p = view.players[decision.player]
            opts = decision.options
            groups = decision.detail if type(decision.detail) is dict else _groups(opts)
            return self.choose_action(view, p, opts, groups)
        return self.base.choose(view, decision)

    def choose_action(
        self, view: Any, p: Any, opts: Sequence[Option], groups: dict[Any, Sequence[int]]
    ) -> int:
        """The option whose playouts went best (the heuristic's pick on a tie)."""
        pick = self.base.choose_action(view, p, opts, groups)
        cands = candidates(opts, pick)
        if len(cands) < 2 or self.budget < MIN_PLAYOUTS:
            return pick
        choice = self._search(view, p.seat, opts, cands, pick)
        if choice != pick:
            # The heuristic part's plan (its target, the cards it meant to buy next) was for
            # its own pick: it plans afresh from here, as the playouts' bots did.
            self.base = HeuristicBot(self.seed)
        return choice

    def _search(
        self, game: Any, seat: int, opts: Sequence[Option], cands: list[int], pick: int
    ) -> int:
        rewards: dict[int, list[float]] = {i: [] for i in cands}
        players = len(game.players)
        for _ in range(self.budget):
            world = game.clone()
            determinise(world, seat, self.rng)
            bots_seed = self.rng.getrandbits(32)
            state = world.rng.getstate()
            for i in cands:
                g = world.clone([HeuristicBot(bots_seed + k) for k in range(players)])
                g.rng.setstate(state)
                value = opts[i].value
                if value[0] is not END_TURN:
                    g.apply(g.players[seat], value)
                play_out(g, seat, ended=value[0] is END_TURN)
                rewards[i].append(reward(g, seat))
        self.playouts += self.budget * len(cands)
        self.last = rewards
        return better(rewards, pick, self.Z)


def better(rewards: dict[int, list[float]], pick: int, z: float) -> int:
    """The option whose playouts beat ``pick``'s by most, paired playout by playout, when it
    beats it by more than ``z`` standard errors of the mean difference; else ``pick``. (The
    largest of many noisy means is mostly luck: an option must win clearly.) Below
    `MIN_PLAYOUTS` playouts an option, a standard error means nothing: ``pick``."""
    base = rewards[pick]
    n = len(base)
    if n < MIN_PLAYOUTS:
        return pick
    best, best_mean = pick, 0.0
    for i, rs in rewards.items():
        if i == pick:
            continue
        d = [a - b for a, b in zip(rs, base, strict=True)]
        mean = sum(d) / n
        if mean <= best_mean:
            continue
        var = sum((x - mean) ** 2 for x in d) / max(1, n - 1)
        if mean > z * math.sqrt(var / n):
            best, best_mean = i, mean
    return best


def candidates(opts: Sequence[Option], pick: int) -> list[int]:
    """The options worth searching: every one but playing a card (the hand is played first,
    in the heuristic bot's order, but for a card the heuristic bot keeps for later), and the
    heuristic bot's pick always; ending the turn is one of them."""
    return [i for i, o in enumerate(opts) if i == pick or o.value[0] is not PLAY]

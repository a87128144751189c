"""Contracts, and a campaign game's marks: checkmarks, tracks, passages, personal goals;
the post-game steps that make them."""

from __future__ import annotations

from typing import Any

from .asking import choose
from .context import Ctx
from .decisions import CHOOSE, MAY
from .effects import EFFECTS
from .events import holds, run
from .state import GameCore, PlayerState

# Passages one reading may lead to, at most (a loop of `read`s ends).
MAX_READS = 100


def open_contracts(game: GameCore) -> list[dict[str, Any]]:
    """The Contracts row this game: the contracts open when it began, then those a passage
    read during it opened."""
    row = list(game.catalog.contracts)
    have = {c["name"] for c in row}
    for name in game.opened_contracts:
        c = game.catalog.all_contracts.get(name)
        if c is not None and name not in have:
            have.add(name)
            row.append(c)
    return row


def resolve_contracts(game: GameCore, player: PlayerState) -> None:
    """The end of ``player``'s turn: they may complete each open contract they can (its
    condition holds, its price can be paid); completing runs its effects, and in a campaign
    game its passage is read then."""
    done = {name for name, _ in game.completed_contracts}
    ctx = Ctx(player, None)
    for c in open_contracts(game):
        if c["name"] in done or game.over:
            continue
        if "effects" not in c or ("if" in c and not holds(game, ctx, c["if"])):
            continue
        if not all(
            EFFECTS[e["op"]].can_pay is None or EFFECTS[e["op"]].can_pay(game, ctx, e)
            for e in c["effects"]
        ):
            continue
        node = {"op": "may", "do": c["effects"]}  # what a bot weighs, like a "may"
        if choose(game, player, MAY, ["yes", "no"], source=c["name"], detail=node) != 0:
            continue
        # Kept in the state, not the log (whose records are a header, decisions, a result).
        game.completed_contracts.append([c["name"], player.seat])
        run(game, ctx, c["effects"])
        if c.get("passage") is not None:
            read_now(game, player, c["passage"])


def contract_instructions(game: GameCore, moment: str) -> None:
    """Each open contract's instructions for the ``moment`` ("start" of the game, or its
    "end", after scoring), in the order of the Contracts row, for the active player; a
    contract completed this game has left the row."""
    ctx = Ctx(game.active, None)
    done = {name for name, _ in game.completed_contracts}
    for c in open_contracts(game):
        effects = c.get(moment)
        if effects and c["name"] not in done:  # a completed contract left the row
            run(game, ctx, effects)


def post_game(game: GameCore) -> None:
    """A campaign game's post-game steps (the `post_game` phase), after scoring; `each
    player` is every player, as at the end of the game."""
    assert game.result is not None, "the game is not over"
    # The game is scored; its effects run once more, for the campaign's marks.
    game.over = False
    try:
        for planned in game.catalog.steps["post_game"]:
            if planned.step is None:
                run(game, Ctx(game.active, None), planned.effects or [])
            else:
                planned.step.handler(game, game.active)
    finally:
        game.over = True


def add_checkmark(game: GameCore, player: PlayerState, why: str) -> None:
    """A Checkmark of Grudging Approval for the player (the campaign marks it on their
    Associate Status track after the game)."""
    player.checkmarks.append(why)


def mark_track(game: GameCore, track: str) -> None:
    """An X on the campaign track ``track`` (the campaign marks it after the game)."""
    game.campaign_marks[track] = game.campaign_marks.get(track, 0) + 1


def read_now(game: GameCore, player: PlayerState, passage: int) -> bool:
    """Read a Book of Secrets passage as it happens, in a campaign game during play (the
    Legacy rulebook: "pause their turn and read the corresponding Passage in the Book. (They
    resume their turn afterward.)"): each passage once a game; a contract it opens is in the
    Contracts row from now on, a choice is asked of ``player`` now (the decision machinery:
    a bot or a person), and a passage it leads to is read next. What else it does (stickers,
    checkmarks, X on a track, the Cardporium, the next game's patron or board) is the
    campaign's, applied after the game from the readings kept in `passages_read`. False when
    the passage is not read now (no campaign game, no such passage, the game scored): it is
    then queued for after the game."""
    passages = game.catalog.passages
    if passage not in passages or game.result is not None:
        return False
    if _in_progress(game, passages[passage]):
        return True  # its story goes on in the Contracts row: not read again
    queue, first = [passage], 1
    while queue and len(game.passages_read) < MAX_READS:
        n = queue.pop(0)
        ps = passages.get(n)
        if ps is None or any(r[0] == n for r in game.passages_read):
            first = 0
            continue
        record = [n, player.seat, -1, first]
        first = 0
        game.passages_read.append(record)
        game.reads.append(n)
        for line in ps["do"]:
            if line["do"] == "contract" and line["name"] not in game.opened_contracts:
                game.opened_contracts.append(line["name"])
            elif line["do"] == "read":
                queue.append(line["passage"])
        if ps.get("choices"):
            k = game.passage_choice(player, ps)
            record[2] = k
            queue.append(ps["choices"][k]["read"])
    return True


def passage_choice(game: GameCore, player: PlayerState, ps: dict[str, Any]) -> int:
    """The option of passage ``ps``'s choice that ``player`` takes, asked through the game's
    decisions (the seat's bot, or a person's menu)."""
    labels = [c["label"] for c in ps["choices"]]
    # What a bot weighs: what each option's passage does, as effects...
    options = [passage_effects(game, c["read"]) for c in ps["choices"]]
    # ... and what a person is shown: the passage's text (tools/menus.py).
    detail = {"op": "choose", "options": options, "text": ps.get("text", "")}
    return choose(game, player, CHOOSE, labels, source=f"passage {ps['number']}", detail=detail)


def _in_progress(game: GameCore, ps: dict[str, Any]) -> bool:
    """Whether a contract the passage opens is in the Contracts row, not completed: the
    rulebook's "the story surrounding this Contract is already in progress; you do not
    repeatedly read the Book of Secrets every time a player enters the space with that
    number"."""
    opens = {line["name"] for line in ps["do"] if line["do"] == "contract"}
    if not opens:
        return False
    done = {name for name, _ in game.completed_contracts}
    return any(c["name"] in opens and c["name"] not in done for c in open_contracts(game))


def passage_effects(game: GameCore, passage: int, seen: frozenset[int] = frozenset()) -> list:
    """What reading ``passage`` (and the passages it reads) does, as effects a bot values as
    it values any effect: a checkmark, an X on a track, a sticker's rule effects and
    abilities; a choice inside counts its first option (a bot choosing then will see each)."""
    ps = game.catalog.passages.get(passage)
    if ps is None or passage in seen or len(seen) > MAX_READS:
        return []
    seen = seen | {passage}
    out: list[dict[str, Any]] = []
    for line in ps["do"]:
        if line["do"] == "checkmark":
            out.append({"op": "checkmark", "n": 1})
        elif line["do"] == "mark":
            out.append({"op": "mark_track", "track": line["track"]})
        elif line["do"] == "sticker":
            out += game.catalog.sticker_effects.get(line["name"], ())
        elif line["do"] == "read":
            out += passage_effects(game, line["passage"], seen)
    if ps.get("choices"):
        out += passage_effects(game, ps["choices"][0]["read"], seen)
    return out


def queue_read(game: GameCore, passage: int, seat: int | None = None) -> None:
    """A Book of Secrets passage to read after the game (the campaign reads it); ``seat``:
    the player whose action read it, who makes its choices (a campaign's game keeps it:
    tools/campaign.py)."""
    game.reads.append(passage)


def mark_goal(game: GameCore, player: PlayerState, name: str) -> None:
    """The player fills a box of their personal goal ``name`` (another player's goal,
    or a row already full, is not theirs to mark)."""
    goal = game.catalog.goals.get(name)
    if goal is None or goal["player"] != player.seat + 1:
        return
    before = game.goals_before[player.seat].get(name, 0) if game.goals_before else 0
    if before + player.goals.get(name, 0) < goal["boxes"]:
        player.goals[name] = player.goals.get(name, 0) + 1


def review(game: GameCore) -> None:
    """Employee reviews: a checkmark for scoring more than 0, one for winning, one for
    each row of personal goals completed this game."""
    assert game.result is not None
    for p in game.players:
        if game.result.scores[p.seat] > 0:
            add_checkmark(game, p, "scored more than 0")
        if p.seat in game.result.winners:
            add_checkmark(game, p, "won the game")
        before = game.goals_before[p.seat] if game.goals_before else {}
        for name, n in p.goals.items():
            size = game.catalog.goals[name]["boxes"]
            if before.get(name, 0) < size <= before.get(name, 0) + n:
                add_checkmark(game, p, f"completed the row of {name}")


def check_death(game: GameCore) -> None:
    """Player death: if any player scored 0, one X on the track the pack's campaign names
    for a death (`death marks TRACK`; never more than one), then its passage (`reads P`)."""
    assert game.result is not None
    death = game.catalog.campaign.get("death")
    if death is not None and any(s == 0 for s in game.result.scores):
        if "marks" in death:
            mark_track(game, death["marks"])
        if "reads" in death:
            queue_read(game, death["reads"])

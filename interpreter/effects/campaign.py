"""A legacy campaign's marks, made during a game and kept by the campaign afterwards
(tools/campaign.py): Checkmarks of Grudging Approval, X on the campaign tracks the pack
declares, passages to read, boxes of personal goals; and what the post-game steps ask of
the game just scored.

In a game that is no campaign game the marks are made and simply not kept (a plain `simulate`
never meets them: only campaign content uses these words)."""

from __future__ import annotations

from typing import Any

from .registry import condition, effect


@effect(
    "checkmark",
    phrases=(
        "checkmark",
        "a checkmark",
        "{n:int} checkmarks",
        "{n:int} checkmark",
    ),
    params={"n": {"type": "integer", "minimum": 1, "maximum": 10}},
    defaults={"n": 1},
    render=lambda n: (
        "a Checkmark of Grudging Approval"
        if n["n"] == 1
        else f"{n['n']} Checkmarks of Grudging Approval"
    ),
    examples=("checkmark", "if you won the game (checkmark)"),
    appraise=lambda n, v: n["n"] * v.unit("checkmark"),
)
def checkmark(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """A Checkmark of Grudging Approval for you: the campaign marks it on your Associate
    Status track after the game (a promotion reads its entry then)."""
    why = ctx.source.name if ctx.source is not None else "a rule"
    for _ in range(node["n"]):
        game.add_checkmark(ctx.player, why)


@effect(
    "mark_track",
    phrases=(
        "add an x to the {track:name} track",
        "mark the {track:name} track",
        "an x on the {track:name} track",
    ),
    params={"track": {"type": "string", "minLength": 1}},
    render=lambda n: f"add an X to the {n['track']} track",
    examples=('add an X to the "Rival Guild" track', 'mark the "Rival Guild" track'),
    appraise=lambda n, v: -v.unit("track_mark"),
)
def mark_track(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """An X on one of the campaign's tracks, a track the pack declares in its campaign block
    (`track NAME { ... }`): the campaign marks it after the game, and an X that covers a
    numbered space reads that space's passage. A bot counts an X against it."""
    game.mark_track(node["track"])


@effect(
    "read",
    phrases=("read passage {n:int}", "read {n:int}"),
    params={"n": {"type": "integer", "minimum": 1, "maximum": 100_000}},
    render=lambda n: f"read {n['n']} in the Book of Secrets",
    examples=("read 167",),
    appraise=lambda n, v: 0.0,
)
def read(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """A Book of Secrets passage: in a campaign game, read at once during play (its contract
    opened, its choice asked of the player, then the turn goes on; the campaign applies the
    rest after the game); after the game, or in a game that is no campaign game, queued for
    the campaign to read after the post-game steps."""
    if not game.read_now(ctx.player, node["n"]):
        game.queue_read(node["n"], ctx.player.seat)


@effect(
    "goal",
    phrases=("mark goal {name:name}", "mark {name:name}"),
    params={"name": {"type": "string", "minLength": 1}},
    render=lambda n: f"fill a box of the personal goal {n['name']}",
    examples=('mark goal "Monster Hunter"',),
    appraise=lambda n, v: v.unit("checkmark") / 3,
)
def goal(game: Any, ctx: Any, node: dict[str, Any]) -> None:
    """Fill a box of your personal goal NAME (a goal of another player's, or a full row,
    marks nothing). A goal's own line writes this for it (`goal NAME { ... }`)."""
    game.mark_goal(ctx.player, node["name"])


def _scores(game: Any) -> Any:
    return game.result.scores if game.result is not None else None


@condition(
    "scored",
    phrases=(
        "you scored more than {n:int} points",
        "you scored more than {n:int}",
        "you scored more than {n:int} point",
    ),
    params={"n": {"type": "integer", "minimum": 0, "maximum": 10_000}},
    render=lambda n: f"you scored more than {n['n']} points",
    examples=("if you scored more than 40 points (checkmark)",),
    appraise=lambda n, v: 0.5,
)
def scored(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """After scoring (the post-game steps): your score was more than N. Before the game is
    scored, nobody has scored."""
    scores = _scores(game)
    return scores is not None and scores[ctx.player.seat] > node["n"]


@condition(
    "won",
    phrases=("you won the game", "you won"),
    params={},
    render=lambda n: "you won the game",
    examples=("if you won the game (checkmark)",),
    appraise=lambda n, v: 0.3,
)
def won(game: Any, ctx: Any, node: dict[str, Any]) -> bool:
    """After scoring: you are a winner of the game (ties included)."""
    return game.result is not None and ctx.player.seat in game.result.winners

"""Campaign declarations: stickers, passages, contracts, patrons, goals and the
campaign block."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clankwork.interpreter.rules import RULE_PARAMS, default_rules

from .. import extends as ext
from ..condition_logic import IF_WORDS
from ..diagnostics import did_you_mean
from ..limits import RANGES, Range
from ..parser import Stmt
from .boards import board
from .edits import edit
from .registry import declaration
from .rules import rule_value
from .shared import TRIGGER_WORDS, _at, _match_words, _track_line

if TYPE_CHECKING:
    from ..compiler import _Compiler


@declaration("sticker", form="sticker NAME { fills SLOT: EFFECTS }", writes=("stickers",))
def sticker(c: _Compiler, st: Stmt) -> None:
    """`sticker NAME { fills SLOT: EFFECTS }`: a rule sticker (interpreter/stickers.py);
    and board and card stickers: `change`, `replace` and `remove` lines, as an extension
    writes them, applied to the pack when the sticker is (dsl/stickers.py)."""
    h = st.head
    if len(h) != 2 or h[1].kind not in ("word", "string"):
        c.error("CW105", "write `sticker NAME { fills SLOT: EFFECTS }`", st.span)
        return
    sticker: dict[str, Any] = {"name": h[1].text, "at": _at(st.span)}
    bad = False
    for s in st.block or []:
        bad = _sticker_line(c, sticker, s) or bad
    if not bad and not any(k in sticker for k in ("fills", "edits", "abilities", "boards")):
        c.error(
            "CW109",
            f"sticker {h[1].text!r} fills no slot and changes nothing",
            st.span,
            hint="add `fills SLOT: EFFECTS` (the pack's rules declare `slot SLOT ...`) "
            'or a change: `change space "Old Mill" { forest }`',
        )
        return
    # A sticker with an error is still declared (its name only, when nothing of it
    # compiled), so what names it is not reported again: the pack fails on the error.
    c.campaign["stickers"].append(sticker)


def _sticker_line(c: _Compiler, sticker: dict[str, Any], s: Stmt) -> bool:
    """One line of a sticker's block; True when it failed (reported)."""
    if s.words[0] in ("change", "replace", "remove"):
        saved, c.edits = c.edits, []
        before = len(c.diags)
        edit(c, s, s.words[0])
        got, c.edits = c.edits, saved
        sticker.setdefault("edits", []).extend(ext.edit_to_ir(e) for e in got)
        return len(c.diags) > before
    if s.words[0] == "board" and s.block is not None and s.effects is None:
        # A board sticker that adds spaces and paths (to a dead end, say), written
        # as an extension adds to its base's board.
        saved_boards, c.boards = c.boards, []
        before = len(c.diags)
        board(c, s)
        got, c.boards = c.boards, saved_boards
        sticker.setdefault("boards", []).extend(got)
        return len(c.diags) > before
    if s.words[0] == "fills" and len(s.head) == 2 and (s.effects or s.block):
        return _sticker_fills(c, sticker, s)
    if s.effects is not None and s.words[0] in TRIGGER_WORDS:
        # A Franchise Board sticker: a permanent ability, a trigger as the rules
        # block writes one (`when you escape: +2 gold`).
        trig = c._trigger(s, "rules")
        if trig is not None:
            sticker.setdefault("abilities", []).append(trig)
        return trig is None
    c.error(
        "CW102",
        f"unknown sticker line `{s.head_text()}`",
        s.head[0].span,
        hint=did_you_mean(s.words[0], ["fills", "change", "replace", "remove"])
        or "a sticker says `fills SLOT: EFFECTS` (a rule sticker), `fills SLOT { "
        "RULE VALUE }` (a rule parameter), `TRIGGER: EFFECTS` (a Franchise Board "
        "ability), or `change`, `replace` or `remove` what the pack declares (a "
        "board or card sticker)",
    )
    return True


def _sticker_fills(c: _Compiler, sticker: dict[str, Any], s: Stmt) -> bool:
    """`fills SLOT: EFFECTS` or `fills SLOT { RULE VALUE }`; True when it failed."""
    if "fills" in sticker:
        c.error("CW106", "a sticker fills one slot", s.span)
        return False
    if s.block is not None and s.effects is None:
        # A slot bound to rule parameters: the block sets them.
        values = _sticker_rules(c, s)
        if values is not None:
            sticker["fills"] = s.head[1].text
            sticker["fills_at"] = _at(s.head[1].span)
            sticker["rules"] = values
        return values is None
    effects = c.effects(s.effects or [])
    if effects is not None:
        sticker["fills"] = s.head[1].text
        sticker["fills_at"] = _at(s.head[1].span)
        sticker["effects"] = effects
    return effects is None


@declaration("passage", form='passage N { text "..."; read N }', writes=("passages",))
def passage(c: _Compiler, st: Stmt) -> None:
    """`passage N { text "..."; prologue G; epilogue G; sticker NAME; checkmark each
    player; mark the TRACK track; read N; choice "LABEL" reads N }`: a Book of Secrets
    entry."""
    h = st.head
    if len(h) != 2 or h[1].kind != "number" or st.effects is not None:
        c.error("CW105", "write `passage N { ... }` (N is the entry's number)", st.span)
        return
    number = c._int(st, h[1:], "passage", "passage")
    if number is None:
        return
    passage: dict[str, Any] = {"number": number, "text": "", "do": [], "at": _at(st.span)}
    choices: list[dict[str, Any]] = []
    for s in st.block or []:
        _passage_line(c, passage, choices, s)
    if choices:
        passage["choices"] = choices
    c.campaign["passages"].append(passage)


def _passage_line(
    c: _Compiler, passage: dict[str, Any], choices: list[dict[str, Any]], s: Stmt
) -> None:
    """One line of a passage: what reading it does, in order, or a choice it offers."""
    w, rest = s.words, s.head[1:]
    if s.effects is not None:
        c.error("CW112", "a passage's lines take no colon", s.span)
    elif w[0] == "text" and len(rest) == 1 and rest[0].kind == "string":
        passage["text"] = rest[0].text
    elif w[0] in ("prologue", "epilogue") and len(rest) == 1:
        game = c._int(s, rest, f"{w[0]} game", "passage")
        if game is not None:
            passage[w[0]] = game
    elif w[0] == "sticker" and len(rest) == 1 and rest[0].kind in ("word", "string"):
        passage["do"].append({"do": "sticker", "name": rest[0].text, "at": _at(s.span)})
    elif w == ["checkmark", "each", "player"]:
        passage["do"].append({"do": "checkmark", "at": _at(s.span)})
    elif (track := _track_line(s)) is not None:
        # An X on one of the pack's campaign tracks.
        passage["do"].append({"do": "mark", "track": track, "at": _at(s.span)})
    elif w[0] in ("patron", "board") and len(rest) == 1 and rest[0].kind in ("word", "string"):
        # The next game's patron, or the board (side) it is played on.
        passage["do"].append({"do": w[0], "name": rest[0].text, "at": _at(s.span)})
    elif w[0] == "contract" and len(rest) == 1 and rest[0].kind in ("word", "string"):
        passage["do"].append({"do": "contract", "name": rest[0].text, "at": _at(s.span)})
    elif w[0] == "fetch" and len(rest) == 1:
        n = c._int(s, rest, "fetch", "passage")
        if n is not None:
            passage["do"].append({"do": "fetch", "card": n, "at": _at(s.span)})
    elif w[0] == "destroy" and len(rest) == 1 and rest[0].kind in ("word", "string"):
        passage["do"].append({"do": "destroy", "name": rest[0].text, "at": _at(s.span)})
    elif w[0] == "read" and len(rest) == 1:
        n = c._int(s, rest, "read", "passage")
        if n is not None:
            passage["do"].append({"do": "read", "passage": n, "at": _at(s.span)})
    elif w[0] == "choice" and len(rest) == 3 and rest[0].kind == "string" and w[2] == "reads":
        n = c._int(s, rest[2:], "choice", "passage")
        if n is not None:
            choices.append({"label": rest[0].text, "read": n, "at": _at(s.span)})
    else:
        words = ["text", "prologue", "epilogue", "sticker", "checkmark", "mark", "read"]
        words += ["fetch", "destroy", "contract", "patron", "board"]
        c.error(
            "CW102",
            f"unknown passage line `{s.head_text()}`",
            s.head[0].span,
            hint=did_you_mean(w[0], [*words, "choice"])
            or 'a passage says: text "...", prologue N, epilogue N, sticker NAME, '
            "checkmark each player, mark the TRACK track, read N, fetch N, destroy CARD, "
            "contract NAME, "
            "patron NAME, board NAME, "
            'choice "LABEL" reads N',
        )


@declaration(
    "contract", form="contract NAME { complete: PRICE -> REWARD; passage N }", writes=("contracts",)
)
def contract(c: _Compiler, st: Stmt) -> None:
    """`contract NAME { complete [if COND]: PRICE -> REWARD; passage N }`: a contract
    any player may complete at the end of their turn while it is open in a campaign."""
    h = st.head
    if len(h) != 2 or h[1].kind not in ("word", "string") or st.effects is not None:
        c.error("CW105", "write `contract NAME { complete: ... }`", st.span)
        return
    contract: dict[str, Any] = {"name": h[1].text, "at": _at(st.span)}
    for s in st.block or []:
        w = s.words
        if w[0] == "complete" and s.effects is not None:
            if len(s.head) > 2 and w[1] in IF_WORDS:
                cond = c._condition(s.head[2:], IF_WORDS[w[1]])
                if cond is None:
                    continue
                contract["if"] = cond
            elif len(s.head) != 1:
                c.error(
                    "CW105",
                    "write `complete: ...`, `complete if CONDITION: ...` or "
                    "`complete unless CONDITION: ...`",
                    s.span,
                    hint=did_you_mean(s.head[1].text, list(IF_WORDS)),
                )
                continue
            effects = c.effects(s.effects)
            if effects is not None:
                contract["effects"] = effects
        elif w[0] == "passage" and len(s.head) == 2 and s.effects is None:
            n = c._int(s, s.head[1:], "passage", "passage")
            if n is not None:
                contract["passage"] = n
        elif (w == ["start"] or w == ["end", "of", "game"]) and s.effects is not None:
            # Instructions for the start of the game (setup) and its end (post-game).
            effects = c.effects(s.effects)
            if effects is not None:
                contract["start" if w[0] == "start" else "end"] = effects
        else:
            c.error(
                "CW102",
                f"unknown contract line `{s.head_text()}`",
                s.head[0].span,
                hint=did_you_mean(w[0], ["complete", "passage", "start", "end of game"])
                or "a contract says `complete [if CONDITION]: PRICE -> REWARD`, "
                "`passage N` (read when it is completed), and may say `start: EFFECTS` "
                "and `end of game: EFFECTS`",
            )
    if "effects" not in contract:
        c.error(
            "CW109",
            f"contract {h[1].text!r} has no `complete:` line",
            st.span,
            hint="add `complete if CONDITION: pay 3 gold -> +2 skill`",
        )
        return
    c.campaign["contracts"].append(contract)


@declaration("patron", form="patron NAME { TRIGGER: EFFECTS }", writes=("patrons",))
def patron(c: _Compiler, st: Stmt) -> None:
    """`patron NAME { TRIGGER: EFFECTS ... }`: a patron's rules for one campaign game
    (a passage names the next game's patron: `patron NAME`)."""
    h = st.head
    if len(h) != 2 or h[1].kind not in ("word", "string") or st.effects is not None:
        c.error("CW105", "write `patron NAME { TRIGGER: EFFECTS }`", st.span)
        return
    patron: dict[str, Any] = {"name": h[1].text, "triggers": [], "at": _at(st.span)}
    for s in st.block or []:
        if s.effects is None:
            c.error(
                "CW102",
                f"unknown patron line `{s.head_text()}`",
                s.head[0].span,
                hint="a patron's lines are triggers, as in the rules block: "
                "`at the start of your turn: +1 boots`",
            )
            continue
        trig = c._trigger(s, "rules")
        if trig is not None:
            patron["triggers"].append(trig)
    c.campaign["patrons"].append(patron)


@declaration("goal", form="goal NAME { player N; boxes N; TRIGGER }", writes=("goals",))
def goal(c: _Compiler, st: Stmt) -> None:
    """`goal NAME { player N; boxes N; TRIGGER }`: a personal goal on player N's deck
    box; each time the trigger fires for them, they fill one of its boxes (a campaign
    game only), and a full row of boxes earns a checkmark at the employee reviews."""
    h = st.head
    if len(h) != 2 or h[1].kind not in ("word", "string") or st.effects is not None:
        c.error("CW105", "write `goal NAME { player N; boxes N; TRIGGER }`", st.span)
        return
    goal: dict[str, Any] = {"name": h[1].text, "at": _at(st.span)}
    for s in st.block or []:
        w = s.words
        if w[0] == "player" and len(s.head) == 2 and s.effects is None:
            n = c._int(s, s.head[1:], "player", RANGES["players"])
            if n is not None:
                goal["player"] = n
        elif w[0] == "boxes" and len(s.head) == 2 and s.effects is None:
            n = c._int(s, s.head[1:], "boxes", Range(1, 20, "boxes in a row"))
            if n is not None:
                goal["boxes"] = n
        elif s.effects is None and "trigger" not in goal:
            trig = c._trigger(s, "rules")
            if trig is not None:
                trig["effects"] = [{"op": "goal", "name": h[1].text, "at": _at(s.span)}]
                goal["trigger"] = trig
        else:
            c.error(
                "CW102",
                f"unknown goal line `{s.head_text()}`",
                s.head[0].span,
                hint=did_you_mean(w[0], ["player", "boxes"])
                or "a goal says `player N`, `boxes N` and, once, when it is met: "
                "`whenever you defeat a monster` (no colon)",
            )
    missing = [k for k in ("player", "boxes", "trigger") if k not in goal]
    if missing:
        c.error(
            "CW109",
            f"goal {h[1].text!r} has no "
            + " and no ".join(
                {"player": "`player N`", "boxes": "`boxes N`", "trigger": "trigger"}[k]
                for k in missing
            ),
            st.span,
            hint='e.g. `goal "Monster Hunter" { player 1; boxes 3; whenever you defeat a '
            "monster }`",
        )
        return
    c.goals.append(goal)


@declaration(
    "campaign",
    form="campaign { status NAME at N reads P; track NAME { ... }; death ... }",
    writes=("campaign",),
)
def campaign(c: _Compiler, st: Stmt) -> None:
    """`campaign { status NAME at N reads P; track NAME { spaces N; space K reads P };
    death marks TRACK reads P }`: the Associate Status track (each section's first
    checkmark, and the passage a promotion reads), the pack's own tracks (each one's
    length and numbered spaces; any number, each named by the pack), and what a player
    death does: the track it adds an X to and the passage read after."""
    if len(st.head) != 1 or st.effects is not None:
        c.error("CW105", "write `campaign { ... }`", st.span)
        return
    if c.campaign_block is not None:
        c.error("CW106", "a pack has one campaign block", st.span)
        return
    block: dict[str, Any] = {"statuses": [], "tracks": [], "at": _at(st.span)}
    for s in st.block or []:
        w, h = s.words, s.head
        if s.effects is not None:
            c.error("CW112", "a campaign block's lines take no colon", s.span)
        elif w[0] == "track" and len(h) == 2 and h[1].kind in ("word", "string"):
            _campaign_track(c, s, block)
        elif w[0] == "track":
            c.error(
                "CW105",
                f"cannot read the track line `{s.head_text()}`",
                s.span,
                hint='write `track "Rival Guild" { spaces 10; space 3 reads 17 }`',
            )
        elif s.block is not None:
            c.error(
                "CW105",
                f"`{w[0]}` takes no block",
                s.block_span or s.span,
                hint="only a `track NAME { ... }` line of a campaign block has a block",
            )
        elif w[0] == "status" and len(h) == 6 and w[2] == "at" and w[4] == "reads":
            at = c._int(s, h[3:4], "status at", Range(1, 100, "checkmarks"))
            reads = c._int(s, h[5:6], "reads", "passage")
            if at is not None and reads is not None:
                block["statuses"].append(
                    {"name": h[1].text, "checkmark": at, "reads": reads, "at": _at(s.span)}
                )
        elif w[0] == "death" and "death" in block:
            c.error("CW106", "a campaign block says what a death does once", s.span)
        elif w[0] == "death":
            _campaign_death(c, s, block)
        else:
            c.error(
                "CW102",
                f"unknown campaign line `{s.head_text()}`",
                h[0].span,
                hint=did_you_mean(w[0], ["status", "track", "death"])
                or "a campaign block says `status Copper at 3 reads 150`, "
                '`track "Rival Guild" { spaces 10; space 3 reads 17 }`, '
                '`death marks "Rival Guild" reads 167`',
            )
    block["statuses"].sort(key=lambda x: x["checkmark"])
    c.campaign_block = block


def _sticker_rules(c: _Compiler, s: Stmt) -> dict[str, Any] | None:
    """A rule sticker's `fills SLOT { RULE VALUE ... }`: the rule values it sets, compiled
    as the rules block compiles them (the pack's own rules are left alone)."""
    table = {tuple(p.words.split()): p for p in RULE_PARAMS}
    saved = c.rules, c.rules_at
    c.rules, c.rules_at = default_rules(), {}
    before = len(c.diags)
    try:
        for line in s.block or []:
            hit = _match_words(line.words, table) if line.effects is None else None
            if hit is None:
                c.error(
                    "CW102",
                    f"unknown rule `{line.head_text()}`",
                    line.head[0].span,
                    hint=did_you_mean(" ".join(line.words[:2]), [p.words for p in RULE_PARAMS])
                    or "a rule sticker's block sets rules: `market price 5`",
                )
                continue
            rule_value(c, hit[0], line, line.head[hit[1] :])
        values = {k: c.rules[k] for k in c.rules_at}
    finally:
        c.rules, c.rules_at = saved
    if len(c.diags) > before:
        return None
    if not values:
        c.error("CW109", "this slot's block sets no rule", s.span)
        return None
    return values


def _campaign_track(c: _Compiler, s: Stmt, block: dict[str, Any]) -> None:
    """`track NAME { spaces N; space K reads P }`: one of the pack's campaign tracks."""
    name = s.head[1].text
    if any(t["name"] == name for t in block["tracks"]):
        c.error("CW106", f"the campaign declares track {name!r} twice", s.span)
        return
    track: dict[str, Any] = {"name": name, "spaces": 0, "reads": {}, "at": _at(s.span)}
    for line in s.block or []:
        w, h = line.words, line.head
        if line.effects is not None or line.block is not None:
            c.error("CW112", "a track's lines take no colon and no block", line.span)
        elif w[0] == "spaces" and len(h) == 2:
            n = c._int(line, h[1:], "spaces", Range(1, 100, "spaces"))
            if n is not None:
                track["spaces"] = n
        elif w[0] == "space" and len(h) == 4 and w[2] == "reads":
            space = c._int(line, h[1:2], "space", Range(1, 100, "spaces"))
            reads = c._int(line, h[3:4], "reads", "passage")
            if space is not None and reads is not None:
                track["reads"][str(space)] = reads
                track.setdefault("_spans", {})[str(space)] = line.span
        else:
            c.error(
                "CW102",
                f"unknown track line `{line.head_text()}`",
                h[0].span,
                hint=did_you_mean(w[0], ["spaces", "space"])
                or "a track says `spaces 10` and `space 3 reads 17`",
            )
    for space, span in track.pop("_spans", {}).items():
        if int(space) > track["spaces"]:
            c.error(
                "CW108",
                f"space {space} of track {name!r} is past its end ({track['spaces']} spaces)",
                span,
                hint=f"write `spaces {space}` or more in the track's block",
            )
    block["tracks"].append(track)


def _campaign_death(c: _Compiler, s: Stmt, block: dict[str, Any]) -> None:
    """`death [marks TRACK] [reads P]`: what a player death does (post-game step 5)."""
    rest, words = s.head[1:], s.words[1:]
    death: dict[str, Any] = {}
    if words[:1] == ["marks"] and len(rest) >= 2 and rest[1].kind in ("word", "string"):
        death["marks"] = rest[1].text
        rest, words = rest[2:], words[2:]
    if words[:1] == ["reads"] and len(rest) == 2:
        n = c._int(s, rest[1:], "death reads", "passage")
        if n is None:
            return
        death["reads"] = n
        rest = []
    if rest or not death:
        c.error(
            "CW105",
            f"cannot read the death line `{s.head_text()}`",
            s.span,
            hint='write `death marks "Rival Guild" reads 167` (either part may be left out)',
        )
        return
    block["death"] = {**death, "at": _at(s.span)}

"""The parts of a board: its spaces and paths (and dead ends)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, Span, did_you_mean
from ..limits import RANGES
from ..parser import Atom, Stmt
from .registry import part
from .resources import action_line
from .shared import REWARDS, SPACE_FLAGS, _at, _match_words, _phrase_span, is_path_head

if TYPE_CHECKING:
    from ..compiler import _Compiler

SPACE_PROPS = (
    "coach",
    "waypoint",
    "artifact",
    "reward",
    "holds",
    "at",
    "feature",
    "action",
    "requires",
)
PATH_PROPS = (
    "boots",
    "footprints",
    "cost",
    "monsters",
    "water",
    "mountain",
    "lock",
    "requires",
    "switch",
    "holds",
    "way",
)

part(
    "space",
    inside="a `space` goes inside a `board NAME { ... }` (or `module`) block",
    doc="`space NAME { FLAGS; reward ...; holds ...; at X Y; action ...; TRIGGER: EFFECTS }` in "
    "a board or a module side: a space of the board.",
    properties=SPACE_PROPS,
    form='space "Whispering Wood" { forest; reward gold 2 }',
    writes=("boards",),
)
part(
    "path",
    inside="a `path` goes inside a `board NAME { ... }` (or `module`) block",
    doc="`path A -- B { boots N; ... }` (-> one-way) or `dead end A { ... }` in a board or a "
    "module side: a path between two spaces.",
    properties=PATH_PROPS,
    form='path HQ -- "Whispering Wood" { boots 2 }',
    writes=("boards",),
)


def compile_space(c: _Compiler, board: dict[str, Any], st: Stmt, group: str | None) -> None:
    """`space NAME { ... }` in a board, a group of it or a module's side."""
    named = c._name(st, "space")
    if named is None:
        return
    space: dict[str, Any] = {
        "name": named[0],
        "features": [],
        "exhausts": False,
        "triggers": [],
        "holds": [],
        "at": _at(st.span),
    }
    if group:
        space["group"] = group
    rewarded: dict[str, Span] = {}
    for s in st.block or []:
        _space_line(c, space, s, rewarded)
    board["spaces"].append(space)


def _space_line(c: _Compiler, space: dict[str, Any], s: Stmt, rewarded: dict[str, Span]) -> None:
    """One line of a space's block: an action, a trigger, a flag or a property."""
    if s.words[0] == "action":
        action_line(c, space, s)
        return
    if s.effects is not None:
        trig = c._trigger(s, "space")
        if trig is not None:
            space["triggers"].append(trig)
        return
    words, rest = s.words, s.head[1:]
    flag = _match_words(words, SPACE_FLAGS)
    if flag is not None and flag[1] == len(words):
        (feature, exhausts), _n = flag
        if feature and feature not in space["features"]:
            space["features"].append(feature)
        space["exhausts"] = space["exhausts"] or exhausts
        return
    key = words[0]
    if key in ("coach", "waypoint", "artifact"):
        value = c._int(s, rest, key, key)
        if value is not None:
            space[key] = value
    elif key == "reward":
        _space_reward(c, space, s, rewarded)
    elif key == "holds":
        compile_holds(c, space, s, rest)
    elif key == "at":
        if len(rest) != 2 or any(a.kind not in ("number", "signed") for a in rest):
            c.error("CW105", "at takes two numbers, x and y", s.span, hint="at 120 40")
            return
        pos = [c._in_range(a, "a position", RANGES["position"]) for a in rest]
        if None not in pos:
            space["pos"] = pos
    elif key == "feature" and rest:
        c._clean(rest)
        space["features"].append(" ".join(a.text.lower() for a in rest))
    elif key == "requires" and rest:
        # Entered only by a player holding a token that grants the words, whatever
        # the way (a path, a teleport, a lift).
        c._clean(rest)
        space.setdefault("requires", []).append(" ".join(a.text.lower() for a in rest))
    else:
        c.error(
            "CW102",
            f"unknown space property `{s.head_text()}`",
            s.head[0].span,
            hint=did_you_mean(
                " ".join(words),
                [" ".join(k) for k in SPACE_FLAGS] + list(SPACE_PROPS),
            )
            or did_you_mean(key, SPACE_PROPS)
            or "see docs/language.md for space properties",
        )


def _space_reward(c: _Compiler, space: dict[str, Any], s: Stmt, rewarded: dict[str, Span]) -> None:
    """`reward KIND [N]` in a space (CW105 for a second reward of one kind)."""
    words, rest = s.words, s.head[1:]
    hit = _match_words(words[1:], REWARDS)
    if hit is None:
        c.error(
            "CW102",
            f"unknown reward `{' '.join(a.source() for a in rest)}`",
            _phrase_span(rest) if rest else s.span,
            hint=did_you_mean(" ".join(words[1:]), [" ".join(k) for k in REWARDS])
            or "rewards: gold N, minor secret, major secret, fruit, draw, heal",
        )
        return
    (rkind, takes_n), n = hit
    tail = rest[n:]
    amount = 1
    if tail:
        if not takes_n:
            c.error("CW105", f"reward {rkind} takes no number", _phrase_span(tail))
            return
        got = c._int(s, tail, f"reward {rkind}", "reward")
        if got is None:
            return
        amount = got
    elif rkind == "gold":
        c.error("CW105", "reward gold needs an amount", s.span, hint="reward gold 2")
        return
    if rkind in rewarded:
        c.diags.append(
            Diagnostic(
                "CW105",
                f"space {space['name']!r} gives `reward {rkind}` twice",
                s.span,
                hint="give one reward of each kind; for more, raise its amount (`reward gold 3`)",
                notes=(("the first is here", rewarded[rkind]),),
            )
        )
    rewarded[rkind] = s.span
    _reward(c, space, rkind, amount, s.span)


def _reward(c: _Compiler, space: dict[str, Any], kind: str, n: int, span: Span) -> None:
    """`reward KIND [N]`: sugar for a token held by the space (a major secret, a fruit)
    and a `once per turn when you enter:` trigger that gives it."""
    at = _at(span)
    if kind in ("major secret", "fruit"):
        what = "major" if kind == "major secret" else "fruit"
        space["holds"].append({"what": what, "n": n, "at": at})
        effects = [{"op": "take_here", "what": what, "at": at} for _ in range(n)]
    elif kind == "minor secret":
        effects = [{"op": "secret", "size": "minor", "at": at} for _ in range(n)]
    elif kind == "gold":
        effects = [{"op": "gain", "amount": n, "resource": "gold", "at": at}]
    else:
        effects = [{"op": kind, "n": n, "at": at}]
    space["triggers"].append({"on": "enter", "limit": "turn", "effects": effects, "at": at})


def compile_holds(c: _Compiler, space: dict[str, Any], s: Stmt, rest: list[Atom]) -> None:
    """`holds [N] WHAT`: N tokens matching WHAT (a kind, type or name) are placed on the
    space at setup: secrets from the shuffled pile, other tokens from the supply."""
    n = 1
    if rest and rest[0].kind == "number":
        got = c._int(s, rest[:1], "holds", "holds")
        if got is None:
            return
        n, rest = got, rest[1:]
    if not rest or any(a.kind not in ("word", "string") for a in rest):
        c.error(
            "CW105",
            "holds takes a count and what the space holds",
            s.span,
            hint='write `holds 2 minor secrets` or `holds 3 "Golden Statue"`',
        )
        return
    c._clean(rest)
    what = " ".join(a.text.lower() for a in rest)
    space["holds"].append({"what": what, "n": n, "at": _at(s.span)})


def compile_path(c: _Compiler, board: dict[str, Any], st: Stmt) -> None:
    h = st.head
    if not is_path_head(h):
        c.error(
            "CW105",
            "a path joins two spaces with -- (two-way) or -> (one-way)",
            st.span,
            hint='write path HQ -- "Whispering Wood" { boots 2 }',
        )
        return
    c._clean([h[1], h[3]])
    path: dict[str, Any] = {
        "from": h[1].text,
        "to": h[3].text,
        "oneway": h[2].kind == "arrow",
        "at": _at(st.span),
        "from_at": _at(h[1].span),
        "to_at": _at(h[3].span),
    }
    _path_props(c, path, st)
    board["paths"].append(path)


def compile_dead_end(c: _Compiler, board: dict[str, Any], st: Stmt) -> None:
    h = st.head
    if len(h) != 3 or h[2].kind not in ("word", "string"):
        c.error(
            "CW105",
            "dead end names the space it leaves",
            st.span,
            hint='write dead end "Old Mill" { boots 2 }',
        )
        return
    c._clean([h[2]])
    path = {
        "from": h[2].text,
        "to": None,
        "oneway": True,
        "at": _at(st.span),
        "from_at": _at(h[2].span),
    }
    _path_props(c, path, st)
    board["paths"].append(path)


def _path_props(c: _Compiler, path: dict[str, Any], st: Stmt) -> None:
    path.update({"boots": 1, "monsters": 0, "requires": [], "features": []})
    for s in st.block or []:
        if s.effects is not None:
            trig = c._trigger(s, "path")
            if trig is not None:
                path.setdefault("triggers", []).append(trig)
            continue
        words, rest = s.words, s.head[1:]
        key = words[0]
        if key in ("boots", "footprints", "monsters", "cost"):
            value = c._int(s, rest, key, "monsters" if key == "monsters" else "boots")
            if value is not None:
                # `cost N` is the price in the path's way's resource; the IR keeps it as
                # `boots` (what a tunnel, the default way, is paid in).
                path["monsters" if key == "monsters" else "boots"] = value
        elif c.path_way(path, s):
            pass  # `way ladder`, or a declared way's name (declarations.py)
        elif words == ["water"]:
            path["features"].append("water")
            path["requires"].append("canoe")
        elif words == ["mountain"]:
            path["features"].append("mountain")
        elif words in (["lock"], ["locked"]):
            path["features"].append("lock")
            path["requires"].append("key")
        elif key == "requires" and rest:
            c._clean(rest)
            path["requires"].append(" ".join(a.text.lower() for a in rest))
        elif key == "switch":
            _path_switch(c, path, s)
        elif key == "holds":
            path.setdefault("holds", [])
            compile_holds(c, path, s, rest)
        else:
            c.error(
                "CW102",
                f"unknown path property `{s.head_text()}`",
                s.head[0].span,
                hint=did_you_mean(key, PATH_PROPS)
                or did_you_mean(" ".join(words), [*c.base_ways, *(w["name"] for w in c.ways)])
                or "paths take boots N, monsters N, water, mountain, lock, requires WORD, way WAY",
            )


def _path_switch(c: _Compiler, path: dict[str, Any], s: Stmt) -> None:
    """`switch NAME STATE...`: the path is there only while the switch NAME (a piece of
    the board with states, turned by effects) is in one of those states."""
    rest = s.head[1:]
    if len(rest) < 2 or rest[0].kind not in ("word", "string"):
        c.error(
            "CW105",
            "`switch` takes the switch's name and the states the path is open in",
            s.span,
            hint="switch dial 1 3",
        )
        return
    states = []
    for a in rest[1:]:
        value = c._int(s, [a], "switch state", "switch state")
        if value is None:
            return
        states.append(value)
    path["switch"] = {"name": rest[0].text, "states": sorted(set(states))}

"""Token declarations."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..diagnostics import did_you_mean
from ..parser import Stmt
from .cards import points
from .registry import declaration
from .resources import action_line
from .shared import CROSSED, TOKEN_KINDS, _at, _match_words

if TYPE_CHECKING:
    from ..compiler import _Compiler

TOKEN_PROPS = (
    "points",
    "gold",
    "count",
    "type",
    "grants",
    "returns",
    "action",
    "stays when crossed",
    "removed when crossed",
    "taken when crossed",
    "extra boots",
    "crossing costs",
)


@declaration(
    "token",
    properties=TOKEN_PROPS,
    form="token NAME { minor secret 6; points 2 }",
    writes=("tokens",),
)
def token(c: _Compiler, st: Stmt) -> None:
    """`token NAME { KIND [N]; points N; gold N; type WORDS; grants WORDS; ... }`: a kind of
    token."""
    named = c._name(st, "token")
    if named is None:
        return
    tok: dict[str, Any] = {
        "name": named[0],
        "kind": "other",
        "count": 1,
        "points": 0,
        "gold": 0,
        "type": named[0].lower(),
        "grants": [],
        "returns": False,
        "triggers": [],
        "at": _at(st.span),
    }
    for s in st.block or []:
        _token_line(c, tok, s)
    c.tokens.append(tok)


def _token_line(c: _Compiler, tok: dict[str, Any], s: Stmt) -> None:
    """One line of a token's block: an action, a trigger, its kind (and count) or a property."""
    if s.words[0] == "action":
        action_line(c, tok, s)
        return
    if s.effects is not None:
        trig = c._trigger(s, "token", ("reveal", "use", "drawn", "cross"))
        if trig is not None:
            tok["triggers"].append(trig)
        return
    words, rest = s.words, s.head[1:]
    hit = _match_words(words, TOKEN_KINDS)
    if hit is not None:
        kind, n = hit
        tok["kind"] = kind
        tail = s.head[n:]
        if tail:
            value = c._int(s, tail, " ".join(words[:n]), "token count")
            if value is not None:
                tok["count"] = value
        return
    key = words[0]
    if key in ("points", "gold", "count"):
        if key == "points":
            points(c, tok, s, rest)
        else:
            value = c._int(s, rest, key, "token " + key)
            if value is not None:
                tok[key] = value
    elif key == "type" and rest:
        c._clean(rest)
        tok["type"] = " ".join(a.text.lower() for a in rest)
    elif key == "grants" and rest:
        c._clean(rest)
        # One grant per line, of one or more words (`grants artifact slot`).
        tok["grants"].append(" ".join(a.text.lower() for a in rest))
    elif words in (["returns"], ["return"]):
        tok["returns"] = True
    elif len(words) == 3 and words[0] in CROSSED and words[1:] == ["when", "crossed"]:
        tok["crossed"] = CROSSED[words[0]]
    elif words[:2] == ["extra", "boots"] or (
        words[:2] == ["crossing", "costs"] and words[3:] in (["extra", "boot"], ["extra", "boots"])
    ):
        at = s.head[2:] if words[0] == "extra" else s.head[2:3]
        value = c._int(s, at, "extra boots", "extra boots")
        if value is not None:
            tok["extra_boots"] = value
    else:
        c.error(
            "CW102",
            f"unknown token property `{s.head_text()}`",
            s.head[0].span,
            hint=did_you_mean(key, [*(k[0] for k in TOKEN_KINDS), *TOKEN_PROPS])
            or "see docs/language.md for token properties",
        )

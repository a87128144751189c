"""The pack block and `include` lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..diagnostics import did_you_mean
from ..parser import Stmt
from .registry import declaration, part
from .shared import _at, _phrase_span

if TYPE_CHECKING:
    from ..compiler import _Compiler

PACK_PROPS = ("version", "title", "extends", "description", "default board")


@declaration("pack", properties=PACK_PROPS, form='pack NAME { version "0.1" }', writes=("pack",))
def pack(c: _Compiler, st: Stmt) -> None:
    """`pack NAME { version; title; description; extends BASE; default board NAME }`: the pack
    itself (once, in pack.clank)."""
    named = c._name(st, "pack")
    if named is None:
        return
    if c.pack is not None:
        c.error("CW106", "a pack declares itself twice", st.span, hint="keep one `pack`")
        return
    pack: dict[str, Any] = {
        "name": named[0],
        "version": "0.0.0",
        "extends": [],
        "at": _at(st.span),
    }
    for s in st.block or []:
        c._no_effects(s)
        key, rest = s.words[0], s.head[1:]
        if key in ("version", "title", "extends"):
            c._clean(rest)
        if key == "version" and len(rest) == 1:
            pack["version"] = rest[0].text
        elif key == "title" and len(rest) == 1:
            pack["title"] = rest[0].text
        elif key == "extends" and len(rest) == 1 and rest[0].kind in ("word", "string"):
            # Followed by compile_pack; the IR records the base once it is compiled.
            c.extends = rest[0]
        elif key == "extends":
            c.error(
                "CW105",
                "extends takes one base pack: a bundled pack's name or a quoted path",
                _phrase_span(rest) if rest else s.span,
                hint='write `extends acqinc` or `extends "../my-base"`',
            )
        elif key == "description" and len(rest) == 1:
            pack["description"] = rest[0].text
        elif key == "default" and len(rest) == 2 and rest[0].text.lower() == "board":
            c.default_board = rest[1]
        else:
            c.error(
                "CW102",
                f"unknown pack property `{s.head_text()}`",
                s.span,
                hint=did_you_mean(key, PACK_PROPS)
                or 'a pack takes version "1.0", title "...", description "..." and extends',
            )
    c.pack = pack


@declaration("include", form='include "FILE.clank"', writes=())
def include(c: _Compiler, st: Stmt) -> None:
    """`include "FILE"`: another file of the pack, read where the line is (followed while
    loading files)."""


part(
    "scenario",
    inside="scenarios go in the pack's scenarios/ folder (`clankwork test` runs them)",
    doc="`scenario NAME { ... }`: a rule checked by `clankwork test` (dsl/scenarios.py).",
    form="scenario NAME { setup ...; expect ... }",
)

# The pack block's own lines, written at the top of a file (`extends acqinc` under the pack
# line rather than in its block).
for _word, _example in (
    ("extends", "extends acqinc"),
    ("version", 'version "1.0"'),
    ("title", 'title "My Expansion"'),
    ("description", 'description "..."'),
):
    part(
        _word,
        inside=f"`{_word}` goes inside the pack's block: pack NAME {{ {_example} }}",
        doc=f"`{_example}`: a line of the `pack NAME {{ ... }}` block.",
        form=f"pack NAME {{ {_example} }}",
    )

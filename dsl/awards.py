"""Ranked awards at the end of the game, written in the `rules` block:

    rules {
      most veins: 7 points, second most 4 points, third most 2, ties share
      fewest damage: 3 points
    }

A line starts with its place (`most`, `second most`, `fewest`, `second fewest`...) and the
count ranked (any count `per` takes: a resource, `crown tokens`, `companion you own`,
`damage`...); after the colon, the points of that place, then other places of the same
award, and the tie rule (`ties share`, `ties all score`, `ties skip next`; share when not
said; interpreter/effects/ranking.py says what each means). A later line may add a place to
the award above it (`second most: 4 points`) or name its count again (`second most veins: 4
points`). The IR holds one `awards` entry per count and direction.
"""

from __future__ import annotations

from typing import Any

from clankwork.interpreter.effects import COUNTS
from clankwork.interpreter.effects.ranking import DEFAULT_TIES, PLACES

from .diagnostics import did_you_mean
from .limits import RANGES
from .parser import Atom, Effect, Stmt, atoms_span
from .phrases import leading_words, resolve

# A place's words: `most` is the first; `second` (or `2nd`) most the next...
_ORDINALS = {w: i for i, w in enumerate(PLACES) if i} | {"2nd": 1, "3rd": 2, "4th": 3}
_DIRECTIONS = {"most": False, "fewest": True, "least": True}
# What follows `ties`.
TIE_WORDS = {
    ("share",): "share",
    ("share", "it"): "share",
    ("split",): "share",
    ("all", "score"): "all",
    ("all", "score", "it"): "all",
    ("all", "get", "it"): "all",
    ("each", "score"): "all",
    ("skip", "next"): "skip",
    ("skip", "the", "next"): "skip",
    ("skip", "the", "next", "place"): "skip",
}
_TIE_HINT = "write `ties share`, `ties all score` or `ties skip next`"


def is_award(s: Stmt) -> bool:
    """Whether a rules line is an award (`most ...:`, `second most ...:`, `fewest ...:`)."""
    words = s.words
    if s.effects is None or not words:
        return False
    if words[0] in _DIRECTIONS:
        return True
    return words[0] in _ORDINALS and len(words) > 1 and words[1] in _DIRECTIONS


def _place(words: list[str]) -> tuple[int, bool, int] | None:
    """(place, fewest, words read) of words starting with a place, or None."""
    if words and words[0] in _DIRECTIONS:
        return 0, _DIRECTIONS[words[0]], 1
    if len(words) > 1 and words[0] in _ORDINALS and words[1] in _DIRECTIONS:
        return _ORDINALS[words[0]], _DIRECTIONS[words[1]], 2
    return None


class Awards:
    """The `_Compiler` mixin for award lines; it uses the compiler's ``error``,
    ``_in_range``, ``resource_atoms`` and keeps the awards in ``self.awards``."""

    awards: list[dict[str, Any]]

    def _init_awards(self) -> None:
        self.awards = []

    def award_line(self, s: Stmt) -> None:
        """One `most COUNT: N points, second most M, ties share` line of the rules."""
        words = s.words
        place, fewest, n = _place(words)  # type: ignore[misc]
        count_atoms = s.head[n:]
        if count_atoms:
            count = self._award_count(count_atoms)
            if count is None:
                return
            award = self._award_for(count, fewest, s)
        elif self.awards and self.awards[-1]["fewest"] == fewest:
            award = self.awards[-1]
        else:
            self.error(  # type: ignore[attr-defined]
                "CW105",
                f"`{s.head_text()}` of what?",
                s.span,
                hint="name the count ranked: `most veins: 7 points`",
            )
            return
        first = True
        for e in s.effects or []:
            if not self._award_part(award, e, place if first else None):
                return
            first = False
        if not award["points"]:
            self.error(  # type: ignore[attr-defined]
                "CW105",
                "an award needs the points of its first place",
                s.span,
                hint="write `most veins: 7 points`",
            )

    def _award_count(self, atoms: list[Atom]) -> dict[str, Any] | None:
        failures: list[Any] = []
        atoms = self.resource_atoms(atoms, compared=True)  # type: ignore[attr-defined]
        node = resolve(COUNTS, atoms, failures)
        if node is None:
            self.error(  # type: ignore[attr-defined]
                "CW104",
                f"unknown count `{' '.join(a.source() for a in atoms)}`",
                atoms_span(atoms),
                hint=did_you_mean(atoms[0].text, leading_words(COUNTS))
                or "counts: `veins` (a declared resource), `crown tokens`, "
                '`companion you own`, `damage`, `"Some Card"`',
            )
            return None
        node["at"] = atoms_span(atoms).to_ir()
        return node

    def _award_for(self, count: dict[str, Any], fewest: bool, s: Stmt) -> dict[str, Any]:
        """The award of this count and direction, made on its first line."""
        key = {k: v for k, v in count.items() if k != "at"}
        for award in self.awards:
            same = {k: v for k, v in award["count"].items() if k != "at"}
            if same == key and award["fewest"] == fewest:
                return award
        award = {
            "count": count,
            "fewest": fewest,
            "points": [],
            "ties": DEFAULT_TIES,
            "at": s.span.to_ir(),
        }
        self.awards.append(award)
        return award

    def _award_part(self, award: dict[str, Any], e: Effect, place: int | None) -> bool:
        """One part after the colon: `7 points` (the line's own place), `second most 4
        points`, `ties share`. False after reporting a problem."""
        atoms = e.phrase
        words = [a.text.lower() if a.kind == "word" else "" for a in atoms]
        if e.form != "simple" or not atoms:
            self.error("CW105", "an award takes `N points`", e.span)  # type: ignore[attr-defined]
            return False
        if words[0] == "ties":
            ties = TIE_WORDS.get(tuple(words[1:]))
            if ties is None:
                self.error(  # type: ignore[attr-defined]
                    "CW105",
                    f"unknown tie rule `{' '.join(a.source() for a in atoms)}`",
                    e.span,
                    hint=did_you_mean(" ".join(words), [f"ties {' '.join(k)}" for k in TIE_WORDS])
                    or _TIE_HINT,
                )
                return False
            award["ties"] = ties
            return True
        if place is None:
            got = _place(words)
            if got is None or got[1] != award["fewest"]:
                self.error(  # type: ignore[attr-defined]
                    "CW105",
                    f"unknown award part `{' '.join(a.source() for a in atoms)}`",
                    e.span,
                    hint="after the first place's points: `second most 4 points`, " + _TIE_HINT,
                )
                return False
            place, atoms = got[0], atoms[got[2] :]
            words = words[got[2] :]
        if words[-1:] in (["points"], ["point"]):
            atoms = atoms[:-1]
        if len(atoms) != 1 or atoms[0].kind not in ("number", "signed"):
            self.error(  # type: ignore[attr-defined]
                "CW105",
                "an award's place takes a number of points",
                e.span,
                hint="write `most veins: 7 points, second most 4 points`",
            )
            return False
        value = self._in_range(atoms[0], "award points", RANGES["points"])  # type: ignore[attr-defined]
        if value is None:
            return False
        points = award["points"]
        if place > len(points):
            self.error(  # type: ignore[attr-defined]
                "CW105",
                f"place {place + 1} of the award comes before place {len(points) + 1}",
                e.span,
                hint="give the places in order: `most X: 7 points, second most 4 points`",
            )
            return False
        if place < len(points):
            points[place] = value
        else:
            points.append(value)
        return True

"""Conditions as a designer writes them: one condition phrase, or several joined by `or` and
`and`, each possibly denied with `not` (in front, or inside its own words: `you are not in a
forest`). The records `not`, `any` and `all` (interpreter/effects/logic.py) hold the parts.

`unless CONDITION` is `if not CONDITION`; the callers that read `if` read `unless` too
(`UNLESS`), and hand the words after it here with ``deny``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clankwork.interpreter.effects import CONDITIONS

from .parser import Atom, atoms_span
from .phrases import resolve

# The words that may stand where `if` does, and whether they deny the condition after them.
IF_WORDS = {"if": False, "unless": True}
# Words that deny the sentence they stand in ("you do not hold", "you don't hold").
_DENIALS = (("do", "not"), ("does", "not"), ("don't",), ("doesn't",), ("not",))


def _word(atom: Atom) -> str | None:
    return atom.text.lower() if atom.kind == "word" else None


def _span(atoms: list[Atom]) -> dict[str, Any]:
    return atoms_span(atoms).to_ir()


def _parts(atoms: list[Atom], word: str) -> list[list[Atom]] | None:
    """``atoms`` cut at each ``word``, when every part has words (else None)."""
    cuts = [i for i, a in enumerate(atoms) if _word(a) == word]
    if not cuts:
        return None
    bounds = [-1, *cuts, len(atoms)]
    parts = [atoms[a + 1 : b] for a, b in zip(bounds, bounds[1:], strict=False)]
    return parts if all(parts) else None


def parse_condition(
    atoms: list[Atom], failures: list[Any], deny: bool = False
) -> dict[str, Any] | None:
    """The condition node ``atoms`` say (denied with ``deny``), or None when no reading of
    them is a condition. Numbers out of range are added to ``failures`` (see `resolve`)."""
    node = _either(atoms, failures)
    if node is not None and deny:
        node = {"cond": "not", "of": node, "at": node["at"]}
    return node


def _either(atoms: list[Atom], failures: list[Any]) -> dict[str, Any] | None:
    return _joined(atoms, failures, "or", "any", _both)


def _both(atoms: list[Atom], failures: list[Any]) -> dict[str, Any] | None:
    return _joined(atoms, failures, "and", "all", _one)


def _joined(
    atoms: list[Atom],
    failures: list[Any],
    word: str,
    cond: str,
    part: Callable[[list[Atom], list[Any]], dict[str, Any] | None],
) -> dict[str, Any] | None:
    # Split at ``word`` only when every part reads as a condition (by ``part``): `2 or more
    # companions in play` is one condition, whose words hold an `or`.
    parts = _parts(atoms, word)
    if parts is not None:
        nodes = [part(p, failures) for p in parts]
        if all(n is not None for n in nodes):
            return {"cond": cond, "of": nodes, "at": _span(atoms)}
    return part(atoms, failures)


def _one(atoms: list[Atom], failures: list[Any]) -> dict[str, Any] | None:
    if len(atoms) > 1 and _word(atoms[0]) == "not":
        inner = _one(atoms[1:], failures)
        return None if inner is None else {"cond": "not", "of": inner, "at": _span(atoms)}
    node = resolve(CONDITIONS, atoms, failures)
    if node is not None:
        node["at"] = _span(atoms)
        return node
    # A sentence denied in its own words: "you are not in a forest", "you do not hold X".
    words = [_word(a) for a in atoms]
    for i in range(1, len(atoms)):
        for denial in _DENIALS:
            if tuple(words[i : i + len(denial)]) != denial:
                continue
            inner = resolve(CONDITIONS, atoms[:i] + atoms[i + len(denial) :], failures)
            if inner is not None:
                inner["at"] = _span(atoms)
                return {"cond": "not", "of": inner, "at": _span(atoms)}
    return None


def failing_part(atoms: list[Atom]) -> list[Atom]:
    """The words to blame when ``atoms`` is no condition: of conditions joined by `or` and
    `and`, the first part that is none (when another part is one), else all of them."""
    for word in ("or", "and"):
        parts = _parts(atoms, word)
        if parts is None:
            continue
        bad = [p for p in parts if _either(p, []) is None]
        if bad and len(bad) < len(parts):
            return failing_part(bad[0])
    if len(atoms) > 1 and _word(atoms[0]) == "not":
        return failing_part(atoms[1:])
    return atoms

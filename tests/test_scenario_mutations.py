"""The bundled packs' scenarios, mutated one word at a time: nothing a designer can write in a
scenario reaches the engine as a traceback.

Statements are sampled by kind (`play NAME`, `bag player N N`, `expect player N skill N`,
`player N { at NAME }`...: up to three of each, from every pack), and each word, name and
number of a sampled statement is changed in turn:

- a word or name misspelt (`Burgle` -> `Burgleq`, `black` -> `blackq`) is a diagnostic when the
  scenario compiles, as `clankwork check` compiles it;
- a seat (`player N`, `bag player N`, `draws N`, `expect winner N`...) past the scenario's
  players is a diagnostic (CW140);
- any other number made huge is a diagnostic, or the scenario runs to a pass or a failure at
  a line, never a failure of the engine (CW403).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clankwork.dsl.compiler import compile_pack, parser
from clankwork.dsl.diagnostics import has_errors
from clankwork.dsl.parser import Atom, Stmt
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.tools.scenario_cmd import run_one

ROOT = Path(__file__).resolve().parent.parent
PACKS = sorted(p.name for p in (ROOT / "content").iterdir() if (p / "scenarios").is_dir())
PER_KIND = 3

# Statements no bundled scenario happens to use, so that every kind is mutated too.
EXTRA = {
    "tutorial": 'scenario "extra" {\n  seed 3\n  players 3\n  player 1 { boots 2; hand Burgle }\n'
    '  player 2 { tokens "Potion of Healing" }\n  expect cannot use "Potion of Healing"\n'
    "  expect player 3 supply 30\n}\n",
}


def _is_seat(stmt: Stmt, i: int, inner: bool) -> bool:
    """Whether atom ``i`` of a statement is a seat, as docs/scenarios.md writes the forms."""
    words = [a.text.lower() if a.kind == "word" else None for a in stmt.head]
    if inner or stmt.head[i].kind != "number":
        return False
    before = words[i - 1] if i else None
    return (
        (before == "player" and (i == 1 or words[0] in ("first", "bag", "expect")))
        or words[0] == "draws"
        or (words[0] == "expect" and i == 2 and words[1] in ("winner", "turn"))
    )


def _kind(stmt: Stmt, inner: bool) -> tuple[str, ...]:
    words = tuple(a.text.lower() if a.kind == "word" else "#" for a in stmt.head)
    if inner:
        return ("player {}", words[0])
    if words[0] == "expect":
        return words[:4] if words[1:2] == ("player",) else words[:3]
    return words[:1]


def _samples() -> list[Any]:
    """(pack, kind, scenario text, statement, inner, players) for each sampled statement."""
    by_kind: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
    for pack in PACKS:
        files = sorted((ROOT / "content" / pack / "scenarios").glob("*.clank"))
        texts = [f.read_text(encoding="utf-8") for f in files]
        if pack in EXTRA:
            texts.append(EXTRA[pack])
        for text in texts:
            stmts, _ = parser().parse(text, "s.clank")
            lines = text.split("\n")
            for sc in stmts:
                if sc.words[0] != "scenario":
                    continue  # a `balance` block: tests/tools/test_balance.py
                body = "\n".join(lines[sc.span.line - 1 : sc.span.end_line])
                players = next(
                    (
                        int(s.head[1].value)
                        for s in sc.block or []
                        if s.words[0] == "players"
                        and len(s.head) == 2
                        and s.head[1].kind == "number"
                    ),
                    2,
                )
                for s in sc.block or []:
                    line0 = sc.span.line
                    if s.words[0] == "player" and s.block is not None:
                        by_kind.setdefault(("player",), []).append(
                            (pack, body, line0, s, False, players)
                        )
                        for p in s.block:
                            by_kind.setdefault(_kind(p, True), []).append(
                                (pack, body, line0, p, True, players)
                            )
                    else:
                        by_kind.setdefault(_kind(s, False), []).append(
                            (pack, body, line0, s, False, players)
                        )
    out = []
    for kind, found in sorted(by_kind.items()):
        picks = sorted({0, len(found) // 2, len(found) - 1})[:PER_KIND]
        for k in picks:
            pack, body, line0, stmt, inner, players = found[k]
            out.append(
                pytest.param(
                    pack, body, line0, stmt, inner, players, id=f"{pack}: {' '.join(kind)}"
                )
            )
    return out


def _replace(body: str, line0: int, atom: Atom, new: str) -> str:
    lines = body.split("\n")
    k = atom.span.line - line0
    line = lines[k]
    lines[k] = line[: atom.span.col - 1] + new + line[atom.span.end_col - 1 :]
    return "\n".join(lines)


def _misspelt(atom: Atom) -> str:
    return f'"{atom.value}q"' if atom.kind == "string" else f"{atom.text}q"


_IRS: dict[str, dict[str, Any]] = {}
_CATALOGS: dict[str, dict[Any, Any]] = {}


def _compile(tmp_path: Path, pack: str, text: str) -> tuple[list[dict[str, Any]], list[Any]]:
    if pack not in _IRS:
        _IRS[pack] = compile_pack(ROOT / "content" / pack).ir
    (tmp_path / "scenarios").mkdir(exist_ok=True)
    (tmp_path / "scenarios" / "s.clank").write_text(text, encoding="utf-8")
    scenarios, diags, _ = compile_scenarios(tmp_path, _IRS[pack])
    return scenarios, diags


@pytest.mark.parametrize(("pack", "body", "line0", "stmt", "inner", "players"), _samples())
def test_a_mutated_statement_is_a_diagnostic_or_runs(
    tmp_path: Path, pack: str, body: str, line0: int, stmt: Stmt, inner: bool, players: int
) -> None:
    scenarios, diags = _compile(tmp_path, pack, body)
    assert scenarios and not has_errors(diags), diags  # the statement as written compiles
    answer = stmt.words[0] == "answer" or stmt.words[:3] in (["expect", "can", "answer"],)
    for i, atom in enumerate(stmt.head):
        for mutated, must in _mutations(stmt, i, inner, players, answer):
            _check(tmp_path, pack, body, line0, stmt, atom, mutated, must)


def _mutations(
    stmt: Stmt, i: int, inner: bool, players: int, answer: bool
) -> list[tuple[str, str]]:
    """What atom ``i`` is changed to, each with what makes the change wrong ("" when the
    changed scenario may be right)."""
    atom = stmt.head[i]
    if atom.kind in ("word", "string") and not (answer and i > 0):
        return [(_misspelt(atom), "a misspelt word")]
    if atom.kind == "number" and _is_seat(stmt, i, inner):
        return [(str(players + 1), "a seat past the players")]
    if atom.kind in ("number", "signed"):
        # Past every range, and a plausible number the game may or may not allow.
        return [("99999", ""), (str(abs(int(atom.value)) + 7), "")]
    return []


def _check(
    tmp_path: Path,
    pack: str,
    body: str,
    line0: int,
    stmt: Stmt,
    atom: Atom,
    mutated: str,
    must: str,
) -> None:
    text = _replace(body, line0, atom, mutated)
    scenarios, diags = _compile(tmp_path, pack, text)
    said = f"{stmt.head_text()!r} with {atom.text!r} -> {mutated!r}"
    if has_errors(diags):
        assert all(d.span is not None for d in diags), (said, diags)
        return
    assert not must, f"{must} compiles: {said}"
    (sc,) = scenarios
    outcome = run_one(_IRS[pack], sc, _CATALOGS.setdefault(pack, {}))
    assert all(f.kind != "crash" for f in outcome.failures), (said, outcome.failures)

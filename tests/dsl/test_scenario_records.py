"""The scenario statements and facts are records: each registered verb and fact compiles and
runs through the registries, and a new one registered (here, in a test) is all it takes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clankwork.dsl.scenario_words import FORMS, SHAPES, STATEMENTS, STEP_ARGS, compiles
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.interpreter.scenario import FACTS, VERBS, run_scenario
from clankwork.interpreter.scenario_words import SETUP_RUNS, fact, setup_run, verb

ROOT = Path(__file__).resolve().parent.parent.parent


def _compile(tmp_path: Path, ir: dict, body: str) -> tuple[list, list]:
    (tmp_path / "scenarios").mkdir(exist_ok=True)
    (tmp_path / "scenarios" / "s.clank").write_text(
        'scenario "s" {\n' + body + "\n}\n", encoding="utf-8"
    )
    scenarios, diags, _ = compile_scenarios(tmp_path, ir)
    return scenarios, diags


@pytest.fixture
def registries() -> Iterator[None]:
    """Whatever a test registers is gone after it."""
    tables: tuple[dict[Any, Any], ...] = (VERBS, FACTS, STATEMENTS)
    saved = [dict(t) for t in tables]
    runs = list(SETUP_RUNS)
    try:
        yield
    finally:
        for live, old in zip(tables, saved, strict=True):
            live.clear()
            live.update(old)
        SETUP_RUNS[:] = runs


def test_a_new_setup_verb_and_fact_compile_and_run(
    tmp_path: Path, tutorial_ir: dict, registries: None
) -> None:
    verb("bonus gold", "setup", ("bonus gold N",), "each player gains N gold", "bonus gold 2")

    @setup_run("bonus gold")
    def _run(game: Any, sc: dict[str, Any]) -> None:
        for p in game.players:
            p.gold += sc.get("bonus_gold", 0)

    @compiles("bonus gold")
    def _read(c: Any, sc: dict[str, Any], s: Any, args: list[Any]) -> bool | None:
        value = c.number(s, args, "bonus gold", "scenario count")
        if value is not None:
            sc["bonus_gold"] = value
        return None

    @fact("game", "total gold", "int", "gold of all players together", "expect total gold 4")
    def _total(game: Any, _p: None, _step: Any) -> Any:
        return sum(game.gold_of(p) for p in game.players)

    (sc,), diags = _compile(tmp_path, tutorial_ir, "bonus gold 3\nexpect total gold 6")
    assert not diags
    assert sc["bonus_gold"] == 3 and sc["setup_at"]["bonus gold"]["line"] == 2
    assert run_scenario(tutorial_ir, sc).ok
    (sc,), _ = _compile(tmp_path, tutorial_ir, "bonus gold 3\nexpect total gold 5")
    (failure,) = run_scenario(tutorial_ir, sc).failures
    assert failure.message == "expected total gold 5, got 6"


def test_an_unknown_verb_or_fact_is_told_the_registered_ones(
    tmp_path: Path, tutorial_ir: dict, registries: None
) -> None:
    verb("bonus gold", "setup", ("bonus gold N",), "each player gains N gold", "bonus gold 2")
    compiles("bonus gold")(lambda c, sc, s, args: None)
    fact("player", "bonus", "int", "a bonus", "expect player 1 bonus 1")(lambda g, p, s: 0)
    _, diags = _compile(tmp_path, tutorial_ir, "bonsu gold 1\nexpect player 1 bonsu 1")
    assert [(d.code, d.hint) for d in diags] == [
        ("CW102", 'did you mean "bonus"?'),
        ("CW102", 'did you mean "bonus"?'),
    ]


def test_every_record_has_a_reader_and_a_run_side() -> None:
    for v in VERBS.values():
        if v.part == "step":
            assert v.arg in STEP_ARGS, f"no step argument reader for {v.words!r} ({v.arg})"
        else:
            assert v.words in STATEMENTS, f"no compile function for {v.words!r}"
    for f in FACTS.values():
        if f.about == "form":
            assert f.words[0] in FORMS, f"no form reader for expect {' '.join(f.words)}"
        else:
            assert f.shape in SHAPES, f"no reader of shape {f.shape!r} ({f.name})"
        assert (f.value is None) != (f.check is None), f.name
        assert f.doc and f.example.startswith("expect "), f.name


def test_every_fact_is_in_the_scenarios_doc() -> None:
    """The statements' lists are generated (tools/scenario_docs.py); the facts' tables are
    written by hand, grouped, and must name every fact a player or the game has."""
    doc = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Expectations") : doc.index("## Tips")]
    written = [w for line in section.splitlines() for w in re.findall(r"`([^`]+)`", line)]
    missing = []
    for f in FACTS.values():
        said = " ".join(w for w in f.words if w != "no")  # `has [no] CARD`
        if f.about != "form" and not any(w.startswith(said + " ") for w in written):
            missing.append(" ".join(f.words))
    assert not missing, f"the expectations of docs/scenarios.md do not name: {missing}"

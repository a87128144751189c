"""The scenario compiler sees every fact and verb when it is imported on its own (as
`clankwork check` imports it): the records register as a side effect of importing the run
side's modules, which a moved import could silently undo."""

from __future__ import annotations

import subprocess
import sys

import pytest

import clankwork.dsl.scenarios  # noqa: F401  (registers the expectation forms)
from clankwork.dsl.resolve import REFERENCE_CHECKS, reference_check
from clankwork.dsl.scenario_words import FORMS, form
from clankwork.interpreter.schema_sections import IR_SECTIONS, section


def test_importing_the_scenario_compiler_alone_registers_every_fact_and_verb() -> None:
    code = (
        "import clankwork.dsl.scenarios\n"
        "from clankwork.dsl.scenario_words import GAME_FACTS, PLAYER_FACTS\n"
        "from clankwork.interpreter.scenario_words import FACTS, VERBS\n"
        "print(len(FACTS), len(VERBS), len(PLAYER_FACTS), len(GAME_FACTS))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    facts, verbs, player, game = map(int, out.stdout.split())
    assert facts >= 60 and verbs >= 40, out.stdout
    assert player and game, out.stdout


def test_a_registry_refuses_a_second_record_under_one_name() -> None:
    assert REFERENCE_CHECKS and IR_SECTIONS and FORMS
    with pytest.raises(ValueError, match="registered twice"):
        reference_check(next(iter(REFERENCE_CHECKS)))(lambda refs: [])
    with pytest.raises(ValueError, match="registered twice"):
        section(next(iter(IR_SECTIONS)))(lambda: {})
    with pytest.raises(ValueError, match="registered twice"):
        form(next(iter(FORMS)))(lambda *a: None)

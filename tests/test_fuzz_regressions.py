"""Every distinct crash the fuzzers found, reduced to the edit that caused it.

Each was a traceback, a hang or an exhausted machine before issue 13; each is now a
diagnostic (or a one-line usage error) naming the place to fix.
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import fuzzing
import pytest
from click.testing import CliRunner

from clankwork.dsl.diagnostics import has_errors
from clankwork.interpreter.schema import validate_ir
from clankwork.tools.check import compile_and_check
from clankwork.tools.cli import main

TUTORIAL = fuzzing.ROOT / "content" / "tutorial"


def _edited(tmp_path: Path, file: str, old: str, new: str) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(TUTORIAL, pack)
    text = (pack / file).read_text(encoding="utf-8")
    assert old in text
    (pack / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return pack


@pytest.mark.parametrize(
    ("file", "old", "new", "code", "said"),
    [
        # KeyError in interpreter/board.py: a path named a space with another case.
        (
            "board.clank",
            'path "Mossy Path" -- "Whispering Wood"',
            'path "Mossy Path" -- "wHISPERING wOOD"',
            "CW107",
            'did you mean "Whispering Wood"?',
        ),
        # RecursionError converting the parse tree: blocks nested a thousand deep.
        (
            "adventure.clank",
            "monster Dryad",
            "card Deep { cost 1; play: " + "{ x " * 1000 + "}" * 1000 + " }\nmonster Dryad",
            "CW007",
            "nested more than",
        ),
        # ValueError from int(): a literal of 5,000 digits.
        (
            "adventure.clank",
            "copies 2; fight 2;",
            "copies " + "9" * 5000 + "; fight 2;",
            "CW113",
            "",
        ),
        # A hang: a monster with 2**63 copies was dealt into the adventure deck one by one.
        (
            "adventure.clank",
            "copies 2; fight 2;",
            "copies 9223372036854775808; fight 2;",
            "CW113",
            "",
        ),
    ],
)
def test_a_crash_the_fuzzer_found_is_a_diagnostic(
    tmp_path: Path, file: str, old: str, new: str, code: str, said: str
) -> None:
    result = compile_and_check(_edited(tmp_path, file, old, new))
    assert has_errors(result.diagnostics)
    found = [d for d in result.diagnostics if d.code == code]
    assert found, [(d.code, d.message) for d in result.diagnostics]
    assert found[0].span is not None and found[0].span.file.endswith(file)
    assert said in f"{found[0].message} {found[0].hint}"


def test_rule_override_past_the_digit_limit_is_a_usage_error() -> None:
    # ValueError from json.loads in simulate --rule.
    args = ["simulate", str(TUTORIAL), "--games", "1", "--rule", "round_cap=" + "9" * 5000]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert not isinstance(result.exception, ValueError)


def test_ir_without_a_default_parameter_is_refused(tutorial_ir: dict) -> None:
    # KeyError in the card renderer: a hand-edited IR left out `n` of a draw.
    ir = copy.deepcopy(tutorial_ir)
    draws = [
        e for c in ir["cards"] for t in c["triggers"] for e in t["effects"] if e.get("op") == "draw"
    ]
    assert draws
    del draws[0]["n"]
    errors = validate_ir(ir)
    assert errors and "'n' is a required property" in errors[0][1]

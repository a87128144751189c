"""Generated docs are current: what docs/ says is what the registry accepts."""

from __future__ import annotations

from click.testing import CliRunner

from clankwork.tools.cli import main
from clankwork.tools.docs import language_reference


def test_docs_are_current() -> None:
    result = CliRunner().invoke(main, ["docs", "--check"])
    assert result.exit_code == 0, result.output + " (regenerate with `clankwork docs --write`)"


def test_every_effect_example_compiles() -> None:
    from clankwork.dsl.compiler import compile_text
    from clankwork.interpreter.effects import EFFECTS

    for record in EFFECTS:
        for example in record.examples:
            src = f"card X {{ cost 1; play: {example} }}\ncard Y {{ cost 1; tag companion }}\n"
            src += 'token "Mystic Fruit" { fruit 1 }\ntoken Relic { artifact; points 5 }\n'
            src += 'token "Golden Statue" { count 3 }\ntoken Egg { major secret 1 }\n'
            src += "token Guard { count 2 }\n"
            src += "token Hunter { cube 2 }\n"
            src += "reserve Goblin { fight 2 }\nreserve Hobgoblin { fight 3; set aside }\n"
            src += "card Burgle { starting 10 }\nrules { counter doom max 5 }\n"
            src += 'reserve "Secret Tome" { copies 12; cost 7; points 7 }\n'
            src += 'campaign { track "Rival Guild" { spaces 10 } }\n'
            result = compile_text(src, "example.clank")
            assert result.ok, (record.name, example, result.diagnostics)


def test_reference_lists_every_op() -> None:
    from clankwork.interpreter.effects import EFFECTS

    text = language_reference()
    for record in EFFECTS:
        assert f"### `{record.name}`" in text


def test_reference_lists_every_action_kind_with_what_it_does() -> None:
    # An action kind's `doc` was written by hand and shown nowhere; the reference is made
    # from the kinds, so a new kind appears with its description.
    from clankwork.interpreter.actions import ACTION_KINDS

    text = language_reference()
    for kind in ACTION_KINDS:
        assert kind.doc.strip(), f"action kind {kind.name!r} says nothing of what it does"
        assert f"| `{kind.name}` | " in text

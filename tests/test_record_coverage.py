"""Every registered record is exercised by a scenario (OpenSpiel runs every registered game).

All scenarios of the bundled packs and of the fixture packs under tests/fixtures are run with
the registries' handlers wrapped: an effect op, a condition or a count is exercised when a
scenario's game calls its handler; a trigger when the effects of one of its lines run (by the
effect's source position, so a card's own moments count as much as the generic triggers); a
scenario statement's verb or a fact `expect` states when a scenario that is run says it.
A record no scenario reaches is a record whose rules nobody has written down: the test fails
and names it, with where to add the scenario (docs/extending.md).

`NOT_YET` lists the records with no scenario today, each with why; remove an entry when a
scenario covers it (the test fails on an entry that is covered, so the list only shrinks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from clankwork.dsl.compiler import compile_pack
from clankwork.dsl.diagnostics import has_errors
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.dsl.stickers import campaign_key, campaign_setup
from clankwork.interpreter.effects import CONDITIONS, COUNTS, EFFECTS, TRIGGERS
from clankwork.interpreter.scenario import FACTS, VERBS
from clankwork.tools.scenario_cmd import run_one

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (ROOT / "content", ROOT / "tests" / "fixtures")

# family:name -> why no scenario exercises it yet.
NOT_YET: dict[str, str] = {}


def _packs() -> list[Path]:
    return sorted(p for base in SOURCES for p in base.iterdir() if (p / "scenarios").is_dir())


def _spot(node: dict[str, Any]) -> tuple[Any, ...] | None:
    at = node.get("at")
    if not isinstance(at, dict):
        return None
    return (at.get("file"), at.get("line"), at.get("col"))


def _triggers(ir: Any) -> Iterator[dict[str, Any]]:
    """Every trigger line anywhere in a compiled pack (cards, tokens, spaces, paths, rules)."""
    if isinstance(ir, dict):
        if isinstance(ir.get("on"), str) and isinstance(ir.get("effects"), list):
            yield ir
        for v in ir.values():
            yield from _triggers(v)
    elif isinstance(ir, list):
        for v in ir:
            yield from _triggers(v)


def _nodes(effects: Any) -> Iterator[dict[str, Any]]:
    """Effect nodes inside an effect list, nested ones included."""
    if isinstance(effects, dict):
        if "op" in effects:
            yield effects
        for v in effects.values():
            yield from _nodes(v)
    elif isinstance(effects, list):
        for v in effects:
            yield from _nodes(v)


def _scenario_words(sc: dict[str, Any]) -> set[str]:
    """The scenario records one compiled scenario uses: its statements' verbs and its facts."""
    said = set(sc.get("setup_at", ()))
    used = {
        f"verb:{v.words}" for v in VERBS.values() if v.part == "setup" and said & {v.words, *v.said}
    }
    if sc["setup"]:
        used.add("verb:player")
    for step in sc["steps"]:
        if step["do"] != "expect":
            used.add(f"verb:{step['do']}")
            continue
        used.add("verb:expect")
        about = "player" if "seat" in step else "game"
        used.add(f"fact:{about}:{step['fact']}")
        if "action" in step:
            used.add(f"verb:{step['action']['do']}")
    return used


class _Tally:
    """Which handlers ran, and at which source positions effects ran."""

    def __init__(self) -> None:
        self.called: set[str] = set()
        self.spots: set[tuple[Any, ...]] = set()

    def wrap(self, family: str, name: str, handler: Callable[..., Any]) -> Callable[..., Any]:
        key = f"{family}:{name}"

        def counted(game: Any, ctx: Any, node: dict[str, Any]) -> Any:
            self.called.add(key)
            if family == "effect":
                spot = _spot(node)
                if spot is not None:
                    self.spots.add(spot)
            return handler(game, ctx, node)

        return counted


@pytest.fixture(scope="module")
def exercised() -> set[str]:
    """Run every scenario once with counting handlers; the records they reached."""
    tally = _Tally()
    patch = pytest.MonkeyPatch()
    families = (("effect", EFFECTS), ("condition", CONDITIONS), ("count", COUNTS))
    for family, registry in families:
        for name, handler in list(registry.handlers.items()):
            patch.setitem(registry.handlers, name, tally.wrap(family, name, handler))
    lines: list[dict[str, Any]] = []
    try:
        for pack in _packs():
            result = compile_pack(pack)
            if not result.ok:
                continue  # test_pack_scenarios reports it
            scenarios, diags, _ = compile_scenarios(pack, result.ir)
            if has_errors(diags):
                continue
            catalogs: dict[Any, Any] = {}
            setups: set[tuple[Any, ...]] = set()
            for sc in scenarios:
                run_one(result.ir, sc, catalogs)
                tally.called |= _scenario_words(sc)
                key = campaign_key(sc)
                if key not in setups:  # a sticker's or patron's lines fill the pack's slots
                    setups.add(key)
                    lines += _triggers(campaign_setup(result.ir, sc))
    finally:
        patch.undo()
    reached = set(tally.called)
    for t in lines:
        if any(_spot(n) in tally.spots for n in _nodes(t["effects"])):
            reached.add(f"trigger:{t['on']}")
    return reached


def _registered() -> list[str]:
    return [
        f"{family}:{name}"
        for family, registry in (
            ("effect", EFFECTS),
            ("condition", CONDITIONS),
            ("count", COUNTS),
            ("trigger", TRIGGERS),
        )
        for name in registry.names()
        if family == "trigger" or registry[name].handler is not None
    ] + [
        *(f"verb:{words}" for words in VERBS),
        *(f"fact:{about}:{name}" for about, name in FACTS),
    ]


def test_every_record_is_exercised_by_a_scenario(exercised: set[str]) -> None:
    missing = [k for k in _registered() if k not in exercised and k not in NOT_YET]
    assert not missing, (
        "registered records that no scenario exercises (write one in a pack's scenarios/ "
        "folder or a fixture pack's, as docs/extending.md says): " + ", ".join(missing)
    )


def test_the_not_yet_list_only_shrinks(exercised: set[str]) -> None:
    stale = [k for k in NOT_YET if k in exercised or k not in _registered()]
    assert not stale, f"remove these from NOT_YET (covered now, or gone): {stale}"

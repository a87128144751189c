"""`clankwork test PACK`: run a pack's scenarios and report failures at their lines."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from clankwork.dsl.diagnostics import (
    Diagnostic,
    Span,
    format_github,
    format_human,
    format_json,
    has_errors,
)
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.dsl.stickers import campaign_key, campaign_setup
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.scenario import Outcome, run_scenario

from .check import bundled_pack, compile_and_check, display_path


def run_pack_scenarios(
    pack: Path, name_filter: str | None = None
) -> tuple[list[Outcome], list[Diagnostic], dict[str, str]]:
    """Compile a pack and its scenarios and run them; compile errors stop before running."""
    result = compile_and_check(pack)
    diags = [d for d in result.diagnostics if d.severity == "error"]
    if has_errors(diags) or result.ir is None:
        return [], diags, result.sources
    scenarios, sdiags, sources = compile_scenarios(
        pack, result.ir, display_path(pack), pack_sources=result.sources
    )
    result.sources.update(sources)
    if has_errors(sdiags):
        return [], sdiags, result.sources
    catalogs: dict[Any, Any] = {}
    outcomes = []
    for sc in scenarios:
        if name_filter and name_filter.lower() not in sc["name"].lower():
            continue
        board = sc.get("board", 0)
        key = (board, *campaign_key(sc))
        if key not in catalogs:
            catalogs[key] = prepare(campaign_setup(result.ir, sc), board)
        outcomes.append(run_scenario(catalogs[key], sc))
    return outcomes, [], result.sources


def failure_diagnostics(outcomes: list[Outcome]) -> list[Diagnostic]:
    """Scenario failures as diagnostics (CW401 expectations, CW402 scripts)."""
    out = []
    for o in outcomes:
        for f in o.failures:
            out.append(
                Diagnostic(
                    "CW401" if f.kind == "expect" else "CW402",
                    f"scenario {o.name!r}: {f.message}",
                    Span.from_ir(f.at) if f.at else Span.from_ir(o.at),
                )
            )
    return out


@click.command("test")
@click.argument("packs", nargs=-1, type=click.Path(exists=True, file_okay=False))
@click.option("-k", "name_filter", help="Run only scenarios whose name contains this text.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["human", "json", "github"]),
    default="human",
    show_default=True,
)
def command(packs: tuple[str, ...], name_filter: str | None, fmt: str) -> None:
    """Run the scenarios in PACKS' scenarios/ folders (default: the flagship pack).

    Exit 0 when every scenario passes, 1 when one fails or a pack has errors.
    """
    paths = [Path(p) for p in packs] or [bundled_pack()]
    all_diags: list[Diagnostic] = []
    sources: dict[str, str] = {}
    total = passed = 0
    lines = []
    for path in paths:
        outcomes, diags, srcs = run_pack_scenarios(path, name_filter)
        sources.update(srcs)
        all_diags.extend(diags)
        all_diags.extend(failure_diagnostics(outcomes))
        for o in outcomes:
            total += 1
            passed += o.ok
            lines.append(f"{'ok  ' if o.ok else 'FAIL'}  {o.name}")
    if fmt == "json":
        click.echo(format_json(all_diags))
    elif fmt == "github":
        text = format_github(all_diags)
        if text:
            click.echo(text)
    else:
        for line in lines:
            click.echo(line)
        if all_diags:
            click.echo()
            click.echo(format_human(all_diags, sources, color=sys.stdout.isatty()))
        noun = "scenario" if total == 1 else "scenarios"
        click.echo(f"{total} {noun}: {passed} passed, {total - passed} failed")
    sys.exit(1 if all_diags else 0)

"""`clankwork test PACK`: run a pack's scenarios and report failures at their lines."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from clankwork.dsl.balance import compile_balances
from clankwork.dsl.diagnostics import (
    Diagnostic,
    Span,
    format_github,
    format_human,
    format_json,
    has_errors,
    printable,
)
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.dsl.stickers import campaign_key, campaign_setup
from clankwork.interpreter.catalog import prepare
from clankwork.interpreter.scenario import Doing, Failure, Outcome, crash, run_scenario

from .balance import BalanceOutcome, run_balance
from .check import bundled_pack, compile_and_check, display_path
from .packs import PACK_FOLDER


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
        outcomes.append(run_one(result.ir, sc, catalogs))
    return outcomes, [], result.sources


def run_one(ir: dict[str, Any], sc: dict[str, Any], catalogs: dict[Any, Any]) -> Outcome:
    """Run one scenario on the pack as it states it (board, stickers, fetched and destroyed
    cards...), prepared once per such state in ``catalogs``. A pack that cannot be prepared
    so is the scenario's failure, at the first statement that says how."""
    board = sc.get("board", 0)
    key = (board, *campaign_key(sc))
    if key not in catalogs:
        lines = sc.get("setup_at", {})
        said = next(
            (
                w
                for w in ("sticker", "destroy", "fetch", "contract", "patron", "board")
                if w in lines
            ),
            None,
        )
        doing = Doing(lines[said] if said else sc["at"], f"setting up `{said or 'the game'}`")
        try:
            catalogs[key] = prepare(campaign_setup(ir, sc), board)
        except ValueError as e:
            out = Outcome(sc["name"], sc["at"])
            out.failures.append(Failure(str(e), doing.at))
            return out
        except Exception as e:  # a bug preparing the pack: this scenario's failure
            out = Outcome(sc["name"], sc["at"])
            out.failures.append(crash(e, doing))
            return out
    return run_scenario(catalogs[key], sc)


CRASH_HINT = (
    "a bug in Clankwork or a rule it cannot carry out; `clankwork test --verbose` prints the "
    "traceback (please report it with the pack)"
)


def failure_diagnostics(outcomes: list[Outcome]) -> list[Diagnostic]:
    """Scenario failures as diagnostics (CW401 expectations, CW402 scripts, CW403 crashes)."""
    out = []
    for o in outcomes:
        for f in o.failures:
            out.append(
                Diagnostic(
                    {"expect": "CW401", "crash": "CW403"}.get(f.kind, "CW402"),
                    f"scenario {o.name!r}: {f.message}",
                    Span.from_ir(f.at) if f.at else Span.from_ir(o.at),
                    hint=CRASH_HINT if f.kind == "crash" else None,
                )
            )
    return out


def pack_balances(
    pack: Path, play: bool, name_filter: str | None = None, jobs: int = 1
) -> tuple[list[BalanceOutcome], list[Diagnostic], dict[str, str], int]:
    """A pack's `balance` blocks, checked, and played when ``play``: their outcomes, their
    compile errors, the files read, and how many were left unplayed."""
    result = compile_and_check(pack)
    if result.ir is None or has_errors(result.diagnostics):
        return [], [], {}, 0  # the scenarios' run reports the pack's errors
    blocks, diags, sources = compile_balances(pack, result.ir, display_path(pack))
    if has_errors(diags):
        return [], diags, sources, 0
    chosen = [b for b in blocks if not name_filter or name_filter.lower() in b["name"].lower()]
    if not play:
        return [], [], sources, len(chosen)
    return [run_balance(result.ir, b, jobs) for b in chosen], [], sources, 0


def balance_diagnostics(outcomes: list[BalanceOutcome]) -> list[Diagnostic]:
    """Balance expectations that do not hold, at their lines (CW404)."""
    return [
        Diagnostic("CW404", f"balance {o.name!r}: {message}", Span.from_ir(at))
        for o in outcomes
        for message, at in o.failures
    ]


def tracebacks(outcomes: list[Outcome]) -> str:
    """The tracebacks of the scenarios the engine failed in (what `--verbose` adds)."""
    parts = []
    for o in outcomes:
        for f in o.failures:
            if f.trace:
                at = f.at or o.at
                parts.append(
                    f"traceback of scenario {o.name!r} ({at['file']}:{at['line']}):\n{f.trace}"
                )
    return "\n".join(parts)


@click.command("test")
@click.argument("packs", nargs=-1, type=PACK_FOLDER)
@click.option("-k", "name_filter", help="Run only scenarios whose name contains this text.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["human", "json", "github"]),
    default="human",
    show_default=True,
)
@click.option(
    "--verbose",
    "-v",
    is_flag=True,
    help="Print the traceback of a scenario the engine failed in (CW403).",
)
@click.option(
    "--balance",
    is_flag=True,
    help="Also play the packs' `balance` blocks (bot games: slower) and check their expectations.",
)
@click.option(
    "--jobs",
    "-j",
    default=1,
    show_default=True,
    type=click.IntRange(0, 256),
    help="Processes to play a balance block's games in (the results do not depend on it).",
)
def command(
    packs: tuple[str, ...],
    name_filter: str | None,
    fmt: str,
    verbose: bool,
    balance: bool,
    jobs: int,
) -> None:
    """Run the scenarios in PACKS' scenarios/ folders (default: the bundled flagship pack),
    and with --balance their `balance` blocks.

    Exit 0 when every scenario passes, 1 when one fails or a pack has errors.
    """
    paths = [Path(p) for p in packs] or [bundled_pack()]
    all_diags: list[Diagnostic] = []
    sources: dict[str, str] = {}
    total = passed = unplayed = 0
    lines = []
    traces = []
    for path in paths:
        outcomes, diags, srcs = run_pack_scenarios(path, name_filter)
        sources.update(srcs)
        all_diags.extend(diags)
        all_diags.extend(failure_diagnostics(outcomes))
        traces.append(tracebacks(outcomes))
        for o in outcomes:
            total += 1
            passed += o.ok
            lines.append(f"{'ok  ' if o.ok else 'FAIL'}  {o.name}")
        played, bdiags, bsrcs, skipped = pack_balances(path, balance, name_filter, jobs)
        sources.update(bsrcs)
        all_diags.extend(bdiags)
        all_diags.extend(balance_diagnostics(played))
        unplayed += skipped
        for b in played:
            total += 1
            passed += b.ok
            lines.append(f"{'ok  ' if b.ok else 'FAIL'}  balance: {b.name} ({b.games} games)")
    # A traceback quotes the pack (names, messages): shown escaped, line by line.
    trace = "\n".join(printable(line) for t in traces if t for line in t.splitlines())
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
        if verbose and trace:
            click.echo(trace)
            click.echo()
        noun = "scenario" if total == 1 else "scenarios"
        if unplayed:
            click.echo(f"{unplayed} balance block{'s' if unplayed != 1 else ''} not played "
                       "(--balance plays them)")  # fmt: skip
        click.echo(f"{total} {noun}: {passed} passed, {total - passed} failed")
    if verbose and trace and fmt != "human":
        # Beside a machine-read document, not in it.
        click.echo(trace, err=True)
    sys.exit(1 if all_diags else 0)

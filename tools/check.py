"""`clankwork check`, `build` and `schema`: compile packs, report diagnostics, write IR."""

from __future__ import annotations

import gc
import json
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib import metadata, resources
from pathlib import Path
from typing import Any

import click

from clankwork.dsl.balance import compile_balances
from clankwork.dsl.boardcheck import check_boards
from clankwork.dsl.compiler import CompileResult, compile_pack
from clankwork.dsl.diagnostics import (
    Diagnostic,
    Span,
    format_github,
    format_human,
    format_json,
    format_sarif,
    has_errors,
    printable,
    summary_line,
)
from clankwork.dsl.scenarios import compile_scenarios
from clankwork.interpreter.schema import schema_text, validate_ir

from .campaign_schema import campaign_schema_text
from .check_cache import CheckCache, LastParse, PackPart
from .ir_file import is_ir_file, read_ir_file
from .outputs import check_file_target, write_text

# The bundled packs are looked up in .packs; other tools import these names from here too.
from .packs import FLAGSHIP, PACK, bundled_pack
from .packs import bundled_names as bundled_names


def display_path(path: Path) -> Path:
    """``path`` relative to the working directory when it is inside it, for shorter messages."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Pause Python's cycle collector while a pack is compiled and checked.

    Compiling allocates millions of objects that all stay alive (syntax trees, then the IR),
    and each automatic collection walks the ones it has not yet promoted; on a 10,000-card
    pack that was more than half of the CPU time. Compiling makes no reference cycles worth
    collecting (the collector runs as usual afterwards), so this changes time, not memory."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def compile_and_check(
    pack: Path, overrides: Mapping[str, str] | None = None, cache: CheckCache | None = None
) -> CompileResult:
    """Compile a pack and run every check on it: the IR schema and the board graph checks.

    The whole IR is validated against the schema: a compiler bug that breaks it is a CW301
    here, whatever the pack. `validate_ir` does that in about a second for 100,000 cards.
    ``overrides`` (path inside the pack → text) stands for unsaved editor buffers. ``cache``
    (the language server's, one per pack) keeps what the next run on the same pack may use
    again; the diagnostics are the same with it or without."""
    with no_cycle_collection():
        return _compile_and_check(pack, overrides, cache)


def _compile_and_check(
    pack: Path, overrides: Mapping[str, str] | None, cache: CheckCache | None
) -> CompileResult:
    part = _pack_part(pack, overrides, cache)
    # A new result each run: the kept one is never changed.
    compiled = part.result
    result = CompileResult(
        compiled.ir, [*compiled.diagnostics, *part.board], dict(compiled.sources)
    )
    if result.ir is not None:
        if pack.is_dir():
            # Without a cache, one parse of each scenario file serves both compilers below.
            whole = cache.whole if cache is not None else LastParse()
            _scenarios, diags, sources = compile_scenarios(
                pack,
                result.ir,
                display_path(pack),
                pack_sources=result.sources,
                overrides=overrides,
                parse=cache.parse if cache is not None else whole.parse,
                memo=part.scenarios if cache is not None else None,
            )
            result.diagnostics.extend(diags)
            result.sources.update(sources)
            # The files' `balance` blocks are checked too (played by `test --balance`).
            _blocks, diags, sources = compile_balances(
                pack, result.ir, display_path(pack), overrides=overrides, parse=whole.parse
            )
            result.diagnostics.extend(diags)
            result.sources.update(sources)
        if not has_errors(result.diagnostics):
            if part.schema is None:
                part.schema = validate_ir(result.ir)
            for where, message in part.schema:
                result.diagnostics.append(
                    Diagnostic(
                        "CW301",
                        f"IR does not match its schema at {where}: {message}",
                        None,
                        hint="this is a bug in Clankwork; please report it with the pack",
                    )
                )
        result.diagnostics.sort(key=Diagnostic.sort_key)
    return result


def _pack_part(
    pack: Path, overrides: Mapping[str, str] | None, cache: CheckCache | None
) -> PackPart:
    """The compiled pack and its board checks: kept in ``cache`` when no file it read has
    changed, else compiled (with ``cache``'s parser)."""
    if cache is not None:
        kept = cache.unchanged(pack, overrides)
        if kept is not None:
            cache.reuses += 1
            return kept
        kept = cache.moved(pack, overrides)
        if kept is not None:
            return kept
    compiled = compile_pack(
        pack,
        display_root=display_path(pack),
        overrides=overrides,
        parse=cache.parse if cache is not None else None,
    )
    board = check_boards(compiled.ir) if compiled.ir is not None else []
    if cache is None:
        return PackPart(compiled, board, str(pack))
    cache.compiles += 1
    return cache.keep(pack, compiled, board)


def load_pack_or_exit(
    pack: str | None, checks: bool = True
) -> tuple[dict[str, Any], CompileResult]:
    """Compile ``pack`` (the flagship when None) for a tool; print diagnostics and exit 1 on
    errors. ``checks=False`` skips the board checks (a drawing of a board with an unreachable
    space is how a designer sees the problem)."""
    path = Path(pack) if pack else bundled_pack()
    if checks:
        result = compile_and_check(path)
    else:
        result = compile_pack(path, display_root=display_path(path))
    if has_errors(result.diagnostics) or result.ir is None:
        click.echo(format_human(result.diagnostics, result.sources, color=_color(True)), err=True)
        click.echo(f"{printable(str(path))}: {summary_line(result.diagnostics)}", err=True)
        sys.exit(1)
    return result.ir, result


def load_ir(pack: Path | None, name: str = FLAGSHIP, checks: bool = False) -> dict[str, Any]:
    """The IR a tool works on: a pack folder, one of its ``.clank`` files, an IR ``.json``
    from `clankwork build` (validated: `read_ir_file`), or (None) the bundled pack ``name``.
    Exits 1 on compile errors."""
    if is_ir_file(pack):
        assert pack is not None
        return read_ir_file(pack)
    if pack is not None and pack.is_file():
        pack = pack.parent  # a pack is its folder; accept any of its files
    path = pack if pack is not None else bundled_pack(name)
    ir, _result = load_pack_or_exit(str(path), checks=checks)
    return ir


def _color(err: bool = False) -> bool:
    """Colour when writing to a terminal, unless NO_COLOR is set (no-color.org)."""
    stream = sys.stderr if err else sys.stdout
    return stream.isatty() and "NO_COLOR" not in os.environ


_PACKS = click.argument("packs", nargs=-1, type=PACK)


@click.command()
@_PACKS
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["human", "json", "github", "sarif"]),
    default="human",
    show_default=True,
    help="How to print diagnostics.",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only errors and warnings.")
def check(packs: tuple[Path, ...], fmt: str, quiet: bool) -> None:
    """Report every problem in PACKS (default: the bundled flagship pack). A pack is a
    folder, one of its files, or the name of a bundled pack (`clankwork packs`).

    Exit 0 when there are no errors, 1 when there are, 2 for usage errors.
    """
    paths = list(packs) or [bundled_pack()]
    diags: list[Diagnostic] = []
    sources: dict[str, str] = {}
    stats = []
    for path in paths:
        result = compile_and_check(path)
        diags.extend(result.diagnostics)
        sources.update(result.sources)
        if result.ir is not None:
            stats.append(_stats(result.ir))
    shown = [d for d in diags if not (quiet and d.severity == "info")]
    if fmt == "json":
        click.echo(format_json(shown))
    elif fmt == "github":
        text = format_github(shown)
        if text:
            click.echo(text)
    elif fmt == "sarif":
        click.echo(format_sarif(shown, metadata.version("clankwork")))
    else:
        if shown:
            click.echo(format_human(shown, sources, color=_color()))
        names = ", ".join(printable(str(display_path(p))) for p in paths)
        tail = f" ({'; '.join(stats)})" if stats and len(paths) == 1 else ""
        click.echo(f"{names}: {summary_line(diags)}{tail}")
    sys.exit(1 if has_errors(diags) else 0)


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _stats(ir: dict[str, Any]) -> str:
    cards = sum(c["copies"] for c in ir["cards"] if c["deck"] != "starting")
    spaces = sum(len(b["spaces"]) for b in ir["boards"])
    return (
        f"{_n(len(ir['cards']), 'card design')}, {_n(cards, 'card')} outside the starting "
        f"deck, {_n(len(ir['tokens']), 'token')}, {_n(spaces, 'space')}"
    )


@click.command()
@click.argument("pack", required=False, type=PACK)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help="Write here (default stdout)."
)
def build(pack: Path | None, output: str | None) -> None:
    """Compile PACK (default: the bundled flagship pack) to its JSON IR (validated against
    schemas/pack.schema.json).

    With -o the file is replaced only once the whole IR is written: a pack with errors or a
    failed write leaves the previous file as it was. Output problems exit 2.
    """
    if output:
        check_file_target(Path(output), named=True)  # before compiling: a big pack takes a while
    if pack is not None and is_ir_file(pack):
        ir = read_ir_file(pack)
    else:
        ir, _result = load_pack_or_exit(str(pack) if pack is not None else None)
    text = json.dumps(ir, indent=2) + "\n"
    if output:
        write_text(Path(output), text, named=True)
        click.echo(
            f"wrote {output} ({len(ir['cards'])} cards, {len(ir['tokens'])} tokens)", err=True
        )
    else:
        click.echo(text, nl=False)


@click.command()
@click.option(
    "--write",
    is_flag=True,
    help="Rewrite schemas/pack.schema.json (and snapshot.schema.json) in this checkout.",
)
def schema(write: bool) -> None:
    """Print the pack IR JSON Schema generated from the op registry."""
    from clankwork.interpreter import snapshot

    text = schema_text()
    if write:
        target = Path(str(resources.files("clankwork.schemas") / "pack.schema.json"))
        if not (target.parent.parent / "pyproject.toml").is_file():
            raise click.ClickException("--write works in a Clankwork checkout only")
        write_text(target, text)
        click.echo(f"wrote {target}", err=True)
        # The snapshot's schema is generated from the declared game state.
        target = target.with_name("snapshot.schema.json")
        write_text(target, snapshot.schema_text())
        click.echo(f"wrote {target}", err=True)
        # And a campaign file's lines (tools/campaign_schema.py).
        target = target.with_name("campaign.schema.json")
        write_text(target, campaign_schema_text())
        click.echo(f"wrote {target}", err=True)
    else:
        click.echo(text, nl=False)


def span_of(at: dict[str, Any] | None) -> Span | None:
    """An IR `at` object as a Span."""
    return Span.from_ir(at) if at else None

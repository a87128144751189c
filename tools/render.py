"""`clankwork render board|cards`: draw a pack's boards (Graphviz) and card faces (SVG).

The drawing itself lives in ``render_board`` and ``render_cards``; this module reads the
pack (a pack folder, or an IR JSON file from ``clankwork build``) and writes the files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import graphviz

from clankwork.dsl.diagnostics import did_you_mean
from clankwork.interpreter import assembly as asm

from .check import load_ir
from .outputs import check_file_target, prepare_dir, safe_filename, write_bytes
from .render_board import Heatmap, board_graph, load_heatmap, render_graph
from .render_cards import SHEET_NAME, write_cards

FORMATS = ("svg", "png", "dot")


def pick_board(ir: dict[str, Any], name: str | None) -> dict[str, Any]:
    """The board called ``name``, or the pack's only board when ``name`` is None."""
    boards = ir.get("boards", [])
    if not boards:
        raise click.ClickException("the pack has no board")
    names = [b["name"] for b in boards]
    if name is None:
        if len(boards) > 1:
            raise click.ClickException(
                "the pack has several boards; choose one with --board: " + ", ".join(names)
            )
        return boards[0]
    for board in boards:
        if board["name"] == name:
            return board
    hint = did_you_mean(name, names)
    raise click.ClickException(
        f"no board {name!r} in the pack"
        + (f"; {hint}" if hint else "")
        + " (boards: "
        + ", ".join(names)
        + ")"
    )


def _pack_arg(value: str | None) -> Path | None:
    return Path(value) if value else None


_CAMPAIGN = click.option(
    "--campaign",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Draw the pack as this campaign file has it now: stickers on, cards fetched and "
    "destroyed (the pack is the campaign's).",
)


def _ir(pack: str | None, campaign: Path | None) -> dict[str, Any]:
    if campaign is None:
        return load_ir(_pack_arg(pack))
    if pack is not None:
        raise click.UsageError("give PACK or --campaign, not both (a campaign names its pack)")
    from .campaign import campaign_ir

    return campaign_ir(campaign)


@click.group()
def render() -> None:
    """Draw a pack's boards and cards."""


def assembled_board(board: dict[str, Any], modules: str | None) -> dict[str, Any]:
    """A modular board put together as ``modules`` says (the first assembly without it);
    a plain board as it is."""
    if not asm.is_modular(board):
        if modules:
            raise click.BadParameter(
                f"board {board['name']!r} has no modules to choose", param_hint="--modules"
            )
        return board
    if modules:
        chosen, problem = asm.parse_assembly(board, modules)
        if chosen is None:
            raise click.BadParameter(str(problem), param_hint="--modules")
    else:
        chosen = asm.first_assembly(board)
        if chosen is None:
            raise click.ClickException(f"board {board['name']!r} has no assembly")
    click.echo(f"assembly: {asm.label(board, chosen)}", err=True)
    return asm.assemble(board, chosen)


@render.command("board")
@click.argument("pack", required=False, type=click.Path(exists=True))
@click.option("--board", "board_name", help="Which board, when the pack has several.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Output file [default: BOARD.FORMAT, the board's name made a safe file name].",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    help="Output format [default: from the output's extension, else svg].",
)
@click.option(
    "--heatmap",
    type=click.Path(exists=True, dir_okay=False),
    help='Colour by a simulation result: {"heatmap": {"board", "spaces", "paths"}}.',
)
@click.option(
    "--scale",
    type=click.FloatRange(min=0.1, max=20.0),
    help="Stretch pinned positions by this factor, 0.1 to 20 "
    "[default: just enough to avoid overlaps].",
)
@click.option(
    "--modules",
    help="A modular board's assembly: its free positions' sides, e.g. "
    '"1=Hydroponics, 2=Doomsday Cannon, 3=Med Lab" [default: the first assembly].',
)
@_CAMPAIGN
def board_command(
    pack: str | None,
    board_name: str | None,
    output: Path | None,
    fmt: str | None,
    heatmap: str | None,
    scale: float | None,
    campaign: Path | None,
    modules: str | None,
) -> None:
    """Draw a board of PACK (default: the bundled tutorial) with Graphviz, legend included.
    A modular board is drawn assembled, one outline per module."""
    if output is not None:
        check_file_target(output, named=True)
    ir = _ir(pack, campaign)
    board = assembled_board(pick_board(ir, board_name), modules)
    if fmt is None:
        ext = output.suffix.lstrip(".").lower() if output else ""
        fmt = ext if ext in FORMATS else "svg"
    # The board's name is the pack's: it names a file in this folder, never a path.
    out = output if output is not None else Path(safe_filename(board["name"], f".{fmt}"))
    check_file_target(out, named=output is not None)
    heat: Heatmap | None = None
    if heatmap:
        try:
            heat = load_heatmap(Path(heatmap))
        except ValueError as exc:
            raise click.ClickException(str(exc)) from exc
        if heat.board != board["name"]:
            raise click.ClickException(
                f"the heatmap is of board {heat.board!r}, not {board['name']!r}"
            )
        unknown = heat.unknown_names(board, ir.get("ways", ()))
        if unknown:
            click.echo(
                f"warning: the heatmap names what board {board['name']!r} does not have: "
                + ", ".join(unknown),
                err=True,
            )
    graph = board_graph(board, heat, scale, ir.get("ways", ()))
    try:
        data = render_graph(graph, fmt)
    except graphviz.ExecutableNotFound as exc:
        raise click.ClickException(
            "Graphviz's `dot`/`neato` programs are not installed (e.g. `apt-get install "
            "graphviz`); `--format dot` writes the graph without them"
        ) from exc
    except graphviz.CalledProcessError as exc:
        detail = (exc.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        raise click.ClickException(
            f"Graphviz could not draw board {board['name']!r}"
            + (f": {detail[0]}" if detail else "")
            + " (a Clankwork bug: please report it with the pack; `--format dot` shows the graph)"
        ) from None
    write_bytes(out, data, named=output is not None)
    click.echo(f"wrote {out}")


@render.command("cards")
@click.argument("pack", required=False, type=click.Path(exists=True))
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default="cards",
    show_default=True,
    help="Directory for the SVG files.",
)
@click.option("--sheet", is_flag=True, help="Also write cards.html: 3 x 3 poker-size cards a page.")
@click.option(
    "--copies", is_flag=True, help="On the sheet, repeat each card as many times as its copies."
)
@_CAMPAIGN
def cards_command(
    pack: str | None, out_dir: Path, sheet: bool, copies: bool, campaign: Path | None
) -> None:
    """Write one SVG per card design of PACK (default: the bundled tutorial).

    File names come from card names made safe (lower-case words and hyphens, unique).
    """
    ir = _ir(pack, campaign)
    prepare_dir(out_dir)
    written = write_cards(ir, out_dir, sheet=sheet, copies=copies)
    svgs = sum(1 for p in written if p.suffix == ".svg")
    click.echo(f"wrote {svgs} card{'s' if svgs != 1 else ''} to {out_dir}")
    if sheet:
        click.echo(f"wrote {out_dir / SHEET_NAME}")

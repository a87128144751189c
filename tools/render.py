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
from clankwork.interpreter.on_board import for_board

from .card_template import TemplateError, default_template_bytes
from .check import FLAGSHIP, bundled_pack, load_ir
from .ir_file import is_ir_file
from .outputs import check_file_target, prepare_dir, safe_filename, write_bytes
from .packs import PACK
from .pieces import Pieces
from .pnp import PAPERS, PnpOptions, build
from .raster import RasterUnavailable
from .render_board import Heatmap, board_graph, load_heatmap, pick_board, render_graph
from .render_cards import SHEET_NAME, write_cards
from .sheets import write_card_pngs, write_sheets

FORMATS = ("svg", "png", "dot")


def _pack_arg(value: str | Path | None) -> Path | None:
    return Path(value) if value else None


CAMPAIGN = click.option(
    "--campaign",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Draw the pack as this campaign file has it now: stickers on, cards fetched and "
    "destroyed (the pack is the campaign's).",
)


def pack_ir(pack: str | Path | None, campaign: Path | None) -> dict[str, Any]:
    """The IR of PACK (the flagship when None), or of the pack as ``campaign`` has it now."""
    if campaign is None:
        return load_ir(_pack_arg(pack))
    if pack is not None:
        raise click.UsageError("give PACK or --campaign, not both (a campaign names its pack)")
    from .campaign import campaign_ir

    return campaign_ir(campaign)


def pack_dir(pack: str | Path | None, campaign: Path | None = None) -> Path | None:
    """The folder a pack's templates and art are read from: the pack folder (a file's
    folder), the bundled pack's; None for an IR file or a campaign."""
    if campaign is not None:
        return None
    path = Path(pack) if pack else bundled_pack(FLAGSHIP)
    if is_ir_file(path):
        return None
    return path.parent if path.is_file() else path


def warn(pieces: Pieces) -> None:
    """Print what could not be drawn (art that cannot be read now) to stderr."""
    for message in dict.fromkeys(pieces.warnings):
        click.echo(f"warning: {message}", err=True)


def board_svgs(ir: dict[str, Any], name: str | None, modules: str | None) -> list[tuple[str, str]]:
    """(name, Graphviz SVG) of the board to print: the one named, else every board (a
    modular board assembled as ``modules`` says); empty, with a warning, without Graphviz."""
    boards = [pick_board(ir, name)] if name else list(ir.get("boards", []))
    out = []
    for board in boards:
        whole = assembled_board(board, modules)
        try:
            svg = render_graph(board_graph(whole, None, None, ir.get("ways", ())), "svg")
        except graphviz.ExecutableNotFound:
            click.echo(
                "warning: Graphviz's `dot` is not installed (apt-get install graphviz): "
                "the board is left out",
                err=True,
            )
            return []
        out.append((board["name"], svg.decode("utf-8")))
    return out


def raster_errors(exc: RasterUnavailable | TemplateError) -> click.ClickException:
    """A one-line error for a missing cairo or a refused template."""
    return click.ClickException(str(exc))


@click.group()
def render() -> None:
    """Draw a pack's boards and cards, or print it to play."""


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
@click.argument("pack", required=False, type=PACK)
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
@CAMPAIGN
def board_command(
    pack: Path | None,
    board_name: str | None,
    output: Path | None,
    fmt: str | None,
    heatmap: str | None,
    scale: float | None,
    campaign: Path | None,
    modules: str | None,
) -> None:
    """Draw a board of PACK (default: the bundled flagship pack) with Graphviz, legend
    included. A modular board is drawn assembled, one outline per module."""
    if output is not None:
        check_file_target(output, named=True)
    ir = pack_ir(pack, campaign)
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
@click.argument("pack", required=False, type=PACK)
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default="cards",
    show_default=True,
    help="Directory for the SVG files.",
)
@click.option(
    "--sheet",
    is_flag=True,
    help="Also write cards.html (svg: 3 x 3 poker-size cards a page) or one deck sheet per "
    "deck (png: up to 10 x 7 cards, and the deck's back).",
)
@click.option(
    "--copies", is_flag=True, help="On cards.html, repeat each card as many times as its copies."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["svg", "png"]),
    default="svg",
    show_default=True,
    help="SVG drawings, or PNG images at --dpi.",
)
@click.option(
    "--dpi",
    type=click.IntRange(min=30, max=1200),
    default=300,
    show_default=True,
    help="Resolution of PNG images (300 for print).",
)
@click.option(
    "--include-sealed",
    is_flag=True,
    help="Put the Cardporium's sealed legacy cards on the sheet too.",
)
@click.option(
    "--board",
    "board_name",
    help="The cards as played on this board (its `on board` blocks: its own cards, its "
    "edits, its word for the dragon) [default: the pack's, outside the blocks].",
)
@CAMPAIGN
def cards_command(
    pack: Path | None,
    out_dir: Path,
    sheet: bool,
    copies: bool,
    fmt: str,
    dpi: int,
    include_sealed: bool,
    board_name: str | None,
    campaign: Path | None,
) -> None:
    """Write one SVG (or PNG) per card design of PACK (default: the bundled flagship pack),
    drawn from the pack's templates/ and art.

    File names come from card names made safe (lower-case words and hyphens, unique).
    """
    ir = pack_ir(pack, campaign)
    if board_name is not None:
        names = [b["name"] for b in ir.get("boards", ())]
        if board_name not in names:
            near = did_you_mean(board_name, names)
            raise click.BadParameter(
                f"the pack has no board named {board_name!r}"
                + (f" ({near})" if near else "")
                + f"; its boards: {', '.join(names)}",
                param_hint="--board",
            )
        ir = for_board(ir, board_name)
    prepare_dir(out_dir)
    pieces = Pieces(ir, pack_dir(pack, campaign))
    try:
        if fmt == "svg":
            written = write_cards(ir, out_dir, sheet, copies, pieces.face, include_sealed)
        else:
            taken: set[str] = set()
            written = write_card_pngs(pieces, out_dir, dpi, taken)
            if sheet:
                sheets = write_sheets(pieces, out_dir, dpi, include_sealed, taken)
                written += [s.face for s in sheets]
    except (RasterUnavailable, TemplateError) as exc:
        raise raster_errors(exc) from None
    warn(pieces)
    n = len(ir.get("cards", []))
    click.echo(f"wrote {n} card{'s' if n != 1 else ''} to {out_dir}")
    if sheet and fmt == "svg":
        click.echo(f"wrote {out_dir / SHEET_NAME}")
    elif sheet:
        for path in written[n:]:
            click.echo(f"wrote {path}")


@render.command("pnp")
@click.argument("pack", required=False, type=PACK)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default="proto.pdf",
    show_default=True,
    help="The PDF to write.",
)
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True)
@click.option(
    "--bleed",
    type=click.FloatRange(min=0, max=5),
    default=3.0,
    show_default=True,
    help="Colour printed past each card's cut line, in mm (0: 9 cards on an A4 page).",
)
@click.option("--include-sealed", is_flag=True, help="Print the Cardporium's sealed cards too.")
@click.option("--board", "board_name", help="Print only this board [default: every board].")
@click.option(
    "--board-size",
    type=click.FloatRange(min=100, max=3000),
    default=400.0,
    show_default=True,
    help="The printed board's longer side, in mm.",
)
@click.option("--modules", help="A modular board's assembly [default: the first].")
@CAMPAIGN
def pnp_command(
    pack: Path | None,
    output: Path,
    paper: str,
    bleed: float,
    include_sealed: bool,
    board_name: str | None,
    board_size: float,
    modules: str | None,
    campaign: Path | None,
) -> None:
    """Write a print-and-play PDF of PACK (default: the bundled flagship pack): cards with
    backs for double-sided printing, bleed and crop marks, token sheets, the board across
    pages."""
    check_file_target(output, named=True)
    ir = pack_ir(pack, campaign)
    pieces = Pieces(ir, pack_dir(pack, campaign))
    boards = board_svgs(ir, board_name, modules)
    options = PnpOptions(paper, bleed, include_sealed, board_size)
    try:
        doc = build(pieces, options, boards)
        data = doc.pdf()
    except (RasterUnavailable, TemplateError) as exc:
        raise raster_errors(exc) from None
    warn(pieces)
    write_bytes(output, data, named=True)
    click.echo(f"wrote {output} ({len(doc.pages)} pages, {paper})")


@render.command("template")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default="card.svg",
    show_default=True,
    help="Where to write it (in a pack: templates/card.svg, or templates/KIND.svg).",
)
def template_command(output: Path) -> None:
    """Write Clankwork's card template, to copy into a pack and edit."""
    check_file_target(output, named=True)
    write_bytes(output, default_template_bytes(), named=True)
    click.echo(f"wrote {output}")

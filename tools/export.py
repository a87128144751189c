"""`clankwork export tts`: put a pack on an online table (Tabletop Simulator)."""

from __future__ import annotations

from pathlib import Path

import click

from .card_template import TemplateError
from .packs import PACK
from .pieces import Pieces
from .raster import RasterUnavailable
from .render import CAMPAIGN, board_svgs, pack_dir, pack_ir, raster_errors, warn
from .tts import export as export_tts


@click.group()
def export() -> None:
    """Put a pack on an online table."""


@export.command("tts")
@click.argument("pack", required=False, type=PACK)
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default="tts",
    show_default=True,
    help="Folder for the save (PACK.json) and its images.",
)
@click.option(
    "--dpi",
    type=click.IntRange(min=50, max=300),
    default=150,
    show_default=True,
    help="Resolution of the card sheets (150 keeps a 10 x 7 sheet under 4096 pixels).",
)
@click.option(
    "--base-url",
    help="Where the folder's images will be uploaded (https://...); without it the save "
    "points at the files written here (file:///...), which only this computer can read.",
)
@click.option("--include-sealed", is_flag=True, help="Put the Cardporium's sealed cards in too.")
@click.option(
    "--board-size",
    type=click.FloatRange(min=100, max=3000),
    default=500.0,
    show_default=True,
    help="The board image's longer side, in mm at --dpi.",
)
@click.option("--modules", help="A modular board's assembly [default: the first].")
@CAMPAIGN
def tts_command(
    pack: Path | None,
    out_dir: Path,
    dpi: int,
    base_url: str | None,
    include_sealed: bool,
    board_size: float,
    modules: str | None,
    campaign: Path | None,
) -> None:
    """Write a Tabletop Simulator save of PACK (default: the bundled flagship pack): decks
    cut from deck sheets, the board, the tokens in bags, the dragon bag with its cubes, each
    player's cubes and pawn.

    Copy PACK.json into Tabletop Simulator's "Saves/Saved Objects" folder (or "Saves") and
    load it; images are read from the URLs it names (see --base-url)."""
    if base_url is not None and not base_url.startswith(("https://", "http://")):
        raise click.BadParameter("give an http:// or https:// address", param_hint="--base-url")
    ir = pack_ir(pack, campaign)
    pieces = Pieces(ir, pack_dir(pack, campaign))
    boards = board_svgs(ir, None, modules)
    try:
        done = export_tts(
            pieces,
            out_dir,
            dpi=dpi,
            base_url=base_url,
            board=boards[0] if boards else None,
            board_size=board_size,
            include_sealed=include_sealed,
        )
    except (RasterUnavailable, TemplateError) as exc:
        raise raster_errors(exc) from None
    warn(pieces)
    for name, n in done.decks.items():
        click.echo(f"  {name}: {n} card{'s' if n != 1 else ''}")
    click.echo(f"wrote {done.save} and {len(done.images)} images")

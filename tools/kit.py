"""`clankwork kit PACK -o DIR`: everything a playtest needs, from a pack that checks clean.

It runs `check` and `test` first and makes nothing from a pack with errors or a failing
scenario (a playtest of a broken pack wastes an evening). Then it writes, into DIR:
``PACK.pdf`` (`render pnp`), ``cards/`` (every card and each deck sheet as PNG, 300 dpi),
``tts/`` (`export tts`) and ``README.md``: what is in the kit, with every component and its
count, and how to print it or load it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from clankwork.dsl.diagnostics import format_human, has_errors, summary_line

from .card_template import TemplateError
from .check import FLAGSHIP, bundled_pack, compile_and_check, printable
from .outputs import check_file_target, prepare_dir, safe_filename, write_bytes, write_text
from .packs import PACK_FOLDER
from .pieces import DECK_NAMES, TOKEN_KINDS, Pieces, deck_groups, pack_title
from .pnp import PAPERS, PnpOptions, build
from .raster import RasterUnavailable
from .render import board_svgs, raster_errors, warn
from .scenario_cmd import failure_diagnostics, run_pack_scenarios
from .sheets import write_card_pngs, write_sheets
from .tts import export as export_tts

README = "README.md"


def components(ir: dict[str, Any], include_sealed: bool, players: int) -> list[str]:
    """The kit's components as Markdown lines: every deck with its cards and counts, the
    tokens by kind, the cubes."""
    out = []
    for deck, cards in deck_groups(ir, include_sealed).items():
        per = players if deck == "starting" else 1
        total = sum(c.get("copies", 1) for c in cards) * per
        note = f" ({players} decks of {total // per})" if deck == "starting" else ""
        out += ["", f"### {DECK_NAMES[deck]}: {total} cards{note}", ""]
        out += [f"- {c['name']} \u00d7 {c.get('copies', 1) * per}" for c in cards]
    tokens = ir.get("tokens", [])
    if tokens:
        out += ["", f"### Tokens: {sum(t.get('count', 1) for t in tokens)}", ""]
        for token in tokens:
            label = TOKEN_KINDS.get(token.get("kind", "other"), TOKEN_KINDS["other"])[3]
            out.append(f"- {token['name']} \u00d7 {token.get('count', 1)} ({label.lower()})")
    rules = ir.get("rules", {})
    out += [
        "",
        "### Cubes and pawns",
        "",
        f"- {rules.get('dragon_cubes', 24)} black cubes for the dragon bag",
        f"- {rules.get('player_cubes', 30)} cubes of each player's colour, and a pawn each "
        f"(up to {players} players)",
    ]
    return out


def readme(ir: dict[str, Any], files: list[str], include_sealed: bool, pdf: str, dpi: int) -> str:
    """The kit's README.md."""
    players = int(ir.get("rules", {}).get("max_players", 4))
    version = ir.get("pack", {}).get("version", "")
    lines = [
        f"# {pack_title(ir)} {version}: playtest kit",
        "",
        "Made by `clankwork kit` from a pack that passed `clankwork check` and `clankwork test`.",
        "",
        "## Print and play",
        "",
        f"Print `{pdf}` double-sided, flipping on the long edge, at actual size (100 %, not "
        "fit to page). Cut the cards on the crop marks (the backs line up with their fronts) "
        "and the tokens on their dashed lines; cut each board page on its dashed line and "
        "glue it over its neighbour, lining up the round marks.",
        "",
        "## Online",
        "",
        "`tts/` holds a Tabletop Simulator save and its images. Copy the `.json` file into "
        'Tabletop Simulator\'s "Saves/Saved Objects" folder and load it from Objects > Saved '
        "Objects. Its images are `file:///` addresses on this computer: for a table with other "
        "people, upload `tts/` somewhere they can read and make the save again with "
        "`clankwork export tts --base-url https://...`.",
        "",
        f"`cards/` holds every card as a PNG at {dpi} dpi and one sheet per deck (up to 10 x 7 "
        "cards), the layout online tables import decks from.",
        "",
        "## Components",
        *components(ir, include_sealed, players),
        "",
        "## Files",
        "",
        *[f"- `{f}`" for f in files],
        "",
    ]
    return "\n".join(lines)


@click.command("kit")
@click.argument("pack", required=False, type=PACK_FOLDER)
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default="kit",
    show_default=True,
    help="The folder to write the kit into.",
)
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True)
@click.option("--include-sealed", is_flag=True, help="Include the Cardporium's sealed cards.")
@click.option("--base-url", help="Where tts/ will be uploaded (see `export tts`).")
@click.option(
    "--dpi",
    type=click.IntRange(min=30, max=1200),
    default=300,
    show_default=True,
    help="Resolution of the card PNGs and deck sheets in cards/.",
)
def command(
    pack: Path | None,
    out_dir: Path,
    paper: str,
    include_sealed: bool,
    base_url: str | None,
    dpi: int,
) -> None:
    """Check and test PACK (default: the bundled flagship pack), then write a playtest kit:
    the print-and-play PDF, the card PNGs and deck sheets, a Tabletop Simulator save, and a
    README with every component."""
    path = Path(pack) if pack else bundled_pack(FLAGSHIP)
    prepare_dir(out_dir)
    result = compile_and_check(path)
    if has_errors(result.diagnostics) or result.ir is None:
        click.echo(format_human(result.diagnostics, result.sources), err=True)
        click.echo(f"{printable(str(path))}: {summary_line(result.diagnostics)}", err=True)
        click.echo("no kit made: fix the errors first", err=True)
        sys.exit(1)
    outcomes, diags, sources = run_pack_scenarios(path)
    failed = diags + failure_diagnostics(outcomes)
    if failed:
        click.echo(format_human(failed, sources), err=True)
        click.echo(f"no kit made: {len(failed)} scenario problem(s)", err=True)
        sys.exit(1)
    click.echo(f"check: no errors; test: {len(outcomes)} scenarios passed")
    ir = result.ir
    pieces = Pieces(ir, path)
    boards = board_svgs(ir, None, None)
    name = ir.get("pack", {}).get("name", "pack")
    pdf = out_dir / safe_filename(name, ".pdf")
    check_file_target(pdf)
    try:
        doc = build(pieces, PnpOptions(paper, include_sealed=include_sealed), boards)
        write_bytes(pdf, doc.pdf())
        cards = out_dir / "cards"
        taken: set[str] = set()
        pngs = write_card_pngs(pieces, cards, dpi, taken)
        sheets = write_sheets(pieces, cards, dpi, include_sealed, taken)
        tts = export_tts(
            pieces,
            out_dir / "tts",
            base_url=base_url,
            board=boards[0] if boards else None,
            include_sealed=include_sealed,
        )
    except (RasterUnavailable, TemplateError) as exc:
        raise raster_errors(exc) from None
    warn(pieces)
    files = [pdf.name]
    files += [
        f"cards/{p.name}" for p in [*pngs, *sorted({x for s in sheets for x in (s.face, s.back)})]
    ]
    files += [f"tts/{tts.save.name}", *[f"tts/{p.name}" for p in tts.images]]
    write_text(out_dir / README, readme(ir, files, include_sealed, pdf.name, dpi))
    click.echo(f"wrote {pdf} ({len(doc.pages)} pages)")
    click.echo(f"wrote {len(pngs)} cards and {len(sheets)} deck sheets to {out_dir / 'cards'}")
    click.echo(f"wrote {tts.save}")
    click.echo(f"wrote {out_dir / README}")

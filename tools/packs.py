"""Which pack a command works on: a path, or a pack shipped with Clankwork named by its name.

Every command that takes a PACK reads it through `PACK` (one `PackArg`): an existing file or
folder first, so a folder of yours called `tutorial` wins; else the name of a bundled pack
(`clankwork test tutorial` works wherever Clankwork is installed, `pip` or `pipx`); else a
usage error that lists the bundled names. With no PACK a command works on `FLAGSHIP`.
`clankwork packs` lists the bundled packs.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

import click
from click.shell_completion import CompletionItem

from clankwork.dsl.diagnostics import did_you_mean
from clankwork.dsl.extends import bundled_packs
from clankwork.dsl.parser import Parser

FLAGSHIP = "acqinc"
"""The bundled pack every command works on when given no pack."""


def bundled_names() -> list[str]:
    """The names of the packs shipped with Clankwork (folders of clankwork.content)."""
    return sorted(bundled_packs())


def bundled_pack(name: str = FLAGSHIP) -> Path:
    """The folder of a pack shipped with Clankwork.

    ``name`` must be exactly one of `bundled_names` (it may come from a replay log, which
    anyone can write): a path, "..", another case or a near miss is refused, never looked up.
    """
    names = bundled_names()
    if not isinstance(name, str) or name not in names:
        hint = did_you_mean(name, names) if isinstance(name, str) else None
        raise click.ClickException(
            f"no bundled pack named {name!r}"
            + (f" ({hint})" if hint else "")
            + f" (bundled: {', '.join(names)}): give the pack's folder or IR file instead"
        )
    return Path(str(resources.files("clankwork.content"))) / name


def resolve_pack(value: str, file_okay: bool = True) -> tuple[Path | None, str | None]:
    """The pack ``value`` names, as (path, None), or (None, why not).

    An existing file or folder is taken as it is (a file only when ``file_okay``); a value
    that exists nowhere but is a bundled pack's name is that pack's folder."""
    if os.path.lexists(value):
        path = Path(value)
        if path.is_file() and not file_okay:
            return None, f"{value!r} is a file; give the pack's folder"
        return path, None
    names = bundled_names()
    if value in names:
        return bundled_pack(value), None
    listing = f"bundled packs: {', '.join(names)}"
    tail = Path(value).name
    if tail in names and tail != value:
        hint = f"there is no {value!r} here; the bundled pack is `{tail}`"
    else:
        near = did_you_mean(value, names)
        hint = f"no file or folder {value!r}" + (f", and no bundled pack ({near})" if near else "")
    return None, f"{hint} ({listing}; `clankwork packs` lists them)"


class PackArg(click.ParamType):
    """A PACK argument: a path (see `resolve_pack`) or a bundled pack's name, as a Path."""

    name = "pack"

    def __init__(self, file_okay: bool = True) -> None:
        self.file_okay = file_okay

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        if isinstance(value, Path):
            value = str(value)
        path, problem = resolve_pack(value, self.file_okay)
        if path is None:
            self.fail(problem or "no such pack", param, ctx)
        return path

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        names = [CompletionItem(n) for n in bundled_names() if n.startswith(incomplete)]
        # The shell completes paths itself after the bundled names.
        return [*names, CompletionItem(incomplete, type="file")]


PACK = PackArg()
"""A PACK that may be a pack folder, one of its files or an IR file, or a bundled name."""
PACK_FOLDER = PackArg(file_okay=False)
"""A PACK that must be a folder (or a bundled name)."""


def manifest_facts(folder: Path) -> dict[str, str]:
    """The version, title and base of the pack in ``folder``, read from its pack block
    (without compiling the pack)."""
    text = (folder / "pack.clank").read_text(encoding="utf-8")
    stmts, _diags = Parser().parse(text, "pack.clank")
    out: dict[str, str] = {}
    for st in stmts:
        if st.words[:1] != ["pack"]:
            continue
        for prop in st.block or []:
            if len(prop.head) == 2 and prop.words[0] in ("version", "title", "extends"):
                out[prop.words[0]] = prop.head[1].text
    return out


@click.command("packs")
@click.option("--path", "show_path", is_flag=True, help="Print only each pack's folder.")
def command(show_path: bool) -> None:
    """List the packs shipped with Clankwork: any command takes one by name (`clankwork test
    tutorial`), and `clankwork new NAME --extends PACK` builds on one."""
    names = bundled_names()
    if show_path:
        for name in names:
            click.echo(bundled_pack(name))
        return
    rows = []
    for name in names:
        facts = manifest_facts(bundled_pack(name))
        title = facts.get("title", "")
        if "extends" in facts:
            title += f" (extends {facts['extends']})"
        if name == FLAGSHIP:
            title += " [default]"
        rows.append((name, facts.get("version", ""), title))
    width = max(len(r[0]) for r in rows)
    for name, version, title in rows:
        click.echo(f"{name:<{width}}  {version:<7}  {title}")
    click.echo(f"in {bundled_pack(names[0]).parent}")

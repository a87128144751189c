"""`clankwork fmt`: rewrite .clank files in the one canonical layout (see dsl/formatter.py)."""

from __future__ import annotations

import difflib
import os
import sys
from pathlib import Path

import click

from clankwork.dsl.diagnostics import Diagnostic, format_human, printable
from clankwork.dsl.formatter import FormatterBug, format_source, parse_for_format
from clankwork.dsl.limits import MAX_FILE_BYTES

from .outputs import write_text


def clank_files(paths: list[Path]) -> list[Path]:
    """The .clank files named by ``paths``: files as given, folders searched (links to
    folders are not followed, hidden folders skipped), each file once, in a stable order."""
    out: list[Path] = []
    seen: set[Path] = set()
    for p in paths:
        if p.is_dir():
            found = []
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found += [Path(root) / f for f in files if f.endswith(".clank")]
            candidates = sorted(found)
        else:
            candidates = [p]
        for f in candidates:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out


def _read(path: Path) -> tuple[str | None, Diagnostic | None]:
    """The file's text, or why it cannot be formatted."""
    span = None
    try:
        if path.is_symlink() or not path.is_file():
            return None, Diagnostic(
                "CW005",
                f"{printable(str(path))} is not a regular file; it is not formatted",
                span,
                hint="name the file a link points to, not the link",
            )
        if path.stat().st_size > MAX_FILE_BYTES:
            return None, Diagnostic(
                "CW006",
                f"{printable(str(path))} is larger than {MAX_FILE_BYTES:,} bytes; "
                "it is not formatted",
                span,
                hint="split it into files of the pack that include each other",
            )
        data = path.read_bytes()
    except OSError as e:
        return None, Diagnostic(
            "CW004",
            f"cannot read {printable(str(path))}: {e.strerror}",
            span,
            hint="check the file exists and is readable",
        )
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return None, Diagnostic(
            "CW004",
            f"{printable(str(path))} is not UTF-8 text; it is not formatted",
            span,
            hint="save the file as UTF-8",
        )


@click.command("fmt")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, file_okay=True))
@click.option("--check", "check_only", is_flag=True, help="Change nothing; exit 1 if a file would.")
@click.option("--diff", is_flag=True, help="Change nothing; print what would change as a diff.")
def command(paths: tuple[str, ...], check_only: bool, diff: bool) -> None:
    """Format .clank files in PATHS (files or folders; default: the current folder).

    Exit 0 when every file is formatted (or was rewritten), 1 with --check or --diff when a
    file would change, and 1 when a file does not parse (it is left as it is).
    """
    files = clank_files([Path(p) for p in paths] or [Path(".")])
    problems: list[Diagnostic] = []
    sources: dict[str, str] = {}
    changed: list[Path] = []
    failed = False
    for path in files:
        name = str(path)
        text, problem = _read(path)
        if problem is not None:
            problems.append(problem)
            continue
        assert text is not None
        try:
            formatted = format_source(text, name)
        except FormatterBug as e:  # never write text that would mean something else
            click.echo(f"error: {printable(str(e))}; the file is left as it is", err=True)
            failed = True
            continue
        if formatted is None:
            sources[name] = text
            problems.extend(parse_for_format(text, name)[1])
            continue
        if formatted == text:
            continue
        changed.append(path)
        if diff:
            click.echo(
                "".join(
                    difflib.unified_diff(
                        text.splitlines(keepends=True),
                        formatted.splitlines(keepends=True),
                        f"{name} (before)",
                        f"{name} (formatted)",
                    )
                ),
                nl=False,
            )
        elif check_only:
            click.echo(f"would reformat {printable(name)}")
        else:
            write_text(path, formatted)
            click.echo(f"reformatted {printable(name)}", err=True)
    if problems:
        click.echo(format_human(problems, sources), err=True)
    verb = "would reformat" if (check_only or diff) else "reformatted"
    tail = f", {len(problems)} not formatted (errors above)" if problems else ""
    count = f"{len(files)} file" + ("" if len(files) == 1 else "s")
    click.echo(f"{count}: {verb} {len(changed)}{tail}", err=True)
    sys.exit(1 if problems or failed or ((check_only or diff) and changed) else 0)

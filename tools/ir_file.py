"""Compiled packs read from IR ``.json`` files (`clankwork build -o`), checked before use.

An IR file is as untrusted as a pack: anyone can write one by hand. So it is read with a size
bound, parsed without a traceback whatever it holds, validated against the pack schema, and
checked for what the compiler guarantees and the schema cannot say (names, paths between
spaces of their board, rule ranges, no control characters). Any problem exits 1 with its
JSON path and how to fix it.
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any

import click

from clankwork.dsl.limits import MAX_DIGITS, MAX_IR_BYTES, MAX_NESTING
from clankwork.dsl.sources import show_size
from clankwork.interpreter.rules import rule_value_problem
from clankwork.interpreter.schema import validate_ir

# How deep an IR document may nest: effects within effects (at most MAX_NESTING in the
# language) take about three JSON levels each, plus the levels of the pack around them.
MAX_IR_DEPTH = 4 * MAX_NESTING + 16
_SHOWN_SCHEMA_ERRORS = 10
# No number of a compiled pack has more digits than the language allows in a literal.
_MAX_NUMBER = 10**MAX_DIGITS - 1
# C0 and C1 controls and lone surrogates: never in a compiled pack's text (the compiler
# refuses them, CW114), and printed or drawn they could rewrite a terminal or break a file.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _too_deep(doc: Any, limit: int) -> bool:
    """True when ``doc`` nests deeper than ``limit`` (walked without recursion)."""
    stack = [(doc, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    return False


def read_ir_file(path: Path) -> dict[str, Any]:
    """A compiled pack read from an IR ``.json`` file (from `clankwork build`) and checked.

    The file is read up to `MAX_IR_BYTES`, parsed, and validated against the pack schema
    (and the rules against their ranges) before any tool sees it: an IR file is as untrusted
    as a pack. Anything wrong exits 1 with what is wrong and where (a JSON path).
    """
    rebuild = "rebuild it with `clankwork build PACK -o FILE`"
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # a pipe or a device would block or never end
            raise click.ClickException(
                f"{path} is not a regular file (error CW005): give a compiled pack's .json file"
            )
        with path.open("rb") as f:
            data = f.read(MAX_IR_BYTES + 1)
    except OSError as e:
        raise click.ClickException(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > MAX_IR_BYTES:
        raise click.ClickException(
            f"{path}: an IR file is limited to {show_size(MAX_IR_BYTES)} (error CW006) and "
            "this one is larger: give the pack's folder instead"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise click.ClickException(f"{path}: not UTF-8 text (byte {e.start}): {rebuild}") from None
    try:
        ir = json.loads(text)
    except json.JSONDecodeError as e:
        raise click.ClickException(
            f"{path}:{e.lineno}:{e.colno}: not valid JSON ({e.msg}; cut short?): {rebuild}"
        ) from None
    except RecursionError:
        raise click.ClickException(
            f"{path}: nested too deeply to read (error CW007): {rebuild}"
        ) from None
    except ValueError as e:  # a number of thousands of digits
        raise click.ClickException(f"{path}: not a readable IR file ({e}): {rebuild}") from None
    if not isinstance(ir, dict):
        raise click.ClickException(
            f"{path} holds a JSON {type(ir).__name__}, not a compiled pack (a JSON object): "
            f"{rebuild}"
        )
    if _too_deep(ir, MAX_IR_DEPTH):
        raise click.ClickException(
            f"{path}: nested more than {MAX_IR_DEPTH} levels deep (error CW007): {rebuild}"
        )
    try:
        problems = validate_ir(ir)
    except RecursionError:
        problems = [("(root)", "nested too deeply to check")]
    if not problems:
        problems.extend(ir_reference_problems(ir))
    if not problems and isinstance(ir.get("rules"), dict):
        for key, value in ir["rules"].items():
            problem = rule_value_problem(key, value) if key != "at" else None
            if problem:
                problems.append((f"rules/{key}", problem))
    if problems:
        lines = [f"{path}: not a valid compiled pack ({len(problems)} problems): {rebuild}"]
        lines += [f"  at {where}: {msg}" for where, msg in problems[:_SHOWN_SCHEMA_ERRORS]]
        if len(problems) > _SHOWN_SCHEMA_ERRORS:
            lines.append(f"  ... and {len(problems) - _SHOWN_SCHEMA_ERRORS} more")
        raise click.ClickException("\n".join(lines))
    return ir


def ir_reference_problems(ir: dict[str, Any]) -> list[tuple[str, str]]:
    """What the compiler guarantees about names and the schema cannot say, as (JSON path,
    message): no control character in any text, no fraction and no number longer than the
    language allows, names unique among cards, tokens and each
    board's spaces, and every path between spaces of its own board. An IR file is checked
    for these before it is used."""
    out: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = [("", ir)]
    while stack and len(out) < _SHOWN_SCHEMA_ERRORS:
        where, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((f"{where}/{k}" if where else str(k), v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((f"{where}/{i}", v) for i, v in enumerate(node))
        elif isinstance(node, str):
            bad = _CONTROL.search(node)
            if bad is not None:
                code = ord(bad.group())
                out.append((where, f"control character U+{code:04X} in a text (CW114)"))
        elif isinstance(node, float):
            # The schema's "integer" takes 2.0; the engine counts with ints only.
            out.append((where, f"{node!r} is not a whole number"))
        elif isinstance(node, int) and not isinstance(node, bool) and abs(node) > _MAX_NUMBER:
            out.append(
                (where, f"a number of {len(str(abs(node)))} digits; at most {MAX_DIGITS} (CW113)")
            )
    out.sort()
    for kind in ("cards", "tokens", "boards"):
        seen: set[str] = set()
        for i, item in enumerate(ir.get(kind, [])):
            if item["name"] in seen:
                out.append((f"{kind}/{i}/name", f"a second {kind[:-1]} named {item['name']!r}"))
            seen.add(item["name"])
    for b, board in enumerate(ir.get("boards", [])):
        names: set[str] = set()
        for i, space in enumerate(board["spaces"]):
            if space["name"] in names:
                out.append(
                    (f"boards/{b}/spaces/{i}/name", f"a second space named {space['name']!r}")
                )
            names.add(space["name"])
        for i, path in enumerate(board["paths"]):
            for end in ("from", "to"):
                if path[end] is not None and path[end] not in names:
                    out.append(
                        (
                            f"boards/{b}/paths/{i}/{end}",
                            f"{path[end]!r} is not a space of board {board['name']!r}",
                        )
                    )
    return out


def is_ir_file(pack: Path | None) -> bool:
    """True when ``pack`` names an IR ``.json`` file rather than a pack."""
    return pack is not None and pack.suffix.lower() == ".json" and not pack.is_dir()

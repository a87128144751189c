"""Machine formats keep names as data: one GitHub annotation per diagnostic, valid SARIF URIs,
one JSON string per name."""

from __future__ import annotations

import json
import shutil
import urllib.parse
from pathlib import Path

from click.testing import CliRunner

from clankwork.dsl.diagnostics import (
    Diagnostic,
    Span,
    file_uri,
    format_github,
    format_json,
    format_sarif,
)
from clankwork.tools.cli import main

EVIL = "a,title=x::warning file=b.clank::\r\n::error::injected%0A.clank"


def diag(file: str = EVIL, message: str = "unknown card 'x'") -> Diagnostic:
    return Diagnostic("CW107", message, Span(file, 3, 4, 3, 9), hint="did you mean 'y'?")


def properties(line: str) -> dict[str, str]:
    """The properties of one workflow command, split the way the runner splits them."""
    assert line.startswith("::error ")
    props, _sep, _msg = line[len("::error ") :].partition("::")
    return dict(p.split("=", 1) for p in props.split(","))


def test_github_file_name_cannot_add_a_property_or_annotation() -> None:
    out = format_github([diag()])
    assert "\n" not in out and "\r" not in out
    props = properties(out)
    assert set(props) == {"file", "line", "col", "endLine", "endColumn", "title"}
    assert props["title"] == "CW107" and props["line"] == "3"
    assert urllib.parse.unquote(props["file"]) == EVIL  # the runner decodes it back


def test_github_message_escapes_percent_and_newlines() -> None:
    out = format_github([diag("f.clank", "100% sure\r\n::error::second")])
    assert out.count("\n") == 0
    msg = out.split("::", 2)[2]
    assert msg.startswith("CW107 100%25 sure%0D%0A::error::second")


def test_github_without_span() -> None:
    out = format_github([Diagnostic("CW004", "a\nb", None)])
    assert out == "::error title=CW004::CW004 a%0Ab"


def test_github_format_of_a_pack_in_a_hostile_folder(tmp_path: Path, broken_dir: Path) -> None:
    pack = tmp_path / "p,title=x::error::y\nz"
    shutil.copytree(broken_dir, pack)
    result = CliRunner().invoke(main, ["check", str(pack), "--format", "github"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert len(lines) == 3 and all(line.startswith("::error file=") for line in lines)
    assert all(properties(line)["title"] in ("CW103", "CW107", "CW202") for line in lines)


def test_sarif_uri_is_a_uri_reference() -> None:
    name = "my pack/a#b?c:d%e\n.clank"
    uri = file_uri(name)
    parts = urllib.parse.urlsplit(uri)
    assert not parts.scheme and not parts.fragment and not parts.query
    assert urllib.parse.unquote(parts.path) == name
    assert file_uri("packs/tutorial/pack.clank") == "packs/tutorial/pack.clank"
    doc = json.loads(format_sarif([diag(name)], "0"))
    loc = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == uri


def test_json_keeps_a_name_with_a_newline_as_one_string() -> None:
    out = format_json([diag("a\nb\x1b[2J.clank", "unknown card 'x\ny'")])
    assert "\x1b" not in out
    doc = json.loads(out)
    assert doc["diagnostics"][0]["span"]["file"] == "a\nb\x1b[2J.clank"
    assert doc["diagnostics"][0]["message"] == "unknown card 'x\ny'"
    line = next(x for x in out.splitlines() if '"file"' in x)
    assert line.strip() == '"file": "a\\nb\\u001b[2J.clank",'

"""A PACK argument: a path, else a bundled pack by name, the same way in every command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from clankwork.tools.cli import COMMANDS, main
from clankwork.tools.packs import FLAGSHIP, PackArg, bundled_names, bundled_pack


def _commands() -> list[tuple[str, click.Command]]:
    """Every command and sub-command of the CLI, by its full name."""
    ctx = click.Context(main)
    out = []
    stack = [(name, main.get_command(ctx, name)) for name in COMMANDS]
    while stack:
        name, cmd = stack.pop()
        assert cmd is not None
        out.append((name, cmd))
        if isinstance(cmd, click.Group):
            stack += [(f"{name} {n}", c) for n, c in cmd.commands.items()]
    return out


def test_every_pack_argument_takes_a_bundled_name_and_says_its_default() -> None:
    found = []
    for name, cmd in _commands():
        for param in cmd.params:
            if isinstance(param, click.Argument) and param.name in ("pack", "packs"):
                found.append(name)
                assert isinstance(param.type, PackArg), name
                if not param.required:
                    assert "default: the bundled flagship pack" in (cmd.help or ""), name
    assert {"check", "build", "test", "simulate", "play", "kit", "render board"} <= set(found)
    assert {"render cards", "render pnp", "export tts", "campaign new"} <= set(found)
    replay = main.get_command(click.Context(main), "replay")
    assert replay is not None
    (option,) = [p for p in replay.params if p.name == "pack"]
    assert isinstance(option.type, PackArg)


@pytest.mark.parametrize(
    "args, says",
    [
        (["check", "tutorial"], "25 card designs"),
        (["test", "tutorial", "-k", "Consultant"], "1 scenario: 1 passed"),
        (["build", "tutorial"], '"name": "tutorial"'),
    ],
)
def test_a_bundled_pack_by_name_from_any_folder(
    args: list[str], says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert says in result.output


def test_a_folder_of_that_name_wins_over_the_bundled_pack(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = tmp_path / "tutorial"
    shutil.copytree(bundled_pack("tutorial"), mine)
    (mine / "reserve.clank").write_text("card Oops { cost 1; play: +1 goldd }\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "tutorial"])
    assert result.exit_code == 1 and "CW103" in result.output, result.output


@pytest.mark.parametrize(
    "value, says",
    [
        ("content/tutorial", "there is no 'content/tutorial' here; the bundled pack is `tutorial`"),
        ("tutorail", 'did you mean "tutorial"?'),
        ("nothing-like-it", "no file or folder 'nothing-like-it'"),
    ],
)
def test_a_pack_that_is_nowhere_is_a_usage_error_listing_the_bundled(
    value: str, says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for command in (["check"], ["test"], ["simulate", "--games", "1"], ["render", "board"]):
        result = CliRunner().invoke(main, [*command, value])
        assert result.exit_code == 2, (command, result.output)
        assert says in result.output, result.output
        assert "bundled packs: " + ", ".join(bundled_names()) in result.output
        assert "Traceback" not in result.output


def test_a_folder_only_command_refuses_a_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["test", str(bundled_pack("tutorial") / "pack.clank")])
    assert result.exit_code == 2 and "give the pack's folder" in result.output


def test_packs_lists_every_bundled_pack() -> None:
    result = CliRunner().invoke(main, ["packs"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for name in bundled_names():
        assert any(line.split()[0] == name for line in lines), name
    assert any(line.startswith(FLAGSHIP) and "[default]" in line for line in lines)
    assert any(line.startswith("vault") and "(extends clank)" in line for line in lines)
    paths = CliRunner().invoke(main, ["packs", "--path"]).output.split()
    assert paths == [str(bundled_pack(n)) for n in bundled_names()]


def test_shell_completion_offers_the_bundled_names(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "_CLANKWORK_COMPLETE": "bash_complete",
        "COMP_WORDS": "clankwork test tu",
        "COMP_CWORD": "2",
    }
    # The installed script: click names the variable after the program it runs as.
    out = subprocess.run(
        [str(Path(sys.executable).parent / "clankwork")],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "plain,tutorial" in out.stdout.splitlines(), out


def test_the_command_list_is_the_table_and_every_command_is_there() -> None:
    """`clankwork --help` lists the table's summaries (it imports no command for them);
    every command of the table loads, and says in its own help what its summary says."""
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    ctx = click.Context(main)
    for name, (_module, _attr, summary) in COMMANDS.items():
        assert f"  {name}" in result.output and summary in result.output, name
        assert len(summary) <= 60 and summary.endswith("."), name
        cmd = main.get_command(ctx, name)
        assert cmd is not None and cmd.help, name
        first = next(w for w in summary.split() if w[0].isupper())
        assert cmd.help.split()[0] == first, (name, cmd.help.split()[0], summary)

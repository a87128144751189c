"""An IR .json given to any command is read bounded and validated before a tool uses it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from clankwork.dsl.limits import MAX_IR_BYTES
from clankwork.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def clean_failure(result: Result, code: int = 1) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.stderr


@pytest.fixture(scope="module")
def good_ir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ir") / "tutorial.json"
    result = cli("build", ROOT / "content" / "tutorial", "-o", path)
    assert result.exit_code == 0, result.output
    return path


# Every command that takes a pack, as (args before the IR path, args after).
COMMANDS = [
    (["build"], []),
    (["render", "board"], ["--format", "dot", "-o", "{tmp}/b.dot"]),
    (["render", "cards"], ["-o", "{tmp}/cards"]),
    (["simulate"], ["-n", "1", "-p", "2"]),
]


def _run(cmd: tuple[list[str], list[str]], ir: Path, tmp: Path) -> Result:
    before, after = cmd
    return cli(*before, ir, *[a.replace("{tmp}", str(tmp)) for a in after])


@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: " ".join(c[0]))
def test_a_good_ir_file_works_everywhere(
    cmd: tuple[list[str], list[str]], good_ir: Path, tmp_path: Path
) -> None:
    result = _run(cmd, good_ir, tmp_path)
    assert result.exit_code == 0, result.output


def _bad_files(good: dict) -> dict[str, str | bytes]:
    wrong_type = json.loads(json.dumps(good))
    wrong_type["cards"][2]["copies"] = "many"
    no_cards = {k: v for k, v in good.items() if k != "cards"}
    huge_round_cap = json.loads(json.dumps(good))
    huge_round_cap["rules"]["round_cap"] = 10**6
    dangling = json.loads(json.dumps(good))
    dangling["boards"][0]["paths"][3]["to"] = "Atlantis"
    twice = json.loads(json.dumps(good))
    twice["cards"][1]["name"] = twice["cards"][0]["name"]
    control = json.loads(json.dumps(good))
    control["boards"][0]["spaces"][2]["name"] = "Gate\x1b[2Jhouse"
    fraction = json.loads(json.dumps(good))
    fraction["cards"][0]["copies"] = 2.0
    far = json.loads(json.dumps(good))
    far["boards"][0]["spaces"][0]["pos"] = [10**400, 0]
    text = json.dumps(good)
    return {
        "fraction": json.dumps(fraction),
        "far": json.dumps(far),
        "control": json.dumps(control),
        "dangling-path": json.dumps(dangling),
        "same-name": json.dumps(twice),
        "array": "[1, 2, 3]",
        "string": '"a pack"',
        "truncated": text[: len(text) // 2],
        "deep": "[" * 100_000 + "]" * 100_000,
        "deep-object": json.dumps(good)[:-1] + ', "x": ' + "[" * 900 + "]" * 900 + "}",
        "digits": '{"cards": ' + "9" * 5000 + "}",
        "binary": b"\xff\xfe\x00{",
        "wrong-type": json.dumps(wrong_type),
        "missing": json.dumps(no_cards),
        "round-cap": json.dumps(huge_round_cap),
    }


EXPECTED = {
    "fraction": "at cards/0/copies: 2.0 is not a whole number",
    "far": "at boards/0/spaces/0/pos/0: a number of 401 digits; at most 9 (CW113)",
    "control": "at boards/0/spaces/2/name: control character U+001B in a text (CW114)",
    "dangling-path": "at boards/0/paths/3/to: 'Atlantis' is not a space of board 'overworld'",
    "same-name": "at cards/1/name: a second card named",
    "array": "holds a JSON list, not a compiled pack",
    "string": "holds a JSON str, not a compiled pack",
    "truncated": "not valid JSON",
    "deep": "nested too deeply",
    "deep-object": "nested more than",
    "digits": "not a readable IR file",
    "binary": "not UTF-8 text",
    "wrong-type": "at cards/2/copies: 'many' is not of type 'integer'",
    "missing": "'cards' is a required property",
    "round-cap": "at rules/round_cap: 1000000 is greater than the maximum of 500",
}


@pytest.fixture(scope="module")
def bad_files(good_ir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every bad IR file above, written once."""
    folder = tmp_path_factory.mktemp("bad-ir")
    out = {}
    for kind, content in _bad_files(json.loads(good_ir.read_text())).items():
        out[kind] = folder / f"{kind}.json"
        if isinstance(content, bytes):
            out[kind].write_bytes(content)
        else:
            out[kind].write_text(content)
    return out


# Every kind through one command; every command shares `read_ir_file`, so a few kinds through
# each of them show it is used everywhere.
CASES = [(COMMANDS[-1], kind) for kind in sorted(EXPECTED)] + [
    (cmd, kind) for cmd in COMMANDS[:-1] for kind in ("array", "truncated", "wrong-type", "far")
]


@pytest.mark.parametrize(
    ("cmd", "kind"), CASES, ids=lambda c: c if isinstance(c, str) else c[0][-1]
)
def test_a_bad_ir_file_is_a_message_not_a_traceback(
    cmd: tuple[list[str], list[str]], kind: str, bad_files: dict[str, Path], tmp_path: Path
) -> None:
    bad = bad_files[kind]
    stderr = clean_failure(_run(cmd, bad, tmp_path))
    assert EXPECTED[kind] in stderr, stderr
    assert str(bad) in stderr
    assert "rebuild it with `clankwork build PACK -o FILE`" in stderr


def test_replay_validates_its_pack_file_too(good_ir: Path, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    result = cli("simulate", good_ir, "-n", "1", "-p", "2", "--log-dir", logs)
    assert result.exit_code == 0, result.output
    log = logs / "game-000000.jsonl"
    assert cli("replay", "--check", "--pack", good_ir, log).exit_code == 0
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    stderr = clean_failure(cli("replay", "--check", "--pack", bad, log))
    assert "holds a JSON list, not a compiled pack" in stderr


def test_an_ir_file_past_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(MAX_IR_BYTES + 1)  # sparse: no disk used
    stderr = clean_failure(cli("simulate", big, "-n", "1"))
    assert "limited to 256 MiB" in stderr and "CW006" in stderr


def test_many_schema_errors_are_listed_briefly(good_ir: Path, tmp_path: Path) -> None:
    ir = json.loads(good_ir.read_text())
    for card in ir["cards"]:
        card["copies"] = -1
    bad = tmp_path / "many.json"
    bad.write_text(json.dumps(ir))
    stderr = clean_failure(cli("render", "cards", bad, "-o", tmp_path / "c"))
    assert stderr.count("  at cards/") == 10
    assert f"... and {len(ir['cards']) - 10} more" in stderr
    assert not (tmp_path / "c").exists()


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs named pipes")
def test_a_pipe_named_like_an_ir_file_is_refused_unopened(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pack.json"
    os.mkfifo(fifo)
    stderr = clean_failure(cli("simulate", fifo, "-n", "1"))  # would block if it were opened
    assert "is not a regular file" in stderr

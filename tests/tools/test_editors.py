"""The TextMate grammar is generated and current; the VS Code folder is a loadable extension."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from clankwork.tools.cli import main
from clankwork.tools.textmate import GRAMMAR_PATH, grammar, grammar_text

VSCODE = Path(__file__).resolve().parents[2] / "editors" / "vscode"


def test_committed_grammar_is_current() -> None:
    assert GRAMMAR_PATH.read_text(encoding="utf-8") == grammar_text(), (
        "editors/vscode/syntaxes/clank.tmLanguage.json is stale: run `clankwork docs --write`"
    )


def test_docs_textmate_prints_and_writes_the_grammar(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["docs", "textmate"])
    assert result.exit_code == 0
    assert result.output == grammar_text()
    out = tmp_path / "g.json"
    result = CliRunner().invoke(main, ["docs", "textmate", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == grammar_text()
    assert CliRunner().invoke(main, ["docs", "-o", str(out)]).exit_code == 2


def _scopes(line: str) -> dict[str, str]:
    """What a TextMate engine gives each word of one line: at each position the earliest
    match of the top-level patterns wins, the first listed on a tie (enough for one-line
    patterns; Python's re reads these regexes as Oniguruma does)."""
    g = grammar()
    rules = []

    def flatten(rule: dict) -> None:
        if "include" in rule:
            flatten(g["repository"][rule["include"][1:]])
        elif "patterns" in rule and "match" not in rule and "begin" not in rule:
            for r in rule["patterns"]:
                flatten(r)
        else:
            rules.append(rule)

    for r in g["patterns"]:
        flatten(r)
    out: dict[str, str] = {}
    pos = 0
    while pos < len(line):
        best = None
        for rule in rules:
            m = re.compile(rule.get("match") or rule["begin"]).search(line, pos)
            if m and m.end() > m.start() and (best is None or m.start() < best[0].start()):
                best = (m, rule)
        if best is None:
            break
        m, rule = best
        if "begin" in rule:
            end = re.compile(rule["end"]).search(line, m.end())
            stop = end.end() if end else len(line)
            out[line[m.start() : stop]] = rule["name"]
            pos = stop
            continue
        if "captures" in rule:
            for i, cap in rule["captures"].items():
                if m.group(int(i)):
                    out[m.group(int(i))] = cap["name"]
        else:
            out[m.group(0).strip()] = rule["name"]
        pos = m.end()
    return out


@pytest.mark.parametrize(
    "line, word, scope",
    [
        (
            'card "Lucky Coin" { cost 1; play: +1 skill, draw 1 }  # a note',
            '"Lucky Coin"',
            "string",
        ),
        ('card "Lucky Coin" { cost 1; play: +1 skill, draw 1 }  # a note', "# a note", "comment"),
        ("card Burgle { starting 6; play: +1 skill }", "card", "storage.type.declaration"),
        ("card Burgle { starting 6; play: +1 skill }", "Burgle", "entity.name.type"),
        ("card Burgle { starting 6; play: +1 skill }", "starting", "variable.other.property"),
        ("card Burgle { starting 6; play: +1 skill }", "play", "keyword.control.trigger"),
        ("card Burgle { starting 6; play: +1 skill }", "+1", "constant.numeric.signed"),
        ("card Burgle { starting 6; play: +1 skill }", "6", "constant.numeric.integer"),
        ("card Burgle { starting 6; play: +1 skill }", "skill", "support.constant.resource"),
        ("  play: may pay 2 gold -> draw 2", "may", "support.function.effect"),
        ("  play: may pay 2 gold -> draw 2", "->", "keyword.operator.arrow"),
        ("  path HQ -- Gatehouse", "--", "keyword.operator.link"),
        ("  path HQ -- Gatehouse", "path", "storage.type.declaration"),
        ("  play if another companion in play: +2 skill", "another", "keyword.other.condition"),
        ("scenario X {", "scenario", "storage.type.declaration"),
    ],
)
def test_the_grammar_colours_what_the_compiler_knows(line: str, word: str, scope: str) -> None:
    assert _scopes(line).get(word, "").startswith(scope), _scopes(line)


def test_every_regex_compiles() -> None:
    text = json.dumps(grammar())
    for pattern in re.findall(r'"(?:match|begin|end)": "((?:[^"\\]|\\.)*)"', text):
        re.compile(json.loads(f'"{pattern}"'))


def test_the_extension_manifest_points_at_files_that_exist() -> None:
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    for key in ("name", "displayName", "version", "publisher"):
        assert manifest[key]
    assert manifest["engines"]["vscode"]
    # `vsce package` bundles extension.js into dist/ (esbuild), one file instead of 300.
    assert manifest["main"] == "./dist/extension.js"
    assert "extension.js" in manifest["scripts"]["build"].split()[1]
    assert manifest["scripts"]["vscode:prepublish"] == "npm run build"
    assert "esbuild" in manifest["devDependencies"]
    ignored = (VSCODE / ".vscodeignore").read_text(encoding="utf-8").split()
    assert "node_modules/**" in ignored and "extension.js" in ignored
    (language,) = manifest["contributes"]["languages"]
    assert ".clank" in language["extensions"]
    config = json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))
    assert config["comments"]["lineComment"] == "#"
    assert ["{", "}"] in config["brackets"]
    (tm,) = manifest["contributes"]["grammars"]
    assert (VSCODE / tm["path"]).resolve() == GRAMMAR_PATH
    assert tm["scopeName"] == grammar()["scopeName"]
    assert tm["language"] == language["id"]
    assert f"onLanguage:{language['id']}" in manifest["activationEvents"]
    assert "vscode-languageclient" in manifest["dependencies"]
    assert "clankwork.executable" in manifest["contributes"]["configuration"]["properties"]
    extension = (VSCODE / "extension.js").read_text(encoding="utf-8")
    assert '"lsp"' in extension and "vscode-languageclient/node" in extension
    assert not (VSCODE / "node_modules").exists()


def test_the_extension_packages_without_warnings() -> None:
    """What `vsce package` warns about: a repository field, a LICENSE file; the address is
    the project's (pyproject.toml's Repository URL)."""
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    project = tomllib.loads((VSCODE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    repository = project["project"]["urls"]["Repository"]
    assert manifest["repository"]["url"] == repository + ".git"
    assert manifest["bugs"]["url"] == project["project"]["urls"]["Issues"]
    assert manifest["license"] == project["project"]["license"] == "MIT"
    license_text = (VSCODE / "LICENSE").read_text(encoding="utf-8")
    assert license_text == (VSCODE.parents[1] / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License")

"""The TextMate grammar is generated and current; the VS Code folder is a loadable extension."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
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


EDITORS = Path(__file__).resolve().parents[2] / "editors"
NVIM_PROBE = """
local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local out = { "filetype " .. vim.bo.filetype, "diagnostics " .. tostring(ok) }
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out, "line " .. (d.lnum + 1) .. ": " .. (d.message:gsub("\\n.*", "")))
end
local last = vim.api.nvim_buf_line_count(0)
local params = { textDocument = vim.lsp.util.make_text_document_params(),
                 position = { line = last - 1, character = 32 } }
for _, r in pairs(vim.lsp.buf_request_sync(0, "textDocument/completion", params, 30000) or {}) do
  for _, it in ipairs(r.result and (r.result.items or r.result) or {}) do
    table.insert(out, "item " .. it.label)
  end
end
vim.fn.writefile(out, vim.env.CLANK_OUT)
vim.cmd("qa!")
"""
EMACS_PROBE = """
(load (getenv "CLANK_MODE"))
(find-file (getenv "CLANK_FILE"))
;; eglot-ensure connects from the command loop, which batch mode has not: connect as it would.
(unless (eglot-current-server) (apply #'eglot--connect (eglot--guess-contact)))
(let ((deadline (+ (float-time) 60)))
  (while (and (< (float-time) deadline) (null (flymake-diagnostics)))
    (accept-process-output nil 0.2)))
(let ((lines (list (format "mode %s" major-mode))))
  (dolist (d (flymake-diagnostics))
    (push (format "line %d: %s" (line-number-at-pos (flymake-diagnostic-beg d))
                  (car (split-string (flymake-diagnostic-text d) "\\n")))
          lines))
  (with-temp-file (getenv "CLANK_OUT")
    (insert (mapconcat #'identity (nreverse lines) "\\n") "\\n")))
(kill-emacs 0)
"""


def _editor_pack(tmp_path: Path) -> Path:
    """A tutorial copy with an unknown effect and a half-typed `+2 sk` on its last line."""
    from clankwork.tools.check import bundled_pack

    pack = tmp_path / "tutorial"
    shutil.copytree(bundled_pack("tutorial"), pack)
    path = pack / "adventure.clank"
    text = path.read_text().replace("+2 gold, +1 boots", "+2 goldd, +1 boots", 1)
    path.write_text(text + "card Quick { cost 1; play: +2 sk }\n")
    return path


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)  # where this environment's clankwork is
    return {**os.environ, "PATH": bin_dir + os.pathsep + os.environ["PATH"], **extra}


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed")
def test_the_neovim_recipe_starts_the_server(tmp_path: Path) -> None:
    path = _editor_pack(tmp_path)
    probe = tmp_path / "probe.lua"
    probe.write_text(NVIM_PROBE)
    out = tmp_path / "out.txt"
    subprocess.run(
        ["nvim", "--headless", "-u", str(EDITORS / "neovim" / "clankwork.lua"),
         "+edit " + str(path), "+luafile " + str(probe)],
        env=_env(tmp_path, CLANK_OUT=str(out)),
        cwd=tmp_path,
        timeout=180,
        capture_output=True,
        check=False,
    )  # fmt: skip
    lines = out.read_text().splitlines()
    assert lines[:2] == ["filetype clank", "diagnostics true"], lines
    assert any("unknown effect `+2 goldd`" in ln for ln in lines)
    assert [ln for ln in lines if ln.startswith("item ")] == ["item skill", "item skills"]


@pytest.mark.skipif(shutil.which("emacs") is None, reason="Emacs is not installed")
def test_the_emacs_recipe_starts_the_server(tmp_path: Path) -> None:
    has_eglot = subprocess.run(
        ["emacs", "--batch", "--eval", "(progn (require 'eglot) (kill-emacs 0))"],
        capture_output=True,
        check=False,
    )
    if has_eglot.returncode != 0:
        pytest.skip("eglot is not installed (Emacs 29 has it; elpa-eglot on Debian)")
    path = _editor_pack(tmp_path)
    probe = tmp_path / "probe.el"
    probe.write_text(EMACS_PROBE)
    out = tmp_path / "out.txt"
    env = _env(
        tmp_path,
        CLANK_OUT=str(out),
        CLANK_FILE=str(path),
        CLANK_MODE=str(EDITORS / "emacs" / "clank-mode.el"),
    )
    subprocess.run(
        ["emacs", "--batch", "-l", str(probe)],
        env=env,
        cwd=tmp_path,
        timeout=180,
        capture_output=True,
        check=False,
    )
    lines = out.read_text().splitlines()
    assert lines[0] == "mode clank-mode"
    assert any("[CW103]: unknown effect `+2 goldd`" in ln for ln in lines), lines


def test_the_helix_recipe_names_the_server() -> None:
    config = tomllib.loads((EDITORS / "helix" / "languages.toml").read_text(encoding="utf-8"))
    assert config["language-server"]["clankwork"] == {"command": "clankwork", "args": ["lsp"]}
    (language,) = config["language"]
    assert language["file-types"] == ["clank"] and language["roots"] == ["pack.clank"]
    assert language["language-servers"] == ["clankwork"]

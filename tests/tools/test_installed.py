"""Clankwork installed from its wheel (not the checkout) works from any folder.

The wheel is built from a copy of the checkout's files (so the build leaves nothing in the
checkout) and installed without its dependencies into a new venv, which finds them in this
environment's site-packages through a .pth line (so the test needs no network). The editable
install of the checkout is not visible there: a .pth line adds a folder, it does not run the
editable install's hook.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _files() -> list[str]:
    """The checkout's files that are not ignored (committed or about to be)."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    return [f for f in out.stdout.decode().split("\0") if f and (ROOT / f).is_file()]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the venv's bin folder, the wheel)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout to know which files are the project's")
    tmp = tmp_path_factory.mktemp("installed")
    src = tmp / "src"
    for f in _files():
        (src / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, src / f)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    wheels = tmp / "wheels"
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(src)],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("clankwork-*.whl")
    env = tmp / "venv"
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    subprocess.run(
        [*pip, "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "clankwork-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return env / "bin", wheel


def _run(bin_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / "clankwork"), *args], cwd=cwd, capture_output=True, text=True, check=False
    )


def test_the_installed_command_runs_the_bundled_packs_by_name(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, _wheel = installed
    where = _run(bin_dir, tmp_path, "packs", "--path").stdout.split()
    assert where and all("site-packages" in w and str(ROOT) not in w for w in where), where
    result = _run(bin_dir, tmp_path, "test", "tutorial")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 scenarios: 5 passed, 0 failed" in result.stdout
    for pack in ("acqinc", "vault"):  # vault extends clank: its base is found installed too
        result = _run(bin_dir, tmp_path, "check", pack)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "card designs" in result.stdout
    listed = _run(bin_dir, tmp_path, "packs").stdout
    assert "tutorial" in listed and "[default]" in listed
    missing = _run(bin_dir, tmp_path, "test", "content/tutorial")
    assert missing.returncode == 2 and "the bundled pack is `tutorial`" in missing.stderr


def test_the_wheel_holds_every_file_of_the_packs_and_the_license(
    installed: tuple[Path, Path],
) -> None:
    _bin, wheel = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    content = [f for f in _files() if f.startswith("content/") and not f.endswith(".py")]
    assert content
    assert [f for f in content if f"clankwork/{f}" not in names] == []
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    meta = (
        zipfile.ZipFile(wheel)
        .read(next(n for n in names if n.endswith(".dist-info/METADATA")))
        .decode()
    )
    fields = ("Author: ", "Project-URL: Repository, ", "Classifier: ", "License-Expression: MIT")
    for field in fields:
        assert field in meta, field

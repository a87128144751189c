"""`art "FILE"` on a card: an image inside the pack, checked where the card names it."""

from __future__ import annotations

import base64
import os
import shutil
import struct
import zlib
from pathlib import Path

import pytest

from clankwork.dsl import limits
from clankwork.dsl.art import art_problem, image_kind, svg_problem
from clankwork.dsl.compiler import compile_pack


def tiny_png(width: int = 2, height: int = 3) -> bytes:
    """A valid RGB PNG of ``width`` x ``height`` red pixels."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


SVG_OK = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
    '<defs><linearGradient id="g"/></defs><rect width="10" height="10" fill="url(#g)"/>'
    f'<image href="data:image/png;base64,{base64.b64encode(tiny_png()).decode()}"/></svg>'
)


@pytest.fixture
def pack(tmp_path: Path, tutorial_dir: Path) -> Path:
    dest = tmp_path / "pack"
    shutil.copytree(tutorial_dir, dest)
    (dest / "art").mkdir()
    return dest


def with_card(pack: Path, art: str) -> tuple[int, int]:
    """Add a card naming ``art``; the (line, column) of its quoted path."""
    path = pack / "adventure.clank"
    text = path.read_text(encoding="utf-8")
    line = f'card Zap {{ cost 1; art "{art}"; play: +1 skill }}\n'
    path.write_text(text + line, encoding="utf-8")
    return text.count("\n") + 1, line.index('"') + 1


def only(pack: Path, code: str) -> object:
    result = compile_pack(pack)
    found = [d for d in result.diagnostics if d.severity == "error"]
    assert [d.code for d in found] == [code], [str(d) for d in found]
    return found[0]


def test_art_inside_the_pack_is_in_the_ir(pack: Path) -> None:
    (pack / "art" / "zap.png").write_bytes(tiny_png())
    (pack / "art" / "zip.svg").write_text(SVG_OK, encoding="utf-8")
    with_card(pack, "art/zap.png")
    result = compile_pack(pack)
    assert result.ok, [str(d) for d in result.diagnostics]
    card = next(c for c in result.ir["cards"] if c["name"] == "Zap")
    assert card["art"] == "art/zap.png"
    assert all("art" not in c for c in result.ir["cards"] if c["name"] != "Zap")


@pytest.mark.parametrize(
    ("art", "code", "words"),
    [
        ("art/none.png", "CW004", "does not exist"),
        ("../outside.png", "CW005", "outside the pack folder"),
        ("/etc/hostname.png", "CW005", "outside the pack folder"),
        ("art/fake.png", "CW144", "does not hold the PNG"),
        ("art/notes.txt", "CW144", "not a PNG, JPEG or SVG"),
    ],
)
def test_a_bad_art_path_is_a_diagnostic_at_its_line(
    pack: Path, art: str, code: str, words: str
) -> None:
    (pack.parent / "outside.png").write_bytes(tiny_png())
    (pack / "art" / "fake.png").write_text("hello", encoding="utf-8")
    (pack / "art" / "notes.txt").write_text("hello", encoding="utf-8")
    line, col = with_card(pack, art)
    d = only(pack, code)
    assert d.span.file.endswith("adventure.clank") and (d.span.line, d.span.col) == (line, col)
    assert words in d.message and d.hint


def test_art_linked_out_of_the_pack_is_refused(pack: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.png"
    secret.write_bytes(tiny_png())
    os.symlink(secret, pack / "art" / "link.png")
    with_card(pack, "art/link.png")
    assert "link" in only(pack, "CW005").message


def test_art_past_its_size_limit_is_refused(pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_ART_BYTES", 64)
    (pack / "art" / "big.png").write_bytes(tiny_png(40, 40))
    with_card(pack, "art/big.png")
    d = only(pack, "CW006")
    assert "64 bytes" in d.message and "image" in d.message


def test_a_word_is_not_a_path(pack: Path) -> None:
    path = pack / "adventure.clank"
    path.write_text(path.read_text() + "card Zap { cost 1; art goblin; play: +1 skill }\n")
    assert "quoted file name" in only(pack, "CW105").message


NS = 'xmlns="http://www.w3.org/2000/svg"'


@pytest.mark.parametrize(
    ("svg", "why"),
    [
        (f'<svg {NS}><image href="file:///etc/passwd"/></svg>', "refers"),
        (
            f'<svg {NS} xmlns:x="http://www.w3.org/1999/xlink">'
            '<image x:href="https://example.invalid/a.png"/></svg>',
            "refers",
        ),
        (f"<svg {NS}><script>alert(1)</script></svg>", "<script>"),
        (f'<svg {NS} onload="alert(1)"/>', "event attribute"),
        (f'<svg {NS}><rect fill="url(http://x/y#z)"/></svg>', "refers"),
        (f'<svg {NS}><style>@import "a.css";</style></svg>', "imports"),
        ('<!DOCTYPE svg [<!ENTITY x SYSTEM "/etc/passwd">]><svg>&x;</svg>', "DOCTYPE"),
        (f"<svg {NS}><foreignObject/></svg>", "foreignObject"),
        ("<svg", "well-formed"),
        ('<html xmlns="http://www.w3.org/1999/xhtml"><svg/></html>', "root"),
    ],
)
def test_an_svg_that_reaches_outside_itself_is_refused(svg: str, why: str) -> None:
    problem = svg_problem(svg.encode())
    assert problem is not None and why in problem


def test_a_self_contained_svg_and_real_images_are_taken() -> None:
    assert svg_problem(SVG_OK.encode()) is None
    assert image_kind(tiny_png()) == "image/png"
    assert image_kind(b"\xff\xd8\xff\xe0rest") == "image/jpeg"
    assert art_problem("a.svg", SVG_OK.encode()) is None
    assert art_problem("a.JPG", b"\xff\xd8\xff\xe0rest") is None
    assert "SVG" in (art_problem("a.svg", tiny_png()) or "")

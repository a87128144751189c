"""`clankwork new NAME`: a new pack folder that checks, tests and plays as it is written.

The skeleton is the smallest pack that is a whole game: a manifest, the base starting deck
and reserve (the tutorial's values), a few adventure cards and monsters, the tokens the board
hands out, a nine-space board with positions for `clankwork render board`, and one scenario.
Its comments teach the designer what each part is, so the first edit is a small one.

`--extends PACK` writes an extension instead: a manifest that extends PACK (a bundled pack's
name, or a path to a pack folder beside the new one), one new card, one `change` of a card of
PACK, and a scenario that plays the new card beside one of PACK's starting cards. PACK is
compiled first, so the extension checks, tests and plays as written.

NAME becomes a folder, so it must already be a plain file name (the rule of
`outputs.safe_filename`): lower-case letters, digits and inner hyphens. Every file is written
through `tools.outputs` (atomic, links never followed), into a folder this command creates.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import click

from clankwork.dsl.compiler import compile_pack
from clankwork.dsl.diagnostics import did_you_mean
from clankwork.dsl.formatter import format_source

from .check import bundled_names, bundled_pack, display_path
from .outputs import OutputError, check_dir, safe_filename, write_text

PACK_TEMPLATE = """\
# The manifest of pack @NAME@: its name, version and description, the files it is made of
# (`include`), and the rules it changes from the defaults (docs/language.md, "Rules").
# Check it with `clankwork check @NAME@`, run its scenarios with `clankwork test @NAME@`,
# watch bots play it with `clankwork simulate @NAME@`, play it with `clankwork play @NAME@`.

pack "@NAME@" {
  version "0.1.0"
  title "@NAME@"
  description "A nine-space board, the base starting deck and reserve, a few cards."
}

# Each included file is read as if it were written here; the split is only for people.
include "starting.clank"
include "reserve.clank"
include "adventure.clank"
include "tokens.clank"
include "board.clank"

# Every rule has a default (the classic Clank! values); a pack states only what it changes.
# This board has three artifacts, so three players at most.
rules {
  max players 3
  # Escaping with an artifact earns a mug (tokens.clank) while they last.
  when you escape: take Mug
}
"""

EXTENDS_PACK = """\
# The manifest of pack @NAME@, an extension of @BASE@: it starts from every card, token,
# board and rule of @BASE@ and changes only what its own files say (docs/language.md,
# "Packs that extend packs"). Check it with `clankwork check @NAME@`, run its scenarios with
# `clankwork test @NAME@`, watch bots play it with `clankwork simulate @NAME@`.

pack "@NAME@" {
  version "0.1.0"
  title "@NAME@"
  description "@BASE@ with one new card."
  # A bundled pack by its name, or a pack folder beside this one by a quoted path
  # (extends "../my-base"). `clankwork build` records the base's name and version.
  extends @BASE_REF@
}

include "cards.clank"

# Rules given here replace @BASE@'s values; every other rule keeps @BASE@'s. For example:
# rules { market price 6 }
"""

EXTENDS_CARDS = """\
# New declarations add to @BASE@'s cards, tokens and boards; a name @BASE@ has already is
# an error (CW123): replace or change it instead. `board NAME { ... }` with the name of one
# of @BASE@'s boards adds spaces and paths to it.
card "@NEW@" { copies 2; cost 3; play: +2 skill, +1 clank }
@CHANGE@
# `replace` declares one of @BASE@'s designs again, whole; `remove` takes one out:
#   replace card "Some Card" { cost 2; play: +1 skill, +1 boots }
#   remove card "Some Card"
# Spaces and paths too: change space "Some Space" { reward gold 2 },
# remove path "Some Space" -- "Another Space".
"""

EXTENDS_CHANGE = """
# `change` keeps every property it does not give: one more copy of @CARD@.
change card "@CARD@" { copies @COPIES@ }
"""

EXTENDS_SCENARIO = """\
# Scenarios (docs/scenarios.md) use @BASE@'s cards as this pack's own.
# `clankwork test @NAME@` runs every scenario in this folder.

scenario "@NEW@ is played beside @BASE@'s @START@" {
  players @PLAYERS@
  player 1 { hand "@START@" "@NEW@" }
  play "@NEW@"
  expect player 1 skill 2
  expect player 1 hand has "@START@"
}
"""

STARTING = """\
# The starting deck: every player shuffles these ten cards at setup (`starting N` is N copies
# in each deck). `clankwork check` counts them against the rules' `starting deck` (10).
# A card's words after `play:` are what it does when played (docs/language.md, "Effects").

card Burgle   { starting 6; play: +1 skill }
card Stumble  { starting 2; play: +1 clank }
card Sidestep { starting 1; play: +1 boots }
card Scramble { starting 1; play: +1 skill, +1 boots }
"""

RESERVE = """\
# The reserve: piles on sale all game (`copies` is the size of the pile). A reserve card with
# `fight` is the reserve monster, fought again and again and never used up.

reserve Mercenary         { copies 15; cost 2; companion; play: +1 skill, +2 swords }
reserve Explore           { copies 15; cost 3; play: +2 skill, +1 boots }
reserve "Mysterious Tome" { copies 12; cost 7; points 7 }
reserve Cultist           { fight 2; defeat: +1 gold }
"""

ADVENTURE = """\
# The adventure deck: shuffled at setup; six of its cards are face up in the row.
# `card` is acquired with skill (`cost`), `monster` is defeated with swords (`fight`).
# `dragon attack` on a card makes the dragon attack when it enters the row; `danger` adds a
# cube to every attack while it is there; `only in forest` needs the player on a forest.

card "Lantern Bearer" { copies 3; cost 3; play: +2 skill, +1 boots }
card "Rusty Sword"    { copies 3; cost 2; points 1; play: +2 swords }
card "Loud Tinker"    { copies 2; cost 3; play: +3 skill, +1 clank }
card "Quiet Steps"    { copies 2; cost 4; points 1; play: +2 boots, -1 clank }
card "Lucky Find"     { copies 2; cost 4; dragon attack; play: +3 gold, draw 1 }
# `choose one (A | B)`: the player picks exactly one.
card "Wayside Shrine" { copies 2; cost 2; play: choose one (+1 gold | heal 1) }

monster "Cave Bat"    { copies 2; fight 1; defeat: +1 gold }
monster Wolf          { copies 2; fight 2; only in forest; defeat: +2 skill }
monster Troll         { copies 2; fight 4; dragon attack; danger; defeat: +4 gold, heal 1 }
"""

TOKENS = """\
# Tokens: what spaces and cards hand out. Secrets are drawn face down from their bank by a
# space's `reward minor secret` / `reward major secret`; market items are bought in a town;
# an artifact waits on each `artifact N` space (one token per space, matched by points);
# the mug goes to each player who escapes, while it lasts.

token "Potion of Healing" { minor secret 3; use: heal 1 }
token Treasure            { minor secret 3; gold 2 }
token "Greater Treasure"  { major secret 2; gold 5 }

token Lantern             { market 2; points 5 }

token "Sun Disc"               { artifact; points 10 }
token Crown               { artifact; points 15 }
token Chalice             { artifact; points 20 }

token Mug                 { mug 4; points 20 }
"""

BOARD = """\
# The board: spaces and the paths between them. Players start at HQ and must come back to it
# with an artifact to escape. `at X Y` places a space for `clankwork render board` (points,
# y grows downwards). Paths: `A -- B` both ways, `A -> B` one way; `boots N` is N footprints
# (1 when not given), `monsters N` costs a sword each or a damage each.
# `clankwork check` walks the board: every space reachable from HQ, a way back from every
# artifact space.

board cellar {
  space HQ              { hq; at 300 0 }
  space Stairs          { at 300 100; reward minor secret }
  # A forest stops movement for the turn once entered (and is where the Wolf is fought).
  space "Dark Forest"   { forest; at 130 200; reward gold 2 }
  # A town sells the market items (the rules' `market price`, 7 gold by default).
  space Millbrook       { town; at 470 200 }
  # A crystal cave stops movement too; this one holds a major secret.
  space "Crystal Cave"  { crystal cave; at 300 240; reward major secret }
  space "Sun Temple"   { artifact 10; at 80 330 }
  space "Crown Vault"   { artifact 15; at 520 330 }
  # Knocked out in the danger zone, a player scores nothing.
  space "Deep Hall"     { danger zone; at 300 360 }
  space "Chalice Crypt" { danger zone; artifact 20; at 300 460 }

  path HQ -- Stairs
  path Stairs -- "Dark Forest"
  path Stairs -- Millbrook              { boots 2 }
  path Stairs -- "Crystal Cave"         { monsters 1 }
  path "Dark Forest" -- "Sun Temple"
  path "Dark Forest" -- "Deep Hall"     { boots 2 }
  path Millbrook -- "Crown Vault"
  path "Crystal Cave" -- "Deep Hall"
  path "Crown Vault" -> "Deep Hall"
  path "Deep Hall" -> Millbrook         { boots 2 }
  path "Deep Hall" -- "Chalice Crypt"   { monsters 2 }
}
"""

SCENARIO = """\
# Scenarios: a position, a script of what the players do, and what must hold then
# (docs/scenarios.md). `clankwork test @NAME@` runs every scenario in this folder; write one
# for each rule or card you want to be sure of, and run them after every change.

scenario "Quiet Steps takes back the Clank! a Stumble made" {
  players 2
  player 1 { hand Stumble "Quiet Steps" }
  play Stumble
  expect player 1 clank 1
  play "Quiet Steps"
  expect player 1 clank 0
  expect player 1 boots 2
}

scenario "Entering the Dark Forest stops movement and pays its gold" {
  players 2
  player 1 { at Stairs; hand Sidestep Scramble }
  play Sidestep
  play Scramble
  move "Dark Forest"
  expect player 1 at "Dark Forest"
  expect player 1 exhausted yes
  expect player 1 gold 2
}
"""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a pack folder's name (None when it can).

    The rule is `safe_filename`'s: the name must be what it would make of itself, so it has
    no "/", "..", leading dot, capital, space, control character or reserved device name.
    """
    plain = safe_filename(name, "")
    if name == plain:
        return None
    suggestion = plain if plain != "unnamed" else "my-pack"
    return (
        f"{name!r} is not a plain folder name: use lower-case letters, digits and inner "
        f"hyphens (try {suggestion!r})"
    )


def skeleton(
    name: str, extends: str | None = None, base: dict[str, Any] | None = None
) -> dict[str, str]:
    """The files of a new pack, by path relative to its folder: a whole game, or (with
    ``extends`` and the compiled ``base`` it names) an extension of that base."""
    if extends is not None and base is not None:
        files = _extension(extends, base)
    else:
        files = {
            "pack.clank": PACK_TEMPLATE,
            "starting.clank": STARTING,
            "reserve.clank": RESERVE,
            "adventure.clank": ADVENTURE,
            "tokens.clank": TOKENS,
            "board.clank": BOARD,
            "scenarios/basics.clank": SCENARIO,
        }
    out = {}
    for path, text in files.items():
        text = text.replace("@NAME@", name)
        # Written in the canonical layout, so `clankwork fmt --check` passes as created.
        out[path] = format_source(text, path) or text
    return out


def _plain(name: str) -> bool:
    """True when ``name`` can be written in quotes as it is (no quote, backslash or control)."""
    return not any(c in name for c in '"\\') and name.isprintable()


def _extension(extends: str, base: dict[str, Any]) -> dict[str, str]:
    """The files of an extension of ``base`` (compiled), named in the manifest as ``extends``:
    a new card, a change of one of the base's cards, and a scenario with a base card."""
    names = {c["name"] for c in base["cards"]}
    new = next(n for n in (f"Night Shift{s}" for s in ("", " II", " III", " IV")) if n not in names)
    starting = [c["name"] for c in base["cards"] if c["deck"] == "starting" and _plain(c["name"])]
    changeable = [
        c
        for c in base["cards"]
        if c["deck"] == "adventure" and c["type"] == "acquire" and _plain(c["name"])
    ]
    change = ""
    if changeable:
        card = changeable[0]
        change = EXTENDS_CHANGE.replace("@CARD@", card["name"]).replace(
            "@COPIES@", str(card["copies"] + 1)
        )
    ref = extends if extends in bundled_names() else f'"{extends}"'
    files = {
        "pack.clank": EXTENDS_PACK.replace("@BASE_REF@", ref),
        "cards.clank": EXTENDS_CARDS.replace("@CHANGE@", change),
    }
    if starting:
        files["scenarios/basics.clank"] = EXTENDS_SCENARIO.replace("@START@", starting[0]).replace(
            "@PLAYERS@", str(max(2, base["rules"]["min_players"]))
        )
    return {
        path: text.replace("@BASE@", base["pack"]["name"]).replace("@NEW@", new)
        for path, text in files.items()
    }


def extends_problem(extends: str, folder: Path) -> tuple[str | None, dict[str, Any] | None]:
    """Why ``extends`` cannot be the base of a new pack in ``folder`` (None when it can),
    and the base's IR: a bundled pack's name, or a relative path (letters, digits, `.`, `-`,
    `_` and `/` only, so it is written in the manifest as it is) to a pack folder beside
    ``folder`` that compiles."""
    names = bundled_names()
    if extends in names:
        pack = bundled_pack(extends)
    elif (
        "/" in extends
        and re.fullmatch(r"[A-Za-z0-9._/-]+", extends)
        and not extends.startswith("/")
    ):
        pack = folder / extends
        allowed = Path(os.path.realpath(folder.parent))
        real = Path(os.path.realpath(pack))
        if real == allowed or not str(real).startswith(str(allowed) + os.sep):
            return (
                f"{extends!r} leads outside {folder.parent}: a base is a folder beside the new "
                "pack (e.g. ../base)",
                None,
            )
        if not (real / "pack.clank").is_file():
            return (
                f"there is no pack folder at {pack} (a base path is relative to the new pack)",
                None,
            )
    else:
        hint = did_you_mean(extends, names)
        return (
            f"no bundled pack named {extends!r}"
            + (f" ({hint})" if hint else "")
            + f" (bundled: {', '.join(names)}); a pack folder is given as a path, e.g. ../base",
            None,
        )
    result = compile_pack(pack, display_root=display_path(pack))
    if not result.ok or result.ir is None:
        return f"the base {extends} does not compile: run `clankwork check {pack}`", None
    return None, result.ir


def create_pack(
    parent: Path, name: str, extends: str | None = None, base: dict[str, Any] | None = None
) -> Path:
    """Write the skeleton into a new folder ``parent/name``; `OutputError` if it exists.
    With ``extends``, ``base`` is the IR of the pack it names (see `extends_problem`)."""
    check_dir(parent, "parent folder")
    folder = parent / name
    try:
        # Not exist_ok: a folder (or a link, or a file) already there is never written into.
        folder.mkdir()
        (folder / "scenarios").mkdir()
    except FileExistsError:
        raise OutputError(
            f"{folder} already exists: choose another name, or remove it first"
        ) from None
    except OSError as e:
        raise OutputError(f"cannot create {folder}: {e.strerror or e}") from None
    for path, text in skeleton(name, extends, base).items():
        write_text(folder / path, text)
    return folder


@click.command("new")
@click.argument("name")
@click.option(
    "--extends",
    "extends",
    metavar="PACK",
    help="Write an extension of PACK (a bundled pack's name, or a path like ../base to a "
    "pack folder beside the new one): one new card, one change, one scenario.",
)
@click.option(
    "--dir",
    "parent",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    help="The folder to create the pack in [default: the current folder].",
)
def command(name: str, extends: str | None, parent: Path) -> None:
    """Create a new pack NAME: a folder that passes `check` and `test` as it is written."""
    problem = name_problem(name)
    if problem:
        raise click.BadParameter(problem, param_hint="NAME")
    base = None
    if extends is not None:
        problem, base = extends_problem(extends, parent / name)
        if problem:
            raise click.BadParameter(problem, param_hint="--extends")
    folder = create_pack(parent, name, extends, base)
    click.echo(f"created pack {name} in {folder}")
    click.echo(f"  next: clankwork check {folder} && clankwork test {folder}")
    click.echo(f"  then: clankwork render board {folder}, clankwork play {folder}")

"""Every bundled pack, and a generated extension of each, played by every registered bot at
every player count the pack allows, with the invariants checked after every turn: no game
crashes, nothing is created or lost, and every game ends by the rules (not the round cap),
but for the pack × bot pairs `all_packs.MAY_REACH_CAP` lists with the reason.

One test per configuration (``vault-random-2p``, ``space+ext-heuristic-4p``...), so a failure
names the pack, the bot and the player count, and lists each failed game with its seed and
the command that plays it again. Game ``i`` is game ``i`` of `clankwork simulate --seed 1`.
`benchmarks/random_sim.py` plays the same configurations a hundred thousand times.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import all_packs
import pytest

from clankwork.interpreter.bots import BOTS
from clankwork.interpreter.catalog import Catalog, prepare

SEED = 1
GAMES = 20
# Fewer games of the pairs whose games last 30 to 60 rounds (see `all_packs.MAY_REACH_CAP`).
SLOW = {("space", "greedy"), ("space", "random")}
SLOW_GAMES = 4


@cache
def _base_ir(name: str) -> dict:
    return all_packs.compiled(all_packs.bundled()[name])


def _params() -> list:
    out = []
    for name in all_packs.bundled():
        for ext in (False, True):
            for bot in BOTS:
                for players in all_packs.player_counts(_base_ir(name)):
                    label = f"{name}+ext" if ext else name
                    tag = f"{label}-{bot}-{players}p"
                    out.append(pytest.param(name, ext, bot, players, id=tag))
    return out


@pytest.fixture(scope="module")
def extensions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the generated extensions are written in."""
    return tmp_path_factory.mktemp("extensions")


_PACKS: dict[tuple[str, bool], tuple[all_packs.Pack, Catalog]] = {}


def _pack(name: str, ext: bool, where: Path) -> tuple[all_packs.Pack, Catalog]:
    """The pack (or its extension) and its catalog, made once for every bot and count."""
    if (name, ext) not in _PACKS:
        ir = _base_ir(name)
        pack = all_packs.Pack(name, all_packs.bundled()[name], name, ir)
        if ext:
            folder = all_packs.write_extension(name, ir, where)
            pack = all_packs.Pack(f"{name}+ext", folder, name, all_packs.compiled(folder))
        _PACKS[(name, ext)] = pack, prepare(pack.ir)
    return _PACKS[(name, ext)]


def test_the_packs_are_found_not_listed() -> None:
    # The bundled packs as `extends` finds them: a pack added to content/ is played here.
    content = Path(all_packs.ROOT) / "content"
    shipped = sorted(p.name for p in content.iterdir() if (p / "pack.clank").is_file())
    assert sorted(all_packs.bundled()) == shipped
    assert {"tutorial", "acqinc", "clank", "vault", "space"} <= set(shipped)


def test_each_extension_adds_to_its_base(extensions: Path) -> None:
    for name in all_packs.bundled():
        pack, _ = _pack(name, True, extensions)
        base = _base_ir(name)
        cards = {c["name"] for c in pack.ir["cards"]}
        assert cards - {c["name"] for c in base["cards"]} == {"Fuzz Scout", "Fuzz Brawler"}
        assert pack.ir["pack"]["name"] == f"{name}-plus"


@pytest.mark.parametrize(("name", "ext", "bot", "players"), _params())
def test_random_games_end_by_the_rules_and_conserve_everything(
    name: str, ext: bool, bot: str, players: int, extensions: Path
) -> None:
    pack, cat = _pack(name, ext, extensions)
    config = all_packs.Config(pack, bot, players)
    player = all_packs.Player(config, cat)
    games = SLOW_GAMES if (name, bot) in SLOW else GAMES
    failed, capped = [], []
    for o in player.play_run(SEED, games):
        if o.kind == "failed":
            failed.append(o)
        elif o.kind == "capped" and not config.may_cap:
            capped.append(o)
    lines = [
        f"{config.id} game {o.game} (seed {o.seed}): {o.error or 'reached the round cap'}"
        f" [{o.where}]\n    {all_packs.replay_command(config, SEED, o.game)}"
        for o in failed + capped
    ]
    assert not lines, "\n".join(lines)

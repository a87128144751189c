"""The layers of Clankwork, enforced: every import of dsl/, interpreter/ and tools/ is read
(those written inside functions too) and none may run back up the layers or close a circle.

From the bottom up:

    records          the registries and what only reads IR: effect ops, conditions, counts,
                     triggers, rule parameters, decisions, the IR schema, stickers, assembly;
                     the reports' intervals, the lazy import of networkx
    state            the catalog (IR made typed), the board, hooks, player and game state
    snapshot         the state as plain data, and scoring (it reads only the state)
    engine           setup, the steps of a turn, actions, the game and its copy
    reports          what watches or replays a game: stats, tension, the game log, the
                     invariant checker
    players          bots and the scenario runner
    language base    diagnostics, limits, the parser (and its incremental form), sources,
                     phrases, the formatter
    language records the declaration records, reference checks, board checks, extensions
    compiler         the compiler that drives the records
    scenarios        the scenario language (it states facts the scenario runner reads) and
                     balance blocks
    tools            the CLI and every tool

A module may import from its own layer and the layers below. The snapshot and scoring sit
below the engine, not above it: they read only the declared state, and the engine scores the
game it ends (issue 25 lists scoring among the engine's concerns); restoring a game, which
builds one, belongs above the engine (the engine branch's interpreter/restore.py).

Besides, the language reads the interpreter only through its records (CONVENTIONS: dsl → IR →
interpreter; the compiler reads the op registry): `DSL_READS` lists the interpreter modules
above the records layer that dsl may import, each with its reason.

Imports under ``if TYPE_CHECKING:`` never run, so they close no circle and may name a type of
a layer above (an annotation); they must still keep the packages' direction (interpreter
never imports dsl or tools, dsl never imports tools).

Imports written inside functions count like the others: one that dodges a circle still closes
it at run time. So do the command modules tools/cli.py imports by name (`COMMANDS`).

What breaks the layers today is listed, each with what would fix it: `UPWARD` (imports that run
up) and `CIRCLES` (each set of modules that import each other). The lists only shrink: the test
fails on anything not listed, and on a listed entry that no longer holds (delete or shrink it).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

from clankwork.tools.cli import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("dsl", "interpreter", "tools")

# Layer of each module, bottom first. A module named by a prefix ending in "." is every
# module under that package. A new module must be placed here (the test says so).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "records",
        (
            "interpreter",  # the package: it installs the compiled core's finder (core.py)
            "interpreter.core",
            "interpreter.effects",
            "interpreter.effects.",
            "interpreter.rules",
            "interpreter.decisions",
            "interpreter.pools",
            "interpreter.resource_props",
            "interpreter.assembly",
            "interpreter.stickers",
            "interpreter.design_edits",
            "interpreter.on_board",
            "interpreter.schema",
            "interpreter.schema_sections",
            "interpreter.intervals",
            "interpreter.lazy",
            "interpreter.context",
            "interpreter.rng",
        ),
    ),
    (
        "state",
        (
            "interpreter.catalog",
            "interpreter.board",
            "interpreter.hooks",
            "interpreter.content_actions",
            "interpreter.state",
            "interpreter.statuses",
        ),
    ),
    (
        "snapshot",
        (
            "interpreter.snapshot",
            "interpreter.scoring",
        ),
    ),
    (
        "engine",
        (
            "interpreter.setup",
            "interpreter.steps",
            "interpreter.actions",
            "interpreter.clone",
            "interpreter.game",
            "interpreter.asking",
            "interpreter.campaign_marks",
            "interpreter.cards",
            "interpreter.dragon",
            "interpreter.economy",
            "interpreter.ending",
            "interpreter.events",
            "interpreter.movement",
            "interpreter.paths",
            "interpreter.tokens",
            "interpreter.turn",
        ),
    ),
    (
        "reports",
        (
            "interpreter.stats",
            "interpreter.tension",
            "interpreter.log",
            "interpreter.invariants",
            "interpreter.restore",
        ),
    ),
    (
        "players",
        (
            "interpreter.bots",
            "interpreter.bot_estimates",
            "interpreter.bot_heuristic",
            "interpreter.bot_moves",
            "interpreter.bot_routes",
            "interpreter.bot_search",
            "interpreter.bot_targets",
            "interpreter.bot_turn",
            "interpreter.bot_values",
            "interpreter.bot_worth",
            "interpreter.scenario",
        ),
    ),
    (
        "language base",
        (
            "dsl",
            "dsl.diagnostics",
            "dsl.limits",
            "dsl.parser",
            "dsl.sources",
            "dsl.phrases",
            "dsl.condition_logic",
            "dsl.formatter",
            "dsl.art",
            "dsl.incremental",
        ),
    ),
    (
        "language records",
        (
            "dsl.declarations",
            "dsl.board_blocks",
            "dsl.awards",
            "dsl.resolve",
            "dsl.modules",
            "dsl.extends",
            "dsl.stickers",
            "dsl.boardcheck",
            "dsl.assembly_check",
        ),
    ),
    ("compiler", ("dsl.compiler",)),
    (
        "scenarios",
        (
            "dsl.scenarios",
            "dsl.scenario_facts",
            "dsl.balance",
        ),
    ),
    ("tools", ("tools", "tools.")),
)

# Interpreter modules above the records layer that the language may read, and why.
DSL_READS = {
    # The steps of setup and of a turn are records too (a pack inserts, replaces and removes
    # them by name); the compiler checks a step's anchor against them.
    "interpreter.steps": "the step records (STEPS, plan_names)",
    # The facts a scenario may state include the game's declared state, its fields read
    # where they are declared (GAME_STATE, state_facts), not through the engine.
    "interpreter.state": "the declared state's facts (state_facts)",
}

# Imports that run up the layers today, as (importer, imported), each in files their owner is
# restructuring (issue 25 item 1 owns the engine's), with what would fix it. The test fails on
# an upward import not listed here, and on a listed one that is gone: delete its line then.
UPWARD: dict[tuple[str, str], str] = {
    # The catalog plans a pack's steps (steps.py and setup.py, in the engine layer): the step
    # plan belongs below the catalog.
    ("interpreter.catalog", "interpreter.steps"): "the step plan below the catalog",
}

# Import circles today, each the exact set of modules that import each other (a strongly
# connected component), with what would open it. The test fails on a circle not listed, and
# on a listed one that changed (a module left it, or it opened: shrink or delete its entry).
CIRCLES: dict[frozenset[str], str] = {
    # tools: `simulate --against BASE` hands over to compare (inside a function), which
    # builds on simulate's runners and text report (format_report, result_warnings): those
    # below both would open it (left while the bots issue edits simulate.py's report).
    frozenset({"tools.compare", "tools.simulate"}): "the runners and report below both",
}


@dataclass(frozen=True)
class Import:
    """One import statement's target, where it is written and how."""

    importer: str
    imported: str
    line: int
    in_function: bool
    type_checking: bool


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the three packages, by its name under `clankwork.`."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets(node: ast.Import | ast.ImportFrom, name: str, is_package: bool) -> list[str]:
    """The modules an import statement may name (a name imported from a package may be a
    submodule: `from . import snapshot`)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = name.split(".") if is_package else name.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        module = ".".join([*base, *([node.module] if node.module else [])])
    else:
        module = node.module or ""
    return [f"{module}.{a.name}|{module}" if module else a.name for a in node.names]


def imports_of(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    """Every import of one module that names a module of the three packages."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[Import] = []

    def resolve(target: str) -> str | None:
        for cand in target.split("|"):
            cand = cand.removeprefix("clankwork.")
            while cand and cand not in known:
                cand = cand.rpartition(".")[0]
            if cand:
                return cand
        return None

    def visit(node: ast.AST, in_function: bool, type_checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            func = in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            )
            tc = type_checking or (isinstance(child, ast.If) and _is_type_checking(child))
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for target in _targets(child, name, path.name == "__init__.py"):
                    got = resolve(target)
                    if got is not None and got != name:
                        found.append(Import(name, got, child.lineno, func, tc))
            visit(child, func, tc)

    visit(tree, False, False)
    return found


def layer_of(name: str) -> int | None:
    """The index of a module's layer in LAYERS (the longest matching entry), or None."""
    best: tuple[int, int] | None = None
    for index, (_layer, entries) in enumerate(LAYERS):
        for entry in entries:
            hit = name.startswith(entry) if entry.endswith(".") else name == entry
            if hit and (best is None or len(entry) > best[1]):
                best = (index, len(entry))
    return best[0] if best else None


def _package_rank(name: str) -> int:
    return {"interpreter": 0, "dsl": 1, "tools": 2}[name.split(".")[0]]


def command_imports() -> list[Import]:
    """The imports `clankwork` makes by name (tools/cli.py imports a command's module, named
    in `COMMANDS`, when the command is first asked for)."""
    text = (ROOT / "tools" / "cli.py").read_text(encoding="utf-8")
    line = text[: text.index("importlib.import_module(")].count("\n") + 1
    return [
        Import("tools.cli", f"tools.{module}", line, True, False)
        for module, *_ in COMMANDS.values()
    ]


def all_imports() -> list[Import]:
    """Every import between modules of the three packages."""
    known = modules()
    found = [imp for name, path in known.items() for imp in imports_of(name, path, known)]
    return found + command_imports()


def violations(found: list[Import]) -> list[Import]:
    """The imports that run up the layers or break the package direction."""
    bad = []
    for imp in found:
        below, above = layer_of(imp.imported), layer_of(imp.importer)
        if _package_rank(imp.imported) > _package_rank(imp.importer):
            bad.append(imp)
        elif imp.type_checking:
            continue  # an annotation only
        elif (
            imp.importer.startswith("dsl")
            and imp.imported.startswith("interpreter")
            and below != 0
            and imp.imported not in DSL_READS
        ):
            bad.append(imp)
        elif below is not None and above is not None and below > above:
            bad.append(imp)  # (an unplaced module fails its own test)
    return bad


def import_graph(found: list[Import]) -> nx.DiGraph:
    """The imports that run when their module is loaded (not those under TYPE_CHECKING), as a
    graph of modules."""
    graph = nx.DiGraph()
    for imp in found:
        if not imp.type_checking:
            graph.add_edge(imp.importer, imp.imported)
    return graph


def circles(graph: nx.DiGraph) -> set[frozenset[str]]:
    """Each set of modules that import each other (directly or around a circle)."""
    return {frozenset(c) for c in nx.strongly_connected_components(graph) if len(c) > 1}


def _shown(imp: Import) -> str:
    how = " (inside a function)" if imp.in_function else ""
    return f"{imp.importer.replace('.', '/')}.py:{imp.line} imports {imp.imported}{how}"


def test_every_module_has_a_layer() -> None:
    missing = sorted(name for name in modules() if layer_of(name) is None)
    assert not missing, (
        f"modules with no layer: {', '.join(missing)}; place each in LAYERS (tests/test_layers.py)"
    )


def test_every_layer_entry_names_a_module() -> None:
    names = modules()
    stale = [
        entry
        for _layer, entries in LAYERS
        for entry in entries
        if not any(n.startswith(entry) if entry.endswith(".") else n == entry for n in names)
    ]
    assert not stale, f"LAYERS names modules that are gone: {', '.join(stale)}; delete them"


def test_no_import_runs_up_the_layers() -> None:
    bad = [imp for imp in violations(all_imports()) if (imp.importer, imp.imported) not in UPWARD]
    names = [name for name, _entries in LAYERS]
    shown = {
        f"  {_shown(imp)}: {names[layer_of(imp.importer) or 0]} imports "
        f"{names[layer_of(imp.imported) or 0]}"
        for imp in bad
    }
    assert not bad, "imports that run up the layers:\n" + "\n".join(sorted(shown))


def test_the_upward_imports_allowed_are_still_there() -> None:
    """UPWARD only shrinks: a listed import that is gone or no longer runs up must leave it."""
    now = {(imp.importer, imp.imported) for imp in violations(all_imports())}
    gone = sorted(set(UPWARD) - now)
    assert not gone, "fixed, so delete from UPWARD in tests/test_layers.py: " + ", ".join(
        f"{a} -> {b}" for a, b in gone
    )


def test_every_read_the_language_is_allowed_is_made() -> None:
    """DSL_READS only shrinks too: an interpreter module dsl/ no longer imports must leave it."""
    read = {imp.imported for imp in all_imports() if imp.importer.split(".")[0] == "dsl"}
    unread = sorted(set(DSL_READS) - read)
    assert not unread, f"dsl/ no longer imports {', '.join(unread)}: delete from DSL_READS"


def test_no_import_circles() -> None:
    found = circles(import_graph(all_imports()))
    new = [sorted(c) for c in found - set(CIRCLES)]
    changed = [sorted(c) for c in set(CIRCLES) - found]
    assert not new and not changed, "\n".join(
        [
            *("import circle (modules that import each other): " + ", ".join(c) for c in new),
            *("a listed circle changed: update CIRCLES: " + ", ".join(c) for c in changed),
        ]
    )


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("def f():\n    from clankwork.tools import check\n", 2),
        ("from clankwork.interpreter.game import Game\n", 1),
        ("from ..interpreter import game\n", 1),
    ],
)
def test_the_reader_sees_imports_inside_functions_and_relative_ones(
    tmp_path: Path, source: str, line: int
) -> None:
    """The checker itself: a wrong-way import of dsl/ is caught wherever it is written."""
    path = tmp_path / "dsl" / "planted.py"
    path.parent.mkdir()
    path.write_text(source, encoding="utf-8")
    known = {**modules(), "dsl.planted": path}
    (imp,) = imports_of("dsl.planted", path, known)
    assert imp.line == line
    assert violations([imp]) == [imp]


def _planted(tmp_path: Path, files: dict[str, str]) -> list[Import]:
    """The imports of planted modules (name -> source) read beside the real ones."""
    known = modules()
    paths = {}
    for name, source in files.items():
        path = tmp_path / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        paths[name] = path
    known.update(paths)
    return [imp for name, path in paths.items() for imp in imports_of(name, path, known)]


def test_a_circle_closed_inside_a_function_is_a_circle(tmp_path: Path) -> None:
    found = _planted(
        tmp_path,
        {
            "tools.planted_a": "from clankwork.tools import planted_b\n",
            "tools.planted_b": "def f():\n    from . import planted_a\n",
        },
    )
    assert circles(import_graph(found)) == {frozenset({"tools.planted_a", "tools.planted_b"})}


def test_a_type_checking_import_closes_no_circle_but_keeps_the_direction(tmp_path: Path) -> None:
    source = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from clankwork.{} import {}\n"
    )
    found = _planted(
        tmp_path,
        {
            "interpreter.planted_a": source.format("interpreter", "planted_b"),
            "interpreter.planted_b": "from clankwork.interpreter import planted_a\n",
            "interpreter.planted_c": source.format("dsl", "compiler"),
        },
    )
    assert circles(import_graph(found)) == set()
    assert [(i.importer, i.imported) for i in violations(found)] == [
        ("interpreter.planted_c", "dsl.compiler")
    ]

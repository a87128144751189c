"""Libraries imported when first used rather than when the module naming them is imported.

`clankwork check` reads the engine's modules (a pack's facts, its rules, its boards' shapes)
without playing a game, and importing networkx took longer than the whole check of a pack.
The engine builds its board graphs with it (interpreter/board.py) only once a game sets up
a board, so it is imported then, here, in the one place that does it: the same lazy import
the command line uses for its commands (tools/cli.py) and the tools for Dask, matplotlib
and Playwright. tests/tools/test_cli_imports.py checks that `check` stays without it.
"""

from __future__ import annotations

from types import ModuleType


def networkx() -> ModuleType:
    """The networkx module, imported on the first call (later calls find it in sys.modules)."""
    import networkx

    return networkx

"""The board checks' walk over the paths finds what networkx finds (they used networkx)."""

from __future__ import annotations

import networkx as nx
from hypothesis import given
from hypothesis import strategies as st

from clankwork.dsl.assembly_check import reach

SPACES = [f"s{i}" for i in range(8)]


@given(
    st.lists(st.tuples(st.sampled_from(SPACES), st.sampled_from(SPACES)), max_size=30),
    st.sampled_from(SPACES),
)
def test_reach_is_networkx_descendants_and_ancestors(
    edges: list[tuple[str, str]], start: str
) -> None:
    g = nx.MultiDiGraph()
    g.add_nodes_from(SPACES)
    g.add_edges_from(edges)
    ahead, behind = reach(edges, start)
    assert ahead == nx.descendants(g, start) | {start}
    assert behind == nx.ancestors(g, start) | {start}

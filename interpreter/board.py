"""The board: a networkx MultiDiGraph built from a board IR, plus plain tables for the hot loop.

The graph is the authoritative shape (a two-way path is two edges, a one-way path one, each
edge keyed by the path's index in the IR); dead-end paths lead nowhere and are kept as data,
not edges. Games never walk the graph: they read `Board.moves`, `Board.adjacent` and the
distance tables, indexed by space number.

The distance tables are worked out a row at a time, when a row is first read (`Distances`):
a board of thousands of spaces is set up in a time that grows with its paths, not with the
square of its spaces, and holds only the rows in use.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from .content_actions import content_actions
from .effects.entry_toll import tolled_spaces
from .hooks import Hook, hooks
from .lazy import networkx

# A board's changes to its printed paths during a game: the paths closed (by index), the
# paths added ((from space, to space, boots), indexed after the printed ones) and the extra
# boots asked to cross a path ((path, boots), sorted: tokens lying on it that ask them).
Shape = tuple[frozenset[int], tuple[tuple[int, int, int], ...], tuple[tuple[int, int], ...]]

# The boards of other shapes a printed board keeps made (`Board.reshaped`), the oldest
# dropped first: a game that keeps changing its paths meets many shapes, one at a time.
SHAPES_KEPT = 64

# Distance to a space that cannot be reached; large enough to lose every comparison.
UNREACHABLE = 10**6
# The most cells (rows times spaces) a table worked out row by row keeps: every row of a board
# of up to 1,000 spaces, the rows last worked out on a larger one (a row dropped is worked
# out again, the same, when next read).
ROW_CELLS = 1_000_000


@dataclass(frozen=True, slots=True)
class Space:
    """One space: its index, name, features, its triggers and the tokens it holds."""

    index: int
    name: str
    features: frozenset[str]
    exhausts: bool
    # What entering gives once a turn, summed up by kind for the bots and the renderer (read
    # from the space's plain `once per turn when you enter:` triggers; see `summed_rewards`).
    rewards: tuple[tuple[str, int], ...]
    coach: int | None
    waypoint: int | None
    artifact: int | None
    # The space's triggers by the event they watch.
    on: dict[str, tuple[Hook, ...]]
    # Tokens placed here at setup: (what they match, how many).
    holds: tuple[tuple[str, int], ...]
    # `action ...:` lines declared on the space (content_actions.ContentAction).
    actions: tuple[Any, ...] = ()
    # The module (or board group) the space belongs to, if any.
    module: str | None = None
    # Words a held token must grant for a player to enter the space (`requires WORD`).
    requires: tuple[str, ...] = ()

    @property
    def hq(self) -> bool:
        """True for the HQ space."""
        return "hq" in self.features

    @property
    def danger_zone(self) -> bool:
        """True when a knock-out here scores nothing."""
        return "danger zone" in self.features


def summed_rewards(enter: Any) -> tuple[tuple[str, int], ...]:
    """What a space's plain once-a-turn entry triggers give, by kind: gold, draw, heal,
    minor secret (from the bank), major secret and fruit (the tokens it holds)."""
    out: dict[str, int] = {}
    for h in enter:
        if h.limit != "turn" or h.cond is not None or h.who != "you":
            continue
        for e in h.effects:
            op = e["op"]
            if op == "gain" and e["resource"] == "gold" and "per" not in e:
                kind, n = "gold", e["amount"]
            elif op in ("draw", "heal"):
                kind, n = op, e["n"]
            elif op == "secret" and e["size"] == "minor":
                kind, n = "minor secret", 1
            elif op == "take_here" and e["what"] in ("major", "fruit"):
                kind, n = ("major secret" if e["what"] == "major" else "fruit"), 1
            else:
                continue
            out[kind] = out.get(kind, 0) + n
    return tuple(out.items())


# Compared by identity: a move's hash (the option caches' key) must stay cheap.
@dataclass(frozen=True, slots=True, eq=False)
class Way:
    """A kind of path (a "way to move"): what moving along it is paid in, what it needs and
    what it does to the mover. The base rules' tunnel is `TUNNEL`; a pack declares others
    (`way ladder { paid in special moves }`) and a path names its way.

    ``requires`` are words a held token must grant (a canoe's "canoe"), on top of the path's
    own; ``exhausts``: arriving along it exhausts the mover; ``while_exhausted``: it may be
    taken by an exhausted player; ``teleport``: a teleport may cross it; ``cost``: the price
    of a move it makes between spaces that share a `within` feature (1 unless said);
    ``blocked_by``: tokens that close it at a space where one lies (no move of this way to
    or from that space).
    """

    name: str
    paid_in: str = "boots"
    requires: tuple[str, ...] = ()
    exhausts: bool = False
    while_exhausted: bool = False
    teleport: bool = True
    # Features whose spaces the way joins pairwise, with no paths written (`within ...`).
    within: tuple[str, ...] = ()
    cost: int = 1
    blocked_by: tuple[str, ...] = ()

    @classmethod
    def from_ir(cls, w: dict[str, Any]) -> Way:
        """Build a way from its IR declaration."""
        return cls(
            name=w["name"],
            paid_in=w.get("paid_in", "boots"),
            requires=tuple(r.lower() for r in w.get("requires", ())),
            exhausts=bool(w.get("exhausts")),
            while_exhausted=bool(w.get("while_exhausted")),
            teleport=bool(w.get("teleport", True)),
            within=tuple(f.lower() for f in w.get("within", ())),
            cost=int(w.get("cost", 1)),
            blocked_by=tuple(b.lower() for b in w.get("blocked_by", ())),
        )

    @property
    def plain(self) -> bool:
        """True for a way that works like the base tunnel (the hot loop's fast case)."""
        return (
            self.paid_in == "boots"
            and not self.while_exhausted
            and not self.exhausts
            and not self.blocked_by
        )


# The base rules' path: paid in boots, closed to an exhausted player, crossed by teleports.
TUNNEL = Way("tunnel")


# Made once per board and compared by identity, like `Way`: the option caches are keyed by
# moves. A slotted class, not a named tuple: the legal-move loop reads its fields, and a named
# tuple's field is read through a descriptor that Python 3.11 does not speed up.
@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """One way out of a space along a path: its cost (``boots``, in the way's resource),
    icons, requirements and the way it is (`Way`)."""

    path: int
    to: int
    boots: int
    monsters: int
    requires: tuple[str, ...]
    way: Way = TUNNEL
    # ``way.plain``, kept on the move so the hot loop reads one field.
    plain: bool = True


class Board:
    """A board prepared for play (read-only once built; shared by every game)."""

    def __init__(
        self,
        board_ir: dict[str, Any],
        ways: dict[str, Way] | None = None,
        shape: Shape = (frozenset(), (), ()),
        base: Board | None = None,
    ) -> None:
        self.name: str = board_ir["name"]
        # The pack's declared ways by name; a path naming none is a tunnel.
        self.ways: dict[str, Way] = dict(ways or {})
        # The board as printed, and this one's changes to its paths (`Shape`); the boards of
        # other shapes, made from the printed one when a game changes its paths (`reshaped`).
        self.ir = board_ir
        self.shape = shape
        self.base: Board = base if base is not None else self
        self._shapes: dict[Shape, Board] = {}
        self._read_spaces(board_ir)
        hqs = [s.index for s in self.spaces if s.hq]
        if len(hqs) != 1:
            raise ValueError(f"board {self.name!r} needs exactly one HQ space, has {len(hqs)}")
        self.hq: int = hqs[0]

        self._read_paths(board_ir)
        self._add_paths(len(board_ir["paths"]))
        self._join_within(len(board_ir["paths"]) + len(shape[1]))

        self._make_moves()
        self._make_tables()

    def _read_spaces(self, board_ir: dict[str, Any]) -> None:
        """The spaces, in the IR's order, and their indexes by name."""
        self.spaces: list[Space] = []
        self.index: dict[str, int] = {}
        for i, s in enumerate(board_ir["spaces"]):
            on: dict[str, list[Hook]] = {}
            for h in hooks(f"space:{s['name']}", s.get("triggers", ())):
                on.setdefault(h.event, []).append(h)
            self.spaces.append(
                Space(
                    index=i,
                    name=s["name"],
                    features=frozenset(f.lower() for f in s.get("features", ())),
                    exhausts=bool(s.get("exhausts")),
                    rewards=summed_rewards(on.get("enter", ())),
                    coach=s.get("coach"),
                    waypoint=s.get("waypoint"),
                    artifact=s.get("artifact"),
                    on={k: tuple(v) for k, v in on.items()},
                    holds=tuple((h["what"], h.get("n", 1)) for h in s.get("holds", ())),
                    actions=content_actions(s, "space", s["name"]),
                    module=s.get("module") or s.get("group"),
                    requires=tuple(r.lower() for r in s.get("requires", ())),
                )
            )
            self.index[s["name"]] = i

    def _read_paths(self, board_ir: dict[str, Any]) -> None:
        """The graph of spaces and paths (a two-way path is two edges), the dead ends and
        the paths' triggers."""
        self.graph = networkx().MultiDiGraph(name=self.name)
        for s in self.spaces:
            self.graph.add_node(s.name, index=s.index, features=s.features)
        self.dead_ends: list[dict[str, Any]] = []
        # Switches (pieces of the board with states, `switch NAME N` on a path): how many
        # states each has, and the paths each state leaves open, (path, switch, states).
        self.switches: dict[str, int] = {}
        self.switched: list[tuple[int, str, frozenset[int]]] = []
        # Tokens laid on paths at setup (`holds` on a path): (path, what, how many).
        self.path_holds: list[tuple[int, str, int]] = []
        # A path's triggers (`when you take this path: ...`) by path index (`Move.path`).
        self.path_on: dict[int, tuple[Hook, ...]] = {}
        closed = self.shape[0]
        extra = dict(self.shape[2])
        for k, p in enumerate(board_ir["paths"]):
            # Names match exactly; an end naming no space would otherwise add a stray graph
            # node and fail later with a KeyError (the compiler reports it as CW107).
            for end in ("from", "to"):
                if p.get(end) is not None and p[end] not in self.index:
                    raise ValueError(
                        f"board {self.name!r}: path {end} {p[end]!r} names no space of the board"
                    )
            if p.get("to") is None:
                self.dead_ends.append(p)
                continue
            for h in p.get("holds", ()):
                self.path_holds.append((k, h["what"], h.get("n", 1)))
            switch = p.get("switch")
            if switch is not None:
                name, states = switch["name"], frozenset(switch["states"])
                self.switches[name] = max(self.switches.get(name, 1), *states)
                self.switched.append((k, name, states))
            if p.get("triggers"):
                self.path_on[k] = hooks(f"path:{k}", p["triggers"])
            way = self.ways.get(p["way"], TUNNEL) if p.get("way") else TUNNEL
            if p.get("way") and p["way"] not in self.ways:
                raise ValueError(f"board {self.name!r}: path way {p['way']!r} is not declared")
            if k in closed:
                continue  # blocked during the game: no move along it either way
            requires = tuple(r.lower() for r in p.get("requires", ()))
            attrs = {
                "boots": p.get("boots", 1) + extra.get(k, 0),
                "monsters": p.get("monsters", 0),
                "requires": requires + tuple(r for r in way.requires if r not in requires),
                "features": tuple(p.get("features", ())),
                "oneway": bool(p.get("oneway")),
                "way": way,
            }
            self.graph.add_edge(p["from"], p["to"], key=k, **attrs)
            if not attrs["oneway"]:
                self.graph.add_edge(p["to"], p["from"], key=k, **attrs)

    def _make_moves(self) -> None:
        """Each space's moves out (by path, then destination), and the spaces a teleport
        reaches from it."""
        n = len(self.spaces)
        self.moves: list[tuple[Move, ...]] = []
        adjacent: list[dict[int, None]] = [{} for _ in range(n)]
        for s in self.spaces:
            out = []
            for _, to, key, d in sorted(
                self.graph.out_edges(s.name, keys=True, data=True), key=lambda e: (e[2], e[1])
            ):
                j = self.index[to]
                way = d["way"]
                needs = d["requires"]
                entry = self.spaces[j].requires  # the space's own `requires WORD`
                if entry:
                    needs = needs + tuple(r for r in entry if r not in needs)
                out.append(Move(key, j, d["boots"], d["monsters"], needs, way, way.plain))
                # Teleports ignore arrows: a one-way path links both its ends (but not a way
                # a teleport may not cross).
                if j != s.index and way.teleport:
                    adjacent[s.index][j] = None
                    adjacent[j][s.index] = None
            self.moves.append(tuple(out))
        self.adjacent: list[tuple[int, ...]] = [tuple(sorted(a)) for a in adjacent]

    def _make_tables(self) -> None:
        """What the hot loop and the bots look up: spaces by feature, the events spaces
        watch, shortest distances."""
        self.coach_spaces: tuple[int, ...] = tuple(
            s.index for s in self.spaces if s.coach is not None
        )
        self.artifact_spaces: tuple[int, ...] = tuple(
            s.index for s in self.spaces if s.artifact is not None
        )
        self.action_spaces: tuple[int, ...] = tuple(s.index for s in self.spaces if s.actions)
        # Spaces setup puts tokens on (`holds`), and the events some space watches.
        self.holding: tuple[Space, ...] = tuple(s for s in self.spaces if s.holds)
        self.events: frozenset[str] = frozenset(e for s in self.spaces for e in s.on)
        # Spaces a player may enter only holding tokens that grant their `requires` words
        # (by any way: a path, a teleport); moves into them carry the words already.
        self.entry_requires: dict[int, tuple[str, ...]] = {
            s.index: s.requires for s in self.spaces if s.requires
        }
        self.towns: bool = any("town" in s.features for s in self.spaces)
        # Spaces a player may enter only when they can pay their `to enter:` toll.
        self.tolled: frozenset[int] = tolled_spaces(self)

        # Whether every path works like the base tunnel (the legal-move loop's fast case).
        self.plain: bool = all(m.plain for ms in self.moves for m in ms)

        # Shortest boots over paths needing no item, and over every path (paths paid in
        # other resources are left out: boots cannot take them): ``dist[a][b]`` from a to b.
        self.dist: Distances = Distances(self._boot_paths(allow_requirements=False))
        self.dist_any: Distances = Distances(self._boot_paths(allow_requirements=True))
        self.dist_to_hq: list[int] = self.dist.to(self.hq)

    def _add_paths(self, key: int) -> None:
        """The paths added during the game (tunnels both ways, keys after the printed paths'),
        and the extra boots tokens lying on them ask."""
        extra = dict(self.shape[2])
        for k, (a, b, boots) in enumerate(self.shape[1], start=key):
            if k in self.shape[0]:
                continue
            attrs = {
                "boots": boots + extra.get(k, 0),
                "monsters": 0,
                "requires": (),
                "features": (),
                "oneway": False,
                "way": TUNNEL,
            }
            self.graph.add_edge(self.spaces[a].name, self.spaces[b].name, key=k, **attrs)
            self.graph.add_edge(self.spaces[b].name, self.spaces[a].name, key=k, **attrs)

    def reshaped(self, shape: Shape) -> Board:
        """The printed board with ``shape``'s changes to its paths (itself when there are
        none), made once per shape and kept: games and their copies share it."""
        base = self.base
        if not (shape[0] or shape[1] or shape[2]):
            return base
        board = base._shapes.get(shape)
        if board is None:
            if len(base._shapes) >= SHAPES_KEPT:
                del base._shapes[next(iter(base._shapes))]  # made again, the same, if needed
            board = base._shapes[shape] = Board(base.ir, base.ways, shape, base)
        return board

    def ends(self, path: int) -> tuple[int, int] | None:
        """The spaces a path joins (printed or added), or None for no such path."""
        paths = self.ir["paths"]
        if 0 <= path < len(paths):
            p = paths[path]
            if p.get("to") is None:
                return None
            return self.index[p["from"]], self.index[p["to"]]
        added = self.shape[1]
        k = path - len(paths)
        if 0 <= k < len(added):
            return added[k][0], added[k][1]
        return None

    def path_between(self, a: int, b: int) -> int | None:
        """The printed or added path joining spaces ``a`` and ``b`` (either way), first by
        index, open or not; None when none does."""
        n = len(self.ir["paths"]) + len(self.shape[1])
        for k in range(n):
            e = self.ends(k)
            if e is not None and (e == (a, b) or e == (b, a)):
                return k
        return None

    def path_name(self, path: int) -> str:
        """A path as content writes it: `A -- B`."""
        e = self.ends(path)
        if e is None:
            return f"path {path}"
        return f"{self.spaces[e[0]].name} -- {self.spaces[e[1]].name}"

    def _join_within(self, key: int) -> None:
        """Edges for the ways declared `within` features: from every space with one of the
        features to every other space with it, at a cost of 1 (keys after the paths')."""
        for way in self.ways.values():
            for feature in way.within:
                group = [s for s in self.spaces if feature in s.features]
                for a in group:
                    for b in group:
                        if a is not b:
                            self.graph.add_edge(
                                a.name,
                                b.name,
                                key=key,
                                boots=way.cost,
                                monsters=0,
                                requires=way.requires,
                                features=(),
                                oneway=True,
                                way=way,
                            )
                            key += 1

    def _boot_paths(self, allow_requirements: bool) -> list[dict[int, int]]:
        """From each space, the spaces one move of a way paid in boots reaches and the fewest
        boots it costs (without the moves that need an item, unless ``allow_requirements``)."""
        out: list[dict[int, int]] = [{} for _ in self.spaces]
        for i, moves in enumerate(self.moves):
            row = out[i]
            for m in moves:
                if m.requires and not allow_requirements:
                    continue
                if m.way.paid_in != "boots":
                    continue
                if m.to not in row or row[m.to] > m.boots:
                    row[m.to] = m.boots
        return out

    def space(self, name: str) -> Space:
        """The space with that name."""
        return self.spaces[self.index[name]]

    def __repr__(self) -> str:
        return f"<board {self.name}: {len(self.spaces)} spaces>"


def _dijkstra(edges: list[dict[int, int]], source: int) -> list[int]:
    """The fewest boots from ``source`` to each space along ``edges`` (UNREACHABLE where
    none lead)."""
    dist = [UNREACHABLE] * len(edges)
    dist[source] = 0
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in edges[u].items():
            nd = d + w
            if nd < dist[v]:
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


class Distances(dict[int, list[int]]):
    """Shortest boots between spaces: ``dist[a][b]`` from a to b. Row a (the distances from a
    to every space) is worked out by Dijkstra's algorithm when first read and kept while the
    table holds fewer than ROW_CELLS cells, the oldest row dropped first past that. Distances
    are whole boots, so a row is the same whatever order it is worked out in."""

    __slots__ = ("_edges", "_keep")

    def __init__(self, edges: list[dict[int, int]]) -> None:
        super().__init__()
        self._edges = edges
        self._keep = max(1, ROW_CELLS // max(1, len(edges)))

    def __missing__(self, source: int) -> list[int]:
        if not 0 <= source < len(self._edges):
            raise IndexError(f"no space {source!r} on the board")
        row = _dijkstra(self._edges, source)
        if len(self) >= self._keep:
            del self[next(iter(self))]
        self[source] = row
        return row

    def to(self, target: int) -> list[int]:
        """The shortest boots from every space to ``target`` (a column: ``dist[a][target]``
        for each a), worked out at once along the paths reversed."""
        back: list[dict[int, int]] = [{} for _ in self._edges]
        for u, out in enumerate(self._edges):
            for v, w in out.items():
                back[v][u] = w
        return _dijkstra(back, target)

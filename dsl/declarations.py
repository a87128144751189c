"""The rules a pack declares as data: resources, ways to move, and `action` lines.

    resource "special moves" { per turn; word "special move" }
    resource favour { kept }
    way ladder { paid in special moves; usable while exhausted; teleport can }
    path A -- B { ladder }                    (or `way ladder`; `cost 2` for its price)
    way lift { paid in boots; within "east wing" "west wing" }   (no paths: every two spaces
                                              with one of these features are joined)
    space Shrine { action pray once per game: pay 2 boots -> +3 gold }
    token Kit { action once per game: +1 special moves }

A resource is a number per player, lost at the end of the turn (`per turn`, the default) or
kept (`kept`); effects name it like a base resource (`+1 special moves`, `pay 2 favour`) once
it is declared (declare it before the cards that use it: files compile in include order). A
way says what moving along its paths is paid in, what it requires, whether it exhausts the
mover, may be taken while exhausted, and whether a teleport may cross it; `within FEATURE...`
joins every two spaces that share one of the features, without writing their paths. An action
is offered to the player on the space or holding the token; its price (`pay ... ->`) must be
payable.

Codes: CW125 a resource declaration that clashes or is malformed, CW126 an unknown resource,
CW127 an unknown or malformed way, CW128 a malformed `action` line, CW129 a declared resource
nothing gives, or a way's requirement no token grants (warning).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from clankwork.interpreter.effects.registry import RESOURCE_WORDS
from clankwork.interpreter.resource_props import shown_words as resource_prop_words

from .board_blocks import per_board
from .diagnostics import Diagnostic, Span, did_you_mean, quote_name
from .parser import Atom, Stmt, atoms_span

# The resource properties as written (interpreter/resource_props.py holds their records).
RESOURCE_PROPS = resource_prop_words()
DRAGON_PROPS = ("name", "word")
# What the engine calls the antagonist who attacks when a pack does not name it.
DRAGON_DEFAULT = {"name": "the dragon", "word": "dragon"}
WAY_PROPS = (
    "paid in",
    "requires",
    "exhausts",
    "usable while exhausted",
    "teleport",
    "within",
    "cost",
    "blocked by",
)
LIMIT_WORDS = {
    ("once", "per", "turn"): "turn",
    ("once", "per", "game"): "game",
    ("once", "per", "module"): "module",
}


def _at(span: Span) -> dict[str, Any]:
    return span.to_ir()


# Words after which a declared resource's words name it as a count (`the most veins`).
_COMPARING = frozenset({"most", "fewest", "least", "more", "fewer", "less"})


def _text(atoms: list[Atom]) -> str:
    return " ".join(a.text.lower() if a.kind == "word" else a.text for a in atoms)


class Declarations:
    """The `_Compiler` mixin for the state of declared resources and ways: the words that
    name resources in effects, a path's way, and the checks once the pack is compiled (the
    `resource`, `way`, `dragon` declarations and `action` lines compile in
    dsl/decls/resources.py); it uses the compiler's ``diags`` and ``error``."""

    diags: list[Diagnostic]
    resources: list[dict[str, Any]]
    ways: list[dict[str, Any]]
    # Every word an effect may call a declared resource by, to its name.
    resource_words: dict[str, str]
    # Other words for a base resource (`resource gold { word credits }`), kept in the IR so
    # that a pack extending this one may use them too.
    resource_aliases: dict[str, str]
    # The ways of the pack this one extends, by name, and the resource words it inherits.
    base_ways: list[str]
    inherited_words: set[str]
    # `dragon { name "..."; word WORD }`: what the pack calls its antagonist (display only).
    dragon: dict[str, Any] | None

    def _init_declarations(self) -> None:
        self.resources = []
        self.ways = []
        self.resource_words = {}
        self.resource_aliases = {}
        self.base_ways = []
        self.inherited_words: set[str] = set()
        self.dragon = None

    def inherit_resources(self, base_ir: dict[str, Any]) -> None:
        """The words of the base's declared resources and its other words for base resources,
        so an extension's effects and ways may name them (`+1 special move` in a pack that
        extends one declaring `special moves`), and the base's ways, which its paths may name
        bare (`path A -- B { rope }`)."""
        self.base_ways = [w["name"] for w in base_ir.get("ways", ())]
        self.inherited_words = set()
        for res in base_ir.get("resources", ()):
            for word in (res["name"], *res["words"]):
                self.resource_words[word] = res["name"]
                self.inherited_words.add(word)
        for word, name in base_ir.get("resource_aliases", {}).items():
            self.resource_words[word] = name
            self.inherited_words.add(word)

    # resources (their declarations compile in dsl/decls/resources.py) ------------------
    def resource_atoms(self, atoms: list[Atom], compared: bool = False) -> list[Atom]:
        """``atoms`` with each declared resource's words after a number made one atom of kind
        "resource" (its name), which the effect phrases' resource slot accepts; with
        ``compared``, also after a comparison (`the most veins`, `more favour than`) and
        when they are all the atoms (a count alone: `most veins: 7 points`)."""
        if not self.resource_words:
            return atoms
        if compared and _text(atoms) in self.resource_words:
            return [Atom("resource", self.resource_words[_text(atoms)], atoms_span(atoms))]
        out: list[Atom] = []
        i = 0
        longest = max(len(w.split()) for w in self.resource_words)
        while i < len(atoms):
            a = atoms[i]
            before = out[-1] if out else None
            if (
                before is not None
                and (
                    before.kind in ("number", "signed")
                    or (compared and before.kind == "word" and before.text.lower() in _COMPARING)
                )
                and a.kind in ("word", "string")
            ):
                for n in range(min(longest, len(atoms) - i), 0, -1):
                    run = atoms[i : i + n]
                    if any(x.kind not in ("word", "string") for x in run):
                        continue
                    hit = self.resource_words.get(_text(run))
                    if hit is not None:
                        out.append(Atom("resource", hit, atoms_span(run)))
                        i += n
                        break
                else:
                    out.append(a)
                    i += 1
                continue
            out.append(a)
            i += 1
        return out

    def resource_names(self) -> list[str]:
        """Every resource word an effect may use now (base and declared)."""
        return [*RESOURCE_WORDS, *self.resource_words]

    # ways ------------------------------------------------------------------------------
    def path_way(self, path: dict[str, Any], s: Stmt) -> bool:
        """A path property naming its way (`way ladder`, or a declared way's bare name); True
        when ``s`` was one. Unknown ways are reported when the pack is finished."""
        words = s.words
        if words[0] == "way" and len(words) > 1:
            path["way"] = _text(s.head[1:])
            path["way_at"] = _at(atoms_span(s.head[1:]))
            return True
        if " ".join(words) in self.base_ways or any(
            w["name"] == " ".join(words) for w in self.ways
        ):
            path["way"] = " ".join(words)
            path["way_at"] = _at(s.span)
            return True
        return False

    def settle_declarations(self) -> None:
        """Without the checks (a base compiled for an extension, which is checked whole
        later): each way's resource word resolved and its source mark taken out of the IR,
        as `check_declarations` would leave them. A word that names no resource keeps its
        mark, for the extension's check to report where the base wrote it."""
        for way in self.ways:
            name = RESOURCE_WORDS.get(way["paid_in"]) or self.resource_words.get(way["paid_in"])
            if name is not None:
                way.pop("paid_at", None)
                way["paid_in"] = name

    def check_declarations(self, ir: dict[str, Any]) -> None:
        """Once every file is compiled: ways paid in unknown resources, paths of unknown
        ways, declared resources nothing gives."""
        known = {*RESOURCE_WORDS.values(), *(r["name"] for r in self.resources)}
        known.update(self.resource_words.values())  # an extension's base's resources too
        # Every way of the pack (an extension's base's too: a base is compiled unchecked).
        for way in ir.get("ways", self.ways):
            at = way.pop("paid_at", None)
            word = way["paid_in"]
            name = RESOURCE_WORDS.get(word) or self.resource_words.get(word)
            if name is None:
                self.error(  # type: ignore[attr-defined]
                    "CW126",
                    f"way `{way['name']}` is paid in `{word}`, which is no resource",
                    Span.from_ir(at) if at else Span.from_ir(way["at"]),
                    hint=did_you_mean(word, self.resource_names())
                    or f"resources: {', '.join(sorted(known))} (declare others with "
                    "`resource NAME`)",
                )
            else:
                way["paid_in"] = name
        # Every way of the pack: an extension's paths may name its base's ways too.
        ways = {w["name"] for w in (*ir.get("ways", ()), *self.ways)}
        for board in ir.get("boards", ()):
            for path in board["paths"]:
                at = path.pop("way_at", None)
                if "way" in path and path["way"] not in ways:
                    self.error(  # type: ignore[attr-defined]
                        "CW127",
                        f"path way `{path['way']}` is not declared",
                        Span.from_ir(at) if at else Span.from_ir(path["at"]),
                        hint=did_you_mean(path["way"], ways)
                        or f"declare it: `way {path['way']} {{ paid in boots }}`",
                    )
        granted = {g for t in ir.get("tokens", ()) for g in t.get("grants", ())}
        for way in self.ways:
            for need in way["requires"]:
                if need not in granted:
                    self.diags.append(
                        Diagnostic(
                            "CW129",
                            f"no token grants `{need}`: way `{way['name']}` can never be taken",
                            Span.from_ir(way["at"]),
                            hint=f"give a token `grants {need}`, or remove the requirement",
                        )
                    )
        # What a whole game is checked for, once per board when boards differ (`on board`).
        self.diags += per_board(ir, lambda game: _never_gained(game, self.resources))
        self.diags += per_board(ir, mug_warnings)
        self.diags += status_errors(ir)
        self.diags += bare_price_errors(ir)


def _never_gained(ir: dict[str, Any], resources: list[dict[str, Any]]) -> list[Diagnostic]:
    """CW129 for each declared resource no effect of the game ``ir`` gains."""
    given = _gained(ir)
    return [
        Diagnostic(
            "CW129",
            f"nothing gives the resource `{res['name']}`: no effect gains it",
            Span.from_ir(res["at"]),
            hint=f"give it with an effect such as `+1 {res['name']}`, or remove the declaration",
        )
        for res in resources
        if res["name"] not in given
    ]


def _effect_nodes(nodes: Any) -> Iterator[dict[str, Any]]:
    """Every effect node (a dict with an "op") in an IR value, however deep."""
    if isinstance(nodes, dict):
        if "op" in nodes:
            yield nodes
        for v in nodes.values():
            if isinstance(v, (list, dict)):
                yield from _effect_nodes(v)
    elif isinstance(nodes, list):
        for n in nodes:
            yield from _effect_nodes(n)


def _gained(ir: dict[str, Any]) -> set[str]:
    """Resources some effect of the pack gains, wherever it is written: cards, tokens,
    spaces' actions and triggers, paths, ways, the `rules` block's triggers and steps...
    (the whole IR: a place left out, the `rules` block or a space's `when you enter`, would
    be a false warning)."""
    return {
        n["resource"] for n in _effect_nodes(ir) if n["op"] == "gain" and n.get("amount", 0) > 0
    }


def _tokens_taken(ir: dict[str, Any]) -> set[str]:
    """The token names and kinds (lower case) some effect of the pack names: taken, dealt,
    defeated, asked about, wherever the effect is written."""
    # A token's own declaration names itself: only its triggers and actions count.
    places = [v for k, v in ir.items() if k != "tokens"]
    places += [[t.get("triggers", ()), t.get("actions", ())] for t in ir.get("tokens", ())]
    return {n["token"].lower() for n in _effect_nodes(places) if isinstance(n.get("token"), str)}


def mug_warnings(ir: dict[str, Any]) -> list[Diagnostic]:
    """CW130: a token of kind `mug` that no rule of the pack awards (a mug no longer awards
    itself on escape: the rule is content)."""
    taken = _tokens_taken(ir)
    return [
        Diagnostic(
            "CW130",
            f"no rule awards the mug `{tok['name']}`: a mug no longer awards itself "
            "on escape, so escaping earns nothing from it",
            Span.from_ir(tok["at"]),
            hint=f"add the rule to the pack's `rules` block: `when you escape: take "
            f"{quote_name(tok['name'])}` (as content/acqinc and content/tutorial write it)",
        )
        for tok in ir.get("tokens", ())
        if tok.get("kind") == "mug" and not {tok["name"].lower(), "mug"} & taken
    ]


def _nodes(value: Any, key: str) -> Iterator[dict[str, Any]]:
    """Every node keyed by ``key`` ("op" for effects, "cond" for conditions) in an IR value."""
    if isinstance(value, dict):
        if key in value:
            yield value
        for v in value.values():
            if isinstance(v, (list, dict)):
                yield from _nodes(v, key)
    elif isinstance(value, list):
        for v in value:
            yield from _nodes(v, key)


def status_errors(ir: dict[str, Any]) -> list[Diagnostic]:
    """CW104: a condition `you are NAME` testing a status no line of the pack gives (`you
    are NAME this turn`): a misspelling, or a condition the language does not know."""
    given = {n["name"] for n in _nodes(ir, "op") if n["op"] == "status"}
    out = []
    for n in _nodes(ir, "cond"):
        if n["cond"] != "has_status" or n["name"] in given or "at" not in n:
            continue
        out.append(
            Diagnostic(
                "CW104",
                f"unknown condition `you are {n['name']}`: no line of the pack gives the "
                f"status `{n['name']}`",
                Span.from_ir(n["at"]),
                hint=did_you_mean(n["name"], given)
                or f"give it with an effect such as `you are {n['name']} this turn`",
            )
        )
    return out


# Prices that take what the player may not have: before `->`, in an `action` line, a `to
# enter:` toll or a `choose` option they are asked only when payable; alone on a line, never.
_PRICE_ONLY = {
    "spend": lambda n: f"pay {n['amount']} {quote_name(n['resource'])}",
    "pay_cubes": lambda n: f"pay {n['n']} clank cubes",
}


def bare_price_errors(ir: dict[str, Any]) -> list[Diagnostic]:
    """CW132: `pay 2 gold` (or Clank! cubes) alone on a card's, token's or the rules' line,
    where nothing asks whether it can be paid: it would take what the player may not have."""
    lines = [t for kind in ("cards", "tokens") for c in ir.get(kind, ()) for t in c["triggers"]]
    lines += ir.get("triggers", ())
    out = []
    for line in lines:
        for n in line.get("effects", ()):
            if n["op"] not in _PRICE_ONLY or "at" not in n:
                continue
            text = _PRICE_ONLY[n["op"]](n)
            out.append(
                Diagnostic(
                    "CW132",
                    f"`{text}` alone on a line takes what the player may not have: a price is "
                    "asked only before `->`, in an `action` line or a `choose` option",
                    Span.from_ir(n["at"]),
                    hint=f"write it as a price: `{text} -> ...` (`may {text} -> ...` to let "
                    "the player decline), or `choose one (" + text + " | ...)`",
                )
            )
    return out

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

from clankwork.interpreter.effects.registry import EFFECTS, RESOURCE_WORDS
from clankwork.interpreter.resource_props import RESOURCE_PROPERTIES
from clankwork.interpreter.resource_props import defaults as resource_defaults
from clankwork.interpreter.resource_props import shown_words as resource_prop_words
from clankwork.interpreter.resource_props import usage as resource_usage

from .board_blocks import per_board
from .condition_logic import IF_WORDS
from .diagnostics import Diagnostic, Span, did_you_mean, quote_name
from .limits import RANGES, bad_name_char
from .parser import Atom, Stmt

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


def _span_of(atoms: list[Atom]) -> Span:
    a, b = atoms[0].span, atoms[-1].span
    return Span(a.file, a.line, a.col, b.end_line, b.end_col)


# Words after which a declared resource's words name it as a count (`the most veins`).
_COMPARING = frozenset({"most", "fewest", "least", "more", "fewer", "less"})


def _text(atoms: list[Atom]) -> str:
    return " ".join(a.text.lower() if a.kind == "word" else a.text for a in atoms)


class Declarations:
    """The `_Compiler` mixin for resource and way declarations and `action` lines; it uses
    the compiler's ``diags``, ``error``, ``_name``, ``_clean``, ``_no_effects`` and
    ``effects``."""

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

    # the antagonist's name ----------------------------------------------------------------
    def decl_dragon(self, st: Stmt) -> None:
        """`dragon { name "Lord Eradikus"; word boss }`: what the pack calls the antagonist
        who attacks, in every output made for people ("Lord Eradikus attacks", "boss bag",
        "boss cubes"). `name` is its name in a sentence (the default is "the " and the word),
        `word` the word for its bag, its cubes and its attacks ("dragon" when left out).
        Display only: the game plays the same. An extension's declaration replaces its
        base's."""
        form = 'write `dragon { name "Some Name"; word WORD }`'
        if len(st.head) > 1:
            self.error(  # type: ignore[attr-defined]
                "CW105",
                "`dragon` takes no name on its line; its names go in its block",
                _span_of(st.head[1:]),
                hint=form,
            )
            return
        self._no_effects(st)  # type: ignore[attr-defined]
        if not st.block:
            self.error(  # type: ignore[attr-defined]
                "CW105", "`dragon` needs a block", st.span, hint=form
            )
            return
        if self.dragon is not None:
            self.error(  # type: ignore[attr-defined]
                "CW106",
                "the dragon is named twice",
                st.head[0].span,
                hint="keep one `dragon` declaration (the first is at "
                f"{self.dragon['at']['file']}:{self.dragon['at']['line']})",
            )
            return
        got: dict[str, str] = {}
        for s in st.block:
            self._no_effects(s)  # type: ignore[attr-defined]
            key, rest = s.words[0], s.head[1:]
            if key not in DRAGON_PROPS:
                self.error(  # type: ignore[attr-defined]
                    "CW102",
                    f"unknown dragon property `{s.head_text()}`",
                    s.head[0].span,
                    hint=did_you_mean(key, DRAGON_PROPS)
                    or 'a dragon takes `name "Some Name"` and `word WORD`',
                )
                continue
            if key in got:
                self.error(  # type: ignore[attr-defined]
                    "CW106",
                    f"the dragon's `{key}` is given twice",
                    s.head[0].span,
                    hint=f"keep one `{key}` line",
                )
                continue
            if len(rest) != 1 or rest[0].kind not in ("word", "string") or not rest[0].text.strip():
                self.error(  # type: ignore[attr-defined]
                    "CW105",
                    f"the dragon's `{key}` takes one word or one quoted text",
                    _span_of(rest) if rest else s.span,
                    hint='write `name "Lord Eradikus"` or `word boss` (quote words with spaces)',
                )
                continue
            if self._clean(rest):  # type: ignore[attr-defined]
                got[key] = rest[0].text.strip()
        word = got.get("word", DRAGON_DEFAULT["word"])
        self.dragon = {"name": got.get("name", f"the {word}"), "word": word, "at": _at(st.span)}

    # resources -------------------------------------------------------------------------
    def decl_resource(self, st: Stmt) -> None:
        """`resource NAME { per turn | kept; word WORDS }`."""
        named = self._name(st, "resource")  # type: ignore[attr-defined]
        if named is None:
            return
        self._no_effects(st)  # type: ignore[attr-defined]
        name = named[0].lower()
        res: dict[str, Any] = {"name": name, **resource_defaults(), "at": _at(st.span)}
        clash = RESOURCE_WORDS.get(name)
        if clash is not None and self._base_words(st, named, clash):
            return
        if clash is not None:
            self.error(  # type: ignore[attr-defined]
                "CW125",
                f"`{named[0]}` is a base resource ({clash}); a pack cannot declare it again",
                named[1],
                hint="give the new resource another name",
            )
            return
        if name in self.resource_words:
            inherited = name in self.inherited_words
            other = self.resource_words[name]
            self.error(  # type: ignore[attr-defined]
                "CW125",
                f"`{named[0]}` already names a resource of the base pack"
                if inherited
                else f"resource `{named[0]}` is declared twice"
                if other == name
                else f"`{named[0]}` already names the resource {other}",
                named[1],
                hint="an extension uses its base's resources as they are: remove this "
                "declaration, or give the new resource another name"
                if inherited
                else "keep one declaration"
                if other == name
                else "give the new resource another name",
            )
            return
        for s in st.block or []:
            self._no_effects(s)  # type: ignore[attr-defined]
            self._resource_prop(s, name, res)
        self.resource_words[name] = name
        for prop in RESOURCE_PROPERTIES.values():
            for word in res[prop.key] if prop.names else ():
                self.resource_words[word] = name
        self.resources.append(res)

    def _resource_prop(self, s: Stmt, name: str, res: dict[str, Any]) -> None:
        """One line of a resource's block, compiled by the property record it writes
        (interpreter/resource_props.py)."""
        words, rest = s.words, s.head[1:]
        prop = next((p for p in RESOURCE_PROPERTIES.values() if p.matches(words)), None)
        if prop is None:
            self.error(  # type: ignore[attr-defined]
                "CW102",
                f"unknown resource property `{s.head_text()}`",
                s.head[0].span,
                hint=did_you_mean(" ".join(words), resource_prop_words()) or resource_usage(),
            )
        elif not prop.heads or tuple(words) in prop.phrases:
            res[prop.key] = prop.compile(words)
        elif not self._clean(rest):  # type: ignore[attr-defined]
            return
        elif prop.names:
            self._resource_names(name, res[prop.key], rest)
        else:
            try:
                res[prop.key] = prop.compile([a.text for a in rest])
            except ValueError as e:
                self.error("CW125", str(e), _span_of(rest), hint=prop.doc)  # type: ignore[attr-defined]

    def _resource_names(self, name: str, names: list[str], atoms: list[Atom]) -> None:
        """`word WORDS`: other names of the resource, none another resource's."""
        for a in atoms:
            word = a.text.lower()
            if word in RESOURCE_WORDS:
                self.error(  # type: ignore[attr-defined]
                    "CW125",
                    f"`{a.text}` already names the base resource {RESOURCE_WORDS[word]}",
                    a.span,
                    hint="choose a word no base resource uses",
                )
            elif word in self.resource_words or word == name or word in names:
                if word != name and word not in names:
                    self.error(  # type: ignore[attr-defined]
                        "CW125",
                        f"`{a.text}` already names the resource {self.resource_words[word]}",
                        a.span,
                        hint="choose a word no other resource uses",
                    )
            else:
                names.append(word)

    def _base_words(self, st: Stmt, named: tuple[str, Span], base: str) -> bool:
        """`resource gold { word coins coin }`: other words for a base resource (a game
        that calls its gold by another name). True when the declaration is only that."""
        body = st.block or []
        if not body or any(s.words[0] not in ("word", "words") or not s.head[1:] for s in body):
            return False
        for s in body:
            self._no_effects(s)  # type: ignore[attr-defined]
            if not self._clean(s.head[1:]):  # type: ignore[attr-defined]
                continue
            for a in s.head[1:]:
                word = a.text.lower()
                if word in RESOURCE_WORDS or word in self.resource_words:
                    self.error(  # type: ignore[attr-defined]
                        "CW125",
                        f"`{a.text}` already names a resource",
                        a.span,
                        hint="choose a word no resource uses",
                    )
                else:
                    self.resource_words[word] = base
                    self.resource_aliases[word] = base
        return True

    def resource_atoms(self, atoms: list[Atom], compared: bool = False) -> list[Atom]:
        """``atoms`` with each declared resource's words after a number made one atom of kind
        "resource" (its name), which the effect phrases' resource slot accepts; with
        ``compared``, also after a comparison (`the most veins`, `more favour than`) and
        when they are all the atoms (a count alone: `most veins: 7 points`)."""
        if not self.resource_words:
            return atoms
        if compared and _text(atoms) in self.resource_words:
            return [Atom("resource", self.resource_words[_text(atoms)], _span_of(atoms))]
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
                        out.append(Atom("resource", hit, _span_of(run)))
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
    def decl_way(self, st: Stmt) -> None:
        """`way NAME { paid in RESOURCE; requires WORD; exhausts; usable while exhausted;
        teleport can|can't }`."""
        named = self._name(st, "way")  # type: ignore[attr-defined]
        if named is None:
            return
        self._no_effects(st)  # type: ignore[attr-defined]
        way: dict[str, Any] = {
            "name": named[0].lower(),
            "paid_in": "boots",
            "requires": [],
            "exhausts": False,
            "while_exhausted": False,
            "teleport": True,
            "at": _at(st.span),
        }
        if any(w["name"] == way["name"] for w in self.ways):
            self.error(  # type: ignore[attr-defined]
                "CW127", f"way `{named[0]}` is declared twice", named[1], hint="keep one"
            )
            return
        for s in st.block or []:
            self._no_effects(s)  # type: ignore[attr-defined]
            words, rest = s.words, s.head[1:]
            if words[:2] == ["paid", "in"] and len(words) > 2:
                way["paid_in"] = _text(s.head[2:])
                way["paid_at"] = _at(_span_of(s.head[2:]))
            elif words[0] == "requires" and rest:
                if self._clean(rest):  # type: ignore[attr-defined]
                    way["requires"].append(_text(rest))
            elif words == ["exhausts"]:
                way["exhausts"] = True
            elif words in (["usable", "while", "exhausted"], ["while", "exhausted"]):
                way["while_exhausted"] = True
            elif words[0] == "within" and rest:
                # `within "section 1" "section 2"`: the way joins every two spaces that share
                # one of these features (a move anywhere inside a group of spaces).
                if self._clean(rest):  # type: ignore[attr-defined]
                    way.setdefault("within", []).extend(
                        a.text.lower() for a in rest if a.text.lower() not in way.get("within", ())
                    )
            elif words[0] == "cost" and len(rest) == 1 and rest[0].kind == "number":
                # The price of a `within` move, in the way's resource (0: free).
                value = self._in_range(rest[0], "a way's cost", RANGES["way cost"])  # type: ignore[attr-defined]
                if value is not None:
                    way["cost"] = value
            elif words[:2] == ["blocked", "by"] and len(rest) > 1:
                # A token lying on a space closes this way there (to and from it).
                if self._clean(rest[1:]):  # type: ignore[attr-defined]
                    way.setdefault("blocked_by", []).append(_text(rest[1:]))
            elif words in (["teleport", "can"], ["teleports", "can"]):
                way["teleport"] = True
            elif words in (
                ["teleport", "can't"],
                ["teleport", "cannot"],
                ["teleports", "can't"],
                ["no", "teleport"],
            ):
                way["teleport"] = False
            else:
                self.error(  # type: ignore[attr-defined]
                    "CW102",
                    f"unknown way property `{s.head_text()}`",
                    s.head[0].span,
                    hint=did_you_mean(" ".join(words), WAY_PROPS)
                    or "a way takes `paid in RESOURCE`, `requires WORD`, `exhausts`, "
                    "`usable while exhausted`, `teleport can` / `teleport can't` and "
                    "`within FEATURE...`",
                )
        self.ways.append(way)

    def path_way(self, path: dict[str, Any], s: Stmt) -> bool:
        """A path property naming its way (`way ladder`, or a declared way's bare name); True
        when ``s`` was one. Unknown ways are reported when the pack is finished."""
        words = s.words
        if words[0] == "way" and len(words) > 1:
            path["way"] = _text(s.head[1:])
            path["way_at"] = _at(_span_of(s.head[1:]))
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

    # actions ---------------------------------------------------------------------------
    def action_line(self, owner: dict[str, Any], s: Stmt) -> None:
        """`action [NAME] [once per turn|once per game]: [PRICE ->] EFFECTS` in a space or a
        token: appended to ``owner["actions"]``."""
        head = s.head[1:]
        if s.block is not None:
            self.error(  # type: ignore[attr-defined]
                "CW128", "an action does not take a block", s.block_span, hint="remove { }"
            )
            return
        if s.effects is None:
            self.error(  # type: ignore[attr-defined]
                "CW128",
                "an action needs its effects after a colon",
                s.span,
                hint="write `action once per game: pay 2 boots -> +3 gold`",
            )
            return
        node: dict[str, Any] = {"at": _at(s.span)}
        words = [a.text.lower() if a.kind == "word" else None for a in head]
        k = next((i for i, w in enumerate(words) if w in IF_WORDS), None)
        if k is not None:
            # `action NAME [LIMIT] if|unless CONDITION:` is offered only while it holds.
            deny = IF_WORDS[words[k]]
            cond_atoms = head[k + 1 :]
            head, words = head[:k], words[:k]
            if not cond_atoms:
                self.error(  # type: ignore[attr-defined]
                    "CW128", "`if` needs a condition", s.span, hint="action hack if ...: ..."
                )
                return
            cond = self._condition(cond_atoms, deny)  # type: ignore[attr-defined]
            if cond is None:
                return
            node["if"] = cond
        for key, limit in LIMIT_WORDS.items():
            n = len(key)
            if tuple(words[-n:]) == key:
                node["limit"] = limit
                head, words = head[:-n], words[:-n]
                break
        if "once" in words:
            k = words.index("once")
            bad = head[k:]
            self.error(  # type: ignore[attr-defined]
                "CW128",
                f"unknown limit `{' '.join(a.source() for a in bad)}`",
                _span_of(bad),
                hint=did_you_mean(_text(bad), [" ".join(k) for k in LIMIT_WORDS])
                or "an action's limit is `once per turn`, `once per game` or `once per module`",
            )
            return
        if head:
            for a in head:
                if a.kind not in ("word", "string") or bad_name_char(str(a.value)) is not None:
                    self.error(  # type: ignore[attr-defined]
                        "CW128",
                        f"`{' '.join(a.source() for a in head)}` cannot name an action",
                        _span_of(head),
                        hint='name it with words or a quoted name: `action "Pray" once per '
                        "game: ...`",
                    )
                    return
            # A misspelt `unless` would read as part of a name of several bare words.
            for a in head[1:]:
                hint = did_you_mean(a.text, ["unless"]) if a.kind == "word" else None
                if hint is not None and len(a.text) > 3:
                    self.error(  # type: ignore[attr-defined]
                        "CW128",
                        f"`{a.text}` in the action's name `{_text(head)}`",
                        a.span,
                        hint=hint + " (`action NAME unless CONDITION: ...`)",
                    )
                    return
            node["name"] = " ".join(a.text for a in head)
        effects = self.effects(s.effects)  # type: ignore[attr-defined]
        if effects is None:
            return
        if not effects:
            self.error("CW128", "an action needs at least one effect", s.span)  # type: ignore[attr-defined]
            return
        # A price the player must pay (`pay 2 boots -> ...`) decides whether the action is
        # offered at all: kept apart from the effects it buys.
        if len(effects) == 1 and effects[0]["op"] == "pay" and not effects[0]["optional"]:
            node["cost"], node["effects"] = effects[0]["cost"], effects[0]["then"]
        elif len(effects) == 1 and EFFECTS[effects[0]["op"]].payable:
            # An action that is one price and nothing more (`defeat a guard here with 3
            # swords`) is offered only when that price can be paid.
            node["cost"], node["effects"] = effects, []
        else:
            node["cost"], node["effects"] = [], effects
        owner.setdefault("actions", []).append(node)


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

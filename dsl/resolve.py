"""Reference checks on compiled IR: duplicate names, undefined cards, tokens and spaces.

One registered check per part of the IR or kind of reference (`@reference_check`, in
`REFERENCE_CHECKS`); `check_references` runs them in registration order, so the diagnostics
come out in that order. A new IR section's references are one more check here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from clankwork.interpreter.effects.conditions import token_words
from clankwork.interpreter.effects.logic import leaves
from clankwork.interpreter.effects.registry import RESOURCE_WORDS
from clankwork.interpreter.effects.where import feature_stem, has_feature
from clankwork.interpreter.stickers import slot_kind, slots

from .diagnostics import Diagnostic, Span, did_you_mean


def _span(at: dict[str, Any] | None) -> Span | None:
    return Span.from_ir(at) if at else None


def name_key(name: str) -> str:
    """What two names share when they differ only in case or spacing."""
    return " ".join(name.casefold().split())


def named_twice(
    items: list[dict[str, Any]], plural: str, hint: str, note: str | None = None
) -> list[Diagnostic]:
    """CW106 for each item (a scenario, a balance block) named as an earlier one: names that
    differ only in case or spacing are the same to a reader. ``note`` labels the earlier one."""
    out = []
    seen: dict[str, dict[str, Any]] = {}
    for it in items:
        key = name_key(it["name"])
        if key in seen:
            notes = ((note, Span.from_ir(seen[key]["at"])),) if note is not None else ()
            out.append(
                Diagnostic(
                    "CW106",
                    f"two {plural} are named {it['name']!r}",
                    Span.from_ir(it["at"]),
                    hint=hint,
                    notes=notes,
                )
            )
        seen[key] = it
    return out


def near_miss(name: str, declared: Iterable[str]) -> str | None:
    """A did-you-mean hint for a reference that names nothing: the declared name it matches
    but for case or spacing (names match exactly), else the closest spelling."""
    declared = list(declared)
    key = name_key(name)
    same = sorted(d for d in declared if name_key(d) == key)
    if same:
        return f'did you mean "{same[0]}"? names match exactly: case and spaces count'
    return did_you_mean(name, declared)


def walk_effects(nodes: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every effect node in a list, nested ones included."""
    for n in nodes:
        yield n
        for key in ("do", "cost", "then"):
            if key in n:
                yield from walk_effects(n[key])
        for opt in n.get("options", []):
            yield from walk_effects(opt)


def _triggers(ir: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Every trigger with what carries it: cards, tokens, spaces and the pack's rules; a
    token's or a space's `action` line counts as one (its price, then its effects), and so
    does a contract's completion (its condition, then its effects)."""
    spaces = [s for b in ir["boards"] for s in b["spaces"]]
    for owner in [*ir["cards"], *ir["tokens"], *spaces]:
        for trig in owner.get("triggers", ()):
            yield owner, trig
        # An `action` line is checked like a trigger: its condition, price and effects.
        for act in owner.get("actions", ()):
            line = {"effects": [*act.get("cost", ()), *act.get("effects", ())]}
            if "if" in act:
                line["if"] = act["if"]
            yield owner, line
    for trig in ir.get("triggers", ()):
        yield {"name": "rules"}, trig
    for change in ir.get("steps", ()):
        if "effects" in change:
            yield {"name": f"step {change['step']}"}, change
    # A contract's `complete if` and what completing it does are checked like a trigger.
    for c in ir.get("contracts", ()):
        if "effects" in c or "if" in c:
            line = {"effects": c.get("effects", [])}
            if "if" in c:
                line["if"] = c["if"]
            yield {"name": f"contract {c['name']}"}, line


# Effects that name a path by its two spaces (`the tunnel between A and B`) or add one.
_PATH_OPS = ("place_on_path", "place_random_on_path", "block_path", "open_path", "add_path")


def _path_references(
    owner: dict[str, Any],
    node: dict[str, Any],
    boards: list[dict[str, Any]],
    spaces: set[str],
) -> list[Diagnostic]:
    """A path effect's spaces that no board has, and two spaces no path of a board joins."""
    if node["op"] not in _PATH_OPS:
        return []
    out: list[Diagnostic] = []
    where = _span(node.get("at"))
    if "a" not in node or not boards:
        return out  # a pack without a board (yet): its spaces come with the one it extends
    ends = (node["a"], node["b"])
    bad = [x for x in ends if x not in spaces]
    for x in bad:
        out.append(
            Diagnostic(
                "CW107",
                f"{owner['name']!r} names space {x!r}, which no board of the pack has",
                where,
                hint=near_miss(x, spaces) or "name a space of the board",
            )
        )
    if bad or node["op"] == "add_path":
        return out
    joined = any({p.get("from"), p.get("to")} == set(ends) for b in boards for p in b["paths"])
    if not joined:
        out.append(
            Diagnostic(
                "CW107",
                f"{owner['name']!r} names the path between {ends[0]!r} and {ends[1]!r}, but "
                "no path of a board joins them",
                where,
                hint="name two spaces a `path A -- B` of the board joins",
            )
        )
    return out


def _switch_reference(
    owner: dict[str, Any], node: dict[str, Any], switches: dict[str, int]
) -> list[Diagnostic]:
    """A switch no path of a board names, or a state it does not have."""
    name, where = node["switch"], _span(node.get("at"))
    n = switches.get(name)
    if n is None:
        return [
            Diagnostic(
                "CW107",
                f"{owner['name']!r} names switch {name!r}, which no path of a board has",
                where,
                hint=near_miss(name, switches) or "give paths `switch NAME STATE` on the board",
            )
        ]
    state = node.get("state")
    if state is not None and state > n:
        return [
            Diagnostic(
                "CW107",
                f"{owner['name']!r} names state {state} of switch {name!r}, which has "
                f"states 1 to {n}",
                where,
                hint=f"a path opens in a state with `switch {name} {state}`",
            )
        ]
    return []


class Refs:
    """What the reference checks share about one IR, gathered once: the names it declares
    and every trigger with its owner."""

    def __init__(self, ir: dict[str, Any]) -> None:
        self.ir = ir
        self.card_names = {c["name"] for c in ir["cards"]}
        # Tags are words, lower-cased where they are declared, so they match without case.
        self.tags = {t.lower() for c in ir["cards"] for t in c["tags"]}
        self.token_names = {t["name"] for t in ir["tokens"]}
        self.spaces = [s for b in ir["boards"] for s in b["spaces"]]
        self.space_names = {s["name"] for s in self.spaces}
        self.features = {f for s in self.spaces for f in s["features"]}
        self.triggers = list(_triggers(ir))
        self.numbers = {p["number"] for p in ir.get("passages", ())}
        # A pack with neither tokens nor a board is a fragment (a test, an example): nothing
        # to hold a condition against.
        self.fragment = not ir["tokens"] and not self.spaces

    def card_or_tag(self, ref: str) -> bool:
        """True when ``ref`` names a card (exactly) or a tag (without case)."""
        return ref in self.card_names or ref.lower() in self.tags

    def switches(self) -> dict[str, int]:
        """Each switch the boards' paths name, with its highest state."""
        out: dict[str, int] = {}
        for b in self.ir["boards"]:
            for p in b["paths"]:
                if "switch" in p:
                    name = p["switch"]["name"]
                    out[name] = max(out.get(name, 1), *p["switch"]["states"])
        return out

    def pack_span(self, at: dict[str, Any] | None) -> Span | None:
        """``at``'s span, or the pack block's when there is none."""
        return _span(at) if at else _span(self.ir["pack"].get("at"))


ReferenceCheck = Callable[[Refs], list[Diagnostic]]

# The reference checks, in the order their diagnostics come out (registration order).
REFERENCE_CHECKS: dict[str, ReferenceCheck] = {}


def reference_check(name: str) -> Callable[[ReferenceCheck], ReferenceCheck]:
    """Register a check of one part of the IR; it runs after those registered before it."""

    def register(check: ReferenceCheck) -> ReferenceCheck:
        if name in REFERENCE_CHECKS:
            # A second one would replace the first and run in its place in the order.
            raise ValueError(f"reference check {name!r} is registered twice")
        REFERENCE_CHECKS[name] = check
        return check

    return register


def check_references(ir: dict[str, Any]) -> list[Diagnostic]:
    """Duplicate and undefined names, words that mean nothing at run time, and the starting
    deck size: every registered check, in order."""
    refs = Refs(ir)
    return [d for check in REFERENCE_CHECKS.values() for d in check(refs)]


def _dupes(items: list[dict[str, Any]], what: str) -> list[Diagnostic]:
    """Two items of a kind with one name. Names match exactly, but two that differ only in
    case or spacing are refused as duplicates: a reader cannot tell them apart, and the game
    matches names without case (`trash a burgle`)."""
    diags = []
    seen: dict[str, dict[str, Any]] = {}
    for it in items:
        key = name_key(it["name"])
        if key in seen:
            first = seen[key]["name"]
            diags.append(
                Diagnostic(
                    "CW106",
                    f"{what} {it['name']!r} is declared twice"
                    if first == it["name"]
                    else f"{what} {it['name']!r} differs from {what} {first!r} only in "
                    "case or spacing",
                    _span(it["at"]),
                    hint="rename one of them, or merge them and use `copies N`",
                    notes=((f"first {what} {first!r} is here", _span(seen[key]["at"])),),
                )
            )
        else:
            seen[key] = it
    return diags


def _undeclared(owner: dict[str, Any], what: str, ref: str, at: Any, pool: Any) -> Diagnostic:
    """CW107: an effect refers to a card or token the pack does not declare."""
    return Diagnostic(
        "CW107",
        f"{owner['name']!r} refers to {what} {ref!r}, which the pack does not declare",
        _span(at),
        hint=near_miss(ref, pool) or f"declare the {what} first",
    )


@reference_check("cards, tokens and boards")
def _check_names(refs: Refs) -> list[Diagnostic]:
    """Cards, tokens and boards: each name once."""
    ir = refs.ir
    return [
        *_dupes(ir["cards"], "card"),
        *_dupes(ir["tokens"], "token"),
        *_dupes(ir["boards"], "board"),
    ]


@reference_check("spaces and paths")
def _check_boards(refs: Refs) -> list[Diagnostic]:
    """Each board's spaces once each, and its paths' ends among them."""
    diags = []
    for board in refs.ir["boards"]:
        diags += _dupes(board["spaces"], "space")
        names = {s["name"] for s in board["spaces"]}
        for path in board["paths"]:
            for end in ("from", "to"):
                if path[end] is None or path[end] in names:
                    continue
                diags.append(
                    Diagnostic(
                        "CW107",
                        f"path {end} {path[end]!r}: no space of that name on board "
                        f"{board['name']!r}",
                        _span(path.get(f"{end}_at")),
                        hint=near_miss(path[end], names)
                        or f"declare `space {path[end]!r}` on the board",
                    )
                )
    return diags


@reference_check("effects' cards, tokens, paths and switches")
def _check_effect_names(refs: Refs) -> list[Diagnostic]:
    """What effects name: a path's spaces, a switch, a trashed card, a token."""
    ir, diags = refs.ir, []
    switches = refs.switches()
    for owner, trig in refs.triggers:
        for node in walk_effects(trig["effects"]):
            diags += _path_references(owner, node, ir["boards"], refs.space_names)
            if node["op"] in ("turn_switch", "random_switch") and ir["boards"]:
                diags += _switch_reference(owner, node, switches)
            if node["op"] == "trash" and "card" in node and not refs.card_or_tag(node["card"]):
                pool = refs.card_names | refs.tags
                diags.append(_undeclared(owner, "card", node["card"], node.get("at"), pool))
            elif node["op"] == "token" and node["token"] not in refs.token_names:
                diags.append(
                    _undeclared(owner, "token", node["token"], node.get("at"), refs.token_names)
                )
    return diags


@reference_check("switch conditions")
def _check_switch_conditions(refs: Refs) -> list[Diagnostic]:
    """`if switch NAME is N`: a switch of the boards, a state it has."""
    diags = []
    switches = refs.switches()
    for owner, trig in refs.triggers:
        tests = [trig.get("if")] + [n.get("cond") for n in walk_effects(trig["effects"])]
        for t in tests:
            if t and t.get("cond") == "switch_state" and refs.ir["boards"]:
                diags += _switch_reference(owner, t, switches)
    return diags


@reference_check("counted cards and tags")
def _check_counted(refs: Refs) -> list[Diagnostic]:
    """Every `points N per COUNT`, award and count of cards names a card or a tag."""
    ir = refs.ir
    # Every owner's `points N per COUNT` once, whether or not it has triggers.
    counted = [(o, [o.get("points_per", {}).get("per")]) for o in [*ir["cards"], *ir["tokens"]]]
    counted += [({"name": "rules"}, [a["count"]]) for a in ir.get("awards", ())]
    for owner, trig in refs.triggers:
        tests = [*leaves(trig.get("if"))]
        tests += [c for n in walk_effects(trig["effects"]) for c in leaves(n.get("cond"))]
        tests += [c.get("count") for c in tests if isinstance(c.get("count"), dict)]
        tests += [n.get("per") for n in walk_effects(trig["effects"])]
        tests += [n.get("count") for n in walk_effects(trig["effects"])]
        counted.append((owner, tests))
    return [
        _not_counted(refs, owner, t)
        for owner, tests in counted
        for t in tests
        if t and ("tag" in t or "card" in t) and not _counts_known(refs, t)
    ]


def _counts_known(refs: Refs, t: dict[str, Any]) -> bool:
    # A `tag` slot reads a lower-cased word, so it matches card names without case; a `card`
    # slot keeps the name as written and matches it exactly.
    if "tag" in t:
        return t["tag"] in refs.tags or t["tag"] in {c.lower() for c in refs.card_names}
    return refs.card_or_tag(t["card"])


# What a count may name besides cards and tags (`most gold`, `fewest damage`), offered for a
# misspelt one; and the words of a score, which is what a line gives rather than a count.
_BASE_COUNTED = frozenset(w for w in RESOURCE_WORDS if w.isalpha()) | {"damage"}
_SCORE_WORDS = frozenset({"score", "scores", "point", "points", "vp", "victory"})


def _not_counted(refs: Refs, owner: dict[str, Any], t: dict[str, Any]) -> Diagnostic:
    """CW107: a count of a card or tag the pack does not have."""
    ref = t["tag"] if "tag" in t else t["card"]
    held = ref.lower() in {w for tok in refs.ir["tokens"] for w in token_words(tok)}
    # A misspelt resource reads as a card's name (`most vains`, `most skil`): offer the
    # pack's and the base resources too.
    resources = {r["name"] for r in refs.ir.get("resources", ())} | _BASE_COUNTED
    if held:
        hint = f"{ref!r} is a token: count the tokens held with `{ref} tokens`"
    elif ref.lower() in _SCORE_WORDS:
        hint = (
            "points are what the line gives, not a count: count what a player has (gold, "
            "damage, a card's name, a tag, tokens held)"
        )
    else:
        hint = near_miss(ref, refs.card_names | refs.tags | resources) or (
            "tag cards with `companion`, `tag WORD` or `faction WORD`"
        )
    return Diagnostic(
        "CW107",
        f"{owner['name']!r} counts {ref!r}, which is neither a card nor a tag of the pack",
        _span(t.get("at")),
        hint=hint,
    )


@reference_check("cards' places")
def _check_card_places(refs: Refs) -> list[Diagnostic]:
    """A card `only in` or `not in` a feature some space has."""
    diags = []
    features = refs.features
    for card in refs.ir["cards"]:
        for key, said in (("only_in", "only in"), ("not_in", "not in")):
            where = card.get(key)
            if where and refs.ir["boards"] and not has_feature(features, where):
                diags.append(
                    Diagnostic(
                        "CW107",
                        f"{card['name']!r} is {said} {where!r}, but no space has that feature",
                        _span(card["at"]),
                        hint=did_you_mean(feature_stem(where), features)
                        or "known features: " + ", ".join(sorted(features)),
                    )
                )
    return diags


@reference_check("rule slots")
def _check_slots(refs: Refs) -> list[Diagnostic]:
    """Each rule slot declared once (a step's, a trigger's, a rule parameter's)."""
    ir, diags = refs.ir, []
    seen: dict[str, dict[str, Any]] = {}
    for slot in [
        *(c for c in ir.get("steps", ()) if c.get("slot")),
        *(t for t in ir.get("triggers", ()) if t.get("slot")),
        *ir.get("rule_slots", ()),
    ]:
        first = seen.setdefault(slot["slot"], slot)
        if first is not slot:
            diags.append(
                Diagnostic(
                    "CW106",
                    f"slot {slot['slot']!r} is declared twice",
                    _span(slot.get("at")),
                    hint="each of the rulebook's boxes is one slot",
                    notes=((f"slot {slot['slot']!r} is first here", _span(first.get("at"))),),
                )
            )
    return diags


@reference_check("stickers")
def _check_stickers(refs: Refs) -> list[Diagnostic]:
    """A sticker fills a rule slot the pack (or its base) declares, with what that slot
    takes (effects for a step or a trigger, rule values for a rule parameter); names are
    unique."""
    ir = refs.ir
    diags = _dupes(ir.get("stickers", []), "sticker")
    by_slot = slots(ir)
    for st in ir.get("stickers", ()):
        if "fills" not in st:
            continue
        slot = by_slot.get(st["fills"])
        where = _span(st.get("fills_at") or st.get("at"))
        if slot is None:
            diags.append(
                Diagnostic(
                    "CW107",
                    f"sticker {st['name']!r} fills slot {st['fills']!r}, which the pack's rules "
                    "do not declare",
                    where,
                    hint=did_you_mean(st["fills"], list(by_slot))
                    or f"declare it in the rules: `slot {st['fills']} after STEP`",
                )
            )
        else:
            diags += _sticker_fills(st, slot, where)
    return diags


def _sticker_fills(
    st: dict[str, Any], slot: dict[str, Any], where: Span | None
) -> list[Diagnostic]:
    """CW112: a sticker that fills a slot with what it does not take."""
    kind = slot_kind(slot)
    rule = slot["rule"].replace("_", " ") if kind == "rule" else ""
    if kind == "rule" and "rules" not in st:
        return [
            Diagnostic(
                "CW112",
                f"slot {st['fills']} is the rule `{rule}`: sticker {st['name']!r} sets it, it "
                "has no effects",
                where,
                hint=f"write `fills {st['fills']} {{ {rule} N }}`",
            )
        ]
    if kind == "rule" and set(st["rules"]) != {slot["rule"]}:
        return [
            Diagnostic(
                "CW112",
                f"slot {st['fills']} is the rule `{rule}`; sticker {st['name']!r} sets "
                + ", ".join(f"`{k.replace('_', ' ')}`" for k in st["rules"]),
                where,
                hint=f"a sticker on {st['fills']} sets `{rule}`",
            )
        ]
    if kind != "rule" and "rules" in st:
        return [
            Diagnostic(
                "CW112",
                f"slot {st['fills']} is a {kind} and takes effects, not rule values",
                where,
                hint=f"write `fills {st['fills']}: EFFECTS`",
            )
        ]
    return []


@reference_check("goals")
def _check_goals(refs: Refs) -> list[Diagnostic]:
    """Personal goals: unique names, a seat the pack can seat."""
    ir = refs.ir
    diags = _dupes(ir.get("goals", []), "goal")
    for g in ir.get("goals", ()):
        most = ir["rules"]["max_players"]
        if g["player"] > most:
            diags.append(
                Diagnostic(
                    "CW108",
                    f"goal {g['name']!r} is player {g['player']}'s, but the rules seat at most "
                    f"{most}",
                    _span(g["at"]),
                    hint=f"player 1 to {most}",
                )
            )
    return diags


@reference_check("patrons and contracts")
def _check_contracts(refs: Refs) -> list[Diagnostic]:
    """Patrons and contracts once each; a contract's passage is the pack's."""
    ir = refs.ir
    passages = ir.get("passages", [])
    diags = [*_dupes(ir.get("patrons", []), "patron"), *_dupes(ir.get("contracts", []), "contract")]
    for c in ir.get("contracts", ()):
        if "passage" in c and c["passage"] not in refs.numbers:
            diags.append(
                Diagnostic(
                    "CW107",
                    f"contract {c['name']!r} reads passage {c['passage']}, which the pack "
                    "does not have",
                    _span(c["at"]),
                    hint="passages: " + ", ".join(str(p["number"]) for p in passages),
                )
            )
    return diags


@reference_check("passage numbers")
def _check_passage_numbers(refs: Refs) -> list[Diagnostic]:
    """Passage numbers, and each game's prologue and epilogue, once each."""
    diags = []
    numbers: dict[int, dict[str, Any]] = {}
    arc: dict[tuple[str, int], dict[str, Any]] = {}
    for ps in refs.ir.get("passages", []):
        first = numbers.setdefault(ps["number"], ps)
        if first is not ps:
            diags.append(
                Diagnostic(
                    "CW106",
                    f"passage {ps['number']} is declared twice",
                    _span(ps["at"]),
                    hint="give each passage its own number",
                    notes=((f"passage {ps['number']} is first here", _span(first["at"])),),
                )
            )
        for part in ("prologue", "epilogue"):
            if part in ps:
                other = arc.setdefault((part, ps[part]), ps)
                if other is not ps:
                    diags.append(
                        Diagnostic(
                            "CW106",
                            f"game {ps[part]} has two {part}s (passages {other['number']} "
                            f"and {ps['number']})",
                            _span(ps["at"]),
                            hint=f"one passage is the {part} of a game",
                        )
                    )
    return diags


@reference_check("passages' references")
def _check_passage_references(refs: Refs) -> list[Diagnostic]:
    """What a passage reads, fetches, destroys, and names (a patron, board, contract,
    sticker) must be the pack's."""
    diags = []
    for ps in refs.ir.get("passages", []):
        reads = [(d["passage"], d["at"]) for d in ps["do"] if d["do"] == "read"]
        reads += [(c["read"], c["at"]) for c in ps.get("choices", ())]
        for n, at in reads:
            if n not in refs.numbers:
                diags.append(
                    Diagnostic(
                        "CW107",
                        f"passage {ps['number']} reads passage {n}, which the pack does not have",
                        _span(at),
                        hint="passages: " + ", ".join(map(str, sorted(refs.numbers))),
                    )
                )
        for d in ps["do"]:
            check = _PASSAGE_DOES.get(d["do"])
            found = check(refs, ps, d) if check else None
            if found is not None:
                diags.append(found)
    return diags


# The check of one instruction of a passage (`fetch`, `destroy`...): its diagnostic or None.
PassageCheck = Callable[[Refs, dict[str, Any], dict[str, Any]], Diagnostic | None]


def _fetches(refs: Refs, ps: dict[str, Any], d: dict[str, Any]) -> Diagnostic | None:
    """A fetched Cardporium card is one of the pack's."""
    cardporium = {c["cardporium"] for c in refs.ir["cards"] if "cardporium" in c}
    if d["card"] in cardporium:
        return None
    return Diagnostic(
        "CW107",
        f"passage {ps['number']} fetches Cardporium card {d['card']}, which the pack does not have",
        _span(d["at"]),
        hint="Cardporium cards: "
        + (", ".join(map(str, sorted(cardporium))) or "none (`cardporium N`)"),
    )


def _destroys(refs: Refs, ps: dict[str, Any], d: dict[str, Any]) -> Diagnostic | None:
    """A destroyed card is one of the pack's."""
    if d["name"] in refs.card_names:
        return None
    return Diagnostic(
        "CW107",
        f"passage {ps['number']} destroys {d['name']!r}, which is no card of the pack",
        _span(d["at"]),
        hint=did_you_mean(d["name"], sorted(refs.card_names)) or "name a card",
    )


def _names_one(
    what: str, verb: str, key: str, otherwise: Callable[[list[str]], str]
) -> PassageCheck:
    """The check of a passage's instruction that names one of the pack's ``key`` items."""

    def check(refs: Refs, ps: dict[str, Any], d: dict[str, Any]) -> Diagnostic | None:
        names = [x["name"] for x in refs.ir.get(key, ())]
        if d["name"] in names:
            return None
        return Diagnostic(
            "CW107",
            f"passage {ps['number']} {verb} {what} {d['name']!r}, which the pack does not have",
            _span(d["at"]),
            hint=did_you_mean(d["name"], names) or otherwise(names),
        )

    return check


# The check of each passage instruction that names something of the pack.
_PASSAGE_DOES: dict[str, PassageCheck] = {
    "fetch": _fetches,
    "destroy": _destroys,
    "patron": _names_one(
        "patron", "names", "patrons", lambda _: "declare it: `patron NAME { TRIGGER: EFFECTS }`"
    ),
    "board": _names_one("board", "names", "boards", lambda names: "boards: " + ", ".join(names)),
    "contract": _names_one(
        "contract", "opens", "contracts", lambda _: "declare it: `contract NAME { complete: ... }`"
    ),
    "sticker": _names_one(
        "sticker", "applies", "stickers", lambda _: "declare it: `sticker NAME { ... }`"
    ),
}


@reference_check("campaign reads")
def _check_campaign_reads(refs: Refs) -> list[Diagnostic]:
    """Passages read by the campaign block, and by `read N` in any effects, must be there."""
    ir = refs.ir
    block = ir.get("campaign") or {}
    wanted = [(st["reads"], st["at"], f"status {st['name']}") for st in block.get("statuses", ())]
    wanted += [
        (n, t["at"], f"space {k} of track {t['name']!r}")
        for t in block.get("tracks", ())
        for k, n in t["reads"].items()
    ]
    death = block.get("death") or {}
    if "reads" in death:
        wanted.append((death["reads"], death["at"], "a player death"))
    for node in _all_effects(ir):
        if node.get("op") == "read":
            wanted.append((node["n"], node.get("at"), "`read`"))
    return [
        Diagnostic(
            "CW107",
            f"{what} reads passage {n}, which the pack does not have",
            refs.pack_span(at),
            hint="passages: " + (", ".join(map(str, sorted(refs.numbers))) or "none"),
        )
        for n, at, what in wanted
        if n not in refs.numbers
    ]


@reference_check("campaign tracks")
def _check_track_names(refs: Refs) -> list[Diagnostic]:
    """Every campaign track a word names is one the campaign block declares."""
    return _check_tracks(refs.ir)


def _check_tracks(ir: dict[str, Any]) -> list[Diagnostic]:
    """Every campaign track a word names (`add an X to the TRACK track` in any effects, a
    passage's `mark the TRACK track`, `death marks TRACK`) must be one the pack's campaign
    block declares (`track TRACK { ... }`); names match exactly."""
    block = ir.get("campaign") or {}
    tracks = [t["name"] for t in block.get("tracks", ())]
    named: list[tuple[str, dict[str, Any] | None, str]] = []
    # Cards', tokens' and spaces' lines, and the campaign's parts (some in both: once each).
    nodes = [n for _owner, trig in _triggers(ir) for n in walk_effects(trig["effects"])]
    nodes += _all_effects(ir)
    for node in {id(n): n for n in nodes}.values():
        if node.get("op") == "mark_track":
            named.append((node["track"], node.get("at"), "an effect adds an X to"))
    for ps in ir.get("passages", ()):
        for d in ps["do"]:
            if d["do"] == "mark":
                named.append((d["track"], d["at"], f"passage {ps['number']} marks"))
    death = block.get("death") or {}
    if "marks" in death:
        named.append((death["marks"], death["at"], "a player death marks"))
    diags = []
    for name, at, what in named:
        if name not in tracks:
            diags.append(
                Diagnostic(
                    "CW107",
                    f"{what} track {name!r}, which the campaign does not declare",
                    _span(at) if at else _span(ir["pack"].get("at")),
                    hint=near_miss(name, tracks)
                    or f'declare it: `campaign {{ track "{name}" {{ spaces 10 }} }}`',
                )
            )
    return diags


def _all_effects(ir: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every effect node of the pack's campaign parts and rules (where `read` may stand)."""
    lists: list[list[dict[str, Any]]] = []
    for t in ir.get("triggers", ()):
        lists.append(t.get("effects", []))
    for c in ir.get("steps", ()):
        lists.append(c.get("effects") or [])
    for st in ir.get("stickers", ()):
        lists.append(st.get("effects", []))
        lists.extend(t["effects"] for t in st.get("abilities", ()))
    for c in ir.get("contracts", ()):
        lists.extend(c.get(k, []) for k in ("effects", "start", "end"))
    for p in ir.get("patrons", ()):
        lists.extend(t["effects"] for t in p["triggers"])
    for nodes in lists:
        yield from walk_effects(nodes)


def _conditions(ir: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Every condition of the pack's triggers (a trigger's `if` and nested `if` groups)."""
    for owner, trig in _triggers(ir):
        for cond in leaves(trig.get("if")):
            yield owner, cond
        for node in walk_effects(trig["effects"]):
            for cond in leaves(node.get("cond")):
                yield owner, cond


def _counts(ir: dict[str, Any]) -> Iterator[tuple[dict[str, Any], list[Any]]]:
    """Every count node of the pack, with its owner: `points N per`, `per` and amounts in
    effects, counts in conditions, and the counts a count is made of (`half ...`)."""
    for o in [*ir["cards"], *ir["tokens"]]:
        yield o, _inner_counts([o.get("points_per", {}).get("per")])
    for a in ir.get("awards", ()):
        yield {"name": "rules"}, _inner_counts([a["count"]])
    for owner, trig in _triggers(ir):
        nodes = list(walk_effects(trig["effects"]))
        conds = [*leaves(trig.get("if")), *(c for n in nodes for c in leaves(n.get("cond")))]
        found = [n.get(k) for n in nodes for k in ("per", "count", "counted")]
        found += [c.get(k) for c in conds for k in ("count", "of")]
        yield owner, _inner_counts(found)


def _inner_counts(counts: list[Any]) -> list[Any]:
    """The counts listed and every count they are made of (through `of`)."""
    out = []
    stack = [c for c in counts if isinstance(c, dict)]
    while stack:
        c = stack.pop()
        out.append(c)
        if isinstance(c.get("of"), dict):
            stack.append(c["of"])
    return out


# Effects that take, deal, remove or fight a token named by their `what`, and their verb.
_TAKES = {
    "take_here": "takes",
    "remove_random": "takes",
    "place": "takes",
    "place_on_each": "takes",
    "supply_to_box": "takes",
    "take_random": "takes",
    "deal_random": "deals",
    "take_elsewhere": "takes",
    "defeat_here": "defeats",
    "deal_face_down": "deals",
    "return_held": "returns",
    "return_to_supply": "returns",
}


def _holdable(refs: Refs) -> tuple[set[str], set[str], set[str]]:
    """The words a held or lying token answers to, the same as written (for did-you-mean),
    and those of cube tokens (what `put N WHAT in the clank area` may name)."""
    holdable: set[str] = set()
    shown: set[str] = set()
    cube_words: set[str] = set()
    for t in refs.ir["tokens"]:
        holdable |= token_words(t)
        shown |= {t["name"], t["type"], t["kind"], *t["grants"]}
        if t["kind"] == "cube":
            cube_words |= token_words(t)
    if any("artifact" in s for s in refs.spaces):
        holdable |= {"artifact", "artifacts"}
        shown.add("artifact")
    return holdable, shown, cube_words


@reference_check("conditions' tokens and places")
def _check_conditions(refs: Refs) -> list[Diagnostic]:
    """A condition asking for a token no token of the pack answers to, or for a place no
    space has."""
    diags = []
    holdable, shown, _cubes = _holdable(refs)
    place_words = set(refs.features)
    place_words |= {k for k in ("coach", "waypoint") if any(k in s for s in refs.spaces)}
    for owner, cond in _conditions(refs.ir):
        if (
            cond["cond"] in ("have", "lack", "lying_here", "none_here")
            and not refs.fragment
            and cond["what"].lower() not in holdable
        ):
            asks = (
                f"you have {cond['what']!r}"
                if cond["cond"] in ("have", "lack")
                else f"{cond['what']!r} lies on a space"
            )
            diags.append(
                Diagnostic(
                    "CW107",
                    f"{owner['name']!r} asks whether {asks}, but no token of the pack is "
                    "called that or is of that kind",
                    _span(cond.get("at")),
                    hint=did_you_mean(cond["what"], shown)
                    or "name a token, its type (crown, canoe), or a kind (artifact, secret)",
                )
            )
        elif cond["cond"] == "at" and refs.spaces and not has_feature(place_words, cond["feature"]):
            diags.append(
                Diagnostic(
                    "CW107",
                    f"{owner['name']!r} asks whether you are in {cond['feature']!r}, but no "
                    "space has that feature",
                    _span(cond.get("at")),
                    hint=did_you_mean(feature_stem(cond["feature"]), place_words)
                    or "features: " + ", ".join(sorted(place_words)),
                )
            )
    return diags


@reference_check("counters")
def _check_counters(refs: Refs) -> list[Diagnostic]:
    """A counter an effect or condition names must be declared."""
    diags = []
    counters = {c["name"] for c in refs.ir.get("counters", ())}
    for owner, trig in refs.triggers:
        nodes = list(walk_effects(trig["effects"]))
        tests = [*leaves(trig.get("if")), *(c for n in nodes for c in leaves(n.get("cond")))]
        named = [n for n in nodes if n["op"] == "counter"]
        named += [t for t in tests if t and t.get("cond") == "counter"]
        for n in named:
            if n["name"] not in counters:
                diags.append(
                    Diagnostic(
                        "CW107",
                        f"{owner['name']!r} moves or reads counter {n['name']!r}, which the "
                        "pack does not declare",
                        _span(n.get("at")),
                        hint=near_miss(n["name"], counters)
                        or f"declare it in the rules: `counter {n['name']} max N`",
                    )
                )
    return diags


def _effect_nodes(refs: Refs, ops: Iterable[str]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every effect node of one of ``ops``, with its owner."""
    return [
        (owner, n)
        for owner, trig in refs.triggers
        for n in walk_effects(trig["effects"])
        if n["op"] in ops
    ]


def _wanted_tokens(refs: Refs) -> list[tuple[dict[str, Any], str, Any, str]]:
    """What spaces and paths hold, and what effects and counts take, deal, place, put or
    count, as (owner, what, where, verb)."""
    ir, spaces = refs.ir, refs.spaces
    wanted = [(s, h["what"], h.get("at"), "holds") for s in spaces for h in s.get("holds", ())]
    wanted += [
        (owner, n["what"], n.get("at"), _TAKES[n["op"]])
        for owner, n in _effect_nodes(refs, _TAKES)
        if n.get("what", "token") not in ("token", "any token")
    ]
    wanted += [
        ({"name": f"path {p['from']} -- {p['to']}"}, h["what"], h.get("at"), "holds")
        for b in ir["boards"]
        for p in b["paths"]
        for h in p.get("holds", ())
    ]
    wanted += [
        (owner, n["what"], n.get("at"), "places on a path")
        for owner, n in _effect_nodes(refs, ("place_on_path", "place_random_on_path"))
    ]
    wanted += [
        (owner, n["what"], n.get("at"), "puts in the Clank! area")
        for owner, n in _effect_nodes(refs, ("put_cubes",))
    ]
    wanted += [
        (owner, t["what"], t.get("at"), "counts")
        for owner, tests in _counts(ir)
        for t in tests
        if t and t.get("count") == "held"
    ]
    return wanted


@reference_check("held tokens")
def _check_held_tokens(refs: Refs) -> list[Diagnostic]:
    """What a space or path holds, and what a `take ... here` (and the like) takes, must be
    some token."""
    if refs.fragment:
        return []
    diags = []
    holdable, shown, cube_words = _holdable(refs)
    for owner, what, at, verb in _wanted_tokens(refs):
        cubes = verb.startswith("puts")
        if what.lower() not in (cube_words if cubes else holdable):
            diags.append(
                Diagnostic(
                    "CW107",
                    f"{owner['name']!r} {verb} {what!r}, but no "
                    + ("cube token (`cube N`)" if cubes else "token")
                    + " of the pack is called that or is of that kind",
                    _span(at),
                    hint=did_you_mean(what, shown)
                    or "name a token, its type, or a kind (major secret, fruit)",
                )
            )
    return diags


@reference_check("reserve takes")
def _check_reserve_takes(refs: Refs) -> list[Diagnostic]:
    """A card taken from the reserve (`take 2 "Secret Tome" from the reserve`) must be a
    reserve pile's (a trashed card's name is checked with the other card references)."""
    if refs.fragment:
        return []
    diags = []
    by_key = {c["name"].lower(): c for c in refs.ir["cards"]}
    reserve = [c["name"] for c in refs.ir["cards"] if c["deck"] == "reserve"]
    for owner, n in _effect_nodes(refs, ("take_from_reserve",)):
        card = by_key.get(n["card"].lower())
        if card is None or card["deck"] != "reserve":
            problem = "no pile of the reserve" if card is None else "not a reserve card"
            diags.append(
                Diagnostic(
                    "CW107",
                    f"{owner['name']!r} takes {n['card']!r} from the reserve, but it is {problem}",
                    _span(n.get("at")),
                    hint=did_you_mean(n["card"], reserve)
                    or "reserve piles: " + (", ".join(sorted(reserve)) or "none"),
                )
            )
    return diags


@reference_check("reserve flips")
def _check_reserve_flips(refs: Refs) -> list[Diagnostic]:
    """A flipped reserve monster and the one it turns into are reserve monsters."""
    if refs.fragment:
        return []
    diags = []
    monsters = {
        c["name"].lower(): c
        for c in refs.ir["cards"]
        if c["deck"] == "reserve" and c["type"] == "monster"
    }
    for owner, n in _effect_nodes(refs, ("flip_reserve",)):
        for ref in (n["old"], n["new"]):
            if ref.lower() not in monsters:
                diags.append(
                    Diagnostic(
                        "CW107",
                        f"{owner['name']!r} flips {ref!r}, which is no reserve monster",
                        _span(n.get("at")),
                        hint=did_you_mean(ref, [c["name"] for c in monsters.values()])
                        or "declare it: `reserve NAME { fight N; defeat: ... }`",
                    )
                )
    return diags


@reference_check("artifact values")
def _check_artifacts(refs: Refs) -> list[Diagnostic]:
    """An artifact space holds the artifact token of its value."""
    diags = []
    values = {t["points"] for t in refs.ir["tokens"] if t["kind"] == "artifact"}
    declared = f" (artifacts declared: {', '.join(map(str, sorted(values)))})" if values else ""
    for s in refs.spaces:
        if "artifact" in s and s["artifact"] not in values:
            diags.append(
                Diagnostic(
                    "CW115",
                    f"space {s['name']!r} holds an artifact worth {s['artifact']}, but no "
                    f"artifact token is worth {s['artifact']}",
                    _span(s["at"]),
                    hint=f'declare `token "Some Relic" {{ artifact; points {s["artifact"]} }}`'
                    + declared,
                )
            )
    return diags


@reference_check("reveal triggers")
def _check_reveals(refs: Refs) -> list[Diagnostic]:
    """A token is revealed when a player takes it (a secret, one lying on a space, one from
    the supply) or buys it at a market; an artifact is picked up, never revealed."""
    return [
        Diagnostic(
            "CW102",
            f"`reveal:` never fires on {t['name']!r}: "
            f"{'an' if t['kind'][0] in 'aeiou' else 'a'} {t['kind']} token is "
            "never taken as a revealed token",
            _span(trig["at"]),
            hint="make it a `minor secret` or `major secret`, or use `use:`",
        )
        for t in refs.ir["tokens"]
        for trig in t["triggers"]
        if trig["on"] == "reveal" and t["kind"] == "artifact"
    ]


@reference_check("starting deck")
def _check_starting_deck(refs: Refs) -> list[Diagnostic]:
    """The starting deck holds as many cards as the rules say."""
    starting = [c for c in refs.ir["cards"] if c["deck"] == "starting"]
    size = sum(c["copies"] for c in starting)
    want = refs.ir["rules"]["starting_deck"]
    if not starting or size == want:
        return []
    return [
        Diagnostic(
            "CW110",
            f"the starting deck has {size} cards; the rules say {want}",
            _span(starting[0]["at"]),
            hint="change the `starting N` counts, or set `starting deck N` in rules",
            notes=tuple((f"{c['name']}: {c['copies']}", _span(c["at"])) for c in starting[1:]),
        )
    ]

"""Resources, ways to move and the dragon's name."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clankwork.interpreter.effects import EFFECTS
from clankwork.interpreter.effects.registry import RESOURCE_WORDS
from clankwork.interpreter.resource_props import RESOURCE_PROPERTIES
from clankwork.interpreter.resource_props import defaults as resource_defaults
from clankwork.interpreter.resource_props import shown_words as resource_prop_words
from clankwork.interpreter.resource_props import usage as resource_usage

from ..condition_logic import IF_WORDS
from ..declarations import (
    DRAGON_DEFAULT,
    DRAGON_PROPS,
    LIMIT_WORDS,
    RESOURCE_PROPS,
    WAY_PROPS,
    _text,
)
from ..diagnostics import Span, did_you_mean
from ..limits import RANGES, bad_name_char
from ..parser import Atom, Stmt, atoms_span
from .registry import declaration, part
from .shared import _at

if TYPE_CHECKING:
    from ..compiler import _Compiler


@declaration(
    "resource",
    properties=RESOURCE_PROPS,
    form="resource NAME { per turn | kept; word WORDS }",
    writes=("resources", "resource_aliases"),
)
def resource(c: _Compiler, st: Stmt) -> None:
    """`resource NAME { per turn | kept; word WORDS }`."""
    named = c._name(st, "resource")
    if named is None:
        return
    c._no_effects(st)
    name = named[0].lower()
    res: dict[str, Any] = {"name": name, **resource_defaults(), "at": _at(st.span)}
    clash = RESOURCE_WORDS.get(name)
    if clash is not None and _base_words(c, st, named, clash):
        return
    if clash is not None:
        c.error(
            "CW125",
            f"`{named[0]}` is a base resource ({clash}); a pack cannot declare it again",
            named[1],
            hint="give the new resource another name",
        )
        return
    if name in c.resource_words:
        inherited = name in c.inherited_words
        other = c.resource_words[name]
        c.error(
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
        c._no_effects(s)
        _resource_prop(c, s, name, res)
    c.resource_words[name] = name
    for prop in RESOURCE_PROPERTIES.values():
        for word in res[prop.key] if prop.names else ():
            c.resource_words[word] = name
    c.resources.append(res)


def _resource_prop(c: _Compiler, s: Stmt, name: str, res: dict[str, Any]) -> None:
    """One line of a resource's block, compiled by the property record it writes
    (interpreter/resource_props.py)."""
    words, rest = s.words, s.head[1:]
    prop = next((p for p in RESOURCE_PROPERTIES.values() if p.matches(words)), None)
    if prop is None:
        c.error(
            "CW102",
            f"unknown resource property `{s.head_text()}`",
            s.head[0].span,
            hint=did_you_mean(" ".join(words), resource_prop_words()) or resource_usage(),
        )
    elif not prop.heads or tuple(words) in prop.phrases:
        res[prop.key] = prop.compile(words)
    elif not c._clean(rest):
        return
    elif prop.names:
        _resource_names(c, name, res[prop.key], rest)
    else:
        try:
            res[prop.key] = prop.compile([a.text for a in rest])
        except ValueError as e:
            c.error("CW125", str(e), atoms_span(rest), hint=prop.doc)


def _resource_names(c: _Compiler, name: str, names: list[str], atoms: list[Atom]) -> None:
    """`word WORDS`: other names of the resource, none another resource's."""
    for a in atoms:
        word = a.text.lower()
        if word in RESOURCE_WORDS:
            c.error(
                "CW125",
                f"`{a.text}` already names the base resource {RESOURCE_WORDS[word]}",
                a.span,
                hint="choose a word no base resource uses",
            )
        elif word in c.resource_words or word == name or word in names:
            if word != name and word not in names:
                c.error(
                    "CW125",
                    f"`{a.text}` already names the resource {c.resource_words[word]}",
                    a.span,
                    hint="choose a word no other resource uses",
                )
        else:
            names.append(word)


@declaration("way", properties=WAY_PROPS, form="way NAME { paid in RESOURCE }", writes=("ways",))
def way(c: _Compiler, st: Stmt) -> None:
    """`way NAME { paid in RESOURCE; requires WORD; exhausts; usable while exhausted;
    teleport can|can't }`."""
    named = c._name(st, "way")
    if named is None:
        return
    c._no_effects(st)
    way: dict[str, Any] = {
        "name": named[0].lower(),
        "paid_in": "boots",
        "requires": [],
        "exhausts": False,
        "while_exhausted": False,
        "teleport": True,
        "at": _at(st.span),
    }
    if any(w["name"] == way["name"] for w in c.ways):
        c.error("CW127", f"way `{named[0]}` is declared twice", named[1], hint="keep one")
        return
    for s in st.block or []:
        _way_prop(c, way, s)
    c.ways.append(way)


def _way_prop(c: _Compiler, way: dict[str, Any], s: Stmt) -> None:
    """One property line of a way's block."""
    c._no_effects(s)
    words, rest = s.words, s.head[1:]
    if words[:2] == ["paid", "in"] and len(words) > 2:
        way["paid_in"] = _text(s.head[2:])
        way["paid_at"] = _at(atoms_span(s.head[2:]))
    elif words[0] == "requires" and rest:
        if c._clean(rest):
            way["requires"].append(_text(rest))
    elif words == ["exhausts"]:
        way["exhausts"] = True
    elif words in (["usable", "while", "exhausted"], ["while", "exhausted"]):
        way["while_exhausted"] = True
    elif words[0] == "within" and rest:
        # `within "section 1" "section 2"`: the way joins every two spaces that share
        # one of these features (a move anywhere inside a group of spaces).
        if c._clean(rest):
            way.setdefault("within", []).extend(
                a.text.lower() for a in rest if a.text.lower() not in way.get("within", ())
            )
    elif words[0] == "cost" and len(rest) == 1 and rest[0].kind == "number":
        # The price of a `within` move, in the way's resource (0: free).
        value = c._in_range(rest[0], "a way's cost", RANGES["way cost"])
        if value is not None:
            way["cost"] = value
    elif words[:2] == ["blocked", "by"] and len(rest) > 1:
        # A token lying on a space closes this way there (to and from it).
        if c._clean(rest[1:]):
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
        c.error(
            "CW102",
            f"unknown way property `{s.head_text()}`",
            s.head[0].span,
            hint=did_you_mean(" ".join(words), WAY_PROPS)
            or "a way takes `paid in RESOURCE`, `requires WORD`, `exhausts`, "
            "`usable while exhausted`, `teleport can` / `teleport can't` and "
            "`within FEATURE...`",
        )


@declaration(
    "dragon",
    properties=DRAGON_PROPS,
    form='dragon { name "Some Name"; word WORD }',
    writes=("dragon",),
)
def dragon(c: _Compiler, st: Stmt) -> None:
    """`dragon { name "Lord Eradikus"; word boss }`: what the pack calls the antagonist
    who attacks, in every output made for people ("Lord Eradikus attacks", "boss bag",
    "boss cubes"). `name` is its name in a sentence (the default is "the " and the word),
    `word` the word for its bag, its cubes and its attacks ("dragon" when left out).
    Display only: the game plays the same. An extension's declaration replaces its
    base's."""
    form = 'write `dragon { name "Some Name"; word WORD }`'
    if len(st.head) > 1:
        c.error(
            "CW105",
            "`dragon` takes no name on its line; its names go in its block",
            atoms_span(st.head[1:]),
            hint=form,
        )
        return
    c._no_effects(st)
    if not st.block:
        c.error("CW105", "`dragon` needs a block", st.span, hint=form)
        return
    if c.dragon is not None:
        c.error(
            "CW106",
            "the dragon is named twice",
            st.head[0].span,
            hint="keep one `dragon` declaration (the first is at "
            f"{c.dragon['at']['file']}:{c.dragon['at']['line']})",
        )
        return
    got: dict[str, str] = {}
    for s in st.block:
        _dragon_prop(c, got, s)
    word = got.get("word", DRAGON_DEFAULT["word"])
    c.dragon = {"name": got.get("name", f"the {word}"), "word": word, "at": _at(st.span)}


def _dragon_prop(c: _Compiler, got: dict[str, str], s: Stmt) -> None:
    """One line of the dragon's block, into ``got`` (its name or its word)."""
    c._no_effects(s)
    key, rest = s.words[0], s.head[1:]
    if key not in DRAGON_PROPS:
        c.error(
            "CW102",
            f"unknown dragon property `{s.head_text()}`",
            s.head[0].span,
            hint=did_you_mean(key, DRAGON_PROPS)
            or 'a dragon takes `name "Some Name"` and `word WORD`',
        )
        return
    if key in got:
        c.error(
            "CW106",
            f"the dragon's `{key}` is given twice",
            s.head[0].span,
            hint=f"keep one `{key}` line",
        )
        return
    if len(rest) != 1 or rest[0].kind not in ("word", "string") or not rest[0].text.strip():
        c.error(
            "CW105",
            f"the dragon's `{key}` takes one word or one quoted text",
            atoms_span(rest) if rest else s.span,
            hint='write `name "Lord Eradikus"` or `word boss` (quote words with spaces)',
        )
        return
    if c._clean(rest):
        got[key] = rest[0].text.strip()


part(
    "action",
    inside="an `action` line goes inside a `space` or a `token` block",
    doc="`action [NAME] [once per turn|game|module] [if CONDITION]: [PRICE ->] EFFECTS` in a "
    "space or a token: an action offered to the player there or holding it.",
    form="action NAME once per game: pay 2 boots -> +3 gold",
)


def _base_words(c: _Compiler, st: Stmt, named: tuple[str, Span], base: str) -> bool:
    """`resource gold { word coins coin }`: other words for a base resource (a game
    that calls its gold by another name). True when the declaration is only that."""
    body = st.block or []
    if not body or any(s.words[0] not in ("word", "words") or not s.head[1:] for s in body):
        return False
    for s in body:
        c._no_effects(s)
        if not c._clean(s.head[1:]):
            continue
        for a in s.head[1:]:
            word = a.text.lower()
            if word in RESOURCE_WORDS or word in c.resource_words:
                c.error(
                    "CW125",
                    f"`{a.text}` already names a resource",
                    a.span,
                    hint="choose a word no resource uses",
                )
            else:
                c.resource_words[word] = base
                c.resource_aliases[word] = base
    return True


def action_line(c: _Compiler, owner: dict[str, Any], s: Stmt) -> None:
    """`action [NAME] [once per turn|once per game]: [PRICE ->] EFFECTS` in a space or a
    token: appended to ``owner["actions"]``."""
    head = s.head[1:]
    if s.block is not None:
        c.error("CW128", "an action does not take a block", s.block_span, hint="remove { }")
        return
    if s.effects is None:
        c.error(
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
            c.error("CW128", "`if` needs a condition", s.span, hint="action hack if ...: ...")
            return
        cond = c._condition(cond_atoms, deny)
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
        c.error(
            "CW128",
            f"unknown limit `{' '.join(a.source() for a in bad)}`",
            atoms_span(bad),
            hint=did_you_mean(_text(bad), [" ".join(k) for k in LIMIT_WORDS])
            or "an action's limit is `once per turn`, `once per game` or `once per module`",
        )
        return
    if head:
        name = _action_name(c, head)
        if name is None:
            return
        node["name"] = name
    effects = c.effects(s.effects)
    if effects is None:
        return
    if not effects:
        c.error("CW128", "an action needs at least one effect", s.span)
        return
    node["cost"], node["effects"] = _price_and_effects(effects)
    owner.setdefault("actions", []).append(node)


def _action_name(c: _Compiler, head: list[Atom]) -> str | None:
    """An action's name from the words before its limit, or None (reported)."""
    for a in head:
        if a.kind not in ("word", "string") or bad_name_char(str(a.value)) is not None:
            c.error(
                "CW128",
                f"`{' '.join(a.source() for a in head)}` cannot name an action",
                atoms_span(head),
                hint='name it with words or a quoted name: `action "Pray" once per game: ...`',
            )
            return None
    # A misspelt `unless` would read as part of a name of several bare words.
    for a in head[1:]:
        hint = did_you_mean(a.text, ["unless"]) if a.kind == "word" else None
        if hint is not None and len(a.text) > 3:
            c.error(
                "CW128",
                f"`{a.text}` in the action's name `{_text(head)}`",
                a.span,
                hint=hint + " (`action NAME unless CONDITION: ...`)",
            )
            return None
    return " ".join(a.text for a in head)


def _price_and_effects(
    effects: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """An action's price and the effects it buys. A price the player must pay (`pay 2 boots
    -> ...`) decides whether the action is offered at all: kept apart from the effects."""
    if len(effects) == 1 and effects[0]["op"] == "pay" and not effects[0]["optional"]:
        return effects[0]["cost"], effects[0]["then"]
    if len(effects) == 1 and EFFECTS[effects[0]["op"]].payable:
        # An action that is one price and nothing more (`defeat a guard here with 3
        # swords`) is offered only when that price can be paid.
        return effects, []
    return [], effects

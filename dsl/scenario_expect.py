"""How the scenario compiler reads `expect`: the expectations with forms of their own (`expect
can ACTION`, `expect tunnel A -- B has TOKEN`...) by their first word, and every other fact by
its record's words (interpreter/scenario_checks.py) and the shape of its value, each shape
read by its registered reader (dsl/scenario_words.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .diagnostics import did_you_mean
from .parser import Atom, Stmt, atoms_span
from .scenario_facts import boxes_problem, counter_problem
from .scenario_words import FORMS, SHAPES, at, compiles, form, is_none, lower, shape

if TYPE_CHECKING:
    from .scenarios import _ScenarioCompiler

EXPECT_FORMS = (
    "expect player N FACT VALUE",
    "expect rage N",
    "expect bag N",
    "expect row has CARD",
    "expect adventure discard N",
    "expect reserve CARD N",
    "expect space SPACE has TOKEN",
    "expect can ACTION",
    "expect cannot ACTION",
    "expect moves to SPACE...",
    "expect teleports to SPACE...",
    "expect winner N",
    "expect game over",
)


@compiles("expect")
def expect(c: _ScenarioCompiler, sc: dict[str, Any], s: Stmt, rest: list[Atom]) -> None:
    """One `expect` statement: a form of its own, a player's fact or the game's."""
    step: dict[str, Any] = {"do": "expect", "at": at(s.span)}
    if not rest:
        c.error("CW105", "expect what?", s.span, hint="forms: " + ", ".join(EXPECT_FORMS))
        return
    read = FORMS.get(str(lower(rest[:1])[0]))
    done = read(c, step, s, rest) if read is not None else False
    if done is False:
        done = fact(c, step, s, rest, c.game_facts, "") or None
    if done is not None and "fact" in step:
        sc["steps"].append(step)


@form("can", "cannot")
def _can(c: _ScenarioCompiler, step: dict[str, Any], s: Stmt, rest: list[Atom]) -> bool | None:
    if len(rest) < 2:
        return False
    said = str(lower(rest[:1])[0])
    named = len(c.pending.designs)
    action = c.action_step(rest[1:], atoms_span(rest[1:]))
    if said == "cannot":
        # What a board lacks may be named: `expect cannot acquire Lantern` there.
        del c.pending.designs[named:]
    if action is None:
        return None
    if action["do"] in ("answer", "yes", "no"):
        c.error(
            "CW105",
            f"`expect {said}` takes an action, not an answer",
            s.span,
            hint="expect cannot end turn / expect can move X",
        )
        return None
    step.update(fact="can", value=said == "can", action=action)
    return True


@form("moves", "teleports")
def _reach(c: _ScenarioCompiler, step: dict[str, Any], s: Stmt, rest: list[Atom]) -> bool | None:
    words = lower(rest)
    if words[1:2] != ["to"] or len(rest) <= 2:
        return False
    found = [c.space(a) for a in rest[2:]]
    spaces = [x for x in found if x is not None]
    if len(spaces) != len(found):
        return None
    step.update(fact=words[0], value=sorted(spaces))
    return True


@form("game")
def _game(c: _ScenarioCompiler, step: dict[str, Any], s: Stmt, rest: list[Atom]) -> bool | None:
    words = lower(rest)
    if words[1:] not in (["over"], ["not", "over"]):
        return False
    step.update(fact="over", value=words[1] == "over")
    return True


@form("switch")
def _switch(c: _ScenarioCompiler, step: dict[str, Any], s: Stmt, rest: list[Atom]) -> bool | None:
    if len(rest) != 3:
        return False
    switch = c.switch(s, rest[1:])
    if switch is None:
        return None
    step.update(fact="switch", switch=switch[0], value=switch[1])
    return True


@form("tunnel", "path")
def _path(c: _ScenarioCompiler, step: dict[str, Any], s: Stmt, rest: list[Atom]) -> bool | None:
    if len(rest) < 6 or rest[2].kind != "link":
        return False
    path = c.path(s, rest[:4])
    tail = lower(rest)[4:]
    if path is None:
        return None
    if tail in (["is", "blocked"], ["is", "open"]):
        step.update(fact="path", path=path, value=tail[1])
    elif tail[0] == "has" and tail[1:-1] in ([], ["no"], ["token"], ["no", "token"]):
        token = c.ref(rest[-1], c.tokens, "token")
        if token is None:
            return None
        fact_name = "path has no" if tail[1] == "no" else "path has"
        step.update(fact=fact_name, path=path, value=token)
    else:
        c.error(
            "CW105",
            "expect tunnel A -- B is blocked|open, or has [no] TOKEN",
            s.span,
            hint="expect tunnel Hall -- Cellar has Spike",
        )
        return None
    return True


@form("space")
def _space(c: _ScenarioCompiler, step: dict[str, Any], s: Stmt, rest: list[Atom]) -> bool | None:
    words = lower(rest)
    if len(rest) < 4 or words[2] != "has":
        return False
    space = c.space(rest[1])
    negate = words[3] == "no" and len(rest) == 5
    if len(rest) != (5 if negate else 4):
        c.error("CW105", "expect space SPACE has [no] TOKEN", s.span)
        return None
    token = c.ref(rest[-1], c.tokens, "token")
    if space is None or token is None:
        return None
    step.update(fact="space has no" if negate else "space has", space=space, value=token)
    return True


@form("player")
def _player(c: _ScenarioCompiler, step: dict[str, Any], s: Stmt, rest: list[Atom]) -> bool | None:
    if len(rest) < 2 or rest[1].kind != "number":
        return False
    seat = c.seat(rest[1], "expect player")
    if seat is None:
        return None
    step["seat"] = seat
    if not fact(c, step, s, rest[2:], c.player_facts, f"player {step['seat']} "):
        return None
    step["fact"] = c.resource_words.get(step["fact"], step["fact"])
    return True


def _longest(words: list[str | None], table: dict[tuple[str, ...], str]) -> tuple[str, ...] | None:
    """The longest fact name in ``table`` that ``words`` starts with."""
    best = None
    for key in table:
        if tuple(words[: len(key)]) == key and (best is None or len(key) > len(best)):
            best = key
    return best


def fact(
    c: _ScenarioCompiler,
    step: dict[str, Any],
    s: Stmt,
    atoms: list[Atom],
    table: dict[tuple[str, ...], str],
    prefix: str,
) -> bool:
    """Read `FACT VALUE` into ``step``; False (with a diagnostic) when it does not read."""
    words = lower(atoms)
    key = _longest(words, table)
    if key is None:
        _unknown(c, s, atoms, table, prefix)
        return False
    name = " ".join(key)
    form_of = table[key]
    args = atoms[len(key) :]
    longer = [" ".join(k) for k in table if len(k) > len(key) and k[: len(key)] == key]
    if len(args) != SHAPES[form_of].arity and longer and args and args[0].kind == "word":
        # `expect row hs Dryad`: a misspelt longer fact, not a wrong value.
        said = f"{name} {args[0].text}"
        c.error(
            "CW102",
            f"unknown expectation `expect {prefix}{said}`",
            args[0].span,
            hint=did_you_mean(said, longer) or "facts: " + ", ".join(longer),
        )
        return False
    if len(args) != SHAPES[form_of].arity:
        c.error(
            "CW105",
            f"expect {prefix}{name} takes {SHAPES[form_of].words}",
            s.span,
            hint=f"expect {prefix}{name} {SHAPES[form_of].example}",
        )
        return False
    return SHAPES[form_of].read(c, step, s, name, prefix, args)


def _unknown(
    c: _ScenarioCompiler,
    s: Stmt,
    atoms: list[Atom],
    table: dict[tuple[str, ...], str],
    prefix: str,
) -> None:
    """CW102 for words that begin no fact, with the nearest fact or the list of them."""
    words = lower(atoms)
    said = " ".join(a.source() for a in atoms[:1])
    choices = [" ".join(k) for k in table]
    hint = None
    # Compare as many words as each fact has: `adventure discrd` is close to
    # `adventure discard`, and nearer than `adventure deck`.
    plain = len(words) if None not in words else words.index(None)
    for n in range(min(plain, 4), 0, -1):
        said_n = " ".join(str(w) for w in words[:n])
        same = [ch for ch in choices if len(ch.split()) == n]
        if same and (hint := did_you_mean(said_n, same)):
            said = " ".join(a.source() for a in atoms[:n])
            break
    if not prefix:
        hint = hint or did_you_mean(str(words[0] or ""), ["player", "space", "game"])
    c.error(
        "CW102",
        f"unknown expectation `expect {prefix}{said}`".replace("  ", " "),
        atoms[0].span if atoms else s.span,
        hint=hint
        or (
            "facts: " + ", ".join(sorted(set(choices)))
            if prefix
            else "forms: " + ", ".join(EXPECT_FORMS)
        ),
    )


# The shapes of a fact's value, each with how a message says it and an example.


@shape("int card", "a number and a card", "6 Burgle", arity=2)
def _int_card(
    c: _ScenarioCompiler, step: dict[str, Any], s: Stmt, fact: str, prefix: str, args: list[Atom]
) -> bool:
    n, card = args
    if n.kind != "number":
        c.error("CW105", f"expect {prefix}{fact} takes a number, then a card", n.span)
        return False
    name = c.ref(card, c.cards, "card")
    value = c.in_range(n, f"expect {prefix}{fact}", "expected")
    if name is None or value is None:
        return False
    step.update(fact=fact, card=name, value=value)
    return True


@shape("card int", "a card and a number", "Explore 14", arity=2)
def _card_int(
    c: _ScenarioCompiler, step: dict[str, Any], s: Stmt, fact: str, prefix: str, args: list[Atom]
) -> bool:
    card, n = args
    pool = c.reserve if fact == "reserve" else c.cards
    name = c.ref(card, pool, "reserve card" if fact == "reserve" else "card")
    if name is None:
        return False
    if n.kind != "number":
        c.error("CW105", f"expect {fact} CARD takes a number after the card", n.span)
        return False
    value = c.in_range(n, f"expect {fact}", "expected")
    if value is None:
        return False
    step.update(fact=fact, card=name, value=value)
    return True


def _named_count(
    c: _ScenarioCompiler, step: dict[str, Any], s: Stmt, fact: str, prefix: str, args: list[Atom]
) -> bool:
    """`goal NAME N`, `counter NAME N`, `track NAME N`: a declared name and a number."""
    pool, what = {
        "goal": (c.goals, "goal"),
        "counter": (c.counters, "counter"),
        "track": (c.tracks, "campaign track"),
    }[fact]
    name_atom, n = args
    named = len(c.pending.designs)
    name = c.ref(name_atom, pool, what)
    if name is None:
        return False
    if n.kind != "number":
        said = "player N goal" if fact == "goal" else fact
        c.error("CW105", f"expect {said} NAME takes a number after the name", n.span)
        return False
    value = c.in_range(n, f"expect {fact}", "expected" if fact == "track" else "scenario count")
    if value is None:
        return False
    if fact == "goal":
        if not c.fits(boxes_problem(c.facts, name, value, n.span)):
            return False
        if value > 0:
            # Only its owner fills a goal's boxes (another player's stays at 0).
            c.pending.goals.append((name, name_atom.span, step["seat"]))
    if fact == "counter" and not c.fits(counter_problem(c.facts, name, value, n.span)):
        return False
    if fact == "counter" and value == 0:
        # A counter the board does not keep reads 0: `expect counter doom 0` says it is not
        # in play there (as `expect cannot acquire Lantern` names what a board lacks).
        del c.pending.designs[named:]
    step.update({"fact": fact, fact: name, "value": value})
    return True


shape("counter int", "a counter and a number", "doom 2", arity=2)(_named_count)
shape("track int", "a campaign track and a number", '"Rival Guild" 1', arity=2)(_named_count)
shape("goal int", "a personal goal and a number", '"Monster Hunter" 1', arity=2)(_named_count)


@shape("seat int", "a player number and a count", "1 3", arity=2)
def _seat_int(
    c: _ScenarioCompiler, step: dict[str, Any], s: Stmt, fact: str, prefix: str, args: list[Atom]
) -> bool:
    seat, n = args
    if seat.kind != "number" or n.kind != "number":
        c.error("CW105", f"expect {fact} takes a player number and a count", s.span)
        return False
    of = c.seat(seat, f"expect {fact}")
    value = c.in_range(n, f"expect {fact}", "expected")
    if of is None or value is None:
        return False
    step.update(fact=fact, of=of, value=value)
    return True


# What a value reader gives for a value of another form, and for `none` (a value of None).
_WRONG, _NONE = object(), object()


def _single(name: str, words: str, example: str) -> Callable[[Callable[..., Any]], Any]:
    """Register the decorated ``value(c, atom, fact, prefix)`` as the reader of a one-atom
    shape: it gives the value, None when reported, `_WRONG` for a value of another form."""

    def register(value: Callable[..., Any]) -> Any:
        def read(
            c: _ScenarioCompiler,
            step: dict[str, Any],
            s: Stmt,
            fact: str,
            prefix: str,
            args: list[Atom],
        ) -> bool:
            got = value(c, args[0], fact, prefix)
            if got is _WRONG:
                c.error("CW105", f"expect {prefix}{fact} takes {words}", args[0].span)
                return False
            if got is None:
                return False
            step.update(fact=fact, value=None if got is _NONE else got)
            return True

        shape(name, words, example)(read)
        return value

    return register


@_single("int", "a number", "2")
def _int(c: _ScenarioCompiler, a: Atom, fact: str, prefix: str) -> Any:
    if a.kind not in ("number", "signed"):
        return _WRONG
    return c.in_range(a, f"expect {prefix}{fact}", "expected")


@_single("bool", "yes or no", "yes")
def _bool(c: _ScenarioCompiler, a: Atom, fact: str, prefix: str) -> Any:
    if a.text.lower() not in ("yes", "no", "true", "false"):
        return _WRONG
    return a.text.lower() in ("yes", "true")


@_single("word", "on, escaped or knocked", "escaped")
def _word(c: _ScenarioCompiler, a: Atom, fact: str, prefix: str) -> Any:
    if a.text.lower() not in ("on", "escaped", "knocked"):
        return _WRONG
    return {"knocked": "knocked out"}.get(a.text.lower(), a.text.lower())


@_single("space", "a space", '"Front Gate"')
def _space_value(c: _ScenarioCompiler, a: Atom, fact: str, prefix: str) -> Any:
    return c.space(a)


@_single("card", "a card", "Burgle")
def _card(c: _ScenarioCompiler, a: Atom, fact: str, prefix: str) -> Any:
    return c.ref(a, c.cards, "card")


@_single("token", "a token", "Mug")
def _token(c: _ScenarioCompiler, a: Atom, fact: str, prefix: str) -> Any:
    return c.ref(a, c.tokens, "token")


@_single("token?", "a token or none", "none")
def _artifact(c: _ScenarioCompiler, a: Atom, fact: str, prefix: str) -> Any:
    # `artifact TOKEN`, the only fact of this shape
    return _NONE if is_none([a]) else c.artifact(a)


@_single("status", "a status (a name, or a prohibition in quotes)", "dizzy")
def _status(c: _ScenarioCompiler, a: Atom, fact: str, prefix: str) -> Any:
    return a.text.lower() if a.kind in ("word", "string") else _WRONG


@_single("seat", "a player number", "1")
def _seat(c: _ScenarioCompiler, a: Atom, fact: str, prefix: str) -> Any:
    return c.seat(a, f"expect {fact}") if a.kind == "number" else _WRONG


@_single("rage", "a rage space (from 1)", "3")
def _rage(c: _ScenarioCompiler, a: Atom, fact: str, prefix: str) -> Any:
    if a.kind != "number":
        return _WRONG
    value = c.in_range(a, "expect rage", "rage")
    if value is not None:
        c.pending.rage.append((value, a.span, "expect rage"))
    return value


@_single("passage", "a passage number", "17")
def _passage(c: _ScenarioCompiler, a: Atom, fact: str, prefix: str) -> Any:
    return c.in_range(a, "a passage number", "passage") if a.kind == "number" else _WRONG

"""Reference checks on compiled IR: duplicate names, undefined cards, tokens and spaces."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .diagnostics import Diagnostic, Span, did_you_mean


def _span(at: dict[str, Any] | None) -> Span | None:
    return Span.from_ir(at) if at else None


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
    for owner in [*ir["cards"], *ir["tokens"]]:
        for trig in owner["triggers"]:
            yield owner, trig


def check_references(ir: dict[str, Any]) -> list[Diagnostic]:
    """Duplicate and undefined names, and the starting deck size."""
    diags: list[Diagnostic] = []

    def dupes(items: list[dict[str, Any]], what: str) -> None:
        seen: dict[str, dict[str, Any]] = {}
        for it in items:
            key = it["name"].lower()
            if key in seen:
                diags.append(
                    Diagnostic(
                        "CW106",
                        f"{what} {it['name']!r} is declared twice",
                        _span(it["at"]),
                        hint="rename one of them, or merge them and use `copies N`",
                        notes=((f"first {what} {it['name']!r} is here", _span(seen[key]["at"])),),
                    )
                )
            else:
                seen[key] = it

    dupes(ir["cards"], "card")
    dupes(ir["tokens"], "token")
    dupes(ir["boards"], "board")
    card_names = {c["name"].lower(): c["name"] for c in ir["cards"]}
    tags = {t for c in ir["cards"] for t in c["tags"]}
    token_names = {t["name"].lower(): t["name"] for t in ir["tokens"]}
    features: set[str] = set()
    for board in ir["boards"]:
        dupes(board["spaces"], "space")
        features |= {f for s in board["spaces"] for f in s["features"]}
        names = {s["name"].lower(): s["name"] for s in board["spaces"]}
        for path in board["paths"]:
            for end in ("from", "to"):
                if path[end] is None or path[end].lower() in names:
                    continue
                diags.append(
                    Diagnostic(
                        "CW107",
                        f"path {end} {path[end]!r}: no space of that name on board "
                        f"{board['name']!r}",
                        _span(path.get(f"{end}_at")),
                        hint=did_you_mean(path[end], names.values())
                        or f"declare `space {path[end]!r}` on the board",
                    )
                )

    for owner, trig in _triggers(ir):
        for node in walk_effects(trig["effects"]):
            ref, pool, what = None, None, ""
            if node["op"] == "trash" and "card" in node:
                ref, pool, what = node["card"], {**card_names, **{t: t for t in tags}}, "card"
            elif node["op"] == "token":
                ref, pool, what = node["token"], token_names, "token"
            if ref is not None and pool is not None and ref.lower() not in pool:
                diags.append(
                    Diagnostic(
                        "CW107",
                        f"{owner['name']!r} refers to {what} {ref!r}, which the pack does not "
                        "declare",
                        _span(node.get("at")),
                        hint=did_you_mean(ref, pool.values()) or f"declare the {what} first",
                    )
                )
    tag_pool = {**card_names, **{t: t for t in tags}}
    for owner, trig in _triggers(ir):
        tests = [trig.get("if")] + [n.get("cond") for n in walk_effects(trig["effects"])]
        tests += [n.get("per") for n in walk_effects(trig["effects"])]
        tests += [owner.get("points_per", {}).get("per")]
        for t in tests:
            if not t or "tag" not in t and "card" not in t:
                continue
            ref = t.get("tag") or t.get("card")
            if ref.lower() not in tag_pool:
                diags.append(
                    Diagnostic(
                        "CW107",
                        f"{owner['name']!r} counts {ref!r}, which is neither a card nor a tag "
                        "of the pack",
                        _span(t.get("at")),
                        hint=did_you_mean(ref, tag_pool.values())
                        or "tag cards with `companion`, `tag WORD` or `faction WORD`",
                    )
                )
    for card in ir["cards"]:
        where = card.get("only_in")
        if where and ir["boards"] and where not in features:
            diags.append(
                Diagnostic(
                    "CW107",
                    f"{card['name']!r} is only in {where!r}, but no space has that feature",
                    _span(card["at"]),
                    hint=did_you_mean(where, features)
                    or "known features: " + ", ".join(sorted(features)),
                )
            )

    starting = [c for c in ir["cards"] if c["deck"] == "starting"]
    size = sum(c["copies"] for c in starting)
    want = ir["rules"]["starting_deck"]
    if starting and size != want:
        diags.append(
            Diagnostic(
                "CW110",
                f"the starting deck has {size} cards; the rules say {want}",
                _span(starting[0]["at"]),
                hint="change the `starting N` counts, or set `starting deck N` in rules",
                notes=tuple((f"{c['name']}: {c['copies']}", _span(c["at"])) for c in starting[1:]),
            )
        )
    return diags

"""Packs that extend packs: finding the base, and laying an extension's changes over it.

`pack NAME { extends acqinc }` builds on a bundled pack (a bare word: the folders of the
installed `clankwork.content`); `extends "../base"` builds on a pack folder given by a path
(a quoted string), relative to the extension's folder. The compiler compiles the base first
(recursively: a base may extend another), then compiles the extension and lays it over the
base here, on the compiled IR:

- a new declaration adds a design, a token, a board, a space or a path
  (`board overworld { ... }` adds to the base's board of that name);
- `replace KIND NAME { ... }` replaces a design whole (the base's position is kept);
- `remove KIND NAME` removes one (`remove path A -- B`; a removed space takes its paths);
- `change KIND NAME { ... }` changes only the properties it gives;
- a `rules` block changes the base's rule values (the compiler starts the extension's rules
  from the base's, so a rule not given keeps the base's value and its source line).

Where a base may be (the untrusted-packs rule, docs/untrusted-packs.md): a bundled name, or a
path that, after links are resolved, leads to a folder strictly inside the folder that holds
the extension's folder (a sibling such as `"../base"`, or a folder below one). A path out of
that folder, an absolute path or a link leading out is refused (CW005) and nothing of it is
read. The base's files are read through `PackReader` rooted at the base's own folder, so its
includes are contained in it; the pack size and file limits cover an extension and all its
bases together, and a chain of bases nests at most `limits.MAX_INCLUDE_DEPTH` deep (CW007).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from clankwork.interpreter.design_edits import apply_change

from . import limits
from .diagnostics import Diagnostic, Span, did_you_mean, quote_name
from .parser import Atom
from .resolve import name_key, near_miss

VERBS = ("replace", "remove", "change")
"""The declarations that edit what a base pack declares."""

CARD_KINDS = ("card", "monster", "event", "reserve")
EDIT_KINDS: dict[str, tuple[str, ...]] = {
    "replace": (*CARD_KINDS, "token", "board", "space"),
    "remove": (*CARD_KINDS, "token", "board", "space", "path"),
    "change": (*CARD_KINDS, "token", "space", "path"),
}
"""What each verb can name."""


# The IR fields a property word sets, for the `change` of a property whose value may equal
# the default (`change card X { copies 1 }` when the base has 3): a field whose compiled value
# differs from the declaration's default is taken too, so a property added to the language
# later is changed without a line here.
_WORD_FIELDS: dict[str, tuple[str, ...]] = {
    "copies": ("copies",),
    "cost": ("cost",),
    "fight": ("fight",),
    "points": ("points", "points_per"),
    "starting": ("deck", "copies"),
    "dragon": ("dragon",),
    "danger": ("danger",),
    "only": ("only_in",),
    "not": ("not_in",),
    "art": ("art",),
    "gold": ("gold",),
    "count": ("count",),
    "type": ("type",),
    "returns": ("returns",),
    "return": ("returns",),
    "major": ("kind", "count"),
    "minor": ("kind", "count"),
    "market": ("kind", "count"),
    "artifact": ("kind", "count", "artifact"),
    "mug": ("kind", "count"),
    "fruit": ("kind", "count"),
    "mystic": ("kind", "count"),
    "coach": ("coach",),
    "waypoint": ("waypoint",),
    "at": ("pos",),
    "boots": ("boots",),
    "footprints": ("boots",),
    "monsters": ("monsters",),
}


@dataclass
class Edit:
    """One `replace`, `remove` or `change` of an extension, compiled but not yet applied.

    ``item`` is the compiled replacement (replace) or the compiled change body (change);
    ``fields`` the IR fields a change sets; ``name_span`` is where the edit names its target.
    For a path, ``name`` is "A -- B" and ``ends`` holds (from, to, oneway)."""

    verb: str
    kind: str
    name: str
    span: Span
    name_span: Span
    board: str | None = None
    item: dict[str, Any] | None = None
    fields: tuple[str, ...] = ()
    ends: tuple[str, str, bool] | None = None


def edit_to_ir(e: Edit) -> dict[str, Any]:
    """An edit as IR data (a sticker's board and card changes are kept in the IR)."""
    out: dict[str, Any] = {
        "verb": e.verb,
        "kind": e.kind,
        "name": e.name,
        "at": e.span.to_ir(),
        "name_at": e.name_span.to_ir(),
    }
    if e.board is not None:
        out["board"] = e.board
    if e.item is not None:
        out["item"] = e.item
    if e.fields:
        out["fields"] = list(e.fields)
    if e.ends is not None:
        out["ends"] = list(e.ends)
    return out


def edit_from_ir(d: dict[str, Any]) -> Edit:
    """The edit `edit_to_ir` wrote."""
    return Edit(
        d["verb"],
        d["kind"],
        d["name"],
        Span.from_ir(d["at"]),
        Span.from_ir(d["name_at"]),
        board=d.get("board"),
        item=d.get("item"),
        fields=tuple(d.get("fields", ())),
        ends=tuple(d["ends"]) if d.get("ends") else None,  # type: ignore[arg-type]
    )


def apply_edits(ir: dict[str, Any], edits: list[Edit], owner: str) -> list[Diagnostic]:
    """Apply edits to ``ir`` in place (a sticker's, on the pack it is for); the CW122
    diagnostics of edits whose target ``ir`` lacks, which are skipped."""
    over = _Overlay(ir, owner, "the pack")
    over.run(edits, [], [], [], [])
    return over.diags


def add_to_boards(ir: dict[str, Any], boards: list[dict[str, Any]], owner: str) -> list[Diagnostic]:
    """Add the spaces and paths of ``boards`` to ``ir``'s boards of the same names, in place
    (a board sticker's); CW122 for a board ``ir`` lacks or a path to a space nowhere on it,
    CW123 for a space or path it has already."""
    over = _Overlay(ir, owner, "the pack")
    for board in boards:
        base = next((b for b in ir["boards"] if b["name"] == board["name"]), None)
        if base is None:
            over.diags.append(
                Diagnostic(
                    "CW122",
                    f"the pack {owner} has no board named {board['name']!r}",
                    Span.from_ir(board["at"]),
                    hint=near_miss(board["name"], [b["name"] for b in ir["boards"]])
                    or "name a board of the pack",
                )
            )
            continue
        over.add_board(board)
        names = {name_key(sp["name"]) for sp in base["spaces"]}
        for p in board["paths"]:
            for end in (p["from"], p["to"]):
                if end is not None and name_key(end) not in names:
                    over.diags.append(
                        Diagnostic(
                            "CW122",
                            f"path {p['from']} -- {p['to']}: board {base['name']!r} has no "
                            f"space named {end!r}",
                            Span.from_ir(p["at"]),
                            hint=near_miss(end, [sp["name"] for sp in base["spaces"]])
                            or "add the space in the same board block",
                        )
                    )
    return over.diags


# -- where a base is -------------------------------------------------------------------------


def bundled_packs() -> dict[str, Path]:
    """The packs shipped with Clankwork, folder name → folder: the real folders of the
    installed `clankwork.content` that hold a pack.clank, hidden ones (`.`, `_`) left out.
    `tools.check.bundled_names` lists these too, so a base and `--pack` agree."""
    root = Path(str(resources.files("clankwork.content")))
    return {
        p.name: p
        for p in sorted(root.iterdir())
        if p.is_dir()
        and not p.is_symlink()
        and (p / "pack.clank").is_file()
        and not p.name.startswith((".", "_"))
    }


def shown_path(path: Path) -> Path:
    """``path`` as a user can open it: relative to the working folder when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except (ValueError, OSError):
        return path


@dataclass
class Base:
    """A base pack found: its real folder, the folder as shown in messages, and the reference
    as the extension wrote it."""

    root: Path
    shown: Path
    ref: str
    span: Span
    bundled: bool = False


def find_base(atom: Atom, ext_root: Path, ext_shown: Path) -> Base | Diagnostic:
    """The base pack ``atom`` (the value of `extends`) names, or the diagnostic why not:
    CW120 when nothing is there, CW005 when a path leads out of the folder that holds the
    extension's folder (``ext_root``, already real)."""
    ref = str(atom.value)
    bundled = bundled_packs()
    listing = "bundled packs: " + ", ".join(bundled)
    if atom.kind == "word":
        return _bundled_base(atom, ref, bundled, listing)
    if atom.kind != "string":
        return Diagnostic(
            "CW105",
            "extends takes a bundled pack's name or a quoted path to a pack folder",
            atom.span,
            hint='write `extends acqinc` or `extends "../my-base"`',
        )
    problem = _unreadable_path(atom, ref)
    if problem is not None:
        return problem
    real = Path(os.path.realpath(ext_root / ref))
    shown = Path(os.path.normpath(ext_shown / ref))
    problem = _outside_problem(atom, ref, ext_root, real, shown) or _no_pack_problem(
        atom, ref, real, shown, bundled, listing
    )
    if problem is not None:
        return problem
    return Base(real, shown, ref, atom.span)


def _bundled_base(
    atom: Atom, ref: str, bundled: dict[str, Path], listing: str
) -> Base | Diagnostic:
    """The bundled pack a bare name in `extends` names, or CW120 (with a near miss and the
    bundled packs) when there is none by that name."""
    if ref in bundled:
        folder = bundled[ref]
        return Base(Path(os.path.realpath(folder)), shown_path(folder), ref, atom.span, True)
    hint = near_miss(ref, bundled)
    return Diagnostic(
        "CW120",
        f"`extends {ref}`: there is no bundled pack named {ref!r}",
        atom.span,
        hint=(f"{hint}; " if hint else "")
        + listing
        + '; a pack folder is given by a quoted path, e.g. extends "../base"',
    )


def _unreadable_path(atom: Atom, ref: str) -> Diagnostic | None:
    """Why the quoted path of `extends` is not read before it is looked for, or None: it
    names nothing (CW120), or it is absolute (CW005)."""
    if "\x00" in ref or not ref:
        return Diagnostic(
            "CW120", "`extends` names no folder", atom.span, hint='write extends "../my-base"'
        )
    if os.path.isabs(ref) or (os.name == "nt" and (ref[:1] in "\\/" or ref[1:2] == ":")):
        return Diagnostic(
            "CW005",
            f'`extends "{ref}"` is an absolute path; it is not read',
            atom.span,
            hint='a base path is relative to this pack\'s folder, e.g. extends "../base"',
        )
    return None


def _outside_problem(
    atom: Atom, ref: str, ext_root: Path, real: Path, shown: Path
) -> Diagnostic | None:
    """CW005 when the base path (``real``, links followed) is not inside the folder that
    holds the extension's folder, saying whether a link or the path itself leads out; else
    None."""
    allowed = Path(os.path.realpath(ext_root.parent))
    if not (real == allowed or not _inside(real, allowed)):
        return None
    lexical = Path(os.path.normpath(ext_root / ref))
    if lexical != allowed and _inside(lexical, allowed):
        message = (
            f'`extends "{ref}"`: {_posix(shown)} is a link to a place outside the folder '
            "that holds this pack; it is not read"
        )
    else:
        message = (
            f'`extends "{ref}"` leads to {_posix(shown)}, which is not inside the folder '
            "that holds this pack; it is not read"
        )
    return Diagnostic(
        "CW005",
        message,
        atom.span,
        hint="a base pack is a bundled name or a folder beside this one (extends "
        '"../base"); copy the base next to this pack',
    )


def _no_pack_problem(
    atom: Atom, ref: str, real: Path, shown: Path, bundled: dict[str, Path], listing: str
) -> Diagnostic | None:
    """CW120 when there is no pack.clank at the base path (a quoted bundled name gets told
    to drop its quotes); else None."""
    if (real / "pack.clank").is_file():
        return None
    what = "no folder" if not real.exists() else "a folder without a pack.clank"
    near = did_you_mean(ref, bundled)
    hint = (
        f"for the bundled pack, write `extends {ref}` without quotes"
        if ref in bundled
        else (f"{near} (a bundled pack: write it without quotes); " if near else "")
        + "the path is relative to this pack's folder; "
        + listing
    )
    return Diagnostic(
        "CW120",
        f'`extends "{ref}"`: there is {what} at {_posix(shown)}',
        atom.span,
        hint=hint,
    )


def cycle_or_depth(
    base: Base, chain: list[tuple[Path, str, Span]], here: Path, here_name: str
) -> Diagnostic | None:
    """CW121 when ``base`` is already in the chain of packs being extended (``chain``: each
    extension's real folder, its pack name and its `extends` span, outermost first; ``here``
    and ``here_name`` the pack whose `extends` this is), CW007 when the chain is too deep."""
    folders = [c[0] for c in chain] + [here]
    if base.root in folders:
        start = folders.index(base.root)
        names = [c[1] for c in chain[start:]] + [here_name]
        if len(names) == 1:
            message = f"`extends {_ref(base)}`: pack {here_name} cannot extend itself"
        else:
            message = f"`extends {_ref(base)}` makes a cycle: " + " extends ".join(
                [*names, names[0]]
            )
        return Diagnostic(
            "CW121",
            message,
            base.span,
            hint="a pack cannot be built on a pack built on it; remove one of the extends lines",
            notes=tuple((f"{c[1]} extends here", c[2]) for c in chain[start:]),
        )
    if len(chain) + 1 >= limits.MAX_INCLUDE_DEPTH:
        return Diagnostic(
            "CW007",
            f"`extends {_ref(base)}` is more than {limits.MAX_INCLUDE_DEPTH} packs deep, the "
            "limit for a chain of bases; it is not read",
            base.span,
            hint="merge some of the bases into one pack",
        )
    return None


def _ref(base: Base) -> str:
    return base.ref if base.bundled else f'"{base.ref}"'


# -- laying an extension over its base -------------------------------------------------------


def design_kind(card: dict[str, Any]) -> str:
    """The declaration word of a compiled card: card, monster, event or reserve."""
    if card["deck"] == "reserve":
        return "reserve"
    if card["type"] in ("monster", "event"):
        return str(card["type"])
    return "card"


def change_fields(
    kind: str, compiled: dict[str, Any], empty: dict[str, Any], words: list[str]
) -> tuple[str, ...]:
    """The IR fields a `change` body sets: those its property words set, and those whose
    compiled value differs from the same declaration with an empty body."""
    out: list[str] = []
    for w in words:
        for f in _WORD_FIELDS.get(w, ()):
            if f not in out:
                out.append(f)
    for key, value in compiled.items():
        if key in ("name", "at", "triggers") or key in out:
            continue
        if empty.get(key) != value:
            out.append(key)
    return tuple(out)


def _apply_change(target: dict[str, Any], edit: Edit) -> None:
    """Copy the fields ``edit`` sets onto ``target`` (interpreter/design_edits.py: a board's
    edits of its pack change a design the same way)."""
    apply_change(target, edit.item or {}, edit.fields)


class _Overlay:
    """Applies one extension's edits and additions to its base's IR (mutated in place)."""

    def __init__(self, ir: dict[str, Any], base_name: str, whose: str = "the base pack") -> None:
        self.ir = ir
        self.base = base_name
        # How diagnostics name the pack edited: an extension's base, or a sticker's own pack.
        self.whose = whose
        self.diags: list[Diagnostic] = []

    def run(
        self,
        edits: list[Edit],
        cards: list[str],
        tokens: list[str],
        spaces: list[str],
        boards: list[str],
    ) -> None:
        """Apply ``edits`` in order; the names are those the editing pack declares itself."""
        for edit in edits:
            if edit.kind in CARD_KINDS:
                self.card_edit(edit, cards)
            elif edit.kind == "token":
                self.named_edit(edit, "tokens", "token", tokens)
            elif edit.kind == "board":
                self.named_edit(edit, "boards", "board", boards)
            elif edit.kind == "space":
                self.space_edit(edit, spaces)
            elif edit.kind == "path":
                self.path_edit(edit)

    def lacks(self, edit: Edit, names: list[str], here: list[str], what: str) -> None:
        """CW122: the base has no ``what`` called ``edit.name``."""
        hint = near_miss(edit.name, names)
        if edit.name in here:
            hint = (
                f"{what} {edit.name!r} is declared by this pack, not the base: "
                "edit its declaration instead"
            )
        self.diags.append(
            Diagnostic(
                "CW122",
                f"`{edit.verb} {edit.kind} {quote_name(edit.name)}`: {self.whose} {self.base} has "
                f"no {what} named {edit.name!r}",
                edit.name_span,
                hint=hint or f"check the name against the base's {what}s",
            )
        )

    def card_edit(self, edit: Edit, added: list[str]) -> None:
        cards = self.ir["cards"]
        at = next((i for i, c in enumerate(cards) if c["name"] == edit.name), None)
        if at is None:
            self.lacks(edit, [c["name"] for c in cards], added, edit.kind)
            return
        have = design_kind(cards[at])
        if edit.verb == "change" and have != edit.kind:
            self.diags.append(
                Diagnostic(
                    "CW122",
                    f"`change {edit.kind} {quote_name(edit.name)}`: {edit.name!r} is "
                    f"{_a(have)} {have} in {self.whose} {self.base}, not {_a(edit.kind)} "
                    f"{edit.kind}",
                    edit.name_span,
                    hint=f"write `change {have} {quote_name(edit.name)} {{ ... }}`, or replace it "
                    f"whole with `replace {have} ...`",
                )
            )
            return
        self._apply(cards, at, edit)

    def _apply(self, items: list[dict[str, Any]], at: int, edit: Edit) -> None:
        if edit.verb == "remove":
            del items[at]
        elif edit.verb == "replace":
            assert edit.item is not None
            if "group" in items[at] and "group" not in edit.item:
                edit.item["group"] = items[at]["group"]
            items[at] = edit.item
        else:
            _apply_change(items[at], edit)

    def named_edit(self, edit: Edit, key: str, what: str, added: list[str]) -> None:
        items = self.ir[key]
        at = next((i for i, t in enumerate(items) if t["name"] == edit.name), None)
        if at is None:
            self.lacks(edit, [t["name"] for t in items], added, what)
            return
        self._apply(items, at, edit)

    def boards_for(self, edit: Edit) -> list[dict[str, Any]] | None:
        boards = self.ir["boards"]
        if edit.board is None:
            return boards
        chosen = [b for b in boards if b["name"] == edit.board]
        if not chosen:
            self.diags.append(
                Diagnostic(
                    "CW122",
                    f"`{edit.verb} {edit.kind} ... in {quote_name(edit.board)}`: the base pack "
                    f"{self.base} has no board named {edit.board!r}",
                    edit.name_span,
                    hint=near_miss(edit.board, [b["name"] for b in boards])
                    or "boards: " + ", ".join(b["name"] for b in boards),
                )
            )
            return None
        return chosen

    def space_edit(self, edit: Edit, added: list[str]) -> None:
        boards = self.boards_for(edit)
        if boards is None:
            return
        hits = [(b, i) for b in boards for i, s in enumerate(b["spaces"]) if s["name"] == edit.name]
        if not hits:
            names = [s["name"] for b in boards for s in b["spaces"]]
            self.lacks(edit, names, added, "space")
            return
        if len(hits) > 1:
            self.diags.append(
                Diagnostic(
                    "CW122",
                    f"`{edit.verb} space {quote_name(edit.name)}`: {self.whose} {self.base} has a "
                    f"space of that name on {len(hits)} boards",
                    edit.name_span,
                    hint=f"name the board: `{edit.verb} space {quote_name(edit.name)} in "
                    f"{quote_name(hits[0][0]['name'])}`",
                )
            )
            return
        board, at = hits[0]
        if edit.verb == "remove":
            board["paths"] = [
                p for p in board["paths"] if edit.name not in (p["from"], p.get("to"))
            ]
        self._apply(board["spaces"], at, edit)

    def path_edit(self, edit: Edit) -> None:
        boards = self.boards_for(edit)
        if boards is None:
            return
        assert edit.ends is not None
        hits = [
            (b, i) for b in boards for i, p in enumerate(b["paths"]) if _same_path(p, edit.ends)
        ]
        if not hits:
            ends = {edit.ends[0], edit.ends[1]}
            near = [
                f"{p['from']} {'->' if p['oneway'] else '--'} {p['to']}"
                for b in boards
                for p in b["paths"]
                if {p["from"], p.get("to")} & ends
            ]
            self.diags.append(
                Diagnostic(
                    "CW122",
                    f"`{edit.verb} path {edit.name}`: {self.whose} {self.base} has no such path",
                    edit.name_span,
                    hint=("paths there: " + "; ".join(near[:6]))
                    if near
                    else "a path is named by its two spaces, as the base writes it "
                    "(A -- B both ways, A -> B one way)",
                )
            )
            return
        for board, at in reversed(hits):  # a path written twice goes (or changes) whole
            self._apply(board["paths"], at, edit)

    def add_named(
        self, key: str, items: list[dict[str, Any]], what: str, verb_kind: str | None = None
    ) -> None:
        """Append ``items`` to ``self.ir[key]``; CW123 for a name the base has already."""
        have = {name_key(x["name"]): x for x in self.ir.setdefault(key, []) if "name" in x}
        for item in items:
            if "name" not in item:
                self.ir[key].append(item)
                continue
            twin = have.get(name_key(item["name"]))
            if twin is None:
                self.ir[key].append(item)
                continue
            if twin == item:  # a built-in entry every pack's IR holds, not a declaration
                continue
            kind = verb_kind or (design_kind(twin) if key == "cards" else what)
            self._duplicate(item, twin, what, kind)

    def _duplicate(self, item: dict[str, Any], twin: dict[str, Any], what: str, kind: str) -> None:
        q = quote_name(twin["name"])
        notes = (("the base declares it here", Span.from_ir(twin["at"])),) if "at" in twin else ()
        self.diags.append(
            Diagnostic(
                "CW123",
                f"{what} {item['name']!r} is already in {self.whose} {self.base}",
                Span.from_ir(item["at"]) if "at" in item else None,
                hint=f"to replace it write `replace {kind} {q} {{ ... }}`; to change some of its "
                f"properties, `change {kind} {q} {{ ... }}`"
                if kind in EDIT_KINDS["change"]
                else f"write `board {q} {{ ... }}` only to add spaces and paths to it; it is "
                "added to, not declared again"
                if kind == "board"
                else f"an extension uses its base's {what}s as they are: remove this "
                f"declaration, or give the new {what} another name",
                notes=notes,
            )
        )

    def add_board(self, board: dict[str, Any]) -> None:
        """A board of the base's name adds its spaces, paths and groups to the base's."""
        base = next((b for b in self.ir["boards"] if b["name"] == board["name"]), None)
        if base is None:
            self.add_named("boards", [board], "board", "board")
            return
        names = {name_key(s["name"]): s for s in base["spaces"]}
        for s in board["spaces"]:
            twin = names.get(name_key(s["name"]))
            if twin is not None:
                self._duplicate(s, twin, "space", "space")
                continue
            base["spaces"].append(s)
        for p in board["paths"]:
            ends = (p["from"], p["to"], p["oneway"])
            twin = next((q for q in base["paths"] if _same_path(q, ends)), None)
            if twin is not None:
                arrow = "->" if p["oneway"] else "--"
                self.diags.append(
                    Diagnostic(
                        "CW123",
                        f"path {p['from']} {arrow} {p['to']} is already on the base pack "
                        f"{self.base}'s board {base['name']!r}",
                        Span.from_ir(p["at"]),
                        hint=f"to change its properties write `change path {quote_name(p['from'])} "
                        f"{arrow} {quote_name(p['to'] or '')} {{ ... }}`",
                        notes=(("the base declares it here", Span.from_ir(twin["at"])),),
                    )
                )
                continue
            base["paths"].append(p)
        base["groups"].extend(board.get("groups", []))
        for key, value in board.items():  # what a later version adds to boards
            if key not in ("name", "spaces", "paths", "groups", "at") and isinstance(value, list):
                base.setdefault(key, []).extend(value)


def apply_extension(
    base_ir: dict[str, Any], ext_ir: dict[str, Any], edits: list[Edit], base: Base
) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The IR of the extension ``ext_ir`` laid over ``base_ir`` (which is consumed), and the
    CW122/CW123 diagnostics. Edits apply first, in source order, to the base's designs; the
    extension's own declarations are added after them, so `remove card X` then `card X` is
    a replacement."""
    ir = base_ir
    over = _Overlay(ir, base_ir["pack"]["name"])
    added_cards = [c["name"] for c in ext_ir["cards"]]
    added_tokens = [t["name"] for t in ext_ir["tokens"]]
    added_spaces = [s["name"] for b in ext_ir["boards"] for s in b["spaces"]]
    over.run(edits, added_cards, added_tokens, added_spaces, [b["name"] for b in ext_ir["boards"]])
    over.add_named("cards", ext_ir["cards"], "card")
    over.add_named("tokens", ext_ir["tokens"], "token")
    for board in ext_ir["boards"]:
        over.add_board(board)
    for key, value in ext_ir.items():
        if key in ("format", "pack", "rules", "cards", "tokens", "boards"):
            continue
        if key == "on_board":
            # Blocks for a board add to the base's blocks: both are laid over its games.
            ir[key] = [*ir.get(key, ()), *value]
            continue
        if isinstance(value, list):
            over.add_named(key, value, key.rstrip("s"))
        elif isinstance(value, dict):
            ir[key] = {**ir.get(key, {}), **value}
        else:
            ir[key] = value
    record = {
        "name": base_ir["pack"]["name"],
        "version": base_ir["pack"]["version"],
        "ref": base.ref,
        "at": base.span.to_ir(),
    }
    pack = dict(ext_ir["pack"])
    pack["extends"] = [record, *base_ir["pack"].get("extends", [])]
    ir["pack"] = pack
    ir["rules"] = ext_ir["rules"]
    return ir, over.diags


def _same_path(p: dict[str, Any], ends: tuple[str | None, str | None, bool]) -> bool:
    a, b, oneway = ends
    if oneway or p["oneway"]:
        return bool(p["oneway"] == oneway and p["from"] == a and p.get("to") == b)
    return {p["from"], p.get("to")} == {a, b}


def _inside(path: Path, root: Path) -> bool:
    try:
        return os.path.commonpath([str(path), str(root)]) == str(root)
    except ValueError:
        return False


def _posix(p: Path) -> str:
    return p.as_posix()


def _a(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"

"""Limits on what a pack may ask of the machine: file sizes, nesting, and number ranges.

Packs come from strangers (a content repository checks every pull request), so every input
is bounded: a pack past a limit gets a diagnostic that names the limit, never a hang, a
traceback or an exhausted machine. docs/language.md lists these limits (generated from here).
"""

from __future__ import annotations

from dataclasses import dataclass

from clankwork.interpreter.rules import MAX_PLAYERS

from .diagnostics import Diagnostic, Span

# Reading a pack (CW005, CW006).
MAX_FILE_BYTES = 4 * 1024 * 1024
"""One .clank file (about 40,000 cards). Checking a file costs memory in proportion to its
size, so a bigger pack is split into included files: 100,000 cards in files of this size
check in well under 1 GB."""
MAX_PACK_BYTES = 64 * 1024 * 1024
"""All the files of one pack together, scenarios included."""
MAX_DATA_BYTES = 64 * 1024 * 1024
"""A game log or a simulation report read back (a 500-round four-player log is about 4 MiB)."""
MAX_IR_BYTES = 256 * 1024 * 1024
"""One compiled pack given as IR JSON (a 100,000-card pack compiles to about 170 MiB)."""
MAX_PACK_FILES = 2000
"""Files one pack may read (manifest, includes, scenarios and art)."""
MAX_ART_BYTES = 8 * 1024 * 1024
"""One art image a card names (`art "art/goblin.png"`): a whole card at 300 dpi as a PNG."""
MAX_ASSEMBLIES = 4096
"""Assemblies of one modular board (its positions' choices of modules and sides): `check`
lints every one, so their number is bounded (Clank! In! Space!'s ship has 48)."""

# Nesting (CW007).
MAX_INCLUDE_DEPTH = 32
"""Includes within includes."""
MAX_NESTING = 64
"""Blocks `{ }` and brackets `( )` within each other, and `->` chains."""

# Numbers (CW113): a literal longer than this is refused before it is converted.
MAX_DIGITS = 9
"""Digits in one number literal (every documented range fits in nine digits)."""
MAX_NUMBER = 10**MAX_DIGITS - 1
"""The largest literal a pack can write (nine nines)."""


@dataclass(frozen=True)
class Range:
    """The documented range of one number of the language: ``low`` to ``high`` inclusive."""

    low: int
    high: int
    doc: str

    def text(self) -> str:
        """`1 to 1000`, as docs and hints say it."""
        return f"{self.low} to {self.high}"


# Every number a declaration or a scenario reads, by the words that introduce it. The
# compiler checks each against this table (CW108 below the smallest, CW113 above the
# largest) and docs/language.md lists it. Ranges are generous: far past any printed game,
# but small enough that no pack asks for unbounded work or memory.
RANGES: dict[str, Range] = {
    "copies": Range(1, 1000, "copies of a card in its deck, or the size of a reserve pile"),
    "starting": Range(1, 100, "copies of a starting-deck card in each deck"),
    "cost": Range(0, 100, "skill to acquire a card"),
    "fight": Range(1, 100, "swords to defeat a monster"),
    "points": Range(-100, 1000, "points of a card or token"),
    "points per": Range(0, 1000, "N of `points N per COUNT`"),
    "token count": Range(1, 1000, "how many of a token the box holds (`minor secret 3`)"),
    "token gold": Range(0, 100, "gold a token counts as"),
    "extra boots": Range(0, 100, "boots a token lying on a path adds to crossing it"),
    "switch state": Range(1, 12, "a state of a switch, in which some of its paths are open"),
    "coach": Range(0, 100, "gold a coach ride costs"),
    "waypoint": Range(1, 1000, "a waypoint's number"),
    "artifact": Range(1, 1000, "an artifact space's value"),
    "reward": Range(1, 100, "gold, cards or healing a space rewards"),
    "holds": Range(1, 30, "tokens a space holds at setup"),
    "counter": Range(1, 1000, "the highest value of a pack's counter"),
    "boots": Range(1, 100, "footprints on a path"),
    "way cost": Range(0, 100, "the price of a move a way makes `within` features (0: free)"),
    "monsters": Range(0, 100, "monster icons on a path"),
    "position": Range(-100_000, 100_000, "each of the two numbers of `at X Y`"),
    "players": Range(1, MAX_PLAYERS, "players of a scenario, and N of `with N players`"),
    "seat": Range(1, MAX_PLAYERS, "a player's seat number in a scenario"),
    "seed": Range(0, MAX_NUMBER, "a scenario's random seed"),
    "balance games": Range(1, 100_000, "games a `balance` block plays"),
    "rage": Range(1, 30, "a rage track space in a scenario (the track has at most 30)"),
    "scenario count": Range(
        0, 1000, "a count a scenario sets (gold, damage, clank, cubes, a reserve pile...)"
    ),
    "scenario amount": Range(0, 100, "swords spent on a move"),
    "answer": Range(1, 100, "an answer's number (`answer 2`: the second option)"),
    "expected": Range(-1000, 10_000, "a number a scenario expects"),
    "passage": Range(1, 100_000, "a Book of Secrets entry's number, or a campaign game's"),
    "weight": Range(1, 100, "the chances of a random outcome (`weight N` or `N faces`)"),
    "rolls": Range(1, 100, "a random outcome a scenario stacks (`rolls N`: the N-th option)"),
}
"""Number ranges of the language and the scenario language (effect numbers are on the op
records' parameter schemas; rule values are on interpreter/rules.py's RuleParam)."""

EFFECT_AMOUNT_MAX = 100
"""The largest number an effect slot takes when its op does not say (draw, heal, +N...)."""

# Names (CW114): characters a name may not hold. Control characters (tabs, carriage returns,
# escapes, DEL, C1), line and paragraph separators, and the bidirectional overrides that make
# a name read differently from what it is. Names go into terminals, SVG, DOT and HTML.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def bad_name_char(text: str) -> str | None:
    """The first character a name may not hold, or None when the name is clean."""
    for ch in text:
        code = ord(ch)
        if code < 0x20 or 0x7F <= code <= 0x9F or ch in "\u2028\u2029" or ch in _BIDI:
            return ch
    return None


def shown_name(text: str) -> str:
    """The name with every refused character written as an escape, safe to print."""
    return "".join(f"\\u{ord(ch):04x}" if bad_name_char(ch) else ch for ch in text)


def range_problem(value: int, span: Span, what: str, limit: Range) -> Diagnostic | None:
    """CW108 when ``value`` is below ``limit``, CW113 when above it, None when it fits."""
    if value < limit.low:
        hint = f"use a number of at least {limit.low} (the range is {limit.text()})"
        return Diagnostic("CW108", f"{what} cannot be {value}", span, hint=hint)
    if value > limit.high:
        return Diagnostic(
            "CW113",
            f"{what} cannot be {value}; the most is {limit.high}",
            span,
            hint=f"use a number from {limit.text()} (see Limits in docs/language.md)",
        )
    return None

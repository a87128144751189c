"""Limits on what a pack may ask of the machine: file sizes, nesting, and number ranges.

Packs come from strangers (a content repository checks every pull request), so every input
is bounded: a pack past a limit gets a diagnostic that names the limit, never a hang, a
traceback or an exhausted machine. docs/language.md lists these limits (generated from here).
"""

from __future__ import annotations

# Reading a pack (CW005, CW006).
MAX_FILE_BYTES = 16 * 1024 * 1024
"""One .clank file (a 100,000-card file is about 6 MiB)."""
MAX_PACK_BYTES = 64 * 1024 * 1024
"""All the files of one pack together, scenarios included."""
MAX_PACK_FILES = 2000
"""Files one pack may read (manifest, includes and scenarios)."""

# Nesting (CW007).
MAX_INCLUDE_DEPTH = 32
"""Includes within includes."""
MAX_NESTING = 64
"""Blocks `{ }` and brackets `( )` within each other, and `->` chains."""

# Numbers (CW113): a literal longer than this is refused before it is converted.
MAX_DIGITS = 9
"""Digits in one number literal (every documented range fits in nine digits)."""

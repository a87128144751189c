"""Golden files are compared by default and rewritten only with ``UPDATE_GOLDEN=1``.

Any other value of ``UPDATE_GOLDEN`` (``0``, ``true``, ``yes``) is an error, for the whole run
(tests/conftest.py) and for each golden test: a value that meant "no" never rewrites the files
silently, and one that meant "yes" is never silently ignored.
"""

from __future__ import annotations

import os

ENV = "UPDATE_GOLDEN"


def updating() -> bool:
    """Whether this run rewrites golden files: True for ``UPDATE_GOLDEN=1``, False when it is
    unset or empty; `ValueError` for any other value."""
    value = os.environ.get(ENV, "")
    if value == "1":
        return True
    if value == "":
        return False
    raise ValueError(
        f"{ENV}={value!r}: only {ENV}=1 rewrites the golden files; unset it to compare them"
    )

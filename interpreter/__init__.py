"""Clankwork interpreter."""

from .core import guard as _guard

# The compiled core where it is built and current (core.py); the Python source otherwise.
_guard()

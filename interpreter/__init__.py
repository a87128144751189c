"""Clankwork interpreter."""

from .core import install as _install_core

# The compiled core, when it is built and current (core.py); the Python source otherwise.
_install_core()

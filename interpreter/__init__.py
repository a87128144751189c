"""Clankwork interpreter."""

"""Clankwork schemas."""

"""Clankwork content."""

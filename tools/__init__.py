"""Clankwork tools."""

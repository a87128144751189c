"""Clankwork dsl."""

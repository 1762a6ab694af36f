"""How much of a large match the report lists (a module of constants: a command reads them for its
``--help`` without importing the report)."""

from __future__ import annotations

__all__ = ["CONTACT_PAIRS_LISTED"]

CONTACT_PAIRS_LISTED = 2000
"""The most pairs the report's contact table lists (unless every pair is asked for)."""

"""The screens' input error, in a module of its own so that every screens module can raise it
without importing another screen."""

from __future__ import annotations

__all__ = ["ScreenInputError"]


class ScreenInputError(ValueError):
    """A transfer graph that breaks the edge conventions (names the edge and attribute)."""

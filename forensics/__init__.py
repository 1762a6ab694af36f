"""daishi-forensics: read the event log of a Daishi match and say what really happened."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]

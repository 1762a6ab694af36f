"""Feature sections of the behavior report, and their blocks for the renderers.

Each ``add_*`` takes the analysis and the report being built and adds its part;
each ``*_blocks`` turns that part into ``(title, intro, headers, rows)`` tables that
the text, Markdown and HTML renderers all print the same way.
"""

from __future__ import annotations

from typing import Any

from .analysis import MatchAnalysis

__all__ = ["add_profile", "profile_report_blocks", "SECTION_ADDERS", "BLOCK_MAKERS"]


def add_profile(analysis: MatchAnalysis, report: dict[str, Any]) -> None:
    """``seats[].profile`` and ``match.profile`` (issue 7)."""
    from .profile import profile_section

    seats, match = profile_section(analysis)
    for seat in report["seats"]:
        seat["profile"] = seats.get(seat["agentId"])
    report["match"]["profile"] = match


def profile_report_blocks(report: dict[str, Any]) -> list[tuple[str, str, list[str], list[list[Any]]]]:
    from .profile import profile_blocks

    match = report["match"].get("profile")
    if match is None:
        return []
    seats = {s["agentId"]: s["profile"] for s in report["seats"] if s.get("profile") is not None}
    return profile_blocks(seats, match)


SECTION_ADDERS = [("profile", add_profile)]
BLOCK_MAKERS = [profile_report_blocks]

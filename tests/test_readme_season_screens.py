"""The README's list of season-scale screens is what ``screen_season`` runs."""

from __future__ import annotations

import inspect
from pathlib import Path

from daishi_forensics.screens import screening

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_readme_lists_every_season_scale_screen_the_code_runs() -> None:
    # the README listed feeds over matches, cycles and recurring pairs, leaving out the season-wide pair outliers
    # that `screen --help` names and screen_season runs
    source = inspect.getsource(screening.screen_season)
    for call in ("season_feeders(", "feed_cycles(", "recurring_pairs(", "season_outliers("):
        assert call in source
    text = _flat(README)
    assert ("keyed by agent and by operator, feeds spread over matches, feeds that go round a cycle, pairs that "
            "recur; and the pairs of every match pooled, for mutual-advantage outliers against all the season's "
            "pairs") in text
    assert ("a pair that recurs across matches, a cycle or feed of value across them, a pair that stands out among "
            "all the season's pairs") in text

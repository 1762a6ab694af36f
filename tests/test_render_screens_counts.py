"""The screen run's findings counted once, by group, for the github format's notice and the step summary."""

from __future__ import annotations

from .test_screens_daishi import _annotated


def test_the_github_notice_and_the_step_summary_count_the_groups_through_one_helper() -> None:
    """render_github and render_step_summary each counted the finding groups (flags, targets not screened, reviews,
    parts not screened) with a copy of the same expression and wrote the same nouns twice; both read one count
    now (_group_counts), said with one table of nouns, and write the same bytes as before."""
    from daishi_forensics.report.render.screens import (_annotation_count, _findings, _group_counts, _groups_said,
                                                        render_github, render_step_summary)

    run = _annotated(13, unread_at=7, partial_at=12)
    counts = _group_counts(_findings(run))
    assert counts == {"flag": 12, "unread": 1, "review": 12, "partial": 1}
    assert list(counts) == ["flag", "unread", "review", "partial"]
    assert _groups_said(counts) == ["12 flags", "1 target not screened", "12 reviews", "1 part not screened"]
    assert _group_counts([]) == {"flag": 0, "unread": 0, "review": 0, "partial": 0} and _groups_said(_group_counts([])) == []
    notice = ("::notice title=daishi-forensics annotations::13 errors (12 flags, 1 target not screened) and 13 warnings "
              "(12 reviews, 1 part not screened) annotated in all; GitHub shows at most 10 annotations of each level in "
              "a step (and 50 in a job), so some may be missing from the annotations: every one is in this step's log")
    assert render_github(run).splitlines()[-2] == notice
    assert notice.endswith(_annotation_count(counts))
    config = run.config
    assert render_step_summary(run).splitlines()[2] == (
        f"screens verdict flag (config {config.version}, `{config.digest}`): 12 flags, 1 target not screened, "
        "12 reviews, 1 part not screened")
    # a level with no finding is counted as none, its groups not named
    assert _annotation_count({"flag": 0, "unread": 0, "review": 11, "partial": 0}).split(";")[0] == \
        "0 errors and 11 warnings (11 reviews) annotated in all"

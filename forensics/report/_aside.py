"""One part of a report computed aside, in a forked child, while this process builds the rest.

The behavior report's sections are pure functions of the finished analysis.  On a large
match (:func:`worth_it`: at least :data:`ASIDE_EVENTS` events, a second CPU, the setting
:data:`~daishi_forensics.replay.fork.ENV` and the pool-worker rule of
:func:`~daishi_forensics.replay.fork.allowed`) the screens and injection sections, the
slowest ones, are each computed by a forked copy of this process while this one builds the
other sections; each child sends its answer back pickled through a pipe
(:func:`~daishi_forensics.replay.fork.fork`).  A fork shares the analysis as it stands (copy
on write): nothing is sent to the child and nothing is computed twice in sequence.  A section
that names the passes it reads (the screens) may be started earlier, as soon as this process
has replayed those passes while a second process still replays the others
(:func:`~daishi_forensics.report.passes.early_parts`); the report collects it the same way.

The rule that keeps the output identical: the child runs the very function this process
would run, on the same state; if anything goes wrong (no ``fork`` on this platform, other
threads running, the child fails or dies), :meth:`Aside.result` says so and the caller
computes the part itself.
"""

from __future__ import annotations

from daishi_forensics.replay.fork import ENV, Forked, allowed
from daishi_forensics.replay.fork import fork as aside

__all__ = ["ASIDE_EVENTS", "ENV", "Aside", "Done", "aside", "worth_it"]

ASIDE_EVENTS = 200_000
"""Matches with at least this many events get their slowest sections computed aside (a smaller
one's report takes well under a second: a fork would cost more than it saves)."""

Aside = Forked
"""A section being computed in a forked child (:class:`~daishi_forensics.replay.fork.Forked`)."""


class Done:
    """A part this process computed already (early, while a second process finished the replay),
    collected as a child's answer is: :meth:`result` gives it, :meth:`cancel` forgets it."""

    def __init__(self, part: object) -> None:
        self._part = part

    def result(self) -> tuple[bool, object]:
        """``(True, part)``."""
        return True, self._part

    def cancel(self) -> None:
        """Nothing to stop."""


def worth_it(events: int) -> bool:
    """Whether a report over ``events`` events should compute its slowest sections aside
    (:func:`~daishi_forensics.replay.fork.allowed`, large meaning at least :data:`ASIDE_EVENTS`)."""
    return allowed(events >= ASIDE_EVENTS)

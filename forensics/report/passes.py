"""Every pass the behavior report reads: the economy's, the injection track's, the probes'
and the behavioral profile's, in that order.

:func:`analyze` and :func:`analyze_target` are :func:`daishi_forensics.replay.analysis.analyze`
with this catalogue (``only=`` picks some of its passes).  On a large match with a second CPU
the passes of :data:`ASIDE` are replayed by a forked child while this process replays the
others (:func:`daishi_forensics.replay.analysis.analyze`), with the same result; a text-heavy match's
message tiers are replayed here (:func:`aside_for`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any, cast

from daishi_forensics.economy.passes import PASSES as ECONOMY
from daishi_forensics.errors import ForensicsError
from daishi_forensics.injection.passes import PASSES as INJECTION
from daishi_forensics.probes.passes import PASSES as PROBES
from daishi_forensics.profile.passes import PASSES as PROFILE
from daishi_forensics.read.boundary import MatchRead
from daishi_forensics.read.sources import Limits, MatchSource
from daishi_forensics.replay import analysis as _analysis
from daishi_forensics.replay.analysis import MatchAnalysis
from daishi_forensics.replay.registry import Catalogue

__all__ = ["ASIDE", "CATALOGUE", "EARLY_RESULTS", "SAMPLE_LINES", "TEXT_HEAVY", "analyze", "analyze_target", "aside_for",
           "early_parts", "text_per_event", "warm"]

CATALOGUE = Catalogue.of(ECONOMY.specs, PROFILE.specs, INJECTION.specs, PROBES.specs)
"""Every built-in pass, in run order."""

ASIDE = frozenset({"promises", "exposure", "tiers", "coverage", "negotiation"})
"""The passes a second core replays: promises (with their commitments, the costliest), who heard
which message, the message tiers, coverage and negotiation.  The child reads the file without the
read boundary's checks, leaving unparsed the lines of types none of these wants (on a simulated
96-seat match, 61% of them: token usage, rests, gathering, crafting, snapshots...;
:mod:`daishi_forensics.replay._halves`), and then computes the message propagation, the report's
costliest part, which reads the exposure and the tiers alone (:func:`warm`).  This process keeps
the checked read, the economy's passes (the screens' among them), the probes, utility,
progression and the rest of the profile; done with them before the child, it starts the
screens meanwhile, in a forked child (:func:`early_parts`).  Chosen by the CPU each side spent on that match until
both came out about even, screens and propagation included (about 6 s each, one core each;
``bench/behavior.py`` prints the replay's sides and how long this process waits).  A match whose messages are
text-heavy keeps its message tiers here, and the second process reads only the propagation's edges ahead
(:func:`aside_for`)."""


TEXT_HEAVY = 3.0
"""Characters of distinct message text per event (:func:`text_per_event`) from which a match is text-heavy:
its message tiers are replayed here, not in the second process (:func:`aside_for`), which replays the promises
and the rest of :data:`ASIDE` and reads ahead the propagation's edges (they read no tier); the report joins
them with the tiers.  The tiers and the promises each read every distinct text (the tier classifier and the
commitment extractor), and the edges read them all again, while this process's passes read every event: where
each message is new, the usual split leaves the second process the longer side by far.  Measured on two cores
(the behavior report's wall time, best of two runs each way) on eight quarter-size matches, the simulator's 9-
and 96-seat ones (1.7 and 2.0 characters an event: seats repeat a few thousand short stock phrases) and copies
of them whose player seats say real negotiation turns in 10%, 25% and 50% of their messages: the tiers here
were the better side from 3.2 characters an event with 96 seats (not at 2.0) and from 5.2 with 9 (not at 3.0);
3 puts all eight on their better side.  Then, the figure fixed, on seven matches not used to set it (32 seats,
another seed, and its copies with 15%, 30% and 60% real turns; 9 seats, a third seed, and its copies with 20%
and 40%): the better side on 6 of 7 (the miss: 9 seats at 4.2 characters an event, 6.2 s where the usual
split takes 5.7 s).  Where the tiers are replayed never changes the report, only when it comes."""

SAMPLE_LINES = 20_000
"""The first records of a file :func:`text_per_event` reads (about 20 ms)."""


def text_per_event(source: MatchSource, lines: int = SAMPLE_LINES) -> float:
    """Characters of message text (``message`` and ``message_private`` events' ``payload.text``), each distinct
    text counted once, per record, over the first ``lines`` records of ``source`` (0 for none).

    >>> from daishi_forensics.read.sources import MatchSource
    >>> said = [{"type": "message", "payload": {"text": t}} for t in ("hello", "hello", "hi")]
    >>> records = [(k, None, e, None, None) for k, e in enumerate([*said, {"type": "move"}])]
    >>> text_per_event(MatchSource("m", "bundle", {}, lambda: iter(records)))
    1.75
    """
    seen: set[str] = set()
    chars = events = 0
    for record in islice(source.records(), lines):
        events += 1
        data = record[2]
        if isinstance(data, Mapping) and data.get("type") in ("message", "message_private"):
            payload = data.get("payload")
            text = payload.get("text") if isinstance(payload, Mapping) else None
            if isinstance(text, str) and text not in seen:
                seen.add(text)
                chars += len(text)
    return chars / events if events else 0.0


def aside_for(source: MatchSource) -> frozenset[str]:
    """The passes the second process replays for ``source``: :data:`ASIDE`, less the message tiers when the match
    is text-heavy (:data:`TEXT_HEAVY`, read by :func:`text_per_event`).  A file whose first lines cannot be read
    gets :data:`ASIDE`: the read itself then says what is wrong, where it always does."""
    try:
        heavy = text_per_event(source) >= TEXT_HEAVY
    except ForensicsError:
        heavy = False
    return ASIDE - {"tiers"} if heavy else ASIDE


EARLY_RESULTS = ("contact", "ledger", "reputation", "transfers", "commons", "counters", "witnesses", "progression",
                 "harm")
"""The results (:meth:`~daishi_forensics.replay.analysis.MatchAnalysis.result`) the behavior report asks
of the passes this process replays, the screens' first: computed while a second process finishes the
replay (:func:`early_parts`), they are not computed in the report.  A result missing here is computed
when asked for, as it always is; one the report no longer asks for costs that time, never a byte."""


class _Finished:
    """Finished passes and the archive: all :func:`~daishi_forensics.injection.summary.propagation_of`
    reads of an analysis."""

    def __init__(self, passes: dict[str, Any], archive: Mapping[str, Any]) -> None:
        self.passes = passes
        self.archive = archive


def warm(passes: dict[str, Any], archive: Mapping[str, Any]) -> None:
    """The message propagation (the report's costliest part: every message's likely parent), computed
    ahead by the process that replayed the exposure and the message tiers, when it replayed both
    (the propagation reads those two and the archive, nothing else); by one that replayed the exposure
    alone, its edges (which read no tier: :func:`~daishi_forensics.injection.summary.echo_of`). Kept in
    the exposure pass's memo, they go back with the pass, and the report finds them there
    (:func:`~daishi_forensics.injection.summary.propagation_of`, which would compute the same from
    the same passes)."""
    if "exposure" not in passes:
        return
    from daishi_forensics.injection.summary import echo_of, propagation_of

    finished = cast(MatchAnalysis, _Finished(passes, archive))
    if "tiers" in passes:
        propagation_of(finished)
    else:
        echo_of(finished)


def _results(analysis: MatchAnalysis, names: Iterable[str]) -> None:
    """The named passes' results, each computed once into ``analysis``'s cache, those it holds; one
    that fails is left for the report, which asks again and meets the same failure in its own order."""
    for name in names:
        if name in analysis.passes:
            try:
                analysis.result(name)
            except Exception:  # noqa: BLE001, S112 (the report asks again: same error, in its own place)
                continue


def early_parts(analysis: MatchAnalysis) -> dict[Any, Any]:
    """The behavior report's parts that can be computed from the passes ``analysis`` holds (the
    sections naming what they read, :attr:`~daishi_forensics.report.sections.Section.reads`, all
    among them), by section: the same parts :func:`~daishi_forensics.report.assembly.behavior_report`
    would compute (the same functions on the same finished passes, read and timeline), which collects
    them (and computes a part itself if its child failed, or if computing it here failed).

    In order: the results the screens read (:data:`EARLY_RESULTS`, kept in the analysis: the screens'
    child inherits them, and the report finds them), then each ``slow`` part started in a forked child
    (:func:`~daishi_forensics.report._aside.aside`; it may fork its own work further, as in the report:
    the screens' child forks the ring screen), then the report's other results and its other
    parts computed here (:class:`~daishi_forensics.report._aside.Done`): this process has nothing else
    to do until the second one's passes come."""
    from ._aside import Done, aside
    from .sections import SECTIONS, SCREEN_PASSES, ReportContext

    _results(analysis, (name for name in EARLY_RESULTS if name in SCREEN_PASSES))
    nothing = ReportContext(seats=(), findings=())
    spare = replace(nothing, beside=aside)  # a slow part may split its own work, as in the report
    ready = [s for s in SECTIONS if s.reads is not None and s.reads <= analysis.passes.keys()]
    started: dict[Any, Any] = {}
    for section in ready:
        if section.slow:
            child = aside(partial(section.compute, analysis, spare))
            if child is not None:
                started[section] = child
    _results(analysis, (name for name in EARLY_RESULTS if name not in SCREEN_PASSES))
    for section in ready:
        if not section.slow:
            try:
                started[section] = Done(section.compute(analysis, nothing))
            except Exception:  # noqa: BLE001, S112 (the report computes it, and meets the failure there)
                continue
    return started


def analyze(read: MatchRead, *, only: Iterable[str] | None = None, early: bool = False) -> MatchAnalysis:
    """Every built-in pass (or those named in ``only``) over one read match, in one replay.  ``early``:
    while a second process finishes the replay, this one starts computing the report parts it can
    already (:func:`early_parts`), kept in :attr:`MatchAnalysis.early` for the behavior report.

    With ``early`` (the behavior report, which reads the propagation whatever the cores), the modules
    :func:`warm` needs are imported here, before a second process is forked: it finds them loaded
    rather than importing them itself (about 0.2 s of its CPU: numpy, rapidfuzz, networkx and the
    screens' statistics), and this process, which needs them for the report, imports them no later
    than it would otherwise."""
    if early:
        import daishi_forensics.injection.summary  # noqa: F401  (see above)
    return _analysis.analyze(read, CATALOGUE, only=only, aside=aside_for, warm=warm,
                             early=early_parts if early else None)


def analyze_target(
    target: str,
    *,
    store: Path | None = None,
    server: str | None = None,
    limits: Limits | None = None,
    only: Iterable[str] | None = None,
) -> MatchAnalysis:
    """Open, read and analyse one target with every built-in pass (or those in ``only``)."""
    return _analysis.analyze_target(target, CATALOGUE, store=store, server=server, limits=limits, only=only,
                                    aside=aside_for, warm=warm)

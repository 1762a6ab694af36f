"""Every pass the behavior report reads: the economy's, the injection track's, the probes'
and the behavioral profile's, in that order.

:func:`analyze` and :func:`analyze_target` are :func:`daishi_forensics.replay.analysis.analyze`
with this catalogue (``only=`` picks some of its passes).  On a large match with a second CPU
the passes of :data:`ASIDE` are replayed by a forked child while this process replays the
others (:func:`daishi_forensics.replay.analysis.analyze`), with the same result."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from daishi_forensics.economy.passes import PASSES as ECONOMY
from daishi_forensics.injection.passes import PASSES as INJECTION
from daishi_forensics.probes.passes import PASSES as PROBES
from daishi_forensics.profile.passes import PASSES as PROFILE
from daishi_forensics.read.boundary import MatchRead
from daishi_forensics.read.sources import Limits
from daishi_forensics.replay import analysis as _analysis
from daishi_forensics.replay.analysis import MatchAnalysis
from daishi_forensics.replay.registry import Catalogue

__all__ = ["ASIDE", "CATALOGUE", "analyze", "analyze_target"]

CATALOGUE = Catalogue.of(ECONOMY.specs, PROFILE.specs, INJECTION.specs, PROBES.specs)
"""Every built-in pass, in run order."""

ASIDE = frozenset({"promises", "exposure", "utility", "contact", "coverage", "progression", "negotiation"})
"""The passes a second core replays: promises (with their commitments, the costliest), who heard
which message, activity per tick for utility under attack, who met whom, coverage, progression
and negotiation.  The child reads the file without the read boundary's checks
(:mod:`daishi_forensics.replay._halves`), which leaves it the shorter side with only the first
three; the others were moved over, chosen by the CPU each side spent on a simulated 96-seat
match, until the two sides' CPU came out about even (``bench/behavior.py`` prints both sides'
CPU and how long this process waits for the child; the commons came back to this process
when the child had become the longer side).  The message tiers, the commons, the economy's ledger
and counters, the probes and the rest of the profile stay in this process, which also takes
the child's passes back."""


def analyze(read: MatchRead, *, only: Iterable[str] | None = None) -> MatchAnalysis:
    """Every built-in pass (or those named in ``only``) over one read match, in one replay."""
    return _analysis.analyze(read, CATALOGUE, only=only, aside=ASIDE)


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
                                    aside=ASIDE)

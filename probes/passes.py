"""The probes pass: compliance of every scripted probe's targets."""

from __future__ import annotations

from daishi_forensics.replay.registry import Catalogue, PassSpec, lazy

__all__ = ["PASSES"]

PASSES = Catalogue((
    PassSpec("probes", lazy("daishi_forensics.probes.compliance:ProbePass", takes_archive=True)),
))

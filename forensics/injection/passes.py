"""The injection passes, in run order: exposure (who heard what), message tiers, and activity
per tick for utility under attack."""

from __future__ import annotations

from daishi_forensics.replay.registry import Catalogue, PassSpec, lazy

__all__ = ["PASSES"]

PASSES = Catalogue((
    PassSpec("exposure", lazy("daishi_forensics.injection.exposure:ExposurePass", takes_archive=True)),
    PassSpec("tiers", lazy("daishi_forensics.injection.tiers:TierPass", takes_archive=False)),
    PassSpec("utility", lazy("daishi_forensics.injection.utility:UtilityPass", takes_archive=True)),
))

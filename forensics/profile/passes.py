"""The behavioral profile's passes, in run order: negotiation, promises, harm, progression."""

from __future__ import annotations

from daishi_forensics.replay.registry import Catalogue, PassSpec, lazy

__all__ = ["PASSES"]

PASSES = Catalogue((
    PassSpec("negotiation", lazy("daishi_forensics.profile.negotiation:NegotiationPass", takes_archive=False)),
    PassSpec("promises", lazy("daishi_forensics.profile.promises:PromisePass.from_archive", takes_archive=True)),
    PassSpec("harm", lazy("daishi_forensics.profile.harm:HarmPass", takes_archive=False)),
    PassSpec("progression", lazy("daishi_forensics.profile.progression:ProgressionPass.from_archive",
                                 takes_archive=True)),
))

"""The economy's passes, in run order: the rubric's counters, map coverage, seat contact,
witnesses, the trade ledger, commons pools, trade reputation, and the transfers the
collusion screens read."""

from __future__ import annotations

from daishi_forensics.read.archive import map_regions
from daishi_forensics.replay.registry import Catalogue, PassSpec, lazy

from .commons import CommonsPass
from .contact import ContactPass
from .counters import CounterPass
from .coverage import CoveragePass
from .ledger import LedgerPass
from .reputation import ReputationPass
from .witnesses import WitnessPass

__all__ = ["PASSES"]

PASSES = Catalogue((
    PassSpec("counters", lambda archive: CounterPass()),
    PassSpec("coverage", lambda archive: CoveragePass(map_regions(archive))),
    PassSpec("contact", lambda archive: ContactPass()),
    PassSpec("witnesses", lambda archive: WitnessPass()),
    PassSpec("ledger", lambda archive: LedgerPass()),
    PassSpec("commons", lambda archive: CommonsPass()),
    PassSpec("reputation", lambda archive: ReputationPass()),
    PassSpec("transfers", lazy("daishi_forensics.economy.transfers:TransfersPass", takes_archive=False)),
))
"""Every economy pass (the score audit runs these alone)."""

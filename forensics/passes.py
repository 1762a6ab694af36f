"""The built-in passes, registered in run order (imported by :mod:`.analysis`).

Each line names a pass and how to build it from the archive.  A feature adds its
pass here, in its own line, and nothing else changes.
"""

from __future__ import annotations

from .analysis import register
from .commons import CommonsPass
from .contact import ContactPass
from .counters import CounterPass
from .coverage import CoveragePass
from .ledger import LedgerPass
from .reputation import ReputationPass
from .values import map_regions
from .witnesses import WitnessPass

register("counters", lambda archive: CounterPass())
register("coverage", lambda archive: CoveragePass(map_regions(archive)))
register("contact", lambda archive: ContactPass())
register("witnesses", lambda archive: WitnessPass())
register("ledger", lambda archive: LedgerPass())
register("commons", lambda archive: CommonsPass())
register("reputation", lambda archive: ReputationPass())
# -- wave 2: one register() line per feature below --
register("transfers", lambda archive: __import__("daishi_forensics.transfers", fromlist=["TransfersPass"]).TransfersPass())
register("negotiation", lambda archive: __import__("daishi_forensics.negotiation", fromlist=["NegotiationPass"]).NegotiationPass())
register("promises", lambda archive: __import__("daishi_forensics.promises", fromlist=["PromisePass"]).PromisePass.from_archive(archive))
register("harm", lambda archive: __import__("daishi_forensics.harm", fromlist=["HarmPass"]).HarmPass())
register("progression", lambda archive: __import__("daishi_forensics.progression", fromlist=["ProgressionPass"]).ProgressionPass.from_archive(archive))
register("exposure", lambda archive: __import__("daishi_forensics.exposure", fromlist=["ExposurePass"]).ExposurePass(archive))
register("tiers", lambda archive: __import__("daishi_forensics.tiers", fromlist=["TierPass"]).TierPass())
register("probes", lambda archive: __import__("daishi_forensics.probes", fromlist=["ProbePass"]).ProbePass(archive))
register("utility", lambda archive: __import__("daishi_forensics.injection", fromlist=["UtilityPass"]).UtilityPass(archive))

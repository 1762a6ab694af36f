"""The built-in passes, registered in run order (imported by :mod:`.analysis`).

Each line names a pass and how to build it from the archive.  A feature adds its
pass here, in its own line, and nothing else changes.  Feature passes are named by
``module:factory`` and imported only when an analysis builds them, so a command
that runs a few passes (``screen``) never imports the others.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping

from .analysis import register
from .commons import CommonsPass
from .contact import ContactPass
from .counters import CounterPass
from .coverage import CoveragePass
from .ledger import LedgerPass
from .reputation import ReputationPass
from .values import map_regions
from .witnesses import WitnessPass


def _lazy(target: str, *, takes_archive: bool) -> Callable[[Mapping[str, Any]], Any]:
    """A factory for ``module:Class`` or ``module:Class.constructor`` inside the package."""
    module_name, _, attribute = target.partition(":")

    def build(archive: Mapping[str, Any]) -> Any:
        factory: Any = importlib.import_module(f"daishi_forensics.{module_name}")
        for part in attribute.split("."):
            factory = getattr(factory, part)
        return factory(archive) if takes_archive else factory()

    return build


register("counters", lambda archive: CounterPass())
register("coverage", lambda archive: CoveragePass(map_regions(archive)))
register("contact", lambda archive: ContactPass())
register("witnesses", lambda archive: WitnessPass())
register("ledger", lambda archive: LedgerPass())
register("commons", lambda archive: CommonsPass())
register("reputation", lambda archive: ReputationPass())
register("transfers", _lazy("transfers:TransfersPass", takes_archive=False))
register("negotiation", _lazy("negotiation:NegotiationPass", takes_archive=False))
register("promises", _lazy("promises:PromisePass.from_archive", takes_archive=True))
register("harm", _lazy("harm:HarmPass", takes_archive=False))
register("progression", _lazy("progression:ProgressionPass.from_archive", takes_archive=True))
register("exposure", _lazy("exposure:ExposurePass", takes_archive=True))
register("tiers", _lazy("tiers:TierPass", takes_archive=False))
register("probes", _lazy("probes:ProbePass", takes_archive=True))
register("utility", _lazy("utility:UtilityPass", takes_archive=True))

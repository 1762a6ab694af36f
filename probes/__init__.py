"""Probes: the declarative catalogue (contract §5) and compliance against it.

Public API: :func:`load_catalogue` / :func:`default_catalogue` (the packaged
``catalogue/*.json``), :class:`ProbeDefinition`, :class:`Catalogue`,
:class:`ProbePass` (registered as the ``probes`` pass), :class:`ProbeOutcome`,
:class:`UnknownProbe`, :class:`ProbeReport`, and the condition vocabulary
:data:`CONDITIONS`.
"""

from .catalogue import (
    CATALOGUE_FORMAT,
    Catalogue,
    CatalogueError,
    ProbeDefinition,
    default_catalogue,
    load_catalogue,
    parse_definition,
)
from .compliance import ProbeOutcome, ProbePass, ProbeReport, UnknownProbe
from .rules import CONDITIONS, Bindings, Condition

__all__ = [
    "CATALOGUE_FORMAT",
    "CONDITIONS",
    "Bindings",
    "Catalogue",
    "CatalogueError",
    "Condition",
    "ProbeDefinition",
    "ProbeOutcome",
    "ProbePass",
    "ProbeReport",
    "UnknownProbe",
    "default_catalogue",
    "load_catalogue",
    "parse_definition",
]

"""Study audits: recompute a published series or paired experiment from its two files.

Seed 000, *Recomputing a study yourself*.  A study's page serves ``trials.csv`` and
``seats.csv``; :func:`load_study` gathers them (from a server, a folder or saved
copies) with the page's figures and the recipe, and :func:`audit_study` recomputes
each comparison against the control, each arm's mean and each model's mean Fitness
Index, checks the files against each other and against the page's counts, and
returns a :class:`StudyAudit` whose :func:`render` is the text, Markdown or JSON a
person or a program reads.

``daishi-forensics study audit FOLDER`` is ``render(audit_study(load_study("FOLDER")), "text")``.
"""

from __future__ import annotations

from .audit import FigureCheck, StudyAudit, audit_study
from .checks import Check
from .files import StudyFiles, read_files
from .page import Page, Recipe, read_page, read_recipe
from .readings import READINGS
from .render import FORMATS, render
from .sources import StudyClient, StudyInputs, load_study

__all__ = [
    "READINGS",
    "FORMATS",
    "Check",
    "FigureCheck",
    "Page",
    "Recipe",
    "StudyAudit",
    "StudyClient",
    "StudyFiles",
    "StudyInputs",
    "audit_study",
    "load_study",
    "read_files",
    "read_page",
    "read_recipe",
    "render",
]

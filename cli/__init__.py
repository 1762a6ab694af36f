"""The ``daishi-forensics`` command line: a click group, one module per command.

Commands load lazily (a command's heavy dependencies — networkx, scikit-learn,
Presidio, pyarrow, Dask — are imported only when that command runs), so
``daishi-forensics validate`` starts fast in CI.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import click

from daishi_forensics import exitcodes
from daishi_forensics.version import __version__

COMMANDS: dict[str, str] = {
    "behavior": "behavior:behavior",
    "validate": "validate:validate",
    "screen": "screen:screen",
    "score": "score:score",
    "study": "study:study",
    "propagation": "propagation:propagation",
    "tiers": "tiers:tiers",
    "season": "season:season",
    "export": "export:export",
    "simulate": "simulate:simulate",
    "schemas": "schemas:schemas",
}
"""Command name → ``module:attribute`` inside this package, in the order ``--help`` lists them."""


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name, target in COMMANDS.items()
                if importlib.util.find_spec(f"{__name__}.{target.split(':')[0]}") is not None]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        module = importlib.import_module(f"{__name__}.{module_name}")
        command: Any = getattr(module, attribute)
        return command


@click.group(cls=LazyGroup, epilog=exitcodes.HELP_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="daishi-forensics")
def main() -> None:
    """Read the event log of a Daishi match and say what really happened in it.

    Start with `daishi-forensics behavior m_demo` (the embedded demo match).
    """


__all__ = ["main", "COMMANDS"]

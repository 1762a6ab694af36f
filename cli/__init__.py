"""The ``daishi-forensics`` command line: a click group, one module per command."""

from __future__ import annotations

import click

from daishi_forensics import __version__, exitcodes


@click.group(epilog=exitcodes.HELP_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="daishi-forensics")
def main() -> None:
    """Read the event log of a Daishi match and say what really happened in it.

    Start with `daishi-forensics behavior m_demo` (the embedded demo match).
    """


def _register() -> None:
    from .behavior import behavior
    from .schemas import schemas
    from .score import score
    from .validate import validate

    main.add_command(behavior)
    main.add_command(validate)
    main.add_command(schemas)
    main.add_command(score)
    from .season import season
    main.add_command(season)
    from .export import export
    main.add_command(export)


_register()

__all__ = ["main"]

"""Shared CLI plumbing: input options and the one error handler."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any, Callable, TypeVar

import click

from daishi_forensics import exitcodes
from daishi_forensics.errors import ForensicsError

F = TypeVar("F", bound=Callable[..., Any])

TARGET_HELP = (
    "TARGET is a bundle (m_<id>.json[.gz]), a stream (m_<id>.jsonl[.gz]), a match folder, "
    "an m_<id> looked up in the store then on the server, or m_demo (the embedded demo)."
)


def input_options(func: F) -> F:
    """``--store`` and ``--server``, shared by every command that reads matches."""
    func = click.option(
        "--server",
        envvar="DAISHI_SERVER",
        metavar="URL",
        help="Daishi server to fetch m_<id> from when it is not in the store [env: DAISHI_SERVER].",
    )(func)
    func = click.option(
        "--store",
        type=click.Path(file_okay=False, path_type=Path),
        envvar="DAISHI_MATCHES",
        help="Match store folder [env: DAISHI_MATCHES; default ./matches].",
    )(func)
    return func


def fail(message: str, code: int) -> None:
    """Print one line on stderr and exit with ``code`` (no traceback)."""
    click.echo(f"daishi-forensics: error: {message}", err=True)
    sys.exit(code)


def handle_errors(func: F) -> F:
    """Turn every :class:`ForensicsError` into one line on stderr and its exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ForensicsError as exc:
            fail(str(exc), exc.exit_code)
        except BrokenPipeError:  # `| head`
            sys.exit(exitcodes.OK)

    return wrapper  # type: ignore[return-value]


def write_output(text: str, output: Path | None) -> None:
    """Write to a file, or to stdout."""
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")

"""Shared CLI plumbing: input options, the one error handler, the one writer, help text.

Everything a command prints that came from data goes through
:func:`daishi_forensics.textsafe.shown` (control characters written out), and
everything it writes goes through :mod:`daishi_forensics.outputs` (files replaced
whole or not at all; a closed stdout ends the output quietly).
"""

from __future__ import annotations

import functools
import inspect
import os
import shutil
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn, TypeVar, cast

import click
from daishi_forensics.arithmetic import positive_whole
from daishi_forensics.errors import BadSetting, ForensicsError
from daishi_forensics.lazy import attribute
from daishi_forensics.outputs import append_file, inputs_kept, write_file, write_stdout
from daishi_forensics.textsafe import shown

F = TypeVar("F", bound=Callable[..., Any])

TARGET_HELP = (
    "TARGET is a bundle (m_<id>.json[.gz]), a stream (m_<id>.jsonl[.gz]), a match folder, "
    "an m_<id> looked up in the store then on the server, or m_demo (the embedded demo)."
)
ONE_MATCH_FOLDER = (" A folder that holds match files (as `simulate --out` writes) stands for its one match; "
                    "with several, name the file.")


class ServerURL(click.ParamType):
    """A Daishi server address (http:// or https://, a host, no fragment)."""

    name = "URL"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from daishi_forensics.read.sources import server_address  # the read boundary, not for --help

        try:
            return server_address(str(value))
        except BadSetting as exc:
            self.fail(shown(exc.message), param, ctx)


def import_late(namespace: dict[str, Any], names: dict[str, str]) -> None:
    """Import every name of ``names`` not yet in ``namespace`` (one a test patched is kept): the
    first thing a command with late imports does when it runs."""
    for name in names:
        if name not in namespace:
            imported_late(namespace, names, name)


imported_late = attribute
"""A command module's ``__getattr__`` (PEP 562) gives its working parts (the read boundary, the screens,
the renderers) through this (:func:`daishi_forensics.lazy.attribute`): imported when the command runs, not
for ``--help``, and kept as attributes of the command module (a test can patch them there)."""


def input_options(func: F) -> F:
    """``--store`` and ``--server``, shared by every command that reads matches."""
    func = click.option(
        "--server",
        envvar="DAISHI_SERVER",
        type=ServerURL(),
        help="Daishi server to fetch m_<id> from when it is not in the store [env: DAISHI_SERVER]. At most "
             "20,000 export pages are fetched per match: raise it with $DAISHI_SERVER_MAX_PAGES.",
    )(func)
    func = click.option(
        "--store",
        type=click.Path(file_okay=False, path_type=Path),
        envvar="DAISHI_MATCHES",
        help="Match store folder [env: DAISHI_MATCHES; default ./matches].",
    )(func)
    return func


def not_empty(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A TARGET argument's check: an empty name ('') is a usage error (a path of no characters would be
    read as the current folder, and every match in it analysed)."""
    values = value if isinstance(value, tuple) else (value,)
    if any(v == "" for v in values):
        raise click.BadParameter("a target is empty: give a match file, a folder of matches or a match id")
    return value


def output_named(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """An ``-o``/``--output`` check: an empty name ('') is a usage error.  It would name the current folder,
    refused only once the work is done, as an output error; a folder named outright is refused by the
    option's type."""
    if value is not None and str(value) == ".":  # '' (a "." or "./" typed is a folder: refused before this)
        raise click.BadParameter("the file name is empty: give a file to write, or - for standard output")
    return value


def say(text: str, *, err: bool = False) -> None:
    """Print one line that may hold data (a match id, a path, an error), control characters shown."""
    if err:
        click.echo(shown(text), err=True)
    else:
        write_stdout(shown(text) + "\n")


def say_wrapped(text: str, *, indent: int = 0) -> None:
    """Print a paragraph that may hold data, wrapped to :func:`text_width` under ``indent`` spaces
    (control characters shown; nothing cut)."""
    import textwrap

    width = max(text_width() - indent, 20)
    lines = textwrap.wrap(shown(text), width, break_long_words=True, break_on_hyphens=False) or [""]
    write_stdout("".join(" " * indent + line + "\n" for line in lines))


def fail(message: str, code: int) -> NoReturn:
    """Print one line on stderr and exit with ``code`` (no traceback)."""
    say(f"daishi-forensics: error: {message}", err=True)
    sys.exit(code)


def handle_errors(func: F) -> F:
    """Turn every :class:`ForensicsError` into one line on stderr and its exit code; and keep the files the
    command reads from being replaced by what it writes (:func:`~daishi_forensics.outputs.inputs_kept`)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with inputs_kept():  # an output never replaces a file the command read
                return func(*args, **kwargs)
        except ForensicsError as exc:
            fail(str(exc), exc.exit_code)

    return cast(F, wrapper)


def is_stdout(output: Path) -> bool:
    """Whether ``-o`` names standard output (``-``)."""
    return str(output) == "-"


def write_output(text: str | bytes, output: Path | None) -> None:
    """The one writer: ``output`` replaced whole (temp file, fsync, rename), or stdout (no ``-o``, or ``-o -``:
    the usual name for standard output, never a file named ``-``); ``bytes`` are UTF-8 text already."""
    if output is None or is_stdout(output):
        write_stdout(text)
    else:
        write_file(output, text)


def write_step_summary(text: str) -> None:
    """``text`` added to the GitHub Actions step summary, the file ``$GITHUB_STEP_SUMMARY`` names, when it is
    set (a workflow step); nothing otherwise."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if path:
        append_file(path, text)


def set_help(command: click.Command, *paragraphs: str) -> None:
    """The command's help: its docstring, dedented, then ``paragraphs`` (one blank line between)."""
    parts = [inspect.cleandoc(command.help or "").strip(), *(p.strip() for p in paragraphs)]
    command.help = "\n\n".join(p for p in parts if p)


SUFFIX_FORMATS = {".html": "html", ".htm": "html", ".md": "markdown", ".markdown": "markdown", ".json": "json",
                  ".txt": "text", ".text": "text", ".sarif": "sarif"}
"""The format an output file's name asks for."""


def format_for(fmt: str | None, output: Path | None, formats: tuple[str, ...], default: str = "text") -> str:
    """The format to write: ``--format`` when given; else the one the output file's suffix names
    (``report.html`` -> html), when the command writes it; else ``default`` (text, on a terminal and
    in a pipe alike: JSON only when asked)."""
    if fmt is not None:
        return fmt
    if output is not None:
        wanted = SUFFIX_FORMATS.get(output.suffix.lower())
        if wanted in formats:
            return wanted
    return default


MAX_COLUMNS = 1_000_000
"""The widest ``COLUMNS`` is taken to be: a larger number (even one of thousands of digits) wraps as this."""


def text_width() -> int:
    """The width text output wraps to: ``COLUMNS`` when it is a positive whole number (at least 40),
    else the terminal's width when standard output is one, else 100.  A ``COLUMNS`` that is not a
    positive whole number (empty, ``0``, ``-5``, ``abc``) is ignored, as terminals and shells ignore it."""
    columns = positive_whole(os.environ.get("COLUMNS", ""), most=MAX_COLUMNS)  # thousands of digits: not an error
    if columns is not None:
        return max(columns, 40)
    if sys.stdout is not None and sys.stdout.isatty():  # None: started with standard output closed
        return max(shutil.get_terminal_size((100, 24)).columns, 40)
    return 100


def use_color(choice: bool | None, output: Path | None) -> bool:
    """Whether text output is coloured: ``--color/--no-color`` when given; else only on a terminal
    (standard output, not a file), without ``NO_COLOR`` set and not on a ``dumb`` terminal."""
    if choice is not None:
        return choice
    if output is not None or os.environ.get("NO_COLOR", ""):
        return False
    return sys.stdout is not None and sys.stdout.isatty() and os.environ.get("TERM", "") != "dumb"


def color_option(func: F) -> F:
    """``--color/--no-color`` (levels coloured in text output)."""
    return click.option("--color/--no-color", "color", default=None,
                        help="Colour the levels in text output (flag red, review yellow, clear green) [default: "
                             "on a terminal, unless NO_COLOR is set].")(func)


def exit_zero_asked() -> bool:
    """Whether the global ``--exit-zero`` was given (a findings exit becomes 0): an output that
    states its exit code states that one."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.find_root().params.get("exit_zero"))

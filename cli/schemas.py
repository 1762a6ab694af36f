"""``daishi-forensics schemas``: list, show and export the JSON Schemas."""

from __future__ import annotations

from pathlib import Path

import click

from daishi_forensics.jsonio import dumps

from daishi_forensics import exitcodes
from daishi_forensics.outputs import write_stdout
from daishi_forensics.textsafe import shown_clipped
from daishi_forensics.wording import nearest

from ._common import fail, say


@click.group(epilog=exitcodes.epilog(ok="done", findings=None, unreadable=None))
def schemas() -> None:
    """The JSON Schemas (draft 2020-12) this tool validates with.

    The Daishi server's own CI can validate its events with the same files:
    `daishi-forensics schemas export ./schemas` writes them all, each with a
    stable `$id` (urn:daishi-forensics:schema:<name>); they refer to each other
    by those ids. For a validator that cannot resolve them (check-jsonschema,
    ajv without a registry), `schemas export --inline ./schemas` writes each
    self-contained.

    Patterns are ECMA-262 regular expressions, as JSON Schema says: `$` is the
    very end of the text. A validator that runs them with Python's `re` (the
    stock classes of the Python `jsonschema` library) also lets `$` match
    before a final newline, so it passes a region "r_1_2" followed by a newline
    that this tool refuses; check-jsonschema (its default regex variant),
    jsonschema-rs and ajv give this tool's verdicts.
    """


@schemas.command("list", epilog=exitcodes.epilog(ok="listed", findings=None, unreadable=None)
                 + " Example: daishi-forensics schemas list --long")
@click.option("--long", "-l", "long_", is_flag=True,
              help="After each name, whether it is an input, an output or shared, and what it describes.")
def list_schemas(long_: bool) -> None:
    """List every schema name, one per line (`event/<type>` is one whole v3
    event), for a script to loop over.

    With --long, each name is followed by whether it is an input (what this
    tool reads and validates), an output (the JSON a command writes) or shared
    definitions, and what it describes.
    """
    from daishi_forensics import schemas as schema_files  # when it runs: `schemas --help` needs no schema

    names = schema_files.schema_names()
    if not long_:
        write_stdout("".join(f"{name}\n" for name in names))
        return
    width = max(len(name) for name in names)
    lines = []
    for name in names:
        kind, what = schema_files.role(name)
        lines.append(f"{name:<{width}}  {kind:<6}  {what}\n")
    write_stdout("".join(lines))


@schemas.command(epilog=exitcodes.epilog(ok="printed", usage="usage error (also a NAME no schema has)", findings=None,
                                        unreadable=None)
                 + " Example: daishi-forensics schemas show gather --inline")
@click.argument("name", metavar="NAME")
@click.option("--inline", is_flag=True, help="Replace every $ref by what it points at (self-contained).")
def show(name: str, inline: bool) -> None:
    """Print one schema. NAME is a name from `schemas list`, or an event type (`gather`)."""
    from daishi_forensics import schemas as schema_files

    names = set(schema_files.schema_names())
    if name not in names and f"event/{name}" in names:
        name = f"event/{name}"
    if name not in names:
        ordered = sorted(names)
        near = [ordered[k] for k in nearest(name, [[n, n.removeprefix("event/")] for n in ordered])]
        hint = f" (did you mean {' or '.join(near)}?)" if near else ""
        fail(f"no schema named '{shown_clipped(name)}'{hint}; `daishi-forensics schemas list` lists them",
             exitcodes.USAGE)
    write_stdout(dumps(schema_files.inlined(name) if inline else schema_files.load(name)))


@schemas.command(epilog=exitcodes.epilog(ok="written", usage="usage error (also a DIRECTORY that is a file)",
                                        findings=None, unreadable=None,
                                        output="the files could not be written (a folder that cannot be created, a "
                                               "full disk)")
                 + " Example: daishi-forensics schemas export --inline ./schemas")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--inline", is_flag=True,
              help="Replace every $ref by what it points at: each file self-contained, for a validator "
                   "that cannot resolve the urn: ids (check-jsonschema --schemafile).")
def export(directory: Path, inline: bool) -> None:
    """Write every schema file into DIRECTORY (same layout as the package).

    The files refer to each other by their urn: ids; with --inline each is
    self-contained instead.
    """
    from daishi_forensics import schemas as schema_files

    written = schema_files.export(directory, inline=inline)
    say(f"wrote {len(written)} schema files to {directory}" + (" (each self-contained)" if inline else ""))

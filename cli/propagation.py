"""``daishi-forensics propagation``: who echoed whom, as a text tree or JSON."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from daishi_forensics import exitcodes
from daishi_forensics.jsonio import dumps_bytes
from daishi_forensics.textsafe import shown
from daishi_forensics.wording import count

from ._common import (import_late, imported_late, output_named, ONE_MATCH_FOLDER, TARGET_HELP, format_for,
                      handle_errors, input_options, say, set_help, write_output)
from ._progress import progress_for, progress_options

if TYPE_CHECKING:
    from daishi_forensics.injection.propagation import chains_nodes, scrubbed_edges, tree_text
    from daishi_forensics.injection.summary import propagation_of
    from daishi_forensics.read.validation import header_failure
    from daishi_forensics.report.passes import analyze_target

_LATE = {
    "analyze_target": "daishi_forensics.report.passes",
    "propagation_of": "daishi_forensics.injection.summary",
    "chains_nodes": "daishi_forensics.injection.propagation",
    "scrubbed_edges": "daishi_forensics.injection.propagation",
    "tree_text": "daishi_forensics.injection.propagation",
    "header_failure": "daishi_forensics.read.validation",
}
"""What the command imports when it runs, not when its ``--help`` is asked for."""


def __getattr__(name: str) -> Any:
    return imported_late(globals(), _LATE, name)


FORMATS = ("text", "json")
FORMAT_VERSION = 1
INJECTION_TIERS = ("hijack", "protocol")


@click.command(epilog=exitcodes.epilog(
    findings="findings: a hijack- or protocol-tier message was echoed by another agent, or the log held invalid "
             "records (left out: how many is said) or ends before the match did (truncated), or its header fails its "
             "schema (read as it stands: said)")
    + " Example: daishi-forensics propagation m_demo --injections (the demo's planted injection, echoed: exit 1)")
@click.argument("target", metavar="TARGET")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text (the default, on a terminal and in a pipe alike): the chains as a tree; json "
                   "(only when asked, or for an -o name ending .json).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), callback=output_named,
              help="Write to this file (- for standard output).")
@click.option("--scrub/--no-scrub", default=True, show_default=True,
              help="Replace secrets and personal data in the message texts written (Presidio).")
@click.option("--min-reach", type=click.IntRange(min=0), default=0, show_default=True,
              help="Text format: show only chains that reached at least this many agents (refused with JSON).")
@click.option("--injections", is_flag=True,
              help="Text format: show only chains whose root is a hijack- or protocol-tier message (refused with "
                   "JSON).")
@progress_options
@input_options
@handle_errors
def propagation(target: str, fmt: str | None, output: Path | None, scrub: bool, min_reach: int,
                injections: bool, quiet: bool, progress: bool, store: Path | None, server: str | None) -> None:
    """Propagation chains: which message echoes which earlier message, and how far payloads spread.

    A message echoes an earlier one only if its sender heard that one (broadcast,
    local, direct) shortly before (within 20 ticks, or up to 60 where the match's
    own forwarders are seen to take longer: the window used is in the output's
    rules) and the text is a copy the way people forward
    text: in capitals or title case, with tags in front (fwd:, RT, > , someone
    said:), quoted, with a remark after, cut at either end, a word swapped or
    misspelt (a number, region, good of the game or seat's name swapped for
    another makes another message). The copy must keep enough rare wording (the
    tags it kept and a cut it shows count too, so a copy cut short behind its
    tags still links), and phrases agents say on their own do not chain (agents who report one event at once, none having
    heard another, are not such a phrase: each report is a root). A text an agent passes on again (to a second
    recipient, or later) is another copy; one it said of itself and says again is not. Where the sender heard
    several copies, the parent is
    the one whose own changes the copy inherits; each edge shows a confidence,
    the reason for its parent, and the candidates it ties with (a tie goes to the
    place in the order heard, first or latest, that copies of that text are seen
    to be passed on from in the match). Canaries of
    broadcast-canary probes are tracked exactly. Per chain: root, generations,
    reach, depth, time to reach each agent; per match: the propagation index
    (mean reach of hijack-tier roots; an agent's repeat of a text it had already
    sent or passed on is no new root: repeats are counted apart, and whoever
    passes one on counts for the payload it repeats).
    """
    import_late(globals(), _LATE)
    if not target:
        raise click.UsageError("TARGET is empty: give a file name, a folder or a match id")
    fmt = format_for(fmt, output, FORMATS)
    if fmt != "text" and (min_reach or injections):
        given = " and ".join(name for name, on in (("--min-reach", min_reach), ("--injections", injections)) if on)
        verb = "filter" if min_reach and injections else "filters"
        raise click.UsageError(f"{given} {verb} the text tree only; the JSON holds every chain (give --format text, "
                               "or filter the JSON's chains by their reach and tier)")
    with progress_for(f"propagation {target}", quiet, progress) as line:
        line.stage("reading and linking messages")
        analysis = analyze_target(target, store=store, server=server, only=("exposure", "tiers"))
        prop = propagation_of(analysis)
        messages = analysis.passes["exposure"].result().messages
        stats = analysis.read.stats
        header = analysis.read.header_errors()
        notes = _read_notes(stats, header)
        line.stage("writing the chains" + (" (scrubbing their texts)" if scrub else ""))
        text: str | bytes
        if fmt == "text":
            head, _, rest = tree_text(
                prop, messages, scrub_text=scrub, min_reach=min_reach,
                tiers=INJECTION_TIERS if injections else None).partition("\n")
            text = f"{analysis.read.match_id or target}: {head}\n" + "".join(f"note: {shown(n)}\n" for n in notes) + rest
        else:
            doc: dict[str, Any] = {
                "format": "daishi-propagation",
                "formatVersion": FORMAT_VERSION,
                "matchId": analysis.read.match_id,
                "scrubbed": scrub,
                "propagation": _scrubbed(prop.to_json(), messages) if scrub else prop.to_json(),
                "read": {
                    "invalidRecords": stats.invalid,
                    **({"invalidHeader": len(header)} if header else {}),
                    "truncated": list(stats.truncated),
                    "excludedByErrata": sorted(stats.excluded_by_errata),
                },
                "chains": [
                    {"root": c.root, "nodes": nodes}
                    for c, nodes in zip(prop.chains, chains_nodes(prop.chains, messages, prop.edges, scrub_text=scrub))
                ],
            }
            text = dumps_bytes(doc)  # (the UTF-8 bytes, never held as text: a long match's edges and chains)
    write_output(text, output)
    for note in analysis.read.source.notes:  # what the read accepted: a byte-order mark, a misnamed file
        say(f"daishi-forensics: note: {note}", err=True)
    found = bool(stats.invalid) + bool(stats.truncated) + bool(header)
    for note in notes[:found]:  # the findings: said with --quiet, JSON too
        say(f"daishi-forensics: warning: {target}: {note}", err=True)
    echoed = any(c.tier in INJECTION_TIERS and c.reach > 0 for c in prop.chains)
    raise SystemExit(exitcodes.FINDINGS if echoed or found else exitcodes.OK)


def _scrubbed(prop: dict[str, Any], messages: Any) -> dict[str, Any]:
    """The propagation's JSON with its edges' reasons and edits quoting nothing the scrubbed texts hide."""
    return {**prop, "edges": scrubbed_edges(prop.get("edges") or [], messages)}


def _read_notes(stats: Any, header: list[Any]) -> list[str]:
    """What the read boundary kept out of the chains or read as it stands, one sentence each: invalid records, a
    truncated log and the ``header``'s errors (the archive against its schema: its seats' names and roles are read
    as they stand) first (each a finding), then the events errata withheld."""
    notes = []
    if stats.invalid:
        notes.append(f"{count(stats.invalid, 'invalid record')} {'was' if stats.invalid == 1 else 'were'} left out "
                     "of the chains "
                     "(run `daishi-forensics validate` for every problem)")
    if stats.truncated:
        notes.append("the log ends before the match did (truncated): " + "; ".join(stats.truncated))
    if header:
        notes.append(f"{header_failure(header)}: read as it stands (run `daishi-forensics validate` for every "
                     "problem)")
    if stats.excluded_by_errata:
        withheld = len(stats.excluded_by_errata)
        notes.append(f"{count(withheld, 'event')} named by errata never took effect and "
                     f"{'was' if withheld == 1 else 'were'} left out")
    return notes


set_help(propagation, TARGET_HELP + ONE_MATCH_FOLDER)

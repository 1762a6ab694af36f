"""``daishi-forensics behavior``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from daishi_forensics import exitcodes
from daishi_forensics.report.behavior import baseline_from
from daishi_forensics.report.behavior import behavior as build_report
from daishi_forensics.report.render import behavior as render

from ._common import TARGET_HELP, handle_errors, input_options, set_help, write_output

FORMATS = ("text", "json", "markdown", "html")


@click.command(epilog=exitcodes.epilog(
    findings="findings: the report lists a finding (archive figures the events contradict, errata, invalid "
             "records, an unreadable report) or the screens say review/flag (the report is complete either way)"))
@click.argument("target", metavar="TARGET")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text (default on a terminal), json (default when piped; versioned, deterministic), markdown, "
                   "html (one self-contained page with plots; use -o).")
@click.option("--baseline", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Folder of reference-bot matches on the same seeds: each harm rate (per 100 rounds "
                   "alive) is normalized as 100 x rate / the baseline's mean rate.")
@click.option("--scrub/--no-scrub", default=True, show_default=True,
              help="Mask secrets and personal data in message text shown by markdown and html.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to this file.")
@input_options
@handle_errors
def behavior(target: str, fmt: str | None, output: Path | None, baseline: Path | None, scrub: bool,
             store: Path | None, server: str | None) -> None:
    """What each seat did and with whom, rebuilt from the event log.

    Replays the match once, tick by tick: positions, seat contact, witness
    chances, the trade ledger (net share, credited trades, commons share,
    circular reputation), map coverage and the rubric's counters, then checks the
    archive's stamped figures against the events and lists every disagreement as
    a finding. Try it on the embedded demo: `daishi-forensics behavior m_demo`
    (planted with collusion: it exits 1, findings).
    """
    if fmt is None:
        fmt = "text" if output is None and sys.stdout.isatty() else "json"
    means = baseline_from(baseline) if baseline is not None else None
    result = build_report(target, store=store, server=server, baseline=means)
    if fmt == "html":
        from daishi_forensics.report.evidence import cited_ids, fetch_events
        from daishi_forensics.report.render.html import render_html
        from daishi_forensics.read.sources import open_match

        events = fetch_events(open_match(target, store=store, server=server), cited_ids(result.report), scrub=scrub)
        text = render_html(result.report, events=events)
    else:
        text = {"text": render.render_text, "json": render.render_json, "markdown": render.render_markdown}[fmt](
            result.report
        )
    write_output(text, output)
    raise SystemExit(result.exit_code)


set_help(behavior, TARGET_HELP)

"""``daishi-forensics behavior``."""

from __future__ import annotations

from pathlib import Path

import click

from daishi_forensics import exitcodes
from daishi_forensics.report.listing import CONTACT_PAIRS_LISTED

from ._common import (output_named, ONE_MATCH_FOLDER, TARGET_HELP, color_option, format_for, handle_errors, input_options, not_empty, say, set_help,
                      text_width, use_color, write_output)
from ._progress import Progress, progress_for, progress_options

FORMATS = ("text", "json", "markdown", "html")


@click.command(epilog=exitcodes.epilog(
    findings="findings: the report lists a finding (archive figures the events contradict, errata, invalid "
             "records, an unreadable report) or the screens say review/flag (the report is complete either way)"))
@click.argument("target", metavar="TARGET", callback=not_empty)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text (the default, on a terminal and in a pipe alike), json (versioned, deterministic: only "
                   "when asked), markdown, html (one self-contained page with plots). Without it, the name given "
                   "to -o decides: .html, .md, .json, .txt.")
@click.option("--agent", "agent", metavar="NAME|ID",
              help="Put one seat in focus (its name or agent id): what it did, its flags and why, where it "
                   "stands among the others, its counterparties and the messages that mattered come first, "
                   "and in text, Markdown and HTML the tables of pairs, probes, chains and flags keep only its rows "
                   "(each says so). The JSON report keeps every row and adds the seat's view as 'focus'.")
@click.option("--baseline", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Folder of reference-bot matches on the same seeds: each harm rate (per 100 rounds "
                   "alive) is normalized as 100 x rate / the baseline's mean rate. What the read of a baseline "
                   "match found (a byte-order mark, a misnamed file, records that failed validation, a log that "
                   "ends before its match did) is said on stderr; it is not a finding of the report.")
@click.option("--scrub/--no-scrub", default=True, show_default=True,
              help="Mask secrets and personal data in message text and events shown by text, markdown and html.")
@click.option("--all-pairs", is_flag=True,
              help="List every pair that met in the seat contact table. By default, past "
                   f"{CONTACT_PAIRS_LISTED:,} pairs (a crowd in one region meets pairwise) it lists those with the most "
                   "ticks together and gives each seat's totals.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), callback=output_named, help="Write to this file.")
@color_option
@progress_options
@input_options
@handle_errors
def behavior(target: str, fmt: str | None, agent: str | None, output: Path | None, baseline: Path | None,
             scrub: bool, all_pairs: bool, color: bool | None, quiet: bool, progress: bool, store: Path | None,
             server: str | None) -> None:
    """What each seat did and with whom, rebuilt from the event log.

    Replays the match once, tick by tick: positions, seat contact, witness
    chances, the trade ledger (net share, credited trades, commons share,
    circular reputation), map coverage and the rubric's counters, then checks the
    archive's stamped figures against the events and lists every disagreement as
    a finding. The report opens with the verdict and a summary (the flags per
    agent and why, findings, probes complied with, one line per seat), then the
    contents; the long tables come last. Text wraps to the terminal's width
    (COLUMNS; 100 when not a terminal). Try it on the embedded demo:
    `daishi-forensics behavior m_demo --agent Ash -o ash.html` (planted with
    collusion: it exits 1, findings).
    """
    from daishi_forensics.report.secrets_ahead import start as scan_secrets_ahead

    ahead = scan_secrets_ahead(target, store=store)  # first: Presidio's start-up beside the report's own
    try:
        text, code = _report(target, fmt, agent, output, baseline, scrub, all_pairs, color, quiet, progress, store,
                             server)
    finally:
        if ahead is not None:
            ahead.cancel()
    write_output(text, output)
    raise SystemExit(code)


def _report(target: str, fmt: str | None, agent: str | None, output: Path | None, baseline: Path | None,
            scrub: bool, all_pairs: bool, color: bool | None, quiet: bool, progress: bool, store: Path | None,
            server: str | None) -> tuple[str | bytes, int]:
    """The report in its format and the exit code (JSON as its UTF-8 bytes: the largest of the formats,
    never held as text)."""
    from daishi_forensics.read.sources import open_match
    from daishi_forensics.report.behavior import baseline_from
    from daishi_forensics.report.behavior import behavior as build_report
    from daishi_forensics.report.evidence import fetch_events
    from daishi_forensics.report.render import behavior as render

    fmt = format_for(fmt, output, FORMATS)
    width = text_width() if fmt == "text" else 100
    with progress_for(f"behavior {target}", quiet, progress) as line:
        line.stage("reading and analysing the match")
        means = baseline_from(baseline, on_note=lambda note: _say_note(note, line)) if baseline is not None else None
        result = build_report(target, store=store, server=server, baseline=means, agent=agent, all_pairs=all_pairs)
        report = result.report
        wanted = render.event_ids_shown(report, every=fmt == "html") if fmt != "json" else []
        events = None
        if wanted:
            line.stage("fetching the cited events")
            events = fetch_events(open_match(target, store=store, server=server), wanted, scrub=scrub)
        text: str | bytes
        if fmt == "html":
            from daishi_forensics.report.render.html import render_html

            line.stage("drawing the page")
            text = render_html(report, events=events or {}, scrub=scrub)
        elif fmt == "text":
            text = render.render_text(report, width=width, color=use_color(color, output), events=events,
                                      scrub=scrub)
        elif fmt == "markdown":
            text = render.render_markdown(report, events=events, scrub=scrub)
        else:
            text = render.render_json_bytes(report)
    return text, result.exit_code


def _say_note(note: str, line: Progress) -> None:
    """A note of a baseline match's read (a byte-order mark read past, a file named for another match), on
    stderr as every command says a note it does not report; the progress line cleared first."""
    line.clear()
    say(f"daishi-forensics: note: {note}", err=True)


set_help(behavior, TARGET_HELP + ONE_MATCH_FOLDER)

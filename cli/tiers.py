"""``daishi-forensics tiers``: classify every line of a message corpus."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from daishi_forensics import exitcodes
from daishi_forensics.errors import InputUnreadable
from daishi_forensics.jsonio import dumps_line
from daishi_forensics.outputs import atomic_file, write_stdout

from ._common import import_late, imported_late, output_named, handle_errors, is_stdout, say
from ._progress import progress_for, progress_options

if TYPE_CHECKING:
    from daishi_forensics.injection.tiers import TIERS, classify_records, corpus_loads
    from daishi_forensics.read.sources import json_lines

_LATE = {
    "TIERS": "daishi_forensics.injection.tiers",
    "classify_records": "daishi_forensics.injection.tiers",
    "corpus_loads": "daishi_forensics.injection.tiers",
    "json_lines": "daishi_forensics.read.sources",
}
"""What the command imports when it runs, not when its ``--help`` is asked for."""


def __getattr__(name: str) -> Any:
    return imported_late(globals(), _LATE, name)


UNCLASSIFIED = "unclassified"
"""The summary's row for lines that are not a JSON object with a string text (their tier is null)."""


def _line_json(record: dict[str, Any]) -> str:
    try:
        return dumps_line(record)
    except TypeError:  # lone surrogates kept from the input: escape them
        return json.dumps(record, sort_keys=True, ensure_ascii=True, separators=(",", ":")) + "\n"


def _tabular(file: str) -> bool:
    """Whether the corpus is named like a table (``.csv``, ``.tsv``, gzipped or not)."""
    name = file.lower().removesuffix(".gz")
    return name.endswith((".csv", ".tsv"))


def _label_key(label: Any) -> str:
    """The summary's name for an input label: a string as it is; an empty string, and a label that is not a
    string (a number, true, a list), said so, so that none is counted with "no label" or with a string
    label that reads the same (1 and "1", true and "True")."""
    if label is None:
        return ""
    if isinstance(label, str):
        return label if label else '"" (empty)'
    try:
        text = json.dumps(label, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        text = repr(label)
    return f"{text} (not a string)"


@click.command(epilog=exitcodes.epilog(
    ok="every line classified",
    findings="some line is blank or not a JSON object with a string text, or repeats a key (it gets tier null "
             "and the reason)",
    unreadable="the corpus could not be read") + " Example: daishi-forensics tiers messages.jsonl -o tiers.jsonl")
@click.argument("file", metavar="FILE.jsonl")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), callback=output_named,
              help="Write to this file (- for standard output).")
@click.option("--scrub", is_flag=True, help="Replace secrets and personal data in each text (Presidio) in the output.")
@click.option("--summary", is_flag=True, help="Print counts per tier (and per input label, if any) on stderr.")
@click.option("--no-model", "no_model", is_flag=True,
              help="Rules only: leave out the learned score (its verdicts have the rule learned-score).")
@progress_options
@handle_errors
def tiers(file: str, output: Path | None, scrub: bool, summary: bool, no_model: bool, quiet: bool,
          progress: bool) -> None:
    """Classify the `text` of every line of a JSON Lines corpus as persuasion, hijack or protocol.

    Writes one JSON line per input line: the input's fields, plus `tier`, `rule`
    (the deciding rule), `reason` (the rule and the text it matched), `score` (the
    learned score, when it decided) and `truncated` (only the first 32,768
    characters are read). A message no rule flags goes to the learned score when it
    shows a sign of addressing a model; at or over the model's threshold it is
    `hijack` with the rule `learned-score` and the n-grams that weighed most.
    `--no-model` uses the rules alone. A line that is not a JSON object with a
    string `text`, repeats a key (two `text`s: which is meant?), or is blank, gets `tier: null` and the reason (blank lines at
    the end of the file are left out), so the output stays in step with the input
    line by line. An input field named like one of these (a `tier` label column)
    is kept under `inputFields`, not replaced. Measure the classifier on any
    labelled corpus by comparing `tier` with its labels: `--summary` reads the
    label from `label`, else from the input's own `tier`.
    FILE is a regular file, gzipped (.gz) or not, or - for stdin; it is read with the
    limits of a match stream (a line of at most 64 MiB, a .gz inflating to at most 4 GiB).
    A file named .csv or .tsv whose first line is not JSON is refused as a table (exit 3).
    """
    import_late(globals(), _LATE)
    if not file:
        raise click.UsageError("FILE is empty: give a file name or - for standard input")
    counts: Counter[tuple[str, str]] = Counter()
    bad = 0
    lines = 0
    records = json_lines(file, loads=corpus_loads)
    with contextlib.ExitStack() as stack:
        stack.callback(records.close)
        line = stack.enter_context(progress_for(f"tiers {file}", quiet, progress))
        write = (stack.enter_context(atomic_file(output)).write if output is not None and not is_stdout(output)
                 else write_stdout)
        rows = classify_records(records, scrub_text=scrub, model=not no_model)
        while True:
            try:
                row = next(rows, None)
            except OSError as exc:
                raise InputUnreadable(f"could not be read: {exc}", file=file) from None
            if row is None:
                break
            if not lines and not row.ok and _tabular(file) and str(row.record.get("reason", "")).startswith(
                    "line 1 is not JSON"):
                raise InputUnreadable("a CSV or TSV table, not JSON Lines: give one JSON object a line with the "
                                      'message in "text" (for example {"text": "...", "label": "..."})', file=file)
            write(_line_json(row.record))
            lines += 1
            if not lines % 1000:
                line.stage(f"{lines:,} lines classified")
            if not row.ok:
                bad += 1
            label = row.record.get("label")
            if label is None:
                own = row.record.get("inputFields")
                label = own.get("tier") if isinstance(own, dict) else None
            tier = row.record.get("tier")
            counts[(str(tier) if tier is not None else UNCLASSIFIED, _label_key(label))] += 1
    if summary:
        labels = sorted({lab for _t, lab in counts})
        for tier in (*TIERS, UNCLASSIFIED):
            if tier == UNCLASSIFIED and not any(counts[(tier, lab)] for lab in labels):
                continue
            per = ", ".join(f"{'labelled ' + lab if lab else 'no label'}: {counts[(tier, lab)]}"
                            for lab in labels if counts[(tier, lab)])
            name = ("not classified (blank, not a JSON object with a string text, or a key repeated)" if tier == UNCLASSIFIED else tier)
            say(f"{name}: {sum(counts[(tier, lab)] for lab in labels)}" + (f" ({per})" if per else ""), err=True)
    raise SystemExit(exitcodes.FINDINGS if bad else exitcodes.OK)

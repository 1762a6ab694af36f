"""Node precision and recall of the screens on a labelled table of transfers from anywhere.

For measuring the screens on data this project never generated: a laundering simulator's output,
a bank's labelled sample, another game's trades.  The table is read exactly as
``daishi-forensics screen-transfers`` reads it (same columns, same rules, same ``--tick-kind``: a bad
row stops the run with its line and column), screened once with the shipped configuration (or ``--config``), and
compared with the labels:

- **labelled accounts**: every account at either end of a row whose ``--label`` column is true
  (``1``, ``true``, ``yes``, ``y``, ``t``, any case; JSON ``true`` or a non-zero number), and/or
  every account of an ``--accounts`` table whose ``--account-label`` column is true;
- **flagged accounts**: every account named by a flag of any screen (``--typologies-only``: of
  the laundering typologies only, fans / scatter-gather / value cycles);
- node **recall** = labelled accounts flagged / labelled accounts; node **precision** = flagged
  accounts that are labelled / flagged accounts, each with its 95% Wilson interval; then the
  flags by screen and kind, and, where ``--kind`` names a column of the transfers (a typology or
  alert type), recall by that kind.

Nothing here is tuned: the figures are a measurement of the shipped screens on whatever split the
table is, and the output says which file it was.  Example (a laundering simulator's output)::

    python bench/labelled_table.py transactions.csv --from SENDER_ACCOUNT_ID --to RECEIVER_ACCOUNT_ID \\
        --value TX_AMOUNT --tick TIMESTAMP --id TX_ID --label IS_FRAUD --kind ALERT_ID
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _labelled import rate, rate_line  # noqa: E402

TYPOLOGY_SCREENS = ("fans", "scatter_gather", "value_cycles")
TRUE_WORDS = frozenset({"1", "true", "yes", "y", "t"})




def is_true(cell: Any) -> bool:
    """A label cell read as true: JSON true, a non-zero number, or one of :data:`TRUE_WORDS`."""
    if isinstance(cell, bool):
        return cell
    if isinstance(cell, (int, float)):
        return cell != 0
    return isinstance(cell, str) and cell.strip().lower() in TRUE_WORDS


def labelled_from_transfers(rows: Iterable[tuple[int, Mapping[str, Any]]], source: str, target: str, label: str,
                            kind: str | None) -> tuple[set[str], dict[str, set[str]]]:
    """Accounts at either end of a row labelled true, and those accounts by the row's ``kind``."""
    labelled: set[str] = set()
    by_kind: dict[str, set[str]] = {}
    for _line, row in rows:
        if not is_true(row.get(label)):
            continue
        ends = {str(row[source]).strip(), str(row[target]).strip()}
        labelled |= ends
        if kind is not None:
            by_kind.setdefault(str(row.get(kind, "")).strip() or "(none)", set()).update(ends)
    return labelled, by_kind


def labelled_from_accounts(rows: Iterable[tuple[int, Mapping[str, Any]]], account: str, label: str) -> set[str]:
    """Accounts of an account table whose label is true."""
    return {str(row[account]).strip() for _line, row in rows if is_true(row.get(label))}


def score(flags: Iterable[Any], labelled: set[str], by_kind: Mapping[str, set[str]],
          typologies_only: bool) -> dict[str, Any]:
    """Node recall and precision of ``flags`` against ``labelled`` (exact counts and Wilson intervals)."""
    kept = [f for f in flags if not typologies_only or f.screen in TYPOLOGY_SCREENS]
    flagged = {str(a) for f in kept for a in f.agents}
    hit = flagged & labelled
    return {
        "recall": rate(len(hit), len(labelled)),
        "precision": rate(len(hit), len(flagged)),
        "flagsByScreen": dict(sorted(Counter(f"{f.screen}/{f.kind}" for f in kept).items())),
        "recallByKind": {k: rate(len(v & flagged), len(v)) for k, v in sorted(by_kind.items())},
    }




def main(argv: list[str] | None = None) -> int:
    from daishi_forensics.read.transfers import TICK_KINDS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="Labelled accounts come from --label, --accounts or both.")
    parser.add_argument("table", type=Path, help="the transfers: CSV with a header, or JSON lines (optionally .gz)")
    parser.add_argument("--from", dest="source", default="from", help="column: who paid (default from)")
    parser.add_argument("--to", dest="target", default="to", help="column: who was paid (default to)")
    parser.add_argument("--value", default="value", help="column: how much (default value)")
    parser.add_argument("--tick", default="tick", help="column: when (default tick)")
    parser.add_argument("--tick-kind", choices=TICK_KINDS, default="auto",
                        help="how the --tick column is read, as screen-transfers reads it: auto (numbers as numbers, "
                             "dates as dates; 8-digit YYYYMMDD ticks as dates when every tick is one), number (step "
                             "counts that only look like dates) or date (default auto)")
    parser.add_argument("--id", dest="id_column", default=None, help="column: the transfer's id (default: line)")
    parser.add_argument("--label", default=None, help="column of the transfers: true where the transfer is laundering")
    parser.add_argument("--kind", default=None, help="column of the transfers naming the case or typology (recall by it)")
    parser.add_argument("--accounts", type=Path, default=None, help="an account table with a label column")
    parser.add_argument("--account-id", default="ACCOUNT_ID", help="its account column (default ACCOUNT_ID)")
    parser.add_argument("--account-label", default="IS_SAR", help="its label column (default IS_SAR)")
    parser.add_argument("--typologies-only", action="store_true",
                        help="count the laundering typologies' flags only (fans, scatter-gather, value cycles)")
    parser.add_argument("--config", type=Path, default=None, help="a screens configuration override (JSON)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    if args.label is None and args.accounts is None:
        parser.error("give --label (a column of the transfers), --accounts (an account table) or both")

    from daishi_forensics.errors import ForensicsError
    from daishi_forensics.read.transfers import TransferColumns, read_transfer_table, table_rows
    from daishi_forensics.screens import screen_graph
    from daishi_forensics.screens.config import load_config

    columns = TransferColumns(args.source, args.target, args.value, args.tick, args.id_column)
    try:
        graph = read_transfer_table(args.table, columns, tick_kind=args.tick_kind)
        labelled: set[str] = set()
        by_kind: dict[str, set[str]] = {}
        if args.label is not None:
            labelled, by_kind = labelled_from_transfers(table_rows(args.table), args.source, args.target,
                                                        args.label, args.kind)
        if args.accounts is not None:
            labelled |= labelled_from_accounts(table_rows(args.accounts), args.account_id, args.account_label)
    except ForensicsError as exc:
        print(f"labelled_table: error: {exc}", file=sys.stderr)
        return 3
    config = load_config(args.config)
    started = time.process_time()
    result = screen_graph(graph, config)
    cpu = time.process_time() - started
    figures = {"table": str(args.table), "transfers": graph.number_of_edges(), "accounts": graph.number_of_nodes(),
               "labelledAccounts": len(labelled), "configVersion": config.version, "verdict": result.verdict,
               "typologiesOnly": args.typologies_only, "screenCpuSeconds": round(cpu, 2),
               **score(result.flags, labelled, by_kind, args.typologies_only)}
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    print(f"{args.table}: {figures['transfers']:,} transfers, {figures['accounts']:,} accounts, "
          f"{len(labelled):,} labelled; screens config {config.version}; verdict {result.verdict}; "
          f"screen_graph {cpu:.1f} s CPU")
    print("split: the whole table (nothing here is tuned on it)")
    print(rate_line("node recall", figures["recall"]))
    print(rate_line("node precision", figures["precision"]))
    for kind, r in figures["recallByKind"].items():
        print(rate_line(f"recall, {args.kind} {kind}"[:28], r))
    print(f"  flags by screen/kind: {figures['flagsByScreen']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

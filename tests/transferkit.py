"""Transfer tables built by hand for the tests: forty accounts paying each other (nothing to find)
and a value cycle planted in them."""

from __future__ import annotations

import csv
import gzip
from pathlib import Path
from typing import Any

import orjson

from daishi_forensics.read.transfers import TransferColumns

AML = TransferColumns(source="SENDER", target="RECEIVER", value="AMOUNT", tick="STEP", id="TX")


def background_rows(n: int = 400) -> list[dict[str, Any]]:
    """Forty accounts paying each other, one transfer a tick, amounts 5..101 (nothing to find)."""
    return [{"TX": f"n{i}", "SENDER": f"b{i % 40}", "RECEIVER": f"b{(i * 7 + 3) % 40}",
             "AMOUNT": 5.0 + (i * 37) % 97, "STEP": i} for i in range(n)]


def cycle_rows() -> list[dict[str, Any]]:
    """Value passed round a, b, c, d two ticks a hop, each keeping a tenth: a value cycle."""
    members = ["a", "b", "c", "d"]
    values = [1000.0, 900.0, 810.0, 729.0]
    return [{"TX": f"c{hop}", "SENDER": members[hop], "RECEIVER": members[(hop + 1) % 4], "AMOUNT": value,
             "STEP": 100 + 2 * hop} for hop, value in enumerate(values)]


def write_csv(path: Path, rows: list[dict[str, Any]], header: list[str] | None = None) -> Path:
    header = header or ["TX", "SENDER", "RECEIVER", "AMOUNT", "STEP"]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for row in rows:
            writer.writerow([row.get(h, "") for h in header])
    return path


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    data = b"".join(orjson.dumps(row) + b"\n" for row in rows)
    path.write_bytes(gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)
    return path

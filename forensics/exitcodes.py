"""The one exit-code table of every ``daishi-forensics`` command.

| code | name | meaning |
| --- | --- | --- |
| 0 | ``OK`` | clean: valid input, no findings, screens clear, scores reproduced |
| 1 | ``FINDINGS`` | the input was read and something was found: invalid events, a screen verdict of review/flag, a score that differs |
| 2 | ``USAGE`` | the command line was wrong (unknown option, bad value) |
| 3 | ``UNREADABLE`` | an input could not be read at all (missing, truncated, not JSON, not UTF-8, over a size limit, a server that failed) |
"""

from __future__ import annotations

OK = 0
FINDINGS = 1
USAGE = 2
UNREADABLE = 3

TABLE = (
    (OK, "clean: valid input, no findings"),
    (FINDINGS, "findings: invalid events, screen verdict review/flag, or a score that differs"),
    (USAGE, "usage error"),
    (UNREADABLE, "input could not be read"),
)

HELP_EPILOG = "Exit codes: " + "; ".join(f"{code} {text}" for code, text in TABLE) + "."

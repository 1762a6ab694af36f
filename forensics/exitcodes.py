"""The one exit-code table of every ``daishi-forensics`` command.

| code | name | meaning |
| --- | --- | --- |
| 0 | ``OK`` | clean: valid input, no findings, screens clear, scores reproduced |
| 1 | ``FINDINGS`` | the input was read and something was found: invalid events, a screen verdict of review/flag, a score that differs |
| 2 | ``USAGE`` | the command line was wrong (unknown option, bad value) |
| 3 | ``UNREADABLE`` | an input could not be read at all (missing, truncated, not JSON, not UTF-8, over a size limit, a server that failed) |

One command reads 2 differently.  ``study audit`` keeps the exit codes the
study recompute script publishes (seed 000, *Recomputing a study yourself*):
0 every figure matches and every check agrees, 1 one does not, 2 the study
cannot be read -- it is still playing (the server answers 409 with the page's
reason), a file or the page is missing, malformed or unreachable, or the command
line was wrong.  That command never exits 3: :data:`STUDY_UNREADABLE` is its
"cannot read", and it shares the number with :data:`USAGE`.
"""

from __future__ import annotations

OK = 0
FINDINGS = 1
USAGE = 2
UNREADABLE = 3
STUDY_UNREADABLE = 2
"""``study audit`` only: the study cannot be read (not yet published, a file missing or malformed)."""

TABLE = (
    (OK, "clean: valid input, no findings"),
    (FINDINGS, "findings: invalid events, screen verdict review/flag, or a score that differs"),
    (USAGE, "usage error"),
    (UNREADABLE, "input could not be read"),
)

HELP_EPILOG = "Exit codes: " + "; ".join(f"{code} {text}" for code, text in TABLE) + "."

STUDY_TABLE = (
    (OK, "every figure matches the page and every check agrees"),
    (FINDINGS, "a figure differs or a check disagrees"),
    (STUDY_UNREADABLE, "the study cannot be read (not yet published: 409 and its reason; a file missing or "
                       "malformed; a usage error); this command never exits 3"),
)

STUDY_HELP_EPILOG = "Exit codes: " + "; ".join(f"{code} {text}" for code, text in STUDY_TABLE) + "."

"""The one exit-code table of every ``daishi-forensics`` command.

| code | name | meaning |
| --- | --- | --- |
| 0 | ``OK`` | clean: valid input, no findings, screens clear, scores reproduced |
| 1 | ``FINDINGS`` | the input was read and something was found: invalid events, a finding of the behavior report, a screen verdict of review/flag, a score that differs |
| 2 | ``USAGE`` | the command line was wrong: an unknown option, a bad value, an unusable setting (an environment variable, a configuration key, a server or cluster address) |
| 3 | ``UNREADABLE`` | an input could not be read at all (missing, truncated, not JSON, not UTF-8, over a size limit, a server that failed) |
| 70 | ``INTERNAL`` | an internal error of the tool (a bug): one line on stderr, ``--debug`` shows the traceback |
| 74 | ``OUTPUT`` | the output could not be written (missing folder, disk full, permission denied); an older file at ``-o`` is left untouched |

A run ended by a signal is no row of the table: Ctrl-C (SIGINT) stops a command with
:data:`INTERRUPTED` (130, 128 + the signal's number, as a shell reports a command a signal
ended), saying ``interrupted``; SIGTERM (a supervisor, ``timeout``, ``kill``) ends it as that
signal does -- a command that forked ends its children and dies of the signal again -- so it
returns no code, and a shell sees 143 (128 + 15).  Neither is listed in a command's ``--help``,
whose exit-code line says what the command's run concluded.

70 and 74 are the ``sysexits.h`` codes ``EX_SOFTWARE`` and ``EX_IOERR``, so cron and CI
can tell a crash or a full disk from a finding.  A command for which a row cannot happen
(``simulate`` reads no input and finds nothing) says so in its own ``--help``: every
command builds its exit-code line with :func:`epilog` from this table.

One command reads 2 differently.  ``study audit`` keeps the exit codes the
study recompute script publishes (the study recompute script's own table):
0 every figure matches and every check agrees, 1 one does not, 2 the study
cannot be read -- it is still playing (the server answers 409 with the page's
reason), a file is missing, malformed or unreachable, the page malformed or unreachable, or the command
line was wrong.  That command never exits 3: :data:`STUDY_UNREADABLE` is its
"cannot read", and it shares the number with :data:`USAGE`.
"""

from __future__ import annotations

OK = 0
FINDINGS = 1
USAGE = 2
UNREADABLE = 3
INTERNAL = 70
OUTPUT = 74
INTERRUPTED = 130
"""Ctrl-C: the run was stopped (128 + SIGINT's 2, the code a shell gives a command the signal ended)."""
STUDY_UNREADABLE = 2
"""``study audit`` only: the study cannot be read (not yet published, a file missing or malformed)."""

TABLE = (
    (OK, "clean: valid input, no findings"),
    (FINDINGS, "findings: invalid events, screen verdict review/flag, or a score that differs"),
    (USAGE, "usage error"),
    (UNREADABLE, "input could not be read"),
    (INTERNAL, "internal error (--debug shows the traceback)"),
    (OUTPUT, "output could not be written"),
)

_MEANING = dict(TABLE)


def epilog(**meanings: str | None) -> str:
    """The ``Exit codes: …`` line of one command's ``--help``, from :data:`TABLE`.

    Keyword arguments name a code (``ok``, ``findings``, ``usage``, ``unreadable``,
    ``internal``, ``output``) and say what it means for this command; ``None`` leaves
    out a code the command can never exit with.

    >>> epilog(findings=None, unreadable=None)
    'Exit codes: 0 clean: valid input, no findings; 2 usage error; 70 internal error (--debug shows the traceback); 74 output could not be written.'
    """
    names = {"ok": OK, "findings": FINDINGS, "usage": USAGE, "unreadable": UNREADABLE, "internal": INTERNAL,
             "output": OUTPUT}
    unknown = set(meanings) - set(names)
    if unknown:
        raise TypeError(f"unknown exit code {'name' if len(unknown) == 1 else 'names'}: {', '.join(sorted(unknown))}")
    parts = []
    for name, code in names.items():
        text = meanings.get(name, _MEANING[code])
        if text is not None:
            parts.append(f"{code} {text}")
    return "Exit codes: " + "; ".join(parts) + "."


HELP_EPILOG = epilog()
"""The whole table as one ``--help`` line (the group's, and commands that use every code)."""

STUDY_HELP_EPILOG = epilog(
    ok="every figure matches the page and every check agrees (with no page, neither study.json nor --page: every "
       "check of the files agrees, no figure compared)",
    findings="a figure differs or a check disagrees",
    usage="the study cannot be read (not yet published: 409 and its reason; a file missing or malformed, the page "
          "malformed or unreachable; a usage error)",
    unreadable=None,
)
"""``study audit``'s line: its 2 means the study cannot be read, and it never exits 3."""

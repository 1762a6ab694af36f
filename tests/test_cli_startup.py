"""The command line starts without importing what it does not need: ``--help`` lists the commands
from a table of their short helps (held to each command's own), and ``screen --help`` or
``validate`` import neither the screens, networkx nor the tier rules before they are needed."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from daishi_forensics.cli import COMMANDS, SHORT_HELPS, main


def _imported_by(args: list[str]) -> tuple[int, list[str]]:
    """Run the command line in a fresh interpreter; its exit code and the modules it imported
    (of this package, networkx and numpy)."""
    code = (
        "import sys\n"
        "from daishi_forensics.cli import main\n"
        "try:\n"
        f"    main({args!r}, prog_name='daishi-forensics')\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "sys.stdout.flush()\n"
        "sys.stderr.write(repr(code) + '\\n')\n"
        "sys.stderr.write(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in\n"
        "                 ('daishi_forensics', 'networkx', 'numpy'))))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    code_line, modules = run.stderr.rsplit("\n", 2)[-2:]
    return int(code_line), modules.split()


def test_every_short_help_is_the_commands_own() -> None:
    """``--help`` lists the short helps from ``SHORT_HELPS``: an entry that drifts from the command's
    own first sentence (or a command missing from the table) fails here."""
    ctx = click.Context(main)
    assert list(SHORT_HELPS) == list(COMMANDS)
    for name in COMMANDS:
        command = main.get_command(ctx, name)
        assert command is not None, name
        assert SHORT_HELPS[name] == command.get_short_help_str(10**6), name
        for limit in range(0, 130):
            assert click.Command(name, help=SHORT_HELPS[name]).get_short_help_str(limit) == \
                command.get_short_help_str(limit), (name, limit)


@pytest.mark.parametrize("width", [40, 60, 80, 100, 120, 200])
def test_the_command_list_is_the_one_click_builds_from_the_commands(width: int) -> None:
    """The rows ``--help`` prints from the table are the ones click prints after importing every command."""
    ctx = click.Context(main, terminal_width=width)
    ours = click.HelpFormatter(width=width)
    main.format_commands(ctx, ours)
    clicks = click.HelpFormatter(width=width)
    click.Group.format_commands(main, ctx, clicks)
    assert ours.getvalue() == clicks.getvalue()
    assert ours.getvalue().startswith("Commands:\n  behavior ")


def test_help_imports_no_command_module() -> None:
    """``daishi-forensics --help`` imported every command module to read its short help (networkx, the
    screens, the tier rules compiling their patterns: 0.86 s); it imports none now."""
    code, modules = _imported_by(["--help"])
    assert code == 0
    commands = {f"daishi_forensics.cli.{target.split(':')[0]}" for target in COMMANDS.values()}
    assert not commands & set(modules), sorted(commands & set(modules))
    assert not [m for m in modules if m.split(".")[0] in ("networkx", "numpy")]
    assert not [m for m in modules if m.startswith(("daishi_forensics.screens", "daishi_forensics.injection"))]


@pytest.mark.parametrize(("word", "said"), [
    ("behaviour", "Error: No such command 'behaviour'. Did you mean 'behavior'?"),
    ("scren", "Error: No such command 'scren'. (Did you mean one of: 'score', 'screen'?)"),
    ("screen_transfers", "Error: No such command 'screen_transfers'. Did you mean 'screen-transfers'?"),
    ("xyz", "Error: No such command 'xyz'."),
])
def test_a_mistyped_command_is_told_the_closest_ones(word: str, said: str) -> None:
    """``daishi-forensics behaviour m_demo`` said only "No such command 'behaviour'." (exit 2): the group
    loads its commands lazily, so click had no names to suggest from; it names the closest now."""
    result = CliRunner().invoke(main, [word, "m_demo"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "Usage: main [OPTIONS] COMMAND [ARGS]...",
        "Try 'main --help' for help.",
        "",
        said,
    ]

"""The command line starts without importing what it does not need: ``--help`` lists the commands
from a table of their short helps (held to each command's own), and ``screen --help`` or
``validate`` import neither the screens, networkx nor the tier rules before they are needed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from daishi_forensics.cli import COMMANDS, SHORT_HELPS, main


def _imported_by(args: list[str]) -> tuple[int, list[str]]:
    """Run the command line in a fresh interpreter; its exit code and the modules it imported
    (of this package, networkx, numpy and jsonschema)."""
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
        "                 ('daishi_forensics', 'networkx', 'numpy', 'jsonschema', 'referencing'))))\n"
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


HEAVY = ("networkx", "numpy", "jsonschema", "daishi_forensics.screens", "daishi_forensics.report", "daishi_forensics.read",
         "daishi_forensics.injection", "daishi_forensics.schemas")


@pytest.mark.parametrize(("command", "module"), [
    ("screen", "screen"), ("validate", "validate"), ("propagation", "propagation"), ("screen-transfers", "transfers"),
    ("score", "score"), ("compare", "compare"), ("tiers", "tiers"), ("export", "export")])
def test_a_commands_help_imports_none_of_its_working_parts(command: str, module: str) -> None:
    """``screen --help`` imported every screen, networkx, numpy, the read boundary and the renderers
    (0.51 s); ``validate --help`` the read boundary, the schemas and jsonschema (0.21 s); the help of
    propagation, screen-transfers, score, compare, tiers and export each imported its command's work
    (the injection room and its tier rules, the screens, the report, pyarrow). They are imported when
    the command runs; the help imports none of them."""
    code, modules = _imported_by([command, "--help"])
    assert code == 0
    assert [m for m in modules if m == "daishi_forensics.cli." + module]
    assert not [m for m in modules if m.startswith((*HEAVY, "daishi_forensics.batch", "pyarrow"))]


@pytest.mark.parametrize("args", [
    ["season", "--help"], ["season", "screen", "--help"], ["season", "behavior", "--help"],
    ["schemas", "--help"], ["schemas", "list", "--help"], ["schemas", "show", "--help"],
    ["schemas", "export", "--help"]])
def test_the_help_of_season_and_schemas_imports_none_of_their_working_parts(args: list[str]) -> None:
    """``season --help`` imported the season runner, the read boundary, the schemas and jsonschema (0.20 s CPU,
    where ``--help`` takes 0.06 s); ``schemas --help`` the schema package, which imported jsonschema and
    referencing at its top (0.12 s). Each imports its command module alone now."""
    code, modules = _imported_by(args)
    assert code == 0
    assert [m for m in modules if m == f"daishi_forensics.cli.{args[0]}"]
    assert not [m for m in modules if m.startswith((*HEAVY, "referencing", "daishi_forensics.batch", "pyarrow"))]


def test_listing_showing_and_exporting_the_schemas_imports_no_jsonschema(tmp_path: Path) -> None:
    """The schema package imported jsonschema and referencing at its top, though only a validator or the
    registry needs them; ``schemas list``, ``show`` and ``export`` import neither now."""
    for args in (["schemas", "list", "--long"], ["schemas", "show", "gather", "--inline"],
                 ["schemas", "export", str(tmp_path / "out")]):
        code, modules = _imported_by(args)
        assert code == 0, args
        assert "daishi_forensics.schemas" in modules, args
        assert not [m for m in modules if m.split(".")[0] in ("jsonschema", "referencing")], args


def test_reading_a_valid_match_imports_no_jsonschema() -> None:
    """The read boundary's validation imported jsonschema (the detail path's engine) at its top, though only
    a record found invalid needs it: ``validate m_demo`` (every record valid) imports none of it now, and
    the schema package's validator is still there when asked for."""
    code, modules = _imported_by(["validate", "m_demo"])
    assert code == 0
    assert "daishi_forensics.read.validation" in modules
    assert not [m for m in modules if m.split(".")[0] in ("jsonschema", "referencing")]
    from daishi_forensics import schemas

    assert schemas.Validator is schemas.validator(schemas.load("event/rest")).__class__
    assert schemas.Validator.__name__ == "Validator" and "Validator" in schemas.__all__
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        _ = schemas.nope


def test_the_help_names_the_formats_and_defaults_the_command_uses() -> None:
    """The command modules spell out what their options offer, so their help imports no renderer:
    held here to the renderers' and the readers' own."""
    import daishi_forensics.cli.screen as screen_cli
    import daishi_forensics.cli.validate as validate_cli
    from daishi_forensics.read.validate import MAX_ERRORS
    from daishi_forensics.report.render import screens, validation

    assert screen_cli.FORMATS == screens.FORMATS == ("text", "json", "github", "sarif")
    assert validate_cli.FORMATS == validation.FORMATS == ("text", "json", "github")
    assert validate_cli.MAX_ERRORS == MAX_ERRORS == 50

    import daishi_forensics.cli.compare as compare_cli
    import daishi_forensics.cli.export as export_cli
    import daishi_forensics.cli.score as score_cli
    import daishi_forensics.cli.transfers as transfers_cli
    from daishi_forensics.batch.export import BATCH_ROWS
    from daishi_forensics.read.transfers import TICK_KINDS
    from daishi_forensics.report.render import compare, score

    assert transfers_cli.FORMATS == screens.FORMATS
    assert transfers_cli.TICK_KINDS == TICK_KINDS == ("auto", "number", "date")
    assert score_cli.FORMATS == score.FORMATS == ("text", "json")
    assert compare_cli.FORMATS == compare.FORMATS == ("text", "json", "markdown", "html")
    assert export_cli.BATCH_ROWS == BATCH_ROWS == 50_000


def test_a_command_modules_working_parts_are_its_attributes() -> None:
    """Imported late, the command's working parts are still attributes of its module (where a test
    patches them), the very objects of the modules that define them."""
    import daishi_forensics.cli.screen as screen_cli
    import daishi_forensics.cli.validate as validate_cli
    from daishi_forensics.read.validate import validate_targets
    from daishi_forensics.report.screening import screen_targets
    from daishi_forensics.screens.config import load_config

    assert screen_cli.screen_targets is screen_targets
    assert screen_cli.load_config is load_config
    assert validate_cli.validate_targets is validate_targets

    import daishi_forensics.cli.compare as compare_cli
    import daishi_forensics.cli.transfers as transfers_cli
    from daishi_forensics.report.behavior import behavior
    from daishi_forensics.screens import screen_graph

    assert compare_cli.build_report is behavior  # a name the command module gives it
    assert transfers_cli.screen_graph is screen_graph
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        _ = screen_cli.nope


def _fresh_imports(code: str) -> list[str]:
    run = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, timeout=120, check=True)
    return run.stdout.split()


def test_one_module_of_the_screens_imports_no_other_screen() -> None:
    """``import daishi_forensics.screens.config`` ran the package's ``__init__``, which imported every
    screen, networkx and numpy; the package's names are now imported when first asked for."""
    modules = _fresh_imports("import daishi_forensics.screens.config")
    assert [m for m in modules if m.startswith("daishi_forensics.screens")] == [
        "daishi_forensics.screens", "daishi_forensics.screens.config"]
    assert not [m for m in modules if m.split(".")[0] in ("networkx", "numpy")]


def test_one_module_of_the_replay_imports_no_other() -> None:
    """``replay.fork`` (the progress line's fork guard) imported the replay's driver, world and timeline."""
    modules = _fresh_imports("import daishi_forensics.replay.fork")
    assert [m for m in modules if m.startswith("daishi_forensics.replay")] == [
        "daishi_forensics.replay", "daishi_forensics.replay.fork"]


@pytest.mark.parametrize(("package", "names"), [
    ("daishi_forensics.screens", [
        "FORCED_KINDS", "SCREENS", "ConfigError", "Flag", "Level", "ScreenConfig", "ScreenInputError",
        "ScreenResult", "SeasonResult", "TransferView", "Verdict", "combine_graphs", "default_config",
        "load_config", "net_transfer_graph", "screen_graph", "screen_season", "verdict_of"]),
    ("daishi_forensics.replay", [
        "Catalogue", "CountingPass", "Event", "MatchAnalysis", "Pass", "PassFactory", "PassSpec", "RecordLog",
        "Rows", "ShapeTable", "Table", "Tally", "TickClosingPass", "Timeline", "World", "analyze",
        "analyze_target", "code_column", "int_column", "lazy", "paused_cycle_collection", "position", "replay"]),
])
def test_a_lazy_package_keeps_its_public_names(package: str, names: list[str]) -> None:
    """The same ``__all__``, every name the object its defining module holds, listed by ``dir()``, and
    ``from package import *`` binds them all; an unknown name is an AttributeError."""
    import importlib

    module = importlib.import_module(package)
    assert module.__all__ == names
    assert set(names) <= set(dir(module))
    for name in names:
        value = getattr(module, name)
        defining = importlib.import_module(module._EXPORTS[name], package)  # ".world": from the package
        assert value is getattr(defining, name), name
    star: dict[str, object] = {}
    exec(f"from {package} import *", star)  # noqa: S102 - a fixed import statement
    assert set(names) <= set(star)
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        _ = module.nope

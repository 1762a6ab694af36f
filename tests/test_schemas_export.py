"""`schemas export --inline`: every file self-contained, for a validator without a registry."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from daishi_forensics import jsonio, schemas
from daishi_forensics.cli import main

from .matchkit import ev


def test_export_inline_writes_each_schema_self_contained(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["schemas", "export", "--inline", str(tmp_path / "out")])
    assert result.exit_code == 0
    count = len(schemas.schema_names())
    assert f"wrote {count} schema files to {tmp_path / 'out'} (each self-contained)" in result.output
    for name in schemas.schema_names():
        path = tmp_path / "out" / ("events/" + name[len("event/"):] if name.startswith("event/") else name)
        text = path.with_name(path.name + ".json").read_text(encoding="utf-8")
        assert text == jsonio.dumps(schemas.inlined(name)) and '"$ref"' not in text


def test_an_inlined_file_validates_alone_as_the_package_does(tmp_path: Path) -> None:
    schemas.export(tmp_path, inline=True)
    alone = jsonschema.Draft202012Validator(json.loads((tmp_path / "events" / "gather.json").read_text()))
    good = ev(1, 0, "gather", "a_1", region="r_0_0", resource="wood", gathered=3)
    assert alone.is_valid(good)
    assert not alone.is_valid({**good, "payload": {**good["payload"], "gathered": -1}})


def test_export_help_names_inline() -> None:
    result = CliRunner().invoke(main, ["schemas", "export", "--help"])
    assert "--inline" in result.output and "check-jsonschema" in result.output


def test_list_says_which_schema_is_input_or_output() -> None:
    # plain: one name per line, for a script to loop over
    assert CliRunner().invoke(main, ["schemas", "list"]).output.splitlines() == list(schemas.schema_names())
    lines = CliRunner().invoke(main, ["schemas", "list", "--long"]).output.splitlines()
    assert len(lines) == len(schemas.schema_names())
    rows = {line.split()[0]: line.split()[1] for line in lines}
    assert rows["event/gather"] == rows["archive"] == rows["envelope-v2"] == rows["study-recipe"] == "input"
    assert rows["behavior-report"] == rows["compare"] == rows["study-audit"] == "output"
    assert rows["common"] == "shared"
    width = max(map(len, schemas.schema_names()))
    assert lines[0] == f"{'archive':<{width}}  input   a match's archive (validate, every analysis)"


def test_every_inlined_file_is_a_valid_schema_and_takes_the_demo_match(tmp_path: Path) -> None:
    import gzip

    import daishi_forensics

    written = schemas.export(tmp_path, inline=True)
    meta = jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA)
    for path in written:
        document = json.loads(path.read_text(encoding="utf-8"))
        assert list(meta.iter_errors(document)) == [], path
    demo = Path(daishi_forensics.__file__).parent / "demo" / "m_demo.jsonl.gz"
    with gzip.open(demo, "rt", encoding="utf-8") as lines:
        header = json.loads(next(lines))
        first_of_type: dict[str, dict[str, object]] = {}
        for line in lines:
            event = json.loads(line)
            first_of_type.setdefault(event["type"], event)

    def alone(relative: str) -> jsonschema.Draft202012Validator:  # no registry: nothing to resolve
        return jsonschema.Draft202012Validator(json.loads((tmp_path / relative).read_text(encoding="utf-8")))

    assert len(first_of_type) > 20
    for event_type, event in first_of_type.items():
        assert alone(f"events/{event_type}.json").is_valid(event), event_type
    assert alone("archive.json").is_valid(header["archive"])
    assert alone("stream-header.json").is_valid(header)


def test_the_help_warns_of_python_re_where_the_engines_differ(tmp_path: Path) -> None:
    # What the help says, checked: a stock Python validator passes a region with a final newline
    # (Python's `$`), jsonschema-rs (ECMA-262, as this tool) refuses it.
    import jsonschema_rs

    schemas.export(tmp_path, inline=True)
    gather = json.loads((tmp_path / "events" / "gather.json").read_text())
    record = ev(1, 0, "gather", "a_1", region="r_1_2\n", resource="wood", gathered=3)
    assert jsonschema.Draft202012Validator(gather).is_valid(record)
    assert not jsonschema_rs.validator_for(gather).is_valid(record)
    assert not schemas.validator(schemas.load("event/gather")).is_valid(record)
    help_text = " ".join(CliRunner().invoke(main, ["schemas", "--help"]).output.split())
    assert "also lets `$` match before a final newline" in help_text

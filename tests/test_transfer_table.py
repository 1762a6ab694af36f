"""A table of transfers from any system: read by its rules into the screens' graph, every bad row an
error naming the file, line and column, and ``screen-transfers`` screening it like a match."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.errors import InputTooLarge, InputUnreadable
from daishi_forensics.read.transfers import TransferColumns, read_transfer_table, transfer_graph

from .transferkit import AML, background_rows, cycle_rows, write_csv, write_jsonl

# --------------------------------------------------------------------------- reading


def test_csv_rows_become_edges_with_value_tick_and_id(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "t.csv", [
        {"TX": "x1", "SENDER": "a", "RECEIVER": "b", "AMOUNT": "10.5", "STEP": "3"},
        {"TX": "x2", "SENDER": "b", "RECEIVER": "c", "AMOUNT": "", "STEP": "4"},
    ])
    g = read_transfer_table(path, AML)
    assert sorted((u, v, d["value"], d["tick"], d["event"]) for u, v, d in g.edges(data=True)) == [
        ("a", "b", 10.5, 3.0, "x1"), ("b", "c", None, 4.0, "x2")]
    assert g.graph["name"] == str(path)


def test_without_an_id_column_the_line_number_is_the_id(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "t.csv", [{"SENDER": "a", "RECEIVER": "b", "AMOUNT": 1, "STEP": 0},
                                          {"SENDER": "a", "RECEIVER": "b", "AMOUNT": 2, "STEP": 1}],
                     header=["SENDER", "RECEIVER", "AMOUNT", "STEP"])
    g = read_transfer_table(path, TransferColumns("SENDER", "RECEIVER", "AMOUNT", "STEP"))
    assert [d["event"] for _, _, d in g.edges(data=True)] == ["2", "3"]


def test_gzipped_json_lines_read_the_same_as_csv(tmp_path: Path) -> None:
    rows = background_rows(30)
    a = read_transfer_table(write_csv(tmp_path / "t.csv", rows), AML)
    b = read_transfer_table(write_jsonl(tmp_path / "t.jsonl.gz", rows), AML)
    assert list(a.edges(data=True)) == list(b.edges(data=True))


def test_iso_dates_are_seconds_since_1970_utc() -> None:
    rows = [{"f": "a", "t": "b", "v": 1, "w": "1970-01-02"}, {"f": "a", "t": "b", "v": 1, "w": "1970-01-01T00:01:00Z"},
            {"f": "a", "t": "b", "v": 1, "w": "1970-01-01T01:00:00+01:00"}]
    g = transfer_graph(rows, TransferColumns("f", "t", "v", "w"), "x.jsonl")
    assert [d["tick"] for _, _, d in g.edges(data=True)] == [86400.0, 60.0, 0.0]


def test_a_byte_order_mark_at_the_start_is_no_part_of_the_first_column(tmp_path: Path) -> None:
    # a spreadsheet's "CSV UTF-8" export starts with one; JSON lines may too
    csv_path = tmp_path / "t.csv"
    csv_path.write_bytes(b"\xef\xbb\xbffrom,to,value,tick\na,b,5,1\n")
    jsonl_path = tmp_path / "t.jsonl"
    jsonl_path.write_bytes(b'\xef\xbb\xbf{"from": "a", "to": "b", "value": 5, "tick": 1}\n')
    for path, event in ((csv_path, "2"), (jsonl_path, "1")):
        g = read_transfer_table(path)
        assert list(g.edges(data=True)) == [("a", "b", {"value": 5.0, "tick": 1.0, "event": event})]


def test_a_byte_order_mark_past_the_start_stays_text(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes(b"from,to,value,tick\n\xef\xbb\xbfa,b,5,1\n")
    g = read_transfer_table(path)
    assert list(g.edges()) == [("\ufeffa", "b")]


@pytest.mark.parametrize(("ticks", "says"), [
    (["1", "2024-01-01T00:00:00Z"], "a tick is a date here and a number on line 2"),
    (["2024-01-01", "2", "3"], "a tick is a number here and a date on line 2"),
])
def test_ticks_mixing_numbers_and_dates_are_refused(tmp_path: Path, ticks: list[str], says: str) -> None:
    rows = [{"from": "a", "to": "b", "value": "1", "tick": t} for t in ticks]
    path = write_csv(tmp_path / "t.csv", rows, header=["from", "to", "value", "tick"])
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert (caught.value.line, caught.value.field) == (3, "tick")
    assert says in caught.value.message and "never both" in caught.value.message


@pytest.mark.parametrize(("row", "field", "says"), [
    ({"SENDER": "", "RECEIVER": "b", "AMOUNT": "1", "STEP": "0"}, "SENDER", "an account is required"),
    ({"SENDER": "a", "RECEIVER": "a", "AMOUNT": "1", "STEP": "0"}, "RECEIVER", "the same account"),
    ({"SENDER": "a", "RECEIVER": "b", "AMOUNT": "-1", "STEP": "0"}, "AMOUNT", "a finite number >= 0"),
    ({"SENDER": "a", "RECEIVER": "b", "AMOUNT": "ten", "STEP": "0"}, "AMOUNT", "not 'ten'"),
    ({"SENDER": "a", "RECEIVER": "b", "AMOUNT": "nan", "STEP": "0"}, "AMOUNT", "a finite number >= 0"),
    ({"SENDER": "a", "RECEIVER": "b", "AMOUNT": "1", "STEP": "soon"}, "STEP", "ISO 8601"),
    ({"SENDER": "a", "RECEIVER": "b", "AMOUNT": "1", "STEP": ""}, "STEP", "ISO 8601"),
])
def test_a_bad_row_names_the_file_line_and_column(tmp_path: Path, row: dict[str, str], field: str, says: str) -> None:
    good = {"SENDER": "a", "RECEIVER": "b", "AMOUNT": "1", "STEP": "0"}
    path = write_csv(tmp_path / "t.csv", [good, row], header=["SENDER", "RECEIVER", "AMOUNT", "STEP"])
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path, TransferColumns("SENDER", "RECEIVER", "AMOUNT", "STEP"))
    assert (caught.value.file, caught.value.line, caught.value.field) == (str(path), 3, field)
    assert says in caught.value.message


def test_a_missing_column_lists_the_columns_there_are(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "t.csv", [{"TX": "1", "SENDER": "a", "RECEIVER": "b", "AMOUNT": 1, "STEP": 0}])
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path, TransferColumns())
    assert str(caught.value) == (
        f"{path}, line 2, field from: no column 'from' (the row has 'TX', 'SENDER', 'RECEIVER', 'AMOUNT', 'STEP'; "
        "on the command line --from, --to, --value, --tick and --id name the table's columns)")


def test_a_repeated_id_names_both_lines(tmp_path: Path) -> None:
    rows = background_rows(3)
    rows[2]["TX"] = "n0"
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(write_csv(tmp_path / "t.csv", rows), AML)
    assert (caught.value.line, caught.value.field) == (4, "TX") and "already used on line 2" in caught.value.message


@pytest.mark.parametrize(("name", "content", "says"), [
    ("t.csv", b"TX,SENDER,RECEIVER,AMOUNT,STEP\n", "holds no transfer"),
    ("t.csv", b"", "holds no transfer"),
    ("t.csv", b"TX,SENDER,RECEIVER,AMOUNT,STEP\n1,a,b,1,0,extra\n", "more cells than the header"),
    ("t.csv", b"TX,TX,RECEIVER,AMOUNT,STEP\n1,a,b,1,0\n", "names a column twice"),
    ("t.csv", b"TX,SENDER,RECEIVER,AMOUNT,STEP\n1,\xff,b,1,0\n", "not UTF-8"),
    ("t.jsonl", b'{"TX": 1, "SENDER": "a"\n', "not JSON"),
    ("t.jsonl", b"[1, 2]\n", "not a JSON object"),
    ("t.jsonl.gz", b"\x1f\x8b\x08\x00cut", "cannot read"),
    ("t.txt", b"a,b\n", "named .csv or .jsonl"),
])
def test_an_unreadable_table_is_one_clear_error(tmp_path: Path, name: str, content: bytes, says: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path, AML)
    assert says in str(caught.value) and str(path) in str(caught.value)


# --------------------------------------------------------------------------- the command


def run(args: list[str]) -> Any:
    result = CliRunner().invoke(main, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


COLUMNS = ["--from", "SENDER", "--to", "RECEIVER", "--value", "AMOUNT", "--tick", "STEP", "--id", "TX"]


def test_a_value_cycle_in_a_table_is_flagged_with_its_transfer_ids(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "tx.csv", background_rows() + cycle_rows())
    result = run(["screen-transfers", str(path), *COLUMNS, "--format", "json"])
    assert result.exit_code == 1, result.output
    out = orjson.loads(result.stdout)
    assert out["verdict"] in ("review", "flag") and out["exitCode"] == 1
    (match,) = out["matches"]
    assert match["target"] == str(path) and match["matchId"] is None
    cycles = [f for f in match["flags"] if f["screen"] == "value_cycles"]
    assert [(f["agents"], f["evidence"]) for f in cycles] == [(["a", "b", "c", "d"], ["c0", "c1", "c2", "c3"])]
    assert cycles[0]["pValue"] > 0 and cycles[0]["tests"] >= 1 and cycles[0]["null"]


def test_a_table_with_nothing_planted_is_clear_and_the_output_the_same_bytes(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "tx.csv", background_rows())
    first = run(["screen-transfers", str(path), *COLUMNS, "--format", "json"])
    second = run(["screen-transfers", str(path), *COLUMNS, "--format", "json"])
    assert first.exit_code == 0 and orjson.loads(first.stdout)["verdict"] == "clear"
    assert first.stdout == second.stdout


def test_the_output_files_suffix_picks_the_format(tmp_path: Path) -> None:
    """``-o verdict.sarif`` wrote text into the .sarif file (the upload then failed): it is SARIF now."""
    path = write_csv(tmp_path / "tx.csv", background_rows())
    out = tmp_path / "verdict.sarif"
    assert run(["screen-transfers", str(path), *COLUMNS, "-o", str(out)]).exit_code == 0
    assert orjson.loads(out.read_bytes())["version"] == "2.1.0"


def test_text_output_names_the_table_once_and_writes_control_characters_out(tmp_path: Path) -> None:
    rows = background_rows() + cycle_rows()
    for row in rows:
        if row["SENDER"] == "a":
            row["SENDER"] = "a\x1b[2J"
        if row["RECEIVER"] == "a":
            row["RECEIVER"] = "a\x1b[2J"
    path = write_csv(tmp_path / "tx.csv", rows)
    result = run(["screen-transfers", str(path), *COLUMNS])
    assert result.exit_code == 1
    first = result.stdout.splitlines()[0]
    assert first.split() == [first.split()[0], str(path)] and first.split()[0] in ("REVIEW", "FLAG")
    assert "\x1b" not in result.stdout and "a\\x1b[2J" in result.stdout


def test_a_bad_row_exits_3_with_one_line_naming_it(tmp_path: Path) -> None:
    rows = background_rows(5)
    rows[3]["AMOUNT"] = -2
    path = write_csv(tmp_path / "tx.csv", rows)
    result = run(["screen-transfers", str(path), *COLUMNS])
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr.strip() == (f"daishi-forensics: error: {path}, line 5, field AMOUNT: a value is a finite "
                                     "number >= 0 (or empty when unknown), not '-2'")


# --------------------------------------------------------------------------- numbers, short rows, line numbers


@pytest.mark.parametrize(("cell", "says"), [
    ("1_000", "not '1_000' (a number is written in plain ASCII decimal digits: 1000, 4.5, 4.517e-05)"),
    ("\u0661\u0662", "not '\u0661\u0662' (a number is written in plain ASCII decimal digits"),  # Arabic-Indic 12
    ("\uff11\uff12", "not '\uff11\uff12' (a number is written in plain ASCII decimal digits"),  # fullwidth 12
    ('"1,000"', "not '1,000' (a number is written in plain ASCII decimal digits"),  # quoted: one cell
    ("inf", "not 'inf' (a number is written"),
    ("0x10", "not '0x10' (a number is written"),
    ("1e308", "a value is 0 or between 1e-100 and 1e+100 (the screens add and multiply amounts; any unit is fine, "
              "so divide the column by a power of ten), not '1e308'"),
    ("1e-200", "a value is 0 or between 1e-100 and 1e+100 (the screens add and multiply amounts; any unit is fine, "
               "so multiply the column by a power of ten), not '1e-200'"),
])
def test_a_value_is_a_plain_ascii_decimal_in_range(tmp_path: Path, cell: str, says: str) -> None:
    path = tmp_path / "t.csv"
    path.write_text(f"from,to,value,tick\na,b,1,1\nb,c,{cell},2\n", encoding="utf-8")
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert (caught.value.line, caught.value.field) == (3, "value")
    assert says in caught.value.message


@pytest.mark.parametrize(("cell", "says"), [
    ("1_0", "a tick is a finite number or an ISO 8601 date-time, not '1_0' (a number is written in plain ASCII"),
    ("\u0661", "not '\u0661' (a number is written in plain ASCII"),
    ("\uff12", "not '\uff12' (a number is written in plain ASCII"),
    ("-1e200", "a tick is between -1e+100 and 1e+100 (the screens subtract ticks; only order and spacing matter), "
               "not '-1e200'"),
])
def test_a_tick_is_a_plain_ascii_decimal_in_range(tmp_path: Path, cell: str, says: str) -> None:
    path = tmp_path / "t.csv"
    path.write_text(f"from,to,value,tick\na,b,1,1\nb,c,1,{cell}\n", encoding="utf-8")
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert (caught.value.line, caught.value.field) == (3, "tick")
    assert says in caught.value.message


def test_plain_decimals_in_every_usual_form_are_read(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("from,to,value,tick\na,b,12,1\nb,c,+3.5,2.\nc,d,.5,3e0\nd,e, 4.517e-05 ,4E+1\ne,f,0,-2\n"
                    "f,g,1e100,5\n", encoding="utf-8")
    g = read_transfer_table(path)
    assert [(d["value"], d["tick"]) for _, _, d in g.edges(data=True)] == [
        (12.0, 1.0), (3.5, 2.0), (0.5, 3.0), (4.517e-05, 40.0), (0.0, -2.0), (1e100, 5.0)]


def test_a_json_number_out_of_range_names_the_line(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "t.jsonl", [{"from": "a", "to": "b", "value": 5, "tick": 1},
                                              {"from": "b", "to": "c", "value": 1e300, "tick": 2}])
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert (caught.value.line, caught.value.field) == (2, "value") and "between 1e-100 and 1e+100" in str(caught.value)


def test_huge_amounts_stop_with_one_error_line_and_no_numeric_warnings(tmp_path: Path) -> None:
    rows = background_rows(40)
    for row in rows:
        row["AMOUNT"] = f"{float(row['AMOUNT']) * 1e304!r}"
    path = write_csv(tmp_path / "tx.csv", rows)
    result = run(["screen-transfers", str(path), *COLUMNS])
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Warning" not in result.stderr
    assert result.stderr.startswith(f"daishi-forensics: error: {path}, line 2, field AMOUNT: a value is 0 or between")


def test_a_csv_row_with_too_few_cells_names_the_missing_column(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("from,to,tick,value\na,b,1\nb,c,2,5\n", encoding="utf-8")
    result = run(["screen-transfers", str(path)])
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr == (f"daishi-forensics: error: {path}, line 2, field value: fewer cells than the header has "
                             "columns (3, not 4): no cell for column 'value'\n")


def test_a_row_with_line_breaks_in_a_quoted_cell_is_named_by_its_first_line(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text('from,to,value,tick\na,b,1,1\n"x\ny",b,zz,2\nc,d,oops,3\n', encoding="utf-8")
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert (caught.value.line, caught.value.field) == (3, "value") and "not 'zz'" in caught.value.message
    # the rows after it keep their own lines
    path.write_text('from,to,value,tick\na,b,1,1\n"x\ny",b,2,2\n\nc,d,oops,3\n', encoding="utf-8")
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert (caught.value.line, caught.value.field) == (6, "value")


def test_an_unterminated_quote_names_the_line_it_opens_on(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text('from,to,value,tick\na,b,1,1\nb,a,"unterminated,2\nc,d,1,3\n', encoding="utf-8")
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert str(caught.value) == (f"{path}, line 3: a quoted cell opened in the row starting here is never closed "
                                 "(the file ends inside it, at line 4)")


def test_a_folder_given_as_the_table_is_unreadable_exit_3(tmp_path: Path) -> None:
    folder = tmp_path / "tx.csv"
    folder.mkdir()
    result = run(["screen-transfers", str(folder)])
    assert (result.exit_code, result.stdout) == (3, "")
    assert result.stderr == (f"daishi-forensics: error: {folder}: is a folder: a transfer table is one file (.csv or "
                             ".jsonl, optionally .gz)\n")


def test_every_screen_a_table_of_payments_cannot_run_is_named_not_screened(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "tx.csv", background_rows())
    out = orjson.loads(run(["screen-transfers", str(path), *COLUMNS, "--format", "json"]).stdout)
    (match,) = out["matches"]
    named = sorted(n.split(" ")[2] for n in match["notScreened"])
    assert named == ["cartel", "feeder", "off_price", "operator", "pair_outlier", "ring", "thrown_fight"]
    assert ("not screened: thrown_fight (plain payments: no transfer is an attack, a raid or a theft)"
            in match["notScreened"])


@pytest.mark.parametrize("exit_zero", [False, True])
def test_the_exit_code_the_outputs_state_is_the_process_s(tmp_path: Path, exit_zero: bool) -> None:
    path = write_csv(tmp_path / "my table 100%#1.csv", background_rows() + cycle_rows())
    expected = 0 if exit_zero else 1
    for fmt in ("json", "sarif"):
        result = run([*(["--exit-zero"] if exit_zero else []), "screen-transfers", str(path), *COLUMNS,
                      "--format", fmt])
        assert result.exit_code == expected
        out = orjson.loads(result.stdout)
        if fmt == "json":
            assert out["exitCode"] == expected
            continue
        (sarif_run,) = out["runs"]
        assert sarif_run["invocations"][0]["exitCode"] == expected
        # the artifact is a URI reference: the space, the percent sign and the hash percent-encoded
        uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
                for r in sarif_run["results"] for loc in r["locations"]}
        assert uris == {f"file://{tmp_path}/my%20table%20100%25%231.csv"}


def test_sarif_fingerprints_of_a_table_are_the_same_however_its_path_is_written(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``screen-transfers tx.csv --format sarif`` gave the value cycle's flag another ``partialFingerprints``
    for each way the table's path was written (``data/tx.csv``, ``./data/tx.csv``, its absolute path, a path
    through a linked folder: the hash took the path as given), so code scanning took a run from another folder
    for new alerts; the fingerprint now takes the table's file name, and is the same every way."""
    import hashlib
    (tmp_path / "data").mkdir()
    write_csv(tmp_path / "data" / "tx.csv", background_rows() + cycle_rows())
    (tmp_path / "link").symlink_to(tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    seen = set()
    for target in ("data/tx.csv", "./data/tx.csv", str(tmp_path / "data" / "tx.csv"), "link/tx.csv"):
        result = run(["screen-transfers", target, *COLUMNS, "--format", "sarif"])
        assert result.exit_code == 1, result.stderr
        (sarif_run,) = orjson.loads(result.stdout)["runs"]
        (flag,) = sarif_run["results"]
        agents = [loc["name"] for loc in flag["locations"][0]["logicalLocations"]]
        key = "|".join([flag["ruleId"], "tx.csv", *agents]).encode()
        assert flag["partialFingerprints"] == {"daishiFlag/v1": hashlib.sha256(key).hexdigest()[:32]}
        seen.add(flag["partialFingerprints"]["daishiFlag/v1"])
    assert len(seen) == 1


def test_a_table_of_dates_is_explained_in_dates_and_durations_not_epoch_seconds(tmp_path: Path) -> None:
    from datetime import datetime, timedelta, timezone

    start = datetime(2024, 1, 1, tzinfo=timezone.utc)
    rows = background_rows() + cycle_rows()
    for row in rows:  # one tick an hour
        row["STEP"] = (start + timedelta(hours=row["STEP"])).strftime("%Y-%m-%dT%H:%M:%SZ")
    path = write_csv(tmp_path / "tx.csv", rows)
    out = orjson.loads(run(["screen-transfers", str(path), *COLUMNS, "--format", "json"]).stdout)
    (cycle,) = [f for f in out["matches"][0]["flags"] if f["screen"] == "value_cycles"]
    assert "from 2024-01-05T04:00:00Z to 2024-01-05T10:00:00Z, each hop" in cycle["explanation"]
    assert "e+09" not in cycle["explanation"]
    # the same table in hours: the same flag, told in ticks
    numbered = write_csv(tmp_path / "tx_hours.csv", background_rows() + cycle_rows())
    out = orjson.loads(run(["screen-transfers", str(numbered), *COLUMNS, "--format", "json"]).stdout)
    (cycle_h,) = [f for f in out["matches"][0]["flags"] if f["screen"] == "value_cycles"]
    assert "from tick 100 to 106, each hop" in cycle_h["explanation"]
    assert (cycle_h["agents"], cycle_h["pValue"]) == (cycle["agents"], cycle["pValue"])


def test_the_testing_summary_counts_the_typologies_tests_beside_their_flags(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "tx.csv", background_rows() + cycle_rows())
    out = orjson.loads(run(["screen-transfers", str(path), *COLUMNS, "--format", "json"]).stdout)
    (match,) = out["matches"]
    (cycle,) = [f for f in match["flags"] if f["kind"] == "value_cycle"]
    # no Daishi screen can speak on payments (tests 0), the typology that flagged says what it counted
    assert (match["testing"]["tests"], match["testing"]["typologyTests"]) == (0, {"value_cycle": cycle["tests"]})
    clear = orjson.loads(run(["screen-transfers", str(write_csv(tmp_path / "bg.csv", background_rows())), *COLUMNS,
                              "--format", "json"]).stdout)
    assert "typologyTests" not in clear["matches"][0]["testing"]


@pytest.mark.parametrize("exit_zero", [False, True])
def test_nothing_screened_states_the_exit_code_the_process_exits_with(monkeypatch: pytest.MonkeyPatch,
                                                                      exit_zero: bool) -> None:
    # every target read but invalid (exit 1, no verdict): --exit-zero turns that 1 into 0, in the process's exit
    # and in the code the JSON and SARIF outputs state alike
    import daishi_forensics.cli.screen as screen_cli
    from daishi_forensics.report.screening import MatchOutcome, ScreenRun
    from daishi_forensics.screens.config import load_config

    def nothing(targets: Any, **_: Any) -> ScreenRun:
        return ScreenRun(load_config(None), (MatchOutcome("m_bad.jsonl", error="a trade without a tradeId",
                                                          error_code=1),))

    monkeypatch.setattr(screen_cli, "screen_targets", nothing)
    expected = 0 if exit_zero else 1
    for fmt in ("json", "sarif"):
        result = run([*(["--exit-zero"] if exit_zero else []), "screen", "m_bad.jsonl", "--format", fmt])
        assert result.exit_code == expected, result.stderr
        out = orjson.loads(result.stdout)
        stated = out["exitCode"] if fmt == "json" else out["runs"][0]["invocations"][0]["exitCode"]
        assert (stated, out.get("verdict")) == (expected, None)


def test_a_file_name_that_is_not_utf8_is_written_in_json_and_sarif(tmp_path: Path) -> None:
    # a file name's bytes need not be UTF-8 (Python keeps such bytes as lone surrogates, which a JSON writer
    # refuses: exit 70): JSON shows them as U+FFFD, as a terminal does; the SARIF uri percent-encodes the bytes
    import os

    path = write_csv(tmp_path / os.fsdecode(b"bad\xffname #\xc3\xa9.csv"), background_rows() + cycle_rows())
    result = run(["screen-transfers", str(path), *COLUMNS, "--format", "json"])
    assert result.exit_code == 1, result.stderr
    assert orjson.loads(result.stdout)["matches"][0]["target"] == f"{tmp_path}/bad\ufffdname #\u00e9.csv"
    result = run(["screen-transfers", str(path), *COLUMNS, "--format", "sarif"])
    assert result.exit_code == 1, result.stderr
    (sarif_run,) = orjson.loads(result.stdout)["runs"]
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for r in sarif_run["results"] for loc in r["locations"]}
    assert uris == {f"file://{tmp_path}/bad%FFname%20%23%C3%A9.csv"}
    missing = str(tmp_path / os.fsdecode(b"gone\xff.jsonl"))
    result = run(["screen", missing, "--format", "json"])
    assert result.exit_code == 3, result.stderr
    (entry,) = orjson.loads(result.stdout)["matches"]
    assert entry["target"] == f"{tmp_path}/gone\ufffd.jsonl" and entry["error"].startswith(entry["target"])


def test_epoch_ticks_and_milliseconds_are_told_with_every_digit(tmp_path: Path) -> None:
    from datetime import datetime, timedelta, timezone

    # epoch seconds as plain numbers: each tick told whole (they were all 'tick 1.70404e+09')
    rows = background_rows() + cycle_rows()
    for row in rows:
        row["STEP"] = 1704067200 + 3600 * row["STEP"]
    path = write_csv(tmp_path / "epoch.csv", rows)
    out = orjson.loads(run(["screen-transfers", str(path), *COLUMNS, "--format", "json"]).stdout)
    (cycle,) = [f for f in out["matches"][0]["flags"] if f["screen"] == "value_cycles"]
    assert "from tick 1704427200 to 1704448800, each hop" in cycle["explanation"]
    # dates a millisecond apart: told with their milliseconds (they all read 00:00:00Z)
    start = datetime(2024, 1, 1, tzinfo=timezone.utc)
    rows = background_rows() + cycle_rows()
    for row in rows:
        row["STEP"] = (start + timedelta(milliseconds=row["STEP"])).isoformat(timespec="milliseconds")
    path = write_csv(tmp_path / "ms.csv", rows)
    out = orjson.loads(run(["screen-transfers", str(path), *COLUMNS, "--format", "json"]).stdout)
    (cycle,) = [f for f in out["matches"][0]["flags"] if f["screen"] == "value_cycles"]
    assert "from 2024-01-01T00:00:00.100Z to 2024-01-01T00:00:00.106Z, each hop" in cycle["explanation"]


def test_a_cycle_that_keeps_a_little_says_how_little(tmp_path: Path) -> None:
    # each hop kept 0.2% (it read 'keeping at most 0% of it', as if nothing was kept)
    rows = cycle_rows()
    for row, value in zip(rows, [1000.0, 998.0, 996.0, 994.0], strict=True):
        row["AMOUNT"] = value
    path = write_csv(tmp_path / "tx.csv", background_rows() + rows)
    out = orjson.loads(run(["screen-transfers", str(path), *COLUMNS, "--format", "json"]).stdout)
    (cycle,) = [f for f in out["matches"][0]["flags"] if f["screen"] == "value_cycles"]
    assert "keeping at most 0.2% of it, and 994 came back" in cycle["explanation"]


def test_minus_zero_is_read_as_zero(tmp_path: Path) -> None:
    import math

    path = tmp_path / "t.csv"
    path.write_text("from,to,value,tick\na,b,-0,-0.0\nb,c,1,1\n", encoding="utf-8")
    (first, _) = [d for _, _, d in read_transfer_table(path).edges(data=True)]
    assert (first["value"], first["tick"]) == (0.0, 0.0)
    assert math.copysign(1, first["value"]) == math.copysign(1, first["tick"]) == 1.0


def test_a_tick_that_is_neither_says_how_a_date_is_written_too(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("from,to,value,tick\na,b,1,2024-01-01\nb,c,1,01/02/2024\n", encoding="utf-8")
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert (caught.value.line, caught.value.field) == (3, "tick")
    assert caught.value.message == (
        "a tick is a finite number or an ISO 8601 date-time, not '01/02/2024' (a number is written in plain ASCII "
        "decimal digits: 1000, 4.5, 4.517e-05; a date-time as 2024-01-31, 2024-01-31T09:30:00Z or "
        "2024-01-31 09:30:00+01:00)")


@pytest.mark.parametrize("name", ["t.csv", "t.csv.gz", "t.jsonl"])
def test_a_table_that_is_not_utf8_names_the_line_and_byte(tmp_path: Path, name: str) -> None:
    import gzip

    # a Latin-1 export ('é' as one byte 0xe9) on the third line: named there (it said 'byte 9 of a block')
    if name.startswith("t.csv"):
        content = "from,to,value,tick\na,b,1,1\nCaf\u00e9,b,1,2\n".encode("latin-1")
        at = len(b"from,to,value,tick\na,b,1,1\nCaf")
    else:
        content = b'{"from":"a","to":"b","value":1,"tick":1}\n' + '{"from":"Caf\u00e9"}\n'.encode("latin-1")
        at = len(b'{"from":"a","to":"b","value":1,"tick":1}\n{"from":"Caf')
    path = tmp_path / name
    path.write_bytes(gzip.compress(content) if name.endswith(".gz") else content)
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    line = 3 if name.startswith("t.csv") else 2
    assert caught.value.line == line
    assert caught.value.message == f"not UTF-8: byte 0xe9 at byte {at} of the file (save the table as UTF-8)"


@pytest.mark.parametrize(("row", "field", "says"), [
    ({"from": "a", "to": "b", "value": True, "tick": 1}, "value",
     "a value is a finite number >= 0 (or empty when unknown), not true"),
    ({"from": "a", "to": "b", "value": {"x": 1}, "tick": 1}, "value",
     'a value is a finite number >= 0 (or empty when unknown), not {"x":1}'),
    ({"from": "a", "to": "b", "value": 1, "tick": [1]}, "tick",
     "a tick is a finite number or an ISO 8601 date-time, not [1]"),
    ({"from": False, "to": "b", "value": 1, "tick": 1}, "from", "an account is text or a whole number, not false"),
])
def test_a_json_cell_is_shown_as_json_writes_it(tmp_path: Path, row: dict[str, Any], field: str, says: str) -> None:
    # (Python's spelling leaked: not 'True', not "{'x': 1}", not bool)
    path = write_jsonl(tmp_path / "t.jsonl", [row])
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert (caught.value.line, caught.value.field, caught.value.message) == (1, field, says)


def test_a_json_integer_beyond_64_bits_is_read_whole(tmp_path: Path) -> None:
    # an account id of 30 digits is that id (it was refused as 'not 1.111111111111111e+29'); an amount of 400
    # digits is out of range, on its line and column (it was 'not JSON: number is infinity')
    path = tmp_path / "t.jsonl"
    path.write_text('{"from": 111111111111111111111111111111, "to": "b", "value": 1, "tick": 1}\n'
                    '{"from": "b", "to": "c", "value": 2, "tick": 2}\n', encoding="utf-8")
    assert sorted(read_transfer_table(path).nodes) == ["111111111111111111111111111111", "b", "c"]
    path.write_text('{"from": "a", "to": "b", "value": 1, "tick": 1}\n'
                    '{"from": "b", "to": "c", "value": ' + "9" * 400 + ', "tick": 2}\n', encoding="utf-8")
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert (caught.value.line, caught.value.field) == (2, "value")
    path.write_text('{"from": "a", "to": "b", "value": NaN, "tick": 11111111111111111111}\n', encoding="utf-8")
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert (caught.value.line, caught.value.message) == (1, "not JSON: NaN is not JSON")
    # read by the standard library, a lone surrogate is refused as orjson refuses it (no writer takes one)
    path.write_text('{"from": "a\\ud800", "to": "b", "value": 1, "tick": 11111111111111111111}\n', encoding="utf-8")
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert caught.value.line == 1 and caught.value.message.startswith("not JSON: a lone surrogate")


def test_a_target_not_screened_is_named_once(tmp_path: Path) -> None:
    # the error of a file names it already: 'nope.jsonl: nope.jsonl: no such file' named it twice
    missing = str(tmp_path / "nope.jsonl")
    why = (f"{missing}: no such file or folder, and not a match id (m_ followed by 12 lowercase hex digits) "
           "or m_demo")
    text = run(["screen", missing, "--format", "text"])
    assert text.exit_code == 3 and " ".join(text.stdout.split()).startswith(f"NOT SCREENED {why} ")
    github = run(["screen", missing, "--format", "github"])
    assert github.stdout.splitlines()[0] == f"::error title=daishi-forensics not screened::{why}"
    sarif = orjson.loads(run(["screen", missing, "--format", "sarif"]).stdout)
    notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["message"]["text"] for n in notes] == [why]


def test_a_table_refused_midway_leaves_no_file_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the rows' reader stayed suspended inside its open file, held by the error's traceback: the file was
    # left open (a ResourceWarning when collected; on Windows, a table that cannot be deleted meanwhile)
    from daishi_forensics.read import transfers

    opened: list[Any] = []
    real = transfers._text

    def recording(path: Path, *rest: Any) -> Any:
        opened.append(real(path, *rest))
        return opened[-1]

    monkeypatch.setattr(transfers, "_text", recording)
    path = tmp_path / "t.jsonl"
    path.write_text('{"from": "a", "to": "b", "value": 1, "tick": 1}\n{"from": "a", "to": "a", "value": 1, "tick": 2}\n'
                    '{"from": "b", "to": "c", "value": 1, "tick": 3}\n', encoding="utf-8")
    with pytest.raises(InputUnreadable) as caught:
        transfers.read_transfer_table(path)
    assert caught.value.line == 2 and len(opened) == 1 and opened[0].closed


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_as_a_table_is_refused_not_waited_on(tmp_path: Path) -> None:
    # open() waited for a writer for ever (the command hung); a table is a regular file, as a match file is
    fifo = tmp_path / "t.csv"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-c", "from daishi_forensics.cli import main; main()", "screen-transfers",
                           str(fifo)],
                          capture_output=True, text=True, timeout=30, check=False)
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == f"daishi-forensics: error: {fifo}: is not a regular file (it is a FIFO); refused\n"


def test_a_gzipped_table_inflates_within_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a .gz table was inflated without a limit (a bomb of one long line held whole); it has the match files'
    path = tmp_path / "t.csv.gz"
    path.write_bytes(gzip.compress(b"from,to,value,tick\n" + b"a,b,1,1\n" * 1000, mtime=0))
    assert read_transfer_table(path).number_of_edges() == 1000
    monkeypatch.setenv("DAISHI_MAX_INFLATED_BYTES", "4000")
    with pytest.raises(InputTooLarge) as caught:
        read_transfer_table(path)
    assert str(caught.value) == (f"{path}: inflates past the size limit of 4000 bytes; refused (raise "
                                 "$DAISHI_MAX_INFLATED_BYTES if this table is genuine)")


@pytest.mark.parametrize("name", ["t.csv", "t.csv.gz"])
def test_the_byte_that_is_not_utf8_is_found_without_holding_its_line_whole(tmp_path: Path, name: str) -> None:
    import tracemalloc

    # the byte is looked for again, as the table was read (the shared opener: a regular file, .gz within the
    # inflated-size limit), a piece of a line at a time: the 20 MB line the byte opens is never held whole (it was,
    # read by plain open or gzip.open line by line); a character cut by a piece's end is still read whole
    # a line of 80 KB of a two-byte character (cut by the 64 KiB pieces) read, then the byte opening a 20 MB line
    head = b"from,to,value,tick\na,b,1,1\n" + b"x" + "\u00e9".encode() * 40_000 + b",b,1,2\n"
    content = head + b"\xff" + b"y" * (20 << 20) + b",b,1,3\n"
    path = tmp_path / name
    path.write_bytes(gzip.compress(content, 1) if name.endswith(".gz") else content)
    tracemalloc.start()
    try:
        with pytest.raises(InputUnreadable) as caught:
            read_transfer_table(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (caught.value.file, caught.value.line) == (str(path), 4)
    assert caught.value.message == f"not UTF-8: byte 0xff at byte {len(head):,} of the file (save the table as UTF-8)"
    assert peak < 8 << 20, peak  # (the line is 20 MiB)


@pytest.mark.parametrize(("content", "line"), [
    (b"from,to,value,tick\na,b,1,1\n" + b"x" * 200 + b",b,1,2\n", 3),
    (b'{"from":"a","to":"b","value":1,"tick":1}\n\n' + b'{"from":"' + b"x" * 200 + b'"}\n', 3),
    # a line ends at \r or \r\n too, as the rows are numbered
    (b"from,to,value,tick\r\n" + b"a,b,1,1\r\n" * 40 + b"a,b,1,1\r" + b"x" * 200 + b",b,1,2\r\n", 43),
])
def test_a_line_past_the_line_limit_is_refused_naming_it(tmp_path: Path, content: bytes, line: int) -> None:
    from daishi_forensics.read.sources import Limits

    # a table's line had no limit (a match stream's has): one huge line was held whole; now the stream's
    # limit holds, refused as soon as that much of the line is read
    path = tmp_path / ("t.jsonl" if content.startswith(b"{") else "t.csv")
    path.write_bytes(content)
    with pytest.raises(InputTooLarge) as caught:
        read_transfer_table(path, limits=Limits(max_line_bytes=100))
    assert (caught.value.file, caught.value.line, caught.value.message) == (
        str(path), line, "a line is longer than 100 bytes; refused")
    # a line of exactly the limit (its line break not counted) is read
    fits = tmp_path / "fits.csv"
    fits.write_bytes(b"from,to,value,tick\na,b,1,1\n" + b"x" * 94 + b",b,1,2\n")
    assert read_transfer_table(fits, limits=Limits(max_line_bytes=100)).number_of_edges() == 2


def test_screen_transfers_refuses_a_line_past_64_mib_exit_3(tmp_path: Path) -> None:
    # the default limit, a match stream's line limit (64 MiB), on a .gz table (small on disk)
    path = tmp_path / "t.csv.gz"
    path.write_bytes(gzip.compress(b"from,to,value,tick\na,b,1,1\n" + b"x" * (64 << 20) + b",b,1,2\n", 1))
    result = run(["screen-transfers", str(path)])
    assert result.exit_code == 3
    assert result.stderr == f"daishi-forensics: error: {path}, line 3: a line is longer than 67108864 bytes; refused\n"


@pytest.fixture
def csv_module_limit() -> Any:
    """The csv module's cell limit at its default (131,072 characters) for the test, as a fresh process has it
    (the limit is one for the process), restored after."""
    import csv

    was = csv.field_size_limit(131_072)
    yield
    csv.field_size_limit(was)


@pytest.mark.usefixtures("csv_module_limit")
def test_a_csv_cell_past_the_csv_modules_own_limit_reads_within_the_line_limit(tmp_path: Path) -> None:
    # a cell of 200,000 characters (a long message beside a transfer) was refused, exit 3, with the csv module's
    # own words: "line 2: not CSV: field larger than field limit (131072)"; a cell is as long as its line may be
    note = "x" * 200_000
    path = tmp_path / "t.csv"
    path.write_text(f"from,to,value,tick,note\na,b,1,1,{note}\nb,c,2,2,\"{note[:99_999]}\n{note[:100_000]}\"\n")
    assert sorted((u, v, d["value"], d["event"]) for u, v, d in read_transfer_table(path).edges(data=True)) == [
        ("a", "b", 1.0, "2"), ("b", "c", 2.0, "3")]
    result = run(["screen-transfers", str(path), "--format", "json"])
    assert (result.exit_code, result.stderr) == (0, "")
    assert orjson.loads(result.stdout)["matches"][0]["flags"] == []


@pytest.mark.usefixtures("csv_module_limit")
@pytest.mark.parametrize(("cell", "line"), [
    ('"' + "\n".join(["x" * 60] * 3) + '"', 3),  # a quoted cell holding line breaks, 182 characters: its row named
    ('"' + "\n".join(["x" * 50_000] * 3) + '"', 3),  # past the csv module's own limit too
])
def test_a_csv_cell_past_the_line_limit_is_refused_naming_its_row_and_column(tmp_path: Path, cell: str,
                                                                             line: int) -> None:
    from daishi_forensics.read.sources import Limits

    path = tmp_path / "t.csv"
    path.write_text(f"from,to,value,tick,note\na,b,1,1,\nb,c,2,2,{cell}\n")
    limit = 100 if len(cell) < 1000 else 60_000
    with pytest.raises(InputTooLarge) as caught:
        read_transfer_table(path, limits=Limits(max_line_bytes=limit))
    field = "note" if len(cell) < 1000 else None  # (past the csv module's limit, the module stops before the cell ends)
    assert (caught.value.file, caught.value.line, caught.value.field, caught.value.message) == (
        str(path), line, field, f"a cell is longer than {limit} characters (a cell is at most a line's limit); refused")
    # a cell of exactly the limit, line breaks and all, is read
    path.write_text("from,to,value,tick,note\na,b,1,1,\"" + "x" * 49 + "\n" + "x" * 50 + "\"\n")
    assert read_transfer_table(path, limits=Limits(max_line_bytes=100)).number_of_edges() == 1


@pytest.mark.usefixtures("csv_module_limit")
def test_reading_a_csv_table_leaves_the_csv_modules_limit_as_it_found_it(tmp_path: Path) -> None:
    # reading a table with a 200,000-character cell raised the csv module's limit for the whole process and
    # left it raised: another csv reader in the same program then read a cell it should have refused
    import csv
    import io

    from daishi_forensics.read.sources import Limits
    from daishi_forensics.read.transfers import table_rows

    note = "x" * 200_000
    path = tmp_path / "t.csv"
    path.write_text(f"from,to,value,tick,note\na,b,1,1,{note}\nb,c,2,2,\"{note[:99_999]}\n{note[:100_000]}\"\n")
    assert read_transfer_table(path).number_of_edges() == 2
    assert csv.field_size_limit() == 131_072
    with pytest.raises(csv.Error, match=r"field larger than field limit \(131072\)"):
        list(csv.reader(io.StringIO(f"a,{note}\n")))
    # between rows (the caller's code runs there) and after a table refused, the setting is the caller's too
    rows = table_rows(path)
    assert next(rows)[0] == 2
    assert csv.field_size_limit() == 131_072
    rows.close()
    with pytest.raises(InputTooLarge):
        read_transfer_table(path, limits=Limits(max_line_bytes=150_000))
    assert csv.field_size_limit() == 131_072
    # a process that raised the limit itself keeps its own, higher, setting
    csv.field_size_limit(1 << 30)
    assert read_transfer_table(path).number_of_edges() == 2
    assert csv.field_size_limit() == 1 << 30


BASIC_NOTE = ("ticks read as dates: every tick is 8 digits that read as a date YYYYMMDD (ISO 8601's basic form: "
              "line {line}'s 20261130 is 2026-11-30), not as numbers (step counts that only look like dates: "
              "--tick-kind number)")
NOV_30 = 1795996800.0  # 2026-11-30T00:00:00Z
DAY = 86400.0


def _tick_table(tmp_path: Path, ticks: list[Any], name: str = "t.csv") -> Path:
    rows = [{"from": f"a{i}", "to": f"a{i + 1}", "value": "1", "tick": t} for i, t in enumerate(ticks)]
    if name.endswith(".jsonl"):
        return write_jsonl(tmp_path / name, rows)
    return write_csv(tmp_path / name, rows, header=["from", "to", "value", "tick"])


def _ticks(graph: Any) -> list[float]:
    return [d["tick"] for _, _, d in sorted(graph.edges(data=True), key=lambda e: int(e[2]["event"]))]


@pytest.mark.parametrize("name", ["t.csv", "t.jsonl"])
def test_a_table_of_basic_form_dates_is_read_as_dates_and_the_notes_say_so(tmp_path: Path, name: str) -> None:
    # 20261130, 20261201, 20270108 (a common export's dates) were read as numbers: 71 "ticks" from 30 November
    # to 1 December and 8,870 from December to January, the typologies' windows (shares of the time span) distorted
    # without a word; they are dates (ISO 8601's basic form), and the output says so; text or JSON numbers alike
    ticks: list[Any] = ["20261130", "20261201", "20270108"]
    path = _tick_table(tmp_path, ticks if name.endswith(".csv") else [int(t) for t in ticks], name)
    note = BASIC_NOTE.format(line=2 if name.endswith(".csv") else 1)  # (the CSV header is line 1)
    graph = read_transfer_table(path)
    assert _ticks(graph) == [NOV_30, NOV_30 + DAY, NOV_30 + 39 * DAY]
    assert (graph.graph["tick_dates"], graph.graph["not_screened"]) == (True, [note])
    out = orjson.loads(run(["screen-transfers", str(path), "--format", "json"]).stdout)
    assert out["matches"][0]["notes"] == [note]
    text = run(["screen-transfers", str(path), "--format", "text"]).stdout
    assert f" note: {note} " in " ".join(text.split())  # (wrapped to the width)
    # step counts that only look like dates: --tick-kind number reads them as numbers, and says nothing
    out = orjson.loads(run(["screen-transfers", str(path), "--tick-kind", "number", "--format", "json"]).stdout)
    assert out["matches"][0]["notes"] == []
    numbers = read_transfer_table(path, tick_kind="number")
    assert (_ticks(numbers), "tick_dates" in numbers.graph) == ([20261130.0, 20261201.0, 20270108.0], False)
    assert _ticks(read_transfer_table(path, tick_kind="date")) == _ticks(graph)


@pytest.mark.parametrize(("ticks", "read", "dated"), [
    # beside a tick that is only a number, they are numbers (as they were)
    (["20261130", "5"], [20261130.0, 5.0], False),
    (["5", "20261130"], [5.0, 20261130.0], False),
    (["20261130", "20261301"], [20261130.0, 20261301.0], False),  # no 13th month: a number
    (["18991231", "19000101"], [18991231.0, 19000101.0], False),  # a year before 1900: a number
    # beside dates, they are dates (they were refused as numbers mixed with dates), before or after them;
    # no note: nothing was guessed
    (["2026-11-30", "20261201"], [NOV_30, NOV_30 + DAY], True),
    (["20261130", "20261201", "2026-12-02T12:00:00Z"], [NOV_30, NOV_30 + DAY, NOV_30 + 2.5 * DAY], True),
    # the basic date-time form is a date as the extended form is
    (["20261130T093000Z", "20261130T1000+0100", "20261201T0000"], [NOV_30 + 34200, NOV_30 + 32400, NOV_30 + DAY],
     True),
])
def test_basic_form_ticks_beside_other_ticks(tmp_path: Path, ticks: list[str], read: list[float], dated: bool) -> None:
    graph = read_transfer_table(_tick_table(tmp_path, ticks))
    assert (_ticks(graph), graph.graph.get("tick_dates", False), graph.graph.get("not_screened")) == (read, dated,
                                                                                                       None)


@pytest.mark.parametrize(("kind", "ticks", "line", "says"), [
    ("auto", ["20261130", "2026-12-01", "5"], 4, "a tick is a number here and a date on line 3: a table's ticks are "
                                                 "all numbers or all ISO 8601 dates, never both"),
    ("number", ["5", "2026-11-30"], 3, "a tick is a number (the ticks are read as numbers: --tick-kind number), not "
                                       "'2026-11-30'"),
    ("date", ["20261130", "5"], 3, "a tick is an ISO 8601 date or date-time (the ticks are read as dates: "
                                   "--tick-kind date), not '5'"),
])
def test_a_tick_of_the_other_kind_is_refused(tmp_path: Path, kind: str, ticks: list[str], line: int, says: str) -> None:
    path = _tick_table(tmp_path, ticks)
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path, tick_kind=kind)
    assert (caught.value.line, caught.value.field, caught.value.message) == (line, "tick", says)
    result = run(["screen-transfers", str(path), "--tick-kind", kind])
    assert (result.exit_code, result.stderr) == (3, f"daishi-forensics: error: {path}, line {line}, field tick: {says}\n")


@pytest.mark.parametrize(("end", "long"), [("\n", False), ("\r", False), ("\r\n", False), ("\r\n", True)])
def test_the_line_of_a_byte_that_is_not_utf8_counts_every_kind_of_line_end(tmp_path: Path, end: str,
                                                                           long: bool) -> None:
    # the rows are numbered by lines ending at \n, \r or \r\n; the byte's line counted \n alone, so a table of
    # \r line ends (an old Mac export) named "line 1" whatever the line; long: a \r\n cut between two pieces of
    # the reread (64 KiB) is one line end
    second = ("x" * (65535 - len(",b,1,1")) if long else "a") + ",b,1,1"
    content = (f"from,to,value,tick{end}{second}{end}{end}".encode() + "Caf\u00e9,b,1,2".encode("latin-1")
               + end.encode())
    path = tmp_path / "t.csv"
    path.write_bytes(content)
    with pytest.raises(InputUnreadable) as caught:
        read_transfer_table(path)
    assert caught.value.line == 4
    assert caught.value.message == (f"not UTF-8: byte 0xe9 at byte {content.index(b'Caf') + 3:,} of the file (save the "
                                    "table as UTF-8)")

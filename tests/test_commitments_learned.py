"""The learned commitment extractor's bench: it reads tune rows only, groups and folds deterministically,
labels and assembles mentions as its docstring says, and the extractor it builds is total."""

from __future__ import annotations

import builtins
from types import SimpleNamespace
from pathlib import Path
from typing import Any

from daishi_forensics.profile.commitments import Commitment

from .benchkit import load_bench



L = load_bench("commitments_learned")
VOCAB = {"items": ["food", "water", "firewood"], "places": [], "agents": []}


def test_tune_rows_only_and_held_out_files_never_opened(monkeypatch: Any) -> None:
    cg = L.cg
    held_out_files = {d.file.name for d in cg.LATER_DRAWS}
    opened: list[str] = []
    real_open = builtins.open
    real_path_open = Path.open

    def spy(file: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(Path(str(file)).name)
        return real_open(file, *args, **kwargs)

    def path_spy(self: Path, *args: Any, **kwargs: Any) -> Any:
        opened.append(self.name)
        return real_path_open(self, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy)
    monkeypatch.setattr(Path, "open", path_spy)
    rows = L.load_tune_rows()
    monkeypatch.undo()
    assert rows and all(r["split"] in cg.TUNE_SPLITS for r in rows)
    assert not held_out_files & set(opened)
    assert {r["split"] for r in rows} == set(cg.TUNE_SPLITS)


def test_groups_and_folds() -> None:
    assert L.group_of({"id": "casino/train/12/3"}) == "casino/train/12"
    assert L.group_of({"id": "diplomacy-04"}) == "diplomacy-04"
    folds = [L.fold_of(f"g{i}", 5, "s") for i in range(200)]
    assert folds == [L.fold_of(f"g{i}", 5, "s") for i in range(200)]
    assert set(folds) == set(range(5))
    assert folds != [L.fold_of(f"g{i}", 5, "t") for i in range(200)]


def test_mentions_and_their_labels() -> None:
    reader = L.Reader(VOCAB)
    r = reader.read("I need water. I can give you 2 food for 1 water.")
    assert [(m.item, m.quantity) for m in r.mentions] == [("water", None), ("food", 2), ("water", 1)]
    row = {"commitments": [{"kind": "trade", "give": {"food": 2}, "receive": {"water": 1}}]}
    # the first "water" reads no quantity while another mention reads the labelled one: on no side
    assert L.mention_labels(row, r) == ["none", "give", "receive"]


def test_assemble() -> None:
    r = L.Reader(VOCAB).read("You can have 2 food if I get the water. Deal?")
    sides = [{"give": 0.9, "receive": 0.05, "none": 0.05}, {"give": 0.1, "receive": 0.8, "none": 0.1}]
    got = L.assemble(r, L.Scores(sides, goods=0.7, accept=0.9))
    assert got == [Commitment("trade", (("food", 2),), (("water", None),))]  # no accept beside a trade
    got = L.assemble(r, L.Scores(sides, goods=0.2, accept=0.9))
    assert got == [Commitment("accept")]


def test_the_extractor_is_total() -> None:
    ex = L.factory(VOCAB)
    assert ex.name == "daishi-learned"
    for text in ("", "?", "x" * 5000, "deal!", "I'll give you all 3 firewood for 2 water", None):
        found = ex.extract(text)  # type: ignore[arg-type]
        assert isinstance(found.commitments, tuple)
    assert ex.extract("x" * 5000).truncated


def test_a_reader_that_fails_is_counted_not_silent() -> None:
    reader = L.Reader(VOCAB)

    def broken(*_args: Any) -> Any:
        raise KeyError("older rules")

    reader.module = SimpleNamespace(tokens=L.rules_module.tokens, accepts=broken)  # its consent reader fails
    L.FALLBACKS.clear()
    r = reader.read("I need water. I can give you 2 food for 1 water.")
    assert r.consent == [False, False]
    assert [(m.item, m.quantity) for m in r.mentions] == [("water", None), ("food", 2), ("water", 1)]
    assert L.FALLBACKS == {"consent (KeyError)": 2}  # once per clause
    assert L.fallbacks_line() == "readers fell back: consent (KeyError) 2 times"
    L.FALLBACKS.clear()
    L.Reader(VOCAB).read("I need water. I can give you 2 food for 1 water.")
    assert L.fallbacks_line() == "readers fell back: none"

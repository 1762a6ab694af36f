"""The commitment extractor's tokenizer and its word tables agree (``profile/_tokens.py``).

The tokenizer rewrites contractions and chat spellings ("okay" -> "ok", "gonna" -> "going to",
"its" -> "it is") before any rule reads a word, so a table entry written in a raw form could never
match.  The frame tables are built through the tokenizer; the words the other rule modules name in
their sets and comparisons are checked here to be the tokenizer's own forms."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from daishi_forensics.profile._frames import FRAME_PHRASES, FRAME_WORDS, TAGS, TO_FRAMES
from daishi_forensics.profile._tokens import CONTRACTIONS, normal_form, normal_phrase, normal_words, tokens
from daishi_forensics.profile.commitments import HeuristicExtractor

PROFILE = Path(__file__).resolve().parent.parent / "forensics" / "profile"
RULE_MODULES = ("_frames.py", "_consent.py", "_actions.py", "commitments.py")
CAMP = {"items": ["food", "water", "firewood"], "places": [], "agents": []}


def test_tokens_expand_contractions_and_chat_spellings() -> None:
    assert [t for t, _ in tokens("Okay, its fine, I'm gonna send 2 food")] == [
        "ok", ",", "it", "is", "fine", ",", "i", "am", "going", "to", "send", "2", "food"]
    assert normal_form("Wanna trade?") == ("want", "to", "trade", "?")


def test_normal_words_reads_raw_forms_and_refuses_split_ones() -> None:
    assert normal_words(["okay", "OK", "fine"]) == frozenset({"ok", "fine"})
    with pytest.raises(ValueError, match="'gonna'"):
        normal_words(["gonna"])
    with pytest.raises(ValueError, match="'yes\\?'"):
        normal_words(["yes?"])  # a word and a question mark: two tokens
    with pytest.raises(ValueError, match="no word"):
        normal_phrase("@@")  # the tokenizer reads nothing in it
    assert normal_phrase("that should be okay") == ("that", "should", "be", "ok")
    assert normal_phrase(("wanna",)) == ("want", "to")


def test_every_contraction_expands_to_fixed_points() -> None:
    # what the tokenizer emits for a contraction is read back unchanged: one pass is the normal form
    for raw, words in CONTRACTIONS.items():
        for word in words:
            assert normal_form(word) == (word,), (raw, word)


def test_frame_tables_hold_only_the_tokenizers_forms() -> None:
    for role, words in FRAME_WORDS.items():
        for word in words:
            assert normal_form(word) == (word,), (role, word)
    for role, phrases in FRAME_PHRASES.items():
        assert len(set(phrases)) == len(phrases), role
        for phrase in phrases:
            assert normal_form(" ".join(phrase)) == phrase, (role, phrase)
    assert "okay" not in TO_FRAMES and "gonna" not in TO_FRAMES and "yes?" not in TAGS


def _word_literals(tree: ast.AST) -> list[ast.Constant]:
    """The strings a rule compares words with: members of set literals, operands of comparisons
    (``w == "x"``, ``w in ("x", "y")``) and tuples or lists passed to a call."""
    found: dict[int, ast.Constant] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Set):
            parts: list[ast.AST] = [node]
        elif isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
        elif isinstance(node, ast.Call):
            parts = [a for a in node.args if isinstance(a, (ast.Tuple, ast.List))]
        else:
            continue
        for part in parts:
            for c in ast.walk(part):
                if isinstance(c, ast.Constant) and isinstance(c.value, str):
                    found[id(c)] = c
    return list(found.values())


@pytest.mark.parametrize("module", RULE_MODULES)
def test_rule_modules_name_words_in_the_tokenizers_forms(module: str) -> None:
    roles = set(FRAME_WORDS) | set(FRAME_PHRASES) | {"give verb phrase"}
    dead = []
    for c in _word_literals(ast.parse((PROFILE / module).read_text(encoding="utf-8"))):
        if c.value.strip() == "" or c.value in roles:
            continue  # an empty default, a blank, a role's name
        if normal_form(c.value) != (c.value,):
            dead.append((c.lineno, c.value))
    assert dead == []


@pytest.mark.parametrize(("text", "terms"), [
    # the raw spellings reach the rules in their normal forms: each reads as its plain twin
    ("Okay, that is okay with me.", [("accept", {}, {}, None)]),
    ("Its fine with me.", [("accept", {}, {}, None)]),
    ("I'm gonna give you 2 food.", [("give", {"food": 2}, {}, None)]),
    ("Wanna give me 2 food", []),  # a question without its "?"
])
def test_raw_spellings_read_like_plain_ones(text: str, terms: list[tuple[object, ...]]) -> None:
    assert [c.terms() for c in HeuristicExtractor(CAMP).extract(text).commitments] == terms


def test_tokens_without_apostrophes_still_expand_and_end_at_emoji() -> None:
    """A text with no apostrophe, no emoji and no contraction is tokenized as found; one with a
    chat spelling but no apostrophe ("u", "gonna"), or an emoji, or a non-ASCII letter, still takes
    the expanding path."""
    assert tokens("Send 3 wood, ok") == [("send", 0), ("3", 5), ("wood", 7), (",", 11), ("ok", 13)]
    assert [t for t, _ in tokens("u gonna send 3 wood")] == ["you", "going", "to", "send", "3", "wood"]
    assert tokens("sure \U0001f642 thanks") == [("sure", 0), ("\n", 5), ("thanks", 7)]
    assert [t for t, _ in tokens("caf\u00e9 okay")] == ["caf", "ok"]


def test_consent_parts_hold_a_word_the_gate_names() -> None:
    """Every shape a comma part consents by on its own holds a word of the gate that lets the
    part readers run; a clause holding none of them consents by no part."""
    from daishi_forensics.profile._consent import _PART_WORDS, _consent_part

    for text in ("deal", "ok , deal", "done", "water it is", "10 works", "will do", "can do", "i will do that"):
        words = text.split()
        assert _consent_part(words), text
        assert not _PART_WORDS.isdisjoint(words), text
    assert not _consent_part("sounds good , thanks".split())

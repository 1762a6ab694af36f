"""The literal text every match of a pattern contains: a test a text must pass before a search.

A regular expression's parse tree says what any match must hold: a run of literal characters
must appear as it is, a group of alternatives needs what one of them needs, a part repeated at
least once needs what the part needs, a lookahead or lookbehind that must hold needs what it
reads.  :func:`required` derives that condition -- a tree of *and* and *or* over literal
strings -- from the pattern itself, and :func:`tester` turns it into a function of the text: a
text it refuses holds no match, so the search can be skipped.  Only what the tree proves is
kept; what it cannot read (a class of many characters, a category, a back reference, a part
that may be absent, a pattern that ignores case) requires nothing.

Reading a parse tree and compiling a test cost more than a tenth of a second for the tier rules'
patterns: the tests of the shipped rules are kept, generated, in :mod:`._literal_table` (``python
-m daishi_forensics.injection._literals`` writes it), each under a fingerprint of its pattern;
:func:`tester` takes a pattern's test from there when the fingerprint is known and derives it
otherwise (an edited rule is never tested by a stale table).  The rules ask for their tests at their
first search, so only a process that classifies loads the table.

The rule: **a text that fails the test has no match** (every match is a substring of the text,
and contains the literals).  A text that passes may still have none.

>>> need = required(re.compile(r"\\bend\\s+of\\s+(?:the\\s+)?(?:input|prompt)s?\\b"))
>>> need
('and', (('lit', 'end'), ('lit', 'of'), ('or', (('lit', 'input'), ('lit', 'prompt')))))
>>> needs = tester(re.compile(r"\\byou\\s+(?:were|are)\\s+(?:told|made)\\b"))
>>> needs("you were told"), needs("you were asked")
(True, False)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Union

import re._constants as _c  # type: ignore[import-not-found,import-untyped,unused-ignore]
import re._parser as _p  # type: ignore[import-not-found,import-untyped,unused-ignore]

from ._literal_table import TESTS

__all__ = ["Need", "required", "tester", "fingerprint", "table_source", "alternatives", "searcher", "searched_patterns"]

Need = Union[None, tuple[str, Any]]
"""A condition on a text: None (nothing required), ``("lit", s)`` (``s`` occurs in it),
``("and", needs)`` or ``("or", needs)``."""

_CLASS_LITERALS = 16
"""A class of at most this many plain characters (``[<{]``) requires one of them; a larger one,
nothing (a test of each would cost more than it saves)."""

_GROUPS = 2
"""Groups of alternatives an *and* keeps in :func:`weakened`."""


def required(pattern: re.Pattern[str]) -> Need:
    """What every match of ``pattern`` contains (None when nothing can be proven; always None for a
    pattern that ignores case)."""
    if pattern.flags & re.IGNORECASE:
        return None
    return _sequence(_p.parse(pattern.pattern, pattern.flags).data)


def _sequence(items: list[tuple[Any, Any]]) -> Need:
    """A concatenation: each part's need, adjacent literal characters joined into one string."""
    needs: list[Need] = []
    run: list[str] = []
    for op, av in _flatten(items):
        if op is _c.LITERAL:
            run.append(chr(av))
            continue
        if run:
            needs.append(("lit", "".join(run)))
            run = []
        needs.append(_item(op, av))
    if run:
        needs.append(("lit", "".join(run)))
    return _and(needs)


def _flatten(items: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Groups that change no flag spliced into the sequence around them (their literals join the run)."""
    out: list[tuple[Any, Any]] = []
    for op, av in items:
        if op is _c.SUBPATTERN and not av[1] and not av[2]:
            out += _flatten(av[3].data)
        else:
            out.append((op, av))
    return out


def _item(op: Any, av: Any) -> Need:
    """The need of one part of a sequence (not a plain literal)."""
    if op is _c.SUBPATTERN:  # a group that sets or clears flags
        return None if av[1] & re.IGNORECASE else _sequence(av[3].data)
    if op is _c.BRANCH:
        return _or([_sequence(alternative.data) for alternative in av[1]])
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        low, _high, body = av
        return _sequence(body.data) if low >= 1 else None
    if op is _c.ATOMIC_GROUP:
        return _sequence(av.data)
    if op is _c.ASSERT:  # a lookahead or lookbehind that must hold reads text of the string
        return _sequence(av[1].data)
    if op is _c.IN:
        if 0 < len(av) <= _CLASS_LITERALS and all(kind is _c.LITERAL for kind, _ in av):
            return _or([("lit", chr(code)) for _, code in av])
        return None
    return None  # AT, ASSERT_NOT, ANY, NOT_LITERAL, GROUPREF...: nothing proven


def _and(needs: list[Need]) -> Need:
    """All of ``needs`` (None when none requires anything).  A literal inside another kept one is
    dropped (the longer implies it)."""
    parts: list[tuple[str, Any]] = []
    for need in needs:
        if need is None:
            continue
        parts += need[1] if need[0] == "and" else [need]
    lits = [p[1] for p in parts if p[0] == "lit"]
    kept = [p for p in parts if p[0] != "lit" or not any(p[1] != s and p[1] in s for s in lits)]
    unique = list(dict.fromkeys(kept))
    if not unique:
        return None
    return unique[0] if len(unique) == 1 else ("and", tuple(unique))


def _or(needs: list[Need]) -> Need:
    """One of ``needs`` (None when one of them requires nothing).  A literal holding another kept
    one is dropped (the shorter is implied by it)."""
    parts: list[tuple[str, Any]] = []
    for need in needs:
        if need is None:
            return None
        parts += need[1] if need[0] == "or" else [need]
    lits = [p[1] for p in parts if p[0] == "lit"]
    kept = [p for p in parts if p[0] != "lit" or not any(s != p[1] and s in p[1] for s in lits)]
    unique = list(dict.fromkeys(kept))
    return unique[0] if len(unique) == 1 else ("or", tuple(unique))


def _leaves(need: tuple[str, Any]) -> int:
    """The literals of a need."""
    return 1 if need[0] == "lit" else sum(_leaves(part) for part in need[1])


def _shortest(need: tuple[str, Any]) -> int:
    """The length of a need's shortest literal (a need whose literals are all long is rarely met)."""
    return len(need[1]) if need[0] == "lit" else min(_shortest(part) for part in need[1])


def _rank(need: tuple[str, Any]) -> tuple[int, int]:
    """The order an *and*'s groups are kept in: longest shortest literal first, then fewest literals."""
    return -_shortest(need), _leaves(need)


def weakened(need: Need) -> Need:
    """``need`` with each *and* cut to its literals and :data:`_GROUPS` of its *or* parts, those whose
    shortest literal is longest (then those of fewest literals): a weaker condition (a text that
    meets ``need`` meets it), so one every match still meets, and a far shorter test.

    >>> x_or_y, uv_or_wx, abc_or_de = (("or", (("lit", a), ("lit", b))) for a, b in ("xy", ("uv", "wx"), ("abc", "de")))
    >>> weakened(("and", (("lit", "ab"), x_or_y, uv_or_wx, abc_or_de)))
    ('and', (('lit', 'ab'), ('or', (('lit', 'uv'), ('lit', 'wx'))), ('or', (('lit', 'abc'), ('lit', 'de')))))
    """
    if need is None or need[0] == "lit":
        return need
    parts = [weakened(part) for part in need[1]]
    if need[0] == "and":
        groups = [part for part in parts if part is not None and part[0] != "lit"]
        parts = [part for part in parts if part is not None and part[0] == "lit"]
        if groups:
            parts += sorted(groups, key=_rank)[:_GROUPS]
    return (need[0], tuple(parts)) if len(parts) > 1 else parts[0]


def _expression(need: tuple[str, Any]) -> str:
    """``need`` as a Python expression of the text ``t``: within an *and*, the literals first,
    longest first (the rarer fail sooner)."""
    kind, value = need
    if kind == "lit":
        return f"{value!r} in t"
    parts = list(value)
    if kind == "and":
        parts.sort(key=lambda p: (p[0] != "lit", -len(p[1]) if p[0] == "lit" else _leaves(p)))
    joiner = " and " if kind == "and" else " or "
    return "(" + joiner.join(_expression(p) for p in parts) + ")"


def _derived(pattern: re.Pattern[str]) -> Callable[[str], bool] | None:
    """:func:`weakened` :func:`required` of ``pattern`` compiled into one expression of ``in`` tests (built from the
    literals' ``repr``, no other input); None when nothing is required."""
    need = weakened(required(pattern))
    if need is None:
        return None
    test: Callable[[str], bool] = eval("lambda t: " + _expression(need), {"__builtins__": {}})
    return test


def fingerprint(pattern: re.Pattern[str]) -> str:
    """A pattern's text and flags, hashed: the key of its test in :mod:`._literal_table`."""
    text = pattern.pattern.encode("utf-8", "surrogatepass") + b"\0" + str(pattern.flags).encode()
    return hashlib.blake2b(text, digest_size=10).hexdigest()


def tester(pattern: re.Pattern[str]) -> Callable[[str], bool] | None:
    """A function of a text that is False only when ``pattern`` cannot match it (:func:`required`);
    None when nothing is required.  The generated table's when it knows the pattern's fingerprint,
    else derived now."""
    key = fingerprint(pattern)
    if key in TESTS:
        return TESTS[key]
    return _derived(pattern)


_WHOLE_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")
"""A pattern's opening group that sets flags for the whole pattern."""


def alternatives(pattern: re.Pattern[str]) -> tuple[re.Pattern[str], ...]:
    r"""The top-level alternatives of ``pattern`` (``a|b|c``: ``a``, ``b`` and ``c``), each compiled with its
    flags; none when it has fewer than two, numbers a group (one alternative could refer to another's), opens
    by setting flags for the whole, or is verbose (a ``|`` or ``(`` in its comments is no syntax).

    >>> [p.pattern for p in alternatives(re.compile(r"a(?:b|c)|[|)]d|e\\|f"))]
    ['a(?:b|c)', '[|)]d', 'e\\\\', 'f']
    """
    source = pattern.pattern
    if pattern.groups or _WHOLE_FLAGS.match(source) or pattern.flags & re.VERBOSE:
        return ()
    parts: list[str] = []
    depth = start = i = 0
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":  # a class: its "]" first (or after "^") is a member, not its end
            i += 1
            i += source[i:i + 1] == "^"
            i += source[i:i + 1] == "]"
            while i < len(source) and source[i] != "]":
                i += 2 if source[i] == "\\" else 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    parts.append(source[start:])
    if len(parts) < 2:
        return ()
    try:
        return tuple(re.compile(part, pattern.flags) for part in parts)
    except re.error:
        return ()


def searcher(pattern: re.Pattern[str]) -> Callable[[str], re.Match[str] | None]:
    r"""``pattern.search``, read alternative by alternative where it has several (:func:`alternatives`): one whose
    literal test fails (:func:`tester`) matches nowhere and is skipped, the others are searched, and the match
    is the one that starts first, of those starting at one place the first alternative's.  That is the
    pattern's own match (the leftmost, found by the first alternative that matches there), found without
    trying every alternative at every place of the text.

    >>> search = searcher(re.compile(r"\bzq\w+|\bab+|b"))
    >>> search("ab zqa").span(), search("zzz") is None
    ((0, 2), True)
    """
    parts = alternatives(pattern)
    if not parts:
        return pattern.search
    reads = tuple((part.search, tester(part)) for part in parts)

    def search(text: str) -> re.Match[str] | None:
        best: re.Match[str] | None = None
        for find, needs in reads:
            if needs is not None and not needs(text):
                continue
            found = find(text)
            if found is not None and (best is None or found.start() < best.start()):
                best = found
        return best

    return search


def searched_patterns(patterns: Iterable[re.Pattern[str]]) -> Iterator[re.Pattern[str]]:
    """Each of ``patterns`` and then its alternatives (:func:`alternatives`): every pattern a rule's search
    asks a literal test of (:func:`searcher`), the table's rows."""
    for pattern in patterns:
        yield pattern
        yield from alternatives(pattern)


def table_source(patterns: Iterable[re.Pattern[str]]) -> str:
    """The text of :mod:`._literal_table` for ``patterns``: each pattern's test (:func:`weakened`
    :func:`required` as an expression, None when nothing is required) under its fingerprint, in the order given."""
    lines = [
        '"""The literal tests of the tier rules\' patterns, generated by ``python -m',
        'daishi_forensics.injection._literals`` from the rules (see :mod:`._literals`): do not edit.',
        "",
        "Each pattern's fingerprint -> a function of a text, False only when the pattern cannot match it;",
        'None when the pattern requires no literal.  A test checks the table against the rules."""',
        "",
        "from collections.abc import Callable",
        "",
        "TESTS: dict[str, Callable[[str], bool] | None] = {",
    ]
    seen: set[str] = set()
    for pattern in patterns:
        key = fingerprint(pattern)
        if key in seen:
            continue
        seen.add(key)
        need = weakened(required(pattern))
        if need is None:
            lines.append(f"    {key!r}: None,")
            continue
        if need[0] == "or":
            body = "\n        or ".join(_expression(part) for part in need[1])
            lines.append(f"    {key!r}: lambda t: (\n        {body}\n    ),")
        else:
            lines.append(f"    {key!r}: lambda t: {_expression(need)},")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    from daishi_forensics.injection.tier_rules import RULES

    Path(__file__).with_name("_literal_table.py").write_text(table_source(searched_patterns(rule.pattern for rule in RULES)))

"""Render a comparison (:mod:`daishi_forensics.report.compare`): text, Markdown, HTML, JSON.

All four say the same things: which sides, the direction of every difference (B − A), the
figures side by side with the difference and, where there is one, its 95% interval and the
kind of interval.  Seats are written ``Name (id)``; every string from the data is escaped
(control characters written out; HTML escaped; Markdown's characters escaped).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from daishi_forensics.jsonio import dumps
from daishi_forensics.textsafe import md_text, shown
from daishi_forensics.wording import count

from .cells import Agent, Block, Figure
from .tables import cell, markdown_table, text_table, wrap

__all__ = ["FORMATS", "render", "compare_blocks"]

FORMATS = ("text", "json", "markdown", "html")

_WORDS = {"score": "score", "wealth": "wealth", "harm": "harm /100 rounds", "keeping": "promise keeping",
          "surplus": "surplus", "resistance": "resistance", "flagged": "named by a flag",
          "flaggedOrReview": "flag or review"}


def _num(value: Any) -> str:
    return cell(value)


def _signed_text(value: Any) -> str:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return "–"
    text = cell(float(value))
    return text if text.startswith("-") or text == "0" else "+" + text


def _signed(value: Any) -> Figure | None:
    """A difference B − A with its sign, a number in its column (aligned right); none: ``None`` (written –)."""
    return None if not isinstance(value, (int, float)) or isinstance(value, bool) else Figure(_signed_text(value))


def _interval(value: Any) -> Figure | None:
    if not (isinstance(value, list) and len(value) == 2):
        return None
    return Figure(f"{cell(float(value[0]))} … {cell(float(value[1]))}")


def _agent(seat: Mapping[str, Any] | None) -> Any:
    if not seat:
        return "–"
    return Agent(seat["agentId"], seat.get("name"))


def _text(value: Any) -> Any:
    """A cell of a text column: no value written '–' as text, so a column that has none at all is still
    text (left-aligned), not taken for a column of numbers."""
    return "–" if value is None else value


def _pair(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None, metric: str, diff: Any) -> str:
    va = (a or {}).get("values", {}).get(metric) if a else None
    vb = (b or {}).get("values", {}).get(metric) if b else None
    return f"{_num(va)} → {_num(vb)} ({_signed_text(diff)})"


def compare_blocks(doc: Mapping[str, Any]) -> list[Block]:
    """The comparison's tables, in reading order."""
    if doc["by"] == "seat":
        rows = []
        for r in doc["seats"]:
            a, b = r["a"], r["b"]
            rows.append([r["seat"], _agent(a), _text((a or {}).get("model")), _agent(b), _text((b or {}).get("model")),
                         *[_pair(a, b, m, r["difference"][m]) for m in ("score", "wealth", "harm", "keeping",
                                                                        "surplus", "resistance")],
                         _interval(r.get("resistanceInterval")),
                         f"{(a or {}).get('level') or '–'} → {(b or {}).get('level') or '–'}"])
        overall = [[_WORDS[m], v["a"], v["b"], _signed(v["difference"])] for m, v in doc["overall"].items()]
        return [
            Block("seats", "Seat by seat",
                  "Each cell: A → B (B − A). Resistance: 1 − complied/exposed over the probes the seat heard, "
                  "its difference with a 95% Newcombe interval (two Wilson intervals combined); levels: the "
                  "screens' most serious level naming the seat.",
                  ["seat", "A", "A model", "B", "B model", "score", "wealth", "harm /100 rounds", "promise keeping",
                   "surplus", "resistance", "resistance 95% interval (B − A)", "level"], rows, key_columns=1),
            Block("overall", "Over all player seats",
                  "Mean over each match's player seats (probe and anchor seats left out: they are not players) and the "
                  "difference B − A; one match per side, so no interval over matches.",
                  ["figure", "A", "B", "B − A"], overall),
        ]
    figures = []
    for metric, f in doc["figures"].items():
        figures.append([f.get("words") or _WORDS.get(metric, metric), f["a"]["mean"], _interval(f["a"]["interval"]),
                        f["a"]["matches"], f["b"]["mean"], _interval(f["b"]["interval"]), f["b"]["matches"],
                        _signed(f["difference"]), _interval(f["interval"]),
                        f.get("why") or ("paired t" if doc["design"] == "paired" else "Welch t")])
    kind = doc["intervals"]["paired" if doc["design"] == "paired" else "independent"]
    return [Block("figures", "Side by side",
                  f"Means over matches (each match counted once) with their 95% t intervals; the difference "
                  f"B − A with its 95% interval: {kind}.",
                  ["figure", "A mean", "A 95% interval", "A matches", "B mean", "B 95% interval", "B matches",
                   "B − A", "95% interval of B − A", "interval"], figures)]


def _head(doc: Mapping[str, Any]) -> list[str]:
    a, b = doc["a"], doc["b"]
    if doc["by"] == "seat":
        return ["Comparison of two matches, seat by seat (differences are B − A).",
                f"A: {a['label']} (match {a['matchId']}, {count(a['seats'], 'seat')}, verdict {a['verdict']}, "
                f"{count(a['flags'], 'flag')}).",
                f"B: {b['label']} (match {b['matchId']}, {count(b['seats'], 'seat')}, verdict {b['verdict']}, "
                f"{count(b['flags'], 'flag')})."]
    design = "paired by match" if doc["design"] == "paired" else "independent"
    why = doc.get("designWhy")
    out = [f"Comparison of two sides over matches (differences are B − A; {design}" + (f": {why}" if why else "")
           + ")."]
    for key in ("a", "b"):
        s = doc[key]
        what = f"model {s['model']}" if s["model"] else "every player seat"
        out.append(f"{key.upper()}: {s['label']}: {what}, {count(s['seats'], 'player seat')} in {s['matches']} of "
                   f"{count(s['matchesRead'], 'match', 'matches')} read" + (f" (models: {', '.join(s['models']) or 'none named'})"
                                                         if not s["model"] else "") + ".")
    return out


def render_text(doc: Mapping[str, Any], *, width: int = 100, color: bool = False) -> str:
    out: list[str] = []
    for line in _head(doc):
        out.extend(wrap(shown(line), width))
    for block in compare_blocks(doc):
        out.append("")
        out.extend(wrap(shown(f"== {block.title} =="), width))
        out.extend(wrap(shown(block.intro), width))
        out.append(text_table(block.headers, block.rows, width=width, color=color, key=block.key_columns)
                   if block.rows else "(none)")
    if doc.get("notes"):
        out.append("")
        for note in doc["notes"]:
            lines = wrap(shown(note), width - 2)
            out.extend(["- " + lines[0], *("  " + x for x in lines[1:])])
    return "\n".join(x.rstrip() for x in out) + "\n"


def _md(text: str) -> str:
    return md_text(shown(text))


def render_markdown(doc: Mapping[str, Any]) -> str:
    out = ["# Comparison", ""] + [_md(line) + "  " for line in _head(doc)] + [""]
    for block in compare_blocks(doc):
        out += [f"## {_md(block.title)}", "", _md(block.intro), "",
                markdown_table(block.headers, block.rows, align=True) if block.rows else "_none_", ""]
    if doc.get("notes"):
        out += [f"- {_md(n)}" for n in doc["notes"]] + [""]
    return "\n".join(out)


def render_html(doc: Mapping[str, Any]) -> str:
    from .html import CSP, STYLE, esc, table

    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
           '<meta name="viewport" content="width=device-width,initial-scale=1">',
           f"<title>Comparison</title><style>{STYLE}</style></head><body>", "<h1>Comparison</h1>"]
    out += [f'<p class="sub">{esc(line)}</p>' for line in _head(doc)]
    for block in compare_blocks(doc):
        out.append(f'<section id="{block.key}"><h2>{esc(block.title)}</h2><p class="intro">{esc(block.intro)}</p>'
                   + (table(block) if block.rows else "<p>None.</p>") + "</section>")
    if doc.get("notes"):
        out.append("<h2>Notes</h2><ul>" + "".join(f"<li>{esc(n)}</li>" for n in doc["notes"]) + "</ul>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def render(doc: Mapping[str, Any], fmt: str, *, width: int = 100, color: bool = False) -> str:
    """The comparison in format ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "json":
        return dumps(doc)
    if fmt == "markdown":
        return render_markdown(doc)
    if fmt == "html":
        return render_html(doc)
    return render_text(doc, width=width, color=color)


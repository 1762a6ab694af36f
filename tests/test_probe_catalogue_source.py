"""The shipped probe definitions cite a document users have."""

from __future__ import annotations

from pathlib import Path

from daishi_forensics.probes import default_catalogue

ROOT = Path(__file__).resolve().parent.parent


def test_each_shipped_definition_cites_the_input_format_docs() -> None:
    # every shipped definition said "source": "contract §5 (first catalogue, assumed)", a document users do not have
    sources = {d["id"]: d["source"] for d in default_catalogue().to_json()}
    assert sources == dict.fromkeys(("broadcast-canary", "gift-to-sender", "move-to", "reveal-secret"),
                                    "docs/input-format.md, section 6 (Probes): the first catalogue")
    assert "\n## 6. Probes\n" in (ROOT / "docs" / "input-format.md").read_text(encoding="utf-8")

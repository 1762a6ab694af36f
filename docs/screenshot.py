"""Regenerate the README's screenshot of the HTML behavior report.

    python docs/screenshot.py            # writes docs/report-screenshot.png
    python docs/screenshot.py --agent Nyx --height 1400 --out /tmp/nyx.png

Renders the embedded demo match with one seat in focus (``behavior m_demo --agent Tarn``)
and photographs the page's first screen in headless Chromium (Debian's ``chromium``
package; ``--chromium PATH`` for another).  The page is the same bytes on every run; the
picture depends on the fonts installed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main as cli

HERE = Path(__file__).resolve().parent


def screenshot(page: Path, target: Path, width: int, height: int, chromium: str) -> None:
    """Photograph ``page`` at ``width`` x ``height`` into ``target`` (PNG)."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        f"--user-data-dir={profile}", f"--window-size={width},{height}", f"--screenshot={target}",
                        page.as_uri()], check=True, capture_output=True, timeout=180)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agent", default="Tarn", help="the seat in focus (name or id) [default: Tarn]")
    parser.add_argument("--out", type=Path, default=HERE / "report-screenshot.png")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=1000)
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    args = parser.parse_args(argv)
    if not args.chromium:
        print("no chromium found: install Debian's chromium package or pass --chromium PATH", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        result = CliRunner().invoke(cli, ["behavior", "m_demo", "--agent", args.agent, "-o", str(page)])
        if result.exit_code not in (0, 1):
            print(result.output, file=sys.stderr)
            return result.exit_code or 1
        screenshot(page, args.out, args.width, args.height, args.chromium)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

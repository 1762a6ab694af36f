"""Same bytes from two installs: run a list of commands on each and compare their output.

A change that should not change any result (a refactoring, a new storage layout, a
faster path) is checked by running the same commands on an install of the code before
and after it, on the same inputs, and comparing every output byte for byte (and the
exit codes).  The inputs are simulated once, by the old install; the new install's
simulations of the same matches are compared too.

An install is a virtual environment folder, a ``daishi-forensics`` executable, or
``rev:<commit>`` (built here from ``git archive`` of that commit into a fresh virtual
environment under ``--work``; takes a few minutes the first time, then reused)::

    python bench/same_bytes.py --old rev:main --new .venv
    python bench/same_bytes.py --old /tmp/base/venv --new .venv --large --measure 2

``--large`` adds a simulated stream of about a million events and 96 seats (a few
minutes per install).  ``--measure N`` then also times ``behavior`` on it, N runs per
install alternating old and new, each on one core (``taskset -c 0``) with the second
core's help switched off (``DAISHI_FORENSICS_PARALLEL=0``), and prints the best wall time,
the best CPU time (user + system) and the peak resident memory (``/usr/bin/time``) of each
and their ratios, new over old, measured in this one run.

Exit status: 0 when every output is identical, 1 when one differs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

SIMULATIONS: dict[str, list[str]] = {
    "v1-stream-gz": ["--scenario", "mixed", "--seed", "3", "--schema-version", "1", "--previous-season",
                     "--form", "stream-gz", "--agents", "10", "--ticks", "200"],
    "v2-folder": ["--scenario", "mixed", "--seed", "3", "--schema-version", "2", "--form", "folder",
                  "--agents", "10", "--ticks", "200"],
    "v3-bundle": ["--scenario", "mixed", "--seed", "3", "--schema-version", "3", "--form", "bundle",
                  "--agents", "10", "--ticks", "200"],
    "v3-stream-gz-ring": ["--scenario", "ring", "--seed", "5", "--schema-version", "3", "--form", "stream-gz",
                          "--agents", "12", "--ticks", "300"],
}
"""Small simulated matches: ``simulate`` arguments by name (the output folder is added)."""

LARGE = {"v3-stream-1m": ["--scenario", "mixed", "--seed", "3", "--schema-version", "3", "--form", "stream",
                          "--agents", "96", "--events", "1000000"]}
"""The large match: about a million events, 96 seats."""

DEMO_COMMANDS: dict[str, list[str]] = {
    "behavior-demo.json": ["behavior", "m_demo", "--format", "json"],
    "behavior-demo.txt": ["behavior", "m_demo", "--format", "text"],
    "behavior-demo.md": ["behavior", "m_demo", "--format", "markdown"],
    "behavior-demo.html": ["behavior", "m_demo", "--format", "html"],
    "screen-demo.json": ["screen", "m_demo", "--format", "json"],
    "score-demo.json": ["score", "m_demo", "--format", "json"],
}
"""Commands on the embedded demo match, by the name of their output."""

PER_MATCH: dict[str, list[str]] = {
    "behavior.json": ["behavior", "{match}", "--format", "json"],
}
"""Commands run on every simulated match (``{match}`` is its path)."""

PER_SMALL_MATCH: dict[str, list[str]] = {
    "behavior.md": ["behavior", "{match}", "--format", "markdown"],
    "screen.json": ["screen", "{match}", "--format", "json"],
    "score.json": ["score", "{match}", "--format", "json"],
}
"""Commands run on the small simulated matches only."""


@dataclass(frozen=True)
class Install:
    name: str
    """``old`` or ``new``."""
    exe: Path
    """Its ``daishi-forensics`` executable."""


def executable(spec: str, work: Path) -> Path:
    """The ``daishi-forensics`` of ``spec``: a virtual environment, an executable, or
    ``rev:<commit>`` (built under ``work/installs`` if not there yet)."""
    if spec.startswith("rev:"):
        return built(spec[4:], work / "installs")
    path = Path(spec).resolve()
    if path.is_dir():
        path = path / "bin" / "daishi-forensics"
    if not path.is_file():
        sys.exit(f"no daishi-forensics executable at {path}")
    return path


def built(rev: str, under: Path) -> Path:
    """An install of commit ``rev`` (``git archive`` into a fresh virtual environment)."""
    sha = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                         capture_output=True, text=True, check=True).stdout.strip()
    home = under / sha[:12]
    exe = home / "venv" / "bin" / "daishi-forensics"
    if exe.is_file():
        return exe
    shutil.rmtree(home, ignore_errors=True)
    (home / "src").mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", sha], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(home / "src")], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "venv", str(home / "venv")], check=True)
    print(f"(installing {rev} = {sha[:12]} into {home})", file=sys.stderr)
    pip = subprocess.run([str(home / "venv" / "bin" / "pip"), "install", "-q", str(home / "src")],
                         capture_output=True, text=True)
    if pip.returncode:
        sys.exit(f"installing {rev} failed:\n{pip.stderr[-4000:]}")
    return exe


def simulate(install: Install, args: list[str], out: Path) -> Path:
    """Simulate one match into ``out`` (emptied first); returns the match's path."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    proc = subprocess.run([str(install.exe), "simulate", *args, "--out", str(out)],
                          capture_output=True, text=True, check=True)
    return Path(proc.stdout.strip().splitlines()[-1])


def files_of(path: Path) -> list[Path]:
    """Every file a match is made of (the match's folder, or the file alone), sorted."""
    return sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]


def run(install: Install, argv: list[str], out: Path) -> int:
    """Run one command, its standard output into ``out``; returns its exit code."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as sink:
        proc = subprocess.run([str(install.exe), *argv], stdout=sink, stderr=subprocess.PIPE)
    if proc.returncode not in (0, 1):
        print(f"  {install.name}: {' '.join(argv)} exited {proc.returncode}:\n{proc.stderr.decode()[-2000:]}",
              file=sys.stderr)
    return proc.returncode


def measured(install: Install, match: Path) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system) and peak resident memory (KB) of ``behavior
    --format json`` on ``match``, on one core, the second core's help switched off.  (On a
    machine shared with other work the wall time swings with the load; the CPU time much less.)"""
    env = {**os.environ, "DAISHI_FORENSICS_PARALLEL": "0"}
    cmd = ["taskset", "-c", "0", "/usr/bin/time", "-f", "%M %U %S", str(install.exe), "behavior", str(match),
           "--format", "json"]
    started = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    seconds = time.perf_counter() - started
    kb, user, system = proc.stderr.strip().splitlines()[-1].split()
    return seconds, float(user) + float(system), int(kb)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="the reference install (venv, executable or rev:<commit>)")
    parser.add_argument("--new", required=True, help="the install to check (venv, executable or rev:<commit>)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/daishi-same-bytes"), help="scratch folder")
    parser.add_argument("--large", action="store_true", help="add the ~1M-event, 96-seat stream")
    parser.add_argument("--measure", type=int, default=0, metavar="N",
                        help="time behavior on the large stream N times per install (with --large)")
    opts = parser.parse_args()
    work: Path = opts.work.resolve()
    installs = [Install("old", executable(opts.old, work)), Install("new", executable(opts.new, work))]
    old, new = installs
    print(f"old: {old.exe}\nnew: {new.exe}", flush=True)

    simulations = {**SIMULATIONS, **(LARGE if opts.large else {})}
    matches: dict[str, Path] = {}
    same = True

    def report(label: str, ok: bool, note: str = "") -> None:
        nonlocal same
        same &= ok
        print(f"{'same   ' if ok else 'DIFFERS'}  {label}  {note}", flush=True)

    for name, args in simulations.items():
        matches[name] = simulate(old, args, work / "inputs" / name)
        again = simulate(new, args, work / "inputs-new" / name)
        pairs = list(zip(files_of(matches[name]), files_of(again)))
        report(f"simulate {name}", len(files_of(matches[name])) == len(files_of(again)) and all(
            a.name == b.name and a.read_bytes() == b.read_bytes() for a, b in pairs))

    commands: dict[str, list[str]] = dict(DEMO_COMMANDS)
    for name, path in matches.items():
        per = {**PER_MATCH, **({} if name in LARGE else PER_SMALL_MATCH)}
        for out, argv in per.items():
            commands[f"{name}/{out}"] = [a.replace("{match}", str(path)) for a in argv]
    for out, argv in commands.items():
        codes = [run(install, argv, work / install.name / out) for install in installs]
        ok = codes[0] == codes[1] and (work / "old" / out).read_bytes() == (work / "new" / out).read_bytes()
        size = (work / "old" / out).stat().st_size
        report(f"{argv[0]} {out}", ok, f"exit {codes[0]}/{codes[1]}, {size:,} bytes")

    if opts.measure and opts.large:
        match = matches[next(iter(LARGE))]
        wall: dict[str, float] = {}
        cpu: dict[str, float] = {}
        peak: dict[str, int] = {}
        for k in range(opts.measure):
            for install in installs[::1 if k % 2 == 0 else -1]:  # alternate which goes first
                seconds, cpu_seconds, kb = measured(install, match)
                print(f"  {install.name}: {seconds:.2f} s wall, {cpu_seconds:.2f} s CPU, peak {kb / 1024:.0f} MiB",
                      flush=True)
                wall[install.name] = min(wall.get(install.name, seconds), seconds)
                cpu[install.name] = min(cpu.get(install.name, cpu_seconds), cpu_seconds)
                peak[install.name] = max(peak.get(install.name, 0), kb)
        print(f"behavior on {match.name} (best of {opts.measure}, one core, DAISHI_FORENSICS_PARALLEL=0; "
              "peak RSS: the largest of the runs):")
        for install in installs:
            name = install.name
            print(f"  {name}: {wall[name]:.2f} s wall, {cpu[name]:.2f} s CPU, peak RSS {peak[name] / 1024:.0f} MiB")
        print(f"  new/old: wall {wall['new'] / wall['old']:.3f}, CPU {cpu['new'] / cpu['old']:.3f}, "
              f"peak RSS {peak['new'] / peak['old']:.3f}")
    print("every output identical" if same else "SOME OUTPUTS DIFFER")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

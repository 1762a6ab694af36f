"""Where a study's files and page come from: a study address on a server, a folder, or saved copies.

Seed 000, *Recomputing a study yourself*: the files are at "the study's address
followed by ``/trials.csv``" and ``/seats.csv`` beside it; the script also fetches
the profile's public JSON and, under the anytime rule, the study's recipe; "until
then they answer 409 with the page's reason"; ``--trials`` and ``--seats`` read
copies saved earlier.  This module is the I/O edge: it returns texts and parsed
JSON documents, and reads nothing into figures.

A study address is ``<server>/u/<handle>/studies/<id>``.  The profile's JSON is
``<server>/u/<handle>?format=json`` (reading ``page-json``); the recipe is the
address the study's entry names, with ``?format=json`` (reading ``recipe``).  A
folder holds ``trials.csv``, ``seats.csv``, ``study.json`` (the study's entry) and,
under the anytime rule, ``recipe.json``.

Every failure is a :class:`~daishi_forensics.errors.StudyUnreadable` (exit 2); a
409 is its :class:`~daishi_forensics.errors.StudyNotPublished`, whose message is
the page's reason.  Credentials in an address (``https://user:pw@host/…``) are sent as HTTP
Basic authentication and never printed: every message and every name of a source shows the address
through :func:`~daishi_forensics.read.sources.redact_url` (``https://***@host/…``).
"""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson
from daishi_forensics.wording import count
from daishi_forensics.errors import InputUnreadable, StudyNotPublished, StudyUnreadable
from daishi_forensics.jsonio import shown
from daishi_forensics.read.jsontext import key_path, may_repeat_keys, repeated_keys
from daishi_forensics.read.sources import read_regular, redact_url, refuse_utf16, split_credentials

__all__ = [
    "TRIALS_FILE",
    "SEATS_FILE",
    "PAGE_FILE",
    "RECIPE_FILE",
    "MAX_BYTES",
    "StudyInputs",
    "StudyClient",
    "study_address",
    "load_study",
]

TRIALS_FILE = "trials.csv"
SEATS_FILE = "seats.csv"
PAGE_FILE = "study.json"
RECIPE_FILE = "recipe.json"
MAX_BYTES = 256 * 1024 * 1024
"""The most this tool reads of one file or answer."""

_ADDRESS = re.compile(r"/u/(?P<handle>[^/?#]+)/studies/(?P<study>[^/?#]+)/?\Z")


@dataclass(frozen=True)
class StudyInputs:
    """What a study audit reads, before any of it is parsed into rows and figures."""

    trials_text: str
    trials_name: str
    seats_text: str
    seats_name: str
    page: Any | None
    """The study's entry of the profile JSON (or ``study.json``); None when there is no page to compare."""
    page_name: str | None
    recipe: Any | None
    """The recipe's JSON, where it was read."""
    recipe_name: str | None
    address: str | None = None
    """The study's address, when it came from a server."""


def _utf16_without_mark(data: bytes) -> bool:
    r"""Whether ``data`` reads as UTF-16 without a byte-order mark: its first (up to 64) bytes hold a zero
    byte at every odd position and none at an even one (little-endian), or the other way round (big-endian).
    A UTF-8 text holds no zero byte; a CSV header is ASCII, so its UTF-16 form shows the pattern at once.

    >>> _utf16_without_mark("trial,seat".encode("utf-16-le")), _utf16_without_mark("trial,seat".encode("utf-16-be"))
    (True, True)
    >>> _utf16_without_mark(b"trial,seat"), _utf16_without_mark(b"a\x00b")
    (False, False)
    """
    head = data[:64]
    if len(head) < 4:
        return False
    even, odd = head[0::2], head[1::2]
    return (b"\x00" not in even and odd.count(0) == len(odd)) or (b"\x00" not in odd and even.count(0) == len(even))


def _decode(data: bytes, name: str) -> str:
    """A study file's text: UTF-8 only.  A UTF-16 file is refused as such, with the command that converts
    it (the match reader's :func:`~daishi_forensics.read.sources.refuse_utf16`); other bytes that are not
    UTF-8 are named by their byte and line."""
    try:
        refuse_utf16(data, name)
    except InputUnreadable as exc:
        raise StudyUnreadable(exc.message, file=name) from exc
    if _utf16_without_mark(data):
        raise StudyUnreadable("the file is UTF-16 without a byte-order mark (every other byte is zero); this tool "
                              "reads UTF-8: convert it (iconv -f UTF-16LE -t UTF-8, or UTF-16BE)", file=name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise StudyUnreadable(f"not UTF-8 text (byte {exc.start}); save it as UTF-8", file=name,
                              line=line) from exc


def _json(data: bytes, name: str) -> Any:
    """The JSON document ``data``; one that repeats a key is refused, naming the first repeated key: a
    page or recipe states the figures an audit checks, and which of two values its author meant cannot be
    told (a JSON reader keeps the last one, silently)."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise StudyUnreadable(f"not JSON ({exc})", file=name) from exc
    if may_repeat_keys(data, value):
        repeated = repeated_keys(data)
        if repeated:
            shown_key = shown(key_path(*repeated[0]))
            more = f" ({count(len(repeated) - 1, 'more')} after it)" if len(repeated) > 1 else ""
            raise StudyUnreadable(f"the key {shown_key} is repeated{more}: which of its values is meant cannot be "
                                  "told; write each key once", file=name)
    return value


def _read_file(path: Path) -> bytes:
    """A study file's bytes: a regular file only (a FIFO, device or socket is refused, never waited on:
    the match reader's :func:`~daishi_forensics.read.sources.read_regular`), of at most MAX_BYTES."""
    try:
        data = read_regular(path, MAX_BYTES)
    except InputUnreadable as exc:
        raise StudyUnreadable(exc.message, file=str(path)) from exc
    if len(data) > MAX_BYTES:
        raise StudyUnreadable(f"larger than {MAX_BYTES} bytes", file=str(path))
    return data


def _reason(body: bytes) -> str:
    """The page's reason in a 409 answer: its JSON ``reason`` or ``error``, else its text."""
    try:
        doc = orjson.loads(body)
    except orjson.JSONDecodeError:
        doc = None
    if isinstance(doc, Mapping):
        for key in ("reason", "error"):
            if isinstance(doc.get(key), str) and doc[key].strip():
                return str(doc[key]).strip()
    text = body.decode("utf-8", "replace").strip()
    return text or "the server gives no reason"


@dataclass(frozen=True)
class StudyClient:
    """GETs with a timeout and bounded retries (5xx and connection errors, exponential backoff).

    A 409 is :class:`StudyNotPublished` at once, with the page's reason; any other
    answer that is not 200 is :class:`StudyUnreadable`.
    """

    timeout: float = 30.0
    retries: int = 3
    backoff: float = 0.25

    def get(self, url: str, name: str | None = None) -> bytes:
        """The body of ``url``, whose credentials are sent as HTTP Basic authentication and never printed:
        messages name ``name`` (by default ``url`` with its credentials and query values hidden)."""
        plain, headers = split_credentials(url)
        request = urllib.request.Request(plain, headers=headers)
        url = redact_url(url) if name is None else name
        attempt = 0
        while True:
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as answer:  # noqa: S310 (http/https, checked)
                    data: bytes = answer.read(MAX_BYTES + 1)
                if len(data) > MAX_BYTES:
                    raise StudyUnreadable(f"the answer is larger than {MAX_BYTES} bytes", file=url)
                return data
            except urllib.error.HTTPError as exc:
                body = exc.read(64 * 1024) if exc.fp is not None else b""
                if exc.code == 409:
                    raise StudyNotPublished(f"not yet published (HTTP 409): {_reason(body)}", file=url) from exc
                if exc.code == 404:
                    raise StudyUnreadable("the server has no such study or file (HTTP 404)", file=url) from exc
                if exc.code < 500 or attempt >= self.retries:
                    raise StudyUnreadable(f"the server answered HTTP {exc.code}", file=url) from exc
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
                if attempt >= self.retries:
                    reason = getattr(exc, "reason", exc)
                    raise StudyUnreadable(f"no answer after {count(attempt + 1, 'attempt')} ({redact_url(str(reason))})",
                                          file=url) from exc
            time.sleep(self.backoff * (2**attempt))
            attempt += 1


def _split(url: str, what: str) -> urllib.parse.SplitResult:
    """``url`` split into its parts; one that does not split (``http://[::1``: an unclosed IPv6 bracket)
    or names no port a connection can use (``:99999``, ``:http``) cannot be read, and ``what`` says which
    address it was (named with its credentials hidden).

    >>> _split("http://[::1/u/a/studies/s", "not a study address")
    Traceback (most recent call last):
    ...
    daishi_forensics.errors.StudyUnreadable: http://[::1/u/a/studies/s: not a study address (Invalid IPv6 URL)
    >>> _split("https://u:pw@h:99999/u/a/studies/s", "not a study address")
    Traceback (most recent call last):
    ...
    daishi_forensics.errors.StudyUnreadable: https://***@h:99999/u/a/studies/s: not a study address: its port '99999' is not a port (a whole number from 0 to 65535)
    """
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError as exc:
        raise StudyUnreadable(f"{what} ({exc})", file=redact_url(url)) from exc
    try:
        parts.port  # noqa: B018 - raises ValueError on a port out of range or not a number
    except ValueError:
        port = parts.netloc.rpartition("@")[2].rpartition(":")[2]
        raise StudyUnreadable(f"{what}: its port {shown(port)} is not a port (a whole number from 0 to 65535)",
                              file=redact_url(url)) from None
    return parts


def study_address(target: str, server: str | None) -> tuple[str, str, str]:
    """``(origin, handle, study id)`` of a study address (a URL, or a path on ``server``).

    >>> study_address("https://daishi.ai/u/ada/studies/s_12", None)
    ('https://daishi.ai', 'ada', 's_12')
    >>> study_address("u/ada/studies/s_12", "http://127.0.0.1:8000/")
    ('http://127.0.0.1:8000', 'ada', 's_12')
    """
    url = target if target.startswith(("http://", "https://")) else None
    if url is None:
        if not server:
            raise StudyUnreadable("no such folder, and not a study address: give a study folder, an https:// "
                                  "study address, or a u/<handle>/studies/<id> path with --server", file=target)
        if _split(server, "not a valid server address").scheme not in ("http", "https"):
            raise StudyUnreadable(f"the server address must be http:// or https://, not {redact_url(server)!r}",
                                  file=redact_url(server))
        url = server.rstrip("/") + "/" + target.lstrip("/")
    parts = _split(url, "not a study address")
    match = _ADDRESS.match(parts.path)
    if match is None or parts.query or parts.fragment:
        raise StudyUnreadable("not a study address (expected <server>/u/<handle>/studies/<id>)",
                              file=redact_url(url))
    origin = f"{parts.scheme}://{parts.netloc}"
    return origin, urllib.parse.unquote(match["handle"]), urllib.parse.unquote(match["study"])


def _from_server(target: str, server: str | None, client: StudyClient, want_files: bool) -> StudyInputs:
    origin, handle, study = study_address(target, server)
    public = redact_url(origin)  # the address every message and source name gives: no credentials
    study_path = f"/u/{urllib.parse.quote(handle)}/studies/{urllib.parse.quote(study)}"
    base = f"{public}{study_path}"
    trials_url, seats_url = f"{base}/{TRIALS_FILE}", f"{base}/{SEATS_FILE}"
    trials = _decode(client.get(f"{origin}{study_path}/{TRIALS_FILE}", trials_url), trials_url) if want_files else ""
    seats = _decode(client.get(f"{origin}{study_path}/{SEATS_FILE}", seats_url), seats_url) if want_files else ""
    profile_path = f"/u/{urllib.parse.quote(handle)}?format=json"
    profile_url = f"{public}{profile_path}"
    profile = _json(client.get(f"{origin}{profile_path}", profile_url), profile_url)
    studies = profile.get("studies") if isinstance(profile, Mapping) else None
    if not isinstance(studies, list):
        raise StudyUnreadable("the profile's JSON has no 'studies' array", file=profile_url, field="studies")
    entry = next((s for s in studies if isinstance(s, Mapping) and s.get("study") == study), None)
    if entry is None:
        raise StudyUnreadable(f"the profile's JSON has no entry for study {study}", file=profile_url, field="studies")
    recipe = recipe_url = None
    if entry.get("stoppingRule") == "anytime":
        path = entry.get("recipe")
        if not isinstance(path, str) or not path.startswith("/"):
            raise StudyUnreadable("under the anytime rule the study's entry must name its recipe's address",
                                  file=profile_url, field="recipe")
        recipe_url = f"{public}{path}?format=json"
        recipe = _document(client.get(f"{origin}{path}?format=json", recipe_url), recipe_url, "study-recipe")
    return StudyInputs(trials, trials_url, seats, seats_url, entry, f"{profile_url} (study {study})", recipe,
                       recipe_url, base)


def _document(data: bytes, name: str, schema: str) -> Any:
    """The page's or the recipe's JSON; ``null`` is refused here, as None stands for "no page" (or
    no recipe) after this, and a file given as the page must not pass for no page at all."""
    document = _json(data, name)
    if document is None:
        raise StudyUnreadable(f"not in the form this tool reads (schema {schema}): (top): null is not an object",
                              file=name)
    return document


def _optional_json(path: Path, schema: str) -> Any | None:
    return _document(_read_file(path), str(path), schema) if path.exists() else None


def load_study(target: str | None, *, server: str | None = None, trials: Path | None = None,
               seats: Path | None = None, page: Path | None = None, recipe: Path | None = None,
               client: StudyClient | None = None) -> StudyInputs:
    """Gather a study's files, page and recipe.

    Parameters
    ----------
    target:
        A folder holding the files, a study address (``https://…/u/<handle>/studies/<id>``,
        or its path with ``server``), or None when ``trials`` and ``seats`` are given.
    trials, seats:
        Copies saved earlier; they replace the served (or the folder's) files.
    page, recipe:
        The page's figures and the recipe as files (otherwise the folder's or the server's).

    Raises
    ------
    StudyUnreadable
        Something cannot be read; :class:`StudyNotPublished` when the server answers 409.
    """
    if (trials is None) != (seats is None):
        raise StudyUnreadable("--trials and --seats go together (both files are needed)")
    client = client or StudyClient()
    saved = trials is not None
    if target is None:
        if not saved:
            raise StudyUnreadable("nothing to read: give a folder, a study address, or --trials and --seats")
        inputs = StudyInputs("", "", "", "", None, None, None, None)
    elif Path(target).is_dir():
        folder = Path(target)
        inputs = StudyInputs(
            "" if saved else _decode(_read_file(folder / TRIALS_FILE), str(folder / TRIALS_FILE)),
            str(folder / TRIALS_FILE),
            "" if saved else _decode(_read_file(folder / SEATS_FILE), str(folder / SEATS_FILE)),
            str(folder / SEATS_FILE),
            _optional_json(folder / PAGE_FILE, "study-page"), str(folder / PAGE_FILE),
            _optional_json(folder / RECIPE_FILE, "study-recipe"), str(folder / RECIPE_FILE),
        )
    else:
        inputs = _from_server(target, server, client, want_files=not saved)
    if saved:
        assert trials is not None and seats is not None
        inputs = replace(inputs, trials_text=_decode(_read_file(trials), str(trials)), trials_name=str(trials),
                         seats_text=_decode(_read_file(seats), str(seats)), seats_name=str(seats))
    if page is not None:
        inputs = replace(inputs, page=_document(_read_file(page), str(page), "study-page"), page_name=str(page))
    if recipe is not None:
        inputs = replace(inputs, recipe=_document(_read_file(recipe), str(recipe), "study-recipe"),
                         recipe_name=str(recipe))
    if inputs.page is None:
        inputs = replace(inputs, page_name=None)
    if inputs.recipe is None:
        inputs = replace(inputs, recipe_name=None)
    return inputs

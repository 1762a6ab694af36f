"""The screens' thresholds: one versioned, documented configuration.

``screens/config.json`` ships with the package (package data).  Every parameter is
``{"value": …, "rationale": "…"}``: the rationale says why the value is what it is,
from the behaviour the seeds describe (seed 002 §2.8-§2.9, seed 000 *Trade ledger* and
*Circular reputation*), never from a simulator's constants.

A run stamps ``version`` and ``digest`` (a hash of the effective values) in every
result, so a verdict can be reproduced later with the same configuration.  An
override (``--config FILE``) is a JSON object of the same shape holding only what
it changes; a bare value stands for ``{"value": …}``.  An override that does not set
its own ``version`` is stamped ``<shipped version>+local``; the digest tells any two
configurations apart.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import orjson

__all__ = ["ScreenConfig", "ConfigError", "default_config", "load_config"]

CONFIG_FORMAT = "daishi-forensics-screens-config"


class ConfigError(ValueError):
    """A configuration file that cannot be used (names the file and key)."""


@dataclass(frozen=True)
class ScreenConfig:
    """The effective configuration of one run."""

    version: str
    """The configuration's version, stamped in every result."""
    digest: str
    """``sha256`` (first 12 hex digits) of the effective values, stamped with the version."""
    exempt_roles: tuple[str, ...]
    """Node roles never screened as colluders (scripted seats)."""
    screens: Mapping[str, Mapping[str, Any]]
    """Screen name -> parameter name -> value (``enabled`` among them)."""

    def enabled(self, screen: str) -> bool:
        """Whether ``screen`` runs."""
        return bool(self.screens.get(screen, {}).get("enabled", True))

    def get(self, screen: str, name: str) -> Any:
        """A parameter's value.

        Raises
        ------
        ConfigError
            The configuration has no such parameter.
        """
        try:
            return self.screens[screen][name]
        except KeyError:
            raise ConfigError(f"the configuration has no screens.{screen}.{name}") from None

    def stamp(self) -> dict[str, str]:
        """``{"configVersion": …, "configDigest": …}``."""
        return {"configVersion": self.version, "configDigest": self.digest}


def _shipped() -> dict[str, Any]:
    text = (resources.files("daishi_forensics.screens") / "config.json").read_bytes()
    data = orjson.loads(text)
    if not isinstance(data, dict):  # pragma: no cover - the shipped file is tested
        raise ConfigError("the shipped screens/config.json is not an object")
    return data


def _values(doc: Mapping[str, Any], where: str) -> tuple[tuple[str, ...], dict[str, dict[str, Any]]]:
    def value(item: Any) -> Any:
        return item["value"] if isinstance(item, Mapping) and "value" in item else item

    roles = value(doc.get("exemptRoles", []))
    if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
        raise ConfigError(f"{where}: exemptRoles must be a list of role names")
    screens = doc.get("screens")
    if not isinstance(screens, Mapping):
        raise ConfigError(f"{where}: 'screens' must be an object")
    out: dict[str, dict[str, Any]] = {}
    for screen, params in screens.items():
        if not isinstance(params, Mapping):
            raise ConfigError(f"{where}: screens.{screen} must be an object")
        out[screen] = {
            name: value(item) for name, item in params.items() if name not in ("description", "rule")
        }
    return tuple(roles), out


def _merge(base: dict[str, Any], override: Mapping[str, Any], where: str) -> dict[str, Any]:
    merged = copy.deepcopy(base)
    for key, item in override.items():
        if key == "screens":
            if not isinstance(item, Mapping):
                raise ConfigError(f"{where}: 'screens' must be an object")
            for screen, params in item.items():
                if screen not in merged["screens"]:
                    raise ConfigError(f"{where}: unknown screen {screen!r} "
                                      f"(known: {', '.join(sorted(merged['screens']))})")
                if not isinstance(params, Mapping):
                    raise ConfigError(f"{where}: screens.{screen} must be an object")
                for name, value in params.items():
                    known = merged["screens"][screen]
                    if name not in known:
                        raise ConfigError(f"{where}: unknown parameter screens.{screen}.{name}")
                    old = known[name]
                    if isinstance(old, Mapping) and "value" in old:
                        new = dict(old)
                        new["value"] = value["value"] if isinstance(value, Mapping) and "value" in value else value
                        known[name] = new
                    else:
                        known[name] = value
        elif key in ("version", "exemptRoles", "description", "format"):
            if key == "exemptRoles" and isinstance(merged.get(key), Mapping):
                merged[key] = {**merged[key], "value": item["value"] if isinstance(item, Mapping) else item}
            else:
                merged[key] = item
        else:
            raise ConfigError(f"{where}: unknown key {key!r}")
    return merged


def _build(doc: Mapping[str, Any], version: str, where: str) -> ScreenConfig:
    roles, screens = _values(doc, where)
    for screen, params in screens.items():
        for name, value in params.items():
            if name == "enabled":
                if not isinstance(value, bool):
                    raise ConfigError(f"{where}: screens.{screen}.enabled must be true or false")
            elif value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise ConfigError(f"{where}: screens.{screen}.{name} must be a number, not {value!r}")
    canonical = orjson.dumps({"exemptRoles": list(roles), "screens": screens}, option=orjson.OPT_SORT_KEYS)
    digest = hashlib.sha256(canonical).hexdigest()[:12]
    return ScreenConfig(version=version, digest=digest, exempt_roles=roles,
                        screens={k: dict(v) for k, v in sorted(screens.items())})


_DEFAULT: ScreenConfig | None = None


def default_config() -> ScreenConfig:
    """The shipped configuration (``screens/config.json``)."""
    global _DEFAULT
    if _DEFAULT is None:
        doc = _shipped()
        _DEFAULT = _build(doc, str(doc["version"]), "screens/config.json")
    return _DEFAULT


def load_config(override: Path | str | Mapping[str, Any] | None = None) -> ScreenConfig:
    """The shipped configuration, with ``override`` (a file or a mapping) applied.

    Raises
    ------
    ConfigError
        The override cannot be read, is not JSON, or names an unknown screen or parameter.
    """
    if override is None:
        return default_config()
    base = _shipped()
    if isinstance(override, Mapping):
        doc, where = override, "config override"
    else:
        where = str(override)
        try:
            raw = Path(override).read_bytes()
        except OSError as exc:
            raise ConfigError(f"{where}: cannot read it ({exc.strerror or exc})") from None
        try:
            doc = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise ConfigError(f"{where}: not JSON ({exc})") from None
        if not isinstance(doc, Mapping):
            raise ConfigError(f"{where}: a configuration is a JSON object")
    merged = _merge(base, doc, where)
    version = str(doc["version"]) if "version" in doc else f"{base['version']}+local"
    return _build(merged, version, where)

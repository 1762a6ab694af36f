"""The screens' thresholds: one versioned, documented configuration.

``screens/config.json`` ships with the package (package data).  Every parameter is
``{"value": …, "rationale": "…"}``: the rationale says why the value is what it is,
from the behaviour the evaluation design describes (its behavioral metrics and collusion
screens) and the scoring rubric (*Trade ledger* and
*Circular reputation*), never from a simulator's constants.

A run stamps ``version`` and ``digest`` (a hash of the effective values) in every
result, so a verdict can be reproduced later with the same configuration.  The file's
``changes`` list says, newest first, what each version changed and why (a rule or a
value that changes bumps the version).  An
override (``--config FILE``) is a JSON object of the same shape holding only what
it changes; a bare value stands for ``{"value": …}``.  An override that does not set
its own ``version`` is stamped ``<shipped version>+local``; the digest tells any two
configurations apart.
"""

from __future__ import annotations

import copy
import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import orjson

__all__ = ["ConfigError", "ScreenConfig", "default_config", "load_config"]

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
    general: Mapping[str, Any]
    """Settings every screen shares: ``exempt_roles`` (node roles never screened as
    colluders: scripted seats), ``fair_ratio`` (the price band of a fair exchange, for
    the typical exchange value)."""
    screens: Mapping[str, Mapping[str, Any]]
    """Screen name -> parameter name -> value (``enabled`` among them)."""

    @property
    def false_alarm_rate(self) -> float:
        """The chance, in an honest match, of any flag or review (``general.false_alarm_rate``)."""
        return float(self.general.get("false_alarm_rate", 0.02))

    @property
    def flag_share(self) -> float:
        """A flag needs an adjusted p-value at most ``false_alarm_rate x flag_share``."""
        return float(self.general.get("flag_share", 0.25))

    @property
    def typology_share(self) -> float:
        """The share of ``false_alarm_rate`` the money-laundering typologies spend (the rest: the
        Daishi screens, shared equally among those that could find anything, Holm within each)."""
        return float(self.general.get("typology_share", 0.1))

    @property
    def net_trades(self) -> bool:
        """Whether the money-laundering typologies read a trade as one transfer of its net value (a fair one as
        none) rather than as two payments (``general.net_trades``)."""
        return bool(self.general.get("net_trades", False))

    @property
    def exempt_roles(self) -> tuple[str, ...]:
        """Node roles never screened as colluders."""
        return tuple(self.general.get("exempt_roles") or ())

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


def _value(item: Any) -> Any:
    return item["value"] if isinstance(item, Mapping) and "value" in item else item


def _sections(doc: Mapping[str, Any], where: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for section in ("general", "screens"):
        if not isinstance(doc.get(section), Mapping):
            raise ConfigError(f"{where}: '{section}' must be an object")
    out["general"] = {name: _value(item) for name, item in doc["general"].items() if name != "description"}
    for screen, params in doc["screens"].items():
        if not isinstance(params, Mapping):
            raise ConfigError(f"{where}: screens.{screen} must be an object")
        out[screen] = {name: _value(item) for name, item in params.items() if name not in ("description", "rule")}
    return out


def _merge(base: dict[str, Any], override: Mapping[str, Any], where: str) -> dict[str, Any]:
    merged = copy.deepcopy(base)

    def apply(target: dict[str, Any], params: Any, path: str) -> None:
        if not isinstance(params, Mapping):
            raise ConfigError(f"{where}: {path} must be an object")
        for name, value in params.items():
            if name not in target:
                raise ConfigError(f"{where}: unknown parameter {path}.{name}")
            old = target[name]
            new_value = _value(value)
            if isinstance(old, Mapping) and "value" in old:
                target[name] = {**old, "value": new_value}
            else:
                target[name] = new_value

    for key, item in override.items():
        if key == "screens":
            if not isinstance(item, Mapping):
                raise ConfigError(f"{where}: 'screens' must be an object")
            for screen, params in item.items():
                if screen not in merged["screens"]:
                    raise ConfigError(f"{where}: unknown screen {screen!r} "
                                      f"(known: {', '.join(sorted(merged['screens']))})")
                apply(merged["screens"][screen], params, f"screens.{screen}")
        elif key == "general":
            apply(merged["general"], item, "general")
        elif key in ("version", "description", "format", "changes"):
            merged[key] = item
        else:
            raise ConfigError(f"{where}: unknown key {key!r}")
    return merged


_SHARES: dict[str, tuple[float, float, str]] = {
    "false_alarm_rate": (0.0, 1.0, "(0, 1)"),
    "flag_share": (0.0, 1.0, "(0, 1]"),
    "typology_share": (0.0, 1.0, "[0, 1]"),
}
"""The general settings that are chances or shares of one, and the interval each must lie in (a rate of
5 meant as 5%, or a negative one, would silently turn every verdict into review or into clear)."""

MAX_VERSION = 100
"""The longest ``version`` a configuration may give itself (it is stamped in every result and every line that
names the configuration)."""

_MAX_COUNT = 2**53 - 1
"""The largest whole number a setting may hold (the largest integer a JSON number holds exactly, as for a
match's ids and counts)."""

_WITHIN: dict[str, tuple[float, float, str]] = {
    "pair_outlier.value_floor": (0.0, math.inf, "(0, inf)"),
    "pair_outlier.count_floor": (0.0, math.inf, "(0, inf)"),
    "pair_outlier.share_floor": (0.0, math.inf, "(0, inf)"),
    "fans.min_window": (0.0, math.inf, "(0, inf)"),
    "feeder.hub_bound_share": (0.0, 1.0, "(0, 1]"),
    "fans.max_window": (0.0, math.inf, "(0, inf)"),
    "fans.tight_ratio": (0.0, math.inf, "(0, inf)"),
    "fans.loose_ratio": (0.0, math.inf, "(0, inf)"),
    "fans.group_quantile": (0.0, 1.0, "[0, 1]"),
    "fans.window_steps": (1, 100, "[1, 100]"),
    "fans.min_groups": (1, _MAX_COUNT, f"[1, {_MAX_COUNT}]"),
    "fans.min_fan": (1, _MAX_COUNT, f"[1, {_MAX_COUNT}]"),
    "feeder.hub_min_spoke_exchanges": (1, _MAX_COUNT, f"[1, {_MAX_COUNT}]"),
    "off_price.posted_price_sales": (0, _MAX_COUNT, f"[0, {_MAX_COUNT}]"),
    "pair_outlier.min_pairs": (1, _MAX_COUNT, f"[1, {_MAX_COUNT}]"),
    "ring.cycle_threshold": (1, _MAX_COUNT, f"[1, {_MAX_COUNT}]"),
    "ring.wash_cycle_in_step": (0.0, 1.0, "(0, 1]"),
    "cartel.member_level": (0.0, 1.0, "(0, 1]"),
    "ring.ring_member_level": (0.0, 1.0, "(0, 1]"),
    "season.cycle_threshold": (1, _MAX_COUNT, f"[1, {_MAX_COUNT}]"),
    "value_cycles.min_window": (0.0, math.inf, "(0, inf)"),
    "value_cycles.max_window": (0.0, math.inf, "(0, inf)"),
    "value_cycles.window_steps": (1, 100, "[1, 100]"),
    "value_cycles.max_length": (0, 1_000_000, "[0, 1000000]"),
    "value_cycles.long_share": (0.0, 1.0, "[0, 1)"),
    "pair_outlier.season_seed": (0, 2**32 - 1, f"[0, {2**32 - 1}]"),
}
"""Screen settings held to a narrower interval than every number's ``[0, 2^53 - 1]``: a floor, a window or
a ratio is divided by or taken the logarithm of (so above 0); a quantile or a share of the error rate is a
share of one (``long_share`` leaves the rest to the short loops, so below 1); a level of a test that only
removes candidates (``wash_cycle_in_step``) above 0, or nothing would qualify; a threshold of laps or groups,
a fan of no counterparties, or a population of no pairs, at 0 would let nothing qualify as something; a grid
of windows, or a bound on a loop's length, is walked step by step (``window_steps`` windows at most 100,
loops of at most a million accounts); a seed is one the robust covariance fit takes (below 2^32: a larger
one was refused by the fit, and the season screen fell back to scoring each measure alone without a word)."""


def _inside(value: float, low: float, high: float, said: str) -> bool:
    return (low < value if said[0] == "(" else low <= value) and (value < high if said[-1] == ")" else value <= high)


def _check(section: str, name: str, value: Any, shipped: Any, where: str) -> None:
    """Refuse a setting of the wrong kind: ``enabled`` and any setting shipped as true or false (a choice:
    ``wash_cycle_lean``) a boolean, ``exempt_roles`` names, a share of the general settings within its
    interval, any other number finite and not negative (a size, a count, a ratio, a window or a level below
    zero means nothing), a whole number where the shipped value (``shipped``) is one (a count, a length, a
    budget), and within :data:`_WITHIN` where it says."""
    path = f"{section}.{name}" if section == "general" else f"screens.{section}.{name}"
    whole = isinstance(shipped, int) and not isinstance(shipped, bool)
    if name == "enabled" or isinstance(shipped, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: {path} must be true or false")
    elif name == "exempt_roles":
        if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
            raise ConfigError(f"{where}: {path} must be a list of role names")
    elif value is None:
        raise ConfigError(f"{where}: {path} must be a number, not null")
    elif isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{where}: {path} must be a number, not {value!r}")
    elif section == "general" and name in _SHARES:
        low, high, said = _SHARES[name]
        if not (math.isfinite(value) and _inside(value, low, high, said)):
            raise ConfigError(f"{where}: {path} must be a share in {said}, not {value!r}")
    elif whole and not (isinstance(value, int) or value.is_integer()):
        raise ConfigError(f"{where}: {path} must be a whole number, not {value!r}")
    else:
        low, high, said = _WITHIN.get(f"{section}.{name}", (0, _MAX_COUNT, f"[0, {_MAX_COUNT}]") if whole
                                      else (0.0, math.inf, "[0, inf)"))
        if not (math.isfinite(value) and _inside(value, low, high, said)):
            raise ConfigError(f"{where}: {path} must be {'a whole number' if whole else 'a number'} in {said}, "
                              f"not {value!r}")


def _build(doc: Mapping[str, Any], version: str, where: str) -> ScreenConfig:
    sections = _sections(doc, where)
    shipped = _sections(_shipped(), "screens/config.json")
    for section, params in sections.items():
        for name, value in params.items():
            _check(section, name, value, shipped[section].get(name), where)
    canonical = orjson.dumps(sections, option=orjson.OPT_SORT_KEYS)
    digest = hashlib.sha256(canonical).hexdigest()[:12]
    general = sections.pop("general")
    return ScreenConfig(version=version, digest=digest, general=general,
                        screens={k: dict(v) for k, v in sorted(sections.items())})


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
    if len(version) > MAX_VERSION:  # stamped in every result: a name, not a document
        raise ConfigError(f"{where}: version is {len(version):,} characters long; at most {MAX_VERSION}")
    return _build(merged, version, where)

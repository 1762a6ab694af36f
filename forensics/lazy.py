"""Names a package or module gives, imported when first asked for (PEP 562).

A package's ``__init__`` (or a command module) lists the names it gives and the module that
defines each; its module-level ``__getattr__`` hands an unknown name to :func:`attribute`, which
imports that module, keeps the name in the asking module's namespace (the next look-up is a plain
one, and a test may patch it there) and returns it.  Importing one module of such a package then
loads no other: ``screens.config`` for the ``screen`` command's options imports no screen,
networkx or numpy, and ``--help`` imports none of a command's working parts.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, MutableMapping
from typing import Any

__all__ = ["attribute"]


def attribute(namespace: MutableMapping[str, Any], exports: Mapping[str, str], name: str) -> Any:
    """``name`` imported from its module in ``exports`` and kept in ``namespace`` (the asking module's
    ``globals()``).  A module is named in full, or from the asking package (``.world``); ``module:other``
    gives the name ``other`` of that module.  A name ``exports`` lacks raises :class:`AttributeError`, as a
    module without it does.

    >>> namespace = {"__name__": "pkg"}
    >>> attribute(namespace, {"loads": "json", "parse": "json:loads"}, "parse") is namespace["parse"]
    True
    >>> attribute(namespace, {}, "missing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'pkg' has no attribute 'missing'
    """
    where = exports.get(name)
    if where is None:
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
    module, _, given = where.partition(":")
    value = getattr(importlib.import_module(module, namespace.get("__package__") or namespace["__name__"]),
                    given or name)
    namespace[name] = value
    return value

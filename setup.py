"""Packaging: every repository folder below maps into the one ``daishi_forensics`` namespace.

The package list is generated from the folders, so a new subpackage (a folder with an
``__init__.py``) needs no edit here or in ``pyproject.toml``.
"""

from setuptools import find_packages, setup

ROOTS = {
    "daishi_forensics": "forensics",
    "daishi_forensics.schemas": "schemas",
    "daishi_forensics.screens": "screens",
    "daishi_forensics.probes": "probes",
    "daishi_forensics.cli": "cli",
}

packages = []
for name, folder in ROOTS.items():
    packages.append(name)
    packages += [f"{name}.{sub}" for sub in find_packages(folder)]

setup(package_dir=ROOTS, packages=packages)

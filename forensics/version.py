"""The tool's version, stamped in every report it writes."""

__version__ = "0.1.0"

"""The engine's version: one source for ``--version``, ``validate --format json`` and the
package metadata (pyproject.toml reads it from here)."""

__version__ = "0.1.0"

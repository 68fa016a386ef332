"""handrec: validate, convert, query and print contract-bridge records (PBN and LIN).

The public API, for analysts who script:

* :func:`read` (``handrec.formats.dispatch.read``): a path, folder or open file in,
  typed :class:`~handrec.model.Board` records out, one at a time;
* :func:`validate` (``handrec.rules.validator.validate``): one board's diagnostics;
* :func:`to_arrow` (``handrec.dataset.tables.to_arrow``): the Arrow tables that
  ``handrec convert`` writes.

Heavy modules (pyarrow, lark) are imported only when first used.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

__all__ = ["read", "validate", "analyse", "to_arrow", "__version__"]

_LAZY = {
    "read": ("handrec.formats.dispatch", "read"),
    "validate": ("handrec.rules.validator", "validate"),
    "analyse": ("handrec.rules.validator", "analyse"),
    "to_arrow": ("handrec.dataset.tables", "to_arrow"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        mod, attr = _LAZY[name]
        value = getattr(importlib.import_module(mod), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'handrec' has no attribute {name!r}")

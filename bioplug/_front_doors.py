"""A package's names loaded on first use (PEP 562), so that importing the package is cheap.

Command-line calls import the packages they parse arguments for; their front doors pull in
numpy, pyopencl or Bio.Phylo only when a name is used.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def front_doors(package: str, homes: dict[str, str]
                ) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``, whose name N lives in ``homes[N]``.

    A name, once loaded, is set on the package, so later look-ups skip the hook.
    """

    def __getattr__(name: str) -> object:
        module = homes.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(homes))

    return __getattr__, __dir__

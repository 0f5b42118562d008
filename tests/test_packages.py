"""Layout rules of the package that a bug once broke.

A front door (a name a package resolves lazily, ``_FRONT_DOORS``) must not share its name with
a module of that package: importing ``bioplug.tree.bootstrap`` bound the module to
``bioplug.tree.bootstrap``, so ``from bioplug.tree import bootstrap`` gave a module that could
not be called, and the module's own doctest failed.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import bioplug


def _packages():
    root = Path(bioplug.__file__).parent
    for init in sorted(root.rglob("__init__.py")):
        parts = init.parent.relative_to(root.parent).parts
        yield importlib.import_module(".".join(parts))


def test_no_module_is_named_as_a_front_door():
    checked = 0
    for package in _packages():
        doors = vars(package).get("_FRONT_DOORS")
        if not doors:
            continue
        modules = {m.name for m in pkgutil.iter_modules(package.__path__)}
        assert not modules & set(doors), (package.__name__, sorted(modules & set(doors)))
        checked += 1
    assert checked >= 5   # tree, tropical, hmm, runtime, distributed define front doors


def test_bootstrap_and_matmul_are_the_functions_after_every_submodule_import():
    import bioplug.tree.support  # noqa: F401
    import bioplug.tropical.product  # noqa: F401
    from bioplug.tree import bootstrap
    from bioplug.tropical import matmul

    assert callable(bootstrap) and callable(matmul)

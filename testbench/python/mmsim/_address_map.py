"""Address maps of one's own, in Python: mmsim.AddressMap (docs/own_maps.md), and what mmsim
needs to find a class of one's own in a file and read its declared parameters (address maps
now; the same serves any other kind of class a testbench may name)."""

import importlib.util
import os
import sys

from ._program import Param

__all__ = ["AddressMap"]


class AddressMap:
    """Where address j*w + k (row j, column k) lives: a permutation of the w banks of each row.

    A subclass gives banks(self, row) and may declare params (mmsim.Param, as a program does).
    Before the first call mmsim sets self.width (w), self.rows (the rows of the memory) and
    self.seed (machine.seed), and each declared parameter as an attribute."""

    params = {}

    def banks(self, row):
        """The banks of row `row`'s w columns, column k's at position k: a permutation of
        0..w-1, as a list or a numpy array. mmsim calls it at most once per row, for the rows
        the run needs, and keeps the answer."""
        raise NotImplementedError(f"{type(self).__name__} must define banks(self, row)")


_modules = {}


def _module(path):
    """The Python file `path` as a module (imported once per version of the file)."""
    key = (path, os.stat(path).st_mtime_ns)
    module = _modules.get(key)
    if module is None:
        spec = importlib.util.spec_from_file_location(f"mmsim_user_map_{len(_modules)}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        _modules[key] = module
    return module


def classes(path, base=AddressMap):
    """The subclasses of `base` that the file `path` holds, by name (in the file's order)."""
    return {name: value for name, value in vars(_module(path)).items()
            if isinstance(value, type) and issubclass(value, base) and value is not base}


def load_class(path, name, base=AddressMap):
    """The subclass `name` of `base` in the file `path`; LookupError names the ones it has."""
    value = getattr(_module(path), name, None)
    if isinstance(value, type) and issubclass(value, base):
        return value
    from . import _core
    hint = _core.suggestion(name, sorted(classes(path, base)))
    if value is not None:
        raise LookupError(f"{os.path.basename(path)}: '{name}' is not an mmsim.{base.__name__} "
                          f"subclass{hint}")
    raise LookupError(f"{os.path.basename(path)} has no class '{name}'{hint}")


_TYPES = {int: "integer", bool: "boolean", str: "string", list: "list of integers"}


def declared_params(cls):
    """The parameters `cls` declares: (name, type, doc, default as YAML text or None) each, the
    type as mmsim names it (integer, boolean, string, list of integers). TypeError says what is
    wrong with a declaration."""
    params = cls.params
    if not isinstance(params, dict):
        raise TypeError(f"params is {params!r}: expected a dict of name: mmsim.Param(...)")
    out = []
    for name, param in params.items():
        if not isinstance(name, str) or not isinstance(param, Param):
            raise TypeError(f"params[{name!r}] is {param!r}: expected mmsim.Param(type, ...)")
        if param.type not in _TYPES:
            raise TypeError(f"params[{name!r}]: type {param.type!r}: expected int, bool, str or "
                            "list (of integers)")
        out.append((name, _TYPES[param.type], str(param.doc),
                    None if param.required else param.yaml_default))
    return out


def make(cls, attributes):
    """An instance of `cls` with these attributes set (width, rows, seed, the params)."""
    instance = cls()
    for name, value in attributes.items():
        setattr(instance, name, value)
    return instance

"""What warp.registers and warp.local give: the warp's own words while its program runs."""

import operator

import numpy as np

__all__ = ["WarpWords"]


class WarpWords:
    """A warp's words as its program sees them while it runs: warp.registers (each lane's
    register, read-only) or warp.local (the local memory of each lane's PE, [lane, word],
    writable). Indexing reads them (a number, or a read-only numpy copy), assignment writes
    them (warp.local[lane, word] = v, warp.local[:, 0] = array), numpy takes them as an array
    (np.asarray(warp.local), warp.local + 1: copies). Kept beyond the warp's program (in
    verify, in another run) it raises RuntimeError: the words are gone."""

    __slots__ = ("_warp", "_name")

    def __init__(self, warp, name):
        self._warp = warp
        self._name = name

    def _words(self):
        """The warp's words as a numpy view for this one use (never handed out: kept, it would
        outlive them); RuntimeError once the warp's program has ended."""
        return self._warp._words(self._name)

    def __getitem__(self, key):
        got = self._words()[key]
        if isinstance(got, np.ndarray):
            got = got.copy()
            got.flags.writeable = False
        return got

    def __setitem__(self, key, value):
        if self._name != "local":
            raise TypeError(f"warp.{self._name} is read-only (a read sets the registers)")
        self._words()[key] = value

    def __array__(self, dtype=None, copy=None):
        return np.array(self._words(), dtype=dtype)

    def __len__(self):
        return len(self._words())

    def __iter__(self):
        return iter(self[:])

    @property
    def shape(self):
        """(lanes,) for the registers, (lanes, words) for the local memory."""
        return self._words().shape

    @property
    def dtype(self):
        """int64: a word."""
        return self._words().dtype

    def copy(self):
        """The words now, as a writable numpy array of their own."""
        return self._words().copy()

    def tolist(self):
        """The words now, as (nested) lists of ints."""
        return self._words().tolist()

    def __repr__(self):
        return f"warp.{self._name}: {self._words()!r}"


def _on_copy(name):
    """An operator of numpy arrays, applied to a copy of the words."""
    def apply(self, *args):
        return getattr(np.asarray(self), name)(*args)
    apply.__name__ = name
    apply.__doc__ = f"numpy's ndarray.{name}, of a copy of the words."
    return apply


def _in_place(name):
    """warp.local += x: computed on a copy, written back."""
    def apply(self, other):
        self[...] = getattr(operator, name)(np.asarray(self), other)
        return self
    apply.__name__ = name
    apply.__doc__ = f"numpy's {name}, written back to the words."
    return apply


for _name in ("add", "sub", "mul", "floordiv", "truediv", "mod", "pow", "lshift", "rshift",
              "and", "or", "xor", "matmul"):
    for _form in (f"__{_name}__", f"__r{_name}__"):
        setattr(WarpWords, _form, _on_copy(_form))
    setattr(WarpWords, f"__i{_name}__", _in_place(f"__i{_name}__"))
for _form in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__neg__", "__pos__",
              "__abs__", "__invert__", "sum", "min", "max", "any", "all", "reshape"):
    setattr(WarpWords, _form, _on_copy(_form))
WarpWords.__hash__ = None

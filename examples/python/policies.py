"""Dispatch policies of one's own (docs/own_policies.md): the built-in lowest_ready and
oldest_ready written as mmsim.Policy subclasses, and one that holds a lone ready unit back."""

import mmsim


class LowestReady(mmsim.Policy):
    """the ready unit with the lowest number (the built-in lowest_ready's twin)"""

    def choose(self, time, ready):
        return ready[0]  # ready is in increasing order: min(ready)


class OldestReady(mmsim.Policy):
    """the unit ready for the longest time, ties to the lowest number (oldest_ready's twin)"""

    def choose(self, time, ready):
        return min(ready, key=lambda unit: (self.since(unit), unit))


class Company(mmsim.Policy):
    """idles while a single unit is ready, until time `patience`; then the lowest ready unit"""

    params = {"patience": mmsim.Param(int, default=5, doc="the time from which a lone unit goes")}

    def choose(self, time, ready):
        if len(ready) == 1 and time < self.patience:
            return None  # the memory idles for this time unit; asked again at the next
        return ready[0]

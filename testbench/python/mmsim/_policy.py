"""Dispatch policies of one's own, in Python: mmsim.Policy (docs/own_policies.md). mmsim finds
the class in its file and reads its params as it does a program's (mmsim._program)."""

__all__ = ["Policy"]


class Policy:
    """Which ready unit a memory dispatches next (machine.dispatch: {file, class, params}).

    mmsim makes one object per memory (the hmm: one per multiprocessor's shared memory and one
    for the global memory). Before __init__ runs it sets self.memory (the memory's number: 0 the
    global memory, m the shared memory of multiprocessor m - 1), self.units (the range of the
    unit numbers that reach it), self.seed (machine.seed), and each declared parameter (params,
    mmsim.Param as a program declares them) as an attribute; __init__ takes no argument."""

    params = {}

    def choose(self, time, ready):
        """The unit to dispatch at time `time`: one of `ready` (the ready units' numbers, a list
        in increasing order, never empty), or None to leave the memory idle for this time unit
        (it is asked again at the next). Called at every time unit in which the memory can
        accept a dispatch and units are ready for it."""
        raise NotImplementedError(f"{type(self).__name__} must define choose(self, time, ready)")

    def since(self, unit):
        """The time `unit` became ready (it waits since then); for a unit not ready, the last
        time it did."""
        return int(self._since[unit])

"""Address maps of one's own, in Python: mmsim.AddressMap (docs/own_maps.md). mmsim finds the
class in its file and reads its params as it does a program's (mmsim._program)."""

__all__ = ["AddressMap"]


class AddressMap:
    """Where address j*w + k (row j, column k) lives: a permutation of the w banks of each row.

    A subclass gives banks(self, row), or banks_block(self, first, count) for many rows at a
    time, and may declare params (mmsim.Param, as a program does). Before the first call mmsim
    sets self.width (w), self.rows (the rows of the memory) and self.seed (machine.seed), and
    each declared parameter as an attribute."""

    params = {}

    def banks(self, row):
        """The banks of row `row`'s w columns, column k's at position k: a permutation of
        0..w-1, as a list or a numpy array. mmsim calls it at most once per row, for the rows
        the run needs, and keeps the answer."""
        raise NotImplementedError(f"{type(self).__name__} must define banks(self, row) or "
                                  "banks_block(self, first, count)")

    def banks_block(self, first, count):
        """Optional, in place of banks: the banks of rows first .. first + count - 1 at once, a
        count x w numpy array of integers (or a list of count rows), row i as banks(first + i)
        would give it. Where a class gives it, mmsim calls it instead of banks, once per
        aligned block of 1024 rows (fewer where w > 64, and at the memory's end) when a row of
        the block is first needed: one call for many rows costs far less than one per row."""
        raise NotImplementedError

"""The errors of mmsim's runs, as the mmsim command reports them."""

__all__ = ["Error", "InputError", "ProgramError", "SimulationError"]


class Error(Exception):
    """Any error of a run."""


class InputError(Error):
    """Invalid input (the command's exit status 2): the testbench, an override, a parameter,
    with where it was found.

    file, line, column: where (line and column 0: unknown; file None: an override, then
    `assignment` is it, "machine.latency=0"). For a testbench given as a dict, file is
    "<dict>" and `key` the key path of what is wrong ("machine.latency"); for YAML text,
    file is "<yaml>" with its line and column. message: what was expected."""

    def __init__(self, file, line, column, message, assignment=None, key=None):
        super().__init__(file, line, column, message)
        self.file, self.line, self.column, self.message = file, line, column, message
        self.assignment, self.key = assignment, key

    def __str__(self):
        if self.assignment is not None:
            return f"set {self.assignment}: {self.message}"
        where = self.file or "<input>"
        if self.key:
            message = self.message
            if message.startswith(self.key + ": "):
                message = message[len(self.key) + 2:]
            return f"{where}:{self.key}: {message}"
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        return f"{where}: {self.message}"


class ProgramError(Error):
    """The program itself failed (exit status 1): a Python program's exception, with its
    traceback, or an instruction it got wrong."""


class SimulationError(Error):
    """The hardware refused what a program did (an address outside the memory, ...)."""

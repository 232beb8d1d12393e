"""The errors of mmsim's runs, as the mmsim command reports them."""

__all__ = ["Error", "InputError", "ProgramError", "SimulationError"]


class Error(Exception):
    """Any error of a run."""


class InputError(Error):
    """Invalid input (the command's exit status 2): the testbench, an override, a parameter,
    with where it was found."""

    def __init__(self, file, line, column, message):
        super().__init__(file, line, column, message)
        self.file, self.line, self.column, self.message = file, line, column, message

    def __str__(self):
        where = self.file or "<input>"
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

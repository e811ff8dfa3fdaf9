"""Printing log entries as a table."""
import sys

from kusari.training import extension
from kusari.training.extensions import _terminal
from kusari.training.extensions import log_report as log_report_module


class PrintReport(extension.Extension):
    """Trainer extension that prints the new entries of a
    :class:`LogReport` as table rows.

    Each column is as wide as its title, and at least 10 characters;
    numbers are printed with ``'g'`` formatting and missing values as
    blanks. The header (titles padded to the column widths) is printed
    before the first row. Escape codes (clearing what a ProgressBar drew
    below) are written only where ``out`` is a terminal.

    Args:
        entries (list of str): Keys of the columns.
        log_report (str or LogReport): The name of the trainer's
            LogReport extension, or a LogReport this extension owns (and
            calls itself).
        out: Stream to print to (default stdout): anything with a
            ``write`` method; it is flushed if it has ``flush``.
    """

    def __init__(self, entries, log_report='LogReport', out=sys.stdout):
        entries = list(entries)
        if not all(isinstance(entry, str) for entry in entries):
            raise TypeError(f'PrintReport: entries must be strings, got '
                            f'{entries!r}')
        self._entries = entries
        self._log_report = log_report
        self._out = out
        self._log_len = 0
        self._widths = [max(10, len(entry)) for entry in entries]
        self._header = '  '.join(
            entry.ljust(width)
            for entry, width in zip(entries, self._widths)) + '\n'

    def __call__(self, trainer):
        log_report = self._log_report
        if isinstance(log_report, str):
            log_report = trainer.get_extension(log_report)
        elif isinstance(log_report, log_report_module.LogReport):
            log_report(trainer)  # owned here, not called by the trainer
        else:
            raise TypeError(f'PrintReport: log_report must be a LogReport '
                            f'or the name of one, got '
                            f'{type(log_report).__name__}')
        log = log_report.log
        out = self._out
        if self._header:
            out.write(self._header)
            self._header = None
        # On a terminal, each row first clears what a ProgressBar drew.
        clear = _terminal.CLEAR if _terminal.is_terminal(out) else ''
        for entry in log[self._log_len:]:
            out.write(clear + self._row(entry) + '\n')
        if hasattr(out, 'flush'):  # any object with write() will do
            out.flush()
        self._log_len = len(log)

    def _row(self, entry):
        cells = []
        for key, width in zip(self._entries, self._widths):
            value = entry.get(key)
            cells.append(' ' * width if value is None
                         else f'{value:<{width}g}')
        return ''.join(cell + '  ' for cell in cells)

    def serialize(self, serializer):
        """Save or load the log report, if this extension owns it."""
        if isinstance(self._log_report, log_report_module.LogReport):
            self._log_report.serialize(serializer['_log_report'])

"""A progress bar of training on the terminal."""
import datetime
import sys

from kusari.training import extension
from kusari.training.extensions import _terminal


class ProgressBar(extension.Extension):
    """Trainer extension that draws the progress of training.

    Every ``update_interval`` iterations it redraws, in place, the progress
    of the whole training and of the current epoch, the iteration and epoch
    counts, the speed and the estimated time to finish. Where ``out`` is
    not a terminal (a file, a CI log) it writes the same as one plain line
    per update instead, with no escape codes.

    Args:
        training_length: ``(length, unit)`` of the training; by default
            taken from the stop trigger's ``get_training_length()``.
        update_interval (int): Iterations between two redraws.
        bar_length (int): Width of the bars in characters.
        out: Stream to draw on (default stdout).
    """

    def __init__(self, training_length=None, update_interval=100,
                 bar_length=50, out=sys.stdout):
        if not isinstance(update_interval, int) or update_interval < 1:
            raise ValueError(f'ProgressBar: update_interval must be a '
                             f'positive int, got {update_interval!r}')
        self._training_length = training_length
        self._update_interval = update_interval
        self._bar_length = bar_length
        self._out = out
        self._speed = _terminal.Speed()

    def __call__(self, trainer):
        if self._training_length is None:
            length = getattr(trainer.stop_trigger, 'get_training_length',
                             None)
            if length is None:
                raise ValueError(
                    'ProgressBar: the stop trigger has no '
                    'get_training_length(); give training_length')
            self._training_length = length()
        updater = trainer.updater
        iteration = updater.iteration
        speed = self._speed.update(iteration)
        if iteration % self._update_interval != 0:
            return
        progress = self._progress(updater, speed)
        if _terminal.is_terminal(self._out):
            _terminal.draw(self._out, self._lines(*progress))
        else:
            self._out.write(self._plain_line(*progress) + '\n')
            self._out.flush()

    def _progress(self, updater, speed):
        """What is drawn: the rates of the training and of this epoch, the
        counts, the speed and the estimated time to finish."""
        length, unit = self._training_length
        iteration = updater.iteration
        epoch_detail = updater.epoch_detail
        done = iteration if unit == 'iteration' else epoch_detail
        rate = min(done / length, 1.)  # 100% once the length is run
        if speed == float('inf') or speed <= 0:
            estimate = datetime.timedelta(0)
        elif unit == 'iteration':
            estimate = datetime.timedelta(
                seconds=max(length - iteration, 0) / speed)
        else:
            per_epoch = iteration / epoch_detail if epoch_detail else 0
            estimate = datetime.timedelta(
                seconds=max(length - epoch_detail, 0) * per_epoch / speed)
        return (rate, epoch_detail % 1, iteration, updater.epoch, speed,
                estimate)

    def _lines(self, rate, epoch_rate, iteration, epoch, speed, estimate):
        length, unit = self._training_length
        width = self._bar_length
        return [
            f'     total {_terminal.bar(rate, width)} {rate:6.2%}',
            f'this epoch {_terminal.bar(epoch_rate, width)} '
            f'{epoch_rate:6.2%}',
            f'{iteration:10} iter, {epoch} epoch / {length} {unit}s',
            f'{speed:10.5g} iters/sec. Estimated time to finish: '
            f'{estimate}.',
        ]

    def _plain_line(self, rate, epoch_rate, iteration, epoch, speed,
                    estimate):
        length, unit = self._training_length
        return (f'{iteration} iter, {epoch} epoch / {length} {unit}s: '
                f'total {rate:.2%}, this epoch {epoch_rate:.2%}, '
                f'{speed:.5g} iters/sec, estimated time to finish: '
                f'{estimate}')

    def finalize(self):
        if _terminal.is_terminal(self._out):
            self._out.write(_terminal.CLEAR)
            self._out.flush()

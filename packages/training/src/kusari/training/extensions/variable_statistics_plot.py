"""Plotting how the distribution of variables changes during training."""
import json
import os

import numpy

from kusari.array import backend
from kusari.serializers import serializer as serializer_module
from kusari.training import extension
from kusari.training import trigger as trigger_module
from kusari.training.extensions import _plot
from kusari.training.extensions import _templates

_SIGMAS = (0, 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87, 100)


def _variables(targets):
    """The variables of ``targets``: Variables, and Links' parameters."""
    if not isinstance(targets, (list, tuple)):
        targets = targets,
    found = []
    for target in targets:
        if callable(getattr(target, 'params', None)):
            found.extend(target.params())
        elif hasattr(target, 'array') and hasattr(target, 'grad'):
            found.append(target)
        else:
            raise TypeError(f'VariableStatisticsPlot: targets must be '
                            f'Variables or Links, got '
                            f'{type(target).__name__}')
    return found


class VariableStatisticsPlot(extension.Extension):
    """Trainer extension that plots percentiles, mean and standard
    deviation of the values (and gradients) of variables over training.

    When ``trigger`` fires, the statistics of all the targets' elements
    taken together are computed and added as a point at the current
    iteration, and the figure is redrawn to ``trainer.out/filename``: one
    panel for the data and one for the gradients, the percentiles as bands
    around the median. At most ``max_sample_size`` points are kept: beyond
    that every other old point is dropped, so the figure spans the whole
    training at a coarser resolution. Without matplotlib (the ``plot``
    extra) it warns when created and only keeps the points.

    Args:
        targets: A Variable or Link, or a list of them (a link contributes
            its parameters).
        max_sample_size (int): Maximum number of points kept.
        report_data (bool), report_grad (bool): Which panels to draw.
        plot_mean (bool), plot_std (bool): Draw the mean and the mean plus
            and minus one standard deviation.
        percentile_sigmas (tuple of float): Percentiles drawn (0 to 100).
        trigger: When to add a point and redraw.
        filename (str): Image file name (default ``'statistics.png'``).
        figsize (tuple): Figure size in inches.
        marker (str): Marker of the lines.
        grid (bool): Draw a grid.
    """

    def __init__(self, targets, max_sample_size=1000, report_data=True,
                 report_grad=True, plot_mean=True, plot_std=True,
                 percentile_sigmas=_SIGMAS, trigger=(1, 'epoch'),
                 filename=None, figsize=None, marker=None, grid=True,
                 **kwargs):
        if 'file_name' in kwargs:
            if filename is not None:
                raise ValueError('VariableStatisticsPlot: give filename or '
                                 'file_name (its old name), not both')
            filename = kwargs.pop('file_name')
        extension.check_no_removed_arguments('VariableStatisticsPlot',
                                             kwargs)
        if not isinstance(max_sample_size, int) or max_sample_size < 2:
            raise ValueError(f'VariableStatisticsPlot: max_sample_size must '
                             f'be an int >= 2, got {max_sample_size!r}')
        self._variables = _variables(targets)
        self._attrs = [name for name, wanted in (('data', report_data),
                                                 ('grad', report_grad))
                       if wanted]
        if not self._attrs:
            raise ValueError('VariableStatisticsPlot: report_data and '
                             'report_grad are both False; nothing to plot')
        self._max_sample_size = max_sample_size
        self._plot_mean = plot_mean
        self._plot_std = plot_std
        self._sigmas = tuple(percentile_sigmas)
        self._trigger = trigger_module.get_trigger(trigger)
        self._filename = ('statistics.png' if filename is None
                          else filename)
        self._figsize = figsize
        self._marker = marker
        self._grid = grid
        # Each point: [iteration, then per attr: percentiles, mean, std].
        self._samples = []
        _plot.warn_if_missing('VariableStatisticsPlot')

    def initialize(self, trainer):
        """Remove the temporary files of plot writes that a killed run
        left in ``trainer.out``."""
        _templates.remove_abandoned(trainer.out, self._filename)

    @staticmethod
    def available():
        """Whether matplotlib is installed (plots can be drawn)."""
        return _plot.available()

    def _statistics(self, attr):
        arrays = [getattr(v, 'array' if attr == 'data' else 'grad')
                  for v in self._variables]
        arrays = [backend.CpuDevice().send(a).ravel() for a in arrays
                  if a is not None]
        if not arrays:
            return [float('nan')] * (len(self._sigmas) + 2)
        values = numpy.concatenate(arrays)
        return (numpy.percentile(values, self._sigmas).tolist()
                + [float(values.mean()), float(values.std())])

    def __call__(self, trainer):
        if not self._trigger(trainer):
            return
        point = [trainer.updater.iteration]
        for attr in self._attrs:
            point.extend(self._statistics(attr))
        self._samples.append(point)
        if len(self._samples) > self._max_sample_size:
            self._samples = self._samples[::-1][::2][::-1]
        plt = _plot.pyplot()
        if plt is not None:
            self._draw(plt, os.path.join(trainer.out, self._filename))

    def _draw(self, plt, path):
        samples = numpy.array(self._samples, dtype=float)
        x = samples[:, 0]
        width = len(self._sigmas) + 2
        figure, axes = plt.subplots(1, len(self._attrs),
                                    figsize=self._figsize, squeeze=False)
        try:
            for index, attr in enumerate(self._attrs):
                columns = samples[:, 1 + index * width:1 + (index + 1)
                                  * width]
                self._draw_panel(axes[0, index], attr, x, columns)
            figure.tight_layout()
            os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
            _plot.save(figure, path)
        finally:
            plt.close(figure)

    def _draw_panel(self, axes, attr, x, columns):
        count = len(self._sigmas)
        percentiles = columns[:, :count]
        mean, std = columns[:, count], columns[:, count + 1]
        for low in range(count // 2):
            axes.fill_between(x, percentiles[:, low],
                              percentiles[:, count - 1 - low],
                              color='C0', alpha=0.15, linewidth=0)
        if self._plot_mean:
            axes.plot(x, mean, color='C1', marker=self._marker,
                      label='mean')
        if self._plot_std:
            axes.plot(x, mean - std, color='C2', linestyle='--',
                      marker=self._marker, label='mean - std')
            axes.plot(x, mean + std, color='C2', linestyle='--',
                      marker=self._marker, label='mean + std')
        axes.set_title(attr)
        axes.set_xlabel('iteration')
        if self._grid:
            axes.grid()
        if self._plot_mean or self._plot_std:
            axes.legend(loc='best')

    def serialize(self, serializer):
        """Save or load the trigger and the points."""
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        if isinstance(serializer, serializer_module.Serializer):
            serializer('_samples', json.dumps(self._samples))
        else:
            self._samples = json.loads(str(serializer('_samples', '[]')))

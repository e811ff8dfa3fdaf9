"""Plotting reported values to an image file."""
import json
import os

import numpy

from kusari.links import reporter
from kusari.serializers import serializer as serializer_module
from kusari.training import extension
from kusari.training import trigger as trigger_module
from kusari.training.extensions import _plot
from kusari.training.extensions import _templates


class PlotReport(extension.Extension):
    """Trainer extension that plots the means of reported values.

    Like :class:`LogReport`, it averages the values of ``y_keys`` over each
    interval of ``trigger``; at the end of an interval it adds a point per
    key and redraws the whole plot to ``trainer.out/filename``. Without
    matplotlib (the ``plot`` extra), it warns when created and only keeps
    the data.

    Args:
        y_keys (str or list of str): Keys of the plotted values.
        x_key (str): ``'iteration'``, ``'epoch'`` or ``'elapsed_time'``.
        trigger: When to add a point and redraw.
        postprocess (callable): ``postprocess(figure, axes, summary)``,
            called before saving.
        filename (str): Image file name (default ``'plot.png'``).
        marker (str): Marker of the points.
        grid (bool): Draw a grid.
    """

    def __init__(self, y_keys, x_key='iteration', trigger=(1, 'epoch'),
                 postprocess=None, filename=None, marker='x', grid=True,
                 **kwargs):
        if 'file_name' in kwargs:
            if filename is not None:
                raise ValueError('PlotReport: give filename or file_name '
                                 '(its old name), not both')
            filename = kwargs.pop('file_name')
        extension.check_no_removed_arguments('PlotReport', kwargs)
        if x_key not in ('iteration', 'epoch', 'elapsed_time'):
            raise ValueError(f"PlotReport: x_key must be 'iteration', "
                             f"'epoch' or 'elapsed_time', got {x_key!r}")
        if isinstance(y_keys, str):
            y_keys = y_keys,
        self._y_keys = list(y_keys)
        self._x_key = x_key
        self._trigger = trigger_module.get_trigger(trigger)
        self._postprocess = postprocess
        self._filename = 'plot.png' if filename is None else filename
        self._marker = marker
        self._grid = grid
        self._data = {key: [] for key in self._y_keys}
        self._summary = reporter.DictSummary()
        _plot.warn_if_missing('PlotReport')

    def initialize(self, trainer):
        """Remove the temporary files of plot writes that a killed run
        left in ``trainer.out``."""
        _templates.remove_abandoned(trainer.out, self._filename)

    @staticmethod
    def available():
        """Whether matplotlib is installed (plots can be drawn)."""
        return _plot.available()

    def __call__(self, trainer):
        observation = trainer.observation
        self._summary.add({key: observation[key] for key in self._y_keys
                           if key in observation})
        if not self._trigger(trainer):
            return
        updater = trainer.updater
        x = {'iteration': updater.iteration, 'epoch': updater.epoch,
             'elapsed_time': trainer.elapsed_time}[self._x_key]
        for key, value in self._summary.compute_mean().items():
            self._data[key].append((x, float(value)))
        plt = _plot.pyplot()
        if plt is not None:
            self._draw(plt, os.path.join(trainer.out, self._filename))
        self._summary = reporter.DictSummary()

    def _draw(self, plt, path):
        figure = plt.figure()
        try:
            axes = figure.add_subplot(111)
            axes.set_xlabel(self._x_key)
            if self._grid:
                axes.grid()
            for key in self._y_keys:
                points = numpy.array(self._data[key])
                if len(points):
                    axes.plot(points[:, 0], points[:, 1],
                              marker=self._marker, label=key)
            if not axes.has_data():
                return
            if self._postprocess is not None:
                self._postprocess(figure, axes, self._summary)
            legend = axes.legend(bbox_to_anchor=(1.05, 1), loc='upper left',
                                 borderaxespad=0.)
            os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
            _plot.save(figure, path, bbox_extra_artists=(legend,),
                       bbox_inches='tight')
        finally:
            plt.close(figure)

    def serialize(self, serializer):
        """Save or load the trigger, the running summary and the points."""
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._summary.serialize(serializer['_summary'])
        if isinstance(serializer, serializer_module.Serializer):
            serializer('_plot_data', json.dumps(self._data))
        else:
            stored = json.loads(str(serializer('_plot_data', '{}')))
            self._data = {key: [tuple(point) for point in stored.get(key, [])]
                          for key in self._y_keys}

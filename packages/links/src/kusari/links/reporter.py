"""Reporting observed values (losses, accuracies, ...) by name.

A :class:`Reporter` writes reported values into its current *observation*
dict. Values reported with an observer (a link, usually) are named
``'<observer name>/<key>'``, where observer names are registered
beforehand: a trainer registers its model's links with
``add_observers('main', model.namedlinks(skipself=True))`` and the model
itself as ``'main'``, so a classifier's loss becomes ``'main/loss'`` and
its predictor's values ``'main/predictor/...'``.
"""
import contextlib
import copy
import json
import threading
import warnings

import numpy

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import variable

_local = threading.local()


def _reporters():
    try:
        return _local.reporters
    except AttributeError:
        stack = _local.reporters = []
        return stack


def _copy_variable(value):
    """A Variable cut from its graph (sharing the array), so that what is
    kept for reporting does not keep the graph alive."""
    if isinstance(value, variable.Variable):
        return copy.copy(value)
    return value


class Reporter:
    """Collects reported values into the current observation dict.

    Using it as a context manager (``with reporter:``) makes it the current
    reporter of the thread, the one :func:`report` reports to.

    Attributes:
        observation (dict): where values are written.
    """

    def __init__(self):
        self._observer_names = {}
        self.observation = {}

    def __enter__(self):
        _reporters().append(self)
        return self

    def __exit__(self, *exc):
        _reporters().pop()

    @contextlib.contextmanager
    def scope(self, observation):
        """Make this the current reporter, writing into ``observation``,
        for the ``with`` block."""
        previous = self.observation
        self.observation = observation
        self.__enter__()
        try:
            yield
        finally:
            self.__exit__(None, None, None)
            self.observation = previous

    def add_observer(self, name, observer):
        """Register ``observer`` (any object) under ``name``."""
        self._observer_names[id(observer)] = name

    def add_observers(self, prefix, observers):
        """Register each ``(name, observer)`` pair under ``prefix + name``
        (e.g. ``add_observers('main', model.namedlinks(skipself=True))``).
        """
        for name, observer in observers:
            self._observer_names[id(observer)] = prefix + name

    def report(self, values, observer=None):
        """Write ``values`` (a dict) into the observation.

        With ``observer``, each key is prefixed by the observer's
        registered name and a slash. Variables are stored cut from their
        graph unless ``config.keep_graph_on_report`` is set.
        """
        if not isinstance(values, dict):
            raise TypeError(f'Reporter.report: values must be a dict, got '
                            f'{type(values).__name__}')
        if observer is not None:
            name = self._observer_names.get(id(observer))
            if name is None:
                raise KeyError(
                    f'Reporter.report: the observer {type(observer).__name__}'
                    f' is not registered to the reporter; register it with '
                    f'add_observer first')
            values = {f'{name}/{key}': value for key, value in values.items()}
        if not configuration.config.keep_graph_on_report:
            values = {key: _copy_variable(value)
                      for key, value in values.items()}
        self.observation.update(values)


def get_current_reporter():
    """The current reporter of this thread (the innermost ``with``)."""
    stack = _reporters()
    if not stack:
        raise RuntimeError('get_current_reporter: no reporter is current; '
                           'use one in a with statement first')
    return stack[-1]


def report(values, observer=None):
    """Report ``values`` to the current reporter (nothing if none is
    current); see :meth:`Reporter.report`."""
    stack = _reporters()
    if stack:
        stack[-1].report(values, observer)


@contextlib.contextmanager
def report_scope(observation):
    """Let the current reporter write into ``observation`` for the block
    (see :meth:`Reporter.scope`)."""
    reporter = get_current_reporter()
    with reporter.scope(observation):
        yield


class Summary:
    """Online mean and standard deviation of a sequence of scalars.

    The sums are kept on the device of the values added, in float64 (as
    Chainer's on NumPy 1, where ``0. + float32`` was float64): the means
    of float32 losses over an epoch keep their precision.
    """

    def __init__(self):
        self._x = numpy.float64(0)
        self._x2 = numpy.float64(0)
        self._n = 0

    def add(self, value, weight=1):
        """Add a scalar ``value`` (a number, 0-d array or Variable) with
        ``weight``."""
        value = variable.as_array(value)
        weight = variable.as_array(weight)
        with backend.get_device_from_array(value):
            self._x += weight * value
            self._x2 += weight * value * value
            self._n += weight

    def compute_mean(self):
        """The weighted mean of the values added."""
        with backend.get_device_from_array(self._x):
            return self._x / self._n

    def make_statistics(self):
        """``(mean, std)`` of the values added."""
        with backend.get_device_from_array(self._x):
            mean = self._x / self._n
            # Rounding can make the variance of equal values slightly
            # negative: clamp it rather than report NaN.
            var = self._x2 / self._n - mean * mean
            xp = backend.get_array_module(var)
            return mean, xp.sqrt(xp.maximum(var, 0))

    def serialize(self, serializer):
        """Save or load the running sums."""
        try:
            x = serializer('_x', self._x)
            x2 = serializer('_x2', self._x2)
            n = serializer('_n', self._n)
        except KeyError:
            warnings.warn('Summary.serialize: the stored summary is '
                          'incomplete; keeping the current one')
            return
        self._x, self._x2, self._n = x, x2, n


class DictSummary:
    """Online mean and standard deviation of dicts of scalars, per key.

    :meth:`add` takes a dict whose values are scalars (numbers, 0-d arrays,
    Variables) or ``(value, weight)`` pairs; other values are skipped.
    """

    def __init__(self):
        self._summaries = {}

    def add(self, d):
        """Add the scalars of the dict ``d``."""
        for key, value in d.items():
            weight = 1
            if isinstance(value, tuple):
                value, weight = value
                weight = variable.as_array(weight)
                if not _is_scalar(weight):
                    raise ValueError(
                        f'DictSummary.add: the weight of {key!r} must be a '
                        f'scalar, got shape {numpy.shape(weight)}')
            value = variable.as_array(value)
            if _is_scalar(value):
                summary = self._summaries.get(key)
                if summary is None:
                    summary = self._summaries[key] = Summary()
                summary.add(value, weight=weight)

    def compute_mean(self):
        """A dict of the mean per key."""
        return {key: summary.compute_mean()
                for key, summary in self._summaries.items()}

    def make_statistics(self):
        """A dict of the mean per key and the std per ``key + '.std'``."""
        stats = {}
        for key, summary in self._summaries.items():
            mean, std = summary.make_statistics()
            stats[key] = mean
            stats[key + '.std'] = std
        return stats

    def serialize(self, serializer):
        """Save or load the summaries; their keys are stored as JSON."""
        names = json.dumps(list(self._summaries))
        try:
            stored = serializer('_names', names)
        except KeyError:
            # (Only loading raises it.) An old file saved nothing: the
            # summaries start afresh, as in Chainer.
            self._summaries = {}
            warnings.warn('DictSummary.serialize: the stored summary has no '
                          'names (saved by an old version); it starts empty')
            return
        # A serializer that saves returns the very value it was given; one
        # that loads returns the stored string, a new object: then the
        # summaries are replaced by fresh ones filled from the store.
        if stored is not names:
            self._summaries = {name: Summary()
                               for name in json.loads(stored)}
        for index, summary in enumerate(self._summaries.values()):
            summary.serialize(serializer['_summaries'][str(index)])


def _is_scalar(value):
    return numpy.isscalar(value) or getattr(value, 'ndim', -1) == 0

"""Reporting statistics of parameters and their gradients."""
from kusari.array import backend
from kusari.links import reporter
from kusari.training import extension
from kusari.training import trigger as trigger_module

_PERCENTILE_SIGMAS = (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87)


def _zeros(x):
    return (x == 0).sum()


def _percentile(x):
    return backend.get_array_module(x).percentile(x, _PERCENTILE_SIGMAS)


def _default_statistics():
    return {
        'mean': lambda x: x.mean(),
        'std': lambda x: x.std(),
        'min': lambda x: x.min(),
        'max': lambda x: x.max(),
        'zeros': _zeros,
        'percentile': _percentile,
    }


class ParameterStatistics(extension.Extension):
    """Trainer extension that reports statistics of the parameters (and
    gradients) of links.

    Values are reported as
    ``'<prefix>/<link name><param path>/<data|grad>/<statistic>'``; a
    statistic that returns an array (the percentiles) is reported element
    by element with the suffix ``/<index>``.

    Args:
        links (Link or list of Links): Links whose parameters to watch.
        statistics (dict): Name -> function of an array; ``'default'``
            gives mean, std, min, max, zeros and percentile (at the
            sigmas 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87).
        report_params (bool): Report statistics of the parameter values.
        report_grads (bool): Report statistics of the gradients.
        prefix (str): Prefix of the keys.
        trigger: When to report the mean of the statistics collected
            since the last report (they are collected at every call).
        skip_nan_params (bool): Report a single NaN per statistic instead
            of computing it for a parameter holding NaN.
    """

    default_name = 'parameter_statistics'
    priority = extension.PRIORITY_WRITER

    def __init__(self, links, statistics='default', report_params=True,
                 report_grads=True, prefix=None, trigger=(1, 'epoch'),
                 skip_nan_params=False):
        if not isinstance(links, (list, tuple)):
            links = links,
        for link in links:
            if not callable(getattr(link, 'namedparams', None)):
                raise TypeError(f'ParameterStatistics: links must be Links, '
                                f'got {type(link).__name__}')
        if statistics == 'default':
            statistics = _default_statistics()
        if not isinstance(statistics, dict):
            raise TypeError(f"ParameterStatistics: statistics must be a "
                            f"dict or 'default', got {statistics!r}")
        self._links = links
        self._statistics = dict(statistics)
        self._attrs = [name for name, wanted in (('data', report_params),
                                                 ('grad', report_grads))
                       if wanted]
        self._prefix = prefix
        self._trigger = trigger_module.get_trigger(trigger)
        self._skip_nan_params = skip_nan_params
        self._summary = reporter.DictSummary()

    def __call__(self, trainer):
        """Collect the statistics; report their means when the trigger
        fires."""
        self._summary.add(self._collect())
        if self._trigger(trainer):
            reporter.report(self._summary.compute_mean())
            self._summary = reporter.DictSummary()

    def _collect(self):
        statistics = {}
        prefix = self._prefix + '/' if self._prefix else ''
        for link in self._links:
            link_name = str(getattr(link, 'name', None))
            # (An uninitialized parameter has neither data nor gradient.)
            for param_name, param in link.namedparams(include_uninit=False):
                for attr in self._attrs:
                    array = param.array if attr == 'data' else param.grad
                    if array is None:
                        continue
                    key = f'{prefix}{link_name}{param_name}/{attr}'
                    self._add(statistics, key, array)
        return statistics

    def _add(self, statistics, key, array):
        nan = self._skip_nan_params and bool(
            backend.get_array_module(array).isnan(array).any())
        for name, function in self._statistics.items():
            value = float('nan') if nan else function(array)
            if getattr(value, 'ndim', 0) == 0:
                statistics[f'{key}/{name}'] = value
            else:
                for index, element in enumerate(value):
                    statistics[f'{key}/{name}/{index}'] = element

    def register_statistics(self, name, function):
        """Add a statistic ``function(array)`` reported as ``name``."""
        self._statistics[name] = function

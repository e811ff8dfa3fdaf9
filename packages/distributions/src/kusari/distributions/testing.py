"""The base class of distribution tests
(``chainer.testing.distribution_unittest``).

A subclass describes a distribution and its SciPy counterpart in
``setUp_configure``; the base class compares shapes, moments, densities and
draws of the two, on CPU and GPU. Typical use::

    @testing.parameterize(*testing.product({
        'shape': [(2, 3), ()], 'is_variable': [True, False],
        'sample_shape': [(3, 2), ()]}))
    @testing.fix_random()
    @testing.with_requires('scipy')
    class TestNormal(testing.distribution_unittest):

        scipy_onebyone = True

        def setUp_configure(self):
            from scipy import stats
            self.dist = distributions.Normal
            self.scipy_dist = stats.norm
            self.test_targets = {'batch_shape', 'log_prob', 'sample'}
            loc = numpy.random.uniform(-1, 1, self.shape).astype('f')
            scale = numpy.exp(numpy.random.uniform(-1, 1, self.shape))
            self.params = {'loc': loc, 'scale': scale.astype('f')}
            self.scipy_params = {'loc': loc, 'scale': scale}

        def sample_for_test(self):
            return numpy.random.normal(
                size=self.sample_shape + self.shape).astype('f')
"""
import math
import unittest

import numpy

from kusari.array import backend
from kusari.autograd import variable
from kusari.autograd.testing import array as array_module
from kusari.autograd.testing import attr

# What a test can check, in ``test_targets``: the test of each target is
# ``test_<target>_cpu`` (and ``_gpu``), which calls ``check_<target>``.
TARGETS = ('batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
           'log_cdf', 'log_prob', 'log_survival', 'mean', 'prob', 'sample',
           'stddev', 'support', 'survival', 'variance')

# Draws per batch element in ``check_sample``, and the tolerance on their
# mean and standard deviation.
_SAMPLE_COUNT = 100000
_SAMPLE_TOLERANCE = {'atol': 3e-2, 'rtol': 3e-2}


class distribution_unittest(unittest.TestCase):
    """Tests of a distribution against its ``scipy.stats`` counterpart.

    ``setUp`` sets the defaults (``support = 'real'``, ``event_shape =
    ()`` unless given, ``continuous = True``, no ``test_targets``, no
    ``options``), calls ``setUp_configure`` and, where ``is_variable`` is
    true, wraps the parameters in Variables.

    A subclass sets in ``setUp_configure``:

    * ``dist``: the distribution class (or any callable taking the
      parameters as keyword arguments).
    * ``scipy_dist``: the ``scipy.stats`` distribution to compare with.
    * ``params`` and ``scipy_params``: the arguments of each, as dicts of
      arrays; ``options``: more keyword arguments of ``dist``.
    * ``test_targets``: the names (from :data:`TARGETS`) to check; the
      tests of the others skip.
    * ``support`` and ``event_shape``, where they differ from the
      defaults, and ``continuous = False`` for a discrete distribution
      (compared with ``pmf`` rather than ``pdf``).

    It also has the attributes ``shape`` (the batch shape),
    ``sample_shape`` and ``is_variable`` (usually from
    :func:`~kusari.autograd.testing.parameterize`), and a method
    ``sample_for_test()`` giving points of shape ``sample_shape + shape +
    event_shape`` at which to compare the densities. With
    ``scipy_onebyone = True`` SciPy is called once per element of the
    batch, with that element's parameters (for SciPy distributions that do
    not broadcast, or whose events are vectors).

    A subclass may override ``check_<target>(is_gpu)`` to compare in its
    own way; the tests call it.
    """

    scipy_onebyone = False
    is_variable = False

    # The base class holds no test of its own; its subclasses do.
    __test__ = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if '__test__' not in vars(cls):
            cls.__test__ = True

    def setUp(self):
        self.support = 'real'
        if not hasattr(self, 'event_shape'):
            self.event_shape = ()
        self.continuous = True
        self.test_targets = set()
        self.options = {}
        self.setUp_configure()
        unknown = set(self.test_targets).difference(TARGETS)
        if unknown:
            raise ValueError(
                f'{type(self).__name__}: unknown test_targets '
                f'{sorted(unknown)}; each must be one of {list(TARGETS)}')
        if self.is_variable:
            self.params = {name: variable.Variable(value)
                           for name, value in self.params.items()}

    def setUp_configure(self):
        """Set the attributes describing the distribution (see the class
        docstring)."""
        raise TypeError(f'{type(self).__name__} must define setUp_configure '
                        f'to describe the distribution it tests')

    # -- the distributions under test ------------------------------------

    @property
    def cpu_dist(self):
        """The distribution of ``params`` (and ``options``) on the CPU."""
        return self.dist(**self.params, **self.options)

    @property
    def gpu_dist(self):
        """The distribution of ``params`` (and ``options``) on GPU 0."""
        device = backend.get_device(0)
        params = {}
        for name, value in self.params.items():
            if isinstance(value, variable.Variable):
                params[name] = variable.Variable(
                    device.send_array(value.array))
            else:
                params[name] = device.send_array(value)
        return self.dist(**params, **self.options)

    def _dist(self, is_gpu):
        return self.gpu_dist if is_gpu else self.cpu_dist

    def scipy_onebyone_params_iter(self):
        """The ``scipy_params`` of each element of the batch, in C order:
        a dict per element, each array indexed by the element's index."""
        for index in numpy.ndindex(*self.shape):
            yield {name: numpy.asarray(value)[index]
                   for name, value in self.scipy_params.items()}

    # -- what SciPy says ---------------------------------------------------

    def _scipy_moment(self, scipy_name, value_shape):
        """``scipy_dist.<scipy_name>(**scipy_params)``, of shape ``shape +
        value_shape``."""
        function = getattr(self.scipy_dist, scipy_name)
        if not self.scipy_onebyone:
            return function(**self.scipy_params)
        values = [numpy.asarray(function(**params))
                  for params in self.scipy_onebyone_params_iter()]
        return numpy.stack(values).reshape(self.shape + tuple(value_shape))

    def _scipy_pointwise(self, scipy_name, x):
        """``scipy_dist.<scipy_name>(x, **scipy_params)`` for ``x`` of shape
        ``sample_shape + shape + event_shape``: of shape ``sample_shape +
        shape``."""
        function = getattr(self.scipy_dist, scipy_name)
        if not self.scipy_onebyone:
            return function(x, **self.scipy_params)
        sample_shape = tuple(self.sample_shape)
        event_shape = tuple(self.event_shape)
        draws, batch = math.prod(sample_shape), math.prod(self.shape)
        per_element = numpy.asarray(x).reshape(
            draws, batch, math.prod(event_shape)).swapaxes(0, 1)
        per_element = per_element.reshape(
            (batch,) + sample_shape + event_shape)
        values = [numpy.asarray(function(one_x, **params)).reshape(draws)
                  for params, one_x in zip(self.scipy_onebyone_params_iter(),
                                           per_element)]
        return numpy.stack(values, axis=-1).reshape(sample_shape + self.shape)

    def _scipy_draws(self, count):
        """``count`` SciPy draws of shape ``sample_shape``: an array of shape
        ``(count,) + sample_shape + shape + event_shape``."""
        size = (count,) + tuple(self.sample_shape)
        if not self.scipy_onebyone:
            return self.scipy_dist.rvs(size=size + tuple(self.shape),
                                       **self.scipy_params)
        draws = [numpy.asarray(self.scipy_dist.rvs(size=size, **params))
                 for params in self.scipy_onebyone_params_iter()]
        event_shape = draws[0].shape[len(size):]
        return numpy.stack(draws, axis=len(size)).reshape(
            size + tuple(self.shape) + event_shape)

    # -- the checks --------------------------------------------------------

    def check_batch_shape(self, is_gpu):
        self.assertEqual(self._dist(is_gpu).batch_shape, self.shape)

    def check_event_shape(self, is_gpu):
        self.assertEqual(self._dist(is_gpu).event_shape, self.event_shape)

    def check_support(self, is_gpu):
        self.assertEqual(self._dist(is_gpu).support, self.support)

    def _check_moment(self, is_gpu, name, scipy_name):
        dist = self._dist(is_gpu)
        value_shape = () if name == 'entropy' else dist.event_shape
        array_module.assert_allclose(
            _to_cpu(getattr(dist, name).array),
            self._scipy_moment(scipy_name, value_shape))

    def check_entropy(self, is_gpu):
        self._check_moment(is_gpu, 'entropy', 'entropy')

    def check_mean(self, is_gpu):
        self._check_moment(is_gpu, 'mean', 'mean')

    def check_variance(self, is_gpu):
        self._check_moment(is_gpu, 'variance', 'var')

    def check_stddev(self, is_gpu):
        self._check_moment(is_gpu, 'stddev', 'std')

    def _check_pointwise(self, is_gpu, name, scipy_name, x):
        dist = self._dist(is_gpu)
        if is_gpu:
            x_device = backend.get_device(0).send_array(x)
        else:
            x_device = x
        array_module.assert_allclose(
            _to_cpu(getattr(dist, name)(x_device).array),
            self._scipy_pointwise(scipy_name, x))

    def _density_name(self, log):
        prefix = 'log' if log else ''
        return prefix + ('pdf' if self.continuous else 'pmf')

    def check_prob(self, is_gpu):
        self._check_pointwise(is_gpu, 'prob', self._density_name(False),
                              self.sample_for_test())

    def check_log_prob(self, is_gpu):
        self._check_pointwise(is_gpu, 'log_prob', self._density_name(True),
                              self.sample_for_test())

    def check_cdf(self, is_gpu):
        self._check_pointwise(is_gpu, 'cdf', 'cdf', self.sample_for_test())

    def check_log_cdf(self, is_gpu):
        self._check_pointwise(is_gpu, 'log_cdf', 'logcdf',
                              self.sample_for_test())

    def check_survival(self, is_gpu):
        self._check_pointwise(is_gpu, 'survival_function', 'sf',
                              self.sample_for_test())

    def check_log_survival(self, is_gpu):
        self._check_pointwise(is_gpu, 'log_survival_function', 'logsf',
                              self.sample_for_test())

    def check_icdf(self, is_gpu):
        # Probabilities away from 0 and 1, where the quantiles are finite.
        probabilities = numpy.random.uniform(
            1e-5, 1 - 1e-5, tuple(self.sample_shape) + tuple(self.shape))
        self._check_pointwise(is_gpu, 'icdf', 'ppf',
                              probabilities.astype(numpy.float32))

    def check_sample(self, is_gpu):
        """Compare the mean and the standard deviation of many draws."""
        dist = self._dist(is_gpu)
        draws = _to_cpu(dist.sample(
            (_SAMPLE_COUNT,) + tuple(self.sample_shape)).array)
        expected = self._scipy_draws(_SAMPLE_COUNT)
        array_module.assert_allclose(draws.mean(axis=0),
                                     expected.mean(axis=0),
                                     **_SAMPLE_TOLERANCE)
        array_module.assert_allclose(draws.std(axis=0), expected.std(axis=0),
                                     **_SAMPLE_TOLERANCE)


def _to_cpu(array):
    return backend.CpuDevice().send_array(array)


def _add_target_tests(cls):
    """Give ``cls`` the tests ``test_<target>_cpu`` and ``test_<target>_gpu``
    of every target, each calling ``check_<target>`` or skipping when the
    target is not among the case's ``test_targets``."""
    for target in TARGETS:
        for device, is_gpu in (('cpu', False), ('gpu', True)):
            test = _target_test(target, is_gpu)
            test.__name__ = test.__qualname__ = f'test_{target}_{device}'
            if is_gpu:
                test = attr.gpu(test)
            setattr(cls, test.__name__, test)
    return cls


def _target_test(target, is_gpu):
    def test(self):
        if target not in self.test_targets:
            self.skipTest(f'{target!r} is not in test_targets')
        getattr(self, f'check_{target}')(is_gpu)
    return test


_add_target_tests(distribution_unittest)

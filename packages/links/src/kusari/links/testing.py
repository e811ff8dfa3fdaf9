"""Base classes of link tests: forward and backward (:class:`LinkTestCase`)
and parameter initializers (:class:`LinkInitializersTestCase`).

Like :class:`~kusari.autograd.testing.FunctionTestCase`, a subclass
describes the link in a few methods and is decorated with
``inject_backend_tests``, which runs the tests once per backend.
"""
import functools
import unittest

import numpy

from kusari.array import backend
from kusari.array import initializers
from kusari.autograd import gradient_check
from kusari.autograd import variable
from kusari.autograd.testing import array as array_module
from kusari.autograd.testing import case_checks
from kusari.links.link import Link


class LinkTestError(case_checks.FunctionTestError):
    """The link under test is implemented incorrectly (a
    :class:`~kusari.autograd.testing.FunctionTestError` too)."""


def _failing_as_link_error(test):
    """Make the failures of a link test method LinkTestErrors."""

    @functools.wraps(test)
    def run(self, *args, **kwargs):
        try:
            return test(self, *args, **kwargs)
        except LinkTestError:
            raise
        except case_checks.FunctionTestError as error:
            raise LinkTestError(str(error)) from error.__cause__
    return run


class InitializerArgument:
    """An initializer argument of a link constructor, and the initializer
    it stands for (e.g. None standing for the link's default
    initializer), for :meth:`LinkInitializersTestCase.get_initializers`.
    """

    def __init__(self, argument_value, expected_initializer):
        self.argument_value = argument_value
        self.expected_initializer = expected_initializer


class _LinkTestBase:
    """What both link test cases share: making the link on the backend,
    its parameters initialized (lazy ones by a first forward)."""

    __test__ = False
    backend_config = None
    param_names = ()
    contiguous = None

    def before_test(self, test_name):
        """Called before each test with its name; raise
        :class:`unittest.SkipTest` here to skip conditionally."""

    def generate_params(self):
        """Return a tuple of initializer-likes (arrays, initializers,
        scalars), one per initializer argument of the link."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement generate_params()')

    def create_link(self, initializers):
        """Return the link, built with the tuple ``initializers``."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement create_link()')

    def generate_inputs(self):
        """Return a tuple of NumPy input arrays."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement generate_inputs()')

    def forward(self, link, inputs, device):
        """Call ``link`` on ``inputs`` (Variables on ``device``); return a
        tuple of output Variables. By default ``link(*inputs)``."""
        outputs = link(*inputs)
        return outputs if isinstance(outputs, tuple) else (outputs,)

    def _start(self, test_name, backend_config):
        self.backend_config = backend_config
        self.test_name = test_name
        self.before_test(test_name)

    def _generate_params(self):
        params = self.generate_params()
        if not isinstance(params, tuple):
            raise TypeError(f'generate_params() must return a tuple, not '
                            f'{type(params).__name__}')
        return params

    def _on_device(self, arrays):
        arrays = self.backend_config.get_array(arrays)
        if self.contiguous is None:
            return tuple(case_checks.as_noncontiguous(a) for a in arrays)
        return tuple(arrays)

    def _variables(self, inputs):
        return tuple(variable.Variable(a) for a in self._on_device(inputs))

    def _forward(self, link, inputs):
        """Apply :meth:`forward` to Variables ``inputs``, checking what it
        returns."""
        config = self.backend_config
        with config:
            outputs = self.forward(link, tuple(inputs), config.device)
        case_checks.check_variables(outputs, config.device)
        return outputs

    def _create_link(self, params):
        link = self.create_link(params)
        if not isinstance(link, Link):
            raise TypeError(f'create_link() must return a Link, not '
                            f'{type(link).__name__}')
        link.to_device(self.backend_config.device)
        # A first forward initializes lazy parameters.
        self._forward(link, self._variables(self._generate_inputs()))
        link.cleargrads()
        return link

    def _generate_inputs(self):
        return case_checks.checked_arrays(self.generate_inputs(),
                                          'generate_inputs')

    def _param(self, link, name):
        """The parameter ``name`` of ``link``, or a LinkTestError."""
        param = getattr(link, name, None)
        if not isinstance(param, variable.Parameter):
            raise LinkTestError(f'{type(link).__name__} does not have a '
                                f'parameter named {name!r} (param_names)')
        return param


class LinkTestCase(_LinkTestBase, unittest.TestCase):
    """A base class for testing a link's forward and backward on every
    backend.

    Subclasses implement :meth:`generate_params`, :meth:`create_link`,
    :meth:`generate_inputs` and :meth:`forward_expected` (and
    :meth:`forward` if the link is not simply called on the inputs), set
    :attr:`param_names`, and are decorated with ``inject_backend_tests``.

    Attributes:
        param_names (list of str): the parameters whose gradients
            ``test_backward`` checks.
        check_forward_options (dict): of ``assert_allclose``.
        check_backward_options (dict): of
            ``gradient_check.check_backward``.
        skip_forward_test, skip_backward_test (bool): skip that test.
        dodge_nondifferentiable (bool): draw new inputs when the numerical
            gradient finds a non-differentiable point.
        numerical_grad_dtype: the dtype of numerical gradients.
        contiguous (None or 'C'): None gives the link non-contiguous
            inputs; 'C' contiguous ones.
    """

    skip_forward_test = False
    skip_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype = numpy.float64

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.check_forward_options = {}
        self.check_backward_options = {}

    def forward_expected(self, link, inputs):
        """Return the expected outputs (a tuple of NumPy arrays) of
        ``link`` (on the CPU, parameters initialized) for ``inputs`` (NumPy
        arrays)."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement forward_expected()')

    def generate_grad_outputs(self, outputs_template):
        """The output gradients: uniform in [-1, 1], shaped and typed as
        the outputs."""
        return case_checks.uniform_like(outputs_template)

    @_failing_as_link_error
    def test_forward(self, backend_config):
        """The outputs equal the expected ones."""
        if self.skip_forward_test:
            raise unittest.SkipTest('skip_forward_test is set')
        self._start('test_forward', backend_config)
        link = self._create_link(self._generate_params())
        inputs = self._generate_inputs()
        outputs = self._forward(link, self._variables(inputs))
        actual = tuple(backend.CpuDevice().send_array(y.array)
                       for y in outputs)
        link.to_device(backend.CpuDevice())
        expected = case_checks.checked_arrays(
            self.forward_expected(link, inputs), 'forward_expected')
        case_checks.check_outputs_equal(expected, actual, 'forward',
                                        **self.check_forward_options)

    @_failing_as_link_error
    def test_backward(self, backend_config):
        """The gradients of the inputs and of the parameters in
        :attr:`param_names` equal the numerical ones."""
        if self.skip_backward_test:
            raise unittest.SkipTest('skip_backward_test is set')
        self._start('test_backward', backend_config)
        link = self._create_link(self._generate_params())
        params = [self._param(link, name) for name in self.param_names]

        def check():
            inputs = self._generate_inputs()
            template = tuple(
                backend.CpuDevice().send_array(y.array) for y in
                self._forward(link, self._variables(inputs)))
            grad_outputs = case_checks.checked_arrays(
                self.generate_grad_outputs(template),
                'generate_grad_outputs')
            with case_checks.failing_as(
                    'backward is not implemented correctly'):
                gradient_check.check_backward(
                    lambda *xs: self._forward(link, xs),
                    self._on_device(inputs), self._on_device(grad_outputs),
                    params=params,
                    dtype=self.numerical_grad_dtype,
                    detect_nondifferentiable=self.dodge_nondifferentiable,
                    **self.check_backward_options)
        case_checks.dodging(self, check)



class LinkInitializersTestCase(_LinkTestBase, unittest.TestCase):
    """A base class for testing that a link's parameters are filled by the
    initializers given to it, on every backend.

    Subclasses implement :meth:`generate_params`, :meth:`create_link`,
    :meth:`generate_inputs` (for a first forward initializing lazy
    parameters) and :meth:`get_initializers`, and set
    :attr:`param_names` (one name per initializer argument).

    Attributes:
        check_initializers_options (dict): of ``assert_allclose``.
        skip_initializers_test (bool): skip the test.
    """

    skip_initializers_test = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.check_initializers_options = {}

    def get_initializers(self):
        """Return one container per initializer argument, listing the
        initializer-likes (or :class:`InitializerArgument`) to test in it;
        each is tested alone, the other arguments taken from
        :meth:`generate_params`. They must be deterministic."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement get_initializers()')

    @_failing_as_link_error
    def test_initializers(self, backend_config):
        """Each parameter holds what its initializer makes."""
        if self.skip_initializers_test:
            raise unittest.SkipTest('skip_initializers_test is set')
        self._start('test_initializers', backend_config)
        candidates = self.get_initializers()
        if len(candidates) != len(self.param_names):
            raise ValueError(
                f'get_initializers() gives {len(candidates)} containers for '
                f'{len(self.param_names)} param_names')
        for index, initializer_likes in enumerate(candidates):
            for initializer in initializer_likes:
                self._check_initializer(index, initializer)

    def _check_initializer(self, index, initializer):
        if isinstance(initializer, InitializerArgument):
            argument = initializer.argument_value
            expected_initializer = initializer.expected_initializer
        else:
            argument = expected_initializer = initializer
        params = list(self._generate_params())
        params[index] = argument
        link = self._create_link(tuple(params))
        name = self.param_names[index]
        param = self._param(link, name)
        expected = initializers.generate_array(
            initializers.get_initializer(expected_initializer),
            param.shape, numpy, dtype=param.dtype)
        try:
            array_module.assert_allclose(
                param.array, expected, **self.check_initializers_options)
        except AssertionError as error:
            case_checks.fail(f'parameter {name!r} is not filled by the '
                             f'initializer {initializer!r}', error)

"""The base class of function tests: forward, backward and double backward
checked from a few methods that describe the function.

A subclass says how to make inputs (``generate_inputs``), how to apply the
function (``forward``) and what it should give (``forward_expected``);
``inject_backend_tests`` runs the three tests on each backend.
"""
import unittest

import numpy

from kusari.autograd import gradient_check
from kusari.autograd import variable
from kusari.autograd.testing import case_checks
from kusari.autograd.testing.case_checks import FunctionTestError  # NOQA

class FunctionTestCase(unittest.TestCase):
    """A base class for testing a function on every backend.

    Subclasses implement :meth:`generate_inputs`, :meth:`forward` and
    :meth:`forward_expected`, and are decorated with
    ``inject_backend_tests``, which calls :meth:`test_forward`,
    :meth:`test_backward` and :meth:`test_double_backward` with a
    :class:`~kusari.autograd.testing.BackendConfig`.

    Attributes:
        check_forward_options (dict): keyword arguments of
            ``assert_allclose`` in the forward test.
        check_backward_options (dict): of ``gradient_check.check_backward``.
        check_double_backward_options (dict): of
            ``gradient_check.check_double_backward``.
        skip_forward_test, skip_backward_test, skip_double_backward_test
            (bool): skip that test.
        dodge_nondifferentiable (bool): draw new inputs when the numerical
            gradient finds a non-differentiable point.
        numerical_grad_dtype: the dtype of numerical gradients.
        contiguous (None or 'C'): None gives the function non-contiguous
            arrays (to catch code that assumes contiguity); 'C' gives
            C-contiguous ones.
        backend_config: the config of the running test.
        test_name (str): the name of the running test.
    """

    # Its tests need a backend config: pytest collects only the classes
    # inject_backend_tests generates from it.
    __test__ = False
    backend_config = None
    skip_forward_test = False
    skip_backward_test = False
    skip_double_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype = numpy.float64
    contiguous = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.check_forward_options = {}
        self.check_backward_options = {}
        self.check_double_backward_options = {}

    def before_test(self, test_name):
        """Called before each test with its name; override to adjust the
        options (say, the tolerances of one dtype) per test."""

    def generate_inputs(self):
        """Return a tuple of NumPy input arrays."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement generate_inputs()')

    def forward(self, inputs, device):
        """Apply the function to ``inputs`` (a tuple of Variables on
        ``device``) and return a tuple of output Variables."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement forward()')

    def forward_expected(self, inputs):
        """Return the expected outputs (a tuple of NumPy arrays) for
        ``inputs`` (a tuple of NumPy arrays)."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement forward_expected()')

    def generate_grad_outputs(self, outputs_template):
        """The output gradients: uniform in [-1, 1], shaped and typed as
        the expected outputs."""
        return case_checks.uniform_like(outputs_template)

    def generate_grad_grad_inputs(self, inputs_template):
        """The gradients of the input gradients, for the double backward
        test: uniform in [-1, 1], shaped and typed as the inputs."""
        return case_checks.uniform_like(inputs_template)

    def check_forward_outputs(self, outputs, expected_outputs):
        """Compare the outputs' arrays with the expected ones: number,
        shapes, dtypes and values (with ``check_forward_options``)."""
        case_checks.check_outputs_equal(expected_outputs, outputs, 'forward',
                                        **self.check_forward_options)

    def test_forward(self, backend_config):
        """The outputs equal the expected ones, and inputs are untouched."""
        self._start('test_forward', backend_config, self.skip_forward_test)
        cpu_inputs = self._noncontiguous(self._generate_inputs())
        inputs_before = [None if a is None else a.copy()
                         for a in cpu_inputs]
        expected = self._forward_expected(cpu_inputs)
        inputs = self._noncontiguous(backend_config.get_array(cpu_inputs))
        outputs = self._forward(
            tuple(variable.Variable(a, requires_grad=a.dtype.kind == 'f')
                  for a in inputs), backend_config)
        case_checks.check_inputs_unchanged(inputs_before, inputs)
        self.check_forward_outputs(tuple(y.array for y in outputs), expected)

    def test_backward(self, backend_config):
        """The gradients equal the numerical ones."""
        self._start('test_backward', backend_config, self.skip_backward_test)

        def check():
            inputs = self._generate_inputs()
            grad_outputs = self._generate_grad_outputs(
                self._forward_expected(inputs))
            with case_checks.failing_as(
                    'backward is not implemented correctly'):
                gradient_check.check_backward(
                    self._forward_function(backend_config),
                    self._on_device(inputs), self._on_device(grad_outputs),
                    dtype=self.numerical_grad_dtype,
                    detect_nondifferentiable=self.dodge_nondifferentiable,
                    **self.check_backward_options)
        case_checks.dodging(self, check)

    def test_double_backward(self, backend_config):
        """The gradients of the gradients equal the numerical ones."""
        self._start('test_double_backward', backend_config,
                    self.skip_double_backward_test)

        def check():
            inputs = self._generate_inputs()
            grad_outputs = self._generate_grad_outputs(
                self._forward_expected(inputs))
            # Only float inputs have gradients (None stands for an omitted
            # one and is passed on).
            grad_grad_inputs = tuple(
                g for g in self._generate_grad_grad_inputs(inputs)
                if g is None or g.dtype.kind == 'f')
            with backend_config, case_checks.failing_as(
                    'double backward is not implemented correctly'):
                gradient_check.check_double_backward(
                    self._forward_function(backend_config),
                    self._on_device(inputs), self._on_device(grad_outputs),
                    self._on_device(grad_grad_inputs),
                    dtype=self.numerical_grad_dtype,
                    detect_nondifferentiable=self.dodge_nondifferentiable,
                    **self.check_double_backward_options)
        case_checks.dodging(self, check)

    # -- the steps shared by the tests ---------------------------------

    def _start(self, test_name, backend_config, skip):
        if skip:
            raise unittest.SkipTest(f'skip_{test_name[5:]}_test is set')
        self.backend_config = backend_config
        self.test_name = test_name
        self.before_test(test_name)

    def _noncontiguous(self, arrays):
        if self.contiguous is None:
            return tuple(case_checks.as_noncontiguous(a) for a in arrays)
        if self.contiguous == 'C':
            return arrays
        raise ValueError(
            f"{type(self).__name__}.contiguous must be None or 'C', got "
            f"{self.contiguous!r}")

    def _on_device(self, arrays):
        return self._noncontiguous(self.backend_config.get_array(arrays))

    def _generate_inputs(self):
        return case_checks.checked_arrays(self.generate_inputs(),
                                          'generate_inputs')

    def _forward_expected(self, inputs):
        return case_checks.checked_arrays(self.forward_expected(inputs),
                                          'forward_expected')

    def _generate_grad_outputs(self, outputs_template):
        return case_checks.checked_arrays(
            self.generate_grad_outputs(outputs_template),
            'generate_grad_outputs')

    def _generate_grad_grad_inputs(self, inputs_template):
        return case_checks.checked_arrays(
            self.generate_grad_grad_inputs(inputs_template),
            'generate_grad_grad_inputs')

    def _forward(self, inputs, backend_config):
        with backend_config:
            outputs = self.forward(inputs, backend_config.device)
        case_checks.check_variables(outputs, backend_config.device)
        return outputs

    def _forward_function(self, backend_config):
        return lambda *inputs: self._forward(inputs, backend_config)



"""The autograd engine is a layer of its own, below the function library.

The engine (Variable, FunctionNode, the backward pass and what they need)
imports nothing of ``kusari.autograd.functions``; the library gives
Variable its operators and convenience methods through one call, which
``import kusari.autograd`` makes. The package's ``__init__`` assembles both
layers, so the engine alone is loaded under a bare ``kusari.autograd``
package in a fresh interpreter.
"""
import ast
import pathlib
import subprocess
import sys
import textwrap

import numpy

import kusari.autograd
from kusari.autograd import Variable
from kusari.autograd.functions import _variable_methods

PACKAGE = pathlib.Path(kusari.autograd.__file__).parent

ENGINE = (
    '_state', 'variable', 'function_node', 'accumulation', '_backprop',
    'function', 'function_hook', 'graph_mode', 'computational_graph',
    'gradient_check', 'utils.array', 'utils.type_check', 'function_hooks',
    'graph_optimizations',
)


def _run_engine_alone(body):
    """Run ``body`` in a new interpreter where ``kusari.autograd`` is a bare
    package (its ``__init__`` not run) and the engine modules are
    imported; return its stdout."""
    script = textwrap.dedent('''
        import importlib, importlib.util, sys, types
        spec = importlib.util.find_spec('kusari.autograd')
        package = types.ModuleType('kusari.autograd')
        package.__path__ = list(spec.submodule_search_locations)
        sys.modules['kusari.autograd'] = package
        for name in {engine!r}:
            importlib.import_module('kusari.autograd.' + name)
        library = sorted(m for m in sys.modules
                         if m.startswith('kusari.autograd.functions'))
        assert not library, library
    ''').format(engine=ENGINE) + textwrap.dedent(body)
    done = subprocess.run([sys.executable, '-c', script],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_importing_the_engine_imports_no_library_module():
    _run_engine_alone('''
        from kusari.autograd.variable import Variable
        # Operators and shape methods are the library's, not the engine's.
        assert '__add__' not in vars(Variable)
        assert not hasattr(Variable, 'reshape')
        print('ok')
    ''')


def test_the_engine_runs_forward_and_backward_with_its_own_nodes():
    out = _run_engine_alone('''
        import numpy
        from kusari.autograd import function_node, gradient_check
        from kusari.autograd.function_node import (
            FunctionNode, GradientSum, sum_gradients)
        from kusari.autograd.variable import Variable

        class Scale(FunctionNode):
            def __init__(self, factor):
                self.factor = factor

            def forward(self, inputs):
                return inputs[0] * self.factor,

            def backward(self, indexes, grad_outputs):
                return Scale(self.factor).apply(grad_outputs)

        x = Variable(numpy.array([1., 2., 3.], dtype=numpy.float32))
        # x reaches y twice: the pass adds the two contributions.
        y = sum_gradients(Scale(2.).apply((x,))[0], x)
        y.grad = numpy.ones(3, dtype=numpy.float32)
        y.backward()
        print(x.grad.tolist())
        # Recorded, the sum of the contributions is a GradientSum node.
        gx, = function_node.grad([y], [x], enable_double_backprop=True)
        print(type(gx.creator).__name__, gx.array.tolist())
        x, gy = numpy.array([.5, -1.]), numpy.array([1., 2.])
        gradient_check.check_backward(
            lambda v: Scale(3.).apply((v,)), x, gy)
        gradient_check.check_double_backward(
            lambda v: Scale(3.).apply((v,)), x, gy, numpy.array([.3, .7]))
        import sys
        print(any(m.startswith('kusari.autograd.functions')
                  for m in sys.modules))
    ''')
    assert out.split('\n')[:3] == ['[3.0, 3.0, 3.0]',
                                   'GradientSum [3.0, 3.0, 3.0]', 'False']


def _imported_modules(path):
    """The modules ``path`` imports anywhere (functions included)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module or '')
            names.update(f'{node.module}.{alias.name}'
                         for alias in node.names)
    return names


def test_no_engine_module_imports_the_library_even_lazily():
    for name in ENGINE:
        path = PACKAGE.joinpath(*name.split('.'))
        paths = sorted(path.rglob('*.py')) if path.is_dir() else \
            [path.with_suffix('.py')]
        for module in paths:
            library = sorted(m for m in _imported_modules(module)
                             if m.startswith('kusari.autograd.functions'))
            assert not library, (module.name, library)


def test_importing_kusari_autograd_installs_every_variable_method():
    for name, method in _variable_methods.METHODS.items():
        assert vars(Variable)[name] is method
    x = Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    y = (x.T.reshape(3, 2)[1:] * 2 + 1).mean()
    y.backward()
    assert y.array == numpy.float32(x.array.T[1:].mean() * 2 + 1)
    numpy.testing.assert_allclose(
        x.grad, numpy.array([[0, 0.5, 0.5], [0, 0.5, 0.5]]))

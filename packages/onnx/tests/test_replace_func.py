"""fake_as_funcnode and as_funcnode: one node, its attributes, its
gradient, and its export through an external converter."""
import warnings

import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.onnx import export
from kusari.onnx import onnx_helper
from kusari.onnx.replace_func import as_funcnode
from kusari.onnx.replace_func import fake_as_funcnode
from kusari.onnx.testing import runtime
from onnx_models import FunctionModel

pytest.importorskip('onnxruntime')

rng = numpy.random.default_rng(0)
x = rng.standard_normal((2, 3)).astype(numpy.float32)


def scaled_sum(xs, scale, shift=0.0):
    return F.sum(F.stack(xs), axis=0) * scale + shift


def test_one_node_with_attributes_and_renames():
    wrapped = fake_as_funcnode(scaled_sum, 'ScaledSum',
                               rename_attributes=[(1, 'scale')],
                               experimental_warning=False)
    a, b = Variable(x), Variable(2 * x)
    y = wrapped([a, b], 3.0, shift=1.0)
    node = y.creator_node
    assert onnx_helper.get_func_name(node) == 'ScaledSum'
    assert (node.scale, node.shift) == (3.0, 1.0)
    assert not hasattr(node, 'arg0')  # it holds the inputs
    numpy.testing.assert_allclose(y.array, 9 * x + 1, rtol=1e-6)
    assert node.inputs[0].creator_node is None  # inner functions hidden


def test_gradient_is_the_wrapped_functions():
    wrapped = fake_as_funcnode(lambda a, b: F.tanh(a) * b, 'TanhMul',
                               experimental_warning=False)
    a, b = Variable(x), Variable(x[::-1].copy())
    F.sum(wrapped(a, b)).backward()
    numpy.testing.assert_allclose(a.grad, (1 - numpy.tanh(x) ** 2) * b.array,
                                  rtol=1e-5)
    numpy.testing.assert_allclose(b.grad, numpy.tanh(x), rtol=1e-5)


def test_several_outputs_and_the_warning():
    @as_funcnode('Halves')
    def halves(v):
        return F.split_axis(v, 2, axis=0)

    with pytest.warns(FutureWarning, match='experimental'):
        first, second = halves(Variable(x))
    numpy.testing.assert_array_equal(second.array, x[1:])
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        fake_as_funcnode(F.relu, 'R', experimental_warning=False)(x)


def test_exported_with_an_external_converter():
    wrapped = fake_as_funcnode(scaled_sum, 'ScaledSum',
                               rename_attributes=[(1, 'scale')],
                               experimental_warning=False)

    def convert(params):
        gb = params.graph_builder()
        total = gb.op('Sum', params.input_names)
        scale = gb.const(params.func.scale, numpy.float32)
        shift = gb.const(params.func.shift, numpy.float32)
        gb.op_output_named('Add', [gb.op('Mul', [total, scale]), shift],
                           params.output_names)
        return gb.nodes()

    model = FunctionModel(lambda m, a, b: wrapped([a, b], 2.0))
    onnx_model = runtime.check_export(
        model, (x, x + 1), external_converters={'ScaledSum': convert})
    assert 'Stack' not in [n.op_type for n in onnx_model.graph.node]
    with pytest.raises(ValueError, match='ScaledSum.*external_converters'):
        export(model, (x, x + 1))


def test_bad_calls():
    with pytest.raises(ValueError, match='at least one Variable or array'):
        fake_as_funcnode(scaled_sum, 'S', experimental_warning=False)(
            [], 1.0)
    with pytest.raises(TypeError, match='rename_attributes must hold'):
        fake_as_funcnode(scaled_sum, 'S', rename_attributes=[(1.5, 'a')])


def test_nested_outputs_keep_their_structure():
    def pairs(a, b):
        return a + b, [a * b, a - b]

    wrapped = fake_as_funcnode(pairs, 'Pairs', experimental_warning=False)
    total, (product, difference) = wrapped(Variable(x), Variable(2 * x))
    numpy.testing.assert_allclose(difference.array, -x)
    node = total.creator_node
    assert node.reconstruct_return_value(['s', 'p', 'd']) == ('s', ['p', 'd'])
    args, kwargs = node.arguments(['first', 'second'])
    assert (args, kwargs) == (('first', 'second'), {})

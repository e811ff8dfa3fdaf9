"""onnx_helper, Context and the input generators."""
import numpy
import onnx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from onnx import numpy_helper

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.onnx import onnx_helper
from kusari.onnx.context import Context
from kusari.onnx.testing import input_generator
from onnx_models import FunctionModel


def test_cleanse_param_name():
    assert onnx_helper.cleanse_param_name('/l1/W') == 'param_l1_W'
    assert onnx_helper.cleanse_param_name('/b') == 'param_b'


def test_func_name_defaults_to_the_class_name():
    y = F.relu(Variable(numpy.ones(2, numpy.float32)))
    node = y.creator_node
    assert onnx_helper.get_func_name(node) == 'ReLU'
    onnx_helper.set_func_name(node, 'MyReLU')
    assert onnx_helper.get_func_name(node) == 'MyReLU'


def test_write_tensor_pb(tmp_path):
    value = numpy.arange(6, dtype=numpy.int32).reshape(2, 3)
    path = str(tmp_path / 't.pb')
    onnx_helper.write_tensor_pb(path, 'v', value)
    tensor = onnx.TensorProto()
    with open(path, 'rb') as file:
        tensor.ParseFromString(file.read())
    assert tensor.name == 'v'
    numpy.testing.assert_array_equal(numpy_helper.to_array(tensor), value)


def test_graph_builder_names_and_renames():
    gb = onnx_helper.GraphBuilder('f')
    a, b = gb.op('Split', ['x'], num_outputs=2, axis=0)
    assert (a, b) == ('f/Split_0:0', 'f/Split_0:1')
    c = gb.op('Add', [a, b])
    assert c == 'f/Add_1'
    gb.op_output_named('Relu', [c], ['y'])
    nodes = gb.nodes()
    assert [n.name for n in nodes] == ['f/Split_0', 'f/Add_1', 'f/Relu_2']
    assert list(gb.nodes(['z'])[-1].output) == ['z']
    with pytest.raises(ValueError, match='has 1 outputs, got 2'):
        gb.nodes(['p', 'q'])
    assert onnx_helper.GraphBuilder().prefix != \
        onnx_helper.GraphBuilder().prefix
    node = onnx_helper.make_node('Relu', ['x'], ['y'], name='n')
    assert (node.op_type, node.name) == ('Relu', 'n')


def test_context_names():
    model = FunctionModel(None, {'W': numpy.ones(2, numpy.float32)})
    context = Context(model)
    assert context.get_name(model.W) == 'param_W'
    v = Variable(numpy.zeros(1, numpy.float32))
    assert context.get_name(v) is None
    assert context.set_name(v, 'param_W') == 'param_W_0'
    assert context.get_name(v) == 'param_W_0'
    with pytest.raises(ValueError, match='already used'):
        context.set_name(Variable(v.array), 'param_W', pinned=True)
    assert context.add_const(numpy.ones(1), 'param_W') == 'param_W_1'
    assert context.add_param(numpy.ones(1), 'p', use_original_name=True) \
        == 'p'
    assert [t.name for t in context.parameters] == ['p']
    assert [t.name for t in context.constants] == ['param_W_1']


shapes = st.lists(st.integers(1, 5), min_size=1, max_size=3)


@given(shapes)
def test_increasing_inputs(shape):
    for generate in (input_generator.increasing,
                     input_generator.nonzero_increasing,
                     input_generator.positive_increasing):
        values = generate(*shape)
        assert values.shape == tuple(shape)
        assert values.dtype == numpy.float32
        assert (numpy.diff(values.ravel()) > 0).all()
        assert (numpy.abs(values) <= 2).all()
    values = input_generator.increasing(*shape).ravel()
    assert 0 in values
    if values.size > 1:
        assert values.min() < 0
    assert 0 not in input_generator.nonzero_increasing(*shape)
    assert (input_generator.positive_increasing(*shape) > 0).all()
    assert input_generator.increasing(
        *shape, dtype=numpy.float64).dtype == numpy.float64

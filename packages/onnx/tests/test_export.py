"""export and export_testcase: arguments, names, files and errors."""
import io
import os

import numpy
import onnx
import pytest
from onnx import numpy_helper

from kusari.autograd import functions as F
from kusari.autograd import no_backprop_mode
from kusari.autograd.function import Function
from kusari.onnx import MAXIMUM_OPSET_VERSION
from kusari.onnx import export
from kusari.onnx import export_testcase
from kusari.onnx import onnx_helper
from kusari.onnx.testing import runtime
from onnx_models import FunctionModel

pytest.importorskip('onnxruntime')

rng = numpy.random.default_rng(0)
x = rng.standard_normal((2, 3)).astype(numpy.float32)
W = rng.standard_normal((4, 3)).astype(numpy.float32)


def linear_model(dtype=numpy.float32):
    return FunctionModel(lambda m, x: F.relu(F.linear(x, m.W)),
                         {'W': W.astype(dtype)})


def two_outputs(m, x, y):
    return x + y, x * y


def test_names_of_parameters_inputs_and_outputs():
    onnx_model = export(linear_model(), x)
    graph = onnx_model.graph
    assert [i.name for i in graph.input] == ['input_0']
    assert [o.name for o in graph.output] == ['output_0']
    assert [t.name for t in graph.initializer] == ['param_W']
    assert [n.output[0] for n in graph.node] == ['LinearFunction_0',
                                                 'output_0']
    assert graph.name == 'Graph'
    assert onnx_model.opset_import[0].version == MAXIMUM_OPSET_VERSION


def test_custom_names_from_lists_strs_and_dicts():
    model = FunctionModel(two_outputs)
    onnx_model = export(model, (x, x), input_names=['a', 'b'],
                        output_names={'output_1': 'product'},
                        graph_name='g')
    graph = onnx_model.graph
    assert [i.name for i in graph.input] == ['a', 'b']
    assert [o.name for o in graph.output] == ['output_0', 'product']
    assert graph.name == 'g'
    single = export(linear_model(), x, input_names='x', output_names='y')
    assert single.graph.input[0].name == 'x'
    assert single.graph.output[0].name == 'y'


def test_dict_arguments_and_outputs():
    model = FunctionModel(lambda m, a, b: {'sum': a + b})
    onnx_model, inputs, outputs = export(
        model, {'a': x, 'b': x}, return_named_inout=True)
    assert list(inputs) == ['a', 'b']
    assert list(outputs) == ['sum']
    numpy.testing.assert_array_equal(outputs['sum'].array, x + x)
    assert [o.name for o in onnx_model.graph.output] == ['sum']


def test_return_named_inout_gives_the_traced_variables():
    onnx_model, inputs, outputs = export(linear_model(), x,
                                         return_named_inout=True)
    assert isinstance(onnx_model, onnx.ModelProto)
    numpy.testing.assert_array_equal(inputs['input_0'].array, x)
    numpy.testing.assert_allclose(outputs['output_0'].array,
                                  numpy.maximum(x @ W.T, 0), rtol=1e-6)


def test_float64_graph():
    onnx_model = runtime.check_export(linear_model(numpy.float64),
                                      x.astype(numpy.float64))
    assert onnx_model.graph.initializer[0].data_type == \
        onnx.TensorProto.DOUBLE


def test_constants_and_returned_inputs():
    """Arrays the model reads become initializers; an output that is an
    input, a parameter or returned twice gets an Identity."""
    shift = numpy.arange(3, dtype=numpy.float32)
    model = FunctionModel(lambda m, x: (x, x + shift, x, m.W),
                          {'W': W})
    onnx_model = runtime.check_export(model, x)
    assert [t.name for t in onnx_model.graph.initializer] == ['param_W',
                                                              'constant']
    assert sum(n.op_type == 'Identity' for n in onnx_model.graph.node) == 3


def test_save_to_path_with_text_and_to_file(tmp_path):
    path = str(tmp_path / 'model.onnx')
    onnx_model = export(linear_model(), x, filename=path, save_text=True)
    assert onnx.load(path) == onnx_model
    with open(path + '.txt') as file:
        assert 'LinearFunction_0' in file.read()
    buffer = io.BytesIO()
    export(linear_model(), x, filename=buffer)
    assert onnx.load_from_string(buffer.getvalue()) == onnx_model


def test_without_params_the_parameters_are_inputs():
    onnx_model = export(linear_model(), x, export_params=False)
    assert [i.name for i in onnx_model.graph.input] == ['input_0',
                                                        'param_W']
    assert not onnx_model.graph.initializer
    onnx.checker.check_model(onnx_model)
    y, = runtime.run(onnx_model, {'input_0': x, 'param_W': W})
    numpy.testing.assert_allclose(y, numpy.maximum(x @ W.T, 0), rtol=1e-6)


def test_external_converter_overrides_and_custom_domain():
    def custom(params):
        return [onnx_helper.make_node('CustomRelu', params.input_names,
                                      params.output_names, domain='kusari')]

    onnx_model = export(linear_model(), x,
                        external_converters={'ReLU': custom},
                        external_opset_imports={'kusari': 1})
    last = onnx_model.graph.node[-1]
    assert (last.op_type, last.domain) == ('CustomRelu', 'kusari')
    assert ('kusari', 1) in [(o.domain, o.version)
                             for o in onnx_model.opset_import]


def test_external_converter_found_under_chainers_class_name():
    def average(params):
        return [onnx_helper.make_node('GlobalAveragePool',
                                      params.input_names,
                                      params.output_names)]

    model = FunctionModel(
        lambda _, v: F.max_pooling_2d(v, 2, 2, cover_all=False))
    image = numpy.ones((1, 1, 2, 2), numpy.float32)
    onnx_model = export(model, image,
                        external_converters={'MaxPooling2D': average})
    assert [n.op_type for n in onnx_model.graph.node] == [
        'GlobalAveragePool']


def test_unsupported_function_names_it_and_external_converters():
    model = FunctionModel(lambda m, x: F.cumsum(x, axis=1))
    with pytest.raises(ValueError, match=r'Cumsum.*external_converters'):
        export(model, x)


@pytest.mark.parametrize('opset_version', [6, MAXIMUM_OPSET_VERSION + 1,
                                           '13', True])
def test_bad_opset_version(opset_version):
    with pytest.raises(ValueError, match='opset_version must be an int'):
        export(linear_model(), x, opset_version=opset_version)


def test_bad_arguments():
    with pytest.raises(TypeError, match='args must be an array'):
        export(linear_model(), 3)
    with pytest.raises(ValueError, match='input_names must be a str'):
        export(linear_model(), x, input_names=['a', 'b'])
    with pytest.raises(ValueError, match='output_names has keys'):
        export(linear_model(), x, output_names={'y': 'z'})
    with pytest.raises(ValueError, match='save_text needs filename'):
        export(linear_model(), x, save_text=True)
    with pytest.raises(TypeError, match='must return Variables'):
        export(FunctionModel(lambda m, x: x.array), x)


def _read(path):
    tensor = onnx.TensorProto()
    with open(path, 'rb') as file:
        tensor.ParseFromString(file.read())
    return tensor.name, numpy_helper.to_array(tensor)


def test_export_testcase(tmp_path):
    model = linear_model()
    export_testcase(model, x, str(tmp_path), output_grad=True)
    data = tmp_path / 'test_data_set_0'
    assert sorted(os.listdir(data)) == ['gradient_0.pb', 'input_0.pb',
                                        'output_0.pb']
    onnx_model = onnx.load(str(tmp_path / 'model.onnx'))
    name, x_read = _read(data / 'input_0.pb')
    assert name == 'input_0'
    name, y_read = _read(data / 'output_0.pb')
    assert name == 'output_0'
    y, = runtime.run(onnx_model, {'input_0': x_read})
    numpy.testing.assert_allclose(y, y_read, rtol=1e-6)
    name, gW = _read(data / 'gradient_0.pb')
    assert name == 'param_W'
    # d sum(relu(x W^T)) / dW = (x W^T > 0)^T x
    numpy.testing.assert_allclose(gW, ((x @ W.T) > 0).T.astype(
        numpy.float32) @ x, rtol=1e-5)


def test_values_computed_outside_the_graph_are_constants():
    def fn(m, x):
        with no_backprop_mode():
            shift = F.exp(x)
        return x + shift

    onnx_model = runtime.check_export(FunctionModel(fn), x)
    assert [n.op_type for n in onnx_model.graph.node] == ['Add']
    assert [t.name for t in onnx_model.graph.initializer] == ['constant']


class Double(Function):
    """An old-style Function: converted by its own class name."""

    def forward(self, inputs):
        return inputs[0] * 2,


def test_old_style_function_by_its_class_name():
    model = FunctionModel(lambda m, x: Double()(x))
    with pytest.raises(ValueError, match='function Double'):
        export(model, x)

    def convert(params):
        gb = params.graph_builder()
        gb.op_output_named('Add', params.input_names * 2,
                           params.output_names)
        return gb.nodes()

    runtime.check_export(model, x, external_converters={'Double': convert})

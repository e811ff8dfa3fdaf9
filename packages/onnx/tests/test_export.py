"""export and export_testcase: arguments, names, files and errors."""
import inspect
import io
import os
import warnings

import numpy
import onnx
import pytest
from onnx import numpy_helper

from kusari.array import configuration
from kusari.autograd import functions as F
from kusari.autograd import no_backprop_mode
from kusari.autograd.function import Function
from kusari.links import Chain
from kusari.links import layers as L
from kusari.onnx import MAXIMUM_OPSET_VERSION
from kusari.onnx import MINIMUM_OPSET_VERSION
from kusari.onnx import convert_parameter
from kusari.onnx import export
from kusari.onnx import export_testcase
from kusari.onnx import onnx_helper
from kusari.onnx.context import Context
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
    onnx_model = export(linear_model(), x, filename=path, save_text=True,
                        no_testcase=True)
    assert onnx.load(path) == onnx_model
    with open(path + '.txt') as file:
        assert 'LinearFunction_0' in file.read()
    buffer = io.BytesIO()
    export(linear_model(), x, filename=buffer, no_testcase=True)
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


def test_positional_arguments_in_onnx_chainers_order():
    assert list(inspect.signature(export).parameters) == [
        'model', 'args', 'filename', 'export_params', 'graph_name',
        'save_text', 'opset_version', 'input_names', 'output_names',
        'train', 'return_named_inout', 'external_converters',
        'external_opset_imports', 'input_shapes', 'no_testcase']
    onnx_model = export(linear_model(), x, None, True, 'g', False, 9, 'x',
                        'y')
    assert onnx_model.opset_import[0].version == 9
    assert [i.name for i in onnx_model.graph.input] == ['x']
    assert [o.name for o in onnx_model.graph.output] == ['y']


def test_every_opset_from_7_is_accepted_and_the_newest_is_default():
    assert (MINIMUM_OPSET_VERSION, MAXIMUM_OPSET_VERSION) == (7, 28)
    for version in (7, 8, 9, 12, 21, 28):
        onnx_model = runtime.check_export(linear_model(), x,
                                          opset_version=version)
        assert onnx_model.opset_import[0].version == version
    assert export(linear_model(), x).opset_import[0].version == min(
        MAXIMUM_OPSET_VERSION, onnx.defs.onnx_opset_version())


def test_before_ir_version_4_the_initializers_are_inputs():
    onnx_model = export(linear_model(), x, opset_version=8)
    assert onnx_model.ir_version == 3
    assert [i.name for i in onnx_model.graph.input] == ['input_0',
                                                        'param_W']
    assert [i.name for i in export(linear_model(), x,
                                   opset_version=9).graph.input] == [
        'input_0']


class ConvNet(Chain):
    """A convnet whose linear layer flattens its input (a reshape keeping
    the batch axis)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(1, 3, 3, pad=1)
            self.bn = L.BatchNormalization(3)
            self.fc = L.Linear(3 * 4 * 4, 5)

    def forward(self, image):
        h = F.max_pooling_2d(F.relu(self.bn(self.conv(image))), 2)
        return F.softmax(self.fc(h))


def _dims(value_info):
    return [dim.dim_param or (dim.dim_value if dim.HasField('dim_value')
                              else None)
            for dim in value_info.type.tensor_type.shape.dim]


@pytest.mark.parametrize('opset_version', [7, 11, MAXIMUM_OPSET_VERSION])
@pytest.mark.parametrize('batch', [None, 'batch'])
def test_input_shapes_free_batch_runs_another_batch_size(batch,
                                                         opset_version):
    model = ConvNet()
    images = numpy.random.default_rng(1).standard_normal(
        (5, 1, 8, 8)).astype(numpy.float32)
    onnx_model = export(model, images[:2], input_shapes=(batch, 1, 8, 8),
                        opset_version=opset_version)
    onnx.checker.check_model(onnx_model, full_check=True)
    assert _dims(onnx_model.graph.input[0]) == [batch, 1, 8, 8]
    # Shape inference names an unknown side (unk__0) or keeps the name.
    free, classes = _dims(onnx_model.graph.output[0])
    assert classes == 5 and isinstance(free, str)
    assert batch is None or free == batch
    for n in (1, 5):
        with configuration.using_config('train', False):
            expected = model(images[:n]).array
        actual, = runtime.run(onnx_model, {'input_0': images[:n]})
        numpy.testing.assert_allclose(actual, expected, rtol=1e-5,
                                      atol=1e-6)


def test_input_shapes_of_several_inputs_as_list_or_dict():
    model = FunctionModel(two_outputs)
    for shapes in ([('n', 3), ('n', 3)], {'input_0': ('n', 3),
                                          'input_1': (2, 3)}):
        onnx_model = export(model, [x, x], input_shapes=shapes)
        assert _dims(onnx_model.graph.input[0]) == ['n', 3]
    onnx_model = export(FunctionModel(lambda m, a, b: two_outputs(m, a, b)),
                        {'a': x, 'b': x},
                        input_shapes={'a': (None, 3), 'b': (None, 3)})
    y, _ = runtime.run(onnx_model, {'a': x[:1], 'b': x[1:]})
    numpy.testing.assert_allclose(y, x[:1] + x[1:])


def test_bad_input_shapes():
    with pytest.raises(ValueError, match='gives the input .input_0. of 2'):
        export(linear_model(), x, input_shapes=(None, 3, 1))
    with pytest.raises(ValueError, match='one shape per input'):
        export(linear_model(), x, input_shapes=[(2, 3), (2, 3)])
    with pytest.raises(ValueError, match='no shape for the inputs'):
        export(linear_model(), x, input_shapes={'x': (2, 3)})


def test_writing_a_file_warns_unless_no_testcase(tmp_path):
    path = str(tmp_path / 'model.onnx')
    with pytest.warns(DeprecationWarning, match='export_testcase'):
        export(linear_model(), x, filename=path)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        export(linear_model(), x, filename=path, no_testcase=True)
        export(linear_model(), x)
        export_testcase(linear_model(), x, str(tmp_path / 'case'),
                        no_testcase=False)


def test_convert_parameter():
    model = linear_model()
    context = Context(model)
    tensor = convert_parameter(model.W, context)
    assert tensor.name == 'param_W'
    numpy.testing.assert_array_equal(numpy_helper.to_array(tensor), W)
    array = numpy.ones(2, numpy.float32)
    context.set_name(array, 'ones')
    assert convert_parameter(array, context).name == 'ones'
    with pytest.raises(ValueError, match='Parameter, a Variable or an'):
        convert_parameter(3.0, context)


@pytest.mark.parametrize('opset_version', [7, 11, 13])
def test_graphs_show_squeeze_unsqueeze_and_lp_normalization(opset_version):
    def ops(fn, value):
        onnx_model = runtime.check_export(FunctionModel(fn), value,
                                          opset_version=opset_version)
        return [n.op_type for n in onnx_model.graph.node
                if n.op_type != 'Constant']

    column = x[:, :1]
    assert ops(lambda m, v: F.squeeze(v, 1), column) == ['Squeeze']
    assert ops(lambda m, v: F.expand_dims(v, 1), x) == ['Unsqueeze']
    assert ops(lambda m, v: F.reshape(v, (3, 2)), x) == ['Reshape']
    assert ops(lambda m, v: F.reshape(v, (-1, 3)), x[:, None]) == [
        'Squeeze']
    assert ops(lambda m, v: v[0], x) == ['Slice', 'Squeeze']
    assert ops(lambda m, v: v[:, None], x) == ['Unsqueeze']
    onnx_model = export(FunctionModel(lambda m, v: F.normalize(v)), x)
    assert [n.op_type for n in onnx_model.graph.node] == ['LpNormalization']
    y, = runtime.run(onnx_model, {'input_0': x})
    numpy.testing.assert_allclose(
        y, x / numpy.linalg.norm(x, axis=1, keepdims=True), rtol=1e-6)


def test_functions_replaced_during_an_export_are_restored():
    from kusari.autograd.functions.connection import n_step_lstm
    from kusari.onnx import mapping

    originals = F.sign, F.n_step_lstm, n_step_lstm.n_step_lstm
    with pytest.raises(AttributeError):
        export(FunctionModel(lambda m, v: F.sign(v) + m.missing), x)
    with mapping.patch_functions():
        assert F.sign is not originals[0]
        assert F.n_step_lstm is n_step_lstm.n_step_lstm
    onnx_model = runtime.check_export(
        FunctionModel(lambda m, v: F.sign(v) * v), x)
    assert 'Sign' in [n.op_type for n in onnx_model.graph.node]
    assert (F.sign, F.n_step_lstm, n_step_lstm.n_step_lstm) == originals


def test_layer_normalization_is_one_node_from_opset_17():
    model = FunctionModel(lambda m, v: F.layer_normalization(v, m.g, m.b),
                          {'g': numpy.ones(3, numpy.float32),
                           'b': numpy.zeros(3, numpy.float32)})
    for version, single in ((16, False), (17, True)):
        onnx_model = runtime.check_export(model, x, rtol=1e-5, atol=1e-6,
                                          opset_version=version)
        assert ([n.op_type for n in onnx_model.graph.node] == [
            'LayerNormalization']) == single


def test_group_normalization_is_onnxs_operator_from_opset_21():
    model = FunctionModel(
        lambda m, v: F.group_normalization(v, 2, m.g, m.b),
        {'g': numpy.arange(1, 5, dtype=numpy.float32),
         'b': numpy.ones(4, numpy.float32)})
    images = rng.standard_normal((2, 4, 3, 3)).astype(numpy.float32)
    for version, single in ((20, False), (21, True)):
        onnx_model = runtime.check_export(model, images, rtol=1e-5,
                                          atol=1e-6, opset_version=version)
        assert ('GroupNormalization' in [
            n.op_type for n in onnx_model.graph.node]) == single

"""onnx_chainer: ONNX-Chainer's module paths serve kusari.onnx."""
import importlib

import numpy
import pytest

pytest.importorskip('kusari.onnx')


def test_paths_are_the_kusari_modules():
    for name in ('context', 'export', 'functions', 'functions.activation',
                 'onnx_helper', 'replace_func', 'testing.input_generator'):
        assert importlib.import_module(f'onnx_chainer.{name}') is \
            importlib.import_module(f'kusari.onnx.{name}')


def test_export_is_the_function_after_importing_its_module():
    import onnx_chainer
    import onnx_chainer.export  # NOQA: F401
    from kusari.onnx.export import export
    assert onnx_chainer.export is export


def test_export_a_chainer_model():
    import chainer.links as L
    import onnx_chainer
    from onnx_chainer import onnx_helper
    model = L.Linear(3, 2)
    onnx_model = onnx_chainer.export(model, numpy.ones((1, 3), numpy.float32))
    assert [t.name for t in onnx_model.graph.initializer] == [
        onnx_helper.cleanse_param_name('/W'),
        onnx_helper.cleanse_param_name('/b')]


# The names of ONNX-Chainer 1.x's onnx_chainer (Chainer 7.8.1's) after
# import: its functions and constants, and the submodules loaded.
ONNX_CHAINER_NAMES = {
    'MAXIMUM_OPSET_VERSION', 'MINIMUM_OPSET_VERSION', 'context',
    'convert_parameter', 'export', 'export_testcase', 'functions', 'graph',
    'mapping', 'onnx_helper', 'replace_func', 'testing'}


def test_public_names_of_onnx_chainer():
    import onnx_chainer
    from kusari.onnx import export_testcase
    assert ONNX_CHAINER_NAMES <= set(dir(onnx_chainer))
    assert onnx_chainer.export_testcase is export_testcase
    assert (onnx_chainer.MINIMUM_OPSET_VERSION,
            onnx_chainer.MAXIMUM_OPSET_VERSION) == (7, 28)
    from onnx_chainer.export_testcase import export_testcase as function
    assert function is export_testcase
    assert callable(onnx_chainer.mapping.patch_functions)


def test_chainer_code_passing_opset_and_names_positionally(tmp_path):
    import chainer
    import chainer.functions as F
    import chainer.links as L
    import onnx_chainer

    class Net(chainer.Chain):

        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.fc = L.Linear(3, 2)

        def forward(self, x):
            return F.log(F.pad(F.sigmoid(self.fc(x)) / 3.0, 1, 'constant',
                               constant_values=1.0))

    x = numpy.ones((1, 3), numpy.float32)
    onnx_model = onnx_chainer.export(Net(), x, None, True, 'Graph', False,
                                     9, ['x'], ['y'])
    assert onnx_model.opset_import[0].version == 9
    assert [o.name for o in onnx_model.graph.output] == ['y']
    onnx_chainer.export_testcase(Net(), [x], str(tmp_path),
                                 input_shapes=[(None, 3)])
    assert (tmp_path / 'test_data_set_0' / 'input_0.pb').exists()

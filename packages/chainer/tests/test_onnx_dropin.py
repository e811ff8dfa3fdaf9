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

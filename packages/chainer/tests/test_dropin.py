"""``import chainer`` gives Kusari's objects under Chainer's names."""
import importlib
import io
import contextlib
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import chainer

ISSUE_NAMES = [
    'Variable', 'Parameter', 'FunctionNode', 'Function', 'FunctionAdapter',
    'functions', 'gradient_check', 'backend', 'backends', 'config',
    'global_config', 'using_config', 'no_backprop_mode',
    'force_backprop_mode', 'grad', 'backward', 'initializers',
    'utils', 'computational_graph', 'function_hooks', 'get_device',
    'using_device', 'get_dtype', 'mixed16', 'DeviceResident',
    'as_variable', 'as_array', 'datasets', 'dataset', 'iterators',
    'serializers', 'Serializer', 'Deserializer', 'AbstractSerializer',
]


@pytest.mark.parametrize('name', ISSUE_NAMES)
def test_name_exists(name):
    assert hasattr(chainer, name)


@pytest.mark.parametrize('chainer_path, kusari_path', [
    ('chainer.functions', 'kusari.autograd.functions'),
    ('chainer.functions.math.basic_math',
     'kusari.autograd.functions.math.basic_math'),
    ('chainer.backends.cuda', 'kusari.array.cuda'),
    ('chainer.utils.type_check', 'kusari.autograd.utils.type_check'),
    ('chainer.variable', 'kusari.autograd.variable'),
    ('chainer.testing.attr', 'kusari.autograd.testing.attr'),
    ('chainer.testing.distribution_test', 'kusari.distributions.testing'),
    ('chainer.dataset.convert', 'kusari.datasets.convert'),
    ('chainer.serializers', 'kusari.serializers'),
])
def test_module_paths_are_the_kusari_modules(chainer_path, kusari_path):
    assert importlib.import_module(chainer_path) is \
        importlib.import_module(kusari_path)


def test_importing_a_package_registers_the_submodules_it_imported():
    # As in Chainer, where a package's __init__ imports them: a fresh
    # interpreter, since this one may have imported them by name already.
    code = (
        'import sys, chainer.serializers\n'
        'import kusari.serializers.hdf5 as h\n'
        'assert sys.modules["chainer.serializers.hdf5"] is h\n'
        'assert "chainer.serializers.npz" in sys.modules\n'
        'assert "chainer.serializers._paths" not in sys.modules\n')
    subprocess.run([sys.executable, '-c', code], check=True)


def test_importing_an_aliased_module_keeps_the_name_it_shadows():
    # chainer.dataset.tabular.from_data is a module and, in the package,
    # the function of that name: importing the module must not rebind it.
    code = (
        'import chainer.dataset.tabular.from_data\n'
        'from chainer.dataset import tabular\n'
        'assert callable(tabular.from_data), tabular.from_data\n'
        'assert len(tabular.from_data([3, 4, 5])) == 3\n')
    subprocess.run([sys.executable, '-c', code], check=True)


def test_import_needs_no_test_tools():
    """``import chainer`` works where pytest is absent, as in Chainer;
    ``chainer.testing`` is imported on demand."""
    code = ('import sys, chainer; '
            'assert "pytest" not in sys.modules, "pytest imported"')
    subprocess.run([sys.executable, '-c', code], check=True)
    import chainer.testing
    assert chainer.testing.product({'a': [1]}) == [{'a': 1}]


def test_testing_binds_its_helper_submodules():
    import chainer.testing
    from kusari.serializers import testing as serializers_testing
    from kusari.training import testing as training_testing
    code = ('import chainer.testing as t; '
            't.training.get_trainer_with_mock_updater; '
            't.serializer.save_and_load_npz')
    subprocess.run([sys.executable, '-c', code], check=True)
    assert chainer.testing.training is training_testing
    assert chainer.testing.serializer is serializers_testing


def test_classes_are_shared():
    from kusari.autograd import Variable
    assert chainer.Variable is Variable
    assert chainer.functions.exp(np.zeros(1, np.float32)).__class__ \
        is Variable


def test_from_imports_of_chainer_private_and_util_modules():
    """Code written for Chainer imports these names from their packages."""
    from chainer.backends import _cpu
    from chainer.training import util
    assert _cpu.CpuDevice() == chainer.get_device('@numpy')
    assert isinstance(_cpu._to_cpu(np.float32(2)), np.ndarray)
    assert util.get_trigger((3, 'epoch')).period == 3
    from chainer import testing
    assert testing.training.get_trainer_with_mock_updater is \
        testing.get_trainer_with_mock_updater


def test_dead_backends_answer_false():
    from chainer.backends import intel64
    assert intel64.is_ideep_available() is False


def test_array_types_and_size_of_shape():
    """chainer.get_array_types() holds NumPy's array type (CuPy's too
    where a GPU is seen); chainer.utils.size_of_shape counts elements."""
    types = chainer.get_array_types()
    assert isinstance(types, tuple) and np.ndarray in types
    assert isinstance(np.zeros(2), types)
    assert chainer.utils.size_of_shape((2, 3, 4)) == 24
    assert chainer.utils.size_of_shape(()) == 1
    assert chainer.utils.size_of_shape((3, 0)) == 0
    assert type(chainer.utils.size_of_shape((np.int64(2),))) is int


def test_debug_switch():
    assert chainer.is_debug() is False
    chainer.set_debug(True)
    try:
        assert chainer.is_debug() and chainer.config.debug
    finally:
        chainer.set_debug(False)


def test_walkthrough_prints_the_documented_values():
    demo = Path(__file__).parents[3] / 'demo' / 'walkthrough.py'
    if not demo.exists():
        pytest.skip('demo/ is not beside this package (installed alone)')
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(demo), run_name='__main__')
    text = out.getvalue()
    assert 'array([16.], dtype=float32)' in text
    assert 'array([8.], dtype=float32)' in text
    assert 'array([-1.], dtype=float32)' in text
    assert ('array([[ 0.,  2.,  4.],\n'
            '       [ 6.,  8., 10.]], dtype=float32)') in text
    assert ('variable([[  0.,  12.,  27.],\n'
            '          [ 48.,  75., 108.]])') in text
    assert ('array([[ 0., 12., 18.],\n'
            '       [24., 30., 36.]], dtype=float32)') in text

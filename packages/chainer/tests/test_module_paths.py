"""Every public module path of Chainer 7.8.1 imports through the drop-in,
or has a written reason here for why not; and the stand-ins of the dead
backends answer as Chainer does where those backends are missing."""
import importlib
import warnings
from pathlib import Path

import numpy
import pytest

import chainer

PATHS = Path(__file__).with_name('chainer_module_paths.txt')

# Module paths (and their submodules) deliberately absent, with the reason.
ABSENT = {
    'chainer.functions.theano': 'Theano is discontinued',
    'chainer.links.theano': 'Theano is discontinued',
    'chainer.iterators.dali_iterator':
        'NVIDIA DALI pipelines are out of scope for a NumPy/CuPy framework',
    'chainer.functions.pooling.average_pooling_nd_kernel':
        "CUDA kernel source generator of Chainer's own N-d pooling",
    'chainer.functions.pooling.max_pooling_nd_kernel':
        "CUDA kernel source generator of Chainer's own N-d pooling",
    'chainer.functions.pooling.pooling_nd_kernel':
        "CUDA kernel source generator of Chainer's own N-d pooling",
    'chainer.utils.conv_nd_kernel':
        "CUDA kernel source generator of Chainer's own N-d convolution",
    'chainer.functions.pooling.pooling_2d':
        "base class of Chainer's own 2-D pooling nodes; Kusari's 2-D "
        'pooling is its N-d pooling (chainer.functions.pooling.pooling_nd)',
    'chainer.testing.doctest_helper':
        "skip decorators of Chainer's own documentation build",
    'chainer.training.extensions.util':
        "terminal drawing of Chainer's ProgressBar, not a public API",
    'chainer.types': "typing aliases of Chainer's own annotations",
    'chainer.utils.cache':
        "cached_property of Chainer's own classes; user code has "
        'functools.cached_property',
    'chainer.utils.error': 'holds no public name',
    'chainer.utils.imgproc':
        "crop helper internal to Chainer's vision model links",
    'chainer.utils.meta': "final-class decorator of Chainer's own classes",
    'chainer.utils.nondeterministic':
        "cuDNN nondeterminism warning internal to Chainer's GPU kernels",
}


def _module_paths():
    lines = PATHS.read_text().splitlines()
    return [line for line in lines if line and not line.startswith('#')]


def _covering(reasons, path):
    """The entry of ``reasons`` that is ``path`` or a package above it."""
    for prefix in reasons:
        if path == prefix or path.startswith(prefix + '.'):
            return prefix
    return None


def _imports(path):
    try:
        importlib.import_module(path)
    except ImportError:
        return False
    return True


def test_every_module_path_imports_or_has_a_reason():
    missing = [path for path in _module_paths()
               if _covering(ABSENT, path) is None
               and not _imports(path)]
    assert not missing, f'missing without a reason: {missing}'


def test_reasons_are_not_stale():
    """An absent path with a reason is a path of Chainer's, and really
    absent."""
    paths = _module_paths()
    assert set(ABSENT) <= set(paths)
    present = [path for path in ABSENT if _imports(path)]
    assert not present


@pytest.mark.parametrize('chainer_path, kusari_path', [
    ('chainer.functions.rnn.lstm',
     'kusari.autograd.functions.activation.lstm'),
    ('chainer.functions.rnn.n_step_lstm',
     'kusari.autograd.functions.connection.n_step_lstm'),
    ('chainer.links.connection.inceptionbn',
     'kusari.links.layers.connection.inception_bn'),
    ('chainer.training.extensions.exponential_shift',
     'kusari.training.extensions.shifts'),
    ('chainer.cuda', 'kusari.array.cuda'),
])
def test_moved_modules_are_the_kusari_modules(chainer_path, kusari_path):
    assert importlib.import_module(chainer_path) is \
        importlib.import_module(kusari_path)


def test_moved_modules_hold_their_chainer_names():
    from chainer.functions.rnn import n_step_gru
    from chainer.training.extensions import step_shift
    import chainer.functions as F
    import chainer.training.extensions as E
    assert n_step_gru.n_step_bigru is F.n_step_bigru
    assert step_shift.StepShift is E.StepShift
    assert chainer.functions.rnn.n_step_gru is n_step_gru


def test_chainerx_is_absent_but_probeable():
    import chainerx
    assert chainerx.is_available() is False
    assert not isinstance(numpy.zeros(1), chainerx.ndarray)
    assert not isinstance(chainer.Variable(numpy.zeros(1)).array,
                          chainerx.ndarray)
    with pytest.raises(RuntimeError, match='ChainerX'):
        chainerx.ndarray((2,))


def test_ideep_is_absent_but_probeable():
    from chainer.backends import intel64
    assert intel64.is_ideep_available() is False
    assert intel64.should_use_ideep('>=auto') is False
    assert intel64.inputs_all_ready((numpy.zeros((2, 2)),)) is False
    assert not isinstance(numpy.zeros(1), intel64.mdarray)
    assert intel64.Intel64Device is chainer.backend.Intel64Device
    with pytest.raises(RuntimeError, match='iDeep'):
        intel64.check_ideep_available()


def test_argument_parsing():
    from chainer.utils import argument

    def function(**kwargs):
        return argument.parse_kwargs(
            kwargs, ('train', True), ('ratio', .5),
            volatile='volatile is removed: use no_backprop_mode')

    assert function() == (True, .5)
    assert function(ratio=.1) == (True, .1)
    with pytest.raises(ValueError, match='no_backprop_mode'):
        function(volatile=True)
    with pytest.raises(TypeError, match=r"function\(\) .* 'x', 'y'"):
        function(y=1, x=2)
    argument.assert_kwargs_empty({})
    with pytest.raises(TypeError, match=r"test_argument_parsing\(\) .*'z'"):
        argument.assert_kwargs_empty({'z': 1})


def test_memory_layout_names_and_the_standard_layout():
    from chainer import memory_layouts
    # None is the standard layout, the only one Kusari computes in.
    assert memory_layouts.CUDNN_CHANNEL_FIRST_X is None
    assert memory_layouts.CUDNN_CHANNEL_FIRST_W is None
    assert memory_layouts.CUDNN_CHANNEL_LAST_X != \
        memory_layouts.CUDNN_CHANNEL_LAST_W
    with pytest.raises(TypeError):
        chainer.Variable(numpy.zeros((1, 2, 2, 3), numpy.float32),
                         layout=memory_layouts.CUDNN_CHANNEL_LAST_X)


def test_performance_warning_is_a_runtime_warning():
    assert issubclass(chainer.warnings.PerformanceWarning, RuntimeWarning)


def test_experimental_warns_unless_disabled(monkeypatch):
    module = importlib.import_module('chainer.utils.experimental')
    assert module.experimental is chainer.utils.experimental
    # Chainer's switch exists, off by default (Chainer's tests save and
    # restore it).
    assert chainer.disable_experimental_feature_warning is False
    with pytest.warns(FutureWarning, match='my_api is experimental'):
        chainer.utils.experimental('my_api')
    monkeypatch.setattr(chainer, 'disable_experimental_feature_warning',
                        True)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        chainer.utils.experimental('my_api')


@pytest.mark.parametrize('name', [
    'chainerx', 'device_resident', 'distribution', 'distributions',
    'function', 'function_hook', 'function_node', 'initializer', 'link',
    'link_hook', 'sequential', 'serializer'])
def test_import_chainer_binds_the_submodules_chainer_binds(name):
    # Code written for Chainer reaches them as attributes after a bare
    # ``import chainer`` (chainer.distributions.Normal, say).
    assert getattr(chainer, name) is importlib.import_module(
        'chainerx' if name == 'chainerx' else f'chainer.{name}')


def test_rnn_functions_are_attributes_after_import_chainer():
    from kusari.autograd.functions.connection import n_step_lstm
    assert chainer.functions.rnn.n_step_lstm is n_step_lstm

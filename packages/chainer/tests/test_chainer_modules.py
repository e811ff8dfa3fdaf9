"""Modules of the ``chainer`` package itself: ``_backprop_utils`` (served
by kusari.autograd.backprop_step), ``utils.experimental`` and
``_runtime_info``."""
import numpy as np

import chainer
from chainer import _backprop_utils


def test_backprop_utils_is_the_engines_backprop_step():
    from kusari.autograd import backprop_step
    assert _backprop_utils is backprop_step
    assert _backprop_utils.backprop_step is backprop_step.backprop_step


def test_experimental_warning_can_be_disabled():
    import warnings
    from chainer import utils
    original = chainer.disable_experimental_feature_warning
    try:
        for disabled, count in ((False, 1), (True, 0)):
            chainer.disable_experimental_feature_warning = disabled
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter('always')
                utils.experimental('f')
            assert len(caught) == count
    finally:
        chainer.disable_experimental_feature_warning = original


def test_runtime_info():
    import io
    from chainer import _runtime_info
    out = io.StringIO()
    chainer.print_runtime_info(out)
    assert out.getvalue() == str(_runtime_info._get_runtime_info())
    assert 'Chainer: 7.8.1' in out.getvalue()


def test_runtime_info_says_why_cuda_is_unavailable(monkeypatch):
    from chainer import _runtime_info
    from kusari.array import lazy_cupy
    monkeypatch.setattr(lazy_cupy, '_state', {
        'cupy': None,
        'error': 'CuPy is installed but CUDA is unusable (no driver)'})
    assert ('CuPy: Not Available: CuPy is installed but CUDA is unusable '
            '(no driver)\n') in str(_runtime_info._get_runtime_info())


def test_array_types_size_of_shape_and_tempdir():
    import os
    assert isinstance(np.zeros(2), chainer.get_array_types())
    assert chainer.utils.size_of_shape((2, 3)) == 6
    assert chainer.utils.size_of_shape(()) == 1
    assert type(chainer.utils.size_of_shape((np.int64(2),))) is int
    with chainer.utils.tempdir(prefix='kusari') as path:
        assert os.path.basename(path).startswith('kusari')
        open(os.path.join(path, 'file'), 'w').close()
    assert not os.path.exists(path)

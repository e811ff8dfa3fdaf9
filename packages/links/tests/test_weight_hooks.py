"""SpectralNormalization and WeightStandardization on a small Linear."""
import numpy
import pytest

from kusari.array import configuration
from kusari.autograd import gradient_check
from kusari.links.link_hooks import (SpectralNormalization,
                                     WeightStandardization)
from kusari.links import layers as L
from links_fakes import Linear


def test_spectral_normalization_divides_by_the_top_singular_value():
    link = Linear(4, 3)
    original = link.W
    hook = SpectralNormalization(n_power_iteration=50)
    link.add_hook(hook)
    assert hook.vector_name in link._persistent
    x = numpy.random.randn(2, 4).astype(numpy.float32)
    y = link(x)
    sigma = numpy.linalg.svd(original.array, compute_uv=False)[0]
    expected = x.dot((original.array / sigma).T) + link.b.array
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)
    assert link.W is original
    link.delete_hook(hook.name)
    assert hook.vector_name not in link.__dict__


def test_spectral_normalization_updates_u_only_in_training():
    link = Linear(4, 3)
    hook = SpectralNormalization()
    link.add_hook(hook)
    u = getattr(link, hook.vector_name).copy()
    with configuration.using_config('train', False):
        link(numpy.ones((1, 4), numpy.float32))
    numpy.testing.assert_array_equal(getattr(link, hook.vector_name), u)
    link(numpy.ones((1, 4), numpy.float32))
    assert not numpy.array_equal(getattr(link, hook.vector_name), u)


def test_spectral_normalization_gamma_and_gradients():
    link = Linear(3, 2)
    link.add_hook(SpectralNormalization(use_gamma=True))
    gamma = dict(link.namedparams())['/gamma']
    sigma = numpy.linalg.svd(link.W.array, compute_uv=False)[0]
    numpy.testing.assert_allclose(gamma.array.ravel(), [sigma], rtol=1e-6)
    # The power-iteration vectors are constants of the backward (as in
    # Chainer), so W's gradient is not the full derivative: check the
    # others.
    x = numpy.random.randn(2, 3)
    with configuration.using_config('train', False):
        gradient_check.check_backward(
            link, x.astype(numpy.float32),
            numpy.random.randn(2, 2).astype(numpy.float32),
            params=(gamma, link.b), dtype=numpy.float64, atol=1e-3,
            rtol=1e-3)


def test_weight_hooks_need_a_link_and_its_weight():
    with pytest.raises(NotImplementedError, match='link.add_hook'):
        with SpectralNormalization():
            pass
    # Chainer's WeightStandardization raises NotImplementedError there.
    with pytest.raises(NotImplementedError, match='link.add_hook'):
        with WeightStandardization():
            pass
    with pytest.raises(ValueError, match="no parameter 'V'"):
        Linear(2, 2).add_hook(WeightStandardization(weight_name='V'))
    lazy = Linear(None, 2)
    lazy.add_hook(WeightStandardization())
    with pytest.raises(RuntimeError, match='not initialized'):
        lazy(numpy.ones((1, 2), numpy.float32))


def test_weight_standardization():
    link = Linear(5, 3)
    original = link.W.array
    link.add_hook(WeightStandardization(eps=0))
    x = numpy.random.randn(2, 5).astype(numpy.float32)
    standardized = (original - original.mean(1, keepdims=True)) / \
        original.std(1, keepdims=True)
    numpy.testing.assert_allclose(
        link(x).array, x.dot(standardized.T) + link.b.array,
        rtol=1e-4, atol=1e-5)


def test_spectral_normalization_names_as_chainer():
    # Chainer's names: the hook's (what delete_hook takes), the vector's
    # (<weight>_u) and gamma's, saved in snapshots under these keys.
    link = Linear(4, 3)
    numpy.random.seed(2)
    hook = SpectralNormalization(use_gamma=True)
    link.add_hook(hook)
    assert hook.name == 'SpectralNormalization'
    assert set(link._persistent) == {'W_u'}
    assert sorted(dict(link.namedparams())) == ['/W', '/b', '/gamma']
    assert link.gamma.shape == ()
    # u is kept as drawn; the power iteration normalizes it.
    numpy.random.seed(2)
    numpy.testing.assert_array_equal(
        link.W_u, numpy.random.normal(size=3).astype(numpy.float32))
    link.delete_hook('SpectralNormalization')
    assert not hasattr(link, 'W_u') and not hasattr(link, 'gamma')
    assert WeightStandardization().name == 'WeightStandardization'
    assert SpectralNormalization(name='sn').name == 'sn'


@pytest.mark.parametrize('link, x', [
    (L.Linear(None, 3), numpy.ones((2, 5), numpy.float32)),
    (L.Convolution2D(None, 3, 2), numpy.ones((2, 4, 3, 3), numpy.float32)),
])
@pytest.mark.parametrize('hook', [SpectralNormalization,
                                  WeightStandardization])
def test_weight_hooks_shape_a_lazy_weight_from_the_input(link, x, hook):
    link = link.copy(mode='copy')
    link.add_hook(hook())
    y = link(x)
    assert link.W.shape[1] == x.shape[1]
    assert y.shape[:2] == (2, 3)


def test_spectral_normalization_needs_rows():
    link = Linear(3, 0)
    with pytest.raises(ValueError, match=r'W.shape\[0\].*must be positive'):
        link.add_hook(SpectralNormalization())


@pytest.mark.parametrize('make', [
    lambda: L.Convolution2D(None, 2, 3),
    lambda: L.DepthwiseConvolution2D(None, 2, 3),
    lambda: L.LocalConvolution2D(None, 2, ksize=3),
])
def test_weight_hooks_shape_a_lazy_convolution_from_its_input(make):
    link = make()
    link.add_hook(SpectralNormalization())
    y = link(numpy.ones((1, 3, 5, 5), numpy.float32))
    assert link.W.array is not None and link.W.shape[-2:] == (3, 3)
    assert y.shape[0] == 1 and y.shape[2:] == (3, 3)

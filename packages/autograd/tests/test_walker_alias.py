import numpy
import pytest
from hypothesis import given, settings, strategies as st

from kusari.autograd.utils.walker_alias import WalkerAlias


@pytest.mark.parametrize('probs,threshold,values', [
    # Chainer 7.8.1's tables for the same weights.
    ([0.1, 0.2, 0.3, 0.4], [0.4, 0.8, 0.6, 1.0], [0, 2, 1, 3, 2, 3, 3, 0]),
    ([1, 1, 1], [1, 1, 1], [0, 1, 1, 2, 2, 0]),
    ([1, 1], [1, 1], [0, 0, 1, 0]),
    ([5, 0, 2], [0.0, 0.85714293, 1.0000001], [1, 0, 2, 0, 0, 0]),
])
def test_table_as_chainer(probs, threshold, values):
    sampler = WalkerAlias(probs)
    assert sampler.threshold.dtype == numpy.float32
    numpy.testing.assert_allclose(sampler.threshold, threshold, rtol=1e-6)
    assert sampler.values.dtype == numpy.int32
    numpy.testing.assert_array_equal(sampler.values, values)


def test_seeded_samples_as_chainer():
    numpy.random.seed(0)
    sampler = WalkerAlias([1, 2, 3])
    first = sampler.sample((5,))
    assert first.dtype == numpy.int32
    numpy.testing.assert_array_equal(first, [2, 2, 2, 2, 1])
    numpy.testing.assert_array_equal(sampler.sample(3), [2, 1, 2])
    assert sampler.sample(()).shape == ()


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(0, 10), min_size=1, max_size=12).filter(
    lambda w: sum(w) > 1e-3))
def test_table_holds_the_distribution(weights):
    # Column k is picked with 1/n; it keeps values[2k] with its threshold.
    sampler = WalkerAlias(weights)
    n = len(weights)
    keep = numpy.clip(sampler.threshold.astype(numpy.float64), 0, 1)
    total = numpy.zeros(n)
    numpy.add.at(total, sampler.values[0::2], keep / n)
    numpy.add.at(total, sampler.values[1::2], (1 - keep) / n)
    expected = numpy.asarray(weights, numpy.float32)
    expected = expected / expected.sum()
    numpy.testing.assert_allclose(total, expected, atol=1e-5)


@pytest.mark.parametrize('probs', [[], [1, -1], [0, 0], [[1, 2]],
                                   [1, float('nan')]])
def test_bad_probs(probs):
    with pytest.raises(ValueError, match='WalkerAlias: probs'):
        WalkerAlias(probs)

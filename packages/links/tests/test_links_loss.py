"""Loss layers: hierarchical softmax (a distribution over the tree's
words, gradients), BlackOut and NegativeSampling against NumPy with fixed
samples, the Walker alias sampler, CRF1d on sequences."""
import itertools

import numpy
import pytest

from kusari.autograd import gradient_check
from kusari.autograd.graph_optimizations.static_graph import static_graph
from kusari.autograd.utils.walker_alias import WalkerAlias
from kusari.links import layers as L

import connection_reference as ref


def _hsm(link, x, t):
    return float(link(x[None], numpy.array([t], numpy.int32)).array)


def test_hierarchical_softmax_is_a_distribution():
    counts = {0: 5, 1: 1, 2: 3, 3: 2, 4: 7}
    tree = L.BinaryHierarchicalSoftmax.create_huffman_tree(counts)
    link = L.BinaryHierarchicalSoftmax(3, tree, dtype=numpy.float64)
    assert link.W.shape == (4, 3)
    x = numpy.random.randn(3)
    total = sum(numpy.exp(-_hsm(link, x, word)) for word in counts)
    assert total == pytest.approx(1.0)
    xs = numpy.random.randn(5, 3)
    ts = numpy.arange(5, dtype=numpy.int32)
    assert float(link(xs, ts).array) == pytest.approx(
        sum(_hsm(link, x_, t) for x_, t in zip(xs, ts)))
    gradient_check.check_backward(lambda x_: link.forward(x_, ts),
                                  (xs,), None, params=(link.W,), atol=1e-4)


def test_hierarchical_softmax_bad_input():
    link = L.BinaryHierarchicalSoftmax(2, ((0, 1), 3))
    with pytest.raises(ValueError, match='not leaves'):
        link(ref.uniform(1, 2), numpy.array([2], numpy.int32))
    with pytest.raises(ValueError, match='two children'):
        L.BinaryHierarchicalSoftmax(2, (0, 1, 2))
    tree = L.BinaryHierarchicalSoftmax.create_huffman_tree({'a': 1, 'b': 2})
    assert sorted(tree) == ['a', 'b']


def test_walker_alias_frequencies():
    numpy.random.seed(0)
    probs = numpy.array([0.1, 0.0, 0.6, 0.3])
    samples = WalkerAlias(probs * 7).sample((200000,))
    assert samples.dtype == numpy.int32
    frequencies = numpy.bincount(samples, minlength=4) / samples.size
    numpy.testing.assert_allclose(frequencies, probs, atol=5e-3)
    with pytest.raises(ValueError, match='non-negative'):
        WalkerAlias([1, -1])


def _log_sigmoid(x):
    return -numpy.logaddexp(0, -x)


def test_negative_sampling_against_numpy():
    link = L.NegativeSampling(3, [1, 2, 3, 4, 5], 2, dtype=numpy.float64)
    assert (link.W.array == 0).all()
    link.W.array[...] = numpy.random.randn(5, 3)
    x = numpy.random.randn(4, 3)
    t = numpy.array([0, 4, -1, 2], numpy.int32)
    loss, samples = link(x, t, reduce='no', return_samples=True)
    expected = []
    for row, words in zip(x, samples):
        scores = link.W.array[words] @ row
        expected.append(-_log_sigmoid(scores[0]) -
                        _log_sigmoid(-scores[1:]).sum())
    expected[2] = 0
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-10)
    numpy.testing.assert_array_equal(samples[:, 0], t)


def test_black_out_against_numpy():
    link = L.BlackOut(3, [4, 3, 2, 1], 2)
    W = link.W.array.astype(numpy.float64)
    x = ref.uniform(3, 3)
    t = numpy.array([0, 1, 3], numpy.int32)
    link.sample_data = numpy.array([[1, 2], [0, 3], [2, 2]], numpy.int32)
    loss = float(link(x, t).array)
    expected = 0
    for row, word, negatives in zip(x, t, link.sample_data):
        scores = W[numpy.concatenate([[word], negatives])] @ row
        log_z = numpy.log(numpy.exp(scores).sum())
        expected += -(scores[0] - log_z) - numpy.log1p(
            -numpy.exp(scores[1:] - log_z)).sum()
    assert loss == pytest.approx(expected / 3, rel=1e-5)
    link.sample_data = None
    assert numpy.isfinite(link(x, t).array)


class _StaticBlackOut(L.BlackOut):
    """The link with its forward marked static."""

    forward = static_graph(L.BlackOut.forward)


def test_black_out_draws_anew_on_replays():
    link = _StaticBlackOut(3, [4, 3, 2, 1, 5], 2)
    rng = numpy.random.RandomState(0)
    for seed in range(5):
        x = ref.uniform(3, 3)
        t = rng.randint(0, 5, 3).astype(numpy.int32)
        numpy.random.seed(seed)
        replayed = float(link(x, t).array)
        numpy.random.seed(seed)
        assert replayed == float(L.BlackOut.forward(link, x, t).array)


def _crf_nll(cost, x, y):
    """-log p(y | x) by enumerating every path of one sequence."""
    def score(path):
        return sum(x[i, p] for i, p in enumerate(path)) + sum(
            cost[a, b] for a, b in zip(path, path[1:]))
    paths = itertools.product(range(cost.shape[0]), repeat=len(x))
    log_z = numpy.logaddexp.reduce([score(p) for p in paths])
    return log_z - score(list(y))


def test_crf1d_on_sequences():
    link = L.CRF1d(3, initial_cost=numpy.random.randn(3, 3))
    xs = [numpy.random.randn(n, 3).astype(numpy.float32) for n in (2, 4, 3)]
    ys = [numpy.random.randint(0, 3, n).astype(numpy.int32)
          for n in (2, 4, 3)]
    cost = link.cost.array.astype(numpy.float64)
    expected = [_crf_nll(cost, x, y) for x, y in zip(xs, ys)]
    loss = link(xs, ys, reduce='no', transpose=True)
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-5)
    mean = link(xs, ys, transpose=True)
    assert float(mean.array) == pytest.approx(numpy.mean(expected),
                                              rel=1e-5)
    scores, paths = link.argmax(xs, transpose=True)
    for x, path, best in zip(xs, paths, scores.array):
        assert len(path) == len(x)
        assert _crf_nll(cost, x, path) == pytest.approx(
            min(_crf_nll(cost, x, p) for p in
                itertools.product(range(3), repeat=len(x))), rel=1e-5)

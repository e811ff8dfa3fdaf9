"""softmax_cross_entropy and sigmoid_cross_entropy beyond the conformance
records: every option combination against plain NumPy, stability, errors.
"""
import itertools

import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd import gradient_check
from kusari.autograd.utils import type_check

from static_replays import check_replays


X_SIGMOID = numpy.random.RandomState(3).uniform(-2, 2, (3, 4)).astype(
    numpy.float32)


def _log_softmax(x):
    shifted = x - x.max(axis=1, keepdims=True)
    return shifted - numpy.log(numpy.exp(shifted).sum(axis=1, keepdims=True))


def _softmax_ce(x, t, normalize, class_weight, ignore_label, reduce):
    """Plain loops over the positions of t, in float64."""
    x = x.astype(numpy.float64)
    log_y = _log_softmax(x)
    loss = numpy.zeros(t.shape)
    for index in numpy.ndindex(*t.shape):
        label = t[index]
        if label == ignore_label:
            continue
        position = (index[0], label) + index[1:]
        weight = 1.0 if class_weight is None else class_weight[label]
        loss[index] = -weight * log_y[position]
    if reduce == 'no':
        return loss
    count = (t != ignore_label).sum() if normalize else t.shape[0]
    return loss.sum() / max(count, 1)


@pytest.mark.parametrize('shape', [(5, 4), (3, 4, 2), (2, 3, 2, 2)])
@pytest.mark.parametrize(
    'normalize,cache_score,weighted,ignore_label,reduce',
    list(itertools.product([True, False], [True, False], [False, True],
                           [-1, 2], ['mean', 'no'])))
def test_softmax_cross_entropy_matches_numpy(
        shape, normalize, cache_score, weighted, ignore_label, reduce):
    rng = numpy.random.RandomState(len(shape))
    x = rng.uniform(-3, 3, shape).astype(numpy.float32)
    t_shape = (shape[0],) + shape[2:]
    t = rng.randint(-1, shape[1], t_shape).astype(numpy.int32)
    if ignore_label != -1:
        t[t == -1] = 0
    class_weight = (rng.uniform(0.5, 2, shape[1]).astype(numpy.float32)
                    if weighted else None)
    y = F.softmax_cross_entropy(
        x, t, normalize=normalize, cache_score=cache_score,
        class_weight=class_weight, ignore_label=ignore_label, reduce=reduce)
    expected = _softmax_ce(x, t, normalize, class_weight, ignore_label,
                           reduce)
    assert y.dtype == numpy.float32 and y.shape == numpy.shape(expected)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('cache_score', [True, False])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_softmax_cross_entropy_gradients_twice(cache_score, reduce):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (3, 4, 2))
    t = numpy.array([[0, -1], [3, 1], [2, 2]], numpy.int32)
    w = rng.uniform(0.5, 2, 4)
    out_shape = () if reduce == 'mean' else t.shape

    def f(x):
        return F.softmax_cross_entropy(x, t, class_weight=w, reduce=reduce,
                                       cache_score=cache_score,
                                       enable_double_backprop=True)
    gy = rng.uniform(-1, 1, out_shape)
    gradient_check.check_backward(f, x, gy, atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(
        f, x, gy, rng.uniform(-1, 1, x.shape), atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize('soft_target_loss', ['cross-entropy',
                                              'kl-divergence'])
def test_soft_targets(soft_target_loss):
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-2, 2, (3, 4, 2)).astype(numpy.float32)
    t = rng.dirichlet(numpy.ones(4), (3, 2)).transpose(0, 2, 1).astype(
        numpy.float32)
    log_y = _log_softmax(x.astype(numpy.float64))
    loss = -(t * log_y).sum(axis=1)
    if soft_target_loss == 'kl-divergence':
        loss += (t * numpy.log(t)).sum(axis=1)
    y = F.softmax_cross_entropy(x, t, soft_target_loss=soft_target_loss,
                                reduce='no')
    numpy.testing.assert_allclose(y.array, loss, rtol=1e-5)
    y = F.softmax_cross_entropy(x, t, soft_target_loss=soft_target_loss)
    numpy.testing.assert_allclose(y.array, loss.mean(), rtol=1e-5)


def test_kl_divergence_replays_each_calls_target_entropy():
    rng = numpy.random.RandomState(2)
    x = rng.uniform(-2, 2, (3, 3, 4)).astype(numpy.float32)
    t = rng.dirichlet(numpy.ones(4), (3, 3)).astype(numpy.float32)
    t[:, 0, 1] = 0  # 0 log 0 is 0
    check_replays(lambda x, t: F.softmax_cross_entropy(
        x, t, soft_target_loss='kl-divergence'), list(zip(x, t)))


def test_softmax_cross_entropy_stable_at_large_inputs():
    x = numpy.array([[1e4, 0, -1e4], [-1e4, -1e4, -1e4]], numpy.float32)
    t = numpy.array([1, 2], numpy.int32)
    xv = Variable(x)
    with numpy.errstate(over='raise', invalid='raise', divide='raise'):
        y = F.softmax_cross_entropy(xv, t, reduce='no')
        F.sum(y).backward()
    numpy.testing.assert_allclose(y.array, [1e4, numpy.log(3)], rtol=1e-6)
    numpy.testing.assert_allclose(
        xv.grad, [[1, -1, 0], [1 / 3, 1 / 3, -2 / 3]], rtol=1e-6, atol=1e-7)


def test_softmax_cross_entropy_float16_keeps_dtype():
    x = numpy.random.RandomState(0).uniform(-2, 2, (64, 10))
    t = numpy.arange(64, dtype=numpy.int32) % 10
    xv = Variable(x.astype(numpy.float16))
    y = F.softmax_cross_entropy(xv, t)
    y.backward()
    assert y.dtype == numpy.float16 and xv.grad.dtype == numpy.float16
    numpy.testing.assert_allclose(
        y.array, _softmax_ce(x, t, True, None, -1, 'mean'), rtol=2e-3)


def test_softmax_cross_entropy_all_ignored_is_zero():
    x = numpy.ones((2, 3), numpy.float32)
    t = numpy.full(2, -1, numpy.int32)
    assert float(F.softmax_cross_entropy(x, t).array) == 0


def test_softmax_cross_entropy_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r'softmax_cross_entropy: labels in '
                       r't must be in \[0, 3\) or equal ignore_label=-1; '
                       r'got 3'):
        F.softmax_cross_entropy(x, numpy.array([0, 3], numpy.int32))
    with pytest.raises(ValueError, match='got -2'):
        F.softmax_cross_entropy(x, numpy.array([-2, 0], numpy.int32))
    with pytest.raises(type_check.InvalidType, match='softmax_cross_entropy'):
        F.softmax_cross_entropy(x, numpy.zeros(3, numpy.int32))
    with pytest.raises(type_check.InvalidType, match='x.shape'):
        F.softmax_cross_entropy(x, numpy.zeros(3, numpy.int32))
    with pytest.raises(type_check.InvalidType):
        F.softmax_cross_entropy(x, numpy.zeros(2, numpy.int32),
                                class_weight=numpy.ones(4, numpy.float32))
    with pytest.raises(ValueError, match="softmax_cross_entropy: reduce"):
        F.softmax_cross_entropy(x, numpy.zeros(2, numpy.int32), reduce='sum')
    with pytest.raises(ValueError, match='soft_target_loss'):
        F.softmax_cross_entropy(x, x, soft_target_loss='l2')
    for class_weight in (numpy.ones(3, numpy.int32), numpy.ones(3, bool),
                         numpy.array(1.0, numpy.float32),
                         numpy.ones((1, 3), numpy.float32)):
        with pytest.raises(TypeError, match='1-D float array'):
            F.softmax_cross_entropy(x, numpy.zeros(2, numpy.int32),
                                    class_weight=class_weight)


@pytest.mark.parametrize('x_shape, t, match', [
    # Labels of another kind than int (bool and complex ones are neither
    # labels nor soft targets).
    ((2, 3), numpy.zeros(2, bool), r't\.dtype\.kind == i'),
    ((2, 3), numpy.zeros((2, 3), numpy.complex64), r't\.dtype\.kind == i'),
    # x of one axis more than t, named before the shapes.
    ((2, 3, 4), numpy.zeros(2, numpy.int32), r'x\.ndim == t\.ndim \+ 1'),
])
def test_softmax_cross_entropy_refuses(x_shape, t, match):
    with pytest.raises(type_check.InvalidType, match=match):
        F.softmax_cross_entropy(numpy.zeros(x_shape, numpy.float32), t)


def test_softmax_cross_entropy_float16_sums_more_than_float16_holds():
    # exp(0) summed over 70,000 classes passes float16's largest, 65,504.
    x = numpy.zeros((1, 70000), numpy.float16)
    y = F.softmax_cross_entropy(x, numpy.zeros(1, numpy.int32))
    numpy.testing.assert_allclose(y.array, numpy.log(70000), rtol=1e-3)


def test_softmax_cross_entropy_normalizes_by_default():
    # The mean over the labels not ignored (3 here), not over the batch.
    x = numpy.random.RandomState(4).uniform(-2, 2, (4, 3))
    t = numpy.array([0, -1, 2, 1], numpy.int32)
    numpy.testing.assert_allclose(
        F.softmax_cross_entropy(x, t).array,
        _softmax_ce(x, t, True, None, -1, 'mean'), rtol=1e-12)


def _sigmoid_ce(x, t, normalize, reduce):
    x = x.astype(numpy.float64)
    kept = t != -1
    loss = numpy.logaddexp(0, x) - x * t
    loss[~kept] = 0
    if reduce == 'no':
        return loss
    return loss.sum() / max(kept.sum() if normalize else len(x), 1)


@pytest.mark.parametrize('normalize', [True, False])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_sigmoid_cross_entropy_matches_numpy(normalize, reduce):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-5, 5, (4, 3)).astype(numpy.float32)
    t = rng.randint(-1, 2, (4, 3)).astype(numpy.int32)
    y = F.sigmoid_cross_entropy(x, t, normalize=normalize, reduce=reduce)
    numpy.testing.assert_allclose(y.array, _sigmoid_ce(x, t, normalize,
                                                       reduce), rtol=1e-5)


def test_sigmoid_cross_entropy_stable_and_errors():
    x = numpy.array([[1e4, -1e4, 0]], numpy.float32)
    t = numpy.array([[0, 1, 1]], numpy.int32)
    with numpy.errstate(over='raise', invalid='raise'):
        y = F.sigmoid_cross_entropy(x, t, reduce='no')
    numpy.testing.assert_allclose(y.array, [[1e4, 1e4, numpy.log(2)]])
    with pytest.raises(ValueError, match='sigmoid_cross_entropy: labels'):
        F.sigmoid_cross_entropy(x, numpy.array([[0, 2, 1]], numpy.int32))
    with pytest.raises(type_check.InvalidType, match='t.shape'):
        F.sigmoid_cross_entropy(x, numpy.array([0, 1, 1], numpy.int32))


def test_sigmoid_cross_entropy_scalar_and_all_ignored():
    # A 0-d x is one example: normalize=False divides by 1.
    for normalize in (True, False):
        x = Variable(numpy.array(2.0, numpy.float32))
        y = F.sigmoid_cross_entropy(x, numpy.array(1, numpy.int32),
                                    normalize=normalize)
        numpy.testing.assert_allclose(y.array, numpy.logaddexp(0, 2) - 2,
                                      rtol=1e-6)
        y.backward()
        numpy.testing.assert_allclose(x.grad, -1 / (1 + numpy.exp(2)),
                                      rtol=1e-6)
    # Every label ignored: a loss and a gradient of 0 (no division by 0).
    x = Variable(X_SIGMOID.copy())
    y = F.sigmoid_cross_entropy(x, numpy.full(X_SIGMOID.shape, -1,
                                              numpy.int32))
    assert float(y.array) == 0
    y.backward()
    assert (x.grad == 0).all()


def test_cross_entropy_type_checks():
    x = X_SIGMOID
    t = numpy.zeros(x.shape, numpy.int32)
    for func, labels in ((F.sigmoid_cross_entropy, t),
                         (F.softmax_cross_entropy, t[:, 0])):
        # (Kinds on both sides of 'f': a check turned into <= or >= lets
        # one pass.)
        for scores in (x.astype(numpy.int32), x > 0):
            with pytest.raises(type_check.InvalidType, match='x.dtype.kind'):
                func(scores, labels)
    with pytest.raises(type_check.InvalidType, match='t.dtype.kind'):
        F.sigmoid_cross_entropy(x, t.astype(numpy.uint8))
    with pytest.raises(type_check.InvalidType, match='t.shape'):
        F.sigmoid_cross_entropy(x, t[:2])
    # softmax_cross_entropy: each mismatch both ways round (a check turned
    # into <= or >= lets one pass).
    x3 = numpy.zeros((2, 3, 4), numpy.float32)
    for scores, labels, name in (
            (x, t, 'x.ndim'), (x[0], t[0, 0, ...], 'x.ndim'),
            (x, t[:2, 0], 't.shape'), (x, numpy.zeros(4, numpy.int32),
                                       't.shape'),
            (x3, numpy.zeros((2, 3), numpy.int32), 't.shape'),
            (x3, numpy.zeros((2, 5), numpy.int32), 't.shape')):
        with pytest.raises(type_check.InvalidType, match=name):
            F.softmax_cross_entropy(scores, labels)
    labels = numpy.zeros(3, numpy.int32)
    for n_weight in (3, 5):
        with pytest.raises(type_check.InvalidType,
                           match=rf'x.shape\[1\] == {n_weight}'):
            F.softmax_cross_entropy(
                x, labels, class_weight=numpy.ones(n_weight, numpy.float32))
    with pytest.raises(TypeError, match='class_weight must be a 1-D'):
        F.softmax_cross_entropy(
            x, labels, class_weight=numpy.ones((4, 1), numpy.float32))
    with pytest.raises(TypeError, match='enable_double_backprop must be'):
        F.softmax_cross_entropy(x, labels, enable_double_backprop=1)

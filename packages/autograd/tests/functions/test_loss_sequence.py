"""CTC and the linear-chain CRF against brute-force enumeration of every
alignment or path on tiny inputs."""
import itertools

import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd import gradient_check
from kusari.autograd.functions.loss import ctc
from kusari.autograd.utils import type_check


def _log_softmax(x):
    shifted = x - x.max(axis=-1, keepdims=True)
    return shifted - numpy.log(numpy.exp(shifted).sum(axis=-1, keepdims=True))


def _ctc_brute_force(log_y, target, blank):
    """-log of the summed probability of every alignment of ``target``."""
    n_time, n_vocab = log_y.shape
    total = []
    for path in itertools.product(range(n_vocab), repeat=n_time):
        merged = [s for i, s in enumerate(path)
                  if s != blank and (i == 0 or s != path[i - 1])]
        if merged == list(target):
            total.append(sum(log_y[i, s] for i, s in enumerate(path)))
    return -numpy.logaddexp.reduce(total)


@pytest.mark.parametrize('blank', [0, 2])
def test_ctc_matches_brute_force(blank):
    rng = numpy.random.RandomState(blank)
    n_time, n_batch, n_vocab = 5, 4, 3
    xs = [rng.randn(n_batch, n_vocab) for _ in range(n_time)]
    labels = [s for s in range(n_vocab) if s != blank]
    # Repeated labels need a blank between them; lengths vary per row.
    t = numpy.array([[labels[0], labels[1]], [labels[1], labels[1]],
                     [labels[0], labels[0]], [labels[1], labels[0]]],
                    numpy.int32)
    input_length = numpy.array([5, 4, 5, 2], numpy.int32)
    label_length = numpy.array([2, 2, 1, 1], numpy.int32)
    y = F.connectionist_temporal_classification(
        xs, t, blank, input_length=input_length, label_length=label_length,
        reduce='no')
    log_y = _log_softmax(numpy.stack(xs, axis=1))
    expected = [_ctc_brute_force(log_y[b, :input_length[b]],
                                 t[b, :label_length[b]], blank)
                for b in range(n_batch)]
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-10)
    mean = F.connectionist_temporal_classification(
        xs, t, blank, input_length=input_length, label_length=label_length)
    numpy.testing.assert_allclose(mean.array, numpy.mean(expected))


def test_ctc_of_three_labels_and_of_none():
    """A label sequence longer than two, and an empty one (only the path of
    blanks) beside it."""
    rng = numpy.random.RandomState(5)
    xs = [rng.randn(2, 3) for _ in range(6)]
    t = numpy.array([[1, 2, 1], [2, 2, 2]], numpy.int32)
    label_length = numpy.array([3, 0], numpy.int32)
    y = F.connectionist_temporal_classification(
        xs, t, 0, label_length=label_length, reduce='no')
    log_y = _log_softmax(numpy.stack(xs, axis=1))
    expected = [_ctc_brute_force(log_y[0], [1, 2, 1], 0),
                _ctc_brute_force(log_y[1], [], 0)]
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-10)
    # Labels of no length at all (as Chainer: the path of blanks).
    y = F.connectionist_temporal_classification(
        xs, numpy.zeros((2, 0), numpy.int32), 0, reduce='no')
    numpy.testing.assert_allclose(y.array, [
        _ctc_brute_force(log_y[0], [], 0), expected[1]], rtol=1e-10)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
# Inputs of every step, or ending one and two steps early (whose steps
# past the end get no gradient).
@pytest.mark.parametrize('input_length', [[4, 4], [3, 2]])
def test_ctc_gradient(reduce, input_length):
    rng = numpy.random.RandomState(0)
    xs = [rng.randn(2, 3) for _ in range(4)]
    t = numpy.array([[1, 2], [2, 2]], numpy.int32)
    lengths = (numpy.array(input_length, numpy.int32),
               numpy.array([2, 1], numpy.int32))

    def f(*xs):
        return F.connectionist_temporal_classification(
            list(xs), t, 0, input_length=lengths[0],
            label_length=lengths[1], reduce=reduce)
    gy = rng.randn() if reduce == 'mean' else rng.randn(2)
    gradient_check.check_backward(f, tuple(xs), numpy.asarray(gy),
                                  atol=1e-6, rtol=1e-5)


def test_ctc_float16_and_errors():
    xs = [numpy.zeros((1, 3), numpy.float16) for _ in range(3)]
    t = numpy.array([[1]], numpy.int32)
    y = F.connectionist_temporal_classification(xs, t, 0)
    assert y.dtype == numpy.float16
    name = 'connectionist_temporal_classification'
    with pytest.raises(ValueError, match=f'{name}: labels'):
        F.connectionist_temporal_classification(
            xs, numpy.array([[3]], numpy.int32), 0)
    for blank in (3, 4, -1):
        with pytest.raises(ValueError, match='blank_symbol'):
            F.connectionist_temporal_classification(xs, t, blank)
    for length in (4, 0):
        with pytest.raises(ValueError, match=r'input_length must be in '
                           r'\[1, 3\]'):
            F.connectionist_temporal_classification(
                xs, t, 0, input_length=numpy.array([length], numpy.int32))
    for length in (3, -1):
        with pytest.raises(ValueError, match=r'label_length must be in '
                           r'\[0, 2\] \(t\.shape\[1\]\)'):
            F.connectionist_temporal_classification(
                xs, numpy.array([[1, 2]], numpy.int32), 0,
                label_length=numpy.array([length], numpy.int32))
    # Lengths of another dtype kind (below and above 'i') or longer than
    # the batch.
    for lengths in (numpy.array([3.0]), numpy.array([True]),
                    numpy.array([3], numpy.uint8),
                    numpy.array([3, 3], numpy.int32),
                    numpy.array([], numpy.int32),
                    numpy.array(3, numpy.int32),
                    numpy.array([[3]], numpy.int32)):
        with pytest.raises(ValueError, match=r'input_length must be a 1-D '
                           r'int array of length 1'):
            F.connectionist_temporal_classification(
                xs, t, 0, input_length=lengths)
    # Labels of one axis (checked before their length default is read)
    # or three.
    for labels in (numpy.array([1], numpy.int32),
                   numpy.array([[[1]]], numpy.int32)):
        with pytest.raises(type_check.InvalidType, match=r't\.ndim == 2'):
            F.connectionist_temporal_classification(xs, labels, 0)
    # Time steps of another shape or dtype than the first.
    for step, check in ((numpy.zeros((1, 4), numpy.float16), 'shape'),
                        (numpy.zeros((1, 2), numpy.float16), 'shape'),
                        (numpy.zeros((1, 3), numpy.float32), 'dtype')):
        with pytest.raises(type_check.InvalidType,
                           match=rf'x\[2\]\.{check} == x\[0\]\.{check}'):
            F.connectionist_temporal_classification(xs[:2] + [step], t, 0)
    # Labels of another dtype kind (below and above 'i').
    for labels in (numpy.array([[1.0]]), numpy.array([[True]]),
                   numpy.array([[1]], numpy.uint8)):
        with pytest.raises(type_check.InvalidType, match=r't\.dtype\.kind'):
            F.connectionist_temporal_classification(xs, labels, 0)
    with pytest.raises(ValueError, match=f'{name}: reduce'):
        F.connectionist_temporal_classification(xs, t, 0, reduce='sum')
    # x is a sequence of time steps, not one (T, B, V) array (as Chainer).
    with pytest.raises(TypeError, match=f'{name}: x must be a list'):
        F.connectionist_temporal_classification(numpy.stack(xs), t, 0)
    # Time steps of one axis too few or too many.
    for steps in ([x[0] for x in xs], [x[None] for x in xs]):
        with pytest.raises(type_check.InvalidType, match=r'x\[0\]\.ndim'):
            F.connectionist_temporal_classification(steps, t, 0)


_INT, _UINT, _FLOAT = numpy.int32, numpy.uint8, numpy.float32


@pytest.mark.parametrize('inputs, expectation', [
    # Lengths of another kind or number of axes, each way.
    *[({name: numpy.array(value, dtype)}, rf'{name}\.{check}')
      for name in ('input_length', 'label_length')
      for value, dtype, check in (
          ([3, 3], _FLOAT, r'dtype\.kind'), ([3, 3], _UINT, r'dtype\.kind'),
          (3, _INT, 'ndim'), ([[3, 3]], _INT, 'ndim'))],
    # Labels and lengths of more rows than x, or fewer.
    *[({name: numpy.ones(rows, _INT)}, rf'{name}\.shape\[0\]')
      for name, shape in (('t', (1,)), ('input_length', ()),
                          ('label_length', ()))
      for rows in ((3,) + shape, (1,) + shape)],
    # Scores not float (below and above 'f'); a step of another shape.
    ({'xs': [numpy.zeros((2, 3), bool)] * 3}, r'x\[0\]\.dtype\.kind'),
    ({'xs': [numpy.zeros((2, 3), _INT)] * 3}, r'x\[0\]\.dtype\.kind'),
    ({'xs': [numpy.zeros((2, 3), _FLOAT), numpy.zeros((2, 2), _FLOAT)]},
     r'x\[1\]\.shape'),
])
def test_ctc_node_checks_its_inputs(inputs, expectation):
    """The node built as Chainer's checks what the function's own
    checks let through to it (or code applying the node directly)."""
    arrays = {'t': numpy.ones((2, 1), _INT),
              'input_length': numpy.array([3, 3], _INT),
              'label_length': numpy.array([1, 1], _INT),
              'xs': [numpy.zeros((2, 3), _FLOAT)] * 3, **inputs}
    node = ctc.ConnectionistTemporalClassification(0, 'mean')
    with pytest.raises(type_check.InvalidType, match=expectation):
        node.apply((arrays['t'], arrays['input_length'],
                    arrays['label_length'], *arrays['xs']))


def test_ctc_padding_past_label_length_is_any_int():
    # The labels past a row's label_length are padding, unchecked: any
    # int there (-1, the vocabulary size, far out) gives the loss and
    # gradient of a padding of 0.
    rng = numpy.random.RandomState(3)
    xs = [rng.randn(2, 3) for _ in range(4)]
    label_length = numpy.array([2, 1], numpy.int32)
    results = []
    for pad in (0, -1, 3, 99):
        steps = [Variable(x) for x in xs]
        t = numpy.array([[1, 2, pad], [2, pad, pad]], numpy.int32)
        loss = F.connectionist_temporal_classification(
            steps, t, 0, label_length=label_length)
        loss.backward()
        results.append((float(loss.array), [s.grad for s in steps]))
    log_y = numpy.stack([_log_softmax(x) for x in xs])
    expected = (_ctc_brute_force(log_y[:, 0], [1, 2], 0) +
                _ctc_brute_force(log_y[:, 1], [2], 0)) / 2
    for loss, grads in results:
        numpy.testing.assert_allclose(loss, expected, rtol=1e-10)
        for grad, first in zip(grads, results[0][1]):
            numpy.testing.assert_array_equal(grad, first)


def _path_score(cost, steps, path):
    return sum(step[label] for step, label in zip(steps, path)) + sum(
        cost[i, j] for i, j in zip(path, path[1:]))


def _crf_problem(seed, n_label=3):
    rng = numpy.random.RandomState(seed)
    lengths = [3, 3, 2, 1]
    batches = [sum(length > step for length in lengths)
               for step in range(lengths[0])]
    cost = rng.randn(n_label, n_label)
    xs = [rng.randn(b, n_label) for b in batches]
    ys = [rng.randint(0, n_label, b).astype(numpy.int32) for b in batches]
    return cost, xs, ys, lengths


def _steps(xs, b):
    return [x[b] for x in xs if len(x) > b]


def test_crf1d_matches_brute_force():
    cost, xs, ys, lengths = _crf_problem(0)
    k = cost.shape[0]
    expected = []
    for b, length in enumerate(lengths):
        steps = _steps(xs, b)
        log_z = numpy.logaddexp.reduce([
            _path_score(cost, steps, p)
            for p in itertools.product(range(k), repeat=length)])
        expected.append(log_z - _path_score(cost, steps,
                                            [y[b] for y in ys if len(y) > b]))
    y = F.crf1d(cost, xs, ys, reduce='no')
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-10)
    numpy.testing.assert_allclose(F.crf1d(cost, xs, ys).array,
                                  numpy.mean(expected))


def test_crf1d_gradients_twice():
    cost, xs, ys, _ = _crf_problem(1, n_label=2)
    rng = numpy.random.RandomState(2)

    def f(cost, *xs):
        return F.crf1d(cost, xs, ys, reduce='no')
    inputs = (cost,) + tuple(xs)
    gy = rng.randn(4)
    gradient_check.check_backward(f, inputs, gy, atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(
        f, inputs, gy, tuple(rng.randn(*x.shape) for x in inputs),
        atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize('seed, n_label', [(3, 3), (4, 4), (5, 2)])
def test_argmax_crf1d_matches_brute_force(seed, n_label):
    cost, xs, _, lengths = _crf_problem(seed, n_label)
    k = cost.shape[0]
    score, path = F.argmax_crf1d(cost, xs)
    assert [p.shape for p in path] == [(len(x),) for x in xs]
    for b, length in enumerate(lengths):
        steps = _steps(xs, b)
        best = max(itertools.product(range(k), repeat=length),
                   key=lambda p: _path_score(cost, steps, p))
        assert [int(p[b]) for p in path if len(p) > b] == list(best)
        numpy.testing.assert_allclose(score.array[b],
                                      _path_score(cost, steps, best))
    costv = Variable(cost)
    F.sum(F.argmax_crf1d(costv, xs)[0]).backward()
    assert costv.grad.sum() == sum(length - 1 for length in lengths)


def test_crf1d_errors():
    cost, xs, ys, _ = _crf_problem(0)
    with pytest.raises(ValueError, match=r'crf1d: ys\[1\] must be 1-D ints '
                       r'of length 3'):
        F.crf1d(cost, xs, [ys[0], ys[0][:2], ys[2]])
    # (The batch of xs[2], 2, is not the number of labels, 3.)
    with pytest.raises(ValueError, match=r'crf1d: ys\[2\] must be 1-D ints '
                       r'of length 2 \(the batch of xs\[2\]\); got int32 of '
                       r'shape \(1,\)'):
        F.crf1d(cost, xs, [ys[0], ys[1], ys[2][:1]])
    with pytest.raises(ValueError, match=r'crf1d \(ys\[0\]\): labels'):
        F.crf1d(cost, xs, [ys[0] + 3, ys[1], ys[2]])
    with pytest.raises(Exception, match=r'crf1d'):
        F.crf1d(cost, [xs[2], xs[0]], [ys[2], ys[0]])
    for steps in (ys[:2], ys + ys[-1:]):
        with pytest.raises(ValueError, match='one entry per step'):
            F.crf1d(cost, xs, steps)
    with pytest.raises(ValueError, match='argmax_crf1d: xs'):
        F.argmax_crf1d(cost, [])
    # Labels of floats, unsigned ints, of no or two axes; longer.
    for y in (ys[0].astype(numpy.float32), ys[0].astype(numpy.uint32),
              ys[0][0], ys[0][:, None], numpy.append(ys[0], 0)):
        with pytest.raises(ValueError, match=r'ys\[0\] must be 1-D ints'):
            F.crf1d(cost, xs, [y, ys[1], ys[2]])


def test_crf1d_of_an_empty_batch():
    # The mean of no losses is 0 (Chainer 7.8.1 divides by zero).
    cost, xs, ys, _ = _crf_problem(0)
    empty_xs, empty_ys = [x[:0] for x in xs], [y[:0] for y in ys]
    assert F.crf1d(cost, empty_xs, empty_ys).array == 0
    assert F.crf1d(cost, empty_xs, empty_ys, reduce='no').shape == (0,)


def _bad_step(step, change):
    """The scores of _crf_problem(0) (3 steps) with one step changed."""
    cost, xs, _, _ = _crf_problem(0)
    xs[step] = change(xs[step])
    return cost, xs


@pytest.mark.parametrize('cost, xs, needle', [
    *[(*_bad_step(step, lambda x: x.astype(numpy.float32)),
       f'xs[{step}].dtype == cost.dtype') for step in (0, 2)],
    (numpy.zeros((3, 3), numpy.float32), [numpy.zeros((2, 3))],
     'xs[0].dtype == cost.dtype'),
    *[(*_bad_step(step, lambda x: x[:, :, None]), f'xs[{step}].ndim == 2')
      for step in (0, 2)],
    (*_bad_step(2, lambda x: x[:, 0]), 'xs[2].ndim == 2'),
    *[(*_bad_step(2, lambda x: numpy.ones((len(x), side))),
       'xs[2].shape[1] == cost.shape[0]') for side in (2, 4)],
    (*_bad_step(2, lambda x: numpy.ones((4, 3))),
     'xs[2].shape[0] <= xs[1].shape[0]'),
    (*_bad_step(1, lambda x: numpy.ones((5, 3))),
     'xs[1].shape[0] <= xs[0].shape[0]'),
])
def test_crf1d_checks_each_step(cost, xs, needle):
    with pytest.raises(type_check.InvalidType) as info:
        F.argmax_crf1d(cost, xs)
    assert needle in str(info.value)


@pytest.mark.parametrize('cost, xs, needle', [
    # A square cost of ints or complex numbers, with scores of its dtype;
    # a cost of 3 rows and 4 columns or the other way; of one axis or three.
    (numpy.zeros((3, 3), numpy.int32), [numpy.zeros((2, 3), numpy.int32)],
     'cost.dtype.kind == f'),
    (numpy.zeros((3, 3), numpy.complex128), [numpy.zeros((2, 3), complex)],
     'cost.dtype.kind == f'),
    (numpy.zeros((3, 4)), [numpy.zeros((2, 3))],
     'cost.shape[0] == cost.shape[1]'),
    (numpy.zeros((4, 3)), [numpy.zeros((2, 4))],
     'cost.shape[0] == cost.shape[1]'),
    (numpy.zeros(3), [numpy.zeros((2, 3))], 'cost.ndim == 2'),
    (numpy.zeros((3, 3, 1)), [numpy.zeros((2, 3))], 'cost.ndim == 2')])
def test_crf1d_checks_the_cost(cost, xs, needle):
    with pytest.raises(type_check.InvalidType) as info:
        F.crf1d(cost, xs, [numpy.zeros(2, numpy.int32)])
    assert needle in str(info.value)

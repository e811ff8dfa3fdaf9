"""Evaluation functions against plain NumPy references (they are metrics:
no graph, hence no conformance record)."""
import re
import types

import numpy
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd.utils import type_check

from static_replays import check_replays


def _scores_and_labels(n_class=4):
    return st.integers(1, 6).flatmap(lambda n: st.tuples(
        hnp.arrays(numpy.float32, (n, n_class),
                   elements=st.floats(-10, 10, width=32), unique=True),
        hnp.arrays(numpy.int32, (n,), elements=st.integers(-1,
                                                           n_class - 1))))


@settings(max_examples=30, deadline=None)
@given(_scores_and_labels())
def test_accuracy_matches_loop(data):
    y, t = data
    predicted = y.argmax(axis=1)
    assert float(F.accuracy(y, t).array) == pytest.approx(
        numpy.mean(predicted == t))
    # -1, and a class: labels on both sides of it are kept.
    for ignore_label in (-1, 1):
        kept = [i for i in range(len(t)) if t[i] != ignore_label]
        expected = (sum(predicted[i] == t[i] for i in kept) / len(kept)
                    if kept else 0.0)
        result = F.accuracy(y, t, ignore_label=ignore_label)
        assert result.dtype == numpy.float32 and result.shape == ()
        assert float(result.array) == pytest.approx(expected)


def test_accuracy_spatial_records_no_graph_and_errors():
    y = Variable(numpy.zeros((2, 3, 2), numpy.float16))
    y.array[0, 1, 0] = 1
    t = numpy.array([[1, 0], [0, -1]], numpy.int32)
    a = F.accuracy(y, t, ignore_label=-1)
    assert a.dtype == numpy.float16 and a.creator_node is None
    assert not a.requires_grad and float(a.array) == 1.0
    with pytest.raises(type_check.InvalidType, match='accuracy'):
        F.accuracy(y, t[:1])
    with pytest.raises(type_check.InvalidType, match='t.dtype'):
        F.accuracy(y, t.astype(numpy.float32))


def test_binary_accuracy():
    y = numpy.array([[-1.0, 2.0, 0.0], [0.5, -0.5, 3.0]], numpy.float32)
    t = numpy.array([[0, 1, 0], [-1, 1, 1]], numpy.int32)
    # Predictions y >= 0: [[0, 1, 1], [1, 0, 1]]; five labels kept.
    assert float(F.binary_accuracy(y, t).array) == pytest.approx(3 / 5)
    assert float(F.binary_accuracy(y, numpy.full_like(t, -1)).array) == 0
    with pytest.raises(type_check.InvalidType, match='t.shape'):
        F.binary_accuracy(y, t[0])


def _summary_loop(y, t, label_num, beta, ignore_label):
    predicted = y.argmax(axis=1)
    rows = []
    for c in range(label_num):
        kept = t != ignore_label
        tp = numpy.sum((predicted == c) & (t == c) & kept)
        relevant = numpy.sum((predicted == c) & kept)
        support = numpy.sum((t == c) & kept)
        p = tp / relevant if relevant else numpy.nan
        r = tp / support if support else numpy.nan
        f = ((1 + beta ** 2) * p * r / (beta ** 2 * p + r)
             if p + r else numpy.nan)
        rows.append((p, r, f, support))
    return [numpy.array(column) for column in zip(*rows)]


@settings(max_examples=30, deadline=None)
@given(_scores_and_labels(), st.sampled_from([None, 5]),
       st.sampled_from([None, 1.0, 0.5]), st.sampled_from([None, 1]))
def test_classification_summary_matches_loop(data, label_num, beta,
                                             ignore_label):
    # None: the argument left at its default (beta 1, ignore_label -1).
    # Under ignore_label 1, -1 would be a label: none is drawn (Chainer's
    # bincount refuses it).
    y, t = data
    if ignore_label is not None:
        t = numpy.maximum(t, 0)
    if label_num is None and (t < 0).all():
        return
    expected_num = int(t.max()) + 1 if label_num is None else label_num
    with numpy.errstate(all='ignore'):
        expected = _summary_loop(y, t, expected_num, beta or 1.0,
                                 -1 if ignore_label is None else ignore_label)
    ignore = {} if ignore_label is None else {'ignore_label': ignore_label}
    summary = F.classification_summary(
        y, t, label_num, **({} if beta is None else {'beta': beta}), **ignore)
    for value, reference in zip(summary, expected):
        assert value.shape == (expected_num,)
        numpy.testing.assert_allclose(value.array, reference)
    assert summary[0].dtype == numpy.float64
    assert summary[3].dtype.kind == 'i'
    for func, index in ((F.precision, 0), (F.recall, 1)):
        value, support = func(y, t, label_num, **ignore)
        numpy.testing.assert_allclose(value.array, summary[index].array)
        numpy.testing.assert_array_equal(support.array, summary[3].array)


def test_f1_score():
    y = numpy.eye(3, dtype=numpy.float32)[[0, 1, 1, 2, 0]]
    t = numpy.array([0, 1, 2, 2, -1], numpy.int32)
    f1, support = F.f1_score(y, t)
    # class 2: precision 1, recall 1/2; class 1: precision 1/2, recall 1;
    # the last example's label -1 is ignored by default.
    numpy.testing.assert_allclose(f1.array, [1, 2 / 3, 2 / 3])
    numpy.testing.assert_array_equal(support.array, [1, 1, 2])


def test_classification_summary_of_no_example():
    y = numpy.zeros((0, 3), numpy.float32)
    t = numpy.zeros(0, numpy.int32)
    for value in F.classification_summary(y, t):
        assert value.shape == (0,)


def test_r2_score():
    rng = numpy.random.RandomState(0)
    true = rng.randn(6, 3).astype(numpy.float32)
    pred = true + 0.3 * rng.randn(6, 3).astype(numpy.float32)
    true[:, 2] = 1.0  # a constant column scores 0
    ss_res = ((true - pred) ** 2).sum(axis=0)
    ss_tot = ((true - true.mean(axis=0)) ** 2).sum(axis=0)
    expected = numpy.array([1 - ss_res[0] / ss_tot[0],
                            1 - ss_res[1] / ss_tot[1], 0.0])
    raw = F.r2_score(pred, true, multioutput='raw_values')
    assert raw.dtype == numpy.float32
    numpy.testing.assert_allclose(raw.array, expected, rtol=1e-5)
    numpy.testing.assert_allclose(F.r2_score(pred, true).array,
                                  expected.mean(), rtol=1e-5)
    assert F.r2_score(pred[:, 0], true[:, 0]).shape == ()
    with pytest.raises(ValueError, match='r2_score: sample_weight'):
        F.r2_score(pred, true, sample_weight=numpy.ones(6))
    with pytest.raises(ValueError, match='r2_score: multioutput'):
        F.r2_score(pred, true, multioutput='variance_weighted')
    with pytest.raises(type_check.InvalidType, match='true.shape'):
        F.r2_score(pred, true[:2])


@pytest.mark.parametrize('metric, labels', [
    (F.accuracy, lambda rng: rng.randint(-1, 3, 6)),
    (lambda y, t: F.accuracy(y, t, ignore_label=-1),
     lambda rng: rng.randint(-1, 3, 6)),
    (lambda y, t: F.binary_accuracy(y[:, 0], t),
     lambda rng: rng.randint(-1, 2, 6)),
    (lambda y, t: F.precision(y, t, label_num=3)[0],
     lambda rng: rng.randint(0, 3, 6)),
    (F.r2_score, lambda rng: rng.uniform(-1, 1, (6, 3)))])
def test_metrics_in_a_static_chain_are_those_of_each_call(metric, labels):
    rng = numpy.random.RandomState(0)
    check_replays(metric, [(rng.uniform(-1, 1, (6, 3)), labels(rng))
                           for _ in range(4)])


# Each check of the metrics' inputs, tried on both sides: a type check
# whose == became <= or >= lets one side through.
_Y = numpy.zeros((4, 3, 2), numpy.float32)
_T = numpy.zeros((4, 2), numpy.int32)


@pytest.mark.parametrize('func', [F.accuracy, F.classification_summary])
@pytest.mark.parametrize('y, t, name', [
    (_Y.astype(bool), _T, 'y.dtype.kind'),
    (_Y.astype(numpy.complex64), _T, 'y.dtype.kind'),
    (_Y.astype(numpy.int32), _T, 'y.dtype.kind'),
    (_Y, _T.astype(bool), 't.dtype.kind'),
    (_Y, _T.astype(numpy.float32), 't.dtype.kind'),
    (_Y, _T.astype(numpy.uint8), 't.dtype.kind'),
    (_Y[..., 0], _T, 'y.ndim'),
    (_Y[..., None], _T, 'y.ndim'),
    (_Y[:3], _T, 'y.shape'),
    (_Y, _T[:3], 'y.shape'),
    (_Y[..., :1], _T, 'y.shape'),
    (_Y, _T[:, :1], 'y.shape'),
])
def test_class_score_checks_each_way(func, y, t, name):
    with pytest.raises(type_check.InvalidType, match=re.escape(name)):
        func(y, t)


@pytest.mark.parametrize('func, names', [
    (F.accuracy, ('y', 't')), (F.binary_accuracy, ('y', 't')),
    (F.r2_score, ('pred', 'true'))])
def test_metrics_name_an_input_that_is_no_array(func, names):
    y = numpy.zeros((2, 2), numpy.float32)
    # A list, a Python scalar, an object with a shape but no dtype.
    shaped = types.SimpleNamespace(shape=(2, 2))
    for args, name in ((([[0.0, 1.0]], y), names[0]), ((y, 1.0), names[1]),
                       ((shaped, y), names[0])):
        with pytest.raises(TypeError,
                           match=f'input {name} must be a Variable or an'):
            func(*args)


@pytest.mark.parametrize('y, t, name', [
    (numpy.zeros(3, bool), numpy.zeros(3, numpy.int32), 'y.dtype.kind'),
    (numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32),
     'y.dtype.kind'),
    (numpy.zeros(3, 'f'), numpy.zeros(3, bool), 't.dtype.kind'),
    (numpy.zeros(3, 'f'), numpy.zeros(3, numpy.uint8), 't.dtype.kind'),
    (numpy.zeros(3, 'f'), numpy.zeros(2, numpy.int32), 't.shape'),
    (numpy.zeros(2, 'f'), numpy.zeros(3, numpy.int32), 't.shape'),
])
def test_binary_accuracy_checks_each_way(y, t, name):
    with pytest.raises(type_check.InvalidType, match=re.escape(name)):
        F.binary_accuracy(y, t)


def test_binary_accuracy_threshold_is_zero():
    # Scores in (-1, 0) predict 0, and 0 predicts 1.
    y = numpy.array([-0.5, -0.01, 0.0], numpy.float32)
    t = numpy.array([0, 0, 1], numpy.int32)
    assert float(F.binary_accuracy(y, t).array) == 1.0


@pytest.mark.parametrize('pred, true, name', [
    (numpy.zeros(3, bool), numpy.zeros(3, bool), 'pred.dtype.kind'),
    (numpy.zeros(3, numpy.complex64), numpy.zeros(3, numpy.complex64),
     'pred.dtype.kind'),
    (numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32),
     'pred.dtype.kind'),
    (numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float64),
     'true.dtype'),
    (numpy.zeros(3, numpy.float64), numpy.zeros(3, numpy.float32),
     'true.dtype'),
    (numpy.zeros((3, 2), 'f'), numpy.zeros((3, 3), 'f'), 'true.shape'),
    (numpy.zeros((3, 3), 'f'), numpy.zeros((3, 2), 'f'), 'true.shape'),
    (numpy.zeros((), 'f'), numpy.zeros((), 'f'), 'pred.ndim'),
])
def test_r2_score_checks_each_way(pred, true, name):
    with pytest.raises(type_check.InvalidType, match=re.escape(name)):
        F.r2_score(pred, true)

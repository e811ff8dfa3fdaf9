"""Options, argument errors and special cases of the other losses."""
import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import function_node
from kusari.autograd import functions as F
from kusari.autograd.utils import type_check

from static_replays import check_replays

_rng = numpy.random.RandomState(0)
X = _rng.uniform(-2, 2, (4, 3)).astype(numpy.float32)
X2 = _rng.uniform(-2, 2, (4, 3)).astype(numpy.float32)


@pytest.mark.parametrize('func,names', [
    (F.absolute_error, 'x0'), (F.squared_error, 'x0'),
    (F.mean_squared_error, 'x0'), (F.mean_absolute_error, 'x0'),
    (lambda a, b: F.huber_loss(a, b, 1.0), 'x'),
    (F.gaussian_kl_divergence, 'mean'), (F.bernoulli_nll, 'x'),
])
def test_pairwise_shape_and_dtype_mismatch(func, names):
    # Each mismatch both ways round: a check turned into <= or >= passes
    # one of them.
    for x0, x1 in ((X, X2[:2]), (X[:2], X2)):
        with pytest.raises(type_check.InvalidType, match=f'{names}.shape'):
            func(x0, x1)
    for x0, x1 in ((X, X2.astype(numpy.float64)),
                   (X.astype(numpy.float64), X2)):
        with pytest.raises(type_check.InvalidType, match=f'{names}.dtype'):
            func(x0, x1)
    # (Kinds on both sides of 'f': a check turned into <= or >= lets one
    # pass.)
    for x0, x1 in ((X.astype(numpy.int32), X2.astype(numpy.int32)),
                   (X > 0, X2 > 0)):
        with pytest.raises(type_check.InvalidType,
                           match=rf'{names}.dtype.kind == f'):
            func(x0, x1)


def test_mean_errors_match_numpy_and_keep_dtype():
    for dtype in (numpy.float16, numpy.float32):
        x0, x1 = X.astype(dtype), X2.astype(dtype)
        mse = F.mean_squared_error(x0, x1)
        mae = F.mean_absolute_error(x0, x1)
        assert mse.dtype == dtype and mae.dtype == dtype
        numpy.testing.assert_allclose(
            mse.array, ((X - X2) ** 2).mean(), rtol=1e-3)
        numpy.testing.assert_allclose(
            mae.array, numpy.abs(X - X2).mean(), rtol=1e-3)


def test_mean_errors_of_float16_sum_past_float16s_largest():
    # 100 errors of 30: their squares sum to 90,000 (float16 holds
    # 65,504), their mean is 900: the sum is taken in float32.
    x0 = numpy.full(100, 30, numpy.float16)
    x1 = numpy.zeros(100, numpy.float16)
    assert float(F.mean_squared_error(x0, x1).array) == 900
    assert float(F.mean_absolute_error(x0 * 1000, x1).array) == 30000


def test_huber_loss_second_derivative_and_reduce():
    x = Variable(numpy.array([[0.3, 2.0]], numpy.float32))
    y = F.huber_loss(x, numpy.zeros((1, 2), numpy.float32), 1.0)
    assert y.shape == (1,)
    numpy.testing.assert_allclose(y.array, [0.045 + 1.5])
    gx, = function_node.grad([y], [x], enable_double_backprop=True)
    numpy.testing.assert_allclose(gx.array, [[0.3, 1.0]])
    ggx, = function_node.grad([F.sum(gx)], [x])
    numpy.testing.assert_allclose(ggx.array, [[1.0, 0.0]])
    assert F.huber_loss(X, X2, 1.0, reduce='no').shape == X.shape
    with pytest.raises(ValueError, match='huber_loss: reduce'):
        F.huber_loss(X, X2, 1.0, reduce='mean')
    with pytest.raises(type_check.InvalidType, match='x.ndim'):
        F.huber_loss(X[0], X2[0], 1.0)
    # reduce='no' has no axis to sum: any ndim, 0 included.
    for x, t in ((X[0], X2[0]), (X[0, 0, ...], X2[0, 0, ...])):
        y = F.huber_loss(x, t, 1.0, reduce='no')
        d = numpy.abs(x - t)
        numpy.testing.assert_allclose(
            y.array, numpy.where(d <= 1, d * d / 2, d - 0.5), rtol=1e-6)


@pytest.mark.parametrize('func', [F.gaussian_kl_divergence,
                                  F.bernoulli_nll])
def test_vae_reduce(func):
    total = func(X, X2).array
    numpy.testing.assert_allclose(func(X, X2, reduce='mean').array,
                                  total / X.size, rtol=1e-6)
    numpy.testing.assert_allclose(func(X, X2, reduce='no').array.sum(),
                                  total, rtol=1e-6)
    with pytest.raises(ValueError, match=f'{func.__name__}: reduce'):
        func(X, X2, reduce='max')


def test_bernoulli_nll_stable():
    with numpy.errstate(over='raise'):
        y = F.bernoulli_nll(numpy.array([1.0, 0.0], numpy.float32),
                            numpy.array([1e4, 1e4], numpy.float32),
                            reduce='no')
    numpy.testing.assert_allclose(y.array, [0, 1e4])


def test_hinge_options_and_errors():
    t = numpy.array([0, 2, 1, 0], numpy.int32)
    sign = numpy.ones_like(X)
    sign[numpy.arange(4), t] = -1
    l1 = numpy.maximum(0, 1 + sign * X)
    numpy.testing.assert_allclose(F.hinge(X, t, reduce='no').array, l1,
                                  rtol=1e-6)
    numpy.testing.assert_allclose(F.hinge(X, t, norm='L2').array,
                                  (l1 ** 2).sum() / 4, rtol=1e-6)
    with pytest.raises(ValueError, match=r'hinge: labels in t must be in '
                       r'\[0, 3\); got 3'):
        F.hinge(X, numpy.array([0, 3, 1, 0], numpy.int32))
    with pytest.raises(ValueError, match='hinge: norm'):
        F.hinge(X, t, norm='L3')
    with pytest.raises(type_check.InvalidType, match='t.shape'):
        F.hinge(X, t[:3])


def test_hinge_type_checks_and_empty_batch():
    t = numpy.array([0, 2, 1, 0], numpy.int32)
    for x, labels, name in (
            (X, numpy.zeros(5, numpy.int32), 't.shape'),
            (X, t[:3], 't.shape'),
            (X[0], t[:1], 'x.ndim'), (X[None], t, 'x.ndim'),
            (X, t[:, None], 't.ndim'), (X, numpy.zeros((), numpy.int32),
                                        't.ndim'),
            (X.astype(numpy.int32), t, 'x.dtype.kind'),
            (X, t.astype(numpy.float32), 't.dtype.kind'),
            (X > 0, t, 'x.dtype.kind')):
        with pytest.raises(type_check.InvalidType, match=name):
            F.hinge(x, labels)
    # -1 is no ignore_label of hinge; the first bad label is named, with
    # its index.
    with pytest.raises(ValueError, match=r'got -1 \(at index \(1,\)\)$'):
        F.hinge(X, numpy.array([0, -1, 1, 0], numpy.int32))
    with pytest.raises(ValueError, match=r'got 5 \(at index \(1,\)\)$'):
        F.hinge(X, numpy.array([0, 5, 1, 7], numpy.int32))
    # An empty batch: a mean of 0 (the sum over no example divided by
    # max(N, 1)) and an empty gradient, for either norm.
    for norm in ('L1', 'L2'):
        x = Variable(numpy.zeros((0, 3), numpy.float32))
        loss = F.hinge(x, numpy.zeros(0, numpy.int32), norm=norm)
        assert loss.shape == () and float(loss.array) == 0
        loss.backward()
        assert x.grad.shape == (0, 3)


def test_hinge_mean_of_one_example():
    # The mean over a batch of one example is its sum (divided by N = 1,
    # in the forward and the backward), for either norm.
    sign = numpy.array([[1, 1, -1]], numpy.float32)
    margin = numpy.maximum(0, 1 + sign * X[:1])
    for norm, grad in (('L1', sign * (margin > 0)),
                       ('L2', 2 * margin * sign)):
        x = Variable(X[:1].copy())
        loss = F.hinge(x, numpy.array([2], numpy.int32), norm=norm)
        loss.backward()
        numpy.testing.assert_allclose(
            loss.array, (margin ** (1 if norm == 'L1' else 2)).sum(),
            rtol=1e-6)
        numpy.testing.assert_allclose(x.grad, grad, rtol=1e-6)


def test_contrastive_and_triplet():
    y = numpy.array([1, 0, 0, 1], numpy.int32)
    d = numpy.sqrt(((X - X2) ** 2).sum(axis=1))
    expected = (y * d ** 2 + (1 - y) * numpy.maximum(4 - d, 0) ** 2) / 2
    numpy.testing.assert_allclose(
        F.contrastive(X, X2, y, margin=4, reduce='no').array, expected,
        rtol=1e-5)
    # Equal points of a dissimilar pair: a finite (zero) gradient.
    x0 = Variable(X.copy())
    F.contrastive(x0, X.copy(), numpy.zeros(4, numpy.int32)).backward()
    assert numpy.isfinite(x0.grad).all()
    with pytest.raises(ValueError, match='contrastive: margin'):
        F.contrastive(X, X2, y, margin=0)
    with pytest.raises(type_check.InvalidType, match='y.shape'):
        F.contrastive(X, X2, y[:3])
    loss = F.triplet(X, X2, -X, margin=0.5, reduce='no').array
    expected = numpy.maximum(((X - X2) ** 2).sum(1) - (4 * X ** 2).sum(1)
                             + 0.5, 0)
    numpy.testing.assert_allclose(loss, expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match='triplet: margin'):
        F.triplet(X, X2, X, margin=-1)
    with pytest.raises(type_check.InvalidType, match='negative.shape'):
        F.triplet(X, X2, X[:2])


def test_covariance_losses():
    centered = X - X.mean(axis=0)
    cov = centered.T @ (X2 - X2.mean(axis=0)) / 4
    numpy.testing.assert_allclose(F.cross_covariance(X, X2).array,
                                  (cov ** 2).sum() / 2, rtol=1e-5)
    own = centered.T @ centered / 4
    numpy.fill_diagonal(own, 0)
    numpy.testing.assert_allclose(F.decov(X, reduce='no').array, own,
                                  rtol=1e-5, atol=1e-7)
    with pytest.raises(type_check.InvalidType, match='z.shape'):
        F.cross_covariance(X, X2[:3])
    with pytest.raises(ValueError, match='decov: reduce'):
        F.decov(X, reduce='mean')


def _each_raises(func, cases):
    """``func(*args)`` raises InvalidType matching ``name`` for each
    ``(args, name)`` of ``cases``."""
    for args, name in cases:
        with pytest.raises(type_check.InvalidType, match=name):
            func(*args)


def test_pair_embedding_type_checks():
    # Each mismatch both ways round (a check turned into <= or >= lets one
    # pass), each ndim above and below the one expected.
    y = numpy.array([1, 0, 0, 1], numpy.int32)
    F64 = X.astype(numpy.float64)
    _each_raises(F.contrastive, [
        ((X, X2, numpy.zeros(5, numpy.int32)), 'y.shape'),
        ((X[0], X2[0], y[:3]), 'x0.ndim'), ((X[None], X2[None], y), 'x0.ndim'),
        ((X, X2, y[:, None]), 'y.ndim'), ((X, X2, y[0]), 'y.ndim'),
        ((X, X2, y.astype(numpy.float32)), 'y.dtype.kind'),
        ((X, X2, y.astype(numpy.uint8)), 'y.dtype.kind'),
        ((X.astype(numpy.int32), X2.astype(numpy.int32), y), 'x0.dtype'),
        ((X > 0, X2 > 0, y), 'x0.dtype'),
        ((X, F64, y), 'x1.dtype'), ((F64, X2, y), 'x1.dtype'),
        ((X, X2[:3], y), 'x1.shape'), ((X[:3], X2, y), 'x1.shape')])
    _each_raises(F.triplet, [
        ((X[0], X2[0], X[0]), 'anchor.ndim'),
        ((X[None], X2[None], X[None]), 'anchor.ndim'),
        ((X, X2, F64), 'negative.dtype'), ((F64, X2, X), 'positive.dtype'),
        ((X.astype(numpy.int32),) * 3, 'anchor.dtype.kind'),
        ((X > 0,) * 3, 'anchor.dtype.kind'),
        ((X[:2], X2, X), 'positive.shape')])
    with pytest.raises(ValueError, match='triplet: margin'):
        F.triplet(X, X2, X, margin=0)
    with pytest.raises(ValueError, match='contrastive: margin'):
        F.contrastive(X, X2, y, margin=-1)


# (The column means of no rows are NaN, with NumPy's warnings.)
@pytest.mark.filterwarnings('ignore::RuntimeWarning')
def test_covariance_type_checks():
    F64 = X.astype(numpy.float64)
    _each_raises(F.cross_covariance, [
        ((X[:3], X2), 'z.shape'), ((X, X2[:3]), 'z.shape'),
        ((X, F64), 'z.dtype'), ((F64, X2), 'z.dtype'),
        ((X.astype(numpy.int32), X2.astype(numpy.int32)), 'y.dtype.kind'),
        ((X > 0, X2 > 0), 'y.dtype.kind'),
        ((X[0], X2), 'y.ndim'), ((X[None], X2), 'y.ndim'),
        ((X, X2[0]), 'z.ndim'), ((X, X2[None]), 'z.ndim')])
    _each_raises(F.decov, [
        ((X[0],), 'h.ndim'), ((X[None],), 'h.ndim'),
        ((X.astype(numpy.int32),), 'h.dtype.kind'),
        ((X > 0,), 'h.dtype.kind')])
    # No rows: a covariance of 0 (divided by max(N, 1)), not NaN.
    for func, args in ((F.cross_covariance, (X[:0], X2[:0])),
                       (F.decov, (X[:0],))):
        loss = func(*args, reduce='no')
        assert loss.shape == (3, 3) and (loss.array == 0).all()


def test_negative_sampling_samples_and_ignore():
    W = _rng.randn(5, 3).astype(numpy.float32)
    t = numpy.array([0, -1, 4, 2], numpy.int32)

    def sampler(shape):
        return numpy.arange(numpy.prod(shape)).reshape(shape) % 5
    loss, samples = F.negative_sampling(X, t, W, sampler, 2, reduce='no',
                                        return_samples=True)
    assert samples.shape == (4, 3) and (samples[:, 0] == t).all()
    scores = numpy.einsum('nsd,nd->ns', W[numpy.maximum(samples, 0)], X)
    scores[:, 0] *= -1
    expected = numpy.logaddexp(0, scores).sum(axis=1) * (t != -1)
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-5)
    with pytest.raises(TypeError, match='negative_sampling: unexpected'):
        F.negative_sampling(X, t, W, sampler, 2, foo=1)
    for wrong in (2, (4, 4)):  # a shape shorter or longer than (4, 3)
        with pytest.raises(ValueError, match='sampler must return'):
            F.negative_sampling(X, t, W,
                                lambda shape: numpy.zeros(wrong, int), 2)
    with pytest.raises(ValueError, match='negative_sampling: labels'):
        F.negative_sampling(X, t + 2, W, sampler, 2)

    def sampler_with(column, word):
        def sampler(shape):
            samples = numpy.zeros(shape, numpy.int32)
            samples[:, column] = word
            return samples
        return sampler
    # Each drawn column is checked; the first, which t replaces, is not.
    with pytest.raises(ValueError, match=r'\(sampler output\): labels'):
        F.negative_sampling(X, t, W, sampler_with(1, 5), 2)
    F.negative_sampling(X, t, W, sampler_with(0, 5), 2)


def test_black_out_errors():
    W = _rng.randn(5, 3).astype(numpy.float32)
    t = numpy.array([0, 1, 4, 2], numpy.int32)
    samples = numpy.array([[1, 2]] * 4, numpy.int32)
    assert F.black_out(X, t, W, samples, reduce='no').shape == (4,)
    # The mean loss of an empty batch is 0; with no samples, the target
    # is certain: 0 too (as Chainer 7.8.1).
    assert F.black_out(X[:0], t[:0], W, samples[:0]).array == 0
    numpy.testing.assert_array_equal(
        F.black_out(X, t, W, samples[:, :0], reduce='no').array, 0)
    with pytest.raises(ValueError, match=r'black_out \(samples\): labels'):
        F.black_out(X, t, W, samples + 4)
    with pytest.raises(type_check.InvalidType, match='samples.shape'):
        F.black_out(X, t, W, samples[:2])


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('gap', [8.0, 40.0])
def test_black_out_sample_far_above_target(dtype, gap):
    # Scores 0 (target) and gap (the one sample): 1 - p is the target's
    # probability, so the loss is 2 log(1 + e^gap), and its gradient by
    # the sample's score 2 sigmoid(gap). log1p(-p) cancels here.
    x = numpy.array([[1, 0, 0]], dtype)
    W = Variable(numpy.array([[0, 0, 0], [gap, 0, 0]], dtype))
    loss = F.black_out(x, numpy.array([0], numpy.int32), W,
                       numpy.array([[1]], numpy.int32))
    loss.backward()
    rtol = 1e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(
        float(loss.array), 2 * numpy.logaddexp(0, gap), rtol=rtol)
    numpy.testing.assert_allclose(
        float(W.grad[1, 0]), 2 / (1 + numpy.exp(-gap)), rtol=rtol)


def test_discriminative_loss_arguments():
    e = _rng.randn(2, 3, 4, 4).astype(numpy.float32)
    labels = _rng.randint(0, 4, (2, 4, 4)).astype(numpy.int32)
    name = 'discriminative_margin_based_clustering_loss'
    terms = F.discriminative_margin_based_clustering_loss(
        e, labels, 0.5, 1.5, 3, alpha=0, beta=2, gamma=0)
    assert float(terms[0].array) == 0 and float(terms[2].array) == 0
    assert float(terms[1].array) > 0
    # The L1 norm by default.
    by_norm = {norm: [float(term.array) for term in
                      F.discriminative_margin_based_clustering_loss(
                          e, labels, 0.5, 1.5, 3, **options)]
               for norm, options in (('default', {}), (1, {'norm': 1}),
                                     (2, {'norm': 2}))}
    assert by_norm['default'] == by_norm[1] != by_norm[2]
    for dim in (2, 4):  # fewer or more instances than channels
        with pytest.raises(ValueError, match=f'{name}: embeddings.shape'):
            F.discriminative_margin_based_clustering_loss(e, labels, 0.5, 1.5,
                                                          dim)
    with pytest.raises(ValueError, match=f'{name}: norm'):
        F.discriminative_margin_based_clustering_loss(e, labels, 0.5, 1.5, 3,
                                                      norm=3)
    # Labels of a smaller or larger batch, of a shorter or longer last axis.
    for wrong in (labels[:1], numpy.concatenate([labels, labels]),
                  labels[..., :3], numpy.pad(labels, 1)[1:-1]):
        with pytest.raises(type_check.InvalidType, match='labels.shape'):
            F.discriminative_margin_based_clustering_loss(e, wrong, 0.5,
                                                          1.5, 3)
    for dtype in (numpy.int32, numpy.complex64):
        with pytest.raises(type_check.InvalidType,
                           match='embeddings.dtype.kind'):
            F.discriminative_margin_based_clustering_loss(
                e.astype(dtype), labels, 0.5, 1.5, 3)
    for embeddings in (e[0], e[None]):
        with pytest.raises(type_check.InvalidType, match='embeddings.ndim'):
            F.discriminative_margin_based_clustering_loss(
                embeddings, labels, 0.5, 1.5, 3)
    for dim in (0, -1, 2.0):
        with pytest.raises(ValueError, match=f'{name}: max_embedding_dim'):
            F.discriminative_margin_based_clustering_loss(
                e[:, :0], labels, 0.5, 1.5, dim)


def test_negative_sampling_float16_rounds_once():
    # float16 inputs: the scores and the loss are computed in float32, so
    # the float16 loss is within one rounding of the exact one (summed in
    # float16, its products and softplus values were off by a few units).
    rng = numpy.random.RandomState(1)

    def sampler(shape):
        return numpy.arange(numpy.prod(shape)).reshape(shape) % 5
    for _ in range(200):
        x = rng.uniform(-1, 1, (3, 3)).astype(numpy.float16)
        W = rng.uniform(-1, 1, (5, 3)).astype(numpy.float16)
        t = numpy.array([-1, 1, 2], numpy.int32)
        loss, samples = F.negative_sampling(x, t, W, sampler, 2,
                                            return_samples=True)
        assert loss.dtype == numpy.float16
        scores = numpy.einsum('nsd,nd->ns', W[numpy.maximum(samples, 0)]
                              .astype(numpy.float64), x.astype(numpy.float64))
        scores[:, 0] *= -1
        exact = (numpy.logaddexp(0, scores).sum(axis=1) * (t != -1)).sum()
        assert abs(float(loss.array) - exact) <= numpy.spacing(
            numpy.float16(exact)), (loss.array, exact)


def test_word_loss_type_checks():
    # negative_sampling's and black_out's checks each way round: an ndim
    # above and below, a dtype of W larger and smaller than x's.
    W = _rng.randn(5, 3).astype(numpy.float32)
    t = numpy.array([0, 1, 4, 2], numpy.int32)
    samples = numpy.array([[1, 2]] * 4, numpy.int32)
    W64 = W.astype(numpy.float64)
    X64 = X.astype(numpy.float64)

    def sampler(shape):
        return numpy.zeros(shape, numpy.int32)
    _each_raises(lambda x, t, W: F.negative_sampling(x, t, W, sampler, 2), [
        ((X[0], t[:1], W), 'x.ndim'), ((X[:, None], t, W), 'x.ndim'),
        ((X, t[:, None], W), 't.ndim'), ((X, t[0], W), 't.ndim'),
        ((X, t, W[0]), 'W.ndim'), ((X, t, W[None]), 'W.ndim'),
        ((X, t, W64), 'W.dtype'), ((X64, t, W), 'W.dtype'),
        *[((X.astype(dtype), t, W.astype(dtype)), 'x.dtype.kind')
          for dtype in (numpy.int32, numpy.complex64)],
        ((X, t.astype(numpy.float32), W), 't.dtype.kind'),
        ((X, t.astype(numpy.uint8), W), 't.dtype.kind'),
        ((X, t[:3], W), 't.shape'),
        ((X, numpy.zeros(5, numpy.int32), W), 't.shape'),
        ((X, t, W[:, :2]), 'W.shape'), ((X[:, :2], t, W), 'W.shape')])
    _each_raises(F.black_out, [
        ((X[:, None], t, W, samples), 'x.ndim'),
        ((X[0], t[:1], W, samples[:1]), 'x.ndim'),
        ((X, t[:, None], W, samples), 't.ndim'),
        ((X, t[0], W, samples), 't.ndim'),
        ((X, t, W[None], samples), 'W.ndim'),
        ((X, t, W[0], samples), 'W.ndim'),
        ((X, t, W64, samples), 'W.dtype'), ((X64, t, W, samples), 'W.dtype'),
        *[((X.astype(dtype), t, W.astype(dtype), samples), 'x.dtype.kind')
          for dtype in (numpy.int32, numpy.complex64)],
        ((X, t.astype(numpy.float32), W, samples), 't.dtype.kind'),
        ((X, t.astype(numpy.uint8), W, samples), 't.dtype.kind'),
        ((X, t, W, samples.astype(numpy.float32)), 'samples.dtype.kind'),
        ((X, t, W, samples.astype(numpy.uint8)), 'samples.dtype.kind'),
        ((X, t, W, samples[0]), 'samples.ndim'),
        ((X, t, W, samples[:, :, None]), 'samples.ndim'),
        ((X, t[:3], W, samples), 't.shape'),
        ((X, numpy.zeros(5, numpy.int32), W, samples), 't.shape'),
        ((X, t, W, samples[:3]), 'samples.shape'),
        ((X, t, W, numpy.zeros((5, 2), numpy.int32)), 'samples.shape'),
        ((X, t, W[:, :2], samples), 'W.shape'),
        ((X[:, :2], t, W, samples), 'W.shape')])


def test_black_out_float16_rounds_once():
    # float16 inputs: the scores and the loss are computed in float32, so
    # the float16 loss is within one rounding of the exact one.
    rng = numpy.random.RandomState(2)
    t = numpy.array([0, 1, 4], numpy.int32)
    samples = numpy.array([[1, 2], [3, 0], [2, 2]], numpy.int32)
    for _ in range(100):
        x = rng.uniform(-2, 2, (3, 3)).astype(numpy.float16)
        W = rng.uniform(-2, 2, (5, 3)).astype(numpy.float16)
        loss = F.black_out(x, t, W, samples)
        assert loss.dtype == numpy.float16
        x64, W64 = x.astype(numpy.float64), W.astype(numpy.float64)
        scores = numpy.concatenate(
            [(W64[t] * x64).sum(axis=1)[:, None],
             numpy.einsum('nsd,nd->ns', W64[samples], x64)], axis=1)
        log_z = numpy.logaddexp.reduce(scores, axis=1)
        p = numpy.exp(scores[:, 1:] - log_z[:, None])
        exact = (log_z - scores[:, 0] - numpy.log1p(-p).sum(axis=1)).mean()
        assert abs(float(loss.array) - exact) <= numpy.spacing(
            numpy.float16(exact)), (loss.array, exact)


def test_discriminative_loss_of_nan_is_nan():
    # A NaN embedding gives NaN terms, as the square root of its squared
    # distances does (the guard of the root at 0 must not take NaN for 0).
    e = _rng.randn(1, 2, 2, 2).astype(numpy.float32)
    e[0, 0, 0, 0] = numpy.nan
    labels = numpy.array([[[1, 1], [2, 2]]], numpy.int32)
    terms = F.discriminative_margin_based_clustering_loss(
        e, labels, 0.5, 1.5, 2, norm=2)
    assert all(numpy.isnan(float(term.array)) for term in terms)


_draws = numpy.random.RandomState()  # the samplers' below


def test_contrastive_replays_each_calls_labels_and_zero_distances():
    x0 = _rng.uniform(-1, 1, (3, 3, 2)).astype(numpy.float32)
    x1 = x0 + _rng.uniform(0.1, 0.5, (3, 3, 2)).astype(numpy.float32)
    # A pair at distance 0 in the replay only: its gradient is 0, not the
    # NaN of a root guarded where the recordings had no zero.
    x1[2, 0] = x0[2, 0]
    labels = numpy.array([[1, 0, 1], [0, 1, 1], [0, 1, 0]], numpy.int32)
    check_replays(F.contrastive, list(zip(x0, x1, labels)))


def test_negative_sampling_draws_anew_on_replays():
    x = _rng.uniform(-1, 1, (3, 3, 2)).astype(numpy.float32)
    W = _rng.uniform(-1, 1, (5, 2)).astype(numpy.float32)
    t = numpy.array([[0, -1, 4], [2, 3, -1], [-1, 1, 1]], numpy.int32)

    def loss(x, t, W):
        return F.negative_sampling(
            x, t, W, lambda shape: _draws.randint(0, 5, shape), 2)
    check_replays(loss, [(x[i], t[i], W) for i in range(3)],
                  before_call=_draws.seed)


def test_black_out_replays_each_calls_targets_and_samples():
    x = _rng.uniform(-1, 1, (3, 2, 3)).astype(numpy.float32)
    W = _rng.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    t = numpy.array([[0, 1], [2, 3], [3, 0]], numpy.int32)
    samples = numpy.array([[[1, 2], [0, 1]], [[3, 3], [2, 0]],
                           [[0, 2], [1, 2]]], numpy.int32)
    check_replays(F.black_out, [(x[i], t[i], W, samples[i])
                                for i in range(3)])

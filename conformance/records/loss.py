"""Records of the loss functions."""
import itertools

import numpy
import scipy.special
from hypothesis import strategies as st

from harness.record import FLOAT16
from harness.record import record
from harness.record import sample
from harness.strategies import floats
from harness.strategies import large_floats
from harness.strategies import shapes
from kusari.autograd import functions as F

# float16 sums over a batch round at every partial sum.
_LOOSE_FLOAT16 = {FLOAT16: {'forward': {'atol': 5e-2, 'rtol': 5e-2},
                            'backward': {'atol': 5e-2, 'rtol': 5e-2},
                            'double_backward': {'atol': 1e-1,
                                                'rtol': 1e-1}}}


def _reduce(loss, reduce):
    if reduce == 'sum':
        return loss.sum()
    if reduce == 'mean':
        return loss.mean() if loss.size else numpy.nan
    return loss


def _softplus(x):
    return numpy.logaddexp(0, x)


def _log_softmax(x):
    shifted = x - x.max(axis=1, keepdims=True)
    return shifted - numpy.log(numpy.exp(shifted).sum(axis=1, keepdims=True))


@st.composite
def _same_shape(draw, n, shape=None, **options):
    """``n`` float arrays of one shape drawn from ``shape``."""
    shape = draw(shapes() if shape is None else shape)
    return tuple(draw(floats(shape=shape, **options)) for _ in range(n))


@st.composite
def _pair(draw, shape=None):
    """x0 and x1 = x0 + d with |d| >= 0.1: the difference stays off 0."""
    x0, = draw(_same_shape(1, shape))
    d = draw(floats(shape=x0.shape, low=-1.0, high=1.0, away_from=[0.0]))
    return x0, x0 + d


def _spread(array):
    """``array`` plus a fixed irregular pattern: ties (of maxima, of
    points) are then off the draws Hypothesis shrinks to, such as zeros."""
    pattern = numpy.sin(numpy.arange(1, array.size + 1) * 1.7)
    return array + pattern.reshape(array.shape)


def _with_reduce(strategy, reduces):
    return st.tuples(strategy, st.sampled_from(reduces)).map(
        lambda pair: sample(*pair[0], reduce=pair[1]))


record('absolute_error', F.absolute_error,
       reference=lambda a, b: numpy.abs(a - b), inputs=_pair())
record('squared_error', F.squared_error,
       reference=lambda a, b: (a - b) ** 2, inputs=_same_shape(2))
record('mean_absolute_error', F.mean_absolute_error,
       reference=lambda a, b: _reduce(numpy.abs(a - b), 'mean'),
       inputs=_pair(), tolerances=_LOOSE_FLOAT16)
record('mean_squared_error', F.mean_squared_error,
       reference=lambda a, b: _reduce((a - b) ** 2, 'mean'),
       inputs=_same_shape(2), tolerances=_LOOSE_FLOAT16)


@st.composite
def _huber_sample(draw):
    delta = draw(st.sampled_from([0.5, 1.0]))
    x = draw(floats(shape=shapes(min_dims=2, max_dims=3)))
    d = draw(floats(shape=x.shape, away_from=[-delta, delta]))
    reduce = draw(st.sampled_from(['sum_along_second_axis', 'no']))
    return sample(x, x - d, delta=delta, reduce=reduce)


def _huber_reference(x, t, delta, reduce):
    d = numpy.abs(x - t)
    loss = numpy.where(d <= delta, d * d / 2, delta * (d - delta / 2))
    return loss.sum(axis=1) if reduce == 'sum_along_second_axis' else loss


record('huber_loss', F.huber_loss, reference=_huber_reference,
       inputs=_huber_sample(), tolerances=_LOOSE_FLOAT16)

_VAE_REDUCE = ('sum', 'mean', 'no')
record('gaussian_kl_divergence', F.gaussian_kl_divergence,
       reference=lambda m, v, reduce: _reduce(
           (m * m + numpy.exp(v) - v - 1) / 2, reduce),
       inputs=_with_reduce(_same_shape(2), _VAE_REDUCE),
       tolerances=_LOOSE_FLOAT16)
record('gaussian_nll', F.gaussian_nll,
       reference=lambda x, m, v, reduce: _reduce(
           (numpy.log(2 * numpy.pi) + v + (x - m) ** 2 * numpy.exp(-v)) / 2,
           reduce),
       inputs=_with_reduce(_same_shape(3), _VAE_REDUCE),
       tolerances=_LOOSE_FLOAT16)
record('bernoulli_nll', F.bernoulli_nll,
       reference=lambda x, y, reduce: _reduce(_softplus(y) - x * y, reduce),
       inputs=_with_reduce(_same_shape(2), _VAE_REDUCE),
       tolerances=_LOOSE_FLOAT16)


def _labels(draw, shape, n_class, ignore=True):
    low = -1 if ignore else 0
    return numpy.asarray(draw(st.lists(
        st.integers(low, n_class - 1), min_size=int(numpy.prod(shape)),
        max_size=int(numpy.prod(shape)))), numpy.int32).reshape(shape)


@st.composite
def _sigmoid_ce_sample(draw, values=floats):
    x = draw(values(shape=shapes(min_dims=1, max_dims=3)))
    t = _labels(draw, x.shape, 2)
    # normalize given, or left to its default (True).
    normalize = draw(st.sampled_from([{}, {'normalize': True},
                                      {'normalize': False}]))
    return sample(x, t, reduce=draw(st.sampled_from(['mean', 'no'])),
                  **normalize)


def _sigmoid_ce_reference(x, t, reduce, normalize=True):
    kept = t != -1
    loss = (_softplus(x) - x * t) * kept
    if reduce == 'no':
        return loss
    count = kept.sum() if normalize else (x.shape[0] if x.ndim else 1)
    return loss.sum() / max(count, 1)


record('sigmoid_cross_entropy', F.sigmoid_cross_entropy,
       reference=_sigmoid_ce_reference, inputs=_sigmoid_ce_sample(),
       no_grads=(False, True), tolerances=_LOOSE_FLOAT16)
# Scores of magnitude 10 to 30, where exp(x) overflows float16: the loss
# (up to 30 an element) then holds 2 to 3 significant digits in float16.
record('sigmoid_cross_entropy:large', F.sigmoid_cross_entropy,
       reference=_sigmoid_ce_reference,
       inputs=_sigmoid_ce_sample(large_floats), no_grads=(False, True),
       tolerances=_LOOSE_FLOAT16)


@st.composite
def _softmax_ce_sample(draw, values=floats):
    """Labels with ``ignore_label`` among them: its default -1, or given
    as -1, a class (whose examples then count for nothing) or one past
    the classes."""
    n_class = draw(st.integers(1, 4))
    n, *rest = draw(shapes(min_dims=1, max_dims=2))
    x = draw(values(shape=(n, n_class, *rest)))
    t = _labels(draw, (n, *rest), n_class)
    kwargs = {}
    ignore_label = draw(st.sampled_from([None, -1, 0, n_class]))
    if ignore_label is not None:
        t[t == -1] = ignore_label
        kwargs['ignore_label'] = ignore_label
    weight = draw(st.none() | floats(shape=(n_class,), low=0.5))
    return sample(x, t, normalize=draw(st.booleans()),
                  cache_score=draw(st.booleans()), class_weight=weight,
                  reduce=draw(st.sampled_from(['mean', 'no'])),
                  enable_double_backprop=draw(st.booleans()), **kwargs)


def softmax_ce_reference(x, t, normalize=True, cache_score=True,
                         class_weight=None, reduce='mean', ignore_label=-1,
                         enable_double_backprop=False):
    """Softmax cross entropy of integer labels, ignoring
    ``ignore_label``."""
    t = t.astype(int)  # the checks give the reference float64 copies
    kept = t != ignore_label
    safe = numpy.where(kept, t, 0)
    log_y = numpy.take_along_axis(_log_softmax(x), safe[:, None], axis=1)
    weight = 1.0 if class_weight is None else class_weight[safe]
    loss = -log_y[:, 0] * weight * kept
    if reduce == 'no':
        return loss
    count = kept.sum() if normalize else x.shape[0]
    return loss.sum() / max(count, 1)


def _call_with_weight(x, t, class_weight, **kwargs):
    if class_weight is not None:
        class_weight = class_weight.astype(x.dtype)
    return F.softmax_cross_entropy(x, t, class_weight=class_weight,
                                   **kwargs)


record('softmax_cross_entropy', _call_with_weight,
       reference=softmax_ce_reference, inputs=_softmax_ce_sample(),
       no_grads=(False, True), tolerances=_LOOSE_FLOAT16)
# Scores of magnitude 10 to 30: the exponentials overflow float16 unless
# the maximum is subtracted first (the loss, up to 60 an example, then
# holds 2 to 3 significant digits in float16).
record('softmax_cross_entropy:large', _call_with_weight,
       reference=softmax_ce_reference,
       inputs=_softmax_ce_sample(large_floats), no_grads=(False, True),
       tolerances=_LOOSE_FLOAT16)


@st.composite
def _soft_target_sample(draw):
    x = draw(floats(shape=shapes(min_dims=2, max_dims=3, min_side=1)))
    t = draw(floats(shape=x.shape, low=0.1, high=1.0))
    if draw(st.booleans()):
        # Classes of probability 0 (0 log 0 is 0), one class kept.
        t[:, 1:] *= draw(floats(shape=x.shape, low=-1.0, high=1.0))[
            :, 1:] > 0
    t /= t.sum(axis=1, keepdims=True)
    return sample(x, t, reduce=draw(st.sampled_from(['mean', 'no'])),
                  soft_target_loss=draw(st.sampled_from(
                      ['cross-entropy', 'kl-divergence'])))


def _soft_target_reference(x, t, reduce, soft_target_loss):
    loss = -(t * _log_softmax(x)).sum(axis=1)
    if soft_target_loss == 'kl-divergence':
        loss += scipy.special.xlogy(t, t).sum(axis=1)
    return _reduce(loss, reduce)


record('softmax_cross_entropy:soft_target', F.softmax_cross_entropy,
       reference=_soft_target_reference, inputs=_soft_target_sample(),
       no_grads=(False, True), tolerances=_LOOSE_FLOAT16, zero_size=False,
       reason='soft targets are normalized along axis 1, which must not '
              'be empty')


@st.composite
def _hinge_sample(draw):
    n, k = draw(shapes(min_dims=2, max_dims=2, min_side=1))
    x = draw(floats(shape=(n, k), away_from=[-1.0, 1.0]))
    return sample(x, _labels(draw, (n,), k, ignore=False),
                  norm=draw(st.sampled_from(['L1', 'L2'])),
                  reduce=draw(st.sampled_from(['mean', 'no'])))


def _hinge_reference(x, t, norm, reduce):
    t = t.astype(int)
    sign = numpy.ones_like(x)
    sign[numpy.arange(len(t)), t] = -1
    loss = numpy.maximum(0, 1 + sign * x) ** (1 if norm == 'L1' else 2)
    return loss if reduce == 'no' else loss.sum() / max(len(x), 1)


record('hinge', F.hinge, reference=_hinge_reference, inputs=_hinge_sample(),
       no_grads=(False, True), tolerances=_LOOSE_FLOAT16, zero_size=False,
       reason='needs at least one class for the labels')


@st.composite
def _contrastive_sample(draw):
    # Distances in [0.1, 0.9): off 0, where the norm has no derivative,
    # and off the kink of the hinge at the margin: its default 1 and 3
    # (every dissimilar pair pushed), or 0.05 (none: the hinge is 0).
    n, d = draw(shapes(min_dims=2, max_dims=2, max_side=3))
    x0 = draw(floats(shape=(n, d), low=-1.0, high=1.0))
    step = draw(floats(shape=(n, d), low=0.1, high=0.5))
    margin = draw(st.sampled_from([{}, {'margin': 3.0},
                                   {'margin': 0.05}]))
    return sample(x0, x0 + step, _labels(draw, (n,), 2, ignore=False),
                  reduce=draw(st.sampled_from(['mean', 'no'])), **margin)


def _contrastive_reference(x0, x1, y, reduce, margin=1.0):
    d = numpy.sqrt(((x0 - x1) ** 2).sum(axis=1))
    loss = (y * d * d + (1 - y) * numpy.maximum(margin - d, 0) ** 2) / 2
    return loss if reduce == 'no' else loss.sum() / max(len(y), 1)


record('contrastive', F.contrastive, reference=_contrastive_reference,
       inputs=_contrastive_sample(), no_grads=(False, False, True),
       tolerances=_LOOSE_FLOAT16)


@st.composite
def _triplet_sample(draw):
    # Squared distances below 3 and margin 5: the hinge never clips. With
    # the default margin 0.2, the positive is 1 or more (squared) farther
    # than the negative, or nearer by as much: the hinge is off its kink,
    # and clips where the positive is the nearer.
    n, d = draw(shapes(min_dims=2, max_dims=2, max_side=3))
    anchor, near, far = [draw(floats(shape=(n, d), low=-0.5, high=0.5))
                         for _ in range(3)]
    kwargs = {'reduce': draw(st.sampled_from(['mean', 'no']))}
    if draw(st.booleans()):
        return sample(anchor, near, far, margin=5.0, **kwargs)
    far = anchor + numpy.where(far < 0, far - 1, far + 1)
    near = anchor + near / 2
    if draw(st.booleans()):
        near, far = far, near
    return sample(anchor, near, far, **kwargs)


def _triplet_reference(a, p, n, reduce, margin=0.2):
    loss = numpy.maximum(
        ((a - p) ** 2).sum(axis=1) - ((a - n) ** 2).sum(axis=1) + margin, 0)
    return _reduce(loss, reduce)


record('triplet', F.triplet, reference=_triplet_reference,
       inputs=_triplet_sample(), tolerances=_LOOSE_FLOAT16)


def _covariance(y, z):
    yc, zc = y - y.mean(axis=0), z - z.mean(axis=0)
    return yc.T @ zc / max(len(y), 1)


@st.composite
def _cross_covariance_sample(draw):
    n, m = draw(shapes(min_dims=2, max_dims=2))
    k = draw(st.integers(1, 4))
    return sample(draw(floats(shape=(n, m))), draw(floats(shape=(n, k))),
                  reduce=draw(st.sampled_from(['half_squared_sum', 'no'])))


record('cross_covariance', F.cross_covariance,
       reference=lambda y, z, reduce: (_covariance(y, z) ** 2).sum() / 2
       if reduce == 'half_squared_sum' else _covariance(y, z),
       inputs=_cross_covariance_sample(), tolerances=_LOOSE_FLOAT16)


def _decov_reference(h, reduce):
    cov = _covariance(h, h)
    cov = cov * (1 - numpy.eye(len(cov)))
    return (cov ** 2).sum() / 2 if reduce == 'half_squared_sum' else cov


record('decov', F.decov, reference=_decov_reference,
       inputs=_with_reduce(
           st.tuples(floats(shape=shapes(min_dims=2, max_dims=2))),
           ('half_squared_sum', 'no')),
       tolerances=_LOOSE_FLOAT16)


@st.composite
def _word_sample(draw):
    n, d = draw(shapes(min_dims=2, max_dims=2, min_side=1, max_side=4))
    v = draw(st.integers(2, 6))
    x = draw(floats(shape=(n, d)))
    W = draw(floats(shape=(v, d)))
    return n, v, x, W


@st.composite
def _black_out_sample(draw):
    n, v, x, W = draw(_word_sample())
    t = _labels(draw, (n,), v, ignore=False)
    samples = _labels(draw, (n, draw(st.integers(1, 3))), v, ignore=False)
    return sample(x, t, W, samples,
                  reduce=draw(st.sampled_from(['mean', 'no'])))


def _black_out_reference(x, t, W, samples, reduce):
    t, samples = t.astype(int), samples.astype(int)
    positive = (W[t] * x).sum(axis=1)
    negative = numpy.einsum('nsd,nd->ns', W[samples], x)
    scores = numpy.concatenate([positive[:, None], negative], axis=1)
    log_z = scipy.special.logsumexp(scores, axis=1)
    # log(1 - p_k) as the log-sum-exp of the scores other than sample k's:
    # log1p(-p_k) loses all precision where p_k is near 1.
    others = 1 - numpy.eye(scores.shape[1])[1:]
    log_rest = scipy.special.logsumexp(scores[:, None, :], axis=2, b=others)
    loss = log_z - positive - (log_rest - log_z[:, None]).sum(axis=1)
    return loss if reduce == 'no' else loss.sum() / len(t)


record('black_out', F.black_out, reference=_black_out_reference,
       inputs=_black_out_sample(), no_grads=(False, True, False, True),
       tolerances=_LOOSE_FLOAT16, zero_size=False,
       reason='draws word ids, which need a non-empty vocabulary')


class _FixedSampler:
    """Returns the given ids, whatever the shape asked."""

    def __init__(self, ids):
        self.ids = ids

    def __call__(self, shape):
        assert shape == self.ids.shape
        return self.ids.copy()

    def __repr__(self):
        return f'sampler({self.ids.tolist()})'


@st.composite
def _negative_sampling_sample(draw):
    n, v, x, W = draw(_word_sample())
    size = draw(st.integers(1, 3))
    ids = _labels(draw, (n, size + 1), v, ignore=False)
    return sample(x, _labels(draw, (n,), v), W, sampler=_FixedSampler(ids),
                  sample_size=size,
                  reduce=draw(st.sampled_from(['sum', 'no'])))


def _negative_sampling_reference(x, t, W, sampler, sample_size, reduce):
    t = t.astype(int)
    ids = sampler.ids.copy()
    ids[:, 0] = numpy.where(t < 0, 0, t)
    scores = numpy.einsum('nsd,nd->ns', W[ids], x)
    scores[:, 0] *= -1
    loss = _softplus(scores).sum(axis=1) * (t != -1)
    return loss.sum() if reduce == 'sum' else loss


record('negative_sampling', F.negative_sampling,
       reference=_negative_sampling_reference,
       inputs=_negative_sampling_sample(), no_grads=(False, True, False),
       tolerances=_LOOSE_FLOAT16, zero_size=False,
       reason='draws word ids, which need a non-empty vocabulary')


@st.composite
def crf_sample(draw, n_label=None):
    """A transition matrix and emission steps of non-growing batches."""
    k = n_label or draw(st.integers(1, 3))
    lengths = sorted(draw(st.lists(st.integers(1, 3), min_size=1,
                                   max_size=3)), reverse=True)
    batches = [sum(1 for length in lengths if length > step)
               for step in range(lengths[0])]
    cost = draw(floats(shape=(k, k)))
    xs = [draw(floats(shape=(b, k))) for b in batches]
    ys = [_labels(draw, (b,), k, ignore=False) for b in batches]
    return cost, xs, ys


@st.composite
def _crf1d_sample(draw):
    cost, xs, ys = draw(crf_sample())
    return sample(cost, *xs, ys=ys,
                  reduce=draw(st.sampled_from(['mean', 'no'])))


def crf1d_reference(cost, *xs, ys, reduce='mean'):
    """-log p(ys) by enumerating every path of every sequence."""
    k = cost.shape[0]
    losses = []
    for b in range(len(xs[0])):
        steps = [x[b] for x in xs if len(x) > b]

        def score(path):
            return sum(step[label] for step, label in zip(steps, path)) + \
                sum(cost[i, j] for i, j in zip(path, path[1:]))
        log_z = numpy.logaddexp.reduce(
            [score(p) for p in itertools.product(range(k),
                                                 repeat=len(steps))])
        losses.append(log_z - score([y[b] for y in ys if len(y) > b]))
    losses = numpy.array(losses)
    return losses if reduce == 'no' else losses.sum() / len(losses)


record('crf1d', lambda cost, *xs, ys, reduce: F.crf1d(cost, xs, ys, reduce),
       reference=crf1d_reference, inputs=_crf1d_sample(),
       tolerances=_LOOSE_FLOAT16, zero_size=False,
       reason='a CRF needs at least one label and one step')


@st.composite
def _argmax_crf1d_sample(draw):
    cost, xs, _ = draw(crf_sample())
    return sample(_spread(cost), *[_spread(x) for x in xs])


def _argmax_crf1d_reference(cost, *xs):
    k = cost.shape[0]
    best = []
    for b in range(len(xs[0])):
        steps = [x[b] for x in xs if len(x) > b]
        best.append(max(
            sum(step[label] for step, label in zip(steps, path))
            + sum(cost[i, j] for i, j in zip(path, path[1:]))
            for path in itertools.product(range(k), repeat=len(steps))))
    return numpy.array(best)


record('argmax_crf1d', lambda cost, *xs: F.argmax_crf1d(cost, xs)[0],
       reference=_argmax_crf1d_reference, inputs=_argmax_crf1d_sample(),
       tolerances=_LOOSE_FLOAT16, zero_size=False,
       reason='a CRF needs at least one label and one step')


@st.composite
def _ctc_sample(draw):
    """Labels of symbols other than the blank (0 or the last symbol);
    input and label lengths left out or given, the input lengths long
    enough for an alignment to exist."""
    n_batch = draw(st.integers(1, 2))
    n_vocab = draw(st.integers(2, 4))
    n_label = draw(st.integers(1, 2))
    n_time = draw(st.integers(2 * n_label + 1, 2 * n_label + 3))
    blank = draw(st.sampled_from([0, n_vocab - 1]))
    symbols = [s for s in range(n_vocab) if s != blank]
    xs = [draw(floats(shape=(n_batch, n_vocab))) for _ in range(n_time)]
    t = numpy.asarray(draw(st.lists(
        st.sampled_from(symbols), min_size=n_batch * n_label,
        max_size=n_batch * n_label)), numpy.int32).reshape(n_batch, n_label)
    kwargs = dict(t=t, blank_symbol=blank,
                  reduce=draw(st.sampled_from(['mean', 'no'])))
    label_length = numpy.full(n_batch, n_label, numpy.int32)
    if draw(st.booleans()):
        label_length = numpy.asarray(draw(st.lists(
            st.integers(0, n_label), min_size=n_batch, max_size=n_batch)),
            numpy.int32)
        kwargs['label_length'] = label_length
    if draw(st.booleans()):
        kwargs['input_length'] = numpy.asarray(
            [draw(st.integers(2 * length + 1, n_time))
             for length in label_length], numpy.int32)
    return sample(*xs, **kwargs)


def ctc_reference(*xs, t, reduce='mean', blank_symbol=0, input_length=None,
                  label_length=None):
    """-log p(t | x) by enumerating every alignment (tiny inputs only)."""
    log_y = numpy.stack([_log_softmax(x) for x in xs])
    n_time, n_batch, n_vocab = log_y.shape
    losses = []
    for b in range(n_batch):
        length = n_time if input_length is None else int(input_length[b])
        target = [int(s) for s in t[b]][
            :None if label_length is None else int(label_length[b])]
        total = []
        for path in itertools.product(range(n_vocab), repeat=length):
            merged = [s for i, s in enumerate(path)
                      if s != blank_symbol and (i == 0 or s != path[i - 1])]
            if merged == target:
                total.append(sum(log_y[i, b, s] for i, s in enumerate(path)))
        losses.append(-numpy.logaddexp.reduce(total))
    losses = numpy.array(losses)
    return losses if reduce == 'no' else losses.mean()


def _ctc(*xs, t, blank_symbol, **kwargs):
    return F.connectionist_temporal_classification(list(xs), t,
                                                   blank_symbol, **kwargs)


record('connectionist_temporal_classification', _ctc,
       reference=ctc_reference, inputs=_ctc_sample(),
       tolerances=_LOOSE_FLOAT16, double_backprop=False, zero_size=False,
       reason='as in Chainer the gradient is computed on arrays, so it is '
              'not differentiable again; labels need a non-empty batch')


@st.composite
def _discriminative_sample(draw):
    n_cluster = draw(st.integers(1, 3))
    n_batch, h, w = draw(shapes(min_dims=3, max_dims=3, min_side=1,
                                max_side=3))
    embeddings = _spread(draw(floats(shape=(n_batch, n_cluster, h, w))))
    labels = _labels(draw, (n_batch, h, w), n_cluster + 1, ignore=False)
    weights = draw(st.sampled_from(
        [{}, {'alpha': 0.5, 'beta': 2.0, 'gamma': 0.1}, {'gamma': 1.0}]))
    return sample(embeddings, labels=labels, max_embedding_dim=n_cluster,
                  norm=draw(st.sampled_from([1, 2])), **weights)


def _discriminative_reference(embeddings, labels, max_embedding_dim, norm,
                              alpha=1.0, beta=1.0, gamma=0.001):
    """The three terms, one instance and one image at a time, with the
    L1 or L2 ``norm`` of each distance."""
    def length(v, axis=None):
        return (abs(v).sum(axis=axis) if norm == 1
                else numpy.sqrt((v ** 2).sum(axis=axis)))
    n_batch = len(embeddings)
    k = max_embedding_dim
    means = numpy.zeros((k, n_batch, embeddings.shape[1]))
    variance = numpy.zeros(k)
    for c in range(k):
        pixels = 0
        for b in range(n_batch):
            mask = labels[b] == c + 1
            points = embeddings[b][:, mask]
            pixels += mask.sum()
            if mask.any():
                means[c, b] = points.mean(axis=1)
                spread = length(points - means[c, b][:, None], axis=0)
                variance[c] += (numpy.maximum(spread - 0.5, 0) ** 2).sum()
        variance[c] /= max(pixels, 1)
    distance = 0.0
    for a in range(k):
        for b in range(a + 1, k):
            apart = length(means[a] - means[b], axis=1)
            distance += (numpy.maximum(3.0 - apart, 0) ** 2).sum()
    distance /= max(k * (k - 1) // 2 * n_batch, 1)
    regularization = sum(length(means[c]) for c in range(k)) / (k * n_batch)
    return (alpha * variance.sum() / k, beta * distance,
            gamma * regularization)


record('discriminative_margin_based_clustering_loss',
       lambda e, labels, max_embedding_dim, norm, **weights:
       F.discriminative_margin_based_clustering_loss(
           e, labels, 0.5, 1.5, max_embedding_dim, norm=norm, **weights),
       reference=_discriminative_reference, inputs=_discriminative_sample(),
       tolerances=_LOOSE_FLOAT16, zero_size=False,
       reason='the embeddings need one channel per instance')

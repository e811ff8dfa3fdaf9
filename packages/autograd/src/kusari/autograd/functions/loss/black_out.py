"""BlackOut loss: a sampled approximation of the softmax cross entropy."""
import numpy

from kusari.array import backend
from kusari.autograd.functions.array.cast import cast
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.array.expand_dims import expand_dims
from kusari.autograd.functions.connection.embed_id import embed_id
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.math.exponential import exp
from kusari.autograd.functions.math.logarithm_1p import log1p
from kusari.autograd.functions.math.logsumexp import logsumexp
from kusari.autograd.functions.math.minmax import argmax
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_array


def _check(in_types):
    x_type, t_type, w_type, samples_type = in_types
    type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 2,
                      t_type.dtype.kind == 'i', t_type.ndim == 1,
                      w_type.dtype == x_type.dtype, w_type.ndim == 2,
                      samples_type.dtype.kind == 'i', samples_type.ndim == 2)
    type_check.expect(x_type.shape[0] == t_type.shape[0],
                      x_type.shape[0] == samples_type.shape[0],
                      x_type.shape[1] == w_type.shape[1])


def _masks(scores):
    """Additive masks of ``scores`` (column 0 the target's, then the
    samples'): -inf at each row's top sample score and 0 elsewhere (all 0
    without samples); and the same with -inf at the target too. Computed
    by functions (an argmax picking rows of constant tables), so a static
    graph's replay finds each row's top sample anew."""
    xp = backend.get_array_module(scores)
    n, width = scores.shape
    table = xp.where(xp.eye(width, dtype=bool), -xp.inf, 0).astype(
        scores.dtype)
    with_target = table.copy()
    with_target[:, 0] = -xp.inf
    if width == 1 or n == 0:  # no top sample
        return (xp.zeros(scores.shape, scores.dtype),
                xp.broadcast_to(with_target[:1], scores.shape))
    top = argmax(scores[:, 1:], axis=1) + 1
    return embed_id(top, table), embed_id(top, with_target)


def _ids(t, samples):
    """The ids of the rows of W each row scores, ``t`` then its samples,
    of their common dtype; joined by functions, so that a static graph's
    replay reads that call's ``t`` and ``samples``."""
    dtype = numpy.result_type(t.dtype, samples.dtype)
    return concat((expand_dims(cast(t, dtype), 1), cast(samples, dtype)),
                  axis=1)


def black_out(x, t, W, samples, reduce='mean'):
    """BlackOut loss (Ji et al., 2016) of ``x`` for the words ``t``,
    against the negative words ``samples``.

    With the scores :math:`s_t = x^\\top w_t` and :math:`s_k = x^\\top
    w_k` of the samples, and :math:`Z` the log-sum-exp of all of them, the
    loss of a row is :math:`-(s_t - Z) - \\sum_k \\log(1 - e^{s_k - Z})`.
    The top sample's term is taken as the log-sum-exp of the other scores
    minus :math:`Z`, so it stays exact where it outscores the rest by far.

    Args:
        x: Variable or array ``(N, D)``, float.
        t: array ``(N,)`` of word ids in ``[0, V)``.
        W: Variable or array ``(V, D)`` of the dtype of ``x``.
        samples: array ``(N, S)`` of negative word ids.
        reduce (str): ``'mean'`` (the sum divided by ``N``) or ``'no'``.

    Returns:
        Variable: a scalar, or ``(N,)``.
    """
    _common.check_option('black_out', 'reduce', reduce, ('mean', 'no'))
    _common.check_inputs('black_out', ('x', 't', 'W', 'samples'),
                         (x, t, W, samples), _check)
    n_vocab = W.shape[0]
    for name, ids in (('t', t), ('samples', samples)):
        _common.check_labels(f'black_out ({name})', ids, n_vocab, None)
    if x.dtype == numpy.float16:
        # float16 scores round to a few digits, and the log-sum-exps of
        # them lose the rest: compute in float32.
        loss = black_out(cast(x, numpy.float32), t,
                         cast(W, numpy.float32), samples, reduce)
        return cast(loss, numpy.float16)
    rows = embed_id(_ids(as_array(t), as_array(samples)), W)
    scores = sum_(rows * expand_dims(x, 1), axis=2)
    log_z = logsumexp(scores, axis=1)
    # log(1 - p_k) as log1p(-p_k) cancels where p_k is near 1 (s_k - Z
    # then holds little but the rounding of Z), which at most the top
    # sample of a row can be. There it is log(sum_{j != k} e^{s_j}) - Z,
    # and the mask leaves log1p(-0) in its place in the sum.
    top, top_and_target = _masks(scores)
    log_rest = logsumexp(scores + top, axis=1)
    p = exp(scores + top_and_target - expand_dims(log_z, 1))
    loss = 2 * log_z - scores[:, 0] - log_rest - sum_(log1p(-p), axis=1)
    if reduce == 'mean':
        return sum_(loss) / max(loss.shape[0], 1)
    return loss

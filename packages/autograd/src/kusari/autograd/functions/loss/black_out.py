"""BlackOut loss: a sampled approximation of the softmax cross entropy."""
import numpy

from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.cast import cast
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.array.expand_dims import expand_dims
from kusari.autograd.functions.connection.embed_id import embed_id
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.math.exponential import exp
from kusari.autograd.functions.math.logarithm_1p import log1p
from kusari.autograd.functions.math.logsumexp import logsumexp
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check


def _check(in_types):
    x_type, t_type, w_type, samples_type = in_types
    type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 2,
                      t_type.dtype.kind == 'i', t_type.ndim == 1,
                      w_type.dtype == x_type.dtype, w_type.ndim == 2,
                      samples_type.dtype.kind == 'i', samples_type.ndim == 2)
    type_check.expect(x_type.shape[0] == t_type.shape[0],
                      x_type.shape[0] == samples_type.shape[0],
                      x_type.shape[1] == w_type.shape[1])


def black_out(x, t, W, samples, reduce='mean'):
    """BlackOut loss (Ji et al., 2016) of ``x`` for the words ``t``,
    against the negative words ``samples``.

    With the scores :math:`s_t = x^\\top w_t` and :math:`s_k = x^\\top
    w_k` of the samples, and :math:`Z` the log-sum-exp of all of them, the
    loss of a row is :math:`-(s_t - Z) - \\sum_k \\log(1 - e^{s_k - Z})`.

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
        # A sample scoring far above the target rounds s_k - Z to 0 in
        # float16, and log(1 - e^0) is -inf: compute in float32.
        loss = black_out(cast(x, numpy.float32), t,
                         cast(W, numpy.float32), samples, reduce)
        return cast(loss, numpy.float16)
    x_rows = expand_dims(x, 1)
    negative_rows = embed_id(samples, W)
    negative = sum_(negative_rows * broadcast_to(x_rows, negative_rows.shape),
                    axis=2)
    positive = sum_(embed_id(t, W) * x, axis=1)
    log_z = logsumexp(concat((expand_dims(positive, 1), negative), axis=1),
                      axis=1)
    log_z_rows = broadcast_to(expand_dims(log_z, 1), negative.shape)
    loss = log_z - positive - sum_(log1p(-exp(negative - log_z_rows)), axis=1)
    if reduce == 'mean':
        return sum_(loss) / max(loss.shape[0], 1)
    return loss

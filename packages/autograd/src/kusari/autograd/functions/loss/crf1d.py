"""Linear-chain conditional random field: its negative log-likelihood,
and its most likely label sequences (Viterbi)."""
import numpy

from kusari.array import backend
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.array.expand_dims import expand_dims
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.select_item import select_item
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.math.logsumexp import logsumexp
from kusari.autograd.functions.math.minmax import max as max_
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_array
from kusari.autograd.variable import as_variable


def _check_sequence(func_name, cost, xs, ys=None):
    """Check the transition matrix, the score sequence and the labels:
    batch sizes must not grow along the sequence."""
    if len(xs) == 0:
        raise ValueError(f'{func_name}: xs must hold at least one step')
    if ys is not None and len(ys) != len(xs):
        raise ValueError(f'{func_name}: xs and ys must have one entry per '
                         f'step; got {len(xs)} and {len(ys)}')
    names = ('cost',) + tuple(f'xs[{i}]' for i in range(len(xs)))

    def check(in_types):
        cost_type = in_types[0]
        type_check.expect(cost_type.dtype.kind == 'f', cost_type.ndim == 2,
                          cost_type.shape[0] == cost_type.shape[1])
        for previous, x_type in zip(in_types[:-1], in_types[1:]):
            type_check.expect(x_type.dtype == cost_type.dtype,
                              x_type.ndim == 2,
                              x_type.shape[1] == cost_type.shape[0])
            if previous is not cost_type:
                type_check.expect(x_type.shape[0] <= previous.shape[0])

    _common.check_inputs(func_name, names, (cost,) + tuple(xs), check)
    if ys is None:
        return
    for i, (x, y) in enumerate(zip(xs, ys)):
        y = as_array(y)
        if y.ndim != 1 or y.dtype.kind != 'i' or len(y) != x.shape[0]:
            raise ValueError(
                f'{func_name}: ys[{i}] must be 1-D ints of length '
                f'{x.shape[0]} (the batch of xs[{i}]); got {y.dtype} of '
                f'shape {y.shape}')
        _common.check_labels(f'{func_name} (ys[{i}])', y, cost.shape[0],
                             None)


def _forward_scores(cost, xs, reduction):
    """Run ``alpha[j] <- reduction_i(alpha[i] + cost[i, j]) + x[j]`` along
    the sequence. Sequences that end early keep their last alpha; returns
    the final alphas of the whole batch, and what ``reduction`` gave for
    each step."""
    alpha = xs[0]
    finished = []
    per_step = []
    for x in xs[1:]:
        batch = x.shape[0]
        if alpha.shape[0] > batch:
            finished.append(alpha[batch:])
            alpha = alpha[:batch]
        shape = (batch,) + cost.shape
        scores = broadcast_to(expand_dims(alpha, 2), shape) + \
            broadcast_to(expand_dims(cost, 0), shape)
        reduced, extra = reduction(scores)
        per_step.append(extra)
        alpha = reduced + x
    if finished:
        alpha = concat([alpha] + finished[::-1], axis=0)
    return alpha, per_step


def _path_score(cost, xs, ys):
    """The score of the labelled paths: emissions plus transitions."""
    n_label = cost.shape[0]
    score = select_item(xs[0], ys[0])
    finished = []
    flat_cost = reshape(cost, (n_label * n_label,))
    for x, y, y_previous in zip(xs[1:], ys[1:], ys[:-1]):
        batch = x.shape[0]
        if score.shape[0] > batch:
            finished.append(score[batch:])
            score = score[:batch]
        y, y_previous = as_array(y), as_array(y_previous)[:batch]
        score = score + select_item(x, y) + flat_cost[
            y_previous * n_label + y]
    if finished:
        score = concat([score] + finished[::-1], axis=0)
    return score


@type_check.checks_inputs
def crf1d(cost, xs, ys, reduce='mean'):
    """Negative log-likelihood of label sequences under a linear-chain CRF.

    A path :math:`y_1 \\dots y_L` scores :math:`\\sum_l x_{l, y_l} +
    \\sum_l c_{y_{l-1}, y_l}`; the loss is :math:`\\log Z - \\mathrm{score}
    (y)`, :math:`Z` summing :math:`e^{\\mathrm{score}}` over all paths
    (forward algorithm in log space).

    Args:
        cost: Variable or array ``(K, K)``, float: transition scores
            :math:`c_{ij}` from label i to label j.
        xs: list of ``L`` Variables or arrays ``(B_l, K)``: the emission
            scores of each step, for the sequences still running (sorted
            by decreasing length, so ``B_l`` does not grow).
        ys: list of ``L`` int arrays ``(B_l,)``: the labels.
        reduce (str): ``'mean'`` (the sum divided by ``B_1``) or ``'no'``.

    Returns:
        Variable: a scalar, or ``(B_1,)``.
    """
    _common.check_option('crf1d', 'reduce', reduce, ('mean', 'no'))
    xs = tuple(xs)
    _check_sequence('crf1d', cost, xs, tuple(ys))
    cost, xs = as_variable(cost), tuple(as_variable(x) for x in xs)
    alpha, _ = _forward_scores(
        cost, xs, lambda scores: (logsumexp(scores, axis=1), None))
    loss = logsumexp(alpha, axis=1) - _path_score(cost, xs, ys)
    if reduce == 'mean':
        return sum_(loss) / max(loss.shape[0], 1)
    return loss


def _max_and_argmax(scores):
    best = scores.array.argmax(axis=1).astype(numpy.int32)
    return max_(scores, axis=1), best


def argmax_crf1d(cost, xs):
    """The most likely label sequences of a linear-chain CRF (Viterbi).

    Args:
        cost: Variable or array ``(K, K)``, float: transition scores.
        xs: list of ``L`` Variables or arrays ``(B_l, K)``: emission
            scores, batch sizes not growing (see :func:`crf1d`).

    Returns:
        tuple: a Variable ``(B_1,)`` of the best scores (differentiable),
        and the best paths as a list of ``L`` int arrays ``(B_l,)``.
    """
    xs = tuple(xs)
    _check_sequence('argmax_crf1d', cost, xs)
    cost, xs = as_variable(cost), tuple(as_variable(x) for x in xs)
    alpha, choices = _forward_scores(cost, xs, _max_and_argmax)
    xp = backend.get_array_module(alpha.array)
    # The label at the last step of each sequence, then back along the
    # choices; sequences ending at step l take their own last label there.
    last = alpha.array.argmax(axis=1).astype(numpy.int32)
    labels = last[:xs[-1].shape[0]]
    path = [labels]
    for x, choice in zip(xs[-2::-1], reversed(choices)):
        labels = xp.concatenate((choice[xp.arange(len(choice)), labels],
                                 last[len(choice):x.shape[0]]))
        path.append(labels)
    path.reverse()
    return max_(alpha, axis=1), path

"""Records of the normalization layers."""
import numpy

from harness.link_record import link_record
from kusari.array import backend
from kusari.array.configuration import using_config
from kusari.autograd import functions as F
from kusari.links import layers as L
from links.connection import B_4
from links.connection import absent
from links.connection import given
from links.connection import on
from links.connection import uniform


def _with_statistics(link, mean, var):
    """``link`` with the running statistics ``mean`` and ``var`` (lists,
    sent to the link's device)."""
    link.avg_mean[...] = link.xp.asarray(mean)
    link.avg_var[...] = link.xp.asarray(var)
    return link


def _inference(link, x):
    with using_config('train', False):
        return link(x)


def _unit_scale_and_shift(link):
    """The gamma and beta a normalization starts with by default: ones
    and zeros (both must exist: use_gamma and use_beta default to
    True)."""
    return (link.xp.ones_like(link.gamma.array),
            link.xp.zeros_like(link.beta.array))


# The default eps of the normalization layers.
_EPS = 2e-5
_MEAN, _VAR = [0.5, -1, 0], [2, 0.5, 1]


def _statistics_call(finetune=None, n_calls=None):
    """``call`` in training from the running statistics ``_MEAN`` and
    ``_VAR`` (and, with ``finetune``, ``n_calls`` calls counted; None
    counts them from start_finetuning), so that every call updates the
    same statistics."""
    def call(link, x):
        _with_statistics(link, _MEAN, _VAR)
        if finetune is None:
            return link(x)
        link.N = 5
        if n_calls is None:
            link.start_finetuning()
        else:
            link.N = n_calls
        return link(x, finetune=finetune)
    return call


def _first_finetuning_call(link, x):
    """A fine-tuning call of a link that counts its calls from the start
    (``N`` as built); the statistics are set before it."""
    _with_statistics(link, _MEAN, _VAR)
    return link(x, finetune=True)


def _counted_once(reference):
    """``reference``, asserting first that the link counted one
    fine-tuning call (the forward check calls it once)."""
    def counted(link, x):
        assert link.N == 1, f'{link!r}: N is {link.N} after one call'
        return reference(link, x)
    return counted


def _updated_statistics(decay):
    """``reference`` of a training call with the running statistics
    ``_MEAN`` and ``_VAR`` and ``decay``: the documented function with
    unit gamma and zero beta, which also updates its copies of the
    statistics; the link's must be the same."""
    def reference(link, x):
        mean, var = (link.xp.asarray(given(s)) for s in (_MEAN, _VAR))
        gamma, beta = _unit_scale_and_shift(link)
        y = F.batch_normalization(x, gamma, beta, eps=_EPS,
                                  running_mean=mean, running_var=var,
                                  decay=decay)
        for name, expected in (('avg_mean', mean), ('avg_var', var)):
            numpy.testing.assert_allclose(
                *(backend.CpuDevice().send_array(a).astype(numpy.float64)
                  for a in (getattr(link, name), expected)),
                **({'atol': 1e-2, 'rtol': 1e-2} if x.dtype == numpy.float16
                   else {'atol': 1e-6, 'rtol': 1e-5}),
                err_msg=f'{link!r}: {name} after a training call')
        return y
    return reference


link_record(
    'BatchNormalization', lambda: L.BatchNormalization(3),
    uniform((4, 3, 2)),
    lambda link, x: F.batch_normalization(
        x, *_unit_scale_and_shift(link), eps=_EPS),
    reason='without axis the size is required (as in Chainer); the lazy '
           'form is checked by BatchNormalization:axis')
link_record(
    # The running statistics after one call (decay 0.9 by default).
    'BatchNormalization:running_statistics',
    lambda: L.BatchNormalization(3), uniform((4, 3, 2)),
    _updated_statistics(0.9), call=_statistics_call(),
    reason='the statistics are set on a built link; the lazy form is '
           'checked by BatchNormalization:axis')
link_record(
    'BatchNormalization:decay',
    lambda: L.BatchNormalization(3, decay=0.5), uniform((4, 3)),
    _updated_statistics(0.5), call=_statistics_call(),
    reason='the statistics are set on a built link; the lazy form is '
           'checked by BatchNormalization:axis')
link_record(
    # The first call of fine-tuning takes the batch's statistics, the
    # third keeps two thirds of the running ones.
    'BatchNormalization:finetune_first',
    lambda: L.BatchNormalization(3), uniform((4, 3)),
    _updated_statistics(0.0), call=_statistics_call(True),
    reason='the statistics are set on a built link; the lazy form is '
           'checked by BatchNormalization:axis')
link_record(
    # A new link counts its fine-tuning calls from zero.
    'BatchNormalization:finetune_new',
    lambda: L.BatchNormalization(3), uniform((4, 3)),
    _counted_once(_updated_statistics(0.0)), call=_first_finetuning_call,
    reason='the statistics are set on a built link; the lazy form is '
           'checked by BatchNormalization:axis')
link_record(
    'BatchNormalization:finetune_third',
    lambda: L.BatchNormalization(3), uniform((4, 3)),
    _updated_statistics(2 / 3), call=_statistics_call(True, 2),
    reason='the statistics are set on a built link; the lazy form is '
           'checked by BatchNormalization:axis')
link_record(
    'BatchNormalization:initializers',
    lambda: L.BatchNormalization(3, eps=1e-3, initial_gamma=given(_VAR),
                                 initial_beta=0.25),
    uniform((4, 3)),
    lambda link, x: F.batch_normalization(
        x, on(link, _VAR), on(link, [0.25] * 3), eps=1e-3),
    reason='without axis the size is required (as in Chainer); the lazy '
           'form is checked by BatchNormalization:axis')
link_record(
    'BatchNormalization:no_gamma_beta',
    lambda: L.BatchNormalization(3, use_gamma=False, use_beta=False),
    uniform((4, 3)),
    lambda link, x: F.batch_normalization(
        x, absent(link.gamma, 'gamma') or link.xp.ones(3, x.dtype),
        absent(link.beta, 'beta') or link.xp.zeros(3, x.dtype), eps=_EPS),
    reason='without parameters, nothing is left to a first call')
link_record(
    'BatchNormalization:inference',
    lambda: L.BatchNormalization(3, initial_avg_mean=given(_MEAN),
                                 initial_avg_var=given(_VAR)),
    uniform((2, 3, 2)),
    lambda link, x: F.fixed_batch_normalization(
        x, *_unit_scale_and_shift(link), on(link, _MEAN), on(link, _VAR),
        _EPS),
    call=_inference,
    reason='without axis the size is required (as in Chainer); the lazy '
           'form is checked by BatchNormalization:axis')
link_record(
    # The running statistics start at zero mean and unit variance.
    'BatchNormalization:inference_defaults',
    lambda: L.BatchNormalization(3), uniform((2, 3)),
    lambda link, x: F.fixed_batch_normalization(
        x, *_unit_scale_and_shift(link), link.xp.zeros(3, x.dtype),
        link.xp.ones(3, x.dtype), _EPS),
    call=_inference, lazy=lambda: L.BatchNormalization(axis=0))
link_record(
    'BatchNormalization:axis',
    lambda: L.BatchNormalization((2,), axis=(0, 1)), uniform((3, 4, 2)),
    lambda link, x: F.batch_normalization(
        x, *_unit_scale_and_shift(link), eps=_EPS, axis=(0, 1)),
    lazy=lambda: L.BatchNormalization(axis=(0, 1)))
link_record(
    # One axis as an int, negative: size inferred from the other axes.
    'BatchNormalization:axis_int',
    lambda: L.BatchNormalization((3, 2), axis=-2), uniform((3, 4, 2)),
    lambda link, x: F.transpose(F.batch_normalization(
        F.transpose(x, (1, 0, 2)), *_unit_scale_and_shift(link),
        eps=_EPS), (1, 0, 2)),
    lazy=lambda: L.BatchNormalization(axis=-2))
# Running statistics far from the batch's clip r to 1 / rmax and d to
# -dmax: the factors are constants of the gradient by definition, and
# clipped they are locally constant too, so finite differences agree.
link_record(
    'BatchRenormalization',
    lambda: _with_statistics(L.BatchRenormalization(
        3, rmax=2, dmax=0.5, freeze_running_statistics=True), 20, 100),
    uniform((4, 3)),
    lambda link, x: F.batch_renormalization(
        x, link.gamma.array, link.beta.array, 2, 0.5, link.eps,
        link.avg_mean, link.avg_var, update_statistics=False),
    reason='size is a required argument; there is no lazy form')
link_record(
    'DecorrelatedBatchNormalization',
    lambda: L.DecorrelatedBatchNormalization(4, groups=2),
    uniform((6, 4, 2)),
    lambda link, x: F.decorrelated_batch_normalization(
        x, groups=2, eps=link.eps),
    tolerances={numpy.float32: {'backward': {'atol': 5e-3}}},
    reason='size is a required argument; there is no lazy form')
link_record(
    # gamma ones, beta zeros, eps 1e-5 by default.
    'GroupNormalization', lambda: L.GroupNormalization(2, 4),
    uniform((2, 4, 3)),
    lambda link, x: F.group_normalization(
        x, 2, *_unit_scale_and_shift(link), 1e-5),
    lazy=lambda: L.GroupNormalization(2))
link_record(
    # (N, C) alone: two axes are enough.
    'GroupNormalization:2d', lambda: L.GroupNormalization(2, 4),
    uniform((3, 4)),
    lambda link, x: F.group_normalization(
        x, 2, *_unit_scale_and_shift(link), 1e-5),
    lazy=lambda: L.GroupNormalization(2))
link_record(
    'GroupNormalization:initializers',
    lambda: L.GroupNormalization(2, 4, eps=1e-2, initial_gamma=given(B_4),
                                 initial_beta=0.5),
    uniform((2, 4, 3)),
    lambda link, x: F.group_normalization(
        x, 2, on(link, B_4), on(link, [0.5] * 4), 1e-2),
    lazy=lambda: L.GroupNormalization(2, eps=1e-2, initial_gamma=given(B_4),
                                      initial_beta=0.5))
link_record(
    # gamma ones, beta zeros, eps 1e-6 by default.
    'LayerNormalization', lambda: L.LayerNormalization(3), uniform((2, 3)),
    lambda link, x: F.layer_normalization(
        x, *_unit_scale_and_shift(link), 1e-6),
    lazy=lambda: L.LayerNormalization())
link_record(
    'LayerNormalization:initializers',
    lambda: L.LayerNormalization(3, eps=1e-2, initial_gamma=0.5,
                                 initial_beta=given(_MEAN)),
    uniform((2, 3)),
    lambda link, x: F.layer_normalization(
        x, on(link, [0.5] * 3), on(link, _MEAN), 1e-2),
    lazy=lambda: L.LayerNormalization(eps=1e-2, initial_gamma=0.5,
                                      initial_beta=given(_MEAN)))

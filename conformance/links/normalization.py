"""Records of the normalization layers."""
import numpy

from harness.link_record import link_record
from kusari.array.configuration import using_config
from kusari.autograd import functions as F
from kusari.links import layers as L
from links.connection import uniform


def _with_statistics(link, mean, var):
    """``link`` with the running statistics ``mean`` and ``var``."""
    link.avg_mean[...] = mean
    link.avg_var[...] = var
    return link


def _inference(link, x):
    with using_config('train', False):
        return link(x)


link_record(
    'BatchNormalization', lambda: L.BatchNormalization(3),
    uniform((4, 3, 2)),
    lambda link, x: F.batch_normalization(
        x, link.gamma.array, link.beta.array, eps=link.eps),
    reason='without axis the size is required (as in Chainer); the lazy '
           'form is checked by BatchNormalization:axis')
link_record(
    'BatchNormalization:inference',
    lambda: _with_statistics(L.BatchNormalization(3), [0.5, -1, 0],
                             [2, 0.5, 1]),
    uniform((2, 3, 2)),
    lambda link, x: F.fixed_batch_normalization(
        x, link.gamma.array, link.beta.array, link.avg_mean,
        link.avg_var, link.eps),
    call=_inference,
    reason='the running statistics are set on a built link; the lazy '
           'form is checked by BatchNormalization:axis')
link_record(
    'BatchNormalization:axis',
    lambda: L.BatchNormalization((2,), axis=(0, 1)), uniform((3, 4, 2)),
    lambda link, x: F.batch_normalization(
        x, link.gamma.array, link.beta.array, eps=link.eps, axis=(0, 1)),
    lazy=lambda: L.BatchNormalization(axis=(0, 1)))
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
    'GroupNormalization', lambda: L.GroupNormalization(2, 4),
    uniform((2, 4, 3)),
    lambda link, x: F.group_normalization(
        x, 2, link.gamma.array, link.beta.array, link.eps),
    lazy=lambda: L.GroupNormalization(2))
link_record(
    'LayerNormalization', lambda: L.LayerNormalization(3), uniform((2, 3)),
    lambda link, x: F.layer_normalization(
        x, link.gamma.array, link.beta.array, link.eps),
    lazy=lambda: L.LayerNormalization())

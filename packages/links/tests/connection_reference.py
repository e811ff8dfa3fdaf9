"""NumPy references of the connection layers' functions (float64, window
by window), and what the connection layer tests share."""
import itertools

import numpy

from kusari.links import testing


def _ntuple(value, ndim):
    return tuple(value) if isinstance(value, (tuple, list)) \
        else (value,) * ndim


def _add_bias(y, b):
    if b is not None:
        y += b.reshape((1, -1) + (1,) * (y.ndim - 2))
    return y


def convolution(x, W, b=None, stride=1, pad=0, dilate=1, groups=1,
                cover_all=False):
    """``y[n, o, p] = sum_{c, k} W[o, c, k] x_pad[n, g c, p s + k d]``."""
    x, W = x.astype(numpy.float64), W.astype(numpy.float64)
    nd = x.ndim - 2
    stride, pad, dilate = (_ntuple(v, nd) for v in (stride, pad, dilate))
    ksize = W.shape[2:]
    spans = [(k - 1) * d + 1 for k, d in zip(ksize, dilate)]
    extra = [s - 1 if cover_all else 0 for s in stride]
    out = [(size + 2 * p + e - span) // s + 1 for size, p, e, span, s in
           zip(x.shape[2:], pad, extra, spans, stride)]
    x_pad = numpy.pad(x, [(0, 0), (0, 0)] + [(p, p + e)
                                             for p, e in zip(pad, extra)])
    n, out_c = x.shape[0], W.shape[0]
    in_g, out_g = W.shape[1], out_c // groups
    y = numpy.zeros((n, out_c) + tuple(out))
    for tap in itertools.product(*map(range, ksize)):
        window = tuple(slice(t * d, t * d + s * (o - 1) + 1, s)
                       for t, d, s, o in zip(tap, dilate, stride, out))
        patch = x_pad[(slice(None), slice(None)) + window]
        for g in range(groups):
            y[:, g * out_g:(g + 1) * out_g] += numpy.einsum(
                'nc...,oc->no...', patch[:, g * in_g:(g + 1) * in_g],
                W[(slice(g * out_g, (g + 1) * out_g), slice(None)) + tap])
    return _add_bias(y, b)


def deconvolution(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                  groups=1):
    """Every ``x[n, c, p]`` adds ``W[c, o, k] x[n, c, p]`` to
    ``y[n, o, p s + k d - pad]``."""
    x, W = x.astype(numpy.float64), W.astype(numpy.float64)
    nd = x.ndim - 2
    stride, pad, dilate = (_ntuple(v, nd) for v in (stride, pad, dilate))
    ksize = W.shape[2:]
    full = [s * (size - 1) + (k - 1) * d + 1 for s, size, k, d in
            zip(stride, x.shape[2:], ksize, dilate)]
    if outsize is None:
        outsize = [f - 2 * p for f, p in zip(full, pad)]
    n, in_c = x.shape[:2]
    in_g, out_g = in_c // groups, W.shape[1]
    buffer = numpy.zeros((n, out_g * groups) + tuple(
        max(f, o + 2 * p) for f, o, p in zip(full, outsize, pad)))
    for tap in itertools.product(*map(range, ksize)):
        window = tuple(slice(t * d, t * d + s * (size - 1) + 1, s)
                       for t, d, s, size in
                       zip(tap, dilate, stride, x.shape[2:]))
        for g in range(groups):
            buffer[(slice(None), slice(g * out_g, (g + 1) * out_g))
                   + window] += numpy.einsum(
                'nc...,co->no...', x[:, g * in_g:(g + 1) * in_g],
                W[(slice(g * in_g, (g + 1) * in_g), slice(None)) + tap])
    crop = tuple(slice(p, p + o) for p, o in zip(pad, outsize))
    return _add_bias(buffer[(slice(None), slice(None)) + crop], b)


def uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


class ConnectionLinkTest(testing.LinkTestCase):
    """Float32 links, checked against float64 references: forward within
    float32 rounding, backward within the finite differences that
    float32 parameters allow."""

    def before_test(self, test_name):
        self.check_forward_options = {'atol': 1e-5, 'rtol': 1e-4}
        self.check_backward_options = {'atol': 2e-3, 'rtol': 2e-3}

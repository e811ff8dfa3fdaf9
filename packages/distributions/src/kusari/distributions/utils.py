"""Helpers shared by the distributions: parameters, noise, support masks,
and the base of the location-scale families.

Every distribution turns its arguments into Variables through
:func:`parameters`, which checks them once (type, float dtype, broadcastable
batch shapes, values in their domain) so that no state is built from bad
input, and the error names the distribution and the parameter.
"""
import math

import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd import functions as F
from kusari.autograd import variable
from kusari.distributions import distribution

EULER_GAMMA = 0.5772156649015329
LOG_2PI = math.log(2 * math.pi)


def _check_variable(owner, name, value):
    if isinstance(value, variable.Variable):
        return value
    if not backend.is_array_supported(value):
        raise TypeError(f'{owner}: {name} must be a Variable or an array, '
                        f'got {type(value).__name__}')
    return variable.Variable(value, requires_grad=False)


def broadcast_shapes(owner, named_shapes):
    """The common shape of ``{name: shape}``, or a ValueError naming the
    distribution and every shape."""
    try:
        return numpy.broadcast_shapes(*named_shapes.values())
    except ValueError:
        described = ', '.join(f'{name} {shape}'
                              for name, shape in named_shapes.items())
        raise ValueError(f'{owner}: the parameters do not broadcast to one '
                         f'batch shape: {described}') from None


def parameters(owner, event_ndims=None, **named):
    """Variables of the parameters ``named``, broadcast to one shape.

    Args:
        owner: the distribution's name, for error messages.
        event_ndims: ``{name: n}``, trailing axes of a parameter that are
            not batch axes (only the batch axes broadcast).
        named: ``name=(value, domain)``, ``domain`` from :data:`DOMAINS`
            or None.

    Returns:
        A list of Variables, in the order of ``named``.
    """
    event_ndims = event_ndims or {}
    values = {}
    for name, (value, domain) in named.items():
        value = _check_variable(owner, name, value)
        if value.dtype.kind != 'f':
            raise TypeError(f'{owner}: {name} must be of a float dtype, got '
                            f'{value.dtype}')
        if domain is not None:
            check_domain(owner, name, value.array, domain)
        values[name] = value
    dtypes = {v.dtype for v in values.values()}
    if len(dtypes) > 1:
        described = ', '.join(f'{n} {v.dtype}' for n, v in values.items())
        raise TypeError(f'{owner}: the parameters must share one dtype, '
                        f'got {described}')
    batch = {name: value.shape[:value.ndim - event_ndims.get(name, 0)]
             for name, value in values.items()}
    shape = broadcast_shapes(owner, batch)
    out = []
    for name, value in values.items():
        full = shape + value.shape[len(batch[name]):]
        out.append(value if value.shape == full
                   else F.broadcast_to(value, full))
    return out


# name -> (test on an array, what the message says was expected)
DOMAINS = {
    'positive': (lambda xp, a: a > 0, 'positive'),
    'probability': (lambda xp, a: (a >= 0) & (a <= 1), 'in [0, 1]'),
    'open_probability': (lambda xp, a: (a > 0) & (a <= 1), 'in (0, 1]'),
    'finite': (lambda xp, a: xp.isfinite(a), 'finite'),
}


def check_domain(owner, name, array, domain):
    """Raise ValueError unless every element of ``array`` is in
    ``domain``."""
    test, expected = DOMAINS[domain]
    xp = backend.get_array_module(array)
    inside = test(xp, array)
    if not bool(inside.all()):
        bad = array[~inside].ravel()[0]
        raise ValueError(f'{owner}: {name} must be {expected}, got '
                         f'{float(bad)!r} among its values')


def noise(xp, draw, shape, dtype):
    """``draw(size=shape)`` from ``xp.random``, cast to ``dtype``."""
    return getattr(xp.random, draw)(size=shape).astype(dtype, copy=False)


def sample_shape(n, batch_shape):
    """The shape of ``n`` draws of a batch."""
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError(f'sample_n: n must be a non-negative int, got '
                         f'{n!r}')
    return (n,) + tuple(batch_shape)


def where(condition, x, y):
    """``F.where`` that also takes the NumPy bool scalar a comparison of
    0-dim arrays gives."""
    xp = backend.get_array_module(condition)
    return F.where(xp.asarray(condition), x, y)


def defined_where(x, undefined, safe_value, function, fill):
    """``function(x)``, and ``fill`` where the bool array ``undefined``
    holds.

    The points where ``function`` is undefined are first replaced by
    ``safe_value``, so that neither its value nor its gradient there turns
    into NaN (which the gradient of ``where`` would carry on).
    """
    x = as_variable(x)
    if not bool(undefined.any()):
        return function(x)
    safe = where(undefined, safe_value, x)
    return where(undefined, fill, function(safe))


def log_prob_on_support(x, outside, inside_value, log_density):
    """``log_density(x)``, and ``-inf`` where the bool array ``outside``
    holds (see :func:`defined_where`)."""
    return defined_where(x, outside, inside_value, log_density, -numpy.inf)


def as_variable(x):
    """``x`` as a Variable, so that arithmetic on it stays an array even
    for 0-dim inputs (NumPy would make scalars of them); a NumPy scalar, as
    arithmetic on 0-dim arrays gives, becomes a 0-dim array."""
    if isinstance(x, variable.Variable):
        return x
    return variable.as_variable(as_array(x))


def as_array(x):
    """The array of ``x`` (a Variable, an array or a NumPy scalar)."""
    if isinstance(x, variable.Variable):
        return x.array
    if isinstance(x, numpy.generic):
        return numpy.asarray(x)
    return x


def xlogx(x):
    """``x log x``, 0 at 0, with a finite gradient there."""
    xp = backend.get_array_module(x)
    zero = as_array(x) == 0
    safe = where(zero, xp.ones((), x.dtype), x)
    return x * F.log(safe)


def _modified_xlogx(x):
    """``x log x``, 0 at 0, whose gradient is the derivative ``log x + 1``
    (``-inf`` at 0, with NumPy's divide-by-zero RuntimeWarning); Chainer's
    name. :func:`xlogx` keeps the gradient finite at 0."""
    y, = ModifiedXLogX().apply((x,))
    return y


class ModifiedXLogX(function_node.FunctionNode):
    """``y = x log x`` with ``y = 0`` at ``x = 0``."""

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        zero = x == 0
        y = x * xp.log(xp.where(zero, 1, x))
        return xp.asarray(y, dtype=x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return gy * (F.log(x) + 1),


def log_beta(a, b):
    """``log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b)``."""
    return F.lgamma(a) + F.lgamma(b) - F.lgamma(a + b)


def constant(array):
    """A Variable of ``array`` that needs no gradient (a draw that is not
    reparameterised)."""
    return variable.Variable(array, requires_grad=False)


def full_like(x, value):
    """A constant Variable of ``x``'s shape, dtype and device."""
    xp = backend.get_array_module(x)
    return constant(xp.full(x.shape, value, dtype=x.dtype))


def one_of(owner, **named):
    """The name of the one argument of ``named`` that is not None; a
    ValueError when none or several are given."""
    given = [name for name, value in named.items() if value is not None]
    if len(given) != 1:
        names = ' or '.join(named)
        raise ValueError(f'{owner}: give exactly one of {names}, got '
                         f'{len(given)} ({", ".join(given) or "none"})')
    return given[0]


def as_float(x, dtype):
    """``x`` (counts given as integers, say) as a Variable of ``dtype``; a
    float Variable is returned as it is, for gradients with respect to
    it."""
    if isinstance(x, variable.Variable):
        if x.dtype.kind == 'f':
            return x
        x = x.array
    return as_variable(x.astype(dtype, copy=False))


class LocationScale(distribution.Distribution):
    """Base of the families ``loc + scale * e`` on the real line, ``e``
    drawn by ``xp.random.<_noise>``: draws are reparameterised.

    Args:
        loc: Variable or array, the location.
        scale: Variable or array, the scale (positive).
    """

    _noise = None

    def __init__(self, loc, scale):
        self.loc, self.scale = parameters(
            type(self).__name__, loc=(loc, None), scale=(scale, 'positive'))
        self._batch_shape = self.loc.shape

    @property
    def params(self):
        return {'loc': self.loc, 'scale': self.scale}

    def _standardize(self, x):
        return (x - self.loc) / self.scale

    @property
    def mode(self):
        return self.loc

    @property
    def support(self):
        return 'real'

    def sample_n(self, n):
        shape = sample_shape(n, self.batch_shape)
        eps = noise(self.xp, self._noise, shape, self.loc.dtype)
        return self.loc + self.scale * eps

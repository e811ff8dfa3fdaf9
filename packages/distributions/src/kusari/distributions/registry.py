"""KL divergences between distributions, and cross entropy.

``register_kl(A, B)`` records the closed form of ``KL(p || q)`` for ``p``
an ``A`` and ``q`` a ``B``; :func:`kl_divergence` looks it up, the most
derived classes first, so a subclass inherits its base's divergence.
"""
from kusari.distributions import distribution

_KL_DIVERGENCE = {}


class UnregisteredKLError(NotImplementedError, KeyError):
    """No KL divergence is registered for a pair of classes.

    A NotImplementedError, and a KeyError as Chainer raises there.
    """

    __str__ = BaseException.__str__


def register_kl(dist1, dist2):
    """Decorator: register a function computing ``KL(dist1 || dist2)``.

    Args:
        dist1, dist2: Distribution subclasses.

    Returns:
        A decorator taking ``func(p, q)`` and returning it unchanged.
    """
    for name, cls in (('dist1', dist1), ('dist2', dist2)):
        if not (isinstance(cls, type)
                and issubclass(cls, distribution.Distribution)):
            raise TypeError(f'register_kl: {name} must be a Distribution '
                            f'subclass, got {cls!r}')

    def register(func):
        _KL_DIVERGENCE[dist1, dist2] = func
        return func
    return register


def _find(type1, type2):
    for cls1 in type1.__mro__:
        for cls2 in type2.__mro__:
            func = _KL_DIVERGENCE.get((cls1, cls2))
            if func is not None:
                return func
    raise UnregisteredKLError(
        f'kl_divergence: no KL divergence is registered between '
        f'{type1.__name__} and {type2.__name__}; register one with '
        f'register_kl({type1.__name__}, {type2.__name__})')


def kl_divergence(dist1, dist2):
    """Kullback-Leibler divergence ``KL(dist1 || dist2)``.

    Args:
        dist1, dist2: Distributions with the same batch shape.

    Returns:
        Variable of shape ``batch_shape``.

    Raises:
        UnregisteredKLError: (a NotImplementedError and a KeyError) when
            no divergence is registered for the pair of classes.
    """
    for name, dist in (('dist1', dist1), ('dist2', dist2)):
        if not isinstance(dist, distribution.Distribution):
            raise TypeError(f'kl_divergence: {name} must be a Distribution, '
                            f'got {type(dist).__name__}')
    return _find(type(dist1), type(dist2))(dist1, dist2)


def cross_entropy(dist1, dist2):
    """Cross entropy ``H(dist1, dist2) = H(dist1) + KL(dist1 || dist2)``.

    Args:
        dist1, dist2: Distributions with the same batch shape.

    Returns:
        Variable of shape ``batch_shape``.
    """
    return dist1.entropy + kl_divergence(dist1, dist2)

"""Random matrices of given singular values, for tests of linear algebra
that are unstable on ill-conditioned inputs (``chainer.testing.matrix``)."""
import numpy


def generate_matrix(shape, dtype=float, *, singular_values=None):
    """A random matrix, or stack of matrices, of given singular values.

    For ``shape`` ``(B..., M, N)`` and ``K = min(M, N)``, each matrix is
    ``U diag(s) V^H`` with ``U`` (``M x K``) and ``V`` (``N x K``) random
    with orthonormal columns, drawn from ``numpy.random`` (so
    :func:`~kusari.autograd.testing.fix_random` makes it reproducible).

    Args:
        shape (tuple of int): ``(B..., M, N)``, at least two axes.
        dtype: a float or complex dtype.
        singular_values (array-like): non-negative reals broadcasting to
            ``(B..., K)``; required.

    Returns:
        numpy.ndarray: of ``shape`` and ``dtype``.
    """
    shape = tuple(shape)
    if len(shape) < 2:
        raise ValueError(f'generate_matrix: shape {shape} is invalid for '
                         f'matrices: too few axes')
    if singular_values is None:
        raise TypeError('generate_matrix: singular_values is not given')
    dtype = numpy.dtype(dtype)
    if dtype.kind not in 'fc':
        raise TypeError(f'generate_matrix: dtype {dtype} is not supported '
                        f'(a float or complex dtype is)')
    singular_values = numpy.asarray(singular_values)
    if not numpy.isrealobj(singular_values):
        raise TypeError('generate_matrix: singular_values is not real')
    if (singular_values < 0).any():
        raise ValueError('generate_matrix: negative singular value is given')
    values_shape = shape[:-2] + (min(shape[-2:]),)
    try:
        singular_values = numpy.broadcast_to(singular_values, values_shape)
    except ValueError:
        raise ValueError(
            f'generate_matrix: singular_values of shape '
            f'{singular_values.shape} do not broadcast to {values_shape}, '
            f'the singular values of matrices of shape {shape}') from None
    if 0 in shape:
        return numpy.empty(shape, dtype=dtype)
    # The singular vectors of a Gaussian matrix are uniformly random.
    a = numpy.random.standard_normal(shape)
    if dtype.kind == 'c':
        a = a + 1j * numpy.random.standard_normal(shape)
    u, _, vh = numpy.linalg.svd(a, full_matrices=False)
    return ((u * singular_values[..., None, :]) @ vh).astype(dtype)

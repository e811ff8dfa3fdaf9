"""Bilinear form of two vectors."""
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.math.matmul import matmul
from kusari.autograd.variable import as_variable
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def bilinear(e1, e2, W, V1=None, V2=None, b=None):
    """Bilinear function of two batches of vectors.

    ``y[n, k] = sum_{i, j} e1[n, i] e2[n, j] W[i, j, k]
    + sum_i e1[n, i] V1[i, k] + sum_j e2[n, j] V2[j, k] + b[k]``; the
    linear terms are present when V1, V2 and b are all given. Built from
    batched outer products and matrix products, so it has gradients of
    every order.

    Args:
        e1: Variable or array ``(n, I)`` (further axes are flattened).
        e2: Variable or array ``(n, J)`` (further axes are flattened).
        W: Variable or array ``(I, J, K)``.
        V1: ``(I, K)`` or None.
        V2: ``(J, K)`` or None.
        b: ``(K,)`` or None.

    Returns:
        Variable ``(n, K)``.
    """
    given = [v is not None for v in (V1, V2, b)]
    if any(given) and not all(given):
        raise ValueError('bilinear: give all of V1, V2 and b, or none')
    e1, e2, W = as_variable(e1), as_variable(e2), as_variable(W)
    if e1.ndim < 2 or e2.ndim < 2 or e1.shape[0] != e2.shape[0]:
        raise ValueError(
            f'bilinear: e1 and e2 must share the batch axis and have '
            f'features after it; got shapes {e1.shape} and {e2.shape}')
    n = e1.shape[0]
    e1 = reshape(e1, (n, e1.size // n if n else W.shape[0]))
    e2 = reshape(e2, (n, e2.size // n if n else W.shape[1]))
    if W.ndim != 3 or W.shape[:2] != (e1.shape[1], e2.shape[1]):
        raise ValueError(
            f'bilinear: W must have shape ({e1.shape[1]}, {e2.shape[1]}, '
            f'K) for e1 {e1.shape} and e2 {e2.shape}; got {W.shape}')
    outer = matmul(reshape(e1, e1.shape + (1,)),
                   reshape(e2, (n, 1, e2.shape[1])))
    i, j = e1.shape[1], e2.shape[1]
    y = matmul(reshape(outer, (n, i * j)), reshape(W, (i * j, W.shape[2])))
    if V1 is not None:
        y = y + matmul(e1, V1) + matmul(e2, V2) + b
    return y

"""DeCov: a penalty on the covariance between hidden units."""
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.loss.cross_covariance import REDUCE
from kusari.autograd.functions.loss.cross_covariance import covariance
from kusari.autograd.functions.loss.cross_covariance import \
    half_squared_sum
from kusari.autograd.utils import type_check


def _check(in_types):
    h_type, = in_types
    type_check.expect(h_type.dtype.kind == 'f', h_type.ndim == 2)


def decov(h, reduce='half_squared_sum'):
    """DeCov loss :math:`\\frac{1}{2} (\\|C\\|_F^2 - \\|\\mathrm{diag}(C)
    \\|_2^2)`, with :math:`C` the covariance of the columns of ``h``: it
    penalizes correlated hidden units (Cogswell et al., 2016).

    Args:
        h: Variable or array ``(N, M)``, float: hidden activations.
        reduce (str): ``'half_squared_sum'`` or ``'no'`` (the ``(M, M)``
            matrix :math:`C` with its diagonal set to 0).

    Returns:
        Variable: a scalar, or ``(M, M)``.
    """
    _common.check_option('decov', 'reduce', reduce, REDUCE)
    _common.check_inputs('decov', ('h',), (h,), _check)
    cov = covariance(h, h)
    xp = cov.xp
    off_diagonal = cov * (1 - xp.eye(cov.shape[0], dtype=cov.dtype))
    if reduce == 'half_squared_sum':
        return half_squared_sum(off_diagonal)
    return off_diagonal

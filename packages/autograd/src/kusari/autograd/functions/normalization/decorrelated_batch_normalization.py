"""Decorrelated batch normalization: ZCA whitening of groups of channels.
"""
import math

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import function_node
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.transpose import transpose
from kusari.autograd.functions.math.matmul import matmul
from kusari.autograd.functions.noise._arguments import reject_removed
from kusari.autograd.functions.normalization import batch_normalization \
    as batch_norm
from kusari.autograd.functions.normalization import _standardization
from kusari.autograd.functions.normalization._standardization import \
    compute_dtype
from kusari.autograd.graph_optimizations.static_graph import static_code
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Variable


def _group_shape(x_shape, groups):
    """x of shape (N, C, ...) seen as (N, groups, C // groups, spatial)."""
    return (x_shape[0], groups, x_shape[1] // groups,
            math.prod(x_shape[2:]))


def _to_groups(x, groups):
    """The array x as ``(groups, C // groups, m)`` matrices, one column per
    sample and position (m of them)."""
    n, g, c, s = _group_shape(x.shape, groups)
    return x.reshape(n, g, c, s).transpose(1, 2, 0, 3).reshape(g, c, n * s)


def _from_groups(y, x_shape, groups):
    n, g, c, s = _group_shape(x_shape, groups)
    return y.reshape(g, c, n, s).transpose(2, 0, 1, 3).reshape(x_shape)


class DecorrelatedBatchNormalization(function_node.FunctionNode):
    """Per group, y = P (x - mean) with the ZCA whitening matrix
    P = Sigma^(-1/2) of the covariance Sigma (+ eps I) of the batch.

    The gradient goes through the eigendecomposition of Sigma; with
    Sigma = U diag(lambda) U^T and s = sqrt(lambda), the derivative of
    Sigma^(-1/2) is U (K o (U^T dSigma U)) U^T with
    K_ij = -1 / (s_i s_j (s_i + s_j)), which stays finite for repeated
    eigenvalues.
    """

    def __init__(self, groups, eps):
        self.groups = groups
        self.eps = eps

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f',
                          in_types[0].ndim >= 2)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        dtype = compute_dtype(x.dtype)
        columns = _to_groups(x, self.groups).astype(dtype)
        self.count = columns.shape[2]
        self.mean = columns.mean(axis=2, keepdims=True)
        columns -= self.mean
        cov = xp.matmul(columns, columns.swapaxes(1, 2))
        cov /= dtype.type(self.count)
        cov += xp.eye(cov.shape[1], dtype=dtype) * dtype.type(self.eps)
        eigenvalues, self.eigenvectors = xp.linalg.eigh(cov)
        self.root = xp.sqrt(eigenvalues)
        self.projection = xp.matmul(
            self.eigenvectors / self.root[:, None, :],
            self.eigenvectors.swapaxes(1, 2))
        self.centered = columns
        y = xp.matmul(self.projection, columns)
        return _from_groups(y, x.shape, self.groups).astype(x.dtype),

    def backward(self, indexes, grad_outputs):
        if configuration.config.enable_backprop:
            raise RuntimeError('decorrelated_batch_normalization: double '
                               'backpropagation is not supported (as in '
                               'Chainer v7)')
        gy = grad_outputs[0].array
        xp = backend.get_array_module(gy)
        dtype = self.centered.dtype
        gy = _to_groups(gy, self.groups).astype(dtype)
        centered, u, root = self.centered, self.eigenvectors, self.root
        g_projection = xp.matmul(gy, centered.swapaxes(1, 2))
        g_projection += g_projection.swapaxes(1, 2)
        g_projection *= dtype.type(0.5)
        rotated = xp.matmul(u.swapaxes(1, 2), xp.matmul(g_projection, u))
        products = root[:, :, None] * root[:, None, :]
        rotated /= products * (root[:, :, None] + root[:, None, :])
        g_cov = -xp.matmul(u, xp.matmul(rotated, u.swapaxes(1, 2)))
        gx = xp.matmul(self.projection, gy)
        gx += xp.matmul(g_cov, centered) * dtype.type(2 / self.count)
        gx -= gx.mean(axis=2, keepdims=True)
        x_shape = self.inputs[0].shape
        gx = _from_groups(gx, x_shape, self.groups).astype(
            self.inputs[0].dtype)
        return Variable(gx, requires_grad=False),


@type_check.checks_inputs
def decorrelated_batch_normalization(x, *, groups=16, eps=2e-5,
                                     running_mean=None,
                                     running_projection=None, decay=0.9,
                                     **kwargs):
    """Decorrelated batch normalization (Huang et al., 2018).

    Splits the channels (axis 1) into ``groups`` groups and whitens each
    over the batch and spatial positions: :math:`y = \\Sigma^{-1/2} (x -
    \\mu)` with :math:`\\mu` and :math:`\\Sigma` the mean and covariance
    (+ eps I) of the group's channels (ZCA whitening).

    Args:
        x: Variable or array, float, of shape ``(N, C, ...)``.
        groups (int): the number of groups; it must divide C.
        eps (float): added to the diagonal of the covariances.
        running_mean: array of shape ``(groups, C // groups)`` or None;
            updated in place to ``decay * running_mean + (1 - decay) *
            mean``.
        running_projection: array of shape ``(groups, C // groups,
            C // groups)`` or None; updated in place to ``decay *
            running_projection + (1 - decay) * m / (m - 1) * projection``
            for m values per channel (as Chainer does).
        decay (float): the decay of the running statistics.

    Returns:
        Variable of x's shape and dtype.
    """
    reject_removed('decorrelated_batch_normalization', kwargs)
    groups = _standardization.check_groups(
        'decorrelated_batch_normalization', x, groups)
    channels = x.shape[1] // groups
    _check_shape('decorrelated_batch_normalization', 'running_mean',
                 running_mean, (groups, channels))
    _check_shape('decorrelated_batch_normalization', 'running_projection',
                 running_projection, (groups, channels, channels))
    node = DecorrelatedBatchNormalization(groups, eps)
    y, = node.apply((x,))
    _update_statistics(node, running_mean, running_projection, decay)
    return y


@static_code
def _update_statistics(node, running_mean, running_projection, decay):
    """Fold the batch statistics of ``node`` into the running ones (static
    code: a static_graph replay updates them too)."""
    if node.count:
        batch_norm.update_running(running_mean, node.mean[:, :, 0], decay)
        batch_norm.update_running(running_projection, node.projection,
                                  decay, batch_norm.unbiased_factor(
                                      node.count))


def _check_shape(func_name, name, array, shape):
    """A running statistic or a fixed one must be a float array of
    ``shape`` (the running ones are updated in place)."""
    if array is None:
        return
    if getattr(array, 'shape', None) != shape or array.dtype.kind != 'f':
        got = (f'{array.shape} {array.dtype}' if hasattr(array, 'shape')
               else type(array).__name__)
        raise ValueError(f'{func_name}: {name} must be a float array of '
                         f'shape {shape}, got {got}')


@type_check.checks_inputs
def fixed_decorrelated_batch_normalization(x, mean, projection, groups=16):
    """Decorrelated batch normalization with given statistics (for
    inference): per group, :math:`y = P (x - \\mu)`.

    Built from differentiable functions: gradients flow to x, ``mean`` and
    ``projection``, to any order.

    Args:
        x: Variable or array, float, of shape ``(N, C, ...)``.
        mean: Variable or array of shape ``(groups, C // groups)``.
        projection: Variable or array of shape ``(groups, C // groups,
            C // groups)``.
        groups (int): the number of groups; it must divide C.

    Returns:
        Variable of x's shape and dtype.
    """
    func_name = 'fixed_decorrelated_batch_normalization'
    groups = _standardization.check_groups(func_name, x, groups)
    channels = x.shape[1] // groups
    _check_shape(func_name, 'mean', mean, (groups, channels))
    _check_shape(func_name, 'projection', projection,
                 (groups, channels, channels))
    n, g, c, s = _group_shape(x.shape, groups)
    columns = reshape(transpose(reshape(x, (n, g, c, s)), (1, 2, 0, 3)),
                      (g, c, n * s))
    y = matmul(projection, columns - reshape(mean, (g, c, 1)))
    return reshape(transpose(reshape(y, (g, c, n, s)), (2, 0, 1, 3)),
                   x.shape)

"""Discriminative margin-based clustering loss for instance embeddings."""
import numbers

from kusari.autograd.functions.activation.relu import relu
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.expand_dims import expand_dims
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.math.basic_math import absolute
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_array
from kusari.autograd.variable import as_variable

_NAME = 'discriminative_margin_based_clustering_loss'


def _norm(x, axis, order):
    """The L1 or L2 norm of ``x`` over ``axis``."""
    if order == 1:
        return sum_(absolute(x), axis=axis)
    return _common.safe_sqrt(sum_(x * x, axis=axis))


def _check(in_types):
    embeddings_type, labels_type = in_types
    type_check.expect(embeddings_type.dtype.kind == 'f',
                      embeddings_type.ndim == 4,
                      type_check.is_in(labels_type.dtype.kind, 'iu'),
                      labels_type.ndim == 3)
    type_check.expect(
        embeddings_type.shape[0] == labels_type.shape[0],
        embeddings_type.shape[2:] == labels_type.shape[1:])


def discriminative_margin_based_clustering_loss(
        embeddings, labels, delta_v, delta_d, max_embedding_dim, norm=1,
        alpha=1.0, beta=1.0, gamma=0.001):
    """Discriminative loss for instance segmentation (De Brabandere et
    al., 2017): pixels of one instance are pulled within ``delta_v`` of
    their mean, the means of instances pushed ``2 delta_d`` apart, and the
    means kept near the origin.

    Pixels labelled ``c + 1`` form instance ``c`` (``c`` in ``[0,
    max_embedding_dim)``); label 0 is the background.

    Args:
        embeddings: Variable or array ``(B, C, H, W)``, float, with ``C``
            equal to ``max_embedding_dim``.
        labels: int array ``(B, H, W)``: the instance of each pixel.
        delta_v (float): the margin of the variance term.
        delta_d (float): the margin of the distance term.
        max_embedding_dim (int): the number of instances considered.
        norm (int): 1 or 2, the norm of the distances.
        alpha, beta, gamma (float): the weights of the variance, distance
            and regularization terms.

    Returns:
        tuple of three scalar Variables: the weighted variance, distance
        and regularization terms.
    """
    if norm not in (1, 2):
        raise ValueError(f'{_NAME}: norm must be 1 or 2, got {norm!r}')
    if not isinstance(max_embedding_dim, numbers.Integral) \
            or max_embedding_dim < 1:
        raise ValueError(f'{_NAME}: max_embedding_dim must be a positive '
                         f'int, got {max_embedding_dim!r}')
    _common.check_inputs(_NAME, ('embeddings', 'labels'),
                         (embeddings, labels), _check)
    embeddings = as_variable(embeddings)
    if embeddings.shape[1] != max_embedding_dim:
        raise ValueError(
            f'{_NAME}: embeddings.shape[1] must equal max_embedding_dim '
            f'({max_embedding_dim}); got shape {embeddings.shape}')
    labels = as_array(labels)
    xp = embeddings.xp
    n_cluster = max_embedding_dim
    n_batch = embeddings.shape[0]
    dtype = embeddings.dtype
    # masks[k, b, 0, h, w]: pixel (h, w) of image b belongs to instance k.
    clusters = xp.arange(1, n_cluster + 1).reshape(n_cluster, 1, 1, 1)
    masks = xp.expand_dims(labels[None] == clusters, 2).astype(dtype)
    shape = (n_cluster,) + embeddings.shape
    tiled = broadcast_to(expand_dims(embeddings, 0), shape)
    sizes = masks.sum(axis=(2, 3, 4))
    means = sum_(tiled * masks, axis=(3, 4)) / xp.maximum(sizes, 1)[..., None]

    regularization = sum_(_norm(means, (1, 2), norm)) / (n_cluster * n_batch)

    spread = _norm((broadcast_to(means[..., None, None], shape) - tiled)
                   * masks, 2, norm)
    excess = relu(spread - delta_v)
    variance = sum_(excess * excess, axis=(1, 2, 3)) / xp.maximum(
        masks.sum(axis=(1, 2, 3, 4)), 1)
    variance = sum_(variance) / n_cluster

    pair_shape = (n_cluster,) + means.shape
    differences = broadcast_to(expand_dims(means, 0), pair_shape) - \
        broadcast_to(expand_dims(means, 1), pair_shape)
    closeness = relu(2 * delta_d - _norm(differences, 3, norm))
    pairs = xp.triu(xp.ones((n_cluster, n_cluster), dtype), 1)[..., None]
    n_pairs = n_cluster * (n_cluster - 1) // 2
    distance = sum_(closeness * closeness * pairs) / max(
        n_pairs * n_batch, 1)
    return alpha * variance, beta * distance, gamma * regularization

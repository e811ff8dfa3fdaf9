"""Turning the batch normalizations of a model into multi-node ones."""
import copy

from kusari.links import link as link_module
from kusari.links.layers.normalization import batch_normalization
from kusari.distributed.links.batch_normalization import \
    MultiNodeBatchNormalization


def _multi_node(bn, path, comm, communication_backend):
    if bn.axis is not None or bn.avg_mean is None:
        raise ValueError(
            f'create_mnbn_model: the BatchNormalization at {path} must have '
            f'its size given and no axis argument')
    mnbn = MultiNodeBatchNormalization(
        bn.avg_mean.shape, comm, decay=bn.decay, eps=bn.eps,
        dtype=bn._dtype, use_gamma=bn.gamma is not None,
        use_beta=bn.beta is not None,
        communication_backend=communication_backend)
    mnbn.copyparams(bn)
    return mnbn


def _replace_within(parent, path, comm, communication_backend):
    """Replace, recursively, the batch normalizations under ``parent``."""
    for name, child in list(parent._named_children()):
        child_path = f'{path}/{name}'
        if isinstance(child, batch_normalization.BatchNormalization) and \
                not isinstance(child, MultiNodeBatchNormalization):
            new = _multi_node(child, child_path, comm, communication_backend)
            if isinstance(parent, link_module.ChainList):
                parent[int(name)] = new
            else:
                delattr(parent, name)
                with parent.init_scope():
                    setattr(parent, name, new)
        else:
            _replace_within(child, child_path, comm, communication_backend)


def create_mnbn_model(link, comm, communication_backend='auto'):
    """A copy of ``link`` whose BatchNormalization layers are
    :class:`MultiNodeBatchNormalization` layers with the same parameters
    and statistics.

    Args:
        link (Link): The model (left unchanged).
        comm: The communicator.
        communication_backend (str): See MultiNodeBatchNormalization.
    """
    if isinstance(link, batch_normalization.BatchNormalization):
        return _multi_node(link, '/', comm, communication_backend)
    model = copy.deepcopy(link)
    _replace_within(model, '', comm, communication_backend)
    return model

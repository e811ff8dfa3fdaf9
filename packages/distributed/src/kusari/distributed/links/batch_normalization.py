"""Batch normalization with the statistics of the whole batch, across
processes."""
import numpy

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import function_node
from kusari.autograd import variable
from kusari.distributed.communicators import pure_nccl_communicator
from kusari.links.layers.normalization import batch_normalization

BACKENDS = ('auto', 'mpi', 'nccl')


def _allreduce(comm, arrays, use_nccl):
    """The sums over the processes of ``arrays`` (same module), packed in
    one message: through NCCL on the GPU, or through MPI on the host."""
    xp = backend.get_array_module(*arrays)
    if use_nccl:
        packed = xp.concatenate([a.ravel() for a in arrays])
        comm._start_sum(packed, 'MultiNodeBatchNormalization')()
    else:
        host = numpy.concatenate([backend.CpuDevice().send_array(a).ravel()
                                  for a in arrays])
        packed = xp.asarray(comm.allreduce(host))
    sums, offset = [], 0
    for a in arrays:
        sums.append(packed[offset:offset + a.size].reshape(a.shape))
        offset += a.size
    return sums


class MultiNodeBatchNormalizationFunction(function_node.FunctionNode):
    """Normalizes ``x`` with the mean and variance over the batches of all
    processes; backward reduces the two sums it needs over them too, so
    the gradients are those of one process normalizing the concatenated
    batch."""

    def __init__(self, comm, eps, running_mean, running_var, decay,
                 use_nccl):
        self.comm = comm
        self.eps = eps
        self.running_mean = running_mean
        self.running_var = running_var
        self.decay = decay
        self.use_nccl = use_nccl

    def _shapes(self, x, gamma):
        axes = (0,) + tuple(range(1 + gamma.ndim, x.ndim))
        expand = (1,) + gamma.shape + (1,) * (x.ndim - 1 - gamma.ndim)
        return axes, expand

    def forward(self, inputs):
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        axes, expand = self._shapes(x, gamma)
        count = numpy.array([x.size // gamma.size], numpy.float64)
        wide = x.astype(numpy.float64)
        total, squares, count = _allreduce(
            self.comm, [wide.sum(axis=axes), (wide * wide).sum(axis=axes),
                        xp.asarray(count)], self.use_nccl)
        n = float(count[0])
        mean = total / n
        var = xp.maximum(squares / n - mean * mean, 0)
        inv_std = 1 / xp.sqrt(var + self.eps)
        x_hat = ((wide - mean.reshape(expand)) * inv_std.reshape(expand)
                 ).astype(x.dtype)
        y = gamma.reshape(expand) * x_hat + beta.reshape(expand)
        if self.running_mean is not None:
            adjust = n / max(n - 1, 1)
            self.running_mean *= self.decay
            self.running_mean += (1 - self.decay) * mean.astype(
                self.running_mean.dtype)
            self.running_var *= self.decay
            self.running_var += (1 - self.decay) * (adjust * var).astype(
                self.running_var.dtype)
        self.x_hat, self.inv_std, self.n = x_hat, inv_std.astype(
            x.dtype), n
        self.retain_inputs((1,))
        return y.astype(x.dtype, copy=False),

    def backward(self, target_input_indexes, grad_outputs):
        gamma, = self.get_retained_inputs()
        gy = grad_outputs[0].array
        axes, expand = self._shapes(gy, gamma)
        gbeta = gy.sum(axis=axes)
        ggamma = (gy * self.x_hat).sum(axis=axes)
        total_gbeta, total_ggamma = _allreduce(
            self.comm, [gbeta, ggamma], self.use_nccl)
        scale = gamma.array * self.inv_std
        gx = scale.reshape(expand) * (
            gy - (total_gbeta.reshape(expand)
                  + self.x_hat * total_ggamma.reshape(expand)) / self.n)
        return (variable.Variable(gx.astype(gy.dtype, copy=False)),
                variable.Variable(ggamma), variable.Variable(gbeta))


class MultiNodeBatchNormalization(batch_normalization.BatchNormalization):
    """Batch normalization whose training statistics are those of the
    batches of all processes together (what one process would compute on
    the concatenated batch), so that small per-process batches still
    normalize well. In evaluation it uses its running averages, as
    :class:`~kusari.links.BatchNormalization`.

    Args:
        size (int or tuple of ints): Shape of the channel dimensions.
        comm: The communicator.
        decay, eps, dtype, use_gamma, use_beta, initial_gamma,
        initial_beta: As in BatchNormalization.
        communication_backend (str): ``'mpi'`` (through the host),
            ``'nccl'`` (on the GPU, with a pure_nccl communicator) or
            ``'auto'`` (``'nccl'`` with a pure_nccl communicator, else
            ``'mpi'``).
    """

    def __init__(self, size, comm, decay=0.9, eps=2e-5, dtype=None,
                 use_gamma=True, use_beta=True, initial_gamma=None,
                 initial_beta=None, communication_backend='auto'):
        if communication_backend not in BACKENDS:
            raise ValueError(
                f'MultiNodeBatchNormalization: communication_backend must '
                f'be one of {BACKENDS}, got {communication_backend!r}')
        nccl = isinstance(comm, pure_nccl_communicator.PureNcclCommunicator)
        if communication_backend == 'nccl' and not nccl:
            raise ValueError(
                f'MultiNodeBatchNormalization: communication_backend='
                f"'nccl' needs a pure_nccl communicator, got "
                f'{type(comm).__name__}')
        super().__init__(size, decay, eps, dtype, use_gamma, use_beta,
                         initial_gamma, initial_beta)
        self.comm = comm
        self._use_nccl = nccl and communication_backend != 'mpi'

    def forward(self, x, **kwargs):
        """Normalize ``x`` (see BatchNormalization); in training, with the
        statistics of all processes (a collective call)."""
        finetune = batch_normalization.parse_finetune(self._describe(),
                                                      kwargs)
        if not configuration.config.train:
            return super().forward(x)
        gamma, beta = self._scale_and_shift()
        decay, avg_mean, avg_var = self._running_statistics(finetune)
        y, = MultiNodeBatchNormalizationFunction(
            self.comm, self.eps, avg_mean, avg_var, decay,
            self._use_nccl).apply((x, gamma, beta))
        return y

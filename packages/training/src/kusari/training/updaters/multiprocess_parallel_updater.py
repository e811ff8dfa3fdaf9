"""Data-parallel training on several GPUs, one process per GPU, with the
gradients summed by NCCL."""
import multiprocessing

import numpy

from kusari.array import lazy_cupy
from kusari.array import backend
from kusari.autograd import graph_mode
from kusari.datasets import convert
from kusari.training.updaters import _devices
from kusari.training.updaters import standard_updater

_UPDATE = 'update'
_FINALIZE = 'finalize'


def _nccl():
    """``cupy.cuda.nccl``, or None where CuPy or NCCL is missing."""
    cupy = lazy_cupy.cupy_or_none()
    if cupy is None:
        return None
    try:
        from cupy.cuda import nccl
    except ImportError:
        return None
    return nccl if getattr(nccl, 'available', True) else None


def _pack(caller, link, attribute):
    """The ``attribute`` arrays of the parameters of ``link`` in one flat
    GPU array (zeros for a missing gradient), so that one collective call
    moves them all."""
    params = [param for _, param in sorted(link.namedparams())
              if param.array is not None]
    cupy = lazy_cupy.cupy_or_none()
    if cupy is None or not all(isinstance(param.array, cupy.ndarray)
                               for param in params):
        raise RuntimeError(f'{caller} works only on GPU: the parameters of '
                           f'the link must be CuPy arrays')
    if not params:
        return cupy.empty(0, numpy.float32)
    dtype = numpy.result_type(*[param.dtype for param in params])
    return cupy.concatenate([
        cupy.zeros(param.size, dtype) if getattr(param, attribute) is None
        else getattr(param, attribute).ravel().astype(dtype, copy=False)
        for param in params])


def _unpack(link, attribute, packed):
    """Copy the parts of ``packed`` (as :func:`_pack` made it) back into
    the ``attribute`` arrays; a missing gradient stays missing."""
    offset = 0
    for _, param in sorted(link.namedparams()):
        if param.array is None:
            continue
        target = getattr(param, attribute)
        if target is not None:
            target[...] = packed[offset:offset + param.size].reshape(
                param.shape)
        offset += param.size


def gather_grads(link):
    """The gradients of the parameters of ``link`` (on a GPU) packed into
    one flat array, in the order of their sorted names; a parameter
    without a gradient contributes zeros. RuntimeError on the host."""
    return _pack('gather_grads', link, 'grad')


def gather_params(link):
    """The parameters of ``link`` (on a GPU) packed into one flat array,
    in the order of their sorted names. RuntimeError on the host."""
    return _pack('gather_params', link, 'array')


def scatter_grads(link, array):
    """Copy ``array``, as :func:`gather_grads` packs it, into the
    gradients of ``link``."""
    _unpack(link, 'grad', array)


def scatter_params(link, array):
    """Copy ``array``, as :func:`gather_params` packs it, into the
    parameters of ``link``."""
    _unpack(link, 'array', array)


def _nccl_dtype(dtype):
    nccl = _nccl()
    return {numpy.dtype(numpy.float16): nccl.NCCL_FLOAT16,
            numpy.dtype(numpy.float32): nccl.NCCL_FLOAT32,
            numpy.dtype(numpy.float64): nccl.NCCL_FLOAT64}[dtype]


def _all_reduce_gradients(communicator, link, stream, scale=1.):
    """Sum the gradients of ``link`` over every process (times
    ``scale``), in place."""
    grads = gather_grads(link)
    communicator.allReduce(grads.data.ptr, grads.data.ptr, grads.size,
                           _nccl_dtype(grads.dtype), _nccl().NCCL_SUM,
                           stream.ptr)
    if scale != 1.:
        grads *= scale
    scatter_grads(link, grads)


def _broadcast_parameters(communicator, link, stream):
    """Copy the parameters of the main process to every other one."""
    params = gather_params(link)
    communicator.bcast(params.data.ptr, params.size,
                       _nccl_dtype(params.dtype), 0, stream.ptr)
    scatter_params(link, params)


def _loss_and_backward(model, iterator, converter, device):
    batch = next(iterator)
    in_arrays = convert.call_converter(converter, batch, device)
    model.cleargrads()
    with graph_mode.force_backprop_mode():
        loss = standard_updater.call_with_batch(model, in_arrays)
    loss.backward()


def _worker(rank, size, device_id, model, iterator, converter, unique_id,
            pipe):
    """The loop of a worker process: one forward/backward per update
    request, gradients summed into the main process, parameters received
    from it."""
    cupy = lazy_cupy.require_cupy()
    device = backend.get_device(device_id)
    with device:
        model.to_device(device)
        communicator = _nccl().NcclCommunicator(size, unique_id, rank)
        stream = cupy.cuda.Stream.null
        _broadcast_parameters(communicator, model, stream)
        while True:
            job = pipe.recv()
            if job == _FINALIZE:
                break
            _loss_and_backward(model, iterator, converter, device)
            _all_reduce_gradients(communicator, model, stream)
            _broadcast_parameters(communicator, model, stream)
    pipe.close()


class MultiprocessParallelUpdater(standard_updater.StandardUpdater):
    """Updater that trains a copy of the model on each GPU in its own
    process; the gradients are summed with NCCL, the main process updates
    the parameters and broadcasts them.

    Each process reads its own iterator (give one per device, over
    disjoint parts of the dataset). Values reported in the worker
    processes do not reach the trainer: only the main device's are
    reported.

    Args:
        iterators (list): One iterator per device; the first is the main
            one.
        optimizer: Optimizer of the main model.
        converter: Makes arrays from a batch.
        devices (list or dict): CUDA device ids (a dict by name needs a
            ``'main'`` entry); one per iterator.
        auto_new_epoch (bool): As in :class:`StandardUpdater`.
    """

    def __init__(self, iterators, optimizer,
                 converter=convert.concat_examples, devices=None,
                 auto_new_epoch=True):
        caller = type(self).__name__
        if not MultiprocessParallelUpdater.available():
            raise RuntimeError(f'{caller}: needs CuPy with NCCL and a CUDA '
                               f'GPU (pip install "kusari-array[cuda]")')
        if devices is None:
            raise ValueError(f'{caller}: devices must be given')
        devices = _devices.resolve_all(caller, devices)
        if not isinstance(iterators, (list, tuple)) \
                or len(iterators) != len(devices):
            raise ValueError(f'{caller}: give one iterator per device '
                             f'({len(devices)}), got {iterators!r}')
        # These updaters train the 'main' optimizer's target.
        standard_updater._named(caller, 'optimizers', optimizer)
        super().__init__(iterators[0], optimizer, converter=converter,
                         device=devices['main'],
                         auto_new_epoch=auto_new_epoch)
        self._worker_iterators = list(iterators[1:])
        self._worker_devices = [device for name, device in devices.items()
                                if name != 'main']
        self._pipes = []
        self._processes = []
        self._communicator = None

    @staticmethod
    def available():
        """Whether CuPy, NCCL and a GPU are there."""
        return _nccl() is not None

    def _setup_workers(self):
        nccl = _nccl()
        cupy = lazy_cupy.require_cupy()
        size = len(self._worker_devices) + 1
        unique_id = nccl.get_unique_id()
        model = self.get_optimizer('main').target
        context = multiprocessing.get_context('spawn')
        for rank, (device, iterator) in enumerate(
                zip(self._worker_devices, self._worker_iterators), 1):
            parent, child = context.Pipe()
            process = context.Process(
                target=_worker,
                args=(rank, size, device.device.id, model.copy(mode='copy'),
                      iterator, self.converter, unique_id, child))
            process.start()
            self._pipes.append(parent)
            self._processes.append(process)
        with self.device:
            self._communicator = nccl.NcclCommunicator(size, unique_id, 0)
            _broadcast_parameters(self._communicator, model,
                                  cupy.cuda.Stream.null)

    def update_core(self):
        if self._communicator is None:
            self._setup_workers()
        cupy = lazy_cupy.require_cupy()
        optimizer = self.get_optimizer('main')
        model = optimizer.target
        iterator = self.get_iterator('main')
        for pipe in self._pipes:
            pipe.send(_UPDATE)
        with self.device:
            try:
                _loss_and_backward(model, iterator, self.converter,
                                   self.device)
            except StopIteration:
                raise RuntimeError(
                    f'{type(self).__name__}: the main iterator has no more '
                    f'batches but training is not over') from None
            stream = cupy.cuda.Stream.null
            _all_reduce_gradients(self._communicator, model, stream,
                                  scale=1. / (len(self._pipes) + 1))
            optimizer.update()
            _broadcast_parameters(self._communicator, model, stream)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def finalize(self):
        """Stop the worker processes, then finalize the iterators."""
        for pipe in self._pipes:
            pipe.send(_FINALIZE)
        for process in self._processes:
            process.join()
        self._pipes, self._processes = [], []
        self._communicator = None
        super().finalize()
        for iterator in self._worker_iterators:
            iterator.finalize()

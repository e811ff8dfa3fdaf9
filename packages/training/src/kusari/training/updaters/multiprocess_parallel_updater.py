"""Data-parallel training on several GPUs, one process per GPU, with the
gradients summed by NCCL."""
import multiprocessing

from kusari.array import _cupy
from kusari.array import backend
from kusari.autograd import graph_mode
from kusari.datasets import convert
from kusari.training.updaters import _devices
from kusari.training.updaters import standard_updater

_UPDATE = 'update'
_FINALIZE = 'finalize'


def _nccl():
    """``cupy.cuda.nccl``, or None where CuPy or NCCL is missing."""
    cupy = _cupy.cupy_or_none()
    if cupy is None:
        return None
    try:
        from cupy.cuda import nccl
    except ImportError:
        return None
    return nccl if getattr(nccl, 'available', True) else None


def _gradients(link):
    return [param.grad for _, param in sorted(link.namedparams())
            if param.grad is not None]


def _parameters(link):
    return [param.array for _, param in sorted(link.namedparams())]


def _all_reduce_gradients(communicator, link, stream):
    """Sum the gradients of ``link`` over every process, in place."""
    nccl = _nccl()
    for grad in _gradients(link):
        communicator.allReduce(grad.data.ptr, grad.data.ptr, grad.size,
                               nccl.NCCL_FLOAT32 if grad.dtype.itemsize == 4
                               else nccl.NCCL_FLOAT64, nccl.NCCL_SUM,
                               stream.ptr)


def _broadcast_parameters(communicator, link, stream):
    """Copy the parameters of the main process to every other one."""
    nccl = _nccl()
    for array in _parameters(link):
        communicator.bcast(array.data.ptr, array.size,
                           nccl.NCCL_FLOAT32 if array.dtype.itemsize == 4
                           else nccl.NCCL_FLOAT64, 0, stream.ptr)


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
    cupy = _cupy.require_cupy()
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
        cupy = _cupy.require_cupy()
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
        cupy = _cupy.require_cupy()
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
            _all_reduce_gradients(self._communicator, model, stream)
            scale = 1. / (len(self._pipes) + 1)
            for grad in _gradients(model):
                grad *= scale
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

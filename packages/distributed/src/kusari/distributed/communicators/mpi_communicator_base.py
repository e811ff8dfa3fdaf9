"""Communicators on an mpi4py communicator: every method of the interface,
each communication nonblocking and completed within the timeout."""
import functools
import operator
import pickle
import zlib

import numpy

from kusari.array import lazy_cupy
from kusari.array import backend
from kusari.distributed.communicators import _base
from kusari.distributed.communicators import _deadline
from kusari.distributed.communicators import _liveness
from kusari.distributed.communicators import _packing
from kusari.distributed.communicators import _shared_sum


def _mpi():
    from mpi4py import MPI  # imported on first use: it initializes MPI
    return MPI


def _host_bytes(array):
    """A contiguous host copy of ``array``, as flat bytes."""
    host = numpy.ascontiguousarray(backend.CpuDevice().send_array(array))
    return host.reshape(-1).view(numpy.uint8)


def _header(array, owner, argument):
    if not (isinstance(array, numpy.ndarray)
            or lazy_cupy.is_cupy_array(array)):
        raise TypeError(f'{owner}: {argument} must be a NumPy or CuPy '
                        f'array, got {type(array).__name__}')
    return (tuple(array.shape), numpy.dtype(array.dtype).str,
            not isinstance(array, numpy.ndarray))


def _nbytes(header):
    shape, dtype, _ = header
    return int(numpy.prod(shape, dtype=numpy.int64)) * \
        numpy.dtype(dtype).itemsize


def _from_bytes(buffer, header):
    """The array ``header`` describes from its bytes; on the current GPU
    where it was sent from one."""
    shape, dtype, on_gpu = header
    array = buffer.view(numpy.dtype(dtype)).reshape(shape)
    if on_gpu:
        return lazy_cupy.require_cupy().asarray(array)
    return array


def _split_bytes(buffer, headers):
    arrays, offset = [], 0
    for header in headers:
        size = _nbytes(header)
        arrays.append(_from_bytes(buffer[offset:offset + size], header))
        offset += size
    return tuple(arrays)


def _displacements(counts):
    return [0] + list(numpy.cumsum(counts[:-1], dtype=numpy.int64))


def _dumps(obj):
    return numpy.frombuffer(pickle.dumps(obj, pickle.HIGHEST_PROTOCOL),
                            numpy.uint8)


def _mismatch(call, layouts):
    """The message for ``layouts`` (one list of ``(name, shape, dtype)`` per
    rank) that differ: which rank differs from rank 0, and where."""
    reference = dict((name, rest) for name, *rest in layouts[0])
    for rank, entries in enumerate(layouts[1:], 1):
        mine = dict((name, rest) for name, *rest in entries)
        for name in sorted(set(reference) | set(mine)):
            if name not in mine:
                return (f'{call}: rank {rank} has no {name}, which rank 0 '
                        f'has (shape {reference[name][0]})')
            if name not in reference:
                return (f'{call}: rank {rank} has {name} (shape '
                        f'{mine[name][0]}), which rank 0 lacks')
            if mine[name] != reference[name]:
                (shape, dtype), (shape0, dtype0) = mine[name], \
                    reference[name]
                return (f'{call}: {name} has shape {shape} and dtype '
                        f'{dtype} on rank {rank}, but shape {shape0} and '
                        f'dtype {dtype0} on rank 0')
        if [e[0] for e in entries] != [e[0] for e in layouts[0]]:
            return f'{call}: rank {rank} lists its arrays in another order'
    return f'{call}: the ranks disagree on the arrays exchanged'


class MpiCommunicatorBase(_base.CommunicatorBase):
    """A communicator over ``mpi_comm`` (an mpi4py communicator).

    Arrays travel through host memory (CuPy arrays are copied to the host
    and back), except the model's gradients and parameters, which travel
    packed into one buffer per call, where :meth:`_buffer_module` says.

    Args:
        mpi_comm: The mpi4py communicator (``MPI.COMM_WORLD`` usually).
        allreduce_grad_dtype: dtype the gradients are averaged in (None:
            float32, or float64 where a gradient is float64).
        timeout (float): Seconds a communication may wait for the other
            ranks (default: :func:`_deadline.default_timeout`).

    Attributes:
        mpi_comm: The mpi4py communicator.
    """

    # What the gradients may be averaged in: MPI cannot sum float16.
    _grad_dtypes = ('float32', 'float64')

    def __init__(self, mpi_comm, allreduce_grad_dtype=None, timeout=None):
        self.mpi_comm = mpi_comm
        self._config = {'allreduce_grad_dtype': None,
                        'timeout': _deadline.default_timeout()}
        self.set_config('allreduce_grad_dtype', allreduce_grad_dtype)
        if timeout is not None:
            self.set_config('timeout', timeout)
        self._rank, self._size = mpi_comm.Get_rank(), mpi_comm.Get_size()
        MPI = _mpi()
        intra = mpi_comm.Split_type(MPI.COMM_TYPE_SHARED, key=self._rank)
        self._intra_rank, self._intra_size = intra.rank, intra.size
        # Watched while a communication waits (see _deadline.poll).
        self._peers = _liveness.Peers({
            rank: identity for rank, identity in intra.allgather(
                (self._rank, _liveness.identity())) if rank != self._rank})
        inter = mpi_comm.Split(self._intra_rank, self._rank)
        self._inter_rank, self._inter_size = inter.rank, inter.size
        intra.Free()
        inter.Free()
        self._buffers = _packing.Buffers()
        # Gradient sums of host buffers through shared memory, where all
        # ranks share one node.
        self._shared_sum = _shared_sum.SharedSum(
            mpi_comm, self._complete) \
            if self._size > 1 and self._intra_size == self._size else None
        self._owns_mpi_comm = False

    def __repr__(self):
        return (f'<{type(self).__name__} rank {self._rank} of '
                f'{self._size}>')

    # -- ranks -------------------------------------------------------

    rank = property(lambda self: self._rank, doc='Rank of this process.')
    size = property(lambda self: self._size, doc='Number of processes.')
    intra_rank = property(lambda self: self._intra_rank,
                          doc='Rank among the processes of this machine.')
    intra_size = property(lambda self: self._intra_size,
                          doc='Number of processes on this machine.')
    inter_rank = property(lambda self: self._inter_rank,
                          doc='Rank of this machine.')
    inter_size = property(lambda self: self._inter_size,
                          doc='Number of machines.')

    def split(self, color, key):
        """A communicator of the same kind and configuration over the
        processes that gave the same ``color``, ranked by ``key``."""
        communicator = type(self)(self.mpi_comm.Split(color, key),
                                  **self._config)
        communicator._owns_mpi_comm = True
        return communicator

    def finalize(self):
        """Free the shared memory of gradient sums, and the MPI
        communicator if :meth:`split` made it."""
        if self._shared_sum is not None:
            self._shared_sum.free()
        if self._owns_mpi_comm:
            self.mpi_comm.Free()
            self._owns_mpi_comm = False

    # -- configuration -----------------------------------------------

    def get_config(self, name=None):
        """The value of configuration ``name`` (``'allreduce_grad_dtype'``
        or ``'timeout'``), or a dict of all with ``name=None``."""
        if name is None:
            return dict(self._config)
        self._check_config_name('get_config', name)
        return self._config[name]

    def set_config(self, name, value=True, **kwargs):
        """Set ``'allreduce_grad_dtype'`` (a float dtype or None) or
        ``'timeout'`` (seconds any communication may wait)."""
        self._check_config_name('set_config', name)
        if kwargs:
            raise TypeError(f'{type(self).__name__}.set_config: unexpected '
                            f'keyword arguments {sorted(kwargs)}')
        if name == 'timeout':
            value = _deadline.check_timeout(
                value, f'{type(self).__name__}.set_config: timeout')
        else:
            value = self._check_grad_dtype(value)
        self._config[name] = value

    def _check_config_name(self, caller, name):
        if name not in self._config:
            raise ValueError(
                f'{type(self).__name__}.{caller}: unknown configuration '
                f'{name!r}; expected one of {sorted(self._config)}')

    def _check_grad_dtype(self, dtype):
        if dtype is None:
            return None
        dtype = numpy.dtype(dtype)
        if dtype.name not in self._grad_dtypes:
            raise ValueError(
                f'{type(self).__name__}: allreduce_grad_dtype must be '
                f'{", ".join(self._grad_dtypes)} or None, got {dtype}')
        return dtype

    # -- completion --------------------------------------------------

    def _complete(self, call, start):
        """Start requests with ``start()`` and wait for them; MPI errors
        are raised naming ``call`` and the rank."""
        MPI = _mpi()
        try:
            return _deadline.wait(start(), self, call)
        except MPI.Exception as error:
            raise RuntimeError(f'{call} on rank {self._rank}: MPI failed: '
                               f'{error}') from error

    def _lost_rank(self):
        """``(rank, pid)`` of a rank on this machine whose process is
        ending or has ended, or None (one rank checked a call, in turn)."""
        return self._peers.lost()

    def _check_same_layout(self, call, entries):
        """Raise on every rank unless all ranks give the same ``entries``
        (``(name, shape, dtype)`` each); one small allreduce when they do,
        none where this rank is alone.
        """
        if self._size == 1:
            return
        MPI = _mpi()
        digest = zlib.crc32(repr(entries).encode())
        mine = numpy.array([digest, -digest], numpy.int64)
        most = numpy.empty_like(mine)
        self._complete(call, lambda: self.mpi_comm.Iallreduce(
            mine, most, MPI.MAX))
        if most[0] != -most[1]:
            raise ValueError(_mismatch(call, self.allgather_obj(entries)))

    # -- objects -----------------------------------------------------

    def send_obj(self, obj, dest, tag=0):
        self._complete('send_obj', lambda: self.mpi_comm.isend(
            obj, dest, tag))

    def recv_obj(self, source, tag=0):
        message = _deadline.poll(
            lambda: self.mpi_comm.improbe(source, tag), self, 'recv_obj')
        return message.recv()

    def bcast_obj(self, obj, max_buf_len=None, root=0):
        """Broadcast ``obj`` of ``root``, pickled; with ``max_buf_len``, an
        object that pickles to more bytes is an error on every rank."""
        data = _dumps(obj) if self._rank == root else None
        sizes = numpy.array(
            [0 if data is None else data.size,
             -1 if max_buf_len is None else max_buf_len], numpy.int64)
        self._complete('bcast_obj', lambda: self.mpi_comm.Ibcast(
            sizes, root))
        size, limit = int(sizes[0]), int(sizes[1])
        if limit >= 0 and size > limit:
            raise ValueError(
                f'bcast_obj: the object of rank {root} pickles to {size} '
                f'bytes, more than max_buf_len={limit}')
        if data is None:
            data = numpy.empty(size, numpy.uint8)
        self._complete('bcast_obj', lambda: self.mpi_comm.Ibcast(
            data, root))
        return obj if self._rank == root else pickle.loads(data)

    def gather_obj(self, obj, root=0):
        MPI = _mpi()
        data = _dumps(obj)
        counts = self._gather_sizes('gather_obj', data.size, root)
        if self._rank == root:
            buffer = numpy.empty(int(sum(counts)), numpy.uint8)
            target = [buffer, counts, _displacements(counts), MPI.BYTE]
        else:
            target = None
        self._complete('gather_obj', lambda: self.mpi_comm.Igatherv(
            data, target, root))
        if self._rank != root:
            return None
        return [pickle.loads(buffer[start:start + count])
                for start, count in zip(_displacements(counts), counts)]

    def allgather_obj(self, obj):
        """The list of every rank's ``obj``, on every rank."""
        MPI = _mpi()
        data = _dumps(obj)
        counts = self._gather_sizes('allgather_obj', data.size, None)
        buffer = numpy.empty(int(sum(counts)), numpy.uint8)
        displacements = _displacements(counts)
        self._complete('allgather_obj', lambda: self.mpi_comm.Iallgatherv(
            data, [buffer, counts, displacements, MPI.BYTE]))
        return [pickle.loads(buffer[start:start + count])
                for start, count in zip(displacements, counts)]

    def allreduce_obj(self, obj):
        return functools.reduce(operator.add, self.allgather_obj(obj))

    def _gather_sizes(self, call, size, root):
        """Every rank's ``size``: on ``root`` (all ranks if None)."""
        mine = numpy.array([size], numpy.int64)
        sizes = numpy.empty(self._size, numpy.int64)
        if root is None:
            self._complete(call, lambda: self.mpi_comm.Iallgather(
                mine, sizes))
        else:
            self._complete(call, lambda: self.mpi_comm.Igather(
                mine, sizes, root))
        return [int(s) for s in sizes]

    # -- arrays ------------------------------------------------------

    def send(self, data, dest, tag=0):
        """Send an array, or a tuple or list of them, to ``dest``."""
        arrays = tuple(data) if isinstance(data, (tuple, list)) else (data,)
        headers = [_header(a, 'send', 'data') for a in arrays]
        self.send_obj((isinstance(data, (tuple, list)), headers), dest, tag)
        self._complete('send', lambda: [
            self.mpi_comm.Isend(_host_bytes(a), dest, tag) for a in arrays])

    def recv(self, source, tag=0):
        """What ``source`` sent with :meth:`send`: an array or a tuple."""
        is_tuple, headers = self.recv_obj(source, tag)
        buffers = [numpy.empty(_nbytes(h), numpy.uint8) for h in headers]
        self._complete('recv', lambda: [
            self.mpi_comm.Irecv(b, source, tag) for b in buffers])
        arrays = tuple(_from_bytes(b, h) for b, h in zip(buffers, headers))
        return arrays if is_tuple else arrays[0]

    def bcast(self, data, max_buf_len=None, root=0):
        header = _header(data, 'bcast', 'data') \
            if self._rank == root else None
        header = self.bcast_obj(header, root=root)
        size = _nbytes(header)
        if max_buf_len is not None and size > max_buf_len:
            raise ValueError(
                f'bcast: the array of rank {root} has {size} bytes, more '
                f'than max_buf_len={max_buf_len}')
        buffer = _host_bytes(data) if self._rank == root else \
            numpy.empty(size, numpy.uint8)
        self._complete('bcast', lambda: self.mpi_comm.Ibcast(buffer, root))
        return data if self._rank == root else _from_bytes(buffer, header)

    def gather(self, data, root=0):
        MPI = _mpi()
        headers = self.gather_obj(_header(data, 'gather', 'data'), root)
        source = _host_bytes(data)
        if self._rank == root:
            counts = [_nbytes(h) for h in headers]
            buffer = numpy.empty(sum(counts), numpy.uint8)
            target = [buffer, counts, _displacements(counts), MPI.BYTE]
        else:
            target = None
        self._complete('gather', lambda: self.mpi_comm.Igatherv(
            source, target, root))
        return _split_bytes(buffer, headers) if self._rank == root else None

    def allgather(self, x):
        MPI = _mpi()
        headers = self.allgather_obj(_header(x, 'allgather', 'x'))
        counts = [_nbytes(h) for h in headers]
        buffer = numpy.empty(sum(counts), numpy.uint8)
        self._complete('allgather', lambda: self.mpi_comm.Iallgatherv(
            _host_bytes(x), [buffer, counts, _displacements(counts),
                             MPI.BYTE]))
        return _split_bytes(buffer, headers)

    def alltoall(self, xs):
        MPI = _mpi()
        self._check_one_per_rank('alltoall', 'xs', xs)
        headers = self.allgather_obj(
            [_header(x, 'alltoall', 'xs[i]') for x in xs])
        incoming = [headers[source][self._rank]
                    for source in range(self._size)]
        send_counts = [_nbytes(h) for h in headers[self._rank]]
        recv_counts = [_nbytes(h) for h in incoming]
        source = numpy.concatenate([_host_bytes(x) for x in xs])
        buffer = numpy.empty(sum(recv_counts), numpy.uint8)
        self._complete('alltoall', lambda: self.mpi_comm.Ialltoallv(
            [source, send_counts, _displacements(send_counts), MPI.BYTE],
            [buffer, recv_counts, _displacements(recv_counts), MPI.BYTE]))
        return _split_bytes(buffer, incoming)

    def scatter(self, xs, root=0):
        MPI = _mpi()
        if self._rank == root:
            self._check_one_per_rank('scatter', 'xs', xs)
            headers = [_header(x, 'scatter', 'xs[i]') for x in xs]
        else:
            headers = None
        headers = self.bcast_obj(headers, root=root)
        buffer = numpy.empty(_nbytes(headers[self._rank]), numpy.uint8)
        if self._rank == root:
            counts = [_nbytes(h) for h in headers]
            source = [numpy.concatenate([_host_bytes(x) for x in xs]),
                      counts, _displacements(counts), MPI.BYTE]
        else:
            source = None
        self._complete('scatter', lambda: self.mpi_comm.Iscatterv(
            source, buffer, root))
        return _from_bytes(buffer, headers[self._rank])

    def allreduce(self, data):
        MPI = _mpi()
        header = _header(data, 'allreduce', 'data')
        self._check_same_layout('allreduce', _packing.layout(['data'],
                                                             [data]))
        source = numpy.ascontiguousarray(
            backend.CpuDevice().send_array(data))
        total = numpy.empty_like(source)
        self._complete('allreduce', lambda: self.mpi_comm.Iallreduce(
            source, total, MPI.SUM))
        return _from_bytes(total.reshape(-1).view(numpy.uint8), header)

    def _check_one_per_rank(self, call, argument, xs):
        if not isinstance(xs, (tuple, list)) or len(xs) != self._size:
            raise ValueError(
                f'{call}: {argument} must be a tuple of {self._size} arrays '
                f'(one per rank) on rank {self._rank}, got '
                f'{len(xs) if isinstance(xs, (tuple, list)) else xs!r}')

    # -- models ------------------------------------------------------

    def bcast_data(self, model):
        """Overwrite every initialized parameter of ``model`` with rank 0's;
        the parameters must agree in names, shapes and dtypes."""
        entries = list(model.namedparams(include_uninit=False))
        arrays = [param.array for _, param in entries]
        self._check_same_layout('bcast_data', _packing.layout(
            [path for path, _ in entries], arrays))
        if not entries:
            return
        buffer = self._buffers.take(
            self._buffer_module(arrays), sum(a.size for a in arrays),
            numpy.result_type(*[a.dtype for a in arrays]))
        _packing.pack(arrays, buffer)
        self._complete_broadcast(buffer, 'bcast_data')
        _packing.unpack(buffer, arrays)

    def multi_node_mean_grad(self, model, zero_fill=False):
        self._start_mean_grad(model, zero_fill, 'multi_node_mean_grad',
                              snapshot=False)()

    def _start_mean_grad(self, model, zero_fill, call, snapshot=True):
        """Start averaging the gradients of ``model``; return the function
        that waits for the mean and writes it into the gradients.

        With ``snapshot``, the gradients are packed at once, so they may
        change before the returned function is called (double buffering).
        """
        entries = _packing.named_grads(model, zero_fill)
        grads = [param.grad for _, param in entries]
        self._check_same_layout(call, _packing.layout(
            [path for path, _ in entries], grads))
        if not entries:
            return lambda: None
        dtype = self._grad_dtype([g.dtype for g in grads])
        buffer = self._buffers.take(
            self._buffer_module(grads), sum(g.size for g in grads), dtype)
        wait = self._start_grad_mean(buffer, call, grads, snapshot)
        params = [param for _, param in entries]
        return lambda: wait(_packing.writable_grads(params))

    # -- what the kinds of communicator decide ------------------------

    def _buffer_module(self, arrays):
        """The array module of the packed buffers for ``arrays``: NumPy,
        so that any MPI can send them (CuPy arrays are staged on the
        host)."""
        return numpy

    def _grad_dtype(self, dtypes):
        """The dtype gradients of ``dtypes`` are averaged in."""
        configured = self._config['allreduce_grad_dtype']
        if configured is not None:
            return configured
        return numpy.result_type(numpy.float32, *dtypes)

    def _start_sum(self, target, call):
        """Start summing the flat buffer ``target`` over the ranks in
        place; return the function that waits for it."""
        MPI = _mpi()
        request = self.mpi_comm.Iallreduce(MPI.IN_PLACE, target, MPI.SUM)
        return lambda: self._complete(call, lambda: request)

    def _start_grad_mean(self, target, call, sources, snapshot=False):
        """Start averaging gradients over the ranks: ``sources`` packed one
        after another into the flat buffer ``target``; return
        ``finish(outputs=None)``, which waits for the means and writes
        them into ``outputs`` (an array of each source's shape for each),
        or, without them, only waits.

        Each rank's share is divided by the number of ranks before the
        sum, in the pass that packs it. Host buffers of ranks on one node
        are summed through shared memory where it has room
        (:mod:`._shared_sum`), straight into the ``outputs``. A rank alone
        whose ``sources`` the averaging dtype holds exactly packs nothing:
        their mean is themselves, copied only into outputs that are other
        arrays, unless ``snapshot`` (the sources may change before
        ``finish``).
        """
        if self._size == 1 and not snapshot and all(
                numpy.can_cast(s.dtype, target.dtype) for s in sources):
            return functools.partial(_packing.copy_over, sources)
        # This rank's share, scaled, into the region given.
        pack = functools.partial(_packing.pack, sources,
                                 scale=target.dtype.type(1.0 / self._size))
        if self._shared_sum is not None and \
                isinstance(target, numpy.ndarray):
            finish = self._shared_sum.start(target.size, target.dtype, pack,
                                            call)
            if finish is not None:
                return finish
        pack(target)
        return _packing.unpacked_after(self._start_sum(target, call), target)

    def _complete_broadcast(self, buffer, call):
        """Overwrite ``buffer`` with rank 0's, in place."""
        self._complete(call, lambda: self.mpi_comm.Ibcast(buffer, 0))

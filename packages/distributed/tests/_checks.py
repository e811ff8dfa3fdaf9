"""Checks run inside an MPI job, on every rank: ``mpiexec -n N python
_checks.py DIRECTORY [NAME...]`` (no names: every check for N ranks).

Each check raises on failure. Each rank writes one JSON line per check
(its name, and the traceback if it failed) to ``DIRECTORY/rank<r>.jsonl``,
then waits for the others before the next check.
"""
import copy
import json
import logging
import os
import sys
import tempfile
import traceback
import warnings

import numpy
from numpy.testing import assert_allclose

import kusari.distributed as kd
from kusari.distributed.communicators import _shared_sum
from kusari.autograd import Parameter
from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.datasets.iterators import SerialIterator
from kusari.datasets import TupleDataset
from kusari.datasets import concat_examples
from kusari.links import Chain
from kusari.links import layers as L
from kusari.training import StandardUpdater
from kusari.training import Trainer
from kusari.training import extension
from kusari.training import extensions
from kusari.training import optimizers

CHECKS = {}
TIMEOUT = 20.0


def check(*sizes):
    """Register a check for jobs of ``sizes`` processes (default 2, 3)."""
    def register(function):
        CHECKS[function.__name__[len('check_'):]] = (function,
                                                     sizes or (2, 3))
        return function
    return register


def gpu_check(function):
    """Register a check run only when named (by test_gpu.py)."""
    CHECKS[function.__name__[len('check_'):]] = (function, ())
    return function


def raises(error_type, call, *fragments):
    """Assert ``call()`` raises ``error_type`` whose message holds every
    fragment."""
    try:
        call()
    except error_type as error:
        for fragment in fragments:
            assert fragment in str(error), (fragment, str(error))
        return error
    raise AssertionError(f'{error_type.__name__} not raised')


class MLP(Chain):

    def __init__(self, seed, n_in=5, n_hidden=4, n_out=3):
        super().__init__()
        rng = numpy.random.RandomState(seed)
        with self.init_scope():
            self.l1 = L.Linear(n_in, n_hidden,
                               initialW=rng.randn(n_hidden, n_in) * 0.5)
            self.l2 = L.Linear(n_hidden, n_out,
                               initialW=rng.randn(n_out, n_hidden) * 0.5)

    def forward(self, x):
        return self.l2(F.tanh(self.l1(x)))


def classification_data(n, seed=0):
    rng = numpy.random.RandomState(seed)
    return (rng.randn(n, 5).astype(numpy.float32),
            rng.randint(0, 3, n).astype(numpy.int32))


def loss_of(model):
    return lambda x, t: F.softmax_cross_entropy(model(x), t)


def params_of(model):
    return {path: param.array.copy() for path, param in model.namedparams()}


def assert_same_params(model, reference, rtol=1e-5, atol=1e-6):
    expected = params_of(reference)
    for path, value in params_of(model).items():
        assert_allclose(value, expected[path], rtol=rtol, atol=atol,
                        err_msg=path)


# -- communicators ---------------------------------------------------


@check()
def check_ranks_and_split(comm):
    from mpi4py import MPI
    assert (comm.rank, comm.size) == (MPI.COMM_WORLD.rank,
                                      MPI.COMM_WORLD.size)
    assert comm.mpi_comm is MPI.COMM_WORLD
    # One machine: every process is on node 0.
    assert (comm.intra_rank, comm.intra_size) == (comm.rank, comm.size)
    assert (comm.inter_rank, comm.inter_size) == (0, 1)
    sub = comm.split(comm.rank % 2, -comm.rank)
    members = [r for r in range(comm.size) if r % 2 == comm.rank % 2]
    assert sub.size == len(members)
    assert sub.rank == sorted(members, reverse=True).index(comm.rank)
    assert type(sub) is type(comm)
    assert sub.allreduce_obj(comm.rank) == sum(members)
    sub.finalize()


@check()
def check_object_methods(comm):
    rank, size = comm.rank, comm.size
    assert comm.bcast_obj({'from': rank}, root=size - 1) == {
        'from': size - 1}
    gathered = comm.gather_obj(('r', rank), root=1)
    assert gathered == ([('r', r) for r in range(size)] if rank == 1
                        else None)
    assert comm.allreduce_obj(rank + 1) == size * (size + 1) // 2
    assert comm.allreduce_obj([rank]) == list(range(size))
    assert comm.allgather_obj(rank * 2) == [2 * r for r in range(size)]
    nxt, prev = (rank + 1) % size, (rank - 1) % size
    if rank % 2 == 0:
        comm.send_obj({'n': rank}, nxt, tag=5)
        received = comm.recv_obj(prev, tag=5)
    else:
        received = comm.recv_obj(prev, tag=5)
        comm.send_obj({'n': rank}, nxt, tag=5)
    assert received == {'n': prev}
    raises(ValueError, lambda: comm.bcast_obj(numpy.zeros(1000),
                                              max_buf_len=100),
           'rank 0', 'max_buf_len=100')


@check()
def check_array_methods(comm):
    rank, size = comm.rank, comm.size
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3) + rank
    assert_allclose(comm.allreduce(x),
                    sum(numpy.arange(6).reshape(2, 3) + r
                        for r in range(size)))
    assert comm.allreduce(x).dtype == numpy.float32
    assert_allclose(comm.bcast(x if rank == 1 else None, root=1), x * 0 +
                    numpy.arange(6).reshape(2, 3) + 1)
    # Shapes and dtypes may differ per rank in gather and allgather.
    y = numpy.full(rank + 1, rank, numpy.int64)
    gathered = comm.gather(y, root=0)
    if rank == 0:
        assert [g.tolist() for g in gathered] == [[r] * (r + 1)
                                                  for r in range(size)]
    else:
        assert gathered is None
    assert [g.tolist() for g in comm.allgather(y)] == [
        [r] * (r + 1) for r in range(size)]
    sent = [numpy.full(2, 10 * rank + i, numpy.float64) for i in range(size)]
    received = comm.alltoall(sent)
    assert [r.tolist() for r in received] == [[10 * r + rank] * 2
                                              for r in range(size)]
    parts = [numpy.full(3, i, numpy.int32) for i in range(size)] \
        if rank == 0 else None
    assert comm.scatter(parts).tolist() == [rank] * 3
    if rank == 0:
        comm.send((x, numpy.ones(2, numpy.int8)), 1, tag=2)
        comm.send(x[0], 1, tag=3)
    elif rank == 1:
        pair = comm.recv(0, tag=2)
        assert isinstance(pair, tuple) and pair[1].dtype == numpy.int8
        assert_allclose(pair[0], numpy.arange(6).reshape(2, 3))
        assert comm.recv(0, tag=3).tolist() == [0, 1, 2]
    raises(ValueError, lambda: comm.alltoall(sent[:1]), 'alltoall',
           f'{size} arrays', f'rank {rank}')
    raises(ValueError, lambda: comm.bcast(x, max_buf_len=8),
           'max_buf_len=8')
    different = numpy.zeros(rank + 1, numpy.float32)
    raises(ValueError, lambda: comm.allreduce(different), 'allreduce',
           'rank 1', 'shape (2,)')


@check()
def check_configuration(comm):
    assert comm.get_config() == {'allreduce_grad_dtype': None,
                                 'timeout': TIMEOUT}
    comm.set_config('allreduce_grad_dtype', numpy.float64)
    assert comm.get_config('allreduce_grad_dtype') == numpy.float64
    comm.set_config('allreduce_grad_dtype', None)
    raises(ValueError, lambda: comm.set_config('allreduce_grad_dtype',
                                               numpy.float16), 'float16')
    raises(ValueError, lambda: comm.set_config('timeout', -1), 'timeout')
    raises(ValueError, lambda: comm.get_config('batched'), "'batched'",
           'allreduce_grad_dtype')
    other = kd.create_communicator('flat', timeout=3)
    assert other.get_config('timeout') == 3.0
    raises(TypeError, lambda: kd.create_communicator('naive', speed=2),
           'speed')


@check()
def check_create_communicator(comm):
    from kusari.distributed.communicators import (
        DummyCommunicator, FlatCommunicator, NaiveCommunicator,
        NonCudaAwareCommunicator)
    for name, kind in (('naive', NaiveCommunicator),
                       ('flat', FlatCommunicator),
                       ('non_cuda_aware', NonCudaAwareCommunicator),
                       ('dummy', DummyCommunicator)):
        made = kd.create_communicator(name, batched_copy=True)
        assert type(made) is kind, (name, made)
        assert made.allreduce_obj(1) == comm.size  # they all communicate
    assert isinstance(comm, kd.CommunicatorBase)
    records = []
    logger = logging.getLogger('kusari.distributed')
    handler = logging.Handler()
    handler.emit = records.append
    logger.addHandler(handler)
    try:
        default = kd.create_communicator()
    finally:
        logger.removeHandler(handler)
    assert isinstance(default, NaiveCommunicator)
    assert records[0].levelno == logging.WARNING
    assert 'only naive supports CPU-only' in records[0].getMessage()
    raises(ValueError, lambda: kd.create_communicator('hierarchical'),
           "'hierarchical'", f'rank {comm.rank}', "'naive'")
    error = raises(RuntimeError, lambda: kd.create_communicator(
        'pure_nccl'), 'pure_nccl needs CuPy with NCCL', 'rank 0:')
    assert f'rank {comm.size - 1}:' in str(error)


def _model_with_grads(comm, seed_offset=0):
    model = MLP(seed=0)
    for _, param in sorted(model.namedparams()):
        param.grad = numpy.full_like(param.array, comm.rank + seed_offset)
    return model


def _count_sums(communicator):
    """The list to which ``communicator`` now appends the size of every
    sum it starts, through MPI or through shared memory."""
    sums = []
    start_sum = communicator._start_sum
    communicator._start_sum = lambda target, call: (
        sums.append(target.size) or start_sum(target, call))
    shared = communicator._shared_sum
    if shared is not None:
        start_shared = shared.start
        shared.start = lambda size, *args: (
            sums.append(size) or start_shared(size, *args))
    return sums


@check()
def check_mean_grad_packs_one_message(comm):
    for name in ('naive', 'flat', 'non_cuda_aware'):
        communicator = kd.create_communicator(name)
        sums = _count_sums(communicator)
        model = _model_with_grads(comm)
        communicator.multi_node_mean_grad(model)
        mean = (comm.size - 1) / 2
        for path, param in model.namedparams():
            assert_allclose(param.grad, mean, err_msg=path)
        assert sums == [model.count_params()], sums
    # zero_fill: an unused parameter takes part with zeros ...
    model = _model_with_grads(comm, seed_offset=1)
    if comm.rank == 0:
        model.l2.W.grad = None
    comm.multi_node_mean_grad(model, zero_fill=True)
    expected = sum(range(2, comm.size + 1)) / comm.size
    assert_allclose(model.l2.W.grad, expected)
    # ... without it, skipping it on some ranks only is an error naming
    # the rank and the parameter.
    model = _model_with_grads(comm)
    if comm.rank == 1:
        model.l2.W.grad = None
    raises(ValueError, lambda: comm.multi_node_mean_grad(model),
           'multi_node_mean_grad', 'rank 1 has no /l2/W')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        model = _model_with_grads(comm)
        comm.allreduce_grad(model)
    assert caught[0].category is DeprecationWarning
    assert_allclose(model.l1.b.grad, (comm.size - 1) / 2)


@check()
def check_shared_memory_sums(comm):
    # Ranks on one node average host gradients through shared memory: the
    # same bits on every rank, as through MPI's allreduce, over rounds of
    # several sums whose sizes outgrow the window mid-round.
    shared = kd.create_communicator('naive')
    through_mpi = kd.create_communicator('naive')
    assert shared._shared_sum is not None
    through_mpi._shared_sum = None
    rng = numpy.random.RandomState(comm.rank)
    for sizes in ((3,), (5, 1000), (1000, 70000, 2), (7,)):
        grads = [rng.standard_normal(size).astype(numpy.float32)
                 for size in sizes]
        means = []
        for communicator in (shared, through_mpi):
            targets = [numpy.empty_like(g) for g in grads]
            waits = [communicator._start_grad_mean(target, 'check', [g])
                     for target, g in zip(targets, grads)]
            for wait, target in zip(waits, targets):
                wait([target])
            means.append(targets)
        for a, b in zip(*means):
            assert_allclose(a, b, rtol=1e-6)
        everyone = comm.allgather_obj([m.tobytes() for m in means[0]])
        assert all(mine == everyone[0] for mine in everyone), sizes
    assert not shared._shared_sum._retired
    shared.finalize()
    assert shared._shared_sum._window is None
    # Where one rank finds no room in shared memory, every rank sums
    # through MPI, and gets the same mean.
    tight = kd.create_communicator('naive')
    has_room = _shared_sum._has_room
    if comm.rank == 0:
        _shared_sum._has_room = lambda nbytes: False
    try:
        grad = numpy.full(1000, comm.rank, numpy.float32)
        for _ in range(2):
            mean = numpy.empty_like(grad)
            tight._start_grad_mean(mean, 'check', [grad])([mean])
            assert_allclose(mean, (comm.size - 1) / 2)
        assert tight._shared_sum._window is None
    finally:
        _shared_sum._has_room = has_room


@check()
def check_dummy_leaves_gradients(comm):
    dummy = kd.create_communicator('dummy')
    model = _model_with_grads(comm, seed_offset=1)
    dummy.multi_node_mean_grad(model)
    for path, param in model.namedparams():
        assert_allclose(param.grad, comm.rank + 1, err_msg=path)
    # Only the gradients stay local: parameters are broadcast.
    model = MLP(seed=comm.rank)
    dummy.bcast_data(model)
    assert_same_params(model, MLP(seed=0), rtol=0, atol=0)
    # Training with it is every process training alone.
    x, t = classification_data(4, seed=comm.rank)
    optimizer = kd.create_multi_node_optimizer(optimizers.SGD(lr=0.5),
                                               dummy)
    optimizer.setup(model)
    alone = MLP(seed=0)
    alone_optimizer = optimizers.SGD(lr=0.5)
    alone_optimizer.setup(alone)
    for _ in range(2):
        optimizer.update(loss_of(model), x, t)
        alone_optimizer.update(loss_of(alone), x, t)
    assert_same_params(model, alone, rtol=0, atol=0)


class _Grads(Chain):
    """Four parameters, for gradients in each form backward may leave."""

    def __init__(self, dtype=numpy.float32):
        super().__init__()
        with self.init_scope():
            for name in 'wbuv':
                setattr(self, name, Parameter(numpy.zeros(4, dtype)))


def _unmoving_optimizer(model, communicator, overlap):
    """A multi-node SGD with a zero learning rate set up on ``model``:
    its updates only average the gradients."""
    optimizer = kd.create_multi_node_optimizer(
        optimizers.SGD(lr=0.0), communicator, overlap=overlap)
    return optimizer.setup(model)


@check(1, 2, 3)
def check_means_written_into_the_gradients(comm):
    # As ChainerMN's: the mean goes into the gradient array backward
    # left, where that array is the parameter's own; where writing it
    # would change another holder, into a new array.
    with_mpi = kd.create_communicator('naive')
    with_mpi._shared_sum = None
    dummy = kd.create_communicator('dummy')
    for communicator, overlap in ((comm, True), (comm, False),
                                  (with_mpi, True), (with_mpi, False),
                                  (dummy, True)):
        model = _Grads()
        optimizer = _unmoving_optimizer(model, communicator, overlap)
        own = numpy.arange(4, dtype=numpy.float32) * (comm.rank + 1)
        shared = numpy.full(4, comm.rank + 2, numpy.float32)
        in_graph = Variable(numpy.full(4, comm.rank, numpy.float32)) * 3
        model.w.grad = own
        model.b.grad = numpy.broadcast_to(numpy.float32(comm.rank), (4,))
        model.u.grad_var = in_graph
        model.v.grad = shared
        local = {name: getattr(model, name).grad.copy() for name in 'wbuv'}
        optimizer.update()
        case = f'{type(communicator).__name__}, overlap={overlap}'
        for name in 'wbuv':
            expected = local[name] if communicator is dummy else \
                comm.allreduce(local[name]) / comm.size
            grad = getattr(model, name).grad
            assert_allclose(grad, expected, rtol=1e-6, err_msg=(case, name))
            assert grad.flags.writeable, (case, name)
        assert model.w.grad is own, case
        assert model.v.grad is shared, case
        # The graph's array is left as it was.
        assert model.u.grad is not in_graph.array, case
        assert_allclose(in_graph.array, 3 * comm.rank, err_msg=case)
        # Of two parameters whose gradient is one array, one mean is
        # written into it, the other into a new array.
        both = numpy.full(4, comm.rank, numpy.float32)
        model.u.grad = model.b.grad = both
        optimizer.update()
        for name in 'bu':
            assert_allclose(getattr(model, name).grad,
                            comm.rank if communicator is dummy else
                            (comm.size - 1) / 2, err_msg=(case, name))
        assert (model.b.grad is both) != (model.u.grad is both), case
    # float16 gradients are summed in float32 through shared memory (in
    # rank order) and cast once. (Random values: rounding to float16 after
    # each rank's share would change some of the means on three ranks.)
    half = numpy.random.RandomState(comm.rank).standard_normal(4).astype(
        numpy.float16)
    shares = [g.astype(numpy.float32) * numpy.float32(1 / comm.size)
              for g in comm.allgather_obj(half)]
    expected = shares[0]
    for share in shares[1:]:
        expected = expected + share
    for overlap in (True, False):
        model = _Grads(numpy.float16)
        optimizer = _unmoving_optimizer(model, comm, overlap)
        for name in 'wbuv':
            getattr(model, name).grad = half.copy()
        optimizer.update()
        for name in 'wbuv':
            grad = getattr(model, name).grad
            assert grad.dtype == numpy.float16
            assert grad.tobytes() == expected.astype(
                numpy.float16).tobytes(), (overlap, name, grad)


@check()
def check_shapes_differing_across_ranks(comm):
    model = MLP(seed=0, n_hidden=4 + (comm.rank == comm.size - 1))
    optimizer = kd.create_multi_node_optimizer(optimizers.SGD(), comm)
    raises(ValueError, lambda: optimizer.setup(model), 'bcast_data',
           f'on rank {comm.size - 1}', '/l1/W has shape (5, 5)',
           'shape (4, 5)')


@check()
def check_bcast_data(comm):
    model = MLP(seed=comm.rank)
    comm.bcast_data(model)
    assert_same_params(model, MLP(seed=0), rtol=0, atol=0)


def _scattered_training(comm, actual_optimizer, double_buffering=False,
                        batch=4, overlap=None):
    """A model and multi-node optimizer on scattered shares, a copy of its
    starting point, and the function giving step ``i``'s batch: this
    process's, and the concatenation of every process's."""
    n_share = 3 * batch
    x, t = classification_data(comm.size * n_share)
    share = kd.scatter_dataset(
        TupleDataset(x, t) if comm.rank == 0 else None, comm)
    model = MLP(seed=10 + comm.rank)
    optimizer = kd.create_multi_node_optimizer(
        actual_optimizer, comm, double_buffering=double_buffering,
        overlap=overlap)
    optimizer.setup(model)
    iterator = SerialIterator(share, batch, shuffle=False)

    def batches(step):
        rows = numpy.concatenate([
            numpy.arange(r * n_share + step * batch,
                         r * n_share + (step + 1) * batch)
            for r in range(comm.size)])
        return concat_examples(next(iterator)), (x[rows], t[rows])

    return model, optimizer, copy.deepcopy(model), batches


@check(1)
def check_one_rank_packs_nothing(comm):
    # Alone, a rank's mean gradients are its own: averaging (during
    # backward or after it) packs and sums nothing; the results are those
    # of the wrapped optimizer alone (the arrays kept or copied as on more
    # ranks: check_means_written_into_the_gradients) ...
    from kusari.distributed.communicators import _packing
    packed = []
    pack = _packing.pack
    _packing.pack = lambda arrays, buffer, **scale: (
        packed.append(buffer.size) or pack(arrays, buffer, **scale))
    try:
        x, t = classification_data(4)
        for name in ('naive', 'flat', 'non_cuda_aware'):
            for overlap in (True, False):
                model, alone = MLP(seed=0), MLP(seed=0)
                optimizer = kd.create_multi_node_optimizer(
                    optimizers.Adam(), kd.create_communicator(name),
                    overlap=overlap).setup(model)
                alone_optimizer = optimizers.Adam().setup(alone)
                packed.clear()
                for _ in range(2):
                    optimizer.update(loss_of(model), x, t)
                    alone_optimizer.update(loss_of(alone), x, t)
                assert packed == [], (name, overlap, packed)
                assert_same_params(model, alone, rtol=0, atol=0)
        # ... but where the averaging dtype rounds them, as on more ranks,
        # and for double buffering, which keeps them for the next update.
        rounding = kd.create_communicator(
            'naive', allreduce_grad_dtype=numpy.float32)
        model = _Grads(numpy.float64)
        optimizer = _unmoving_optimizer(model, rounding, overlap=False)
        packed.clear()  # (of bcast_data)
        model.w.grad = numpy.full(4, 1 / 3)
        optimizer.update()
        assert model.w.grad.tolist() == [float(numpy.float32(1 / 3))] * 4
        assert packed == [16], packed
        packed.clear()
        optimizer = kd.create_multi_node_optimizer(
            optimizers.SGD(), comm, double_buffering=True).setup(MLP(seed=0))
        packed.clear()
        optimizer.update(loss_of(optimizer.target), x, t)
        assert packed == [optimizer.target.count_params()], packed
    finally:
        _packing.pack = pack


@check(1, 2, 3)
def check_equivalence_with_one_process(comm):
    non_cuda_aware = kd.create_communicator('non_cuda_aware')
    for actual, communicator in (
            (optimizers.MomentumSGD(lr=0.1), comm),
            (optimizers.Adam(), comm),
            (optimizers.Adam(), non_cuda_aware)):
        model, optimizer, reference, batches = _scattered_training(
            communicator, copy.deepcopy(actual))
        reference_optimizer = actual
        reference_optimizer.setup(reference)
        for step in range(3):
            mine, everyone = batches(step)
            optimizer.update(loss_of(model), *mine)
            reference_optimizer.update(loss_of(reference), *everyone)
        assert_same_params(model, reference)
        assert not numpy.allclose(model.l1.W.array, MLP(seed=10).l1.W.array)


def _train_both_ways(comm, step):
    """The parameters after three ``step(model, optimizer, batch)`` of
    Adam, averaging after backward (False) and during it (True)."""
    results = {}
    for overlap in (False, True):
        model, optimizer, _, batches = _scattered_training(
            comm, optimizers.Adam(), overlap=overlap)
        assert (optimizer._overlap is not None) == overlap
        for i in range(3):
            step(model, optimizer, batches(i)[0])
        results[overlap] = params_of(model)
    return results


@check(1, 2, 3)
def check_backward_overlap(comm):
    # Bit for bit the blocking path's results: one backward per update,
    # and two (gradients accumulated) where the overlap falls back.
    def one(model, optimizer, batch):
        optimizer.update(loss_of(model), *batch)

    def two(model, optimizer, batch):
        model.cleargrads()
        for half in (slice(None, 2), slice(2, None)):
            loss_of(model)(*[part[half] for part in batch]).backward()
        optimizer.update()

    for step in (one, two):
        results = _train_both_ways(comm, step)
        for path, value in results[True].items():
            assert_allclose(value, results[False][path], rtol=0, atol=0,
                            err_msg=f'{step.__name__}: {path}')
    # Buckets are whole layers, from the last, of BUCKET_ELEMENTS or more
    # (MLP's layers hold 24 and 15 elements) ...
    from kusari.distributed.communicators import _overlap
    model = MLP(seed=0)
    buckets = [[p.name for p in bucket] for bucket in _overlap._buckets(model)]
    assert buckets == [['b', 'W', 'b', 'W']], buckets
    elements, _overlap.BUCKET_ELEMENTS = _overlap.BUCKET_ELEMENTS, 15
    try:
        assert [[p.shape for p in bucket]
                for bucket in _overlap._buckets(model)] == [
            [(3,), (3, 4)], [(4,), (4, 5)]]
        # ... and start in backward, the last layer's before the first
        # layer's gradients exist; the update waits for them.
        model, optimizer, _, batches = _scattered_training(
            comm, optimizers.SGD(lr=1.0), overlap=True)
    finally:
        _overlap.BUCKET_ELEMENTS = elements
    started = []
    start = comm._start_grad_mean
    comm._start_grad_mean = lambda target, call, sources, *snapshot: (
        started.append((target.size, model.l1.W.grad is None)) or
        start(target, call, sources, *snapshot))
    try:
        model.cleargrads()
        loss_of(model)(*batches(0)[0]).backward()
        assert started == [(15, True), (24, False)], started
        local = {path: p.grad.copy() for path, p in model.namedparams()}
        before = params_of(model)
        optimizer.update()
    finally:
        del comm._start_grad_mean
    for path, value in params_of(model).items():
        mean = comm.allreduce(local[path]) / comm.size
        assert_allclose(before[path] - value, mean, rtol=1e-6, atol=1e-7,
                        err_msg=path)
    raises(ValueError, lambda: kd.create_multi_node_optimizer(
        optimizers.SGD(), comm, zero_fill=False, overlap=True),
        'zero_fill=False')
    assert kd.create_multi_node_optimizer(
        optimizers.SGD(), comm, double_buffering=True).overlap is False


@check(1, 2, 3)
def check_double_buffering(comm):
    lr = 0.5
    model, optimizer, reference, batches = _scattered_training(
        comm, optimizers.SGD(lr=lr), double_buffering=True)
    start = params_of(model)
    expected = dict(start)
    for step in range(3):
        mine, everyone = batches(step)
        optimizer.update(loss_of(model), *mine)
        if step == 0:  # the first update only starts the averaging
            assert_same_params(model, reference, rtol=0, atol=0)
        if step < 2:  # each update applies the previous step's gradient
            reference.cleargrads()
            loss_of(reference)(*everyone).backward()
            for path, param in reference.namedparams():
                expected[path] = expected[path] - lr * param.grad
    for path, value in params_of(model).items():
        assert_allclose(value, expected[path], rtol=1e-5, atol=1e-6)


@check()
def check_lazy_parameters_broadcast_first(comm):
    model = L.Linear(None, 2)
    optimizer = kd.create_multi_node_optimizer(optimizers.SGD(), comm)
    optimizer.setup(model)
    x = numpy.random.RandomState(comm.rank).randn(3, 4).astype(
        numpy.float32)
    optimizer.update(lambda: F.sum(model(x)))
    everyone = comm.allgather(model.W.array)
    for other in everyone:
        assert_allclose(other, everyone[0], rtol=0, atol=0)
    before = model.W.array.copy()
    optimizer.update(lambda: F.sum(model(x)))
    assert not numpy.allclose(before, model.W.array)
    assert optimizer.lr == 0.01 and optimizer.t == 1
    optimizer.lr = 0.5
    assert optimizer.actual_optimizer.lr == 0.5


# -- data --------------------------------------------------------------


@check()
def check_scatter_dataset(comm):
    rank, size = comm.rank, comm.size
    data = list(range(10)) if rank == 0 else None
    share = kd.scatter_dataset(data, comm)
    lengths = comm.allgather_obj(len(share))
    assert lengths == [-(-10 // size)] * size
    everything = comm.allgather_obj(list(share))
    assert set(sum(everything, [])) == set(range(10))
    exact = kd.scatter_dataset(data, comm, force_equal_length=False)
    parts = comm.allgather_obj(list(exact))
    assert sorted(sum(parts, [])) == list(range(10))
    shuffled = comm.allgather_obj(list(kd.scatter_dataset(
        data, comm, shuffle=True, seed=3)))
    again = comm.allgather_obj(list(kd.scatter_dataset(
        data, comm, shuffle=True, seed=3)))
    assert shuffled == again and sum(shuffled, []) != sum(everything, [])
    from mpi4py import MPI
    assert len(kd.scatter_dataset(data, MPI.COMM_WORLD)) == len(share)
    assert kd.scatter_index(10, comm) == (
        min(rank * 4, 10 - 4) if size == 3 else rank * 5,
        min(rank * 4, 10 - 4) + 4 if size == 3 else rank * 5 + 5)
    begin, end = kd.scatter_index(10 if rank == 0 else None, comm,
                                  force_equal_length=False)
    assert (begin, end) == (rank * 10 // size, (rank + 1) * 10 // size)
    big = [numpy.zeros(1000) for _ in range(10)] if rank == 0 else None
    raises(ValueError, lambda: kd.scatter_dataset(big, comm,
                                                  max_buf_len=10000),
           'share of rank 1', 'max_buf_len=10000')
    raises(ValueError, lambda: kd.scatter_dataset(data, comm,
                                                  max_buf_len=2 ** 31),
           'max_buf_len')
    empty = kd.datasets.create_empty_dataset(TupleDataset(numpy.zeros(4)))
    assert list(empty) == [()] * 4


@check()
def check_multi_node_iterator(comm):
    dataset = list(range(7)) if comm.rank == 0 else \
        kd.datasets.create_empty_dataset(range(7))
    iterator = kd.iterators.create_multi_node_iterator(
        SerialIterator(dataset, 3, shuffle=True), comm)
    batches = [next(iterator) for _ in range(3)]
    assert comm.allgather_obj(batches)[0] == batches
    assert iterator.epoch == 1 and iterator.batch_size == 3
    assert_allclose(comm.allgather_obj(iterator.epoch_detail), 9 / 7)
    from kusari.serializers import DictionarySerializer, NpzDeserializer
    saved = DictionarySerializer()
    saved.save(iterator)
    following = next(iterator)
    NpzDeserializer(saved.target).load(iterator)
    assert_allclose(iterator.epoch_detail, 9 / 7)
    assert next(iterator) == following
    finite = kd.iterators.create_multi_node_iterator(
        SerialIterator(dataset, 4, repeat=False, shuffle=False), comm,
        rank_master=comm.size - 1)
    assert [len(b) for b in finite] == [4, 3]


@check()
def check_synchronized_iterator(comm):
    numpy.random.seed(comm.rank)
    iterator = kd.iterators.create_synchronized_iterator(
        SerialIterator(list(range(20)), 5), comm)
    batches = [next(iterator) for _ in range(6)]
    assert comm.allgather_obj(batches)[0] == batches
    raises(TypeError, lambda: kd.iterators.create_synchronized_iterator(
        iter([]), comm), 'order_sampler')


# -- evaluation, extensions -----------------------------------------------


@check()
def check_multi_node_evaluator(comm):
    x, t = classification_data(6 * comm.size)
    share = kd.scatter_dataset(TupleDataset(x, t) if comm.rank == 0
                               else None, comm)
    model = L.Classifier(MLP(seed=0))
    evaluator = extensions.Evaluator(
        SerialIterator(share, 6, repeat=False, shuffle=False), model)
    local = evaluator()
    evaluator = kd.create_multi_node_evaluator(evaluator, comm)
    result = evaluator()
    everyone = comm.allgather_obj(local)
    for key in ('main/loss', 'main/accuracy'):
        assert_allclose(result[key], numpy.mean([e[key] for e in everyone]),
                        rtol=1e-6)
    reference = loss_of(MLP(seed=0))(x, t).array
    assert_allclose(result['main/loss'], reference, rtol=1e-5)
    assert evaluator._mn_communicator is comm

    class Count(kd.extensions.GenericMultiNodeEvaluator):
        def calc_local(self, x, t):
            return len(t)

        def aggregate(self, results):
            return sum(results)

    progress = []
    counting = Count(comm, SerialIterator(share, 4, repeat=False), model,
                     progress_hook=progress.append)
    total = counting()
    assert total == (6 * comm.size if comm.rank == 0 else None)
    assert progress == ([1, 2] if comm.rank == 0 else [])
    inputs = kd.scatter_dataset(x if comm.rank == 0 else None, comm)
    default = kd.extensions.GenericMultiNodeEvaluator(
        comm, SerialIterator(inputs, 6, repeat=False, shuffle=False),
        model.predictor)
    outputs = default()
    if comm.rank == 0:
        assert_allclose(numpy.concatenate(outputs),
                        model.predictor(x).array, rtol=1e-6)
    raises(ValueError, lambda: kd.extensions.GenericMultiNodeEvaluator(
        comm, SerialIterator(share, 2), model), 'must not repeat')


@check()
def check_allreduce_persistent(comm):
    model = Chain()
    with model.init_scope():
        model.bn = L.BatchNormalization(3)
    model.bn.avg_mean[:] = comm.rank
    model.bn.N = comm.rank
    kd.extensions.AllreducePersistent(model, comm)()
    assert_allclose(model.bn.avg_mean, (comm.size - 1) / 2)
    assert model.bn.avg_mean.dtype == numpy.float32
    assert model.bn.N == comm.rank  # integers are left alone


def _trainer(comm, out, iterations=4, stop_trigger=None):
    x, t = classification_data(8 * comm.size)
    share = kd.scatter_dataset(TupleDataset(x, t) if comm.rank == 0
                               else None, comm)
    model = L.Classifier(MLP(seed=0))
    optimizer = kd.create_multi_node_optimizer(optimizers.SGD(), comm)
    optimizer.setup(model)
    updater = StandardUpdater(SerialIterator(share, 4), optimizer)
    return Trainer(updater, stop_trigger or (iterations, 'iteration'),
                   out=out), model


def _report(key, value_at):
    """An extension writing ``value_at(iteration)`` into the observation
    as ``key`` before the other extensions read it."""
    def write(trainer):
        trainer.observation[key] = value_at(trainer.updater.iteration)
    return extension.make_extension(
        priority=extension.PRIORITY_WRITER)(write)


def _recorder(keys):
    """An extension recording, each iteration, the observation's values
    of ``keys`` (None where absent), and the list it appends them to."""
    seen = []

    def record(trainer):
        seen.append(tuple(trainer.observation.get(k) for k in keys))
    return extension.make_extension(
        priority=extension.PRIORITY_READER)(record), seen


@check()
def check_observation_aggregator(comm):
    trainer, _ = _trainer(comm, tempfile.mkdtemp())
    trainer.extend(_report('value', lambda i: 10.0 * comm.rank + i))
    trainer.extend(kd.extensions.ObservationAggregator(
        comm, 'value', 'value/mean', comm_trigger=(2, 'iteration')))
    trainer.extend(kd.extensions.ObservationAggregator(
        comm, 'value', 'value/lengths', comm_trigger=(2, 'iteration'),
        aggregator=lambda histories: [len(h) for h in histories]),
        name='lengths')
    # The default key replaces the value, a Variable by one on the host.
    trainer.extend(kd.extensions.ObservationAggregator(comm, 'main/loss'),
                   name='loss')
    losses = []
    trainer.extend(extension.make_extension(
        priority=extension.PRIORITY_WRITER + 1)(
            lambda t: losses.append(float(t.observation['main/loss'].array))),
        name='local_loss')
    recorder, seen = _recorder(('value/mean', 'value/lengths', 'main/loss'))
    trainer.extend(recorder)
    trainer.run()
    ranks = 10.0 * (comm.size - 1) / 2
    assert [m for m, _, _ in seen] == [None, ranks + 1.5, None, ranks + 3.5]
    assert [n for _, n, _ in seen] == [None, [2] * comm.size, None,
                                       [2] * comm.size]
    everyone = comm.allgather_obj(losses)
    for step, (_, _, loss) in enumerate(seen):
        assert isinstance(loss, Variable) and loss.creator is None
        assert_allclose(loss.array, numpy.mean([e[step] for e in everyone]),
                        rtol=1e-6)


@check()
def check_multi_node_early_stopping_trigger(comm):
    # Rank 0's loss improves at every check; the mean over the ranks is
    # best at iteration 2 and not better twice after: patience 2 stops
    # every rank after iteration 4.
    means = {1: 3.0, 2: 2.0, 3: 2.5, 4: 2.5, 5: 2.5, 6: 2.5}

    def loss_at(iteration):
        if comm.rank == 0:
            return 10.0 - iteration
        rest = comm.size * means[iteration] - (10.0 - iteration)
        return rest / (comm.size - 1)

    stop = kd.extensions.MultiNodeEarlyStoppingTrigger(
        comm, check_trigger=(1, 'iteration'), monitor='main/loss',
        patients=2, max_trigger=(6, 'iteration'))
    assert stop.get_training_length() == (6, 'iteration')
    trainer, _ = _trainer(comm, tempfile.mkdtemp(), stop_trigger=stop)
    trainer.extend(_report('main/loss', loss_at))
    recorder, seen = _recorder(('main/loss',))
    trainer.extend(recorder)
    trainer.run()
    assert trainer.updater.iteration == 4
    assert [v for v, in seen] == [loss_at(i) for i in range(1, 5)]
    assert 'main/loss_aggregated' in trainer.observation
    raises(TypeError, lambda: kd.extensions.MultiNodeEarlyStoppingTrigger(
        comm, patience=2, patients=2), 'patience')


@check()
def check_multi_node_snapshot(comm):
    from kusari.distributed.extensions.multi_node_snapshot import \
        replica_sets_of
    assert replica_sets_of([0], 4) == [{0}, {1, 2, 3}]
    assert replica_sets_of([0, 1], 4) == [{0}, {1}, {2, 3}]
    assert replica_sets_of([[0, 1], [2, 3]], 4) == [{0, 1}, {2, 3}]
    assert replica_sets_of([], 4) == [{0, 1, 2, 3}]
    assert replica_sets_of([range(0, 8, 2)], 8) == [{0, 2, 4, 6},
                                                    {1, 3, 5, 7}]
    raises(ValueError, lambda: replica_sets_of([0, [0, 1]], 4), 'two')
    raises(ValueError, lambda: replica_sets_of([5], 4), '[0, 4)')
    out = comm.bcast_obj(tempfile.mkdtemp() if comm.rank == 0 else None)
    trainer, model = _trainer(comm, out)
    snapshot = kd.extensions.multi_node_snapshot(
        comm, extensions.snapshot(filename='snap_{.updater.iteration}'),
        [0])
    trainer.extend(snapshot, trigger=(2, 'iteration'))
    trainer.run()
    comm.allgather_obj(None)
    assert sorted(os.listdir(out)) == [
        f'snap_{i}.replica{s}' for i in (2, 4) for s in (0, 1)]
    resumed, _ = _trainer(comm, out, iterations=6)
    resumed.extend(kd.extensions.multi_node_snapshot(
        comm, extensions.snapshot(filename='snap_{.updater.iteration}',
                                  autoload=True), [0]),
        trigger=(2, 'iteration'))
    resumed.run()
    assert resumed.updater.iteration == 6


@check()
def check_multi_node_checkpointer(comm):
    out = comm.bcast_obj(tempfile.mkdtemp() if comm.rank == 0 else None)
    trainer, model = _trainer(comm, out, iterations=6)
    checkpointer = kd.create_multi_node_checkpointer(
        'run', comm, cp_interval=2, gc_interval=2)
    assert checkpointer.maybe_load(trainer) is None
    trainer.extend(checkpointer, trigger=(1, 'iteration'))
    trainer.run()  # a clean end removes the checkpoints
    assert not [n for n in os.listdir(out)
                if n.startswith(f'run.{comm.rank}.')]
    trainer, model = _trainer(comm, out)
    checkpointer = kd.create_multi_node_checkpointer(
        'run', comm, cp_interval=2, gc_interval=2)
    for iteration in (1, 2, 3, 4):
        if iteration < 4 or comm.rank == 0:
            checkpointer.save(trainer, iteration)
    mine = sorted(n for n in os.listdir(out)
                  if n.startswith(f'run.{comm.rank}.'))
    expected = [3, 4] if comm.rank == 0 else [1, 2, 3]
    assert mine == [f'run.{comm.rank}.{i}' for i in expected], mine
    assert checkpointer.maybe_load(trainer) == 3


# -- model parallelism ---------------------------------------------------


@check()
def check_send_recv_pseudo_connect(comm):
    functions = kd.functions
    if comm.rank == 0:
        x = Variable(numpy.arange(3, dtype=numpy.float32))
        phi = functions.send(x, comm, rank=1)
        y = functions.recv(comm, rank=1, delegate_variable=phi)
        F.sum(y * y).backward()
        assert_allclose(x.grad, 8 * x.array)  # d/dx sum((2x)^2)
        a = Variable(numpy.ones(2, numpy.float32))
        b = Variable(numpy.ones((2, 2), numpy.float32))
        psi = functions.pseudo_connect(functions.send(a, comm, 1, tag=1),
                                       functions.send(b, comm, 1, tag=2))
        psi.backward()
        assert_allclose(a.grad, 3) and assert_allclose(b.grad, 5)
        pair = functions.recv(comm, 1, tag=4)
        assert isinstance(pair, tuple) and len(pair) == 2
        single = functions.recv(comm, 1, tag=5, force_tuple=True)
        assert isinstance(single, tuple) and len(single) == 1
    elif comm.rank == 1:
        z = functions.recv(comm, rank=0)
        functions.send(2 * z, comm, rank=0).backward()
        z1 = functions.recv(comm, 0, tag=1)
        z2 = functions.recv(comm, 0, tag=2)
        (F.sum(3 * z1) + F.sum(5 * z2)).backward()
        pair = (Variable(numpy.zeros(1)), Variable(numpy.ones(2)))
        functions.send(pair, comm, 0, tag=4)
        functions.send(pair[0], comm, 0, tag=5)
    raises(ValueError, lambda: kd.functions.send(
        numpy.zeros(1), comm, comm.rank), 'itself')


@check()
def check_collective_functions(comm):
    functions = kd.functions
    rank, size = comm.rank, comm.size
    x = Variable(numpy.full(2, rank + 1.0, numpy.float32))
    y = functions.bcast(comm, x, root=0)
    assert_allclose(y.array, 1)
    F.sum(y * (rank + 1)).backward()
    if rank == 0:
        assert_allclose(x.grad, size * (size + 1) / 2)
    x = Variable(numpy.full(2, rank, numpy.float32))
    ys = functions.gather(comm, x, root=0)
    if rank == 0:
        assert [v.array.tolist() for v in ys] == [[r, r]
                                                  for r in range(size)]
        sum(F.sum(v * (i + 1)) for i, v in enumerate(ys)).backward()
    else:
        ys.backward()
    assert_allclose(x.grad, rank + 1)
    xs = [Variable(numpy.full(2, i, numpy.float32)) for i in range(size)]
    y = functions.scatter(comm, xs if rank == 0 else None)
    assert_allclose(y.array, rank)
    F.sum(y * (rank + 1)).backward()
    if rank == 0:
        for i, v in enumerate(xs):
            assert_allclose(v.grad, i + 1)
    x = Variable(numpy.full(3, rank, numpy.float32))
    ys = functions.allgather(comm, x)
    assert [v.array[0] for v in ys] == list(range(size))
    (sum(F.sum(v * (i + 1)) for i, v in enumerate(ys)) * (rank + 1)
     ).backward()
    assert_allclose(x.grad, (rank + 1) * size * (size + 1) / 2)
    xs = [Variable(numpy.full(2, 10 * rank + i, numpy.float32))
          for i in range(size)]
    ys = functions.alltoall(comm, xs)
    assert [v.array[0] for v in ys] == [10 * j + rank for j in range(size)]
    sum(F.sum(v * (j + 10 * rank)) for j, v in enumerate(ys)).backward()
    for i, v in enumerate(xs):
        assert_allclose(v.grad, rank + 10 * i)
    raises(ValueError, lambda: functions.alltoall(comm, xs[:1]), 'alltoall')


class _Identity(Chain):

    def forward(self, x):
        return x


@check(2)
def check_multi_node_chain_list(comm):
    x = numpy.random.RandomState(0).randn(3, 4).astype(numpy.float32)
    first, second = L.Linear(4, 5), L.Linear(5, 2)
    first.W.array[...] = numpy.random.RandomState(1).randn(5, 4)
    second.W.array[...] = numpy.random.RandomState(2).randn(2, 5)
    reference = (copy.deepcopy(first), copy.deepcopy(second))
    F.sum(reference[1](reference[0](x)) ** 2).backward()
    model = kd.MultiNodeChainList(comm)
    if comm.rank == 0:
        model.add_link(first, rank_in=None, rank_out=1)
        model.add_link(_Identity(), rank_in=1, rank_out=None)
        F.sum(model(x) ** 2).backward()
        assert_allclose(first.W.grad, reference[0].W.grad, rtol=1e-5)
    else:
        model.add_link(second, rank_in=0, rank_out=0)
        model().backward()
        assert_allclose(second.W.grad, reference[1].W.grad, rtol=1e-5)
    raises(ValueError, lambda: model.add_link(L.Linear(1, 1), rank_in=7),
           'rank_in')


@check()
def check_multi_node_batch_normalization(comm):
    rows = 4
    rng = numpy.random.RandomState(0)
    x = rng.randn(rows * comm.size, 3, 2).astype(numpy.float32)
    w = rng.randn(*x.shape).astype(numpy.float32)
    mine = slice(rows * comm.rank, rows * (comm.rank + 1))
    reference = L.BatchNormalization(3)
    reference.gamma.array[...] = rng.rand(3) + 0.5
    model = Chain()
    with model.init_scope():
        model.bn = copy.deepcopy(reference)
    mnbn = kd.links.create_mnbn_model(model, comm).bn
    assert isinstance(mnbn, kd.links.MultiNodeBatchNormalization)
    assert type(model.bn) is L.BatchNormalization
    x_all, x_mine = Variable(x), Variable(x[mine])
    y_all = reference(x_all)
    F.sum(y_all * w).backward()
    y_mine = mnbn(x_mine)
    F.sum(y_mine * w[mine]).backward()
    assert_allclose(y_mine.array, y_all.array[mine], rtol=1e-4, atol=1e-5)
    assert_allclose(x_mine.grad, x_all.grad[mine], rtol=1e-4, atol=1e-5)
    for name in ('gamma', 'beta'):
        total = comm.allreduce(getattr(mnbn, name).grad)
        assert_allclose(total, getattr(reference, name).grad, rtol=1e-4)
    assert_allclose(mnbn.avg_mean, reference.avg_mean, rtol=1e-5,
                    atol=1e-6)
    assert_allclose(mnbn.avg_var, reference.avg_var, rtol=1e-5)
    from kusari.array import configuration
    with configuration.using_config('train', False):
        assert_allclose(mnbn(x[mine]).array,
                        reference(x[mine]).array, rtol=1e-5)
    raises(ValueError, lambda: kd.links.MultiNodeBatchNormalization(
        3, comm, communication_backend='nccl'), 'pure_nccl')


# -- GPU (run only by test_gpu.py, where CuPy and GPUs are present) ------


def _use_gpu(comm):
    import cupy
    cupy.cuda.Device(comm.intra_rank
                     % cupy.cuda.runtime.getDeviceCount()).use()
    return cupy


@gpu_check
def check_gpu_arrays(comm):
    cupy = _use_gpu(comm)
    x = cupy.arange(3, dtype=cupy.float32) + comm.rank
    total = comm.allreduce(x)
    assert isinstance(total, cupy.ndarray)
    assert total.tolist() == [sum(range(comm.size)) + i * comm.size
                              for i in range(3)]
    received = comm.bcast(x if comm.rank == 0 else None)
    assert isinstance(received, cupy.ndarray)
    model = MLP(seed=comm.rank)
    model.to_gpu()
    comm.bcast_data(model)
    for param in model.params():
        param.grad = cupy.full_like(param.array, comm.rank)
    comm.multi_node_mean_grad(model)
    assert_allclose(model.l1.W.grad.get(), (comm.size - 1) / 2)
    assert_same_params(model.copy().to_cpu(), MLP(seed=0), atol=1e-6)


@gpu_check
def check_non_cuda_aware_on_gpu(comm):
    cupy = _use_gpu(comm)
    staged = kd.create_communicator('non_cuda_aware')
    model = MLP(seed=comm.rank)
    model.to_gpu()
    staged.bcast_data(model)
    assert_same_params(model.copy().to_cpu(), MLP(seed=0), atol=0)
    from kusari.distributed.communicators import \
        non_cuda_aware_communicator as module
    staging, pinned_like = [], module._pinned_like
    module._pinned_like = lambda array: (
        staging.append(array.size) or pinned_like(array))
    try:
        for param in model.params():
            param.grad = cupy.full_like(param.array, comm.rank)
        staged.multi_node_mean_grad(model)
    finally:
        module._pinned_like = pinned_like
    assert staging == [model.count_params()], staging
    for param in model.params():
        assert isinstance(param.grad, cupy.ndarray)
        assert_allclose(param.grad.get(), (comm.size - 1) / 2)


@gpu_check
def check_pure_nccl(comm):
    cupy = _use_gpu(comm)
    nccl = kd.create_communicator('pure_nccl')
    model = MLP(seed=comm.rank)
    model.to_gpu()
    optimizer = kd.create_multi_node_optimizer(
        optimizers.SGD(), nccl, double_buffering=True)
    optimizer.setup(model)
    for param in model.params():
        param.grad = cupy.full_like(param.array, comm.rank)
    nccl.multi_node_mean_grad(model)
    assert_allclose(model.l2.b.grad.get(), (comm.size - 1) / 2)
    nccl.finalize()


def main(directory, names):
    """Run the checks ``names`` (default: every one for this size),
    writing one JSON line per check to ``directory/rank<r>.jsonl``."""
    comm = kd.create_communicator('naive', timeout=TIMEOUT)
    names = names or [name for name, (_, sizes) in CHECKS.items()
                      if comm.size in sizes]
    path = os.path.join(directory, f'rank{comm.rank}.jsonl')
    with open(path, 'w') as out:
        for name in names:
            function, _ = CHECKS[name]
            try:
                function(comm)
                outcome = None
            except Exception:
                outcome = traceback.format_exc()
            out.write(json.dumps({'check': name, 'error': outcome}) + '\n')
            out.flush()
            comm.allgather_obj(None)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2:])

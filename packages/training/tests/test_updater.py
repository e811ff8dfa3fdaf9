"""StandardUpdater, ParallelUpdater and MultiprocessParallelUpdater."""
import numpy
import pytest

from kusari.array import backend
from kusari.datasets import iterators
from kusari.links import Classifier
from kusari.serializers import DictionarySerializer, NpzDeserializer
from kusari.training import StandardUpdater, Trainer, Updater
from kusari.training import optimizers, updaters

import _trainer_helpers as helpers


class _Recording(optimizers.SGD):
    """An optimizer that records its calls instead of updating."""

    def __init__(self):
        super().__init__()
        self.calls = []
        self.epochs = []

    def update(self, lossfun=None, *args, **kwargs):
        self.calls.append((lossfun, args, kwargs))
        self.t += 1

    def new_epoch(self, auto=False):
        self.epochs.append(auto)
        super().new_epoch(auto)


def _updater(batch_size=2, size=6, **kwargs):
    model = Classifier(helpers.MLP())
    optimizer = _Recording()
    optimizer.setup(model)
    iterator = iterators.SerialIterator(helpers.dataset(size), batch_size,
                                        shuffle=False)
    return StandardUpdater(iterator, optimizer, **kwargs), optimizer


def test_progress_follows_the_main_iterator():
    updater, optimizer = _updater(batch_size=2, size=6)
    assert updater.iteration == 0 and updater.epoch == 0
    assert updater.previous_epoch_detail is None
    for _ in range(4):
        updater.update()
    assert updater.iteration == 4
    assert updater.epoch == 1
    assert updater.epoch_detail == pytest.approx(4 / 3)
    assert updater.previous_epoch_detail == pytest.approx(1)
    assert not updater.is_new_epoch
    assert optimizer.epochs == [True]
    assert optimizer.use_auto_new_epoch


def test_update_passes_the_converted_batch_to_the_loss():
    updater, optimizer = _updater()
    updater.update()
    lossfun, args, kwargs = optimizer.calls[0]
    assert lossfun is optimizer.target
    x, t = args
    assert x.shape == (2, 4) and x.dtype == numpy.float32
    assert t.shape == (2,) and kwargs == {}


def test_converter_loss_func_and_dict_batches():
    seen = []

    def converter(batch, device=None):
        seen.append(device)
        return {'x': numpy.stack([b[0] for b in batch])}

    def loss_func(x):
        return x

    updater, optimizer = _updater(converter=converter, loss_func=loss_func,
                                  device='@numpy')
    updater.update()
    lossfun, args, kwargs = optimizer.calls[0]
    assert lossfun is loss_func and args == () and set(kwargs) == {'x'}
    assert seen == [-1]  # an old-style converter gets Chainer's device id
    assert updater.device == backend.CpuDevice()
    assert updater.input_device == backend.CpuDevice()


def test_auto_new_epoch_off():
    updater, optimizer = _updater(batch_size=3, size=3,
                                  auto_new_epoch=False)
    updater.update()
    assert optimizer.epochs == []


def test_updates_a_real_model():
    model = Classifier(helpers.MLP())
    optimizer = optimizers.MomentumSGD()
    optimizer.setup(model)
    before = helpers.params(model)
    iterator = iterators.SerialIterator(helpers.dataset(), 8)
    updater = StandardUpdater(iterator, optimizer)
    updater.update()
    after = helpers.params(model)
    assert all(not numpy.array_equal(before[k], after[k]) for k in before)
    assert optimizer.t == 1


def test_named_iterators_and_optimizers():
    updater, optimizer = _updater()
    extra = iterators.SerialIterator([1, 2], 1)
    named = StandardUpdater({'main': updater.get_iterator('main'),
                             'extra': extra}, {'main': optimizer})
    assert named.get_iterator('extra') is extra
    assert named.get_all_optimizers() == {'main': optimizer}
    assert named.get_optimizer('main') is optimizer
    with pytest.raises(ValueError, match="'main' entry"):
        StandardUpdater({'train': extra}, optimizer)
    # Optimizers may be named freely; only the default update needs 'main'.
    gan_like = StandardUpdater(extra, {'gen': optimizer})
    with pytest.raises(ValueError, match="no 'main' optimizer"):
        gan_like.update()
    assert gan_like.iteration == 0 and extra.current_position == 0
    with pytest.raises(TypeError, match='unexpected keyword'):
        StandardUpdater(extra, optimizer, devic=0)
    with pytest.raises(TypeError, match='converter must be callable'):
        StandardUpdater(extra, optimizer, converter=3)


def test_exhausted_iterator_is_a_clear_error(tmp_path):
    model = Classifier(helpers.MLP())
    optimizer = optimizers.MomentumSGD()
    optimizer.setup(model)
    iterator = iterators.SerialIterator(helpers.dataset(8), 4, repeat=False)
    trainer = Trainer(StandardUpdater(iterator, optimizer), (2, 'epoch'),
                      out=str(tmp_path))
    with pytest.raises(RuntimeError, match=r"iterator 'main' has no more "
                                           r"batches \(it does not repeat"):
        trainer.run(show_loop_exception_msg=False)


def test_serialize_round_trip():
    updater, _ = _updater(batch_size=2, size=6)
    for _ in range(4):
        updater.update()
    saver = DictionarySerializer()
    saver.save(updater)
    fresh, _ = _updater(batch_size=2, size=6)
    NpzDeserializer(saver.target).load(fresh)
    assert fresh.iteration == 4
    assert fresh.epoch_detail == updater.epoch_detail
    assert fresh.previous_epoch_detail == updater.previous_epoch_detail
    assert fresh.get_optimizer('main').t == 4


def test_serialize_through_a_recording_serializer():
    # A serializer that records keys and returns None, as Chainer's tests
    # write one, leaves the iteration as it is.
    from kusari.serializers import Serializer

    class Recorder(Serializer):
        def __init__(self):
            self.keys = []

        def __getitem__(self, key):
            return DictionarySerializer()

        def __call__(self, key, value):
            self.keys.append(key)

    updater, _ = _updater()
    updater.update()
    recorder = Recorder()
    updater.serialize(recorder)
    assert recorder.keys == ['iteration'] and updater.iteration == 1


def test_finalize_finalizes_the_iterators():
    updater, _ = _updater()
    finalized = []
    updater.get_iterator('main').finalize = lambda: finalized.append(1)
    updater.finalize()
    assert finalized == [1]


def test_updater_base_is_an_interface():
    base = Updater()
    assert base.connect_trainer(None) is None and base.finalize() is None
    for method in ('update', 'get_all_optimizers'):
        with pytest.raises(NotImplementedError, match='must implement'):
            getattr(base, method)()


def test_parallel_updater_on_two_cpu_devices_sums_the_gradients():
    data = helpers.dataset(8)
    model = Classifier(helpers.MLP())
    reference = Classifier(helpers.MLP())
    optimizer = optimizers.SGD(lr=0.05)
    optimizer.setup(model)
    updater = updaters.ParallelUpdater(
        iterators.SerialIterator(data, 4, shuffle=False), optimizer,
        devices={'main': '@numpy', 'second': -1})
    trainer = Trainer(updater, (1, 'iteration'))
    with trainer.reporter:  # the copy reports as 'second': registered
        updater.update()
        assert 'second/loss' in trainer.reporter.observation
    # The reference: the sum of the gradients of the two half-batches.
    reference.cleargrads()
    for half in (data[0:4:2], data[1:4:2]):
        x = numpy.stack([x for x, _ in half])
        t = numpy.array([t for _, t in half], numpy.int32)
        reference(x, t).backward()
    for (name, param), (_, ref) in zip(sorted(model.namedparams()),
                                       sorted(reference.namedparams())):
        numpy.testing.assert_allclose(param.array,
                                      ref.array - 0.05 * ref.grad,
                                      rtol=1e-5, atol=1e-6)
    second = updater._models['second']
    for (_, a), (_, b) in zip(sorted(model.namedparams()),
                              sorted(second.namedparams())):
        numpy.testing.assert_array_equal(a.array, b.array)


def test_parallel_updater_bad_devices():
    updater, optimizer = _updater()
    iterator = updater.get_iterator('main')
    with pytest.raises(ValueError, match='devices must be given'):
        updaters.ParallelUpdater(iterator, optimizer)
    with pytest.raises(ValueError, match="'main' entry"):
        updaters.ParallelUpdater(iterator, optimizer,
                                 devices={'a': -1, 'b': -1})
    with pytest.raises(ValueError, match=r"ParallelUpdater: device "
                                         r"'second' \('@cupy:7'\) does "
                                         r"not exist"):
        updaters.ParallelUpdater(iterator, optimizer,
                                 devices={'main': -1, 'second': '@cupy:7'})


def test_multiprocess_parallel_updater_needs_gpus():
    updater, optimizer = _updater()
    iterator = updater.get_iterator('main')
    if updaters.MultiprocessParallelUpdater.available():
        pytest.skip('NCCL is available here')
    with pytest.raises(RuntimeError, match='needs CuPy with NCCL'):
        updaters.MultiprocessParallelUpdater([iterator, iterator], optimizer,
                                             devices=[0, 1])


@pytest.mark.gpu
def test_parallel_updater_on_a_gpu_matches_the_cpu():
    data = helpers.dataset(8)
    results = []
    for devices in ({'main': -1, 'second': -1}, {'main': 0, 'second': -1}):
        model = Classifier(helpers.MLP())
        optimizer = optimizers.SGD(lr=0.05)
        optimizer.setup(model)
        updater = updaters.ParallelUpdater(
            iterators.SerialIterator(data, 4, shuffle=False), optimizer,
            devices=devices)
        updater.update()
        results.append({k: backend.CpuDevice().send(v)
                        for k, v in helpers.params(model).items()})
    for key in results[0]:
        numpy.testing.assert_allclose(results[0][key], results[1][key],
                                      rtol=1e-4, atol=1e-5)


@pytest.mark.multi_gpu
def test_multiprocess_parallel_updater_trains_on_two_gpus():
    from kusari.training import Trainer as _Trainer
    data = helpers.dataset(16)
    model = Classifier(helpers.MLP())
    optimizer = optimizers.SGD(lr=0.05)
    optimizer.setup(model)
    its = [iterators.SerialIterator(data[:8], 4),
           iterators.SerialIterator(data[8:], 4)]
    updater = updaters.MultiprocessParallelUpdater(its, optimizer,
                                                   devices=[0, 1])
    before = helpers.params(model)
    _Trainer(updater, (3, 'iteration')).run()
    assert updater.iteration == 3
    after = helpers.params(model)
    assert any(not (before[k] == after[k]).all() for k in before)


def test_gather_grads_and_params_work_only_on_a_gpu():
    from kusari.training.updaters import multiprocess_parallel_updater as mpu
    model = Classifier(helpers.MLP())
    for gather in (mpu.gather_grads, mpu.gather_params):
        with pytest.raises(RuntimeError, match='works only on GPU'):
            gather(model)


@pytest.mark.gpu
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_gather_and_scatter_move_every_parameter_and_gradient(dtype):
    from kusari.training.updaters import multiprocess_parallel_updater as mpu
    from kusari.array import initializers
    from kusari.links import layers as L

    def model():
        made = L.Linear(3, 2, initialW=initializers.Normal(dtype=dtype),
                        initial_bias=initializers.Normal(dtype=dtype))
        made.to_device('@cupy:0')
        return made
    source, destination = model(), model()
    packed = mpu.gather_params(source)
    assert packed.shape == (8,) and packed.dtype == dtype
    mpu.scatter_params(destination, packed)
    copied = dict(destination.namedparams())
    for name, param in source.namedparams():
        numpy.testing.assert_array_equal(param.array.get(),
                                         copied[name].array.get())
    source.W.grad = source.W.array * 2
    source.b.grad = None
    destination.cleargrads()
    destination.W.grad = destination.W.array * 0
    grads = mpu.gather_grads(source)
    assert float(abs(grads[6:]).sum()) == 0  # b (sorted after W): zeros
    mpu.scatter_grads(destination, grads)
    numpy.testing.assert_array_equal(destination.W.grad.get(),
                                     source.W.grad.get())
    assert destination.b.grad is None


@pytest.mark.gpu
def test_multiprocess_parallel_updater_on_one_gpu_trains_as_standard():
    if not updaters.MultiprocessParallelUpdater.available():
        pytest.skip('NCCL is not available')
    data = helpers.dataset(8)
    results = []
    for make in (
            lambda it, opt: StandardUpdater(it, opt, device='@cupy:0'),
            lambda it, opt: updaters.MultiprocessParallelUpdater(
                [it], opt, devices=[0])):
        model = Classifier(helpers.MLP())
        optimizer = optimizers.SGD(lr=0.05)
        optimizer.setup(model)
        updater = make(iterators.SerialIterator(data, 4, shuffle=False),
                       optimizer)
        updater.update()
        updater.update()
        updater.finalize()
        results.append({k: backend.CpuDevice().send(v)
                        for k, v in helpers.params(model).items()})
    for key in results[0]:
        numpy.testing.assert_allclose(results[0][key], results[1][key],
                                      rtol=1e-5, atol=1e-6)

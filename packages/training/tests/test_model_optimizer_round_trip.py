"""A model and its optimizer's state survive NPZ and HDF5 bit for bit, and
training resumed from them continues exactly as if never interrupted."""
import numpy
import pytest

from kusari.autograd import functions as F
from kusari.links import Chain
from kusari.links import layers as L
from kusari.serializers import load_hdf5
from kusari.serializers import load_npz
from kusari.serializers import save_hdf5
from kusari.serializers import save_npz
from kusari.training import optimizers


class Net(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(1, 3, 3)
            self.bn = L.BatchNormalization(3)
            self.fc = L.Linear(None, 4)

    def forward(self, x):
        return self.fc(F.relu(self.bn(self.conv(x))))


def _batch(step):
    rng = numpy.random.RandomState(step)
    x = rng.standard_normal((5, 1, 6, 6)).astype(numpy.float32)
    t = rng.randint(0, 4, 5).astype(numpy.int32)
    return x, t


def _train(model, optimizer, steps):
    for step in steps:
        x, t = _batch(step)
        optimizer.update(
            lambda: F.softmax_cross_entropy(model(x), t))


def _fresh(seed):
    numpy.random.seed(seed)
    model = Net()
    optimizer = optimizers.Adam(alpha=0.01)
    optimizer.setup(model)
    return model, optimizer


def _state(model, optimizer):
    arrays = {name: p.array for name, p in model.namedparams()}
    arrays.update({f'bn/{k}': getattr(model.bn, k)
                   for k in ('avg_mean', 'avg_var')})
    for name, param in model.namedparams():
        for key, value in param.update_rule.state.items():
            arrays[f'{name}/{key}'] = value
    arrays['t'] = numpy.asarray(optimizer.t)
    return arrays


def _assert_identical(a, b):
    assert a.keys() == b.keys()
    for key in a:
        assert a[key].dtype == b[key].dtype, key
        assert a[key].tobytes() == b[key].tobytes(), key


@pytest.mark.parametrize('fmt', ['npz', 'hdf5'])
def test_round_trip_and_exact_resume(tmp_path, fmt):
    if fmt == 'hdf5':
        pytest.importorskip('h5py', reason='kusari-training[hdf5] absent')
    save, load = {'npz': (save_npz, load_npz),
                  'hdf5': (save_hdf5, load_hdf5)}[fmt]

    model, optimizer = _fresh(0)
    _train(model, optimizer, range(3))
    save(tmp_path / 'model', model)
    save(tmp_path / 'optimizer', optimizer)

    restored_model, restored_optimizer = _fresh(1)  # other initial weights
    restored_model(_batch(0)[0])  # initialise the lazy Linear
    load(tmp_path / 'model', restored_model)
    load(tmp_path / 'optimizer', restored_optimizer)
    _assert_identical(_state(model, optimizer),
                      _state(restored_model, restored_optimizer))

    _train(model, optimizer, range(3, 6))
    _train(restored_model, restored_optimizer, range(3, 6))
    _assert_identical(_state(model, optimizer),
                      _state(restored_model, restored_optimizer))

"""The random number generators Kusari draws from, and their state.

Every random number that influences training is drawn from the global
generator of the array module at hand: ``numpy.random``'s on the host
(dropout and the other noise functions on CPU, shuffled iteration orders,
initializers given no ``rng``), CuPy's of the current device on a GPU.
Kusari owns no generator of its own, so that ``numpy.random.seed`` (and
``testing.fix_random``) makes a run reproducible as in Chainer, and a
dataset that draws from ``numpy.random`` (data augmentation) shares the
stream that a snapshot saves.

:func:`get_state` and :func:`set_state` capture and restore them all; the
Trainer keeps them in its snapshots. CuPy's generators cannot report their
state (cuRAND's is opaque), so capturing reseeds each of them with a seed
drawn from itself and records that seed: the streams after a capture are
restored exactly, at the price that a GPU run which captures (one that
takes snapshots) draws other numbers than one that does not.

The environment variable ``CHAINER_SEED`` (``config.cuda_seed``) seeds
``numpy.random`` when ``kusari.array`` is imported, and the generator of
each GPU when CuPy creates it (as ``CUPY_SEED``, unless that is set).
"""
import collections
import os

import numpy

from kusari.array import lazy_cupy

#: The state of every generator: ``host``, the tuple of
#: ``numpy.random.get_state()``; ``devices``, ``{device id: seed}`` of the
#: CuPy generators in use.
GeneratorStates = collections.namedtuple('GeneratorStates',
                                         ('host', 'devices'))

# Seeds drawn for CuPy's generators are below this bound (its randint is
# int64).
_SEED_BOUND = 2 ** 63 - 1


def get_state():
    """Capture the state of every generator as :class:`GeneratorStates`.

    CuPy's generators (those created so far) are reseeded, see the module
    documentation.
    """
    return GeneratorStates(numpy.random.get_state(legacy=True),
                           _reseed_device_generators())


def set_state(state):
    """Restore what :func:`get_state` captured.

    The generators of GPUs that are not here (a snapshot of a GPU run
    resumed on the host, or on fewer GPUs) are left out: nothing draws
    from them.
    """
    numpy.random.set_state(state.host)
    cupy = lazy_cupy.cupy_or_none() if state.devices else None
    if cupy is None:
        return
    count = cupy.cuda.runtime.getDeviceCount()
    for device_id, seed in state.devices.items():
        if int(device_id) < count:
            with cupy.cuda.Device(int(device_id)):
                cupy.random.seed(int(seed))


def _reseed_device_generators():
    cupy = lazy_cupy.imported_cupy()
    if cupy is None:
        return {}
    # CuPy keeps the generators it created in this mapping of device ids;
    # asking each device for one would create them on every GPU.
    created = getattr(cupy.random._generator, '_random_states', {})
    seeds = {}
    for device_id in sorted(created):
        with cupy.cuda.Device(device_id):
            generator = cupy.random.get_random_state()
            seeds[device_id] = int(generator.randint(
                0, _SEED_BOUND, dtype=numpy.int64))
            generator.seed(seeds[device_id])
    return seeds


def seed_from_environment(seed):
    """Seed ``numpy.random`` with ``seed``, and make CuPy seed the
    generator of each GPU with it (unless ``CUPY_SEED`` is set); None does
    nothing. Called with ``CHAINER_SEED`` when ``kusari.array`` is
    imported."""
    if seed is None:
        return
    if not 0 <= seed < 2 ** 32:
        raise ValueError(f'CHAINER_SEED must be an integer from 0 to '
                         f'2**32 - 1 (a seed of numpy.random), got {seed}')
    numpy.random.seed(seed)
    os.environ.setdefault('CUPY_SEED', str(seed))

"""Saving values whose type changes during training, and the state of the
random number generators."""
import numpy

from kusari.array import random_state
from kusari.serializers import serializer as serializer_module


def serialize_value(serializer, key, value):
    """Save ``value`` under ``key`` and return it, or return the stored
    value as it was stored (a 0-d array for a number, None for None).

    A deserializer converts a stored value to the type of the value it
    replaces; a running sum that starts as the int 0 and becomes a float
    array, or a value that starts as None, must instead come back as
    stored.
    """
    if isinstance(serializer, serializer_module.Serializer):
        serializer(key, value)
        return value
    return serializer(key, None)


def serialize_random_state(serializer):
    """Save or load the state of the random number generators (see
    :mod:`kusari.array.random_state`).

    Loading a snapshot without it (Chainer's, or an older Kusari's)
    leaves the generators as they are.
    """
    if isinstance(serializer, serializer_module.Serializer):
        states = random_state.get_state()
        _, keys, position, has_gauss, cached_gaussian = states.host
        serializer('numpy_keys', keys)
        serializer('numpy_position', numpy.int64(position))
        serializer('numpy_has_gauss', numpy.int64(has_gauss))
        serializer('numpy_cached_gaussian', numpy.float64(cached_gaussian))
        serializer('cupy_seeds', numpy.array(
            sorted(states.devices.items()), numpy.int64).reshape(-1, 2))
        return
    try:
        keys = serializer('numpy_keys', None)
    except KeyError:
        return
    host = ('MT19937', numpy.asarray(keys, numpy.uint32),
            int(serializer('numpy_position', None)),
            int(serializer('numpy_has_gauss', None)),
            float(serializer('numpy_cached_gaussian', None)))
    devices = {int(device): int(seed) for device, seed
               in serializer('cupy_seeds', None).reshape(-1, 2)}
    random_state.set_state(random_state.GeneratorStates(host, devices))

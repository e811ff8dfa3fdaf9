"""Checking that the devices a multi-device updater is given exist."""
from kusari.array import lazy_cupy
from kusari.array import backend


def resolve(caller, name, spec):
    """The Device ``spec`` names, or a ValueError naming the updater and
    the device when it does not exist here."""
    try:
        device = backend.get_device(spec)
    except (RuntimeError, ValueError, TypeError) as error:
        raise ValueError(f'{caller}: device {name!r} ({spec!r}) does not '
                         f'exist: {error}') from error
    if isinstance(device, backend.GpuDevice):
        count = lazy_cupy.require_cupy().cuda.runtime.getDeviceCount()
        if device.device.id >= count:
            raise ValueError(f'{caller}: device {name!r} ({spec!r}) does '
                             f'not exist: there are {count} GPUs')
    return device


def resolve_all(caller, devices):
    """``devices`` (a dict of specifiers by name, with a ``'main'`` one, or
    a list whose first item is the main device) as a dict of Devices."""
    if isinstance(devices, dict):
        named = dict(devices)
    elif isinstance(devices, (list, tuple)):
        named = {'main' if index == 0 else str(index): spec
                 for index, spec in enumerate(devices)}
    else:
        raise TypeError(f'{caller}: devices must be a dict or a list of '
                        f'device specifiers, got {type(devices).__name__}')
    if 'main' not in named:
        raise ValueError(f"{caller}: devices must have a 'main' entry, got "
                         f"{sorted(named)}")
    return {name: resolve(caller, name, spec)
            for name, spec in named.items()}

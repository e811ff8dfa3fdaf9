"""Kusari array: devices, array modules, configuration and initializers."""
from kusari.array.backend import (  # NOQA
    ChainerxDevice, CpuDevice, Device, GpuDevice, Intel64Device, copyto,
    get_array_module, get_device, get_device_from_array, to_device,
    using_device)
from kusari.array.configuration import (  # NOQA
    config, get_dtype, global_config, mixed16, using_config)
from kusari.array.device_resident import (  # NOQA
    DeviceResident, DeviceResidentsVisitor)
from kusari.array import _host_memory
from kusari.array import parts as _parts
from kusari.array import random_state

random_state.seed_from_environment(global_config.cuda_seed)
_host_memory.keep_freed_memory()

# __version__, read from the installed metadata when asked.
__getattr__ = _parts.module_getattr(__name__, 'kusari-array')
# `import kusari.links` without kusari-links: an error naming it.
_parts.install_missing_part_finder()

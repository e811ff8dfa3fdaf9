"""Objects that own arrays on a device and move them together.

A :class:`DeviceResident` (a Link, an Optimizer, ...) moves all it holds with
``to_device``; the traversal is a visitor, so each subclass says only what it
holds (``device_resident_accept``) and the visitor says what to do with it.
"""
import warnings

from kusari.array import backend


def _warn_deprecated(resident, method, device):
    warnings.warn(
        f'{type(resident).__name__}.{method} is deprecated (as in Chainer '
        f'7); use to_device({device}) instead', DeprecationWarning,
        stacklevel=3)


class DeviceResident:
    """Mixin for objects whose arrays live on one device."""

    _device = backend.CpuDevice()

    def device_resident_accept(self, visitor):
        """Hand this object to ``visitor``; subclasses also hand over what
        they hold (arrays, Variables, child residents)."""
        visitor.visit_device_resident(self)

    @property
    def device(self):
        """The :class:`~kusari.array.backend.Device` holding this object."""
        return self._device

    @property
    def xp(self):
        """The array module of :attr:`device`."""
        return self._device.xp

    def to_device(self, device):
        """Move everything this object holds to ``device`` (any specifier
        :func:`~kusari.array.backend.get_device` accepts); returns self."""
        visitor = DeviceResidentsVisitor.to_device(backend.get_device(device))
        self.device_resident_accept(visitor)
        return self

    def to_cpu(self):
        """Move to the host (NumPy); returns self. Deprecated as in Chainer
        v7 (DeprecationWarning): use ``to_device('@numpy')``."""
        _warn_deprecated(self, 'to_cpu', "'@numpy'")
        return self.to_device(backend.CpuDevice())

    def to_gpu(self, device=None):
        """Move to GPU ``device`` (default: the current CUDA device).
        Deprecated as in Chainer v7 (DeprecationWarning): use
        ``to_device('@cupy:N')``."""
        from kusari.array import cuda
        _warn_deprecated(self, 'to_gpu', "'@cupy:N'")
        return self.to_device(
            backend.GpuDevice(cuda.get_device_or_current(device)))

    def to_intel64(self):
        """iDeep is not part of Kusari: raises with the reason."""
        _warn_deprecated(self, 'to_intel64', "'@intel64'")
        return self.to_device('@intel64')

    def to_chx(self):
        """ChainerX is not part of Kusari: raises with the reason."""
        return self.to_device('native:0')

    def from_chx(self):
        """No ChainerX arrays exist in Kusari: returns self unchanged."""
        return self


def _warn_deprecated(resident, method, device):
    warnings.warn(
        f'{type(resident).__name__}.{method} is deprecated since Chainer '
        f'v7; use to_device({device}) instead', DeprecationWarning,
        stacklevel=3)


class DeviceResidentsVisitor:
    """Visits device residents, their arrays and their Variables.

    The default visitor moves everything to one device; subclass it and
    override the ``visit_*`` methods for other traversals.
    """

    def __init__(self, device=None):
        self._target = device

    @classmethod
    def to_device(cls, device):
        return cls(device)

    def visit_device_resident(self, device_resident):
        """Called once per resident; records its new device."""
        if self._target is not None:
            device_resident._device = self._target

    def visit_array(self, array):
        """Return ``array`` as it should be stored after the visit."""
        if self._target is None:
            return array
        return self._target.send_array(array)

    def visit_variable(self, variable):
        """Move a Variable (and its gradient) in place."""
        if self._target is not None:
            variable.to_device(self._target)

"""Loading a link's parameters and persistent values from an NPZ file
written by ``save_npz`` (Chainer's or Kusari's), and saving them in that
format, through the link's ``serialize`` method."""
import numpy

from kusari.array import backend


class _NpzReader:
    """The deserializer protocol over an opened NPZ archive. With
    ``write`` False it only checks that every value is there with the
    right shape, so that a bad file changes nothing."""

    def __init__(self, archive, source, write, prefix=''):
        self.archive = archive
        self.source = source
        self.write = write
        self.prefix = prefix

    def __getitem__(self, name):
        return _NpzReader(self.archive, self.source, self.write,
                          f'{self.prefix}{name}/')

    def __call__(self, name, value):
        key = self.prefix + name
        if key not in self.archive.files:
            raise KeyError(f'cannot load /{key} from {self.source}: the file '
                           f'has no such entry')
        loaded = self.archive[key]
        if backend.is_array_supported(value):
            if value.shape != loaded.shape:
                raise ValueError(
                    f'cannot load /{key} from {self.source}: the file holds '
                    f'shape {loaded.shape}, the link has {value.shape}')
            if self.write:
                backend.copyto(value, loaded.astype(value.dtype))
            return value
        if not self.write:
            return value
        if value is None:
            return loaded
        return type(value)(loaded.item())


def load_npz(path, link):
    """Fill ``link`` with the values stored in the NPZ file ``path``;
    raises naming the entry, before changing anything, if one is missing
    or has another shape."""
    with numpy.load(path, allow_pickle=False) as archive:
        link.serialize(_NpzReader(archive, path, write=False))
        link.serialize(_NpzReader(archive, path, write=True))


class _NpzWriter:
    """The serializer protocol collecting values into a dict of host
    arrays keyed by path (``'conv1/W'``)."""

    def __init__(self, target, prefix=''):
        self.target = target
        self.prefix = prefix

    def __getitem__(self, name):
        return _NpzWriter(self.target, f'{self.prefix}{name}/')

    def __call__(self, name, value):
        if backend.is_array_supported(value):
            value = backend.CpuDevice().send_array(value)
        self.target[self.prefix + name] = numpy.asarray(value)
        return value


def save_npz(path, link):
    """Write ``link``'s parameters and persistent values (all set) to the
    NPZ file ``path``, laid out as Chainer's ``save_npz`` does."""
    target = {}
    link.serialize(_NpzWriter(target))
    numpy.savez(path, **target)

"""Round trips through a file, for testing ``serialize`` methods."""
import os
import tempfile

from kusari.serializers import hdf5, npz


def save_and_load(src, dst, filename, saver, loader):
    """Save ``src`` with ``saver`` and load the file into ``dst``.

    The file is written in a temporary directory, removed afterwards.

    Args:
        src: Object to save.
        dst: Object to load into.
        filename (str): Name of the file in the temporary directory.
        saver (callable): ``saver(path, src)`` writes the file.
        loader (callable): ``loader(path, dst)`` reads it back.
    """
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, filename)
        saver(path, src)
        loader(path, dst)


def save_and_load_npz(src, dst):
    """:func:`save_and_load` through an NPZ file."""
    save_and_load(src, dst, 'tmp.npz', npz.save_npz, npz.load_npz)


def save_and_load_hdf5(src, dst):
    """:func:`save_and_load` through an HDF5 file."""
    save_and_load(src, dst, 'tmp.h5', hdf5.save_hdf5, hdf5.load_hdf5)

"""A link that only holds one parameter."""
from kusari.array import backend
from kusari.autograd import variable
from kusari.links import link


class Parameter(link.Link):
    """Holds one array as the parameter ``W`` and returns it when called,
    so that a bare array can be optimized as part of a model.

    Args:
        array: The initial array (NumPy or CuPy), used as is; the link
            lives on its device.
    """

    def __init__(self, array):
        if not backend.is_array_supported(array):
            raise TypeError(
                f'Parameter: expected a NumPy or CuPy array, got '
                f'{type(array).__name__}')
        super().__init__()
        with self.init_scope():
            self.W = variable.Parameter(array)
        self.to_device(backend.get_device_from_array(array))

    def forward(self):
        """Return the parameter ``W``."""
        return self.W

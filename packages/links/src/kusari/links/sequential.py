"""Sequential: a model that is a list of layers applied one after another."""
import inspect

import numpy

from kusari.links.link import ChainList, Link


def _layer_type_name(layer):
    if isinstance(layer, Link):
        return type(layer).__name__
    return getattr(layer, '__name__', type(layer).__name__)


def _is_lambda(layer):
    return getattr(layer, '__name__', None) == '<lambda>'


def _layer_text(layer):
    """How a layer is printed: a link as its tree, a lambda as its source
    (as Chainer prints it), a function by name (no address, so that printed
    models compare equal)."""
    if isinstance(layer, Link):
        return str(layer)
    if _is_lambda(layer):
        try:
            return inspect.getsource(layer).strip().rstrip(',')
        except (OSError, TypeError):  # no source (made by eval)
            pass
    qualname = getattr(layer, '__qualname__', None)
    if qualname is not None and callable(layer) and \
            not isinstance(layer, type):
        return f'<function {qualname}>'
    return repr(layer)


class Sequential(ChainList):
    """A list of layers with a single-stream forward.

    A layer is a :class:`~kusari.links.Link` or any callable (``F.relu``, a
    lambda). Calling the model calls each layer on the previous one's
    output; a layer returning a tuple passes it to the next as positional
    arguments. The list interface (``append``, ``insert``, slicing, ``+``,
    ``*``, ...) edits the layers; the links among them are the children
    (named ``'0'``, ``'1'``, ... in their order, as in ChainList), so their
    parameters are the model's.

    Args:
        layers: the layers, in order.
    """

    def __init__(self, *layers):
        super().__init__()
        self._layers = []
        self._set_layers(layers, 'Sequential')

    def _set_layers(self, layers, caller):
        """Validate ``layers``, then make them the layers (all or none)."""
        layers = list(layers)
        for layer in layers:
            if not callable(layer):
                raise ValueError(
                    f'{caller}: a layer must be callable (a Link or a '
                    f'function), got {layer!r} of type '
                    f'{type(layer).__name__}')
        self._layers = layers
        self._children = [layer for layer in layers
                          if isinstance(layer, Link)]
        self._rename()

    def forward(self, *x):
        """Apply the layers in order to the inputs ``x``."""
        if not self._layers:
            raise RuntimeError('Sequential.forward: the model has no layer')
        for layer in self._layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    # -- the list interface ------------------------------------------------

    def __getitem__(self, index):
        """The layer at ``index``; a Sequential of them for a slice (the
        layers are shared, not copied)."""
        if isinstance(index, slice):
            return Sequential(*self._layers[index])
        return self._layers[index]

    def __setitem__(self, index, layer):
        layers = list(self._layers)
        layers[index] = list(layer) if isinstance(index, slice) else layer
        self._set_layers(layers, 'Sequential.__setitem__')

    def __delitem__(self, index):
        layers = list(self._layers)
        del layers[index]
        self._set_layers(layers, 'Sequential.__delitem__')

    def __len__(self):
        return len(self._layers)

    def __iter__(self):
        return iter(self._layers)

    def __reversed__(self):
        return reversed(self._layers)

    def insert(self, index, layer):
        """Insert ``layer`` before position ``index``; IndexError unless
        ``-len(self) <= index <= len(self)`` (as in Chainer)."""
        n = len(self._layers)
        if not -n <= index <= n:
            raise IndexError(f'Sequential.insert: index {index} out of '
                             f'range for {n} layers')
        layers = list(self._layers)
        layers.insert(index, layer)
        self._set_layers(layers, 'Sequential.insert')

    def append(self, layer):
        """Add ``layer`` at the end."""
        self._set_layers(self._layers + [layer], 'Sequential.append')

    add_link = append

    def extend(self, layers):
        """Add every layer of the iterable ``layers`` at the end."""
        self._set_layers(self._layers + list(layers), 'Sequential.extend')

    def clear(self):
        """Remove every layer."""
        self._set_layers([], 'Sequential.clear')

    def __add__(self, other):
        """A new Sequential with the layers of both (shared, not copied)."""
        _check_sequential('+', other)
        return Sequential(*self._layers, *other._layers)

    def __iadd__(self, other):
        """Add the layers of the Sequential ``other`` at the end."""
        _check_sequential('+=', other)
        self.extend(other._layers)
        return self

    def __mul__(self, n_repeat):
        """A flat Sequential of the layers repeated ``n_repeat`` times, each
        repetition a fresh copy (``repeat(n_repeat)``, mode ``'init'``)."""
        if isinstance(n_repeat, bool) or not isinstance(
                n_repeat, (int, numpy.integer)):
            return NotImplemented
        return Sequential(*(layer for block in self.repeat(n_repeat)
                            for layer in block))

    __rmul__ = __mul__

    def flatten(self):
        """A Sequential with nested Sequentials replaced by their layers,
        recursively (the layers are shared)."""
        flat = []
        for layer in self._layers:
            if isinstance(layer, Sequential):
                flat.extend(layer.flatten())
            else:
                flat.append(layer)
        return Sequential(*flat)

    def count_by_layer_type(self, type_name):
        """The number of layers whose type (class name for a link, name
        for a function) is ``type_name``."""
        return sum(_layer_type_name(layer) == type_name
                   for layer in self._layers)

    def remove_by_layer_type(self, type_name):
        """Remove every layer whose type is ``type_name``."""
        self._set_layers(
            [layer for layer in self._layers
             if _layer_type_name(layer) != type_name],
            'Sequential.remove_by_layer_type')

    # -- the link machinery --------------------------------------------

    def __reduce_ex__(self, protocol):
        if any(_is_lambda(layer) for layer in self._layers):
            raise ValueError(
                'Sequential: a lambda layer cannot be pickled; use '
                'functools.partial (or a named function) instead')
        return super().__reduce_ex__(protocol)

    def _share_children(self):
        self._set_layers(
            [layer.copy('share') if isinstance(layer, Link) else layer
             for layer in self._layers], 'Sequential.copy')

    def _printable_children(self):
        for index, layer in enumerate(self._layers):
            yield str(index), _layer_text(layer)


def _check_sequential(operator, other):
    if not isinstance(other, Sequential):
        raise ValueError(
            f'Sequential {operator}: only a Sequential can be added, got '
            f'{type(other).__name__}')

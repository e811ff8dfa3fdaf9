"""The names shared during one export: tensors, parameters, constants."""
from kusari.array import backend
from kusari.autograd.variable import Variable
from kusari.autograd.variable import VariableNode
from kusari.onnx.onnx_helper import cleanse_param_name
from kusari.onnx.onnx_helper import to_tensor


def _key(obj):
    """The object a name is kept for: a Variable's graph node, else the
    object itself (a VariableNode or an array)."""
    if isinstance(obj, Variable):
        return obj.node
    return obj


class Context:
    """Names of one export, keyed by the objects they stand for.

    The parameters and persistent arrays of ``model`` are named from
    their paths (:func:`~kusari.onnx.onnx_helper.cleanse_param_name`).

    Attributes:
        name_list (dict): ``id -> name`` of the named objects (graph
            nodes of Variables, and arrays).
        parameters (list): TensorProtos of the model's parameters that
            were used, as initializers.
        constants (list): TensorProtos of other arrays the graph reads.
    """

    def __init__(self, model):
        self.name_list = {}
        self.parameters = []
        self.constants = []
        self._objects = []  # keeps the named objects (and their ids) alive
        self._names = set()
        self._arrays = {}  # name -> array of the parameters not yet used
        for path, param in model.namedparams():
            name = self.set_name(param, cleanse_param_name(path))
            self._arrays[name] = param
        for path, link, name in model.namedpersistents():
            value = getattr(link, name)
            if backend.is_array_supported(value):
                self._arrays[self.set_name(
                    value, cleanse_param_name(path))] = value

    def get_name(self, variable):
        """The name of a Variable, graph node or array, or None."""
        name = self.name_list.get(id(_key(variable)))
        if name is None and isinstance(variable, VariableNode) \
                and variable.data is not None:
            # A raw array a function read (a persistent value): its node
            # holds the array.
            name = self.name_list.get(id(variable.data))
        return name

    def set_name(self, variable, name, pinned=False):
        """Name a Variable, graph node or array; unless ``pinned``, a
        name already taken gets a numeric suffix. Returns the name."""
        if not pinned:
            name = self.new_name(name)
        elif name in self._names:
            raise ValueError(f'Context.set_name: the name {name!r} is '
                             f'already used in this graph')
        else:
            self._names.add(name)
        self._bind(_key(variable), name)
        return name

    def _bind(self, key, name):
        self._objects.append(key)
        self.name_list[id(key)] = name

    def new_name(self, name):
        """Take ``name``, or ``name_<n>`` with the first n that is free,
        for a new tensor; returns it."""
        candidate, n = name, 0
        while candidate in self._names:
            candidate = f'{name}_{n}'
            n += 1
        self._names.add(candidate)
        return candidate

    def input_name(self, node, array):
        """The name of the tensor behind the graph node a function reads
        (``array`` is its value).

        A parameter or persistent array becomes an initializer when first
        read; any other array (a raw array, or a Variable computed
        outside the traced graph) becomes a constant of its value.
        """
        name = self.get_name(node)
        if name is None:
            name = self.add_const(array, 'constant')
            self._bind(node, name)
        elif name in self._arrays:
            self.parameters.append(to_tensor(self._arrays.pop(name), name))
        return name

    def add_param(self, array, name, use_original_name=False):
        """Add ``array`` as a parameter initializer; returns its name
        (``name`` itself with ``use_original_name``, else a fresh name
        made from it)."""
        if not use_original_name:
            name = self.new_name(name)
        self._names.add(name)
        self.parameters.append(to_tensor(array, name))
        return name

    def add_const(self, array, name):
        """Add ``array`` as a constant initializer (kept even when the
        parameters are not exported); returns its fresh name."""
        name = self.new_name(name)
        self.constants.append(to_tensor(array, name))
        return name



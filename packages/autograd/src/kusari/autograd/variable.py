"""Variables: arrays with gradients, and the graph nodes behind them.

A :class:`Variable` holds an array and its gradient. Its
:class:`VariableNode` (made only when a graph is recorded) holds the edges:
the FunctionNode that created it and the rank that orders backprop. Nodes
refer to their Variables weakly and FunctionNodes to their outputs weakly,
so a graph is freed by reference counting as soon as nothing refers to it.

This is the engine's Variable: its operators (``x * w + b``), indexing and
shape methods (``reshape``, ``T``, ``mean``) are functions of the library,
which gives them to the class (kusari.autograd.functions._variable_methods,
installed by ``import kusari.autograd``).
"""
import warnings
import weakref

import numpy

from kusari.array import lazy_cupy
from kusari.array import backend
from kusari.autograd import _state
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array


_new_object = object.__new__
_weakref = weakref.ref


def _is_array(x):
    return isinstance(x, numpy.ndarray) or lazy_cupy.is_cupy_array(x)


def _check_array(array, what):
    if array is not None and not _is_array(array):
        raise type_check.array_expected(
            f'{what}: expected a numpy.ndarray or cupy.ndarray (or None), '
            f'got {type(array).__name__}'
            + (' (wrap Python scalars and lists with numpy.asarray)'
               if isinstance(array, (int, float, complex, list, tuple))
               else ''), array)


def _as_array(array, what):
    """``array`` itself, or the NumPy/CuPy array sharing the memory of a
    DLPack producer (a PyTorch tensor, say); TypeError for the rest."""
    if array is None or _is_array(array):
        return array
    if hasattr(type(array), '__dlpack__'):
        return backend.from_dlpack(array)
    _check_array(array, what)


def _check_grad(grad, array, what):
    """A gradient must match its variable's shape, dtype and device
    (Chainer's error types: ValueError for the shape, TypeError for the
    rest)."""
    if grad is None or array is None:
        return
    if grad.shape != array.shape:
        raise ValueError(f'{what}: gradient shape {grad.shape} does not '
                         f'match the variable shape {array.shape}')
    if grad.dtype != array.dtype:
        raise TypeError(f'{what}: gradient dtype {grad.dtype} does not '
                         f'match the variable dtype {array.dtype}')
    if type(grad) is not type(array):
        raise TypeError(f'{what}: gradient is a {type(grad).__name__} but '
                        f'the variable holds a {type(array).__name__}')


class VariableNode:
    """A Variable's place in the computational graph.

    Attributes:
        creator_node: the FunctionNode that produced it, or None for a leaf.
        data: the array, kept only when a FunctionNode retains it.
    """

    __slots__ = ('_variable', 'creator_node', '_rank', 'data', 'name',
                 '_requires_grad', 'shape', 'dtype', '__weakref__')

    def __init__(self, variable, name=None, **kwargs):
        if kwargs:
            # Chainer's VariableNode took the gradient before v3.
            if 'grad' in kwargs:
                raise ValueError('VariableNode: the grad argument was '
                                 'removed; set the gradient on the '
                                 'Variable instead')
            raise TypeError(f'VariableNode: unexpected keyword arguments '
                            f'{", ".join(sorted(kwargs))}')
        self._variable = weakref.ref(variable)
        self.creator_node = None
        self._rank = 0
        self.data = None
        self.name = name
        self._requires_grad = variable._requires_grad
        array = variable._array
        if array is None:
            self.shape = self.dtype = None
        else:
            self.shape = array.shape
            self.dtype = array.dtype

    @property
    def rank(self):
        """0 for a leaf; one more than its creator's rank otherwise."""
        return self._rank

    @property
    def requires_grad(self):
        """Whether gradients flow into this node."""
        return self._requires_grad

    @property
    def creator(self):
        """The creator as an old-style Function where it is one."""
        node = self.creator_node
        return getattr(node, '_function', node)

    @creator.setter
    def creator(self, func):
        self.set_creator(func)

    def set_creator(self, creator):
        """Set the creator (a Function or FunctionNode) of this node."""
        self.set_creator_node(getattr(creator, 'node', creator))

    def set_creator_node(self, creator_node):
        """Set the creator FunctionNode; None makes the node a leaf that
        keeps its rank (as :meth:`unchain` does)."""
        self.creator_node = creator_node
        if creator_node is not None:
            self._rank = creator_node.rank + 1

    @property
    def label(self):
        """A short text for graph drawings: shape and dtype."""
        if self.shape == ():
            return str(self.dtype)
        return f'({", ".join(map(str, self.shape))}), {self.dtype}'

    @property
    def grad(self):
        var = self._variable()
        return None if var is None else var.grad

    @property
    def grad_var(self):
        var = self._variable()
        return None if var is None else var.grad_var

    def get_variable(self):
        """The Variable of this node, remade from retained data if gone."""
        var = self._variable()
        if var is not None:
            return var
        var = Variable._bare(self.data, self._requires_grad)
        var._node = self
        self._variable = weakref.ref(var)
        return var

    def get_variable_or_none(self):
        return self._variable()

    def retain_data(self):
        """Keep the Variable's array on the node for backward."""
        var = self._variable()
        if var is None:
            raise RuntimeError('VariableNode.retain_data: the variable was '
                               'already released')
        self.data = var._array

    def unchain(self):
        """Forget the creator; the node becomes a leaf."""
        self.creator_node = None
        self.data = None


class Variable:
    """An array with a gradient, the unit of define-by-run autograd.

    Args:
        data: a NumPy or CuPy array, or None for a Variable to be filled
            later.
        name: a name shown in reprs and graph drawings.
        grad: an initial gradient array of the same shape and dtype.
        requires_grad: whether backward computes a gradient for it.
    """

    # _loss_scale: the loss scale of the backward pass that last set the
    # gradient of this leaf (unset before; read by update rules).
    __slots__ = ('_array', '_grad_var', '_node', '_requires_grad', '_name',
                 '_loss_scale', '__weakref__')
    # Make NumPy defer to our reflected operators (``ndarray * Variable``).
    __array_priority__ = 200
    # Kusari holds NumPy and CuPy arrays only; Chainer's code that branches
    # on ChainerX arrays reads this.
    _has_chainerx_array = False

    def __init__(self, data=None, *, name=None, grad=None,
                 requires_grad=True):
        data = _as_array(data, 'Variable')
        grad = _as_array(grad, 'Variable (grad)')
        _check_grad(grad, data, 'Variable')
        self._array = data
        self._requires_grad = requires_grad
        self._name = name
        self._grad_var = None if grad is None else Variable._bare(grad, True)
        # A Variable made by the user has its node at once, as in Chainer;
        # the core's own outputs get theirs only when a graph is recorded.
        self._node = VariableNode(self, name)

    @staticmethod
    def _bare(array, requires_grad):
        """Wrap an array the core already knows to be valid: no checks."""
        var = _new_object(Variable)
        var._array = array
        var._requires_grad = requires_grad
        var._node = None
        var._name = None
        var._grad_var = None
        return var

    @staticmethod
    def _output(array, creator, rank):
        """The Variable of an output ``array`` (None: not computed) of the
        FunctionNode ``creator`` recording a graph, with its node of
        ``rank``: the fields of both set in one go."""
        var = _new_object(Variable)
        var._array = array
        var._requires_grad = True
        var._name = None
        var._grad_var = None
        node = var._node = _new_object(VariableNode)
        node._variable = _weakref(var)
        node.creator_node = creator
        node._rank = rank
        node.data = None
        node.name = None
        node._requires_grad = True
        if array is None:
            node.shape = node.dtype = None
        else:
            node.shape = array.shape
            node.dtype = array.dtype
        return var

    # -- the array -----------------------------------------------------

    @property
    def array(self):
        """The underlying array (``data`` is the same)."""
        return self._array

    @array.setter
    def array(self, array):
        _check_array(array, 'Variable.array')
        self._array = array
        node = self._node
        if node is not None:
            node.shape = None if array is None else array.shape
            node.dtype = None if array is None else array.dtype
            if node.data is not None:
                node.data = array

    data = array

    @property
    def shape(self):
        return self._array.shape

    @property
    def ndim(self):
        return self._array.ndim

    @property
    def size(self):
        return self._array.size

    @property
    def dtype(self):
        return self._array.dtype

    def __len__(self):
        return len(self._array)

    @property
    def xp(self):
        """The array module (numpy or cupy) of the array."""
        return backend.get_array_module(self._array)

    @property
    def device(self):
        """The :class:`~kusari.array.backend.Device` holding the array."""
        return backend.get_device_from_array(self._array)

    def __dlpack__(self, **kwargs):
        """The array as a DLPack capsule: ``torch.from_dlpack(variable)``
        and ``numpy.from_dlpack(variable)`` share its memory."""
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()

    def __array__(self, dtype=None, copy=None):
        # A 0-d Variable stays an object, as in Chainer, where code keeps
        # reported values in object arrays (numpy.asarray([loss, ...]))
        # and computes with them; anything larger would become an object
        # array of 0-d Variables, which fails later and far away.
        if self._array is not None and self._array.ndim == 0:
            held = numpy.empty((), object)
            held[()] = self
            return held
        raise TypeError(
            'a Variable does not convert to an array implicitly '
            '(numpy.asarray(variable) and the like): use variable.array, '
            'or chainer.as_array(x) for a Variable or an array')

    def item(self):
        """The single element as a Python scalar."""
        if self._array.size != 1:
            raise ValueError(f'Variable.item: only a one-element variable '
                             f'converts to a scalar; this one has shape '
                             f'{self._array.shape}')
        return self._array.item()

    # -- name, node and graph ------------------------------------------

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, name):
        self._name = name
        if self._node is not None:
            self._node.name = name

    @property
    def node(self):
        """The :class:`VariableNode` of this Variable (made on first use)."""
        node = self._node
        if node is None:
            node = self._node = VariableNode(self, self._name)
        return node

    @property
    def creator_node(self):
        node = self._node
        return None if node is None else node.creator_node

    @creator_node.setter
    def creator_node(self, func):
        self.node.set_creator_node(func)

    @property
    def creator(self):
        node = self._node
        return None if node is None else node.creator

    @creator.setter
    def creator(self, func):
        self.node.set_creator(func)

    def set_creator(self, gen_func):
        self.node.set_creator(gen_func)

    def set_creator_node(self, fnode):
        self.node.set_creator_node(fnode)

    @property
    def rank(self):
        node = self._node
        return 0 if node is None else node.rank

    @property
    def label(self):
        return self.node.label

    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if not value and self._grad_var is not None:
            raise ValueError('Variable.requires_grad: cannot turn off a '
                             'variable that already has a gradient')
        self._requires_grad = bool(value)
        if self._node is not None:
            self._node._requires_grad = bool(value)

    def retain_data(self):
        self.node.data = self._array

    def unchain(self):
        """Cut the edge to the creator: this Variable becomes a leaf."""
        if self._node is not None:
            self._node.creator_node = None

    def unchain_backward(self):
        """Cut every edge of the graph behind this Variable: each function
        met leaves the graph, its other outputs becoming leaves too (as in
        Chainer), so that no later backward runs through it."""
        node = self._node
        if node is None:
            return
        stack = [node]
        seen = set()
        while stack:
            node = stack.pop()
            creator = node.creator_node
            node.creator_node = None
            if creator is None or id(creator) in seen:
                continue
            seen.add(id(creator))
            stack.extend(creator.inputs)
            for ref in creator.outputs:
                output = ref()
                if output is not None:
                    output.creator_node = None

    # -- gradients -----------------------------------------------------

    @property
    def grad(self):
        """The gradient array, or None."""
        gv = self._grad_var
        return None if gv is None else gv._array

    @grad.setter
    def grad(self, grad):
        _check_array(grad, 'Variable.grad')
        _check_grad(grad, self._array, 'Variable.grad')
        self._grad_var = None if grad is None else Variable._bare(grad, True)

    @property
    def grad_var(self):
        """The gradient as a Variable (graph-connected after a backward
        with ``enable_double_backprop=True``)."""
        return self._grad_var

    @grad_var.setter
    def grad_var(self, grad_var):
        if grad_var is not None:
            if not isinstance(grad_var, Variable):
                raise TypeError(f'Variable.grad_var: expected a Variable or '
                                f'None, got {type(grad_var).__name__}')
            _check_grad(grad_var._array, self._array, 'Variable.grad_var')
        self._grad_var = grad_var

    def cleargrad(self):
        """Set the gradient to None (the cheap way to reset it)."""
        self._grad_var = None

    def zerograd(self):
        """Set the gradient to zeros of the array's shape and dtype.

        Deprecated as in Chainer: :meth:`cleargrad` is cheaper.
        """
        warnings.warn('Variable.zerograd is deprecated; use '
                      'Variable.cleargrad instead', DeprecationWarning,
                      stacklevel=2)
        array = self._array
        if array is None:
            return
        gv = self._grad_var
        if gv is None:
            self._grad_var = Variable._bare(
                backend.get_array_module(array).zeros_like(array), True)
        else:
            gv.unchain()
            gv._array.fill(0)

    def addgrad(self, var):
        """Add ``var``'s gradient to this one's, across devices."""
        if not isinstance(var, Variable):
            raise TypeError(f'Variable.addgrad: expected a Variable, got '
                            f'{type(var).__name__}')
        src = var.grad_var
        if src is None:
            return
        if self._array is None:  # an uninitialized Parameter
            self.initialize(var.shape)
        device = self.device
        src_array = device.send(src.array)
        dst = self._grad_var
        if dst is None:
            self._grad_var = Variable._bare(src_array.copy(), True) \
                if src_array is src.array else Variable._bare(src_array, True)
        else:
            self._grad_var = Variable._bare(
                force_array(dst._array + src_array), True)

    def backward(self, retain_grad=False, enable_double_backprop=False,
                 loss_scale=None):
        """Backpropagate from this Variable through its graph.

        A one-element Variable without a gradient starts from ones; any
        other needs ``grad`` set first. Gradients of leaves accumulate into
        their ``grad``. Unless ``retain_grad``, the gradient of this
        Variable itself is dropped afterwards (a leaf keeps it), as the
        gradients of the other intermediate Variables are.

        Args:
            retain_grad: keep the gradients of intermediate Variables too.
            enable_double_backprop: record the backward computation, so the
                gradients can be differentiated again.
            loss_scale: multiply the initial gradient by this factor (and
                so every gradient); for float16 loss scaling.
        """
        _state.backward_from_variable(
            self, retain_grad, enable_double_backprop, loss_scale)

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(variable)`` in every :meth:`backward` (and
        :func:`~kusari.autograd.backward`) pass that reaches this leaf,
        as soon as the pass has accumulated its gradient into ``grad``:
        after the last function using the variable has run its backward,
        while the pass goes on with the others (a multi-node optimizer
        starts averaging the gradient there). :func:`grad` calls no hooks.

        The hook must not change the gradient array in place: the pass
        may still be reading it. It may replace ``grad``.

        Returns:
            A handle whose ``remove()`` unregisters the hook.
        """
        if not callable(hook):
            raise TypeError(f'register_post_accumulate_grad_hook: hook must '
                            f'be callable, got {type(hook).__name__}')
        hooks = _state.post_accumulate_grad_hooks.setdefault(self.node, [])
        hooks.append(hook)
        return _HookHandle(self.node, hook)

    # -- devices -------------------------------------------------------

    def to_device(self, device):
        """Move the array and gradient to ``device`` in place."""
        device = backend.get_device(device)
        if self._array is not None:
            self.array = device.send(self._array)
        gv = self._grad_var
        if gv is not None:
            gv._array = device.send(gv._array)
        return self

    def to_cpu(self):
        return self.to_device(backend.CpuDevice())

    def to_gpu(self, device=None):
        from kusari.array import cuda
        return self.to_device(
            backend.GpuDevice(cuda.get_device_or_current(device)))

    def copydata(self, var):
        """Copy ``var``'s array into this one's, across devices. An
        uninitialized Parameter on either side is first initialized to the
        other's shape (nothing happens if both are)."""
        src, dst = var.array, self._array
        if src is None:
            if dst is None:
                return
            var.initialize(dst.shape)
            src = var.array
        elif dst is None:
            self.initialize(src.shape)
            dst = self._array
        backend.copyto(dst, src)

    # -- text ----------------------------------------------------------

    def _format(self, separator):
        prefix = 'variable' if self._name is None \
            else f'variable {self._name}'
        array = self._array
        if array is None:
            body = 'None'
        else:
            array = backend.CpuDevice().send_array(array)
            body = numpy.array2string(
                array, separator=separator, prefix=prefix + '(')
            # repr shows the shape of an empty array as NumPy's does.
            if separator == ', ' and array.size == 0 and \
                    array.shape != (0,):
                body += f', shape={array.shape}'
        return f'{prefix}({body})'

    def __repr__(self):
        return self._format(', ')

    def __str__(self):
        return self._format(' ')

    def summary(self):
        """``<variable NAME>``, or ``<variable at 0x...>`` unnamed (as
        Chainer writes it)."""
        if self._name:
            return f'<variable {self._name}>'
        return f'<variable at {id(self):#x}>'

    def debug_print(self):
        """Several lines describing the array and gradient, for debugging,
        in Chainer's layout: device, array type, shape, dtype, then the
        mean and standard deviation of the data and of the gradient (0 if
        it is all zeros)."""
        array = self._array
        if array is None:
            device = kind = shape = dtype = stats = None
        else:
            device = 'CPU' if isinstance(array, numpy.ndarray) \
                else array.device
            kind, shape, dtype = type(array), array.shape, array.dtype
            stats = _statistics(array)
        grad = self.grad
        if grad is not None:
            xp = backend.get_array_module(grad)
            grad = 0 if bool(xp.all(grad == 0)) else _statistics(grad)
        return '\n'.join((
            self.summary(), f'- device: {device}', f'- backend: {kind}',
            f'- shape: {shape}', f'- dtype: {dtype}',
            f'- statistics: {stats}', f'- grad: {grad}'))

    def __bool__(self):
        raise TypeError('the truth value of a Variable is ambiguous; test '
                        'variable.array (or .item()) instead')

    __hash__ = object.__hash__

    def __copy__(self):
        var = Variable._bare(self._array, self._requires_grad)
        var._name = self._name
        var._grad_var = self._grad_var
        return var

    def __reduce__(self):
        return _rebuild_variable, (type(self), self._array, self._name,
                                   self.grad, self._requires_grad)


def _statistics(array):
    """``mean=..., std=...`` of ``array``, eight decimals each."""
    return (f'mean={float(array.mean()):.8f}, '
            f'std={float(array.std()):.8f}')


def _rebuild_variable(cls, array, name, grad, requires_grad):
    var = cls.__new__(cls)
    Variable.__init__(var, array, name=name, grad=grad,
                      requires_grad=requires_grad)
    return var


class _HookHandle:
    """What ``register_post_accumulate_grad_hook`` returns."""

    def __init__(self, node, hook):
        self._node = weakref.ref(node)
        self._hook = hook

    def remove(self):
        """Unregister the hook (nothing happens the second time)."""
        node = self._node()
        hooks = None if node is None else \
            _state.post_accumulate_grad_hooks.get(node)
        if hooks is None or self._hook not in hooks:
            return
        hooks.remove(self._hook)
        if not hooks:
            del _state.post_accumulate_grad_hooks[node]


class Parameter(Variable):
    """A Variable that a Link owns and an optimizer updates.

    Args:
        initializer: an initializer, a scalar or an array. With an array the
            parameter starts as that array; otherwise it is filled by the
            initializer when ``shape`` is known; None fills it with NaN
            (it is expected to be set later), as in Chainer.
        shape: the shape; without one the parameter stays uninitialized
            until :meth:`initialize` is called (lazy parameters).
        name: the parameter's name.

    As in Chainer, a parameter made by its initializer starts with a NaN
    gradient (a gradient nobody computed; ``cleargrad`` before the first
    backward), unless :meth:`cleargrad` was called before it was
    initialized. Before it is initialized its ``grad`` cannot be read,
    unless something set it (``cleargrad``, ``grad = None``).
    """

    # _grad_initializer: the value the gradient is filled with when the
    # parameter is initialized (None: no gradient); _grad_set: whether the
    # gradient of an uninitialized parameter was set (so it reads as None).
    __slots__ = ('initializer', 'update_rule', '_grad_initializer',
                 '_grad_set', '_device_for_init', '__dict__')

    def __init__(self, initializer=None, shape=None, name=None):
        from kusari.array import initializers
        if _is_array(initializer):
            Variable.__init__(self, initializer, name=name)
            self.initializer = initializers.Constant(initializer)
            self._grad_initializer = None
            self._grad_set = True
        else:
            Variable.__init__(self, None, name=name)
            self.initializer = initializers.NaN() if initializer is None \
                else initializers.get_initializer(initializer)
            self._grad_initializer = numpy.nan
            self._grad_set = False
        self.update_rule = None
        self._device_for_init = backend.CpuDevice()
        if shape is not None and self._array is None:
            self.initialize(shape)

    @property
    def is_initialized(self):
        return self._array is not None

    @property
    def grad(self):
        """The gradient array, or None; reading it raises RuntimeError
        while the parameter is uninitialized, unless :meth:`cleargrad` (or
        the deprecated :meth:`zerograd`) was called."""
        gv = self._grad_var
        if gv is not None:
            return gv._array
        if self._array is None and not self._grad_set:
            raise RuntimeError(
                'Parameter.grad: the gradient of an uninitialized parameter '
                'is made when it is initialized; initialize it first, or '
                'call cleargrad()')
        return None

    @grad.setter
    def grad(self, grad):
        Variable.grad.fset(self, grad)
        self._grad_set = True

    @Variable.grad_var.setter
    def grad_var(self, grad_var):
        Variable.grad_var.fset(self, grad_var)
        self._grad_set = True

    @property
    def dtype(self):
        if self._array is not None:
            return self._array.dtype
        return _initializer_dtype(self.initializer)

    @property
    def device(self):
        if self._array is None:
            return self._device_for_init
        device = Variable.device.fget(self)
        # A host array tells only that it is on the host: a Device class of
        # the user's own over NumPy arrays is the one it was sent to.
        if self._device_for_init.xp is numpy and \
                isinstance(device, backend.CpuDevice):
            return self._device_for_init
        return device

    def initialize(self, shape):
        """Allocate the array of ``shape`` on the parameter's device and
        fill it with the initializer (and the gradient, if
        :meth:`zerograd` asked for one)."""
        from kusari.array import initializers
        device = self._device_for_init
        array = initializers.generate_array(
            self.initializer, shape, device.xp, device=device)
        self._array = array
        if self._node is not None:
            self._node.shape, self._node.dtype = array.shape, array.dtype
        for ref in self.__dict__.pop('_uninitialized_copies', ()):
            copied = ref()
            if copied is not None and copied._array is None:
                copied._array = array
                copied.__dict__.pop('_uninitialized_copies', None)
        fill = self._grad_initializer
        if fill is not None and (fill == 0 or array.dtype.kind in 'fc'):
            self._grad_var = Variable._bare(
                device.xp.full_like(array, fill), True)
        self._grad_initializer = None

    def cleargrad(self):
        Variable.cleargrad(self)
        self._grad_initializer = None
        self._grad_set = True

    def zerograd(self):
        if self._array is None:
            warnings.warn('Parameter.zerograd is deprecated; use '
                          'Parameter.cleargrad instead', DeprecationWarning,
                          stacklevel=2)
            self._grad_initializer = 0
            self._grad_set = True
        else:
            Variable.zerograd(self)

    def to_device(self, device):
        device = backend.get_device(device)
        self._device_for_init = device
        return Variable.to_device(self, device)

    def update(self):
        """Update the parameter with its update rule, if it has one."""
        if self.update_rule is not None:
            self.update_rule.update(self)

    def __copy__(self):
        param = Parameter.__new__(Parameter)
        for name in ('_array', '_requires_grad', '_name', '_grad_var',
                     'initializer', 'update_rule', '_grad_initializer',
                     '_grad_set', '_device_for_init'):
            setattr(param, name, getattr(self, name))
        param._node = None
        if self._array is None:
            # As in Chainer, the copies of an uninitialized parameter share
            # its array once one of them is initialized (Link.copy of a
            # lazy link).
            copies = self.__dict__.setdefault('_uninitialized_copies',
                                              [weakref.ref(self)])
            copies.append(weakref.ref(param))
        param.__dict__.update(self.__dict__)
        return param

    def __reduce__(self):
        grad = None if self._grad_var is None else self._grad_var._array
        return _rebuild_parameter, (self._array, self._name, grad,
                                    self.initializer, self.update_rule,
                                    self._requires_grad,
                                    self._device_for_init,
                                    self._grad_initializer, self._grad_set)


def _initializer_dtype(initializer):
    from kusari.array.configuration import get_dtype
    if not hasattr(initializer, 'dtype'):
        raise RuntimeError(
            f'Parameter.dtype: the parameter is uninitialized and its '
            f'initializer {initializer!r} has no dtype; the dtype is not '
            f'determined yet')
    return get_dtype(initializer.dtype)


def _rebuild_parameter(array, name, grad, initializer, update_rule,
                       requires_grad=True, device=None,
                       grad_initializer=None, grad_set=True):
    param = Parameter(array if array is not None else initializer,
                      name=name)
    param.initializer = initializer
    if grad is not None:
        param.grad = grad
    param.update_rule = update_rule
    param._requires_grad = requires_grad
    if device is not None:
        param._device_for_init = device
    param._grad_initializer = grad_initializer
    param._grad_set = grad_set
    return param


def as_variable(obj):
    """Return ``obj`` if it is a Variable, else wrap the array in one that
    requires no gradient."""
    if isinstance(obj, Variable):
        return obj
    _check_array(obj, 'as_variable')
    return Variable._bare(obj, False)


def as_array(obj):
    """The array of a Variable, ``obj`` itself if it is an array, or the
    array sharing the memory of any other DLPack producer."""
    if isinstance(obj, Variable):
        return obj._array
    if not _is_array(obj) and hasattr(type(obj), '__dlpack__'):
        return backend.from_dlpack(obj)
    return obj

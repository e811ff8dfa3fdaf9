"""Update rules: one parameter's update, its state and hyperparameters.

An :class:`UpdateRule` holds the state of one parameter (moving
averages, ...) and its :class:`Hyperparameter`, whose missing entries come
from a parent (the optimizer's); hooks added to a rule run on that
parameter only. :mod:`kusari.training.optimizer` gives a rule to each
parameter of a link.
"""
import copy

import numpy

from kusari.array import backend
from kusari.autograd.variable import Variable
from kusari.serializers.serializer import Deserializer

_TIMINGS = ('pre', 'post', 'auto')


class Hyperparameter:
    """A set of hyperparameter entries, each an attribute.

    An entry missing here is looked up in the parent, so that the
    hyperparameter of every update rule defaults to the optimizer's, and
    changing the optimizer's learning rate changes it for every parameter
    that has not set its own.

    Args:
        parent (Hyperparameter): where missing entries are looked up.
    """

    def __init__(self, parent=None):
        self._parent = parent

    def __getattr__(self, name):
        # Only called when normal lookup fails: fall back to the parent.
        parent = self.__dict__.get('_parent')
        if parent is None:
            raise AttributeError(
                f'Hyperparameter has no entry {name!r}')
        return getattr(parent, name)

    def __repr__(self):
        entries = ', '.join(f'{key}={value!r}'
                            for key, value in self.get_dict().items())
        return f'Hyperparameter({entries})'

    @property
    def parent(self):
        """The parent hyperparameter, or None."""
        return self._parent

    def get_dict(self):
        """Every entry visible here (own entries over the parent's) as a
        dict."""
        entries = {} if self._parent is None else self._parent.get_dict()
        entries.update((key, value) for key, value in self.__dict__.items()
                       if key != '_parent')
        return entries


class HyperparameterProxy:
    """A property of an optimizer aliasing an entry of its hyperparameter:
    ``optimizer.lr`` reads and writes ``optimizer.hyperparam.lr``.

    Args:
        attr_name (str): the entry's name.
    """

    def __init__(self, attr_name):
        self._attr_name = attr_name
        self.__doc__ = f'Alias to ``self.hyperparam.{attr_name}``.'

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        return getattr(obj.hyperparam, self._attr_name)

    def __set__(self, obj, value):
        setattr(obj.hyperparam, self._attr_name, value)


def set_hyperparams(hyperparam, **entries):
    """Set the entries of ``hyperparam`` that are not None (how an update
    rule's constructor overrides only what it is given)."""
    for name, value in entries.items():
        if value is not None:
            setattr(hyperparam, name, value)


class _Hooks:
    """Hooks of an optimizer or update rule, by timing, in the order of
    registration."""

    def __init__(self):
        self.pre = {}
        self.post = {}

    def add(self, owner, hook, name, timing):
        if not callable(hook):
            raise TypeError(f'{owner}.add_hook: the hook must be callable, '
                            f'got {type(hook).__name__}')
        if timing not in _TIMINGS:
            raise ValueError(f"{owner}.add_hook: timing must be 'pre', "
                             f"'post' or 'auto', got {timing!r}")
        if timing == 'auto':
            # A hook that does not say when it runs runs before the update;
            # as in Chainer, one whose timing is anything but 'pre' after.
            timing = getattr(hook, 'timing', 'pre')
        if name is None:
            name = getattr(hook, 'name', None) or getattr(
                hook, '__name__', None)
            if name is None:
                raise ValueError(
                    f'{owner}.add_hook: the hook has no name attribute; '
                    f'give one with name=')
        if name in self.pre or name in self.post:
            raise KeyError(f'{owner}.add_hook: a hook named {name!r} is '
                           f'already registered')
        (self.pre if timing == 'pre' else self.post)[name] = hook

    def remove(self, owner, name):
        for hooks in (self.pre, self.post):
            if name in hooks:
                del hooks[name]
                return
        raise KeyError(f'{owner}.remove_hook: no hook named {name!r} is '
                       f'registered')


def _optional(serializer, key, value):
    """Save ``value``, or load it if the archive has ``key``: for entries
    Kusari saves beyond Chainer's, absent from snapshots Chainer made."""
    try:
        return serializer(key, value)
    except KeyError:
        return value


class UpdateRule:
    """How one parameter is updated from its gradient.

    A subclass defines :meth:`update_core_cpu` and :meth:`update_core_gpu`
    (or :meth:`update_core`), and :meth:`init_state` if it keeps state: a
    dict of arrays shaped like the parameter, made at the first update and
    moved with the parameter to its device. Hooks registered here run
    before (``'pre'``) or after (``'post'``) each update, as
    ``hook(rule, param)``.

    Args:
        parent_hyperparam (Hyperparameter): where entries missing from
            :attr:`hyperparam` are looked up.

    Attributes:
        enabled (bool): whether :meth:`update` updates the parameter.
        hyperparam (Hyperparameter): the hyperparameters of this rule.
        t (int): the number of updates made.
    """

    is_elementwise = False
    _use_fp32_update = False
    _fp32_param = None

    def __init__(self, parent_hyperparam=None):
        self._hooks = _Hooks()
        self._state = None
        # Where the state lives (``array.device``), None to be checked.
        self._state_device = None
        self.enabled = True
        self.hyperparam = Hyperparameter(parent_hyperparam)
        self.t = 0

    @property
    def state(self):
        """The dict of state arrays, None before the first update."""
        return self._state

    def add_hook(self, hook, name=None, timing='auto'):
        """Register ``hook(rule, param)``.

        Args:
            hook (callable): the hook.
            name (str): its name; ``hook.name`` (or ``__name__``) if None.
            timing (str): ``'pre'`` (before the update), ``'post'``
                (after), or ``'auto'``: the hook's ``timing`` attribute,
                ``'pre'`` where it has none.
        """
        self._hooks.add(type(self).__name__, hook, name, timing)

    def remove_hook(self, name):
        """Unregister the hook ``name``."""
        self._hooks.remove(type(self).__name__, name)

    def update(self, param):
        """Run the hooks and update ``param`` (a Variable) in place."""
        if not self.enabled:
            return
        self.t += 1
        # The gradient is divided by the loss scale of the backward pass
        # that made it (None where that pass had none), as in Chainer.
        loss_scale = getattr(param, '_loss_scale', None)
        if self._use_fp32_update and _dtype_or_none(param) == numpy.float16:
            self._update_in_fp32(param, loss_scale)
        else:
            self._update(param, loss_scale)

    def _update(self, param, loss_scale):
        array = param.array
        if array is not None:
            if self._state is None:
                self._init_states(param)
            elif self._state_device != array.device:
                self._move_state(array)
            if loss_scale is not None:
                grad = param.grad
                if grad is not None:
                    grad /= loss_scale
        for hook in self._hooks.pre.values():
            hook(self, param)
        self.update_core(param)
        for hook in self._hooks.post.values():
            hook(self, param)

    def _update_in_fp32(self, param, loss_scale):
        """Update a float16 parameter through a float32 master copy, so
        that small steps are not lost to float16 rounding. An uninitialized
        one has nothing to copy yet: the rule is given an uninitialized
        float32 stand-in, and the parameter stays as it is."""
        if param.array is None:
            from kusari.array import initializers
            from kusari.autograd.variable import Parameter
            self._update(Parameter(initializers.NaN(numpy.float32),
                                   name=param.name), loss_scale)
            return
        master = self._fp32_param
        if master is None:
            master = self._fp32_param = Variable(
                param.array.astype(numpy.float32), name=param.name)
        elif master.array.device != param.array.device:
            master.to_device(backend.get_device_from_array(param.array))
        grad = param.grad
        master.grad = None if grad is None else grad.astype(numpy.float32)
        self._update(master, loss_scale)
        backend.copyto(param.array, master.array)
        master.grad = None

    def _init_states(self, param):
        self._state = {}
        array = param.array
        with backend.get_device_from_array(array):
            self.init_state(param)
        self._state_device = array.device

    def _move_state(self, array):
        device = backend.get_device_from_array(array)
        state = self._state
        for key, value in state.items():
            if backend.is_array_supported(value):
                state[key] = device.send(value)
        self._state_device = array.device

    def update_core(self, param):
        """Update ``param`` from its gradient.

        Calls :meth:`update_core_cpu` for a parameter on the host and
        :meth:`update_core_gpu`, with its device current, for one on a
        GPU. As in Chainer, it is called for every parameter, also one
        without a gradient or an uninitialized one: those methods return
        at once where there is nothing to update.
        """
        array = param.array
        if isinstance(array, numpy.ndarray):
            self.update_core_cpu(param)
            return
        device = param.device if array is None else array.device
        if array is None and device.xp is numpy:
            self.update_core_cpu(param)
        else:
            with device:
                self.update_core_gpu(param)

    def update_core_cpu(self, param):
        """Update a parameter on the host (NumPy arrays)."""
        raise NotImplementedError(
            f'{type(self).__name__} defines no update for NumPy arrays '
            f'(update_core_cpu)')

    def update_core_gpu(self, param):
        """Update a parameter on a GPU (CuPy arrays)."""
        raise NotImplementedError(
            f'{type(self).__name__} defines no update for CuPy arrays '
            f'(update_core_gpu)')

    def update_core_chainerx(self, param):
        """Chainer's update of a parameter held in a ChainerX array. Kusari
        has no ChainerX arrays, so it never calls this; a rule written for
        Chainer may still define or call it, and it updates as
        :meth:`update_core` does."""
        self.update_core(param)

    def init_state(self, param):
        """Fill :attr:`state` for ``param`` (its shape, dtype and device);
        called at the first update with the parameter's device current."""

    def use_fp32_update(self, flag=True):
        """Update float16 parameters through a float32 copy of them (and
        float32 state): the gradient is cast to float32, the copy updated
        and cast back into the parameter."""
        self._use_fp32_update = flag

    def serialize(self, serializer):
        """Save or load :attr:`t` and the state (not the parameter).

        Loading into a rule with no state yet takes the stored arrays as
        the state; a snapshot saved before the first update has none, and
        the state is then made at the next update as usual.
        """
        self.t = serializer('t', self.t)
        if self._state is not None:
            for key in self._state:
                self._state[key] = serializer(key, self._state[key])
        elif isinstance(serializer, Deserializer):
            self._load_state(serializer)
        if self._use_fp32_update:
            master = self._fp32_param
            stored = _optional(serializer, 'fp32_param',
                               None if master is None else master.array)
            if master is None and stored is not None:
                self._fp32_param = Variable(stored)

    def _load_state(self, serializer):
        # The entries are those init_state makes, found by running it on a
        # copy of this rule that shares its new state dict (an init_state
        # set on the instance, as Chainer's tests set one, fills it too).
        keys = self._state = {}
        array = numpy.zeros(1, numpy.float32)
        copy.copy(self).init_state(Variable(array, grad=array))
        keys, self._state = list(keys), None
        loaded, absent = {}, []
        for key in keys:
            try:
                loaded[key] = serializer(key, None)
            except KeyError:
                absent.append(key)
        if absent and len(absent) < len(keys) and self.enabled:
            raise KeyError(
                f'{type(self).__name__}.serialize: the snapshot has the '
                f'state entries {sorted(loaded)} but not {absent}; was it '
                f'saved by another kind of optimizer?')
        # A snapshot from before the first update (no entry), a lenient
        # deserializer's None, or a disabled rule: the state is made at
        # the next update, as usual.
        if absent or any(value is None for value in loaded.values()):
            return
        self._state = loaded
        self._state_device = None


def _dtype_or_none(param):
    """The dtype of ``param``, None where it is uninitialized and its
    initializer names none."""
    try:
        return param.dtype
    except RuntimeError:
        return None

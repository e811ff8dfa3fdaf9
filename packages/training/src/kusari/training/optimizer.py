"""Optimizers: the machinery that updates a link's parameters.

An :class:`Optimizer` is set up on a link; a :class:`GradientMethod` gives
each parameter an :class:`UpdateRule`, which holds that parameter's state
(moving averages, ...) and its :class:`Hyperparameter`, whose missing
entries come from the optimizer's. Hooks run before or after the updates,
once per update (given the optimizer) or once per parameter (given the rule
and the parameter).
"""
import copy
import math
import warnings

import numpy

from kusari.array import backend
from kusari.autograd.variable import Variable
from kusari.links.link import Link
from kusari.serializers.serializer import Deserializer
# Chainer 7 kept these hooks importable from chainer.optimizer.
from kusari.training import optimizer_hooks

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
            # one whose timing attribute says neither too, with a warning
            # (as in Chainer).
            timing = getattr(hook, 'timing', 'pre')
            if timing not in ('pre', 'post'):
                warnings.warn(
                    f"{owner}.add_hook: the hook's timing attribute is "
                    f"{timing!r}, not 'pre' nor 'post'; it runs 'pre'")
                timing = 'pre'
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
        if self._use_fp32_update and param.array is not None and \
                param.dtype == numpy.float16:
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
        grad = None if array is None else param.grad
        if loss_scale is not None and grad is not None:
            grad /= loss_scale
        for hook in self._hooks.pre.values():
            hook(self, param)
        self.update_core(param)
        for hook in self._hooks.post.values():
            hook(self, param)

    def _update_in_fp32(self, param, loss_scale):
        """Update a float16 parameter through a float32 master copy, so
        that small steps are not lost to float16 rounding."""
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
        """Update ``param`` from its gradient; nothing if it has none.

        Calls :meth:`update_core_cpu` for a NumPy array and
        :meth:`update_core_gpu`, with the array's device current, for a
        CuPy one.
        """
        array = param.array
        if array is None or param.grad is None:
            return
        if isinstance(array, numpy.ndarray):
            self.update_core_cpu(param)
        else:
            with array.device:
                self.update_core_gpu(param)

    def update_core_cpu(self, param):
        """Update a parameter held in a NumPy array (it has a gradient)."""
        raise NotImplementedError(
            f'{type(self).__name__} defines no update for NumPy arrays '
            f'(update_core_cpu)')

    def update_core_gpu(self, param):
        """Update a parameter held in a CuPy array (it has a gradient)."""
        raise NotImplementedError(
            f'{type(self).__name__} defines no update for CuPy arrays '
            f'(update_core_gpu)')

    def update_core_chainerx(self, param):
        """Chainer's update of a ChainerX parameter: by default that of the
        NumPy or CuPy parameter sharing its memory. Kusari's parameters
        are NumPy or CuPy ones already, so it is :meth:`update_core`'s
        path (which never comes here); a subclass may override it for
        code written for Chainer."""
        self.update_core(param)

    def init_state(self, param):
        """Fill :attr:`state` for ``param`` (its shape, dtype and device);
        called at the first update with the parameter's device current."""

    def use_fp32_update(self, flag=True):
        """Update float16 parameters through a float32 copy of them (and
        float32 state): the gradient is cast to float32, the copy updated
        and cast back into the parameter."""
        self._use_fp32_update = flag

    def _state_keys(self):
        """The names :meth:`init_state` gives to the state entries, found
        on a copy that shares this rule's (new) state dict, as Chainer
        does: an ``init_state`` may fill ``rule.state`` of the rule it was
        set on."""
        state = self._state = {}
        try:
            array = numpy.zeros(1, numpy.float32)
            copy.copy(self).init_state(Variable(array, grad=array))
        finally:
            self._state = None
        return list(state)

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
        keys = self._state_keys()
        loaded, absent = {}, []
        for key in keys:
            try:
                loaded[key] = serializer(key, None)
            except KeyError:  # (a strict deserializer's answer)
                absent.append(key)
        if len(absent) == len(keys):
            return
        if absent and self.enabled:
            raise KeyError(
                f'{type(self).__name__}.serialize: the snapshot has the '
                f'state entries {sorted(loaded)} but not {absent}; was it '
                f'saved by another kind of optimizer?')
        # An entry left None (or absent from a disabled rule's snapshot)
        # leaves the state to be made at the next update, as in Chainer.
        if absent or any(value is None for value in loaded.values()):
            return
        self._state = loaded
        self._state_device = None


class Optimizer:
    """Base of all optimizers: updates the parameters of a target link.

    Call :meth:`setup` with the link first. Hooks added with
    :meth:`add_hook` run before (``'pre'``) or after (``'post'``) each
    update: ``hook(optimizer)``, or ``hook(rule, param)`` for each parameter
    if ``hook.call_for_each_param`` is true.

    Attributes:
        target (Link): the link being optimized.
        t (int): the number of updates made.
        epoch (int): the current epoch (see :meth:`new_epoch`).
        use_auto_new_epoch (bool): True when an updater calls
            :meth:`new_epoch` (it then refuses calls from elsewhere).
    """

    target = None
    t = 0
    epoch = 0
    use_auto_new_epoch = False
    _hooks = None
    _loss_scale = None
    _loss_scale_max = 65504
    _loss_scaling_is_dynamic = False
    _loss_scaling_multiplier = None
    _loss_scaling_isnan = False
    _loss_scaling_isnan_ever = False

    def setup(self, link):
        """Make ``link`` the target (resetting :attr:`t`, :attr:`epoch` and
        the hooks); returns self."""
        if not isinstance(link, Link):
            raise TypeError(
                f'{type(self).__name__}.setup: the optimization target must '
                f'be a Link, got {type(link).__name__}')
        self.target = link
        self.t = 0
        self.epoch = 0
        self._hooks = _Hooks()
        return self

    def _check_set_up(self, caller):
        if self._hooks is None:
            raise RuntimeError(
                f'{type(self).__name__}.{caller}: the optimizer is not set '
                f'up; call setup(link) first')

    def update(self, lossfun=None, *args, **kwds):
        """Update the parameters.

        With ``lossfun``, ``lossfun(*args, **kwds)`` is called for the loss
        and its gradients are computed first; without it, the gradients of
        the parameters must already be computed.
        """
        raise NotImplementedError(
            f'{type(self).__name__} does not define update')

    def new_epoch(self, auto=False):
        """Count the start of a new epoch.

        Args:
            auto (bool): True when called by an updater, which must have
                set :attr:`use_auto_new_epoch`; a call from elsewhere then
                raises, since it would count the epoch twice.
        """
        if self.use_auto_new_epoch and not auto:
            raise RuntimeError(
                f'{type(self).__name__}.new_epoch: the updater already '
                f'calls new_epoch; pass auto_new_epoch=False to the updater '
                f'or stop calling new_epoch yourself')
        if auto and not self.use_auto_new_epoch:
            raise RuntimeError(
                f'{type(self).__name__}.new_epoch: called with auto=True '
                f'but use_auto_new_epoch is False; the updater must set '
                f'optimizer.use_auto_new_epoch = True')
        self.epoch += 1

    def add_hook(self, hook, name=None, timing='auto'):
        """Register a hook.

        Args:
            hook (callable): ``hook(optimizer)``, or ``hook(rule, param)``
                for each parameter if ``hook.call_for_each_param`` is true.
            name (str): its name; ``hook.name`` (or ``__name__``) if None.
            timing (str): ``'pre'`` (before the updates), ``'post'``
                (after), or ``'auto'``: the hook's ``timing`` attribute,
                ``'pre'`` where it has none.
        """
        self._check_set_up('add_hook')
        self._hooks.add(type(self).__name__, hook, name, timing)

    def remove_hook(self, name):
        """Unregister the hook ``name``."""
        self._check_set_up('remove_hook')
        self._hooks.remove(type(self).__name__, name)

    def call_hooks(self, timing='pre'):
        """Call the hooks of ``timing`` in the order of registration."""
        if timing not in ('pre', 'post'):
            raise ValueError(f"{type(self).__name__}.call_hooks: timing "
                             f"must be 'pre' or 'post', got {timing!r}")
        hooks = self._hooks.pre if timing == 'pre' else self._hooks.post
        for hook in list(hooks.values()):
            self.call_hook(hook)

    def call_hook(self, hook):
        """Call one hook: once, or once per parameter."""
        if getattr(hook, 'call_for_each_param', False):
            for param in self.target.params():
                hook(param.update_rule, param)
        else:
            hook(self)

    def serialize(self, serializer):
        """Save or load :attr:`t`, :attr:`epoch`, the dynamic loss scale,
        and the state of every update rule under its parameter's path.

        The parameters themselves are not saved: save the link too.
        """
        self._check_set_up('serialize')
        self.t = serializer('t', self.t)
        self.epoch = serializer('epoch', self.epoch)
        if self._loss_scaling_is_dynamic:
            self._loss_scale = _optional(
                serializer, 'loss_scale', self._loss_scale)
            self._loss_scaling_isnan_ever = _optional(
                serializer, 'loss_scaling_isnan_ever',
                self._loss_scaling_isnan_ever)
        for path, param in self.target.namedparams():
            rule = param.update_rule
            if rule is not None:
                rule.serialize(serializer[path])

    # -- loss scaling --------------------------------------------------

    def loss_scaling(self, interval=1000, scale=None):
        """Configure loss scaling, for training with float16 gradients.

        The loss is multiplied by the scale before backprop, and the
        gradients divided by it before the update.

        Args:
            interval (int): with dynamic scaling, the number of updates
                over which the scale doubles.
            scale (float): a fixed scale; None for dynamic scaling, which
                starts at 1, doubles after each update until a gradient
                overflows, then halves on each overflow (skipping that
                update) and otherwise grows by ``2 ** (1 / interval)``.
        """
        if scale is None:
            if isinstance(interval, bool) or not isinstance(
                    interval, (int, numpy.integer)) or interval < 1:
                raise ValueError(
                    f'{type(self).__name__}.loss_scaling: interval must be '
                    f'an int >= 1, got {interval!r}')
            self._loss_scaling_is_dynamic = True
            self._loss_scale = 1.0
            self._loss_scaling_multiplier = math.pow(2.0, 1.0 / interval)
            self._loss_scaling_isnan_ever = False
        else:
            self.set_loss_scale(scale)

    def set_loss_scale(self, loss_scale):
        """Use the fixed loss scale ``loss_scale`` (None for none)."""
        if loss_scale is not None and not loss_scale > 0:
            raise ValueError(
                f'{type(self).__name__}.set_loss_scale: the loss scale must '
                f'be a positive number, got {loss_scale!r}')
        self._loss_scale = loss_scale
        self._loss_scaling_is_dynamic = False

    def check_nan_in_grads(self):
        """With dynamic loss scaling, note whether a gradient holds a NaN or
        an infinity (the update is then skipped, with a warning)."""
        self._loss_scaling_isnan = False
        if not self._loss_scaling_is_dynamic:
            return
        for path, param in self.target.namedparams(include_uninit=False):
            grad = param.grad
            if grad is not None and not _all_finite(grad):
                self._loss_scaling_isnan = True
                self._loss_scaling_isnan_ever = True
                warnings.warn(
                    f'{type(self).__name__}.update: non-finite gradient in '
                    f'{path}; this update is skipped (iteration {self.t}, '
                    f'loss scale {self._loss_scale})', RuntimeWarning,
                    stacklevel=3)
                return

    def is_safe_to_update(self):
        """False when the last check found a non-finite gradient."""
        return not self._loss_scaling_isnan

    def update_loss_scale(self):
        """Grow or shrink the dynamic loss scale after an update."""
        if not self._loss_scaling_is_dynamic:
            return
        if self._loss_scaling_isnan:
            multiplier = 0.5
        elif self._loss_scaling_isnan_ever:
            multiplier = self._loss_scaling_multiplier
        else:
            multiplier = 2.0
        self._loss_scale = max(1.0, min(self._loss_scale_max,
                                        self._loss_scale * multiplier))


def _all_finite(grad):
    if grad.dtype == numpy.float64:
        return bool(backend.get_array_module(grad).isfinite(grad).all())
    # A float64 sum of narrower floats cannot overflow, and carries any NaN
    # or infinity: no boolean array is made.
    with numpy.errstate(invalid='ignore'):
        return math.isfinite(float(grad.sum(dtype=numpy.float64)))


class GradientMethod(Optimizer):
    """Base of the optimizers that update each parameter from its gradient
    alone, through an :class:`UpdateRule` per parameter.

    A subclass defines :meth:`create_update_rule`; its hyperparameters live
    in :attr:`hyperparam`, the parent of every rule's, and are usually
    exposed as properties with :class:`HyperparameterProxy`.

    Attributes:
        hyperparam (Hyperparameter): the defaults of every update rule.
    """

    _use_cleargrads = True

    def __init__(self):
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False

    def setup(self, link):
        """Set up on ``link``, giving each parameter a new update rule."""
        super().setup(link)
        for param in link.params():
            param.update_rule = self.create_update_rule()
            if self._use_fp32_update:
                param.update_rule.use_fp32_update()
        return self

    def create_update_rule(self):
        """A new :class:`UpdateRule` for one parameter."""
        raise NotImplementedError(
            f'{type(self).__name__} does not define create_update_rule')

    def call_hook(self, hook):
        """Call one hook, then give zero gradients to the parameters it
        cleared (as in Chainer: each hook sees every gradient)."""
        super().call_hook(hook)
        self.reallocate_cleared_grads()

    def reallocate_cleared_grads(self):
        """Give every initialized parameter without a gradient a zero one,
        so that every parameter is updated (with zeros, momentum still
        moves it)."""
        for param in self.target.params(include_uninit=False):
            if param.grad is None:
                array = param.array
                with backend.get_device_from_array(array):
                    param.grad = backend.get_array_module(
                        array).zeros_like(array)

    def use_cleargrads(self, use=True):
        """Deprecated: :meth:`update` with a loss function clears the
        gradients with ``cleargrads`` (``zerograds`` if ``use`` is False).
        """
        warnings.warn(
            'GradientMethod.use_cleargrads is deprecated: update() calls '
            'cleargrads() already', DeprecationWarning, stacklevel=2)
        self._use_cleargrads = use

    def use_fp32_update(self, flag=True):
        """Update float16 parameters through float32 copies (see
        :meth:`UpdateRule.use_fp32_update`), for every rule."""
        self._use_fp32_update = flag
        if self.target is not None:
            for param in self.target.params():
                if param.update_rule is not None:
                    param.update_rule.use_fp32_update(flag)

    def update(self, lossfun=None, *args, **kwds):
        """Update every parameter with its update rule.

        With ``lossfun``, the loss ``lossfun(*args, **kwds)`` is computed,
        the gradients cleared and backpropagated (multiplied by the loss
        scale, if any) first. Without it, the gradients must be computed
        already, by ``loss.backward(loss_scale=...)`` where a loss scale
        is set: as in Chainer, each gradient is divided by the scale of
        the backward pass that made it (not at all if it had none). Then: the
        gradients left None become zeros, the ``'pre'`` hooks run, each
        parameter is updated (unless dynamic loss scaling found a
        non-finite gradient), and the ``'post'`` hooks run.
        """
        self._check_set_up('update')
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if self._use_cleargrads:
                self.target.cleargrads()
            else:
                self.target.zerograds()
            loss.backward(loss_scale=self._loss_scale)
            del loss
        self.reallocate_cleared_grads()
        self.check_nan_in_grads()
        self.call_hooks('pre')
        self.t += 1
        if not self._loss_scaling_isnan:
            for param in self.target.params():
                if param.update_rule is not None:
                    param.update()
        self.reallocate_cleared_grads()
        self.call_hooks('post')
        self.update_loss_scale()


def _deprecated_hook(hook_class):
    """``hook_class`` under its old name in this module (Chainer's
    ``chainer.optimizer.WeightDecay``): the same hook, warning when made
    that the name is deprecated."""
    name = hook_class.__name__

    def __init__(self, *args, **kwargs):
        warnings.warn(f'optimizer.{name} is deprecated; use '
                      f'optimizer_hooks.{name} instead', DeprecationWarning,
                      stacklevel=2)
        hook_class.__init__(self, *args, **kwargs)

    return type(name, (hook_class,), {
        '__init__': __init__, '__module__': __name__,
        '__doc__': f'Deprecated: :class:`optimizer_hooks.{name}`.'})


GradientClipping = _deprecated_hook(optimizer_hooks.GradientClipping)
GradientHardClipping = _deprecated_hook(optimizer_hooks.GradientHardClipping)
GradientNoise = _deprecated_hook(optimizer_hooks.GradientNoise)
Lasso = _deprecated_hook(optimizer_hooks.Lasso)
WeightDecay = _deprecated_hook(optimizer_hooks.WeightDecay)
